//! The stack region and its paint. riscv-rt does not paint the stack, so
//! [`paint`] does, first thing in `main`.

use core::ptr::{addr_of, write_volatile};

use nimbot_firmware::stack::PAINT;
use nimbot_firmware::Stack;

extern "C" {
    /// Lowest address of the stack (the end of the empty heap after `.bss`),
    /// from riscv-rt's `link.x`.
    static _estack: u32;
    /// Initial stack pointer (top of RAM), from `link.x`.
    static _stack_start: u32;
}

pub fn stack() -> Stack {
    let bottom = addr_of!(_estack) as usize;
    let top = addr_of!(_stack_start) as usize;
    // Safety: [bottom, top) is the stack region that riscv-rt's linker script
    // reserves at the top of RAM, 4-byte aligned (the empty heap before it ends
    // aligned); one hart, no interrupts enabled.
    unsafe { Stack::new(bottom, top) }
}

/// Paint the unused part of the stack, from its bottom up to this function's
/// own stack pointer, with [`PAINT`].
#[inline(never)]
pub fn paint() {
    let sp: usize;
    // Safety: reads the stack pointer into a register; no memory is touched.
    unsafe { core::arch::asm!("mv {}, sp", out(reg) sp) };
    let mut addr = addr_of!(_estack) as usize;
    while addr + 4 <= sp {
        // Safety: [_estack, sp) is stack memory below every live frame (RISC-V
        // has no red zone, and no interrupt is enabled to push one), 4-byte
        // aligned from its aligned bottom; nothing else owns it.
        unsafe { write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
}
