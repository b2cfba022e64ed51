//! A finished game as a client sees it: who won, why, after how many moves, its
//! one-line summary, and the exit status of the command that played it.

use heapless::Vec;

use nimbot::{text::Decimal, Player};

use super::reason::Reason;

/// Room for a [`GameResult::summary`] line.
pub const MAX_SUMMARY: usize = 128;

/// How a finished game ended, as the client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The seat that won.
    pub winner: Player,
    /// True if that is this client's seat.
    pub won: bool,
    /// Why the game ended.
    pub reason: Reason,
    /// Moves applied (the final winning move included).
    pub moves: u32,
}

impl GameResult {
    /// The result for the client in `seat` of a game `winner` won after `moves` moves.
    pub fn new(winner: Player, seat: Player, reason: Reason, moves: u32) -> Self {
        GameResult {
            winner,
            won: winner == seat,
            reason,
            moves,
        }
    }

    /// The seat this client played.
    pub fn seat(&self) -> Player {
        if self.won {
            self.winner
        } else {
            self.winner.other()
        }
    }

    /// The one-line summary a command prints (without a line end), e.g.
    /// `nimbot connect: won as first after 7 moves (took the last stone)`.
    pub fn summary(&self, cmd: &str) -> Vec<u8, MAX_SUMMARY> {
        let seat = self.seat().name().as_bytes();
        let (how, why): (&[u8], &[u8]) = match (self.won, self.reason) {
            (true, Reason::Won) => (b"took the last stone", b""),
            (false, Reason::Won) => (b"the opponent took the last stone", b""),
            (true, other) => (b"the opponent lost by ", other.as_str().as_bytes()),
            (false, other) => (b"lost by ", other.as_str().as_bytes()),
        };
        let moves = Decimal::new(self.moves);
        let mut out = Vec::new();
        for part in [
            b"nimbot ".as_slice(),
            cmd.as_bytes(),
            if self.won {
                b": won as "
            } else {
                b": lost as "
            },
            seat,
            b" after ",
            &moves,
            b" moves (",
            how,
            why,
            b")",
        ] {
            for &b in part {
                let _ = out.push(b);
            }
        }
        out
    }

    /// The exit status of a command that played this game: [`EXIT_WON`] or
    /// [`EXIT_LOST`].
    pub fn exit_status(&self) -> u8 {
        if self.won {
            EXIT_WON
        } else {
            EXIT_LOST
        }
    }
}

/// Exit status of `connect` and `exp-nim` (host and tiny binary): the game was won.
pub const EXIT_WON: u8 = 0;
/// Exit status: the game was lost.
pub const EXIT_LOST: u8 = 1;
/// Exit status: the command line cannot make a game.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: no result (protocol, connection or state-mismatch error).
pub const EXIT_FAILED: u8 = 3;
