//! Super-Nim positions, moves and the game record, within fixed bounds.

use heapless::Vec;

use nimbot::text::Text;
use nimbot::{match_text, Player};

/// Most heaps a position may hold: the storage of [`Heaps`], fixed at build time.
/// On a host (feature `alloc`) 1024, so that a game of at most
/// [`MAX_MOVE_LIMIT`] moves from a start of at most 24 heaps never meets it (a move
/// adds at most one heap); without `alloc` (the boards) 12, to fit their RAM. A
/// position may set a lower limit of its own ([`Heaps::with_limit`]). A split that
/// would pass the limit is not generated (and refused if played); a start past it is
/// refused.
pub const MAX_HEAPS: usize = if cfg!(feature = "alloc") { 1024 } else { 12 };
/// The boards' heap limit (what [`MAX_HEAPS`] is without `alloc`): a host plays
/// their game with [`Heaps::with_limit`]`(BOARD_HEAPS)`.
pub const BOARD_HEAPS: usize = 12;
/// Largest heap size. Growing an odd heap `n` to `3n + 1` is uncapped by the rules,
/// so a growth past this bound is not generated (and refused if played); a start
/// with a larger heap is refused. 9999 holds the whole Collatz climb of every start
/// heap up to 30 (27 peaks at 9232).
pub const MAX_HEAP_SIZE: u16 = 9999;
/// A merged heap is capped at this many sticks (the rules).
pub const MERGE_CAP: u16 = 10;
/// Most distinct moves of one position: one merge per pair of distinct sizes (the
/// result does not depend on which heap goes onto which) and one Collatz step per
/// size.
pub const MAX_MOVES: usize = MAX_HEAPS * (MAX_HEAPS - 1) / 2 + MAX_HEAPS;
/// Largest move limit (the cap) of a game.
pub const MAX_MOVE_LIMIT: u32 = 1000;
/// Points for splitting a heap of 2.
pub const SPLIT_TWO_POINTS: u32 = 2;

/// Why a Super-Nim position or move was refused. Bounds are never exceeded
/// silently: every way past them is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A start needs at least one heap.
    NoHeaps,
    /// A heap of 0 sticks (heaps are never empty).
    EmptyHeap,
    /// More heaps than the position's limit (at most [`MAX_HEAPS`]), or a split
    /// that would make more.
    TooManyHeaps,
    /// A heap limit ([`Heaps::with_limit`], the protocol's `heaps K`) of 0, above
    /// [`MAX_HEAPS`] or below the heaps present.
    BadHeapLimit,
    /// A heap above [`MAX_HEAP_SIZE`], or a growth that would make one.
    HeapTooLarge,
    /// No heap of the named size.
    NoSuchHeap,
    /// A merge of two heaps of the same size (or of a heap onto itself).
    SameSize,
    /// Growth (`3n + 1`) named an even heap, or a split named an odd one.
    WrongParity,
    /// A move limit of 0 or above [`MAX_MOVE_LIMIT`].
    BadMoveLimit,
    /// The move was sent by the player not to move.
    OutOfTurn,
    /// The game is over.
    GameOver,
}

impl Error {
    /// A short, static description (the line protocol uses it).
    pub const fn text(self) -> Text {
        match_text!(self, {
            Error::NoHeaps => "at least one heap is needed",
            Error::EmptyHeap => "heaps must have at least 1 stick",
            Error::TooManyHeaps => "too many heaps (12 on a board, 1024 on a host, or heaps K)",
            Error::BadHeapLimit => "heaps K must hold the start, at most 12 on a board, 1024 on a host",
            Error::HeapTooLarge => "a heap above 9999 sticks",
            Error::NoSuchHeap => "no heap of that size",
            Error::SameSize => "merged heaps must differ in size",
            Error::WrongParity => "grow needs an odd heap, split an even one",
            Error::BadMoveLimit => "the cap must be 1..=1000",
            Error::OutOfTurn => "out of turn",
            Error::GameOver => "the game is over",
        })
    }
}

impl Error {
    /// The [`text`](Self::text) as a `&str` (not on the AVR, whose text stays in
    /// program memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_str(self) -> &'static str {
        self.text().as_str()
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(&self.text(), f)
    }
}

impl core::error::Error for Error {}

/// One Super-Nim move, naming heaps by size: heaps of equal size are
/// interchangeable, so sizes name every distinct move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a heap of size `from` onto one of size `onto` (sizes differ); the result
    /// is `min(from + onto, 10)`.
    Merge {
        /// Size of the heap that is moved.
        from: u16,
        /// Size of the heap it is put on.
        onto: u16,
    },
    /// Replace an odd heap `n` by `3n + 1`.
    Grow(u16),
    /// Split an even heap `n` into two heaps of `n / 2`; a 2 becomes 2 points.
    Split(u16),
}

/// The heaps of a position: a multiset of sizes in `1..=MAX_HEAP_SIZE`, at most
/// [`Heaps::limit`] of them (at most [`MAX_HEAPS`]), kept sorted so equal positions
/// compare equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Heaps {
    sizes: Vec<u16, MAX_HEAPS>,
    /// Most heaps allowed (`1..=MAX_HEAPS`).
    limit: u16,
}

impl Default for Heaps {
    fn default() -> Self {
        Heaps {
            sizes: Vec::new(),
            limit: MAX_HEAPS as u16,
        }
    }
}

const _: () = assert!(MAX_HEAPS <= u16::MAX as usize);

/// The list [`Heaps::moves`] returns: a `Vec` on a host (feature `alloc`), a
/// `heapless::Vec` of [`MAX_MOVES`] without it.
#[cfg(feature = "alloc")]
pub type MoveList = alloc::vec::Vec<Move>;
/// The list [`Heaps::moves`] returns: a `Vec` on a host (feature `alloc`), a
/// `heapless::Vec` of [`MAX_MOVES`] without it.
#[cfg(not(feature = "alloc"))]
pub type MoveList = Vec<Move, MAX_MOVES>;

impl Heaps {
    /// Heaps of the given sizes, in any order. Refused: no heaps, a 0, more than
    /// [`MAX_HEAPS`] heaps, a heap above [`MAX_HEAP_SIZE`].
    pub fn new(sizes: &[u32]) -> Result<Heaps, Error> {
        if sizes.is_empty() {
            return Err(Error::NoHeaps);
        }
        let mut heaps = Heaps::default();
        for &n in sizes {
            if n == 0 {
                return Err(Error::EmptyHeap);
            }
            let n = u16::try_from(n)
                .ok()
                .filter(|n| *n <= MAX_HEAP_SIZE)
                .ok_or(Error::HeapTooLarge)?;
            heaps.insert(n)?;
        }
        Ok(heaps)
    }

    /// The small starts: every position of 2 to 4 heaps of 1 to 6 sticks (203 of
    /// them), each once, by ascending sizes. The tests and benchmarks of the
    /// Super-Nim players play from these.
    pub fn small_starts() -> impl Iterator<Item = Heaps> {
        // Four base-7 digits, 0 for no heap: the heaps are the leading non-zero
        // digits, in ascending order, followed only by zeros.
        (0u32..7 * 7 * 7 * 7).filter_map(|code| {
            let digits = [code / 343, code / 49 % 7, code / 7 % 7, code % 7];
            let count = digits.iter().take_while(|&&d| d > 0).count();
            let sizes = digits.get(..count)?;
            let sorted = sizes.windows(2).all(|w| w.first() <= w.last());
            let rest_empty = digits.get(count..)?.iter().all(|&d| d == 0);
            (count >= 2 && sorted && rest_empty)
                .then(|| Heaps::new(sizes).ok())
                .flatten()
        })
    }

    /// These heaps with at most `limit` heaps from now on (a board's
    /// [`BOARD_HEAPS`], or any other). Refused: a limit of 0, above [`MAX_HEAPS`] or
    /// below the heaps present.
    pub fn with_limit(mut self, limit: usize) -> Result<Heaps, Error> {
        if limit == 0 || limit > MAX_HEAPS || limit < self.sizes.len() {
            return Err(Error::BadHeapLimit);
        }
        self.limit = limit as u16;
        Ok(self)
    }

    /// Most heaps these may become ([`MAX_HEAPS`] unless set by
    /// [`Heaps::with_limit`]).
    pub fn limit(&self) -> usize {
        usize::from(self.limit)
    }

    /// The sizes, ascending.
    pub fn sizes(&self) -> &[u16] {
        &self.sizes
    }

    /// True when no sticks remain: the game is over.
    pub fn is_empty(&self) -> bool {
        self.sizes.is_empty()
    }

    /// Number of heaps.
    pub fn len(&self) -> usize {
        self.sizes.len()
    }

    /// Total sticks.
    pub fn sticks(&self) -> u32 {
        self.sizes.iter().map(|&n| u32::from(n)).sum()
    }

    fn insert(&mut self, n: u16) -> Result<(), Error> {
        if self.sizes.len() >= usize::from(self.limit) {
            return Err(Error::TooManyHeaps);
        }
        let at = self
            .sizes
            .iter()
            .position(|&h| h > n)
            .unwrap_or(self.sizes.len());
        self.sizes.insert(at, n).map_err(|_| Error::TooManyHeaps)
    }

    fn remove(&mut self, n: u16) -> Result<(), Error> {
        // `retain`, not `Vec::remove(index)`: the latter asserts on the index, and not
        // every compiler proves that assertion dead (the firmware links no panic).
        let mut found = false;
        self.sizes.retain(|&h| {
            let hit = !found && h == n;
            found |= hit;
            !hit
        });
        if found {
            Ok(())
        } else {
            Err(Error::NoSuchHeap)
        }
    }

    fn count(&self, n: u16) -> usize {
        self.sizes.iter().filter(|&&h| h == n).count()
    }

    /// The heaps after `mv`, and the points it scores for the mover (2 for
    /// splitting a 2, else 0). Refused if illegal or if it would leave the bounds.
    pub fn apply(&self, mv: Move) -> Result<(Heaps, u32), Error> {
        let mut next = self.clone();
        let points = next.play(mv)?;
        Ok((next, points))
    }

    /// [`Heaps::apply`] in place: plays `mv` on these heaps and returns the points
    /// it scores; [`Heaps::undo`] takes it back. On an error the heaps are left in
    /// an unspecified (valid) state: the search plays only the moves it generates,
    /// on one copy of the heaps for its whole recursion (the firmware's stack).
    pub fn play(&mut self, mv: Move) -> Result<u32, Error> {
        match mv {
            // A missing heap is refused by its removal below.
            Move::Merge { from, onto } => {
                if from == onto {
                    return Err(Error::SameSize);
                }
            }
            Move::Grow(n) | Move::Split(n) => {
                let grow = matches!(mv, Move::Grow(_));
                if self.count(n) == 0 {
                    return Err(Error::NoSuchHeap);
                }
                if (n % 2 == 1) != grow {
                    return Err(Error::WrongParity);
                }
                if grow && n > (MAX_HEAP_SIZE - 1) / 3 {
                    return Err(Error::HeapTooLarge);
                }
            }
        }
        let (taken, made) = exchange(mv);
        // A split with no free slot fails here, in the second insertion.
        self.replace(taken, made)?;
        Ok(if mv == Move::Split(2) {
            SPLIT_TWO_POINTS
        } else {
            0
        })
    }

    /// Takes back `mv`, which [`Heaps::play`] has just played on these heaps: they
    /// are as they were before it. Refused (with the heaps in an unspecified valid
    /// state) only if `mv` was not the last move played. Not inlined: its
    /// temporaries stay out of the search's recursive frame.
    #[inline(never)]
    pub fn undo(&mut self, mv: Move) -> Result<(), Error> {
        let (taken, made) = exchange(mv);
        self.replace(made, taken)
    }

    /// Removes the heaps `taken` and inserts the heaps `made` (0: no heap).
    fn replace(&mut self, taken: [u16; 2], made: [u16; 2]) -> Result<(), Error> {
        for n in taken.into_iter().filter(|n| *n != 0) {
            self.remove(n)?;
        }
        for n in made.into_iter().filter(|n| *n != 0) {
            self.insert(n)?;
        }
        Ok(())
    }

    /// Every distinct legal move that stays within the bounds, in a fixed order:
    /// splits of a 2 (the scoring moves) first, then the other Collatz steps, then
    /// merges, each by ascending size.
    pub fn moves(&self) -> MoveList {
        // Not `collect()`: heapless panics when an iterator overfills it. There are
        // at most MAX_MOVES moves, so no push fails.
        let mut out = MoveList::new();
        for mv in self.move_iter() {
            #[cfg(feature = "alloc")]
            out.push(mv);
            #[cfg(not(feature = "alloc"))]
            let _ = out.push(mv);
        }
        out
    }

    /// The moves of [`Heaps::moves`], in the same order, generated one at a time:
    /// a search holds this cursor (a few words) per level instead of a list of
    /// up to [`MAX_MOVES`] moves, which keeps a deep search within a small stack.
    pub fn move_iter(&self) -> Moves<'_> {
        Moves {
            heaps: self,
            cursor: Cursor::default(),
        }
    }
}

/// The heaps `mv` takes away and the heaps it makes, 0 for none: what
/// [`Heaps::play`] does, and [`Heaps::undo`] the other way round.
fn exchange(mv: Move) -> ([u16; 2], [u16; 2]) {
    match mv {
        Move::Merge { from, onto } => ([from, onto], [from.saturating_add(onto).min(MERGE_CAP), 0]),
        Move::Grow(n) => ([n, 0], [n.saturating_mul(3).saturating_add(1), 0]),
        Move::Split(2) => ([2, 0], [0, 0]),
        Move::Split(n) => ([n, 0], [n / 2, n / 2]),
    }
}

/// The `k`-th distinct size (from 0) of the ascending `sorted`.
fn nth_distinct(sorted: &[u16], k: u16) -> Option<u16> {
    let mut prev = None;
    sorted
        .iter()
        .copied()
        .filter(move |&n| {
            let new = prev != Some(n);
            prev = Some(n);
            new
        })
        .nth(usize::from(k))
}

/// Where [`Moves`] is in the order of [`Heaps::moves`].
#[derive(Clone, Copy, Debug)]
enum Stage {
    SplitTwo,
    Collatz,
    Merge,
    Done,
}

/// The cursor of [`Heaps::move_iter`].
#[derive(Clone, Debug)]
pub struct Moves<'a> {
    /// The heaps, read in place: the cursor holds no copy of them (one cursor per
    /// level of a deep search).
    heaps: &'a Heaps,
    cursor: Cursor,
}

impl Iterator for Moves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        self.cursor.next(self.heaps)
    }
}

/// Where the moves of some heaps are in the order of [`Heaps::moves`], without
/// the heaps: [`Cursor::next`] is handed their sizes each time, which must be the
/// same every time. The search plays a move on its one copy of the heaps and
/// takes it back ([`Heaps::undo`]) before it asks for the next move, so each
/// level of its recursion holds these few bytes, not a borrow and a copy of the
/// heaps.
#[derive(Clone, Copy, Debug)]
pub struct Cursor {
    stage: Stage,
    /// Distinct sizes counted so far (at most [`MAX_HEAPS`]).
    i: u16,
    j: u16,
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor {
            stage: Stage::SplitTwo,
            i: 0,
            j: 0,
        }
    }
}

impl Cursor {
    /// The next move of `heaps`.
    pub fn next(&mut self, heaps: &Heaps) -> Option<Move> {
        let sizes = heaps.sizes();
        // Whether a split has a free slot for its second heap.
        let room = sizes.len() < heaps.limit();
        loop {
            match self.stage {
                Stage::SplitTwo => {
                    self.stage = Stage::Collatz;
                    self.i = 0;
                    if sizes.contains(&2) {
                        return Some(Move::Split(2));
                    }
                }
                Stage::Collatz => {
                    let Some(n) = nth_distinct(sizes, self.i) else {
                        self.stage = Stage::Merge;
                        self.i = 0;
                        self.j = 1;
                        continue;
                    };
                    self.i += 1;
                    if n % 2 == 1 {
                        if n <= (MAX_HEAP_SIZE - 1) / 3 {
                            return Some(Move::Grow(n));
                        }
                    } else if n != 2 && room {
                        // A split of a 2 came first; other splits need a free slot.
                        return Some(Move::Split(n));
                    }
                }
                Stage::Merge => {
                    let (Some(from), Some(onto)) =
                        (nth_distinct(sizes, self.i), nth_distinct(sizes, self.j))
                    else {
                        self.i += 1;
                        self.j = self.i + 1;
                        if usize::from(self.i) >= sizes.len() {
                            self.stage = Stage::Done;
                        }
                        continue;
                    };
                    self.j += 1;
                    return Some(Move::Merge { from, onto });
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Why a Super-Nim game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// No sticks remain (the rules' end).
    NoSticks,
    /// The game reached its move limit (play can cycle forever).
    MoveLimit,
    /// The player to move has no move within the bounds (every move would pass
    /// [`MAX_HEAPS`] or [`MAX_HEAP_SIZE`]); judged like the move limit.
    Stalled,
}

/// The result of a finished game: judged on points, as docs/rules.md says for a game
/// that does not end by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This player has more points.
    Winner(Player),
    /// Equal points.
    Draw,
}

/// What a legal move did to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on; the other player moves next.
    Continue,
    /// The game ended, for this reason.
    Over(End),
}

/// The record of one Super-Nim game with a move limit. A refused move leaves it
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    heaps: Heaps,
    scores: [u32; 2],
    to_move: Player,
    plies: u32,
    move_limit: u32,
    end: Option<End>,
}

impl Game {
    /// A game from `heaps` (the first player to move, no points yet) that ends after
    /// at most `move_limit` moves (1..=[`MAX_MOVE_LIMIT`]).
    pub fn new(heaps: Heaps, move_limit: u32) -> Result<Game, Error> {
        if move_limit == 0 || move_limit > MAX_MOVE_LIMIT {
            return Err(Error::BadMoveLimit);
        }
        let mut game = Game {
            heaps,
            scores: [0, 0],
            to_move: Player::First,
            plies: 0,
            move_limit,
            end: None,
        };
        game.end = game.check_end();
        Ok(game)
    }

    /// The heaps.
    pub fn heaps(&self) -> &Heaps {
        &self.heaps
    }

    /// The points of `player`.
    pub fn score(&self, player: Player) -> u32 {
        self.scores.get(player.index()).copied().unwrap_or(0)
    }

    /// The player to move (meaningless once the game is over).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Moves played so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Moves left before the move limit ends the game.
    pub fn plies_left(&self) -> u32 {
        self.move_limit.saturating_sub(self.plies)
    }

    /// Why the game ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The result, once the game is over: more points wins, equal is a draw.
    pub fn verdict(&self) -> Option<Verdict> {
        self.end?;
        let (a, b) = (self.score(Player::First), self.score(Player::Second));
        Some(match a.cmp(&b) {
            core::cmp::Ordering::Greater => Verdict::Winner(Player::First),
            core::cmp::Ordering::Less => Verdict::Winner(Player::Second),
            core::cmp::Ordering::Equal => Verdict::Draw,
        })
    }

    /// The mover's points minus the opponent's (what the search maximizes).
    pub fn lead(&self) -> i32 {
        let me = i64::from(self.score(self.to_move));
        let them = i64::from(self.score(self.to_move.other()));
        i32::try_from(me - them).unwrap_or(0)
    }

    /// `player` plays `mv`: refused if the game is over, out of turn, illegal or out
    /// of bounds.
    pub fn play(&mut self, player: Player, mv: Move) -> Result<Outcome, Error> {
        if self.end.is_some() {
            return Err(Error::GameOver);
        }
        if player != self.to_move {
            return Err(Error::OutOfTurn);
        }
        let (heaps, points) = self.heaps.apply(mv)?;
        self.heaps = heaps;
        if let Some(s) = self.scores.get_mut(player.index()) {
            *s = s.saturating_add(points);
        }
        self.plies = self.plies.saturating_add(1);
        self.to_move = player.other();
        self.end = self.check_end();
        Ok(match self.end {
            Some(end) => Outcome::Over(end),
            None => Outcome::Continue,
        })
    }

    fn check_end(&self) -> Option<End> {
        if self.heaps.is_empty() {
            Some(End::NoSticks)
        } else if self.plies >= self.move_limit {
            Some(End::MoveLimit)
        } else if self.heaps.move_iter().next().is_none() {
            // Only when the heap limit binds: never on a host for a start of at
            // most MAX_HEAPS - MAX_MOVE_LIMIT heaps.
            Some(End::Stalled)
        } else {
            None
        }
    }
}
