//! The referee's judging and messages, with no I/O: what `nimbot serve` says on the
//! wire, byte for byte like the platform's server (Python `json.dumps` layout).
//!
//! The host owns sockets and clocks. It parses each client's first object as a
//! [`Hello`](super::wire::Hello), seats the two players by `order`, sends [`welcome`], then feeds
//! every event to a [`Referee`]: a complete object from a player
//! ([`Referee::on_message`], with the time since its turn began), bytes that were not
//! an object ([`Referee::on_garbage`]), a closed connection ([`Referee::on_closed`]) or
//! an expired clock ([`Referee::on_timeout`]). Each returns the state message to send
//! to both players, if any.
//!
//! Judging order, as in docs/rules.md: a message from the player not to move loses for it
//! ("moved out of turn"); then the mover's cumulative time ("exceeded time limit");
//! then the take ("made an illegal move"; a message that is not a move object with an
//! integer `num_stones` counts as one); then the reset ("used too many resets"); then
//! the win. Beyond the stock server, which hangs or crashes on such clients: a player
//! whose clock runs out while it is to move, or whose connection is closed when its
//! turn comes, loses on time at once.

use heapless::Vec;

use super::json::Writer;
use super::wire::message::safe_name;
use super::wire::{
    End, MoveMessage, Reason, SeatState, StateFields, Welcome, MAX_NAME, MAX_REASON,
};
use nimbot::{Game, IllegalMove, Move, Outcome, Params, Player};

/// Room for one state message (two names of [`MAX_NAME`] bytes appear three times).
pub const MAX_STATE: usize = 768;
/// Room for the welcome message.
pub const MAX_WELCOME: usize = 128;

/// One state message.
pub type StateMessage = Vec<u8, MAX_STATE>;

/// What `current_max` reports in state messages: the course's server changed its
/// meaning in its commit "reset fix" (2018-09-20).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CurrentMax {
    /// The course's server before that commit: the limit of the next move (M after
    /// a reset).
    Limit,
    /// The course's server since that commit (its latest, which the student bots
    /// of later years target, computing their limit as `current_max + 1`): the
    /// largest take so far, or M - 1 after a reset (the limit minus one). The
    /// default.
    #[default]
    Largest,
}

/// The welcome: N and R, plus M and the clock `T` (whole seconds) when `extras` is
/// `Some(T)`, as some copies of the server send them.
pub fn welcome(params: &Params, extras: Option<u32>) -> Vec<u8, MAX_WELCOME> {
    let mut w = Writer::<MAX_WELCOME>::new();
    Welcome {
        stones: params.stones(),
        resets: u32::from(params.resets()),
        init_max: extras.map(|_| params.init_max()),
        game_time_us: extras.map(|secs| u64::from(secs) * 1_000_000),
    }
    .emit(&mut w);
    // Three u32 and a u64 fit in 128 bytes with room to spare.
    w.finish().unwrap_or_default()
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The seat that won.
    pub winner: Player,
    /// Why.
    pub reason: Reason,
}

/// One game being refereed.
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    names: [Vec<u8, MAX_NAME>; 2],
    used_us: [u64; 2],
    /// Whether each player's clock has been charged (its `time_taken` is the integer
    /// `0` until then, as the course's server prints it).
    charged: [bool; 2],
    limit_us: u64,
    meaning: CurrentMax,
    closed: [bool; 2],
    verdict: Option<Verdict>,
}

impl Referee {
    /// A game with `params` between `names` (first seat first; bytes JSON would
    /// escape become `_`, see [`safe_name`]), each player allowed `limit_us`
    /// microseconds of thinking in total.
    pub fn new(
        params: Params,
        names: [Vec<u8, MAX_NAME>; 2],
        limit_us: u64,
        meaning: CurrentMax,
    ) -> Self {
        Referee {
            game: Game::new(params),
            names: names.map(|n| safe_name(&n)),
            used_us: [0, 0],
            charged: [false, false],
            limit_us,
            meaning,
            closed: [false, false],
            verdict: None,
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The result, once the game is over.
    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// The player the referee waits for (meaningless once over).
    pub fn to_move(&self) -> Player {
        self.game.to_move()
    }

    /// Thinking time `player` has used, in microseconds.
    pub fn used_us(&self, player: Player) -> u64 {
        self.used_us.get(player.index()).copied().unwrap_or(0)
    }

    /// Thinking time `player` has left, in microseconds.
    pub fn remaining_us(&self, player: Player) -> u64 {
        self.limit_us.saturating_sub(self.used_us(player))
    }

    /// The mover's connection is gone or its clock ran out: it loses on time.
    /// `elapsed_us` is the time since its turn began.
    pub fn on_timeout(&mut self, elapsed_us: u64) -> Option<StateMessage> {
        if self.verdict.is_some() {
            return None;
        }
        let mover = self.game.to_move();
        self.charge(mover, elapsed_us);
        Some(self.finish(mover.other(), Reason::TimeLimit, Move::new(0, false)))
    }

    /// `player`'s connection closed. If it is to move it loses on time now; otherwise
    /// it loses when its turn comes (see [`Referee::closed_mover`]).
    pub fn on_closed(&mut self, player: Player, elapsed_us: u64) -> Option<StateMessage> {
        if let Some(c) = self.closed.get_mut(player.index()) {
            *c = true;
        }
        self.closed_mover(elapsed_us)
    }

    /// If the player to move has closed its connection, it loses on time.
    pub fn closed_mover(&mut self, elapsed_us: u64) -> Option<StateMessage> {
        let mover = self.game.to_move();
        if self.closed.get(mover.index()).copied().unwrap_or(false) {
            self.on_timeout(elapsed_us)
        } else {
            None
        }
    }

    /// `player` sent bytes that are not a JSON object (garbage, or too long): out of
    /// turn if it is not to move, otherwise an illegal move.
    pub fn on_garbage(&mut self, player: Player, elapsed_us: u64) -> Option<StateMessage> {
        self.judge(player, None, elapsed_us)
    }

    /// `player` sent the complete object `msg`, `elapsed_us` after its turn began.
    pub fn on_message(
        &mut self,
        player: Player,
        msg: &[u8],
        elapsed_us: u64,
    ) -> Option<StateMessage> {
        self.judge(player, Some(msg), elapsed_us)
    }

    fn charge(&mut self, player: Player, elapsed_us: u64) {
        if let Some(u) = self.used_us.get_mut(player.index()) {
            *u = u.saturating_add(elapsed_us);
        }
        if let Some(c) = self.charged.get_mut(player.index()) {
            *c = true;
        }
    }

    fn judge(
        &mut self,
        player: Player,
        msg: Option<&[u8]>,
        elapsed_us: u64,
    ) -> Option<StateMessage> {
        if self.verdict.is_some() {
            return None;
        }
        let mv = msg.and_then(|m| MoveMessage::parse(m).ok()).map(|m| m.mv);
        let shown = mv.unwrap_or(Move::new(0, false));
        if player != self.game.to_move() {
            return Some(self.finish(player.other(), Reason::OutOfTurn, shown));
        }
        self.charge(player, elapsed_us);
        if self.used_us(player) > self.limit_us {
            return Some(self.finish(player.other(), Reason::TimeLimit, shown));
        }
        let Some(mv) = mv else {
            return Some(self.finish(player.other(), Reason::IllegalMove, shown));
        };
        match self.game.play(player, mv) {
            Ok(Outcome::Won(p)) => Some(self.finish(p, Reason::Won, mv)),
            Ok(Outcome::Continue) => Some(self.state(mv)),
            Err(IllegalMove::NoResetsLeft) => {
                Some(self.finish(player.other(), Reason::TooManyResets, mv))
            }
            Err(IllegalMove::OutOfTurn) => Some(self.finish(player.other(), Reason::OutOfTurn, mv)),
            Err(_) => Some(self.finish(player.other(), Reason::IllegalMove, mv)),
        }
    }

    fn finish(&mut self, winner: Player, reason: Reason, mv: Move) -> StateMessage {
        self.verdict = Some(Verdict { winner, reason });
        self.state(mv)
    }

    /// The name of `player`.
    pub fn name(&self, player: Player) -> &[u8] {
        self.names.get(player.index()).map_or(&[], |n| n.as_slice())
    }

    /// The reason text of the verdict, e.g. `Player alice won the game! Congrats!`.
    pub fn reason_text(&self) -> Option<Vec<u8, MAX_REASON>> {
        let v = self.verdict?;
        let offender = match v.reason {
            Reason::Won => v.winner,
            _ => v.winner.other(),
        };
        Some(v.reason.text(self.name(offender)))
    }

    /// The state message after `mv` (the move shown in `stones_removed` and
    /// `reset_used`; for a refused move, the attempt), as the course's server
    /// (`NIM/manager.py`) builds it afresh for every move: `winner` and `reason` only
    /// in the message that ends the game, `init_max` in every one.
    fn state(&self, mv: Move) -> StateMessage {
        let g = &self.game;
        let current_max = match self.meaning {
            CurrentMax::Limit => g.limit(),
            CurrentMax::Largest => g.limit().saturating_sub(1),
        };
        let reason = self.reason_text();
        let end = self.verdict.map(|v| End {
            winner: Some(self.name(v.winner)),
            reason: reason.as_deref(),
        });
        let seat = |p: Player| {
            Some(SeatState {
                resets_left: Some(u32::from(g.resets_left(p))),
                time_taken_us: self
                    .charged
                    .get(p.index())
                    .copied()
                    .unwrap_or(false)
                    .then(|| self.used_us(p)),
                name: Some(self.name(p)),
            })
        };
        let state = StateFields {
            end,
            current_max: Some(current_max),
            stones_left: Some(g.stones()),
            stones_removed: Some(mv.take),
            reset_used: Some(mv.reset),
            init_max: Some(g.params().init_max()),
            players: [seat(Player::First), seat(Player::Second)],
        };
        let mut w = Writer::<MAX_STATE>::new();
        state.emit(&mut w);
        // Sized for the longest names; never truncated.
        w.finish().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> [Vec<u8, MAX_NAME>; 2] {
        [
            Vec::from_slice(b"alice").unwrap(),
            Vec::from_slice(b"bob").unwrap(),
        ]
    }

    /// The course server's bytes (`NIM/manager.py`, captured): N = 7, R = 1; A takes
    /// 2 with a reset, B takes 3, A takes the last 2.
    const COURSE: [&str; 3] = [
        r#"{"finished": false, "current_max": 2, "stones_left": 5, "stones_removed": 2, "reset_used": true, "init_max": 3, "player_0": {"resets_left": 0, "time_taken": 0.300359, "name": "A"}, "player_1": {"resets_left": 1, "time_taken": 0, "name": "B"}}"#,
        r#"{"finished": false, "current_max": 3, "stones_left": 2, "stones_removed": 3, "reset_used": false, "init_max": 3, "player_0": {"resets_left": 0, "time_taken": 0.300359, "name": "A"}, "player_1": {"resets_left": 1, "time_taken": 0.300412, "name": "B"}}"#,
        r#"{"finished": true, "winner": "A", "reason": "Player A won the game! Congrats!", "current_max": 3, "stones_left": 0, "stones_removed": 2, "reset_used": false, "init_max": 3, "player_0": {"resets_left": 0, "time_taken": 0.600915, "name": "A"}, "player_1": {"resets_left": 1, "time_taken": 0.300412, "name": "B"}}"#,
    ];

    fn course_game(meaning: CurrentMax) -> [std::string::String; 4] {
        let p = Params::new(7, 1, 3).unwrap();
        let names = [
            Vec::from_slice(b"A").unwrap(),
            Vec::from_slice(b"B").unwrap(),
        ];
        let mut r = Referee::new(p, names, 120_000_000, meaning);
        let text =
            |m: Option<StateMessage>| std::string::String::from_utf8(m.unwrap().to_vec()).unwrap();
        [
            std::string::String::from_utf8(welcome(&p, None).to_vec()).unwrap(),
            text(r.on_message(
                Player::First,
                br#"{"order": 0, "num_stones": 2, "reset": true}"#,
                300_359,
            )),
            text(r.on_message(
                Player::Second,
                br#"{"order": 1, "num_stones": 3, "reset": false}"#,
                300_412,
            )),
            text(r.on_message(
                Player::First,
                br#"{"order": 0, "num_stones": 2, "reset": false}"#,
                300_556,
            )),
        ]
    }

    #[test]
    fn messages_are_the_course_servers_bytes() {
        // After the commit "reset fix": current_max is the largest take so far.
        let got = course_game(CurrentMax::Largest);
        assert_eq!(got[0], r#"{"init_stones": 7, "init_resets": 1}"#);
        for (got, want) in got[1..].iter().zip(COURSE) {
            assert_eq!(got, want);
        }
        // Before it: the next move's limit (M after a reset, largest + 1 otherwise).
        let got = course_game(CurrentMax::Limit);
        for (i, (got, want)) in got[1..].iter().zip(COURSE).enumerate() {
            let limit = [
                "\"current_max\": 3",
                "\"current_max\": 4",
                "\"current_max\": 4",
            ][i];
            let want = want.replacen(
                [
                    "\"current_max\": 2",
                    "\"current_max\": 3",
                    "\"current_max\": 3",
                ][i],
                limit,
                1,
            );
            assert_eq!(*got, want);
        }
        let p = Params::new(7, 1, 3).unwrap();
        assert_eq!(
            welcome(&p, Some(120)).as_slice(),
            br#"{"init_stones": 7, "init_resets": 1, "init_max": 3, "game_time": 120}"#
        );
    }

    #[test]
    fn judging_order() {
        let p = Params::new(10, 1, 3).unwrap();
        let fresh = Referee::new(p, names(), 1_000, CurrentMax::Largest);
        let verdict = |mut r: Referee, who, msg: &[u8], us| {
            r.on_message(who, msg, us);
            r.verdict().map(|v| (v.winner, v.reason))
        };
        use Player::*;
        let mv = br#"{"num_stones": 3, "reset": true}"#;
        assert_eq!(
            verdict(fresh.clone(), Second, mv, 0),
            Some((First, Reason::OutOfTurn))
        );
        assert_eq!(
            verdict(fresh.clone(), First, mv, 1_001),
            Some((Second, Reason::TimeLimit))
        );
        assert_eq!(
            verdict(fresh.clone(), First, b"{\"num_stones\": 4}", 0),
            Some((Second, Reason::IllegalMove))
        );
        assert_eq!(
            verdict(fresh.clone(), First, b"{\"num_stones\": \"1\"}", 0),
            Some((Second, Reason::IllegalMove))
        );
        assert_eq!(
            verdict(fresh.clone(), First, b"{\"num_stones\": 0}", 0),
            Some((Second, Reason::IllegalMove))
        );
        assert_eq!(verdict(fresh.clone(), First, mv, 1_000), None);
        let mut r = fresh.clone();
        r.on_message(First, mv, 0);
        r.on_message(Second, b"{\"num_stones\": 1, \"reset\": 0}", 0);
        let s = r
            .on_message(First, b"{\"num_stones\": 4, \"reset\": 1}", 0)
            .unwrap();
        assert_eq!(
            r.verdict().map(|v| (v.winner, v.reason)),
            Some((Second, Reason::TooManyResets))
        );
        assert!(core::str::from_utf8(&s).unwrap().contains("\"winner\": \"bob\", \"reason\": \"Player alice used too many resets\", \"current_max\": 3"));
        let mut r = fresh.clone();
        assert!(r.on_closed(Second, 0).is_none());
        r.on_message(First, b"{\"num_stones\": 1}", 0);
        assert!(r.closed_mover(5).is_some());
        assert_eq!(
            r.verdict().map(|v| (v.winner, v.reason)),
            Some((First, Reason::TimeLimit))
        );
        let mut r = fresh;
        r.on_garbage(First, 0);
        assert_eq!(
            r.verdict().map(|v| (v.winner, v.reason)),
            Some((Second, Reason::IllegalMove))
        );
    }
}
