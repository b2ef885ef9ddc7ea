//! `hane gtp` (the default subcommand): the options a bot operator sets, turned into
//! [`EngineOptions`], and the server's start.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use crate::board::Rules;
use crate::engine::{EngineOptions, LogLevel, log, serve_stdio, set_log_level};
use crate::pattern;
use crate::search::priors::PriorsKind;
use crate::search::{PlayoutKind, SearchConfig};

/// Log verbosity on stderr (stdout carries GTP only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogLevelArg {
    Off,
    Error,
    Warn,
    Info,
    Debug,
}

/// Options of the GTP engine. With none of `--playouts`, `--time` and a game clock from the
/// controller, hane thinks 5 seconds per move.
#[derive(Args, Debug, Clone)]
pub struct GtpArgs {
    /// Search threads [default: every core].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Playouts per move (a fixed amount of thinking, reproducible with --seed and one
    /// thread). The game clock still applies when the controller sets one.
    #[arg(long, short = 'p', value_name = "N")]
    pub playouts: Option<u64>,
    /// Longest thinking time per move in seconds; the game clock can make it shorter.
    #[arg(long, value_name = "SECONDS", value_parser = crate::search::time::parse_move_seconds)]
    pub time: Option<f64>,
    /// Upper bound on the search tree's memory, e.g. 512M, 2G.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_memory)]
    pub max_memory: usize,
    /// Resign when the winrate stays below this fraction for several moves; 0 never resigns.
    #[arg(long, value_name = "WINRATE", default_value_t = 0.1)]
    pub resign_threshold: f32,
    /// Keep thinking on the opponent's time, until the next command arrives.
    #[arg(long)]
    pub ponder: bool,
    /// Rules for new games: cgos (area scoring, positional superko, no handicap
    /// compensation), chinese, japanese (played as chinese), tromp-taylor, aga, new-zealand,
    /// simple-ko (cgos with only the simple ko rule, as GNU Go plays).
    #[arg(long, value_name = "RULES", default_value = "cgos", value_parser = parse_rules)]
    pub rules: Rules,
    /// Komi for new games (GTP `komi` overrides it).
    #[arg(
        long,
        value_name = "POINTS",
        default_value_t = 7.5,
        allow_negative_numbers = true
    )]
    pub komi: f32,
    /// Seconds kept back from every move's time budget for network lag.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.5)]
    pub lag_margin: f64,
    /// Light playouts used to judge dead stones and the final score.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub judge_playouts: u64,
    /// Stop lz-analyze / kata-analyze streams after this many playouts (mainly for tests;
    /// by default a stream runs until the next input line).
    #[arg(long, value_name = "N")]
    pub analysis_playouts: Option<u64>,
    /// Stderr verbosity.
    #[arg(long, value_enum, default_value = "warn")]
    pub log_level: LogLevelArg,
    /// Seed of the random generators; with one thread and --playouts the moves repeat.
    /// Without it every run draws a fresh seed (logged on stderr at `--log-level info`),
    /// so that matches at a fixed number of playouts do not replay one game.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Playout policy: pattern (the default: answers the last move's tactics, reads ladders
    /// and plays learned 3x3 shapes) or light (uniformly random, no eye filling; about 4x
    /// as many playouts on 9x9 and 3.5x on 19x19, much weaker).
    #[arg(long, value_name = "POLICY", default_value = "pattern", value_parser = parse_playout)]
    pub playout: PlayoutKind,
    /// Priors of new tree moves: pattern (the default: the learned move probabilities on top
    /// of the heuristic) or heuristic (captures, ataris, distance to the last move).
    #[arg(long, value_name = "KIND", default_value = "pattern", value_parser = parse_priors)]
    pub priors: PriorsKind,
    /// Pattern playouts also answer two-liberty fights next to the last move and play the
    /// vital point of small eye spaces: on or off (on by default; off gives about a fifth
    /// more playouts on 9x9, a seventh on 19x19, and a weaker player).
    #[arg(long, value_name = "ON|OFF", default_value = "on", value_parser = parse_switch, action = clap::ArgAction::Set)]
    pub tactics: bool,
    /// Pattern playouts read ladders: they do not save a chain in atari by running into a
    /// ladder, and they continue a ladder the opponent runs into: on or off (on by
    /// default).
    #[arg(long, value_name = "ON|OFF", default_value = "on", value_parser = parse_switch, action = clap::ArgAction::Set)]
    pub ladders: bool,
    /// Pattern playouts also play the last good replies each search thread learns from
    /// its playouts (LGRF-2): on or off (off by default).
    #[arg(long, value_name = "ON|OFF", default_value = "off", value_parser = parse_switch, action = clap::ArgAction::Set)]
    pub replies: bool,
    /// Pattern playouts also capture chains left in atari away from the last move, before
    /// a random move: on or off (off by default).
    #[arg(long, value_name = "ON|OFF", default_value = "off", value_parser = parse_switch, action = clap::ArgAction::Set)]
    pub captures: bool,
    /// Pattern playouts try this many random points for one in an empty 3x3 area before
    /// their random move ("fill the board"), 0 to 64 (default 0: not shown to help).
    #[arg(long, value_name = "TRIES", default_value_t = 0, value_parser = parse_fill_board)]
    pub fill_board: u32,
    /// Pattern table to use instead of the compiled-in one (the `patterns/` text format).
    #[arg(long, value_name = "FILE")]
    pub patterns: Option<PathBuf>,
}

fn parse_playout(text: &str) -> Result<PlayoutKind, String> {
    text.parse()
}

fn parse_priors(text: &str) -> Result<PriorsKind, String> {
    text.parse()
}

fn parse_fill_board(text: &str) -> Result<u32, String> {
    crate::arena::hane_player::fill_board_tries(text).map_err(|e| format!("{text:?}: {e}"))
}

/// An on/off switch, read as the `hane:` players read theirs.
pub(crate) fn parse_switch(text: &str) -> Result<bool, String> {
    crate::arena::hane_player::flag(text).map_err(|e| format!("{text:?}: {e}"))
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse()
}

/// Parses a byte count with an optional K, M or G suffix (powers of 1024).
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let (digits, scale) = match text.char_indices().last() {
        Some((i, c)) if c.eq_ignore_ascii_case(&'k') => (&text[..i], 1usize << 10),
        Some((i, c)) if c.eq_ignore_ascii_case(&'m') => (&text[..i], 1 << 20),
        Some((i, c)) if c.eq_ignore_ascii_case(&'g') => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("bad memory size {text:?} (examples: 512M, 2G)"))
}

impl GtpArgs {
    /// The engine options these arguments describe.
    pub fn engine_options(&self) -> Result<EngineOptions, String> {
        let defaults = SearchConfig::default();
        if self.threads == Some(0) {
            return Err("--threads must be at least 1".into());
        }
        if self.playouts == Some(0) {
            return Err("--playouts must be at least 1".into());
        }
        if !(0.0..1.0).contains(&self.resign_threshold) {
            return Err("--resign-threshold must be in [0, 1)".into());
        }
        if !(self.lag_margin.is_finite() && self.lag_margin >= 0.0) {
            return Err("--lag-margin must be a non-negative number of seconds".into());
        }
        if !self.komi.is_finite() {
            return Err("--komi must be a number".into());
        }
        let mut rules = self.rules;
        rules.komi = self.komi;
        let patterns = match &self.patterns {
            Some(path) => Arc::new(
                pattern::load(path)
                    .map_err(|e| format!("cannot use --patterns {}: {e}", path.display()))?,
            ),
            None => defaults.patterns.clone(),
        };
        if self.patterns.is_some()
            && self.playout != PlayoutKind::Pattern
            && self.priors != PriorsKind::Pattern
        {
            eprintln!(
                "hane: warning: --patterns has no effect with --playout light and --priors heuristic"
            );
        }
        if self.playout == PlayoutKind::Pattern {
            // Build the playouts' 3x3 lookup now rather than on the first move's clock.
            patterns.playout_3x3_gammas();
        }
        let priors = self.priors.build(&patterns);
        Ok(EngineOptions {
            search: SearchConfig {
                threads: self.threads.unwrap_or(defaults.threads),
                seed: self.seed.unwrap_or_else(rand::random),
                max_memory: self.max_memory,
                resign_threshold: self.resign_threshold,
                playout: self.playout,
                playout_tactics: self.tactics,
                playout_ladders: self.ladders,
                last_good_reply: self.replies,
                playout_global_captures: self.captures,
                playout_fill_board: self.fill_board,
                priors,
                patterns,
                ..defaults.clone()
            },
            playouts: self.playouts,
            move_time: self.time,
            ponder: self.ponder,
            rules,
            lag_margin: self.lag_margin,
            judge_playouts: self.judge_playouts.max(1),
            analysis_playouts: self.analysis_playouts,
        })
    }
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
    let options = match args.engine_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("hane: {message}");
            return ExitCode::from(2);
        }
    };
    log(
        LogLevel::Info,
        format_args!("GTP engine ready: {options:?}"),
    );
    match serve_stdio(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hane: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_memory("512M"), Ok(512 << 20));
        assert_eq!(parse_memory("2g"), Ok(2 << 30));
        assert_eq!(parse_memory("1000"), Ok(1000));
        assert!(parse_memory("lots").is_err());
        assert!(parse_memory("0").is_err());
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        gtp: GtpArgs,
    }

    fn options(args: &[&str]) -> Result<EngineOptions, String> {
        use clap::Parser as _;
        let cli = Cli::try_parse_from(std::iter::once("hane").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        cli.gtp.engine_options()
    }

    #[test]
    fn playout_and_priors_options() {
        let defaults = options(&[]).unwrap();
        assert_eq!(defaults.search.playout, PlayoutKind::Pattern);
        assert!(format!("{:?}", defaults.search.priors).starts_with("PatternPriors"));
        let chosen = options(&["--playout", "light", "--priors", "heuristic"]).unwrap();
        assert_eq!(chosen.search.playout, PlayoutKind::Light);
        assert!(format!("{:?}", chosen.search.priors).starts_with("HeuristicPriors"));
        assert!(options(&["--playout", "heavy"]).is_err());
        assert!(options(&["--priors", "oracle"]).is_err());
        assert!(defaults.search.playout_tactics && !defaults.search.last_good_reply);
        let chosen = options(&["--tactics", "off", "--replies", "ON"]).unwrap();
        assert!(!chosen.search.playout_tactics && chosen.search.last_good_reply);
        assert!(defaults.search.playout_ladders);
        assert!(
            !options(&["--ladders", "off"])
                .unwrap()
                .search
                .playout_ladders
        );
        assert!(options(&["--ladders", "maybe"]).is_err());
        assert!(options(&["--tactics", "sometimes"]).is_err());
        assert!(!defaults.search.playout_global_captures);
        assert!(
            options(&["--captures", "on"])
                .unwrap()
                .search
                .playout_global_captures
        );
        assert!(options(&["--captures", "always"]).is_err());
        assert_eq!(defaults.search.playout_fill_board, 0);
        assert_eq!(
            options(&["--fill-board", "3"])
                .unwrap()
                .search
                .playout_fill_board,
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
        let loaded = options(&["--patterns", good.to_str().unwrap()]).unwrap();
        assert_eq!(*loaded.search.patterns, pattern::PatternTable::uniform());
        let broken = dir.join("broken.txt");
        std::fs::write(&broken, "this is not a pattern table\n").unwrap();
        let err = options(&["--patterns", broken.to_str().unwrap()]).unwrap_err();
        assert!(err.contains("--patterns"), "{err}");
        let missing = dir.join("missing.txt");
        assert!(options(&["--patterns", missing.to_str().unwrap()]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
