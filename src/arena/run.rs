//! Running a match: the result folder opened or resumed, the pending games played on
//! worker threads (each with its own two players) and collected on the calling thread
//! (records, progress, the SPRT, the start-up watch), and the report at the end. Each
//! game is played, and its SGF and record written, in [`super::game`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam::channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::chart;
use super::game::{game_line, play_one, start_position};
use super::player::Player;
use super::progress::{LiveGame, LiveGames, Status, status_line};
use super::referee::GameProgress;
use super::results::{self, GameRecord, MatchSettings, ResultsWriter};
use super::shard::{GameSpec, game_list};
use super::spec::{EngineSpec, Opening};
use super::start_up::{FaultStreak, StartUpWatch};
use super::stats::{self, Sprt};
use crate::board::Rules;
use crate::search::SearchControl;

/// Everything needed to run a match.
pub struct MatchPlan {
    pub settings: MatchSettings,
    pub engines: [EngineSpec; 2],
    pub rules: Rules,
    pub openings: Vec<Opening>,
    pub out_dir: PathBuf,
    pub jobs: usize,
    pub sprt: Option<Sprt>,
    /// Time allowed for commands other than `genmove`.
    pub command_timeout: Duration,
    /// Playouts to settle disputed dead stones.
    pub dead_playouts: u64,
    /// Print a line per finished game on stderr.
    pub log_games: bool,
    /// Draw the progress bar on stderr (the tuner draws its own over many matches).
    pub progress: bool,
    /// Stopped to interrupt the match (Ctrl-C): the games in progress are abandoned, not
    /// recorded, and the report covers the games finished.
    pub interrupt: Arc<SearchControl>,
}

/// What a finished (or stopped) match leaves.
pub struct MatchSummary {
    pub records: Vec<GameRecord>,
    pub report: String,
    /// Whether the SPRT stopped the match before its game list was done.
    pub stopped_by_sprt: bool,
    /// Whether the match was interrupted before its game list was done.
    pub interrupted: bool,
    /// Why the match stopped when an engine kept losing games by its faults.
    pub stopped_by_faults: Option<String>,
    /// The games of the list (of the shard).
    pub planned: usize,
}

/// Opens (or resumes) the result folder and plays the games still missing.
pub fn run_match(plan: &MatchPlan) -> Result<MatchSummary, String> {
    let dir = &plan.out_dir;
    std::fs::create_dir_all(dir.join(results::GAMES_DIR))
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Held until the match ends (however it ends but by a kill, which leaves a lock that
    // the next runner takes over).
    let _lock = results::FolderLock::acquire(dir)?;
    let settings = open_folder(plan)?;
    let mut records = results::read_records(dir)?;
    let list = game_list(
        settings.games,
        settings.seed,
        plan.openings.len(),
        settings.shard,
        settings.shard_pairs,
        settings.engine1_colour,
    );
    // A match resumed with fewer games counts only those of its list (the others stay in
    // the file, for a later run that asks for them again).
    records.retain(|r| list.iter().any(|spec| spec.number() == r.number));
    let pending: Vec<GameSpec> = list
        .iter()
        .filter(|spec| !records.iter().any(|r| r.number == spec.number()))
        .copied()
        .collect();
    for spec in &pending {
        start_position(plan, spec)?;
    }
    let writer = ResultsWriter::open(dir)?;
    if plan.log_games {
        eprintln!(
            "hane: engine 1 is {}, engine 2 is {}; {} games to play in {}",
            plan.settings.names[0],
            plan.settings.names[1],
            pending.len(),
            dir.display()
        );
    }
    let bar = progress_bar(plan, list.len(), pending.len());
    let collected = play_pending(plan, &settings, &pending, list.len(), records, writer, &bar);
    bar.finish_and_clear();
    // The games of an engine that failed at start-up are not recorded (only their SGF
    // files were written): with the engine fixed, rerunning the command plays them.
    for record in collected.start_up.discarded() {
        let _ = std::fs::remove_file(dir.join(&record.sgf));
    }
    if let Some(e) = collected.failure {
        return Err(e);
    }
    let mut summary = summarize(plan, &settings, collected.records, list.len())?;
    summary.interrupted &= collected.stopped.is_none();
    summary.stopped_by_faults = collected.stopped;
    Ok(summary)
}

/// The match settings to record in the result folder: the plan's, or, when the folder
/// holds a match already, that match's (which must be the same, and the same shard).
fn open_folder(plan: &MatchPlan) -> Result<MatchSettings, String> {
    let dir = &plan.out_dir;
    let mut settings = plan.settings.clone();
    if let Some(existing) = results::read_settings(dir)? {
        // A folder keeps the shard split it was made with.
        settings.shard_pairs = existing.shard_pairs;
        let differences = existing.differences(&plan.settings);
        if !differences.is_empty() {
            return Err(format!(
                "{} holds a different match (it differs in: {}); use another folder",
                dir.display(),
                differences.join(", ")
            ));
        }
        if existing.shard != plan.settings.shard {
            return Err(format!(
                "{} holds shard {:?} of this match, not {:?}",
                dir.display(),
                existing.shard,
                plan.settings.shard
            ));
        }
    }
    results::write_settings(dir, &settings)?;
    Ok(settings)
}

/// The progress bar of a match of `planned` games with `pending` still to play (hidden
/// unless the plan asks for it).
fn progress_bar(plan: &MatchPlan, planned: usize, pending: usize) -> ProgressBar {
    let target = if plan.progress {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(planned as u64), target);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:12}] {pos}/{len} games | {wide_msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_position((planned - pending) as u64);
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
}

/// Whether the plan's SPRT has reached a verdict on `records`. Records stay in the order
/// they were recorded until the report is written: an SPRT decides at the first bound
/// crossed along that order.
fn decided(plan: &MatchPlan, records: &[GameRecord]) -> bool {
    plan.sprt
        .as_ref()
        .is_some_and(|sprt| sprt.decision(records).is_some())
}

/// What the worker threads share with the collecting thread.
struct Shared<'a> {
    /// The games to play, taken in order.
    pending: &'a [GameSpec],
    /// The index in `pending` of the next game to take.
    next: AtomicUsize,
    /// Raised to stop taking games (a failure, an SPRT verdict, an interrupt).
    stop: AtomicBool,
    /// The game each worker is playing, for the progress line.
    live: LiveGames,
}

/// What the games played in this run leave: every record (the earlier ones first), the
/// first failure, and the start-up watch with the games it held back.
struct Collected {
    records: Vec<GameRecord>,
    failure: Option<String>,
    start_up: StartUpWatch,
    faults: FaultStreak,
    /// Why the match stopped for an engine's faults in recorded games.
    stopped: Option<String>,
}

/// Plays the pending games on `--jobs` worker threads and collects them as they finish,
/// after `records` (the games of earlier runs), until the list is done or the match
/// stops.
fn play_pending(
    plan: &MatchPlan,
    settings: &MatchSettings,
    pending: &[GameSpec],
    planned: usize,
    records: Vec<GameRecord>,
    writer: ResultsWriter,
    bar: &ProgressBar,
) -> Collected {
    let workers = plan.jobs.max(1).min(pending.len().max(1));
    let shared = Shared {
        pending,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(decided(plan, &records)),
        live: LiveGames::new(workers),
    };
    let (sender, receiver) = unbounded::<Result<GameRecord, String>>();
    let mut collector = Collector {
        plan,
        shared: &shared,
        bar,
        writer,
        collected: Collected {
            records,
            failure: None,
            start_up: StartUpWatch::new(pending.len()),
            faults: FaultStreak::new(),
            stopped: None,
        },
        finished_now: 0,
    };
    let started = Instant::now();
    std::thread::scope(|scope| {
        for slot in 0..workers {
            let sender = sender.clone();
            let shared = &shared;
            scope.spawn(move || play_games(plan, slot, shared, &sender));
        }
        drop(sender);
        collector.collect(&receiver, &settings.names[0], planned, started);
    });
    collector.collected
}

/// A worker thread: starts its two players, plays games off the list until it is done or
/// the match stops, sends each record to the collecting thread, and shuts its players
/// down.
fn play_games(
    plan: &MatchPlan,
    slot: usize,
    shared: &Shared<'_>,
    sender: &Sender<Result<GameRecord, String>>,
) {
    let mut players: Vec<Box<dyn Player>> = (0..2)
        .map(|e| {
            plan.engines[e].make(
                &plan.settings.names[e],
                plan.command_timeout,
                &plan.interrupt,
            )
        })
        .collect();
    loop {
        if shared.stop.load(Ordering::Acquire) || plan.interrupt.is_stopped() {
            break;
        }
        let k = shared.next.fetch_add(1, Ordering::AcqRel);
        let Some(spec) = shared.pending.get(k) else {
            break;
        };
        let number = spec.number();
        let mut show = |progress: &GameProgress| {
            shared.live.set(
                slot,
                Some(LiveGame {
                    number,
                    progress: *progress,
                }),
            );
        };
        show(&GameProgress::default());
        let record = play_one(plan, spec, &mut players, &mut show);
        shared.live.set(slot, None);
        let message = match record {
            Ok(Some(record)) => Ok(record),
            // Abandoned: the match is interrupted.
            Ok(None) => continue,
            Err(e) => Err(e),
        };
        if sender.send(message).is_err() {
            break;
        }
    }
    for player in &mut players {
        player.shut_down();
    }
}

/// The collecting thread's side of a running match: records the games the workers send,
/// shows the progress, and raises the stop flag on a failure or an SPRT verdict.
struct Collector<'a> {
    plan: &'a MatchPlan,
    shared: &'a Shared<'a>,
    bar: &'a ProgressBar,
    writer: ResultsWriter,
    collected: Collected,
    /// Games finished in this run.
    finished_now: usize,
}

impl Collector<'_> {
    /// Takes the workers' messages until they are all done; `name1` is engine 1's name,
    /// `planned` the games of the list, `started` when this run began.
    fn collect(
        &mut self,
        receiver: &Receiver<Result<GameRecord, String>>,
        name1: &str,
        planned: usize,
        started: Instant,
    ) {
        loop {
            match receiver.recv_timeout(Duration::from_millis(250)) {
                Ok(Ok(record)) => self.take(record),
                Ok(Err(e)) => self.fail(e),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if self.plan.interrupt.is_stopped() {
                self.shared.stop.store(true, Ordering::Release);
            }
            let records = &self.collected.records;
            self.bar.set_message(status_line(&Status {
                name1,
                records,
                finished_now: self.finished_now,
                elapsed: started.elapsed(),
                remaining: planned.saturating_sub(records.len()),
                live: &self.shared.live.snapshot(),
            }));
        }
        // Games held back as possible start-up failures that were not enough to stop the
        // match are ordinary forfeits.
        for record in self.collected.start_up.release() {
            self.keep(record);
        }
    }

    /// A finished game, passed through the start-up watch.
    fn take(&mut self, record: GameRecord) {
        for record in self.collected.start_up.sift(record) {
            self.keep(record);
        }
        let collected = &mut self.collected;
        if let Some(engine) = collected.start_up.failed_engine() {
            let start_up = &collected.start_up;
            collected
                .failure
                .get_or_insert_with(|| start_up.failure(engine, &self.plan.settings));
            self.shared.stop.store(true, Ordering::Release);
        }
    }

    /// A failure: the first one is the match's error; the match stops.
    fn fail(&mut self, e: String) {
        self.collected.failure.get_or_insert(e);
        self.shared.stop.store(true, Ordering::Release);
    }

    /// Records a finished game.
    fn keep(&mut self, record: GameRecord) {
        if let Err(e) = self.writer.append(&record) {
            self.fail(e);
            return;
        }
        if self.plan.log_games {
            self.bar.suspend(|| eprintln!("{}", game_line(&record)));
        }
        if let Some(engine) = self.collected.faults.see(&record) {
            let collected = &mut self.collected;
            let faults = &collected.faults;
            collected
                .stopped
                .get_or_insert_with(|| faults.failure(engine, &self.plan.settings));
            self.shared.stop.store(true, Ordering::Release);
        }
        self.collected.records.push(record);
        self.finished_now += 1;
        self.bar.inc(1);
        if decided(self.plan, &self.collected.records) {
            self.shared.stop.store(true, Ordering::Release);
        }
    }
}

/// The summary of a match that played its games (or stopped): the report and the chart
/// written into the result folder.
fn summarize(
    plan: &MatchPlan,
    settings: &MatchSettings,
    mut records: Vec<GameRecord>,
    planned: usize,
) -> Result<MatchSummary, String> {
    let dir = &plan.out_dir;
    let unfinished = records.len() < planned;
    let stopped_by_sprt = decided(plan, &records) && unfinished;
    let report = stats::report(settings, &records, plan.sprt.as_ref());
    records.sort_by_key(|r| r.number);
    results::write_atomically(&dir.join("report.txt"), report.as_bytes())?;
    results::write_atomically(
        &dir.join("score.svg"),
        chart::score_svg(&plan.settings, &records).as_bytes(),
    )?;
    Ok(MatchSummary {
        records,
        report,
        stopped_by_sprt,
        interrupted: plan.interrupt.is_stopped() && unfinished && !stopped_by_sprt,
        stopped_by_faults: None,
        planned,
    })
}

/// Checks that a folder path can be used for results.
pub fn check_out_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!("{} exists and is not a folder", dir.display()));
    }
    Ok(())
}
