//! The blob's checksum: CRC-32/ISO-HDLC (the CRC of zlib and PNG), from the `crc`
//! crate with its 1 KB lookup table.

const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// CRC-32 (IEEE, reflected, as zlib computes it) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    CRC32.checksum(bytes)
}
