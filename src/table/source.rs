//! Where a table's bytes are read from: the one interface between the decoder and
//! memory, so that every board reads its table the same way.

use nimbot_progmem::ProgMem;

/// The bytes of a table, as the decoder reads them.
///
/// Implemented for byte slices: RAM, or flash mapped into the address space (every
/// ARM and RISC-V board). A board whose flash is a separate address space (the AVR,
/// read with `lpm`) or a table on an external chip (SPI flash) implements it over
/// its own reads, and opens the table with [`Table::from_source`] and a [`Layout`]
/// checked at build time.
///
/// The decoder reads the bytes of a probe's bit range in ascending order, each
/// once (a probe touches a few dozen bytes), so a source whose random access is
/// slow can keep a small cache. Offsets are `u32` on every target: a table is at
/// most 4 GiB, and the 8- and 16-bit targets address it the same way.
///
/// ```
/// use nimbot::table::ByteSource;
///
/// /// A table in a ROM whose bytes are read one at a time.
/// struct Rom<'a>(&'a [u8]);
///
/// impl ByteSource for Rom<'_> {
///     fn len(&self) -> u32 {
///         self.0.len() as u32
///     }
///     fn byte(&self, at: u32) -> Option<u8> {
///         self.0.get(at as usize).copied()
///     }
/// }
///
/// let rom = Rom(b"NIMT");
/// assert_eq!((rom.len(), rom.byte(0), rom.byte(4)), (4, Some(b'N'), None));
/// ```
///
/// [`Table::from_source`]: super::Table::from_source
/// [`Layout`]: super::Layout
pub trait ByteSource {
    /// The number of bytes.
    fn len(&self) -> u32;

    /// The byte at `at`: `None` past the end, or when the medium cannot be read (a
    /// probe then fails with [`ProbeError::Corrupt`], it never guesses).
    ///
    /// [`ProbeError::Corrupt`]: super::ProbeError::Corrupt
    fn byte(&self, at: u32) -> Option<u8>;

    /// Whether there are no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where the table embedded at build time is read from, and the default source of a
/// [`Table`](super::Table): flash mapped into the address space, read as a slice, on
/// every target but the AVR.
#[cfg(not(target_arch = "avr"))]
pub(crate) type EmbeddedSource = &'static [u8];
/// Where the table embedded at build time is read from, and the default source of a
/// [`Table`](super::Table): program memory, read with `lpm`, on the AVR, whose flash
/// is an address space of its own (a slice there would be a copy in its 2 KB of RAM).
#[cfg(target_arch = "avr")]
pub(crate) type EmbeddedSource = &'static ProgMem<[u8]>;

impl ByteSource for [u8] {
    fn len(&self) -> u32 {
        u32::try_from(<[u8]>::len(self)).unwrap_or(u32::MAX)
    }

    #[inline]
    fn byte(&self, at: u32) -> Option<u8> {
        self.get(usize::try_from(at).ok()?).copied()
    }
}

/// Program memory (see `nimbot_progmem`): read with `lpm` on the AVR, an ordinary
/// static elsewhere.
impl ByteSource for ProgMem<[u8]> {
    fn len(&self) -> u32 {
        u32::try_from(ProgMem::len(self)).unwrap_or(u32::MAX)
    }

    #[inline]
    fn byte(&self, at: u32) -> Option<u8> {
        self.get(usize::try_from(at).ok()?)
    }
}

impl<S: ByteSource + ?Sized> ByteSource for &S {
    fn len(&self) -> u32 {
        (**self).len()
    }

    #[inline]
    fn byte(&self, at: u32) -> Option<u8> {
        (**self).byte(at)
    }
}
