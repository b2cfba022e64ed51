//! What the read loop measures around each command besides the protocol, and the
//! shipped build's meter, which measures nothing.

use embedded_io::Write;
use nimbot_protocol::Line;

/// What the read loop measures around each command besides the protocol: nothing
/// ([`Unmetered`]), but in the `cost` build (module `cost`).
pub(crate) trait Meter {
    /// Answer `line` if it is one of this build's own diagnostics (true), else
    /// leave it to the session (false).
    fn diagnostic<W: Write>(&mut self, line: &Line<'_>, uart: &mut W) -> bool;
    /// A command line goes to the session now.
    fn begin(&mut self);
    /// The session has handled it (the reply is not sent yet).
    fn end(&mut self);
}

/// The shipped build's meter: measures nothing, so it compiles to nothing.
pub(crate) struct Unmetered;

impl Meter for Unmetered {
    fn diagnostic<W: Write>(&mut self, _: &Line<'_>, _: &mut W) -> bool {
        false
    }
    fn begin(&mut self) {}
    fn end(&mut self) {}
}
