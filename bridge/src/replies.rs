//! The line protocol's replies as JSON, for scripts: what `nimbot protocol
//! parse` prints for each reply line, read by the protocol's one grammar
//! (`nimbot_protocol::grammar::Response`). The Python drivers of the boards and
//! of the tiny binary read replies through it, so that no script parses reply
//! text of its own.

use nimbot::Move;
use nimbot_protocol::grammar::{Command, Opp, Reason, Response, Turn};
use nimbot_protocol::Reply;
use serde_json::{json, Value as Json};

/// A take and its reset, by name.
fn take(mv: Move) -> (u32, bool) {
    (mv.take, mv.reset)
}

fn turn(t: Turn) -> String {
    t.text().to_string()
}

/// `reply` as a JSON object: `"reply"` names it, its fields by name.
pub fn reply_json(reply: &Response<'_>) -> Json {
    match *reply {
        Response::Ok => json!({"reply": "ok"}),
        Response::Lost => json!({"reply": "lost"}),
        Response::Move { mv, won } => {
            let (take, reset) = take(mv);
            json!({"reply": "move", "game": "expanding", "take": take, "reset": reset, "won": won})
        }
        Response::Query {
            value,
            mv,
            distance,
        } => {
            let (take, reset) = take(mv);
            json!({"reply": "query", "value": value.as_word(), "take": take, "reset": reset,
                   "distance": distance})
        }
        Response::Moves(page) => {
            let moves: Vec<Json> = page
                .moves
                .iter()
                .map(|e| {
                    json!({"take": e.mv.take, "reset": e.mv.reset, "wins": e.wins,
                           "distance": e.distance})
                })
                .collect();
            json!({"reply": "moves", "value": page.value.as_word(), "distance": page.distance,
                   "moves": moves, "more": page.more})
        }
        Response::State(None) => json!({"reply": "state", "game": "none"}),
        Response::State(Some(s)) => json!({
            "reply": "state", "game": "expanding", "stones": s.stones, "limit": s.limit,
            "cap": s.cap, "own_resets": s.own_resets, "opp_resets": s.opp_resets,
            "pending": s.pending, "turn": turn(s.turn),
        }),
        Response::Version { software, protocol } => {
            json!({"reply": "version", "software": software.to_string(), "protocol": protocol})
        }
        Response::Policy(p) => json!({"reply": "policy", "policy": p.as_str()}),
        Response::Limits(l) => json!({
            "reply": "limits", "stones": l.stones, "resets": l.resets,
            "init_max": l.init_max, "line": l.line,
        }),
        Response::Help(text) => json!({"reply": "help", "text": text.to_string()}),
        Response::Error(reason) => {
            // The whole text after `error `, as the grammar writes it back.
            let mut line = Reply::default();
            reply.write(&mut line);
            let text = String::from_utf8_lossy(line.strip_prefix(b"error ").unwrap_or(&line));
            match reason {
                Reason::Says(_) => json!({"reply": "error", "reason": "says", "text": text}),
                Reason::Illegal(_) => json!({"reply": "error", "reason": "illegal", "text": text}),
                Reason::BadTake { take, limit } => json!({
                    "reply": "error", "reason": "bad-take", "text": text,
                    "take": take, "limit": limit,
                }),
            }
        }
        Response::FibonacciMove { take, won } => {
            json!({"reply": "move", "game": "fibonacci", "take": take, "won": won})
        }
        Response::FibonacciState {
            stones,
            limit,
            turn: t,
        } => json!({
            "reply": "state", "game": "fibonacci", "stones": stones, "limit": limit,
            "turn": turn(t),
        }),
        Response::SuperNimMove { mv, over } => {
            // The move as `opp` takes it back, written by the grammar.
            let mut line = Reply::default();
            Command::Opp(Opp::SuperNim(mv)).write(&mut line);
            let text = String::from_utf8_lossy(line.strip_prefix(b"opp ").unwrap_or(&line));
            json!({"reply": "move", "game": "supernim", "move": text,
                   "over": over.map(turn)})
        }
        Response::SuperNimOver(t) => json!({"reply": "over", "result": turn(t)}),
        Response::SuperNimState {
            heaps,
            score,
            turn: t,
        } => {
            let heaps: Vec<u16> = heaps.iter().collect();
            json!({
                "reply": "state", "game": "supernim", "heaps": heaps,
                "score": {"bot": score[0], "opponent": score[1]}, "turn": turn(t),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Json {
        Response::parse(line.as_bytes()).map_or(Json::Null, |r| reply_json(&r))
    }

    #[test]
    fn replies_read_as_json() {
        assert_eq!(
            parse("move 2 1 won"),
            json!({"reply": "move", "game": "expanding", "take": 2, "reset": true, "won": true})
        );
        assert_eq!(parse("move 5 won")["game"], "fibonacci");
        assert_eq!(
            parse("move merge 1 2 over draw"),
            json!({"reply": "move", "game": "supernim", "move": "merge 1 2", "over": "draw"})
        );
        assert_eq!(
            parse("lose 1 0 -"),
            json!({"reply": "query", "value": "lose", "take": 1, "reset": false, "distance": null})
        );
        let moves = parse("moves win 3 3:w1 1r:l- more 7");
        assert_eq!(
            moves["moves"][1],
            json!({"take": 1, "reset": true, "wins": false, "distance": null})
        );
        assert_eq!(
            (moves["distance"].clone(), moves["more"].clone()),
            (json!(3), json!(7))
        );
        assert_eq!(
            parse("state stones 9 limit 4 cap 4 resets 2 1 pending 0 turn bot")["own_resets"],
            2
        );
        assert_eq!(
            parse("state supernim heaps - score 3 1 turn won")["heaps"],
            json!([])
        );
        assert_eq!(
            parse("error illegal move: take 9 is outside 1..=3"),
            json!({"reply": "error", "reason": "bad-take", "text": "illegal move: take 9 is outside 1..=3",
                   "take": 9, "limit": 3})
        );
        assert_eq!(
            parse("error no game (send new)")["text"],
            "no game (send new)"
        );
        assert_eq!(
            parse("version nimbot 0.1.0 protocol 2")["software"],
            "nimbot 0.1.0"
        );
        assert_eq!(
            parse("limits stones 999 resets 4 init_max any line 80")["init_max"],
            Json::Null
        );
        for bad in [
            "",
            "move",
            "move 2 2",
            "win 3 0",
            "stack used 1 of 2",
            "moves win",
        ] {
            assert_eq!(parse(bad), Json::Null, "{bad:?}");
        }
    }
}
