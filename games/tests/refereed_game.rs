//! A whole game through the library, no processes: the referee's server on a
//! loopback listener, two TCP clients playing from the embedded table, the
//! server's record read back and analyzed. Each part is checked by another: the
//! winner the referee declares is the one the solver says wins the start, both
//! clients agree, and the analysis of the record finds no blunder by the winner.

use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::Duration;

use nimbot::engine::TableOrSolverEngine;
use nimbot::solver::{Solution, SolveBox};
use nimbot::{Params, Player, Policy, Value};
use nimbot_games::client::play_tcp;
use nimbot_games::recorder::Recorder;
use nimbot_games::serve::{referee, Log, ServeOptions};
use nimbot_platform::referee::CurrentMax;
use nimbot_platform::tcp_client::Client;
use nimbot_study::analysis::Analysis;

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
        "nimbot-games-game-{}-{stones}-{resets}",
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
