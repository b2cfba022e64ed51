//! `nimbot web`: the browser site (web/, built by `tools/web.sh build` into
//! `web/site/`) served on loopback from files compiled into the binary. The site
//! computes everything in the browser (the core as WebAssembly), so this is a
//! plain static file server: GET and HEAD of a handful of paths, nothing else.
//! A client that accepts gzip (every browser) gets the page, the script and the
//! module gzipped (compressed once, before the server listens, so that the first
//! visitor does not wait for it: about 35 ms here): what the page's
//! transfer size counts.

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

/// The site: path, content type, bytes.
pub const FILES: &[(&str, &str, &[u8])] = &[
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_bytes!("../../web/site/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/site/app.js"),
    ),
    (
        "/nimbot.wasm",
        "application/wasm",
        include_bytes!("../../web/site/nimbot.wasm"),
    ),
    (
        "/distances.bin",
        "application/octet-stream",
        include_bytes!("../../web/site/distances.bin"),
    ),
];

/// Whether a file of this type is sent gzipped to a client that takes gzip
/// (distances.bin is gzip already: the page unzips it itself).
fn compressible(kind: &str) -> bool {
    kind != "application/octet-stream"
}

/// `FILES`' bodies gzipped (the best compression), made once.
fn gzipped(index: usize) -> &'static [u8] {
    static GZ: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let all = GZ.get_or_init(|| {
        FILES
            .iter()
            .map(|(_, _, body)| {
                let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                // Writing to memory does not fail.
                let _ = z.write_all(body);
                z.finish().unwrap_or_default()
            })
            .collect()
    });
    all.get(index).map_or(&[], Vec::as_slice)
}

/// A file's validator (its ETag: the CRC-32 and length of its bytes, and which
/// encoding), so that a browser that has it asks again with `If-None-Match` and
/// gets `304 Not Modified`: a second visit reuses the bytes it has (and Chromium
/// the module it compiled from them).
fn etag(index: usize, gzip: bool) -> String {
    let body = FILES.get(index).map_or(&[][..], |f| f.2);
    let mut crc = flate2::Crc::new();
    crc.update(body);
    format!(
        "\"{:08x}-{:x}{}\"",
        crc.sum(),
        body.len(),
        if gzip { "-gz" } else { "" }
    )
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
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("nimbot web: {e}");
            return ExitCode::from(3);
        }
    };
    // Compressed now, not on the first request (a page's first load would wait for it).
    let _ = gzipped(0);
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
            if let Some((name, value)) = header.split_once(':') {
                let name = name.trim();
                gzip |= name.eq_ignore_ascii_case("accept-encoding")
                    && value.split(',').any(|v| v.trim().starts_with("gzip"));
                if name.eq_ignore_ascii_case("if-none-match") {
                    has = value.trim().to_owned();
                }
            }
        }
        let mut words = request.split_whitespace();
        let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let path = target.split(['?', '#']).next().unwrap_or("");
        let path = if path == "/" { "/index.html" } else { path };
        let file = FILES.iter().position(|(p, _, _)| *p == path);
        let (status, kind, body, encoding, tag): (&str, &str, &[u8], &str, _) = match (method, file)
        {
            ("GET" | "HEAD", Some(i)) => {
                let (_, kind, body) = FILES[i];
                let packed = gzip && compressible(kind);
                let tag = etag(i, packed);
                let (body, encoding) = if packed {
                    (gzipped(i), "Content-Encoding: gzip\r\n")
                } else {
                    (body, "")
                };
                if has.split(',').any(|t| t.trim() == tag || t.trim() == "*") {
                    ("304 Not Modified", kind, &[][..], encoding, Some(tag))
                } else {
                    ("200 OK", kind, body, encoding, Some(tag))
                }
            }
            ("GET" | "HEAD", None) => ("404 Not Found", "text/plain", b"not found\n", "", None),
            _ => (
                "405 Method Not Allowed",
                "text/plain",
                b"GET only\n",
                "",
                None,
            ),
        };
        // The headers and the body in one write. `no-cache`: a browser may keep
        // the files but asks each time whether they changed (a new build of the
        // binary serves new ones).
        let validator = tag.map_or(String::new(), |t| format!("ETag: {t}\r\n"));
        let length = if status.starts_with("304") {
            String::new()
        } else {
            format!("Content-Length: {}\r\n", body.len())
        };
        let mut answer = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\n{length}\
             {encoding}{validator}Vary: Accept-Encoding\r\nCache-Control: no-cache\r\n\
             X-Content-Type-Options: nosniff\r\n\r\n"
        )
        .into_bytes();
        if method != "HEAD" {
            answer.extend_from_slice(body);
        }
        out.write_all(&answer)?;
        out.flush()?;
    }
}
