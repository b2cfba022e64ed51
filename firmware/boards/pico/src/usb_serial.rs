//! The Pico's own USB port as the application's serial line: a CDC-ACM device
//! (`usb-device` and `usbd-serial` on `rp2040-hal`'s USB controller) behind
//! embedded-io 0.7 `Read + Write`, so the application sees one more UART.
//!
//! Nothing runs in an interrupt: the device is polled from inside every read,
//! write and flush, and the application is always in one of them except while
//! it decides a move (at most a few hundred thousand cycles at 125 MHz). Meanwhile
//! the controller answers the host's transfers with NAK on its own, which USB
//! allows, so the host just asks again.
//!
//! The host's DTR line (raised when a program opens the port, dropped when the
//! last one closes it) says whether anyone is listening:
//! - [`UsbSerial::wait_open`] returns once the port has been opened for the first time,
//!   so the application's boot banner reaches whoever opened it, as it does on a
//!   UART that was already connected at reset;
//! - while the port is closed, replies are dropped, as on a UART with nothing on
//!   the wire, so the firmware never waits for a reader that is not there.

use embedded_io::{ErrorType, Read, Write};
use nimbot_firmware::IoError;
use rp2040_hal::usb::UsbBus;
use usb_device::bus::UsbBusAllocator;
use usb_device::device::{StringDescriptors, UsbDevice, UsbDeviceBuilder, UsbVidPid};
use usb_device::UsbError;
use usbd_serial::{SerialPort, USB_CLASS_CDC};

/// The shared vendor and product ID for CDC-ACM serial devices (VOTI's
/// 0x16C0:0x27DD, free for any CDC-ACM device that names its maker in its
/// strings). The host's `cdc_acm` driver binds by class, not by this pair.
const VID_PID: UsbVidPid = UsbVidPid(0x16c0, 0x27dd);

/// What the host shows (`lsusb`, `/dev/serial/by-id/usb-nimbot_nimbot_Pico_1-if00`).
const MANUFACTURER: &str = "nimbot";
const PRODUCT: &str = "nimbot Pico";
const SERIAL_NUMBER: &str = "1";

/// The USB controller's error, as embedded-io wants it.
pub type Error = IoError<UsbError>;

/// The CDC-ACM serial port and the USB device that carries it.
pub struct UsbSerial<'a> {
    device: UsbDevice<'a, UsbBus>,
    serial: SerialPort<'a, UsbBus>,
}

impl<'a> UsbSerial<'a> {
    /// The port on the bus, not yet enumerated: [`UsbSerial::wait_open`] comes
    /// next. `None` if the device's description is refused (it is not: one
    /// language, and 64 is a valid packet size for endpoint 0). Not inlined: the
    /// builder's temporaries live in this frame, which is gone before the
    /// application runs, not in `main`'s, which stays under it for good.
    #[inline(never)]
    pub fn new(bus: &'a UsbBusAllocator<UsbBus>) -> Option<Self> {
        let serial = SerialPort::new(bus);
        let strings = StringDescriptors::default()
            .manufacturer(MANUFACTURER)
            .product(PRODUCT)
            .serial_number(SERIAL_NUMBER);
        // A 64-byte control endpoint also avoids the Windows enumeration issue
        // that rp2040-hal's USB documentation describes for small ones.
        let device = UsbDeviceBuilder::new(bus, VID_PID)
            .device_class(USB_CLASS_CDC)
            .strings(&[strings])
            .and_then(|b| b.max_packet_size_0(64))
            .ok()?
            .build();
        Some(Self { device, serial })
    }

    /// Enumerates on the bus and waits until a host program opens the port (see
    /// the module documentation).
    pub fn wait_open(&mut self) {
        while !self.serial.dtr() {
            self.poll();
        }
    }

    /// Lets the device answer the host: enumeration, control requests, and the
    /// bulk transfers in both directions.
    fn poll(&mut self) {
        self.device.poll(&mut [&mut self.serial]);
    }
}

impl ErrorType for UsbSerial<'_> {
    type Error = Error;
}

impl Read for UsbSerial<'_> {
    /// Waits until the host has sent at least one byte.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            self.poll();
            match self.serial.read(buf) {
                Ok(0) | Err(UsbError::WouldBlock) => {}
                Ok(n) => return Ok(n),
                Err(e) => return Err(IoError(e)),
            }
        }
    }
}

impl Write for UsbSerial<'_> {
    /// Waits for room in the port's buffer while the port is open; drops the
    /// bytes while it is closed.
    fn write(&mut self, buf: &[u8]) -> Result<usize, Error> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            self.poll();
            if !self.serial.dtr() {
                return Ok(buf.len());
            }
            match self.serial.write(buf) {
                Ok(0) | Err(UsbError::WouldBlock) => {}
                Ok(n) => return Ok(n),
                Err(e) => return Err(IoError(e)),
            }
        }
    }

    /// Waits until the host has taken everything written, or the port closes.
    fn flush(&mut self) -> Result<(), Error> {
        loop {
            self.poll();
            if !self.serial.dtr() {
                return Ok(());
            }
            match self.serial.flush() {
                Ok(()) => return Ok(()),
                Err(UsbError::WouldBlock) => {}
                Err(e) => return Err(IoError(e)),
            }
        }
    }
}
