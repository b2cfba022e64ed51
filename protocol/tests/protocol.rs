//! The line protocol, driven as a host would drive it: whole games against a
//! reference opponent, and every kind of bad input.

mod common;

use std::convert::Infallible;

use common::{dialogue, opening, refused, send, session};

use nimbot::{best_move, position_value, Game, Move, Outcome, Params, Player, Position};
use nimbot_protocol::grammar::Response;
use nimbot_protocol::{serve, serve_async, Line, LineReader, ServeError, MAX_LINE};
use nimbot_solve::{Solution, SolveBox};

/// A reader that hands out at most `step` bytes per read, to split lines anywhere.
struct Chunked<'a> {
    data: &'a [u8],
    step: usize,
}

impl embedded_io::ErrorType for Chunked<'_> {
    type Error = Infallible;
}

impl embedded_io::Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn run_script(input: &[u8], step: usize) -> Vec<String> {
    let mut s = session();
    let mut out: Vec<u8> = Vec::new();
    serve(&mut s, &mut Chunked { data: input, step }, &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Play one game through the protocol; the opponent is `opponent(position)`. Checks
/// every bot move against an independent game record. Returns the winner.
fn play_game(
    n: u32,
    r: u8,
    m: u32,
    bot: Player,
    mut opponent: impl FnMut(&Position) -> Move,
) -> Player {
    let mut s = session();
    let seat = bot.name();
    assert_eq!(send(&mut s, &format!("new {n} {r} {m} {seat}")), "ok");
    let mut game = Game::new(Params::new(n, r, m).unwrap());
    let mut reply = opening(&mut s, bot);
    loop {
        if !reply.is_empty() {
            if reply == "lost" {
                assert_eq!(game.winner(), Some(bot.other()));
                return bot.other();
            }
            let Some(Response::Move { mv, won }) = Response::parse(reply.as_bytes()) else {
                panic!("reply {reply:?}: not a move");
            };
            let outcome = game.play(bot, mv).expect("the bot's move is legal");
            assert_eq!(won, outcome == Outcome::Won(bot), "{reply}");
            if let Outcome::Won(p) = outcome {
                return p;
            }
        }
        let pos = game.position().unwrap();
        let mv = opponent(&pos);
        let before = game;
        match game.play(bot.other(), mv) {
            Ok(Outcome::Won(p)) => {
                assert_eq!(
                    send(&mut s, &format!("opp {} {}", mv.take, u8::from(mv.reset))),
                    "lost"
                );
                return p;
            }
            Ok(Outcome::Continue) => {}
            Err(e) => panic!("test opponent played illegally at {before:?}: {e}"),
        }
        reply = send(&mut s, &format!("opp {} {}", mv.take, u8::from(mv.reset)));
    }
}

#[test]
fn the_bot_wins_every_won_start_against_a_perfect_opponent() {
    for m in [1, 3] {
        for r in [0u8, 1, 4] {
            let sol = Solution::solve(SolveBox::games(120, r, m)).unwrap();
            for n in 1..=120 {
                let params = Params::new(n, r, m).unwrap();
                let first_wins = sol.value(&params.start()).unwrap().is_won();
                for bot in [Player::First, Player::Second] {
                    let bot_should_win = first_wins == (bot == Player::First);
                    let winner = play_game(n, r, m, bot, |p| best_move(&sol, p).unwrap().mv);
                    // A perfect opponent wins exactly the starts the bot cannot.
                    assert_eq!(
                        winner == bot,
                        bot_should_win,
                        "n={n} r={r} m={m} bot={bot:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_bot_wins_won_starts_against_a_random_opponent() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let sol = Solution::solve(SolveBox::games(400, 4, 3)).unwrap();
    for n in (1..=400).step_by(7) {
        let first_wins = sol
            .value(&Params::new(n, 4, 3).unwrap().start())
            .unwrap()
            .is_won();
        for bot in [Player::First, Player::Second] {
            let winner = play_game(n, 4, 3, bot, |p| {
                let take = 1 + (rand() % u64::from(p.limit())) as u32;
                Move::new(take, p.own_resets() > 0 && rand() % 3 == 0)
            });
            if first_wins == (bot == Player::First) {
                assert_eq!(winner, bot, "n={n} bot={bot:?}");
            }
        }
    }
}

#[test]
fn every_bad_input_gets_one_error_and_changes_nothing() {
    let mut s = session();
    refused(
        &mut s,
        "state none",
        &[
            ("go", "error no game (send new)"),
            ("opp 1 0", "error no game (send new)"),
        ],
    );
    assert_eq!(send(&mut s, "new 20 4 3 first"), "ok");
    let state = send(&mut s, "state");
    assert_eq!(
        state,
        "state stones 20 limit 3 cap 3 resets 4 4 pending 0 turn bot"
    );
    let bad = [
        ("frobnicate", "error unknown command (try help)"),
        ("NEW 20 4 3 first", "error unknown command (try help)"),
        ("opp 1 0", "error out of turn: the bot is to move (send go)"),
        ("opp x 0", "error bad number"),
        ("opp 1", "error usage: opp TAKE RESET(0|1)"),
        ("opp 1 2", "error flag must be 0 or 1"),
        ("opp -1 0", "error bad number"),
        ("opp 99999999999 0", "error bad number"),
        ("go now", "error too many arguments"),
        ("new 0 4 3 first", "error stones must be at least 1"),
        ("new 20 33 3 first", "error resets exceed 32"),
        ("new 20 4 0 first", "error init max must be at least 1"),
        (
            "new 20 4 3 middle",
            "error usage: new STONES RESETS INIT_MAX first|second",
        ),
        (
            "new 20 4 3",
            "error usage: new STONES RESETS INIT_MAX first|second",
        ),
        ("query 0 3 4 4 0", "error stones must be at least 1"),
        ("query 10 2 4 4 0", "error cap is below init max"),
        ("query 10 3 4 4 2", "error flag must be 0 or 1"),
        ("query 10 3 40 4 0", "error resets exceed 32"),
    ];
    refused(&mut s, &state, &bad);
    // The game is still playable; now it is the opponent's turn.
    assert!(send(&mut s, "go").starts_with("move "));
    let state = send(&mut s, "state");
    assert!(state.ends_with("turn opponent"), "{state}");
    let Some(Response::State(Some(now))) = Response::parse(state.as_bytes()) else {
        panic!("{state}");
    };
    let limit = now.limit;
    refused(
        &mut s,
        &state,
        &[
            (
                "go",
                "error out of turn: the opponent is to move (send opp)".to_owned(),
            ),
            (
                "opp 0 0",
                format!("error illegal move: take 0 is outside 1..={limit}"),
            ),
            (
                "opp 99 0",
                format!("error illegal move: take 99 is outside 1..={limit}"),
            ),
        ],
    );
}

#[test]
fn resets_are_counted_and_refused_when_spent() {
    let mut s = session();
    assert_eq!(send(&mut s, "new 200 1 3 second"), "ok");
    let reply = send(&mut s, "opp 1 1");
    assert!(reply.starts_with("move "), "{reply}");
    let state = send(&mut s, "state");
    assert!(state.contains(" resets 1 0 "), "{state}");
    assert_eq!(
        send(&mut s, "opp 1 1"),
        "error illegal move: no resets left"
    );
    assert_eq!(send(&mut s, "state"), state);
}

#[test]
fn session_commands_report_version_limits_and_end() {
    let mut s = session();
    assert_eq!(
        send(&mut s, "version"),
        format!("version {} protocol 2", nimbot::SOFTWARE)
    );
    assert_eq!(
        send(&mut s, "limits"),
        format!("limits stones 1000000000 resets 32 init_max any line {MAX_LINE}")
    );
    let help = send(&mut s, "help");
    assert!(help.starts_with("help new "), "{help}");
    // The whole list fits in one reply: nothing cut at MAX_REPLY.
    assert!(help.ends_with(";policy;version;limits"), "{help}");
    assert!(help.contains("query|moves S C A B F"), "{help}");
    dialogue(
        &mut s,
        &[
            ("new 5 0 3 first", "ok"),
            ("end", "ok"),
            ("state", "state none"),
        ],
    );
    assert_eq!(s.handle_line(b"   \t "), None);
}

#[test]
fn a_finished_game_refuses_more_moves() {
    let mut s = session();
    dialogue(
        &mut s,
        &[
            ("new 3 0 3 first", "ok"),
            ("go", "move 3 0 won"),
            ("go", "error the game is over"),
            ("opp 1 0", "error the game is over"),
        ],
    );
    assert!(send(&mut s, "state").ends_with("turn won"));
    dialogue(
        &mut s,
        &[
            ("new 4 0 3 second", "ok"),
            ("opp 3 0", "move 1 0 won"),
            ("new 4 0 3 second", "ok"),
            ("opp 1 0", "move 3 0 won"),
            ("new 2 0 3 second", "ok"),
            ("opp 2 0", "lost"),
        ],
    );
    assert!(send(&mut s, "state").ends_with("turn lost"));
}

#[test]
fn query_agrees_with_the_solver() {
    let sol = Solution::solve(SolveBox::games(150, 2, 3)).unwrap();
    let mut s = session();
    for stones in 1..=150 {
        for cap in 3..=12 {
            for (a, b, f) in [(0, 0, 0), (2, 1, 1), (1, 2, 0), (2, 2, 1)] {
                let pos = Position::new(stones, cap, a, b, f == 1, 3).unwrap();
                let Some(value) = sol.value(&pos) else {
                    continue;
                };
                let reply = send(&mut s, &format!("query {stones} {cap} {a} {b} {f}"));
                let Some(Response::Query {
                    value: said, mv, ..
                }) = Response::parse(reply.as_bytes())
                else {
                    panic!("{pos:?}: {reply}");
                };
                assert_eq!(said, value, "{pos:?}");
                let next = pos.after(mv).expect("legal");
                if value.is_won() {
                    assert!(next.is_none_or(|n| !position_value(&sol, &n).unwrap().is_won()));
                }
            }
        }
    }
}

#[test]
fn lines_split_anywhere_and_overlong_lines_are_refused_once() {
    let long = "x".repeat(MAX_LINE + 1);
    let script = format!(
        "new 20 4 3 first\r\n\n{long}\nstate\n  \nversion\n{}\ngo",
        "9".repeat(500)
    );
    let expected_first = run_script(script.as_bytes(), 1024);
    assert_eq!(expected_first.len(), 6, "{expected_first:?}");
    assert_eq!(expected_first[0], "ok");
    assert_eq!(expected_first[1], "error line too long");
    assert!(expected_first[2].starts_with("state stones 20"));
    assert_eq!(expected_first[4], "error line too long");
    assert!(
        expected_first[5].starts_with("move "),
        "a last line without newline counts"
    );
    for step in 1..=9 {
        assert_eq!(
            run_script(script.as_bytes(), step),
            expected_first,
            "step {step}"
        );
    }
    // A line of exactly MAX_LINE bytes is accepted (and is just an unknown command).
    let exact = format!("{}\n", "y".repeat(MAX_LINE));
    assert_eq!(
        run_script(exact.as_bytes(), 7),
        ["error unknown command (try help)"]
    );
}

/// A reader for `serve_async` that hands out `step` bytes per read and is not ready
/// on every other poll, so the session's loop really waits.
struct Hesitant<'a> {
    data: &'a [u8],
    step: usize,
    ready: bool,
}

impl embedded_io_async::ErrorType for Hesitant<'_> {
    type Error = Infallible;
}

impl embedded_io_async::Read for Hesitant<'_> {
    async fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        core::future::poll_fn(|cx| {
            self.ready = !self.ready;
            if self.ready {
                std::task::Poll::Ready(())
            } else {
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await;
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Poll `fut` to its end on this thread (the futures here wake themselves).
fn block_on<F: std::future::Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

#[test]
fn serve_async_replies_as_serve_does() {
    let long = "x".repeat(MAX_LINE + 1);
    let script =
        format!("new 30 2 3 second\nopp 2 0\n{long}\nstate\n\nopp 1 1\nquery 9 3 1 0 0\ngo");
    let mut sync = session();
    let mut expected: Vec<u8> = Vec::new();
    serve(&mut sync, &mut script.as_bytes(), &mut expected).unwrap();
    assert_eq!(String::from_utf8_lossy(&expected).lines().count(), 7);
    for step in [1, 5, 64] {
        let mut s = session();
        let mut out: Vec<u8> = Vec::new();
        let mut input = Hesitant {
            data: script.as_bytes(),
            step,
            ready: false,
        };
        block_on(serve_async(&mut s, &mut input, &mut out)).unwrap();
        assert_eq!(out, expected, "step {step}");
    }
}

#[test]
fn handle_replies_to_read_lines_as_serve_does() {
    // Adapters with their own read loop (the firmware) pass `Line`s to `handle`.
    let mut s = session();
    let too_long = s.handle(Line::TooLong).expect("a reply");
    assert_eq!(too_long.as_bytes(), b"error line too long");
    assert_eq!(s.handle(Line::Text(b"  ")), None);
    let ok = s.handle(Line::Text(b"new 20 4 3 first")).expect("a reply");
    assert_eq!(ok.as_bytes(), b"ok");
}

#[test]
fn arbitrary_bytes_never_panic_and_get_one_reply_per_line() {
    let mut seed = 12345u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as u8
    };
    let vocab: [&[u8]; 12] = [
        b"new ", b"go", b"opp ", b"query ", b"state", b"1 ", b"0 ", b"999 ", b"first", b"\n",
        b"\r\n", b" ",
    ];
    for _ in 0..300 {
        let mut input = Vec::new();
        for _ in 0..200 {
            let r = next();
            if r < 40 {
                input.push(next());
            } else {
                input.extend_from_slice(vocab[usize::from(r) % vocab.len()]);
            }
        }
        input.push(b'\n');
        let lines = run_script(&input, 1 + usize::from(next() % 16));
        let expected = input
            .split(|b| *b == b'\n')
            .filter(|l| {
                let text = l.strip_suffix(b"\r").unwrap_or(l);
                l.len() > MAX_LINE || text.iter().any(|b| !matches!(b, b' ' | b'\t'))
            })
            .count();
        assert_eq!(lines.len(), expected);
    }
}

/// `MAX_LINE` counts the command without its line ending, `\r\n` included: a line of
/// exactly `MAX_LINE` bytes is accepted with either ending, one byte more is refused.
/// (Found by the `protocol_session` fuzz target: the `\r` used to count.)
#[test]
fn a_full_length_line_with_crlf_is_accepted() {
    let full = format!("state{}", " ".repeat(MAX_LINE - 5));
    let over = format!("state{}", " ".repeat(MAX_LINE - 4));
    let script = format!("{full}\r\n{full}\n{over}\r\n{over}\n{full}\r");
    for step in [1, 7, 64, 1024] {
        let replies = run_script(script.as_bytes(), step);
        assert_eq!(
            replies,
            [
                "state none",
                "state none",
                "error line too long",
                "error line too long",
                "state none"
            ],
            "read {step} bytes at a time"
        );
    }
}

/// The text of the reader's next line from `input` (`None`: the end; a line too
/// long reads as `TOO LONG`).
fn next_text(r: &mut LineReader, input: &mut &[u8]) -> Option<String> {
    match r.next_line(input) {
        Ok(Some(Line::Text(t))) => Some(String::from_utf8_lossy(t).into_owned()),
        Ok(Some(Line::TooLong)) => Some("TOO LONG".into()),
        Ok(None) => None,
        Err(e) => match e {},
    }
}

/// A reader restarted (as the firmware does after an error that garbled a line)
/// forgets what it had read ahead and that its input had ended, and reads the
/// next input as a new reader would.
#[test]
fn a_restarted_line_reader_reads_as_a_new_one() {
    let mut r = LineReader::default();
    let mut input: &[u8] = b"first\nsecond\n";
    assert_eq!(next_text(&mut r, &mut input).as_deref(), Some("first"));
    // `second` was read ahead with `first` (one chunk): a restart drops it.
    r.restart();
    let mut fresh: &[u8] = b"third\nhalf";
    assert_eq!(next_text(&mut r, &mut fresh).as_deref(), Some("third"));
    assert_eq!(next_text(&mut r, &mut fresh).as_deref(), Some("half"));
    assert_eq!(next_text(&mut r, &mut fresh), None);
    // The end of one input is not the end of the next.
    r.restart();
    let mut again: &[u8] = b"fourth\n";
    assert_eq!(next_text(&mut r, &mut again).as_deref(), Some("fourth"));
}

/// `serve`'s error says which side failed, with the error.
#[test]
fn a_serve_error_names_the_side_that_failed() {
    let read: ServeError<u8, u8> = ServeError::Read(4);
    let write: ServeError<u8, u8> = ServeError::Write(5);
    assert_eq!(read.to_string(), "reading the input failed: 4");
    assert_eq!(write.to_string(), "writing a reply failed: 5");
}
