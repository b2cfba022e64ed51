//! `nimbot web`: the browser site (web/, built by `tools/web.sh build` into
//! `web/site/`) served on loopback from files compiled into the binary. The site
//! computes everything in the browser (the core as WebAssembly), so this is a
//! plain static file server: GET and HEAD of a handful of paths, nothing else.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Duration;

use clap::Args;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  nimbot web                 http://127.0.0.1:8700/\n  \
    nimbot web --port 0        any free port (the line printed names it)"
)]
pub struct WebArgs {
    /// The port on 127.0.0.1 (0: any free one).
    #[arg(long, short = 'p', default_value_t = 8700)]
    port: u16,
}

/// A file of `web/site/` as served: its path, type and bytes, the bytes gzipped
/// (the best compression: what the page's transfer counts; not distances.bin,
/// gzip already), and its ETags plain and gzipped (CRC-32 and length): a browser
/// that has a file asks with `If-None-Match` and gets `304 Not Modified`, so a
/// second visit reuses its bytes (and Chromium the module it compiled).
struct File {
    path: &'static str,
    kind: &'static str,
    body: &'static [u8],
    gz: Option<Vec<u8>>,
    tags: [String; 2],
}

macro_rules! site_file {
    ($name:literal, $kind:literal) => {
        (
            concat!("/", $name),
            $kind,
            &include_bytes!(concat!("../../web/site/", $name))[..],
        )
    };
}

/// The site, compressed once (before the server listens: a first visitor would
/// wait for it, about 35 ms here).
fn site() -> &'static [File] {
    static SITE: OnceLock<Vec<File>> = OnceLock::new();
    SITE.get_or_init(|| {
        [
            site_file!("index.html", "text/html; charset=utf-8"),
            site_file!("app.js", "text/javascript; charset=utf-8"),
            site_file!("nimbot.wasm", "application/wasm"),
            site_file!("distances.bin", "application/octet-stream"),
        ]
        .into_iter()
        .map(|(path, kind, body)| {
            let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            let _ = z.write_all(body); // to memory: cannot fail
            let gz = (kind != "application/octet-stream").then(|| z.finish().unwrap_or_default());
            let mut crc = flate2::Crc::new();
            crc.update(body);
            let tag = |zip| format!("\"{:08x}-{:x}{zip}\"", crc.sum(), body.len());
            let tags = [tag(""), tag("-gz")];
            File {
                path,
                kind,
                body,
                gz,
                tags,
            }
        })
        .collect()
    })
}

pub fn run(args: &WebArgs) -> ExitCode {
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, args.port)) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            eprintln!(
                "nimbot web: port {} is taken on 127.0.0.1 (another server?); try --port {} or --port 0",
                args.port,
                args.port.wrapping_add(1)
            );
            return ExitCode::from(3);
        }
        Err(e) => {
            eprintln!("nimbot web: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return ExitCode::from(3);
        }
    };
    let Ok(addr) = listener.local_addr() else {
        eprintln!("nimbot web: the socket has no address");
        return ExitCode::from(3);
    };
    let _ = site();
    println!("serving http://{addr}/ (Ctrl-C stops)");
    for stream in listener.incoming().flatten() {
        std::thread::spawn(move || {
            let _ = respond(stream);
        });
    }
    ExitCode::SUCCESS
}

/// Answer the requests of one connection (kept alive until the client closes).
fn respond(stream: TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    // Each answer goes out at once: with Nagle's algorithm a body written after
    // its headers waits for the client's delayed acknowledgement (40 ms on Linux)
    // on a kept-alive connection.
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    loop {
        let mut request = String::new();
        if reader.read_line(&mut request)? == 0 {
            return Ok(());
        }
        // The headers: whether the client takes gzip, the validators it has, and
        // their end.
        let mut gzip = false;
        let mut has = String::new();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
                break;
            }
            // (Our validators are lower case, like every header's name.)
            let header = header.to_ascii_lowercase();
            if let Some(value) = header.strip_prefix("accept-encoding:") {
                gzip = value.split(',').any(|v| v.trim().starts_with("gzip"));
            } else if let Some(value) = header.strip_prefix("if-none-match:") {
                has = value.trim().to_owned();
            }
        }
        let mut words = request.split_whitespace();
        let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let path = target.split(['?', '#']).next().unwrap_or("");
        let path = if path == "/" { "/index.html" } else { path };
        let file = site().iter().find(|f| f.path == path);
        let (status, kind, body, more): (&str, &str, &[u8], String) = match (method, file) {
            ("GET" | "HEAD", Some(f)) => {
                let (body, tag, zip) = match &f.gz {
                    Some(gz) if gzip => (&gz[..], &f.tags[1], "Content-Encoding: gzip\r\n"),
                    _ => (f.body, &f.tags[0], ""),
                };
                let fresh = has.split(',').any(|t| t.trim() == tag || t.trim() == "*");
                let status = if fresh { "304 Not Modified" } else { "200 OK" };
                (status, f.kind, body, format!("{zip}ETag: {tag}\r\n"))
            }
            ("GET" | "HEAD", None) => {
                ("404 Not Found", "text/plain", b"not found\n", String::new())
            }
            _ => (
                "405 Method Not Allowed",
                "text/plain",
                b"GET only\n",
                String::new(),
            ),
        };
        // A 304 has no body: the length is the client's copy's.
        let (body, length) = match status.starts_with("304") {
            true => (&[][..], String::new()),
            false => (body, format!("Content-Length: {}\r\n", body.len())),
        };
        // The headers and the body in one write. `no-cache`: a browser may keep
        // the files but asks each time whether they changed (a new build of the
        // binary serves new ones).
        let mut answer = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\n{length}{more}Vary: Accept-Encoding\r\n\
             Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n\r\n"
        )
        .into_bytes();
        if method != "HEAD" {
            answer.extend_from_slice(body);
        }
        out.write_all(&answer)?;
        out.flush()?;
    }
}
