//! `analyze --plot FILE.svg` (or `FILE.png`): a game's value history as a picture.
//! One point a ply at the distance to the end of the position before it, coloured
//! by the seat that is winning there, joined by a line; the blunders ringed in red
//! and the first one named. The browser's Analysis view draws the same chart (web/).
//! SVG as plain text (a few dozen elements); PNG on the host's raster canvas
//! (`nimbot_games::raster`), the same frame and colours.

use std::fmt::Write as _;

use nimbot_games::analysis::Analysis;
use nimbot_games::raster::{Canvas, Rgb, LINE};

/// The colours of the seats winning (seat 0, seat 1), of a blunder, of the axes
/// and of the line through the points.
const SEAT: [Rgb; 2] = [[0x1f, 0x6f, 0xd1], [0xd9, 0x73, 0x0d]];
const BLUNDER: Rgb = [0xd1, 0x1f, 0x1f];
const AXES: Rgb = [0x44, 0x44, 0x44];
const TRACE: Rgb = [0x99, 0x99, 0x99];
/// The radius of a ply's point and of a blunder's ring.
const POINT: f64 = 4.0;
const RING: f64 = 8.0;

/// `#rrggbb`.
fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Where the chart's parts go: its size, its margins, and the plies and distances
/// it spans.
struct Frame {
    w: f64,
    h: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    plies: usize,
    dmax: u16,
}

impl Frame {
    fn of(a: &Analysis) -> Self {
        let dmax = a.plies.iter().filter_map(|p| p.distance).max();
        Frame {
            w: 720.0,
            h: 360.0,
            left: 56.0,
            right: 16.0,
            top: 40.0,
            bottom: 44.0,
            plies: a.plies.len().max(1),
            dmax: dmax.unwrap_or(1).max(1),
        }
    }

    /// The centre of ply `i` (from 0) across.
    fn x(&self, i: usize) -> f64 {
        self.left + (self.w - self.left - self.right) * (i as f64 + 0.5) / self.plies as f64
    }

    /// The height of distance `d`.
    fn y(&self, d: u16) -> f64 {
        self.top + (self.h - self.top - self.bottom) * (1.0 - f64::from(d) / f64::from(self.dmax))
    }

    /// The bottom of the plot area, and its right end.
    fn corner(&self) -> (f64, f64) {
        (self.h - self.bottom, self.w - self.right)
    }

    /// The plies numbered under the axis (about ten, the first among them).
    fn ply_ticks(&self) -> impl Iterator<Item = usize> {
        let step = (self.plies / 10).max(1);
        (0..self.plies).filter(move |i| (i + 1) % step == 0 || *i == 0)
    }

    /// The distances written beside the axis.
    fn distance_ticks(&self) -> [u16; 3] {
        [0, self.dmax / 2, self.dmax]
    }
}

/// The chart's title.
fn title(a: &Analysis) -> String {
    format!(
        "N = {}, R = {}, M = {}: {} (seat 0) v {} (seat 1)",
        a.stones, a.resets, a.init_max, a.names[0], a.names[1]
    )
}

/// The seat that is winning before ply `p`.
fn winning(p: &nimbot_games::analysis::Ply) -> usize {
    let mover = p.seat.index();
    if p.won {
        mover
    } else {
        1 - mover
    }
}

/// The first blunder's ply (from 0), its seat, and the label naming it.
fn first_blunder(a: &Analysis) -> Option<(usize, usize, String)> {
    let (i, p) = a
        .plies
        .iter()
        .enumerate()
        .find(|(_, p)| p.blunder && p.distance.is_some())?;
    let seat = p.seat.index();
    let label = format!(
        "first blunder: ply {} by seat {seat} ({})",
        i + 1,
        a.names[seat]
    );
    Some((i, seat, label))
}

/// `s` with the five XML specials escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// The chart of `a` as an SVG document.
pub fn svg(a: &Analysis) -> String {
    let f = Frame::of(a);
    let (w, h, left, top) = (f.w, f.h, f.left, f.top);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#fff"/>"##);
    let _ = writeln!(
        out,
        r#"<text x="{left}" y="16" font-weight="bold">{}</text>"#,
        escape(&title(a))
    );
    // Axes: plies along the bottom, distance up the left.
    let ((y0, x1), axes) = (f.corner(), hex(AXES));
    let _ = writeln!(
        out,
        r#"<path d="M{left} {top}V{y0}H{x1}" stroke="{axes}" fill="none"/>"#
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">ply</text>"#,
        (left + x1) / 2.0,
        h - 8.0
    );
    let _ = writeln!(
        out,
        r#"<text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">plies to the end</text>"#,
        (top + y0) / 2.0,
        (top + y0) / 2.0
    );
    for d in f.distance_ticks() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{d}</text>"#,
            left - 6.0,
            f.y(d) + 4.0
        );
    }
    for i in f.ply_ticks() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            f.x(i),
            y0 + 16.0,
            i + 1
        );
    }
    // The line through the known distances.
    let points: Vec<String> = a
        .plies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.distance.map(|d| format!("{:.1},{:.1}", f.x(i), f.y(d))))
        .collect();
    if points.len() > 1 {
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{}"/>"#,
            points.join(" "),
            hex(TRACE)
        );
    }
    // One point a ply: the colour of the seat winning the position before it.
    for (i, p) in a.plies.iter().enumerate() {
        let Some(d) = p.distance else { continue };
        let mover = p.seat.index();
        let (cx, cy) = (f.x(i), f.y(d));
        let _ = writeln!(
            out,
            r#"<circle class="ply" data-ply="{}" cx="{cx:.1}" cy="{cy:.1}" r="{POINT}" fill="{}"><title>ply {}: seat {mover} moves {}{}, {} in {d}</title></circle>"#,
            i + 1,
            hex(SEAT[winning(p)]),
            i + 1,
            p.record.take,
            if p.record.reset { "r" } else { "" },
            if p.won { "win" } else { "lose" },
        );
        if p.blunder {
            let _ = writeln!(
                out,
                r#"<circle class="blunder" data-ply="{}" cx="{cx:.1}" cy="{cy:.1}" r="{RING}" fill="none" stroke="{}" stroke-width="2"/>"#,
                i + 1,
                hex(BLUNDER)
            );
        }
    }
    if let Some((i, _, label)) = first_blunder(a) {
        let (cx, cy) = (f.x(i), f.y(a.plies[i].distance.unwrap_or(0)));
        let anchor = if cx > w / 2.0 { "end" } else { "start" };
        let _ = writeln!(
            out,
            r#"<text class="first-blunder" x="{cx:.1}" y="{:.1}" fill="{}" text-anchor="{anchor}">{}</text>"#,
            (cy - 12.0).max(top),
            hex(BLUNDER),
            escape(&label)
        );
    }
    // The key.
    for (seat, colour) in SEAT.iter().enumerate() {
        let kx = key_x(&f, seat);
        let _ = writeln!(
            out,
            r#"<circle cx="{kx}" cy="30" r="{POINT}" fill="{}"/><text x="{}" y="34">seat {seat} winning</text>"#,
            hex(*colour),
            kx + 8.0
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Where the key's entry for `seat` starts across.
fn key_x(f: &Frame, seat: usize) -> f64 {
    f.w - f.right - 250.0 + 130.0 * seat as f64
}

/// The same chart as [`svg`] on a raster, for `--plot FILE.png`: the same frame,
/// points, rings and colours; the text in the canvas's small font (the distance
/// axis's name written across, above the plot).
pub fn png(a: &Analysis) -> Canvas {
    let f = Frame::of(a);
    let mut c = Canvas::new(f.w as u32, f.h as u32);
    let at = |x: f64, y: f64| (x.round() as i64, y.round() as i64);
    let px = |v: f64| v.max(0.0).round() as u32;
    c.text(px(f.left), 6, &title(a));
    c.text(4, px(f.top) - LINE - 4, "plies to the end");
    let (y0, x1) = f.corner();
    c.line(at(f.left, f.top), at(f.left, y0), AXES);
    c.line(at(f.left, y0), at(x1, y0), AXES);
    let ply = "ply";
    c.text(
        px((f.left + x1) / 2.0) - Canvas::text_width(ply) / 2,
        px(f.h) - LINE - 2,
        ply,
    );
    for d in f.distance_ticks() {
        let s = d.to_string();
        c.text(
            px(f.left - 6.0) - Canvas::text_width(&s),
            px(f.y(d) - 5.0),
            &s,
        );
    }
    for i in f.ply_ticks() {
        let s = (i + 1).to_string();
        c.text(px(f.x(i)) - Canvas::text_width(&s) / 2, px(y0 + 6.0), &s);
    }
    if let Some((i, _, label)) = first_blunder(a) {
        let (cx, cy) = (f.x(i), f.y(a.plies[i].distance.unwrap_or(0)));
        let width = f64::from(Canvas::text_width(&label));
        let x = if cx > f.w / 2.0 { cx - width } else { cx };
        // Above its point, or below it when that is too near the top.
        let y = if cy - 22.0 < f.top {
            cy + 12.0
        } else {
            cy - 22.0
        };
        c.text_in(px(x), px(y), &label, BLUNDER);
    }
    let known: Vec<(usize, u16)> = (a.plies.iter().enumerate())
        .filter_map(|(i, p)| p.distance.map(|d| (i, d)))
        .collect();
    for pair in known.windows(2) {
        let ((i, d), (j, e)) = (pair[0], pair[1]);
        c.line(at(f.x(i), f.y(d)), at(f.x(j), f.y(e)), TRACE);
    }
    for &(i, d) in &known {
        let p = &a.plies[i];
        c.disc(at(f.x(i), f.y(d)), POINT as i64, SEAT[winning(p)]);
        if p.blunder {
            c.annulus(at(f.x(i), f.y(d)), RING as i64 - 1, RING as i64, BLUNDER);
        }
    }
    for (seat, colour) in SEAT.iter().enumerate() {
        let kx = key_x(&f, seat);
        c.disc(at(kx, 30.0), POINT as i64, *colour);
        c.text(px(kx + 8.0), 25, &format!("seat {seat} winning"));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// N = 8, R = 0: taking 1 wins; the first player takes 2 and throws it away.
    const LOG: &str = "\
Player a took 2 stones.\nCurrent max: 3\nStones left: 6\n---\n\
Player b took 3 stones.\nCurrent max: 3\nStones left: 3\n---\n\
Player a took 1 stones.\nCurrent max: 4\nStones left: 2\n---\n\
Player b took 2 stones.\nCurrent max: 4\nStones left: 0\n---\n\
Game over\nPlayer b won the game! Congrats!\n";

    fn game() -> Analysis {
        Analysis::of_text(LOG, 0, 3).expect("the log replays")
    }

    #[test]
    fn the_png_has_a_point_a_ply_in_its_winner_s_colour_and_rings_the_blunders() {
        let a = game();
        let (f, c) = (Frame::of(&a), png(&a));
        assert_eq!(c.size(), (f.w as u32, f.h as u32));
        let mut rings = 0;
        for (i, p) in a.plies.iter().enumerate() {
            let d = p.distance.expect("a small game has distances");
            let (x, y) = (f.x(i).round() as u32, f.y(d).round() as u32);
            assert_eq!(c.get(x, y), Some(SEAT[winning(p)]), "ply {}", i + 1);
            let ring = c.get(x + RING as u32, y);
            assert_eq!(ring == Some(BLUNDER), p.blunder, "ply {}", i + 1);
            rings += usize::from(p.blunder);
        }
        assert!(rings > 0, "the game has a blunder");
        let mut bytes = Vec::new();
        c.write_png(&mut bytes).expect("written");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    }
}
