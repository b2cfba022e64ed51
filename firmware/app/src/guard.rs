//! The guard build for a board whose HAL keeps a panic path of its own.
//!
//! Some HALs panic where no input of ours can reach (a baud-rate divisor computed
//! at run time, asserted to be in range). Such a board's image gets a panic
//! handler that reports and resets, and the guard moves to a second binary of
//! the board crate: the same application on the same target, runtime and
//! profile, over [`StubUart`] instead of the HAL's UART, with
//! [`panic_guard`](crate::panic_guard) as its panic handler. It links only if
//! neither the application nor the nimbot core has a reachable panic; it is
//! built, never run.

use core::convert::Infallible;
use core::hint::black_box;

/// A UART whose bytes the optimizer cannot know: every byte read and the
/// count of every read are opaque, so no path of the application that real
/// input could take is optimized away.
pub struct StubUart;

impl embedded_io::ErrorType for StubUart {
    type Error = Infallible;
}

impl embedded_io::Read for StubUart {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        for slot in buf.iter_mut() {
            *slot = black_box(0);
        }
        Ok(black_box(buf.len()))
    }
}

impl embedded_io::Write for StubUart {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Infallible> {
        Ok(black_box(black_box(buf).len()))
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        Ok(())
    }
}
