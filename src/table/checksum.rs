//! The blob's checksum: CRC-32/ISO-HDLC (the CRC of zlib and PNG), from the `crc`
//! crate. The writer (feature `encode`), which checksums table after table, uses its
//! 1 KB lookup table; every other build (firmware, tiny binary, host player) checks
//! one table once when it opens it and uses the table-free loop, 1 KB less.

#[cfg(feature = "encode")]
type Implementation = crc::Table<1>;
#[cfg(not(feature = "encode"))]
type Implementation = crc::NoTable;

const CRC32: crc::Crc<u32, Implementation> =
    crc::Crc::<u32, Implementation>::new(&crc::CRC_32_ISO_HDLC);

/// CRC-32 (IEEE, reflected, as zlib computes it) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    CRC32.checksum(bytes)
}
