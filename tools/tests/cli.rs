//! `nimbot-table` end to end: the committed default table is exactly what `generate`
//! makes, `verify` accepts it and catches a wrong value, bad files are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use nimbot::{Params, Position};
use nimbot_solve::{encode_values as encode_table_values, Solution, SolveBox};

const BIN: &str = env!("CARGO_BIN_EXE_nimbot-table");

fn default_table() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../table/default.nimt")
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("run nimbot-table")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The won and lost counts of a row of `stats`' table (its 4th and 5th columns,
/// thousands separated by commas).
fn won_lost(row: &str) -> Vec<u64> {
    row.split_whitespace()
        .skip(3)
        .take(2)
        .map(|x| x.replace(',', "").parse().unwrap())
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nimbot-table-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn generate_reproduces_the_committed_default_table_byte_for_byte() {
    let out = scratch("default.nimt");
    let o = run(&[
        "generate",
        "-n",
        "999",
        "-r",
        "4",
        "-m",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bytes for 1,345,400 positions"),
        "{}",
        stderr(&o)
    );
    let fresh = std::fs::read(&out).unwrap();
    let committed = std::fs::read(default_table()).unwrap();
    assert!(
        fresh == committed,
        "table/default.nimt differs from a fresh `nimbot-table generate` ({} vs {} bytes): \
         regenerate it with `cargo run --release -p nimbot-tools -- generate -o table/default.nimt`",
        committed.len(),
        fresh.len()
    );
    assert!(committed.len() <= 32 * 1024, "{} bytes", committed.len());
    // The blob the core embeds is the committed file (unless NIMBOT_TABLE was set).
    if std::env::var_os("NIMBOT_TABLE").is_none() {
        assert!(nimbot::table::EMBEDDED_TABLE == committed.as_slice());
    }
}

#[test]
fn verify_accepts_the_default_table() {
    let o = run(&["verify", default_table().to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains(
            "1,345,400 positions re-derived one ply deep, 1,345,400 equal to a fresh solve"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn verify_names_a_single_wrong_value() {
    // A table with a valid checksum and one value flipped: only the independent
    // checks can tell.
    let (n, r, m) = (200, 2, 3);
    let sol = Solution::solve(SolveBox::games(n, r, m)).unwrap();
    let params = Params::new(n, r, m).unwrap();
    let wrong = Position::new(150, 7, 1, 2, false, m).unwrap();
    let blob = encode_table_values(&params, "test", |p| {
        let v = sol.value(p).unwrap().is_won();
        if *p == wrong {
            !v
        } else {
            v
        }
    });
    let path = scratch("one-wrong.nimt");
    std::fs::write(&path, &blob).unwrap();
    let o = run(&["verify", "-q", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let v = sol.value(&wrong).unwrap().is_won();
    let (says, should) = if v { ("lost", "won") } else { ("won", "lost") };
    assert_eq!(
        stdout(&o).trim(),
        format!(
            "MISMATCH at s=150 c=7 a=1 b=2 f=0: the table says {says}, its successors say {should}"
        )
    );

    // The same values, unflipped, pass.
    let blob = encode_table_values(&params, "test", |p| sol.value(p).unwrap().is_won());
    std::fs::write(&path, &blob).unwrap();
    let o = run(&["verify", "-q", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn damaged_and_missing_files_are_refused_with_exit_2() {
    let mut bytes = std::fs::read(default_table()).unwrap();
    bytes.truncate(bytes.len() - 10);
    let path = scratch("truncated.nimt");
    std::fs::write(&path, &bytes).unwrap();
    for cmd in ["verify", "info"] {
        let o = run(&[cmd, path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(
            stderr(&o).contains("is not a valid table: table checksum mismatch"),
            "{}",
            stderr(&o)
        );
    }
    let o = run(&["info", "/nonexistent/table.nimt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/table.nimt"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "generate",
        "-n",
        "0",
        "-o",
        scratch("x.nimt").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad parameters"), "{}", stderr(&o));
    // N <= M: nothing to store, said as such and nothing written; N = M + 1 works.
    let tiny = scratch("tiny.nimt");
    let tiny_s = tiny.to_str().unwrap();
    let _ = std::fs::remove_file(&tiny);
    let o = run(&["generate", "-n", "3", "-m", "3", "-o", tiny_s]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("N must exceed M"), "{}", stderr(&o));
    assert!(!tiny.exists());
    let o = run(&["generate", "-n", "4", "-m", "3", "-o", tiny_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["verify", tiny_s]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn info_reports_the_default_table() {
    let path = default_table();
    let size = std::fs::metadata(&path).unwrap().len();
    let o = run(&["info", path.to_str().unwrap()]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains("games with N <= 999, R <= 4 resets each, M = 3 (caps 3..=44)"),
        "{text}"
    );
    assert!(text.contains("1,345,400 stored"), "{text}");
    let crc = u32::from_le_bytes(
        std::fs::read(&path).unwrap()[size as usize - 4..]
            .try_into()
            .unwrap(),
    );
    assert!(text.contains(&format!("crc32 {crc:08x}")), "{text}");
    let o = run(&["info", "--json", path.to_str().unwrap()]);
    let json = stdout(&o);
    assert!(json.contains(&format!("\"bytes\":{size},")), "{json}");
    assert!(json.contains("\"positions\":1345400,"), "{json}");
}

#[test]
fn plot_writes_a_png_of_the_expected_size() {
    let out = scratch("map.png");
    let o = run(&[
        "plot",
        default_table().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let png = std::fs::read(&out).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // 999 piles in 500-px panels: 2 piles a pixel, 500 px; 42 caps in 160 px: 3 px
    // each, 126 px; 5 x 5 panels with 12-px margins and a 14-px label each.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!(width, 12 + 5 * (500 + 12));
    assert_eq!(height, (3 * 14 + 12) + 5 * (126 + 14 + 12) + 12);
}

#[test]
fn stats_of_the_default_limits_match_the_snapshot() {
    // The snapshot docs/solving.md quotes: regenerate it with
    // `nimbot-table stats > tools/tests/stats-999-4-3.txt` when the output changes
    // on purpose.
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stats-999-4-3.txt");
    let o = run(&[
        "stats",
        "--stones",
        "999",
        "--resets",
        "4",
        "--init-max",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out, std::fs::read_to_string(&snapshot).unwrap());
    // And what it says agrees with the solver: the won and lost counts add up to
    // the stored positions per reset state, and the lost starts are the solver's.
    let sol = Solution::solve(SolveBox::games(999, 4, 3)).unwrap();
    let per_state = sol.stored_positions() / 50;
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("  A "))
        .skip(1)
        .take(50)
        .collect();
    for row in &rows {
        let w = won_lost(row);
        assert_eq!(w[0] + w[1], per_state, "{row}");
    }
    let lost: Vec<u32> = (1..=999)
        .filter(|&n| sol.value(&Params::new(n, 4, 3).unwrap().start()) == Some(nimbot::Value::Lost))
        .collect();
    let listed: Vec<u32> = out
        .lines()
        .skip_while(|l| !l.starts_with("the first player loses"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .flat_map(|l| l.split_whitespace().map(|x| x.parse::<u32>().unwrap()))
        .collect();
    assert_eq!(listed, lost);
    assert!(out.contains(&format!(
        "loses the start of {} of the 999 games",
        lost.len()
    )));
}

#[test]
fn stats_json_says_what_the_text_says_in_the_clis_vocabulary() {
    let args = [
        "stats",
        "--stones",
        "150",
        "--resets",
        "2",
        "--init-max",
        "3",
    ];
    let text = stdout(&run(&args));
    let o = run(&[&args[..], &["--json"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    // The box by the names the records use (`stones` is N), each reset state by
    // the position's names.
    assert_eq!(
        (
            v["stones"].as_u64(),
            v["resets"].as_u64(),
            v["init_max"].as_u64()
        ),
        (Some(150), Some(2), Some(3))
    );
    let stored = Solution::solve(SolveBox::games(150, 2, 3))
        .unwrap()
        .stored_positions();
    assert_eq!(v["stored_positions"].as_u64(), Some(stored));
    let states = v["reset_states"].as_array().unwrap();
    assert_eq!(states.len(), 18);
    let mut sum = 0;
    for st in states {
        let keys: Vec<&str> = st.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["lost", "opp_resets", "own_resets", "reset_pending", "won"]
        );
        assert!(st["reset_pending"].is_boolean());
        sum += st["won"].as_u64().unwrap() + st["lost"].as_u64().unwrap();
        // The text's row of this state has the same counts.
        let row = format!(
            "{:>3} {:>3} {:>2} ",
            st["own_resets"].as_u64().unwrap(),
            st["opp_resets"].as_u64().unwrap(),
            u8::from(st["reset_pending"] == true)
        );
        let line = text.lines().find(|l| l.starts_with(&row)).unwrap();
        assert_eq!(
            won_lost(line),
            [st["won"].as_u64().unwrap(), st["lost"].as_u64().unwrap()]
        );
    }
    assert_eq!(sum, stored);
    let lost: Vec<u64> = v["first_player_loses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert!(text.contains(&format!(
        "loses the start of {} of the 150 games",
        lost.len()
    )));
    // The longest games: a distance (plies) and the winner's seat (0 first), odd
    // distances won by the first player.
    for l in v["longest"].as_array().unwrap() {
        let d = l["distance"].as_u64().unwrap();
        assert_eq!(l["winner"].as_u64(), Some(1 - d % 2));
        let line = format!("longest from N = {}: {d} plies", l["stones"]);
        assert!(text.contains(&line), "{line}");
    }
    let layers = &v["layers"];
    assert!(layers["count"].as_u64().unwrap() >= layers["without_lost"].as_u64().unwrap());
    let periods: u64 = layers["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["count"].as_u64().unwrap())
        .sum();
    assert!(
        text.replace(',', "")
            .contains(&format!("over {periods} periods")),
        "{periods}"
    );
}
