//! Game records (`--record FILE` on `connect`, `exp-nim` and `serve`, the page's
//! downloads): one JSON line of header, one per ply, one for the end, written with
//! serde when the game is over ([`write()`]) and read back ([`parse`]) by `nimbot
//! analyze` and the page's Analysis.
//!
//! ```text
//! {"kind":"header","format":1,"command":"connect","stones":20,"resets":4,"init_max":3,"names":["alice","bob"],"seat":0,"nimbot":"0.1.0","policy":"exploit","started_unix":1764000000.5}
//! {"kind":"ply","ply":1,"seat":0,"take":1,"reset":false,"value":"lose","distance":10,"blunder":false,"refused":false,"clock":0.0004}
//! {"kind":"end","winner":1,"reason":"Player bob won the game! Congrats!"}
//! ```
//!
//! A ply's `value` and `distance` are the mover's before the move (distance: plies
//! to the end when the winner hurries and the loser holds out, `null` if the game
//! is too large for distances); `blunder` is set when the mover throws a won
//! position away (the move leaves the opponent a won one) or the server refuses the
//! move; `clock` is the mover's thinking time for it, if known (the recorder of
//! `nimbot-match` says whose clock). The values come from an engine after the
//! game ([`weigh`]).

use nimbot::{Engine, Game, Move, Params, Player, Policy};
use serde::{Deserialize, Serialize};

use crate::vocab::round;

/// The version of the format, in every header.
pub const FORMAT: u32 = 1;

/// One line of a record.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    Header(Header),
    Ply(PlyLine),
    End(EndLine),
}

/// The game and who played it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Header {
    pub format: u32,
    /// The command that wrote it: connect, exp-nim or serve.
    pub command: String,
    pub stones: u32,
    pub resets: u8,
    pub init_max: u32,
    /// The seats' names (first seat first), as the server named them.
    pub names: [String; 2],
    /// nimbot's seat (0 first, 1 second); `null` for the referee.
    pub seat: Option<u8>,
    /// nimbot's version.
    pub nimbot: String,
    /// nimbot's lost-position policy; `null` for the referee.
    pub policy: Option<String>,
    /// When the record began, in seconds since 1970-01-01 UTC.
    pub started_unix: f64,
}

/// One ply.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PlyLine {
    /// From 1.
    pub ply: u32,
    /// The mover: 0 first, 1 second.
    pub seat: u8,
    pub take: u32,
    pub reset: bool,
    /// "win" or "lose": the mover's position before the move.
    pub value: String,
    /// Plies to the end from that position, if known.
    pub distance: Option<u16>,
    pub blunder: bool,
    /// The server refused the move (it ended the game).
    pub refused: bool,
    /// Seconds of the mover's clock the move took, if known.
    pub clock: Option<f64>,
}

impl PlyLine {
    /// The move it played.
    pub fn mv(&self) -> Move {
        Move::new(self.take, self.reset)
    }
}

/// How the game ended.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct EndLine {
    /// The winning seat, if the game was decided.
    pub winner: Option<u8>,
    /// The server's reason line, or why there is no result.
    pub reason: String,
}

impl Header {
    /// The header of a game of `params` written by `command` (nimbot's version
    /// filled in), begun at `started_unix` seconds since 1970 (kept to the
    /// millisecond).
    pub fn new(
        command: &str,
        params: Params,
        names: [String; 2],
        seat: Option<Player>,
        policy: Option<Policy>,
        started_unix: f64,
    ) -> Self {
        Header {
            format: FORMAT,
            command: command.to_owned(),
            stones: params.stones(),
            resets: params.resets(),
            init_max: params.init_max(),
            names,
            seat: seat.map(|s| s.index() as u8),
            nimbot: env!("CARGO_PKG_VERSION").to_owned(),
            policy: policy.map(|p| p.as_str().to_owned()),
            started_unix: round(started_unix, 3),
        }
    }

    /// The game's N, R and M.
    ///
    /// # Errors
    /// The header's numbers are not a game.
    pub fn params(&self) -> Result<Params, String> {
        Params::new(self.stones, self.resets, self.init_max)
            .map_err(|e| format!("the record's game (N = {}): {e}", self.stones))
    }
}

/// A ply as seen while the game was played; its value comes after the game
/// ([`weigh`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    /// The mover.
    pub seat: Player,
    pub mv: Move,
    /// The server refused the move (it ended the game).
    pub refused: bool,
    /// Seconds of the mover's clock the move took, if known.
    pub clock: Option<f64>,
}

impl Played {
    /// A move the rules accepted, on no clock.
    pub fn legal(seat: Player, mv: Move) -> Self {
        Played {
            seat,
            mv,
            refused: false,
            clock: None,
        }
    }
}

/// The plies of a game of `params` with the mover's value and distance before
/// each (from `engine`) and the blunders: a move that leaves the opponent a won
/// position from a won one, or one the rules (or the server) refuse, which ends
/// the record.
pub fn weigh<E: Engine>(engine: &mut E, params: Params, plies: &[Played]) -> Vec<PlyLine> {
    let mut game = Game::new(params);
    let mut lines = Vec::new();
    for (i, seen) in plies.iter().enumerate() {
        let Some(pos) = game.position() else { break };
        let eval = engine.evaluate(&pos).ok();
        let won = eval.is_some_and(|e| e.value.is_won());
        // A legal move that leaves the opponent a won position throws the win away.
        let leaves_won = match pos.after(seen.mv) {
            Ok(Some(next)) => engine.evaluate(&next).is_ok_and(|e| e.value.is_won()),
            _ => false,
        };
        let refused = seen.refused || game.check(seen.seat, seen.mv).is_err();
        lines.push(PlyLine {
            ply: i as u32 + 1,
            seat: seen.seat.index() as u8,
            take: seen.mv.take,
            reset: seen.mv.reset,
            value: if won { "win" } else { "lose" }.to_owned(),
            distance: eval.and_then(|e| e.distance),
            blunder: refused || (won && leaves_won),
            refused,
            clock: seen.clock.map(|c| round(c, 6)),
        });
        if refused || game.play(seen.seat, seen.mv).is_err() {
            break;
        }
    }
    lines
}

/// The record's text: the header, the plies and the end, one JSON line each.
pub fn write(header: &Header, plies: &[PlyLine], end: &EndLine) -> String {
    let mut out = String::new();
    let lines = core::iter::once(Line::Header(header.clone()))
        .chain(plies.iter().cloned().map(Line::Ply))
        .chain(core::iter::once(Line::End(end.clone())));
    for line in lines {
        out.push_str(&crate::vocab::line(&line));
    }
    out
}

/// The record of a game played from the start of `header`'s game by `moves`
/// (every one legal), weighed by `engine`: the winner is the rules' (`None` if
/// the moves stop before the end), the end line says `reason`.
///
/// # Errors
/// Not a game, or which move the rules refuse and why.
pub fn of_moves<E: Engine>(
    engine: &mut E,
    header: Header,
    moves: &[Move],
    reason: &str,
) -> Result<String, String> {
    let params = header.params()?;
    let game = crate::notation::play(params, moves)?;
    let mut seat = Player::First;
    let played: Vec<Played> = moves
        .iter()
        .map(|&mv| {
            let p = Played::legal(seat, mv);
            seat = seat.other();
            p
        })
        .collect();
    let plies = weigh(engine, params, &played);
    let end = EndLine {
        winner: game.winner().map(|w| w.index() as u8),
        reason: reason.to_owned(),
    };
    Ok(write(&header, &plies, &end))
}

/// A record read back: its header, plies and end.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub header: Header,
    pub plies: Vec<PlyLine>,
    pub end: Option<EndLine>,
}

impl Record {
    /// The moves of its plies, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.plies.iter().map(PlyLine::mv).collect()
    }
}

/// Read a record's text (JSON lines; blank lines are skipped).
pub fn parse(text: &str) -> Result<Record, String> {
    let mut header = None;
    let mut plies = Vec::new();
    let mut end = None;
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line =
            serde_json::from_str(raw).map_err(|e| format!("record line {}: {e}", i + 1))?;
        match line {
            Line::Header(h) if header.is_none() => {
                if h.format != FORMAT {
                    return Err(format!(
                        "record format {} (this nimbot reads {FORMAT})",
                        h.format
                    ));
                }
                header = Some(h);
            }
            Line::Header(_) => return Err(format!("record line {}: a second header", i + 1)),
            Line::Ply(p) => plies.push(p),
            Line::End(e) => end = Some(e),
        }
    }
    let header = header.ok_or("the record has no header line")?;
    Ok(Record { header, plies, end })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;
    use nimbot_solve::TableOrSolverEngine;

    fn header(params: Params) -> Header {
        let names = ["a \"quoted\" name".to_owned(), "b".to_owned()];
        Header::new("serve", params, names, None, Some(Policy::Trap), 1.23456)
    }

    #[test]
    fn a_written_record_reads_back_with_the_rules_winner_and_the_blunders() {
        // N = 8, R = 0: 1 wins from 8; taking 2 throws it away.
        let params = Params::new(8, 0, 3).unwrap();
        let mut engine = TableOrSolverEngine::embedded();
        let moves = parse_moves("2 3 1 2").unwrap();
        let text = of_moves(&mut engine, header(params), &moves, "over").unwrap();
        assert_eq!(text.lines().count(), moves.len() + 2);
        let rec = parse(&text).unwrap();
        assert_eq!(rec.header, header(params));
        assert_eq!(rec.header.started_unix, 1.235);
        assert_eq!(rec.moves(), moves);
        // The first move threw the win away; the distance falls to 1 at the end.
        assert!(rec.plies[0].blunder && rec.plies[0].value == "win");
        assert_eq!(rec.plies.last().unwrap().distance, Some(1));
        let end = rec.end.unwrap();
        assert_eq!((end.winner, end.reason.as_str()), (Some(1), "over"));
        // An illegal move is refused with its number.
        let bad = parse_moves("2 4").unwrap();
        let e = of_moves(&mut engine, header(params), &bad, "x").unwrap_err();
        assert!(e.starts_with("move 2 (4) is illegal"), "{e}");
    }

    #[test]
    fn bad_records_are_named_by_line() {
        let params = Params::new(8, 0, 3).unwrap();
        let head = crate::vocab::line(&Line::Header(header(params)));
        assert!(parse("").unwrap_err().contains("no header"));
        let e = parse(&format!("{head}{head}")).err().unwrap();
        assert_eq!(e, "record line 2: a second header");
        let e = parse(&format!("{head}{{\"kind\":\"ply\"}}\n"))
            .err()
            .unwrap();
        assert!(e.starts_with("record line 2:"), "{e}");
        let other = head.replace("\"format\":1", "\"format\":2");
        assert!(parse(&other).err().unwrap().contains("format 2"));
    }
}
