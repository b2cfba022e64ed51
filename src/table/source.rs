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

#[cfg(test)]
mod tests {
    use super::ByteSource;
    use nimbot_progmem::ProgMem;

    nimbot_progmem::progmem! {
        static BYTES = *b"NIMT\x03 a table";
    }

    /// A source of `want`'s bytes: their count, each byte where it is, nothing
    /// past them.
    fn reads<S: ByteSource + ?Sized>(s: &S, want: &[u8]) {
        assert_eq!(s.len() as usize, want.len());
        assert_eq!(s.is_empty(), want.is_empty());
        for (i, &b) in want.iter().enumerate() {
            assert_eq!(s.byte(i as u32), Some(b), "byte {i}");
        }
        assert_eq!(s.byte(want.len() as u32), None);
        assert_eq!(s.byte(u32::MAX), None);
    }

    /// Every source reads the same bytes: a slice, program memory (the AVR's
    /// embedded table), and a reference to either.
    #[test]
    fn every_source_reads_its_bytes_and_none_past_them() {
        let want: &[u8] = b"NIMT\x03 a table";
        let prog: &ProgMem<[u8]> = &BYTES;
        reads(want, want);
        reads(&want, want);
        reads(prog, want);
        reads(&prog, want);
        reads(&[][..], &[]);
        reads(&&[][..], &[]);
    }
}
