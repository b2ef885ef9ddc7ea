//! The match runner: plays a list of games between two players (GTP engines run as
//! subprocesses, or hane in-process), with the [`referee`] owning every game, on `--jobs`
//! worker threads; writes one SGF and one JSON line per finished game into a result folder,
//! resumes an interrupted match from that folder, plays only a shard of the game list when
//! asked, stops early on an SPRT verdict, and reports (text and an SVG chart). The tuner
//! ([`tune`], with the algorithm in [`spsa`]) plays its games as matches of this runner.

pub mod chart;
pub mod engine_process;
pub mod hane_player;
pub mod player;
pub mod progress;
pub mod referee;
pub mod results;
pub mod spsa;
pub mod stats;
pub mod tune;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam::channel::{RecvTimeoutError, unbounded};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::board::{Color, GameState, Rules};
use crate::sgf::{GameInfo, SgfGame, parse_collection, write_game};
use engine_process::EngineProcess;
use hane_player::{HanePlayer, HaneSettings};
use player::{DeadStones, Player, TimeControl};
use progress::{LiveGame, LiveGames, Status, status_line};
use referee::{GameEnd, GameOutcome, GameProgress, RefereeSettings, play_game};
use results::{EndKind, GameRecord, MatchSettings, ResultsWriter};
use stats::Sprt;

use crate::search::SearchControl;

/// How one side of a match is played.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineSpec {
    /// A GTP engine's command line.
    Command(String),
    /// hane in-process with these settings (boxed: they are large).
    Hane(Box<HaneSettings>),
}

impl EngineSpec {
    /// `hane` or `hane:key=value,...` is hane in-process; anything else is a command line.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let trimmed = text.trim();
        if trimmed == "hane" {
            return Ok(EngineSpec::Hane(Box::default()));
        }
        if let Some(settings) = trimmed.strip_prefix("hane:") {
            return HaneSettings::parse(settings).map(|s| EngineSpec::Hane(Box::new(s)));
        }
        engine_process::split_command_line(trimmed)?;
        Ok(EngineSpec::Command(trimmed.to_string()))
    }

    /// The name to use when none is given: the engine's own (`name` + `version`) for a
    /// command, the settings for hane.
    pub fn default_name(&self, command_timeout: Duration) -> Result<String, String> {
        match self {
            EngineSpec::Hane(settings) => Ok(settings.describe()),
            EngineSpec::Command(line) => {
                let mut engine = EngineProcess::start(line, None, command_timeout)
                    .map_err(|f| format!("engine {line:?} does not start: {f}"))?;
                let name = engine.name().to_string();
                engine.shut_down();
                Ok(name)
            }
        }
    }

    fn make(
        &self,
        name: &str,
        command_timeout: Duration,
        interrupt: &Arc<SearchControl>,
    ) -> Box<dyn Player> {
        let interrupt = Arc::clone(interrupt);
        match self {
            EngineSpec::Hane(settings) => {
                Box::new(HanePlayer::new(name.to_string(), (**settings).clone()).watch(interrupt))
            }
            EngineSpec::Command(line) => {
                Box::new(EngineProcess::idle(line, name, command_timeout).watch(interrupt))
            }
        }
    }
}

/// One opening: the start of a game record.
#[derive(Clone, Debug)]
pub struct Opening {
    /// `file#n` (n counts games in the file from 1).
    pub label: String,
    pub game: SgfGame,
}

/// Reads openings from SGF files and folders (every `.sgf` inside, sorted by name), checking
/// that each replays legally on a board of `size`.
pub fn load_openings(paths: &[PathBuf], size: usize, rules: Rules) -> Result<Vec<Opening>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("cannot list {}: {e}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(format!("{} holds no .sgf files", path.display()));
            }
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    let mut openings = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read opening {}: {e}", file.display()))?;
        let games =
            parse_collection(&text).map_err(|e| format!("opening {}: {e}", file.display()))?;
        for (k, game) in games.into_iter().enumerate() {
            let label = format!("{}#{}", file.display(), k + 1);
            let game = game.map_err(|e| format!("opening {label}: {e}"))?;
            if game.size != size {
                return Err(format!(
                    "opening {label} is for {0}x{0}, the match is {size}x{size}",
                    game.size
                ));
            }
            game.replay(rules, None)
                .map_err(|e| format!("opening {label}: {e}"))?;
            openings.push(Opening { label, game });
        }
    }
    Ok(openings)
}

/// One game of the match's game list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's place in the list, from 0 (its seed, colours and opening follow from it).
    pub index: usize,
    pub seed: u64,
    /// Whether engine 1 plays black.
    pub engine1_black: bool,
    /// Index into the openings.
    pub opening: Option<usize>,
}

/// SplitMix64: a fixed, well-mixed seed per game from the match seed.
fn game_seed(match_seed: u64, index: usize) -> u64 {
    let mut z = match_seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(index as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether shard `K/N` holds the game of list index `index`: with `pairs`, the shard holds
/// pairs K-1, K-1+N, ... of the colour-swapped pairs of games (list indices 2p and 2p+1), so
/// that it plays each engine as often with black as with white; without (folders made
/// before pairs), the games with index % N == K-1.
pub fn in_shard(index: usize, shard: Option<(usize, usize)>, pairs: bool) -> bool {
    let unit = if pairs { index / 2 } else { index };
    shard.is_none_or(|(k, n)| unit % n == k - 1)
}

/// The match's game list, or a shard's part of it (see [`in_shard`]). Colours alternate;
/// with openings, each opening is played twice in a row with colours swapped, and the
/// openings repeat in order.
pub fn game_list(
    games: usize,
    seed: u64,
    openings: usize,
    shard: Option<(usize, usize)>,
    pairs: bool,
) -> Vec<GameSpec> {
    (0..games)
        .filter(|&i| in_shard(i, shard, pairs))
        .map(|index| GameSpec {
            index,
            seed: game_seed(seed, index),
            engine1_black: index % 2 == 0,
            opening: (openings > 0).then(|| (index / 2) % openings),
        })
        .collect()
}

impl GameSpec {
    /// The game's number, from 1: in `results.jsonl`, file names, SGF comments and on
    /// screen.
    pub fn number(&self) -> usize {
        self.index + 1
    }
}

/// Parses `K/N` with 1 <= K <= N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard wants K/N with 1 <= K <= N, got {text:?}");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

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
    /// The games of the list (of the shard).
    pub planned: usize,
}

/// The start position of a game: handicap or opening, with the match's komi.
pub fn start_position(plan: &MatchPlan, spec: &GameSpec) -> Result<GameState, String> {
    let mut rules = plan.rules;
    rules.komi = plan.settings.komi;
    let mut state = match spec.opening {
        Some(k) => {
            let opening = &plan.openings[k];
            let until = plan.settings.opening_moves.map(|n| n + 1);
            opening
                .game
                .replay(rules, until)
                .map_err(|e| format!("opening {}: {e}", opening.label))?
        }
        None => {
            let mut state = GameState::new(plan.settings.size, rules)
                .ok_or_else(|| format!("unsupported board size {}", plan.settings.size))?;
            if plan.settings.handicap > 0 {
                state
                    .place_fixed_handicap(plan.settings.handicap)
                    .map_err(|e| format!("handicap {}: {e}", plan.settings.handicap))?;
            }
            state
        }
    };
    state.set_komi(plan.settings.komi);
    Ok(state)
}

/// Opens (or resumes) the result folder and plays the games still missing.
pub fn run_match(plan: &MatchPlan) -> Result<MatchSummary, String> {
    let dir = &plan.out_dir;
    std::fs::create_dir_all(dir.join(results::GAMES_DIR))
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Held until the match ends (however it ends but by a kill, which leaves a lock that
    // the next runner takes over).
    let _lock = results::FolderLock::acquire(dir)?;
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
    let mut records = results::read_records(dir)?;
    let list = game_list(
        settings.games,
        settings.seed,
        plan.openings.len(),
        settings.shard,
        settings.shard_pairs,
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
    let mut writer = ResultsWriter::open(dir)?;
    if plan.log_games {
        eprintln!(
            "hane: engine 1 is {}, engine 2 is {}; {} games to play in {}",
            plan.settings.names[0],
            plan.settings.names[1],
            pending.len(),
            dir.display()
        );
    }
    let target = if plan.progress {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(list.len() as u64), target);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:12}] {pos}/{len} games | {wide_msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_position((list.len() - pending.len()) as u64);
    bar.enable_steady_tick(Duration::from_secs(1));
    // Records stay in the order they were recorded until the report is written: an SPRT
    // decides at the first bound crossed along that order.
    let decided = |records: &[GameRecord]| {
        plan.sprt
            .as_ref()
            .is_some_and(|sprt| sprt.decision(records).is_some())
    };
    let stop = AtomicBool::new(decided(&records));
    let next = AtomicUsize::new(0);
    let (sender, receiver) = unbounded::<Result<GameRecord, String>>();
    let mut failure = None;
    let mut start_up = StartUpWatch::new(pending.len());
    let workers = plan.jobs.max(1).min(pending.len().max(1));
    let live = LiveGames::new(workers);
    let started = Instant::now();
    let mut finished_now = 0;
    std::thread::scope(|scope| {
        for slot in 0..workers {
            let sender = sender.clone();
            let (stop, next, pending, live) = (&stop, &next, &pending, &live);
            scope.spawn(move || {
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
                    if stop.load(Ordering::Acquire) || plan.interrupt.is_stopped() {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::AcqRel);
                    let Some(spec) = pending.get(k) else { break };
                    let number = spec.number();
                    let mut show = |progress: &GameProgress| {
                        live.set(
                            slot,
                            Some(LiveGame {
                                number,
                                progress: *progress,
                            }),
                        );
                    };
                    show(&GameProgress::default());
                    let record = play_one(plan, spec, &mut players, &mut show);
                    live.set(slot, None);
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
            });
        }
        drop(sender);
        // Records a finished game.
        let mut keep = |record: GameRecord,
                        records: &mut Vec<GameRecord>,
                        finished_now: &mut usize,
                        failure: &mut Option<String>| {
            if let Err(e) = writer.append(&record) {
                failure.get_or_insert(e);
                stop.store(true, Ordering::Release);
                return;
            }
            if plan.log_games {
                bar.suspend(|| eprintln!("{}", game_line(&record)));
            }
            records.push(record);
            *finished_now += 1;
            bar.inc(1);
            if decided(records) {
                stop.store(true, Ordering::Release);
            }
        };
        loop {
            match receiver.recv_timeout(Duration::from_millis(250)) {
                Ok(Ok(record)) => {
                    for record in start_up.sift(record) {
                        keep(record, &mut records, &mut finished_now, &mut failure);
                    }
                    if let Some(engine) = start_up.failed_engine() {
                        failure.get_or_insert_with(|| start_up.failure(engine, &plan.settings));
                        stop.store(true, Ordering::Release);
                    }
                }
                Ok(Err(e)) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Release);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if plan.interrupt.is_stopped() {
                stop.store(true, Ordering::Release);
            }
            bar.set_message(status_line(&Status {
                name1: &settings.names[0],
                records: &records,
                finished_now,
                elapsed: started.elapsed(),
                remaining: list.len().saturating_sub(records.len()),
                live: &live.snapshot(),
            }));
        }
        // Games held back as possible start-up failures that were not enough to stop the
        // match are ordinary forfeits.
        for record in start_up.release() {
            keep(record, &mut records, &mut finished_now, &mut failure);
        }
    });
    bar.finish_and_clear();
    // The games of an engine that failed at start-up are not recorded (only their SGF
    // files were written): with the engine fixed, rerunning the command plays them.
    for record in start_up.discarded() {
        let _ = std::fs::remove_file(dir.join(&record.sgf));
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let unfinished = records.len() < list.len();
    let stopped_by_sprt = decided(&records) && unfinished;
    let report = stats::report(&settings, &records, plan.sprt.as_ref());
    records.sort_by_key(|r| r.number);
    results::write_atomically(&dir.join("report.txt"), report.as_bytes())?;
    results::write_atomically(
        &dir.join("winrate.svg"),
        chart::winrate_svg(&plan.settings, &records).as_bytes(),
    )?;
    Ok(MatchSummary {
        records,
        report,
        stopped_by_sprt,
        interrupted: plan.interrupt.is_stopped() && unfinished && !stopped_by_sprt,
        planned: list.len(),
    })
}

/// Consecutive games that an engine lost by a fault before its first move (it would not
/// start, refused the set-up, crashed or hung at once) after which the match stops, rather
/// than turn the rest of its game list into forfeits.
const START_UP_FAILURES: usize = 3;

/// Watches for an engine that cannot play at all: its games that end by its fault before
/// it made a move are held back; a game in which it moves releases them (they were
/// forfeits of a flaky engine), and a run of [`START_UP_FAILURES`] of them (or every game
/// left, when fewer remain) stops the match without recording them.
struct StartUpWatch {
    /// Held games, per engine.
    held: [Vec<GameRecord>; 2],
    /// How many in a row stop the match.
    limit: usize,
    /// The engine (0 or 1) whose run reached the limit.
    failed: Option<usize>,
}

impl StartUpWatch {
    fn new(pending: usize) -> StartUpWatch {
        StartUpWatch {
            held: Default::default(),
            limit: START_UP_FAILURES.min(pending).max(1),
            failed: None,
        }
    }

    /// The colour index (0 black, 1 white) engine `e` (0 or 1) had in `record`.
    fn colour(record: &GameRecord, e: usize) -> usize {
        usize::from(record.black_engine as usize != e + 1)
    }

    /// Takes a finished game; returns the games to record now.
    fn sift(&mut self, record: GameRecord) -> Vec<GameRecord> {
        for e in 0..2 {
            if self.failed_at_start(&record, e) {
                self.held[e].push(record);
                if self.failed.is_none() && self.held[e].len() >= self.limit {
                    self.failed = Some(e);
                }
                return Vec::new();
            }
        }
        let mut out = Vec::new();
        for e in 0..2 {
            if self.failed != Some(e) && record.generated_moves[Self::colour(&record, e)] > 0 {
                out.append(&mut self.held[e]);
            }
        }
        out.push(record);
        out
    }

    /// Whether engine `e` lost `record` by a fault before it made a move.
    fn failed_at_start(&self, record: &GameRecord, e: usize) -> bool {
        record.end.is_fault()
            && record.winner_engine.is_some_and(|w| w as usize != e + 1)
            && record.generated_moves[Self::colour(record, e)] == 0
    }

    fn failed_engine(&self) -> Option<usize> {
        self.failed
    }

    /// Why the match stopped, for engine `e`.
    fn failure(&self, e: usize, settings: &MatchSettings) -> String {
        let last = self.held[e]
            .last()
            .and_then(|r| r.fault.clone())
            .unwrap_or_default();
        format!(
            "engine {} ({}) failed {} games in a row before its first move (the last: {last}); \
             the match stopped without recording them: check the engine, then rerun the \
             command to resume",
            e + 1,
            settings.names[e],
            self.held[e].len()
        )
    }

    /// The held games to record, at the end of a match that did not stop for them.
    fn release(&mut self) -> Vec<GameRecord> {
        let mut out = Vec::new();
        for e in 0..2 {
            if self.failed != Some(e) {
                out.append(&mut self.held[e]);
            }
        }
        out
    }

    /// The games left out of the record.
    fn discarded(&self) -> &[GameRecord] {
        self.failed.map_or(&[], |e| &self.held[e])
    }
}

fn game_line(r: &GameRecord) -> String {
    let fault = r
        .fault
        .as_deref()
        .map(|f| format!(" [{f}]"))
        .unwrap_or_default();
    format!(
        "game {}: {} (B) vs {} (W): {} by {}, {} moves{fault}",
        r.number,
        r.black,
        r.white,
        r.result,
        r.end.name(),
        r.moves,
    )
}

/// Plays one game with the worker's players, telling `progress` where it stands, and writes
/// its SGF; returns its record, or `None` for a game abandoned because the match was
/// interrupted.
fn play_one(
    plan: &MatchPlan,
    spec: &GameSpec,
    players: &mut [Box<dyn Player>],
    progress: &mut dyn FnMut(&GameProgress),
) -> Result<Option<GameRecord>, String> {
    let start = start_position(plan, spec)?;
    let (black_engine, white_engine) = if spec.engine1_black { (0, 1) } else { (1, 0) };
    let referee = RefereeSettings {
        time_control: plan.settings.time_control,
        margin: Duration::from_secs_f64(plan.settings.margin_seconds),
        move_cap: plan.settings.move_cap,
        dead_playouts: plan.dead_playouts,
        interrupt: Arc::clone(&plan.interrupt),
    };
    let outcome: GameOutcome = {
        let (first, second) = players.split_at_mut(1);
        let (black, white) = if spec.engine1_black {
            (&mut first[0], &mut second[0])
        } else {
            (&mut second[0], &mut first[0])
        };
        play_game(
            start,
            black.as_mut(),
            white.as_mut(),
            &referee,
            spec.seed,
            progress,
        )
    };
    // A fault once the match is interrupted may be a wait given up: the game is abandoned
    // with the others in progress.
    if plan.interrupt.is_stopped() && matches!(outcome.end, GameEnd::Fault(..)) {
        return Ok(None);
    }
    for (colour, engine) in [(Color::Black, black_engine), (Color::White, white_engine)] {
        if outcome.faulted[colour.index()] {
            // A failed restart is retried when the next game needs the engine.
            let _ = players[engine].restart();
        }
    }
    let names = &plan.settings.names;
    let date = results::today();
    let engine_number = |colour: Color| -> u8 {
        if (colour == Color::Black) == spec.engine1_black {
            1
        } else {
            2
        }
    };
    let (end, fault) = match &outcome.end {
        GameEnd::TwoPasses => (EndKind::TwoPasses, None),
        GameEnd::MoveCap => (EndKind::MoveCap, None),
        GameEnd::Resignation(_) => (EndKind::Resignation, None),
        GameEnd::Interrupted => return Ok(None),
        GameEnd::Fault(colour, f) => (
            EndKind::from(f.kind),
            Some(format!(
                "{} ({}): {f}",
                names[engine_number(*colour) as usize - 1],
                colour
            )),
        ),
    };
    let geometry = outcome.state.geometry();
    let listed = |answer: &DeadStones| match answer {
        DeadStones::Listed(points) => {
            Some(points.iter().map(|&p| geometry.format_point(p)).collect())
        }
        DeadStones::Unknown(_) => None,
    };
    let settlement = outcome.settlement.as_ref();
    let opening = spec.opening.map(|k| plan.openings[k].label.clone());
    let sgf = results::sgf_path(spec.number());
    let mut comment = format!(
        "Game {} of a hane match, seed {}. Ended by {}.",
        spec.number(),
        spec.seed,
        end.name()
    );
    if let Some(f) = &fault {
        comment.push_str(&format!(" Fault: {f}."));
    }
    if let Some(o) = &opening {
        comment.push_str(&format!(" Opening: {o}."));
    }
    if let Some(s) = settlement {
        let removed: Vec<String> = s.dead.iter().map(|&p| geometry.format_point(p)).collect();
        comment.push_str(&format!(
            " Dead stones {} ({}): {}.",
            if s.agreed {
                "agreed"
            } else {
                "disputed, settled by playouts"
            },
            removed.len(),
            if removed.is_empty() {
                "none".to_string()
            } else {
                removed.join(" ")
            }
        ));
    }
    let info = GameInfo {
        black_player: Some(names[black_engine].clone()),
        white_player: Some(names[white_engine].clone()),
        result: Some(outcome.result.clone()),
        date: Some(date.clone()),
        game_comment: Some(comment),
        move_comments: outcome.comments.clone(),
    };
    let text = write_game(&outcome.state, &info);
    results::write_atomically(&plan.out_dir.join(&sgf), text.as_bytes())?;
    Ok(Some(GameRecord {
        number: spec.number(),
        seed: spec.seed,
        black_engine: black_engine as u8 + 1,
        black: names[black_engine].clone(),
        white: names[white_engine].clone(),
        opening,
        result: outcome.result.clone(),
        winner_engine: outcome.winner.map(engine_number),
        end,
        fault,
        score: outcome.score,
        moves: outcome.state.moves().len(),
        think_seconds: outcome.think_seconds,
        generated_moves: outcome.generated_moves,
        dead_black_says: settlement.and_then(|s| listed(&s.answers[0])),
        dead_white_says: settlement.and_then(|s| listed(&s.answers[1])),
        dead_agreed: settlement.map(|s| s.agreed),
        dead_removed: settlement
            .map(|s| s.dead.iter().map(|&p| geometry.format_point(p)).collect()),
        sgf: sgf.to_string_lossy().into_owned(),
        date,
    }))
}

/// Merges the result folders of shards (or of whole matches) into one list of records and
/// their common settings; the folders must hold the same match.
pub fn merge_folders(dirs: &[PathBuf]) -> Result<(MatchSettings, Vec<GameRecord>), String> {
    let mut settings: Option<MatchSettings> = None;
    let mut merged: std::collections::BTreeMap<usize, GameRecord> = Default::default();
    for dir in dirs {
        let here = results::read_settings(dir)?
            .ok_or_else(|| format!("{} holds no {}", dir.display(), results::SETTINGS_FILE))?;
        match &mut settings {
            None => settings = Some(here.clone()),
            Some(first) => {
                let differences = first.differences(&here);
                if !differences.is_empty() {
                    return Err(format!(
                        "{} holds a different match (it differs in: {})",
                        dir.display(),
                        differences.join(", ")
                    ));
                }
                first.games = first.games.max(here.games);
            }
        }
        for record in results::read_records(dir)? {
            if let Some(previous) = merged.get(&record.number) {
                if previous.result != record.result || previous.moves != record.moves {
                    eprintln!(
                        "hane: game {} appears twice with different results; keeping the first",
                        record.number
                    );
                }
                continue;
            }
            merged.insert(record.number, record);
        }
    }
    let mut settings = settings.ok_or("no result folders given")?;
    settings.shard = None;
    Ok((settings, merged.into_values().collect()))
}

/// Checks that a folder path can be used for results.
pub fn check_out_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!("{} exists and is not a folder", dir.display()));
    }
    Ok(())
}

/// The longest time any clock option may give, in seconds (about 115 days): what a
/// `Duration` and an `Instant` hold with room to spare, and more than any game needs.
pub const MAX_SECONDS: f64 = 1e7;

/// `v`, a time option `what` in seconds, when it is a number from 0 to [`MAX_SECONDS`].
pub fn check_seconds(v: f64, what: &str) -> Result<f64, String> {
    if v.is_finite() && (0.0..=MAX_SECONDS).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{what} must be a number of seconds from 0 to {MAX_SECONDS}"
        ))
    }
}

/// Time control from the command-line options.
pub fn time_control(
    main: Option<f64>,
    byo_yomi: f64,
    stones: u32,
    increment: f64,
    per_move: Option<f64>,
    max_move: f64,
) -> Result<TimeControl, String> {
    if increment != 0.0 && main.is_none() {
        return Err("--increment needs --time (the main time)".to_string());
    }
    if byo_yomi != 0.0 && main.is_none() {
        return Err("--byo-yomi needs --time (the main time; --time 0 for none)".to_string());
    }
    check_seconds(max_move, "--max-move-time")?;
    match (main, per_move) {
        (Some(_), Some(_)) => Err("give either --time or --move-time, not both".to_string()),
        (None, Some(s)) => {
            if check_seconds(s, "--move-time")? <= 0.0 {
                return Err("--move-time must be positive".to_string());
            }
            Ok(TimeControl::PerMove { seconds: s })
        }
        (Some(m), None) if increment != 0.0 => {
            let main = check_seconds(m, "--time")?;
            let increment = check_seconds(increment, "--increment")?;
            if byo_yomi != 0.0 {
                return Err("give either --byo-yomi or --increment, not both".to_string());
            }
            if main <= 0.0 {
                // The first move would have no time: the increment comes after it.
                return Err("--increment needs a positive --time".to_string());
            }
            Ok(TimeControl::Fischer { main, increment })
        }
        (Some(m), None) => {
            let main = check_seconds(m, "--time")?;
            let byo_yomi = check_seconds(byo_yomi, "--byo-yomi")?;
            if main <= 0.0 && byo_yomi <= 0.0 {
                return Err("--time 0 needs --byo-yomi".to_string());
            }
            if byo_yomi > 0.0 && stones == 0 {
                return Err("--byo-yomi-stones must be at least 1".to_string());
            }
            Ok(TimeControl::Clock {
                main,
                byo_yomi,
                stones,
            })
        }
        (None, None) => {
            if !(max_move > 0.0 && max_move.is_finite()) {
                return Err("--max-move-time must be positive".to_string());
            }
            Ok(TimeControl::None { max_move })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_from_the_options() {
        let fischer = time_control(Some(60.0), 0.0, 1, 2.5, None, 30.0);
        assert_eq!(
            fischer,
            Ok(TimeControl::Fischer {
                main: 60.0,
                increment: 2.5
            })
        );
        assert_eq!(
            time_control(Some(60.0), 5.0, 2, 0.0, None, 30.0),
            Ok(TimeControl::Clock {
                main: 60.0,
                byo_yomi: 5.0,
                stones: 2
            })
        );
        assert_eq!(
            time_control(None, 0.0, 1, 0.0, Some(0.5), 30.0),
            Ok(TimeControl::PerMove { seconds: 0.5 })
        );
        for bad in [
            time_control(None, 0.0, 1, 2.0, None, 30.0),
            time_control(None, 0.0, 1, 2.0, Some(1.0), 30.0),
            time_control(Some(60.0), 5.0, 1, 2.0, None, 30.0),
            time_control(Some(60.0), 0.0, 1, -1.0, None, 30.0),
            time_control(Some(60.0), 0.0, 1, f64::NAN, None, 30.0),
            // Fischer with no main time: the first move would have none.
            time_control(Some(0.0), 0.0, 1, 2.0, None, 30.0),
            // Byo-yomi without a main time given, or beside a time per move.
            time_control(None, 30.0, 1, 0.0, None, 30.0),
            time_control(None, 30.0, 1, 0.0, Some(2.0), 30.0),
            // Beyond what a clock may hold.
            time_control(Some(1e300), 0.0, 1, 0.0, None, 30.0),
            time_control(None, 0.0, 1, 0.0, Some(1e19), 30.0),
            time_control(None, 0.0, 1, 0.0, None, 1e19),
            time_control(Some(60.0), 0.0, 1, 1e12, None, 30.0),
        ] {
            assert!(bad.is_err(), "{bad:?}");
        }
    }

    #[test]
    fn game_list_alternates_colours_and_pairs_openings() {
        let list = game_list(8, 7, 3, None, true);
        let colours: Vec<bool> = list.iter().map(|g| g.engine1_black).collect();
        assert_eq!(
            colours,
            [true, false, true, false, true, false, true, false]
        );
        let openings: Vec<Option<usize>> = list.iter().map(|g| g.opening).collect();
        assert_eq!(
            openings,
            [
                Some(0),
                Some(0),
                Some(1),
                Some(1),
                Some(2),
                Some(2),
                Some(0),
                Some(0)
            ]
        );
        let first = game_list(8, 7, 3, Some((1, 3)), true);
        let second = game_list(8, 7, 3, Some((2, 3)), true);
        let third = game_list(8, 7, 3, Some((3, 3)), true);
        let mut union: Vec<GameSpec> = [first, second, third].concat();
        union.sort_by_key(|g| g.index);
        assert_eq!(union, list);
        assert_ne!(list[0].seed, list[1].seed);
    }

    /// A game of engine 1 (black in even games) against engine 2: `mover` is the engine
    /// that made moves (0 for none); `faulty` lost by a fault.
    fn game(index: usize, mover: u8, faulty: Option<u8>) -> GameRecord {
        let black_engine = if index.is_multiple_of(2) { 1 } else { 2 };
        let mut generated_moves = [0, 0];
        if mover != 0 {
            generated_moves[usize::from(mover != black_engine)] = 5;
        }
        GameRecord {
            number: index + 1,
            seed: 1,
            black_engine,
            black: "b".to_string(),
            white: "w".to_string(),
            opening: None,
            result: "B+F".to_string(),
            winner_engine: Some(faulty.map_or(1, |f| 3 - f)),
            end: if faulty.is_some() {
                EndKind::Crash
            } else {
                EndKind::Resignation
            },
            fault: faulty.map(|f| format!("engine {f} broke")),
            score: None,
            moves: 0,
            think_seconds: [0.0; 2],
            generated_moves,
            dead_black_says: None,
            dead_white_says: None,
            dead_agreed: None,
            dead_removed: None,
            sgf: String::new(),
            date: String::new(),
        }
    }

    #[test]
    fn start_up_failures_stop_the_match_or_count_as_forfeits() {
        let games =
            |records: Vec<GameRecord>| records.iter().map(|r| r.number - 1).collect::<Vec<_>>();
        // A flaky engine 2: two games lost before its first move are held back, and
        // recorded as forfeits once it plays a move.
        let mut watch = StartUpWatch::new(10);
        assert!(games(watch.sift(game(0, 0, Some(2)))).is_empty());
        assert!(games(watch.sift(game(1, 1, Some(2)))).is_empty());
        // Engine 1 moving says nothing about engine 2.
        assert_eq!(games(watch.sift(game(2, 1, None))), [2]);
        assert_eq!(games(watch.sift(game(3, 2, None))), [0, 1, 3]);
        // A game lost by a fault after the engine moved is an ordinary forfeit.
        assert_eq!(games(watch.sift(game(4, 2, Some(2)))), [4]);
        assert_eq!(watch.failed_engine(), None);
        // Three in a row stop the match, and are not recorded.
        for k in 5..8 {
            assert!(watch.sift(game(k, 0, Some(2))).is_empty());
        }
        assert_eq!(watch.failed_engine(), Some(1));
        assert_eq!(watch.discarded().len(), 3);
        assert!(watch.release().is_empty());
        // With fewer games left than the limit, all of them failing stops the match.
        let mut watch = StartUpWatch::new(2);
        assert!(watch.sift(game(0, 0, Some(1))).is_empty());
        assert_eq!(watch.failed_engine(), None);
        assert!(watch.sift(game(1, 2, Some(1))).is_empty());
        assert_eq!(watch.failed_engine(), Some(0));
        // Without enough failures, the held games are forfeits at the end.
        let mut watch = StartUpWatch::new(5);
        assert!(watch.sift(game(0, 0, Some(1))).is_empty());
        assert_eq!(games(watch.release()), [0]);
    }

    #[test]
    fn shards_hold_whole_colour_swapped_pairs() {
        // Games 2k and 2k+1 are one opening (or none) with colours swapped: a shard holds
        // both or neither, so that every shard plays each engine as often with black as
        // with white, and the shards together are the whole list.
        for (games, shards) in [(20, 2), (20, 3), (9, 2), (7, 4), (6, 8)] {
            let whole = game_list(games, 3, 2, None, true);
            let mut union = Vec::new();
            for k in 1..=shards {
                let part = game_list(games, 3, 2, Some((k, shards)), true);
                for spec in &part {
                    let twin = spec.index ^ 1;
                    assert!(
                        twin >= games || part.iter().any(|s| s.index == twin),
                        "{games} games, shard {k}/{shards}: game {} without {twin}",
                        spec.index
                    );
                }
                let black = part.iter().filter(|s| s.engine1_black).count();
                let white = part.len() - black;
                assert!(
                    black.abs_diff(white) <= 1,
                    "{games}, {k}/{shards}: {part:?}"
                );
                union.extend(part);
            }
            union.sort_by_key(|g| g.index);
            assert_eq!(union, whole);
        }
        // A folder made before shards took pairs keeps its split when it resumes.
        let old: Vec<usize> = game_list(6, 3, 0, Some((1, 2)), false)
            .iter()
            .map(|g| g.index)
            .collect();
        assert_eq!(old, [0, 2, 4]);
        let json = r#"{"engines":["a","b"],"names":["a","b"],"size":9,"komi":7.5,
            "rules":"cgos","handicap":0,"openings":[],"opening_moves":null,
            "time_control":{"kind":"per-move","seconds":1.0},"margin_seconds":1.0,
            "move_cap":243,"seed":1,"games":6,"shard":[1,2]}"#;
        let settings: MatchSettings = serde_json::from_str(json).unwrap();
        assert!(!settings.shard_pairs);
    }

    #[test]
    fn shard_and_engine_specs_parse() {
        assert_eq!(parse_shard("2/5"), Ok((2, 5)));
        assert!(parse_shard("0/5").is_err());
        assert!(parse_shard("6/5").is_err());
        assert!(parse_shard("x").is_err());
        assert!(matches!(EngineSpec::parse("hane"), Ok(EngineSpec::Hane(_))));
        assert!(matches!(
            EngineSpec::parse("gnugo --mode gtp"),
            Ok(EngineSpec::Command(_))
        ));
        assert!(EngineSpec::parse("hane:bogus=1").is_err());
        assert!(EngineSpec::parse("gnugo 'unclosed").is_err());
    }
}
