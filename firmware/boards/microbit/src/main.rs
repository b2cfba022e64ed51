//! nimbot on the BBC micro:bit v1 (nRF51822, Cortex-M0).
//!
//! The board's part of the firmware: start-up (cortex-m-rt), UART0 at 115200 8N1
//! on the pins that the board's USB interface chip bridges to its serial port
//! (P0.24 TX, P0.25 RX), from the `microbit` board-support crate and its
//! `nrf51-hal`, whose UART implements embedded-io 0.7 itself. The application is
//! `nimbot_firmware::run`; the whole image is under the link-time panic guard.
//!
//! Memory map: `microbit-common` selects the nRF51's 128 KB flash / 16 KB RAM
//! layout (`xxAB-package`), although the v1's nRF51822-QFAA has 256 KB of flash;
//! the image fits the smaller map with room to spare, so it is kept.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use microbit::hal::uart::{Baudrate, Parity, Uart};
use microbit::Board;
use nimbot_firmware::Stack;

#[entry]
#[allow(unsafe_code)] // register access through the PAC
fn main() -> ! {
    let Some(board) = Board::take() else {
        // Only this function takes the board, once; there is nothing to talk on.
        #[allow(clippy::empty_loop)]
        loop {}
    };
    let mut uart = Uart::new(
        board.UART0,
        board.uart.into(),
        Parity::EXCLUDED,
        Baudrate::BAUD115200,
    );
    // nrf51-hal marks the transmitter ready (the TXDRDY event) by writing a dummy
    // byte to TXD before the UART is enabled, and waits for that event before
    // every byte it sends. Raising the event by hand says the same thing (the
    // transmitter is idle) without relying on that dummy byte, which QEMU's
    // model drops, leaving the first write spinning forever. On the chip the
    // event register is writable and the statement is true, so the image that
    // runs in QEMU is the one to flash.
    // Safety: a write of 1 to the UART's own event register, which the HAL reads
    // only to wait for the transmitter; no other code touches this UART.
    unsafe {
        (*microbit::pac::UART0::ptr())
            .events_txdrdy
            .write(|w| w.bits(1));
    }
    nimbot_firmware::run(&mut uart, &Stack::reserved())
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    nimbot_firmware::panic_guard()
}
