//! nimbot on the STM32VLDISCOVERY (STM32F100RB, Cortex-M3, 128 KB flash, 8 KB RAM).
//!
//! The board's part of the firmware: start-up (cortex-m-rt), USART1 at 115200 8N1
//! on PA9 (TX) and PA10 (RX) from `stm32f1xx-hal`, on the reset clock (the 8 MHz
//! internal oscillator); the stack region is cortex-m-rt's. The HAL's UART is embedded-hal-nb
//! serial; `nimbot_firmware::serial::NbSerial` makes its split halves one
//! embedded-io reader/writer. (The HAL's combined `Serial` is not used: its nb
//! `Write` turns a busy transmitter into a panic.) The application is
//! `nimbot_firmware::run`.
//!
//! The HAL's baud-rate setup keeps a panic path (a divide by the configured rate
//! and `assert!(brr >= 16)`, in `stm32f1xx_hal::serial::apply_config`), so this
//! image's panic handler reports on USART1 and resets the chip; the link-time
//! guard holds for the application and the core in the board's guard build
//! (`src/guard.rs`).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use nimbot_firmware::serial::NbSerial;
use stm32f1xx_hal::pac;
use stm32f1xx_hal::prelude::*;
use stm32f1xx_hal::serial::Config;

#[entry]
fn main() -> ! {
    let Some(p) = pac::Peripherals::take() else {
        // Only this function takes the peripherals, once; nothing to talk on.
        #[allow(clippy::empty_loop)]
        loop {}
    };
    let mut rcc = p.RCC.constrain();
    let mut gpioa = p.GPIOA.split(&mut rcc);
    let tx = gpioa.pa9.into_alternate_push_pull(&mut gpioa.crh);
    let rx = gpioa.pa10;
    let (tx, rx) = p
        .USART1
        .serial(
            (tx, rx),
            Config::default().baudrate(115_200.bps()),
            &mut rcc,
        )
        .split();
    NbSerial::run(tx, rx)
}

/// Says so on USART1 and resets: reachable only through the HAL's baud-rate
/// assertion (see the crate documentation).
#[panic_handler]
#[allow(unsafe_code)] // register access through the PAC
fn panic(_info: &core::panic::PanicInfo) -> ! {
    // Safety: the panic handler never returns, so whatever owned USART1 never
    // uses it again; the writes below touch only its data register.
    let usart = unsafe { &*pac::USART1::ptr() };
    nimbot_firmware::say_panic(
        || usart.sr().read().txe().bit_is_clear(),
        |byte| usart.dr().write(|w| w.dr().set(u16::from(byte))),
        || usart.sr().read().tc().bit_is_clear(),
    );
    cortex_m::peripheral::SCB::sys_reset()
}
