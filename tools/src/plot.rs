//! `nimbot-table plot`: the won/lost map of a table as a PNG, so a person can see its
//! structure. One panel per (own resets a, opponent resets b) for one value of the
//! pending-reset flag; in a panel the pile grows to the right and the cap downward.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nimbot_picture::{Canvas, LINE};

use crate::decoded::Decoded;
use crate::progress;
use crate::table_file::{open, read};

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
const MARGIN: u32 = 12;

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
    img.write_png(BufWriter::new(file))
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    eprintln!("wrote {} ({width}x{height})", args.output.display());
    Ok(ExitCode::SUCCESS)
}
