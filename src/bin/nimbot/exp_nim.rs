use clap::Args;
use std::process::ExitCode;
#[derive(Args, Debug)]
pub struct ExpNimArgs {}
pub fn run(_: &ExpNimArgs) -> ExitCode {
    ExitCode::from(2)
}
