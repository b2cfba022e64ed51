//! What a tournament prints: the standings and crosstable as text, the same as
//! one JSON object (`--json`), and a self-contained HTML page (no script, no
//! external fetch: tables and inline SVG) with each game's value history.

use std::fmt::Write as _;

use nimbot_study::record::Line;
use serde::Serialize;

use super::game::{EndKind, Played};
use super::stats::{Sprt, Standing};

/// Everything the end of a tournament reports.
#[derive(Serialize)]
pub struct Summary<'a> {
    pub kind: &'static str,
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

fn elo_text(x: Option<f64>, inf: &str) -> String {
    // + 0.0 turns -0 into 0.
    x.map_or_else(|| inf.to_owned(), |v| format!("{:+.0}", v.round() + 0.0))
}

/// The crosstable as text: a row per bot (its number and name in `name_width`
/// columns), a column per opponent with "points-points"; the columns are as wide
/// as the widest cell and one space, so scores of any size stay apart.
fn crosstable_text(bots: &[&str], cross: &[Vec<u32>], name_width: usize) -> String {
    let cell = |i: usize, j: usize| {
        let against = cross.get(j).and_then(|r| r.get(i)).copied().unwrap_or(0);
        let points = cross.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0);
        format!("{points}-{against}")
    };
    let widest = (0..cross.len())
        .flat_map(|i| {
            (0..cross.len())
                .filter(move |&j| j != i)
                .map(move |j| (i, j))
        })
        .map(|(i, j)| cell(i, j).len())
        .max()
        .unwrap_or(0);
    let cw = widest.max(6) + 1;
    let w = name_width;
    let mut out = String::new();
    let _ = write!(out, "{:<w$} ", "crosstable");
    for i in 0..bots.len() {
        let _ = write!(out, "{:>cw$}", i + 1);
    }
    out.push('\n');
    for (i, name) in bots.iter().enumerate().take(cross.len()) {
        let _ = write!(out, "{:<w$} ", format!("{} {name}", i + 1));
        for j in 0..cross.len() {
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
    out += "(1st/2nd wins: wins/games in that seat; won start: won starts converted; lost start:\n\
             lost starts won; caused: games whose first blunder the opponent made; faults: games\n\
             lost by time, an exit, not joining, a closed connection, garbage, joining twice or\n\
             moving out of turn; elo: against the field, with Wilson's 95 % interval)\n\n";
    out += &crosstable_text(&s.bots, s.crosstable, w + 3);
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
            match t.decision {
                Some("H1") => "H1 accepted (elo1 holds)",
                Some(_) => "H0 accepted (elo0 holds)",
                None => "undecided",
            }
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
fn chart(g: &Played) -> String {
    let plies: Vec<(u8, bool, bool)> = g
        .record
        .iter()
        .filter_map(|l| match l {
            Line::Ply(p) => Some((p.seat, p.value == "win", p.blunder)),
            _ => None,
        })
        .collect();
    let (wd, ht) = (160.0f64, 28.0f64);
    if plies.is_empty() {
        return format!("<svg width=\"{wd}\" height=\"{ht}\" role=\"img\"></svg>");
    }
    let step = wd / plies.len().max(1) as f64;
    let y = |first_wins: bool| if first_wins { 4.0 } else { ht - 4.0 };
    let mut path = String::new();
    let mut dots = String::new();
    for (i, &(seat, win, blunder)) in plies.iter().enumerate() {
        let first_wins = (seat == 0) == win;
        let (x0, x1) = (i as f64 * step, (i + 1) as f64 * step);
        let _ = write!(
            path,
            "{}{x0:.1},{:.1} L{x1:.1},{:.1} ",
            if i == 0 { "M" } else { "L" },
            y(first_wins),
            y(first_wins)
        );
        if blunder {
            let _ = write!(
                dots,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"#c00\"/>",
                x0 + step / 2.0,
                y(first_wins)
            );
        }
    }
    format!(
        "<svg width=\"{wd}\" height=\"{ht}\" viewBox=\"0 0 {wd} {ht}\" role=\"img\"><title>value for the first seat, ply by ply (up: won)</title><line x1=\"0\" y1=\"{mid}\" x2=\"{wd}\" y2=\"{mid}\" stroke=\"#ccc\"/><path d=\"{path}\" fill=\"none\" stroke=\"#246\" stroke-width=\"1.5\"/>{dots}</svg>",
        mid = ht / 2.0
    )
}

/// The HTML report.
pub fn html(s: &Summary<'_>, games: &[Played]) -> String {
    let mut h = String::new();
    h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>nimbot tournament</title>\n<style>body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td.l,th.l{text-align:left;white-space:nowrap}tr.fault td{background:#fff4f0}svg{vertical-align:middle}</style></head><body>\n";
    let _ = writeln!(
        h,
        "<h1>Tournament</h1><p>{} of {} games played.</p>",
        s.games_played, s.games_scheduled
    );
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
    for b in &s.bots {
        let _ = write!(h, "<th>{}</th>", esc(b));
    }
    h += "</tr>\n";
    for (i, row) in s.crosstable.iter().enumerate() {
        let _ = write!(h, "<tr><th class=\"l\">{}</th>", esc(s.bots[i]));
        for (j, c) in row.iter().enumerate() {
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
            t.decision.unwrap_or("undecided")
        );
    }
    h += "<h2>Games</h2><p>Value history: the line is up while the first seat holds a won position, down while it holds a lost one; red dots are blunders.</p><table><tr><th>game</th><th>N</th><th class=\"l\">first</th><th class=\"l\">second</th><th class=\"l\">winner</th><th class=\"l\">ending</th><th>plies</th><th>value history</th></tr>\n";
    for g in games {
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
            "<tr{class}><td>{}</td><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{winner}</td><td class=\"l\">{}: {}</td><td>{}</td><td>{}</td></tr>",
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
    fn crosstable_columns_stay_apart_at_three_digit_scores() {
        let cross = vec![vec![0, 123, 7], vec![456, 0, 1000], vec![99, 2, 0]];
        let text = crosstable_text(&["a", "b", "c"], &cross, 13);
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
    }
}
