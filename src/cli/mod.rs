//! The command line: `clap` subcommands and their dispatch. `gtp` is the default.

mod bench;
mod gtp_options;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// hane: a Monte-Carlo tree search Go engine that speaks GTP.
///
/// Without a subcommand hane runs the GTP engine on stdin/stdout (`hane gtp`), taking the
/// engine options below.
#[derive(Parser, Debug)]
#[command(name = "hane", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    gtp: gtp_options::GtpArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak GTP version 2 on stdin/stdout (the default).
    Gtp(gtp_options::GtpArgs),
    /// Measure playout (and search) speed; prints one `key=value` line per case.
    Bench(bench::BenchArgs),
}

/// Parses the command line and runs the chosen subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Gtp(args)) => gtp_options::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        None => gtp_options::run(&cli.gtp),
    }
}
