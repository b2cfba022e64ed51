//! `nimbot connect` against `nimbot connect` through `nimbot serve`, directly and
//! through a proxy that coalesces and splits the server's messages.

mod common;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use common::{connect, first_wins, Referee};
use nimbot_platform::json::{Feed, Splitter};

/// Play one game; assert the side with the won start wins and nothing illegal
/// happens (the judge of the test support replays the referee's game log).
fn game(n: u32, r: u8, m: u32, via_proxy: bool, cut: usize) {
    let referee = Referee::start(&[
        &n.to_string(),
        &r.to_string(),
        "-m",
        &m.to_string(),
        "-t",
        "30",
    ]);
    let addr_for = |_| referee.addr.clone();
    let (a0, a1) = if via_proxy {
        (proxy(&referee.addr, cut), proxy(&referee.addr, cut + 1))
    } else {
        (addr_for(0), addr_for(1))
    };
    let p0 = connect(&a0, true, "same", m);
    thread::sleep(Duration::from_millis(5));
    let p1 = connect(&a1, false, "same", m);
    let (c0, _, e0) = p0.finish(30.0);
    let (c1, _, e1) = p1.finish(30.0);
    let (code, log, judged) = referee.end_judged(10.0, n, r, m);
    assert_eq!(code, Some(0), "referee: {log}");
    let want = first_wins(n, r, m);
    let ctx = format!("N={n} R={r} M={m} proxy={via_proxy} cut={cut}\n{e0}{e1}{log}");
    assert_eq!(judged.winner == 0, want, "the judge's winner: {ctx}");
    assert_eq!(c0, Some(if want { 0 } else { 1 }), "{ctx}");
    assert_eq!(c1, Some(if want { 1 } else { 0 }), "{ctx}");
    assert!(log.contains("won the game! Congrats!"), "{ctx}");
    assert_eq!(e0.lines().count(), 1, "{ctx}");
    assert_eq!(e1.lines().count(), 1, "{ctx}");
}

#[test]
fn connect_plays_connect_for_many_n() {
    let start = Instant::now();
    for n in 1..=24 {
        game(n, if n % 3 == 0 { 0 } else { 2 }, 3, false, 0);
    }
    for n in [100, 257, 999] {
        game(n, 4, 3, false, 0);
    }
    // Other M: no table, so both sides solve.
    game(64, 1, 1, false, 0);
    game(80, 3, 5, false, 0);
    eprintln!("29 games in {:?}", start.elapsed());
}

#[test]
fn connect_survives_coalesced_and_split_messages() {
    let start = Instant::now();
    for (i, (n, r)) in [(30, 2), (57, 4), (100, 4), (200, 4), (999, 4), (13, 0)]
        .into_iter()
        .enumerate()
    {
        game(n, r, 3, true, 1 + 37 * i);
    }
    eprintln!("6 proxied games in {:?}", start.elapsed());
}

/// A one-connection proxy to `server`. Client bytes go through as they come. Server
/// bytes are held until two objects are complete or 3 ms pass quietly, then written
/// in three pieces cut at offsets that move with every flush (starting at `cut`).
fn proxy(server: &str, cut: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let server = server.to_string();
    thread::spawn(move || {
        let (client, _) = listener.accept().unwrap();
        let upstream = TcpStream::connect(&server).unwrap();
        client.set_nodelay(true).unwrap();
        upstream.set_nodelay(true).unwrap();
        let (mut c_in, mut u_out) = (client.try_clone().unwrap(), upstream.try_clone().unwrap());
        thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = c_in.read(&mut buf) {
                if n == 0 || u_out.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            let _ = u_out.shutdown(Shutdown::Write);
        });
        let (mut u_in, mut c_out) = (upstream, client);
        u_in.set_read_timeout(Some(Duration::from_millis(3)))
            .unwrap();
        let mut splitter: Splitter<4096> = Splitter::new();
        let mut pending: Vec<u8> = Vec::new();
        let mut complete = 0;
        let mut flushes = cut;
        let mut buf = [0u8; 1024];
        loop {
            let r = u_in.read(&mut buf);
            let closed = matches!(r, Ok(0))
                || matches!(&r, Err(e) if e.kind() != std::io::ErrorKind::WouldBlock && e.kind() != std::io::ErrorKind::TimedOut);
            if let Ok(n) = r {
                for &b in &buf[..n] {
                    if splitter.feed(b) == Ok(Feed::Complete) {
                        complete += 1;
                    }
                }
                pending.extend_from_slice(&buf[..n]);
                if n > 0 && complete < 2 {
                    continue;
                }
            }
            if !pending.is_empty() {
                let len = pending.len();
                let a = flushes % len;
                let b = (a + (flushes * 7) % (len - a + 1)).min(len);
                for piece in [&pending[..a], &pending[a..b], &pending[b..]] {
                    if !piece.is_empty() {
                        let _ = c_out.write_all(piece);
                        thread::sleep(Duration::from_micros(300));
                    }
                }
                flushes += 1;
                pending.clear();
                complete = 0;
            }
            if closed {
                let _ = c_out.shutdown(Shutdown::Both);
                break;
            }
        }
    });
    addr
}
