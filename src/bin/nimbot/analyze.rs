//! `nimbot analyze GAME-LOG`: replay a platform game log with the rules and the
//! solver, and say where the game was thrown away.
//!
//! For every move: the value of the position before it, the winning moves there,
//! whether the move threw a win away (a blunder: from a won position it leaves the
//! opponent a won one, or the server refuses it), and for a player in a lost position
//! how many plies it could still have held out against best play. Then a summary:
//! the first blunder and the blunders of each seat.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nimbot::distance::Distances;
use nimbot::engine::SolvingEngine;
use nimbot::rules::IllegalMove;
use nimbot::solver::{Solution, SolveBox};
use nimbot::strategy::position_value;
use nimbot::Value;
use nimbot::{Game, Move, Outcome, Params, Player, Position};

use crate::game_log::{self, Record};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  nimbot analyze game-log.txt\n  nimbot analyze game-log.txt --resets 4 --init-max 3 --json"
)]
pub struct AnalyzeArgs {
    /// The server's game log (`game-log.txt`); `-` reads stdin.
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
    match analyze(args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nimbot analyze: {e}");
            ExitCode::from(2)
        }
    }
}

fn analyze(args: &AnalyzeArgs) -> Result<String, String> {
    let text = if args.log.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))?
    } else {
        std::fs::read_to_string(&args.log)
            .map_err(|e| format!("cannot read {}: {e}", args.log.display()))?
    };
    let log = game_log::parse(&text)?;
    let first = log.records.first().ok_or("the log holds no move")?;
    // N from the first record; a refused first take left the pile as it was.
    let refused_first = log.records.len() == 1
        && log.reason.as_deref().is_some_and(|r| {
            r.ends_with("made an illegal move") || r.ends_with("exceeded time limit")
        });
    let stones = if refused_first {
        first.stones_left
    } else {
        first
            .stones_left
            .saturating_add(first.take.min(u32::MAX - first.stones_left))
    };
    let params = Params::new(stones, args.resets, args.init_max)
        .map_err(|e| format!("N = {stones} from the log: {e}"))?;
    let bx = SolveBox::games(stones, args.resets, args.init_max);
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
        let blunder = refused.is_some() || (won && leaves_won);
        plies.push(Ply {
            record: rec.clone(),
            seat,
            before,
            won,
            winning: winning_moves(&sol, &before),
            refused,
            blunder,
            hold_out: if won { None } else { dist.get(&before) },
        });
        if refused.is_some() {
            break;
        }
        match game.play(seat, mv) {
            Ok(Outcome::Continue) => {
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
            Ok(Outcome::Won(_)) | Err(_) => {}
        }
    }
    let names = [0, 1].map(|s| {
        log.records
            .get(s)
            .map_or_else(|| "?".to_string(), |r| r.name.clone())
    });
    let mut blunders = [0u32; 2];
    let mut first_blunder: [Option<usize>; 2] = [None, None];
    for (i, p) in plies.iter().enumerate() {
        if p.blunder {
            let s = p.seat.index();
            blunders[s] += 1;
            first_blunder[s].get_or_insert(i + 1);
        }
    }
    let winner = match game.winner() {
        Some(w) => Some(w.index()),
        None => plies
            .last()
            .filter(|p| p.refused.is_some())
            .map(|p| p.seat.other().index()),
    };
    let mut out = String::new();
    if args.json {
        for (i, p) in plies.iter().enumerate() {
            let winning: Vec<String> = p
                .winning
                .iter()
                .map(|m| format!("[{},{}]", m.take, u8::from(m.reset)))
                .collect();
            let _ = writeln!(
                out,
                "{{\"ply\":{},\"seat\":{},\"name\":{},\"take\":{},\"reset\":{},\"stones_before\":{},\"limit\":{},\"value\":\"{}\",\"winning_moves\":[{}],\"blunder\":{},\"refused\":{},\"hold_out\":{}}}",
                i + 1,
                p.seat.index(),
                json_str(&p.record.name),
                p.record.take,
                p.record.reset,
                p.before.stones(),
                p.before.limit(),
                if p.won { "won" } else { "lost" },
                winning.join(","),
                p.blunder,
                p.refused.map_or("null".into(), |r| json_str(&r.to_string())),
                p.hold_out.map_or("null".into(), |d| d.to_string()),
            );
        }
        let opt = |x: Option<usize>| x.map_or("null".into(), |v| v.to_string());
        let _ = writeln!(
            out,
            "{{\"stones\":{},\"resets\":{},\"init_max\":{},\"plies\":{},\"names\":[{},{}],\"winner\":{},\"reason\":{},\"blunders\":[{},{}],\"first_blunder_ply\":[{},{}],\"note\":{}}}",
            stones,
            args.resets,
            args.init_max,
            plies.len(),
            json_str(&names[0]),
            json_str(&names[1]),
            winner.map_or("null".into(), |w| w.to_string()),
            log.reason.as_deref().map_or("null".into(), json_str),
            blunders[0],
            blunders[1],
            opt(first_blunder[0]),
            opt(first_blunder[1]),
            note.as_deref().map_or("null".into(), json_str),
        );
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "N = {stones} (from the log), R = {}, M = {}; seat 0: {}, seat 1: {}",
        args.resets, args.init_max, names[0], names[1]
    );
    let _ = writeln!(
        out,
        "{:>4} {:>4} {:>6} {:>6} {:>5}  {:<26} winning moves",
        "ply", "seat", "move", "stones", "limit", "verdict"
    );
    for (i, p) in plies.iter().enumerate() {
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
        let _ = writeln!(
            out,
            "{:>4} {:>4} {:>6} {:>6} {:>5}  {:<26} {}",
            i + 1,
            p.seat.index(),
            fmt_move(Move::new(p.record.take, p.record.reset)),
            p.before.stones(),
            p.before.limit(),
            verdict,
            winning
        );
    }
    let fb = |s: usize| first_blunder[s].map_or("none".into(), |p| format!("ply {p}"));
    let first_overall = match (first_blunder[0], first_blunder[1]) {
        (Some(a), Some(b)) if a < b => format!("seat 0 ({}) at ply {a}", names[0]),
        (Some(_), Some(b)) | (None, Some(b)) => format!("seat 1 ({}) at ply {b}", names[1]),
        (Some(a), None) => format!("seat 0 ({}) at ply {a}", names[0]),
        (None, None) => "none".into(),
    };
    let _ = writeln!(
        out,
        "summary: first blunder {first_overall}; blunders: seat 0 {} (first {}), seat 1 {} (first {}); {}",
        blunders[0],
        fb(0),
        blunders[1],
        fb(1),
        match (winner, &log.reason) {
            (Some(w), Some(r)) => format!("winner seat {w} ({}): {r}", names[w]),
            (Some(w), None) => format!("winner seat {w} ({}), no Game over line", names[w]),
            (None, Some(r)) => format!("no winner: {r}"),
            (None, None) => "unfinished (no Game over line)".into(),
        }
    );
    if let Some(n) = note {
        let _ = writeln!(out, "note: {n}");
    }
    Ok(out)
}

/// `s` as a JSON string.
fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
