//! `hane analysis`: KataGo's JSON analysis protocol on stdin/stdout (see
//! [`crate::engine::kata_json`]), with every engine setting of `hane gtp` as a flag and the
//! server's own options (jobs, the perspective of the reported values).

use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::gtp_options::{GtpArgs, LogLevelArg, engine_setup};
use crate::engine::kata_json::query::Perspective;
use crate::engine::kata_json::{ServerOptions, serve_stdio};
use crate::engine::{LogLevel, report, set_log_file, set_log_level};

/// Whose point of view winrates, scores and ownership are reported from, when a query's
/// `overrideSettings.reportAnalysisWinratesAs` names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PerspectiveArg {
    /// The player to move at the analysed turn (KataGo's built-in default).
    Sidetomove,
    /// Black's.
    Black,
    /// White's.
    White,
}

/// Options of `hane analysis`: the GTP engine's (every setting, the log) and the server's.
#[derive(Args, Debug, Clone)]
pub struct AnalysisArgs {
    /// Turns analysed at the same time, each by its own searcher on --threads threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// The point of view of the reported values when a query does not name one
    /// (KataGo's reportAnalysisWinratesAs).
    #[arg(long, value_enum, default_value = "sidetomove")]
    pub report_winrates_as: PerspectiveArg,
    #[command(flatten)]
    pub engine: GtpArgs,
}

/// Runs the analysis server.
pub fn run(args: &AnalysisArgs) -> ExitCode {
    set_log_level(match args.engine.log_level {
        LogLevelArg::Off => LogLevel::Off,
        LogLevelArg::Error => LogLevel::Error,
        LogLevelArg::Warn => LogLevel::Warn,
        LogLevelArg::Info => LogLevel::Info,
        LogLevelArg::Debug => LogLevel::Debug,
    });
    if let Some(path) = &args.engine.log_file
        && let Err(e) = set_log_file(path)
    {
        report(format_args!(
            "cannot open the log file {}: {e}",
            path.display()
        ));
        return ExitCode::from(2);
    }
    let settings = args.engine.settings.settings.clone();
    let patterns = match engine_setup(&settings) {
        Ok(patterns) => patterns,
        Err(message) => {
            report(format_args!("{message}"));
            return ExitCode::from(2);
        }
    };
    let options = ServerOptions {
        jobs: usize::from(args.jobs),
        perspective: match args.report_winrates_as {
            PerspectiveArg::Sidetomove => Perspective::SideToMove,
            PerspectiveArg::Black => Perspective::Black,
            PerspectiveArg::White => Perspective::White,
        },
    };
    match serve_stdio(settings, patterns, options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            report(format_args!("{e}"));
            ExitCode::FAILURE
        }
    }
}
