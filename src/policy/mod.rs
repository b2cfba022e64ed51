//! How the bot moves in a lost position: the policies, in one place.
//!
//! A won position always gets a winning move ([`best_move`]); a lost one can only be
//! saved by an opponent's mistake, and a [`Policy`] is a bet on which mistake. Each
//! needs some knowledge of the game ([`Policy::needs`]): the value of positions (any
//! [`Oracle`], the flash table included), distances to the end (the in-memory
//! solver's distances, crate `nimbot-solve`) or models
//! of the opponent (`HostEngine` of the `nimbot-engine` crate). An engine plays the
//! policies its knowledge allows and refuses the others
//! ([`Engine::plays`](crate::Engine::plays)); none plays one under another's name.
//!
//! Here: the policies' names, [`Policy::decide`] for the ones that need values only
//! ([`Policy::First`], [`Policy::Trap`]), the trap criterion ([`reply_counts`]) and,
//! in `nimbot-solve`, `longest_move`; the won side's choice ([`Win`]) and the engine
//! adapter that plays it ([`WinChoice`](crate::WinChoice), in `win.rs`). The `exploit` policy's
//! ensemble of models lives in the `nimbot-engine` crate (it needs threads).

use crate::rules::{Move, Position};
use crate::strategy::{best_move, layer_runs, DecideError, Decision, Oracle};
use crate::text::{match_text, text, Text};
use crate::value::Value;

// The engine adapter that plays a won side's choice: it imports this file and the
// engine, so this file does not import it back (the crate's root re-exports it).
pub(crate) mod win;

/// How to move in a lost position. Won positions always get a winning move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The first legal move, "take 1, no reset": the baseline.
    First,
    /// Set a trap (the default): the move after which the opponent has the fewest
    /// winning replies (every legal reply counted, with and without a reset it has),
    /// then the smallest take (the game stays long, with more chances for the
    /// opponent to go wrong), then no reset (resets are kept). Needs only won/lost
    /// knowledge.
    #[default]
    Trap,
    /// Hold out longest: the move after which the game lasts longest when the
    /// opponent wins as fast as it can, then as [`Policy::Trap`]. Needs distances to
    /// the end of the solved game (`nimbot_solve::longest_move`).
    Longest,
    /// Exploit systematic error: weigh an ensemble of plausible wrong models of the
    /// game, learn during the game which ones fit the opponent's moves, and play the
    /// lost move after which the likeliest replies are real blunders (then as
    /// [`Policy::Trap`]). When no model of weight expects a blunder, or nothing is
    /// known of the opponent (a position outside a game), it holds out longest; while
    /// its models are still being solved (on another thread, from the first move of
    /// a game), or for games beyond them (N > 2000 or R > 6), it plays the trap.
    /// Needs the models (`exploit::HostEngine`).
    Exploit,
}

/// What a policy needs to know beyond the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Knowledge {
    /// The value of positions: any [`Oracle`], the flash table included.
    Values,
    /// Distances to the end of the solved game (the in-memory solver).
    Distances,
    /// Models of the opponent, learned during the game (the host's ensemble).
    Models,
}

/// The names of [`Policy::ALL`], in its order and separated by `|`, as a string
/// literal: what the line protocol's fixed texts (its usage line and summary) put
/// together with `concat!`, so that a new policy is named in this file only. A test
/// checks it against [`Policy::ALL`].
///
/// ```
/// assert_eq!(concat!("policy [", nimbot::policy_names!(), "]"), "policy [first|trap|longest|exploit]");
/// ```
#[macro_export]
macro_rules! policy_names {
    () => {
        "first|trap|longest|exploit"
    };
}

impl Policy {
    /// The policy's name in the line protocol and on the command line.
    pub const fn text(self) -> Text {
        match_text!(self, {
            Policy::First => "first",
            Policy::Trap => "trap",
            Policy::Longest => "longest",
            Policy::Exploit => "exploit",
        })
    }

    /// The policy called `name`, if any.
    pub fn from_name(name: &[u8]) -> Option<Self> {
        let i = crate::text::word_index(name, text!(policy_names!()), b'|')?;
        Self::ALL.get(i).copied()
    }

    /// What the policy needs to know: an engine without it refuses the policy.
    pub const fn needs(self) -> Knowledge {
        match self {
            Policy::First | Policy::Trap => Knowledge::Values,
            Policy::Longest => Knowledge::Distances,
            Policy::Exploit => Knowledge::Models,
        }
    }

    /// Every policy, in the order help texts list them: the registry the command
    /// line's values, the line protocol's help, the tiny binary's help and the docs'
    /// lists are derived from or checked against (the tidy test).
    pub const ALL: [Policy; 4] = [
        Policy::First,
        Policy::Trap,
        Policy::Longest,
        Policy::Exploit,
    ];

    /// One line on what the policy does, for help texts.
    pub const fn summary(self) -> &'static str {
        match self {
            Policy::First => "the first legal move (take 1, no reset): the baseline",
            Policy::Trap => "the move that leaves the opponent the fewest winning replies",
            Policy::Longest => "the move after which the game lasts longest (needs the solver)",
            Policy::Exploit => {
                "learn the opponent's wrong model during the game and play for its blunders (host only)"
            }
        }
    }
}

crate::text::str_from_text!(Policy);

/// How to move in a won position: which winning move. The won side's half of the
/// registry ([`Policy`] is the lost side's): its names, one line each and what each
/// needs, from which the command line's `--win` values are derived.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Win {
    /// The smallest winning take (the first winning move of [`Position::moves`]'
    /// order): every engine plays it, the flash table suffices.
    #[default]
    Smallest,
    /// The winning move after which the game ends soonest with best play (the least
    /// distance to the end), ties to the smaller take and no reset. Needs distances.
    Fastest,
}

impl Win {
    /// Every choice, in the order help texts list them.
    pub const ALL: [Win; 2] = [Win::Smallest, Win::Fastest];

    /// The choice's name on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            Win::Smallest => "smallest",
            Win::Fastest => "fastest",
        }
    }

    /// One line on what the choice does, for help texts.
    pub const fn summary(self) -> &'static str {
        match self {
            Win::Smallest => "the smallest winning take (the table suffices)",
            Win::Fastest => "the winning move that ends the game soonest (needs distances)",
        }
    }

    /// What the choice needs to know.
    pub const fn needs(self) -> Knowledge {
        match self {
            Win::Smallest => Knowledge::Values,
            Win::Fastest => Knowledge::Distances,
        }
    }
}

/// The opponent's replies from `q`: (winning ones, all legal ones), every legal
/// move counted ([`Position::moves`]: each take in `1..=limit`, with and without a
/// reset it has), so takes beyond the pile count as the wins they are.
pub fn reply_counts<O: Oracle + ?Sized>(
    oracle: &O,
    q: &Position,
) -> Result<(u32, u32), DecideError> {
    let mut winning = [0u32];
    let mut group = Group {
        layer: *q,
        lo: q.stones(),
        counts: &mut winning,
    };
    add_winning_replies(oracle, &mut group, None)?;
    let total = q
        .reset_choices()
        .iter()
        .fold(0u32, |t, _| t.saturating_add(q.limit()));
    Ok((winning[0], total))
}

/// Positions of one layer whose winning replies are counted together: the piles
/// `lo..=top` of `layer` (which holds the top pile), pile `x`'s count in
/// `counts[x - lo]`.
///
/// Whatever its pile, a position's replies land in few layers: for each reset
/// choice, the takes below the cap in one layer (a window of piles just below the
/// pile), the take of the cap itself in the next cap's layer. Neighbouring piles'
/// windows overlap, so each of those layers is read once for the whole group
/// ([`count_pass`]): a few layer reads instead of a few per position.
struct Group<'a> {
    layer: Position,
    lo: u32,
    counts: &'a mut [u32],
}

impl Group<'_> {
    fn top(&self) -> u32 {
        self.layer.stones()
    }

    /// Pile `x`'s count grows by `n` (wrapping: a window's count is added as the
    /// difference of two running counts, only the sum is exact).
    fn add(&mut self, x: u32, n: u32) {
        if let Some(k) = x
            .checked_sub(self.lo)
            .and_then(|i| self.counts.get_mut(i as usize))
        {
            *k = k.wrapping_add(n);
        }
    }

    /// The counts of the group's piles among `first + shift ..= last + shift` grow:
    /// pile `x` by `n(x - shift)`, where `n(y)` is `at_first` plus, if `rising`,
    /// `y - first`, negated if `negate`. The one loop of [`count_pass`]'s three
    /// (out of line: each inlined copy costs flash).
    #[inline(never)]
    fn add_run(
        &mut self,
        (first, last): (u32, u32),
        shift: u32,
        at_first: u32,
        rising: bool,
        negate: bool,
    ) {
        let lo = first.saturating_add(shift).max(self.lo);
        let hi = last.saturating_add(shift).min(self.top());
        for x in lo..=hi {
            let y = x.wrapping_sub(shift);
            let n = at_first.wrapping_add(if rising { y.wrapping_sub(first) } else { 0 });
            self.add(x, if negate { n.wrapping_neg() } else { n });
        }
    }

    /// Counts the takes of the whole pile or more: they end the game.
    #[inline(never)]
    fn add_emptying_takes(&mut self) {
        // Pile x (up to the limit) has limit + 1 - x of them: add_run's rising
        // count from x = lo, started at lo - limit - 1 and negated.
        let limit = self.layer.limit();
        let start = self.lo.wrapping_sub(limit).wrapping_sub(1);
        self.add_run((self.lo, limit), 0, start, true, true);
    }

    /// The most the replies below the cap take (from piles above it).
    fn width(&self) -> u32 {
        self.layer.limit().min(self.layer.cap().saturating_sub(1))
    }

    /// The layer the replies below the cap with `reset` land in, if any.
    fn below(&self, reset: bool) -> Option<Position> {
        if self.width() == 0 {
            return None;
        }
        self.layer.after(Move::new(1, reset)).ok().flatten()
    }

    /// The layer the reply taking the cap with `reset` lands in, if any.
    fn raised(&self, reset: bool) -> Option<Position> {
        let c = self.layer.cap();
        if self.layer.limit() < c {
            return None;
        }
        self.layer.after(Move::new(c, reset)).ok().flatten()
    }
}

/// Adds the opponent's winning replies to the counts of `near` and, if given, to
/// those of `far`, which must be `near`'s layer after a take of its cap (the layer
/// `near`'s cap-taking replies land in holds `far`'s replies below the cap too, so
/// it is read once for both), all but `far`'s replies taking its cap
/// ([`add_cap_replies`]: they only matter if `far` can still be the best).
fn add_winning_replies<O: Oracle + ?Sized>(
    oracle: &O,
    near: &mut Group<'_>,
    mut far: Option<&mut Group<'_>>,
) -> Result<(), DecideError> {
    for &reset in near.layer.reset_choices() {
        // Takes of the whole pile or more end the game.
        near.add_emptying_takes();
        if let Some(g) = far.as_deref_mut() {
            g.add_emptying_takes();
        }
        if let Some(dest) = near.below(reset) {
            count_pass(oracle, &dest, Some(&mut *near), None)?;
        }
        let far_below = far.as_deref().and_then(|g| g.below(reset));
        match near.raised(reset) {
            Some(dest) if far_below.is_some_and(|b| b.with_stones(dest.stones()) == Some(dest)) => {
                count_pass(oracle, &dest, far.as_deref_mut(), Some(&mut *near))?;
            }
            raised => {
                if let Some(dest) = raised {
                    count_pass(oracle, &dest, None, Some(&mut *near))?;
                }
                if let Some(dest) = far_below {
                    count_pass(oracle, &dest, far.as_deref_mut(), None)?;
                }
            }
        }
    }
    Ok(())
}

/// Adds the opponent's winning replies taking the cap to `group`'s counts: what
/// [`add_winning_replies`] leaves out of its `far` group.
fn add_cap_replies<O: Oracle + ?Sized>(
    oracle: &O,
    group: &mut Group<'_>,
) -> Result<(), DecideError> {
    for &reset in group.layer.reset_choices() {
        if let Some(dest) = group.raised(reset) {
            count_pass(oracle, &dest, None, Some(&mut *group))?;
        }
    }
    Ok(())
}

/// One read of the layer `dest` for the replies that land in it: `window`'s
/// replies below its cap (pile `x` reaches the piles `max(x - w, 1) ..= x - 1`,
/// counted as `P(x - 1) - P(x - w - 1)` with `P(y)` the lost piles read up to `y`)
/// and `point`'s replies taking its cap (pile `x` reaches pile `x - c`).
fn count_pass<O: Oracle + ?Sized>(
    oracle: &O,
    dest: &Position,
    mut window: Option<&mut Group<'_>>,
    mut point: Option<&mut Group<'_>>,
) -> Result<(), DecideError> {
    let (mut from, mut to) = (u32::MAX, 0u32);
    if let Some(g) = window.as_deref() {
        from = g.lo.saturating_sub(g.width()).max(1);
        to = g.top().saturating_sub(1);
    }
    if let Some(g) = point.as_deref() {
        let c = g.layer.cap();
        from = from.min(g.lo.max(c.saturating_add(1)).saturating_sub(c));
        to = to.max(g.top().saturating_sub(c));
    }
    if from > to {
        return Ok(());
    }
    // Lost piles read before the current run.
    let mut before = 0u32;
    layer_runs(oracle, dest, from, to, &mut |first, last, value| {
        count_run(
            &mut window,
            &mut point,
            &mut before,
            (first, last),
            value == Value::Lost,
        );
    })
}

/// [`count_pass`]'s work for one run `first..=last` of the layer, lost or won, with
/// `before` lost piles read ahead of it. A function of its own rather than the
/// closure's body: the compiler copies a closure's body into its `dyn` call stub.
#[inline(never)]
fn count_run(
    window: &mut Option<&mut Group<'_>>,
    point: &mut Option<&mut Group<'_>>,
    before: &mut u32,
    (first, last): (u32, u32),
    lost: bool,
) {
    // P(y) for y in first..=last: P(first), rising by one a pile when lost.
    let p_first = before.wrapping_add(u32::from(lost));
    if let Some(g) = window.as_deref_mut() {
        let step = g.width().saturating_add(1);
        // Pile x gains P(x - 1) and loses P(x - step).
        g.add_run((first, last), 1, p_first, lost, false);
        g.add_run((first, last), step, p_first, lost, true);
    }
    if lost {
        if let Some(g) = point.as_deref_mut() {
            g.add_run((first, last), g.layer.cap(), 1, false, false);
        }
        *before = before.wrapping_add(last - first + 1);
    }
}

impl Policy {
    /// The move for `pos` under this policy, for the policies won/lost knowledge suffices
    /// for: a winning move whenever `pos` is won (as [`best_move`]), else
    /// [`Policy::First`]'s or [`Policy::Trap`]'s.
    ///
    /// # Errors
    /// As [`best_move`]; [`DecideError::Unsupported`] for a policy that needs more than
    /// values ([`Policy::needs`]), in a lost position.
    pub fn decide<O: Oracle + ?Sized>(
        self,
        oracle: &O,
        pos: &Position,
    ) -> Result<Decision, DecideError> {
        won_else(oracle, pos, |first| match self {
            Policy::First => Ok(first),
            Policy::Trap => trap_move(oracle, pos),
            Policy::Longest | Policy::Exploit => Err(DecideError::Unsupported),
        })
    }
}

/// What every policy does: a winning move whenever `pos` is won (as [`best_move`]);
/// in a lost position the move `lost` chooses, given [`best_move`]'s.
fn won_else<O: Oracle + ?Sized>(
    oracle: &O,
    pos: &Position,
    lost: impl FnOnce(Move) -> Result<Move, DecideError>,
) -> Result<Decision, DecideError> {
    let d = best_move(oracle, pos)?;
    if d.value == Value::Won {
        return Ok(d);
    }
    Ok(Decision {
        mv: lost(d.mv)?,
        value: Value::Lost,
    })
}

/// The most moves [`trap_move`] counts the replies of together: the takes below
/// the cap of games up to 1,000 stones (a cap of at most 45) in one batch, so that
/// each layer the replies land in is read once.
const TRAP_BATCH: usize = 48;

/// [`Policy::Trap`]'s move in a lost position: the least (winning replies, take,
/// reset) over the legal moves.
///
/// For each reset choice, the takes below the cap all leave the opponent in one
/// layer (piles `s - 1, s - 2, ...`): their replies are counted together, in
/// batches of [`TRAP_BATCH`], with the cap's take, which leaves it in the next
/// cap's layer ([`add_winning_replies`]).
fn trap_move<O: Oracle + ?Sized>(oracle: &O, pos: &Position) -> Result<Move, DecideError> {
    let (s, c, limit) = (pos.stones(), pos.cap(), pos.limit());
    // (winning replies, move) of the best move so far.
    let mut best: Option<(u32, Move)> = None;
    let below = limit.min(c.saturating_sub(1)).min(s.saturating_sub(1));
    for &reset in pos.reset_choices() {
        // Taking the cap (below the pile), counted with the first batch.
        let cap_take = Move::new(c, reset);
        let cap_layer = match pos.after(cap_take) {
            Ok(Some(layer)) if limit >= c => Some(layer),
            _ => None,
        };
        let mut cap_count = [0u32];
        let mut far = cap_layer.map(|layer| Group {
            layer,
            lo: layer.stones(),
            counts: &mut cap_count,
        });
        // Takes first..=last leave piles s - last ..= s - first.
        let mut first = 1u32;
        while first <= below {
            let last = below.min(first.saturating_add(TRAP_BATCH as u32 - 1));
            let mut counts = [0u32; TRAP_BATCH];
            let counts = counts
                .get_mut(..(last - first) as usize + 1)
                .unwrap_or_default();
            if let Ok(Some(layer)) = pos.after(Move::new(first, reset)) {
                let mut near = Group {
                    layer,
                    lo: s - last,
                    counts,
                };
                add_winning_replies(oracle, &mut near, far.take().as_mut())?;
                // counts[i] is for pile s - last + i: the take last - i.
                for (take, &w) in (first..=last).rev().zip(near.counts.iter()) {
                    consider(&mut best, w, Move::new(take, reset));
                }
            }
            first = last.saturating_add(1);
        }
        let Some(layer) = cap_layer else {
            continue;
        };
        if let Some(mut g) = far.take() {
            // No take below the cap: the cap's take on its own.
            add_winning_replies(oracle, &mut g, None)?;
        } else if best.is_none_or(|(w, _)| cap_count[0] < w) {
            // The count so far is a lower bound, and the cap's take, the largest
            // take, needs strictly fewer winning replies than the best to beat it:
            // its replies taking the cap are read only when it still can.
            add_cap_replies(
                oracle,
                &mut Group {
                    layer,
                    lo: layer.stones(),
                    counts: &mut cap_count,
                },
            )?;
        }
        consider(&mut best, cap_count[0], cap_take);
    }
    Ok(best.map_or(Move::new(1, false), |(_, mv)| mv))
}

/// `best` becomes `(w, mv)` if that is less in (winning replies, take, reset).
fn consider(best: &mut Option<(u32, Move)>, w: u32, mv: Move) {
    if best.is_none_or(|(bw, b)| (w, mv.take, mv.reset) < (bw, b.take, b.reset)) {
        *best = Some((w, mv));
    }
}
