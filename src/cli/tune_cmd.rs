//! `hane tune`: tunes engine settings marked tunable in the settings definition by SPSA
//! over self-play ([`crate::arena::tune`]). The result goes to stdout; progress and a line
//! per iteration to stderr.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;

use super::match_cmd::{BoardArgs, INTERRUPTED, RefereeArgs, stop_on_signals};
use crate::arena::player::TimeControl;
use crate::arena::spsa::{Gains, parse_params, start_values, tunable};
use crate::arena::stats::Sprt;
use crate::arena::tune::{
    EngineTemplate, RESULT_FILE, TuneConfig, TunePlan, TuneSummary, read_config, run_tune,
    slopes_text, tuned_text, values_text, verify_dir,
};
use crate::arena::{check_out_dir, parse_shard, time_control};
use crate::board::Rules;
use crate::search::SearchControl;

/// `hane tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Output folder (state, games, chart, result); rerun with the same folder to resume.
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
    /// Settings to tune, `key,key,...` (default: every tunable one; see the long help).
    #[arg(long, value_name = "KEYS", long_help = params_help())]
    params: Option<String>,
    /// Starting values, `key=value,...` (default: the engine's values on this board size).
    #[arg(long, value_name = "KEY=VALUE,...")]
    start: Option<String>,
    /// The engine: `hane[:key=value,...]` in-process with these fixed settings, or a GTP
    /// command line, which gets `--key value` per tuned setting appended (or, where it
    /// has `{key}` placeholders, the values put in their place).
    #[arg(
        long,
        value_name = "ENGINE",
        default_value = "hane:threads=1,playouts=200"
    )]
    engine: String,
    /// SPSA iterations (may grow when a run resumes).
    #[arg(short = 'n', long, default_value_t = 100)]
    iterations: usize,
    /// Colour-swapped pairs of games per iteration, all at one perturbation.
    #[arg(long, default_value_t = 1)]
    pairs: usize,
    /// Games played at the same time (at most 2 x --pairs are useful).
    #[arg(short, long, default_value_t = 1)]
    jobs: usize,
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    referee: RefereeArgs,
    /// Seed of the perturbations and of every game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only shard K of N of every match, in a folder shared with the other shards.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// SPSA step gain a (default: 2 c (A + 1)^0.602, a first iteration won outright moves
    /// one step).
    #[arg(long, value_name = "A")]
    spsa_a: Option<f64>,
    /// SPSA stability constant A (default: a tenth of the iterations).
    #[arg(long, value_name = "A")]
    spsa_big_a: Option<f64>,
    /// SPSA perturbation c at the first iteration, in steps of each setting (default 1).
    #[arg(long, value_name = "C")]
    spsa_c: Option<f64>,
    /// Games of the verification match, tuned against start (0: none).
    #[arg(long, default_value_t = 200)]
    verify_games: usize,
    /// The verification's SPRT (elo0,elo1,alpha,beta) on the tuned settings' Elo; an
    /// unsharded run stops on its verdict.
    #[arg(
        long,
        default_value = "0,20,0.05,0.05",
        value_name = "ELO0,ELO1,ALPHA,BETA"
    )]
    verify_sprt: String,
    /// The tuned values are the mean of theta over this share of the iterations, the last
    /// ones (iterate averaging smooths out theta's random walk); 0: the last theta.
    #[arg(long, default_value_t = 0.5, value_name = "SHARE")]
    average: f64,
    /// Playouts used to settle dead stones when the engines disagree.
    #[arg(long, default_value_t = 1000)]
    dead_playouts: u64,
    /// No line per iteration and no progress bar on stderr.
    #[arg(short, long)]
    quiet: bool,
}

fn params_help() -> String {
    let list: Vec<String> = tunable()
        .iter()
        .map(|p| format!("  {} (from {} to {}, step {})", p.key, p.min, p.max, p.step))
        .collect();
    format!(
        "Settings to tune, `key,key,...`; default: every tunable setting of the settings \
         definition:\n{}",
        list.join("\n")
    )
}

pub fn run(args: &TuneArgs) -> ExitCode {
    let interrupt = SearchControl::new();
    stop_on_signals(Arc::clone(&interrupt));
    match tune(args, interrupt) {
        Ok((text, None)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Ok((text, Some(note))) => {
            print!("{text}");
            eprintln!("hane: {note}");
            ExitCode::from(INTERRUPTED)
        }
        Err(e) => {
            eprintln!("hane: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the tuning; returns what to print and, when interrupted, the word on resuming.
fn tune(
    args: &TuneArgs,
    interrupt: Arc<SearchControl>,
) -> Result<(String, Option<String>), String> {
    let rules = check_tune_options(args)?;
    let referee = &args.referee;
    referee.check()?;
    let time = time_control(None, 0.0, 1, 0.0, referee.move_time, referee.max_move_time)?;
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let verify_sprt = Sprt::parse(&args.verify_sprt)?;
    if !(0.0..=1.0).contains(&args.average) {
        return Err("--average must be a share from 0 to 1".to_string());
    }
    let (config, template) = tune_config(args, rules, time)?;
    warn_of_idle_jobs(args, shard);
    let plan = TunePlan {
        config,
        template,
        rules,
        out_dir: args.out.clone(),
        jobs: args.jobs,
        shard,
        verify_games: args.verify_games,
        verify_sprt: Some(verify_sprt),
        average: args.average,
        command_timeout: referee.command_timeout(),
        dead_playouts: args.dead_playouts.max(1),
        log: !args.quiet,
        progress: !args.quiet,
        interrupt,
    };
    let summary = run_tune(&plan)?;
    tune_output(args, &plan, &summary)
}

/// Checks the options that need no engine: the folder, the board size, komi, rules and
/// the counts; returns the rules.
fn check_tune_options(args: &TuneArgs) -> Result<Rules, String> {
    check_out_dir(&args.out)?;
    let rules = args.board.check()?;
    for (value, what) in [
        (args.iterations, "--iterations"),
        (args.pairs, "--pairs"),
        (args.jobs, "--jobs"),
    ] {
        if value == 0 {
            return Err(format!("{what} must be at least 1"));
        }
    }
    Ok(rules)
}

/// The tuning's configuration (parameters, start values, gains, games) and the engine
/// template its players are made from.
fn tune_config(
    args: &TuneArgs,
    rules: Rules,
    time: TimeControl,
) -> Result<(TuneConfig, EngineTemplate), String> {
    let referee = &args.referee;
    let params = parse_params(args.params.as_deref())?;
    let template = EngineTemplate::parse(&args.engine, &params)?;
    let start = start_values(
        &params,
        &template.base_settings(),
        args.board.size,
        args.start.as_deref(),
    )?;
    // A resumed run keeps its stability constant, which defaults from the iterations
    // planned when it began.
    let existing = read_config(&args.out)?;
    let big_a = args.spsa_big_a.or(existing.as_ref().map(|e| e.gains.big_a));
    let gains = Gains::new(args.iterations, args.spsa_a, big_a, args.spsa_c)?;
    let config = TuneConfig {
        params,
        start,
        gains,
        seed: args.seed,
        iterations: args.iterations,
        pairs: args.pairs,
        engine: args.engine.trim().to_string(),
        size: args.board.size,
        komi: args.board.komi,
        rules: rules.name().to_string(),
        time_control: time,
        margin_seconds: referee.margin,
        move_cap: referee.move_cap(args.board.size),
    };
    Ok((config, template))
}

/// Warns when this process has fewer games per iteration than jobs.
fn warn_of_idle_jobs(args: &TuneArgs, shard: Option<(usize, usize)>) {
    // The games of an iteration this process plays: its shard's share of the pairs.
    let shards = shard.map_or(1, |(_, n)| n);
    let own_games = args.pairs.div_ceil(shards).saturating_mul(2);
    if args.jobs > own_games && !args.quiet {
        eprintln!(
            "hane: an iteration has {own_games} games for this process: give --pairs {} to \
             keep {} jobs busy",
            args.jobs.div_ceil(2).saturating_mul(shards),
            args.jobs
        );
    }
}

/// What a tuning run prints: the values reached, and the verification's result when it
/// is in; with the word on resuming when it was interrupted.
fn tune_output(
    args: &TuneArgs,
    plan: &TunePlan,
    summary: &TuneSummary,
) -> Result<(String, Option<String>), String> {
    let config = &plan.config;
    let done = summary.state.iteration();
    let mut theta = format!(
        "{}\ntuned: {}\n{}\n",
        values_text(&config.params, &summary.state.theta),
        values_text(&config.params, &summary.state.tuned(plan.average)),
        tuned_text(&summary.state, plan.average)
    );
    if let Some(slopes) = slopes_text(&config.params, &summary.state, plan.average) {
        theta.push_str(&slopes);
        theta.push('\n');
    }
    if summary.interrupted {
        let note = format!(
            "interrupted after {done} of {} iterations; rerun the same command to resume",
            config.iterations
        );
        return Ok((
            format!("theta after {done} iterations: {theta}"),
            Some(note),
        ));
    }
    let result = args.out.join(RESULT_FILE);
    let text = if summary.verification.is_some() || plan.verify_games == 0 {
        std::fs::read_to_string(&result)
            .map_err(|e| format!("cannot read {}: {e}", result.display()))?
    } else {
        format!(
            "theta after {done} iterations: {theta}The verification match waits for the \
             other shards' games: `hane match report {}/*` merges them.\n",
            verify_dir(&args.out, &summary.state, plan.average).display()
        )
    };
    Ok((text, None))
}
