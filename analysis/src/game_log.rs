//! The platform server's `game-log.txt`: one record per judged move, then the end.
//!
//! ```text
//! Player NAME took K stones.                 (or: ... took K stones and used reset.)
//! Current max: X
//! Stones left: S
//! ---------------------------------------
//! Game over
//! Player NAME won the game! Congrats!
//! ```
//!
//! `nimbot serve --game-log` writes it ([`Writer`]), `nimbot analyze` reads it
//! ([`parse`]). The log carries neither N, R nor M, and names may contain spaces or
//! repeat, so a record's seat is its position (seat 0 moves first).

use std::io::{self, Write};

use nimbot::Move;
use nimbot_platform::json::Writer as Text;
use nimbot_platform::wire::lines::{self, Line, Mover};

/// One judged move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub name: String,
    pub take: u32,
    pub reset: bool,
    pub current_max: u32,
    pub stones_left: u32,
}

/// A whole log: the records and, if the game ended, the reason line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Log {
    pub records: Vec<Record>,
    pub reason: Option<String>,
}

/// Writes the log as the server does, flushing after every record (it can be tailed).
pub struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Self {
        Writer { out }
    }

    pub fn record(&mut self, r: &Record) -> io::Result<()> {
        let mut text = Text::<{ 2 * lines::MAX_RECORD }>::new();
        let who = Mover::Player(r.name.as_bytes());
        let mv = Move::new(r.take, r.reset);
        lines::record(&mut text, who, mv, r.current_max, r.stones_left);
        let text = text.finish().map_err(|e| io::Error::other(e.as_str()))?;
        self.out.write_all(&text)?;
        self.out.flush()
    }

    pub fn game_over(&mut self, reason: &str) -> io::Result<()> {
        let mut text = Text::<32>::new();
        Line::GameOver.emit(&mut text);
        self.out.write_all(text.as_bytes())?;
        writeln!(self.out, "{reason}")?;
        self.out.flush()
    }
}

/// Read a log. Blank lines and lines it does not know are skipped; a record cut
/// short (a crashed server) ends the log. Errors name the line.
pub fn parse(text: &str) -> Result<Log, String> {
    let mut log = Log::default();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let (name, mv) = match Line::parse(line.as_bytes()) {
            Line::GameOver => {
                log.reason = lines
                    .by_ref()
                    .map(|(_, l)| l.trim())
                    .find(|l| !l.is_empty())
                    .map(str::to_owned);
                break;
            }
            Line::Took(Mover::Player(name), mv) => (name, mv),
            Line::Unreadable(_) => return Err(format!("line {}: bad take in {line:?}", i + 1)),
            _ => continue,
        };
        let mut field = || -> Result<Option<Line<'_>>, String> {
            match lines.next() {
                None => Ok(None),
                Some((j, l)) => match Line::parse(l.trim().as_bytes()) {
                    Line::Unreadable(_) | Line::Other(_) => {
                        Err(format!("line {}: bad number in {l:?}", j + 1))
                    }
                    other => Ok(Some(other)),
                },
            }
        };
        let (Some(Line::CurrentMax(current_max)), Some(Line::StonesLeft(stones_left))) =
            (field()?, field()?)
        else {
            break;
        };
        log.records.push(Record {
            name: String::from_utf8_lossy(name).into_owned(),
            take: mv.take,
            reset: mv.reset,
            current_max,
            stones_left,
        });
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_logs_read_back() {
        let records = vec![
            Record {
                name: "first noob".into(),
                take: 1,
                reset: false,
                current_max: 3,
                stones_left: 9,
            },
            Record {
                name: "first noob".into(),
                take: 3,
                reset: true,
                current_max: 3,
                stones_left: 6,
            },
        ];
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out);
        for r in &records {
            w.record(r).unwrap();
        }
        w.game_over("Player first noob used too many resets")
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with(
            "Player first noob took 1 stones.\nCurrent max: 3\nStones left: 9\n---------------------------------------\n"
        ));
        assert!(text.contains("took 3 stones and used reset.\n"));
        let log = parse(&text).unwrap();
        assert_eq!(log.records, records);
        assert_eq!(
            log.reason.as_deref(),
            Some("Player first noob used too many resets")
        );
    }

    #[test]
    fn a_log_cut_short_keeps_its_whole_records_and_bad_lines_are_named() {
        let log = parse("Player a took 2 stones.\nCurrent max: 3\nStones left: 8\n-----\nPlayer b took 3 stones.\nCurrent max: 4\n").unwrap();
        assert_eq!(log.records.len(), 1);
        assert_eq!(log.reason, None);
        let e = parse("Player a took two stones.\n").unwrap_err();
        assert!(e.starts_with("line 1: bad take"), "{e}");
        let e = parse("Player a took 2 stones.\nCurrent max: x\n").unwrap_err();
        assert!(e.starts_with("line 2: bad number"), "{e}");
    }
}
