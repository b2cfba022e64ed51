//! Expanding Nim with resets: a position's moves, the position after a move or
//! after the moves of a link, the best line, nimbot's move, a game's record and
//! its analysis with the chart.

use std::cell::RefCell;

use nimbot::{Engine, Move, MoveEvaluation, Params, Player, Policy, Position};
use nimbot_analysis::analysis::Analysis;
use nimbot_analysis::chart::Chart;
use nimbot_analysis::explore::{best_first, line, probe};
use nimbot_analysis::notation::{move_text, parse_moves, play};
use nimbot_analysis::record::{self, Header};

use crate::engine::{with_engine, ValuesOnly};
use crate::exchange::{
    answer, code, distance, input_text, invalid, position, say, take_input, text_answer, word,
    Refusal, MAX_STONES,
};

thread_local! {
    /// The chart of the last game [`nb_analyze`] read.
    static CHART: RefCell<Option<Chart>> = const { RefCell::new(None) };
    /// Its plies' moves and winning moves in the notation ([`nb_analysis_moves`]).
    static ANALYSED_MOVES: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The most stones the mover may take at position `S C A B F` (M = `m`): the
/// page's take buttons and its description of a position.
#[no_mangle]
pub extern "C" fn nb_limit(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> i32 {
    code(position(s, c, a, b, f, m).map(|p| i32::try_from(p.limit()).unwrap_or(i32::MAX)))
}
/// Every move of position `S C A B F` (M = `m`) with its value and distance: the
/// buffer holds the position's value (1 won, 0 lost) and distance, then four words
/// a move (take, reset 0/1, value, distance), in `nimbot moves`' order
/// ([`best_first`]: winning moves fastest first, then losing ones longest first);
/// the text answer holds the moves' notation in that order (`3 2r`).
/// Returns the number of moves.
///
/// With `distances` 0, a position in the table gets its values alone (distances
/// [`UNKNOWN`](crate::UNKNOWN)), at once: the page shows them while the distances are made.
#[no_mangle]
pub extern "C" fn nb_moves(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32, distances: u32) -> i32 {
    let pos = match position(s, c, a, b, f, m) {
        Ok(p) => p,
        Err(e) => return e as i32,
    };
    code(with_engine(|engine| {
        if distances == 0 && engine.table_covers(&pos) {
            moves(&mut ValuesOnly(engine), &pos)
        } else {
            moves(engine, &pos)
        }
    }))
}
fn moves<E: Engine>(engine: &mut E, pos: &Position) -> Result<i32, Refusal> {
    let (eval, mut moves) = probe(engine, pos).map_err(|_| Refusal::Engine)?;
    best_first(&mut moves);
    let mut words = vec![word(eval.value.is_won()), distance(eval.distance)];
    for m in &moves {
        words.extend(move_words(m));
    }
    answer(&words);
    // Each move's notation, in the same order, for the page's links.
    let notation: Vec<String> = moves.iter().map(|m| move_text(m.mv)).collect();
    say(&notation.join(" "));
    i32::try_from(moves.len()).map_err(|_| Refusal::Engine)
}

/// `pos` as the five numbers S C A B F the exports take it in ([`position`]).
pub(crate) fn position_words(pos: &Position) -> [u32; 5] {
    [
        pos.stones(),
        pos.cap(),
        u32::from(pos.own_resets()),
        u32::from(pos.opp_resets()),
        u32::from(pos.reset_pending()),
    ]
}

/// A move's four words: take, reset (0/1), value for its mover (1 won), distance.
pub(crate) fn move_words(m: &MoveEvaluation) -> [u32; 4] {
    [
        m.mv.take,
        u32::from(m.mv.reset),
        word(m.value.is_won()),
        distance(m.distance),
    ]
}

/// The position after `take` (with a reset if `reset` is 1): returns 1 with the
/// five numbers S C A B F of the opponent's position in the buffer, or 0 if the
/// move empties the pile (the mover wins).
#[no_mangle]
pub extern "C" fn nb_after(
    s: u32,
    c: u32,
    a: u32,
    b: u32,
    f: u32,
    m: u32,
    take: u32,
    reset: u32,
) -> i32 {
    let mv = Move::new(take, reset != 0);
    code(position(s, c, a, b, f, m).and_then(|pos| after(&pos, mv)))
}

fn after(pos: &Position, mv: Move) -> Result<i32, Refusal> {
    match pos.after(mv) {
        Ok(Some(next)) => {
            answer(&position_words(&next));
            Ok(1)
        }
        Ok(None) => Ok(0),
        Err(nimbot::IllegalMove::NoResetsLeft) => Err(Refusal::NoResetsLeft),
        Err(_) => Err(Refusal::BadTake),
    }
}

/// The policies the page's engine plays, in [`Policy::ALL`]'s order (those that
/// need no model of the opponent): one line each in the text answer, its name,
/// a tab, its summary, and a tab and `default` on [`Policy::default`]'s line.
/// Returns their number.
#[no_mangle]
pub extern "C" fn nb_policies() -> i32 {
    let lines: Vec<String> = with_engine(|engine| {
        (Policy::ALL.into_iter().filter(|&p| engine.plays(p)))
            .map(|p| {
                let default = if p == Policy::default() {
                    "\tdefault"
                } else {
                    ""
                };
                format!("{}\t{}{default}\n", p.as_str(), p.summary())
            })
            .collect()
    });
    code(text_answer(&lines.concat()).map(|_| lines.len() as i32))
}

/// The move nimbot plays at the position under the policy whose name the page
/// wrote at [`nb_input`](crate::nb_input) (one of [`nb_policies`]; a won position always gets a
/// winning move): the buffer holds take, reset (0/1) and the position's value
/// (1 won). Returns 0.
#[no_mangle]
pub extern "C" fn nb_decide(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> i32 {
    code(decide(s, c, a, b, f, m))
}

fn decide(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> Result<i32, Refusal> {
    let name = take_input();
    let pos = position(s, c, a, b, f, m)?;
    let policy = Policy::from_name(&name).ok_or(Refusal::BadPolicy)?;
    with_engine(|engine| {
        if !engine.plays(policy) {
            return Err(Refusal::BadPolicy);
        }
        let d = engine.decide(&pos, policy).map_err(|_| Refusal::Engine)?;
        // A reset on the move that empties the pile changes nothing: drop it.
        let reset = d.mv.reset && d.mv.take < pos.stones();
        answer(&[d.mv.take, u32::from(reset), word(d.value.is_won())]);
        Ok(0)
    })
}

/// The game of N = `n`, R = `r`, M = `m` after the moves the page wrote at
/// [`nb_input`](crate::nb_input) (`3 2 2r`, `.` or `,` between them too): returns 1 with S C A B F
/// of the position in front of the player to move and that player (0 first) in
/// the buffer, or 0 with the winner (0 first) if the moves end the game; a word
/// that is not a move, a refused move or a game that is not one is
/// [`Refusal::Invalid`], said in the text.
#[no_mangle]
pub extern "C" fn nb_replay(n: u32, r: u32, m: u32) -> i32 {
    code(replay(n, r, m))
}

/// The game of `n`, `r`, `m`, or why it is not one (in the text answer).
fn game_params(n: u32, r: u32, m: u32) -> Result<Params, Refusal> {
    if n > MAX_STONES {
        return Err(invalid(&format!("N must be at most {MAX_STONES} here")));
    }
    let r = u8::try_from(r).map_err(|_| invalid("too many resets"))?;
    Params::new(n, r, m).map_err(|e| invalid(&e.to_string()))
}

fn replay(n: u32, r: u32, m: u32) -> Result<i32, Refusal> {
    let text = input_text()?;
    let params = game_params(n, r, m)?;
    let moves = parse_moves(&text).map_err(|e| invalid(&e))?;
    let game = play(params, &moves).map_err(|e| invalid(&e))?;
    match game.position() {
        Some(p) => {
            let [s, c, a, b, f] = position_words(&p);
            answer(&[s, c, a, b, f, game.to_move().index() as u32]);
            Ok(1)
        }
        None => {
            let winner = game.winner().unwrap_or(Player::First);
            answer(&[winner.index() as u32]);
            Ok(0)
        }
    }
}

/// The best-play line from position `S C A B F` (M = `m`) to the end, the
/// winner hurrying and the loser holding out (`nimbot line`): four words a ply
/// (take, reset, value for its mover, distance). Returns the number of plies.
#[no_mangle]
pub extern "C" fn nb_line(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> i32 {
    code(position(s, c, a, b, f, m).and_then(|pos| {
        let plies = with_engine(|engine| line(engine, &pos)).map_err(|e| invalid(&e))?;
        let words: Vec<u32> = plies.iter().flat_map(move_words).collect();
        answer(&words);
        i32::try_from(plies.len()).map_err(|_| Refusal::Engine)
    }))
}

/// What the page asks [`nb_record`] for: a game of its moves so far.
#[derive(serde::Deserialize)]
struct RecordRequest {
    /// What made the game: `web-play`, `web-line`.
    command: String,
    stones: u32,
    resets: u8,
    init_max: u32,
    names: [String; 2],
    /// nimbot's seat (0 first), if it played.
    seat: Option<u8>,
    /// nimbot's policy, if it played.
    policy: Option<String>,
    /// The moves from the start, as `nb_replay` reads them.
    moves: String,
    /// The end line's reason.
    reason: String,
    /// When the game began, in seconds since 1970.
    started_unix: f64,
}

/// The record of a game, as `--record` writes it (`nimbot_analysis::record`): the
/// page writes a JSON object at [`nb_input`](crate::nb_input) (command, stones, resets,
/// init_max, names, seat, policy, moves, reason, started_unix); the record's
/// JSON lines are the text answer. Returns their length.
#[no_mangle]
pub extern "C" fn nb_record() -> i32 {
    code(record_text())
}

fn record_text() -> Result<i32, Refusal> {
    let text = input_text()?;
    let req: RecordRequest =
        serde_json::from_str(&text).map_err(|e| invalid(&format!("not a record request: {e}")))?;
    let params = game_params(req.stones, u32::from(req.resets), req.init_max)?;
    let moves = parse_moves(&req.moves).map_err(|e| invalid(&e))?;
    let seat = req.seat.map(|s| {
        if s == 0 {
            Player::First
        } else {
            Player::Second
        }
    });
    let policy = req
        .policy
        .as_deref()
        .map(str::as_bytes)
        .map(Policy::from_name);
    let policy = policy.map(|p| p.ok_or(Refusal::BadPolicy)).transpose()?;
    let header = Header::new(
        &req.command,
        params,
        req.names,
        seat,
        policy,
        req.started_unix,
    );
    let record = with_engine(|engine| record::of_moves(engine, header, &moves, &req.reason))
        .map_err(|e| invalid(&e))?;
    text_answer(&record)
}

/// The analysis of the record or game log the page wrote at [`nb_input`](crate::nb_input) (R =
/// `r` and M = `m` for a log, which does not say them), as `nimbot analyze
/// --json` prints it: a JSON line a ply, then the summary's, in the text
/// answer; its chart is kept for [`nb_chart`]. Returns the number of plies.
#[no_mangle]
pub extern "C" fn nb_analyze(r: u32, m: u32) -> i32 {
    code(analyze(r, m))
}

fn analyze(r: u32, m: u32) -> Result<i32, Refusal> {
    CHART.with(|c| c.borrow_mut().take());
    let text = input_text()?;
    let r = u8::try_from(r).map_err(|_| invalid("too many resets"))?;
    let a =
        with_engine(|engine| Analysis::of_text(engine, &text, r, m)).map_err(|e| invalid(&e))?;
    if a.stones > MAX_STONES {
        return Err(invalid(&format!(
            "N = {} is too large for this page",
            a.stones
        )));
    }
    CHART.with(|c| *c.borrow_mut() = Some(Chart::of(&a)));
    let mut notation = String::new();
    for p in &a.plies {
        let winning: Vec<String> = p.winning.iter().map(|&m| move_text(m)).collect();
        notation.push_str(&move_text(Move::new(p.record.take, p.record.reset)));
        notation.push('\t');
        notation.push_str(&winning.join(" "));
        notation.push('\n');
    }
    ANALYSED_MOVES.with(|m| *m.borrow_mut() = notation);
    text_answer(&a.json_lines())?;
    i32::try_from(a.plies.len()).map_err(|_| Refusal::Engine)
}

/// The chart of the game [`nb_analyze`] read last, as SVG (`nimbot analyze
/// --plot FILE.svg`'s), in the text answer. Returns its length, or
/// [`Refusal::Invalid`] when no game was read.
#[no_mangle]
pub extern "C" fn nb_chart() -> i32 {
    let svg = CHART.with(|c| c.borrow().as_ref().map(Chart::svg));
    code(match svg {
        Some(svg) => text_answer(&svg),
        None => Err(invalid("no game analysed")),
    })
}

/// A move as the page shows it: its notation (`3`, `2r`), its parts, and its
/// value and distance for its mover when they were asked for.
#[derive(serde::Serialize)]
struct PageMove {
    notation: String,
    take: u32,
    reset: bool,
    value: Option<&'static str>,
    distance: Option<u16>,
}

/// A move played in the game so far: who played it, its notation, the pile
/// after it.
#[derive(serde::Serialize)]
struct PlayedMove {
    seat: usize,
    notation: String,
    take: u32,
    reset: bool,
    stones_after: u32,
}

/// What the page's board draws of a game of Expanding Nim ([`nb_play`]).
#[derive(serde::Serialize)]
struct Board {
    stones: u32,
    /// The largest take so far (at least M).
    cap: u32,
    /// The most the mover may take now (0 once the game is over).
    limit: u32,
    /// Each seat's resets left (first seat first).
    resets: [u8; 2],
    /// The last move declared a reset: the limit is back to M.
    reset_pending: bool,
    /// The player to move (0 first), while the game goes on.
    mover: Option<usize>,
    /// The player who took the last stone, once the game is over.
    winner: Option<usize>,
    /// The position in front of the mover, as `S C A B F` (what the explorer's
    /// links and the other exports take).
    position: Option<[u32; 5]>,
    /// The mover's value and distance (with `values`).
    value: Option<&'static str>,
    distance: Option<u16>,
    played: Vec<PlayedMove>,
    /// Every legal move, smallest take first, the take alone before the take
    /// with a reset.
    moves: Vec<PageMove>,
}

fn value_word(won: bool) -> &'static str {
    if won {
        "win"
    } else {
        "lose"
    }
}

/// The moves of the game [`nb_analyze`] read last in the notation, a line a
/// ply: its move, a tab, the winning moves there (space-separated), in the text
/// answer. Returns the text's length.
#[no_mangle]
pub extern "C" fn nb_analysis_moves() -> i32 {
    let text = ANALYSED_MOVES.with(|m| m.borrow().clone());
    code(text_answer(&text))
}

/// The game of N = `n`, R = `r`, M = `m` after the moves the page wrote at
/// [`nb_input`](crate::nb_input) (as [`nb_replay`] reads them), as the board
/// draws it: the pile, the cap and the limit, each seat's resets, whose turn it
/// is or who won, the moves played with their notation, and every legal move;
/// with `values` 1 each move's value (and distance, where the table box's
/// distances are in), with 2 every distance too. JSON in the text answer;
/// the game's value history is kept for [`nb_chart`] (once a move is played).
/// Returns the number of legal moves (0 once the game is over).
#[no_mangle]
pub extern "C" fn nb_play(n: u32, r: u32, m: u32, values: u32) -> i32 {
    code(board(n, r, m, values))
}

fn board(n: u32, r: u32, m: u32, values: u32) -> Result<i32, Refusal> {
    CHART.with(|c| c.borrow_mut().take());
    let text = input_text()?;
    let params = game_params(n, r, m)?;
    let moves = parse_moves(&text).map_err(|e| invalid(&e))?;
    let mut game = nimbot::Game::new(params);
    let mut played = Vec::with_capacity(moves.len());
    let mut resets = [params.resets(); 2];
    let (mut cap, mut pending) = (m, false);
    for (i, &mv) in moves.iter().enumerate() {
        let seat = game.to_move();
        let before = game
            .position()
            .ok_or_else(|| invalid(&format!("move {} comes after the game ended", i + 1)))?;
        game.play(seat, mv).map_err(|e| {
            invalid(&format!(
                "move {} ({}) is illegal: {e}",
                i + 1,
                move_text(mv)
            ))
        })?;
        // The rules' own count, read back from the position in front of the
        // next mover (or, at the end, from the one before the last move).
        match game.position() {
            Some(next) => {
                resets[seat.index()] = next.opp_resets();
                resets[seat.other().index()] = next.own_resets();
                cap = next.cap();
                pending = next.reset_pending();
            }
            None => {
                resets[seat.index()] =
                    before.own_resets() - u8::from(mv.reset && before.own_resets() > 0);
                cap = before.cap().max(mv.take);
                pending = false;
            }
        }
        played.push(PlayedMove {
            seat: seat.index(),
            notation: move_text(mv),
            take: mv.take,
            reset: mv.reset,
            stones_after: game.stones(),
        });
    }
    let pos = game.position();
    let mut b = Board {
        stones: game.stones(),
        cap,
        limit: pos.map_or(0, |p| p.limit()),
        resets,
        reset_pending: pending,
        mover: pos.map(|_| game.to_move().index()),
        winner: game.winner().map(Player::index),
        position: pos.as_ref().map(position_words),
        value: None,
        distance: None,
        played,
        moves: Vec::new(),
    };
    if let Some(pos) = pos {
        b.moves = if values == 0 {
            nimbot::root_moves(&pos)
                .map(|mv| page_move(mv, None, None))
                .collect()
        } else {
            let (eval, mut list) = with_engine(|engine| {
                if values == 1 && engine.table_covers(&pos) {
                    probe(&mut ValuesOnly(engine), &pos)
                } else {
                    probe(engine, &pos)
                }
            })
            .map_err(|_| Refusal::Engine)?;
            b.value = Some(value_word(eval.value.is_won()));
            b.distance = eval.distance;
            list.sort_by_key(|e| (e.mv.take, e.mv.reset));
            list.iter()
                .map(|e| page_move(e.mv, Some(e.value.is_won()), e.distance))
                .collect()
        };
    }
    if !moves.is_empty() {
        keep_chart(params, &moves)?;
    }
    text_answer(&nimbot_analysis::vocab::line(&b))?;
    i32::try_from(b.moves.len()).map_err(|_| Refusal::Engine)
}

fn page_move(mv: Move, won: Option<bool>, distance: Option<u16>) -> PageMove {
    PageMove {
        notation: move_text(mv),
        take: mv.take,
        reset: mv.reset,
        value: won.map(value_word),
        distance,
    }
}

/// The value history of the game of `params` so far (its analysis, as of a
/// record of its moves), kept for [`nb_chart`].
fn keep_chart(params: Params, moves: &[Move]) -> Result<(), Refusal> {
    let header = Header::new(
        "web-play",
        params,
        ["first".to_owned(), "second".to_owned()],
        None,
        None,
        0.0,
    );
    let a = with_engine(|engine| {
        let text = record::of_moves(engine, header, moves, "")?;
        Analysis::of_text(engine, &text, params.resets(), params.init_max())
    })
    .map_err(|e| invalid(&e))?;
    CHART.with(|c| *c.borrow_mut() = Some(Chart::of(&a)));
    Ok(())
}

/// The best-play line from position `S C A B F` (M = `m`) as `nimbot line
/// --json` prints it (one JSON line), then the plies' notation on a line of its
/// own, in the text answer. Returns the number of plies.
#[no_mangle]
pub extern "C" fn nb_line_json(s: u32, c: u32, a: u32, b: u32, f: u32, m: u32) -> i32 {
    code(position(s, c, a, b, f, m).and_then(|pos| {
        let (text, plies) = with_engine(|engine| -> Result<_, String> {
            let text = nimbot_analysis::explore::answer_line(engine, &pos, true)?;
            let plies = line(engine, &pos)?;
            Ok((text, plies))
        })
        .map_err(|e| invalid(&e))?;
        let notation: Vec<String> = plies.iter().map(|p| move_text(p.mv)).collect();
        text_answer(&format!("{text}{}\n", notation.join(" ")))?;
        i32::try_from(plies.len()).map_err(|_| Refusal::Engine)
    }))
}
