//! nimbot in the browser: the core and `nimbot-analysis` compiled to WebAssembly with
//! plain `extern "C"` exports, read by a small hand-written script
//! (`web/site/app.js`), which draws the answers and wires the page's events.
//!
//! Every answer the page shows is the command line's, from the same code: a
//! position's moves with their values and distances in `nimbot moves`' order
//! ([`nb_moves`]), the position after a move ([`nb_after`]) or after the moves of
//! a permalink ([`nb_replay`]), the best line ([`nb_line`]), nimbot's move under
//! a policy of [`Policy::ALL`] ([`nb_policies`], [`nb_decide`]), a game's record
//! ([`nb_record`]), and the analysis of a record or game log with its chart
//! ([`nb_analyze`], [`nb_chart`]).
//!
//! Why no wasm-bindgen: numbers go in as arguments and come back in one buffer of
//! `u32`s ([`nb_out`]); text goes in through [`nb_input`] and comes back as UTF-8
//! ([`nb_text`], [`nb_text_len`]). Plain exports keep the module free of glue code
//! and the build free of a `wasm-bindgen-cli` that must match the library's
//! version (installed from crates.io on every fresh CI machine).
//!
//! The engine: the default table (N <= 999, R <= 4, M = 3, embedded: 1,772 bytes)
//! answers values at once; distances and every game beyond the table come from
//! the solver, within [`SOLVER_BUDGET`] bytes, for piles up to [`MAX_STONES`].
//!
//! Every export answers with a number: >= 0 for an answer (its parts in the
//! buffer at [`nb_out`] or the text at [`nb_text`]), < 0 for an error
//! ([`Refusal`]; [`Refusal::Invalid`] says why in the text). Nothing here panics
//! on any input: positions are validated by the core, which returns typed errors.
//!
//! The one exception to the workspace's `unsafe_code = "deny"`: the exports'
//! `#[no_mangle]`, which the lint counts as unsafe because two libraries exporting
//! one name would clash at link time. Here the names (`nb_*`) are the page's
//! imports and the module links nothing else that exports them; there is no
//! `unsafe` block.

#![allow(unsafe_code)]

use std::cell::RefCell;

use nimbot::{
    DecideError, Decision, Distances, Engine, Evaluation, Limits, Move, MoveEvaluation, Params,
    Player, Policy, Position, Solution, SolveBox, SolvingEngine, Table, TableEngine,
    TableOrSolverEngine,
};
use nimbot_analysis::analysis::Analysis;
use nimbot_analysis::chart::Chart;
use nimbot_analysis::explore::{best_first, line, probe};
use nimbot_analysis::notation::{parse_moves, play};
use nimbot_analysis::record::{self, Header};

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
    /// The input is not what the export reads (moves, a record, a game log):
    /// why, in the text at [`nb_text`].
    Invalid = -8,
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

/// Its own answers first; the rest is the engine it wraps.
impl Engine for WebEngine {
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

    fn plays(&self, policy: Policy) -> bool {
        self.both.plays(policy)
    }

    fn prepare(&mut self, params: &Params) -> Result<(), DecideError> {
        self.both.prepare(params)
    }

    fn limits(&self) -> Limits {
        self.both.limits()
    }
}

thread_local! {
    static ENGINE: RefCell<Option<WebEngine>> = const { RefCell::new(None) };
    static OUT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    /// The chart of the last game [`nb_analyze`] read.
    static CHART: RefCell<Option<Chart>> = const { RefCell::new(None) };
}

/// Room for `len` bytes the page writes into the module (the distances file, a
/// policy's name, moves, a record or a game log): where they go, or 0 if the
/// memory cannot be had. Write them before any other call (memory may grow and
/// move), then call the export that reads them; it takes them.
#[no_mangle]
pub extern "C" fn nb_input(len: u32) -> u32 {
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

/// Take the distances file the page wrote at [`nb_input`] as the distances of
/// the table's box, in place of solving them: 1 if they are, else
/// [`Refusal::BadDistances`] (the engine then solves them when first needed).
/// The scratch memory is given back either way.
#[no_mangle]
pub extern "C" fn nb_load_distances() -> i32 {
    let bytes = take_input();
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

/// What the page wrote at [`nb_input`], taken.
fn take_input() -> Vec<u8> {
    SCRATCH.with(|cell| core::mem::take(&mut *cell.borrow_mut()))
}

/// The input as text, or why not (in the text answer).
fn input_text() -> Result<String, Refusal> {
    String::from_utf8(take_input()).map_err(|_| invalid("the input is not UTF-8 text"))
}

/// Put `text` in the text answer.
fn say(text: &str) {
    TEXT.with(|t| {
        let mut t = t.borrow_mut();
        t.clear();
        t.push_str(text);
    });
}

/// [`Refusal::Invalid`], with `why` in the text answer.
fn invalid(why: &str) -> Refusal {
    say(why);
    Refusal::Invalid
}

/// `text` as the answer: its length in bytes.
fn text_answer(text: &str) -> Result<i32, Refusal> {
    say(text);
    i32::try_from(text.len()).map_err(|_| invalid("the answer is too long"))
}

/// Where the last text answer's UTF-8 bytes are (read them before the next call).
#[no_mangle]
pub extern "C" fn nb_text() -> u32 {
    TEXT.with(|t| t.borrow().as_ptr() as usize as u32)
}

/// The last text answer's length in bytes.
#[no_mangle]
pub extern "C" fn nb_text_len() -> u32 {
    TEXT.with(|t| t.borrow().len() as u32)
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

/// The most stones the mover may take at position `S C A B F` (M = `m`): the
/// page's take buttons and its description of a position.
#[no_mangle]
pub extern "C" fn nb_limit(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> i32 {
    code(position(s, c, a, b, f, m).map(|p| i32::try_from(p.limit()).unwrap_or(i32::MAX)))
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
/// a move (take, reset 0/1, value, distance), in `nimbot moves`' order
/// ([`best_first`]: winning moves fastest first, then losing ones longest first).
/// Returns the number of moves.
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
    let (eval, mut moves) = probe(engine, pos).map_err(|_| Refusal::Engine)?;
    best_first(&mut moves);
    let mut words = vec![word(eval.value.is_won()), distance(eval.distance)];
    for m in &moves {
        words.extend(move_words(m));
    }
    answer(&words);
    i32::try_from(moves.len()).map_err(|_| Refusal::Engine)
}

/// `pos` as the five numbers S C A B F the exports take it in ([`position`]).
fn position_words(pos: &Position) -> [u32; 5] {
    [
        pos.stones(),
        pos.cap(),
        u32::from(pos.own_resets()),
        u32::from(pos.opp_resets()),
        u32::from(pos.reset_pending()),
    ]
}

/// A move's four words: take, reset (0/1), value for its mover (1 won), distance.
fn move_words(m: &MoveEvaluation) -> [u32; 4] {
    [
        m.mv.take,
        u32::from(m.mv.reset),
        word(m.value.is_won()),
        distance(m.distance),
    ]
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
            answer(&position_words(&next));
            Ok(1)
        }
        Ok(None) => Ok(0),
        Err(nimbot::IllegalMove::NoResetsLeft) => Err(Refusal::NoResetsLeft),
        Err(_) => Err(Refusal::BadTake),
    }
}

/// The policies the page's engine plays, in [`Policy::ALL`]'s order (those that
/// need no model of the opponent): one line each in the text answer, its name,
/// a tab, its summary, and a tab and `default` on [`Policy::default`]'s line.
/// Returns their number.
#[no_mangle]
pub extern "C" fn nb_policies() -> i32 {
    let lines: Vec<String> = with_engine(|engine| {
        (Policy::ALL.into_iter().filter(|&p| engine.plays(p)))
            .map(|p| {
                let default = if p == Policy::default() {
                    "\tdefault"
                } else {
                    ""
                };
                format!("{}\t{}{default}\n", p.as_str(), p.summary())
            })
            .collect()
    });
    code(text_answer(&lines.concat()).map(|_| lines.len() as i32))
}

/// The move nimbot plays at the position under the policy whose name the page
/// wrote at [`nb_input`] (one of [`nb_policies`]; a won position always gets a
/// winning move): the buffer holds take, reset (0/1) and the position's value
/// (1 won). Returns 0.
#[no_mangle]
pub extern "C" fn nb_decide(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> i32 {
    code(decide(s, c, a, b, f, m))
}

fn decide(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> Result<i32, Refusal> {
    let name = take_input();
    let pos = position(s, c, a, b, f, m)?;
    let policy = Policy::from_name(&name).ok_or(Refusal::BadPolicy)?;
    with_engine(|engine| {
        if !engine.plays(policy) {
            return Err(Refusal::BadPolicy);
        }
        let d = engine.decide(&pos, policy).map_err(|_| Refusal::Engine)?;
        // A reset on the move that empties the pile changes nothing: drop it.
        let reset = d.mv.reset && d.mv.take < pos.stones();
        answer(&[d.mv.take, u32::from(reset), word(d.value.is_won())]);
        Ok(0)
    })
}

/// The game of N = `n`, R = `r`, M = `m` after the moves the page wrote at
/// [`nb_input`] (`3 2 2r`, `.` or `,` between them too): returns 1 with S C A B F
/// of the position in front of the player to move and that player (0 first) in
/// the buffer, or 0 with the winner (0 first) if the moves end the game; a word
/// that is not a move, a refused move or a game that is not one is
/// [`Refusal::Invalid`], said in the text.
#[no_mangle]
pub extern "C" fn nb_replay(n: u32, r: u32, m: u32) -> i32 {
    code(replay(n, r, m))
}

/// The game of `n`, `r`, `m`, or why it is not one (in the text answer).
fn game_params(n: u32, r: u32, m: u32) -> Result<Params, Refusal> {
    if n > MAX_STONES {
        return Err(invalid(&format!("N must be at most {MAX_STONES} here")));
    }
    let r = u8::try_from(r).map_err(|_| invalid("too many resets"))?;
    Params::new(n, r, m).map_err(|e| invalid(&e.to_string()))
}

fn replay(n: u32, r: u32, m: u32) -> Result<i32, Refusal> {
    let text = input_text()?;
    let params = game_params(n, r, m)?;
    let moves = parse_moves(&text).map_err(|e| invalid(&e))?;
    let game = play(params, &moves).map_err(|e| invalid(&e))?;
    match game.position() {
        Some(p) => {
            let [s, c, a, b, f] = position_words(&p);
            answer(&[s, c, a, b, f, game.to_move().index() as u32]);
            Ok(1)
        }
        None => {
            let winner = game.winner().unwrap_or(Player::First);
            answer(&[winner.index() as u32]);
            Ok(0)
        }
    }
}

/// The best-play line from position `S C A B F` (M = `m`) to the end, the
/// winner hurrying and the loser holding out (`nimbot line`): four words a ply
/// (take, reset, value for its mover, distance). Returns the number of plies.
#[no_mangle]
pub extern "C" fn nb_line(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> i32 {
    code(position(s, c, a, b, f, m).and_then(|pos| {
        let plies = with_engine(|engine| line(engine, &pos)).map_err(|e| invalid(&e))?;
        let words: Vec<u32> = plies.iter().flat_map(move_words).collect();
        answer(&words);
        i32::try_from(plies.len()).map_err(|_| Refusal::Engine)
    }))
}

/// What the page asks [`nb_record`] for: a game of its moves so far.
#[derive(serde::Deserialize)]
struct RecordRequest {
    /// What made the game: `web-play`, `web-line`.
    command: String,
    stones: u32,
    resets: u8,
    init_max: u32,
    names: [String; 2],
    /// nimbot's seat (0 first), if it played.
    seat: Option<u8>,
    /// nimbot's policy, if it played.
    policy: Option<String>,
    /// The moves from the start, as `nb_replay` reads them.
    moves: String,
    /// The end line's reason.
    reason: String,
    /// When the game began, in seconds since 1970.
    started_unix: f64,
}

/// The record of a game, as `--record` writes it (`nimbot_analysis::record`): the
/// page writes a JSON object at [`nb_input`] (command, stones, resets,
/// init_max, names, seat, policy, moves, reason, started_unix); the record's
/// JSON lines are the text answer. Returns their length.
#[no_mangle]
pub extern "C" fn nb_record() -> i32 {
    code(record_text())
}

fn record_text() -> Result<i32, Refusal> {
    let text = input_text()?;
    let req: RecordRequest =
        serde_json::from_str(&text).map_err(|e| invalid(&format!("not a record request: {e}")))?;
    let params = game_params(req.stones, u32::from(req.resets), req.init_max)?;
    let moves = parse_moves(&req.moves).map_err(|e| invalid(&e))?;
    let seat = req.seat.map(|s| {
        if s == 0 {
            Player::First
        } else {
            Player::Second
        }
    });
    let policy = req
        .policy
        .as_deref()
        .map(str::as_bytes)
        .map(Policy::from_name);
    let policy = policy.map(|p| p.ok_or(Refusal::BadPolicy)).transpose()?;
    let header = Header::new(
        &req.command,
        params,
        req.names,
        seat,
        policy,
        req.started_unix,
    );
    let record = with_engine(|engine| record::of_moves(engine, header, &moves, &req.reason))
        .map_err(|e| invalid(&e))?;
    text_answer(&record)
}

/// The analysis of the record or game log the page wrote at [`nb_input`] (R =
/// `r` and M = `m` for a log, which does not say them), as `nimbot analyze
/// --json` prints it: a JSON line a ply, then the summary's, in the text
/// answer; its chart is kept for [`nb_chart`]. Returns the number of plies.
#[no_mangle]
pub extern "C" fn nb_analyze(r: u32, m: u32) -> i32 {
    code(analyze(r, m))
}

fn analyze(r: u32, m: u32) -> Result<i32, Refusal> {
    CHART.with(|c| c.borrow_mut().take());
    let text = input_text()?;
    let r = u8::try_from(r).map_err(|_| invalid("too many resets"))?;
    let a =
        with_engine(|engine| Analysis::of_text(engine, &text, r, m)).map_err(|e| invalid(&e))?;
    if a.stones > MAX_STONES {
        return Err(invalid(&format!(
            "N = {} is too large for this page",
            a.stones
        )));
    }
    CHART.with(|c| *c.borrow_mut() = Some(Chart::of(&a)));
    text_answer(&a.json_lines())?;
    i32::try_from(a.plies.len()).map_err(|_| Refusal::Engine)
}

/// The chart of the game [`nb_analyze`] read last, as SVG (`nimbot analyze
/// --plot FILE.svg`'s), in the text answer. Returns its length, or
/// [`Refusal::Invalid`] when no game was read.
#[no_mangle]
pub extern "C" fn nb_chart() -> i32 {
    let svg = CHART.with(|c| c.borrow().as_ref().map(Chart::svg));
    code(match svg {
        Some(svg) => text_answer(&svg),
        None => Err(invalid("no game analysed")),
    })
}

/// The game of Fibonacci Nim of `n` stones (at most [`MAX_STONES`]) after the
/// takes the page wrote at [`nb_input`] (`3 2 4`): its position and every take
/// with its value for the mover, as JSON in the text answer
/// (`nimbot_analysis::fibonacci::Explored`). Returns the number of takes;
/// [`Refusal::Invalid`] for a refused take, said in the text.
#[no_mangle]
pub extern "C" fn nb_fib(n: u32) -> i32 {
    code(fib(n).and_then(|e| {
        text_answer(&nimbot_analysis::vocab::line(&e))?;
        i32::try_from(e.moves.len()).map_err(|_| Refusal::Engine)
    }))
}

fn fib(n: u32) -> Result<nimbot_analysis::fibonacci::Explored, Refusal> {
    use nimbot_analysis::fibonacci::{explore, parse_takes};
    if n > MAX_STONES {
        return Err(invalid(&format!("N must be at most {MAX_STONES} here")));
    }
    let takes = parse_takes(&input_text()?).map_err(|e| invalid(&e))?;
    explore(u64::from(n), &takes).map_err(|e| invalid(&e))
}

/// nimbot's take in the Fibonacci Nim game of `n` stones after the takes the
/// page wrote at [`nb_input`] (`nimbot::fibonacci::decide`: the smallest
/// Zeckendorf term when it wins, else 1): the buffer holds the take and the
/// position's value (1 won). Returns 0; [`Refusal::Invalid`] once the game is
/// over.
#[no_mangle]
pub extern "C" fn nb_fib_decide(n: u32) -> i32 {
    code(fib(n).and_then(|e| {
        if e.winner.is_some() {
            return Err(invalid("the game is over"));
        }
        let d = nimbot::fibonacci::decide(e.stones, e.limit).map_err(|_| Refusal::Engine)?;
        let take = u32::try_from(d.take).map_err(|_| Refusal::Engine)?;
        answer(&[take, word(d.value.is_won())]);
        Ok(0)
    }))
}

/// Nodes the page's Super-Nim solver may visit for one position's values (past
/// them it says it cannot finish), and the positions it keeps.
pub const SN_NODES: u64 = 2_000_000;
/// Positions the page's Super-Nim solver keeps (about 24 bytes each).
pub const SN_ENTRIES: usize = 1 << 18;

thread_local! {
    static SN_SOLVER: RefCell<Option<nimbot::supernim::Solver>> = const { RefCell::new(None) };
    /// nimbot's Super-Nim player in the game being played: the game's start and
    /// cap, how many of its moves it has seen, and the player (which learns its
    /// opponent's model from the opponent's moves).
    static SN_PLAYER: RefCell<Option<(String, u32, usize, nimbot::supernim::Perfect)>> =
        const { RefCell::new(None) };
}

/// The Super-Nim game the page wrote at [`nb_input`]: `HEAPS|MOVES` (`2 4 5|s2
/// m1-5`), with the cap `cap` (plies, 1..=1000).
fn sn_game(
    cap: u32,
) -> Result<(String, nimbot::supernim::Heaps, Vec<nimbot::supernim::Move>), Refusal> {
    use nimbot_analysis::supernim::{parse_heaps, parse_moves};
    let text = input_text()?;
    let (heaps, moves) = text.split_once('|').unwrap_or((&text, ""));
    let start = parse_heaps(heaps).map_err(|e| invalid(&e))?;
    if !(1..=nimbot::supernim::MAX_MOVE_LIMIT).contains(&cap) {
        return Err(invalid("the cap must be 1..=1000"));
    }
    let moves = parse_moves(moves).map_err(|e| invalid(&e))?;
    Ok((heaps.trim().to_owned(), start, moves))
}

/// The Super-Nim game the page wrote at [`nb_input`] (`HEAPS|MOVES`, cap `cap`):
/// its position and every move, with the moves' exact values when `values` is 1
/// and the solver finishes within [`SN_NODES`], as JSON in the text answer
/// (`nimbot_analysis::supernim::Explored`). Returns the number of moves;
/// [`Refusal::Invalid`] for a refused move, said in the text.
#[no_mangle]
pub extern "C" fn nb_sn(cap: u32, values: u32) -> i32 {
    code(sn_game(cap).and_then(|(_, start, moves)| {
        let e = SN_SOLVER
            .with(|cell| {
                let mut cell = cell.borrow_mut();
                let solver = (values == 1).then(|| {
                    let s = cell
                        .get_or_insert_with(|| nimbot::supernim::Solver::new(SN_NODES, SN_ENTRIES));
                    s.set_node_bound(SN_NODES);
                    s
                });
                nimbot_analysis::supernim::explore(solver, start, cap, &moves)
            })
            .map_err(|e| invalid(&e))?;
        text_answer(&nimbot_analysis::vocab::line(&e))?;
        i32::try_from(e.moves.len()).map_err(|_| Refusal::Engine)
    }))
}

/// nimbot's move in the Super-Nim game the page wrote at [`nb_input`]
/// (`HEAPS|MOVES`, cap `cap`): the host's best player (`Perfect`, exact near
/// the cap, never a move that loses value there), which learns its opponent's
/// model from the opponent's moves in this game; the text answer is the move's
/// notation. Returns 0; [`Refusal::Invalid`] once the game is over.
#[no_mangle]
pub extern "C" fn nb_sn_decide(cap: u32) -> i32 {
    code(sn_game(cap).and_then(|(key, start, moves)| {
        use nimbot::supernim::{Game, Perfect, PERFECT_NODE_BUDGET};
        let mut game = Game::new(start, cap).map_err(|e| invalid(&e.to_string()))?;
        let mv = SN_PLAYER.with(|cell| -> Result<_, Refusal> {
            let mut cell = cell.borrow_mut();
            // Another game, or one taken back: a new player.
            let fresh = match cell.as_ref() {
                Some((k, c, seen, _)) => *k != key || *c != cap || *seen > moves.len(),
                None => true,
            };
            if fresh {
                *cell = Some((key, cap, 0, Perfect::learning(PERFECT_NODE_BUDGET)));
            }
            let Some((_, _, seen, player)) = cell.as_mut() else {
                return Err(Refusal::Engine);
            };
            let me = moves.len() % 2;
            for (i, &mv) in moves.iter().enumerate() {
                // The opponent's moves it has not seen yet teach it.
                if i >= *seen && i % 2 != me {
                    player.observe(game.heaps(), game.plies_left(), mv);
                }
                game.play(game.to_move(), mv)
                    .map_err(|e| invalid(&format!("move {} is illegal: {e}", i + 1)))?;
            }
            *seen = moves.len();
            if game.end().is_some() {
                return Err(invalid("the game is over"));
            }
            let d = player.decide(game.heaps(), game.plies_left(), game.lead());
            d.mv.ok_or(Refusal::Engine)
        })?;
        text_answer(&nimbot_analysis::supernim::move_text(mv))?;
        Ok(0)
    }))
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
    use nimbot::root_moves;
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
        let ptr = nb_input(bytes.len() as u32);
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
        nb_input(4);
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
            // (take, reset, distance) of each move, in the probe's order.
            let mut dists: Vec<[u32; 3]> = got[2..].chunks(4).map(|m| [m[0], m[1], m[3]]).collect();
            dists.sort_by_key(|m| (m[1], m[0]));
            let want_dists: Vec<[u32; 3]> =
                want[2..].chunks(3).map(|m| [m[0], m[1], m[2]]).collect();
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

/// The exports against the library they call, on the host (the same code the
/// browser runs): the command line's answers, its order, records, analyses and
/// charts.
#[cfg(test)]
mod export_tests {
    use super::*;
    use nimbot_analysis::notation::move_text;

    /// The command line's engine: the same table, the solver beside it.
    fn cli_engine() -> TableOrSolverEngine<'static> {
        let table = Table::from_bytes(TABLE).ok().map(TableEngine::new);
        TableOrSolverEngine::new(table, SolvingEngine::default())
    }

    /// Write `text` where the exports read their input.
    fn put(text: &str) {
        let at = nb_input(text.len() as u32);
        assert_ne!(at, 0);
        SCRATCH.with(|s| s.borrow_mut().copy_from_slice(text.as_bytes()));
    }

    fn text() -> String {
        TEXT.with(|t| t.borrow().clone())
    }

    #[test]
    fn moves_come_in_the_command_line_s_order_with_its_values() {
        let mut engine = cli_engine();
        for (s, c, a, b, f) in [
            (20, 3, 4, 4, 0),
            (999, 40, 1, 3, 1),
            (7, 3, 0, 0, 0),
            (1200, 5, 2, 2, 0),
        ] {
            let count = nb_moves(s, c, a, b, f, 3, 1);
            assert!(count > 0);
            let words = out_words();
            let pos = Position::new(s, c, a as u8, b as u8, f == 1, 3).unwrap();
            let (eval, mut want) = probe(&mut engine, &pos).unwrap();
            best_first(&mut want);
            assert_eq!(words[0], word(eval.value.is_won()));
            assert_eq!(words[1], distance(eval.distance));
            let got: Vec<[u32; 4]> = words[2..]
                .chunks(4)
                .map(|m| [m[0], m[1], m[2], m[3]])
                .collect();
            let want: Vec<[u32; 4]> = want.iter().map(move_words).collect();
            assert_eq!(got, want, "{s} {c} {a} {b} {f}");
        }
        assert_eq!(nb_moves(0, 3, 0, 0, 0, 3, 1), Refusal::BadPosition as i32);
        assert_eq!(
            nb_moves(MAX_STONES + 1, 3, 0, 0, 0, 3, 1),
            Refusal::TooLarge as i32
        );
    }

    #[test]
    fn the_policies_are_the_registry_s_that_need_no_model_and_each_one_plays() {
        let count = nb_policies();
        let listed = text();
        let names: Vec<&str> = listed
            .lines()
            .map(|l| l.split('\t').next().unwrap())
            .collect();
        let want: Vec<&str> = Policy::ALL
            .into_iter()
            .filter(|p| p.needs() != nimbot::Knowledge::Models)
            .map(Policy::as_str)
            .collect();
        assert_eq!(names, want);
        assert_eq!(count as usize, want.len());
        let default: Vec<&str> = listed
            .lines()
            .filter(|l| l.ends_with("\tdefault"))
            .collect();
        assert_eq!(default.len(), 1);
        assert!(default[0].starts_with(Policy::default().as_str()));
        // Each one decides a lost position as the command line's engine does.
        let lost = Position::new(21, 4, 0, 0, false, 3).unwrap();
        assert!(nb_moves(21, 4, 0, 0, 0, 3, 1) > 0);
        assert_eq!(out_words()[0], 0, "21 4 0 0 0 is lost");
        let mut engine = cli_engine();
        for name in &names {
            put(name);
            assert_eq!(nb_decide(21, 4, 0, 0, 0, 3), 0, "{name}");
            let w = out_words();
            let policy = Policy::from_name(name.as_bytes()).unwrap();
            let want = engine.decide(&lost, policy).unwrap();
            assert_eq!(
                (w[0], w[1] == 1, w[2] == 1),
                (want.mv.take, want.mv.reset, false)
            );
        }
        for refused in ["exploit", "nonsense"] {
            put(refused);
            assert_eq!(nb_decide(21, 4, 0, 0, 0, 3), Refusal::BadPolicy as i32);
        }
    }

    #[test]
    fn replay_follows_the_rules_and_says_why_it_refuses() {
        put("3 2 2r");
        assert_eq!(nb_replay(20, 4, 3), 1);
        assert_eq!(out_words(), [13, 4, 4, 3, 1, 1]);
        // The last stone taken: the winner.
        put("3 3 2");
        assert_eq!(nb_replay(8, 0, 3), 0);
        assert_eq!(out_words(), [0]);
        for (moves, why) in [
            ("3 x", "\"x\""),
            ("4", "move 1 (4) is illegal"),
            ("3 3 2 1", "move 4 (1) is illegal"),
        ] {
            put(moves);
            assert_eq!(nb_replay(8, 0, 3), Refusal::Invalid as i32);
            assert!(text().contains(why), "{moves}: {}", text());
        }
        put("");
        assert_eq!(nb_replay(MAX_STONES + 1, 0, 3), Refusal::Invalid as i32);
    }

    #[test]
    fn the_line_is_the_command_line_s() {
        let pos = Position::new(40, 5, 2, 1, false, 3).unwrap();
        let count = nb_line(40, 5, 2, 1, 0, 3);
        assert!(count > 0);
        let got: Vec<u32> = out_words();
        let mut engine = cli_engine();
        let want: Vec<u32> = line(&mut engine, &pos)
            .unwrap()
            .iter()
            .flat_map(move_words)
            .collect();
        assert_eq!(got, want);
        // Each ply's distance one less, down to the last stone.
        let d: Vec<u32> = got.chunks(4).map(|m| m[3]).collect();
        assert_eq!(d, (1..=count as u32).rev().collect::<Vec<_>>());
    }

    #[test]
    fn a_record_reads_back_and_its_analysis_and_chart_are_the_command_line_s() {
        // A game nimbot plays against itself from 30 4 3, then one loser's
        // detour: a record the page writes, read back by the study crate.
        let params = Params::new(30, 4, 3).unwrap();
        let mut engine = cli_engine();
        let mut game = nimbot::Game::new(params);
        let mut moves = Vec::new();
        while let Some(pos) = game.position() {
            let policy = if moves.len() == 2 {
                Policy::First
            } else {
                Policy::Trap
            };
            let mut mv = engine.decide(&pos, policy).unwrap().mv;
            if moves.len() == 1 {
                // A second move that throws the win away if there is one to throw.
                mv = Move::new(1, false);
            }
            game.play(game.to_move(), mv).unwrap();
            moves.push(mv);
        }
        let notation: Vec<String> = moves.iter().map(|&m| move_text(m)).collect();
        let request = format!(
            r#"{{"command":"web-play","stones":30,"resets":4,"init_max":3,"names":["you","nimbot"],"seat":1,"policy":"trap","moves":"{}","reason":"Player you won","started_unix":1764000000.25}}"#,
            notation.join(" ")
        );
        put(&request);
        let len = nb_record();
        assert!(len > 0, "{}", text());
        let written = text();
        assert_eq!(written.len(), len as usize);
        let rec = record::parse(&written).unwrap();
        assert_eq!(rec.header.command, "web-play");
        assert_eq!(rec.header.policy.as_deref(), Some("trap"));
        assert_eq!(rec.header.seat, Some(1));
        assert_eq!(rec.plies.len(), moves.len());
        assert_eq!(rec.moves(), moves);
        assert_eq!(
            rec.end.as_ref().unwrap().winner,
            game.winner().map(|w| w.index() as u8)
        );
        // The page's analysis of it is `nimbot analyze --json`'s, line for line.
        put(&written);
        let plies = nb_analyze(4, 3);
        assert_eq!(plies as usize, moves.len());
        let want = Analysis::of_text(&mut engine, &written, 4, 3).unwrap();
        assert_eq!(text(), want.json_lines());
        assert!(nb_chart() > 0);
        assert_eq!(text(), Chart::of(&want).svg());
        // Not a record: said, and no chart kept.
        put("{\"kind\":\"nonsense\"}");
        assert_eq!(nb_analyze(4, 3), Refusal::Invalid as i32);
        assert!(text().starts_with("record line 1"), "{}", text());
        assert_eq!(nb_chart(), Refusal::Invalid as i32);
        // A request with an illegal move is refused with the rules' reason.
        put(&request.replace("\"moves\":\"", "\"moves\":\"9 "));
        assert_eq!(nb_record(), Refusal::Invalid as i32);
        assert!(text().contains("move 1 (9) is illegal"), "{}", text());
    }

    #[test]
    fn a_game_log_is_analysed_as_the_command_line_does() {
        // The platform's log of N = 8, R = 0 (taking 1 wins; the first player takes 2).
        let log = "Player a took 2 stones.\nCurrent max: 3\nStones left: 6\n---\n\
                   Player b took 3 stones.\nCurrent max: 3\nStones left: 3\n---\n\
                   Player a took 1 stones.\nCurrent max: 4\nStones left: 2\n---\n\
                   Player b took 2 stones.\nCurrent max: 4\nStones left: 0\n---\n\
                   Game over\nPlayer b won the game! Congrats!\n";
        put(log);
        assert_eq!(nb_analyze(0, 3), 4);
        let mut engine = cli_engine();
        let want = Analysis::of_text(&mut engine, log, 0, 3).unwrap();
        assert_eq!(text(), want.json_lines());
        assert!(want.plies[0].blunder);
        assert!(nb_chart() > 0);
        assert_eq!(
            text().matches("class=\"blunder\"").count(),
            want.summary().blunders.iter().sum::<u32>() as usize
        );
    }

    #[test]
    fn fibonacci_and_super_nim_answer_as_the_study_crate_and_play_legal_moves() {
        // Fibonacci Nim: the study crate's position, nimbot's take the core's.
        put("3 2");
        let count = nb_fib(20);
        let want = nimbot_analysis::fibonacci::explore(20, &[3, 2]).unwrap();
        assert_eq!(count as usize, want.moves.len());
        assert_eq!(text(), nimbot_analysis::vocab::line(&want));
        put("3 2");
        assert_eq!(nb_fib_decide(20), 0);
        let d = nimbot::fibonacci::decide(want.stones, want.limit).unwrap();
        assert_eq!(out_words(), [d.take as u32, word(d.value.is_won())]);
        put("3 7");
        assert_eq!(nb_fib(20), Refusal::Invalid as i32);
        assert!(text().starts_with("move 2 (7) is illegal"), "{}", text());
        // Super-Nim: the exact values of a small start, and nimbot's moves never
        // lose value there (each is one of the best).
        use nimbot_analysis::supernim::{explore, parse_heaps, parse_moves};
        let mut solver = nimbot::supernim::Solver::new(SN_NODES, 1 << 16);
        let mut moves = String::new();
        for ply in 0..8 {
            put(&format!("2 4 5|{moves}"));
            assert!(nb_sn(12, 1) > 0, "{}", text());
            let shown: serde_json::Value = serde_json::from_str(&text()).unwrap();
            let start = parse_heaps("2 4 5").unwrap();
            let played = parse_moves(&moves).unwrap();
            let want = explore(Some(&mut solver), start, 12, &played).unwrap();
            assert_eq!(shown["value"], serde_json::json!(want.value));
            assert_eq!(shown["moves"].as_array().unwrap().len(), want.moves.len());
            let best = want.value.unwrap();
            let mv = if ply % 2 == 0 {
                // nimbot's move: one of the best.
                put(&format!("2 4 5|{moves}"));
                assert_eq!(nb_sn_decide(12), 0, "{}", text());
                let mv = text();
                let value = want.moves.iter().find(|m| m.notation == mv).unwrap().value;
                assert_eq!(value, Some(best), "{mv} at {moves:?}");
                mv
            } else {
                // The other side: the last move listed.
                want.moves.last().unwrap().notation.clone()
            };
            moves = format!("{moves} {mv}");
        }
        put("2 4 5|g4");
        assert_eq!(nb_sn(12, 1), Refusal::Invalid as i32);
        assert!(text().starts_with("move 1 (g4) is illegal"), "{}", text());
        put("2 4 5|");
        assert_eq!(nb_sn(0, 1), Refusal::Invalid as i32);
    }
}
