//! Super-Nim's answers: what `query`, `moves` and `line --game super-nim` print,
//! and the analysis of a Super-Nim record (`analyze`). Every answer comes from the
//! exact solver (`nimbot_supernim::Solver`) and the move nimbot plays from
//! the line protocol's player (`nimbot_supernim::Perfect`, learning, as at the
//! start of a game).
//!
//! A value is the mover's margin (its points from here to the cap minus the
//! opponent's) with best play by both, and the result it leads to with the points
//! so far (`--score`): `"win"`, `"lose"` or `"draw"`. Exact where the solver
//! finishes within `--nodes`; otherwise the deepest horizon it finished, scored
//! by the parity of the 2s, and the answer says it is an estimate.

use std::fmt::Write as _;

use nimbot::Player;
use nimbot_supernim::{
    Game as SnGame, Heaps, Move, MoveValue, Perfect, Solver, MAX_MOVE_LIMIT, PERFECT_NODE_BUDGET,
};
use serde::Serialize;

use crate::vocab as json;

/// Super-Nim's part of a position: the plies left, the points so far and the
/// solver's budget (the command line's `--cap`, `--score` and `--nodes`).
#[derive(Debug, Clone)]
pub struct Options {
    /// Plies left before the cap (the game is then judged on points).
    pub cap: u32,
    /// The points so far, the mover's then the other's, as `A,B`.
    pub score: String,
    /// The exact solver gives up after this many nodes (the answer is then an
    /// estimate, and says so).
    pub nodes: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cap: 200,
            score: "0,0".into(),
            nodes: 1_000_000,
        }
    }
}

/// Most positions the solver keeps (about 100 bytes each at most).
const ENTRIES: usize = 1 << 22;

/// A Super-Nim position: the heaps, the plies left and the mover's lead.
#[derive(Clone, Debug)]
pub struct Position {
    pub heaps: Heaps,
    pub plies_left: u32,
    /// The points so far: the mover's, the other's.
    pub score: [u32; 2],
}

impl Position {
    fn lead(&self) -> i32 {
        self.score[0] as i32 - self.score[1] as i32
    }
}

/// The position of the numbers and the options.
///
/// # Errors
/// What is wrong with them, in words.
pub fn position(numbers: &[u64], args: &Options) -> Result<Position, String> {
    if numbers.is_empty() {
        return Err("super-nim needs the heaps, e.g. 2,4,5".into());
    }
    let sizes: Vec<u32> = numbers
        .iter()
        .map(|&n| u32::try_from(n).map_err(|_| format!("heap {n} out of range")))
        .collect::<Result<_, _>>()?;
    let heaps = Heaps::new(&sizes).map_err(|e| e.to_string())?;
    if args.cap == 0 || args.cap > MAX_MOVE_LIMIT {
        return Err(format!("--cap must be 1..={MAX_MOVE_LIMIT}"));
    }
    let score: Vec<u32> = args
        .score
        .split(',')
        .map(|w| w.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("--score takes A,B (two numbers), not {:?}", args.score))?;
    let &[a, b] = score.as_slice() else {
        return Err(format!(
            "--score takes A,B (two numbers), not {:?}",
            args.score
        ));
    };
    if a.max(b) > 2 * MAX_MOVE_LIMIT {
        return Err("--score: more points than a game can score".into());
    }
    Ok(Position {
        heaps,
        plies_left: args.cap,
        score: [a, b],
    })
}

/// Every move's value, exact or at the deepest horizon the solver finished.
#[derive(Clone, Debug)]
struct Values {
    pub moves: Vec<MoveValue>,
    /// Whether they are exact (the search reached the cap).
    pub exact: bool,
    /// Plies searched (the plies left when exact).
    pub depth: u32,
}

impl Values {
    /// The best margin (0 with no move).
    pub fn best(&self) -> i32 {
        self.moves.iter().map(|m| m.value).max().unwrap_or(0)
    }
}

/// The values of the moves of `pos`: exact if the solver finishes within
/// `nodes`, else the horizon searches deepened from 1 ply while they finish
/// within `nodes` in all.
fn values(solver: &mut Solver, pos: &Position, nodes: u64) -> Values {
    solver.set_node_bound(nodes);
    if let Some(moves) = solver.move_values(&pos.heaps, pos.plies_left) {
        return Values {
            moves,
            exact: true,
            depth: pos.plies_left,
        };
    }
    let mut found = Values {
        moves: Vec::new(),
        exact: false,
        depth: 0,
    };
    let mut left = nodes;
    for depth in 1..pos.plies_left {
        solver.set_node_bound(left);
        let searched = solver.horizon(&pos.heaps, pos.plies_left, depth);
        left = left.saturating_sub(solver.nodes());
        match searched {
            Some(moves) => {
                found.moves = moves;
                found.depth = depth;
            }
            None => break,
        }
    }
    found
}

/// "win", "lose" or "draw" for a mover `lead` ahead who gets `margin` more.
fn result(lead: i32, margin: i32) -> &'static str {
    match (lead + margin).signum() {
        1 => "win",
        0 => "draw",
        _ => "lose",
    }
}

/// A move in the line protocol's words (`merge 2 4`, `grow 5`, `split 2`).
fn move_text(mv: Move) -> String {
    match mv {
        Move::Merge { from, onto } => format!("merge {from} {onto}"),
        Move::Grow(n) => format!("grow {n}"),
        Move::Split(n) => format!("split {n}"),
    }
}

/// The head of every Super-Nim JSON answer: the position, its value and margin.
#[derive(Serialize, Debug)]
struct PositionJson {
    pub game: &'static str,
    pub heaps: Vec<u16>,
    /// Plies left before the cap.
    pub cap: u32,
    /// The points so far, the mover's then the other's.
    pub score: [u32; 2],
    /// "win", "lose" or "draw" for the mover, with best play to the cap.
    pub value: &'static str,
    /// The mover's points from here on minus the other's, with best play.
    pub margin: i32,
    /// Whether `value` and `margin` are exact (else a horizon's estimate).
    pub exact: bool,
    /// Plies searched.
    pub depth: u32,
}

impl PositionJson {
    pub fn new(pos: &Position, values: &Values) -> Self {
        PositionJson {
            game: "super-nim",
            heaps: pos.heaps.sizes().to_vec(),
            cap: pos.plies_left,
            score: pos.score,
            value: result(pos.lead(), values.best()),
            margin: values.best(),
            exact: values.exact,
            depth: values.depth,
        }
    }
}

/// A move, with its value and margin for its mover when known.
#[derive(Serialize, Debug, Clone)]
struct MoveJson {
    /// "merge", "grow" or "split".
    pub kind: &'static str,
    /// The heap moved, grown or split.
    pub heap: u16,
    /// A merge's other heap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub onto: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i32>,
}

impl MoveJson {
    pub fn new(mv: Move, lead: i32, margin: Option<i32>) -> Self {
        let (kind, heap, onto) = match mv {
            Move::Merge { from, onto } => ("merge", from, Some(onto)),
            Move::Grow(n) => ("grow", n, None),
            Move::Split(n) => ("split", n, None),
        };
        MoveJson {
            kind,
            heap,
            onto,
            value: margin.map(|m| result(lead, m)),
            margin,
        }
    }
}

fn solver(args: &Options) -> Solver {
    Solver::new(args.nodes, ENTRIES)
}

fn exactness(v: &Values, plies_left: u32) -> String {
    if v.exact {
        "exact".into()
    } else {
        format!(
            "estimate: {} of {plies_left} plies searched (more with --nodes)",
            v.depth
        )
    }
}

/// `query --game super-nim`.
pub fn query(pos: &Position, args: &Options, as_json: bool) -> Result<String, String> {
    let values = values(&mut solver(args), pos, args.nodes);
    let mut player = Perfect::learning(PERFECT_NODE_BUDGET);
    let mv = player
        .decide(&pos.heaps, pos.plies_left, pos.lead())
        .mv
        .ok_or("no move: the game is over")?;
    let margin = values.moves.iter().find(|m| m.mv == mv).map(|m| m.value);
    if as_json {
        return Ok(json::line(&crate::vocab::WithMove {
            head: PositionJson::new(pos, &values),
            mv: MoveJson::new(mv, pos.lead(), margin),
        }));
    }
    Ok(format!(
        "{} {:+} {} ({})\n",
        result(pos.lead(), values.best()),
        values.best(),
        move_text(mv),
        exactness(&values, pos.plies_left)
    ))
}

/// `moves --game super-nim`: best first, then in the rules' order.
pub fn moves(pos: &Position, args: &Options, as_json: bool) -> Result<String, String> {
    let values = values(&mut solver(args), pos, args.nodes);
    if values.moves.is_empty() {
        return Err("no move: the game is over, or the solver finished no search".into());
    }
    if as_json {
        return Ok(json::line(&crate::vocab::WithMoves {
            head: PositionJson::new(pos, &values),
            moves: values
                .moves
                .iter()
                .map(|m| MoveJson::new(m.mv, pos.lead(), Some(m.value)))
                .collect(),
        }));
    }
    let mut out = format!(
        "{} {:+} with best play to the cap ({})\n",
        result(pos.lead(), values.best()),
        values.best(),
        exactness(&values, pos.plies_left)
    );
    let mut sorted = values.moves.clone();
    sorted.sort_by_key(|m| -m.value);
    out.push_str("move          value margin\n");
    for m in sorted {
        let _ = writeln!(
            out,
            "{:<13} {:>5} {:>+6}",
            move_text(m.mv),
            result(pos.lead(), m.value),
            m.value
        );
    }
    Ok(out)
}

/// `line --game super-nim`: best play to the cap (the first move of the best
/// exact value each ply); refused where the solver cannot finish.
pub fn line(pos: &Position, args: &Options, as_json: bool) -> Result<String, String> {
    let mut solver = solver(args);
    let first = values(&mut solver, pos, args.nodes);
    if !first.exact {
        return Err(format!(
            "the solver cannot finish within {} nodes from here ({}); give more --nodes or a smaller --cap",
            args.nodes,
            exactness(&first, pos.plies_left)
        ));
    }
    let mut game = SnGame::new(pos.heaps.clone(), pos.plies_left).map_err(|e| e.to_string())?;
    let mut plies = Vec::new();
    // Points from the first mover's side: [A, B].
    let mut score = pos.score;
    while game.end().is_none() {
        let here = Position {
            heaps: game.heaps().clone(),
            plies_left: game.plies_left(),
            score: if game.to_move() == Player::First {
                score
            } else {
                [score[1], score[0]]
            },
        };
        let v = values(&mut solver, &here, args.nodes);
        let Some(best) = v.moves.iter().find(|m| m.value == v.best()).copied() else {
            break;
        };
        if !v.exact {
            return Err("the solver lost its way mid-line (out of nodes)".into());
        }
        let mover = game.to_move();
        let before = game.score(mover);
        game.play(mover, best.mv).map_err(|e| e.to_string())?;
        let gained = game.score(mover) - before;
        score[mover.index()] += gained;
        plies.push((
            mover,
            best,
            here.lead(),
            game.heaps().sizes().to_vec(),
            score,
        ));
    }
    if as_json {
        return Ok(json::line(&crate::vocab::WithLine {
            head: PositionJson::new(pos, &first),
            line: plies
                .iter()
                .map(|(_, m, lead, _, _)| MoveJson::new(m.mv, *lead, Some(m.value)))
                .collect(),
        }));
    }
    let mut out = format!(
        "heaps {:?}, {} plies left, score {}-{}; best play:\n",
        pos.heaps.sizes(),
        pos.plies_left,
        pos.score[0],
        pos.score[1]
    );
    out.push_str(" ply mover move          score  margin heaps after\n");
    for (i, (mover, m, _, heaps, score)) in plies.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4} {:>5} {:<13} {:>3}-{:<3} {:>+6} {:?}",
            i + 1,
            if *mover == Player::First { "A" } else { "B" },
            move_text(m.mv),
            score[0],
            score[1],
            m.value,
            heaps
        );
    }
    Ok(out)
}

/// A Super-Nim record as `analyze` reads it: a first line `super-nim H1,H2,...
/// [cap C]` (cap 200 unless given), then one move a line in the line protocol's
/// words (`merge A B`, `grow A`, `split A`); blank lines and `#` comments are
/// skipped.
fn read_record(text: &str) -> Result<(Heaps, u32, Vec<Move>), String> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let head = lines.next().ok_or("an empty record")?;
    let words: Vec<&str> = head.split_whitespace().collect();
    let (heaps, cap) = match words.as_slice() {
        [_, heaps] => (*heaps, "200"),
        [_, heaps, "cap", cap] => (*heaps, *cap),
        _ => {
            return Err(format!(
                "the first line must be `super-nim H1,H2,... [cap C]`, not {head:?}"
            ))
        }
    };
    let sizes: Vec<u32> = heaps
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("bad heaps {heaps:?}"))?;
    let heaps = Heaps::new(&sizes).map_err(|e| e.to_string())?;
    let cap: u32 = cap.parse().map_err(|_| format!("bad cap {cap:?}"))?;
    let mut moves = Vec::new();
    for (i, line) in lines.enumerate() {
        // The protocol's own reader of `opp MOVE`.
        let opp = format!("opp {line}");
        match nimbot_protocol::grammar::Command::parse(
            opp.as_bytes(),
            nimbot_protocol::grammar::Context::SuperNim,
        ) {
            Ok(Some(nimbot_protocol::grammar::Command::Opp(
                nimbot_protocol::grammar::Opp::SuperNim(mv),
            ))) => moves.push(mv),
            _ => {
                return Err(format!(
                    "move {}: {line:?} is not a move (merge A B, grow A, split A)",
                    i + 1
                ))
            }
        }
    }
    Ok((heaps, cap, moves))
}

/// One analysed ply.
#[derive(Serialize, Debug)]
struct PlyJson {
    ply: usize,
    /// 0: the first player, 1: the second.
    seat: usize,
    #[serde(rename = "move")]
    mv: MoveJson,
    heaps_before: Vec<u16>,
    plies_left: u32,
    /// The mover's points so far, then the other's.
    score_before: [u32; 2],
    /// The best margin there, and the result it leads to.
    value: Option<&'static str>,
    margin: Option<i32>,
    /// The best moves there.
    best_moves: Vec<MoveJson>,
    /// Points of margin the move gave away (0: none; `null`: the solver did not
    /// finish).
    lost: Option<i32>,
}

/// `analyze` of a Super-Nim record: every ply's exact value, the best moves, and
/// the moves that lost value; then the result and the value-losing moves per seat.
pub fn analyze(text: &str, nodes: u64, as_json: bool) -> Result<String, String> {
    let (heaps, cap, moves) = read_record(text)?;
    let mut game = SnGame::new(heaps, cap).map_err(|e| e.to_string())?;
    let mut solver = Solver::new(nodes, ENTRIES);
    let mut plies = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        if game.end().is_some() {
            return Err(format!("move {}: the game is already over", i + 1));
        }
        let mover = game.to_move();
        let pos = Position {
            heaps: game.heaps().clone(),
            plies_left: game.plies_left(),
            score: [game.score(mover), game.score(mover.other())],
        };
        let v = values(&mut solver, &pos, nodes);
        let lead = pos.lead();
        let exact = v.exact.then(|| v.best());
        let mine = v.moves.iter().find(|m| m.mv == mv).map(|m| m.value);
        plies.push(PlyJson {
            ply: i + 1,
            seat: mover.index(),
            mv: MoveJson::new(mv, lead, if v.exact { mine } else { None }),
            heaps_before: pos.heaps.sizes().to_vec(),
            plies_left: pos.plies_left,
            score_before: pos.score,
            value: exact.map(|b| result(lead, b)),
            margin: exact,
            best_moves: if v.exact {
                v.moves
                    .iter()
                    .filter(|m| m.value == v.best())
                    .map(|m| MoveJson::new(m.mv, lead, Some(m.value)))
                    .collect()
            } else {
                Vec::new()
            },
            lost: exact.zip(mine).map(|(b, m)| b - m),
        });
        game.play(mover, mv)
            .map_err(|e| format!("move {} ({}): {e}", i + 1, move_text(mv)))?;
    }
    let losing: [usize; 2] = [0, 1].map(|seat| {
        plies
            .iter()
            .filter(|p| p.seat == seat && p.lost.is_some_and(|l| l > 0))
            .count()
    });
    let first = plies
        .iter()
        .find(|p| p.lost.is_some_and(|l| l > 0))
        .map(|p| p.ply);
    let scores = [game.score(Player::First), game.score(Player::Second)];
    let over = game.end().is_some();
    if as_json {
        #[derive(Serialize)]
        struct Summary {
            game: &'static str,
            plies: usize,
            over: bool,
            score: [u32; 2],
            /// Value-losing moves of each seat.
            value_losing: [usize; 2],
            first_value_losing: Option<usize>,
            unsolved: usize,
        }
        let mut out: String = plies.iter().map(json::line).collect();
        out.push_str(&json::line(&Summary {
            game: "super-nim",
            plies: plies.len(),
            over,
            score: scores,
            value_losing: losing,
            first_value_losing: first,
            unsolved: plies.iter().filter(|p| p.lost.is_none()).count(),
        }));
        return Ok(out);
    }
    let mut out = String::from(
        " ply seat move          heaps before          left score  margin lost best\n",
    );
    for p in &plies {
        let best: Vec<String> = p
            .best_moves
            .iter()
            .map(|m| match m.onto {
                Some(onto) => format!("{} {} {onto}", m.kind, m.heap),
                None => format!("{} {}", m.kind, m.heap),
            })
            .collect();
        let _ = writeln!(
            out,
            "{:>4} {:>4} {:<13} {:<21} {:>4} {:>2}-{:<2} {:>6} {:>4} {}",
            p.ply,
            if p.seat == 0 { "A" } else { "B" },
            move_text(moves[p.ply - 1]),
            format!("{:?}", p.heaps_before),
            p.plies_left,
            p.score_before[0],
            p.score_before[1],
            p.margin.map_or("?".into(), |m| format!("{m:+}")),
            match p.lost {
                Some(0) => String::new(),
                Some(l) => format!("-{l}"),
                None => "?".into(),
            },
            best.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "score {}-{}{}; value-losing moves: A {}, B {}{}",
        scores[0],
        scores[1],
        if over { "" } else { " (the game goes on)" },
        losing[0],
        losing[1],
        first.map_or(String::new(), |p| format!(", the first at ply {p}"))
    );
    Ok(out)
}
