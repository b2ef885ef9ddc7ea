//! The command line: `clap` subcommands and their dispatch. `gtp` is the default.

mod bench;
mod match_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// hane: a Monte-Carlo tree search Go engine that speaks GTP.
#[derive(Parser, Debug)]
#[command(name = "hane", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure playout (and search) speed; prints one `key=value` line per case.
    Bench(bench::BenchArgs),
    /// Play a match between two engines (GTP command lines or hane in-process), or merge
    /// result folders with `hane match report DIR...`.
    Match(match_cmd::MatchArgs),
    /// Play hane against hane with different settings, in-process.
    Selfplay(match_cmd::SelfplayArgs),
}

/// Parses the command line and runs the chosen subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Match(args)) => match_cmd::run_match_command(&args),
        Some(Command::Selfplay(args)) => match_cmd::run_selfplay_command(&args),
        None => {
            eprintln!("hane: the GTP front end is not built yet; try `hane bench`");
            ExitCode::FAILURE
        }
    }
}
