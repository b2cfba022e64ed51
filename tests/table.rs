//! The table against the solver it was made from, and against damaged bytes.

use nimbot::{
    best_move, encode_table, position_value, Oracle, Position, Solution, SolveBox, Table,
    TableError,
};

fn build(n: u32, r: u8, m: u32) -> (Solution, Vec<u8>) {
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let blob = encode_table(&sol, "nimbot-test");
    (sol, blob)
}

/// Every stored position: the table's value equals the solver's, and the table's
/// best move is legal and, in won positions, leaves a lost position.
fn agree(n: u32, r: u8, m: u32) -> usize {
    let (sol, blob) = build(n, r, m);
    let table = Table::from_bytes(&blob).unwrap();
    let mut checked = 0;
    for (c, hi) in sol.layers() {
        for s in (c + 1)..=hi {
            for a in 0..=r {
                for b in 0..=r {
                    for f in [false, true] {
                        let pos = Position::new(s, c, a, b, f, m).unwrap();
                        let want = sol.is_win(&pos).unwrap();
                        assert_eq!(table.is_win(&pos), Ok(want), "{pos:?}");
                        let d = best_move(&table, &pos).unwrap();
                        assert_eq!(d.wins, want, "{pos:?}");
                        let next = pos.after(d.mv).expect("legal move");
                        if want {
                            assert!(!d.mv.reset || next.is_some(), "reset on the winning move");
                            if let Some(next) = next {
                                assert!(
                                    !position_value(&sol, &next).unwrap(),
                                    "{pos:?} -> {next:?}"
                                );
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    println!(
        "n={n} r={r} m={m}: {checked} positions, {} bytes",
        blob.len()
    );
    checked
}

#[test]
fn table_agrees_with_the_solver_for_the_default_parameters() {
    assert_eq!(agree(999, 4, 3), 1_345_400);
}

#[test]
fn table_agrees_with_the_solver_for_other_parameters() {
    agree(300, 0, 1);
    agree(500, 2, 3);
    agree(999, 4, 4);
}

#[test]
fn positions_outside_the_table_are_refused() {
    let (_, blob) = build(100, 2, 3);
    let t = Table::from_bytes(&blob).unwrap();
    for pos in [
        Position::new(101, 3, 0, 0, false, 3).unwrap(),
        Position::new(50, 3, 3, 0, false, 3).unwrap(),
        Position::new(50, 4, 0, 0, false, 4).unwrap(),
        Position::new(99, 20, 0, 0, false, 3).unwrap(),
    ] {
        assert_eq!(
            t.is_win(&pos),
            Err(nimbot::DecideError::OutOfRange),
            "{pos:?}"
        );
    }
}

#[test]
fn every_bit_flip_and_truncation_is_rejected() {
    let (_, blob) = build(999, 4, 3);
    assert!(Table::from_bytes(&blob).is_ok());
    let mut bytes = blob.clone();
    for i in 0..bytes.len() {
        for bit in 0..8 {
            bytes[i] ^= 1 << bit;
            assert!(
                Table::from_bytes(&bytes).is_err(),
                "flip of bit {bit} of byte {i} passed"
            );
            bytes[i] ^= 1 << bit;
        }
    }
    for len in 0..blob.len() {
        assert!(
            Table::from_bytes(&blob[..len]).is_err(),
            "truncation to {len} passed"
        );
    }
}

#[test]
fn random_bytes_are_rejected_without_panic() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    for len in 0..2000usize {
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        assert!(Table::from_bytes(&bytes).is_err());
        // With a valid checksum appended, the structure checks must still hold.
        let mut with_crc = bytes.clone();
        with_crc.extend_from_slice(&nimbot::crc32(&bytes).to_le_bytes());
        if let Ok(t) = Table::from_bytes(&with_crc) {
            let pos = Position::new(10, 3, 0, 0, false, 3).unwrap();
            let _ = t.is_win(&pos);
        }
    }
    assert_eq!(Table::from_bytes(&[]).unwrap_err(), TableError::Truncated);
}

#[test]
fn checksum_is_the_standard_crc32() {
    // The check value of CRC-32/ISO-HDLC (zlib's crc32).
    assert_eq!(nimbot::crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(nimbot::crc32(b""), 0);
}
