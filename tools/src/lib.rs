//! Making and reading nimbot's solution tables on a host: what the `nimbot-table`
//! commands share, and what `nimbot bench table` (the crate `nimbot-bench`) times
//! the making of.
//!
//! - [`generate`]: solve a box of games and write its table (the `generate`
//!   command and its flags);
//! - [`parallel`]: the windowed solve on several threads;
//! - [`table_file`]: a table file read, checked and opened, and the generator's
//!   name written into every table;
//! - [`decoded`]: a table decoded into one bit per stored position, and the count
//!   of the positions a table stores;
//! - [`progress`]: progress bars on stderr; [`numbers`]: numbers as the tool
//!   prints them.

pub mod decoded;
pub mod generate;
pub mod numbers;
pub mod parallel;
pub mod progress;
pub mod table_file;
