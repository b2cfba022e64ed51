//! The policy registry against the names the docs and the command line use, what
//! the flash table's engine plays, and how `bot_move` hands on an engine's move.
//!
//! The expected names are written here, as docs/policies.md and the line protocol
//! spell them, not read from the registry under test.

use nimbot::{
    bot_move, DecideError, Decision, Engine, Evaluation, Game, Limits, Move, MoveError, Outcome,
    Params, Player, Policy, Position, TableEngine, Value, Win, WinChoice,
};

/// The policies as docs/policies.md lists them, in the help texts' order.
const POLICY_NAMES: [(&str, Policy); 4] = [
    ("first", Policy::First),
    ("trap", Policy::Trap),
    ("longest", Policy::Longest),
    ("exploit", Policy::Exploit),
];

/// The `--win` choices as the command line spells them.
const WIN_NAMES: [(&str, Win); 2] = [("smallest", Win::Smallest), ("fastest", Win::Fastest)];

#[test]
fn every_policy_is_found_by_its_name_and_nothing_else_is() {
    for (name, policy) in POLICY_NAMES {
        assert_eq!(Policy::from_name(name.as_bytes()), Some(policy), "{name}");
        assert_eq!(policy.as_str(), name);
    }
    assert_eq!(
        Policy::ALL.map(Policy::as_str),
        POLICY_NAMES.map(|(name, _)| name)
    );
    for word in [
        "",
        "firs",
        "firstt",
        "First",
        "TRAP",
        "first|trap",
        "|",
        "random",
        " trap",
        "win",
    ] {
        assert_eq!(Policy::from_name(word.as_bytes()), None, "{word:?}");
    }
}

#[test]
fn every_win_choice_is_named_as_the_command_line_spells_it() {
    assert_eq!(Win::ALL.map(Win::as_str), WIN_NAMES.map(|(name, _)| name));
    for (name, win) in WIN_NAMES {
        assert_eq!(win.as_str(), name);
    }
    assert_eq!(Win::default(), Win::Smallest);
}

/// A help text's line: a phrase of several words, and no two alike.
fn assert_help_lines(lines: &[&str]) {
    for (i, line) in lines.iter().enumerate() {
        assert!(
            line.split_whitespace().count() >= 4,
            "a help line says what the choice does: {line:?}"
        );
        assert!(!lines[..i].contains(line), "two choices share {line:?}");
    }
}

#[test]
fn each_policy_and_win_choice_has_a_help_line_of_its_own() {
    assert_help_lines(&Policy::ALL.map(Policy::summary));
    assert_help_lines(&Win::ALL.map(Win::summary));
    // What each line must say, as docs/policies.md says it.
    assert!(Policy::First.summary().contains("first legal move"));
    assert!(Policy::Trap.summary().contains("fewest winning replies"));
    assert!(Policy::Longest.summary().contains("longest"));
    assert!(Policy::Exploit.summary().contains("opponent"));
    assert!(Win::Smallest.summary().contains("smallest"));
    assert!(Win::Fastest.summary().contains("soonest"));
}

#[test]
fn the_flash_table_engine_plays_first_and_trap_and_refuses_the_others() {
    // The firmware's engine: values only (docs/policies.md's "needs" column).
    // A lost start (in a won one every policy plays the winning move).
    let mut engine = TableEngine::embedded();
    let init_max = engine.limits().init_max.unwrap();
    let game = (1..=200)
        .map(|stones| Game::new(Params::new(stones, 2, init_max).unwrap()))
        .find(|g| {
            engine
                .decide(&g.position().unwrap(), Policy::First)
                .unwrap()
                .value
                == Value::Lost
        })
        .expect("a lost start among the first 200 piles");
    let pos = game.position().unwrap();
    for policy in Policy::ALL {
        let plays = matches!(policy, Policy::First | Policy::Trap);
        assert_eq!(engine.plays(policy), plays, "{policy:?}");
        let decided = engine.decide(&pos, policy);
        if plays {
            let mv = decided.unwrap().mv;
            assert!(game.check(Player::First, mv).is_ok(), "{policy:?}: {mv:?}");
        } else {
            assert_eq!(decided.err(), Some(DecideError::Unsupported), "{policy:?}");
        }
    }
}

#[test]
fn bot_move_hands_on_the_table_engines_moves_in_whole_games() {
    // Whole games of the table engine against itself, with both policies and every
    // small start: each move `bot_move` hands on is the engine's decision, but for
    // a reset on a take that empties the pile, and is legal.
    let mut engine = TableEngine::embedded();
    let limits = engine.limits();
    let init_max = limits.init_max.unwrap();
    let (mut kept_resets, mut dropped_resets) = (0, 0);
    for stones in 1..=60 {
        for resets in 0..=limits.max_resets.min(3) {
            {
                for policy in [Policy::First, Policy::Trap] {
                    let mut game = Game::new(Params::new(stones, resets, init_max).unwrap());
                    loop {
                        let me = game.to_move();
                        let pos = game.position().unwrap();
                        let decided = engine.decide(&pos, policy).unwrap().mv;
                        let mv = bot_move(&mut engine, policy, &game, me).unwrap();
                        assert_eq!(mv.take, decided.take, "{pos:?}");
                        let empties = decided.take == game.stones();
                        assert_eq!(mv.reset, decided.reset && !empties, "{pos:?} {decided:?}");
                        if decided.reset && empties {
                            dropped_resets += 1;
                        } else if decided.reset {
                            kept_resets += 1;
                        }
                        // Not the mover's turn: refused, whatever the engine says.
                        assert!(bot_move(&mut engine, policy, &game, me.other()).is_err());
                        match game.play(me, mv).unwrap() {
                            Outcome::Continue => {}
                            _ => break,
                        }
                    }
                    assert!(bot_move(&mut engine, policy, &game, game.to_move()).is_err());
                }
            }
        }
    }
    // The games above must reach resets, or the test proves nothing; the table
    // never pairs one with the last take (below, an engine that does).
    assert!(kept_resets > 0, "no reset kept");
    assert_eq!(dropped_resets, 0);
}

/// An engine that always answers the same move, whatever the position.
struct Always(Move);

impl Engine for Always {
    fn limits(&self) -> Limits {
        Limits {
            max_stones: 1000,
            max_resets: 4,
            init_max: None,
        }
    }
    fn prepare(&mut self, _: &Params) -> Result<(), DecideError> {
        Ok(())
    }
    fn decide(&mut self, _: &Position, _: Policy) -> Result<Decision, DecideError> {
        Ok(Decision {
            mv: self.0,
            value: Value::Won,
        })
    }
    fn evaluate(&mut self, _: &Position) -> Result<Evaluation, DecideError> {
        Err(DecideError::Unsupported)
    }
}

#[test]
fn bot_move_drops_a_reset_on_the_take_that_empties_the_pile_and_refuses_illegal_moves() {
    // Three stones, M = 3, one reset each: taking all three ends the game, and a
    // reset with it would change nothing.
    let game = Game::new(Params::new(3, 1, 3).unwrap());
    let first = Player::First;
    let all = bot_move(&mut Always(Move::new(3, true)), Policy::First, &game, first);
    assert_eq!(all, Ok(Move::new(3, false)));
    // A reset on a smaller take is the engine's move, kept.
    let two = bot_move(&mut Always(Move::new(2, true)), Policy::First, &game, first);
    assert_eq!(two, Ok(Move::new(2, true)));
    // A move over the limit is refused, not played.
    let four = bot_move(
        &mut Always(Move::new(4, false)),
        Policy::First,
        &game,
        first,
    );
    assert!(matches!(four, Err(MoveError::Illegal(_))), "{four:?}");
}

#[test]
fn a_win_choice_plays_what_its_engine_plays_and_covers_what_it_covers() {
    // `--win fastest` wraps an engine: it changes won positions' moves, not what
    // the engine plays or the games it covers.
    for win in Win::ALL {
        let mut engine = WinChoice::new(TableEngine::embedded(), win);
        for policy in Policy::ALL {
            let plays = matches!(policy, Policy::First | Policy::Trap);
            assert_eq!(engine.plays(policy), plays, "{win:?} {policy:?}");
        }
        let limits = engine.limits();
        let init_max = limits.init_max.unwrap();
        let inside = Params::new(limits.max_stones, limits.max_resets, init_max).unwrap();
        assert_eq!(engine.prepare(&inside), Ok(()));
        let beyond = Params::new(limits.max_stones + 1, limits.max_resets, init_max).unwrap();
        assert_eq!(engine.prepare(&beyond), Err(DecideError::OutOfRange));
        let other_m = Params::new(20, 0, init_max + 1).unwrap();
        assert_eq!(engine.prepare(&other_m), Err(DecideError::OutOfRange));
    }
}
