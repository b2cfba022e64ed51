//! Studying games of Expanding Nim with resets, as a library: what `nimbot
//! moves`, `line` and `analyze` print and the browser's page shows (its
//! WebAssembly, `nimbot-web`, calls this crate as the command line does).
//!
//! - [`explore`]: a position's moves with their values, best first, and its
//!   best-play line;
//! - [`notation`]: moves as written (`3 2 2r`) and the game they lead to;
//! - [`record`]: game records (JSON lines) written and read; [`game_log`]: the
//!   platform server's game log written and read;
//! - [`analysis`]: a finished game replayed and judged, move by move;
//! - [`chart`]: its value history as a chart (the one chart of a game: data,
//!   and SVG);
//! - [`vocab`]: the JSON words every answer shares;
//! - [`fibonacci`] and [`supernim`]: the related games' positions, their moves
//!   with values, and their notation.
//!
//! Every answer comes from an [`Engine`](nimbot::Engine) the caller chooses
//! (the command line's table and solver, the page's), so this crate holds no
//! table and starts no thread; it compiles for `wasm32-unknown-unknown`.

pub mod analysis;
pub mod chart;
pub mod explore;
pub mod fibonacci;
pub mod game_log;
pub mod notation;
pub mod record;
pub mod supernim;
pub mod vocab;
