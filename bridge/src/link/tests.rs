//! The link's unit tests, against the fake board (`crate::fake`).

use std::collections::VecDeque;

use nimbot::{Engine, Policy, SplitMix64, TableEngine};

use super::*;
use crate::fake::{FakeBoard, Trick};

/// A link and a fake board, wired by a queue of lines in flight.
struct Bench {
    link: Link,
    board: FakeBoard,
    inbox: VecDeque<String>,
    give_ups: Vec<Fault>,
}

impl Bench {
    fn new(board: FakeBoard) -> Self {
        Bench {
            link: Link::new(3, "trap"),
            board,
            inbox: VecDeque::new(),
            give_ups: Vec::new(),
        }
    }

    /// Run the link until it settles: what the adapter does, with the queue
    /// running dry standing for the reply timeout.
    fn drive(&mut self, mut out: Out) -> Out {
        for _ in 0..10_000 {
            out = match out {
                Out::Send(text) => {
                    let replies = self.board.exchange(&text);
                    self.inbox.extend(replies);
                    self.read()
                }
                Out::Wait => self.read(),
                settled => return settled,
            };
        }
        panic!("the link never settles")
    }

    fn read(&mut self) -> Out {
        match self.inbox.pop_front() {
            Some(line) => self.link.on_line(&line),
            None => self.link.on_silence(),
        }
    }

    fn meet(&mut self) -> BoardInfo {
        let out = self.link.meet();
        match self.drive(out) {
            Out::Met(info) => info,
            other => panic!("meeting ended in {other:?}"),
        }
    }

    /// Lines that arrived between two questions.
    fn idle(&mut self) {
        while let Some(line) = self.inbox.pop_front() {
            self.link.on_idle_line(&line);
        }
    }

    /// The bridge's move: the board's, or the host's (`expected`) after a give-up.
    fn our_move(&mut self, expected: Move) -> Move {
        self.idle();
        let out = self.link.ask();
        match self.drive(out) {
            Out::Moved(mv) => mv,
            Out::GiveUp(why) => {
                self.give_ups.push(why);
                self.link.host_moved(expected).unwrap();
                expected
            }
            other => panic!("a question ended in {other:?}"),
        }
    }

    /// One game against a random opponent (seeded); every move of the bridge
    /// must be the one the board's engine chooses (the host's fallback plays the
    /// same engine here). Returns the winner.
    fn play(&mut self, n: u32, r: u8, seat: Player, seed: u64) -> Player {
        self.play_with(n, r, seat, seed, |_, _| {})
    }

    fn play_with(
        &mut self,
        n: u32,
        r: u8,
        seat: Player,
        seed: u64,
        mut between: impl FnMut(&mut Bench, u32),
    ) -> Player {
        let params = Params::new(n, r, 3).unwrap();
        self.link.begin(params, seat);
        let mut game = Game::new(params);
        let mut rng = SplitMix64::new(seed);
        let mut table = TableEngine::embedded();
        while game.winner().is_none() {
            between(self, game.moves());
            if game.to_move() == seat {
                let pos = game.position().unwrap();
                let mut expected = table.decide(&pos, Policy::Trap).unwrap().mv;
                expected.reset &= expected.take < game.stones();
                let mv = self.our_move(expected);
                assert_eq!(mv, expected, "move {} of N = {n}", game.moves());
                game.play(seat, mv).unwrap();
            } else {
                let take = 1 + rng.below(u64::from(game.limit())) as u32;
                let reset = game.resets_left(seat.other()) > 0 && rng.chance(0.25);
                let mv = Move::new(take, reset);
                game.play(seat.other(), mv).unwrap();
                self.link.opponent(mv).unwrap();
            }
        }
        let record = self.link.record().unwrap();
        assert_eq!(record.game(), &game, "the record is the game");
        game.winner().unwrap()
    }

    fn ours(&self) -> u32 {
        let stats = self.link.stats();
        stats.board_moves + stats.host_moves
    }
}

const SEATS: [Player; 2] = [Player::First, Player::Second];

#[test]
fn meets_the_board_and_reads_its_limits() {
    let mut bench = Bench::new(FakeBoard::new().on(0, Trick::Say("garbage".into())));
    // Junk before the first answer is skipped.
    let info = bench.meet();
    assert_eq!(info.protocol, 2);
    assert!(info.software.starts_with("nimbot "), "{}", info.software);
    assert_eq!(
        info.limits,
        BoardLimits {
            max_stones: 999,
            max_resets: 4,
            init_max: Some(3)
        }
    );
    let covers = |n, r, m| info.limits.covers(&Params::new(n, r, m).unwrap());
    assert!(covers(999, 4, 3) && covers(1, 0, 3));
    assert!(!covers(1000, 4, 3) && !covers(10, 5, 3) && !covers(10, 4, 4));
    // A board that never answers: the meeting gives up after the tries.
    let mut silent = Bench::new(FakeBoard::new().on(0, Trick::Die));
    let out = silent.link.meet();
    assert_eq!(silent.drive(out), Out::GiveUp(Fault::Silence));
    assert_eq!(silent.board.commands(), 3 * MEETING_TRY_FACTOR as usize);
}

#[test]
fn a_board_that_boots_during_the_meeting_is_asked_again_at_once() {
    // The first `version` reaches the board before its receiver runs: lost,
    // then the banner. The link asks again without waiting for the timeout.
    let mut bench = Bench::new(FakeBoard::new().on(0, Trick::Reset));
    let info = bench.meet();
    assert_eq!(info.protocol, 2);
    assert_eq!(bench.link.stats().total_faults(), 0);
    assert_eq!(bench.board.commands(), 3, "version, version, limits");
    // A board that only ever says its banner (a reset loop) is given up.
    let mut looping = Bench::new(FakeBoard::new());
    let mut out = looping.link.meet();
    let mut banners = 0;
    while let Out::Send(_) = out {
        banners += 1;
        assert!(
            banners <= 3 * MEETING_TRY_FACTOR * (MAX_STALE + 1),
            "never gives up"
        );
        out = looping.link.on_line(BANNER);
    }
    assert_eq!(out, Out::GiveUp(Fault::Garbled));
}

#[test]
fn plays_whole_games_without_a_fault() {
    let mut bench = Bench::new(FakeBoard::new());
    bench.meet();
    for seat in SEATS {
        for (n, r) in [(1, 0), (2, 4), (20, 1), (100, 4), (999, 4), (998, 0)] {
            let before = bench.board.commands();
            bench.play(n, r, seat, u64::from(n));
            let stats = bench.link.stats().clone();
            assert_eq!(stats.total_faults(), 0);
            assert_eq!(stats.host_moves + stats.resyncs + stats.query_moves, 0);
            // `policy` and `new`, then `go`/`opp` and `state` per move (none
            // after the winning one, so at most two per move).
            let used = bench.board.commands() - before;
            assert!(used <= 2 + 2 * stats.board_moves as usize, "{used}");
        }
    }
}

/// A clean game's command log, to aim tricks at particular commands.
fn clean_log(n: u32, seat: Player, seed: u64) -> Vec<String> {
    let mut bench = Bench::new(FakeBoard::new());
    bench.meet();
    bench.play(n, 4, seat, seed);
    bench.board.log.clone()
}

#[test]
fn every_fault_is_survived_by_a_resynchronization() {
    for seat in SEATS {
        let log = clean_log(200, seat, 7);
        // The meeting's two commands come first; aim at the game's middle.
        let opp = (10..log.len())
            .find(|&i| log[i].starts_with("opp ") && !log[i].starts_with("opp 1 "))
            .unwrap();
        let state = (10..log.len()).find(|&i| log[i] == "state").unwrap();
        let take: u32 = log[opp].split(' ').nth(1).unwrap().parse().unwrap();
        let flag = log[opp].split(' ').nth(2).unwrap();
        let tricks = [
            (opp, Trick::Drop, &[Fault::Silence][..]),
            (opp, Trick::Reset, &[Fault::Reset]),
            (opp, Trick::Late, &[Fault::Silence]),
            // "move K F": the take's last digit changes by one bit, into
            // another legal take or an illegal one.
            (
                opp,
                Trick::Garble(vec![0, 0, 0, 0, 0, 1]),
                &[Fault::Diverged, Fault::Illegal],
            ),
            (opp, Trick::Garble(vec![0, 0, 0x20]), &[Fault::Garbled]),
            (
                state,
                Trick::Garble([0; 13].into_iter().chain([4]).collect()),
                &[Fault::Diverged],
            ),
            (
                state,
                Trick::Say("error line too long".into()),
                &[Fault::Refused],
            ),
            (opp, Trick::Say("move 99 0".into()), &[Fault::Illegal]),
            (opp, Trick::Say(BANNER.into()), &[Fault::Reset]),
            // The line turned `opp K F` into another legal command.
            (
                opp,
                Trick::Rewrite(format!("opp {} {flag}", take - 1)),
                &[Fault::Diverged],
            ),
        ];
        for (at, trick, faults) in tricks {
            let ctx = format!("{seat:?}: {trick:?} at {at} ({})", log[at]);
            let mut bench = Bench::new(FakeBoard::new().on(at, trick));
            bench.meet();
            bench.play(200, 4, seat, 7);
            let stats = bench.link.stats();
            let seen: u32 = faults.iter().map(|f| stats.count(*f)).sum();
            assert!(seen >= 1, "{ctx}: {stats:?}");
            assert_eq!(stats.host_moves, 0, "{ctx}");
            assert_eq!(stats.board_moves, bench.ours(), "{ctx}");
            assert!(stats.resyncs >= 1, "{ctx}: {stats:?}");
            assert!(bench.give_ups.is_empty(), "{ctx}");
        }
    }
}

#[test]
fn a_late_answer_to_a_realignment_is_not_a_fault() {
    let log = clean_log(200, Player::Second, 9);
    let opp = (10..log.len())
        .find(|&i| log[i].starts_with("opp "))
        .unwrap();
    // The `opp` is lost; the first `version` after it is answered only after
    // the second: two `version` answers come in a row.
    let board = FakeBoard::new()
        .on(opp, Trick::Drop)
        .on(opp + 1, Trick::Late);
    let mut bench = Bench::new(board);
    bench.meet();
    bench.play(200, 4, Player::Second, 9);
    let stats = bench.link.stats();
    assert_eq!(stats.count(Fault::Silence), 2, "{stats:?}");
    assert_eq!(stats.total_faults(), 2, "{stats:?}");
    assert!(bench.give_ups.is_empty());
    assert_eq!(stats.board_moves, bench.ours());
}

#[test]
fn a_won_claim_must_match_the_pile() {
    let log = clean_log(50, Player::First, 3);
    let go = log.iter().position(|l| l == "go").unwrap();
    let mut bench = Bench::new(FakeBoard::new().on(go, Trick::Say("move 1 0 won".into())));
    bench.meet();
    bench.play(50, 4, Player::First, 3);
    assert_eq!(bench.link.stats().count(Fault::Illegal), 1);
}

#[test]
fn a_dead_board_leaves_moves_to_the_host_until_it_comes_back() {
    for seat in SEATS {
        let log = clean_log(300, seat, 11);
        let at = (10..log.len())
            .find(|&i| log[i].starts_with("opp "))
            .unwrap();
        let mut bench = Bench::new(FakeBoard::new().on(at, Trick::Die));
        bench.meet();
        let mut revived_at = None;
        bench.play_with(300, 4, seat, 11, |b, moves| {
            // Four of the bridge's moves by the host, then the board is back.
            if b.link.stats().host_moves == 4 && revived_at.is_none() {
                revived_at = Some(moves);
                let banner = b.board.revive();
                b.inbox.extend(banner);
            }
        });
        let stats = bench.link.stats();
        assert!(revived_at.is_some(), "{seat:?}: {stats:?}");
        assert_eq!(stats.host_moves, 4, "{seat:?}: {stats:?}");
        // Three tries on the first failing question, one on each after it.
        assert_eq!(stats.count(Fault::Silence), 3 + 3, "{seat:?}: {stats:?}");
        assert_eq!(bench.give_ups, vec![Fault::Silence; 4]);
        // The host's moves cannot be replayed: the board answers `query`.
        assert!(stats.query_moves > 0, "{seat:?}: {stats:?}");
        assert_eq!(stats.board_moves + stats.host_moves, bench.ours());
        assert!(stats.describe().contains("the host 4 (after: no reply)"));
    }
}

#[test]
fn a_board_that_only_says_wrong_things_is_given_up() {
    let mut board = FakeBoard::new();
    for at in 2..200 {
        board = board.on(at, Trick::Say("move 77 1".into()));
    }
    let mut bench = Bench::new(board);
    bench.meet();
    bench.play(100, 4, Player::Second, 5);
    assert!(!bench.give_ups.is_empty());
    // Its answers to `version` are wrong too, which leaves the realignment
    // waiting for one: silence.
    let wrong = [Fault::Illegal, Fault::Garbled, Fault::Silence];
    assert!(
        bench.give_ups.iter().all(|f| wrong.contains(f)),
        "{:?}",
        bench.give_ups
    );
    assert_eq!(bench.link.stats().board_moves, 0);
}

#[test]
fn random_line_noise_never_gets_a_wrong_move_through() {
    let (mut faults, mut by_board, mut by_host) = (0, 0, 0);
    for seed in 0..24u64 {
        let mut rng = SplitMix64::new(seed);
        let mut board = FakeBoard::new();
        for at in 2..400 {
            if !rng.chance(0.06) {
                continue;
            }
            let trick = match rng.below(6) {
                0 => Trick::Drop,
                1 => Trick::Late,
                2 => Trick::Reset,
                3 => {
                    let mut mask = vec![0u8; rng.below(12) as usize];
                    mask.push(1 << rng.below(8));
                    Trick::Garble(mask)
                }
                4 => Trick::Say(format!("move {} {}", rng.below(9), rng.below(2))),
                _ => Trick::Say(
                    "state stones 1 limit 3 cap 3 resets 0 0 pending 0 turn opponent".into(),
                ),
            };
            board = board.on(at, trick);
        }
        let mut bench = Bench::new(board);
        bench.meet();
        let seat = SEATS[seed as usize % 2];
        let n = 20 + 97 * seed as u32 % 980;
        // `play` checks every move against the board's engine.
        bench.play(n, 4, seat, seed);
        let stats = bench.link.stats();
        assert_eq!(stats.board_moves + stats.host_moves, bench.ours());
        faults += stats.total_faults();
        by_board += stats.board_moves;
        by_host += stats.host_moves;
    }
    // The noise was felt, and the board still played nearly everything.
    assert!(faults > 50, "{faults} faults");
    assert!(by_board > 20 * by_host, "board {by_board}, host {by_host}");
}
