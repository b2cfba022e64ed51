//! The wire's limits: how long a message and a name may be, how much room a reason
//! text takes, and the clock a game is played on unless the server says otherwise.

/// The largest server message a peer should buffer (a state message is about 300
/// bytes; names are what can make it longer).
pub const MAX_MESSAGE: usize = 4096;
/// The longest player name, in bytes: what the client sends and the referee keeps.
pub const MAX_NAME: usize = 64;
/// Each player's thinking time in a game, in seconds, unless the server says
/// otherwise (docs/rules.md's T): the referee's default and what a client
/// assumes when the welcome has no `game_time`.
pub const DEFAULT_CLOCK: u32 = 120;
/// Room for a reason text (`Player NAME` and the longest ending).
pub const MAX_REASON: usize = MAX_NAME + 40;
