//! `nimbot analyze GAME-LOG`: replay a platform game log (or a game record of
//! `--record`, [`crate::record`]) with the rules and the solver, and say where the
//! game was thrown away.
//!
//! For every move: the value of the position before it, the winning moves there,
//! whether the move threw a win away (a blunder: from a won position it leaves the
//! opponent a won one, or the server refuses it), and for a player in a lost position
//! how many plies it could still have held out against best play. Then a summary:
//! the first blunder and the blunders of each seat.
//!
//! Three steps: [`Analysis::replay`] computes (the log against the rules and the
//! solver), [`Analysis::summary`] reports (blunders per seat, the winner) and
//! [`render_text`] or [`render_json`] renders.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use nimbot::distance::Distances;
use nimbot::engine::SolvingEngine;
use nimbot::rules::IllegalMove;
use nimbot::solver::{Solution, SolveBox};
use nimbot::strategy::position_value;
use nimbot::Value;
use nimbot::{Game, Move, Outcome, Params, Player, Position};
use serde::Serialize;

use crate::game_log::{self, Log, Record};
use crate::json;
use crate::record;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  nimbot analyze game-log.txt\n  nimbot analyze game-log.txt --resets 4 --init-max 3 --json"
)]
pub struct AnalyzeArgs {
    /// The server's game log (`game-log.txt`) or a record of `--record` (JSON
    /// lines, which name N, R and M themselves); `-` reads stdin.
    log: PathBuf,
    /// R: resets each player had (the log does not say).
    #[arg(long, short = 'r', default_value_t = 4)]
    resets: u8,
    /// M: the initial maximum (the log does not say).
    #[arg(long, short = 'm', default_value_t = 3)]
    init_max: u32,
    /// One JSON object per move, then a summary object.
    #[arg(long)]
    json: bool,
}

/// What one move did.
struct Ply {
    record: Record,
    seat: Player,
    before: Position,
    won: bool,
    winning: Vec<Move>,
    /// The server's objection, if it refused the move.
    refused: Option<IllegalMove>,
    blunder: bool,
    /// For a lost position: plies to the end when the winner is fastest and the
    /// loser holds out longest.
    hold_out: Option<u16>,
    /// Plies to the end from the position before the move, won or lost.
    distance: Option<u16>,
}

/// A game log replayed with the rules and the solver.
struct Analysis {
    /// N, from the log's first record.
    stones: u32,
    resets: u8,
    init_max: u32,
    /// The seats' names, from their first records.
    names: [String; 2],
    plies: Vec<Ply>,
    /// The seat that won by the rules (or by the server's refusal of the last move).
    winner: Option<usize>,
    /// The log's reason line.
    reason: Option<String>,
    /// Why the replay stopped early, if it did.
    note: Option<String>,
}

/// Blunders per seat and the ply of each seat's first one.
struct Summary {
    blunders: [u32; 2],
    first: [Option<usize>; 2],
}

fn fmt_move(m: Move) -> String {
    format!("{}{}", m.take, if m.reset { "r" } else { "" })
}

fn winning_moves(sol: &Solution, pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for reset in [false, true] {
        if reset && pos.own_resets() == 0 {
            continue;
        }
        for take in 1..=pos.limit().min(pos.stones()) {
            let mv = Move::new(take, reset);
            let wins = match pos.after(mv) {
                Ok(None) => !reset,
                Ok(Some(next)) => position_value(sol, &next) == Ok(Value::Lost),
                Err(_) => false,
            };
            if wins {
                out.push(mv);
            }
        }
    }
    out
}

pub fn run(args: &AnalyzeArgs) -> ExitCode {
    let analysis = read_log(&args.log).and_then(|input| match input {
        Input::Log(log) => Analysis::replay(&log, None, args.resets, args.init_max),
        Input::Record(log, params) => Analysis::replay(
            &log,
            Some(params.stones()),
            params.resets(),
            params.init_max(),
        ),
    });
    match analysis {
        Ok(a) => {
            let text = if args.json {
                render_json(&a)
            } else {
                render_text(&a)
            };
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nimbot analyze: {e}");
            ExitCode::from(2)
        }
    }
}

/// What `analyze` reads: a platform log, or a record with its game's parameters.
enum Input {
    Log(Log),
    Record(Log, Params),
}

/// The log or record at `path` (`-`: stdin), parsed: a record is JSON lines.
fn read_log(path: &Path) -> Result<Input, String> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
    };
    if text.trim_start().starts_with('{') {
        from_record(&record::parse(&text)?)
    } else {
        game_log::parse(&text).map(Input::Log)
    }
}

/// A record as the log the server would have written of the same game: one
/// record per judged move (the stones left by the rules; a refused move leaves
/// them), the reason line.
fn from_record(rec: &record::Record) -> Result<Input, String> {
    let h = &rec.header;
    let params = Params::new(h.stones, h.resets, h.init_max)
        .map_err(|e| format!("the record's game (N = {}): {e}", h.stones))?;
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
        records.push(Record {
            name: h.names[usize::from(p.seat.min(1))].clone(),
            take: p.take,
            reset: p.reset,
            current_max: game.limit(),
            stones_left: game.stones(),
        });
    }
    let reason = rec.end.as_ref().map(|e| e.reason.clone());
    Ok(Input::Record(Log { records, reason }, params))
}

impl Analysis {
    /// Replay `log` for a game with `resets` and `init_max` (N is `stones` if given,
    /// else it comes from the log).
    fn replay(
        log: &Log,
        stones: Option<u32>,
        resets: u8,
        init_max: u32,
    ) -> Result<Analysis, String> {
        let first = log.records.first().ok_or("the log holds no move")?;
        // N from the first record; a refused first take left the pile as it was.
        let refused_first = log.records.len() == 1
            && log.reason.as_deref().is_some_and(|r| {
                r.ends_with("made an illegal move") || r.ends_with("exceeded time limit")
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
        let bx = SolveBox::games(stones, resets, init_max);
        if bx.stored_positions() > SolvingEngine::DEFAULT_BUDGET {
            return Err(format!("N = {stones} is too large to solve here"));
        }
        let sol = Solution::solve(bx).map_err(|e| e.to_string())?;
        let dist = Distances::solve(bx).map_err(|e| e.to_string())?;
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
            let won = position_value(&sol, &before) == Ok(Value::Won);
            let mv = Move::new(rec.take, rec.reset);
            let refused = game.check(seat, mv).err();
            let leaves_won = match before.after(mv) {
                Ok(Some(next)) => position_value(&sol, &next) == Ok(Value::Won),
                _ => false,
            };
            plies.push(Ply {
                record: rec.clone(),
                seat,
                before,
                won,
                winning: winning_moves(&sol, &before),
                refused,
                blunder: refused.is_some() || (won && leaves_won),
                hold_out: if won { None } else { dist.get(&before) },
                distance: dist.get(&before),
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
        })
    }

    /// The blunders of each seat and where each seat's first one is.
    fn summary(&self) -> Summary {
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
}

/// One move as a JSON line.
#[derive(Serialize)]
struct PlyLine<'a> {
    ply: usize,
    seat: usize,
    name: &'a str,
    take: u32,
    reset: bool,
    stones_before: u32,
    limit: u32,
    value: &'static str,
    /// `[take, reset]` pairs, reset as 0 or 1.
    winning_moves: Vec<[u32; 2]>,
    blunder: bool,
    refused: Option<String>,
    hold_out: Option<u16>,
    /// Plies to the end from the position before the move.
    distance: Option<u16>,
}

/// The game's summary as a JSON line.
#[derive(Serialize)]
struct SummaryLine<'a> {
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

/// One JSON object per move, then the summary object.
fn render_json(a: &Analysis) -> String {
    let mut out = String::new();
    for (i, p) in a.plies.iter().enumerate() {
        out += &json::line(&PlyLine {
            ply: i + 1,
            seat: p.seat.index(),
            name: &p.record.name,
            take: p.record.take,
            reset: p.record.reset,
            stones_before: p.before.stones(),
            limit: p.before.limit(),
            value: if p.won { "won" } else { "lost" },
            winning_moves: p
                .winning
                .iter()
                .map(|m| [m.take, u32::from(m.reset)])
                .collect(),
            blunder: p.blunder,
            refused: p.refused.map(|r| r.to_string()),
            hold_out: p.hold_out,
            distance: p.distance,
        });
    }
    let s = a.summary();
    out += &json::line(&SummaryLine {
        stones: a.stones,
        resets: a.resets,
        init_max: a.init_max,
        plies: a.plies.len(),
        names: [&a.names[0], &a.names[1]],
        winner: a.winner,
        reason: a.reason.as_deref(),
        blunders: s.blunders,
        first_blunder_ply: s.first,
        note: a.note.as_deref(),
    });
    out
}

/// A table of the moves, then the summary line.
fn render_text(a: &Analysis) -> String {
    let mut out = String::new();
    let names = &a.names;
    let _ = writeln!(
        out,
        "N = {} (from the log), R = {}, M = {}; seat 0: {}, seat 1: {}",
        a.stones, a.resets, a.init_max, names[0], names[1]
    );
    let _ = writeln!(
        out,
        "{:>4} {:>4} {:>6} {:>6} {:>5} {:>9}  {:<26} winning moves",
        "ply", "seat", "move", "stones", "limit", "value", "verdict"
    );
    for (i, p) in a.plies.iter().enumerate() {
        let verdict = match (p.refused, p.won, p.blunder) {
            (Some(r), _, _) => format!("BLUNDER: refused ({r})"),
            (None, true, true) => "BLUNDER: threw the win away".into(),
            (None, true, false) => "won, kept it".into(),
            (None, false, _) => match p.hold_out {
                Some(d) => format!("lost, could hold {d} plies"),
                None => "lost".into(),
            },
        };
        let winning = if p.winning.is_empty() {
            "-".to_string()
        } else {
            p.winning
                .iter()
                .map(|&m| fmt_move(m))
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
            fmt_move(Move::new(p.record.take, p.record.reset)),
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
