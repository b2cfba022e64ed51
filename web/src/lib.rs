//! nimbot in the browser: the core compiled to WebAssembly with plain `extern "C"`
//! exports of numbers, read by a small hand-written script (`web/static/app.js`).
//!
//! Why no wasm-bindgen: the page asks four questions (a position's moves with
//! their values and distances, the position after a move, the move a policy
//! plays, the limits), all of them numbers in and numbers out. Plain exports keep
//! the module free of glue code and the build free of a `wasm-bindgen-cli` that
//! must match the library's version (installed from crates.io on every fresh CI
//! machine); the script reads the answers from one buffer of `u32`s.
//!
//! The engine: the default table (N <= 999, R <= 4, M = 3, embedded: 1,772 bytes)
//! answers values at once; distances and every game beyond the table come from
//! the solver, within [`SOLVER_BUDGET`] bytes, for piles up to [`MAX_STONES`].
//!
//! Every export answers with a number: >= 0 for an answer (its parts in the
//! buffer at [`nb_out`]), < 0 for an error ([`Refusal`]). Nothing here panics on
//! any input: positions are validated by the core, which returns typed errors.
//!
//! The one exception to the workspace's `unsafe_code = "deny"`: the exports'
//! `#[no_mangle]`, which the lint counts as unsafe because two libraries exporting
//! one name would clash at link time. Here the names (`nb_*`) are the page's
//! imports and the module links nothing else that exports them; there is no
//! `unsafe` block.

#![allow(unsafe_code)]

use std::cell::RefCell;

use nimbot::{
    evaluate_move, root_moves, DecideError, Decision, Distances, Engine, Evaluation, Limits, Move,
    Params, Policy, Position, Solution, SolveBox, SolvingEngine, Table, TableEngine,
    TableOrSolverEngine,
};

/// The embedded table's bytes.
const TABLE: &[u8] = include_bytes!("../../table/default.nimt");

/// The largest pile the page accepts: distances for every game up to it fit in
/// about 40 MB of the browser's memory (two bytes a position), the solver's bits
/// in less.
pub const MAX_STONES: u32 = 5_000;

/// The solver's memory at its peak, beyond the table.
pub const SOLVER_BUDGET: u64 = 64 << 20;

/// Why an export gave no answer (the negative numbers it returns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Refusal {
    /// Not a position (stones 0, cap below M, too many resets, a flag not 0/1).
    BadPosition = -1,
    /// More stones than [`MAX_STONES`].
    TooLarge = -2,
    /// The move is not legal here (take outside 1..=limit).
    BadTake = -3,
    /// A reset with none left.
    NoResetsLeft = -4,
    /// The engine could not answer (beyond its memory, say).
    Engine = -5,
    /// A policy number the page does not know.
    BadPolicy = -6,
    /// The distances handed to [`nb_load_distances`] are not those of the
    /// table's box (or not a distances file at all).
    BadDistances = -7,
}

/// A distance nobody knows, in the buffer.
pub const UNKNOWN: u32 = u32::MAX;

/// The page's engine: the table's values with the distances of the table's whole
/// box (2.7 MB, kept: loaded from the site's `distances.bin` by
/// [`nb_load_distances`], or else solved on the first question that needs them),
/// and the solver for every other game (its own distances, replaced from one game
/// to the next), so that a look beyond the table does not cost the table's
/// distances again.
pub struct WebEngine {
    both: TableOrSolverEngine<'static>,
    table_box: SolveBox,
    table_distances: Option<Distances>,
    /// The table box's values as the solver's bits (about 0.2 MB, made on the
    /// first `longest` move in a lost position): with the box's distances, what
    /// [`longest_move`](nimbot::longest_move) reads.
    table_solution: Option<Solution>,
}

impl WebEngine {
    fn new() -> Self {
        let table = Table::from_bytes(TABLE).ok().map(TableEngine::new);
        let table_box = table.as_ref().map_or(SolveBox::games(1, 0, 1), |t| {
            let p = t.table().params();
            SolveBox::games(p.stones(), p.resets(), p.init_max())
        });
        WebEngine {
            both: TableOrSolverEngine::new(table, SolvingEngine::new(SOLVER_BUDGET)),
            table_box,
            table_distances: None,
            table_solution: None,
        }
    }

    /// The `longest` move at `pos`, a position of the table's box, from the
    /// box's distances (loaded with the page) and values: the move the solver
    /// would choose after solving the whole game, without that solve.
    fn longest_in_table(&mut self, pos: &Position) -> Option<Result<Decision, DecideError>> {
        if !self.table_covers(pos) {
            return None;
        }
        if self.table_distances.is_none() {
            self.table_distances = Distances::solve(self.table_box).ok();
        }
        if self.table_solution.is_none() {
            self.table_solution = Solution::solve(self.table_box).ok();
        }
        let (sol, dist) = (
            self.table_solution.as_ref()?,
            self.table_distances.as_ref()?,
        );
        dist.covers(pos)
            .then(|| nimbot::longest_move(sol, dist, pos))
    }

    /// Whether the table answers `pos` (it lies in a game the table covers).
    fn table_covers(&self, pos: &Position) -> bool {
        Params::new(
            pos.stones(),
            pos.own_resets().max(pos.opp_resets()),
            pos.init_max(),
        )
        .is_ok_and(|p| self.both.table_covers(&p))
    }

    /// Whether `pos` lies outside the table box's positions (a cap no game of the
    /// box reaches at its pile), though its game's limits are the table's.
    #[cfg(test)]
    fn table_box_lacks(&mut self, pos: &Position) -> bool {
        self.table_distance(pos).is_none()
    }

    /// The distance of `pos` from the table box's distances, if it lies there.
    fn table_distance(&mut self, pos: &Position) -> Option<u16> {
        if !self.table_covers(pos) {
            return None;
        }
        if self.table_distances.is_none() {
            self.table_distances = Distances::solve(self.table_box).ok();
        }
        self.table_distances.as_ref()?.get(pos)
    }
}

impl Engine for WebEngine {
    fn limits(&self) -> Limits {
        self.both.limits()
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.both.prepare(params)
    }

    fn plays(&self, policy: Policy) -> bool {
        self.both.plays(policy)
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        if policy == Policy::Longest {
            if let Some(d) = self.longest_in_table(pos) {
                return d;
            }
        }
        self.both.decide(pos, policy)
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        if let Some(d) = self.table_distance(pos) {
            // The value is the table's (an odd distance says the same: the tests
            // check one against the other).
            // (A position the table's layers do not hold, a cap no game of its
            // pile reaches, goes to the solver.)
            let table = self.both.table();
            if let Some(value) = table.and_then(|t| nimbot::position_value(t, pos).ok()) {
                return Ok(Evaluation {
                    value,
                    distance: Some(d),
                });
            }
        }
        self.both.evaluate(pos)
    }
}

thread_local! {
    static ENGINE: RefCell<Option<WebEngine>> = const { RefCell::new(None) };
    static OUT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` bytes the page writes into the module (the distances file):
/// where they go, or 0 if the memory cannot be had. Write them before any other
/// call (memory may grow and move), then call [`nb_load_distances`].
#[no_mangle]
pub extern "C" fn nb_scratch(len: u32) -> u32 {
    SCRATCH.with(|cell| {
        let mut scratch = cell.borrow_mut();
        scratch.clear();
        let len = len as usize;
        if scratch.try_reserve_exact(len).is_err() {
            return 0;
        }
        scratch.resize(len, 0);
        scratch.as_ptr() as usize as u32
    })
}

/// Take the distances file the page wrote at [`nb_scratch`] as the distances of
/// the table's box, in place of solving them: 1 if they are, else
/// [`Refusal::BadDistances`] (the engine then solves them when first needed).
/// The scratch memory is given back either way.
#[no_mangle]
pub extern "C" fn nb_load_distances() -> i32 {
    let bytes = SCRATCH.with(|cell| core::mem::take(&mut *cell.borrow_mut()));
    let distances = decode_distances(&bytes);
    drop(bytes);
    with_engine(|engine| match distances {
        Some(d) if d.solve_box() == engine.table_box => {
            engine.table_distances = Some(d);
            1
        }
        _ => Refusal::BadDistances as i32,
    })
}

/// The engine, made on first use.
fn with_engine<T>(f: impl FnOnce(&mut WebEngine) -> T) -> T {
    ENGINE.with(|cell| f(cell.borrow_mut().get_or_insert_with(WebEngine::new)))
}

/// The header of a distances file: magic, the box (N, R, M, lowest cap), the
/// number of entries and their checksum ([`fnv1a`]).
const DISTANCES_MAGIC: &[u8; 8] = b"NBDIST1\n";
const DISTANCES_HEADER: usize = 8 + 4 + 1 + 4 + 4 + 4 + 4;

/// FNV-1a (32 bits) over the entries, one 16-bit entry a step (the gzip around
/// the file checks its bytes on the way; this checks the decoding).
fn fnv1a(entries: &[u16]) -> u32 {
    entries.iter().fold(0x811c_9dc5, |h, &e| {
        (h ^ u32::from(e)).wrapping_mul(0x0100_0193)
    })
}

/// The distances of a box as the site ships them (`web/site/distances.bin`, then
/// compressed with gzip, which the browser undoes): the header, then each entry of
/// [`Distances::entries`] as its difference from the one before, one byte (-127 ..=
/// 127) when it fits, else the byte 0x80 and the entry itself (two bytes, little
/// endian). Along a layer's piles a distance mostly stays or moves by a few
/// plies: 1.35 M entries of the table's box take about 1.4 MB, 20 KB compressed.
pub fn encode_distances(d: &Distances) -> Vec<u8> {
    let bx = d.solve_box();
    let entries = d.entries();
    let mut out = Vec::with_capacity(DISTANCES_HEADER + entries.len() + entries.len() / 16);
    out.extend_from_slice(DISTANCES_MAGIC);
    out.extend_from_slice(&bx.n_max.to_le_bytes());
    out.push(bx.resets);
    out.extend_from_slice(&bx.init_max.to_le_bytes());
    out.extend_from_slice(&bx.c_min.to_le_bytes());
    out.extend_from_slice(
        &u32::try_from(entries.len())
            .unwrap_or(u32::MAX)
            .to_le_bytes(),
    );
    out.extend_from_slice(&fnv1a(entries).to_le_bytes());
    let mut prev = 0u16;
    for &e in entries {
        match i8::try_from(e.wrapping_sub(prev) as i16) {
            Ok(step) if step != i8::MIN => out.push(step as u8),
            _ => {
                out.push(0x80);
                out.extend_from_slice(&e.to_le_bytes());
            }
        }
        prev = e;
    }
    out
}

/// The distances [`encode_distances`] wrote, if `bytes` is such a file whole
/// (its length, its entries' count and checksum as the header says).
pub fn decode_distances(bytes: &[u8]) -> Option<Distances> {
    let (head, mut body) = (
        bytes.get(..DISTANCES_HEADER)?,
        bytes.get(DISTANCES_HEADER..)?,
    );
    let u32_at = |at: usize| Some(u32::from_le_bytes(head.get(at..at + 4)?.try_into().ok()?));
    if head.get(..8)? != DISTANCES_MAGIC {
        return None;
    }
    let bx = SolveBox {
        n_max: u32_at(8)?,
        resets: *head.get(12)?,
        init_max: u32_at(13)?,
        c_min: u32_at(17)?,
    };
    let count = usize::try_from(u32_at(21)?).ok()?;
    let mut entries = Vec::new();
    entries.try_reserve_exact(count).ok()?;
    let mut prev = 0u16;
    while let Some((&b, rest)) = body.split_first() {
        prev = if b == 0x80 {
            let (e, rest) = rest.split_first_chunk::<2>()?;
            body = rest;
            u16::from_le_bytes(*e)
        } else {
            body = rest;
            prev.wrapping_add(b as i8 as i16 as u16)
        };
        if entries.len() == count {
            return None;
        }
        entries.push(prev);
    }
    if entries.len() != count || fnv1a(&entries) != u32_at(25)? {
        return None;
    }
    Distances::from_entries(bx, entries).ok()
}

/// Put `words` in the buffer.
fn answer(words: &[u32]) {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        out.extend_from_slice(words);
    });
}

/// Where the last answer's words are (read them before the next call: memory may
/// grow and move).
#[no_mangle]
pub extern "C" fn nb_out() -> u32 {
    OUT.with(|out| out.borrow().as_ptr() as usize as u32)
}

/// [`MAX_STONES`], for the page's forms.
#[no_mangle]
pub extern "C" fn nb_max_stones() -> u32 {
    MAX_STONES
}

/// The five numbers and M as a position the page accepts.
fn position(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> Result<Position, Refusal> {
    let a = u8::try_from(a).map_err(|_| Refusal::BadPosition)?;
    let b = u8::try_from(b).map_err(|_| Refusal::BadPosition)?;
    let f = match f {
        0 => false,
        1 => true,
        _ => return Err(Refusal::BadPosition),
    };
    let pos = Position::new(s, c, a, b, f, m).map_err(|_| Refusal::BadPosition)?;
    if s > MAX_STONES {
        return Err(Refusal::TooLarge);
    }
    Ok(pos)
}

fn word(won: bool) -> u32 {
    u32::from(won)
}

fn distance(d: Option<u16>) -> u32 {
    d.map_or(UNKNOWN, u32::from)
}

fn code(r: Result<i32, Refusal>) -> i32 {
    r.unwrap_or_else(|e| e as i32)
}

/// Every move of position `S C A B F` (M = `m`) with its value and distance: the
/// buffer holds the position's value (1 won, 0 lost) and distance, then four words
/// a move (take, reset 0/1, value, distance), in the root probe's order (takes
/// ascending, without a reset, then with one). Returns the number of moves.
///
/// With `distances` 0, a position in the table gets its values alone (distances
/// [`UNKNOWN`]), at once: the page shows them while the distances are made.
#[no_mangle]
pub extern "C" fn nb_moves(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32, distances: u32) -> i32 {
    let pos = match position(s, c, a, b, f, m) {
        Ok(p) => p,
        Err(e) => return e as i32,
    };
    code(with_engine(|engine| {
        if distances == 0 && engine.table_covers(&pos) {
            moves(&mut ValuesOnly(engine), &pos)
        } else {
            moves(engine, &pos)
        }
    }))
}

/// The engine's table, asked for values only.
struct ValuesOnly<'a>(&'a mut WebEngine);

impl Engine for ValuesOnly<'_> {
    fn limits(&self) -> Limits {
        self.0.limits()
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.0.prepare(params)
    }

    fn decide(&mut self, pos: &Position, policy: Policy) -> Result<Decision, DecideError> {
        self.0.decide(pos, policy)
    }

    fn evaluate(&mut self, pos: &Position) -> Result<Evaluation, DecideError> {
        let table = self.0.both.table();
        match table.map(|t| nimbot::position_value(t, pos)) {
            Some(Ok(value)) => Ok(Evaluation {
                value,
                distance: None,
            }),
            // Not in the table's layers: the whole answer, from the solver.
            _ => self.0.evaluate(pos),
        }
    }
}

fn moves<E: Engine>(engine: &mut E, pos: &Position) -> Result<i32, Refusal> {
    let pos = *pos;
    {
        let eval = engine.evaluate(&pos).map_err(|_| Refusal::Engine)?;
        let mut words = vec![word(eval.value.is_won()), distance(eval.distance)];
        let mut count = 0i32;
        for mv in root_moves(&pos) {
            let e = evaluate_move(engine, &pos, mv).map_err(|_| Refusal::Engine)?;
            words.extend([
                e.mv.take,
                u32::from(e.mv.reset),
                word(e.value.is_won()),
                distance(e.distance),
            ]);
            count += 1;
        }
        answer(&words);
        Ok(count)
    }
}

/// The position after `take` (with a reset if `reset` is 1): returns 1 with the
/// five numbers S C A B F of the opponent's position in the buffer, or 0 if the
/// move empties the pile (the mover wins).
#[no_mangle]
pub extern "C" fn nb_after(
    s: u32,
    c: u32,
    a: u32,
    b: u32,
    f: u32,
    m: u32,
    take: u32,
    reset: u32,
) -> i32 {
    let mv = Move::new(take, reset != 0);
    code(position(s, c, a, b, f, m).and_then(|pos| after(&pos, mv)))
}

fn after(pos: &Position, mv: Move) -> Result<i32, Refusal> {
    match pos.after(mv) {
        Ok(Some(next)) => {
            answer(&[
                next.stones(),
                next.cap(),
                u32::from(next.own_resets()),
                u32::from(next.opp_resets()),
                u32::from(next.reset_pending()),
            ]);
            Ok(1)
        }
        Ok(None) => Ok(0),
        Err(nimbot::IllegalMove::NoResetsLeft) => Err(Refusal::NoResetsLeft),
        Err(_) => Err(Refusal::BadTake),
    }
}

/// The move nimbot plays at the position under `policy` (0 first, 1 trap,
/// 2 longest; a won position always gets a winning move): the buffer holds
/// take, reset (0/1) and the position's value (1 won). Returns 0.
#[no_mangle]
pub extern "C" fn nb_decide(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32, policy: u32) -> i32 {
    code(decide(s, c, a, b, f, m, policy))
}

fn decide(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32, policy: u32) -> Result<i32, Refusal> {
    let pos = position(s, c, a, b, f, m)?;
    let policy = match policy {
        0 => Policy::First,
        1 => Policy::Trap,
        2 => Policy::Longest,
        _ => return Err(Refusal::BadPolicy),
    };
    with_engine(|engine| {
        let d = engine.decide(&pos, policy).map_err(|_| Refusal::Engine)?;
        // A reset on the move that empties the pile changes nothing: drop it.
        let reset = d.mv.reset && d.mv.take < pos.stones();
        answer(&[d.mv.take, u32::from(reset), word(d.value.is_won())]);
        Ok(0)
    })
}

/// The distances of the embedded table's box, solved (what the site's
/// `distances.bin` holds).
///
/// # Errors
/// The solver's, if the box cannot be solved here.
pub fn table_box_distances() -> Result<Distances, nimbot::SolveError> {
    Distances::solve(WebEngine::new().table_box)
}

/// The last answer's words (host tests).
pub fn out_words() -> Vec<u32> {
    OUT.with(|out| out.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn distances_survive_their_encoding_and_damage_is_refused() {
        let d = table_box_distances().unwrap();
        let bytes = encode_distances(&d);
        let back = decode_distances(&bytes).unwrap();
        assert_eq!(back.entries(), d.entries());
        assert_eq!(back.solve_box(), d.solve_box());
        // Some steps do not fit a byte: the escape is exercised.
        assert!(bytes.len() > DISTANCES_HEADER + d.entries().len());
        // Cut short, one byte more, one entry changed, another magic: refused.
        assert!(decode_distances(&bytes[..bytes.len() - 1]).is_none());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_distances(&longer).is_none());
        let mut changed = bytes.clone();
        let last = changed.len() - 1;
        changed[last] = changed[last].wrapping_add(2);
        assert!(decode_distances(&changed).is_none());
        let mut magic = bytes;
        magic[0] ^= 1;
        assert!(decode_distances(&magic).is_none());
    }

    #[test]
    fn committed_distances_are_the_solvers() {
        // What the page loads (web/site/distances.bin, gzip) is what the solver
        // makes of the table's box today: else run tools/web.sh build.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/site/distances.bin");
        let gz = std::fs::read(path).unwrap();
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut bytes)
            .unwrap();
        let shipped = decode_distances(&bytes).expect("a whole distances file");
        let solved = table_box_distances().unwrap();
        assert_eq!(shipped.solve_box(), solved.solve_box());
        assert!(
            shipped.entries() == solved.entries(),
            "web/site/distances.bin is stale: run tools/web.sh build"
        );
    }

    #[test]
    fn loaded_distances_answer_as_solved_ones() {
        // The export path: the file written into the scratch memory, loaded, then
        // the moves of positions across the box with their distances.
        let bytes = encode_distances(&table_box_distances().unwrap());
        let ptr = nb_scratch(bytes.len() as u32);
        assert_ne!(ptr, 0);
        SCRATCH.with(|s| s.borrow_mut().copy_from_slice(&bytes));
        assert_eq!(nb_load_distances(), 1);
        let loaded: Vec<Vec<u32>> = [(999, 3, 4, 4, 0), (500, 20, 2, 3, 1), (57, 9, 0, 4, 0)]
            .iter()
            .map(|&(s, c, a, b, f)| {
                assert!(nb_moves(s, c, a, b, f, 3, 1) > 0);
                out_words()
            })
            .collect();
        assert!(loaded.iter().all(|w| w.iter().all(|&x| x != UNKNOWN)));
        // A damaged file is refused and the engine keeps what it had.
        nb_scratch(4);
        assert_eq!(nb_load_distances(), Refusal::BadDistances as i32);
        let solved = table_box_distances().unwrap();
        let mut answers = Vec::new();
        for &(s, c, a, b, f) in &[(999, 3, 4, 4, 0), (500, 20, 2, 3, 1), (57, 9, 0, 4, 0)] {
            let pos = Position::new(s, c, a as u8, b as u8, f == 1, 3).unwrap();
            let mut words = vec![UNKNOWN, distance(solved.get(&pos))];
            for mv in root_moves(&pos) {
                words.extend([mv.take, u32::from(mv.reset)]);
                words.push(match pos.after(mv).unwrap() {
                    None => 1,
                    Some(next) => distance(solved.get(&next).map(|d| d + 1)),
                });
            }
            answers.push(words);
        }
        for (got, want) in loaded.iter().zip(&answers) {
            assert_eq!(got[1], want[1]);
            let dists: Vec<u32> = got[2..].chunks(4).map(|m| m[3]).collect();
            let want_dists: Vec<u32> = want[2..].chunks(3).map(|m| m[2]).collect();
            assert_eq!(dists, want_dists);
        }
    }
}

#[cfg(test)]
mod longest_tests {
    use super::*;
    use nimbot::SplitMix64;

    #[test]
    fn longest_from_the_table_box_is_the_solvers_move() {
        // The page's `longest` (the table box's values and distances) against the
        // engine it replaces (the solver on the whole game, then its distances),
        // in positions of random games, lost ones mostly.
        let mut web = WebEngine::new();
        let table = Table::from_bytes(TABLE).ok().map(TableEngine::new);
        let mut solver = TableOrSolverEngine::new(table, SolvingEngine::new(SOLVER_BUDGET));
        let mut rng = SplitMix64::new(32);
        let (mut lost, mut checked) = (0, 0);
        while checked < 300 {
            let s = 2 + rng.below(998) as u32;
            let c = 3 + rng.below(12) as u32;
            let (a, b, f) = (rng.below(5) as u8, rng.below(5) as u8, rng.chance(0.3));
            let Ok(pos) = Position::new(s, c, a, b, f, 3) else {
                continue;
            };
            if !web.table_covers(&pos) || web.table_box_lacks(&pos) {
                continue;
            }
            let params = Params::new(999, 4, 3).unwrap();
            solver.prepare(&params).unwrap();
            let want = solver.decide(&pos, Policy::Longest).unwrap();
            let got = web.decide(&pos, Policy::Longest).unwrap();
            assert_eq!(got, want, "{pos:?}");
            lost += usize::from(!got.value.is_won());
            checked += 1;
        }
        assert!(lost > 50, "{lost}");
    }
}
