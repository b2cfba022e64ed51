//! The tournament platform's TCP client, as a state machine with no I/O.
//!
//! The host reads bytes from the socket into a [`Splitter`](super::json::Splitter)
//! (at most [`MAX_MESSAGE`](super::wire::MAX_MESSAGE) bytes an object) and hands every complete object to
//! [`Client::handle`]; whatever [`Step::Send`] returns is written to the socket in one
//! write. The machine follows docs/tournament.md:
//! - it sends [`Client::hello`] first, then expects the welcome
//!   `{"init_stones": N, "init_resets": R}` (`init_max` is used when present, M from
//!   the command line otherwise; `game_time` sets the clock; unknown keys are
//!   ignored);
//! - it keeps its own [`Game`] from each state's `stones_removed` and `reset_used`,
//!   knowing whose move each state reports from the turn order, and checks
//!   `stones_left` and both `resets_left` against it. `current_max` is ignored: copies
//!   of the server disagree on its meaning;
//! - it decides the result from the move sequence and the `reason` kind, since
//!   `winner` is only a name and names can collide; the name is a cross-check when the
//!   two players' names differ;
//! - it reads its own `time_taken` from each state. Once half of its clock is spent
//!   (the welcome's `game_time`, else [`DEFAULT_CLOCK`] seconds), it plays lost
//!   positions by [`Policy::First`], the cheapest policy, whatever policy it was
//!   given; won positions always get a winning move. Beyond a table a policy's
//!   search can cost milliseconds a move, and a lost game of a million stones has
//!   tens of thousands of them.

use heapless::Vec;

use super::json::{JsonError, Object, Value, Writer};
use super::wire::message::{keys, pieces};
use super::wire::{GameResult, Reason, DEFAULT_CLOCK, MAX_NAME};
use nimbot::{
    bot_move, DecideError, Engine, Game, Move, MoveError, Outcome, ParamError, Params, Player,
    Policy,
};

/// Room for one outgoing message (the hello with the longest escaped name fits).
pub const MAX_OUTGOING: usize = 6 * MAX_NAME + 40;

/// One message for the server, to be written in one write.
pub type Outgoing = Vec<u8, MAX_OUTGOING>;
/// Room for one move message (`{"order": 1, "num_stones": 4294967295, "reset": false}`).
pub const MAX_MOVE: usize = 64;
/// One move message.
pub type MoveMessage = Vec<u8, MAX_MOVE>;

/// What the host does after a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing to send; read on.
    Wait,
    /// Write these bytes (one move) in one write, then read on.
    Send(MoveMessage),
    /// The game is over; the server closes the connection.
    Finished(GameResult),
}

/// Why the client gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientError {
    /// A message was not a well-formed JSON object.
    Json(JsonError),
    /// The first message was not a welcome with `init_stones` and `init_resets`.
    BadWelcome,
    /// The welcome's parameters are out of range.
    Params(ParamError),
    /// A state message lacks a field or has it with the wrong type.
    MissingField(&'static str),
    /// The server reports something that contradicts the tracked game.
    Mismatch(&'static str),
    /// The engine cannot play this game.
    Engine(DecideError),
    /// The bot has no move to send (the engine failed or proposed an illegal move,
    /// which is never sent).
    Move(MoveError),
    /// A message arrived after the game ended.
    AfterEnd,
    /// The name is longer than [`MAX_NAME`] bytes.
    NameTooLong,
}

nimbot::error_from_as_str!(ClientError);

impl ClientError {
    /// A short, static description.
    pub const fn as_str(self) -> &'static str {
        match self {
            ClientError::Json(e) => e.as_str(),
            ClientError::BadWelcome => "first message is not a welcome",
            ClientError::Params(e) => e.as_str(),
            ClientError::MissingField(f) => f,
            ClientError::Mismatch(m) => m,
            ClientError::Engine(e) => e.as_str(),
            ClientError::Move(e) => e.as_str(),
            ClientError::AfterEnd => "message after the end of the game",
            ClientError::NameTooLong => "name too long",
        }
    }
}

/// One player's client for one game.
#[derive(Clone, Debug)]
pub struct Client {
    seat: Player,
    init_max: u32,
    name: Vec<u8, MAX_NAME>,
    game: Option<Game>,
    sent: Option<Move>,
    result: Option<GameResult>,
    policy: Policy,
    /// Microseconds of thinking time the game allows this player.
    clock: u64,
    /// Microseconds of it spent so far, by the server's last state.
    spent: u64,
}

impl Client {
    /// A client for `seat` named `name`; `init_max` is M unless the welcome says
    /// otherwise.
    pub fn new(seat: Player, name: &[u8], init_max: u32) -> Result<Self, ClientError> {
        let name = Vec::from_slice(name).map_err(|_| ClientError::NameTooLong)?;
        Ok(Client {
            seat,
            init_max,
            name,
            game: None,
            sent: None,
            result: None,
            policy: Policy::default(),
            clock: u64::from(DEFAULT_CLOCK) * 1_000_000,
            spent: 0,
        })
    }

    /// The same client, moving by `policy` in lost positions.
    pub fn with_policy(self, policy: Policy) -> Self {
        Client { policy, ..self }
    }

    /// Whether half of the clock is spent, so that lost positions get
    /// [`Policy::First`]'s move.
    fn hurried(&self) -> bool {
        self.spent >= self.clock / 2
    }

    /// The first message: `{"name": "...", "order": 0|1}`.
    pub fn hello(&self) -> Outgoing {
        let mut w = Writer::<MAX_OUTGOING>::new();
        w.raw(pieces::HELLO_NAME)
            .string(&self.name)
            .raw(pieces::HELLO_ORDER)
            .num(self.seat.index() as u64)
            .raw(b"}");
        // The buffer holds the longest escaped name; a truncated hello is impossible.
        w.finish().unwrap_or_default()
    }

    /// This client's seat.
    pub fn seat(&self) -> Player {
        self.seat
    }

    /// The game as tracked so far (after the welcome).
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Handle one complete message from the server.
    pub fn handle<E: Engine + ?Sized>(
        &mut self,
        msg: &[u8],
        engine: &mut E,
    ) -> Result<Step, ClientError> {
        if self.result.is_some() {
            return Err(ClientError::AfterEnd);
        }
        let obj = Object::parse(msg).map_err(ClientError::Json)?;
        match self.game {
            None => self.welcome(&obj, engine),
            Some(game) => self.state(game, &obj, engine),
        }
    }

    fn welcome<E: Engine + ?Sized>(
        &mut self,
        obj: &Object<'_>,
        engine: &mut E,
    ) -> Result<Step, ClientError> {
        let stones = obj.get(keys::INIT_STONES).and_then(|v| v.as_u32());
        let resets = obj.get(keys::INIT_RESETS).and_then(|v| v.as_u32());
        let (Some(stones), Some(resets)) = (stones, resets) else {
            return Err(ClientError::BadWelcome);
        };
        let init_max = match obj.get(keys::INIT_MAX) {
            None | Some(Value::Null) => self.init_max,
            Some(v) => v.as_u32().ok_or(ClientError::BadWelcome)?,
        };
        if let Some(clock) = obj.get(keys::GAME_TIME).and_then(|v| v.as_micros()) {
            self.clock = clock;
        }
        let resets = u8::try_from(resets).unwrap_or(u8::MAX);
        let params = Params::new(stones, resets, init_max).map_err(ClientError::Params)?;
        engine.prepare(&params).map_err(ClientError::Engine)?;
        let game = Game::new(params);
        self.game = Some(game);
        self.next_step(game, engine)
    }

    /// Our move if it is our turn, else wait.
    fn next_step<E: Engine + ?Sized>(
        &mut self,
        game: Game,
        engine: &mut E,
    ) -> Result<Step, ClientError> {
        if game.to_move() != self.seat {
            return Ok(Step::Wait);
        }
        let policy = if self.hurried() {
            Policy::First
        } else {
            self.policy
        };
        let mv = bot_move(engine, policy, &game, self.seat).map_err(ClientError::Move)?;
        self.sent = Some(mv);
        let mut w = Writer::<MAX_MOVE>::new();
        w.raw(pieces::MOVE_ORDER)
            .num(self.seat.index() as u64)
            .raw(pieces::MOVE_TAKE)
            .num(u64::from(mv.take))
            .raw(pieces::MOVE_RESET)
            .boolean(mv.reset)
            .raw(b"}");
        let bytes = w
            .finish()
            .map_err(|_| ClientError::Mismatch("move message overflow"))?;
        Ok(Step::Send(bytes))
    }

    fn state<E: Engine + ?Sized>(
        &mut self,
        mut game: Game,
        obj: &Object<'_>,
        engine: &mut E,
    ) -> Result<Step, ClientError> {
        if obj.get(keys::INIT_STONES).is_some() {
            return Err(ClientError::Mismatch("second welcome message"));
        }
        let finished = obj
            .get(keys::FINISHED)
            .and_then(|v| v.as_bool())
            .ok_or(ClientError::MissingField("no boolean finished"))?;
        let take = obj.get(keys::STONES_REMOVED).and_then(|v| v.as_u32());
        let reset = obj.get(keys::RESET_USED).and_then(|v| v.as_bool());
        let mover = game.to_move();
        if mover == self.seat && self.sent.is_none() {
            return Err(ClientError::Mismatch("state before our move"));
        }
        if !finished {
            let take = take.ok_or(ClientError::MissingField("no integer stones_removed"))?;
            let reset = reset.ok_or(ClientError::MissingField("no boolean reset_used"))?;
            let mv = Move::new(take, reset);
            if mover == self.seat && self.sent != Some(mv) {
                return Err(ClientError::Mismatch("state does not show our move"));
            }
            match game.play(mover, mv) {
                Ok(Outcome::Continue) => {}
                Ok(Outcome::Won(_)) => {
                    return Err(ClientError::Mismatch("pile empty but game not finished"))
                }
                Err(_) => return Err(ClientError::Mismatch("server accepted an illegal move")),
            }
            self.sent = None;
            self.cross_check(&game, obj)?;
            self.game = Some(game);
            return self.next_step(game, engine);
        }
        let reason_text = obj.get(keys::REASON).and_then(|v| v.as_str());
        let mut reason = reason_text.map_or(Reason::Unknown, Reason::classify);
        let played = match (take, reset) {
            (Some(k), Some(r)) => game.play(mover, Move::new(k, r)).ok(),
            _ => None,
        };
        let winner = match (reason.fault_winner(mover), played) {
            (Some(w), _) => w,
            (None, Some(Outcome::Won(p))) => {
                reason = Reason::Won;
                p
            }
            (None, _) if reason == Reason::Won => {
                return Err(ClientError::Mismatch(
                    "win reported but the pile is not empty",
                ))
            }
            (None, _) => self
                .winner_by_name(obj)
                .ok_or(ClientError::Mismatch("cannot tell who won"))?,
        };
        if let Some(by_name) = self.winner_by_name(obj) {
            if by_name != winner {
                return Err(ClientError::Mismatch("winner's name contradicts the moves"));
            }
        }
        let result = GameResult::new(winner, self.seat, reason, game.moves());
        self.game = Some(game);
        self.result = Some(result);
        Ok(Step::Finished(result))
    }

    /// The seat named by `winner`, when the two names differ (else `None`).
    fn winner_by_name(&self, obj: &Object<'_>) -> Option<Player> {
        let winner = obj.get(keys::WINNER)?.as_str()?;
        let name = |seat| seat_field(obj, seat, keys::NAME).and_then(|v| v.as_str());
        let (n0, n1) = (name(Player::First)?, name(Player::Second)?);
        if n0 == n1 {
            return None;
        }
        if winner == n0 {
            Some(Player::First)
        } else if winner == n1 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Checks the state's counts against `game`, and reads this client's clock.
    fn cross_check(&mut self, game: &Game, obj: &Object<'_>) -> Result<(), ClientError> {
        let left = obj
            .get(keys::STONES_LEFT)
            .and_then(|v| v.as_u32())
            .ok_or(ClientError::MissingField("no integer stones_left"))?;
        if left != game.stones() {
            return Err(ClientError::Mismatch("stones_left differs from the moves"));
        }
        if let Some(spent) =
            seat_field(obj, self.seat, keys::TIME_TAKEN).and_then(|v| v.as_micros())
        {
            self.spent = spent;
        }
        for seat in [Player::First, Player::Second] {
            let resets = seat_field(obj, seat, keys::RESETS_LEFT).and_then(|v| v.as_u32());
            // Copies without per-player blocks are tolerated; a wrong count is not.
            if let Some(r) = resets {
                if r != u32::from(game.resets_left(seat)) {
                    return Err(ClientError::Mismatch("resets_left differs from the moves"));
                }
            }
        }
        Ok(())
    }
}

/// `field` of `seat`'s block in a state (`player_0` or `player_1`).
fn seat_field<'a>(obj: &Object<'a>, seat: Player, field: &str) -> Option<Value<'a>> {
    let key = [keys::PLAYER_0, keys::PLAYER_1].get(seat.index())?;
    obj.get(key)?.as_object()?.get(field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::take_one::TakeOne;

    fn state(
        finished: bool,
        reason: &str,
        winner: &str,
        left: u32,
        k: u32,
        r: bool,
    ) -> std::string::String {
        std::format!(
            "{{\"finished\": {finished}, \"reason\": {reason}, \"winner\": {winner}, \"current_max\": 3, \
             \"stones_left\": {left}, \"stones_removed\": {k}, \"reset_used\": {r}, \
             \"player_0\": {{\"resets_left\": 1, \"time_taken\": 0.0, \"name\": \"a\"}}, \
             \"player_1\": {{\"resets_left\": 1, \"time_taken\": 0.0, \"name\": \"b\"}}}}"
        )
    }

    #[test]
    fn plays_a_short_game_as_first() {
        let mut c = Client::new(Player::First, b"a", 3).unwrap();
        assert_eq!(c.hello().as_slice(), br#"{"name": "a", "order": 0}"#);
        let mut e = TakeOne { reset: false };
        let step = c
            .handle(
                br#"{"init_stones": 3, "init_resets": 1, "extra": [1, {"x": null}]}"#,
                &mut e,
            )
            .unwrap();
        assert_eq!(
            step,
            Step::Send(
                Vec::from_slice(br#"{"order": 0, "num_stones": 1, "reset": false}"#).unwrap()
            )
        );
        let s = state(false, "null", "null", 2, 1, false);
        assert_eq!(c.handle(s.as_bytes(), &mut e), Ok(Step::Wait));
        let s = state(false, "null", "null", 1, 1, false);
        assert!(matches!(c.handle(s.as_bytes(), &mut e), Ok(Step::Send(_))));
        let s = state(
            true,
            "\"Player a won the game! Congrats!\"",
            "\"a\"",
            0,
            1,
            false,
        );
        let Ok(Step::Finished(r)) = c.handle(s.as_bytes(), &mut e) else {
            panic!()
        };
        assert!(r.won && r.reason == Reason::Won && r.moves == 3);
        assert_eq!(c.handle(s.as_bytes(), &mut e), Err(ClientError::AfterEnd));
    }

    #[test]
    fn detects_mismatches_and_judges_reasons() {
        let mut e = TakeOne { reset: false };
        let welcome = br#"{"init_stones": 10, "init_resets": 1, "init_max": 3, "game_time": 120}"#;
        let mut c = Client::new(Player::Second, b"b", 3).unwrap();
        assert_eq!(c.handle(welcome, &mut e), Ok(Step::Wait));
        let s = state(false, "null", "null", 8, 3, false);
        assert_eq!(
            c.clone().handle(s.as_bytes(), &mut e),
            Err(ClientError::Mismatch("stones_left differs from the moves"))
        );
        let s = state(false, "null", "null", 6, 4, false);
        assert_eq!(
            c.clone().handle(s.as_bytes(), &mut e),
            Err(ClientError::Mismatch("server accepted an illegal move"))
        );
        // resets_left is 1 for both in `state`: a reset by the opponent contradicts it.
        let s = state(false, "null", "null", 7, 3, true);
        assert_eq!(
            c.clone().handle(s.as_bytes(), &mut e),
            Err(ClientError::Mismatch("resets_left differs from the moves"))
        );
        // The opponent times out: we win, whatever stones_removed says.
        let s = state(
            true,
            "\"Player a exceeded time limit\"",
            "\"b\"",
            10,
            0,
            false,
        );
        let Ok(Step::Finished(r)) = c.clone().handle(s.as_bytes(), &mut e) else {
            panic!()
        };
        assert!(r.won && r.reason == Reason::TimeLimit);
        // A winner's name that contradicts the reason is a mismatch.
        let s = state(
            true,
            "\"Player a made an illegal move\"",
            "\"a\"",
            10,
            9,
            false,
        );
        assert!(matches!(
            c.clone().handle(s.as_bytes(), &mut e),
            Err(ClientError::Mismatch(_))
        ));
        assert_eq!(
            c.clone().handle(b"{\"finished\": false", &mut e),
            Err(ClientError::Json(JsonError::Syntax))
        );
        assert_eq!(
            c.handle(b"{\"finished\": false}", &mut e),
            Err(ClientError::MissingField("no integer stones_removed"))
        );
    }

    /// Takes one stone and remembers the policy it was asked to play.
    struct Spy(Option<Policy>);

    impl Engine for Spy {
        fn limits(&self) -> nimbot::Limits {
            TakeOne { reset: false }.limits()
        }
        fn prepare(&mut self, _: &Params) -> Result<(), DecideError> {
            Ok(())
        }
        fn decide(
            &mut self,
            pos: &nimbot::Position,
            policy: Policy,
        ) -> Result<nimbot::Decision, DecideError> {
            self.0 = Some(policy);
            TakeOne { reset: false }.decide(pos, policy)
        }
        fn evaluate(&mut self, pos: &nimbot::Position) -> Result<nimbot::Evaluation, DecideError> {
            TakeOne { reset: false }.evaluate(pos)
        }
    }

    /// A state after a take of one, with the first player's clock at `t0`.
    fn timed(left: u32, t0: &str) -> std::string::String {
        std::format!(
            "{{\"finished\": false, \"current_max\": 3, \"stones_left\": {left}, \
             \"stones_removed\": 1, \"reset_used\": false, \"init_max\": 3, \
             \"player_0\": {{\"resets_left\": 1, \"time_taken\": {t0}, \"name\": \"a\"}}, \
             \"player_1\": {{\"resets_left\": 1, \"time_taken\": 0.5, \"name\": \"b\"}}}}"
        )
    }

    /// The policy the client asks for after its clock reads `t0` (first seat).
    fn policy_after(client: &Client, welcome: &[u8], t0: &str) -> Option<Policy> {
        let mut c = client.clone();
        let mut e = Spy(None);
        assert!(matches!(c.handle(welcome, &mut e), Ok(Step::Send(_))));
        assert_eq!(e.0, Some(Policy::Trap));
        e.0 = None;
        assert_eq!(c.handle(timed(19, t0).as_bytes(), &mut e), Ok(Step::Wait));
        assert!(matches!(
            c.handle(timed(18, t0).as_bytes(), &mut e),
            Ok(Step::Send(_))
        ));
        e.0
    }

    #[test]
    fn plays_by_first_once_half_the_clock_is_spent() {
        let c = Client::new(Player::First, b"a", 3)
            .unwrap()
            .with_policy(Policy::Trap);
        let plain = br#"{"init_stones": 20, "init_resets": 1}"#;
        assert_eq!(policy_after(&c, plain, "0"), Some(Policy::Trap));
        assert_eq!(policy_after(&c, plain, "59.999999"), Some(Policy::Trap));
        assert_eq!(policy_after(&c, plain, "60"), Some(Policy::First));
        assert_eq!(policy_after(&c, plain, "61"), Some(Policy::First));
        // A number the client cannot read leaves the clock as it was.
        assert_eq!(policy_after(&c, plain, "7e9"), Some(Policy::Trap));
        // The welcome's game_time beats the client's own clock.
        let short = br#"{"init_stones": 20, "init_resets": 1, "game_time": 10}"#;
        assert_eq!(policy_after(&c, short, "4.9"), Some(Policy::Trap));
        assert_eq!(policy_after(&c, short, "5.0"), Some(Policy::First));
        // A clock in fractions of a second (a tournament's `-t 1.5`).
        let fraction = br#"{"init_stones": 20, "init_resets": 1, "game_time": 1.5}"#;
        assert_eq!(policy_after(&c, fraction, "0.749999"), Some(Policy::Trap));
        assert_eq!(policy_after(&c, fraction, "0.75"), Some(Policy::First));
        let long = br#"{"init_stones": 20, "init_resets": 1, "game_time": 1000}"#;
        assert_eq!(policy_after(&c, long, "499.999999"), Some(Policy::Trap));
        assert_eq!(policy_after(&c, long, "500"), Some(Policy::First));
    }
}
