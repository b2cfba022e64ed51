//! What the example programs share that is not part of an integration: the
//! scripted dialogue they play instead of a serial line, its expected replies, the
//! check, and the panic handler of the bare-metal builds.
#![no_std]

#[cfg(not(target_os = "none"))]
extern crate std;

/// What the other end of the serial line sends: two games and a few questions.
pub const SCRIPT: &[u8] = b"new 8 0 3 first
go
opp 3 0
opp 1 0
new 8 0 3 second
opp 3 1

state
limits
";

/// The replies a perfect player owes [`SCRIPT`], one line per command (the blank
/// line gets none), as the rules (docs/rules.md) and the protocol
/// (docs/protocol.md) have them: the first game is the rules' first worked example
/// (8 stones, no resets, M = 3: the bot takes 1, the opponent 3, and the bot's limit
/// of 4 empties the pile); a finished game refuses more moves; a reset nobody has is
/// refused and changes nothing; the limits are the ones the table was built for.
pub const EXPECTED: &[u8] = b"ok
move 1 0
move 4 0 won
error the game is over
ok
error illegal move: no resets left
state stones 8 limit 3 cap 3 resets 0 0 pending 0 turn opponent
limits stones 999 resets 4 init_max 3 line 80
";

/// Room for the replies to [`SCRIPT`].
const REPLY_ROOM: usize = 512;

/// Run `play` on [`SCRIPT`] as the receive half, with a buffer as the transmit half:
/// `Ok` with the replies if they are exactly [`EXPECTED`], else `Err` with them.
pub fn dialogue(
    sent: &mut [u8; REPLY_ROOM],
    play: impl FnOnce(&mut &[u8], &mut &mut [u8]),
) -> Result<&[u8], &[u8]> {
    let mut rx: &[u8] = SCRIPT;
    let mut tx: &mut [u8] = sent;
    play(&mut rx, &mut tx);
    let len = REPLY_ROOM - tx.len();
    let replies = sent.get(..len).unwrap_or_default();
    if replies == EXPECTED {
        Ok(replies)
    } else {
        Err(replies)
    }
}

/// The host's `main`: the dialogue through `play`, the verdict on stdout (or the
/// replies on stderr), and the exit status to match.
#[cfg(not(target_os = "none"))]
pub fn check_on_host(
    name: &str,
    play: impl FnOnce(&mut &[u8], &mut &mut [u8]),
) -> std::process::ExitCode {
    let mut sent = [0u8; REPLY_ROOM];
    match dialogue(&mut sent, play) {
        Ok(replies) => {
            let lines = replies.iter().filter(|b| **b == b'\n').count();
            std::println!("{name}: all {lines} replies as expected");
            std::process::ExitCode::SUCCESS
        }
        Err(replies) => {
            let text = std::string::String::from_utf8_lossy(replies);
            std::eprintln!("{name}: unexpected replies:\n{text}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The bare-metal `main`: the dialogue through `play`, then idle. With no board
/// there is nobody to tell: a debugger finds the verdict in `sent`.
#[cfg(target_os = "none")]
pub fn check_bare(play: impl FnOnce(&mut &[u8], &mut &mut [u8])) -> ! {
    let mut sent = [0u8; REPLY_ROOM];
    let _ = core::hint::black_box(dialogue(&mut sent, play).is_ok());
    loop {}
}

/// The bare-metal builds stop on a panic; the line protocol never panics, and a
/// board's own code decides what a fault should do.
#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
