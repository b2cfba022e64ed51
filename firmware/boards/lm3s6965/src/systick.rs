//! The cost image's clock: the Cortex-M SysTick timer on the core clock, extended
//! to 32 bits by counting its wraps, and a loop of a known number of instructions
//! to calibrate it with. Its registers are read and written through `hw.rs`;
//! with it, all of this board's `unsafe` code, each block with the reason it is
//! sound.

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m_rt::exception;

use nimbot_firmware::cost::Ticker;

use crate::hw::{read_reg, write_reg};

/// SysTick control and status, reload value and current value (ARMv7-M system
/// control space).
const SYST_CSR: usize = 0xE000_E010;
const SYST_RVR: usize = 0xE000_E014;
const SYST_CVR: usize = 0xE000_E018;
/// CSR: counter enabled, its exception on reaching 0, clocked by the core clock.
const CSR_ENABLE_TICKINT_CORE_CLOCK: u32 = 1 | (1 << 1) | (1 << 2);
/// The largest reload: the counter runs through all 2^24 values.
const RELOAD: u32 = 0x00FF_FFFF;

/// Times the counter has reached 0: the high 8 bits of [`SysTick::now`].
static WRAPS: AtomicU32 = AtomicU32::new(0);

/// Once every 2^24 ticks (a few instructions, counted in whatever is being
/// measured then: under 1 in 10 million).
#[exception]
fn SysTick() {
    WRAPS.fetch_add(1, Ordering::Relaxed);
}

/// Run-mode clock configuration (RCC) of the system control block, and its
/// SYSDIV field (bits 26:23: divide the PLL's 200 MHz by SYSDIV + 1).
const SYSCTL_RCC: usize = 0x400F_E060;
const RCC_SYSDIV: u32 = 0xF << 23;

/// SysTick, free-running on the core clock; with its wraps, a 32-bit count.
pub struct SysTick {
    _owned: (),
}

impl SysTick {
    /// Start SysTick, counting down from 2^24 - 1 and wrapping; its exception
    /// counts the wraps.
    ///
    /// It also clears RCC's SYSDIV field, for QEMU's sake: QEMU's model of the
    /// chip divides its 200 MHz clock by SYSDIV + 1 whatever else RCC says (12.5
    /// MHz after reset, 80 ns a tick), and with SYSDIV 0 a tick is 5 ns of virtual
    /// time, i.e. 5 instructions at `-icount shift=0`, 16 times finer. On silicon
    /// this changes nothing: after reset RCC's USESYSDIV bit is clear, so the
    /// divider is not in the clock path (the chip keeps running from its
    /// oscillator). The benchmark calibrates the tick against a loop of known
    /// length either way (`cost spin`), so the figure never rests on this.
    pub fn start() -> Self {
        write_reg(SYSCTL_RCC, read_reg(SYSCTL_RCC) & !RCC_SYSDIV);
        write_reg(SYST_CSR, 0);
        write_reg(SYST_RVR, RELOAD);
        write_reg(SYST_CVR, 0);
        write_reg(SYST_CSR, CSR_ENABLE_TICKINT_CORE_CLOCK);
        SysTick { _owned: () }
    }
}

impl Ticker for SysTick {
    const BITS: u32 = 32;

    fn now(&self) -> u32 {
        loop {
            let wraps = WRAPS.load(Ordering::Relaxed);
            // The counter counts down: its negation counts up, modulo 2^24. It
            // reaches 0 (and the exception counts a wrap) one tick before it
            // reloads, so the negation's 0 and the new wrap come together.
            let low = read_reg(SYST_CVR).wrapping_neg() & RELOAD;
            // A wrap between the two reads: read again.
            if WRAPS.load(Ordering::Relaxed) == wraps {
                return (wraps << 24) | low;
            }
        }
    }

    fn spin(&self, iterations: u32) {
        let n = iterations.max(1);
        // Safety: the loop changes only its own register and the flags (declared
        // by not preserving them), and reads and writes no memory.
        unsafe {
            core::arch::asm!(
                "2:",
                "subs {n}, #1",
                "bne 2b",
                n = inout(reg) n => _,
                options(nomem, nostack),
            );
        }
    }
}
