//! The blob's checksum: CRC-32/ISO-HDLC (the CRC of zlib and PNG: polynomial
//! 0xEDB88320 reflected, initial value and final complement all ones). A `const fn`,
//! so a table embedded at build time is checked by the compiler, and the firmware
//! carries neither the loop nor its 1 KB lookup table.

/// The lookup table, one entry per byte value, computed at compile time.
const TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// CRC-32 (IEEE, reflected, as zlib computes it) of `bytes`.
pub const fn crc32(bytes: &[u8]) -> u32 {
    let mut c = u32::MAX;
    let mut i = 0;
    while i < bytes.len() {
        c = TABLE[((c ^ bytes[i] as u32) & 0xFF) as usize] ^ (c >> 8);
        i += 1;
    }
    !c
}

#[cfg(test)]
mod tests {
    #[test]
    fn check_value() {
        assert_eq!(super::crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(super::crc32(b""), 0);
    }
}
