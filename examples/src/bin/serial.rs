//! nimbot on a board we don't ship, blocking: hand [`play`] your serial port's
//! receive and transmit halves (any `embedded_io::Read` and `embedded_io::Write`,
//! embedded-io 0.7) and the board plays perfect Expanding Nim over the line
//! protocol (docs/protocol.md). No heap, no panic, no `core::fmt`.
//!
//! This program has no board: it plays a scripted dialogue from memory and checks
//! the replies, on the host (`cargo run --bin serial`, which prints the verdict)
//! and on a Cortex-M0 (`cargo build --release --target thumbv6m-none-eabi`, whose
//! image is the footprint to expect). On your board, pass the UART instead.
#![cfg_attr(target_os = "none", no_std, no_main)]

use embedded_io::{Read, Write};
use nimbot::{Table, TableEngine};
use nimbot_protocol::{serve, Session};

/// Your table: any blob made by `nimbot-table generate`, embedded from your crate
/// (this is the one nimbot ships: N <= 999, R <= 4, M = 3).
static TABLE: &[u8] = include_bytes!("../../../table/default.nimt");

/// The whole integration: open the table (checksum and every field checked), then
/// answer each line from `rx` with one line on `tx` until the input ends (a UART's
/// never does).
fn play<R: Read, W: Write>(rx: &mut R, tx: &mut W) {
    let table = match Table::from_bytes(TABLE) {
        Ok(table) => table,
        Err(e) => {
            let _ = tx.write_all(e.as_str().as_bytes());
            return;
        }
    };
    let mut session = Session::new(TableEngine::new(table));
    // A read or write error (a garbled byte, an overrun) costs that line only: the
    // two sides resynchronise at the next line end.
    while serve(&mut session, rx, tx).is_err() {}
}

#[cfg(not(target_os = "none"))]
fn main() -> std::process::ExitCode {
    nimbot_examples::check_on_host("serial", |rx, tx| play(rx, tx))
}

#[cfg(target_os = "none")]
#[cortex_m_rt::entry]
fn main() -> ! {
    nimbot_examples::check_bare(|rx, tx| play(rx, tx))
}
