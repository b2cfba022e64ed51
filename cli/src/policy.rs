//! `--policy` and `--win`, the flags of the commands that play (serial, query,
//! connect, exp-nim), with their values from the core's registries.

use std::process::ExitCode;

use clap::Args;
use nimbot::{Engine, Knowledge, Policy, Win, WinChoice};
use nimbot_engine::exploit::HostEngine;

/// The lost-position policy of the commands that play (serial, query, connect,
/// exp-nim); the others have no `--policy`.
#[derive(Args, Clone, Copy, Debug)]
pub struct PolicyArgs {
    /// How nimbot moves in a lost position (won positions always get a winning
    /// move) [default: exploit; with a board: trap]. `nimbot arena` compares them
    /// (docs/policies.md).
    #[arg(long, value_name = "POLICY", value_parser = policy_parser())]
    pub policy: Option<Policy>,
    /// How nimbot wins a won position: `smallest` takes the smallest winning take;
    /// `fastest` the winning move that ends the game soonest against best play
    /// (from the distances to the end). docs/policies.md compares them.
    #[arg(long, value_name = "HOW", value_parser = win_parser(), default_value = Win::Smallest.as_str())]
    win: Win,
}

impl PolicyArgs {
    /// The policy asked for, by default `exploit` (or `trap` with a board, whose
    /// firmware knows values only), or (after one line on stderr) the usage error's
    /// exit status if the engine does not play it: the host engine plays every
    /// policy, a board the ones the value of positions suffices for
    /// (`Engine::plays`' default, which `BoardEngine` keeps).
    pub fn policy(self, cmd: &str, board: bool) -> Result<Policy, ExitCode> {
        let policy = match self.policy {
            Some(p) => p,
            None if board => Policy::Trap,
            None => Policy::Exploit,
        };
        let plays = if board {
            policy.needs() == Knowledge::Values
        } else {
            HostEngine::new().plays(policy)
        };
        if plays {
            Ok(policy)
        } else {
            let with = if board { " with --board" } else { "" };
            eprintln!(
                "nimbot {cmd}: --policy {} is not played{with} (try {})",
                policy.as_str(),
                value_policies()
            );
            Err(ExitCode::from(2))
        }
    }

    /// The engine of the commands that play on the host (the embedded table
    /// whenever it covers the game, the in-memory solver beyond it, the models for
    /// `exploit`) and the policy, or the usage error's exit status.
    pub fn engine(self, cmd: &str) -> Result<(WinChoice<HostEngine>, Policy), ExitCode> {
        self.policy(cmd, false).map(|p| (self.host(), p))
    }

    /// The host's engine, winning as `--win` says.
    pub fn host(self) -> WinChoice<HostEngine> {
        WinChoice::new(HostEngine::new(), self.win)
    }

    /// With a board, which decides the moves itself: `--win fastest` is refused
    /// (the usage error's exit status, after one line on stderr).
    pub fn board_win(self, cmd: &str) -> Result<(), ExitCode> {
        if self.win == Win::Fastest {
            eprintln!("nimbot {cmd}: --win fastest needs distances, which a board does not have");
            return Err(ExitCode::from(2));
        }
        Ok(())
    }
}

/// `--policy`'s values, their help and their parsing: the core's registry
/// (`Policy::ALL`), so a new policy needs nothing here.
fn policy_parser() -> impl clap::builder::TypedValueParser<Value = Policy> {
    registry_parser(Policy::ALL, Policy::as_str, Policy::summary)
}

/// `--win`'s values, their help and their parsing: the core's registry (`Win::ALL`).
fn win_parser() -> impl clap::builder::TypedValueParser<Value = Win> {
    registry_parser(Win::ALL, Win::as_str, Win::summary)
}

/// A flag's values from a registry of the core: each by its name, with its help.
fn registry_parser<T: Copy + Default + Send + Sync + 'static, const N: usize>(
    all: [T; N],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser;
    let values = all.map(|t| clap::builder::PossibleValue::new(name(t)).help(help(t)));
    clap::builder::PossibleValuesParser::new(values)
        .map(move |n| all.into_iter().find(|&t| name(t) == n).unwrap_or_default())
}

/// The policies that need only the value of positions (what a board plays), as
/// "a or b".
fn value_policies() -> String {
    let names: Vec<&str> = Policy::ALL
        .into_iter()
        .filter(|p| p.needs() == Knowledge::Values)
        .map(Policy::as_str)
        .collect();
    names.join(" or ")
}
