//! The stack region, which cortex-m-rt's `paint-stack` paints before `main`.

use core::ptr::addr_of;

use nimbot_firmware::Stack;

extern "C" {
    /// Lowest address of the stack (just above `.bss`), from cortex-m-rt's `link.x`.
    static _stack_end: u32;
    /// Initial stack pointer (top of RAM), from `link.x`.
    static _stack_start: u32;
}

pub fn stack() -> Stack {
    let bottom = addr_of!(_stack_end) as usize;
    let top = addr_of!(_stack_start) as usize;
    // Safety: [bottom, top) is the stack region that cortex-m-rt's linker script
    // reserves in RAM, 4-byte aligned (link.x asserts it); one core, no interrupts
    // enabled.
    unsafe { Stack::new(bottom, top) }
}
