//! The guard build of this board (see `nimbot_firmware::guard`): the
//! application over a stub UART, on this board's target, runtime and memory map,
//! with the link-time panic guard. Built by `tools/firmware.sh`, never flashed.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use nimbot_firmware::guard::StubUart;
// The device crate: its interrupt vectors complete the vector table.
use stm32f1xx_hal as _;

#[entry]
fn main() -> ! {
    nimbot_firmware::run(&mut StubUart, &nimbot_firmware::Stack::reserved())
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    nimbot_firmware::panic_guard()
}
