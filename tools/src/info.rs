//! `nimbot-table info`: what a table covers and what it costs.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nimbot::table::format::FORMAT_VERSION;

use crate::decoded::{keys_per_cap, stored_positions};
use crate::numbers::grouped;
use crate::table_file::{open, read};

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The table file.
    pub file: PathBuf,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &InfoArgs) -> Result<ExitCode, String> {
    let bytes = read(&args.file)?;
    let table = open(&args.file, &bytes)?;
    let p = table.params();
    let positions = stored_positions(&table);
    let caps = u64::from(table.top_cap() + 1).saturating_sub(u64::from(p.init_max()));
    let layers = caps * keys_per_cap(p.resets()) as u64;
    let (index, stream) = table.section_sizes();
    let bits = table.size() as f64 * 8.0 / positions.max(1) as f64;
    if args.json {
        println!(
            "{{\"file\":\"{}\",\"format_version\":{FORMAT_VERSION},\"generator\":\"{}\",\"stones\":{},\"resets\":{},\"init_max\":{},\"top_cap\":{},\"positions\":{positions},\"bytes\":{},\"index_bytes\":{index},\"stream_bytes\":{stream},\"layers\":{layers},\"caps\":{caps},\"bits_per_state\":{bits:.4},\"crc32\":\"{:08x}\"}}",
            args.file.display().to_string().replace('\\', "\\\\").replace('"', "\\\""),
            table.generator().replace('\\', "\\\\").replace('"', "\\\""),
            p.stones(),
            p.resets(),
            p.init_max(),
            table.top_cap(),
            table.size(),
            table.checksum(),
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!("file          {}", args.file.display());
    println!(
        "format        NIMT version {FORMAT_VERSION}, written by {}",
        table.generator()
    );
    println!(
        "covers        games with N <= {}, R <= {} resets each, M = {} (caps {}..={})",
        p.stones(),
        p.resets(),
        p.init_max(),
        p.init_max(),
        table.top_cap()
    );
    println!(
        "positions     {} stored (cap below the pile)",
        grouped(positions)
    );
    println!(
        "size          {} bytes: cap index {}, layer stream {}",
        grouped(table.size() as u64),
        grouped(index as u64),
        grouped(stream as u64)
    );
    println!(
        "layers        {} ({} caps, each reached through the index)",
        grouped(layers),
        grouped(caps)
    );
    println!("bits/state    {bits:.4}");
    println!("checksum      crc32 {:08x} (verified)", table.checksum());
    Ok(ExitCode::SUCCESS)
}
