//! nimbot on the Arduino Uno: the ATmega328P, an 8-bit AVR at 16 MHz with 32 KB of
//! flash and 2 KB of RAM.
//!
//! The board's part of the firmware: USART0 at 115200 8N1 (a hand-written driver
//! in [`hw`]; the Uno's USB chip bridges it to the USB serial port) and the
//! stack's paint; start-up is avr-libc's (`crtatmega328p.o`: the stack pointer,
//! `.data` copied from flash, `.bss` cleared, then `main`). The application is
//! `nimbot_firmware::run`, Expanding Nim only. No HAL code, so the whole image
//! is under the link-time panic guard.
#![no_std]
#![no_main]

// Register access (the board's one unsafe code; the manifest denies it elsewhere).
#[allow(unsafe_code)]
mod hw;

/// Called by avr-libc's start-up code.
#[allow(unsafe_code)] // the symbol avr-libc's start-up code calls
#[no_mangle]
pub extern "C" fn main() -> ! {
    let stack = hw::paint_stack();
    nimbot_firmware::run(&mut hw::Usart0::new(), &stack)
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    nimbot_firmware::panic_guard()
}
