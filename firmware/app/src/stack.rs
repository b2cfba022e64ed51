//! The stack high-water mark: the stack is painted with a known word before
//! `main` (cortex-m-rt's `paint-stack`, or the board's own start-up), and the
//! paint left below the deepest frame is still intact.

use core::ptr::read_volatile;

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
