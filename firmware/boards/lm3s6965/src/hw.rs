//! The board: UART0 of the LM3S6965 as an `embedded-io` reader/writer. All of the
//! shipped image's `unsafe` code is here (the cost image adds `systick.rs`), each
//! block with the reason it is sound.

use core::convert::Infallible;
use core::ptr::{read_volatile, write_volatile};

use core::sync::atomic::{AtomicBool, Ordering};

use nimbot_firmware::polled;

/// System clock after reset: the 12 MHz internal oscillator. A real board that
/// switches to its crystal or the PLL changes this and the divisors follow.
const SYSCLK_HZ: u32 = 12_000_000;
/// Line speed: 115200 baud, 8 data bits, no parity, 1 stop bit.
const BAUD: u32 = 115_200;
/// Baud divisor in 64ths: SYSCLK / (16 * BAUD), rounded; integer and fraction parts.
const DIVISOR_64THS: u32 = (SYSCLK_HZ * 4 + BAUD / 2) / BAUD;

/// System control: run-mode clock gates for UART0 (RCGC1 bit 0) and GPIO port A
/// (RCGC2 bit 0), whose pins PA0/PA1 carry UART0.
const SYSCTL_RCGC1: usize = 0x400F_E104;
const SYSCTL_RCGC2: usize = 0x400F_E108;
/// GPIO port A: alternate function select and digital enable.
const GPIOA_AFSEL: usize = 0x4000_4420;
const GPIOA_DEN: usize = 0x4000_451C;
const PA0_PA1: u32 = 0b11;

/// UART0 registers (a PrimeCell PL011).
const UART0: usize = 0x4000_C000;
const DR: usize = UART0;
const FR: usize = UART0 + 0x018;
const IBRD: usize = UART0 + 0x024;
const FBRD: usize = UART0 + 0x028;
const LCRH: usize = UART0 + 0x02C;
const CTL: usize = UART0 + 0x030;
/// Flag register: transmitter busy, receive FIFO empty, transmit FIFO full.
const FR_BUSY: u32 = 1 << 3;
const FR_RXFE: u32 = 1 << 4;
const FR_TXFF: u32 = 1 << 5;
/// Line control: 8-bit words, FIFOs on.
const LCRH_8N1_FIFO: u32 = (0b11 << 5) | (1 << 4);
/// Control: UART, transmitter and receiver enabled.
const CTL_ENABLE: u32 = 1 | (1 << 8) | (1 << 9);

/// A 32-bit register of this board, for the UART below and the cost image's
/// SysTick (`systick.rs`): the only addresses ever passed here.
pub(crate) fn read_reg(addr: usize) -> u32 {
    // Safety: every address passed here is one of the memory-mapped registers of
    // this file or of `systick.rs`, which exist on the LM3S6965 (SysTick on every
    // Cortex-M3), are 4-byte aligned and are only ever accessed with volatile
    // 32-bit reads and writes.
    unsafe { read_volatile(addr as *const u32) }
}

/// Write a register (see [`read_reg`]).
pub(crate) fn write_reg(addr: usize, value: u32) {
    // Safety: as for `read_reg`; writing these registers affects only the UART0
    // and GPIO port A hardware, which `Uart0` owns (there is at most one), and
    // SysTick and RCC's divider, which only the cost image's `SysTick::start`
    // writes, before anything reads a clock.
    unsafe { write_volatile(addr as *mut u32, value) }
}

/// UART0, set up for 115200 8N1. Reads block until a byte arrives, writes until
/// the transmit FIFO has room; neither can fail.
pub struct Uart0 {
    _owned: (),
}

static UART0_TAKEN: AtomicBool = AtomicBool::new(false);

impl Uart0 {
    /// The UART for an image's `main`, which takes it once: without it there is
    /// nothing to talk on, so this waits forever.
    pub fn for_main() -> Self {
        match Self::take() {
            Some(uart) => uart,
            #[allow(clippy::empty_loop)]
            None => loop {},
        }
    }

    /// Set up UART0 and return the only handle to it (`None` if taken before).
    pub fn take() -> Option<Self> {
        if UART0_TAKEN.swap(true, Ordering::AcqRel) {
            return None;
        }
        write_reg(SYSCTL_RCGC1, read_reg(SYSCTL_RCGC1) | 1);
        write_reg(SYSCTL_RCGC2, read_reg(SYSCTL_RCGC2) | 1);
        write_reg(GPIOA_AFSEL, read_reg(GPIOA_AFSEL) | PA0_PA1);
        write_reg(GPIOA_DEN, read_reg(GPIOA_DEN) | PA0_PA1);
        write_reg(CTL, 0);
        write_reg(IBRD, DIVISOR_64THS / 64);
        write_reg(FBRD, DIVISOR_64THS % 64);
        write_reg(LCRH, LCRH_8N1_FIFO);
        write_reg(CTL, CTL_ENABLE);
        Some(Uart0 { _owned: () })
    }
}

impl embedded_io::ErrorType for Uart0 {
    type Error = Infallible;
}

impl embedded_io::Read for Uart0 {
    /// Wait for one byte, then take whatever else is already in the FIFO. Receive
    /// errors (framing, parity, overrun) are not reported: the byte is passed on
    /// and the protocol answers the garbled line with an error.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        let waiting = || read_reg(FR) & FR_RXFE == 0;
        Ok(polled::read(buf, waiting, || (read_reg(DR) & 0xFF) as u8))
    }
}

impl embedded_io::Write for Uart0 {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Infallible> {
        let room = || read_reg(FR) & FR_TXFF == 0;
        polled::write(buf, room, |b| write_reg(DR, u32::from(b)));
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        while read_reg(FR) & FR_BUSY != 0 {}
        Ok(())
    }
}
