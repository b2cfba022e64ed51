//! `nimbot-table plot`: the won/lost map of a table as a PNG, so a person can see its
//! structure. One panel per (own resets a, opponent resets b) for one value of the
//! pending-reset flag; in a panel the pile grows to the right and the cap downward.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::decoded::Decoded;
use crate::{open, progress, read};

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// The table file.
    pub file: PathBuf,
    /// The PNG to write.
    #[arg(long, short = 'o', value_name = "PNG")]
    pub output: PathBuf,
    /// Plot the layers where the opponent just reset (f = 1) instead of f = 0.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub pending: u8,
    /// Widest panel in pixels; more piles than this share a pixel.
    #[arg(long, default_value_t = 500)]
    pub panel_width: u32,
    /// Tallest panel in pixels; more caps than this share a pixel.
    #[arg(long, default_value_t = 160)]
    pub panel_height: u32,
}

const WON: [u8; 3] = [250, 236, 196];
const LOST: [u8; 3] = [28, 58, 118];
const OPEN_CAP: [u8; 3] = [214, 214, 214];
const OUTSIDE: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [20, 20, 20];
const MARGIN: u32 = 12;
/// Text: a 3x5 font drawn at this scale.
const SCALE: u32 = 2;
const LINE: u32 = 7 * SCALE;

/// An RGB canvas.
struct Canvas {
    w: u32,
    h: u32,
    px: Vec<u8>,
}

impl Canvas {
    fn new(w: u32, h: u32) -> Self {
        Canvas {
            w,
            h,
            px: vec![255; (w * h * 3) as usize],
        }
    }

    fn set(&mut self, x: u32, y: u32, rgb: [u8; 3]) {
        if x < self.w && y < self.h {
            let at = ((y * self.w + x) * 3) as usize;
            self.px[at..at + 3].copy_from_slice(&rgb);
        }
    }

    fn text(&mut self, x: u32, y: u32, s: &str) {
        for (i, ch) in s.chars().enumerate() {
            let g = glyph(ch);
            for row in 0..5u32 {
                for col in 0..3u32 {
                    if g >> (14 - (row * 3 + col)) & 1 == 1 {
                        for dy in 0..SCALE {
                            for dx in 0..SCALE {
                                let gx = x + i as u32 * 4 * SCALE + col * SCALE + dx;
                                self.set(gx, y + row * SCALE + dy, INK);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A 3x5 glyph, rows top to bottom, 3 bits each (unknown characters are blank).
fn glyph(ch: char) -> u16 {
    let rows: [u8; 5] = match ch.to_ascii_lowercase() {
        '0' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [7, 1, 7, 4, 7],
        '3' => [7, 1, 7, 1, 7],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 7, 1, 7],
        '6' => [7, 4, 7, 5, 7],
        '7' => [7, 1, 1, 1, 1],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 7],
        'a' => [2, 5, 7, 5, 5],
        'b' => [6, 5, 6, 5, 6],
        'c' => [3, 4, 4, 4, 3],
        'd' => [6, 5, 5, 5, 6],
        'e' => [7, 4, 6, 4, 7],
        'f' => [7, 4, 6, 4, 4],
        'g' => [3, 4, 5, 5, 3],
        'h' => [5, 5, 7, 5, 5],
        'i' => [7, 2, 2, 2, 7],
        'j' => [1, 1, 1, 5, 2],
        'k' => [5, 5, 6, 5, 5],
        'l' => [4, 4, 4, 4, 7],
        'm' => [5, 7, 7, 5, 5],
        'n' => [6, 5, 5, 5, 5],
        'o' => [2, 5, 5, 5, 2],
        'p' => [6, 5, 6, 4, 4],
        'q' => [2, 5, 5, 6, 3],
        'r' => [6, 5, 6, 5, 5],
        's' => [3, 4, 2, 1, 6],
        't' => [7, 2, 2, 2, 2],
        'u' => [5, 5, 5, 5, 7],
        'v' => [5, 5, 5, 5, 2],
        'w' => [5, 5, 7, 7, 5],
        'x' => [5, 5, 2, 5, 5],
        'y' => [5, 5, 2, 2, 2],
        'z' => [7, 1, 2, 4, 7],
        '=' => [0, 7, 0, 7, 0],
        '<' => [1, 2, 4, 2, 1],
        ',' => [0, 0, 0, 2, 4],
        '.' => [0, 0, 0, 0, 2],
        ':' => [0, 2, 0, 2, 0],
        '-' => [0, 0, 7, 0, 0],
        '(' => [1, 2, 2, 2, 1],
        ')' => [4, 2, 2, 2, 4],
        _ => [0; 5],
    };
    rows.iter().fold(0u16, |acc, &r| acc << 3 | u16::from(r))
}

pub fn run(args: &PlotArgs) -> Result<ExitCode, String> {
    if args.panel_width == 0 || args.panel_height == 0 {
        return Err("panel sizes must be at least 1 pixel".into());
    }
    let bytes = read(&args.file)?;
    let table = open(&args.file, &bytes)?;
    let p = table.params();
    let caps = u64::from(table.top_cap() + 1).saturating_sub(u64::from(p.init_max()));
    let pb = progress::bar(caps, "decoding", false);
    let d = Decoded::new(&table, |done| pb.set_position(done))?;
    pb.finish_and_clear();

    let n = p.stones();
    let pile_bin = n.div_ceil(args.panel_width).max(1);
    let pw = n.div_ceil(pile_bin);
    let cap_count = caps.max(1) as u32;
    let (cap_bin, cap_px) = if cap_count <= args.panel_height {
        (1, (args.panel_height / cap_count).max(1))
    } else {
        (cap_count.div_ceil(args.panel_height), 1)
    };
    let ph = cap_count.div_ceil(cap_bin) * cap_px;
    let side = u32::from(p.resets()) + 1;
    let header = 3 * LINE + MARGIN;
    let cell_w = pw + MARGIN;
    let cell_h = ph + LINE + MARGIN;
    let width = MARGIN + side * cell_w;
    let height = header + side * cell_h + MARGIN;
    if u64::from(width) * u64::from(height) > 100_000_000 {
        return Err(format!(
            "a {width}x{height} image is too large: lower --panel-width/--panel-height"
        ));
    }
    let mut img = Canvas::new(width, height);
    let f = args.pending == 1;
    img.text(
        MARGIN,
        MARGIN,
        &format!(
            "n<={} r={} m={} f={} ({})",
            n,
            p.resets(),
            p.init_max(),
            args.pending,
            if f {
                "opponent just reset"
            } else {
                "no pending reset"
            }
        ),
    );
    img.text(
        MARGIN,
        MARGIN + LINE,
        "panel row a = own resets, column b = opponent resets",
    );
    img.text(
        MARGIN,
        MARGIN + 2 * LINE,
        &format!(
            "stones across ({pile_bin} per px), cap {}..{} down; dark lost, light won, grey cap open",
            p.init_max(),
            table.top_cap()
        ),
    );
    let caps_list: Vec<(u32, u32)> = d.layers().collect();
    for a in 0..=p.resets() {
        for b in 0..=p.resets() {
            let x0 = MARGIN + u32::from(b) * cell_w;
            let y0 = header + u32::from(a) * cell_h;
            img.text(x0, y0, &format!("a={a} b={b}"));
            let y0 = y0 + LINE;
            for (row, chunk) in caps_list.chunks(cap_bin as usize).enumerate() {
                for col in 0..pw {
                    let s_lo = col * pile_bin + 1;
                    let s_hi = (s_lo + pile_bin - 1).min(n);
                    let (mut won, mut lost, mut open) = (0u32, 0u32, 0u32);
                    for &(c, hi) in chunk {
                        for s in s_lo..=s_hi {
                            if s <= c {
                                open += 1;
                            } else if s <= hi {
                                match d.value(s, c, a, b, f) {
                                    Some(true) => won += 1,
                                    Some(false) => lost += 1,
                                    None => {}
                                }
                            }
                        }
                    }
                    let rgb = if won + lost > 0 {
                        let t = f64::from(lost) / f64::from(won + lost);
                        let mix = |i: usize| {
                            (f64::from(WON[i]) * (1.0 - t) + f64::from(LOST[i]) * t).round() as u8
                        };
                        [mix(0), mix(1), mix(2)]
                    } else if open > 0 {
                        OPEN_CAP
                    } else {
                        OUTSIDE
                    };
                    for dy in 0..cap_px {
                        img.set(x0 + col, y0 + row as u32 * cap_px + dy, rgb);
                    }
                }
            }
        }
    }
    let file = File::create(&args.output)
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc
        .write_header()
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    writer
        .write_image_data(&img.px)
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    writer
        .finish()
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    eprintln!("wrote {} ({width}x{height})", args.output.display());
    Ok(ExitCode::SUCCESS)
}
