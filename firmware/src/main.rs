//! nimbot on a Cortex-M3: the TI LM3S6965, as QEMU's `lm3s6965evb` emulates it.
//!
//! The line protocol of `nimbot::protocol` (the same code as the host binary) runs
//! over UART0 at 115200 8N1 and plays from the solution table embedded in flash
//! (`TableEngine::embedded()`): no heap, and no panic the linker can reach (see
//! [`panic`]).
//!
//! Besides the protocol's commands the firmware answers one diagnostic of its own,
//! `stack`, with `stack used U of S`: the deepest stack use since reset and the
//! stack's size, in bytes. It is handled here, before the line reaches the session,
//! so the shared protocol stays exactly as on the host.
#![no_std]
#![no_main]

mod hw;

use cortex_m_rt::entry;
use embedded_io::Write;
use nimbot::num::Decimal;
use nimbot::protocol::{Line, LineReader, Session};
use nimbot::TableEngine;

use hw::Uart0;

#[entry]
fn main() -> ! {
    let Some(mut uart) = Uart0::take() else {
        // Only this function takes the UART, once; there is nothing to talk on.
        #[allow(clippy::empty_loop)]
        loop {}
    };
    // The table is checked (checksum, every field) once at boot; a damaged one
    // leaves the firmware answering every line with the reason.
    let mut session = TableEngine::embedded().map(Session::new);
    let mut reader = LineReader::default();
    loop {
        let line = match reader.next_line(&mut uart) {
            Ok(Some(line)) => line,
            // A UART never ends; start afresh if a driver ever says it did.
            Ok(None) => {
                reader = LineReader::default();
                continue;
            }
            Err(never) => match never {},
        };
        if let Line::Text(text) = line {
            #[cfg(feature = "panic-canary")]
            core::hint::black_box(core::hint::black_box(text)[70]);
            if is_stack_command(text) {
                let (used, size) = hw::stack_use();
                send(
                    &mut uart,
                    &[
                        b"stack used ",
                        &Decimal::new(used as u64),
                        b" of ",
                        &Decimal::new(size as u64),
                    ],
                );
                continue;
            }
        }
        match &mut session {
            Ok(session) => {
                if let Some(reply) = session.handle(line) {
                    send(&mut uart, &[&reply]);
                }
            }
            Err(e) => send(
                &mut uart,
                &[b"error embedded table: ", e.as_str().as_bytes()],
            ),
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

/// Write the parts and a line end, then wait until they are out.
fn send(uart: &mut Uart0, parts: &[&[u8]]) {
    for part in parts {
        let Ok(()) = uart.write_all(part);
    }
    let Ok(()) = uart.write_all(b"\n");
    let Ok(()) = uart.flush();
}

/// Any panic the optimizer cannot prove unreachable makes the link fail: this
/// handler calls a function that is defined nowhere, so the release build (LTO,
/// `panic = "abort"`) links only if no panic path is left. The error names the
/// symbol below; find the caller with `nm`/`objdump` on a build that defines it.
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    extern "C" {
        fn nimbot_firmware_has_a_reachable_panic() -> !;
    }
    // Safety: never runs. The symbol does not exist, so a build that still
    // references this handler does not link.
    unsafe { nimbot_firmware_has_a_reachable_panic() }
}
