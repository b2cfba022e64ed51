//! The exports against the library they call, on the host (the same code the
//! browser runs).

#[cfg(test)]
mod distances_tests {
    use crate::distances::DISTANCES_HEADER;
    use crate::exchange::{distance, SCRATCH};
    use crate::*;
    use nimbot::{root_moves, Position};
    use std::io::Read as _;

    #[test]
    fn distances_survive_their_encoding_and_damage_is_refused() {
        let d = table_box_distances().unwrap();
        let bytes = encode_distances(&d);
        let back = decode_distances(&bytes).unwrap();
        assert_eq!(back.entries(), d.entries());
        assert_eq!(back.solve_box(), d.solve_box());
        // Some steps do not fit a byte: the escape is exercised.
        assert!(bytes.len() > DISTANCES_HEADER + d.entries().len());
        // Cut short, one byte more, one entry changed, another magic: refused.
        assert!(decode_distances(&bytes[..bytes.len() - 1]).is_none());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_distances(&longer).is_none());
        let mut changed = bytes.clone();
        let last = changed.len() - 1;
        changed[last] = changed[last].wrapping_add(2);
        assert!(decode_distances(&changed).is_none());
        let mut magic = bytes;
        magic[0] ^= 1;
        assert!(decode_distances(&magic).is_none());
    }

    #[test]
    fn committed_distances_are_the_solvers() {
        // What the page loads (web/site/distances.bin, gzip) is what the solver
        // makes of the table's box today: else run tools/web.sh build.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/site/distances.bin");
        let gz = std::fs::read(path).unwrap();
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut bytes)
            .unwrap();
        let shipped = decode_distances(&bytes).expect("a whole distances file");
        let solved = table_box_distances().unwrap();
        assert_eq!(shipped.solve_box(), solved.solve_box());
        assert!(
            shipped.entries() == solved.entries(),
            "web/site/distances.bin is stale: run tools/web.sh build"
        );
    }

    #[test]
    fn loaded_distances_answer_as_solved_ones() {
        // The export path: the file written into the scratch memory, loaded, then
        // the moves of positions across the box with their distances.
        let bytes = encode_distances(&table_box_distances().unwrap());
        let ptr = nb_input(bytes.len() as u32);
        assert_ne!(ptr, 0);
        SCRATCH.with(|s| s.borrow_mut().copy_from_slice(&bytes));
        assert_eq!(nb_load_distances(), 1);
        let loaded: Vec<Vec<u32>> = [(999, 3, 4, 4, 0), (500, 20, 2, 3, 1), (57, 9, 0, 4, 0)]
            .iter()
            .map(|&(s, c, a, b, f)| {
                assert!(nb_moves(s, c, a, b, f, 3, 1) > 0);
                out_words()
            })
            .collect();
        assert!(loaded.iter().all(|w| w.iter().all(|&x| x != UNKNOWN)));
        // A damaged file is refused and the engine keeps what it had.
        nb_input(4);
        assert_eq!(nb_load_distances(), Refusal::BadDistances as i32);
        let solved = table_box_distances().unwrap();
        let mut answers = Vec::new();
        for &(s, c, a, b, f) in &[(999, 3, 4, 4, 0), (500, 20, 2, 3, 1), (57, 9, 0, 4, 0)] {
            let pos = Position::new(s, c, a as u8, b as u8, f == 1, 3).unwrap();
            let mut words = vec![UNKNOWN, distance(solved.get(&pos))];
            for mv in root_moves(&pos) {
                words.extend([mv.take, u32::from(mv.reset)]);
                words.push(match pos.after(mv).unwrap() {
                    None => 1,
                    Some(next) => distance(solved.get(&next).map(|d| d + 1)),
                });
            }
            answers.push(words);
        }
        for (got, want) in loaded.iter().zip(&answers) {
            assert_eq!(got[1], want[1]);
            // (take, reset, distance) of each move, in the probe's order.
            let mut dists: Vec<[u32; 3]> = got[2..].chunks(4).map(|m| [m[0], m[1], m[3]]).collect();
            dists.sort_by_key(|m| (m[1], m[0]));
            let want_dists: Vec<[u32; 3]> =
                want[2..].chunks(3).map(|m| [m[0], m[1], m[2]]).collect();
            assert_eq!(dists, want_dists);
        }
    }
}

/// The exports against the library they call, on the host (the same code the
/// browser runs): the command line's answers, its order, records, analyses and
/// charts.
#[cfg(test)]
mod export_tests {
    use crate::engine::TABLE;
    use crate::exchange::{distance, word, SCRATCH, TEXT};
    use crate::expanding::move_words;
    use crate::*;
    use nimbot::{Engine, Move, Params, Policy, Position, Table, TableEngine};
    use nimbot_analysis::analysis::Analysis;
    use nimbot_analysis::chart::Chart;
    use nimbot_analysis::explore::{best_first, line, probe};
    use nimbot_analysis::notation::move_text;
    use nimbot_analysis::record;
    use nimbot_solve::{SolvingEngine, TableOrSolverEngine};

    /// The command line's engine: the same table, the solver beside it.
    fn cli_engine() -> TableOrSolverEngine<'static> {
        let table = Table::from_bytes(TABLE).ok().map(TableEngine::new);
        TableOrSolverEngine::new(table, SolvingEngine::default())
    }

    /// Write `text` where the exports read their input.
    fn put(text: &str) {
        let at = nb_input(text.len() as u32);
        assert_ne!(at, 0);
        SCRATCH.with(|s| s.borrow_mut().copy_from_slice(text.as_bytes()));
    }

    fn text() -> String {
        TEXT.with(|t| t.borrow().clone())
    }

    #[test]
    fn moves_come_in_the_command_line_s_order_with_its_values() {
        let mut engine = cli_engine();
        for (s, c, a, b, f) in [
            (20, 3, 4, 4, 0),
            (999, 40, 1, 3, 1),
            (7, 3, 0, 0, 0),
            (1200, 5, 2, 2, 0),
        ] {
            let count = nb_moves(s, c, a, b, f, 3, 1);
            assert!(count > 0);
            let words = out_words();
            let pos = Position::new(s, c, a as u8, b as u8, f == 1, 3).unwrap();
            let (eval, mut want) = probe(&mut engine, &pos).unwrap();
            best_first(&mut want);
            assert_eq!(words[0], word(eval.value.is_won()));
            assert_eq!(words[1], distance(eval.distance));
            let got: Vec<[u32; 4]> = words[2..]
                .chunks(4)
                .map(|m| [m[0], m[1], m[2], m[3]])
                .collect();
            let notation: Vec<String> = want.iter().map(|m| move_text(m.mv)).collect();
            assert_eq!(text(), notation.join(" "));
            let want: Vec<[u32; 4]> = want.iter().map(move_words).collect();
            assert_eq!(got, want, "{s} {c} {a} {b} {f}");
        }
        assert_eq!(nb_moves(0, 3, 0, 0, 0, 3, 1), Refusal::BadPosition as i32);
        assert_eq!(
            nb_moves(MAX_STONES + 1, 3, 0, 0, 0, 3, 1),
            Refusal::TooLarge as i32
        );
    }

    #[test]
    fn the_policies_are_the_registry_s_that_need_no_model_and_each_one_plays() {
        let count = nb_policies();
        let listed = text();
        let names: Vec<&str> = listed
            .lines()
            .map(|l| l.split('\t').next().unwrap())
            .collect();
        let want: Vec<&str> = Policy::ALL
            .into_iter()
            .filter(|p| p.needs() != nimbot::Knowledge::Models)
            .map(Policy::as_str)
            .collect();
        assert_eq!(names, want);
        assert_eq!(count as usize, want.len());
        let default: Vec<&str> = listed
            .lines()
            .filter(|l| l.ends_with("\tdefault"))
            .collect();
        assert_eq!(default.len(), 1);
        assert!(default[0].starts_with(Policy::default().as_str()));
        // Each one decides a lost position as the command line's engine does.
        let lost = Position::new(21, 4, 0, 0, false, 3).unwrap();
        assert!(nb_moves(21, 4, 0, 0, 0, 3, 1) > 0);
        assert_eq!(out_words()[0], 0, "21 4 0 0 0 is lost");
        let mut engine = cli_engine();
        for name in &names {
            put(name);
            assert_eq!(nb_decide(21, 4, 0, 0, 0, 3), 0, "{name}");
            let w = out_words();
            let policy = Policy::from_name(name.as_bytes()).unwrap();
            let want = engine.decide(&lost, policy).unwrap();
            assert_eq!(
                (w[0], w[1] == 1, w[2] == 1),
                (want.mv.take, want.mv.reset, false)
            );
        }
        for refused in ["exploit", "nonsense"] {
            put(refused);
            assert_eq!(nb_decide(21, 4, 0, 0, 0, 3), Refusal::BadPolicy as i32);
        }
    }

    #[test]
    fn replay_follows_the_rules_and_says_why_it_refuses() {
        put("3 2 2r");
        assert_eq!(nb_replay(20, 4, 3), 1);
        assert_eq!(out_words(), [13, 4, 4, 3, 1, 1]);
        // The last stone taken: the winner.
        put("3 3 2");
        assert_eq!(nb_replay(8, 0, 3), 0);
        assert_eq!(out_words(), [0]);
        for (moves, why) in [
            ("3 x", "\"x\""),
            ("4", "move 1 (4) is illegal"),
            ("3 3 2 1", "move 4 (1) is illegal"),
        ] {
            put(moves);
            assert_eq!(nb_replay(8, 0, 3), Refusal::Invalid as i32);
            assert!(text().contains(why), "{moves}: {}", text());
        }
        put("");
        assert_eq!(nb_replay(MAX_STONES + 1, 0, 3), Refusal::Invalid as i32);
    }

    #[test]
    fn the_line_is_the_command_line_s() {
        let pos = Position::new(40, 5, 2, 1, false, 3).unwrap();
        let count = nb_line(40, 5, 2, 1, 0, 3);
        assert!(count > 0);
        let got: Vec<u32> = out_words();
        let mut engine = cli_engine();
        let want: Vec<u32> = line(&mut engine, &pos)
            .unwrap()
            .iter()
            .flat_map(move_words)
            .collect();
        assert_eq!(got, want);
        // Each ply's distance one less, down to the last stone.
        let d: Vec<u32> = got.chunks(4).map(|m| m[3]).collect();
        assert_eq!(d, (1..=count as u32).rev().collect::<Vec<_>>());
    }

    #[test]
    fn a_record_reads_back_and_its_analysis_and_chart_are_the_command_line_s() {
        // A game nimbot plays against itself from 30 4 3, then one loser's
        // detour: a record the page writes, read back by the analysis crate.
        let params = Params::new(30, 4, 3).unwrap();
        let mut engine = cli_engine();
        let mut game = nimbot::Game::new(params);
        let mut moves = Vec::new();
        while let Some(pos) = game.position() {
            let policy = if moves.len() == 2 {
                Policy::First
            } else {
                Policy::Trap
            };
            let mut mv = engine.decide(&pos, policy).unwrap().mv;
            if moves.len() == 1 {
                // A second move that throws the win away if there is one to throw.
                mv = Move::new(1, false);
            }
            game.play(game.to_move(), mv).unwrap();
            moves.push(mv);
        }
        let notation: Vec<String> = moves.iter().map(|&m| move_text(m)).collect();
        let request = format!(
            r#"{{"command":"web-play","stones":30,"resets":4,"init_max":3,"names":["you","nimbot"],"seat":1,"policy":"trap","moves":"{}","reason":"Player you won","started_unix":1764000000.25}}"#,
            notation.join(" ")
        );
        put(&request);
        let len = nb_record();
        assert!(len > 0, "{}", text());
        let written = text();
        assert_eq!(written.len(), len as usize);
        let rec = record::parse(&written).unwrap();
        assert_eq!(rec.header.command, "web-play");
        assert_eq!(rec.header.policy.as_deref(), Some("trap"));
        assert_eq!(rec.header.seat, Some(1));
        assert_eq!(rec.plies.len(), moves.len());
        assert_eq!(rec.moves(), moves);
        assert_eq!(
            rec.end.as_ref().unwrap().winner,
            game.winner().map(|w| w.index() as u8)
        );
        // The page's analysis of it is `nimbot analyze --json`'s, line for line.
        put(&written);
        let plies = nb_analyze(4, 3);
        assert_eq!(plies as usize, moves.len());
        let want = Analysis::of_text(&mut engine, &written, 4, 3).unwrap();
        assert_eq!(text(), want.json_lines());
        assert!(nb_analysis_moves() > 0);
        let listed: Vec<String> = text()
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_owned())
            .collect();
        assert_eq!(listed, notation);
        assert!(nb_chart() > 0);
        assert_eq!(text(), Chart::of(&want).svg());
        // Not a record: said, and no chart kept.
        put("{\"kind\":\"nonsense\"}");
        assert_eq!(nb_analyze(4, 3), Refusal::Invalid as i32);
        assert!(text().starts_with("record line 1"), "{}", text());
        assert_eq!(nb_chart(), Refusal::Invalid as i32);
        // A request with an illegal move is refused with the rules' reason.
        put(&request.replace("\"moves\":\"", "\"moves\":\"9 "));
        assert_eq!(nb_record(), Refusal::Invalid as i32);
        assert!(text().contains("move 1 (9) is illegal"), "{}", text());
    }

    #[test]
    fn a_game_log_is_analysed_as_the_command_line_does() {
        // The platform's log of N = 8, R = 0 (taking 1 wins; the first player takes 2).
        let log = "Player a took 2 stones.\nCurrent max: 3\nStones left: 6\n---\n\
                   Player b took 3 stones.\nCurrent max: 3\nStones left: 3\n---\n\
                   Player a took 1 stones.\nCurrent max: 4\nStones left: 2\n---\n\
                   Player b took 2 stones.\nCurrent max: 4\nStones left: 0\n---\n\
                   Game over\nPlayer b won the game! Congrats!\n";
        put(log);
        assert_eq!(nb_analyze(0, 3), 4);
        let mut engine = cli_engine();
        let want = Analysis::of_text(&mut engine, log, 0, 3).unwrap();
        assert_eq!(text(), want.json_lines());
        assert!(want.plies[0].blunder);
        assert!(nb_chart() > 0);
        assert_eq!(
            text().matches("class=\"blunder\"").count(),
            want.summary().blunders.iter().sum::<u32>() as usize
        );
    }

    #[test]
    fn fibonacci_and_super_nim_answer_as_the_analysis_crate_and_play_legal_moves() {
        // Fibonacci Nim: the analysis crate's position, nimbot's take the core's.
        put("3 2");
        let count = nb_fib(20);
        let want = nimbot_analysis::fibonacci::explore(20, &[3, 2]).unwrap();
        assert_eq!(count as usize, want.moves.len());
        assert_eq!(text(), nimbot_analysis::vocab::line(&want));
        put("3 2");
        assert_eq!(nb_fib_decide(20), 0);
        let d = nimbot::fibonacci::decide(want.stones, want.limit).unwrap();
        assert_eq!(out_words(), [d.take as u32, word(d.value.is_won())]);
        put("3 7");
        assert_eq!(nb_fib(20), Refusal::Invalid as i32);
        assert!(text().starts_with("move 2 (7) is illegal"), "{}", text());
        // Super-Nim: the exact values of a small start, and nimbot's moves never
        // lose value there (each is one of the best).
        use nimbot_analysis::supernim::{explore, parse_heaps, parse_moves};
        let mut solver = nimbot_supernim::Solver::new(SN_NODES, 1 << 16);
        let mut moves = String::new();
        for ply in 0..8 {
            put(&format!("2 4 5|{moves}"));
            assert!(nb_sn(12, 1) > 0, "{}", text());
            let shown: serde_json::Value = serde_json::from_str(&text()).unwrap();
            let start = parse_heaps("2 4 5").unwrap();
            let played = parse_moves(&moves).unwrap();
            let want = explore(Some(&mut solver), start, 12, &played).unwrap();
            assert_eq!(shown["value"], serde_json::json!(want.value));
            assert_eq!(shown["moves"].as_array().unwrap().len(), want.moves.len());
            // Each move names the heaps it acts on, as its notation says.
            for (mv, touched) in want.moves.iter().zip(shown["touches"].as_array().unwrap()) {
                let sizes: Vec<String> = touched
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.to_string())
                    .collect();
                assert_eq!(mv.notation[1..], sizes.join("-"), "{}", mv.notation);
            }
            let best = want.value.unwrap();
            let mv = if ply % 2 == 0 {
                // nimbot's move: one of the best.
                put(&format!("2 4 5|{moves}"));
                assert_eq!(nb_sn_decide(12), 0, "{}", text());
                let mv = text();
                let value = want.moves.iter().find(|m| m.notation == mv).unwrap().value;
                assert_eq!(value, Some(best), "{mv} at {moves:?}");
                mv
            } else {
                // The other side: the last move listed.
                want.moves.last().unwrap().notation.clone()
            };
            moves = format!("{moves} {mv}");
        }
        put("2 4 5|g4");
        assert_eq!(nb_sn(12, 1), Refusal::Invalid as i32);
        assert!(text().starts_with("move 1 (g4) is illegal"), "{}", text());
        put("2 4 5|");
        assert_eq!(nb_sn(0, 1), Refusal::Invalid as i32);
    }

    #[test]
    fn the_board_is_the_rules_position_after_each_move() {
        // Random games of 40 4 3 (and one of 6 1 3 to its end): after each move
        // the board's pile, cap, resets of each seat, mover and limit are those
        // of the rules' game, its moves every root move with the probe's values,
        // and the moves played carry the notation.
        let mut rng = nimbot::SplitMix64::new(48);
        let mut engine = cli_engine();
        for (n, r) in [(40, 4), (6, 1), (25, 2)] {
            let params = Params::new(n, r, 3).unwrap();
            let mut game = nimbot::Game::new(params);
            let mut moves: Vec<Move> = Vec::new();
            loop {
                let notation: Vec<String> = moves.iter().map(|&m| move_text(m)).collect();
                put(&notation.join(" "));
                let count = nb_play(n, r as u32, 3, 1);
                assert!(count >= 0, "{}", text());
                let b: serde_json::Value = serde_json::from_str(&text()).unwrap();
                assert_eq!(b["stones"], game.stones());
                let played: Vec<String> = b["played"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["notation"].as_str().unwrap().to_owned())
                    .collect();
                assert_eq!(played, notation);
                let Some(pos) = game.position() else {
                    assert_eq!(b["winner"], game.winner().unwrap().index());
                    assert_eq!(b["mover"], serde_json::Value::Null);
                    assert_eq!(count, 0);
                    break;
                };
                let me = game.to_move();
                assert_eq!(b["mover"], me.index());
                assert_eq!(b["cap"], pos.cap());
                assert_eq!(b["limit"], pos.limit());
                assert_eq!(b["reset_pending"], pos.reset_pending());
                assert_eq!(b["resets"][me.index()], pos.own_resets());
                assert_eq!(b["resets"][me.other().index()], pos.opp_resets());
                let (eval, mut want) = probe(&mut engine, &pos).unwrap();
                want.sort_by_key(|e| (e.mv.take, e.mv.reset));
                assert_eq!(b["value"], if eval.value.is_won() { "win" } else { "lose" });
                let got = b["moves"].as_array().unwrap();
                assert_eq!(got.len(), want.len());
                for (g, w) in got.iter().zip(&want) {
                    assert_eq!(g["take"], w.mv.take);
                    assert_eq!(g["reset"], w.mv.reset);
                    assert_eq!(g["notation"], move_text(w.mv));
                    assert_eq!(g["value"] == "win", w.value.is_won());
                }
                // Once a move is played, the chart of the game so far.
                assert_eq!(nb_chart() > 0, !moves.is_empty());
                let pick = &want[rng.below(want.len() as u64) as usize];
                game.play(me, pick.mv).unwrap();
                moves.push(pick.mv);
            }
        }
        put("3 9");
        assert_eq!(nb_play(20, 4, 3, 0), Refusal::Invalid as i32);
        assert!(text().contains("move 2 (9) is illegal"), "{}", text());
    }

    #[test]
    fn the_line_json_is_the_command_line_s_with_notation() {
        let pos = Position::new(40, 5, 2, 1, true, 3).unwrap();
        let count = nb_line_json(40, 5, 2, 1, 1, 3);
        assert!(count > 0, "{}", text());
        let got = text();
        let (json, notation) = got.split_once('\n').unwrap();
        let mut engine = cli_engine();
        let want = nimbot_analysis::explore::answer_line(&mut engine, &pos, true).unwrap();
        assert_eq!(format!("{json}\n"), want);
        let plies = line(&mut engine, &pos).unwrap();
        let want: Vec<String> = plies.iter().map(|p| move_text(p.mv)).collect();
        assert_eq!(notation, format!("{}\n", want.join(" ")));
        assert_eq!(count as usize, plies.len());
    }
}
