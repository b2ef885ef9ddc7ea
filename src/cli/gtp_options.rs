//! `hane gtp` (the default subcommand): the options a bot operator sets, turned into
//! [`EngineOptions`], and the server's start.

use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::board::Rules;
use crate::engine::{EngineOptions, LogLevel, log, serve_stdio, set_log_level};
use crate::search::SearchConfig;

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
    #[arg(long, value_name = "SECONDS")]
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
    /// compensation), chinese, japanese (played as chinese), tromp-taylor, aga, new-zealand.
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
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
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
        if let Some(t) = self.time
            && !(t.is_finite() && t > 0.0)
        {
            return Err("--time must be a positive number of seconds".into());
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
        Ok(EngineOptions {
            search: SearchConfig {
                threads: self.threads.unwrap_or(defaults.threads),
                seed: self.seed.unwrap_or(defaults.seed),
                max_memory: self.max_memory,
                resign_threshold: self.resign_threshold,
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
}
