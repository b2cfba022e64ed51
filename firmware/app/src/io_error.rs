//! The error a board's serial line reports through embedded-io: the HAL's own error
//! (a UART's error kind, the USB controller's error), kept as it is for a debugger
//! and reported as [`embedded_io::ErrorKind::Other`]. The protocol has no use for
//! the detail: a line garbled by it is answered with an error line anyway.

/// A serial line's error `E` (framing, parity, overrun, noise, a USB fault).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoError<E>(pub E);

impl<E: core::fmt::Debug> core::fmt::Display for IoError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "serial line error: {:?}", self.0)
    }
}

impl<E: core::fmt::Debug> core::error::Error for IoError<E> {}

impl<E: core::fmt::Debug> embedded_io::Error for IoError<E> {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::Other
    }
}
