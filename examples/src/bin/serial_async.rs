//! nimbot on a board we don't ship, async: [`play`] over your serial port's halves
//! as `embedded_io_async::Read` and `embedded_io_async::Write` (embedded-io-async
//! 0.7, which Embassy's HALs implement), awaiting the UART instead of blocking on
//! it. Under Embassy it is one task:
//!
//! ```ignore
//! #[embassy_executor::task]
//! async fn nimbot(mut rx: BufferedUartRx<'static>, mut tx: BufferedUartTx<'static>) {
//!     play(&mut rx, &mut tx).await
//! }
//! ```
//!
//! This program has no board and no executor: it polls [`play`] over a scripted
//! dialogue in memory ([`block_on`]) and checks the replies, on the host (`cargo run
//! --bin serial-async`) and on a Cortex-M0 (`cargo build --release --target
//! thumbv6m-none-eabi`).
#![cfg_attr(target_os = "none", no_std, no_main)]

use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};

use embedded_io_async::{Read, Write};
use nimbot::{Table, TableEngine};
use nimbot_protocol::serve_async;
use nimbot_protocol::Session;

/// Your table: any blob made by `nimbot-table generate`, embedded from your crate
/// (this is the one nimbot ships: N <= 999, R <= 4, M = 3).
static TABLE: &[u8] = include_bytes!("../../../table/default.nimt");

/// The whole integration: open the table, then answer each line from `rx` with one
/// line on `tx` until the input ends (a UART's never does).
async fn play<R: Read, W: Write>(rx: &mut R, tx: &mut W) {
    let table = match Table::from_bytes(TABLE) {
        Ok(table) => table,
        Err(e) => {
            let _ = tx.write_all(e.as_str().as_bytes()).await;
            return;
        }
    };
    let mut session = Session::new(TableEngine::new(table));
    // A read or write error costs that line only: the sides resynchronise at the
    // next line end.
    while serve_async(&mut session, rx, tx).await.is_err() {}
}

/// Poll `fut` until it is done: enough for I/O that is always ready, as memory is.
/// On a board, the executor (Embassy's, RTIC's) does this and sleeps in between.
fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

#[cfg(not(target_os = "none"))]
fn main() -> std::process::ExitCode {
    nimbot_examples::check_on_host("serial-async", |rx, tx| block_on(play(rx, tx)))
}

#[cfg(target_os = "none")]
#[cortex_m_rt::entry]
fn main() -> ! {
    nimbot_examples::check_bare(|rx, tx| block_on(play(rx, tx)))
}
