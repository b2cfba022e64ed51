//! The guard build of this board (see `nimbot_firmware::guard`): the
//! application over a stub UART, on this board's target, runtime and memory map,
//! with the link-time panic guard. Built by `tools/firmware.sh`, never flashed.
#![no_std]
#![no_main]

use nimbot_firmware::guard::StubUart;
// The device crate: its interrupt vectors complete the vector table.
use rp2040_hal as _;

#[rp2040_hal::entry]
fn main() -> ! {
    nimbot_firmware::run(&mut StubUart, &nimbot_firmware::Stack::reserved())
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    nimbot_firmware::panic_guard()
}

/// The same second-stage bootloader as the image, so that the guard build links
/// with the same memory map.
#[allow(unsafe_code)] // placed by the linker script, where the boot ROM looks
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;
