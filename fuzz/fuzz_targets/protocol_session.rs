//! The line protocol: arbitrary bytes through `LineReader` and one `Session`, in
//! chunks of a fuzzed size. Every command line must get exactly one printable reply
//! (a known reply word or `error ...`), blank lines none, overlong lines the
//! overlong error; nothing may panic or allocate.
#![no_main]

mod common;

use common::engine;
use libfuzzer_sys::fuzz_target;
use nimbot_protocol::{ActiveGame, Line, LineReader, Session, MAX_LINE, MAX_REPLY};

/// Hands out `data` `chunk` bytes at a time, as a UART or pipe would.
struct Chunks<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl embedded_io::ErrorType for Chunks<'_> {
    type Error = core::convert::Infallible;
}

impl embedded_io::Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        let (head, tail) = self.data.split_at(n);
        buf[..n].copy_from_slice(head);
        self.data = tail;
        Ok(n)
    }
}

const REPLY_WORDS: &[&[u8]] = &[
    b"ok", b"move", b"lost", b"over", b"win", b"lose", b"state", b"version", b"policy", b"limits",
    b"help", b"error",
];

/// What the documented grammar expects for each line: `None` for a blank line,
/// `Some(true)` for an overlong one, `Some(false)` for a command.
fn expected(input: &[u8]) -> Vec<Option<bool>> {
    let mut out = Vec::new();
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for line in lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_LINE {
            out.push(Some(true));
        } else if line.iter().all(|&b| b == b' ' || b == b'\t') {
            out.push(None);
        } else {
            out.push(Some(false));
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first % 65).max(1);
    let want = expected(input);
    let mut engine = Some(engine());
    common::no_heap("the protocol session", || {
        let mut session = Session::new(engine.take().unwrap());
        let mut reader = LineReader::default();
        let mut src = Chunks { data: input, chunk };
        let mut i = 0;
        while let Some(line) = reader.next_line(&mut src).unwrap() {
            let too_long = line == Line::TooLong;
            let expect = want.get(i).copied().expect("more lines than the input has");
            i += 1;
            let reply = session.handle(line);
            match (expect, reply) {
                (None, None) => {}
                (Some(long), Some(reply)) => {
                    assert_eq!(long, too_long, "line {i}: overlong misjudged");
                    assert!(!reply.is_empty() && reply.len() <= MAX_REPLY);
                    assert!(reply.iter().all(|b| (0x20..0x7f).contains(b)));
                    let word = reply.split(|&b| b == b' ').next().unwrap_or(&[]);
                    assert!(REPLY_WORDS.contains(&word), "unknown reply word");
                    if long {
                        assert_eq!(&reply[..], b"error line too long");
                    }
                }
                (e, r) => panic!("line {i}: expected {e:?}, got reply {r:?}"),
            }
            // The game, if any, is always consistent with its own rules.
            if let Some(ActiveGame::Expanding(game, _)) = session.game() {
                assert!(game.limit() >= 1);
                if game.winner().is_none() {
                    assert!(game.stones() >= 1);
                }
            }
        }
        assert_eq!(i, want.len(), "lines lost");
    });
});
