//! nimbot on the Raspberry Pi Pico (RP2040, Cortex-M0+), over UART0
//! (`nimbot-pico-uart`): for a Pico wired to a USB-serial adapter or to another
//! board's UART instead of plugged in by USB.
//!
//! UART0 at 115200 8N1 on GP0 (TX, pin 1) and GP1 (RX, pin 2), from
//! `rp2040-hal`, whose UART implements embedded-io 0.7 itself; start-up is
//! shared with the USB image (`board.rs`). The application is
//! `nimbot_firmware::run`.
//!
//! The HAL keeps panic paths of its own (divides in its clock and baud-rate
//! set-up, an `unwrap` of an infallible result in its UART writer), so this
//! image's panic handler reports on UART0 and resets the chip; the link-time
//! guard holds for the application and the core in the board's guard build
//! (`src/guard.rs`).
#![no_std]
#![no_main]

mod board;

use rp2040_hal::clocks::Clock;
use rp2040_hal::fugit::RateExtU32;
use rp2040_hal::gpio::{FunctionUart, PullNone};
use rp2040_hal::pac;
use rp2040_hal::uart::{DataBits, StopBits, UartConfig, UartPeripheral};

#[rp2040_hal::entry]
fn main() -> ! {
    let mut chip = board::start();
    let pins = (
        chip.pins.gpio0.reconfigure::<FunctionUart, PullNone>(),
        chip.pins.gpio1.reconfigure::<FunctionUart, PullNone>(),
    );
    let Ok(mut uart) = UartPeripheral::new(chip.uart0, pins, &mut chip.resets).enable(
        UartConfig::new(115_200.Hz(), DataBits::Eight, None, StopBits::One),
        chip.clocks.peripheral_clock.freq(),
    ) else {
        // The peripheral clock cannot make 115200 baud: nothing to talk on.
        board::halt()
    };
    nimbot_firmware::run(&mut uart, &nimbot_firmware::Stack::reserved())
}

/// Says so on UART0 and resets: reachable only through the HAL's own panic
/// paths (see the crate documentation).
#[panic_handler]
#[allow(unsafe_code)] // register access through the PAC
fn panic(_info: &core::panic::PanicInfo) -> ! {
    // Safety: the panic handler never returns, so whatever owned UART0 never
    // uses it again; the accesses below touch only its flag and data registers.
    let uart = unsafe { &*pac::UART0::ptr() };
    nimbot_firmware::say_panic(
        || uart.uartfr().read().txff().bit_is_set(),
        // Safety: any byte is a valid value of the data register.
        |byte| uart.uartdr().write(|w| unsafe { w.data().bits(byte) }),
        || uart.uartfr().read().busy().bit_is_set(),
    );
    board::reset()
}
