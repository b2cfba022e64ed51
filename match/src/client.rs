//! How nimbot plays one tournament game on a host, once its client is set up: over
//! TCP with the platform's server ([`play_tcp`]) or through the stock `exp-nim`
//! text client ([`play_text`]). The protocols are `nimbot_platform`'s clients;
//! these loops only move bytes, keep the clocks and feed the [`Recorder`]. Here
//! rather than in the CLI so that a test or another front end can play a game
//! over any stream.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use nimbot::Engine;
use nimbot_platform::json::{Feed, Splitter};
use nimbot_platform::tcp_client::{Client, Step};
use nimbot_platform::text_client::{TextAction, TextClient};
use nimbot_platform::wire::{GameResult, MAX_MESSAGE};

use crate::recorder::Recorder;

/// Play the game on `stream` to its end: the result, or why there is none.
///
/// The socket gets TCP_NODELAY, and TCP_QUICKACK re-armed before every read (so
/// the server's state messages are not held back by delayed ACKs, which the server
/// charges to our clock); `timeout` bounds the wait for any byte of the server
/// (`None`: forever); every move is sent no sooner than `pace` after the server's
/// last message (the stock Python clients crash on two state messages at once).
///
/// # Errors
/// Why the game has no result: the socket's, the splitter's or the client's
/// reason, one line.
pub fn play_tcp<E: Engine + ?Sized>(
    mut stream: TcpStream,
    mut client: Client,
    engine: &mut E,
    timeout: Option<Duration>,
    pace: Duration,
    mut recorder: Option<&mut Recorder>,
) -> Result<GameResult, String> {
    let _ = stream.set_nodelay(true);
    if timeout.is_some() {
        let _ = stream.set_read_timeout(timeout);
    }
    stream
        .write_all(&client.hello())
        .map_err(|e| format!("send failed: {e}"))?;
    let mut splitter: Splitter<MAX_MESSAGE> = Splitter::new();
    let mut buf = [0u8; 4096];
    loop {
        let _ = socket2::SockRef::from(&stream).set_tcp_quickack(true);
        let read = stream.read(&mut buf);
        let arrived = Instant::now();
        let n = match read {
            Ok(0) => {
                return Err("the server closed the connection before the end (no result)".into())
            }
            Ok(n) => n,
            Err(e) => return Err(format!("read failed: {e}")),
        };
        for &b in buf.get(..n).unwrap_or(&[]) {
            match splitter.feed(b) {
                Ok(Feed::Pending) => continue,
                Ok(Feed::Complete) => {}
                Err(e) => return Err(e.as_str().into()),
            }
            let msg = splitter.object().unwrap_or(&[]);
            let step = client.handle(msg, engine);
            if let Some(r) = recorder.as_deref_mut() {
                r.state(client.game(), msg, true);
            }
            match step {
                Ok(Step::Wait) => {}
                Ok(Step::Send(bytes)) => {
                    let wait = pace.saturating_sub(arrived.elapsed());
                    if !wait.is_zero() {
                        std::thread::sleep(wait);
                    }
                    stream
                        .write_all(&bytes)
                        .map_err(|e| format!("send failed: {e}"))?;
                }
                Ok(Step::Finished(r)) => return Ok(r),
                Err(e) => return Err(e.as_str().into()),
            }
        }
    }
}

/// Play a game through the `exp-nim` text client to its end: its output comes on
/// `input`, nimbot's moves go to `output`, flushed one by one (the client waits
/// for each). exp-nim shows no clocks: the record gets nimbot's own time per move.
///
/// # Errors
/// Why the game has no result: the streams', or the text client's reason, one
/// line.
pub fn play_text<E: Engine + ?Sized>(
    mut client: TextClient,
    engine: &mut E,
    mut input: impl Read,
    mut output: impl Write,
    mut recorder: Option<&mut Recorder>,
) -> Result<GameResult, String> {
    client.prepare(engine).map_err(|e| e.as_str().to_owned())?;
    let mut buf = [0u8; 4096];
    loop {
        let read = input.read(&mut buf);
        let arrived = Instant::now();
        let n = match read {
            Ok(0) => {
                let end = client.end_of_input();
                if let Some(r) = recorder.as_deref_mut() {
                    r.game(client.game(), None);
                }
                return end.map_err(|e| e.as_str().to_owned());
            }
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("read failed: {e}")),
        };
        for &b in buf.get(..n).unwrap_or(&[]) {
            let action = client.feed(b, engine);
            if let Some(r) = recorder.as_deref_mut() {
                if let Ok(TextAction::Send(_)) = action {
                    r.own_clock(arrived.elapsed().as_secs_f64());
                }
                r.game(client.game(), None);
            }
            match action {
                Ok(TextAction::None) => {}
                Ok(TextAction::Send(line)) => output
                    .write_all(&line)
                    .and_then(|()| output.flush())
                    .map_err(|e| format!("write failed: {e}"))?,
                Ok(TextAction::Finished(r)) => return Ok(r),
                Err(e) => return Err(e.as_str().to_owned()),
            }
        }
    }
}

/// Connect to `addr`; with `retry` seconds, keep trying a server that is not up
/// yet, with growing pauses, and tell `retrying` the first failure (once).
///
/// # Errors
/// The last failure, in words, once `retry` seconds have passed.
pub fn reach(addr: &str, retry: f64, retrying: &mut dyn FnMut(&str)) -> Result<TcpStream, String> {
    let deadline = Instant::now() + Duration::from_secs_f64(retry);
    let mut pause = RETRY_FIRST_PAUSE;
    let mut said = false;
    loop {
        let err = match connect_once(addr) {
            Ok(s) => return Ok(s),
            Err(e) => e,
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(err);
        }
        if !said {
            retrying(&err);
            said = true;
        }
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(RETRY_MAX_PAUSE);
    }
}

/// The first pause between attempts of `--retry`, doubled after each up to
/// [`RETRY_MAX_PAUSE`].
const RETRY_FIRST_PAUSE: Duration = Duration::from_millis(100);
const RETRY_MAX_PAUSE: Duration = Duration::from_secs(2);

fn connect_once(addr: &str) -> Result<TcpStream, String> {
    let addrs = addr
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {addr}: {e}"))?;
    let mut last_err = String::from("no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, Duration::from_secs(10)) {
            Ok(s) => return Ok(s),
            Err(e) => last_err = e.to_string(),
        }
    }
    Err(format!("cannot connect to {addr}: {last_err}"))
}
