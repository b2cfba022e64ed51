//! Constant bytes that stay in program memory.
//!
//! On the AVR (the Arduino Uno's ATmega328P) flash and RAM are separate address
//! spaces: an ordinary load reads RAM, and only the `lpm` instruction reads flash.
//! A Rust `static` is therefore copied from flash to RAM at start-up, every byte
//! of it, and 2 KB of RAM cannot hold nimbot's table and the protocol's text.
//! [`ProgMem`] is a static that is *not* copied: [`progmem!`] places it in
//! avr-libc's `.progmem.data` section, and its bytes are reachable only through
//! [`ProgMem::get`] and [`ProgMem::read`], which use `lpm` there. On every other
//! target it is an ordinary static and the same calls are plain reads, so code
//! written against it is the same on every board.
//!
//! The `lpm` reads are this crate's only `unsafe` code; it is kept out of the
//! nimbot core, which forbids `unsafe`.
//!
//! ```
//! nimbot_progmem::progmem! {
//!     /// Greeting, kept in flash on the AVR.
//!     static HELLO = *b"hello";
//! }
//! let hello: &nimbot_progmem::ProgMem<[u8]> = &HELLO;
//! assert_eq!(hello.len(), 5);
//! assert_eq!(hello.get(1), Some(b'e'));
//! assert_eq!(hello.get(5), None);
//! let mut buf = [0u8; 3];
//! assert_eq!(hello.read(3, &mut buf), 2);
//! assert_eq!(&buf[..2], b"lo");
//! ```
#![no_std]
// The `lpm` reads below are the one place nimbot needs `unsafe` (the workspace denies it).
#![allow(unsafe_code)]
#![cfg_attr(target_arch = "avr", feature(asm_experimental_arch))]
#![warn(missing_docs)]

/// Bytes placed in program memory by [`progmem!`] (on the AVR; an ordinary
/// static elsewhere), readable only through its methods. Used unsized, as
/// `&ProgMem<[u8]>`, which every `&ProgMem<[u8; N]>` coerces to.
#[repr(transparent)]
pub struct ProgMem<T: ?Sized>(T);

impl<const N: usize> ProgMem<[u8; N]> {
    /// The value of a [`progmem!`] static. Not for other uses: a `ProgMem` that is
    /// not in program memory reads back wrong bytes on the AVR (the flash at its
    /// RAM address; never memory outside the flash, so this is still safe).
    #[doc(hidden)]
    pub const fn new(bytes: [u8; N]) -> Self {
        ProgMem(bytes)
    }
}

impl ProgMem<[u8]> {
    /// The number of bytes (from the reference itself: no memory is read).
    pub const fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no bytes.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Byte `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<u8> {
        if i >= self.len() {
            return None;
        }
        Some(load(self.0.as_ptr().wrapping_add(i)))
    }

    /// Copy the bytes from `at` on into `buf`, as many as both have; returns
    /// the count (0 when `at` is at or past the end).
    pub fn read(&self, at: usize, buf: &mut [u8]) -> usize {
        let n = self.len().saturating_sub(at).min(buf.len());
        let from = self.0.as_ptr().wrapping_add(at);
        for (i, slot) in buf.iter_mut().take(n).enumerate() {
            *slot = load(from.wrapping_add(i));
        }
        n
    }

    /// The bytes as a slice: on targets without a separate program memory only,
    /// where they are ordinary memory.
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_slice(&self) -> &[u8] {
        &self.0
    }
}

/// The byte at `addr`, an address inside a `ProgMem`'s bytes.
#[cfg(not(target_arch = "avr"))]
#[inline(always)]
fn load(addr: *const u8) -> u8 {
    // Safety: callers pass an address inside the bytes of a `ProgMem` they hold
    // a reference to (checked against its length), which on this target is
    // ordinary, initialized, immutable memory.
    unsafe { addr.read() }
}

/// The byte at `addr` in program memory (the AVR's flash).
#[cfg(target_arch = "avr")]
#[inline(always)]
fn load(addr: *const u8) -> u8 {
    let byte: u8;
    // Safety: `lpm` reads one byte of flash at the address in Z and writes only
    // its output register; any 16-bit address is a valid operand (the
    // ATmega328P's 32 KB of flash lie below 64 KB, and `progmem!` statics are in
    // `.progmem.data` at the start of `.text`), so it cannot fault, and it reads
    // no RAM. `addr` is inside a `ProgMem` static, which `progmem!` put in flash.
    unsafe {
        core::arch::asm!(
            "lpm {byte}, Z",
            byte = out(reg) byte,
            in("Z") addr,
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    byte
}

/// Declare statics of bytes kept in program memory:
/// `progmem! { [pub] static NAME = EXPR; ... }` where `EXPR` is a `[u8; N]`
/// constant expression (`*b"..."`, `*include_bytes!(...)`). Each becomes a
/// `static NAME: ProgMem<[u8; N]>` in avr-libc's `.progmem.data` on the AVR.
#[macro_export]
macro_rules! progmem {
    ($($(#[$meta:meta])* $vis:vis static $name:ident = $bytes:expr;)+) => {$(
        $(#[$meta])*
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        $vis static $name: $crate::ProgMem<[u8; { $bytes.len() }]> = $crate::ProgMem::new($bytes);
    )+};
}
