//! `analyze --plot FILE.png`: a game's value history on a raster. The chart's
//! data (where every point, ring and label goes, and its colours) is
//! `nimbot_analysis::chart`'s, the one chart of a game, which also writes the SVG of
//! `--plot FILE.svg` and the page's; this file draws it on the host's canvas
//! (`nimbot_picture`), its text in the canvas's small font (the distance axis's
//! name written across, above the plot).

use nimbot_analysis::chart::{Chart, AXES, BLUNDER, POINT, RING, TRACE};
use nimbot_picture::{Canvas, LINE};

/// The chart on a canvas of its size.
pub fn png(chart: &Chart) -> Canvas {
    let mut c = Canvas::new(chart.width as u32, chart.height as u32);
    let at = |x: f64, y: f64| (x.round() as i64, y.round() as i64);
    let px = |v: f64| v.max(0.0).round() as u32;
    let [left, top, right, bottom] = chart.area;
    c.text(px(left), 6, &chart.title);
    c.text(4, px(top) - LINE - 4, "plies to the end");
    c.line(at(left, top), at(left, bottom), AXES);
    c.line(at(left, bottom), at(right, bottom), AXES);
    let ply = "ply";
    c.text(
        px((left + right) / 2.0) - Canvas::text_width(ply) / 2,
        px(chart.height) - LINE - 2,
        ply,
    );
    for &(d, y) in &chart.distance_ticks {
        let s = d.to_string();
        c.text(px(left - 6.0) - Canvas::text_width(&s), px(y - 5.0), &s);
    }
    for &(i, x) in &chart.ply_ticks {
        let s = i.to_string();
        c.text(px(x) - Canvas::text_width(&s) / 2, px(bottom + 6.0), &s);
    }
    if let Some(label) = &chart.first_blunder {
        let point = chart.points.iter().find(|p| p.ringed);
        let (cx, cy) = point.map_or((label.x, label.y), |p| (p.x, p.y));
        let width = f64::from(Canvas::text_width(&label.text));
        let x = if label.end_anchored { cx - width } else { cx };
        // Above its point, or below it when that is too near the top.
        let y = if cy - 22.0 < top {
            cy + 12.0
        } else {
            cy - 22.0
        };
        c.text_in(px(x), px(y), &label.text, BLUNDER);
    }
    for pair in chart.points.windows(2) {
        c.line(at(pair[0].x, pair[0].y), at(pair[1].x, pair[1].y), TRACE);
    }
    for p in &chart.points {
        c.disc(at(p.x, p.y), POINT as i64, p.colour);
        if p.ringed {
            c.annulus(at(p.x, p.y), RING as i64 - 1, RING as i64, BLUNDER);
        }
    }
    for (colour, label) in &chart.key {
        c.disc(at(label.x - 8.0, label.y - 4.0), POINT as i64, *colour);
        c.text(px(label.x), px(label.y - 9.0), &label.text);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimbot_analysis::analysis::Analysis;
    use nimbot_solve::TableOrSolverEngine;

    /// N = 8, R = 0: taking 1 wins; the first player takes 2 and throws it away.
    const LOG: &str = "\
Player a took 2 stones.\nCurrent max: 3\nStones left: 6\n---\n\
Player b took 3 stones.\nCurrent max: 3\nStones left: 3\n---\n\
Player a took 1 stones.\nCurrent max: 4\nStones left: 2\n---\n\
Player b took 2 stones.\nCurrent max: 4\nStones left: 0\n---\n\
Game over\nPlayer b won the game! Congrats!\n";

    #[test]
    fn the_png_has_a_point_a_ply_in_its_winner_s_colour_and_rings_the_blunders() {
        let mut engine = TableOrSolverEngine::embedded();
        let a = Analysis::of_text(&mut engine, LOG, 0, 3).expect("the log replays");
        let chart = Chart::of(&a);
        let c = png(&chart);
        assert_eq!(c.size(), (chart.width as u32, chart.height as u32));
        assert_eq!(chart.points.len(), a.plies.len());
        let mut rings = 0;
        for p in &chart.points {
            let (x, y) = (p.x.round() as u32, p.y.round() as u32);
            assert_eq!(c.get(x, y), Some(p.colour), "ply {}", p.ply);
            let ring = c.get(x + RING as u32, y);
            assert_eq!(ring == Some(BLUNDER), p.ringed, "ply {}", p.ply);
            rings += usize::from(p.ringed);
        }
        assert!(rings > 0, "the game has a blunder");
        let mut bytes = Vec::new();
        c.write_png(&mut bytes).expect("written");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    }
}
