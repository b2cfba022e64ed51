//! The session on each engine: `moves` and `query` say what the core's root probe
//! and decision say (tests/minimax.rs and tests/probe.rs of the core check those
//! against a plain minimax and the solver), `moves` pages through long lists, a
//! values-only engine answers with `-`, the lost-position policy is chosen over the
//! protocol, and a board's limits refuse a game beyond its table. Every reply is
//! read by the grammar (`Response::parse`).

mod common;

use common::{all_moves, dialogue, query, send};
use nimbot::{
    evaluate_move, root_moves, Engine, Move, Params, Policy, Position, SplitMix64, Table,
    TableEngine, Value,
};
use nimbot_protocol::grammar::{Entry, Response};
use nimbot_protocol::Session;
use nimbot_solve::{longest_move, Distances, Solution, SolveBox, TableOrSolverEngine};

/// Positions of the solved box of games up to 999 stones (R = 4, M = 3), drawn
/// at random (the same ones every run).
fn box_positions(sol: &Solution) -> impl Iterator<Item = Position> + '_ {
    let mut rng = SplitMix64::new(38);
    let mut draw = move |n: u64| rng.below(n) as u32;
    std::iter::repeat_with(move || {
        let cap = 3 + draw(40);
        let (stones, a, b, f) = (1 + draw(999), draw(5) as u8, draw(5) as u8, draw(2) == 1);
        Position::new(stones, cap, a, b, f, 3).ok()
    })
    .flatten()
    .filter(|p| sol.value(p).is_some())
    .take(200_000)
}

#[test]
fn moves_and_query_are_the_root_probe_and_the_decision() {
    // Positions of games up to 60 stones with M = 1..=4 (the table's M = 3 and
    // solved boxes beside it): the session's pages, read back, are the probe's
    // moves with their values and distances; `query` is the engine's decision.
    let mut positions = 0;
    for m in 1..=4u32 {
        let params = Params::new(60, 2, m).unwrap();
        let mut session = Session::new(TableOrSolverEngine::embedded());
        // `new` sets M for `query` and `moves`.
        assert_eq!(send(&mut session, &format!("new 60 2 {m} first")), "ok");
        let policy = session.policy();
        let mut engine = TableOrSolverEngine::embedded();
        engine.prepare(&params).unwrap();
        for s in 1..=60 {
            for c in [m, m + 1, m + 3, m + 6] {
                for (a, b, f) in [(0, 0, false), (2, 1, false), (1, 2, true), (2, 2, true)] {
                    let pos = Position::new(s, c, a, b, f, m).unwrap();
                    let line = pos.to_string();
                    let eval = engine.evaluate(&pos).unwrap();
                    let want: Vec<Entry> = root_moves(&pos)
                        .map(|mv| {
                            let e = evaluate_move(&mut engine, &pos, mv).unwrap();
                            Entry {
                                mv,
                                wins: e.value.is_won(),
                                distance: e.distance,
                            }
                        })
                        .collect();
                    let (listing, _) = all_moves(&mut session, &line);
                    assert_eq!(
                        (listing.value, listing.distance),
                        (eval.value, eval.distance),
                        "moves {line} (M = {m})"
                    );
                    assert_eq!(listing.moves, want, "moves {line} (M = {m})");
                    let d = engine.decide(&pos, policy).unwrap();
                    assert_eq!(
                        query(&mut session, &line),
                        (d.value, d.mv, eval.distance),
                        "query {line} (M = {m})"
                    );
                    positions += 1;
                }
            }
        }
    }
    assert_eq!(positions, 4 * 60 * 4 * 4);
}

#[test]
fn moves_pages_through_long_move_lists() {
    // 900 stones, cap 40, 4 resets each: 80 moves, several lines.
    let mut s = Session::new(TableOrSolverEngine::embedded());
    let pos = Position::new(900, 40, 4, 4, false, 3).unwrap();
    let all: Vec<Move> = root_moves(&pos).collect();
    assert_eq!(all.len(), 80);
    let (listing, pages) = all_moves(&mut s, "900 40 4 4 0");
    let listed: Vec<Move> = listing.moves.iter().map(|e| e.mv).collect();
    assert_eq!(listed, all);
    assert!(pages >= 4, "{pages} pages");
    // Past the last move: the position alone.
    let tail = send(&mut s, "moves 900 40 4 4 0 80");
    let Some(Response::Moves(page)) = Response::parse(tail.as_bytes()) else {
        panic!("{tail}");
    };
    assert_eq!(
        (page.value, page.distance, page.moves.is_empty(), page.more),
        (listing.value, listing.distance, true, None)
    );
    assert_eq!(
        send(&mut s, "moves 900 40 4 4"),
        "error usage: moves STONES CAP OWN_RESETS OPP_RESETS PENDING(0|1) [FROM]"
    );
    assert_eq!(send(&mut s, "moves 900 40 4 4 0 x"), "error bad number");
    assert_eq!(
        send(&mut s, "moves 900 40 4 4 0 1 2"),
        "error too many arguments"
    );
}

#[test]
fn a_values_only_engine_answers_with_dashes() {
    // The firmware's engine: the table alone. Its values are the solver's; every
    // distance is `-`.
    let mut table = Session::new(TableEngine::embedded());
    let mut full = Session::new(TableOrSolverEngine::embedded());
    for pos in ["20 3 4 4 0", "7 6 0 1 0", "5 3 1 0 1"] {
        let (t, _) = all_moves(&mut table, pos);
        let (f, _) = all_moves(&mut full, pos);
        assert!(f.distance.is_some(), "{pos}: {f:?}");
        let without_distances = |l: &common::Listing| -> Vec<(Move, bool)> {
            l.moves.iter().map(|e| (e.mv, e.wins)).collect()
        };
        // Same moves and values once the distances are taken off.
        assert_eq!(t.value, f.value, "{pos}");
        assert_eq!(without_distances(&t), without_distances(&f), "{pos}");
        assert_eq!(t.distance, None, "{pos}");
        assert!(t.moves.iter().all(|e| e.distance.is_none()), "{pos}: {t:?}");
    }
    assert_eq!(query(&mut table, "20 3 4 4 0").2, None);
    assert_eq!(send(&mut table, "query 3 3 0 0 0"), "win 3 0 -");
    assert_eq!(send(&mut full, "query 3 3 0 0 0"), "win 3 0 1");
    // 20 stones, cap 3, 4 resets each is lost (docs/protocol.md's example): every
    // move loses, among them 1 and 3 with a reset.
    let (lost, _) = all_moves(&mut full, "20 3 4 4 0");
    assert_eq!(lost.value, Value::Lost);
    assert!(lost.moves.iter().all(|e| !e.wins), "{lost:?}");
    for mv in [Move::new(1, false), Move::new(3, true)] {
        assert!(lost.moves.iter().any(|e| e.mv == mv), "{mv:?} in {lost:?}");
    }
}

#[test]
fn the_policy_is_chosen_over_the_protocol() {
    let mut s = Session::new(TableEngine::embedded());
    assert_eq!(send(&mut s, "policy"), "policy trap");
    // A lost position where the trap does not take 1.
    let sol = Solution::solve(SolveBox::games(999, 4, 3)).unwrap();
    let table = Table::embedded();
    let pos = box_positions(&sol)
        .find(|p| {
            !sol.value(p).unwrap().is_won()
                && Policy::Trap.decide(&table, p).unwrap().mv != Move::new(1, false)
        })
        .expect("some lost position where the trap differs");
    let trap = Policy::Trap.decide(&table, &pos).unwrap().mv;
    let line = pos.to_string();
    // The table alone has no distances: `-`.
    assert_eq!(query(&mut s, &line), (Value::Lost, trap, None));
    let names: Vec<_> = Policy::ALL.iter().map(|p| p.as_str()).collect();
    let usage = format!("error usage: policy [{}]", names.join("|"));
    dialogue(
        &mut s,
        &[
            ("policy first", "policy first"),
            (&format!("query {line}"), "lose 1 0 -"),
            ("policy", "policy first"),
            ("policy sneaky", &usage),
            ("policy trap extra", "error too many arguments"),
            ("policy", "policy first"),
        ],
    );
}

#[test]
fn longest_is_a_protocol_policy_on_engines_with_the_solver() {
    let mut s = Session::new(TableOrSolverEngine::embedded());
    assert_eq!(send(&mut s, "policy longest"), "policy longest");
    let sol = Solution::solve(SolveBox::games(999, 4, 3)).unwrap();
    let dist = Distances::solve(sol.solve_box()).unwrap();
    let pos = box_positions(&sol)
        .find(|p| {
            !sol.value(p).unwrap().is_won()
                && longest_move(&sol, &dist, p).unwrap().mv
                    != Policy::Trap.decide(&sol, p).unwrap().mv
        })
        .expect("a lost position where longest and trap differ");
    let want = longest_move(&sol, &dist, &pos).unwrap().mv;
    assert_eq!(
        query(&mut s, &pos.to_string()),
        (Value::Lost, want, Some(dist.get(&pos).unwrap()))
    );
}

#[test]
fn a_table_engine_refuses_a_game_beyond_its_limits() {
    // Over the line protocol, as the firmware runs it: an error line, nothing else.
    let mut session = Session::new(TableEngine::embedded());
    assert_eq!(
        send(&mut session, "limits"),
        "limits stones 999 resets 4 init_max 3 line 80"
    );
    assert_eq!(
        send(&mut session, "new 1000 4 3 first"),
        "error position outside the engine's limits"
    );
    assert_eq!(send(&mut session, "state"), "state none");
    assert_eq!(send(&mut session, "new 999 4 3 first"), "ok");
    assert!(send(&mut session, "go").starts_with("move "));
}
