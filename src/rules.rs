//! The rules of Expanding Nim with resets, exactly as the reference server applies them.
//!
//! Two views of a game live here:
//! - [`Game`], the record of one game between two seats, which applies moves in the
//!   reference server's judging order and refuses illegal ones with a reason;
//! - [`Position`], the normalized state `(s, c, a, b, f)` seen by the player to move,
//!   which is all a solver or a table needs.

use core::fmt;

use crate::text::{match_text, text, Text};
use crate::value::Value;

/// Largest pile this crate accepts. Caps and sums stay far from `u32` overflow.
pub const MAX_STONES: u32 = 1_000_000_000;
/// Largest number of resets per player this crate accepts.
pub const MAX_RESETS: u8 = 32;

/// The parameters of one game: stones at the start, resets per player, initial maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    stones: u32,
    resets: u8,
    init_max: u32,
}

/// Why a set of game parameters was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamError {
    /// The pile must hold at least one stone.
    NoStones,
    /// The pile is larger than [`MAX_STONES`].
    TooManyStones,
    /// More resets than [`MAX_RESETS`].
    TooManyResets,
    /// The initial maximum must be at least 1.
    ZeroInitMax,
    /// The initial maximum is larger than [`MAX_STONES`].
    InitMaxTooLarge,
}

impl ParamError {
    /// A short, static description (also used by the line protocol).
    pub const fn text(self) -> Text {
        match_text!(self, {
            ParamError::NoStones => "stones must be at least 1",
            ParamError::TooManyStones => "stones exceed 1000000000",
            ParamError::TooManyResets => "resets exceed 32",
            ParamError::ZeroInitMax => "init max must be at least 1",
            ParamError::InitMaxTooLarge => "init max exceeds 1000000000",
        })
    }
}

crate::text::error_from_text!(ParamError, PositionError);

/// `value` must lie in `1..=MAX_STONES`: `zero` if it is 0, `large` above.
const fn check_count(value: u32, zero: ParamError, large: ParamError) -> Result<(), ParamError> {
    if value == 0 {
        Err(zero)
    } else if value > MAX_STONES {
        Err(large)
    } else {
        Ok(())
    }
}

const fn check_init_max(init_max: u32) -> Result<(), ParamError> {
    check_count(
        init_max,
        ParamError::ZeroInitMax,
        ParamError::InitMaxTooLarge,
    )
}

const fn check_resets(resets: u8) -> Result<(), ParamError> {
    if resets > MAX_RESETS {
        Err(ParamError::TooManyResets)
    } else {
        Ok(())
    }
}

const fn check_stones(stones: u32) -> Result<(), ParamError> {
    check_count(stones, ParamError::NoStones, ParamError::TooManyStones)
}

impl Params {
    /// Validated parameters: `stones` N >= 1, `resets` R <= [`MAX_RESETS`], `init_max` M >= 1.
    pub const fn new(stones: u32, resets: u8, init_max: u32) -> Result<Self, ParamError> {
        // A `const fn` (tables are checked at compile time), so no `?`.
        if let Err(e) = check_stones(stones) {
            return Err(e);
        }
        if let Err(e) = check_resets(resets) {
            return Err(e);
        }
        if let Err(e) = check_init_max(init_max) {
            return Err(e);
        }
        Ok(Params {
            stones,
            resets,
            init_max,
        })
    }

    /// N, the stones at the start.
    pub const fn stones(&self) -> u32 {
        self.stones
    }

    /// R, the resets each player may use.
    pub const fn resets(&self) -> u8 {
        self.resets
    }

    /// M, the limit of the first move and of any move right after a reset.
    pub const fn init_max(&self) -> u32 {
        self.init_max
    }

    /// The position in front of the first player.
    pub fn start(&self) -> Position {
        Position {
            stones: self.stones,
            cap: self.init_max,
            own_resets: self.resets,
            opp_resets: self.resets,
            reset_pending: false,
            init_max: self.init_max,
        }
    }
}

/// One move: take `take` stones, then declare a reset if `reset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Stones to take, 1 ..= the current limit.
    pub take: u32,
    /// Whether the mover spends a reset, holding the next move to M.
    pub reset: bool,
}

impl Move {
    /// A move taking `take` stones, with or without a reset.
    pub const fn new(take: u32, reset: bool) -> Self {
        Move { take, reset }
    }
}

/// The two seats. `First` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first (the server's order 0).
    First,
    /// Moves second (the server's order 1).
    Second,
}

impl Player {
    /// The other seat.
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: the server's `order`.
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// The player of index `i` ([`Player::index`]): 0 the first, any other the second.
    pub const fn from_index(i: usize) -> Player {
        if i == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// `first` or `second`, as the line protocol and the command lines spell seats.
    pub const fn name(self) -> &'static str {
        match self {
            Player::First => "first",
            Player::Second => "second",
        }
    }
}

/// Why a move was refused, in the reference server's judging order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game has already ended.
    GameOver,
    /// The mover is not the player to move ("moved out of turn").
    OutOfTurn,
    /// Took fewer than 1 or more than the limit ("made an illegal move").
    BadTake {
        /// Stones the move tried to take.
        take: u32,
        /// The limit in force for that move.
        limit: u32,
    },
    /// Declared a reset with none left ("used too many resets"), judged before the win.
    NoResetsLeft,
}

impl IllegalMove {
    /// A short, static description (also used by the line protocol).
    pub const fn text(self) -> Text {
        match_text!(self, {
            IllegalMove::GameOver => "the game is over",
            IllegalMove::OutOfTurn => "move out of turn",
            IllegalMove::BadTake { .. } => "take out of range",
            IllegalMove::NoResetsLeft => "no resets left",
        })
    }
}

crate::text::str_from_text!(IllegalMove);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::BadTake { take, limit } => {
                write!(f, "take {take} is outside 1..={limit}")
            }
            other => fmt::Display::fmt(&other.text(), f),
        }
    }
}

impl core::error::Error for IllegalMove {}

/// What a legal move did to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The pile is not empty; the other player moves next.
    Continue,
    /// The move emptied the pile: the mover won.
    Won(Player),
}

/// The record of one game, applying moves exactly like the reference server.
///
/// A reset does not lower the largest take; it only holds the next move to M, once.
/// A refused move leaves the record unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    params: Params,
    stones: u32,
    largest_take: u32,
    resets_left: [u8; 2],
    reset_pending: bool,
    to_move: Player,
    winner: Option<Player>,
    moves: u32,
}

impl Game {
    /// A new game: the first player to move, nothing taken yet.
    pub fn new(params: Params) -> Self {
        Game {
            params,
            stones: params.stones,
            largest_take: 0,
            resets_left: [params.resets, params.resets],
            reset_pending: false,
            to_move: Player::First,
            winner: None,
            moves: 0,
        }
    }

    /// The parameters the game was started with.
    pub const fn params(&self) -> Params {
        self.params
    }

    /// Stones left in the pile.
    pub const fn stones(&self) -> u32 {
        self.stones
    }

    /// The largest number of stones taken in one move so far (0 before the first move).
    pub const fn largest_take(&self) -> u32 {
        self.largest_take
    }

    /// Resets `player` has left.
    pub const fn resets_left(&self, player: Player) -> u8 {
        self.resets_left[player.index()]
    }

    /// Whether the previous move declared a reset.
    pub const fn reset_pending(&self) -> bool {
        self.reset_pending
    }

    /// The player to move (meaningless once the game is over).
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// The winner, once the pile is empty.
    pub const fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// Moves played so far.
    pub const fn moves(&self) -> u32 {
        self.moves
    }

    /// `max(M, h + 1)`: the limit without a pending reset.
    pub fn cap(&self) -> u32 {
        self.params
            .init_max
            .max(self.largest_take.saturating_add(1))
    }

    /// The most the player to move may take now.
    pub fn limit(&self) -> u32 {
        if self.reset_pending {
            self.params.init_max
        } else {
            self.cap()
        }
    }

    /// Judge `mv` by `player` without applying it, in the server's order:
    /// out of turn, then the take, then the reset (before any win).
    pub fn check(&self, player: Player, mv: Move) -> Result<(), IllegalMove> {
        if self.winner.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if player != self.to_move {
            return Err(IllegalMove::OutOfTurn);
        }
        let limit = self.limit();
        if mv.take < 1 || mv.take > limit {
            return Err(IllegalMove::BadTake {
                take: mv.take,
                limit,
            });
        }
        if mv.reset && self.resets_left[player.index()] == 0 {
            return Err(IllegalMove::NoResetsLeft);
        }
        Ok(())
    }

    /// Apply `mv` by `player` if it is legal; an illegal move changes nothing.
    ///
    /// Like the server, a take larger than the pile (but within the limit) just
    /// empties it.
    pub fn play(&mut self, player: Player, mv: Move) -> Result<Outcome, IllegalMove> {
        self.check(player, mv)?;
        let slot = player.index();
        if mv.reset {
            self.resets_left[slot] = self.resets_left[slot].saturating_sub(1);
        }
        self.stones = self.stones.saturating_sub(mv.take);
        self.largest_take = self.largest_take.max(mv.take);
        self.reset_pending = mv.reset;
        self.moves = self.moves.saturating_add(1);
        if self.stones == 0 {
            self.winner = Some(player);
            Ok(Outcome::Won(player))
        } else {
            self.to_move = player.other();
            Ok(Outcome::Continue)
        }
    }

    /// The normalized position in front of the player to move, or `None` once the
    /// game is over.
    pub fn position(&self) -> Option<Position> {
        if self.winner.is_some() {
            return None;
        }
        let me = self.to_move;
        Some(Position {
            stones: self.stones,
            cap: self.cap(),
            own_resets: self.resets_left[me.index()],
            opp_resets: self.resets_left[me.other().index()],
            reset_pending: self.reset_pending,
            init_max: self.params.init_max,
        })
    }
}

/// The normalized state `(s, c, a, b, f)` in front of the player to move, with the
/// game's initial maximum M.
///
/// Who sits first does not matter: the position is always seen from the mover's side.
///
/// With the feature `serde` it serializes as its six numbers by name: `stones`,
/// `cap`, `own_resets`, `opp_resets`, `reset_pending` and `init_max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Position {
    /// s: stones left, at least 1 (an empty pile ends the game before a position).
    stones: u32,
    /// c: the cap `max(M, h + 1)`, the largest take allowed unless a reset is pending.
    cap: u32,
    /// a: the mover's resets left.
    own_resets: u8,
    /// b: the opponent's resets left.
    opp_resets: u8,
    /// f: the opponent has just reset, so this move may take at most M.
    reset_pending: bool,
    /// M, the game's initial maximum: the cap's floor.
    init_max: u32,
}

/// Why a normalized position was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// The parameters behind it are out of range (stones, resets or M).
    Param(ParamError),
    /// The cap `max(M, h + 1)` can never be below M.
    CapBelowInitMax,
}

impl PositionError {
    /// A short, static description (also used by the line protocol).
    pub const fn text(self) -> Text {
        match self {
            PositionError::Param(p) => p.text(),
            PositionError::CapBelowInitMax => text!("cap is below init max"),
        }
    }
}

impl From<ParamError> for PositionError {
    fn from(e: ParamError) -> Self {
        PositionError::Param(e)
    }
}

/// `S C A B F`: the five numbers of the line protocol's `query` (stones, cap, the
/// mover's and the opponent's resets left, 1 if a reset is pending), which read the
/// position back with the game's M.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            self.stones,
            self.cap,
            self.own_resets,
            self.opp_resets,
            u8::from(self.reset_pending)
        )
    }
}

impl Position {
    /// A validated position: `stones` s >= 1, `cap` c >= M, resets <= [`MAX_RESETS`].
    pub fn new(
        stones: u32,
        cap: u32,
        own_resets: u8,
        opp_resets: u8,
        reset_pending: bool,
        init_max: u32,
    ) -> Result<Self, PositionError> {
        check_stones(stones)?;
        check_resets(own_resets)?;
        check_resets(opp_resets)?;
        check_init_max(init_max)?;
        if cap < init_max {
            return Err(PositionError::CapBelowInitMax);
        }
        Ok(Position {
            stones,
            cap: cap.min(MAX_STONES),
            own_resets,
            opp_resets,
            reset_pending,
            init_max,
        })
    }

    /// s: stones left.
    pub const fn stones(&self) -> u32 {
        self.stones
    }
    /// c = max(M, h + 1): the limit without a pending reset.
    pub const fn cap(&self) -> u32 {
        self.cap
    }
    /// a: the mover's resets left.
    pub const fn own_resets(&self) -> u8 {
        self.own_resets
    }
    /// b: the opponent's resets left.
    pub const fn opp_resets(&self) -> u8 {
        self.opp_resets
    }
    /// f: whether the opponent reset on the previous move.
    pub const fn reset_pending(&self) -> bool {
        self.reset_pending
    }
    /// M: the game's initial maximum.
    pub const fn init_max(&self) -> u32 {
        self.init_max
    }

    /// The most the mover may take: M after a reset, the cap otherwise.
    pub const fn limit(&self) -> u32 {
        if self.reset_pending {
            self.init_max
        } else {
            self.cap
        }
    }

    /// Every legal move here, in the order of [`Moves`]: exactly the moves
    /// [`Position::check`] accepts, so each take from 1 to the limit, even one
    /// above the stones left (the server accepts it; it empties the pile and wins,
    /// as taking the pile does).
    pub const fn moves(&self) -> Moves {
        Moves::new(self.limit(), self.own_resets > 0)
    }

    /// The reset choices of the mover, in the order of [`Moves`]: without a reset,
    /// then with one if it has one left.
    pub const fn reset_choices(&self) -> &'static [bool] {
        Moves::reset_choices(self.own_resets > 0)
    }

    /// Whether `mv` is legal here (1 <= take <= limit, a reset only if one is left).
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let limit = self.limit();
        if mv.take < 1 || mv.take > limit {
            return Err(IllegalMove::BadTake {
                take: mv.take,
                limit,
            });
        }
        if mv.reset && self.own_resets == 0 {
            return Err(IllegalMove::NoResetsLeft);
        }
        Ok(())
    }

    /// The position in front of the opponent after `mv`, `Ok(None)` if `mv` empties the
    /// pile (the mover wins), or why `mv` is illegal.
    pub fn after(&self, mv: Move) -> Result<Option<Position>, IllegalMove> {
        self.check(mv)?;
        if mv.take >= self.stones {
            return Ok(None);
        }
        Ok(Some(Position {
            stones: self.stones - mv.take,
            cap: self.cap.max(mv.take.saturating_add(1)),
            own_resets: self.opp_resets,
            opp_resets: self.own_resets - u8::from(mv.reset),
            reset_pending: mv.reset,
            init_max: self.init_max,
        }))
    }

    /// The same position with `stones` stones (`None` for an empty pile).
    pub fn with_stones(&self, stones: u32) -> Option<Position> {
        if stones == 0 || stones > MAX_STONES {
            return None;
        }
        Some(Position { stones, ..*self })
    }

    /// True when the cap can never bind again (c >= s): such positions are decided
    /// without a table (see [`Position::trivial_value`]).
    pub const fn cap_is_open(&self) -> bool {
        self.cap >= self.stones
    }

    /// The value of a position whose cap no longer binds, computed from the rules
    /// alone, for its mover; `None` if the cap can still bind.
    ///
    /// With no pending reset the mover takes the whole pile. With a pending reset the
    /// mover is held to M, and every move that does not empty the pile must reset
    /// (otherwise the opponent takes the rest): see [`Position::capless_wins`].
    pub fn trivial_value(&self) -> Option<Value> {
        if !self.cap_is_open() {
            return None;
        }
        if !self.reset_pending {
            return Some(Value::Won);
        }
        Some(Value::from_mover_wins(Self::capless_wins(
            self.stones,
            self.own_resets,
            self.opp_resets,
            self.init_max,
        )))
    }

    /// Whether the mover wins the "capless" game: every move is held to `m`, and a move
    /// that leaves stones must declare a reset (so the player who first cannot reset
    /// while more than `m` stones remain loses).
    ///
    /// Closed form, O(1) and without buffers. A pile of at most `m` is taken whole.
    /// Above it, with `q = m + 1`, the lost piles are:
    /// - `own <= opp`: every pile that is a multiple of `q`, and every pile from
    ///   `(own + 1) q` on (the mover runs out of resets first);
    /// - `own > opp`: the multiples `q, 2q, ..., (opp + 1) q` only.
    ///
    /// Why: along any line of play the resets go `(x, y) -> (y, x - 1)`, and the
    /// player who must move with none left loses every pile above `m`. Going back
    /// one level turns a losing set `L` into "piles whose window `[s - m, s - 1]`
    /// misses `L`": from `[q, inf)` that is `{q}`, from `{q, ..., jq}` it is those
    /// multiples plus `[(j + 1) q, inf)`, and from that the multiples up to
    /// `(j + 1) q`. Counting the levels of the chain from `(own, opp)` gives the two
    /// cases. Checked against the game's recursion (the tests here and the
    /// solver's window DP).
    pub fn capless_wins(stones: u32, own: u8, opp: u8, m: u32) -> bool {
        if stones <= m {
            return true;
        }
        // stones > m, so m < u32::MAX and q cannot overflow; k >= 1.
        let q = m + 1;
        let (k, multiple) = (stones / q, stones % q == 0);
        if own <= opp {
            !multiple && k <= u32::from(own)
        } else {
            !(multiple && k <= u32::from(opp) + 1)
        }
    }

    /// The last pile of the run of piles from `stones` on that [`Position::trivial_value`]
    /// gives one value, for a position like this one whose cap stays open (`u32::MAX`
    /// when the run never ends), in O(1): a layer's open piles are visited a run at a
    /// time, however large M is. Runs may be cut shorter than they are, never longer.
    pub fn trivial_run_end(&self, stones: u32) -> u32 {
        if !self.reset_pending {
            return u32::MAX;
        }
        let m = self.init_max;
        if stones <= m {
            return m;
        }
        // stones > m, so q cannot overflow. From `levels * q` on every pile has one
        // value (lost for own <= opp, won otherwise); below it only the multiples of
        // q differ. One division (a quotient and a remainder) and no product: this
        // runs on 8-bit boards too.
        let q = m + 1;
        let levels = if self.own_resets <= self.opp_resets {
            u32::from(self.own_resets) + 1
        } else {
            u32::from(self.opp_resets) + 2
        };
        if stones / q >= levels {
            return u32::MAX;
        }
        match stones % q {
            0 => stones,
            // The pile before the next multiple of q.
            r => (stones - r).saturating_add(m),
        }
    }

    /// How many piles in `1..=upto` the mover loses in the capless game (see
    /// [`Position::capless_wins`]), in O(1): the count over a range is a difference
    /// of two of these.
    pub fn capless_losses(upto: u32, own: u8, opp: u8, m: u32) -> u32 {
        if upto <= m {
            return 0;
        }
        let q = m + 1;
        let multiples = upto / q;
        if own <= opp {
            // The multiples of q below (own + 1) q, then every pile from there.
            let tail = match (u32::from(own) + 1).checked_mul(q) {
                Some(from) if upto >= from => upto - from + 1,
                _ => 0,
            };
            multiples.min(u32::from(own)) + tail
        } else {
            multiples.min(u32::from(opp) + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Position, MAX_STONES};
    use std::{vec, vec::Vec};

    /// The capless game by its definition: take up to `m`; a take that leaves
    /// stones must spend a reset and hands the opponent `(s - t, opp, own - 1)`.
    fn capless_by_recursion(
        s: u32,
        own: u8,
        opp: u8,
        m: u32,
        memo: &mut Vec<Option<bool>>,
    ) -> bool {
        let at = (s as usize * 8 + usize::from(own)) * 8 + usize::from(opp);
        if let Some(Some(v)) = memo.get(at) {
            return *v;
        }
        let v = s <= m
            || (own > 0
                && (1..=m.min(s - 1)).any(|t| !capless_by_recursion(s - t, opp, own - 1, m, memo)));
        memo[at] = Some(v);
        v
    }

    #[test]
    fn capless_closed_form_matches_the_recursion() {
        for m in 1..=7u32 {
            let top = 12 * (m + 1);
            let mut memo = vec![None; (top as usize + 1) * 64];
            for s in 1..=top {
                for own in 0..8u8 {
                    for opp in 0..8u8 {
                        assert_eq!(
                            Position::capless_wins(s, own, opp, m),
                            capless_by_recursion(s, own, opp, m, &mut memo),
                            "s={s} own={own} opp={opp} m={m}"
                        );
                    }
                }
            }
        }
        // Far beyond any table: the resets alone decide.
        assert!(Position::capless_wins(1_000_000_000, 5, 4, 3));
        assert!(!Position::capless_wins(1_000_000_000, 4, 4, 3));
        assert!(Position::capless_wins(u32::MAX, 0, 0, u32::MAX));
    }

    #[test]
    fn a_trivial_run_holds_one_value_and_ends_where_it_changes_or_sooner() {
        for m in 1..=5u32 {
            for own in 0..5u8 {
                for opp in 0..5u8 {
                    for pending in [false, true] {
                        let top = 12 * (m + 1);
                        let layer = Position::new(1, top, own, opp, pending, m).unwrap();
                        let value = |s| layer.with_stones(s).unwrap().trivial_value().unwrap();
                        let mut s = 1;
                        while s <= top {
                            let end = layer.trivial_run_end(s);
                            assert!(end >= s);
                            for t in s..=end.min(top) {
                                assert_eq!(value(t), value(s), "m {m} ({own},{opp}) {s}..={end}");
                            }
                            s = end.saturating_add(1);
                        }
                    }
                }
            }
        }
        // A huge M: one run up to M and beyond, not one per pile.
        let layer = Position::new(1, MAX_STONES, 1, 1, true, 1 << 28).unwrap();
        assert_eq!(layer.trivial_run_end(5), 1 << 28);
    }

    #[test]
    fn capless_losses_count_the_lost_piles() {
        for m in 1..=5u32 {
            for own in 0..6u8 {
                for opp in 0..6u8 {
                    let mut lost = 0;
                    for s in 1..=10 * (m + 1) {
                        lost += u32::from(!Position::capless_wins(s, own, opp, m));
                        assert_eq!(Position::capless_losses(s, own, opp, m), lost);
                    }
                }
            }
        }
        assert_eq!(Position::capless_losses(0, 1, 1, 3), 0);
        // A tail that would start beyond u32: only multiples count.
        assert_eq!(Position::capless_losses(u32::MAX, 32, 32, 999_999_999), 4);
    }
}

/// The legal moves of one turn, the single enumeration every player, policy and
/// analysis uses: each take from 1 to `limit` without a reset, then (if the mover
/// has a reset left) each take again with one. Made by [`Position::moves`]; models
/// of wrong rules make it with their own limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moves {
    limit: u32,
    /// The next move, or `None` once every move has been yielded.
    next: Option<Move>,
    with_reset: bool,
}

impl Moves {
    /// The reset choices of a mover, in this order: without a reset, then with one
    /// when `reset_left`.
    pub const fn reset_choices(reset_left: bool) -> &'static [bool] {
        if reset_left {
            &[false, true]
        } else {
            &[false]
        }
    }

    /// The moves taking 1 to `limit` stones, then the same with a reset when
    /// `reset_left`.
    pub const fn new(limit: u32, reset_left: bool) -> Self {
        Moves {
            limit,
            next: if limit == 0 {
                None
            } else {
                Some(Move::new(1, false))
            },
            with_reset: reset_left,
        }
    }
}

impl Iterator for Moves {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let mv = self.next?;
        self.next = if mv.take < self.limit {
            Some(Move::new(mv.take.saturating_add(1), mv.reset))
        } else if !mv.reset && self.with_reset {
            Some(Move::new(1, true))
        } else {
            None
        };
        Some(mv)
    }

    /// The move `n` places on, in constant time (a root probe pages through the
    /// moves of a pile of any size).
    fn nth(&mut self, n: usize) -> Option<Move> {
        let mv = self.next?;
        let limit = u64::from(self.limit);
        let passes = if self.with_reset { 2 } else { 1 };
        let at = u64::from(mv.take.saturating_sub(1)) + if mv.reset { limit } else { 0 };
        let target = u64::try_from(n).ok().and_then(|n| at.checked_add(n));
        match target.filter(|&t| t < limit * passes) {
            Some(t) => {
                let (reset, take) = if t < limit {
                    (false, t)
                } else {
                    (true, t - limit)
                };
                // take < limit <= u32::MAX here.
                self.next = Some(Move::new(u32::try_from(take + 1).ok()?, reset));
                self.next()
            }
            None => {
                self.next = None;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = match self.next {
            None => 0,
            Some(mv) => {
                let this_pass = u64::from(self.limit.saturating_sub(mv.take)) + 1;
                let reset_pass = if !mv.reset && self.with_reset {
                    u64::from(self.limit)
                } else {
                    0
                };
                this_pass + reset_pass
            }
        };
        let left = usize::try_from(left).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Moves {}
