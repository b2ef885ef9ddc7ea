//! The command line: `clap` subcommands and their dispatch. `gtp` is the default.

mod bench;
mod patterns_cmd;

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
    /// Fit the move-pattern table on SGF game records.
    TrainPatterns(patterns_cmd::TrainPatternsArgs),
    /// Move-pattern tools (`patterns eval FILES...`).
    Patterns(patterns_cmd::PatternsArgs),
}

/// Parses the command line and runs the chosen subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::TrainPatterns(args)) => patterns_cmd::train(&args),
        Some(Command::Patterns(args)) => patterns_cmd::patterns(&args),
        None => {
            eprintln!("hane: the GTP front end is not built yet; try `hane bench`");
            ExitCode::FAILURE
        }
    }
}
