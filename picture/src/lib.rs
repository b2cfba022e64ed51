//! Pictures on a host: an RGB canvas with a 3x5 bitmap font, written as PNG. What
//! `nimbot analyze --plot FILE.png` draws a game's chart on (the chart's data is
//! `nimbot-analysis`'s), and `nimbot-table plot` a table's map. Everything drawn
//! outside the canvas is clipped.

use std::io::Write;

/// A colour.
pub type Rgb = [u8; 3];

/// The text's colour unless said otherwise: near black.
pub const INK: Rgb = [20, 20, 20];
/// Text is the 3x5 font drawn at this scale: a glyph is 6 by 10 pixels.
pub const TEXT_SCALE: u32 = 2;
/// The height of a line of text, its gap included.
pub const LINE: u32 = 7 * TEXT_SCALE;

/// An RGB canvas, white at first.
#[derive(Clone, Debug)]
pub struct Canvas {
    w: u32,
    h: u32,
    px: Vec<u8>,
}

impl Canvas {
    /// A white canvas of `w` by `h` pixels.
    pub fn new(w: u32, h: u32) -> Self {
        Canvas {
            w,
            h,
            px: vec![255; w as usize * h as usize * 3],
        }
    }

    /// Its width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.w, self.h)
    }

    /// Paint pixel (`x`, `y`); outside the canvas, nothing.
    pub fn set(&mut self, x: u32, y: u32, rgb: Rgb) {
        if x < self.w && y < self.h {
            let at = (y as usize * self.w as usize + x as usize) * 3;
            self.px[at..at + 3].copy_from_slice(&rgb);
        }
    }

    /// The colour of pixel (`x`, `y`), if it is on the canvas.
    pub fn get(&self, x: u32, y: u32) -> Option<Rgb> {
        (x < self.w && y < self.h).then(|| {
            let at = (y as usize * self.w as usize + x as usize) * 3;
            [self.px[at], self.px[at + 1], self.px[at + 2]]
        })
    }

    /// Paint at signed coordinates (what the shapes below compute).
    fn put(&mut self, x: i64, y: i64, rgb: Rgb) {
        if let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) {
            self.set(x, y, rgb);
        }
    }

    /// `s` in [`INK`] with its top left corner at (`x`, `y`).
    pub fn text(&mut self, x: u32, y: u32, s: &str) {
        self.text_in(x, y, s, INK);
    }

    /// `s` in `rgb` with its top left corner at (`x`, `y`) (unknown characters
    /// blank).
    pub fn text_in(&mut self, x: u32, y: u32, s: &str, rgb: Rgb) {
        for (i, ch) in s.chars().enumerate() {
            let g = glyph(ch);
            for row in 0..5u32 {
                for col in 0..3u32 {
                    if g >> (14 - (row * 3 + col)) & 1 == 1 {
                        for dy in 0..TEXT_SCALE {
                            for dx in 0..TEXT_SCALE {
                                let gx = x + i as u32 * 4 * TEXT_SCALE + col * TEXT_SCALE + dx;
                                self.set(gx, y + row * TEXT_SCALE + dy, rgb);
                            }
                        }
                    }
                }
            }
        }
    }

    /// How wide `s` is drawn, in pixels.
    pub fn text_width(s: &str) -> u32 {
        (s.chars().count() as u32 * 4).saturating_sub(1) * TEXT_SCALE
    }

    /// A line one pixel wide from (`x0`, `y0`) to (`x1`, `y1`), both ends included.
    pub fn line(&mut self, (x0, y0): (i64, i64), (x1, y1): (i64, i64), rgb: Rgb) {
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1);
        for k in 0..=steps {
            let x = x0 + (x1 - x0) * k / steps;
            let y = y0 + (y1 - y0) * k / steps;
            self.put(x, y, rgb);
        }
    }

    /// A filled disc of radius `r` around (`cx`, `cy`).
    pub fn disc(&mut self, (cx, cy): (i64, i64), r: i64, rgb: Rgb) {
        self.annulus((cx, cy), 0, r, rgb);
    }

    /// A ring: the pixels whose distance from (`cx`, `cy`) is from `inner` to
    /// `outer`, both included (rounded).
    pub fn annulus(&mut self, (cx, cy): (i64, i64), inner: i64, outer: i64, rgb: Rgb) {
        for dy in -outer..=outer {
            for dx in -outer..=outer {
                let d2 = dx * dx + dy * dy;
                let (lo, hi) = (inner * inner - inner, outer * outer + outer);
                if d2 >= lo.max(0) && d2 <= hi {
                    self.put(cx + dx, cy + dy, rgb);
                }
            }
        }
    }

    /// The canvas as an 8-bit RGB PNG.
    pub fn write_png(&self, out: impl Write) -> Result<(), png::EncodingError> {
        let mut enc = png::Encoder::new(out, self.w, self.h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&self.px)?;
        writer.finish()
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
