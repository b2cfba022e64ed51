//! A game replayed with the rules and an engine, to say where it was thrown
//! away: what `nimbot analyze` prints and the page's Analysis shows, computed
//! here so that both (and the tests) get the same verdicts; they only read the
//! file and render.
//!
//! The game comes from a platform game log ([`crate::game_log`]) or a record of
//! `--record` ([`crate::record`]), which is read as the log the server would have
//! written of the same game. For every move: the value of the position before it,
//! the winning moves there, whether the move threw a win away (a blunder: from a
//! won position it leaves the opponent a won one, or the server refuses it), and for
//! a player in a lost position how many plies it could still have held out against
//! best play. [`Analysis::summary`] then counts the blunders of each seat.

use nimbot::{
    evaluate_move, root_moves, DecideError, Engine, Game, IllegalMove, Move, Outcome, Params,
    Player, Position,
};
use serde::Serialize;
use std::fmt::Write as _;

use crate::notation::move_text;

use crate::game_log::{self, Log};
use crate::record::{self, Record};
use crate::vocab::MoveJson;
use nimbot_platform::wire::Reason;

/// What one move did.
pub struct Ply {
    /// The log's record of the move.
    pub record: game_log::Record,
    /// The mover (seat 0 moves first).
    pub seat: Player,
    /// The position the move was made in.
    pub before: Position,
    /// That position is won for the mover.
    pub won: bool,
    /// The winning moves there (none in a lost position).
    pub winning: Vec<Move>,
    /// The server's objection, if it refused the move.
    pub refused: Option<IllegalMove>,
    /// The move threw a win away (it leaves the opponent a won position) or was
    /// refused.
    pub blunder: bool,
    /// For a lost position: plies to the end when the winner is fastest and the
    /// loser holds out longest.
    pub hold_out: Option<u16>,
    /// Plies to the end from the position before the move, won or lost.
    pub distance: Option<u16>,
}

/// A game log replayed with the rules and the solver.
pub struct Analysis {
    /// N, from the log's first record.
    pub stones: u32,
    /// R, from the record or the caller.
    pub resets: u8,
    /// M, from the record or the caller.
    pub init_max: u32,
    /// The seats' names: a record's header, or a log's first records.
    pub names: [String; 2],
    /// Every move replayed, in order.
    pub plies: Vec<Ply>,
    /// The seat that won: by a record's end line, else by the rules (or by the
    /// server's refusal of the last move).
    pub winner: Option<usize>,
    /// The log's reason line.
    pub reason: Option<String>,
    /// Why the replay stopped early, if it did.
    pub note: Option<String>,
    /// Read from a record (which names N, R and M), not a platform log.
    pub from_record: bool,
}

/// Blunders per seat and the ply of each seat's first one.
pub struct Summary {
    /// Blunders of seat 0 and seat 1.
    pub blunders: [u32; 2],
    /// The ply (from 1) of each seat's first blunder.
    pub first: [Option<usize>; 2],
}

/// The moves that win from `pos`, by `engine`, in the root probe's order (no
/// reset first, takes ascending): its distinct moves, so a take above the pile or
/// a reset on the emptying take is not listed again.
fn winning_moves<E: Engine>(engine: &mut E, pos: &Position) -> Result<Vec<Move>, DecideError> {
    let mut out = Vec::new();
    for mv in root_moves(pos) {
        if evaluate_move(engine, pos, mv)?.value.is_won() {
            out.push(mv);
        }
    }
    Ok(out)
}

/// A record as the log the server would have written of the same game: one
/// record per judged move (the stones left by the rules; a refused move leaves
/// them), the reason line.
fn from_record(rec: &Record) -> Result<(Log, Params), String> {
    let h = &rec.header;
    let params = h.params()?;
    let mut game = Game::new(params);
    let mut records = Vec::new();
    for p in &rec.plies {
        let seat = if p.seat == 0 {
            Player::First
        } else {
            Player::Second
        };
        let mv = Move::new(p.take, p.reset);
        if !p.refused {
            game.play(seat, mv)
                .map_err(|e| format!("record ply {}: {e}", p.ply))?;
        }
        records.push(game_log::Record {
            name: h.names[usize::from(p.seat.min(1))].clone(),
            take: p.take,
            reset: p.reset,
            current_max: game.limit(),
            stones_left: game.stones(),
        });
    }
    let reason = rec.end.as_ref().map(|e| e.reason.clone());
    Ok((Log { records, reason }, params))
}

impl Analysis {
    /// Replay `text`, a platform log or a record (JSON lines, which name N, R and
    /// M themselves; `resets` and `init_max` are for a log, which does not), with
    /// the values and distances of `engine`.
    ///
    /// # Errors
    /// Text that is neither, a game that cannot be replayed or solved here: one
    /// line.
    pub fn of_text<E: Engine>(
        engine: &mut E,
        text: &str,
        resets: u8,
        init_max: u32,
    ) -> Result<Analysis, String> {
        if text.trim_start().starts_with('{') {
            let rec = record::parse(text)?;
            let (log, params) = from_record(&rec)?;
            let mut a = Analysis::replay(
                engine,
                &log,
                Some(params.stones()),
                params.resets(),
                params.init_max(),
            )?;
            // A record says itself who sat where and who won (a time loss or a
            // crash leaves no move that shows it).
            a.names = rec.header.names.clone();
            if let Some(w) = rec.end.as_ref().and_then(|e| e.winner) {
                a.winner = Some(usize::from(w.min(1)));
            }
            a.from_record = true;
            Ok(a)
        } else {
            Analysis::replay(engine, &game_log::parse(text)?, None, resets, init_max)
        }
    }

    /// Replay `log` for a game with `resets` and `init_max` (N is `stones` if given,
    /// else it comes from the log).
    ///
    /// # Errors
    /// A log without moves, a game that is not one or that `engine` cannot
    /// answer: one line.
    pub fn replay<E: Engine>(
        engine: &mut E,
        log: &Log,
        stones: Option<u32>,
        resets: u8,
        init_max: u32,
    ) -> Result<Analysis, String> {
        let first = log.records.first().ok_or("the log holds no move")?;
        // N from the first record; a refused first take left the pile as it was.
        let refused_first = log.records.len() == 1
            && log.reason.as_deref().is_some_and(|r| {
                matches!(
                    Reason::classify(r.as_bytes()),
                    Reason::IllegalMove | Reason::TimeLimit
                )
            });
        let stones = if let Some(n) = stones {
            n
        } else if refused_first {
            first.stones_left
        } else {
            first
                .stones_left
                .saturating_add(first.take.min(u32::MAX - first.stones_left))
        };
        let params = Params::new(stones, resets, init_max)
            .map_err(|e| format!("N = {stones} from the log: {e}"))?;
        let unanswered = |e: DecideError| match e {
            DecideError::TooLarge => format!("N = {stones} is too large to solve here"),
            e => format!("N = {stones}: {e}"),
        };
        let mut game = Game::new(params);
        let mut plies: Vec<Ply> = Vec::new();
        let mut note = None;
        for (i, rec) in log.records.iter().enumerate() {
            let seat = if i % 2 == 0 {
                Player::First
            } else {
                Player::Second
            };
            let Some(before) = game.position() else {
                note = Some(format!("record {} comes after the game ended", i + 1));
                break;
            };
            let eval = engine.evaluate(&before).map_err(unanswered)?;
            let won = eval.value.is_won();
            let mv = Move::new(rec.take, rec.reset);
            let refused = game.check(seat, mv).err();
            let leaves_won = match before.after(mv) {
                Ok(Some(next)) => engine.evaluate(&next).map_err(unanswered)?.value.is_won(),
                _ => false,
            };
            plies.push(Ply {
                record: rec.clone(),
                seat,
                before,
                won,
                winning: winning_moves(engine, &before).map_err(unanswered)?,
                refused,
                blunder: refused.is_some() || (won && leaves_won),
                hold_out: if won { None } else { eval.distance },
                distance: eval.distance,
            });
            if refused.is_some() {
                break;
            }
            if let Ok(Outcome::Continue) = game.play(seat, mv) {
                if game.stones() != rec.stones_left {
                    note = Some(format!(
                        "record {} says {} stones left, the rules say {}",
                        i + 1,
                        rec.stones_left,
                        game.stones()
                    ));
                    break;
                }
            }
        }
        let names = [0, 1].map(|s| {
            log.records
                .get(s)
                .map_or_else(|| "?".to_string(), |r| r.name.clone())
        });
        let winner = match game.winner() {
            Some(w) => Some(w.index()),
            None => plies
                .last()
                .filter(|p| p.refused.is_some())
                .map(|p| p.seat.other().index()),
        };
        Ok(Analysis {
            stones,
            resets,
            init_max,
            names,
            plies,
            winner,
            reason: log.reason.clone(),
            note,
            from_record: false,
        })
    }

    /// The blunders of each seat and where each seat's first one is.
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            blunders: [0; 2],
            first: [None; 2],
        };
        for (i, p) in self.plies.iter().enumerate().filter(|(_, p)| p.blunder) {
            let seat = p.seat.index();
            s.blunders[seat] += 1;
            s.first[seat].get_or_insert(i + 1);
        }
        s
    }

    /// One JSON line a move, then the summary's: what `nimbot analyze --json`
    /// prints (the vocabulary of [`crate::vocab`]).
    pub fn json_lines(&self) -> String {
        let mut out = String::new();
        let mut push = |line: String| out.push_str(&line);
        for (i, p) in self.plies.iter().enumerate() {
            push(crate::vocab::line(&PlyJson {
                ply: i + 1,
                seat: p.seat.index(),
                name: &p.record.name,
                take: p.record.take,
                reset: p.record.reset,
                stones_before: p.before.stones(),
                limit: p.before.limit(),
                value: if p.won { "win" } else { "lose" },
                winning_moves: p.winning.iter().map(|&m| MoveJson::from(m)).collect(),
                blunder: p.blunder,
                refused: p.refused.map(|r| r.to_string()),
                hold_out: p.hold_out,
                distance: p.distance,
                verdict: p.verdict(),
            }));
        }
        let s = self.summary();
        push(crate::vocab::line(&SummaryJson {
            stones: self.stones,
            resets: self.resets,
            init_max: self.init_max,
            plies: self.plies.len(),
            names: [&self.names[0], &self.names[1]],
            winner: self.winner,
            reason: self.reason.as_deref(),
            blunders: s.blunders,
            first_blunder_ply: s.first,
            note: self.note.as_deref(),
        }));
        out
    }

    /// A table of the moves, then the summary line.
    pub fn text(&self) -> String {
        let a = self;
        let mut out = String::new();
        let names = &a.names;
        let _ = writeln!(
            out,
            "N = {} (from the {}), R = {}, M = {}; seat 0: {}, seat 1: {}",
            a.stones,
            if a.from_record { "record" } else { "log" },
            a.resets,
            a.init_max,
            names[0],
            names[1]
        );
        let _ = writeln!(
            out,
            "{:>4} {:>4} {:>6} {:>6} {:>5} {:>9}  {:<26} winning moves",
            "ply", "seat", "move", "stones", "limit", "value", "verdict"
        );
        for (i, p) in a.plies.iter().enumerate() {
            let verdict = p.verdict();
            let winning = if p.winning.is_empty() {
                "-".to_string()
            } else {
                p.winning
                    .iter()
                    .map(|&m| move_text(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            // The mover's value and distance: the game's value history.
            let value = format!(
                "{} {}",
                if p.won { "win" } else { "lose" },
                p.distance.map_or("-".to_owned(), |d| d.to_string())
            );
            let _ = writeln!(
                out,
                "{:>4} {:>4} {:>6} {:>6} {:>5} {:>9}  {:<26} {}",
                i + 1,
                p.seat.index(),
                move_text(Move::new(p.record.take, p.record.reset)),
                p.before.stones(),
                p.before.limit(),
                value,
                verdict,
                winning
            );
        }
        let s = a.summary();
        let fb = |seat: usize| s.first[seat].map_or("none".into(), |p| format!("ply {p}"));
        let first_overall = match (s.first[0], s.first[1]) {
            (Some(a), Some(b)) if a < b => format!("seat 0 ({}) at ply {a}", names[0]),
            (Some(_), Some(b)) | (None, Some(b)) => format!("seat 1 ({}) at ply {b}", names[1]),
            (Some(a), None) => format!("seat 0 ({}) at ply {a}", names[0]),
            (None, None) => "none".into(),
        };
        let outcome = match (a.winner, &a.reason) {
            (Some(w), Some(r)) => format!("winner seat {w} ({}): {r}", names[w]),
            (Some(w), None) => format!("winner seat {w} ({}), no Game over line", names[w]),
            (None, Some(r)) => format!("no winner: {r}"),
            (None, None) => "unfinished (no Game over line)".into(),
        };
        let _ = writeln!(
            out,
            "summary: first blunder {first_overall}; blunders: seat 0 {} (first {}), seat 1 {} (first {}); {outcome}",
            s.blunders[0],
            fb(0),
            s.blunders[1],
            fb(1),
        );
        if let Some(n) = &a.note {
            let _ = writeln!(out, "note: {n}");
        }
        out
    }
}

impl Ply {
    /// What the move did, in words: `BLUNDER: refused (why)`, `BLUNDER: threw
    /// the win away`, `won, kept it`, `lost, could hold N plies` (or `lost`).
    pub fn verdict(&self) -> String {
        match (self.refused, self.won, self.blunder) {
            (Some(r), _, _) => format!("BLUNDER: refused ({r})"),
            (None, true, true) => "BLUNDER: threw the win away".into(),
            (None, true, false) => "won, kept it".into(),
            (None, false, _) => match self.hold_out {
                Some(d) => format!("lost, could hold {d} plies"),
                None => "lost".into(),
            },
        }
    }
}

/// One move as a JSON line.
#[derive(Serialize)]
struct PlyJson<'a> {
    ply: usize,
    seat: usize,
    name: &'a str,
    take: u32,
    reset: bool,
    stones_before: u32,
    limit: u32,
    /// "win" or "lose": the mover's position before the move.
    value: &'static str,
    /// The winning moves there.
    winning_moves: Vec<MoveJson>,
    blunder: bool,
    refused: Option<String>,
    hold_out: Option<u16>,
    /// Plies to the end from the position before the move.
    distance: Option<u16>,
    /// [`Ply::verdict`].
    verdict: String,
}

/// The game's summary as a JSON line.
#[derive(Serialize)]
struct SummaryJson<'a> {
    stones: u32,
    resets: u8,
    init_max: u32,
    plies: usize,
    names: [&'a str; 2],
    winner: Option<usize>,
    reason: Option<&'a str>,
    blunders: [u32; 2],
    first_blunder_ply: [Option<usize>; 2],
    note: Option<&'a str>,
}

/// The analysis of a Fibonacci Nim or Super-Nim record (its first line names the
/// game: `fibonacci N`, `super-nim H1,H2,... [cap C]`) as text or JSON lines
/// (`nodes`: the Super-Nim solver's budget), `None` for any other text.
pub fn related_game(text: &str, nodes: u64, json: bool) -> Option<Result<String, String>> {
    let head = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    match head.split_whitespace().next()? {
        "fibonacci" => Some(crate::fibonacci::explore::analyze(text, json)),
        "super-nim" | "supernim" => Some(crate::supernim::explore::analyze(text, nodes, json)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_says_who_sat_where_and_who_won_a_time_loss() {
        let text = concat!(
            r#"{"kind":"header","format":1,"command":"tournament","stones":20,"resets":4,"init_max":3,"names":["alice","bob"],"seat":null,"nimbot":"0.1.0","policy":null,"started_unix":1.0}"#,
            "\n",
            r#"{"kind":"ply","ply":1,"seat":0,"take":1,"reset":false,"value":"win","distance":9,"blunder":false,"refused":false,"clock":0.1}"#,
            "\n",
            r#"{"kind":"end","winner":0,"reason":"Player bob exceeded time limit"}"#,
            "\n"
        );
        let a = Analysis::of_text(
            &mut nimbot_solve::TableOrSolverEngine::embedded(),
            text,
            0,
            0,
        )
        .unwrap();
        assert_eq!(a.names, ["alice".to_string(), "bob".to_string()]);
        assert_eq!(a.winner, Some(0), "the end line names the winner");
        assert!(a.from_record);
        assert_eq!(a.stones, 20);
    }
}
