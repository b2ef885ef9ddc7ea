//! A tuning run (`hane tune`): the SPSA iterations of [`super::spsa`], each played as a
//! match of the match runner between the engine at theta+delta and at theta-delta, in an
//! output folder that holds everything needed to resume, and a verification match of the
//! tuned settings against the starting ones at the end. The tuned values are the mean of
//! theta over the last iterations (`--average`, [`super::spsa::State::tuned`]).
//!
//! The folder:
//! - `tune.json`: what the run is ([`TuneConfig`]); a rerun must agree on all of it but the
//!   number of iterations, which may grow;
//! - `state.json`: the checkpoint ([`State`]: theta and every iteration's perturbation,
//!   points, score and update), rewritten after every iteration;
//! - `iterations/NNNNN/all/` (or `shard-K-of-N/`): iteration NNNNN's match folder
//!   (`match.json`, `results.jsonl`, SGF files), an ordinary `hane match` folder;
//! - `params.svg`: each parameter's path;
//! - `verify/after-N-mean-of-M/all/` (or `shard-K-of-N/`): the verification match (tuned
//!   as engine 1 against the start) of the values tuned after N iterations, the mean of
//!   the last M (`after-N/` for the last theta), so that a run resumed for more iterations
//!   or averaged otherwise verifies its own values; and `result.txt`: the tuned values and
//!   the last verification's report.
//!
//! Everything that decides the games (theta, the perturbations, every game's seed) follows
//! from the seed and the results of the earlier iterations, so a run resumed after a kill
//! plays the same games as an uninterrupted one, and separate processes that each play a
//! shard of every iteration's match into one shared folder (`--shard K/N`) agree on every
//! update: each plays its shard, waits until the shards of the iteration are all in the
//! folder, merges them, and updates theta as the others do. The unsharded run, or shard 1,
//! writes the checkpoint and the chart.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};

use super::engine_process::split_command_line;
use super::hane_player::HaneSettings;
use super::player::TimeControl;
use super::progress::{clock_text, eta};
use super::results::{self, FolderLock, GameRecord, MatchSettings, differing_fields};
use super::spsa::{Gains, Param, Spsa, State, mix};
use super::stats::{self, Sprt, engine_tallies, wilson_interval};
use super::{EngineSpec, MatchPlan, chart, merge_folders, run_match};
use crate::board::Rules;
use crate::search::SearchControl;
use crate::settings::Settings;

pub const CONFIG_FILE: &str = "tune.json";
pub const STATE_FILE: &str = "state.json";
pub const CHART_FILE: &str = "params.svg";
pub const RESULT_FILE: &str = "result.txt";
pub const ITERATIONS_DIR: &str = "iterations";
pub const VERIFY_DIR: &str = "verify";

/// How often a shard looks for the other shards' games of an iteration.
const SHARD_POLL: Duration = Duration::from_secs(2);

/// What defines a tuning run (`tune.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    pub params: Vec<Param>,
    /// Theta at the start.
    pub start: Vec<f64>,
    pub gains: Gains,
    /// Fixes the perturbations and every game's seed.
    pub seed: u64,
    pub iterations: usize,
    /// Colour-swapped pairs of games per iteration.
    pub pairs: usize,
    /// The engine: `hane[:key=value,...]` in-process, or a GTP command line (see
    /// [`EngineTemplate`]).
    pub engine: String,
    pub size: usize,
    pub komi: f32,
    pub rules: String,
    pub time_control: TimeControl,
    pub margin_seconds: f64,
    pub move_cap: usize,
}

impl TuneConfig {
    /// The fields in which `self` and `other` describe different runs (the number of
    /// iterations aside).
    pub fn differences(&self, other: &TuneConfig) -> Vec<&'static str> {
        differing_fields!(self, other;
            "params" params, "start" start, "gains" gains, "seed" seed, "pairs" pairs,
            "engine" engine, "size" size, "komi" komi, "rules" rules,
            "time control" time_control, "margin" margin_seconds, "move cap" move_cap)
    }

    pub fn spsa(&self) -> Spsa {
        Spsa {
            params: self.params.clone(),
            gains: self.gains,
            seed: self.seed,
        }
    }
}

/// Reads `tune.json`, if the folder has one.
pub fn read_config(dir: &Path) -> Result<Option<TuneConfig>, String> {
    read_json(&dir.join(CONFIG_FILE), "tuning run description")
}

/// Reads `state.json`, if the folder has one.
pub fn read_state(dir: &Path) -> Result<Option<State>, String> {
    read_json(&dir.join(STATE_FILE), "tuning state")
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path, what: &str) -> Result<Option<T>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("{} is not a {what}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).expect("tuning data serializes");
    results::write_atomically(path, text.as_bytes())
}

/// The engine a tuning run plays, into which the tuned values are put.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineTemplate {
    /// hane in-process, with these fixed settings (`key=value,...`, perhaps empty); the
    /// tuned values are added as more pairs.
    Hane(String),
    /// A GTP command line. With `{key}` placeholders, each tuned parameter's value replaces
    /// its placeholder (every tuned parameter needs one); without any, `--key value` is
    /// appended per tuned parameter (as `hane gtp` takes them).
    Command(String),
}

impl EngineTemplate {
    /// Reads `--engine` and checks it against the tuned parameters.
    pub fn parse(text: &str, params: &[Param]) -> Result<EngineTemplate, String> {
        let trimmed = text.trim();
        let template = if trimmed == "hane" {
            EngineTemplate::Hane(String::new())
        } else if let Some(pairs) = trimmed.strip_prefix("hane:") {
            HaneSettings::parse(pairs)?;
            for pair in pairs.split(',').filter(|p| !p.trim().is_empty()) {
                let key = pair.split_once('=').map_or(pair, |(k, _)| k).trim();
                if let Some(setting) = Settings::find(key)
                    && params.iter().any(|p| p.key == setting.meta.key)
                {
                    return Err(format!(
                        "--engine sets {:?}, which is tuned: leave it out, or use --start",
                        setting.meta.key
                    ));
                }
            }
            EngineTemplate::Hane(pairs.trim().to_string())
        } else {
            split_command_line(trimmed)?;
            if trimmed.contains('{') {
                for p in params {
                    if !trimmed.contains(&format!("{{{}}}", p.key)) {
                        return Err(format!(
                            "the engine command has placeholders but none for {:?} (write \
                             {{{}}} where its value goes)",
                            p.key, p.key
                        ));
                    }
                }
            }
            EngineTemplate::Command(trimmed.to_string())
        };
        Ok(template)
    }

    /// The settings the starting point is read from: hane's with the fixed settings of an
    /// in-process engine; hane's defaults for a command (give `--start` for another
    /// engine).
    pub fn base_settings(&self) -> Settings {
        match self {
            EngineTemplate::Hane(pairs) => HaneSettings::parse(pairs)
                .map(|h| h.settings)
                .unwrap_or_default(),
            EngineTemplate::Command(_) => Settings::default(),
        }
    }

    /// The engine at `values`, as `hane match` would take it.
    pub fn engine_text(&self, params: &[Param], values: &[f64]) -> String {
        let texts: Vec<(String, String)> = params
            .iter()
            .zip(values)
            .map(|(p, &v)| (p.key.clone(), p.text(v)))
            .collect();
        match self {
            EngineTemplate::Hane(base) => {
                let pairs: Vec<String> = std::iter::once(base.clone())
                    .filter(|b| !b.is_empty())
                    .chain(texts.iter().map(|(k, v)| format!("{k}={v}")))
                    .collect();
                format!("hane:{}", pairs.join(","))
            }
            EngineTemplate::Command(line) if line.contains('{') => {
                let mut line = line.clone();
                for (k, v) in &texts {
                    line = line.replace(&format!("{{{k}}}"), v);
                }
                line
            }
            EngineTemplate::Command(line) => {
                let mut line = line.clone();
                for (k, v) in &texts {
                    line.push_str(&format!(" --{k} {v}"));
                }
                line
            }
        }
    }
}

/// The tuned values as `key=value,...`.
pub fn values_text(params: &[Param], values: &[f64]) -> String {
    params
        .iter()
        .zip(values)
        .map(|(p, &v)| format!("{}={}", p.key, p.text(v)))
        .collect::<Vec<_>>()
        .join(",")
}

/// Everything needed to run (or resume) a tuning run.
pub struct TunePlan {
    pub config: TuneConfig,
    pub template: EngineTemplate,
    pub rules: Rules,
    pub out_dir: PathBuf,
    /// Games played at the same time (by this process).
    pub jobs: usize,
    /// Play only shard K of N of every match.
    pub shard: Option<(usize, usize)>,
    /// Games of the verification match (0: none) and its SPRT (unsharded runs stop on it).
    pub verify_games: usize,
    pub verify_sprt: Option<Sprt>,
    /// The share of the iterations, the last ones, whose theta the tuned values average
    /// ([`State::tuned`]; 0: the last theta).
    pub average: f64,
    pub command_timeout: Duration,
    pub dead_playouts: u64,
    /// A line per iteration on stderr.
    pub log: bool,
    /// Draw the progress bar.
    pub progress: bool,
    pub interrupt: Arc<SearchControl>,
}

/// How a tuning run ended.
pub struct TuneSummary {
    pub state: State,
    /// The verification's report, once its games are all in.
    pub verification: Option<String>,
    pub interrupted: bool,
}

/// The folder of this process's part of a match under `dir`.
fn part_dir(dir: &Path, shard: Option<(usize, usize)>) -> PathBuf {
    dir.join(match shard {
        None => "all".to_string(),
        Some((k, n)) => format!("shard-{k}-of-{n}"),
    })
}

/// Iteration `k`'s folder (from 0; named from 1).
pub fn iteration_dir(dir: &Path, k: usize) -> PathBuf {
    dir.join(ITERATIONS_DIR).join(format!("{:05}", k + 1))
}

/// The folder of the verification of the values tuned from `state` with `average`.
pub fn verify_dir(out_dir: &Path, state: &State, average: f64) -> PathBuf {
    let n = state.iteration();
    out_dir
        .join(VERIFY_DIR)
        .join(match state.averaged_iterations(average) {
            0 => format!("after-{n}"),
            m => format!("after-{n}-mean-of-{m}"),
        })
}

/// The match folders under `dir` (the parts of one match) that belong to the layout of
/// `shard` (`all/`, or every `shard-K-of-N/` of its N), sorted: the parts of a layout
/// played before, for an iteration that was interrupted and resumed otherwise, are left
/// out, so that every process merges the same games.
fn parts(dir: &Path, shard: Option<(usize, usize)>) -> Result<Vec<PathBuf>, String> {
    let of_layout = |path: &Path| {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match shard {
            None => name == "all",
            Some((_, n)) => name.starts_with("shard-") && name.ends_with(&format!("-of-{n}")),
        }
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot list {}: {e}", dir.display())),
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| of_layout(p) && p.join(results::SETTINGS_FILE).is_file())
        .collect();
    out.sort();
    Ok(out)
}

/// The games of every part of the match in `dir` of the layout of `shard`.
fn merged_records(dir: &Path, shard: Option<(usize, usize)>) -> Result<Vec<GameRecord>, String> {
    let parts = parts(dir, shard)?;
    if parts.is_empty() {
        return Ok(Vec::new());
    }
    merge_folders(&parts).map(|merged| merged.records)
}

impl TunePlan {
    fn is_leader(&self) -> bool {
        self.shard.is_none_or(|(k, _)| k == 1)
    }

    /// The match in `dir` between the engine at each side's values, named by its label
    /// and values.
    fn match_plan(
        &self,
        sides: [(&str, &[f64]); 2],
        games: usize,
        seed: u64,
        dir: PathBuf,
        sprt: Option<Sprt>,
        show: bool,
    ) -> Result<MatchPlan, String> {
        let config = &self.config;
        let engines = sides.map(|(_, values)| self.template.engine_text(&config.params, values));
        let mut names = sides
            .map(|(label, values)| format!("{label}({})", values_text(&config.params, values)));
        let specs = [
            EngineSpec::parse(&engines[0])?,
            EngineSpec::parse(&engines[1])?,
        ];
        if names[0] == names[1] {
            names[0].push_str(" #1");
            names[1].push_str(" #2");
        }
        Ok(MatchPlan {
            settings: MatchSettings {
                engines,
                names,
                size: config.size,
                komi: config.komi,
                rules: config.rules.clone(),
                handicap: 0,
                openings: Vec::new(),
                opening_moves: None,
                time_control: config.time_control,
                margin_seconds: config.margin_seconds,
                move_cap: config.move_cap,
                seed,
                games,
                shard: self.shard,
                shard_pairs: true,
                engine1_colour: Default::default(),
            },
            engines: specs,
            rules: self.rules,
            openings: Vec::new(),
            out_dir: part_dir(&dir, self.shard),
            jobs: self.jobs,
            sprt,
            command_timeout: self.command_timeout,
            dead_playouts: self.dead_playouts,
            log_games: show && self.log,
            progress: show && self.progress,
            interrupt: Arc::clone(&self.interrupt),
        })
    }

    /// Plays this process's part of the match in `dir` and waits for the other shards';
    /// returns the merged games, or `None` when interrupted first.
    fn play(
        &self,
        plan: &MatchPlan,
        dir: &Path,
        wait: &dyn Fn(usize),
    ) -> Result<Option<Vec<GameRecord>>, String> {
        let summary = run_match(plan)?;
        if let Some(e) = summary.stopped_by_faults {
            return Err(e);
        }
        if summary.interrupted {
            return Ok(None);
        }
        if self.shard.is_none() {
            return Ok(Some(summary.records));
        }
        let games = plan.settings.games;
        loop {
            let records = merged_records(dir, self.shard)?;
            if records.len() >= games {
                return Ok(Some(records));
            }
            wait(records.len());
            let until = Instant::now() + SHARD_POLL;
            while Instant::now() < until {
                if self.interrupt.is_stopped() {
                    return Ok(None);
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }

    fn save(&self, state: &State) -> Result<(), String> {
        if !self.is_leader() {
            return Ok(());
        }
        write_json(&self.out_dir.join(STATE_FILE), state)?;
        results::write_atomically(
            &self.out_dir.join(CHART_FILE),
            chart::parameter_paths_svg(&self.config.params, state, self.average).as_bytes(),
        )
    }
}

/// The state to resume from: the checkpoint, or the start.
fn load_state(plan: &TunePlan) -> Result<State, String> {
    let config = &plan.config;
    let Some(state) = read_state(&plan.out_dir)? else {
        return Ok(State::new(config.start.clone()));
    };
    let n = config.params.len();
    let fits = state.theta.len() == n
        && state.history.iter().enumerate().all(|(k, s)| {
            s.iteration == k
                && [&s.theta, &s.next, &s.plus, &s.minus]
                    .iter()
                    .all(|v| v.len() == n)
                && s.signs.len() == n
        })
        && state
            .history
            .first()
            .is_none_or(|s| s.theta == config.start);
    if !fits {
        return Err(format!(
            "{} does not fit {}: remove it to start over",
            plan.out_dir.join(STATE_FILE).display(),
            CONFIG_FILE
        ));
    }
    Ok(state)
}

/// Opens (or resumes) the folder, plays the iterations still missing and the verification.
pub fn run_tune(plan: &TunePlan) -> Result<TuneSummary, String> {
    let dir = &plan.out_dir;
    let config = &plan.config;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Shards share the folder; each one's match folders carry their own locks.
    let _lock = match plan.shard {
        None => Some(FolderLock::acquire(dir)?),
        Some(_) => None,
    };
    if let Some(existing) = read_config(dir)? {
        let differences = existing.differences(config);
        if !differences.is_empty() {
            return Err(format!(
                "{} holds a different tuning run (it differs in: {}); use another folder",
                dir.display(),
                differences.join(", ")
            ));
        }
    }
    if plan.is_leader() {
        write_json(&dir.join(CONFIG_FILE), config)?;
    }
    let spsa = config.spsa();
    let mut state = load_state(plan)?;
    if state.iteration() > config.iterations {
        return Err(format!(
            "{} has done {} iterations, more than the {} asked for",
            dir.display(),
            state.iteration(),
            config.iterations
        ));
    }
    plan.save(&state)?;
    let games = 2 * config.pairs;
    let bar = ProgressBar::with_draw_target(
        Some(config.iterations as u64),
        if plan.progress {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:12}] {pos}/{len} iterations | {wide_msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_position(state.iteration() as u64);
    bar.enable_steady_tick(Duration::from_secs(1));
    let started = Instant::now();
    let first = state.iteration();
    let status = |state: &State, extra: &str| {
        let done = state.iteration() - first;
        let left = config.iterations - state.iteration();
        let eta = match eta(done, started.elapsed(), left) {
            Some(d) => format!("ETA {}", clock_text(d.as_secs_f64())),
            None => "ETA --".to_string(),
        };
        format!(
            "{eta} | {extra}theta {}",
            values_text(&config.params, &state.theta)
        )
    };
    bar.set_message(status(&state, ""));
    let mut interrupted = false;
    while state.iteration() < config.iterations {
        if plan.interrupt.is_stopped() {
            interrupted = true;
            break;
        }
        let k = state.iteration();
        let (plus, minus) = spsa.points(&state.theta, k);
        let iteration = iteration_dir(dir, k);
        let match_plan = plan.match_plan(
            [("plus", &plus), ("minus", &minus)],
            games,
            mix(config.seed, 0x4954_0000 + k as u64),
            iteration.clone(),
            None,
            false,
        )?;
        let wait = |have: usize| {
            bar.set_message(status(
                &state,
                &format!(
                    "iteration {}: waiting for the other shards ({have} of {games} games) | ",
                    k + 1
                ),
            ));
        };
        let Some(records) = plan.play(&match_plan, &iteration, &wait)? else {
            interrupted = true;
            break;
        };
        let (_, _, tally) = engine_tallies(&records, 1);
        spsa.update(&mut state, tally.rate(), tally.games());
        plan.save(&state)?;
        if plan.log {
            bar.suspend(|| {
                eprintln!(
                    "iteration {}: plus {} scored {}/{} against minus {}; theta {}",
                    k + 1,
                    values_text(&config.params, &plus),
                    tally.points(),
                    tally.games(),
                    values_text(&config.params, &minus),
                    values_text(&config.params, &state.theta)
                );
            });
        }
        bar.set_position(state.iteration() as u64);
        bar.set_message(status(&state, ""));
    }
    bar.finish_and_clear();
    let verification = if interrupted || plan.verify_games == 0 {
        if !interrupted {
            write_result(plan, &state, None)?;
        }
        None
    } else {
        verify(plan, &state)?
    };
    Ok(TuneSummary {
        interrupted: interrupted || plan.interrupt.is_stopped(),
        state,
        verification,
    })
}

/// Plays the verification match (tuned as engine 1, start as engine 2) and, once its
/// games are all in, writes `result.txt`; returns the report then.
fn verify(plan: &TunePlan, state: &State) -> Result<Option<String>, String> {
    let config = &plan.config;
    let dir = verify_dir(&plan.out_dir, state, plan.average);
    // An SPRT over one shard's games would stop that shard on its own evidence.
    let sprt = if plan.shard.is_none() {
        plan.verify_sprt
    } else {
        None
    };
    let tuned = state.tuned(plan.average);
    let match_plan = plan.match_plan(
        [("tuned", &tuned), ("start", &config.start)],
        plan.verify_games,
        mix(config.seed, 0x5645_5249),
        dir.clone(),
        sprt,
        true,
    )?;
    let summary = run_match(&match_plan)?;
    if let Some(e) = summary.stopped_by_faults {
        return Err(e);
    }
    if summary.interrupted {
        return Ok(None);
    }
    let (mut report, records) = if plan.shard.is_none() {
        // The match's own report: its SPRT decided in the order the games finished.
        (summary.report, summary.records)
    } else {
        let parts = parts(&dir, plan.shard)?;
        let super::Merged {
            settings, records, ..
        } = merge_folders(&parts)?;
        if records.len() < plan.verify_games {
            // Other shards are still playing: the last one to finish writes the result.
            return Ok(None);
        }
        (
            stats::report(&settings, &records, plan.verify_sprt.as_ref()),
            records,
        )
    };
    report.push_str(&conclusion(&records));
    write_result(plan, state, Some(&report))?;
    Ok(Some(report))
}

/// What the verification says at 95%.
fn conclusion(records: &[GameRecord]) -> String {
    let (_, _, total) = engine_tallies(records, 1);
    let (lo, hi) = wilson_interval(total.rate(), total.games());
    let verdict = if lo > 0.5 {
        "the tuned settings scored better than the start (the 95% interval lies above 50%)"
    } else if hi < 0.5 {
        "the tuned settings scored worse than the start (the 95% interval lies below 50%)"
    } else {
        "no difference shown between the tuned settings and the start (the 95% interval \
         holds 50%)"
    };
    format!("Conclusion: {verdict}\n")
}

/// What the tuned values are: the mean of theta over how many of the last iterations.
pub fn tuned_text(state: &State, average: f64) -> String {
    match state.averaged_iterations(average) {
        0 => "The tuned values are the last theta.".to_string(),
        m => format!(
            "The tuned values are the mean of theta over the last {m} of the {} iterations.",
            state.iteration()
        ),
    }
}

/// Each parameter's slope over the iterations the tuned values average ([`State::slopes`]),
/// as a line: `key +0.012 (z +0.4)`, ...; `None` before two iterations.
pub fn slopes_text(params: &[Param], state: &State, average: f64) -> Option<String> {
    let slopes = state.slopes(average)?;
    let list: Vec<String> = params
        .iter()
        .zip(&slopes)
        .map(|(p, s)| format!("{} {:+.3} (z {:+.1})", p.key, s.mean, s.z()))
        .collect();
    Some(format!(
        "Slopes (the mean of the result times each sign; |z| under 2: no difference shown): {}",
        list.join(", ")
    ))
}

/// Writes `result.txt`: the run, the tuned values and the verification's report.
fn write_result(plan: &TunePlan, state: &State, report: Option<&str>) -> Result<(), String> {
    let config = &plan.config;
    let mut text = format!(
        "hane tune: {} iterations of SPSA ({} pairs of games each, {} games) on {}x{}\n",
        state.iteration(),
        config.pairs,
        state.history.iter().map(|s| s.games).sum::<usize>(),
        config.size,
        config.size
    );
    let tuned = state.tuned(plan.average);
    text.push_str(&format!(
        "Tuned: {}\nStart: {}\n{}\n",
        plan.template.engine_text(&config.params, &tuned),
        plan.template.engine_text(&config.params, &config.start),
        tuned_text(state, plan.average)
    ));
    for (i, p) in config.params.iter().enumerate() {
        text.push_str(&format!(
            "  {}: {} -> {} (range {} to {}, step {}; last theta {})\n",
            p.key,
            p.text(config.start[i]),
            p.text(tuned[i]),
            p.min,
            p.max,
            p.step,
            p.text(state.theta[i])
        ));
    }
    if let Some(slopes) = slopes_text(&config.params, state, plan.average) {
        text.push_str(&slopes);
        text.push('\n');
    }
    match report {
        Some(report) => {
            text.push_str("\nVerification (engine 1 tuned, engine 2 start):\n");
            text.push_str(report);
        }
        None => text.push_str("\nNo verification match was played.\n"),
    }
    results::write_atomically(&plan.out_dir.join(RESULT_FILE), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::spsa::parse_params;

    #[test]
    fn engine_templates_take_the_tuned_values() {
        let params = parse_params(Some("exploration,expand")).unwrap();
        let values = [0.25, 7.6];
        let hane = EngineTemplate::parse("hane:playouts=200,threads=1", &params).unwrap();
        assert_eq!(
            hane.engine_text(&params, &values),
            "hane:playouts=200,threads=1,exploration=0.25,expand=8"
        );
        assert_eq!(hane.base_settings().game.playouts, Some(200));
        let bare = EngineTemplate::parse("hane", &params).unwrap();
        assert_eq!(
            bare.engine_text(&params, &values),
            "hane:exploration=0.25,expand=8"
        );
        let flags = EngineTemplate::parse("hane gtp --playouts 200", &params).unwrap();
        assert_eq!(
            flags.engine_text(&params, &values),
            "hane gtp --playouts 200 --exploration 0.25 --expand 8"
        );
        let holes =
            EngineTemplate::parse("other -c {exploration} --tree={expand}", &params).unwrap();
        assert_eq!(
            holes.engine_text(&params, &values),
            "other -c 0.25 --tree=8"
        );
        for (bad, says) in [
            ("hane:exploration=0.3", "which is tuned"),
            ("hane:uct=0.3", "unknown setting"),
            ("other -c {exploration}", "none for \"expand\""),
            ("other 'unclosed", "unbalanced"),
        ] {
            let e = EngineTemplate::parse(bad, &params).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_match_merges_only_the_parts_of_its_own_layout() {
        let dir = std::env::temp_dir().join(format!("hane-parts-{}", std::process::id()));
        let names = [
            "all",
            "shard-1-of-2",
            "shard-2-of-2",
            "shard-1-of-4",
            "shard-2-of-3",
        ];
        for name in names.iter().chain(&["shard-2-of-4-empty"]) {
            std::fs::create_dir_all(dir.join(name)).unwrap();
        }
        for name in names {
            std::fs::write(dir.join(name).join(results::SETTINGS_FILE), "{}").unwrap();
        }
        let named = |shard| -> Vec<String> {
            parts(&dir, shard)
                .unwrap()
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(named(None), ["all"]);
        assert_eq!(named(Some((2, 2))), ["shard-1-of-2", "shard-2-of-2"]);
        assert_eq!(named(Some((1, 4))), ["shard-1-of-4"]);
        assert!(parts(&dir.join("missing"), None).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}
