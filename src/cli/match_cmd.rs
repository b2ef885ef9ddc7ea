//! `hane match` (two engines, GTP subprocesses or hane in-process), `hane match report`
//! (merge result folders) and `hane selfplay` (hane against hane with other settings).
//! Reports go to stdout; progress and per-game lines to stderr.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::arena::results::MatchSettings;
use crate::arena::stats::Sprt;
use crate::arena::{
    Engine1Colour, EngineSpec, MatchPlan, MatchSummary, chart, check_out_dir, load_openings,
    merge_folders, parse_shard, results, run_match, stats, time_control,
};
use crate::board::{GameState, Geometry, Rules};
use crate::search::SearchControl;

/// The exit status of an interrupted match (128 + SIGINT, as a shell reports it).
pub(super) const INTERRUPTED: u8 = 130;

/// The exit status of a match stopped because an engine kept losing games by its faults.
pub(super) const STOPPED_BY_FAULTS: u8 = 3;

/// What a command leaves: the report for stdout, and for an interrupted match (or one
/// stopped for an engine's faults) the word on what happened, for stderr.
struct Finished {
    report: String,
    interrupted: Option<String>,
    stopped_by_faults: Option<String>,
}

/// The referee's limits, shared by `match`, `selfplay` and `tune`.
#[derive(Args, Debug, Clone)]
pub(super) struct RefereeArgs {
    /// A fixed limit per move in seconds, instead of a clock.
    #[arg(long, value_name = "SECONDS")]
    pub move_time: Option<f64>,
    /// Without a time control: a move that takes longer than this counts as a hang.
    #[arg(long, default_value_t = 300.0, value_name = "SECONDS")]
    pub max_move_time: f64,
    /// Grace the referee allows beyond the clock before a move is late.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    pub margin: f64,
    /// Time allowed for any command other than genmove.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    command_timeout: f64,
    /// Moves after which a game is stopped and counted (default: 3 x size x size).
    #[arg(long)]
    move_cap: Option<usize>,
}

impl RefereeArgs {
    /// Checks the margin and the command timeout.
    pub fn check(&self) -> Result<(), String> {
        crate::arena::check_seconds(self.margin, "--margin")?;
        let max = crate::arena::MAX_SECONDS;
        if !(self.command_timeout > 0.0 && self.command_timeout <= max) {
            return Err(format!("--command-timeout must be positive, at most {max}"));
        }
        Ok(())
    }

    /// The time allowed for commands other than genmove (after [`RefereeArgs::check`]).
    pub fn command_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.command_timeout)
    }

    /// The move cap on a board of `size`.
    pub fn move_cap(&self, size: usize) -> usize {
        self.move_cap.unwrap_or(3 * size * size).max(1)
    }
}

/// The board of the games, shared by `match`, `selfplay` and `tune`.
#[derive(Args, Debug, Clone)]
pub(super) struct BoardArgs {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f32,
    /// Rules: cgos (default: positional superko, no suicide, no handicap compensation),
    /// simple-ko (cgos with simple ko only: what GNU Go plays; under superko it can lose games
    /// by repeating a position),
    /// chinese, tromp-taylor, aga, new-zealand.
    #[arg(long, default_value = "cgos")]
    pub rules: String,
}

impl BoardArgs {
    /// Checks the size and the komi; the rules.
    pub(super) fn check(&self) -> Result<Rules, String> {
        if Geometry::new(self.size).is_none() {
            return Err(format!("unsupported board size {}", self.size));
        }
        if !self.komi.is_finite() {
            return Err("--komi must be a number".to_string());
        }
        self.rules.parse()
    }
}

/// Options shared by `match` and `selfplay`.
#[derive(Args, Debug, Clone)]
pub struct GameOptions {
    /// Result folder (SGF files, results.jsonl, report); rerun with the same folder to resume.
    #[arg(short, long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Number of games in the whole match.
    #[arg(short = 'n', long, default_value_t = 10)]
    games: usize,
    #[command(flatten)]
    board: BoardArgs,
    /// Fixed handicap stones for black (0 for none).
    #[arg(long, default_value_t = 0)]
    handicap: usize,
    /// Engine 1's colour: alternate (black in games 1, 3, ...), black or white (with
    /// --handicap, white gives the stones).
    #[arg(long, value_name = "COLOUR", default_value = "alternate")]
    engine1_colour: Engine1Colour,
    /// SGF files or folders of openings; each opening is played twice with colours swapped.
    #[arg(long, value_name = "SGF", num_args = 1..)]
    openings: Vec<PathBuf>,
    /// Play only the first N moves of each opening.
    #[arg(long, value_name = "N")]
    opening_moves: Option<usize>,
    /// Main time per player in seconds (a clock; sent with time_settings / time_left).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Canadian byo-yomi period in seconds, after the main time.
    #[arg(long, default_value_t = 0.0, value_name = "SECONDS")]
    byo_yomi: f64,
    /// Moves to play in each byo-yomi period.
    #[arg(long, default_value_t = 1)]
    byo_yomi_stones: u32,
    /// Fischer increment in seconds, added to a player's clock after each of its moves
    /// (with --time, instead of byo-yomi).
    #[arg(long, default_value_t = 0.0, value_name = "SECONDS")]
    increment: f64,
    #[command(flatten)]
    referee: RefereeArgs,
    /// Match seed: fixes every game's seed (same seed, same game list).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(short, long, default_value_t = 1)]
    jobs: usize,
    /// Play only shard K of N of the game list: pairs K, K+N, K+2N, ... of its pairs of
    /// games (a game and the same game with colours swapped).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Stop when a sequential probability ratio test decides: elo0,elo1,alpha,beta.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    sprt: Option<String>,
    /// Playouts used to settle dead stones when the engines disagree.
    #[arg(long, default_value_t = 1000)]
    dead_playouts: u64,
    /// No per-game lines on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// `hane match`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    action: Option<MatchAction>,
    /// First engine: a GTP command line, or `hane[:key=value,...]` for hane in-process
    /// (see the long help for the keys).
    #[arg(long, value_name = "COMMAND", long_help = engine_help())]
    engine1: Option<String>,
    /// Second engine, like --engine1.
    #[arg(long, value_name = "COMMAND")]
    engine2: Option<String>,
    /// Name of the first engine in records (default: its GTP name and version).
    #[arg(long)]
    name1: Option<String>,
    /// Name of the second engine.
    #[arg(long)]
    name2: Option<String>,
    #[command(flatten)]
    options: GameOptions,
}

#[derive(Subcommand, Debug)]
enum MatchAction {
    /// Merge result folders (shards of one match) into one report on stdout.
    Report(ReportArgs),
}

#[derive(Args, Debug)]
struct ReportArgs {
    /// Result folders.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Evaluate an SPRT on the merged results: elo0,elo1,alpha,beta.
    #[arg(long)]
    sprt: Option<String>,
    /// Also write the SVG chart of the running score here.
    #[arg(long, value_name = "FILE")]
    chart: Option<PathBuf>,
}

/// The keys of `hane:` player specs, from the settings definition.
fn player_keys() -> String {
    crate::settings::SETTINGS
        .iter()
        .filter(|s| crate::arena::hane_player::PLAYER_SCOPES.contains(&s.meta.scope))
        .map(|s| {
            format!(
                "  {}={} ({}; default {})",
                s.meta.key,
                s.shape,
                s.summary(),
                s.default_text()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn player_settings_help() -> String {
    format!(
        "Settings of the first hane, `key=value,...` (the names of `hane gtp`'s flags):\n{}",
        player_keys()
    )
}

fn engine_help() -> String {
    format!(
        "First engine: a GTP command line, or `hane[:key=value,...]` for hane in-process, \
         with these keys (the names of `hane gtp`'s flags):\n{}",
        player_keys()
    )
}

/// `hane selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Settings of the first hane, `key=value,...` (see the long help for the keys).
    #[arg(long, default_value = "", value_name = "SETTINGS", long_help = player_settings_help())]
    player1: String,
    /// Settings of the second hane, like --player1.
    #[arg(long, default_value = "", value_name = "SETTINGS")]
    player2: String,
    #[command(flatten)]
    options: GameOptions,
}

pub fn run_match_command(args: &MatchArgs) -> ExitCode {
    if let Some(MatchAction::Report(report)) = &args.action {
        return finish(merge_report(report));
    }
    let (Some(e1), Some(e2)) = (&args.engine1, &args.engine2) else {
        eprintln!("hane match: give --engine1 and --engine2 (or `hane match report DIR...`)");
        return ExitCode::from(2);
    };
    let result = (|| {
        let engines = [EngineSpec::parse(e1)?, EngineSpec::parse(e2)?];
        run(
            engines,
            [args.name1.clone(), args.name2.clone()],
            [e1.clone(), e2.clone()],
            &args.options,
        )
    })();
    finish(result)
}

pub fn run_selfplay_command(args: &SelfplayArgs) -> ExitCode {
    let result = (|| {
        let texts = [
            format!("hane:{}", args.player1),
            format!("hane:{}", args.player2),
        ];
        let engines = [EngineSpec::parse(&texts[0])?, EngineSpec::parse(&texts[1])?];
        run(engines, [None, None], texts, &args.options)
    })();
    finish(result)
}

fn finish(result: Result<Finished, String>) -> ExitCode {
    match result {
        Ok(Finished {
            report,
            stopped_by_faults: Some(reason),
            ..
        }) => {
            print!("{report}");
            eprintln!("hane: {reason}");
            ExitCode::from(STOPPED_BY_FAULTS)
        }
        Ok(Finished {
            report,
            interrupted: None,
            ..
        }) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Ok(Finished {
            report,
            interrupted: Some(note),
            ..
        }) => {
            print!("{report}");
            eprintln!("hane: {note}");
            ExitCode::from(INTERRUPTED)
        }
        Err(e) => {
            eprintln!("hane: {e}");
            ExitCode::FAILURE
        }
    }
}

fn merge_report(args: &ReportArgs) -> Result<Finished, String> {
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let merged = merge_folders(&args.dirs)?;
    let (settings, records) = (&merged.settings, &merged.records);
    if let Some(path) = &args.chart {
        results::write_atomically(path, chart::score_svg(settings, records).as_bytes())?;
    }
    let mut report = String::new();
    if merged.seeds.len() > 1 {
        let seeds: Vec<String> = merged.seeds.iter().map(u64::to_string).collect();
        report = format!(
            "Runs pooled: match seeds {} (their games numbered one run after the other)\n",
            seeds.join(", ")
        );
    }
    report.push_str(&stats::report(settings, records, sprt.as_ref()));
    Ok(Finished {
        report,
        interrupted: None,
        stopped_by_faults: None,
    })
}

/// Turns SIGINT (Ctrl-C) and SIGTERM (`kill`, a cluster's scheduler) into a stop of
/// `interrupt`: the match abandons the games in progress, writes the report of the games
/// finished and says how to resume. A second signal ends the process at once. The signals
/// are blocked in this thread before any other starts, so in all of them, and a thread of
/// its own takes them with sigwait; engines start with no signal blocked (the standard
/// library clears the mask of the processes it spawns).
#[cfg(unix)]
pub(super) fn stop_on_signals(interrupt: Arc<SearchControl>) {
    use nix::sys::signal::{SigSet, Signal};
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGINT);
    signals.add(Signal::SIGTERM);
    if signals.thread_block().is_err() {
        return;
    }
    std::thread::spawn(move || {
        while let Ok(signal) = signals.wait() {
            if interrupt.is_stopped() {
                eprintln!("hane: {signal} again: stopping at once");
                // The games are already written as they finish; a second signal means
                // the user will not wait for the engines to be shut down.
                #[allow(clippy::exit)]
                std::process::exit(i32::from(INTERRUPTED));
            }
            interrupt.stop();
            eprintln!(
                "hane: {signal}: stopping; the games in progress are abandoned (send it again \
                 to stop at once)"
            );
        }
    });
}

#[cfg(not(unix))]
pub(super) fn stop_on_signals(_interrupt: Arc<SearchControl>) {}

fn run(
    engines: [EngineSpec; 2],
    names: [Option<String>; 2],
    texts: [String; 2],
    options: &GameOptions,
) -> Result<Finished, String> {
    let interrupt = SearchControl::new();
    stop_on_signals(Arc::clone(&interrupt));
    let (out, rules) = check_game_options(options)?;
    let referee = &options.referee;
    referee.check()?;
    let time = time_control(
        options.time,
        options.byo_yomi,
        options.byo_yomi_stones,
        options.increment,
        referee.move_time,
        referee.max_move_time,
    )?;
    let shard = options.shard.as_deref().map(parse_shard).transpose()?;
    let sprt = options.sprt.as_deref().map(Sprt::parse).transpose()?;
    let openings = load_openings(&options.openings, options.board.size, rules)?;
    if !openings.is_empty() && options.handicap > 0 {
        return Err("--handicap and --openings cannot be combined".to_string());
    }
    let command_timeout = referee.command_timeout();
    let names = resolve_names(&engines, &names, &texts, &out, command_timeout)?;
    let settings = MatchSettings {
        engines: texts,
        names,
        size: options.board.size,
        komi: options.board.komi,
        rules: rules.name().to_string(),
        handicap: options.handicap,
        openings: options
            .openings
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        opening_moves: options.opening_moves,
        time_control: time,
        margin_seconds: referee.margin,
        move_cap: referee.move_cap(options.board.size),
        seed: options.seed,
        games: options.games,
        shard,
        shard_pairs: true,
        engine1_colour: options.engine1_colour,
    };
    let plan = MatchPlan {
        settings,
        engines,
        rules,
        openings,
        out_dir: out,
        jobs: options.jobs,
        sprt,
        command_timeout,
        dead_playouts: options.dead_playouts.max(1),
        log_games: !options.quiet,
        progress: true,
        interrupt,
    };
    let summary = run_match(&plan)?;
    Ok(finished(summary))
}

/// Checks the game options that need no engine: the result folder, the board size, komi,
/// rules, handicap and jobs; returns the folder and the rules.
fn check_game_options(options: &GameOptions) -> Result<(PathBuf, Rules), String> {
    let out = options
        .out
        .clone()
        .ok_or("give a result folder with --out DIR")?;
    check_out_dir(&out)?;
    let rules = options.board.check()?;
    if options.handicap == 1 || options.handicap > GameState::max_fixed_handicap(options.board.size)
    {
        return Err(format!(
            "--handicap {} is not a fixed handicap on {}x{} (0 or 2..={})",
            options.handicap,
            options.board.size,
            options.board.size,
            GameState::max_fixed_handicap(options.board.size)
        ));
    }
    if options.jobs == 0 {
        return Err("--jobs must be at least 1".to_string());
    }
    Ok((out, rules))
}

/// The engines' names: given, or remembered from an earlier run on the folder `out`, or
/// asked; two equal names get ` #1` and ` #2`.
fn resolve_names(
    engines: &[EngineSpec; 2],
    names: &[Option<String>; 2],
    texts: &[String; 2],
    out: &Path,
    command_timeout: Duration,
) -> Result<[String; 2], String> {
    let earlier = results::read_settings(out)?;
    let mut resolved = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let name = match (name, &earlier) {
            (Some(n), _) => n.clone(),
            (None, Some(e)) if e.engines[k] == texts[k] => e.names[k].clone(),
            (None, _) => engines[k].default_name(command_timeout)?,
        };
        resolved.push(name);
    }
    if resolved[0] == resolved[1] {
        resolved[0].push_str(" #1");
        resolved[1].push_str(" #2");
    }
    Ok([resolved[0].clone(), resolved[1].clone()])
}

/// What a match that ran leaves to print: its report, and the word on resuming when it
/// was interrupted.
fn finished(summary: MatchSummary) -> Finished {
    if summary.stopped_by_sprt {
        eprintln!("hane: the SPRT decided; the match stopped early");
    }
    let interrupted = summary.interrupted.then(|| {
        format!(
            "interrupted with {} of {} games finished, which the report covers; rerun the \
             same command to resume",
            summary.records.len(),
            summary.planned
        )
    });
    Finished {
        report: summary.report,
        interrupted,
        stopped_by_faults: summary.stopped_by_faults,
    }
}
