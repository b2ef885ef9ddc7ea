//! `hane bench`: speed figures as `key=value` lines that scripts can read.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::settings_args::{SearchScope, SettingsArgs};
use crate::board::{Board, Cell, Color, GameState, Move, Rules};
use crate::play::{load_patterns, search_config};
use crate::playout::{
    PatternPolicy, play_random_moves, playout_rng, run_light_playouts, run_pattern_playouts,
};
use crate::search::priors::Prior;
use crate::search::reading::{ReadingShare, RootOwl};
use crate::search::{SearchControl, SearchLimits, Searcher};
use crate::settings::{Auto, Scope, Settings};
use crate::tactics::liberties::liberties_capped;
use crate::tactics::reader::Reader;

/// `hane bench`: its own flags for what to measure, and the engine's search and playout
/// settings (the default engine unless told otherwise).
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Playouts per case (default: 200000 on 9x9, 40000 on 19x19; the search case runs
    /// for --seconds unless this is given).
    #[arg(long)]
    playouts: Option<u64>,
    /// Thread counts to measure, comma separated; `all` means every core.
    #[arg(long, default_value = "1,all", value_delimiter = ',')]
    threads: Vec<String>,
    /// Board sizes to measure, comma separated.
    #[arg(long, default_value = "9,19", value_delimiter = ',')]
    size: Vec<usize>,
    /// Komi for the reported win rate.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    komi: f32,
    /// Seed of the playout generators.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Cases to run, comma separated (`light`: light playouts, `pattern`: the pattern
    /// playouts of the settings, `search`: the engine's search with the settings, `tactics`:
    /// the tactical reader's `attack` and `defend` on the chains of at most four liberties
    /// of 200 seeded middle-game positions, `owl`: the root owl along the games of
    /// `--records`, its verdicts kept across moves and read afresh at every move).
    #[arg(long, default_value = "light", value_delimiter = ',')]
    case: Vec<String>,
    /// Seconds per search case (each position and thread count).
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Middle-game positions the search case searches besides the empty board (seeded
    /// games, seeds `--seed`, `--seed`+1, ...).
    #[arg(long, default_value_t = 1)]
    middle: u64,
    /// Game records (an SGF collection) the `owl` case replays.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// Games of `--records` the `owl` case replays.
    #[arg(long, default_value_t = 5)]
    games: usize,
    #[command(flatten)]
    settings: SettingsArgs<SearchScope>,
}

/// The settings that differ from the default engine's, for a case line.
fn settings_field(settings: &Settings) -> String {
    let changed = settings.changed(&[Scope::Search]);
    if changed.is_empty() {
        "default".into()
    } else {
        changed.join(",")
    }
}

fn thread_count(spec: &str) -> Result<usize, String> {
    if spec == "all" {
        Ok(crate::cores())
    } else {
        spec.parse::<usize>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("bad thread count {spec:?}"))
    }
}

pub fn run(args: &BenchArgs) -> ExitCode {
    for case in &args.case {
        if case == "search" {
            if let Err(e) = run_search_cases(args) {
                eprintln!("hane bench: {e}");
                return ExitCode::FAILURE;
            }
            continue;
        }
        if case == "owl" {
            if let Err(e) = run_owl_case(args) {
                eprintln!("hane bench: {e}");
                return ExitCode::FAILURE;
            }
            continue;
        }
        if case == "tactics" {
            if let Err(e) = run_tactics_cases(args) {
                eprintln!("hane bench: {e}");
                return ExitCode::FAILURE;
            }
            continue;
        }
        if case != "light" && case != "pattern" {
            eprintln!(
                "hane bench: unknown case {case:?} (known: light, pattern, search, tactics, owl)"
            );
            return ExitCode::FAILURE;
        }
        for &size in &args.size {
            let Some(start) = Board::new(size) else {
                eprintln!("hane bench: unsupported board size {size}");
                return ExitCode::FAILURE;
            };
            for spec in &args.threads {
                let threads = match thread_count(spec) {
                    Ok(n) => n,
                    Err(e) => {
                        eprintln!("hane bench: {e}");
                        return ExitCode::FAILURE;
                    }
                };
                let playouts = args
                    .playouts
                    .unwrap_or(if size <= 9 { 200_000 } else { 40_000 });
                let settings = &args.settings.settings;
                let table = match load_patterns(settings) {
                    Ok(tables) => tables.for_size(size).clone(),
                    Err(e) => {
                        eprintln!("hane bench: {e}");
                        return ExitCode::FAILURE;
                    }
                };
                if case == "pattern" {
                    table.playout_3x3_gammas();
                }
                let clock = Instant::now();
                let stats = if case == "pattern" {
                    let policy = PatternPolicy::configured(
                        &table,
                        &settings.search.playout,
                        start.geometry(),
                    );
                    run_pattern_playouts(&start, &policy, playouts, threads, args.seed)
                } else {
                    run_light_playouts(&start, playouts, threads, args.seed)
                };
                let seconds = clock.elapsed().as_secs_f64();
                let tactics = if case == "pattern" {
                    format!(" settings={}", settings_field(settings))
                } else {
                    String::new()
                };
                println!(
                    "case={case}{tactics} size={size} threads={threads} playouts={} seconds={seconds:.3} \
                     playouts_per_s={:.0} playouts_per_s_per_thread={:.0} moves_per_playout={:.2} \
                     black_winrate={:.4} komi={}",
                    stats.playouts,
                    stats.playouts as f64 / seconds,
                    stats.playouts as f64 / seconds / threads as f64,
                    stats.moves_per_playout(),
                    stats.black_winrate(args.komi),
                    args.komi
                );
            }
        }
    }
    ExitCode::SUCCESS
}

/// CPU time this process has used (all threads, user and system), from `/proc/self/stat`;
/// `None` where that file does not exist. On a machine shared with other work, playouts per
/// CPU second show a thread's own speed better than wall-clock rates.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // The kernel reports clock ticks of USER_HZ, 100 on every Linux architecture hane runs on.
    Some((utime + stime) / 100.0)
}

/// A reproducible middle-game position: the empty board after a seeded random game of
/// `moves` light-policy moves (a quarter of the area on 9x9, a fifth on 19x19).
fn middle_game(size: usize, seed: u64) -> Option<GameState> {
    let mut state = GameState::new(size, Rules::default())?;
    let moves = if size <= 9 {
        size * size / 4
    } else {
        size * size / 5
    };
    play_random_moves(&mut state, moves, &mut playout_rng(seed, 99));
    Some(state)
}

/// `case=search`: full searches of the engine the settings describe (the default engine
/// unless told otherwise) for `--seconds` from the empty board and from a middle-game
/// position, early stopping off.
fn run_search_cases(args: &BenchArgs) -> Result<(), String> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(format!("bad --seconds {}", args.seconds));
    }
    for &size in &args.size {
        let empty = GameState::new(size, Rules::default())
            .ok_or_else(|| format!("unsupported board size {size}"))?;
        let mut positions = vec![("empty".to_string(), empty)];
        for k in 0..args.middle {
            let name = if k == 0 {
                "middle".to_string()
            } else {
                format!("middle{}", k + 1)
            };
            let state = middle_game(size, args.seed + k).ok_or("cannot build the middle game")?;
            positions.push((name, state));
        }
        for (name, state) in &positions {
            for spec in &args.threads {
                let threads = thread_count(spec)?;
                let mut settings = args.settings.settings.clone();
                settings.game.threads = Auto::Value(threads);
                settings.search.early_stop = false;
                let config = search_config(
                    &settings,
                    load_patterns(&args.settings.settings)?,
                    args.seed,
                );
                let expand = config.params.expand_visits(size);
                let mut searcher = Searcher::new(config);
                let limits = SearchLimits {
                    playouts: args.playouts,
                    time: Some(std::time::Duration::from_secs_f64(args.seconds)),
                    ..SearchLimits::default()
                };
                let control = SearchControl::new();
                let color: Color = state.to_move();
                let cpu_before = process_cpu_seconds();
                let result = searcher.search(state, color, &limits, &control, &mut |_| {});
                let cpu = process_cpu_seconds()
                    .zip(cpu_before)
                    .map_or(f64::NAN, |(after, before)| after - before);
                let a = &result.analysis;
                let seconds = a.elapsed.as_secs_f64();
                let tree = searcher.check_tree()?;
                println!(
                    "case=search settings={} expand={expand} size={size} \
                     position={name} threads={threads} playouts={} \
                     seconds={seconds:.3} playouts_per_s={:.0} playouts_per_s_per_thread={:.0} \
                     cpu_seconds={cpu:.2} playouts_per_cpu_s={:.0} \
                     nodes={} tree_mib={:.1} best={} winrate={:.3} \
                     reading_expansions={} reads={} race_reads={} reading_share={:.3} \
                     owl_reads={} owl_cached={} owl_share={:.3} top1_share={:.3} top5_share={:.3}",
                    settings_field(&settings),
                    a.playouts,
                    a.playouts as f64 / seconds,
                    a.playouts as f64 / seconds / threads as f64,
                    a.playouts as f64 / cpu,
                    tree.nodes,
                    tree.bytes as f64 / (1 << 20) as f64,
                    result.best.to_gtp(state.geometry()),
                    a.winrate,
                    a.reading.expansions,
                    a.reading.reads,
                    a.reading.race_reads,
                    a.reading.nanos as f64 * 1e-9 / (seconds * threads as f64),
                    a.reading.owl_reads,
                    a.reading.owl_cached,
                    a.reading.owl_nanos as f64 * 1e-9 / seconds,
                    top_share(&a.moves, 1),
                    top_share(&a.moves, 5),
                );
            }
        }
    }
    Ok(())
}

/// The share of the root's visits that went to its `k` most visited moves (how
/// concentrated the search is).
fn top_share(moves: &[crate::search::MoveInfo], k: usize) -> f64 {
    let mut visits: Vec<u64> = moves.iter().map(|m| m.visits).collect();
    visits.sort_unstable_by(|a, b| b.cmp(a));
    let total: u64 = visits.iter().sum();
    let top: u64 = visits.iter().take(k).sum();
    top as f64 / total.max(1) as f64
}

/// Middle-game positions the `tactics` case reads, per board size.
const TACTICS_POSITIONS: u64 = 200;

/// `case=tactics`: the tactical reader's `attack` then `defend` on every chain of at most
/// four liberties in [`TACTICS_POSITIONS`] seeded middle-game positions ([`middle_game`]),
/// one reader kept across the reads: reads per second, nodes per read, the transposition
/// table's hit rate, and how many reads were exact and successful.
fn run_tactics_cases(args: &BenchArgs) -> Result<(), String> {
    for &size in &args.size {
        let mut positions = Vec::new();
        for k in 0..TACTICS_POSITIONS {
            let state = middle_game(size, args.seed.wrapping_add(k))
                .ok_or_else(|| format!("unsupported board size {size}"))?;
            let board = state.board().clone();
            let mut targets = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for p in board.geometry().points() {
                if board.cell(p).color().is_some()
                    && seen.insert(board.chain_id(p))
                    && liberties_capped(&board, p, 5) <= 4
                {
                    targets.push(p);
                }
            }
            positions.push((board, targets));
        }
        let mut reader = Reader::new();
        let (mut exact, mut captures, mut saves) = (0u64, 0u64, 0u64);
        let clock = Instant::now();
        for (board, targets) in &positions {
            for &p in targets {
                let attack = reader.attack(board, p);
                let defence = reader.defend(board, p);
                exact += u64::from(attack.exact) + u64::from(defence.exact);
                captures += u64::from(attack.verdict.succeeds());
                saves += u64::from(defence.verdict.succeeds());
            }
        }
        let seconds = clock.elapsed().as_secs_f64();
        let stats = reader.stats();
        let chains: usize = positions.iter().map(|(_, t)| t.len()).sum();
        println!(
            "case=tactics size={size} positions={TACTICS_POSITIONS} chains={chains} reads={} \
             seconds={seconds:.3} reads_per_s={:.0} nodes_per_read={:.1} tt_hit_rate={:.3} \
             exact={:.3} attack_works={captures} defend_works={saves}",
            stats.reads,
            stats.reads as f64 / seconds,
            stats.nodes as f64 / stats.reads as f64,
            stats.hits as f64 / stats.probes.max(1) as f64,
            exact as f64 / (2 * chains).max(1) as f64,
        );
    }
    Ok(())
}

/// Positions before this move are not read by the `owl` case (few groups yet).
const OWL_FROM_MOVE: usize = 20;

/// `case=owl`: the root owl of the settings (`owl` 100 when the settings have it off)
/// along the games of `--records`, from move [`OWL_FROM_MOVE`] to the end, in two ways
/// side by side at every position: one [`RootOwl`] kept through the game (its group
/// verdicts reused while their areas stand) and a new one for each position (every group
/// read afresh). Prints the reads and seconds of each, the groups answered from the kept
/// verdicts, and the positions where both give the same priors.
fn run_owl_case(args: &BenchArgs) -> Result<(), String> {
    let path = args
        .records
        .as_ref()
        .ok_or("the owl case needs --records FILE (an SGF collection)")?;
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let games = crate::sgf::parse_collection(&String::from_utf8_lossy(&text))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut settings = args.settings.settings.clone();
    if settings.search.owl <= 0.0 {
        settings.search.owl = 100.0;
    }
    let params = &settings.search;
    let (mut positions, mut same) = (0u64, 0u64);
    let (mut kept_seconds, mut fresh_seconds) = (0.0, 0.0);
    let (mut kept_share, mut fresh_share) = (ReadingShare::default(), ReadingShare::default());
    let mut played = 0;
    for game in games.into_iter().flatten() {
        if played == args.games {
            break;
        }
        let Ok(mut state) = game.replay(Rules::chinese(7.5), Some(1)) else {
            continue;
        };
        played += 1;
        let mut kept = RootOwl::configured(params).ok_or("owl off")?;
        for (k, &(color, mv)) in game.moves.iter().enumerate() {
            if k >= OWL_FROM_MOVE {
                let board = state.board();
                let to_move = state.to_move();
                let moves: Vec<Move> = board
                    .geometry()
                    .points()
                    .filter(|&p| board.cell(p) == Cell::Empty)
                    .map(Move::Play)
                    .chain([Move::Pass])
                    .collect();
                let mut kept_out = vec![Prior::NONE; moves.len()];
                let mut fresh_out = kept_out.clone();
                let clock = Instant::now();
                kept.add_priors(board, to_move, &moves, &mut kept_out);
                kept_seconds += clock.elapsed().as_secs_f64();
                let mut fresh = RootOwl::configured(params).ok_or("owl off")?;
                let clock = Instant::now();
                fresh.add_priors(board, to_move, &moves, &mut fresh_out);
                fresh_seconds += clock.elapsed().as_secs_f64();
                kept_share.add(kept.take_share());
                fresh_share.add(fresh.take_share());
                positions += 1;
                same += u64::from(kept_out == fresh_out);
            }
            if state.play(color, mv).is_err() {
                break;
            }
        }
    }
    println!(
        "case=owl records={} games={played} positions={positions} owl={} owl_nodes={} \
         kept_reads={} kept_cached_groups={} kept_seconds={kept_seconds:.3} \
         fresh_reads={} fresh_seconds={fresh_seconds:.3} same_priors={same}",
        path.display(),
        params.owl,
        params.owl_nodes,
        kept_share.owl_reads,
        kept_share.owl_cached,
        fresh_share.owl_reads,
    );
    Ok(())
}
