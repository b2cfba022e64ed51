//! The line protocol's grammar (`nimbot_protocol::grammar`): every command and
//! every reply reads back as it was written, and the texts that describe the
//! protocol (the summary `nimbot serial --help` prints, the `help` replies, the
//! tables of docs/protocol.md, docs/protocol.json for the Python drivers) say what
//! its one list of commands says.

use std::collections::BTreeSet;
use std::path::Path;

use nimbot::{text::Text, Move, Player, Policy, Value};
use nimbot_protocol::grammar::{
    Command, CommandSpec, Context, Entry, Family, Limits, List, Opp, Page, Phrase, Question,
    Reason, Response, State, SuperNimPlayer, SuperNimStart, Turn, BANNER, COMMANDS,
};
use nimbot_protocol::{Reply, GRAMMAR, HELP_AVR, HELP_EXPANDING, HELP_GAMES, MAX_LINE, MAX_REPLY};
use nimbot_supernim as sn;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

const POLICIES: [Policy; 4] = [
    Policy::First,
    Policy::Trap,
    Policy::Longest,
    Policy::Exploit,
];

fn seat() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::First), Just(Player::Second)]
}

fn mv() -> impl Strategy<Value = Move> {
    (any::<u32>(), any::<bool>()).prop_map(|(t, r)| Move::new(t, r))
}

fn sn_move() -> impl Strategy<Value = sn::Move> {
    prop_oneof![
        (any::<u16>(), any::<u16>()).prop_map(|(from, onto)| sn::Move::Merge { from, onto }),
        any::<u16>().prop_map(sn::Move::Grow),
        any::<u16>().prop_map(sn::Move::Split),
    ]
}

fn question() -> impl Strategy<Value = Question> {
    (any::<[u32; 4]>(), any::<bool>()).prop_map(
        |([stones, cap, own_resets, opp_resets], pending)| Question {
            stones,
            cap,
            own_resets,
            opp_resets,
            pending,
        },
    )
}

fn policy() -> impl Strategy<Value = Policy> {
    prop::sample::select(&POLICIES[..])
}

fn turn() -> impl Strategy<Value = Turn> {
    prop::sample::select(&[Turn::Bot, Turn::Opponent, Turn::Won, Turn::Lost, Turn::Draw][..])
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![Just(Value::Won), Just(Value::Lost)]
}

/// A command as owned parts (a list of heaps is borrowed by the command itself),
/// with the context its `opp` is read in.
#[derive(Clone, Debug)]
enum Cmd {
    Plain(Command<'static>, Context),
    SuperNim(Vec<u32>, Player, Option<u32>, Option<u32>, SnOptions),
}

/// `player P` and `nodes K` of `new supernim`.
type SnOptions = (Option<SuperNimPlayer>, Option<u32>);

fn sn_options() -> impl Strategy<Value = SnOptions> {
    (
        prop::option::of(prop_oneof![
            Just(SuperNimPlayer::Perfect),
            Just(SuperNimPlayer::Search)
        ]),
        prop::option::of(0u32..100_000_000),
    )
}

fn command() -> impl Strategy<Value = Cmd> {
    let plain = |c: Command<'static>| Cmd::Plain(c, Context::Expanding);
    prop_oneof![
        (any::<[u32; 3]>(), seat()).prop_map(move |([stones, resets, init_max], seat)| plain(
            Command::New {
                stones,
                resets,
                init_max,
                seat
            }
        )),
        (any::<u32>(), seat())
            .prop_map(move |(stones, seat)| plain(Command::NewFibonacci { stones, seat })),
        // At most 10 heaps of 4 digits: with every option the line fits a reply.
        (
            prop::collection::vec(0u32..10_000, 1..=10),
            seat(),
            [
                prop::option::of(0u32..10_000),
                prop::option::of(0u32..10_000)
            ],
            sn_options(),
        )
            .prop_map(|(heaps, seat, [cap, most], options)| Cmd::SuperNim(
                heaps, seat, cap, most, options
            )),
        Just(plain(Command::Go)),
        mv().prop_map(move |m| plain(Command::Opp(Opp::Take(m)))),
        any::<u32>().prop_map(|t| Cmd::Plain(Command::Opp(Opp::Fibonacci(t)), Context::Fibonacci)),
        sn_move().prop_map(|m| Cmd::Plain(Command::Opp(Opp::SuperNim(m)), Context::SuperNim)),
        question().prop_map(move |q| plain(Command::Query(q))),
        (question(), any::<u32>()).prop_map(move |(q, i)| plain(Command::Moves(q, i))),
        Just(plain(Command::State)),
        Just(plain(Command::End)),
        Just(plain(Command::Version)),
        Just(plain(Command::Limits)),
        prop::option::of(policy()).prop_map(move |p| plain(Command::Policy(p))),
        Just(plain(Command::Help)),
    ]
}

/// Which variant a command is: a new variant fails to compile here until the
/// round trip below covers it.
fn command_kind(c: &Command<'_>) -> usize {
    match c {
        Command::New { .. } => 0,
        Command::NewFibonacci { .. } => 1,
        Command::NewSuperNim(_) => 2,
        Command::Go => 3,
        Command::Opp(Opp::Take(_)) => 4,
        Command::Opp(Opp::Fibonacci(_)) => 5,
        Command::Opp(Opp::SuperNim(_)) => 6,
        Command::Query(_) => 7,
        Command::Moves(..) => 8,
        Command::State => 9,
        Command::End => 10,
        Command::Version => 11,
        Command::Limits => 12,
        Command::Policy(_) => 13,
        Command::Help => 14,
    }
}
const COMMAND_KINDS: usize = 15;

/// Free text of a reply: lower-case words (never `illegal move: ...` nor a take out
/// of range, which read back as those reasons).
fn words() -> impl Strategy<Value = String> {
    "[a-z][a-z ()|]{0,40}"
}

/// A reply as owned parts (its lists and texts are borrowed by the reply itself).
#[derive(Clone, Debug)]
enum Rep {
    Plain(Response<'static>),
    Moves(Value, Option<u16>, Vec<Entry>, Option<u32>),
    Version(String, u32),
    Help(String),
    Says(String),
    Illegal(String),
    SuperNimState(Vec<u16>, [u32; 2], Turn),
}

fn entry() -> impl Strategy<Value = Entry> {
    (
        0u32..100_000,
        any::<bool>(),
        any::<bool>(),
        any::<Option<u16>>(),
    )
        .prop_map(|(take, reset, wins, distance)| Entry {
            mv: Move::new(take, reset),
            wins,
            distance,
        })
}

fn reply() -> impl Strategy<Value = Rep> {
    let plain = Rep::Plain;
    prop_oneof![
        Just(plain(Response::Ok)),
        (mv(), any::<bool>()).prop_map(move |(mv, won)| plain(Response::Move { mv, won })),
        Just(plain(Response::Lost)),
        (value(), mv(), any::<Option<u16>>()).prop_map(move |(value, mv, distance)| plain(
            Response::Query {
                value,
                mv,
                distance
            }
        )),
        (
            value(),
            any::<Option<u16>>(),
            prop::collection::vec(entry(), 0..=6),
            any::<Option<u32>>()
        )
            .prop_map(|(v, d, e, m)| Rep::Moves(v, d, e, m)),
        Just(plain(Response::State(None))),
        (any::<[u32; 3]>(), any::<[u8; 2]>(), any::<bool>(), turn()).prop_map(
            move |(numbers, resets, pending, turn)| plain(Response::State(Some(State {
                stones: numbers[0],
                limit: numbers[1],
                cap: numbers[2],
                own_resets: resets[0],
                opp_resets: resets[1],
                pending,
                turn
            })))
        ),
        ("[a-z0-9.]{1,12}( [a-z0-9.]{1,12})?", any::<u32>()).prop_map(|(s, p)| Rep::Version(s, p)),
        policy().prop_map(move |p| plain(Response::Policy(p))),
        (
            any::<u32>(),
            any::<u8>(),
            any::<Option<u32>>(),
            any::<u32>()
        )
            .prop_map(
                move |(stones, resets, init_max, line)| plain(Response::Limits(Limits {
                    stones,
                    resets,
                    init_max,
                    line
                }))
            ),
        "[ -~]{0,80}".prop_map(Rep::Help),
        words().prop_map(Rep::Says),
        (any::<u32>(), any::<u32>())
            .prop_map(move |(take, limit)| plain(Response::Error(Reason::BadTake { take, limit }))),
        words().prop_map(Rep::Illegal),
        (any::<u64>(), any::<bool>())
            .prop_map(move |(take, won)| plain(Response::FibonacciMove { take, won })),
        (any::<u64>(), any::<u64>(), turn()).prop_map(move |(stones, limit, turn)| plain(
            Response::FibonacciState {
                stones,
                limit,
                turn
            }
        )),
        (sn_move(), prop::option::of(turn()))
            .prop_map(move |(mv, over)| plain(Response::SuperNimMove { mv, over })),
        turn().prop_map(move |t| plain(Response::SuperNimOver(t))),
        // Heaps and scores as a game has them (a line of twelve 5-digit heaps and
        // two 10-digit scores would not fit the reply).
        (
            prop::collection::vec(1u16..10_000, 0..=12),
            [0u32..1_000_000, 0u32..1_000_000],
            turn()
        )
            .prop_map(|(h, s, t)| Rep::SuperNimState(h, s, t)),
    ]
}

/// Which variant a reply is (see [`command_kind`]).
fn reply_kind(r: &Response<'_>) -> usize {
    match r {
        Response::Ok => 0,
        Response::Move { .. } => 1,
        Response::Lost => 2,
        Response::Query { .. } => 3,
        Response::Moves(_) => 4,
        Response::State(None) => 5,
        Response::State(Some(_)) => 6,
        Response::Version { .. } => 7,
        Response::Policy(_) => 8,
        Response::Limits(_) => 9,
        Response::Help(_) => 10,
        Response::Error(Reason::Says(_)) => 11,
        Response::Error(Reason::BadTake { .. }) => 12,
        Response::Error(Reason::Illegal(_)) => 13,
        Response::FibonacciMove { .. } => 14,
        Response::FibonacciState { .. } => 15,
        Response::SuperNimMove { .. } => 16,
        Response::SuperNimOver(_) => 17,
        Response::SuperNimState { .. } => 18,
    }
}
const REPLY_KINDS: usize = 19;

fn written(f: impl FnOnce(&mut Reply)) -> Vec<u8> {
    let mut out = Reply::default();
    f(&mut out);
    out.to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_command_reads_back_as_written(cmd in command()) {
        let heaps;
        let (command, context) = match &cmd {
            Cmd::Plain(c, ctx) => (c.clone(), *ctx),
            Cmd::SuperNim(h, seat, cap, most, (player, nodes)) => {
 heaps = h.clone();
 (Command::NewSuperNim(SuperNimStart { heaps: List::of(&heaps), seat: *seat, cap: *cap, most: *most, player: *player, nodes: *nodes }), Context::Expanding)
 }
        };
        let line = written(|out| command.write(out));
        prop_assert!(line.len() <= MAX_REPLY);
        let back = Command::parse(&line, context);
        prop_assert_eq!(back, Ok(Some(command)), "{:?}", String::from_utf8_lossy(&line));
    }

    #[test]
    fn every_reply_reads_back_as_written(rep in reply()) {
        let entries;
        let text;
        let heaps;
        let response = match &rep {
            Rep::Plain(r) => *r,
            Rep::Moves(value, distance, e, more) => {
                entries = e.clone();
                Response::Moves(Page { value: *value, distance: *distance, moves: List::of(&entries), more: *more })
            }
            Rep::Version(s, protocol) => {
                text = s.clone();
                Response::Version { software: Phrase::Bytes(text.as_bytes()), protocol: *protocol }
            }
            Rep::Help(s) => {
                text = s.clone();
                Response::Help(Phrase::Bytes(text.as_bytes()))
            }
            Rep::Says(s) => {
                text = s.clone();
                Response::Error(Reason::Says(Phrase::Bytes(text.as_bytes())))
            }
            Rep::Illegal(s) => {
                text = s.clone();
                Response::Error(Reason::Illegal(Phrase::Bytes(text.as_bytes())))
            }
            Rep::SuperNimState(h, score, turn) => {
                heaps = h.clone();
                Response::SuperNimState { heaps: List::of(&heaps), score: *score, turn: *turn }
            }
        };
        let line = written(|out| response.write(out));
        prop_assert!(line.len() < MAX_REPLY, "{:?} may have been cut", String::from_utf8_lossy(&line));
        prop_assert_eq!(Response::parse(&line), Some(response), "{:?}", String::from_utf8_lossy(&line));
    }
}

#[test]
fn the_round_trips_cover_every_variant() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = [false; COMMAND_KINDS];
    for _ in 0..2000 {
        let cmd = command().new_tree(&mut runner).unwrap().current();
        let kind = match &cmd {
            Cmd::Plain(c, _) => command_kind(c),
            Cmd::SuperNim(..) => command_kind(&Command::NewSuperNim(SuperNimStart {
                heaps: List::of(&[]),
                seat: Player::First,
                cap: None,
                most: None,
                player: None,
                nodes: None,
            })),
        };
        seen[kind] = true;
    }
    assert!(seen.iter().all(|s| *s), "commands never drawn: {seen:?}");
    let mut seen = [false; REPLY_KINDS];
    for _ in 0..4000 {
        let kind = match reply().new_tree(&mut runner).unwrap().current() {
            Rep::Plain(r) => reply_kind(&r),
            Rep::Moves(..) => 4,
            Rep::Version(..) => 7,
            Rep::Help(_) => 10,
            Rep::Says(_) => 11,
            Rep::Illegal(_) => 13,
            Rep::SuperNimState(..) => 18,
        };
        seen[kind] = true;
    }
    assert!(seen.iter().all(|s| *s), "replies never drawn: {seen:?}");
}

#[test]
fn what_is_not_in_the_grammar_is_refused() {
    for line in [
        "move 3",
        "move -3 0",
        "move 3 2",
        "move 3 0 lost",
        "mov 3 0",
        "move +3 0",
        "move 3 0 won x",
        "win 2 1",
        "lose 1 0 x",
        "limits stones 999 resets 4 init_max 3",
        "limits stones 999 resets 400 init_max 3 line 80",
        "state stones 16 limit 3 cap 4 resets 3 4 pending 1 turn nobody",
        "state supernim heaps 1,,2 score 0 0 turn bot",
        "state supernim heaps  score 0 0 turn bot",
        "version nimbot 0.1.0 protocol x",
        "version protocol 2",
        "moves win 3 1:w5 2:x4",
        "moves win 3 1:w5 more",
        "moves win 3 1:w5 more 2 3",
        "policy nobody",
        "over",
        "",
    ] {
        // The Fibonacci Nim move `move 3` is a reply; the others are not.
        let want_some = line == "move 3";
        assert_eq!(
            Response::parse(line.as_bytes()).is_some(),
            want_some,
            "{line:?}"
        );
    }
    assert_eq!(
        Response::parse(b"version nimbot 0.1.0 protocol 2"),
        Some(Response::Version {
            software: Phrase::Bytes(b"nimbot 0.1.0"),
            protocol: 2
        })
    );
    assert_eq!(
        Response::parse(b"error illegal move: take 9 is outside 1..=3"),
        Some(Response::Error(Reason::BadTake { take: 9, limit: 3 }))
    );
    assert_eq!(
        Command::parse(b"  opp\t3   1 ", Context::Expanding),
        Ok(Some(Command::Opp(Opp::Take(Move::new(3, true)))))
    );
    assert_eq!(Command::parse(b" \t", Context::Expanding), Ok(None));
    let reason = |line: &str, context| match Command::parse(line.as_bytes(), context) {
        Err(t) => t.as_str(),
        Ok(c) => panic!("{line:?} read as {c:?}"),
    };
    assert_eq!(
        reason("opp 3", Context::Expanding),
        "usage: opp TAKE RESET(0|1)"
    );
    assert_eq!(reason("opp 3 1", Context::Fibonacci), "too many arguments");
    assert_eq!(reason("opp 3 2", Context::Expanding), "flag must be 0 or 1");
    assert_eq!(
        reason("new supernim 1,x first", Context::Expanding),
        "bad number"
    );
    assert_eq!(
        reason("gone", Context::Expanding),
        "unknown command (try help)"
    );
}

/// The command's name: the first word of its form.
fn name(spec: &CommandSpec) -> &'static str {
    spec.form.split(' ').next().unwrap()
}

#[test]
fn the_parser_knows_every_command_of_the_list_and_no_other() {
    let unknown = "unknown command (try help)";
    let mut names = BTreeSet::new();
    for spec in COMMANDS {
        names.insert(name(spec));
        let context = match spec.family {
            Family::Expanding => Context::Expanding,
            Family::Fibonacci => Context::Fibonacci,
            Family::SuperNim => Context::SuperNim,
        };
        let got = Command::parse(name(spec).as_bytes(), context);
        assert_ne!(got.map_err(Text::as_str), Err(unknown), "{}", spec.form);
    }
    for word in ["stack", "cost", "quit", "move", "ok", "opponent"] {
        assert!(!names.contains(word));
        let got = Command::parse(word.as_bytes(), Context::Expanding).map_err(Text::as_str);
        assert_eq!(got, Err(unknown), "{word}");
    }
}

/// `GRAMMAR` as made from `COMMANDS`.
fn grammar_from_the_list() -> String {
    let mut out = String::new();
    let mut family = Family::Expanding;
    for spec in COMMANDS {
        if spec.family != family {
            family = spec.family;
            out += match family {
                Family::Fibonacci => "In a game of Fibonacci Nim:\n",
                _ => "In a game of Super-Nim:\n",
            };
        }
        out += &format!("{:<36} -> {}\n", spec.form, spec.reply);
    }
    out + "K F: take K, with a reset if F = 1. D: plies to the end, - if unknown.\n\
           T: bot|opponent|won|lost|draw. R: won|lost|draw. MOVE: merge A B | grow A | split A.\n\
           Bad input gets one \"error ...\" line and changes nothing."
}

#[test]
fn the_summary_is_the_list_of_commands() {
    assert_eq!(GRAMMAR, grammar_from_the_list());
}

#[test]
fn each_help_names_the_commands_of_its_build() {
    let all: BTreeSet<&str> = COMMANDS.iter().map(name).collect();
    for (help, leaves_out) in [
        (HELP_GAMES, &[][..]),
        (HELP_EXPANDING, &[][..]),
        (HELP_AVR, &["moves"][..]),
    ] {
        let mut named = BTreeSet::new();
        for item in help.strip_prefix("help ").unwrap().split(';') {
            let first = item.split(' ').next().unwrap();
            named.extend(first.split('|'));
        }
        named.insert("help");
        let want: BTreeSet<&str> = all
            .iter()
            .filter(|n| !leaves_out.contains(n))
            .copied()
            .collect();
        assert_eq!(named, want, "{help}");
        // The games' own `new` only where they are played.
        assert_eq!(help.contains("fibonacci"), help == HELP_GAMES, "{help}");
        assert!(help.len() <= MAX_REPLY);
    }
}

fn root() -> &'static Path {
    // The protocol's crate is a folder of the repository.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the repository's root")
}

/// The first column of every table row under the `## ` headings of
/// docs/protocol.md that list commands.
fn documented_forms() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/protocol.md")).unwrap();
    let mut forms = Vec::new();
    let mut listing = false;
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            listing = heading == "Expanding Nim" || heading == "Fibonacci Nim and Super-Nim";
        }
        let Some(row) = line.strip_prefix("| `") else {
            continue;
        };
        if listing {
            let form = row.split("` |").next().unwrap();
            forms.push(form.replace("\\|", "|"));
        }
    }
    forms
}

#[test]
fn the_documented_commands_are_the_list() {
    let listed: Vec<String> = COMMANDS.iter().map(|s| s.form.to_string()).collect();
    assert_eq!(documented_forms(), listed);
}

/// docs/protocol.json, as made from the grammar: what the Python drivers read.
fn protocol_json() -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let commands: Vec<String> = COMMANDS
        .iter()
        .map(|c| {
            let family = match c.family {
                Family::Expanding => "expanding",
                Family::Fibonacci => "fibonacci",
                Family::SuperNim => "supernim",
            };
            format!(
                "    {{\"form\": {}, \"reply\": {}, \"game\": {}}}",
                q(c.form),
                q(c.reply),
                q(family)
            )
        })
        .collect();
    format!(
        "{{\n  \"banner\": {},\n  \"software\": {},\n  \"max_line\": {MAX_LINE},\n  \"max_reply\": {MAX_REPLY},\n  \
         \"help\": {{\n    \"related-games\": {},\n    \"expanding\": {},\n    \"avr\": {}\n  }},\n  \
         \"commands\": [\n{}\n  ]\n}}\n",
        q(BANNER),
        // The name and version only: the build's words after them (the commit and
        // the table, nimbot::SOFTWARE) change with every commit.
        q(concat!("nimbot ", env!("CARGO_PKG_VERSION"))),
        q(HELP_GAMES),
        q(HELP_EXPANDING),
        q(HELP_AVR),
        commands.join(",\n")
    )
}

/// docs/protocol.json is made from the grammar (`NIMBOT_BLESS=1` writes it anew).
#[test]
fn the_python_drivers_read_the_grammar_s_own_file() {
    let path = root().join("docs/protocol.json");
    let want = protocol_json();
    if std::env::var_os("NIMBOT_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "docs/protocol.json is stale: NIMBOT_BLESS=1 cargo test --profile ci -p nimbot-protocol --test grammar"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The session's every reply is in the grammar, whatever it is sent: commands
    /// as the grammar writes them (in any game), and now and then a line of noise.
    #[test]
    fn the_session_s_replies_are_in_the_grammar(
        cmds in prop::collection::vec((command(), prop::option::of("[ -~]{0,20}")), 1..40),
    ) {
        let mut session = nimbot_protocol::Session::new(nimbot::TableEngine::embedded());
        for (cmd, noise) in &cmds {
            let heaps;
            let command = match cmd {
                Cmd::Plain(c, _) => c.clone(),
                Cmd::SuperNim(h, seat, cap, most, (player, nodes)) => {
 heaps = h.iter().map(|h| 1 + h % 9).collect::<Vec<u32>>();
 let cap = cap.map(|c| 1 + c % 300);
 // A small budget: a session's move stays quick.
 let nodes = nodes.map(|k| k % 5000);
 Command::NewSuperNim(SuperNimStart { heaps: List::of(&heaps), seat: *seat, cap, most: *most, player: *player, nodes })
 }
            };
            let line = match noise {
                Some(n) => n.as_bytes().to_vec(),
                None => written(|out| command.write(out)),
            };
            if let Some(reply) = session.handle_line(&line) {
                prop_assert!(
                    Response::parse(&reply).is_some(),
                    "{:?} -> {:?}",
                    String::from_utf8_lossy(&line),
                    String::from_utf8_lossy(&reply)
                );
            }
        }
    }
}

/// `version` names the build after the name and version (the commit and the
/// embedded table's CRC-32, which are the file's last four bytes), and a client
/// that reads the protocol's number after the last ` protocol ` still reads it.
#[test]
fn the_version_reply_names_the_commit_and_the_table() {
    let table = std::fs::read(root().join("table/default.nimt")).expect("table/default.nimt");
    let crc = u32::from_le_bytes(table[table.len() - 4..].try_into().unwrap());
    let software = nimbot_protocol::grammar::SOFTWARE;
    let rest = software
        .strip_prefix(concat!("nimbot ", env!("CARGO_PKG_VERSION"), " commit "))
        .unwrap_or_else(|| panic!("{software:?} does not start with the name, version, commit"));
    let (commit, table_word) = rest.split_once(" table ").expect("a table word");
    let hex = commit.trim_end_matches("-dirty");
    assert!(
        commit == "unknown" || (hex.len() == 12 && hex.bytes().all(|b| b.is_ascii_hexdigit())),
        "commit {commit:?}"
    );
    assert_eq!(table_word, format!("{crc:08x}"));
    let line = format!("version {software} protocol 2");
    match Response::parse(line.as_bytes()) {
        Some(Response::Version {
            software: s,
            protocol,
        }) => {
            assert_eq!((s, protocol), (Phrase::Bytes(software.as_bytes()), 2));
        }
        other => panic!("{line:?} parsed as {other:?}"),
    }
}

/// A reply a session builds (its fixed text, its items) and the same reply read
/// from a line compare equal exactly when they read the same, and a phrase prints
/// as its words: a client compares what it parsed with what it expects this way.
#[test]
fn phrases_and_lists_compare_by_what_they_read() {
    let parsed = |line: &'static [u8]| Response::parse(line).expect("a reply");
    let said = |t: Text| Response::Help(Phrase::Text(t));
    let help = nimbot::text::text!("new go opp");
    assert_eq!(said(help), parsed(b"help new go opp"));
    assert_eq!(parsed(b"help new go opp"), said(help));
    assert_eq!(parsed(b"help new go opp"), parsed(b"help new go opp"));
    for other in [
        &b"help new go op"[..],
        b"help new go opq",
        b"help new go opp x",
        b"help xew go opp",
    ] {
        let line = String::from_utf8_lossy(other);
        assert_ne!(said(help), parsed(other), "{line}");
        assert_ne!(parsed(other), said(help), "{line}");
        assert_ne!(parsed(b"help new go opp"), parsed(other), "{line}");
    }
    assert_ne!(said(help), said(nimbot::text::text!("new go")));
    assert_eq!(said(help), said(nimbot::text::text!("new go opp")));
    assert_eq!(Phrase::Text(help).to_string(), "new go opp");
    assert_eq!(
        Phrase::Bytes(b"take 9 is outside 1..=4").to_string(),
        "take 9 is outside 1..=4"
    );

    // A list of heaps: the session's items against a parsed line.
    let state = |heaps: &'static [u16]| Response::SuperNimState {
        heaps: List::of(heaps),
        score: [1, 2],
        turn: Turn::Bot,
    };
    let line = |heaps: &str| format!("state supernim heaps {heaps} score 1 2 turn bot");
    fn read(text: &str) -> Response<'_> {
        Response::parse(text.as_bytes()).expect("a state")
    }
    assert_eq!(state(&[3, 5]), read(&line("3,5")));
    assert_eq!(read(&line("3,5")), state(&[3, 5]));
    for other in ["3,6", "3", "3,5,1", "5,3"] {
        assert_ne!(state(&[3, 5]), read(&line(other)), "{other}");
        assert_ne!(read(&line(other)), state(&[3, 5]), "{other}");
    }
    assert_ne!(state(&[3, 5]), state(&[3, 6]));
    for (heaps, empty) in [("-", true), ("4", false), ("3,5", false)] {
        let text = line(heaps);
        let Response::SuperNimState { heaps: list, .. } = read(&text) else {
            panic!("{heaps}: not a Super-Nim state")
        };
        assert_eq!(list.is_empty(), empty, "{heaps}");
    }
    assert!(List::<u16>::of(&[]).is_empty());
    assert!(!List::of(&[4u16]).is_empty());

    // A page of moves: a parsed page with moves is not empty, one without is.
    let Response::Moves(page) = parsed(b"moves win 3 1:w2 2r:l5") else {
        panic!("not a moves page")
    };
    assert!(!page.moves.is_empty());
    assert_eq!(page.moves.iter().count(), 2);
    let Response::Moves(none) = parsed(b"moves lose 0") else {
        panic!("not a moves page")
    };
    assert!(none.moves.is_empty(), "{none:?}");
    // Gaps alone (a reader that keeps a line's trailing blanks) are no moves.
    for line in [
        &b"moves lose 0 "[..],
        b"moves lose 0 \t ",
        b"moves win 2  more 0",
    ] {
        let Some(Response::Moves(gaps)) = Response::parse(line) else {
            panic!("{}: not a moves page", String::from_utf8_lossy(line))
        };
        assert!(gaps.moves.is_empty(), "{gaps:?}");
        assert_eq!(gaps.moves.iter().count(), 0);
    }
}

/// A `version` reply names its software before ` protocol P` (docs/protocol.md):
/// without it the line is no reply, and the last ` protocol ` is the one read.
#[test]
fn a_version_reply_without_its_software_is_not_one() {
    let version = |software: &'static [u8]| {
        Some(Response::Version {
            software: Phrase::Bytes(software),
            protocol: 2,
        })
    };
    assert_eq!(Response::parse(b"version  protocol 2"), None);
    assert_eq!(Response::parse(b"version protocol 2"), None);
    assert_eq!(Response::parse(b"version x protocol 2"), version(b"x"));
    assert_eq!(
        Response::parse(b"version nimbot protocol 9 protocol 2"),
        version(b"nimbot protocol 9")
    );
}
