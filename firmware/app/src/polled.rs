//! A UART polled one byte at a time through its registers (the LM3S6965's and the
//! ATmega328P's): the read and write loops those boards share. A board gives only
//! how to test its flags and move a byte; its register access, and so its `unsafe`,
//! stays in its own `hw.rs`.

/// Wait for the first byte, then take whatever else has already arrived, up to
/// `buf`'s length; how many bytes were read (0 only for an empty `buf`).
/// `ready` tells that a received byte is waiting, `take` reads it.
pub fn read(
    buf: &mut [u8],
    mut ready: impl FnMut() -> bool,
    mut take: impl FnMut() -> u8,
) -> usize {
    if buf.is_empty() {
        return 0;
    }
    while !ready() {}
    let mut n = 0;
    for slot in buf.iter_mut() {
        if !ready() {
            break;
        }
        *slot = take();
        n += 1;
    }
    n
}

/// Write every byte of `buf`, each as soon as `room` tells that the transmitter can
/// take one; `put` hands it over.
pub fn write(buf: &[u8], mut room: impl FnMut() -> bool, mut put: impl FnMut(u8)) {
    for &b in buf {
        while !room() {}
        put(b);
    }
}
