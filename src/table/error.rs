//! What can go wrong with a table: a blob refused when it is opened
//! ([`TableError`], always the data's fault), and a probe that fails
//! ([`ProbeError`]: the caller asked outside the table, or the data is corrupt).

use core::fmt;

use crate::strategy::DecideError;
use crate::text::{match_text, text, Text};

/// Why a blob was refused as a table. Bad data never panics; it lands here.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableError {
    /// Shorter than the smallest possible table.
    Truncated,
    /// The CRC-32 does not match: the bytes were damaged.
    Checksum,
    /// Not a nimbot table.
    BadMagic,
    /// Written by an incompatible format version.
    UnsupportedVersion,
    /// The game parameters are out of range.
    BadParams,
    /// A field is inconsistent with the others (which one, in words).
    Malformed(Text),
}

impl TableError {
    /// A short, static description.
    pub const fn text(&self) -> Text {
        match self {
            TableError::Truncated => text!("table truncated"),
            TableError::Checksum => text!("table checksum mismatch"),
            TableError::BadMagic => text!("not a nimbot table"),
            TableError::UnsupportedVersion => text!("unsupported table format version"),
            TableError::BadParams => text!("table parameters out of range"),
            TableError::Malformed(what) => *what,
        }
    }

    /// The [`text`](Self::text) as a `&str` (not on the AVR, whose text stays in
    /// program memory).
    #[cfg(not(target_arch = "avr"))]
    pub const fn as_str(&self) -> &'static str {
        self.text().as_str()
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.text(), f)
    }
}

impl core::error::Error for TableError {}

/// Why a probe of an opened table gave no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProbeError {
    /// The caller's mistake: the position lies outside the table (more stones for
    /// its cap, more resets, a cap above the top, or another M).
    OutOfRange,
    /// The data's fault: a layer does not decode. The blob passed its checksum, so
    /// this is a bug in the writer or a forged table, never a panic.
    Corrupt,
}

impl ProbeError {
    /// A short, static description.
    pub const fn text(self) -> Text {
        match_text!(self, {
            ProbeError::OutOfRange => "position outside the table",
            ProbeError::Corrupt => "table data damaged",
        })
    }
}

crate::text::error_from_text!(ProbeError);

impl From<ProbeError> for DecideError {
    fn from(e: ProbeError) -> Self {
        match e {
            ProbeError::OutOfRange => DecideError::OutOfRange,
            ProbeError::Corrupt => DecideError::BadTable,
        }
    }
}
