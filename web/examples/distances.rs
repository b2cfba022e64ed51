//! Writes the site's `distances.bin`: the distances of the embedded table's box
//! (every game with N <= 999, R <= 4, M = 3), encoded by
//! [`nimbot_web::encode_distances`] and gzipped, so that the page loads them
//! instead of solving them on every visit. Run by `tools/web.sh build`; the test
//! `committed_distances_are_the_solvers` checks the committed file.
//!
//!     cargo run --release -p nimbot-web --example distances -- web/site/distances.bin

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: distances OUT   (writes the site's gzipped distances file)");
        return ExitCode::from(2);
    };
    let bytes = match nimbot_web::table_box_distances() {
        Ok(d) => nimbot_web::encode_distances(&d),
        Err(e) => {
            eprintln!("distances: cannot solve the table's box: {e:?}");
            return ExitCode::FAILURE;
        }
    };
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let written = gz.write_all(&bytes).and_then(|()| gz.finish());
    match written.and_then(|z| std::fs::write(&path, z).map(|()| path.clone())) {
        Ok(p) => {
            println!(
                "{p}: distances of the table's box, {} bytes before gzip",
                bytes.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("distances: cannot write {path}: {e}");
            ExitCode::FAILURE
        }
    }
}
