//! nimbot on a Cortex-M3: the TI LM3S6965, as QEMU's `lm3s6965evb` emulates it.
//!
//! The board's part of the firmware: start-up (cortex-m-rt), UART0 at 115200 8N1
//! (a hand-written driver in [`hw`]: no HAL exists for this chip); the
//! application is `nimbot_firmware::run`. No HAL code, so the whole image is
//! under the link-time panic guard.
#![no_std]
#![no_main]

// Register access (the board's one unsafe code; the manifest denies it elsewhere).
#[allow(unsafe_code)]
mod hw;

use cortex_m_rt::entry;

use hw::Uart0;

#[entry]
fn main() -> ! {
    nimbot_firmware::run(&mut Uart0::for_main(), &nimbot_firmware::Stack::reserved())
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    nimbot_firmware::panic_guard()
}
