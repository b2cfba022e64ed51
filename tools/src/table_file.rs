//! A table file: read, checked and opened, and the generator's name this tool
//! writes into every table it makes.

use std::path::Path;

use nimbot::Table;

/// Written into every table this tool makes (part of the bytes, so a version bump
/// changes the committed default table: regenerate it).
pub const GENERATOR: &str = concat!("nimbot-table ", env!("CARGO_PKG_VERSION"));

/// Read a table file; the bytes stay owned by the caller, who opens them with
/// [`open`].
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Check and open table bytes read from `path`.
pub fn open<'a>(path: &Path, bytes: &'a [u8]) -> Result<Table<&'a [u8]>, String> {
    // Name the first thing wrong with a file that is no table at all: its first
    // bytes (the checksum the core checks first covers the whole file).
    if !bytes.starts_with(&nimbot::table::format::MAGIC) {
        return Err(format!(
            "{} is not a nimbot table: it does not start with the magic bytes \"NIMT\"",
            path.display()
        ));
    }
    Table::from_bytes(bytes).map_err(|e| format!("{} is not a valid table: {e}", path.display()))
}
