//! `hane gtp` (the default subcommand): the settings a bot operator gives as flags (derived
//! from the one settings definition), and the server's start.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::settings_args::{EngineScopes, SettingsArgs};
use crate::engine::{LogLevel, log, report, serve_stdio, set_log_file, set_log_level};
use crate::pattern::PatternTables;
use crate::play::load_patterns;
use crate::settings::{PlayoutKind, PriorsKind, Settings};

/// Log verbosity (stdout carries GTP only; the log goes to stderr or `--log-file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogLevelArg {
    Off,
    Error,
    Warn,
    Info,
    Debug,
}

/// Options of the GTP engine: every engine setting, the log level and the log file.
#[derive(Args, Debug, Clone)]
pub struct GtpArgs {
    #[command(flatten)]
    pub settings: SettingsArgs<EngineScopes>,
    /// Log verbosity (info: the settings in use and a line per generated move).
    #[arg(long, value_enum, default_value = "warn")]
    pub log_level: LogLevelArg,
    /// Write the log to this file (appended to) instead of stderr.
    #[arg(long, value_name = "PATH")]
    pub log_file: Option<PathBuf>,
}

/// The settings of `args` with the pattern table they name.
pub fn engine_setup(settings: &Settings) -> Result<PatternTables, String> {
    let patterns = load_patterns(settings).map_err(|e| format!("--patterns: {e}"))?;
    crate::play::load_book(settings).map_err(|e| format!("--book: {e}"))?;
    if settings.game.patterns.is_some()
        && settings.search.playout.playout != PlayoutKind::Pattern
        && settings.search.priors != PriorsKind::Pattern
    {
        log(
            LogLevel::Warn,
            format_args!("--patterns has no effect with --playout light and --priors heuristic"),
        );
    }
    Ok(patterns)
}

/// Runs the GTP server on stdin/stdout.
pub fn run(args: &GtpArgs) -> ExitCode {
    set_log_level(match args.log_level {
        LogLevelArg::Off => LogLevel::Off,
        LogLevelArg::Error => LogLevel::Error,
        LogLevelArg::Warn => LogLevel::Warn,
        LogLevelArg::Info => LogLevel::Info,
        LogLevelArg::Debug => LogLevel::Debug,
    });
    if let Some(path) = &args.log_file
        && let Err(e) = set_log_file(path)
    {
        report(format_args!(
            "cannot open the log file {}: {e}",
            path.display()
        ));
        return ExitCode::from(2);
    }
    let settings = args.settings.settings.clone();
    let patterns = match engine_setup(&settings) {
        Ok(patterns) => patterns,
        Err(message) => {
            report(format_args!("{message}"));
            return ExitCode::from(2);
        }
    };
    match serve_stdio(settings, patterns) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            report(format_args!("{e}"));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        gtp: GtpArgs,
    }

    fn options(args: &[&str]) -> Result<(Settings, PatternTables), String> {
        use clap::Parser as _;
        let cli = Cli::try_parse_from(std::iter::once("hane").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        let settings = cli.gtp.settings.settings;
        engine_setup(&settings).map(|p| (settings, p))
    }

    #[test]
    fn playout_and_priors_options() {
        let (defaults, _) = options(&[]).unwrap();
        assert_eq!(defaults.search.playout.playout, PlayoutKind::Pattern);
        assert_eq!(defaults.search.priors, PriorsKind::Pattern);
        let (chosen, _) = options(&["--playout", "light", "--priors", "heuristic"]).unwrap();
        assert_eq!(chosen.search.playout.playout, PlayoutKind::Light);
        assert_eq!(chosen.search.priors, PriorsKind::Heuristic);
        assert!(options(&["--playout", "heavy"]).is_err());
        assert!(options(&["--priors", "oracle"]).is_err());
        assert!(defaults.search.playout.tactics && !defaults.search.playout.replies);
        let (chosen, _) = options(&["--tactics", "off", "--replies", "ON"]).unwrap();
        assert!(!chosen.search.playout.tactics && chosen.search.playout.replies);
        assert!(defaults.search.playout.ladders);
        assert!(
            !options(&["--ladders", "off"])
                .unwrap()
                .0
                .search
                .playout
                .ladders
        );
        assert!(options(&["--ladders", "maybe"]).is_err());
        assert!(options(&["--tactics", "sometimes"]).is_err());
        assert!(!defaults.search.playout.captures);
        assert!(
            options(&["--captures", "on"])
                .unwrap()
                .0
                .search
                .playout
                .captures
        );
        assert!(options(&["--captures", "always"]).is_err());
        assert_eq!(defaults.search.playout.fill_board, 0);
        assert_eq!(
            options(&["--fill-board", "3"])
                .unwrap()
                .0
                .search
                .playout
                .fill_board,
            3
        );
        for bad in ["-1", "65", "some"] {
            assert!(options(&["--fill-board", bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn patterns_file_is_loaded_or_refused() {
        let dir = std::env::temp_dir().join(format!("hane-gtp-options-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, pattern::PatternTable::uniform().to_text()).unwrap();
        let (_, loaded) = options(&["--patterns", good.to_str().unwrap()]).unwrap();
        assert_eq!(
            loaded,
            pattern::PatternTables::from(pattern::PatternTable::uniform())
        );
        let broken = dir.join("broken.txt");
        std::fs::write(&broken, "this is not a pattern table\n").unwrap();
        let err = options(&["--patterns", broken.to_str().unwrap()]).unwrap_err();
        assert!(err.contains("patterns"), "{err}");
        let missing = dir.join("missing.txt");
        assert!(options(&["--patterns", missing.to_str().unwrap()]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
