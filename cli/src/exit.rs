//! How a command ends: its answer printed and exit status 0, or one line on
//! stderr (`nimbot CMD: ...`) and the usage error's exit status, 2.

use std::process::ExitCode;

use nimbot::Params;

/// A command's answer: `print` it and succeed, or say what is wrong.
pub fn answer<T, E: std::fmt::Display>(
    cmd: &str,
    result: Result<T, E>,
    print: impl FnOnce(T),
) -> ExitCode {
    match result {
        Ok(t) => {
            print(t);
            ExitCode::SUCCESS
        }
        Err(e) => usage(cmd, e),
    }
}

/// Prints an answer already written, or its error.
pub fn answer_text(cmd: &str, text: Result<String, String>) -> ExitCode {
    answer(cmd, text, |text| print!("{text}"))
}

/// A game's parameters, or (after one line on stderr) the usage error's exit status.
pub fn params(cmd: &str, stones: u32, resets: u8, init_max: u32) -> Result<Params, ExitCode> {
    Params::new(stones, resets, init_max).map_err(|e| usage(cmd, e))
}

/// Says what is wrong (`nimbot CMD: WHY` on stderr): the usage error's exit status.
pub fn usage(cmd: &str, why: impl std::fmt::Display) -> ExitCode {
    eprintln!("nimbot {cmd}: {why}");
    ExitCode::from(2)
}
