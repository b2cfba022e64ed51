//! What every part of the solver shares, and imports from here alone: the box of
//! games ([`SolveBox`]), why a solve fails ([`SolveError`]), fallible vectors
//! ([`filled`], [`Growing`]), a pile's storage and the caps of a box ([`Layers`]).
//! A leaf: it imports nothing of the solver, so that the solver's files import it
//! and never each other round a loop.

use alloc::vec::Vec;

use nimbot::{DecideError, Position, MAX_RESETS, MAX_STONES};

/// Why a box could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// `n_max` is 0 or above [`MAX_STONES`], or `init_max` is 0.
    BadParams,
    /// More resets than [`MAX_RESETS`], or than 7 for the windowed solver in a
    /// build with feature `small-solver` (the tiny binary).
    TooManyResets,
    /// `c_min` is below `init_max`.
    CapBelowInitMax,
    /// The allocator refused the memory the box needs (see [`SolveBox::memory_bytes`]).
    OutOfMemory,
    /// A distance to the end does not fit the 16 bits [`Distances`] keeps per
    /// position (boxes of well over 100,000 stones).
    ///
    /// [`Distances`]: crate::distance::Distances
    TooLong,
}

impl SolveError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            SolveError::BadParams => "stones or init max out of range",
            SolveError::TooManyResets => "too many resets for this solver",
            SolveError::CapBelowInitMax => "cap is below init max",
            SolveError::OutOfMemory => "not enough memory to solve the box",
            SolveError::TooLong => "a distance exceeds 65,534 plies",
        }
    }
}

nimbot::error_from_as_str!(SolveError);

/// An engine that solves on demand reports a box it has no memory for as too large
/// to solve here, and any other refusal as outside its limits.
impl From<SolveError> for DecideError {
    fn from(e: SolveError) -> Self {
        match e {
            SolveError::OutOfMemory | SolveError::TooLong => DecideError::TooLarge,
            _ => DecideError::OutOfRange,
        }
    }
}

/// A vector of `len` copies of `value`, or [`SolveError::OutOfMemory`]: the memory
/// is reserved fallibly first, and filled only while there is capacity, so no path
/// can grow the vector (which would abort when out of memory).
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>, SolveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| SolveError::OutOfMemory)?;
    while v.len() < len && v.len() < v.capacity() {
        v.push(value.clone());
    }
    Ok(v)
}

/// [`filled`] with values made by `make`, for items that are not `Clone` (the
/// shared solve's atomics) or dear to clone (the coder's token lists).
pub(crate) fn filled_with<T>(
    len: usize,
    mut make: impl FnMut() -> T,
) -> Result<Vec<T>, SolveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| SolveError::OutOfMemory)?;
    while v.len() < len && v.len() < v.capacity() {
        v.push(make());
    }
    Ok(v)
}

/// A vector that grows without ever calling `Vec::push` (whose growth path can
/// abort or panic, which the tiny binary's link-time guard refuses): when full,
/// its items move to a new array twice as long, reserved fallibly by [`filled`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Growing<T> {
    items: Vec<T>,
    len: usize,
}

impl<T: Copy + Default> Growing<T> {
    /// Append `value`, or [`SolveError::OutOfMemory`].
    #[inline(never)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), SolveError> {
        if self.len >= self.items.len() {
            let mut bigger = filled(self.items.len().saturating_mul(2).max(8), T::default())?;
            for (b, &old) in bigger.iter_mut().zip(self.items.iter()) {
                *b = old;
            }
            self.items = bigger;
        }
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = value;
            self.len += 1;
        }
        Ok(())
    }

    /// The items so far.
    pub(crate) fn as_slice(&self) -> &[T] {
        self.items.get(..self.len).unwrap_or(&[])
    }

    /// The last item.
    pub(crate) fn last_mut(&mut self) -> Option<&mut T> {
        self.items.get_mut(self.len.checked_sub(1)?)
    }

    /// Empty it, keeping its memory.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

/// The limits of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolveBox {
    /// Largest pile of a game in the box.
    pub n_max: u32,
    /// Resets per player; a box for R covers every smaller number.
    pub resets: u8,
    /// M, the initial maximum.
    pub init_max: u32,
    /// Smallest cap in the box: M for whole games.
    pub c_min: u32,
}

impl SolveBox {
    /// The box of all games with at most `n_max` stones, `resets` resets and initial max M.
    pub const fn games(n_max: u32, resets: u8, init_max: u32) -> Self {
        SolveBox {
            n_max,
            resets,
            init_max,
            c_min: init_max,
        }
    }

    /// The smallest box that holds `pos` (and so every position reachable from it).
    // One copy for its callers (the tiny binary's engine asks in three places).
    #[inline(never)]
    pub fn around(pos: &Position) -> Self {
        SolveBox {
            n_max: pos.stones(),
            resets: pos.own_resets().max(pos.opp_resets()),
            init_max: pos.init_max(),
            c_min: pos.cap(),
        }
    }

    pub(crate) fn validate(&self) -> Result<(), SolveError> {
        if self.n_max == 0 || self.n_max > MAX_STONES || self.init_max == 0 {
            return Err(SolveError::BadParams);
        }
        if self.resets > MAX_RESETS {
            return Err(SolveError::TooManyResets);
        }
        if self.c_min < self.init_max {
            return Err(SolveError::CapBelowInitMax);
        }
        Ok(())
    }

    /// Layers `(c, highest stored pile)` of the box, lowest cap first.
    pub(crate) fn layer_bounds(&self) -> Layers {
        Layers::new(self.n_max, self.c_min)
    }

    /// Positions the box stores (those with `c < s`), counting every reset pair and
    /// both values of f. Cheap: use it to refuse a box too large to solve.
    pub fn stored_positions(&self) -> u64 {
        if self.validate().is_err() {
            return 0;
        }
        let per_pile = 2 * (u64::from(self.resets) + 1).pow(2);
        self.layer_bounds()
            .map(|(c, hi)| u64::from(hi - c) * per_pile)
            .sum()
    }
}

/// Storage of one pile: the bit offset of the f = 1 plane, and words per pile. A
/// position `(a, b, f)` is bit `f * stride + a (R+1) + b`.
pub(crate) const fn storage(resets: u8) -> (usize, usize) {
    let r = resets as usize + 1;
    let rr = r * r;
    let stride = if 2 * rr <= 64 {
        rr
    } else {
        rr.div_ceil(64) * 64
    };
    (stride, (stride + rr).div_ceil(64))
}

/// The caps with stored piles, lowest first, as `(cap, highest stored pile)`: caps
/// `c_min, c_min + 1, ...` while some pile lies above the cap.
#[derive(Clone, Debug)]
pub(crate) struct Layers {
    c: u64,
    hi: u64,
}

impl Layers {
    /// The caps of the box of games of at most `n_max` stones from cap `c_min`.
    pub(crate) const fn new(n_max: u32, c_min: u32) -> Self {
        Layers {
            c: c_min as u64,
            hi: n_max as u64,
        }
    }
}

impl Iterator for Layers {
    type Item = (u32, u32);

    fn next(&mut self) -> Option<(u32, u32)> {
        if self.hi <= self.c {
            return None;
        }
        let out = (u32::try_from(self.c).ok()?, u32::try_from(self.hi).ok()?);
        self.hi -= self.c;
        self.c += 1;
        Some(out)
    }
}
