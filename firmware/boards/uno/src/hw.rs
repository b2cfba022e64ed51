//! The board: USART0 of the ATmega328P as an `embedded-io` reader/writer, and the
//! stack's paint. All of the image's `unsafe` code is here, each block with the
//! reason it is sound.

use core::convert::Infallible;
use core::ptr::{addr_of, read_volatile, write_volatile};

use nimbot_firmware::polled;
use nimbot_firmware::stack::PAINT;
use nimbot_firmware::Stack;

/// USART0's registers, at their data-space addresses (ATmega328P datasheet,
/// "Register Summary").
const UCSR0A: usize = 0xC0;
const UCSR0B: usize = 0xC1;
const UCSR0C: usize = 0xC2;
/// The baud rate register's two bytes, the high one just above the low one.
const UBRR0L: usize = 0xC4;
const UBRR0H: usize = UBRR0L + 1;
const UDR0: usize = 0xC6;
/// UCSR0A: a received byte is waiting; the last byte has left the shift
/// register; the transmit buffer has room; double speed.
const RXC0: u8 = 1 << 7;
const TXC0: u8 = 1 << 6;
const UDRE0: u8 = 1 << 5;
const U2X0: u8 = 1 << 1;
/// UCSR0B: receiver and transmitter on.
const RXEN0: u8 = 1 << 4;
const TXEN0: u8 = 1 << 3;
/// UCSR0C: asynchronous, no parity, 1 stop bit, 8 data bits.
const UCSR0C_8N1: u8 = 0b11 << 1;
/// 115200 baud from the Uno's 16 MHz crystal at double speed: 16 MHz / (8 (16 + 1))
/// = 117,647 baud, 2.1 % fast, as the Arduino core and its bootloader set it.
const UBRR: u16 = 16;

/// The stack pointer's I/O registers, at their data-space addresses.
const SPL: usize = 0x5D;
const SPH: usize = 0x5E;

/// One of the registers above (the only addresses ever passed here).
fn read_reg(addr: usize) -> u8 {
    // Safety: every address passed here is one of the memory-mapped I/O registers
    // above, which exist on the ATmega328P and are read with single volatile
    // byte reads.
    unsafe { read_volatile(addr as *const u8) }
}

/// Write a register (see [`read_reg`]).
fn write_reg(addr: usize, value: u8) {
    // Safety: as for `read_reg`; the writes configure and feed USART0, which
    // `Usart0` owns (`main` makes the only one).
    unsafe { write_volatile(addr as *mut u8, value) }
}

/// USART0, set up for 115200 8N1. Reads block until a byte arrives, writes until
/// the transmit buffer has room; neither can fail.
pub struct Usart0 {
    /// A byte went out since the last flush (the transmit-complete flag is only
    /// meaningful then).
    sending: bool,
}

impl Usart0 {
    /// Set up USART0. `main` calls it once.
    pub fn new() -> Self {
        write_reg(UCSR0B, 0);
        write_reg(UBRR0H, (UBRR >> 8) as u8);
        write_reg(UBRR0L, UBRR as u8);
        write_reg(UCSR0A, U2X0);
        write_reg(UCSR0C, UCSR0C_8N1);
        write_reg(UCSR0B, RXEN0 | TXEN0);
        Usart0 { sending: false }
    }
}

impl embedded_io::ErrorType for Usart0 {
    type Error = Infallible;
}

impl embedded_io::Read for Usart0 {
    /// Wait for one byte, then take whatever else is already waiting. Receive
    /// errors (framing, overrun) are not reported: the byte is passed on and the
    /// protocol answers the garbled line with an error.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        let waiting = || read_reg(UCSR0A) & RXC0 != 0;
        Ok(polled::read(buf, waiting, || read_reg(UDR0)))
    }
}

impl embedded_io::Write for Usart0 {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Infallible> {
        let room = || read_reg(UCSR0A) & UDRE0 != 0;
        polled::write(buf, room, |b| {
            // Writing TXC0 as one clears it, so that it tells when this byte is out.
            write_reg(UCSR0A, U2X0 | TXC0);
            write_reg(UDR0, b);
        });
        self.sending |= !buf.is_empty();
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        if self.sending {
            while read_reg(UCSR0A) & TXC0 == 0 {}
            self.sending = false;
        }
        Ok(())
    }
}

extern "C" {
    /// The end of static RAM (`.data`, `.bss`, `.noinit`) in avr-libc's linker
    /// script: the stack may grow down to here.
    static __heap_start: u8;
    /// The last byte of RAM (0x8FF on the ATmega328P), where avr-libc's start-up
    /// code points the stack pointer; defined by the device's library.
    static __stack: u8;
}

/// Paint the unused stack, from the end of static RAM up to below this
/// function's frame, with [`PAINT`], and return the stack region for the `stack`
/// diagnostic. Called first thing in `main`: avr-libc's start-up does not paint.
#[inline(never)]
pub fn paint_stack() -> Stack {
    let bottom = (addr_of!(__heap_start) as usize + 3) & !3;
    let top = addr_of!(__stack) as usize + 1;
    let sp = usize::from(read_reg(SPL)) | usize::from(read_reg(SPH)) << 8;
    let mut addr = bottom;
    while addr + 4 <= sp {
        // Safety: [bottom, sp) is RAM above every static and below every live
        // frame (the AVR pushes below SP; no interrupt is enabled); nothing else
        // owns it.
        unsafe { write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
    // Safety: [bottom, top) is the stack: from the end of static RAM to the top
    // of SRAM, 4-byte aligned at the bottom; one core, no interrupts.
    unsafe { Stack::new(bottom, top) }
}
