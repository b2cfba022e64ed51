//! The table against the solver it was made from, and against damaged bytes.

use nimbot::{
    best_move, position_value,
    table::{format::crc32, Layout, ProbeError, TableError, EMBEDDED_TABLE},
    DecideError, Engine, Oracle, Params, Policy, Position, Table, TableEngine, Value,
};
use nimbot_solve::{
    encode as encode_table, solve_windowed, CodedSolution, Encoding, Solution, SolveBox,
    SolvingEngine, TableOrSolverEngine, TableWriter,
};

fn build(n: u32, r: u8, m: u32) -> (Solution, Vec<u8>) {
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let blob = encode_table(&sol, "nimbot-test").expect("a whole-game box encodes");
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
                        let want = sol.value(&pos).unwrap().is_won();
                        assert_eq!(
                            table.value(&pos).map(nimbot::Value::is_won),
                            Ok(want),
                            "{pos:?}"
                        );
                        let d = best_move(&table, &pos).unwrap();
                        assert_eq!(d.value.is_won(), want, "{pos:?}");
                        let next = pos.after(d.mv).expect("legal move");
                        if want {
                            assert!(!d.mv.reset || next.is_some(), "reset on the winning move");
                            if let Some(next) = next {
                                assert!(
                                    !position_value(&sol, &next).unwrap().is_won(),
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

/// The streaming writer fed by the windowed solver writes the very blob that the
/// full solution encodes to, on boxes of both solver paths, and the default table.
#[test]
fn the_streamed_table_is_the_full_solutions_table() {
    // The smallest boxes and the default's, then larger M and R (8 and 9 resets
    // take the solver's per-position path).
    let small = [(1, 0, 1), (4, 4, 3), (300, 0, 1), (999, 4, 3)];
    let wide = [(700, 2, 5), (300, 6, 2), (150, 9, 3), (120, 3, 30)];
    for (n, r, m) in small.into_iter().chain(wide) {
        let params = Params::new(n, r, m).unwrap();
        let (_, blob) = build(n, r, m);
        let mut writer = TableWriter::new(&params, Encoding::default()).unwrap();
        solve_windowed(SolveBox::games(n, r, m), &mut writer, &mut |_, _| {}).unwrap();
        assert!(writer.coded_bytes() > 0 || n <= m + 1, "{n} {r} {m}");
        assert_eq!(writer.finish("nimbot-test").unwrap(), blob, "{n} {r} {m}");
    }
    // A writer missing a cap says so rather than writing a table.
    let params = Params::new(100, 1, 3).unwrap();
    let writer = TableWriter::new(&params, Encoding::default()).unwrap();
    assert_eq!(writer.finish("x"), Err(TableError::BadParams));
}

#[test]
fn positions_outside_the_table_are_refused() {
    let (_, blob) = build(100, 2, 3);
    let t = Table::from_bytes(&blob).unwrap();
    for pos in [
        Position::new(101, 3, 0, 0, false, 3).unwrap(),
        Position::new(50, 3, 3, 0, false, 3).unwrap(),
        Position::new(50, 3, 0, 3, true, 3).unwrap(),
        Position::new(50, 4, 0, 0, false, 4).unwrap(),
        Position::new(99, 20, 0, 0, false, 3).unwrap(),
    ] {
        assert_eq!(t.value(&pos), Err(DecideError::OutOfRange), "{pos:?}");
    }
    // A box coded from cap 40 (a position's box): a cap below it is outside,
    // whatever the pile, not damage.
    let bx = SolveBox {
        n_max: 150,
        resets: 1,
        init_max: 2,
        c_min: 40,
    };
    let coded = CodedSolution::solve(bx).unwrap();
    let t = coded.table().unwrap();
    for (s, c) in [(150, 39), (45, 39), (41, 2)] {
        let pos = Position::new(s, c, 0, 1, false, 2).unwrap();
        assert_eq!(t.probe(&pos), Err(ProbeError::OutOfRange), "{pos:?}");
    }
    let inside = Position::new(110, 40, 0, 1, false, 2).unwrap();
    let full = Solution::solve(bx).unwrap();
    assert_eq!(t.probe(&inside).ok(), full.value(&inside));
}

#[test]
fn every_bit_flip_and_truncation_of_the_default_table_is_rejected() {
    let blob = EMBEDDED_TABLE.to_vec();
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
        with_crc.extend_from_slice(&crc32(&bytes).to_le_bytes());
        if let Ok(t) = Table::from_bytes(&with_crc) {
            let pos = Position::new(10, 3, 0, 0, false, 3).unwrap();
            let _ = t.value(&pos);
        }
    }
    assert_eq!(Table::from_bytes(&[]).unwrap_err(), TableError::Truncated);
    // Four bytes are a CRC and an empty body: checked, then too short for a table.
    assert_eq!(
        Table::from_bytes(&[1, 2, 3, 4]).unwrap_err(),
        TableError::Checksum
    );
    assert_eq!(
        Table::from_bytes(&[0; 4]).unwrap_err(),
        TableError::Truncated
    );
}

#[test]
fn checksum_is_the_standard_crc32() {
    // The check value of CRC-32/ISO-HDLC (zlib's crc32).
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
}

/// `blob` with its body edited by `edit` and a fresh, valid checksum.
fn resealed(blob: &[u8], edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut body = blob[..blob.len() - 4].to_vec();
    edit(&mut body);
    let crc = crc32(&body);
    body.extend_from_slice(&crc.to_le_bytes());
    body
}

#[test]
fn wrong_magic_version_or_parameters_get_typed_errors() {
    let blob = EMBEDDED_TABLE;
    // Layout (table/FORMAT.md): magic, version varint, generator (length + bytes),
    // n_max varint, resets byte, init_max varint, ...
    let gen_len = usize::from(blob[5]);
    let n_at = 6 + gen_len;
    assert_eq!(
        &blob[n_at..n_at + 2],
        &[0xE7, 0x07],
        "n_max 999 as a varint"
    );
    let cases: [(Vec<u8>, TableError); 5] = [
        (resealed(blob, |b| b[0] = b'X'), TableError::BadMagic),
        (resealed(blob, |b| b[4] = 1), TableError::UnsupportedVersion),
        (
            resealed(blob, |b| {
                b.splice(n_at..n_at + 2, [0]);
            }),
            TableError::BadParams,
        ),
        (resealed(blob, |b| b[n_at + 2] = 33), TableError::BadParams),
        (resealed(blob, |b| b[n_at + 3] = 0), TableError::BadParams),
    ];
    for (i, (bytes, want)) in cases.iter().enumerate() {
        assert_eq!(&Table::from_bytes(bytes).unwrap_err(), want, "case {i}");
    }
    // Other in-range parameters with the same sections: a wrong cap count is
    // refused; fewer resets (the same caps) open, but a probe only ever reports
    // damage or answers, it never panics.
    let other = resealed(blob, |b| b[n_at + 3] = 4);
    assert_eq!(
        Table::from_bytes(&other).unwrap_err(),
        TableError::BadParams
    );
    let fewer = resealed(blob, |b| b[n_at + 2] = 3);
    if let Ok(t) = Table::from_bytes(&fewer) {
        for s in 4..=999 {
            for c in [3, 10, 30] {
                let pos = Position::new(s, c, 3, 2, true, 3).unwrap();
                let _ = t.value(&pos);
            }
        }
    }
}

#[test]
fn the_embedded_table_covers_the_tournament_and_no_more() {
    let t = Table::embedded();
    let p = t.params();
    assert_eq!((p.stones(), p.resets(), p.init_max()), (999, 4, 3));
    assert_eq!(t.size() as usize, EMBEDDED_TABLE.len());
    // Format v3's ceiling for the default table (v2 took 3,562 bytes, v1 19,239).
    assert!(t.size() <= 3_000, "{} bytes", t.size());
    let covers = |n, r, m| t.covers(&Params::new(n, r, m).unwrap());
    assert!(covers(999, 4, 3) && covers(1, 0, 3) && covers(500, 2, 3));
    assert!(!covers(1000, 4, 3) && !covers(999, 5, 3) && !covers(999, 4, 4));
    // Probe API: the rules answer open caps, the table the rest.
    for (stones, expected) in [
        (3, Ok(Value::Won)),
        (8, Ok(Value::Won)),
        (7, Ok(Value::Lost)),
        (1000, Err(ProbeError::OutOfRange)),
    ] {
        let pos = Position::new(stones, 3, 0, 0, false, 3).unwrap();
        assert_eq!(t.probe(&pos), expected, "{pos:?}");
    }
    let d = t
        .best_move(&Position::new(8, 3, 0, 0, false, 3).unwrap())
        .unwrap();
    assert!(d.value.is_won());
    assert_eq!((d.mv.take, d.mv.reset), (1, false));
}

#[test]
fn the_table_engine_refuses_what_the_table_does_not_cover() {
    let mut e = TableEngine::embedded();
    assert_eq!(e.prepare(&Params::new(999, 4, 3).unwrap()), Ok(()));
    assert_eq!(
        e.prepare(&Params::new(1000, 4, 3).unwrap()),
        Err(DecideError::OutOfRange)
    );
    // Five stones past the table, every reply lies past it too.
    assert_eq!(
        e.decide(
            &Position::new(1004, 3, 4, 4, false, 3).unwrap(),
            Policy::Trap
        ),
        Err(DecideError::OutOfRange)
    );
    // One past it, a reply inside the table settles the position; the answer is
    // then the solver's.
    let edge = Position::new(1000, 3, 4, 4, false, 3).unwrap();
    let by_table = e.decide(&edge, Policy::Trap).unwrap();
    let by_solver = SolvingEngine::default()
        .decide(&edge, Policy::Trap)
        .unwrap();
    assert_eq!(by_table.value, by_solver.value);
    assert!(by_table.value.is_won());
}

#[test]
fn the_host_engine_falls_back_to_the_solver_beyond_the_table() {
    let mut host = TableOrSolverEngine::embedded();
    let mut solver = SolvingEngine::default();
    for (n, r, m) in [(1500, 4, 3), (999, 5, 3), (600, 2, 4)] {
        let params = Params::new(n, r, m).unwrap();
        assert!(!host.table_covers(&params));
        host.prepare(&params).unwrap();
        solver.prepare(&params).unwrap();
        let start = params.start();
        assert_eq!(
            host.decide(&start, Policy::Trap),
            solver.decide(&start, Policy::Trap),
            "{params:?}"
        );
    }
    let params = Params::new(999, 4, 3).unwrap();
    assert!(host.table_covers(&params));
    let pos = Position::new(777, 10, 2, 3, true, 3).unwrap();
    let table = Table::embedded();
    assert_eq!(host.decide(&pos, Policy::First), table.best_move(&pos));
    assert_eq!(
        host.decide(&pos, Policy::Trap),
        Policy::Trap.decide(&table, &pos)
    );
}

#[test]
fn open_cap_positions_above_the_top_cap_are_decided_by_the_rules() {
    // Cap 45 is above the default table's top cap (44), but with 4 stones the cap
    // no longer binds: the rules decide the position and its replies.
    let t = Table::embedded();
    let sol = Solution::solve(SolveBox::games(999, 4, 3)).unwrap();
    for (s, a, b, f) in [
        (4, 0, 0, true),
        (7, 1, 0, true),
        (30, 2, 2, true),
        (40, 0, 4, false),
    ] {
        let pos = Position::new(s, 45, a, b, f, 3).unwrap();
        let want = sol.value(&pos).unwrap().is_won();
        assert_eq!(t.probe(&pos), Ok(Value::from_mover_wins(want)), "{pos:?}");
        assert_eq!(sol.value(&pos), Some(Value::from_mover_wins(want)));
        let d = t.best_move(&pos).unwrap();
        assert_eq!(d.value.is_won(), want, "{pos:?}");
        assert_eq!(
            Policy::Trap.decide(&t, &pos).unwrap().value.is_won(),
            want,
            "{pos:?}"
        );
    }
}

#[test]
fn the_solver_plays_every_box_the_generator_solves_and_refuses_more() {
    // N <= 99,999 (R = 4, M = 3) fits the default budget; a billion stones does not.
    assert!(SolveBox::games(99_999, 4, 3).memory_bytes() <= SolvingEngine::DEFAULT_BUDGET);
    let mut engine = SolvingEngine::default();
    let pos = Position::new(50_000, 3, 4, 4, false, 3).unwrap();
    let d = engine
        .decide(&pos, Policy::Trap)
        .expect("a 50,000-stone position is solved");
    assert!(pos.check(d.mv).is_ok());
    let huge = Position::new(1_000_000_000, 3, 4, 4, false, 3).unwrap();
    assert_eq!(
        engine.decide(&huge, Policy::Trap),
        Err(DecideError::TooLarge)
    );
}

/// The fields of a blob's header, read by hand as `table/FORMAT.md` lays them out:
/// postcard varints (7 bits a byte, least significant first), a varint length
/// before the generator, the index and the stream.
struct Header<'a> {
    generator: &'a str,
    params: (u32, u8, u32),
    widths: (u32, u32),
    caps: u32,
    index: &'a [u8],
    stream_bits: u32,
    stream: &'a [u8],
}

/// A postcard varint at `at`, which moves past it.
fn varint(blob: &[u8], at: &mut usize) -> u32 {
    let mut v = 0u64;
    for shift in (0..35).step_by(7) {
        let b = blob[*at];
        *at += 1;
        v |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return u32::try_from(v).unwrap();
        }
    }
    panic!("varint past 32 bits")
}

fn header(blob: &[u8]) -> Header<'_> {
    assert_eq!(&blob[..4], b"NIMT");
    let mut at = 4;
    let varint = |at: &mut usize| varint(blob, at);
    assert_eq!(varint(&mut at), 3, "version");
    let len = varint(&mut at) as usize;
    let generator = std::str::from_utf8(&blob[at..at + len]).unwrap();
    at += len;
    let n_max = varint(&mut at);
    let resets = blob[at];
    at += 1;
    let init_max = varint(&mut at);
    let widths = (u32::from(blob[at]), u32::from(blob[at + 1]));
    at += 2;
    let caps = varint(&mut at);
    let len = varint(&mut at) as usize;
    let index = &blob[at..at + len];
    at += len;
    let stream_bits = varint(&mut at);
    let len = varint(&mut at) as usize;
    let stream = &blob[at..at + len];
    assert_eq!(at + len + 4, blob.len(), "only the CRC follows the stream");
    Header {
        generator,
        params: (n_max, resets, init_max),
        widths,
        caps,
        index,
        stream_bits,
        stream,
    }
}

/// What the host tools print about a table (`nimbot-table info`) is what its
/// header says, and the box is the one `table/FORMAT.md` defines: caps
/// `M ..= c_top`, `c_top` the largest cap whose highest pile
/// `hi(c) = N - (M + ... + (c - 1))` is above it, `2 (R + 1)^2` layers a cap.
#[test]
fn the_accessors_report_the_header_and_the_box_it_defines() {
    let built = [(100, 2, 3), (300, 0, 1), (120, 3, 30), (5, 1, 2)]
        .map(|(n, r, m)| (build(n, r, m).1, "nimbot-test"));
    let embedded = (EMBEDDED_TABLE.to_vec(), "nimbot-table 0.1.0");
    for (blob, name) in built.iter().chain([&embedded]) {
        let h = header(blob);
        let (n, r, m) = h.params;
        let t = Table::from_bytes(blob).unwrap();
        assert_eq!(t.generator(), *name);
        assert_eq!(h.generator, *name);
        let p = t.params();
        assert_eq!((p.stones(), p.resets(), p.init_max()), h.params);
        assert_eq!(t.layout().params(), p);
        // The box, counted stone by stone.
        let hi = |c: u32| i64::from(n) - (m..c).map(i64::from).sum::<i64>();
        let c_top = (m..).take_while(|&c| hi(c) > i64::from(c)).last().unwrap();
        let caps = c_top - m + 1;
        assert_eq!(h.caps, caps, "{n} {r} {m}");
        assert_eq!(t.top_cap(), c_top, "{n} {r} {m}");
        let keys = 2 * (u32::from(r) + 1).pow(2);
        assert_eq!(t.layer_count(), caps * keys, "{n} {r} {m}");
        assert_eq!(Layout::keys_per_cap(r), keys as usize);
        for (a, b, f) in (0..=r).flat_map(|a| (0..=r).flat_map(move |b| [(a, b, 0), (a, b, 1)])) {
            let key = (usize::from(a) * (usize::from(r) + 1) + usize::from(b)) * 2 + f;
            assert_eq!(Layout::key(r, a, b, f == 1), key);
        }
        for c in m..=c_top {
            assert_eq!(t.highest_pile(c), hi(c) as u32, "{n} {r} {m} cap {c}");
            assert_eq!(Layout::highest_pile(n, m, c), Some(hi(c) as u32));
        }
        assert_eq!(t.highest_pile(c_top + 1), c_top + 1);
        // The sections: their sizes, as the header gives them and as its counts
        // imply; the whole blob and its CRC (the last four bytes).
        let (offset_bits, base_bits) = h.widths;
        let index_bytes = (caps * (offset_bits + 2 * base_bits)).div_ceil(8);
        assert_eq!(h.index.len(), index_bytes as usize);
        assert_eq!(h.stream.len(), h.stream_bits.div_ceil(8) as usize);
        assert_eq!(t.section_sizes(), (index_bytes, h.stream.len() as u32));
        assert_eq!(
            (t.size() as usize, t.layout().size() as usize),
            (blob.len(), blob.len())
        );
        let crc = u32::from_le_bytes(blob[blob.len() - 4..].try_into().unwrap());
        assert_eq!(t.checksum(), crc);
    }
}

/// A postcard varint, as [`varint`] reads it.
fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v & 0x7F) as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The blob of `h` with its index re-coded as `entries` (each cap's start, then
/// its base layers' offsets from it) in fields of the given widths, sealed with a
/// fresh CRC: every other field as it was.
fn with_index(
    h: &Header<'_>,
    entries: &[[u32; 3]],
    (offset_bits, base_bits): (u32, u32),
) -> Vec<u8> {
    let mut bits = Vec::new();
    for e in entries {
        for (v, width) in [(e[0], offset_bits), (e[1], base_bits), (e[2], base_bits)] {
            bits.extend((0..width).map(|i| (u64::from(v) >> i) & 1 == 1));
        }
    }
    let mut index = vec![0u8; bits.len().div_ceil(8)];
    for (i, _) in bits.iter().enumerate().filter(|(_, &b)| b) {
        index[i / 8] |= 1 << (i % 8);
    }
    let mut body = b"NIMT".to_vec();
    put_varint(&mut body, 3);
    put_varint(&mut body, h.generator.len() as u32);
    body.extend_from_slice(h.generator.as_bytes());
    let (n, r, m) = h.params;
    put_varint(&mut body, n);
    body.push(r);
    put_varint(&mut body, m);
    body.extend([offset_bits as u8, base_bits as u8]);
    put_varint(&mut body, h.caps);
    put_varint(&mut body, index.len() as u32);
    body.extend_from_slice(&index);
    put_varint(&mut body, h.stream_bits);
    put_varint(&mut body, h.stream.len() as u32);
    body.extend_from_slice(h.stream);
    let crc = crc32(&body);
    body.extend_from_slice(&crc.to_le_bytes());
    body
}

/// The index entries of `h`, read bit by bit (`table/FORMAT.md`: least significant
/// bit first; the stream bit where the cap starts, then its base layers' offsets).
fn entries(h: &Header<'_>) -> Vec<[u32; 3]> {
    let (offset_bits, base_bits) = h.widths;
    let bit = |i: u32| (h.index[(i / 8) as usize] >> (i % 8)) & 1;
    let field = |at: u32, width: u32| (0..width).fold(0u32, |v, i| v | u32::from(bit(at + i)) << i);
    (0..h.caps)
        .map(|c| {
            let at = c * (offset_bits + 2 * base_bits);
            [
                field(at, offset_bits),
                field(at + offset_bits, base_bits),
                field(at + offset_bits + base_bits, base_bits),
            ]
        })
        .collect()
}

/// Every stored position of `blob`'s box for which `want` has an answer gets it:
/// a value, or `None` for a layer that does not decode.
fn answers_as(blob: &[u8], sol: &Solution, want: impl Fn(&Position) -> Option<Option<Value>>) {
    let t = Table::from_bytes(blob).unwrap();
    let m = t.params().init_max();
    let r = t.params().resets();
    for (c, hi) in sol.layers() {
        for s in (c + 1)..=hi {
            for (a, b, f) in
                (0..=r).flat_map(|a| (0..=r).flat_map(move |b| [(a, b, false), (a, b, true)]))
            {
                let pos = Position::new(s, c, a, b, f, m).unwrap();
                let got = t.value(&pos);
                match want(&pos) {
                    Some(Some(v)) => assert_eq!(got, Ok(v), "{pos:?}"),
                    Some(None) => assert_eq!(got, Err(DecideError::BadTable), "{pos:?}"),
                    None => {}
                }
            }
        }
    }
}

/// Index fields of any width from 1 to 32 bits read the same caps: the table
/// re-coded with 32-bit fields (and with 25 and 31) answers as the solver; a
/// width of 0 or 33 is refused as a field width, before the sizes it implies.
#[test]
fn index_fields_of_up_to_32_bits_read_the_same_table() {
    let (sol, blob) = build(100, 2, 3);
    let h = header(&blob);
    let e = entries(&h);
    for widths in [(32, 32), (25, 31), (31, 25)] {
        let wide = with_index(&h, &e, widths);
        assert_eq!(header(&wide).widths, widths);
        answers_as(&wide, &sol, |pos| Some(sol.value(pos)));
    }
    for widths in [(0, 16), (33, 16), (16, 0), (16, 33)] {
        let bad = with_index(&h, &e, widths);
        let err = Table::from_bytes(&bad).unwrap_err();
        assert_eq!(err.as_str(), "field width", "{widths:?}");
        assert_eq!(err.to_string(), "field width");
    }
}

/// `table/FORMAT.md`'s rules for the index: each cap starts at or after the
/// previous cap's second base layer, leaves room for its kinds (2 bits for each
/// of its `2 (R+1)^2 - 2` other layers) before its first base layer, and its base
/// layers are in order and inside the stream. An index that breaks one rule is
/// refused; one at the edge of each opens and reads where it points.
#[test]
fn the_index_is_checked_against_each_rule_alone() {
    let (sol, blob) = build(100, 2, 3);
    let h = header(&blob);
    let e: Vec<[u32; 3]> = entries(&h);
    let widths = (32, 32);
    let kinds_bits = 2 * (2 * 3 * 3 - 2);
    let refused = |edit: &dyn Fn(&mut Vec<[u32; 3]>)| {
        let mut forged = e.clone();
        edit(&mut forged);
        let err = Table::from_bytes(&with_index(&h, &forged, widths)).unwrap_err();
        assert_eq!(err.as_str(), "index out of order");
    };
    // Cap 1 starts a bit before cap 0's second base layer (its own base layers
    // where they were).
    refused(&|x| {
        let end0 = x[0][0] + x[0][2];
        let (start, b0, b1) = (x[1][0], x[1][1], x[1][2]);
        x[1] = [end0 - 1, b0 + start - end0 + 1, b1 + start - end0 + 1];
    });
    // Cap 0's first base layer starts inside its kinds.
    refused(&|x| x[0][1] = kinds_bits - 1);
    // Base layers out of order.
    refused(&|x| x[2][2] = x[2][1] - 1);
    // The last base layer past the stream.
    let last = e.len() - 1;
    refused(&|x| x[last][2] = h.stream_bits - x[last][0] + 1);
    // At the edges: both base layers of cap 2 at one offset (its f = 1 layer then
    // reads as its f = 0 layer), and the last cap's second base layer at the very
    // end of the stream (nothing to decode there: a probe of it says the data is
    // damaged). The other layers answer as before, but for those with as many
    // resets on both sides and f = 1 in these caps, which may be copies of the
    // forged layers.
    let mut forged = e.clone();
    forged[2][2] = forged[2][1];
    forged[last][2] = h.stream_bits - forged[last][0];
    let top = h.params.2 + last as u32;
    answers_as(&with_index(&h, &forged, widths), &sol, |pos| {
        let (a, b, f) = (pos.own_resets(), pos.opp_resets(), pos.reset_pending());
        let forged_cap = pos.cap() == 5 || pos.cap() == top;
        match (a, b) {
            _ if !forged_cap || !f || a != b => Some(sol.value(pos)),
            (0, 0) if pos.cap() == 5 => {
                Some(sol.value(&Position::new(pos.stones(), 5, 0, 0, false, 3).unwrap()))
            }
            (0, 0) => Some(None),
            _ => None,
        }
    });
}

/// A refused blob says why in words (what `nimbot-table info` prints): each
/// error's text, through `Display` as through `as_str`.
#[test]
fn refusals_print_their_reason() {
    let blob = EMBEDDED_TABLE;
    let gen_len = usize::from(blob[5]);
    let n_at = 6 + gen_len;
    let cases = [
        (blob[..3].to_vec(), "table truncated"),
        (
            {
                let mut b = blob.to_vec();
                b[100] ^= 1;
                b
            },
            "table checksum mismatch",
        ),
        (resealed(blob, |b| b[0] = b'X'), "not a nimbot table"),
        (
            resealed(blob, |b| b[4] = 1),
            "unsupported table format version",
        ),
        (
            resealed(blob, |b| b[n_at + 2] = 33),
            "table parameters out of range",
        ),
        (resealed(blob, |b| b.push(0)), "trailing bytes"),
    ];
    for (bytes, want) in cases {
        let err = Table::from_bytes(&bytes).unwrap_err();
        assert_eq!((err.to_string().as_str(), err.as_str()), (want, want));
    }
    // And a probe that fails.
    for (err, want) in [
        (ProbeError::OutOfRange, "position outside the table"),
        (ProbeError::Corrupt, "table data damaged"),
    ] {
        assert_eq!(err.to_string(), want);
    }
}

/// A varint's fifth byte carries the top 4 bits of a `u32`: more is refused,
/// not cut to 32 bits; a byte string longer than what is left of the body is
/// refused as truncated.
#[test]
fn varints_past_32_bits_and_strings_past_the_body_are_refused() {
    let blob = EMBEDDED_TABLE;
    let n_at = 6 + usize::from(blob[5]);
    // n_max 999 = 0x3E7 in five bytes, the last with a bit past the 32nd.
    let long = resealed(blob, |b| {
        b.splice(n_at..n_at + 2, [0xE7, 0x87, 0x80, 0x80, 0x10]);
    });
    let err = Table::from_bytes(&long).unwrap_err();
    assert_eq!(err.as_str(), "varint out of range");
    // Five bytes up to the 32nd bit are a varint: 0xF000_03E7 is read, then
    // refused as a pile limit out of range.
    let top = resealed(blob, |b| {
        b.splice(n_at..n_at + 2, [0xE7, 0x87, 0x80, 0x80, 0x0F]);
    });
    assert_eq!(Table::from_bytes(&top).unwrap_err(), TableError::BadParams);
    // The generator's 18 bytes announced, 8 present.
    let cut = resealed(blob, |b| b.truncate(6 + 8));
    assert_eq!(Table::from_bytes(&cut).unwrap_err(), TableError::Truncated);
}

/// A coded solution's layout (the stream from byte 0, the index at the next
/// whole byte): its caps are those of the box from `c_min`, and it needs
/// exactly the bytes of both sections; field widths must be 1 to 32.
#[test]
fn a_coded_streams_layout_needs_its_sections_and_fields_of_1_to_32_bits() {
    let params = Params::new(100, 2, 3).unwrap();
    for c_min in [3, 5] {
        // Caps whose highest pile (100 - (c_min + ... + (c - 1))) is above them.
        let mut caps = 0u32;
        let mut hi = 100;
        while hi > c_min + caps {
            hi -= c_min + caps;
            caps += 1;
        }
        for (offset_bits, base_bits) in [(1, 1), (12, 9), (32, 32), (32, 1), (1, 32)] {
            let index = (caps * (offset_bits + 2 * base_bits)).div_ceil(8);
            let size = 125 + index;
            let of = |size| Layout::of_stream(params, c_min, 999, offset_bits, base_bits, size);
            let layout = of(size).unwrap();
            assert_eq!((layout.size(), layout.params()), (size, params));
            assert_eq!(
                of(size - 1),
                Err(TableError::Truncated),
                "{c_min} {offset_bits}"
            );
        }
        for (offset_bits, base_bits) in [(0, 8), (33, 8), (8, 0), (8, 33)] {
            let err = Layout::of_stream(params, c_min, 999, offset_bits, base_bits, 1 << 20);
            assert_eq!(err.unwrap_err().as_str(), "field width");
        }
    }
}

/// `layer_runs` (what `nimbot-table verify` and `plot` decode a table with) gives,
/// for every layer, runs from the cap's first stored pile to its last, in order and
/// without gaps, each pile with the solver's value; a layer of more resets than the
/// table has is outside it, and a cap past the top has no stored pile.
#[test]
fn layer_runs_cover_each_layer_with_the_solvers_values() {
    let (sol, blob) = build(100, 2, 3);
    let t = Table::from_bytes(&blob).unwrap();
    for (c, hi) in sol.layers() {
        for (a, b, f) in
            (0..=2).flat_map(|a| (0..=2).flat_map(move |b| [(a, b, false), (a, b, true)]))
        {
            let mut next = c + 1;
            t.layer_runs(c, a, b, f, |first, last, won| {
                assert_eq!(first, next, "cap {c} layer {a} {b} {f}");
                for s in first..=last {
                    let pos = Position::new(s, c, a, b, f, 3).unwrap();
                    assert_eq!(sol.value(&pos).map(Value::is_won), Some(won), "{pos:?}");
                }
                next = last + 1;
            })
            .unwrap();
            assert_eq!(next, hi + 1, "cap {c} layer {a} {b} {f}");
        }
    }
    let mut runs = 0;
    assert_eq!(
        t.layer_runs(5, 3, 0, false, |_, _, _| runs += 1),
        Err(ProbeError::OutOfRange)
    );
    assert_eq!(
        t.layer_runs(t.top_cap() + 1, 0, 0, false, |_, _, _| runs += 1),
        Ok(())
    );
    assert_eq!(runs, 0);
}
