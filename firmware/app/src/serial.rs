//! embedded-io over a HAL whose UART offers only embedded-hal-nb serial halves
//! (a `Tx` and an `Rx`, each polled for one word at a time): the STM32F1 and
//! FE310 HALs.

use embedded_hal_nb::nb;
use embedded_hal_nb::serial::{self, ErrorKind};

/// A UART's transmit and receive halves as one embedded-io reader/writer.
pub struct NbSerial<T, R> {
    tx: T,
    rx: R,
}

impl<T, R> NbSerial<T, R>
where
    T: serial::Write<u8>,
    R: serial::Read<u8>,
{
    /// The UART whose halves are `tx` and `rx`.
    pub fn new(tx: T, rx: R) -> Self {
        NbSerial { tx, rx }
    }

    /// The whole `main` of a board whose HAL hands out such halves: [`run`] over
    /// them, on the stack the runtime reserves.
    ///
    /// [`run`]: crate::run
    #[cfg(any(feature = "cortex-m-rt", feature = "riscv-rt"))]
    pub fn run(tx: T, rx: R) -> ! {
        crate::run(&mut NbSerial::new(tx, rx), &crate::Stack::reserved())
    }
}

/// A receive or transmit error (framing, parity, overrun, noise), by kind.
pub type Error = crate::IoError<ErrorKind>;

impl<T: serial::ErrorType, R: serial::ErrorType> embedded_io::ErrorType for NbSerial<T, R> {
    type Error = Error;
}

fn kind<E: serial::Error>(e: E) -> Error {
    crate::IoError(serial::Error::kind(&e))
}

impl<T, R> embedded_io::Read for NbSerial<T, R>
where
    T: serial::Write<u8>,
    R: serial::Read<u8>,
{
    /// Wait for one byte, then take whatever else has already arrived.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        let mut n = 0;
        for slot in buf.iter_mut() {
            let byte = if n == 0 {
                nb::block!(self.rx.read()).map_err(kind)?
            } else {
                match self.rx.read() {
                    Ok(byte) => byte,
                    Err(nb::Error::WouldBlock) => break,
                    // Keep what arrived: the garbled byte is gone, and the line
                    // it was part of gets an error reply from the protocol.
                    Err(nb::Error::Other(_)) => break,
                }
            };
            *slot = byte;
            n += 1;
        }
        Ok(n)
    }
}

impl<T, R> embedded_io::Write for NbSerial<T, R>
where
    T: serial::Write<u8>,
    R: serial::Read<u8>,
{
    fn write(&mut self, buf: &[u8]) -> Result<usize, Error> {
        for &byte in buf {
            nb::block!(self.tx.write(byte)).map_err(kind)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Error> {
        nb::block!(self.tx.flush()).map_err(kind)
    }
}
