//! `nimbot-board-facts DIR`: the facts of the board crate in DIR as shell
//! assignments, for tools/firmware.sh to `eval`; a manifest that breaks the schema
//! stops it with one line naming the manifest (exit status 1).

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(dir), None) = (args.next(), args.next()) else {
        eprintln!("usage: nimbot-board-facts BOARD_DIR (a folder of firmware/boards/)");
        return ExitCode::from(2);
    };
    match nimbot_boards::Facts::read(Path::new(&dir)) {
        Ok(facts) => {
            print!("{}", facts.shell());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("firmware.sh: {e}");
            ExitCode::FAILURE
        }
    }
}
