//! A demonstration game (`nimbot demo`): nimbot against a random legal mover
//! (or itself) on a solved box, told move by move.

use nimbot::{best_move, Game, Move, Outcome, Params, Player, SplitMix64, Value};
use nimbot_solve::{Solution, SolveBox, SolvingEngine};

/// Play one game of `params`, nimbot in `bot`'s seat against a random legal
/// mover (or itself, `mirror`) drawn with `seed`, and `say` it: a head line, a
/// line a move, and the winner.
///
/// # Errors
/// An exit status and its line: a game too large to solve here (2), a move the
/// rules refuse (1).
pub fn play(
    params: Params,
    bot: Player,
    mirror: bool,
    seed: u64,
    say: &mut dyn FnMut(String),
) -> Result<(), (u8, String)> {
    let (stones, resets, init_max) = (params.stones(), params.resets(), params.init_max());
    let bx = SolveBox::games(stones, resets, init_max);
    if bx.memory_bytes() > SolvingEngine::DEFAULT_BUDGET {
        return Err((2, format!("{stones} stones is too large to solve here")));
    }
    let solution = Solution::solve(bx).map_err(|e| (2, e.to_string()))?;
    let mut game = Game::new(params);
    let start_won = solution.value(&params.start()) == Some(Value::Won);
    let first_name = if bot == Player::First {
        "nimbot"
    } else {
        "opponent"
    };
    say(format!(
        "{stones} stones, {resets} resets each, initial max {init_max}; nimbot plays {}; the first player ({first_name}) {} with perfect play.",
        bot.name(),
        if start_won { "wins" } else { "loses" },
    ));
    let mut rng = SplitMix64::new(seed);
    while let Some(pos) = game.position() {
        let mover = game.to_move();
        let name = if mover == bot { "nimbot  " } else { "opponent" };
        let mv = if mover == bot || mirror {
            best_move(&solution, &pos)
                .map_err(|e| (1, e.to_string()))?
                .mv
        } else {
            let take = 1 + rng.below(u64::from(pos.limit())) as u32;
            let reset = pos.own_resets() > 0 && rng.next_u64() % 4 == 0;
            Move::new(take, reset)
        };
        let limit = game.limit();
        match game.play(mover, mv) {
            Ok(Outcome::Won(_)) => say(format!(
                "{:>3}. {name} takes {:>2} of {:>2} allowed   pile empty",
                game.moves(),
                mv.take,
                limit
            )),
            Ok(Outcome::Continue) => say(format!(
                "{:>3}. {name} takes {:>2} of {:>2} allowed{}  {:>4} left",
                game.moves(),
                mv.take,
                limit,
                if mv.reset { " + reset" } else { "        " },
                game.stones(),
            )),
            Err(e) => return Err((1, format!("{name} played an illegal move: {e}"))),
        }
    }
    let winner = if game.winner() == Some(bot) {
        "nimbot"
    } else {
        "the opponent"
    };
    say(format!("{winner} wins."));
    Ok(())
}
