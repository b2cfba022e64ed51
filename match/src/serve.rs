//! `nimbot serve`: the referee's server for one game on the platform's wire
//! protocol, on the game loop ([`crate::game_loop`]) with hooks of its own: at
//! most [`MAX_CONNECTIONS`] open, a hello within 10 s, the first two hellos seated
//! by the order they ask for, what they send early judged once the game starts,
//! and the log, the platform's game log and the record written as it goes. Here
//! rather than in the CLI so that a test or another front end can referee a game
//! on a listener of its own.

use std::fs::File;
use std::io;
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use nimbot::Player;
use nimbot_platform::referee::Referee;
use nimbot_platform::wire::{State, MAX_NAME};

// The options and the log belong to the loop, which every game runs on.
use crate::game_loop::{run_game, text, Answer, Events, Hooks, Join, Kind};
pub use crate::game_loop::{Log, ServeOptions};
use crate::recorder::Recorder;
use nimbot_analysis::game_log;

/// Connections kept open at once while waiting for two valid hellos.
pub const MAX_CONNECTIONS: usize = 16;
/// A connection that sends no hello within this time is dropped.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// The platform-format game log, if asked for.
pub type GameLog = game_log::Writer<io::BufWriter<File>>;

/// Write the record of a judged move (`by` sent it) and, at the end, the reason,
/// from the state message the players get.
fn log_state(game_log: &mut Option<GameLog>, by: Option<&[u8]>, state: &[u8]) {
    let Some(w) = game_log.as_mut() else { return };
    let Ok(state) = State::parse(state) else {
        return;
    };
    if let Some(name) = by {
        let _ = w.record(&game_log::Record {
            name: text(name),
            take: state.stones_removed().unwrap_or(0),
            reset: state.reset_used() == Some(true),
            current_max: state.current_max().unwrap_or(0),
            stones_left: state.stones_left().unwrap_or(0),
        });
    }
    if let Some(end) = state.end() {
        let _ = w.game_over(&text(end.reason.unwrap_or_default()));
    }
}

/// `nimbot serve`'s hooks: at most [`MAX_CONNECTIONS`] open, a hello within
/// 10 s, the first two hellos seated by the order they ask for, what they send
/// early judged once the game starts, the log, the game log and the record.
struct Serving<'a> {
    log: &'a mut Log,
    game_log: &'a mut Option<GameLog>,
    recorder: &'a mut Option<Recorder>,
    /// The hello'd connections and the seats they ask for.
    hellos: Vec<(usize, Player)>,
}

impl Hooks for Serving<'_> {
    type Extra = ();
    const CLOSE_AT_START: bool = true;

    fn log(&mut self) -> Option<&mut Log> {
        Some(self.log)
    }

    fn on_connect(&mut self, _conn: usize, stream: &TcpStream, open: usize) -> bool {
        if open >= MAX_CONNECTIONS {
            let addr = stream
                .peer_addr()
                .map_or_else(|_| "?".into(), |a| a.to_string());
            self.log
                .line(&format!("refused {addr}: too many connections"));
            return false;
        }
        true
    }

    fn hello_timeout(&self) -> Option<Duration> {
        Some(HELLO_TIMEOUT)
    }

    fn on_hello(&mut self, conn: usize, _name: &[u8], asked: Player) -> Join {
        self.hellos.push((conn, asked));
        let [a, b] = match self.hellos[..] {
            [a, b] => [a, b],
            _ => return Join::Wait,
        };
        // Seat by order; equal orders keep the order of the connections.
        let mut two = if a.0 < b.0 { [a, b] } else { [b, a] };
        if two[0].1.index() > two[1].1.index() {
            two.swap(0, 1);
        }
        Join::Start(two.map(|s| s.0))
    }

    fn early(&mut self, _conn: usize, _kind: &Kind, _events: &Events<()>) -> bool {
        true
    }

    fn names(&mut self, hellos: [&[u8]; 2]) -> [heapless::Vec<u8, MAX_NAME>; 2] {
        hellos.map(|h| heapless::Vec::from_slice(h).unwrap_or_default())
    }

    fn on_start(&mut self, referee: &Referee) {
        if let Some(r) = self.recorder.as_mut() {
            r.names([Player::First, Player::Second].map(|p| text(referee.name(p))));
            r.game(Some(referee.game()), None);
        }
    }

    fn on_state(&mut self, referee: &Referee, state: &[u8], answer: Answer) {
        log_state(self.game_log, answer.from.map(|p| referee.name(p)), state);
        if let Some(r) = self.recorder.as_mut() {
            r.state(Some(referee.game()), state, answer.from.is_some());
        }
    }
}

/// Referee one game on `listener` (`nimbot serve`): seat the first two clients
/// with a valid hello (by the order they ask for; connections beyond
/// [`MAX_CONNECTIONS`], without a hello in time, or past the two are dropped),
/// play it to its end, writing the log, the platform's game log and the record
/// as it goes. The winner, `None` if the game ended without one.
///
/// # Errors
/// No game: two players did not join in time, or the server could not go on.
pub fn referee(
    options: &ServeOptions,
    listener: TcpListener,
    log: &mut Log,
    game_log: &mut Option<GameLog>,
    recorder: &mut Option<Recorder>,
) -> Result<Option<Player>, String> {
    let mut hooks = Serving {
        log,
        game_log,
        recorder,
        hellos: Vec::new(),
    };
    let referee = run_game(listener, options, &mut hooks, &Events::new())?;
    Ok(referee.and_then(|r| r.verdict()).map(|v| v.winner))
}
