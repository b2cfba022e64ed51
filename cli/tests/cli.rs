//! The `nimbot` binary as a user runs it: arguments, exit codes, stdin/stdout.

use std::process::{Command, Output, Stdio};

use nimbot_protocol::grammar::Response;

mod common;

fn nimbot(args: &[&str], stdin: &str) -> Output {
    common::nimbot_with(args, stdin)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The stdout of a run that must have succeeded (its stderr shown if not).
fn succeeded(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    stdout(o)
}

#[test]
fn query_prints_value_and_move() {
    let o = nimbot(&["query", "8", "3", "0", "0", "0"], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "win 1 0 3\n");
    // 4 stones, cap 3, no resets: every take leaves the opponent a pile it can empty.
    let o = nimbot(&["query", "4", "3", "0", "0", "0"], "");
    assert_eq!(stdout(&o), "lose 1 0 2\n");
    // After a reset the limit is M: 5 stones, M = 1, reset pending, cap open. Taking
    // 1 without a reset hands over an open cap; with the only reset it wins, since
    // the opponent has none to answer with.
    let o = nimbot(&["query", "5", "9", "1", "0", "1", "--init-max", "1"], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "win 1 1 3\n");
    // A position far outside any game of the default box is solved on the fly.
    let o = nimbot(&["query", "5000", "60", "4", "4", "0"], "");
    let out = succeeded(&o);
    assert!(
        matches!(
            Response::parse(out.trim_end().as_bytes()),
            Some(Response::Query { .. })
        ),
        "{out}"
    );
}

#[test]
fn malformed_query_arguments_exit_2_with_a_message() {
    for args in [
        &["query", "8", "3", "0", "0"][..],
        &["query", "8", "3", "0", "0", "2"],
        &["query", "x", "3", "0", "0", "0"],
        &["query", "0", "3", "0", "0", "0"],
        &["query", "8", "2", "0", "0", "0"],
        &["query", "8", "3", "99", "0", "0"],
        &["query", "8", "3", "-1", "0", "0"],
        &["query", "8", "3", "0", "0", "0", "--init-max", "0"],
    ] {
        let o = nimbot(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn a_flag_before_the_command_says_where_it_goes() {
    let o = nimbot(&["--policy", "first", "query", "8", "3", "0", "0", "0"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("tip: a command's flags go after its name, `nimbot query --FLAG ...`"),
        "{err}"
    );
    // After the command's name the same flag is the command's own.
    let o = nimbot(&["query", "--policy", "first", "8", "3", "0", "0", "0"], "");
    assert_eq!(succeeded(&o), "win 1 0 3\n");
}

#[test]
fn stdin_speaks_the_line_protocol() {
    for args in [&[][..], &["serial"]] {
        let o = nimbot(args, "version\nnew 3 0 3 first\ngo\nbogus\n");
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines[0].starts_with("version nimbot "));
        assert_eq!(
            &lines[1..],
            ["ok", "move 3 0 won", "error unknown command (try help)"]
        );
    }
}

#[test]
fn help_explains_the_commands() {
    let o = nimbot(&["--help"], "");
    assert_eq!(o.status.code(), Some(0));
    let help = stdout(&o);
    for word in ["serial", "query", "demo", "bench", "Examples"] {
        assert!(help.contains(word), "--help lacks {word}:\n{help}");
    }
    let help = stdout(&nimbot(&["help", "serial"], ""));
    assert!(help.contains("opp K F"), "{help}");
}

#[test]
fn demo_plays_a_whole_game_and_wins_a_won_start() {
    // 8 stones, no resets: the first player wins.
    let o = nimbot(&["demo", "--stones", "8", "--resets", "0"], "");
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("the first player (nimbot) wins"), "{out}");
    assert!(out.trim_end().ends_with("nimbot wins."), "{out}");
}

#[test]
fn bench_prints_json_lines() {
    let o = nimbot(
        &["bench", "--stones", "60", "--resets", "1", "--runs", "3"],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0]
        .starts_with("{\"bench\":\"solve\",\"stones\":60,\"resets\":1,\"init_max\":3,\"states\":"));
    assert!(lines[1].starts_with("{\"bench\":\"decide\","));
    assert!(lines.iter().all(|l| l.ends_with('}')));
}

#[test]
fn bench_reaches_every_benchmark_by_its_flag_or_its_name() {
    let first_words = |args: &[&str]| -> Vec<String> {
        let out = succeeded(&nimbot(args, ""));
        out.lines()
            .map(|l| l.split(',').next().unwrap_or(l).to_owned())
            .collect()
    };
    assert_eq!(
        first_words(&["bench", "--supernim", "6", "--runs", "1"]),
        ["{\"bench\":\"supernim-solver\""]
    );
    let table = ["bench", "table", "--json", "-n", "100", "--runs", "1"];
    assert_eq!(
        first_words(&[&table[..], &["--no-compare"]].concat()),
        [
            "{\"bench\":\"generate\"",
            "{\"bench\":\"table_probe\"",
            "{\"bench\":\"table_decide\""
        ]
    );
    // The flags of one benchmark are not another's.
    let o = nimbot(&["bench", "-n", "100", "table"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = nimbot(&["bench", "table", "--exploit"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_tournament_bench_plays_every_game_once_under_both_names() {
    for args in [
        &["bench", "tournament", "4", "-c", "2"][..],
        &["tournament", "--bench", "4", "-c", "2"],
    ] {
        let out = succeeded(&nimbot(args, ""));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(
            lines[0].starts_with(
                "4 games (N drawn from 5..60, seed 1, nimbot:longest against nimbot:trap) at concurrency 2 on "
            ),
            "{out}"
        );
        assert_eq!(
            lines[3],
            "results on disk: 4 distinct games of 4 scheduled, 0 written twice, 0 without a result"
        );
    }
}

#[test]
fn arena_wins_every_won_start_against_every_opponent() {
    let o = nimbot(
        &[
            "arena",
            "--json",
            "--starts",
            "60",
            "--seeds",
            "2",
            "--list-losses",
        ],
        "",
    );
    let losses = String::from_utf8_lossy(&o.stderr).into_owned();
    // Only lost starts are ever lost, and each loss is named.
    assert!(
        losses
            .lines()
            .all(|l| l.starts_with("lost: ") && l.ends_with("(lost start)")),
        "{losses}"
    );
    assert!(losses.contains(" N 1 nimbot second "), "{losses}");
    let out = succeeded(&o);
    let lines: Vec<&str> = out.lines().collect();
    // (13 fallible + 12 systematic families) x 4 policies.
    assert_eq!(lines.len(), 100, "{out}");
    for line in &lines {
        assert!(
            line.starts_with("{\"game\":\"expanding-nim\",\"opponent\":\""),
            "{line}"
        );
        let cell: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!(cell["won_start_rate"], 1.0, "a won start was lost: {line}");
        assert_ne!(cell["lost_starts"], 0, "{line}");
    }
    for policy in ["first", "trap", "longest", "exploit"] {
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.contains(&format!("\"policy\":\"{policy}\"")))
                .count(),
            25
        );
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    // As in `nimbot arena | head -1`: read one line, then close the pipe.
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimbot"))
        .args(["arena", "--seeds", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("nimbot vs fallible opponents"), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(141), "{err}");
}

/// `nimbot query ARGS`: exit code, stdout, stderr.
fn query(args: &[&str]) -> (Option<i32>, String, String) {
    let o = nimbot(&[&["query"], args].concat(), "");
    (
        o.status.code(),
        stdout(&o),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn fibonacci_query_prints_win_or_lose_and_the_take() {
    // 20 = 13 + 5 + 2: take 2 from the start (limit 19).
    assert_eq!(query(&["--game", "fibonacci", "20", "19"]).1, "win 2\n");
    // 21 is a Fibonacci number: the start is lost, the bot would take 1.
    assert_eq!(query(&["--game", "fibonacci", "21", "20"]).1, "lose 1\n");
    // 22 = 21 + 1 with limit 2: take 1 (the seed's example).
    assert_eq!(query(&["--game", "fibonacci", "22", "21"]).1, "win 1\n");
    // 20 with limit 1: the smallest term 2 is out of reach.
    let (code, out, _) = query(&["--game", "fibonacci", "20", "1"]);
    assert_eq!((code, out.as_str()), (Some(0), "lose 1\n"));
    // A pile within the limit is taken whole.
    assert_eq!(query(&["--game", "fibonacci", "8", "8"]).1, "win 8\n");
    // The default game is still Expanding Nim, and it can be named.
    assert_eq!(query(&["8", "3", "0", "0", "0"]).1, "win 1 0 3\n");
    assert_eq!(
        query(&["--game", "expanding", "8", "3", "0", "0", "0"]).1,
        "win 1 0 3\n"
    );
    for bad in [
        &["--game", "fibonacci", "0", "3"][..],
        &["--game", "fibonacci", "5", "0"],
        &["--game", "fibonacci", "5"],
        &["--game", "fibonacci", "5", "3", "1"],
        &["--game", "fibonacci", "x", "3"],
        &["--game", "chess", "5", "3"],
    ] {
        let (code, out, err) = query(bad);
        assert_eq!(code, Some(2), "{bad:?}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
    }
}

#[test]
fn super_nim_arena_prints_one_json_line_and_is_reproducible() {
    let run = |opponent: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_nimbot"))
            .args([
                "arena",
                "--game",
                "super-nim",
                "--opponent",
                opponent,
                "--games",
                "4",
                "--nodes",
                "500",
                "--cap",
                "60",
                "--json",
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        let out = String::from_utf8(o.stdout).unwrap();
        assert_eq!(out.lines().count(), 1, "{out}");
        let line = out.trim_end().to_owned();
        assert!(line.starts_with('{') && line.ends_with('}'), "{line}");
        // Drop the timing; the rest must repeat exactly.
        line.split(",\"seconds\"").next().unwrap().to_owned()
    };
    for opponent in ["random", "greedy"] {
        let line = run(opponent);
        let field = |name: &str| -> u32 {
            let at = line.find(&format!("\"{name}\":")).unwrap() + name.len() + 3;
            line[at..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert_eq!(
            field("wins") + field("losses") + field("draws"),
            4,
            "{line}"
        );
        assert_eq!(run(opponent), line);
    }
    let o = Command::new(env!("CARGO_BIN_EXE_nimbot"))
        .args(["arena", "--game", "fibonacci"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn moves_lists_every_move_as_the_line_protocol_does() {
    // A position beyond the table (solved on the fly) and one inside it.
    for (pos, m) in [
        ("8 3 1 0 0", "3"),
        ("1200 30 2 1 1", "3"),
        ("9 9 1 1 0", "2"),
    ] {
        let args: Vec<&str> = ["moves", "--json", "-m", m]
            .into_iter()
            .chain(pos.split(' '))
            .collect();
        let o = nimbot(&args, "");
        assert_eq!(o.status.code(), Some(0), "{pos}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        // The protocol's pages, read by the grammar and joined: (take, reset, wins,
        // distance) of every move, after the position's value and distance.
        let mut protocol = Vec::new();
        let mut from = 0;
        let head = loop {
            let o = nimbot(&[], &format!("new 2000 2 {m} first\nmoves {pos} {from}\n"));
            let out = stdout(&o);
            let reply = out.lines().nth(1).unwrap();
            let Some(Response::Moves(page)) = Response::parse(reply.as_bytes()) else {
                panic!("{pos}: {reply}");
            };
            protocol.extend(page.moves.iter().map(|e| {
                (
                    u64::from(e.mv.take),
                    e.mv.reset,
                    e.wins,
                    e.distance.map(u64::from),
                )
            }));
            match page.more {
                Some(i) => from = i,
                None => break (page.value.as_word(), page.distance.map(u64::from)),
            }
        };
        assert_eq!(
            (v["value"].as_str().unwrap(), v["distance"].as_u64()),
            head,
            "{pos}"
        );
        let listed: Vec<(u64, bool, bool, Option<u64>)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|mv| {
                (
                    mv["take"].as_u64().unwrap(),
                    mv["reset"] == true,
                    mv["value"] == "win",
                    mv["distance"].as_u64(),
                )
            })
            .collect();
        assert_eq!(listed, protocol, "{pos}");
        // The table: a line for the position, a heading, then the same moves,
        // winning ones first.
        let table: Vec<&str> = args.iter().copied().filter(|a| *a != "--json").collect();
        let text = stdout(&nimbot(&table, ""));
        let lines: Vec<&str> = text.lines().collect();
        let unit = if v["distance"] == 1 { "ply" } else { "plies" };
        assert_eq!(
            lines[0],
            format!(
                "{} in {} {unit}",
                v["value"].as_str().unwrap(),
                v["distance"]
            )
        );
        assert_eq!(lines.len(), 2 + listed.len(), "{text}");
        let values: Vec<&str> = lines[2..]
            .iter()
            .map(|l| l.split_whitespace().nth(2).unwrap())
            .collect();
        assert!(
            values.windows(2).all(|w| w[0] == "win" || w[1] == "lose"),
            "{text}"
        );
    }
    let o = nimbot(&["moves", "--json", "5", "3", "0", "0"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn win_fastest_plays_a_winning_move_of_least_distance() {
    // 8 stones, cap 3, a reset against none: taking 1 wins in 5 plies, taking 3 in 3.
    let o = nimbot(&["query", "8", "3", "1", "0", "0"], "");
    assert_eq!(stdout(&o), "win 1 0 3\n");
    let o = nimbot(&["query", "8", "3", "1", "0", "0", "--win", "fastest"], "");
    assert_eq!(stdout(&o), "win 3 0 3\n");
    // In the table and beyond it: the move is a winning one whose distance is the
    // position's (the fastest), the smallest such take.
    for pos in ["100 3 4 4 0", "57 5 2 3 1", "3000 40 1 1 0", "733 12 4 3 0"] {
        let words: Vec<&str> = pos.split(' ').collect();
        let q: Vec<&str> = ["query", "--win", "fastest"]
            .iter()
            .copied()
            .chain(words.iter().copied())
            .collect();
        let reply = stdout(&nimbot(&q, ""));
        let Some(Response::Query { value, mv, .. }) = Response::parse(reply.trim_end().as_bytes())
        else {
            panic!("{pos}: {reply}");
        };
        let m: Vec<&str> = ["moves", "--json"]
            .iter()
            .copied()
            .chain(words.iter().copied())
            .collect();
        let v: serde_json::Value = serde_json::from_str(&stdout(&nimbot(&m, ""))).unwrap();
        if v["value"] != "win" {
            assert_eq!(value.as_word(), "lose", "{pos}");
            continue;
        }
        let fastest = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|mv| mv["value"] == "win" && mv["distance"] == v["distance"])
            .map(|mv| (mv["take"].as_u64().unwrap(), mv["reset"] == true))
            .next()
            .unwrap();
        assert_eq!((u64::from(mv.take), mv.reset), fastest, "{pos}: {reply}");
    }
    // A board has no distances.
    let o = nimbot(
        &[
            "connect",
            "127.0.0.1:9",
            "--first",
            "--board",
            "/dev/null",
            "--win",
            "fastest",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--win fastest"));
}

#[test]
fn protocol_parse_prints_what_protocol_md_shows() {
    // The example of docs/protocol.md's "Replies as JSON": the lines it pipes in,
    // and the JSON lines it shows, exactly.
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md"))
        .unwrap();
    let section = doc.split("## Replies as JSON").nth(1).expect("the section");
    let block: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with("    $ "))
        .take_while(|l| l.starts_with("    "))
        .map(|l| &l[4..])
        .collect();
    let input = block[0]
        .strip_prefix("$ printf '")
        .and_then(|c| c.strip_suffix("' | nimbot protocol parse"))
        .expect("the command")
        .replace("\\n", "\n");
    let o = nimbot(&["protocol", "parse"], &input);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().collect::<Vec<_>>(), block[1..]);
}

/// One HTTP/1.1 request on a fresh connection: the status line, the headers
/// (names lowercased) and the body (read to the length the headers give).
fn http(addr: &str, request: &str) -> (String, Vec<(String, String)>, Vec<u8>) {
    use std::io::{BufRead as _, BufReader, Read as _, Write as _};
    let mut stream = std::net::TcpStream::connect(addr).expect("nimbot web accepts");
    stream.write_all(request.as_bytes()).expect("request sent");
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).expect("status line");
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').expect("a header is NAME: VALUE");
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse::<usize>().expect("a length"));
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("the body");
    (status.trim_end().to_owned(), headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn web_serves_the_site_gzipped_and_revalidates_with_etags() {
    let mut child = common::Kid(
        Command::new(common::BIN)
            .args(["web", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("nimbot web runs"),
    );
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.0.stdout.take().expect("stdout")),
        &mut line,
    )
    .expect("the line naming the address");
    let addr = line
        .strip_prefix("serving http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("nimbot web printed {line:?}"))
        .to_owned();
    let site = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/site/");
    for (path, file) in [
        ("/", "index.html"),
        ("/app.js", "app.js"),
        ("/nimbot.wasm", "nimbot.wasm"),
    ] {
        let want = std::fs::read(format!("{site}{file}")).expect("the committed site");
        // gzip to a client that takes it: the same bytes once unzipped.
        let get = format!("GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br\r\n\r\n");
        let (status, headers, body) = http(&addr, &get);
        assert_eq!(status, "HTTP/1.1 200 OK", "{path}");
        assert_eq!(header(&headers, "content-encoding"), Some("gzip"), "{path}");
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut plain)
            .expect("gzip");
        assert!(plain == want, "{path}: unzipped, not the committed {file}");
        // The validator asked again: 304 and no body; another one: the file.
        let tag = header(&headers, "etag").expect("an ETag").to_owned();
        let again =
            format!("GET {path} HTTP/1.1\r\nAccept-Encoding: gzip\r\nIf-None-Match: {tag}\r\n\r\n");
        let (status, headers, body) = http(&addr, &again);
        assert_eq!(
            (status.as_str(), body.len()),
            ("HTTP/1.1 304 Not Modified", 0),
            "{path}"
        );
        assert_eq!(header(&headers, "etag"), Some(tag.as_str()));
        let stale = format!(
            "GET {path} HTTP/1.1\r\nAccept-Encoding: gzip\r\nIf-None-Match: \"0-0\"\r\n\r\n"
        );
        assert_eq!(http(&addr, &stale).0, "HTTP/1.1 200 OK", "{path}");
        // Without gzip: the file itself, under another validator.
        let (status, headers, body) = http(&addr, &format!("GET {path} HTTP/1.1\r\n\r\n"));
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(
            body == want && header(&headers, "content-encoding").is_none(),
            "{path}"
        );
        assert_ne!(
            header(&headers, "etag"),
            Some(tag.as_str()),
            "{path}: one tag for two encodings"
        );
    }
    assert!(http(&addr, "GET /nothing HTTP/1.1\r\n\r\n")
        .0
        .starts_with("HTTP/1.1 404"));
    assert!(http(&addr, "POST / HTTP/1.1\r\n\r\n")
        .0
        .starts_with("HTTP/1.1 405"));
}
