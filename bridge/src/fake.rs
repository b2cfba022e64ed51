//! A board for the bridge's tests: the real line protocol (`nimbot_protocol`, the
//! firmware's own session code on the embedded table), behind a wire that does what
//! a script says to the n-th command line: lose the reply, garble it, hold it back
//! until after the next one, rewrite the command, reset the board, or stop answering.

use std::collections::BTreeMap;

use nimbot::TableEngine;
use nimbot_protocol::Session;

use nimbot_protocol::BANNER;

/// What happens to one command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trick {
    /// The board never sees it (no reply).
    Drop,
    /// The reply comes with these bytes XORed into it, position by position.
    Garble(Vec<u8>),
    /// The reply comes after the next command's reply (a slow line).
    Late,
    /// The board receives this line instead.
    Rewrite(String),
    /// The board resets before handling it: the banner, and the command is lost.
    Reset,
    /// The board answers nothing from this command on.
    Die,
    /// The board answers this instead.
    Say(String),
}

/// A fake board with a script of tricks, by command number (from 0, blank lines
/// not counted).
pub struct FakeBoard {
    session: Session<TableEngine>,
    script: BTreeMap<usize, Trick>,
    commands: usize,
    late: Option<String>,
    dead: bool,
    /// Every command line the board received, as it received it.
    pub log: Vec<String>,
}

impl FakeBoard {
    /// A board that plays from the embedded table, as the firmware does.
    pub fn new() -> Self {
        FakeBoard {
            session: Self::session(),
            script: BTreeMap::new(),
            commands: 0,
            late: None,
            dead: false,
            log: Vec::new(),
        }
    }

    fn session() -> Session<TableEngine> {
        Session::new(TableEngine::embedded())
    }

    /// Play `trick` on the command numbered `at`.
    pub fn on(mut self, at: usize, trick: Trick) -> Self {
        self.script.insert(at, trick);
        self
    }

    /// Command lines seen so far.
    pub fn commands(&self) -> usize {
        self.commands
    }

    /// Bring a dead board back, reset (as after a power cycle).
    pub fn revive(&mut self) -> Vec<String> {
        self.dead = false;
        self.session = Self::session();
        vec![BANNER.to_owned()]
    }

    /// The lines the board sends after receiving `text` (one or more lines).
    pub fn exchange(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in text.split('\n') {
            if line.trim().is_empty() {
                continue;
            }
            let trick = self.script.remove(&self.commands);
            self.commands += 1;
            if self.dead {
                continue;
            }
            let mut line = line.to_owned();
            match trick {
                Some(Trick::Drop) => continue,
                Some(Trick::Die) => {
                    self.dead = true;
                    continue;
                }
                Some(Trick::Reset) => {
                    self.session = Self::session();
                    out.push(BANNER.to_owned());
                    continue;
                }
                Some(Trick::Rewrite(ref other)) => line.clone_from(other),
                Some(Trick::Say(text)) => {
                    self.log.push(line);
                    out.push(text);
                    continue;
                }
                _ => {}
            }
            self.log.push(line.clone());
            let reply = self
                .session
                .handle_line(line.as_bytes())
                .map(|r| String::from_utf8_lossy(&r).into_owned());
            // A reply held back from the command before arrives first.
            out.extend(self.late.take());
            match (trick, reply) {
                (Some(Trick::Late), Some(r)) => self.late = Some(r),
                (Some(Trick::Garble(mask)), Some(r)) => {
                    let bytes: Vec<u8> = r
                        .bytes()
                        .enumerate()
                        .map(|(i, b)| b ^ mask.get(i).copied().unwrap_or(0))
                        .collect();
                    out.push(String::from_utf8_lossy(&bytes).into_owned());
                }
                (_, Some(r)) => out.push(r),
                (_, None) => {}
            }
        }
        out
    }
}
