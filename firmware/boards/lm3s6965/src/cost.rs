//! The LM3S6965's cost image, for the QEMU benchmark (`tools/firmware.sh bench`):
//! the firmware application with the `cost` diagnostics, timed by SysTick
//! ([`systick`]). Built with `--features cost`; never flashed.
#![no_std]
#![no_main]

// Register access (the board's one unsafe code; the manifest denies it elsewhere).
#[allow(unsafe_code)]
mod hw;
// Register access (the board's one unsafe code; the manifest denies it elsewhere).
#[allow(unsafe_code)]
mod systick;

use cortex_m_rt::entry;

use hw::Uart0;
use systick::SysTick;

#[entry]
fn main() -> ! {
    let ticker = SysTick::start();
    nimbot_firmware::run_metered(
        &mut Uart0::for_main(),
        &nimbot_firmware::Stack::reserved(),
        &ticker,
    )
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    nimbot_firmware::panic_guard()
}
