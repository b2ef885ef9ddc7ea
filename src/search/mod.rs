//! Move search. This file fixes the API that the GTP front end and the match runner use:
//! [`Searcher`] (owns whatever it keeps between moves), [`SearchLimits`], [`SearchControl`]
//! (a stop flag other threads may set), [`Analysis`] snapshots, and the clock model in
//! [`time`]. The implementation here is a placeholder: flat Monte-Carlo over light playouts
//! on one thread, to be replaced by the multithreaded UCT tree search.

pub mod time;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Board, Color, GameState, MAX_CELLS, Move, Point};
use crate::playout::{LightPolicy, PlayoutRng, default_move_cap, playout_rng, run_playout};

/// Settings that stay fixed for a session (from the command line).
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Worker threads.
    pub threads: usize,
    /// Seed of the playout generators; a fixed seed and one thread give reproducible searches.
    pub seed: u64,
    /// Upper bound on the tree's memory, in bytes.
    pub max_memory: usize,
    /// Resign when the winrate stays below this for several moves (0 disables resigning).
    pub resign_threshold: f32,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 0x68616e65,
            max_memory: 1 << 30,
            resign_threshold: 0.1,
        }
    }
}

/// When one search stops: the first limit reached wins; no limit means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Call the progress callback about this often.
    pub report_interval: Option<Duration>,
}

/// A stop request shared with other threads (the GTP reader sets it on `# interrupt` or when
/// a new command arrives during analysis or pondering).
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
}

impl SearchControl {
    pub fn new() -> Arc<SearchControl> {
        Arc::new(SearchControl::default())
    }

    /// Asks the running search to finish as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Clears the flag before a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Release);
    }
}

/// What the search knows about one candidate move, from the point of view of the player
/// the search is for.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: Move,
    pub visits: u64,
    /// Winrate in [0, 1].
    pub winrate: f32,
    /// Prior probability in [0, 1].
    pub prior: f32,
    /// Lower confidence bound of the winrate, in [0, 1].
    pub lcb: f32,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// A snapshot of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The player the search is for.
    pub color: Color,
    /// Playouts run so far in this search.
    pub playouts: u64,
    pub elapsed: Duration,
    /// Winrate of the best move, for `color`.
    pub winrate: f32,
    /// Candidates, best first (most visited).
    pub moves: Vec<MoveInfo>,
    /// Ownership per point in `Geometry::points()` order (bottom row first): +1 black owns
    /// it in every simulation, -1 white does.
    pub ownership: Vec<f32>,
}

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The chosen move (most visited; a pass when nothing else is legal).
    pub best: Move,
    /// Whether the searcher advises resigning (winrate below the threshold long enough).
    pub resign: bool,
    pub analysis: Analysis,
}

/// The search engine. Keeps its state between moves.
pub struct Searcher {
    config: SearchConfig,
    low_winrate_streak: u32,
}

impl Searcher {
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher {
            config,
            low_winrate_streak: 0,
        }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// Forgets everything kept from earlier moves (a new game).
    pub fn clear(&mut self) {
        self.low_winrate_streak = 0;
    }

    /// Searches for `color` to move in `state` until a limit is reached or `control` is
    /// stopped, calling `progress` every `limits.report_interval`.
    pub fn search(
        &mut self,
        state: &GameState,
        color: Color,
        limits: &SearchLimits,
        control: &SearchControl,
        progress: &mut dyn FnMut(&Analysis),
    ) -> SearchResult {
        let clock = Instant::now();
        let board = state.board();
        let candidates: Vec<Point> = state.legal_points(color);
        let cells = board.geometry().cells();
        let mut wins = vec![0u64; cells];
        let mut visits = vec![0u64; cells];
        let mut owner_sum = vec![0i64; cells];
        let mut rng: PlayoutRng = playout_rng(self.config.seed, 0);
        let mut scratch = board.clone();
        let cap = default_move_cap(board.size());
        let mut playouts = 0u64;
        let mut last_report = clock;
        let komi = state.komi() + state.rules().handicap_points(state.handicap());
        let snapshot = |playouts: u64, wins: &[u64], visits: &[u64], owner_sum: &[i64]| {
            analysis_from(
                state,
                color,
                &candidates,
                playouts,
                clock.elapsed(),
                wins,
                visits,
                owner_sum,
            )
        };
        loop {
            if control.is_stopped()
                || limits.playouts.is_some_and(|n| playouts >= n)
                || limits.time.is_some_and(|t| clock.elapsed() >= t)
            {
                break;
            }
            scratch.copy_from(board);
            let first = if candidates.is_empty() {
                None
            } else {
                Some(candidates[playouts as usize % candidates.len()])
            };
            if let Some(p) = first {
                scratch.play_unchecked(p, color);
            } else {
                scratch.pass();
            }
            let outcome = run_playout(
                &mut scratch,
                color.opponent(),
                &mut LightPolicy,
                &mut rng,
                cap,
                &mut (),
            );
            let black_wins = outcome.score as f32 - komi > 0.0;
            if let Some(p) = first {
                visits[p.index()] += 1;
                wins[p.index()] += (black_wins == (color == Color::Black)) as u64;
            }
            let owners = scratch.area_owners();
            for q in board.geometry().points() {
                owner_sum[q.index()] += match owners[q.index()] {
                    Some(Color::Black) => 1,
                    Some(Color::White) => -1,
                    None => 0,
                };
            }
            playouts += 1;
            if let Some(interval) = limits.report_interval {
                if last_report.elapsed() >= interval {
                    last_report = Instant::now();
                    progress(&snapshot(playouts, &wins, &visits, &owner_sum));
                }
            }
        }
        let analysis = snapshot(playouts, &wins, &visits, &owner_sum);
        let best = analysis.moves.first().map_or(Move::Pass, |m| m.mv);
        let threshold = self.config.resign_threshold;
        if threshold > 0.0 && analysis.winrate < threshold && !analysis.moves.is_empty() {
            self.low_winrate_streak += 1;
        } else {
            self.low_winrate_streak = 0;
        }
        SearchResult {
            best,
            resign: self.low_winrate_streak >= 3,
            analysis,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn analysis_from(
    state: &GameState,
    color: Color,
    candidates: &[Point],
    playouts: u64,
    elapsed: Duration,
    wins: &[u64],
    visits: &[u64],
    owner_sum: &[i64],
) -> Analysis {
    let mut moves: Vec<MoveInfo> = candidates
        .iter()
        .filter(|p| visits[p.index()] > 0)
        .map(|&p| {
            let n = visits[p.index()] as f32;
            let winrate = wins[p.index()] as f32 / n;
            let lcb = (winrate - 1.96 * (winrate * (1.0 - winrate) / n).sqrt()).max(0.0);
            MoveInfo {
                mv: Move::Play(p),
                visits: n as u64,
                winrate,
                prior: 1.0 / candidates.len() as f32,
                lcb,
                pv: vec![Move::Play(p)],
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.winrate
            .total_cmp(&a.winrate)
            .then(b.visits.cmp(&a.visits))
    });
    let winrate = moves.first().map_or(0.5, |m| m.winrate);
    let ownership = state
        .geometry()
        .points()
        .map(|p| owner_sum[p.index()] as f32 / playouts.max(1) as f32)
        .collect();
    Analysis {
        color,
        playouts,
        elapsed,
        winrate,
        moves,
        ownership,
    }
}

/// Estimates who owns each point after `playouts` light playouts from `state` with
/// `state.to_move()` first: +1 black always, -1 white always. Indexed like `Board` cells.
pub fn estimate_ownership(state: &GameState, playouts: u64, seed: u64) -> Vec<f32> {
    let board: &Board = state.board();
    let mut sum = vec![0i64; MAX_CELLS];
    let mut rng = playout_rng(seed, 0);
    let mut scratch = board.clone();
    let cap = default_move_cap(board.size());
    for _ in 0..playouts {
        scratch.copy_from(board);
        run_playout(
            &mut scratch,
            state.to_move(),
            &mut LightPolicy,
            &mut rng,
            cap,
            &mut (),
        );
        let owners = scratch.area_owners();
        for p in board.geometry().points() {
            sum[p.index()] += match owners[p.index()] {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
        }
    }
    sum.iter()
        .map(|&s| s as f32 / playouts.max(1) as f32)
        .collect()
}
