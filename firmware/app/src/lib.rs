//! The nimbot firmware application, the same on every board.
//!
//! The line protocol of `nimbot_protocol` (the same code as the host binary) runs
//! over a UART and plays from the solution table embedded in flash
//! (`TableEngine::embedded()`): no heap, and no panic the linker can reach (see
//! [`panic_guard`]). A board crate (under `firmware/boards/`) contributes only
//! its start-up, its memory map and its UART as an [`embedded_io::Read`] +
//! [`embedded_io::Write`], then calls [`run`].
//!
//! Besides the protocol's commands the firmware answers one diagnostic of its own,
//! `stack`, with `stack used U of S`: the deepest stack use since reset and the
//! stack's size, in bytes ([`stack`]). It is handled here, before the line reaches
//! the session, so the shared protocol stays exactly as on the host. The `cost`
//! build (feature `cost`, for the QEMU benchmark) adds the `cost` diagnostics
//! (module `cost`).
#![no_std]

#[cfg(feature = "cost")]
pub mod cost;
pub mod guard;
mod io_error;
mod line;
mod meter;
pub mod polled;
#[cfg(feature = "nb")]
pub mod serial;
// Reads the runtime's stack symbols and the painted stack: unsafe by nature (the
// manifest denies unsafe code elsewhere, as the workspace does).
#[allow(unsafe_code)]
pub mod stack;

use embedded_io::{Read, Write};
use nimbot::{text::text, text::Decimal, Engine, TableEngine};
use nimbot_protocol::{Line, LineReader, Reply, Session};

pub use io_error::IoError;
pub use stack::Stack;

use line::{send, Part};
use meter::{Meter, Unmetered};

/// The first line after reset, so that whoever is on the other end of the UART
/// (a person, or the QEMU test) knows the board is listening (the protocol's).
pub use nimbot_protocol::BANNER;

/// The read loop: a line in, at most one line out, forever.
///
/// Read errors (framing, overrun, noise: whatever the UART reports) drop the line
/// they garbled, and a reply that cannot be written is dropped too: both sides of
/// a serial line resynchronize on the next line end.
pub fn run<U: Read + Write>(uart: &mut U, stack: &Stack) -> ! {
    serve(uart, stack, |engine| engine, &mut Unmetered)
}

/// [`run`] in the `cost` build: the embedded table's engine timed by `ticker`, and
/// the `cost` diagnostics answered (see [`cost`]).
#[cfg(feature = "cost")]
pub fn run_metered<U: Read + Write, T: cost::Ticker>(uart: &mut U, stack: &Stack, ticker: &T) -> ! {
    let costs = cost::Costs::default();
    let timed = |engine| cost::Timed::new(engine, ticker, &costs);
    serve(uart, stack, timed, &mut cost::Meter::new(ticker, &costs))
}

/// The read loop of [`run`], on the embedded table's engine as `engine` wraps it,
/// measured by `meter`. Inlined into its one caller: the shipped image comes out
/// exactly as it would without the hooks.
#[inline(always)]
fn serve<U: Read + Write, E: Engine, M: Meter>(
    uart: &mut U,
    stack: &Stack,
    engine: impl FnOnce(TableEngine) -> E,
    meter: &mut M,
) -> ! {
    send(uart, &[Part::Text(text!(BANNER))]);
    // The table was checked (checksum, every field) when the core was compiled.
    let mut session = Session::new(engine(TableEngine::embedded()));
    let mut reader = LineReader::default();
    // The one reply buffer: the session writes each reply into it in place.
    let mut reply = Reply::default();
    loop {
        let line = match reader.next_line(uart) {
            Ok(Some(line)) => line,
            // A UART never ends, and an error garbled the line: start afresh.
            Ok(None) | Err(_) => {
                reader.restart();
                continue;
            }
        };
        if let Line::Text(text) = line {
            #[cfg(feature = "panic-canary")]
            core::hint::black_box(core::hint::black_box(text)[70]);
            if is_stack_command(text) {
                // Sizes are far below 4 GB: u32 digits, no 64-bit division.
                let bytes = |n: usize| Decimal::new(u32::try_from(n).unwrap_or(u32::MAX));
                send(
                    uart,
                    &[
                        Part::Text(text!("stack used ")),
                        Part::Bytes(&bytes(stack.used())),
                        Part::Text(text!(" of ")),
                        Part::Bytes(&bytes(stack.size())),
                    ],
                );
                continue;
            }
        }
        if meter.diagnostic(&line, uart) {
            continue;
        }
        meter.begin();
        let replied = session.handle_into(line, &mut reply);
        meter.end();
        if replied {
            send(uart, &[Part::Bytes(&reply)]);
        }
    }
}

/// `stack`, alone on its line (spaces and tabs around it allowed).
fn is_stack_command(line: &[u8]) -> bool {
    let mut words = line
        .split(|b| *b == b' ' || *b == b'\t')
        .filter(|w| !w.is_empty());
    words.next() == Some(b"stack") && words.next().is_none()
}

/// The last words of a board whose HAL can still panic (the guard is off there):
/// `error firmware panic, resetting` on the serial line, then the caller resets.
/// `busy` says the transmitter cannot take a byte yet, `send` hands it one, and
/// `draining` says bytes are still on their way out. Every wait is bounded: a UART
/// that was never enabled never gets ready, and the reset must come anyway.
pub fn say_panic<W>(
    mut busy: impl FnMut() -> bool,
    mut send: impl FnMut(u8) -> W,
    mut draining: impl FnMut() -> bool,
) {
    fn wait(while_true: &mut dyn FnMut() -> bool) {
        let mut spins = 0u32;
        while while_true() && spins < 100_000 {
            spins += 1;
        }
    }
    for &byte in b"\nerror firmware panic, resetting\n" {
        wait(&mut busy);
        send(byte);
    }
    wait(&mut draining);
}

/// The body of a board's `#[panic_handler]` where the whole image must be free
/// of panics (or of a guard build, see [`guard`]): it calls a function that is
/// defined nowhere, so the release build (LTO, `panic = "abort"`) links only if no
/// panic path is left. The error names the symbol below; find the caller with
/// `nm`/`objdump` on a build that defines it.
#[inline(always)]
#[allow(unsafe_code)]
pub fn panic_guard() -> ! {
    extern "C" {
        fn nimbot_firmware_has_a_reachable_panic() -> !;
    }
    // Safety: never runs. The symbol does not exist, so a build that still
    // references this function does not link.
    unsafe { nimbot_firmware_has_a_reachable_panic() }
}
