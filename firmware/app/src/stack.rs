//! The stack high-water mark: the stack is painted with a known word before
//! `main` (cortex-m-rt's `paint-stack`, or the board's own start-up), and the
//! paint left below the deepest frame is still intact. [`Stack::reserved`]
//! finds the region by the symbols of the runtime crate's linker script, chosen
//! by feature (`cortex-m-rt` or `riscv-rt`), so a board only names its runtime.

#[cfg(any(feature = "cortex-m-rt", feature = "riscv-rt"))]
use core::ptr::addr_of;
use core::ptr::read_volatile;

#[cfg(all(feature = "cortex-m-rt", feature = "riscv-rt"))]
compile_error!("features `cortex-m-rt` and `riscv-rt` name two runtimes: pick one");

#[cfg(any(feature = "cortex-m-rt", feature = "riscv-rt"))]
extern "C" {
    /// Lowest address of the stack: just above `.bss` in cortex-m-rt's `link.x`
    /// (`_stack_end`), the end of the empty heap after `.bss` in riscv-rt's
    /// (`_estack`).
    #[cfg_attr(feature = "cortex-m-rt", link_name = "_stack_end")]
    #[cfg_attr(feature = "riscv-rt", link_name = "_estack")]
    static STACK_BOTTOM: u32;
    /// Initial stack pointer (top of RAM), `_stack_start` in either `link.x`.
    #[link_name = "_stack_start"]
    static STACK_TOP: u32;
}

/// The word the stack is painted with (cortex-m-rt's `paint-stack` uses it too).
pub const PAINT: u32 = 0xCCCC_CCCC;

/// A board's stack region, `[bottom, top)`, painted with [`PAINT`] at start-up.
pub struct Stack {
    bottom: usize,
    top: usize,
}

impl Stack {
    /// The stack between `bottom` (lowest address) and `top` (initial stack
    /// pointer).
    ///
    /// # Safety
    ///
    /// `[bottom, top)` must be the stack region the linker reserved, 4-byte
    /// aligned, in RAM that nothing but this core's stack uses, with no interrupt
    /// handler running while [`Stack::used`] reads it.
    pub const unsafe fn new(bottom: usize, top: usize) -> Self {
        Stack { bottom, top }
    }

    /// The stack region that the runtime's linker script reserves at the top of
    /// RAM.
    #[cfg(any(feature = "cortex-m-rt", feature = "riscv-rt"))]
    pub fn reserved() -> Self {
        let bottom = addr_of!(STACK_BOTTOM) as usize;
        let top = addr_of!(STACK_TOP) as usize;
        // Safety: [bottom, top) is the stack region that the runtime's linker
        // script reserves in RAM, 4-byte aligned (cortex-m-rt's `link.x` asserts
        // it; riscv-rt's ends the empty heap before it aligned); the boards have
        // one core (hart) and enable no interrupts.
        unsafe { Stack::new(bottom, top) }
    }

    /// The stack's lowest address, where a board that paints the stack itself
    /// starts.
    pub fn bottom(&self) -> usize {
        self.bottom
    }

    /// The stack's size in bytes.
    pub fn size(&self) -> usize {
        self.top.saturating_sub(self.bottom)
    }

    /// The deepest the stack has reached since reset, in bytes.
    pub fn used(&self) -> usize {
        let mut addr = self.bottom;
        // Safety: `new`'s contract: the region is readable, aligned stack memory
        // that nothing else writes concurrently; words below the stack pointer are
        // plain memory.
        while addr < self.top && unsafe { read_volatile(addr as *const u32) } == PAINT {
            addr += 4;
        }
        self.top.saturating_sub(addr)
    }
}
