//! nimbot on the Raspberry Pi Pico (RP2040, Cortex-M0+).
//!
//! The board's part of the firmware: start-up (cortex-m-rt through `rp2040-hal`,
//! with the second-stage bootloader for the Pico's W25Q080 flash), the 12 MHz
//! crystal and PLLs, UART0 at 115200 8N1 on GP0 (TX, pin 1) and GP1 (RX, pin 2)
//! from `rp2040-hal`, whose UART implements embedded-io 0.7 itself. The stack region is cortex-m-rt's
//! (`nimbot_firmware::Stack::reserved`). The application is `nimbot_firmware::run`.
//!
//! The HAL keeps panic paths of its own (divides in its clock and baud-rate
//! set-up, an `unwrap` of an infallible result in its UART writer), so this
//! image's panic handler reports on UART0 and resets the chip; the link-time
//! guard holds for the application and the core in the board's guard build
//! (`src/guard.rs`).
#![no_std]
#![no_main]

use rp2040_hal::clocks::{init_clocks_and_plls, Clock};
use rp2040_hal::fugit::RateExtU32;
use rp2040_hal::gpio::{FunctionUart, Pins, PullNone};
use rp2040_hal::pac;
use rp2040_hal::uart::{DataBits, StopBits, UartConfig, UartPeripheral};
use rp2040_hal::{Sio, Watchdog};

/// The second-stage bootloader, first in flash: the boot ROM copies it to RAM
/// and runs it to set up execute-in-place for the Pico's flash chip.
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// The Pico's crystal.
const XOSC_HZ: u32 = 12_000_000;

#[rp2040_hal::entry]
fn main() -> ! {
    let Some(mut p) = pac::Peripherals::take() else {
        // Only this function takes the peripherals, once; nothing to talk on.
        #[allow(clippy::empty_loop)]
        loop {}
    };
    let mut watchdog = Watchdog::new(p.WATCHDOG);
    let Ok(clocks) = init_clocks_and_plls(
        XOSC_HZ,
        p.XOSC,
        p.CLOCKS,
        p.PLL_SYS,
        p.PLL_USB,
        &mut p.RESETS,
        &mut watchdog,
    ) else {
        // The crystal or a PLL did not start: no clock for the UART.
        #[allow(clippy::empty_loop)]
        loop {}
    };
    let sio = Sio::new(p.SIO);
    let pins = Pins::new(p.IO_BANK0, p.PADS_BANK0, sio.gpio_bank0, &mut p.RESETS);
    let pins = (
        pins.gpio0.reconfigure::<FunctionUart, PullNone>(),
        pins.gpio1.reconfigure::<FunctionUart, PullNone>(),
    );
    let Ok(mut uart) = UartPeripheral::new(p.UART0, pins, &mut p.RESETS).enable(
        UartConfig::new(115_200.Hz(), DataBits::Eight, None, StopBits::One),
        clocks.peripheral_clock.freq(),
    ) else {
        // The peripheral clock cannot make 115200 baud: nothing to talk on.
        #[allow(clippy::empty_loop)]
        loop {}
    };
    nimbot_firmware::run(&mut uart, &nimbot_firmware::Stack::reserved())
}

/// Says so on UART0 and resets: reachable only through the HAL's own panic
/// paths (see the crate documentation).
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    // Safety: the panic handler never returns, so whatever owned UART0 never
    // uses it again; the accesses below touch only its flag and data registers.
    let uart = unsafe { &*pac::UART0::ptr() };
    for &byte in b"\nerror firmware panic, resetting\n" {
        // Bounded waits: a UART that was never enabled never drains.
        let mut spins = 0u32;
        while uart.uartfr().read().txff().bit_is_set() && spins < 100_000 {
            spins += 1;
        }
        // Safety: any byte is a valid value of the data register.
        uart.uartdr().write(|w| unsafe { w.data().bits(byte) });
    }
    let mut spins = 0u32;
    while uart.uartfr().read().busy().bit_is_set() && spins < 100_000 {
        spins += 1;
    }
    cortex_m::peripheral::SCB::sys_reset()
}
