//! Helpers shared by the line-protocol tests: sessions, one command and its reply,
//! dialogues checked line by line.
#![allow(dead_code)]

use nimbot::{Engine, Player, SolvingEngine};
use nimbot_protocol::{Session, MAX_REPLY};

/// A protocol session on the in-memory solver.
pub fn session() -> Session<SolvingEngine> {
    Session::new(SolvingEngine::default())
}

/// Send one command line; its one reply, checked to fit [`MAX_REPLY`].
pub fn send<E: Engine>(s: &mut Session<E>, line: &str) -> String {
    let reply = s
        .handle_line(line.as_bytes())
        .expect("a command gets a reply");
    assert!(reply.len() <= MAX_REPLY);
    String::from_utf8(reply.to_vec()).expect("replies are ASCII")
}

/// Send each line in turn and check its reply.
pub fn dialogue<E: Engine>(s: &mut Session<E>, exchanges: &[(&str, &str)]) {
    for &(line, expected) in exchanges {
        assert_eq!(send(s, line), expected, "reply to {line}");
    }
}

/// Send each line in turn, check its reply (an error) and that the game's state is
/// still `state` after it.
pub fn refused<E: Engine, S: AsRef<str>>(s: &mut Session<E>, state: &str, cases: &[(&str, S)]) {
    for (line, expected) in cases {
        assert_eq!(send(s, line), expected.as_ref(), "{line}");
        assert_eq!(send(s, "state"), state, "after {line}");
    }
}

/// The bot's opening move when it sits first; nothing yet when second.
pub fn opening(s: &mut Session<SolvingEngine>, bot: Player) -> String {
    if bot == Player::First {
        send(s, "go")
    } else {
        String::new()
    }
}
