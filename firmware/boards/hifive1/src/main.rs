//! nimbot on the SiFive HiFive1 Rev B (FE310-G002, RISC-V RV32IMAC).
//!
//! The board's part of the firmware: start-up (riscv-rt), the clocks (the 16 MHz
//! crystal through the PLL to a 320 MHz core clock, set by the `hifive1`
//! board-support crate), UART0 at 115200 8N1 on GPIO 17 (TX) and 16 (RX), which
//! the on-board J-Link bridges to its USB serial port, from `e310x-hal`, and the
//! stack region, painted here because riscv-rt does not. The HAL's UART is
//! embedded-hal-nb serial (its embedded-io impls are of version 0.6 and unwrap);
//! `nimbot_firmware::serial::NbSerial` makes its split halves one embedded-io 0.7
//! reader/writer, and `NbSerial::run` runs `nimbot_firmware::run` over it.
//!
//! The HAL keeps a panic path of its own (the baud-rate divisor in
//! `e310x_hal::serial::Serial::new` divides by the rate and subtracts one), so
//! this image's panic handler reports on UART0 and resets the chip; the
//! link-time guard holds for the application and the core in the board's guard
//! build (`src/guard.rs`).
#![no_std]
#![no_main]

use hifive1::hal::prelude::*;
use hifive1::hal::serial::Serial;
use hifive1::hal::DeviceResources;
use nimbot_firmware::serial::NbSerial;
use nimbot_hifive1::stack;

#[riscv_rt::entry]
fn main() -> ! {
    stack::paint();
    let Some(dr) = DeviceResources::take() else {
        // Only this function takes the peripherals, once; nothing to talk on.
        #[allow(clippy::empty_loop)]
        loop {}
    };
    let p = dr.peripherals;
    let pins = dr.pins;
    let clocks = hifive1::clock::configure(p.PRCI, p.AONCLK, 320.mhz().into());
    let tx = hifive1::pin!(pins, uart0_tx).into_iof0();
    let rx = hifive1::pin!(pins, uart0_rx).into_iof0();
    let (tx, rx) = Serial::new(p.UART0, (tx, rx), 115_200.bps(), clocks).split();
    NbSerial::run(tx, rx)
}

/// Says so on UART0 and resets: reachable only through the HAL's baud-rate
/// set-up (see the crate documentation).
#[panic_handler]
#[allow(unsafe_code)] // register access through the PAC
fn panic(_info: &core::panic::PanicInfo) -> ! {
    // Safety: the panic handler never returns, so whatever owned UART0 never
    // uses it again; the accesses below touch only its transmit register.
    let uart = unsafe { hifive1::hal::e310x::Uart0::steal() };
    nimbot_firmware::say_panic(
        || uart.txdata().read().full().bit_is_set(),
        // Safety: any byte is a valid value of the data field.
        |byte| uart.txdata().write(|w| unsafe { w.data().bits(byte) }),
        || false,
    );
    reset()
}

/// Resets the FE310 through its always-on watchdog: armed to bite at once,
/// with reset enabled.
#[allow(unsafe_code)] // register access through the PAC
fn reset() -> ! {
    // Safety: the panic handler is the last code to run; the watchdog belongs
    // to no one else from here on.
    let wdog = unsafe { hifive1::hal::e310x::Wdog::steal() };
    wdog.wdogkey().write(|w| unsafe { w.bits(0x0051_F15E) });
    wdog.wdogcmp().write(|w| unsafe { w.value().bits(0) });
    wdog.wdogkey().write(|w| unsafe { w.bits(0x0051_F15E) });
    wdog.wdogcfg()
        .write(|w| w.enalways().set_bit().rsten().set_bit());
    #[allow(clippy::empty_loop)]
    loop {}
}
