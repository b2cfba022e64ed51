//! `analyze --plot FILE.svg`: a game's value history as a picture. One point a
//! ply at the distance to the end of the position before it, coloured by the seat
//! that is winning there, joined by a line; the blunders ringed in red and the
//! first one named. The browser's Analysis view draws the same chart (web/).
//! Plain SVG text, no library: a few dozen elements.

use std::fmt::Write as _;

use nimbot_games::analysis::Analysis;

/// The colours of the seats winning (seat 0, seat 1), and of a blunder.
const SEAT: [&str; 2] = ["#1f6fd1", "#d9730d"];
const BLUNDER: &str = "#d11f1f";

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
    let (w, h) = (720.0f64, 360.0f64);
    let (left, right, top, bottom) = (56.0, 16.0, 40.0, 44.0);
    let n = a.plies.len().max(1);
    let dmax = a
        .plies
        .iter()
        .filter_map(|p| p.distance)
        .max()
        .unwrap_or(1)
        .max(1);
    let x = |i: usize| left + (w - left - right) * (i as f64 + 0.5) / n as f64;
    let y = |d: u16| top + (h - top - bottom) * (1.0 - f64::from(d) / f64::from(dmax));
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#fff"/>"##);
    let title = format!(
        "N = {}, R = {}, M = {}: {} ({}) v {} ({})",
        a.stones, a.resets, a.init_max, a.names[0], "seat 0", a.names[1], "seat 1"
    );
    let _ = writeln!(
        out,
        r#"<text x="{left}" y="16" font-weight="bold">{}</text>"#,
        escape(&title)
    );
    // Axes: plies along the bottom, distance up the left.
    let (x0, y0, x1) = (left, h - bottom, w - right);
    let _ = writeln!(
        out,
        r##"<path d="M{x0} {top}V{y0}H{x1}" stroke="#444" fill="none"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">ply</text>"#,
        (x0 + x1) / 2.0,
        h - 8.0
    );
    let _ = writeln!(
        out,
        r#"<text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">plies to the end</text>"#,
        (top + y0) / 2.0,
        (top + y0) / 2.0
    );
    for d in [0, dmax / 2, dmax] {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{d}</text>"#,
            left - 6.0,
            y(d) + 4.0
        );
    }
    let step = (n / 10).max(1);
    for i in (0..n).filter(|i| (i + 1) % step == 0 || *i == 0) {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            x(i),
            y0 + 16.0,
            i + 1
        );
    }
    // The line through the known distances.
    let points: Vec<String> = a
        .plies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.distance.map(|d| format!("{:.1},{:.1}", x(i), y(d))))
        .collect();
    if points.len() > 1 {
        let _ = writeln!(
            out,
            r##"<polyline points="{}" fill="none" stroke="#999"/>"##,
            points.join(" ")
        );
    }
    // One point a ply: the colour of the seat winning the position before it.
    let mut first = None;
    for (i, p) in a.plies.iter().enumerate() {
        let Some(d) = p.distance else { continue };
        let mover = p.seat.index();
        let winning = if p.won { mover } else { 1 - mover };
        let (cx, cy) = (x(i), y(d));
        let _ = writeln!(
            out,
            r#"<circle class="ply" data-ply="{}" cx="{cx:.1}" cy="{cy:.1}" r="4" fill="{}"><title>ply {}: seat {mover} moves {}{}, {} in {d}</title></circle>"#,
            i + 1,
            SEAT[winning],
            i + 1,
            p.record.take,
            if p.record.reset { "r" } else { "" },
            if p.won { "win" } else { "lose" },
        );
        if p.blunder {
            first.get_or_insert((i, mover, cx, cy));
            let _ = writeln!(
                out,
                r#"<circle class="blunder" data-ply="{}" cx="{cx:.1}" cy="{cy:.1}" r="8" fill="none" stroke="{BLUNDER}" stroke-width="2"/>"#,
                i + 1
            );
        }
    }
    if let Some((i, seat, cx, cy)) = first {
        let label = format!(
            "first blunder: ply {} by seat {seat} ({})",
            i + 1,
            a.names[seat]
        );
        let anchor = if cx > w / 2.0 { "end" } else { "start" };
        let _ = writeln!(
            out,
            r#"<text class="first-blunder" x="{cx:.1}" y="{:.1}" fill="{BLUNDER}" text-anchor="{anchor}">{}</text>"#,
            (cy - 12.0).max(top),
            escape(&label)
        );
    }
    // The key.
    for (seat, colour) in SEAT.iter().enumerate() {
        let kx = w - right - 250.0 + 130.0 * seat as f64;
        let _ = writeln!(
            out,
            r#"<circle cx="{kx}" cy="30" r="4" fill="{colour}"/><text x="{}" y="34">seat {seat} winning</text>"#,
            kx + 8.0
        );
    }
    out.push_str("</svg>\n");
    out
}
