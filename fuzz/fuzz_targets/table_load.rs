//! The table loader and probe on arbitrary blobs. The first byte picks the mode:
//! even, the blob as given (almost always a checksum error); odd, the rest is a
//! table body and the target appends its correct CRC-32, so mutations reach the
//! decoder, the validation and the probe. A table that loads is probed at positions
//! spread over its range; every answer must be a legal move; nothing may panic or
//! allocate.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use nimbot::{Position, Table};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut blob = rest.to_vec();
    if mode & 1 == 1 {
        // The CRC-32 the format specifies (table/FORMAT.md), from the `crc` crate.
        let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(rest);
        blob.extend_from_slice(&crc.to_le_bytes());
    }
    common::no_heap("the table loader", || {
        let Ok(table) = Table::from_bytes(&blob) else {
            return;
        };
        let p = table.params();
        let _ = (
            table.generator(),
            table.layout(),
            table.layer_count(),
            table.section_sizes(),
        );
        // A few positions: small piles, piles near each end of the range, every
        // reset count, both pending flags. Bounded so one input stays fast.
        let m = p.init_max();
        let seed = u32::from(mode >> 1);
        let piles = [
            1,
            2,
            m,
            m.saturating_add(1),
            7 + seed,
            p.stones() / 2,
            p.stones(),
        ];
        for (i, &s) in piles.iter().enumerate() {
            let c = m.saturating_add(i as u32 + seed % 5);
            for a in [0, p.resets()] {
                for f in [false, true] {
                    let Ok(pos) = Position::new(s, c, a, p.resets() - a, f, m) else {
                        continue;
                    };
                    let _ = table.probe(&pos);
                    if let Ok(d) = table.best_move(&pos) {
                        assert!(pos.check(d.mv).is_ok(), "illegal move {d:?} at {pos:?}");
                    }
                    let _ = table.highest_pile(c);
                }
            }
        }
    });
});
