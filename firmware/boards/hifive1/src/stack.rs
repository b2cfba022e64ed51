//! The stack's paint. riscv-rt does not paint the stack, so [`paint`] does,
//! first thing in `main`; the region itself is riscv-rt's
//! (`nimbot_firmware::Stack::reserved`).

use core::ptr::write_volatile;

use nimbot_firmware::stack::PAINT;
use nimbot_firmware::Stack;

/// Paint the unused part of the stack, from its bottom up to this function's
/// own stack pointer, with [`PAINT`].
#[inline(never)]
pub fn paint() {
    let sp: usize;
    // Safety: reads the stack pointer into a register; no memory is touched.
    unsafe { core::arch::asm!("mv {}, sp", out(reg) sp) };
    let mut addr = Stack::reserved().bottom();
    while addr + 4 <= sp {
        // Safety: [bottom, sp) is stack memory below every live frame (RISC-V
        // has no red zone, and no interrupt is enabled to push one), 4-byte
        // aligned from its aligned bottom; nothing else owns it.
        unsafe { write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
}
