//! The referee: arbitrary hellos and move messages. The first bytes choose the game
//! (N, R, M), the time limit and the `current_max` meaning; the rest is a series of
//! events, each a tag byte (who sends, what happens, the elapsed time) and, for a
//! message, a length-prefixed object. Checks: while no verdict, a message or garbage
//! always yields one state message (a JSON object); once a verdict is given it never
//! changes and nothing more is sent; the game stays consistent; nothing panics or
//! allocates.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use nimbot::{Params, Player};
use nimbot_platform::json::Object;
use nimbot_platform::referee::{welcome, CurrentMax, Referee};
use nimbot_platform::wire::{Hello, MoveMessage};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, mut rest) = data.split_at(4);
    common::no_heap("the referee", || {
        let stones = u32::from(head[0]) * 4 + 1;
        let resets = head[1] % 6;
        let init_max = u32::from(head[2] % 5) + 1;
        let meaning = if head[3] & 1 == 0 {
            CurrentMax::Limit
        } else {
            CurrentMax::Largest
        };
        let limit_us = u64::from(head[3] >> 1) * 1_000;
        let Ok(params) = Params::new(stones, resets, init_max) else {
            return;
        };
        assert!(Object::parse(&welcome(&params, Some(120))).is_ok());
        let mut names = [heapless::Vec::new(), heapless::Vec::new()];
        let mut referee: Option<Referee> = None;
        let mut verdict = None;
        while let Some((&tag, tail)) = rest.split_first() {
            let len = usize::from(tail.first().copied().unwrap_or(0));
            let body = tail.get(1..).unwrap_or(&[]);
            let msg = body.get(..len.min(body.len())).unwrap_or(&[]);
            rest = body.get(msg.len()..).unwrap_or(&[]);
            let player = if tag & 1 == 0 {
                Player::First
            } else {
                Player::Second
            };
            let elapsed = u64::from(tag >> 3) * 100;
            let Some(r) = referee.as_mut() else {
                // Hellos until both seats have names.
                if let Ok(h) = Hello::parse(msg) {
                    let name = h.safe_name();
                    assert!(name.iter().all(|&b| (0x20..0x7f).contains(&b)));
                    names[h.seat.index()] = name;
                }
                if tag & 2 == 2 {
                    referee = Some(Referee::new(params, names.clone(), limit_us, meaning));
                }
                continue;
            };
            let before = r.verdict();
            let was_over = before.is_some();
            let out = match (tag >> 1) & 3 {
                0 | 1 => {
                    let _ = MoveMessage::parse(msg);
                    r.on_message(player, msg, elapsed)
                }
                2 => r.on_garbage(player, elapsed),
                _ => {
                    if tag & 0x80 == 0 {
                        r.on_closed(player, elapsed)
                    } else {
                        r.on_timeout(elapsed)
                    }
                }
            };
            if was_over {
                assert!(out.is_none(), "a message after the verdict");
                assert_eq!(r.verdict(), before, "the verdict changed");
            } else if (tag >> 1) & 3 != 3 {
                let msg = out.expect("a move must be answered");
                assert!(Object::parse(&msg).is_ok(), "state message is not JSON");
            }
            if let Some(v) = r.verdict() {
                verdict.get_or_insert(v);
                assert_eq!(Some(v), verdict);
                let _ = r.reason_text();
            } else {
                assert!(r.game().winner().is_none());
                assert!(r.game().stones() >= 1);
            }
            let _ = (r.used_us(Player::First), r.remaining_us(Player::Second));
        }
    });
});
