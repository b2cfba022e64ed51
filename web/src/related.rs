//! Fibonacci Nim and Super-Nim: a position and its moves with their values,
//! nimbot's move.

use std::cell::RefCell;

use crate::exchange::{answer, code, input_text, invalid, text_answer, word, Refusal, MAX_STONES};

/// The game of Fibonacci Nim of `n` stones (at most [`MAX_STONES`]) after the
/// takes the page wrote at [`nb_input`](crate::nb_input) (`3 2 4`): its position and every take
/// with its value for the mover, as JSON in the text answer
/// (`nimbot_analysis::fibonacci::Explored`). Returns the number of takes;
/// [`Refusal::Invalid`] for a refused take, said in the text.
#[no_mangle]
pub extern "C" fn nb_fib(n: u32) -> i32 {
    code(fib(n).and_then(|e| {
        text_answer(&nimbot_analysis::vocab::line(&e))?;
        i32::try_from(e.moves.len()).map_err(|_| Refusal::Engine)
    }))
}

fn fib(n: u32) -> Result<nimbot_analysis::fibonacci::Explored, Refusal> {
    use nimbot_analysis::fibonacci::{explore, parse_takes};
    if n > MAX_STONES {
        return Err(invalid(&format!("N must be at most {MAX_STONES} here")));
    }
    let takes = parse_takes(&input_text()?).map_err(|e| invalid(&e))?;
    explore(u64::from(n), &takes).map_err(|e| invalid(&e))
}

/// nimbot's take in the Fibonacci Nim game of `n` stones after the takes the
/// page wrote at [`nb_input`](crate::nb_input) (`nimbot::fibonacci::decide`: the smallest
/// Zeckendorf term when it wins, else 1): the buffer holds the take and the
/// position's value (1 won). Returns 0; [`Refusal::Invalid`] once the game is
/// over.
#[no_mangle]
pub extern "C" fn nb_fib_decide(n: u32) -> i32 {
    code(fib(n).and_then(|e| {
        if e.winner.is_some() {
            return Err(invalid("the game is over"));
        }
        let d = nimbot::fibonacci::decide(e.stones, e.limit).map_err(|_| Refusal::Engine)?;
        let take = u32::try_from(d.take).map_err(|_| Refusal::Engine)?;
        answer(&[take, word(d.value.is_won())]);
        Ok(0)
    }))
}

/// Nodes the page's Super-Nim solver may visit for one position's values (past
/// them it says it cannot finish), and the positions it keeps.
pub const SN_NODES: u64 = 2_000_000;
/// Positions the page's Super-Nim solver keeps (about 24 bytes each).
pub const SN_ENTRIES: usize = 1 << 18;

thread_local! {
    static SN_SOLVER: RefCell<Option<nimbot_supernim::Solver>> = const { RefCell::new(None) };
    /// nimbot's Super-Nim player in the game being played: the game's start and
    /// cap, how many of its moves it has seen, and the player (which learns its
    /// opponent's model from the opponent's moves).
    static SN_PLAYER: RefCell<Option<(String, u32, usize, nimbot_supernim::Perfect)>> =
        const { RefCell::new(None) };
}

/// The Super-Nim game the page wrote at [`nb_input`](crate::nb_input): `HEAPS|MOVES` (`2 4 5|s2
/// m1-5`), with the cap `cap` (plies, 1..=1000).
fn sn_game(
    cap: u32,
) -> Result<(String, nimbot_supernim::Heaps, Vec<nimbot_supernim::Move>), Refusal> {
    use nimbot_analysis::supernim::{parse_heaps, parse_moves};
    let text = input_text()?;
    let (heaps, moves) = text.split_once('|').unwrap_or((&text, ""));
    let start = parse_heaps(heaps).map_err(|e| invalid(&e))?;
    if !(1..=nimbot_supernim::MAX_MOVE_LIMIT).contains(&cap) {
        return Err(invalid("the cap must be 1..=1000"));
    }
    let moves = parse_moves(moves).map_err(|e| invalid(&e))?;
    Ok((heaps.trim().to_owned(), start, moves))
}

/// The Super-Nim game the page wrote at [`nb_input`](crate::nb_input) (`HEAPS|MOVES`, cap `cap`):
/// its position and every move, with the moves' exact values when `values` is 1
/// and the solver finishes within [`SN_NODES`], as JSON in the text answer
/// (`nimbot_analysis::supernim::Explored`). Returns the number of moves;
/// [`Refusal::Invalid`] for a refused move, said in the text.
#[no_mangle]
pub extern "C" fn nb_sn(cap: u32, values: u32) -> i32 {
    code(sn_game(cap).and_then(|(_, start, moves)| {
        let e = SN_SOLVER
            .with(|cell| {
                let mut cell = cell.borrow_mut();
                let solver = (values == 1).then(|| {
                    let s = cell
                        .get_or_insert_with(|| nimbot_supernim::Solver::new(SN_NODES, SN_ENTRIES));
                    s.set_node_bound(SN_NODES);
                    s
                });
                nimbot_analysis::supernim::explore(solver, start, cap, &moves)
            })
            .map_err(|e| invalid(&e))?;
        text_answer(&nimbot_analysis::vocab::line(&SnBoard::of(&e)))?;
        i32::try_from(e.moves.len()).map_err(|_| Refusal::Engine)
    }))
}

/// nimbot's move in the Super-Nim game the page wrote at [`nb_input`](crate::nb_input)
/// (`HEAPS|MOVES`, cap `cap`): the host's best player (`Perfect`, exact near
/// the cap, never a move that loses value there), which learns its opponent's
/// model from the opponent's moves in this game; the text answer is the move's
/// notation. Returns 0; [`Refusal::Invalid`] once the game is over.
#[no_mangle]
pub extern "C" fn nb_sn_decide(cap: u32) -> i32 {
    code(sn_game(cap).and_then(|(key, start, moves)| {
        use nimbot_supernim::{Game, Perfect, PERFECT_NODE_BUDGET};
        let mut game = Game::new(start, cap).map_err(|e| invalid(&e.to_string()))?;
        let mv = SN_PLAYER.with(|cell| -> Result<_, Refusal> {
            let mut cell = cell.borrow_mut();
            // Another game, or one taken back: a new player.
            let fresh = match cell.as_ref() {
                Some((k, c, seen, _)) => *k != key || *c != cap || *seen > moves.len(),
                None => true,
            };
            if fresh {
                *cell = Some((key, cap, 0, Perfect::learning(PERFECT_NODE_BUDGET)));
            }
            let Some((_, _, seen, player)) = cell.as_mut() else {
                return Err(Refusal::Engine);
            };
            let me = moves.len() % 2;
            for (i, &mv) in moves.iter().enumerate() {
                // The opponent's moves it has not seen yet teach it.
                if i >= *seen && i % 2 != me {
                    player.observe(game.heaps(), game.plies_left(), mv);
                }
                game.play(game.to_move(), mv)
                    .map_err(|e| invalid(&format!("move {} is illegal: {e}", i + 1)))?;
            }
            *seen = moves.len();
            if game.end().is_some() {
                return Err(invalid("the game is over"));
            }
            let d = player.decide(game.heaps(), game.plies_left(), game.lead());
            d.mv.ok_or(Refusal::Engine)
        })?;
        text_answer(&nimbot_analysis::supernim::move_text(mv))?;
        Ok(0)
    }))
}

/// What the page's Super-Nim board draws: the explored position, and for each
/// move the sizes of the heaps it acts on (one for a split or a grow, the moved
/// heap then the one it goes onto for a merge), so that clicking heaps picks it.
#[derive(serde::Serialize)]
struct SnBoard<'a> {
    #[serde(flatten)]
    explored: &'a nimbot_analysis::supernim::Explored,
    touches: Vec<Vec<u16>>,
}

impl<'a> SnBoard<'a> {
    fn of(explored: &'a nimbot_analysis::supernim::Explored) -> Self {
        use nimbot_supernim::Move;
        let touches = explored
            .moves
            .iter()
            .map(|m| {
                match nimbot_analysis::supernim::parse_moves(&m.notation)
                    .ok()
                    .and_then(|v| v.first().copied())
                {
                    Some(Move::Merge { from, onto }) => vec![from, onto],
                    Some(Move::Grow(n) | Move::Split(n)) => vec![n],
                    None => Vec::new(),
                }
            })
            .collect();
        SnBoard { explored, touches }
    }
}
