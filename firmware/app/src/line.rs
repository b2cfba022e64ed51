//! A line the firmware sends: its parts (bytes in RAM or fixed text), written to
//! the UART without a panic path.

use embedded_io::Write;
use nimbot::text::Text;

/// A piece of a line the firmware sends: bytes in RAM (a reply, digits), or
/// fixed text (in program memory on the AVR).
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    Bytes(&'a [u8]),
    Text(Text),
}

/// Write the parts and a line end, then wait until they are out. A failed write
/// drops the rest of the line (see [`run`](crate::run)).
pub(crate) fn send<W: Write>(uart: &mut W, parts: &[Part<'_>]) {
    let sent = parts
        .iter()
        .chain(core::iter::once(&Part::Bytes(b"\n")))
        .try_for_each(|part| match *part {
            Part::Bytes(bytes) => write_all(uart, bytes),
            Part::Text(text) => text.bytes().try_for_each(|b| write_all(uart, &[b])),
        });
    if sent.is_ok() {
        let _ = uart.flush();
    }
}

/// `embedded_io::Write::write_all` without its panic path: its default body
/// panics when a writer accepts nothing (`Ok(0)`) for a non-empty buffer, which
/// the guard cannot prove never happens for every HAL. Here a writer that takes
/// nothing ends the line instead.
fn write_all<W: Write>(uart: &mut W, mut buf: &[u8]) -> Result<(), ()> {
    while !buf.is_empty() {
        match uart.write(buf) {
            Ok(0) | Err(_) => return Err(()),
            Ok(n) => buf = buf.get(n..).unwrap_or(&[]),
        }
    }
    Ok(())
}
