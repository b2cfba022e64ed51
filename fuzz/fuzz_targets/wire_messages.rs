//! Every message of the platform's wire (`nimbot_platform::wire`): the first byte
//! chooses the type (hello, welcome, move, state, a text line, a reason text), the
//! rest is the input. Checks: whatever parses, emits, and what it emits parses back
//! to the same value (for a state, to the same fields; a hello's name as emitted is
//! escaped, so only names without escapes come back equal) and emits the same bytes
//! again; nothing panics or allocates.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use nimbot_platform::json::Writer;
use nimbot_platform::wire::{Ending, Hello, Line, MoveMessage, StateFields, Welcome};

/// Room for anything emitted from an input of libFuzzer's default maximum (4096
/// bytes) and more.
const ROOM: usize = 16_384;

fn emitted(f: impl FnOnce(&mut Writer<ROOM>)) -> Writer<ROOM> {
    let mut w = Writer::new();
    f(&mut w);
    assert!(w.clone().finish().is_ok(), "emit overflowed");
    w
}

/// A state without its clocks.
fn unclocked(mut f: StateFields<'_>) -> StateFields<'_> {
    for p in f.players.iter_mut().flatten() {
        p.time_taken_us = None;
    }
    f
}

fuzz_target!(|data: &[u8]| {
    let Some((&kind, msg)) = data.split_first() else {
        return;
    };
    common::no_heap("the wire's messages", || match kind % 6 {
        0 => {
            if let Ok(h) = Hello::parse(msg) {
                let w = emitted(|w| h.emit(w));
                let back = Hello::parse(w.as_bytes()).expect("an emitted hello parses");
                assert_eq!(back.seat, h.seat);
                if !h.name.contains(&b'\\') {
                    assert_eq!(back, h);
                }
            }
        }
        1 => {
            if let Ok(v) = Welcome::parse(msg) {
                let w = emitted(|w| v.emit(w));
                assert_eq!(Welcome::parse(w.as_bytes()), Ok(v));
            }
        }
        2 => {
            if let Ok(m) = MoveMessage::parse(msg) {
                let w = emitted(|w| m.emit(w));
                assert_eq!(MoveMessage::parse(w.as_bytes()), Ok(m));
            }
        }
        3 => {
            if let Ok(s) = StateFields::parse(msg) {
                let w = emitted(|w| s.emit(w));
                let back = StateFields::parse(w.as_bytes()).expect("an emitted state parses");
                // Clocks below 0.0001 s are written in Python's exponent form,
                // which is not read back (such a clock reads as none): every other
                // field is kept, and from the first emit on the bytes are stable.
                assert_eq!(unclocked(back), unclocked(s));
                let w2 = emitted(|w| back.emit(w));
                let again = StateFields::parse(w2.as_bytes()).expect("a re-emitted state parses");
                let w3 = emitted(|w| again.emit(w));
                assert_eq!(w3.as_bytes(), w2.as_bytes(), "emit is not stable");
            }
        }
        4 => {
            let line = Line::parse(msg);
            let w = emitted(|w| line.emit(w));
            let text = w.as_bytes();
            let text = text.strip_suffix(b"\n").unwrap_or(text);
            if !matches!(line, Line::Other(_) | Line::Unreadable(_)) {
                assert_eq!(Line::parse(text), line);
            }
        }
        _ => {
            if let Some(e) = Ending::parse(msg) {
                let w = emitted(|w| e.emit(w));
                assert_eq!(w.as_bytes(), msg);
                assert_eq!(Ending::parse(w.as_bytes()), Some(e));
            }
        }
    });
});
