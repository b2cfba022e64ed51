use clap::Args;
use std::process::ExitCode;
#[derive(Args, Debug)]
pub struct MatchArgs {}
pub fn run(_: &MatchArgs) -> ExitCode {
    ExitCode::from(2)
}
