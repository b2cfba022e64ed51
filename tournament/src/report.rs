//! What a tournament prints: the standings and crosstable as text, the same as
//! one JSON object (`--json`), and a self-contained HTML page (no script, no
//! external fetch: tables and inline SVG) with each game's value history.

use std::fmt::Write as _;

use nimbot_analysis::chart::{Chart, PlyInput};
use nimbot_analysis::record::Line;
use serde::Serialize;

use crate::game::{EndKind, Played};
use crate::stats::{Sprt, Standing};
use crate::store::Plan;

/// Everything the end of a tournament reports.
#[derive(Serialize)]
pub struct Summary<'a> {
    pub kind: &'static str,
    /// The event's name (`--event`).
    pub event: Option<&'a str>,
    pub bots: Vec<&'a str>,
    pub games_scheduled: usize,
    pub games_played: usize,
    pub no_result: usize,
    pub standings: &'a [Standing],
    /// `crosstable[a][b]`: points of bot a against bot b (bots in the order given).
    pub crosstable: &'a [Vec<u32>],
    /// Games per ending kind.
    pub endings: Vec<(&'static str, usize)>,
    pub sprt: Option<Sprt>,
}

/// What the standings' columns mean (the faults: every ending [`crate::stats::is_fault`]
/// counts).
const LEGEND: &str =
    "(1st/2nd wins: wins/games in that seat; won start: won starts converted; lost start:\n\
     lost starts won; caused: games whose first blunder the opponent made; faults: games\n\
     lost by time, an exit, not joining, a closed connection, garbage, joining twice,\n\
     asking for the wrong seat or moving out of turn; elo: against the field, with\n\
     Wilson's 95 % interval)\n\n";

/// The SPRT's decision in words, with the games it took.
fn sprt_verdict(t: &Sprt) -> String {
    let after = t
        .decided_after
        .map_or(String::new(), |n| format!(" after {n} games"));
    match t.decision {
        Some("H1") => format!("H1 accepted (elo1 holds){after}"),
        Some(_) => format!("H0 accepted (elo0 holds){after}"),
        None => "undecided".into(),
    }
}

fn elo_text(x: Option<f64>, inf: &str) -> String {
    // + 0.0 turns -0 into 0.
    x.map_or_else(|| inf.to_owned(), |v| format!("{:+.0}", v.round() + 0.0))
}

/// The bots in the standings' order (the crosstable is numbered by rank).
fn rank_order(s: &Summary<'_>) -> Vec<usize> {
    s.standings.iter().map(|r| r.bot).collect()
}

/// The crosstable as text: a row per bot in `order` (its rank and name in
/// `name_width` columns), a column per opponent in the same order with
/// "points-points"; the columns are as wide as the widest cell and one space, so
/// scores of any size stay apart.
fn crosstable_text(
    bots: &[&str],
    cross: &[Vec<u32>],
    order: &[usize],
    name_width: usize,
) -> String {
    let cell = |i: usize, j: usize| {
        let points = cross.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0);
        let against = cross.get(j).and_then(|r| r.get(i)).copied().unwrap_or(0);
        format!("{points}-{against}")
    };
    let widest = order
        .iter()
        .flat_map(|&i| order.iter().filter(move |&&j| j != i).map(move |&j| (i, j)))
        .map(|(i, j)| cell(i, j).len())
        .max()
        .unwrap_or(0);
    let cw = widest.max(6) + 1;
    let w = name_width;
    let mut out = String::new();
    let _ = write!(out, "{:<w$} ", "crosstable");
    for rank in 1..=order.len() {
        let _ = write!(out, "{rank:>cw$}");
    }
    out.push('\n');
    for (rank, &i) in order.iter().enumerate() {
        let name = bots.get(i).copied().unwrap_or("?");
        let _ = write!(out, "{:<w$} ", format!("{} {name}", rank + 1));
        for &j in order {
            if i == j {
                let _ = write!(out, "{:>cw$}", "-");
            } else {
                let _ = write!(out, "{:>cw$}", cell(i, j));
            }
        }
        out.push('\n');
    }
    out
}

/// The standings, the crosstable and the SPRT as text.
pub fn text(s: &Summary<'_>) -> String {
    let mut out = String::new();
    let w = s.bots.iter().map(|b| b.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{:>3}  {:<w$} {:>5} {:>6}  {:>9}  {:>9}  {:>10}  {:>10}  {:>8}  {:>6}  elo [95 %]",
        "#",
        "bot",
        "games",
        "points",
        "1st wins",
        "2nd wins",
        "won start",
        "lost start",
        "caused",
        "faults"
    );
    for (rank, r) in s.standings.iter().enumerate() {
        let elo = format!(
            "{} [{}, {}]",
            elo_text(
                r.elo.elo,
                if r.points == r.games && r.games > 0 {
                    "+inf"
                } else {
                    "-inf"
                }
            ),
            elo_text(r.elo.low, "-inf"),
            elo_text(r.elo.high, "+inf")
        );
        let _ = writeln!(
            out,
            "{:>3}  {:<w$} {:>5} {:>6}  {:>9}  {:>9}  {:>10}  {:>10}  {:>8}  {:>6}  {elo}",
            rank + 1,
            r.name,
            r.games,
            r.points,
            format!("{}/{}", r.wins_first, r.games_first),
            format!("{}/{}", r.wins_second, r.games_second),
            format!("{}/{}", r.won_starts_converted, r.won_starts),
            format!("{}/{}", r.lost_starts_won, r.lost_starts),
            r.first_blunders_caused,
            r.faults,
        );
    }
    out += LEGEND;
    out += &crosstable_text(&s.bots, s.crosstable, &rank_order(s), w + 3);
    out.push('\n');
    let endings: Vec<String> = s.endings.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = writeln!(
        out,
        "{} of {} games played; endings: {}",
        s.games_played,
        s.games_scheduled,
        endings.join(", ")
    );
    if let Some(t) = &s.sprt {
        let _ = writeln!(
            out,
            "SPRT elo0 {} elo1 {} alpha {} beta {}: {}-{}, LLR {:.3} in [{:.3}, {:.3}]: {}",
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            t.wins,
            t.losses,
            t.llr,
            t.lower,
            t.upper,
            sprt_verdict(t)
        );
    }
    if s.no_result > 0 {
        let _ = writeln!(out, "{} games have no valid result", s.no_result);
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The value history of a game as a small SVG: per ply, +1 when the first seat
/// holds a won position and -1 when it is lost (from the record's values), a red
/// dot on each blunder.
/// A game's value history: the chart of `analyze --plot` and the page
/// (`nimbot_analysis::chart`), from the record's plies, drawn at half size.
fn chart(g: &Played) -> String {
    let plies: Vec<PlyInput> = g
        .record
        .iter()
        .filter_map(|l| match l {
            Line::Ply(p) => Some(PlyInput {
                seat: usize::from(p.seat.min(1)),
                mv: nimbot::Move::new(p.take, p.reset),
                won: p.value == "win",
                distance: p.distance,
                blunder: p.blunder,
            }),
            _ => None,
        })
        .collect();
    let title = format!(
        "game {}, N = {}, R = {}, M = {}: {} (seat 0) v {} (seat 1)",
        g.game, g.stones, g.resets, g.init_max, g.names[0], g.names[1]
    );
    let c = Chart::new(title, [&g.names[0], &g.names[1]], &plies);
    // Inline in HTML: no namespace needed, one id a game, half the size.
    c.svg()
        .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
        .replacen("id=\"an-svg\"", &format!("id=\"game-{}\"", g.game), 1)
        .replacen(
            &format!("width=\"{}\" height=\"{}\"", c.width, c.height),
            &format!("width=\"{}\" height=\"{}\"", c.width / 2.0, c.height / 2.0),
            1,
        )
}

/// The rules, the flags that shaped the games and each bot's command.
fn header(plan: &Plan) -> String {
    let r = &plan.rules;
    let mut h = String::new();
    let mut piles: Vec<u32> = plan.schedule.iter().map(|p| p.stones).collect();
    piles.sort_unstable();
    piles.dedup();
    let piles: Vec<String> = piles.iter().map(u32::to_string).collect();
    let _ = writeln!(
        h,
        "<p>{}{}; N = {}; R = {}, M = {}, {} s a player, join within {} s; current_max: {}{}{}{}.</p>",
        esc(&plan.mode),
        plan.seed.map_or(String::new(), |s| format!(" (N drawn with seed {s})")),
        piles.join(", "),
        r.resets,
        r.init_max,
        r.time,
        r.join_timeout,
        if r.largest { "largest take so far" } else { "the next move's limit" },
        if r.welcome_extras { "; welcome with init_max and game_time" } else { "" },
        if r.pace_ms > 0 { format!("; --pace {}", r.pace_ms) } else { String::new() },
        r.port.map_or(String::new(), |p| format!("; --port {p}")),
    );
    h += "<table><tr><th class=\"l\">bot</th><th class=\"l\">command</th><th class=\"l\">directory</th></tr>\n";
    for b in &plan.bots {
        let _ = writeln!(
            h,
            "<tr><td class=\"l\">{}</td><td class=\"l\"><code>{}</code></td><td class=\"l\">{}</td></tr>",
            esc(&b.name),
            esc(&b.spec),
            b.dir.as_ref().map_or("&ndash;".to_owned(), |d| esc(&d.display().to_string()))
        );
    }
    h += "</table>\n";
    h
}

/// The date and time now, UTC: `2026-11-27 07:45 UTC`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let t = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        t / 3600,
        t / 60 % 60
    )
}

/// The HTML report.
pub fn html(s: &Summary<'_>, games: &[Played], plan: &Plan) -> String {
    let mut h = String::new();
    h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>nimbot tournament</title>\n<style>body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td.l,th.l{text-align:left;white-space:nowrap}td.w{text-align:left;white-space:normal;min-width:16em;max-width:30em}tr.fault td{background:#fff4f0}svg{vertical-align:middle}</style></head><body>\n";
    let _ = writeln!(
        h,
        "<h1>{}</h1><p>{} of {} games played; report written {}.</p>",
        esc(s.event.unwrap_or("Tournament")),
        s.games_played,
        s.games_scheduled,
        utc_now()
    );
    h += &header(plan);
    h += "<h2>Standings</h2><table><tr><th>#</th><th class=\"l\">bot</th><th>games</th><th>points</th><th>wins as first</th><th>wins as second</th><th>won starts converted</th><th>lost starts won</th><th>first blunders caused</th><th>faults</th><th>Elo</th><th>95 %</th></tr>\n";
    for (rank, r) in s.standings.iter().enumerate() {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}/{}</td><td>{}/{}</td><td>{}/{}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} to {}</td></tr>",
            rank + 1,
            esc(&r.name),
            r.games,
            r.points,
            r.wins_first,
            r.games_first,
            r.wins_second,
            r.games_second,
            r.won_starts_converted,
            r.won_starts,
            r.lost_starts_won,
            r.lost_starts,
            r.first_blunders_caused,
            r.faults,
            elo_text(r.elo.elo, if r.points == r.games && r.games > 0 { "+&infin;" } else { "-&infin;" }),
            elo_text(r.elo.low, "-&infin;"),
            elo_text(r.elo.high, "+&infin;"),
        );
    }
    h += "</table>\n<h2>Crosstable</h2><table><tr><th class=\"l\">points against</th>";
    let order = rank_order(s);
    for &b in &order {
        let _ = write!(h, "<th>{}</th>", esc(s.bots[b]));
    }
    h += "</tr>\n";
    for &i in &order {
        let _ = write!(h, "<tr><th class=\"l\">{}</th>", esc(s.bots[i]));
        for &j in &order {
            let c = s.crosstable[i][j];
            if i == j {
                h += "<td>&ndash;</td>";
            } else {
                let _ = write!(h, "<td>{c}&ndash;{}</td>", s.crosstable[j][i]);
            }
        }
        h += "</tr>\n";
    }
    h += "</table>\n";
    if let Some(t) = &s.sprt {
        let _ = writeln!(
            h,
            "<h2>SPRT</h2><p>elo0 {} elo1 {} alpha {} beta {}: {} wins, {} losses, LLR {:.3} in [{:.3}, {:.3}]: {}.</p>",
            t.elo0, t.elo1, t.alpha, t.beta, t.wins, t.losses, t.llr, t.lower, t.upper,
            sprt_verdict(t)
        );
    }
    h += "<h2>Games</h2><p>Value history (as <code>nimbot analyze --plot</code> draws it): a point a ply at the distance to the end, in the colour of the seat winning there; blunders ringed.</p><table><tr><th>game</th><th>N</th><th class=\"l\">first</th><th class=\"l\">second</th><th class=\"l\">winner</th><th class=\"l\">ending</th><th>plies</th><th>value history</th></tr>\n";
    let mut by_number: Vec<&Played> = games.iter().collect();
    by_number.sort_by_key(|g| g.game);
    for g in by_number {
        let winner = g
            .winner
            .map_or("&ndash;".to_owned(), |w| esc(&g.names[usize::from(w)]));
        let class = if g.ending.kind == EndKind::Won {
            ""
        } else {
            " class=\"fault\""
        };
        let _ = writeln!(
            h,
            "<tr{class}><td>{}</td><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{winner}</td><td class=\"w\">{}: {}</td><td>{}</td><td>{}</td></tr>",
            g.game,
            g.stones,
            esc(&g.names[0]),
            esc(&g.names[1]),
            g.ending.kind.word(),
            esc(&g.ending.text),
            g.plies,
            chart(g)
        );
    }
    h += "</table></body></html>\n";
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_rounded_once_and_the_legend_names_every_fault() {
        // 5 of 12 is -58.45 Elo: -58 (not -58.5 rounded again to -59).
        assert_eq!(elo_text(crate::stats::elo(5, 12).elo, "-inf"), "-58");
        assert_eq!(elo_text(crate::stats::elo(7, 12).elo, "-inf"), "+58");
        use crate::game::EndKind::*;
        let words = [
            (Time, "by time"),
            (Exited, "an exit"),
            (NeverJoined, "not joining"),
            (Closed, "a closed connection"),
            (Garbage, "garbage"),
            (JoinedTwice, "joining twice"),
            (WrongSeat, "wrong seat"),
            (OutOfTurn, "out of turn"),
        ];
        let legend = LEGEND.replace('\n', " ");
        for kind in [
            Won,
            IllegalMove,
            TooManyResets,
            OutOfTurn,
            Time,
            Exited,
            NeverJoined,
            Closed,
            Garbage,
            JoinedTwice,
            WrongSeat,
            NoResult,
        ] {
            let named = words.iter().find(|(k, _)| *k == kind);
            assert_eq!(crate::stats::is_fault(kind), named.is_some(), "{kind:?}");
            if let Some((_, w)) = named {
                assert!(legend.contains(w), "{kind:?}: {legend}");
            }
        }
    }

    #[test]
    fn crosstable_columns_stay_apart_at_three_digit_scores() {
        let cross = vec![vec![0, 123, 7], vec![456, 0, 1000], vec![99, 2, 0]];
        let text = crosstable_text(&["a", "b", "c"], &cross, &[0, 1, 2], 13);
        let rows: Vec<&str> = text.lines().collect();
        // Every cell is its own whitespace-separated word: name number, name, cells.
        assert_eq!(
            rows[1].split_whitespace().collect::<Vec<_>>(),
            ["1", "a", "-", "123-456", "7-99"]
        );
        assert_eq!(
            rows[2].split_whitespace().collect::<Vec<_>>(),
            ["2", "b", "456-123", "-", "1000-2"]
        );
        assert_eq!(
            rows[3].split_whitespace().collect::<Vec<_>>(),
            ["3", "c", "99-7", "2-1000", "-"]
        );
        // The columns line up: every row as long as the header.
        assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{text}");
        // In rank order (b first): b's row is numbered 1, its cells in that order.
        let ranked = crosstable_text(&["a", "b", "c"], &cross, &[1, 0, 2], 13);
        let row: Vec<&str> = ranked.lines().nth(1).unwrap().split_whitespace().collect();
        assert_eq!(row, ["1", "b", "-", "456-123", "1000-2"]);
    }
}
