//! What both Pico images share: the second-stage bootloader, the clocks and the
//! pins, and the reset that ends a panic.
//!
//! Included as a module by each image (`src/main.rs`, USB; `src/uart.rs`, UART0)
//! rather than built as a library of the crate, so that the guard build
//! (`src/guard.rs`) links none of it.

use rp2040_hal::clocks::{init_clocks_and_plls, ClocksManager};
use rp2040_hal::gpio::Pins;
use rp2040_hal::pac;
use rp2040_hal::{Sio, Watchdog};

/// The second-stage bootloader, first in flash: the boot ROM copies it to RAM,
/// checks its checksum and runs it to set up execute-in-place for the Pico's
/// W25Q080 flash chip.
#[allow(unsafe_code)] // placed by the linker script, where the boot ROM looks
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// The Pico's crystal.
const XOSC_HZ: u32 = 12_000_000;

/// The chip after start-up: the clocks running (the system PLL at 125 MHz, the
/// USB PLL at 48 MHz), the GPIO bank out of reset, and the peripherals an image
/// may still take (each image takes the ones it talks on and leaves the others).
#[allow(dead_code)]
pub struct Chip {
    pub clocks: ClocksManager,
    pub resets: pac::RESETS,
    pub pins: Pins,
    pub uart0: pac::UART0,
    pub usb_regs: pac::USBCTRL_REGS,
    pub usb_dpram: pac::USBCTRL_DPRAM,
}

/// Starts the crystal, the PLLs and the GPIO bank. Where that cannot be done
/// there is nothing to talk on, so the image stops here ([`halt`]).
pub fn start() -> Chip {
    let Some(mut p) = pac::Peripherals::take() else {
        // Only this function takes the peripherals, once.
        halt()
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
        // The crystal or a PLL did not start.
        halt()
    };
    let sio = Sio::new(p.SIO);
    let pins = Pins::new(p.IO_BANK0, p.PADS_BANK0, sio.gpio_bank0, &mut p.RESETS);
    Chip {
        clocks,
        resets: p.RESETS,
        pins,
        uart0: p.UART0,
        usb_regs: p.USBCTRL_REGS,
        usb_dpram: p.USBCTRL_DPRAM,
    }
}

/// Stops for good: start-up failed and there is no port to say so on.
pub fn halt() -> ! {
    #[allow(clippy::empty_loop)]
    loop {}
}

/// Resets the chip: the end of either image's panic handler, reachable only
/// through the HAL's own panic paths (see the images' documentation).
pub fn reset() -> ! {
    cortex_m::peripheral::SCB::sys_reset()
}
