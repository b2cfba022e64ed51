//! A whole game through the library, no processes: the referee's server on a
//! loopback listener, two TCP clients playing from the embedded table, the
//! server's record read back and analyzed. Each part is checked by another: the
//! winner the referee declares is the one the solver says wins the start, both
//! clients agree, and the analysis of the record finds no blunder by the winner.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use nimbot::{Params, Player, Policy, Value};
use nimbot_analysis::analysis::Analysis;
use nimbot_match::client::play_tcp;
use nimbot_match::recorder::Recorder;
use nimbot_match::serve::{referee, Log, ServeOptions};
use nimbot_platform::referee::CurrentMax;
use nimbot_platform::tcp_client::Client;
use nimbot_solve::{Solution, SolveBox, TableOrSolverEngine};

const WAIT: Duration = Duration::from_secs(30);

fn game(stones: u32, resets: u8) {
    let params = Params::new(stones, resets, 3).unwrap();
    let solution = Solution::solve(SolveBox::games(stones, resets, 3)).unwrap();
    let expected = if solution.value(&params.start()) == Some(Value::Won) {
        Player::First
    } else {
        Player::Second
    };
    let dir = std::env::temp_dir().join(format!(
        "nimbot-match-game-{}-{stones}-{resets}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("serve.jsonl");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let options = ServeOptions {
        params,
        time: 30.0,
        current_max: CurrentMax::Limit,
        welcome_extras: false,
        join_timeout: Some(WAIT),
        pace: Duration::ZERO,
    };
    let record = path.clone();
    let server = thread::spawn(move || {
        let mut log = Log::new(Box::new(std::io::sink()));
        let mut recorder = Some(Recorder::create(&record, "serve", None, None).unwrap());
        let winner = referee(&options, listener, &mut log, &mut None, &mut recorder);
        if let (Some(r), Ok(w)) = (recorder, &winner) {
            r.finish(*w, "no result").unwrap();
        }
        winner
    });
    let players: Vec<_> = [Player::First, Player::Second]
        .into_iter()
        .map(|seat| {
            thread::spawn(move || {
                let name: &[u8] = if seat == Player::First {
                    b"one"
                } else {
                    b"two"
                };
                let client = Client::new(seat, name, 3)
                    .unwrap()
                    .with_policy(Policy::Trap);
                let stream = TcpStream::connect(addr).unwrap();
                let mut engine = TableOrSolverEngine::embedded();
                play_tcp(
                    stream,
                    client,
                    &mut engine,
                    Some(WAIT),
                    Duration::ZERO,
                    None,
                )
            })
        })
        .collect();
    let winner = server.join().unwrap().unwrap();
    assert_eq!(winner, Some(expected), "N = {stones}, R = {resets}");
    for p in players {
        let result = p.join().unwrap().unwrap();
        assert_eq!(result.winner, expected, "N = {stones}, R = {resets}");
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let analysis =
        Analysis::of_text(&mut TableOrSolverEngine::embedded(), &text, resets, 3).unwrap();
    assert_eq!(analysis.stones, stones);
    assert_eq!(analysis.winner, Some(expected.index()));
    assert_eq!(analysis.summary().blunders[expected.index()], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refereed_game_ends_as_the_solver_says_and_its_record_shows_no_winning_blunder() {
    for (stones, resets) in [(20, 4), (57, 2), (8, 0), (100, 4)] {
        game(stones, resets);
    }
}

/// A hello, then one read: what a client that reads once per message gets.
fn join_raw(addr: std::net::SocketAddr, name: &str, order: u8) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(WAIT)).unwrap();
    s.write_all(format!("{{\"name\": \"{name}\", \"order\": {order}}}").as_bytes())
        .unwrap();
    s
}

fn read_once(s: &mut TcpStream) -> (String, Instant) {
    let mut buf = [0u8; 1024];
    let n = s.read(&mut buf).unwrap();
    (
        String::from_utf8_lossy(&buf[..n]).into_owned(),
        Instant::now(),
    )
}

#[test]
fn the_pace_keeps_two_messages_to_a_client_apart_and_off_the_clocks() {
    let pace = Duration::from_millis(300);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let options = ServeOptions {
        params: Params::new(5, 0, 3).unwrap(),
        time: 30.0,
        current_max: CurrentMax::Limit,
        welcome_extras: false,
        join_timeout: Some(WAIT),
        pace,
    };
    let server = thread::spawn(move || {
        let mut log = Log::new(Box::new(std::io::sink()));
        referee(&options, listener, &mut log, &mut None, &mut None)
    });
    let mut a = join_raw(addr, "a", 0);
    let mut b = join_raw(addr, "b", 1);
    let (welcome, _) = read_once(&mut a);
    assert_eq!(welcome, r#"{"init_stones": 5, "init_resets": 0}"#);
    // The first player moves at once; the second reads once per message and gets
    // the welcome alone, then the state of that move no sooner than the pace after.
    a.write_all(br#"{"order": 0, "num_stones": 2, "reset": false}"#)
        .unwrap();
    let (welcome, t0) = read_once(&mut b);
    assert_eq!(welcome, r#"{"init_stones": 5, "init_resets": 0}"#);
    let (state, t1) = read_once(&mut b);
    assert!(
        state.starts_with(r#"{"finished": false"#) && state.ends_with('}'),
        "{state}"
    );
    assert_eq!(state.matches("finished").count(), 1, "{state}");
    // ... and no later than that: `serve` cannot see what a client has not read,
    // so it waits the pace only, never the 2 s it gives a client it can see.
    assert!(
        t1 - t0 >= pace - Duration::from_millis(100)
            && t1 - t0 < pace + Duration::from_millis(1500),
        "{:?}",
        t1 - t0
    );
    // The waits are on nobody's clock: the second player's reply comes at once.
    let (state_a, _) = read_once(&mut a);
    assert_eq!(state_a, state);
    b.write_all(br#"{"order": 1, "num_stones": 3, "reset": false}"#)
        .unwrap();
    let (end, _) = read_once(&mut a);
    assert!(end.contains(r#""winner": "b""#), "{end}");
    let clock = |text: &str, seat: &str| -> f64 {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        v[seat]["time_taken"].as_f64().unwrap()
    };
    assert!(clock(&end, "player_0") < 0.2, "{end}");
    assert!(clock(&end, "player_1") < 0.2, "{end}");
    assert_eq!(server.join().unwrap().unwrap(), Some(Player::Second));
}
