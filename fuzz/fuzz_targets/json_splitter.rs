//! The TCP client's input path: arbitrary bytes through the JSON `Splitter` (the
//! buffer size `connect` uses), every complete object through `Object` and the
//! tournament `Client` playing from the embedded table. Checks: a completed object
//! is one balanced `{...}` no longer than the buffer; errors come once and the
//! splitter carries on; nothing panics or allocates.
#![no_main]

mod common;

use common::engine;
use libfuzzer_sys::fuzz_target;
use nimbot::Player;
use nimbot_platform::json::{Feed, Object, Splitter};
use nimbot_platform::tcp_client::{Client, Step};
use nimbot_platform::wire::MAX_MESSAGE;

/// A small buffer too, so the oversize path is reached by short inputs.
const SMALL: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let seat = if first & 1 == 0 {
        Player::First
    } else {
        Player::Second
    };
    let mut engine = engine();
    common::no_heap("the splitter and client", || {
        let mut big: Splitter<MAX_MESSAGE> = Splitter::new();
        let mut small: Splitter<SMALL> = Splitter::new();
        let mut client = Client::new(seat, b"fuzz", 3).unwrap();
        let _ = client.hello();
        let mut finished = false;
        for &b in input {
            if let Ok(Feed::Complete) = small.feed(b) {
                let obj = small.object().expect("complete object");
                assert!(obj.len() <= SMALL && obj.first() == Some(&b'{'));
            }
            match big.feed(b) {
                Ok(Feed::Pending) => assert!(big.object().is_none()),
                Err(_) => assert!(big.object().is_none()),
                Ok(Feed::Complete) => {
                    let obj = big.object().expect("complete object");
                    assert!(obj.len() <= MAX_MESSAGE);
                    assert_eq!(obj.first(), Some(&b'{'));
                    // The splitter counts brackets without matching their kinds,
                    // so `{...]` completes too; the reader must then refuse it.
                    match obj.last() {
                        Some(b'}') => {}
                        Some(b']') => assert!(Object::parse(obj).is_err()),
                        other => panic!("object ends with {other:?}"),
                    }
                    assert!(big.is_idle());
                    if let Ok(o) = Object::parse(obj) {
                        for key in ["init_stones", "num_stones", "finished", "current_max"] {
                            if let Some(v) = o.get(key) {
                                let _ = (v.as_u32(), v.as_bool(), v.as_str(), v.is_null());
                                let _ = v.as_object().map(|inner| inner.get("resets_left"));
                            }
                        }
                    }
                    match client.handle(obj, &mut engine) {
                        Ok(Step::Finished(r)) => {
                            assert!(!finished, "finished twice");
                            finished = true;
                            assert_eq!(r.won, r.winner == seat);
                        }
                        Ok(Step::Send(bytes)) => {
                            assert!(!finished);
                            assert!(Object::parse(&bytes).is_ok(), "sent a bad move");
                        }
                        Ok(Step::Wait) => assert!(!finished),
                        Err(_) => {}
                    }
                }
            }
        }
    });
});
