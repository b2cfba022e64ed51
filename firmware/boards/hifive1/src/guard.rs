//! The guard build of this board (see `nimbot_firmware::guard`): the
//! application over a stub UART, on this board's target, runtime and memory map,
//! with the link-time panic guard. Built by `tools/firmware.sh`, never flashed.
//!
//! Unlike the image it does not link the device crates: the `e310x` PAC's
//! external-interrupt handler (`plic_handler`, which riscv-rt's interrupt table
//! pulls in) unwraps the interrupt number it claims from the PLIC, a panic path
//! of the PAC's own that only an enabled external interrupt reaches, and this
//! firmware enables none. In its place, [`_dispatch_core_interrupt`] below.
#![no_std]
#![no_main]

use nimbot_firmware::guard::StubUart;
use nimbot_hifive1::stack;

#[riscv_rt::entry]
fn main() -> ! {
    stack::paint();
    nimbot_firmware::run(&mut StubUart, &nimbot_firmware::Stack::reserved())
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    nimbot_firmware::panic_guard()
}

/// riscv-rt's trap handler hands core interrupts to this function, which the
/// device crate provides in the image. The guard build enables no interrupt,
/// so none arrives; should one, it is ignored.
#[allow(unsafe_code)] // an exported symbol the runtime links against
#[no_mangle]
extern "C" fn _dispatch_core_interrupt(_code: usize) {}
