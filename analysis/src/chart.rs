//! A game's value history as a chart: one point a ply at the distance to the end
//! of the position before it, coloured by the seat that is winning there, joined
//! by a line; the blunders ringed and the first one named; a key of the seats'
//! colours. [`Chart`] is the chart's data (where every part goes, in pixels, and
//! its colours), made once here; [`Chart::svg`] writes it as SVG (what `nimbot
//! analyze --plot FILE.svg` writes and the page shows), and the command line's
//! PNG draws the same data on a raster.

use std::fmt::Write as _;

use crate::analysis::Analysis;
use crate::notation::move_text;
use crate::record::{PlyLine, Record};
use nimbot::Move;

/// A colour: red, green, blue.
pub type Rgb = [u8; 3];

/// The colours of the seats winning (seat 0, seat 1).
pub const SEAT: [Rgb; 2] = [[0x1f, 0x6f, 0xd1], [0xd9, 0x73, 0x0d]];
/// The colour of a blunder's ring and of the label naming the first one.
pub const BLUNDER: Rgb = [0xd1, 0x1f, 0x1f];
/// The colour of the axes.
pub const AXES: Rgb = [0x44, 0x44, 0x44];
/// The colour of the line through the points.
pub const TRACE: Rgb = [0x99, 0x99, 0x99];
/// The radius of a ply's point.
pub const POINT: f64 = 4.0;
/// The radius of a blunder's ring.
pub const RING: f64 = 8.0;

/// `#rrggbb`.
pub fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// What the chart needs of one ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlyInput {
    /// The mover (0 first).
    pub seat: usize,
    pub mv: Move,
    /// The position before the move is won for the mover.
    pub won: bool,
    /// Its distance to the end, if known (a ply without one gets no point).
    pub distance: Option<u16>,
    pub blunder: bool,
}

impl From<&PlyLine> for PlyInput {
    /// A record's ply (its value and distance are the mover's before it).
    fn from(p: &PlyLine) -> Self {
        PlyInput {
            seat: usize::from(p.seat.min(1)),
            mv: Move::new(p.take, p.reset),
            won: p.value == "win",
            distance: p.distance,
            blunder: p.blunder,
        }
    }
}

/// One ply's point.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The ply, from 1.
    pub ply: usize,
    /// Its centre, in pixels from the top left corner.
    pub x: f64,
    pub y: f64,
    /// The colour of the seat winning before the ply.
    pub colour: Rgb,
    /// A blunder: ringed in [`BLUNDER`].
    pub ringed: bool,
    /// What the point says when pointed at: `ply 3: seat 0 moves 2r, win in 5`.
    pub title: String,
}

/// A text and where it goes: `x` is its left end, or its right end when
/// `end_anchored`; `y` its baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub x: f64,
    pub y: f64,
    pub text: String,
    pub end_anchored: bool,
}

/// The chart of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub width: f64,
    pub height: f64,
    /// `N = 20, R = 4, M = 3: alice (seat 0) v bob (seat 1)`.
    pub title: String,
    /// The plot area: left, top, right, bottom (the axes run along its left and
    /// bottom edges).
    pub area: [f64; 4],
    /// The distances written beside the axis, with their heights.
    pub distance_ticks: Vec<(u16, f64)>,
    /// The plies numbered under the axis (from 1), with their places across.
    pub ply_ticks: Vec<(usize, f64)>,
    /// A point a ply with a distance, in order; the line joins them.
    pub points: Vec<Point>,
    /// Where the first blunder (with a point) is named.
    pub first_blunder: Option<Label>,
    /// The key: a seat's colour and its words, at their places.
    pub key: [(Rgb, Label); 2],
}

impl Chart {
    /// The chart of an analysed game.
    pub fn of(a: &Analysis) -> Chart {
        let plies: Vec<PlyInput> = a
            .plies
            .iter()
            .map(|p| PlyInput {
                seat: p.seat.index(),
                mv: Move::new(p.record.take, p.record.reset),
                won: p.won,
                distance: p.distance,
                blunder: p.blunder,
            })
            .collect();
        let names = [a.names[0].as_str(), a.names[1].as_str()];
        Chart::new(title(a.stones, a.resets, a.init_max, names), names, &plies)
    }

    /// The chart of a record (`--record`'s, a tournament's game), from the
    /// values and distances its plies carry.
    pub fn of_record(rec: &Record) -> Chart {
        let h = &rec.header;
        let plies: Vec<PlyInput> = rec.plies.iter().map(PlyInput::from).collect();
        let names = [h.names[0].as_str(), h.names[1].as_str()];
        Chart::new(title(h.stones, h.resets, h.init_max, names), names, &plies)
    }

    /// The chart of `plies` under `title`, the seats called `names`.
    pub fn new(title: String, names: [&str; 2], plies: &[PlyInput]) -> Chart {
        let (width, height) = (720.0, 360.0);
        let [left, top, right, bottom] = [56.0, 40.0, width - 16.0, height - 44.0];
        let count = plies.len().max(1);
        let dmax = plies.iter().filter_map(|p| p.distance).max();
        let dmax = dmax.unwrap_or(1).max(1);
        let x = |i: usize| left + (right - left) * (i as f64 + 0.5) / count as f64;
        let y = |d: u16| top + (bottom - top) * (1.0 - f64::from(d) / f64::from(dmax));
        let step = (count / 10).max(1);
        let ply_ticks = (0..count)
            .filter(|i| (i + 1) % step == 0 || *i == 0)
            .map(|i| (i + 1, x(i)))
            .collect();
        let distance_ticks = [0, dmax / 2, dmax].map(|d| (d, y(d))).to_vec();
        let mut points = Vec::new();
        let mut first_blunder = None;
        for (i, p) in plies.iter().enumerate() {
            let Some(d) = p.distance else { continue };
            let winning = if p.won { p.seat } else { 1 - p.seat.min(1) };
            let (px, py) = (x(i), y(d));
            points.push(Point {
                ply: i + 1,
                x: px,
                y: py,
                colour: SEAT[winning.min(1)],
                ringed: p.blunder,
                title: format!(
                    "ply {}: seat {} moves {}, {} in {d}",
                    i + 1,
                    p.seat,
                    move_text(p.mv),
                    if p.won { "win" } else { "lose" }
                ),
            });
            if p.blunder && first_blunder.is_none() {
                first_blunder = Some(Label {
                    x: px,
                    y: (py - 12.0).max(top),
                    text: format!(
                        "first blunder: ply {} by seat {} ({})",
                        i + 1,
                        p.seat,
                        names[p.seat.min(1)]
                    ),
                    end_anchored: px > width / 2.0,
                });
            }
        }
        let key = [0, 1].map(|seat| {
            let kx = right - 250.0 + 130.0 * seat as f64;
            let label = Label {
                x: kx + 8.0,
                y: 34.0,
                text: format!("seat {seat} winning"),
                end_anchored: false,
            };
            (SEAT[seat], label)
        });
        Chart {
            width,
            height,
            title,
            area: [left, top, right, bottom],
            distance_ticks,
            ply_ticks,
            points,
            first_blunder,
            key,
        }
    }

    /// The chart as an SVG document (its `svg` element has the id `an-svg`; a
    /// point is a `circle` of class `ply`, a ring one of class `blunder`, each
    /// with its `data-ply`; the first blunder's label a `text` of class
    /// `first-blunder`).
    pub fn svg(&self) -> String {
        let (w, h) = (self.width, self.height);
        let [left, top, right, bottom] = self.area;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" id="an-svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#fff"/>"##);
        let _ = writeln!(
            out,
            r#"<text x="{left}" y="16" font-weight="bold">{}</text>"#,
            escape(&self.title)
        );
        let _ = writeln!(
            out,
            r#"<path d="M{left} {top}V{bottom}H{right}" stroke="{}" fill="none"/>"#,
            hex(AXES)
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">ply</text>"#,
            (left + right) / 2.0,
            h - 8.0
        );
        let mid = (top + bottom) / 2.0;
        let _ = writeln!(
            out,
            r#"<text x="14" y="{mid}" transform="rotate(-90 14 {mid})" text-anchor="middle">plies to the end</text>"#
        );
        for &(d, y) in &self.distance_ticks {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" text-anchor="end">{d}</text>"#,
                left - 6.0,
                y + 4.0
            );
        }
        for &(ply, x) in &self.ply_ticks {
            let _ = writeln!(
                out,
                r#"<text x="{x}" y="{}" text-anchor="middle">{ply}</text>"#,
                bottom + 16.0
            );
        }
        if self.points.len() > 1 {
            let trace: Vec<String> = (self.points.iter())
                .map(|p| format!("{:.1},{:.1}", p.x, p.y))
                .collect();
            let _ = writeln!(
                out,
                r#"<polyline points="{}" fill="none" stroke="{}"/>"#,
                trace.join(" "),
                hex(TRACE)
            );
        }
        for p in &self.points {
            let (ply, cx, cy) = (p.ply, p.x, p.y);
            let _ = writeln!(
                out,
                r#"<circle class="ply" data-ply="{ply}" cx="{cx:.1}" cy="{cy:.1}" r="{POINT}" fill="{}"><title>{}</title></circle>"#,
                hex(p.colour),
                escape(&p.title)
            );
            if p.ringed {
                let _ = writeln!(
                    out,
                    r#"<circle class="blunder" data-ply="{ply}" cx="{cx:.1}" cy="{cy:.1}" r="{RING}" fill="none" stroke="{}" stroke-width="2"/>"#,
                    hex(BLUNDER)
                );
            }
        }
        if let Some(l) = &self.first_blunder {
            let anchor = if l.end_anchored { "end" } else { "start" };
            let _ = writeln!(
                out,
                r#"<text class="first-blunder" x="{:.1}" y="{:.1}" fill="{}" text-anchor="{anchor}">{}</text>"#,
                l.x,
                l.y,
                hex(BLUNDER),
                escape(&l.text)
            );
        }
        for (colour, l) in &self.key {
            let _ = writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{POINT}" fill="{}"/><text x="{}" y="{}">{}</text>"#,
                l.x - 8.0,
                l.y - 4.0,
                hex(*colour),
                l.x,
                l.y,
                escape(&l.text)
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

/// A game's title: `N = 20, R = 4, M = 3: alice (seat 0) v bob (seat 1)`.
fn title(stones: u32, resets: u8, init_max: u32, names: [&str; 2]) -> String {
    format!(
        "N = {stones}, R = {resets}, M = {init_max}: {} (seat 0) v {} (seat 1)",
        names[0], names[1]
    )
}

/// `s` with the five XML specials escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimbot_solve::TableOrSolverEngine;

    /// N = 8, R = 0: taking 1 wins; the first player takes 2 and throws it away.
    const LOG: &str = "\
Player a took 2 stones.\nCurrent max: 3\nStones left: 6\n---\n\
Player <b> took 3 stones.\nCurrent max: 3\nStones left: 3\n---\n\
Player a took 1 stones.\nCurrent max: 4\nStones left: 2\n---\n\
Player <b> took 2 stones.\nCurrent max: 4\nStones left: 0\n---\n\
Game over\nPlayer <b> won the game! Congrats!\n";

    #[test]
    fn a_point_a_ply_in_its_winner_s_colour_and_a_ring_on_each_blunder() {
        let mut engine = TableOrSolverEngine::embedded();
        let a = Analysis::of_text(&mut engine, LOG, 0, 3).unwrap();
        let chart = Chart::of(&a);
        assert_eq!(chart.points.len(), a.plies.len());
        for (p, ply) in chart.points.iter().zip(&a.plies) {
            let mover = ply.seat.index();
            let winning = if ply.won { mover } else { 1 - mover };
            assert_eq!(p.colour, SEAT[winning]);
            assert_eq!(p.ringed, ply.blunder);
        }
        // The first player's first move throws the win away (1 wins from 8).
        assert!(a.plies[0].won && a.plies[0].blunder);
        let label = chart.first_blunder.as_ref().unwrap();
        assert_eq!(label.text, "first blunder: ply 1 by seat 0 (a)");
        // Heights follow distances: the longest at the top of the area, the
        // one-ply win at a fraction of it above the bottom.
        let d: Vec<u16> = a.plies.iter().map(|p| p.distance.unwrap()).collect();
        let (top, bottom) = (chart.area[1], chart.area[3]);
        let dmax = f64::from(*d.iter().max().unwrap());
        for (p, &d) in chart.points.iter().zip(&d) {
            let want = top + (bottom - top) * (1.0 - f64::from(d) / dmax);
            assert!((p.y - want).abs() < 1e-9, "ply {}", p.ply);
        }
        assert_eq!(d.last(), Some(&1));
        let svg = chart.svg();
        assert_eq!(svg.matches("class=\"ply\"").count(), a.plies.len());
        let blunders = a.plies.iter().filter(|p| p.blunder).count();
        assert_eq!(svg.matches("class=\"blunder\"").count(), blunders);
        // A record of the same game charts the same points.
        let rec = crate::record::parse(
            &crate::record::of_moves(
                &mut engine,
                crate::record::Header::new(
                    "serve",
                    nimbot::Params::new(8, 0, 3).unwrap(),
                    ["a".into(), "<b>".into()],
                    None,
                    None,
                    0.0,
                ),
                &crate::notation::parse_moves("2 3 1 2").unwrap(),
                "over",
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(Chart::of_record(&rec).points, chart.points);
        // Names are escaped.
        assert!(
            svg.contains("&lt;b&gt; (seat 1)") && !svg.contains("<b>"),
            "{svg}"
        );
    }
}
