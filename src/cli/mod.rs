//! The command line: `clap` subcommands and their dispatch. `gtp` is the default.

mod analysis_cmd;
mod bench;
mod book_cmd;
mod gtp_options;
mod match_cmd;
mod opening_cmd;
mod patterns_cmd;
mod review_cmd;
mod settings_args;
mod tune_cmd;

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
    /// Serve KataGo's JSON analysis protocol on stdin/stdout (for KaTrain and other
    /// review tools), taking every engine option of `gtp`.
    #[command(after_long_help = crate::engine::kata_json::PROTOCOL_HELP)]
    Analysis(analysis_cmd::AnalysisArgs),
    /// Measure playout (and search) speed; prints one `key=value` line per case.
    Bench(bench::BenchArgs),
    /// Fit the move-pattern table on SGF game records.
    TrainPatterns(patterns_cmd::TrainPatternsArgs),
    /// Move-pattern tools (`patterns eval FILES...`, `patterns compact TABLE --out FILE`).
    Patterns(patterns_cmd::PatternsArgs),
    /// Play a match between two engines (GTP command lines or hane in-process), or merge
    /// result folders with `hane match report DIR...`.
    Match(match_cmd::MatchArgs),
    /// Play hane against hane with different settings, in-process.
    Selfplay(match_cmd::SelfplayArgs),
    /// Tune the settings marked tunable by SPSA over self-play, ending with a verification
    /// match of the tuned settings against the start.
    Tune(tune_cmd::TuneArgs),
    /// Opening books: `book build19` (professional records), `book build9` (hane's own
    /// searches), `book merge`, `book eval`.
    Book(book_cmd::BookArgs),
    /// The opening statistic of game records: on which line their first moves were played,
    /// beside reference games.
    OpeningLines(opening_cmd::OpeningLinesArgs),
    /// Review a game record: every position analysed, written as an annotated SGF (win
    /// rates for Sabaki's graph, comments, variations, marks), an SVG chart and a summary
    /// of each player's mistakes.
    #[command(after_long_help = crate::review::marks_help())]
    Review(review_cmd::ReviewArgs),
}

/// Parses the command line and runs the chosen subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Gtp(args)) => gtp_options::run(&args),
        Some(Command::Analysis(args)) => analysis_cmd::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Match(args)) => match_cmd::run_match_command(&args),
        Some(Command::Selfplay(args)) => match_cmd::run_selfplay_command(&args),
        Some(Command::Tune(args)) => tune_cmd::run(&args),
        Some(Command::TrainPatterns(args)) => patterns_cmd::train(&args),
        Some(Command::Patterns(args)) => patterns_cmd::patterns(&args),
        Some(Command::Book(args)) => book_cmd::run(&args),
        Some(Command::OpeningLines(args)) => opening_cmd::run(&args),
        Some(Command::Review(args)) => review_cmd::run(&args),
        None => gtp_options::run(&cli.gtp),
    }
}
