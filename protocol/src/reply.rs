//! One reply line of the protocol, kept on the stack: what the grammar writes and
//! a session hands back.

use heapless::Vec;

/// Longest reply line, in bytes, without its line ending.
pub const MAX_REPLY: usize = 120;

/// One reply line, without its line ending: at most [`MAX_REPLY`] bytes of ASCII,
/// kept on the stack. Read it as bytes (it dereferences to `[u8]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply(pub(crate) Vec<u8, MAX_REPLY>);

impl Reply {
    /// The line's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl core::ops::Deref for Reply {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Reply {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}
