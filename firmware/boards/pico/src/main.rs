//! nimbot on the Raspberry Pi Pico (RP2040, Cortex-M0+), over the Pico's own USB
//! port: the image a Pico owner flashes and plugs in (`nimbot-pico`).
//!
//! The board's part of the firmware: start-up (cortex-m-rt through `rp2040-hal`,
//! with the second-stage bootloader for the Pico's flash; `board.rs`), and the
//! USB port as a CDC-ACM serial device (`usb_serial.rs`: `/dev/ttyACM0` on Linux)
//! that the application reads and writes like a UART. The stack region is
//! cortex-m-rt's (`nimbot_firmware::Stack::reserved`). The application is
//! `nimbot_firmware::run`. The same application over UART0 is the second image,
//! `nimbot-pico-uart` (`src/uart.rs`).
//!
//! The HAL keeps panic paths of its own (divides in its clock set-up; see
//! docs/firmware.md), so this image's panic handler resets the chip: the board
//! drops off the bus and comes back. The link-time guard holds for the
//! application and the core in the board's guard build (`src/guard.rs`).
#![no_std]
#![no_main]

mod board;
mod usb_serial;

use rp2040_hal::usb::UsbBus;
use usb_device::bus::UsbBusAllocator;

#[rp2040_hal::entry]
fn main() -> ! {
    let mut chip = board::start();
    let bus = UsbBusAllocator::new(UsbBus::new(
        chip.usb_regs,
        chip.usb_dpram,
        chip.clocks.usb_clock,
        // The Pico's VBUS is not wired to the controller's detect input: the
        // board is powered by the bus it is plugged into, so VBUS is there.
        true,
        &mut chip.resets,
    ));
    // Borrowed where it was built: moving the port (a kilobyte) out of the
    // `Option` would keep a second copy in this frame for good.
    let mut port = usb_serial::UsbSerial::new(&bus);
    let Some(port) = port.as_mut() else {
        board::halt()
    };
    port.wait_open();
    nimbot_firmware::run(port, &nimbot_firmware::Stack::reserved())
}

/// Resets the chip: reachable only through the HAL's own panic paths (see the
/// crate documentation). There is no port to report on: the USB stack is in
/// whatever state the panic left it.
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    board::reset()
}
