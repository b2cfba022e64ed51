//! The blob's checksum: CRC-32/ISO-HDLC (the CRC of zlib and PNG), from the `crc`
//! crate. Hosts (`alloc`) use its 1 KB lookup table; the firmware and the tiny
//! binary check one table once at start and use the table-free loop, 1 KB less.

#[cfg(feature = "alloc")]
type Implementation = crc::Table<1>;
#[cfg(not(feature = "alloc"))]
type Implementation = crc::NoTable;

const CRC32: crc::Crc<u32, Implementation> =
    crc::Crc::<u32, Implementation>::new(&crc::CRC_32_ISO_HDLC);

/// CRC-32 (IEEE, reflected, as zlib computes it) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    CRC32.checksum(bytes)
}
