//! Move search: a multithreaded Monte-Carlo tree search (UCT with RAVE/AMAF and priors) over
//! one shared tree. This file holds the API that the GTP front end and the match runner use:
//! [`Searcher`] (owns the tree kept between moves), [`SearchConfig`], [`SearchLimits`],
//! [`SearchControl`] (a stop flag other threads may set), [`Analysis`] snapshots, and the
//! clock model in [`time`]. The tree lives in `tree`, the workers in `worker`, the prior hook
//! in [`priors`], the end-of-game judgement and pass rules in [`judge`].
//!
//! # How the front end calls it
//!
//! * **genmove**: compute the time with [`time::move_time`] (or [`time::move_budget`]) and call
//!   [`Searcher::search`] with `SearchLimits { time: Some(t.budget), max_time: Some(t.max),
//!   .. }` (or `playouts: Some(n)` for `--playouts`), the game's [`GameState`] and the colour
//!   to move. Play [`judge::move_to_play`] of the result (its best move with the end-of-game
//!   rules applied) unless `result.resign` and that move is not a pass. The search keeps its tree; the next
//!   call finds the moves played since (hane's and the opponent's) in the game history and
//!   reuses the matching subtree, so call it with the real game state, not a copy that lost
//!   its history.
//! * **analysis** (`lz-analyze`, `kgs-genmove_cleanup`-free analysis commands): call
//!   [`Searcher::analyze`] with `report_interval` set and no other limit, from a thread of
//!   its own; `progress` receives [`Analysis`] snapshots; the GTP reader calls
//!   [`SearchControl::stop`] when the next command arrives. It neither counts towards
//!   resigning nor decides passes.
//! * **pondering**: after answering `genmove`, call [`Searcher::ponder`] (the opponent to
//!   move, no limits) on a background thread and stop it with [`SearchControl::stop`] when
//!   the next command arrives; the work stays in the tree for the next `genmove`.
//! * `clear_board` / `boardsize` / `komi` changes: call [`Searcher::clear`] (a changed komi,
//!   size or setup is also detected and the tree dropped).
//!
//! The search never prints to stdout; the only stderr line is the note that the tree's
//! memory is full.

pub mod hand_shapes;
pub mod judge;
pub mod priors;
pub mod time;
mod tree;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Board, Color, GameState, MAX_CELLS, Move, Point, Recent, Rules};
use crate::pattern::PatternTable;
use crate::playout::{LightPolicy, default_move_cap, playout_rng, run_playout};

use priors::{HeuristicPriors, MovePriors};
use tree::{Edge, MemoryBudget, Node, Prior};
use worker::{SharedSearch, run_worker};

/// The playout policy the workers run (the pattern module adds its own here). The default
/// is the stronger pattern policy (what `hane` plays with unless told otherwise).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayoutKind {
    /// Uniformly random among the legal moves that do not fill one's own eye.
    Light,
    /// The pattern-guided policy (`playout::PatternPolicy`) with the 3x3 weights of
    /// `SearchConfig::patterns`.
    #[default]
    Pattern,
}

impl std::str::FromStr for PlayoutKind {
    type Err = String;
    fn from_str(text: &str) -> Result<PlayoutKind, String> {
        match text.to_ascii_lowercase().as_str() {
            "light" => Ok(PlayoutKind::Light),
            "pattern" => Ok(PlayoutKind::Pattern),
            _ => Err(format!(
                "unknown playout policy {text:?} (light or pattern)"
            )),
        }
    }
}

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
    /// Moves in a row under the threshold before resigning.
    pub resign_moves: u32,
    /// Playout policy.
    pub playout: PlayoutKind,
    /// The pattern table the pattern playouts use (the shipped one unless `--patterns`).
    pub patterns: Arc<PatternTable>,
    /// Priors of new edges, as virtual wins and visits.
    pub priors: Arc<dyn MovePriors>,
    /// UCT exploration constant `c` (see `worker` for the formula); `None`: the playout
    /// policy's own ([`SearchConfig::exploration_constant`]).
    pub exploration: Option<f32>,
    /// RAVE equivalence parameter `K`: real visits at which AMAF and real statistics weigh the
    /// same.
    pub rave_equivalence: f32,
    /// Share of a prior's virtual playouts also counted as AMAF playouts (0: priors only
    /// seed the real statistics, and the AMAF estimate soon outweighs them). The default, 3,
    /// won 23/30 games of 19x19 self-play against 0 at 0.5 s per move.
    pub rave_prior: f32,
    /// Value of an edge with no statistics and no prior at all (first-play urgency).
    pub first_play_urgency: f32,
    /// Visits a node needs before it gets children; `None`: 2 up to 7x7, 8 above. On 9x9,
    /// 8 won 50/100 games of self-play against 2 at equal time (0.5 s per move), running
    /// about 30% more playouts per second with a third of the tree memory.
    pub expand_visits: Option<u32>,
    /// Stop early when the runner-up cannot overtake the best move with the playouts left.
    pub early_stop: bool,
    /// Keep the subtree of the moves played between searches.
    pub reuse_tree: bool,
    /// Pattern playouts play the last good replies each worker learns from its playouts
    /// (LGRF-2, see `playout::replies`). Off by default: 24/40 games of 19x19 self-play at
    /// 2000 playouts per move against off, but 9/23 at equal time (see the README).
    pub last_good_reply: bool,
    /// Pattern playouts also play the two-liberty tactics and eye-space vital points next
    /// to the last move (`PatternPolicy::with_tactics`). On by default: they cost about a
    /// fifth of the search speed, yet won 28/40 games of 19x19 self-play at equal playouts,
    /// and 93/100 against GNU Go on 9x9 at 1 s per move where the defaults without them won
    /// 87/100 (see the README).
    pub playout_tactics: bool,
    /// Pattern playouts read ladders (`PatternPolicy::with_ladders`): they do not save a
    /// chain in atari by running into a ladder, and continue a ladder the opponent runs
    /// into. On by default.
    pub playout_ladders: bool,
    /// Pattern playouts capture chains left in atari away from the last move, before a
    /// random move (`PatternPolicy::with_global_captures`). Off by default: it costs no
    /// measurable speed and won 109/200 games of 9x9 self-play at 3,000 playouts per move
    /// against off, but only 2 of 8 against GNU Go on 19x19 at 2 s per move (see the
    /// README); not shown to help.
    pub playout_global_captures: bool,
    /// Random points the pattern playouts try for an empty 3x3 area before their random
    /// move (`PatternPolicy::with_fill_board`). 0 (none) by default: with 4 tries hane won
    /// 18/40 games of 19x19 self-play at 2,000 playouts per move against 0 (see the README).
    pub playout_fill_board: u32,
}

/// The library default is the cheap configuration (light playouts, heuristic priors) that
/// the tests and benches build on; the command line and `hane:` players default to the
/// learned patterns ([`PlayoutKind::default`], [`priors::PriorsKind::default`]).
impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 0x68616e65,
            max_memory: 1 << 30,
            resign_threshold: 0.1,
            resign_moves: 3,
            playout: PlayoutKind::Light,
            patterns: crate::pattern::default_table_arc(),
            priors: Arc::new(HeuristicPriors::default()),
            exploration: None,
            rave_equivalence: 3000.0,
            rave_prior: 3.0,
            first_play_urgency: 1.0,
            expand_visits: None,
            early_stop: true,
            reuse_tree: true,
            last_good_reply: false,
            playout_tactics: true,
            playout_ladders: true,
            playout_global_captures: false,
            playout_fill_board: 0,
        }
    }
}

impl SearchConfig {
    /// The UCT exploration constant in use: the configured one, or else 0.02 with light
    /// playouts and 0.2 with pattern playouts. In 9x9 self-play with light playouts, 0 won
    /// 44 of 49 games against 0.2 at 40,000 playouts per move, and 0.02 won 45 of 100
    /// against 0 at 10,000; but with no term at all the search never tries a move whose
    /// prior and AMAF value start low (it misses the semeai of `tests/search_tactics.rs`).
    /// With pattern playouts, 0 won only 43 of 100 games against 0.2 at 3,000 playouts.
    pub fn exploration_constant(&self) -> f32 {
        self.exploration.unwrap_or(match self.playout {
            PlayoutKind::Light => 0.02,
            PlayoutKind::Pattern => 0.2,
        })
    }

    /// Visits before expansion on a board of `size`.
    pub fn expand_visits_for(&self, size: usize) -> u32 {
        self.expand_visits
            .unwrap_or(if size <= 7 { 2 } else { 8 })
            .max(1)
    }
}

/// When one search stops: the first limit reached wins; no limit means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Stop after this many playouts (counted in this search, not the reused tree's).
    pub playouts: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Call the progress callback about this often.
    pub report_interval: Option<Duration>,
    /// With `time`: the search may run on up to this long while the best move is uncertain
    /// (the runner-up close in visits or ahead in winrate). `None`: never past `time`.
    pub max_time: Option<Duration>,
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

/// Size and node count of the tree, from [`Searcher::check_tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSummary {
    pub nodes: usize,
    pub bytes: usize,
    pub root_visits: u64,
}

/// The tree kept between searches, with what identifies the position at its root.
struct KeptTree {
    root: Box<Node>,
    color: Color,
    size: usize,
    rules: Rules,
    handicap: usize,
    setup: Vec<(Color, Point)>,
    moves: Vec<(Color, Move)>,
}

/// The search engine. Keeps its tree between moves.
pub struct Searcher {
    config: SearchConfig,
    low_winrate_streak: u32,
    kept: Option<KeptTree>,
    memory_warned: bool,
    /// Searches run since the seed was set, in every game: mixed into each search's seed.
    searches: u64,
}

impl Searcher {
    /// A searcher; with pattern playouts, builds their shape table now (a fraction of a
    /// second, once per table) so that no move's clock pays for it.
    pub fn new(config: SearchConfig) -> Searcher {
        if config.playout == PlayoutKind::Pattern {
            config.patterns.playout_3x3_gammas();
        }
        Searcher {
            config,
            low_winrate_streak: 0,
            kept: None,
            memory_warned: false,
            searches: 0,
        }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Replaces the configuration. A new seed starts its sequence of search seeds afresh,
    /// so that a game given its own seed (as the match runner does) plays the same however
    /// many games the searcher played before.
    pub fn set_config(&mut self, config: SearchConfig) {
        if config.seed != self.config.seed {
            self.searches = 0;
        }
        self.config = config;
    }

    /// Forgets everything kept from earlier moves (a new game). The count of searches,
    /// which varies each search's seed, goes on: a second game played by the same process
    /// does not replay the first.
    pub fn clear(&mut self) {
        self.low_winrate_streak = 0;
        self.memory_warned = false;
        if let Some(kept) = self.kept.take() {
            free_in_background(kept.root);
        }
    }

    /// Searches for `color` to move in `state` until a limit is reached or `control` is
    /// stopped, calling `progress` every `limits.report_interval`; chooses the move to play
    /// and whether to resign.
    pub fn search(
        &mut self,
        state: &GameState,
        color: Color,
        limits: &SearchLimits,
        control: &SearchControl,
        progress: &mut dyn FnMut(&Analysis),
    ) -> SearchResult {
        let analysis = self.run(state, color, limits, control, progress);
        let best = self.choose_move(state, color, &analysis);
        let threshold = self.config.resign_threshold;
        let winning_pass = best == Move::Pass && opponent_passed(state, color);
        if threshold > 0.0 && analysis.winrate < threshold && analysis.playouts > 0 && !winning_pass
        {
            self.low_winrate_streak += 1;
        } else {
            self.low_winrate_streak = 0;
        }
        SearchResult {
            best,
            resign: threshold > 0.0 && self.low_winrate_streak >= self.config.resign_moves.max(1),
            analysis,
        }
    }

    /// Searches like [`Searcher::search`] but only reports: no move choice, no resign count.
    pub fn analyze(
        &mut self,
        state: &GameState,
        color: Color,
        limits: &SearchLimits,
        control: &SearchControl,
        progress: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        self.run(state, color, limits, control, progress)
    }

    /// Searches for the player to move in `state` (the opponent, after hane's move) until
    /// `control` is stopped; the tree is kept for the next search.
    pub fn ponder(&mut self, state: &GameState, control: &SearchControl) -> Analysis {
        self.run(
            state,
            state.to_move(),
            &SearchLimits::default(),
            control,
            &mut |_| {},
        )
    }

    /// Walks the kept tree and checks that every node's visits equal its children's plus its
    /// own playouts, with no virtual loss left (a debugging aid for tests).
    pub fn check_tree(&self) -> Result<TreeSummary, String> {
        match &self.kept {
            None => Ok(TreeSummary {
                nodes: 0,
                bytes: 0,
                root_visits: 0,
            }),
            Some(kept) => {
                let nodes = kept.root.check_consistency()?;
                Ok(TreeSummary {
                    nodes,
                    bytes: kept.root.subtree_bytes(),
                    root_visits: kept.root.stats().visits as u64,
                })
            }
        }
    }

    /// The kept tree's root for `state` and `color`: the subtree reached by the moves
    /// played since the last search, or a fresh node.
    fn take_root(&mut self, state: &GameState, color: Color) -> Box<Node> {
        let Some(kept) = self.kept.take() else {
            return Box::default();
        };
        if !self.config.reuse_tree {
            free_in_background(kept.root);
            return Box::default();
        }
        let history = state.moves();
        let same_game = kept.size == state.size()
            && kept.rules == *state.rules()
            && kept.handicap == state.handicap()
            && kept.setup == state.setup_stones()
            && history.len() >= kept.moves.len()
            && history[..kept.moves.len()] == kept.moves[..];
        if !same_game {
            free_in_background(kept.root);
            return Box::default();
        }
        let mut root = kept.root;
        let mut to_move = kept.color;
        let mut garbage: Vec<Box<Node>> = Vec::new();
        for &(c, mv) in &history[kept.moves.len()..] {
            let child = if c == to_move {
                root.edges_mut()
                    .and_then(|edges| edges.iter_mut().find(|e| e.mv() == mv))
                    .and_then(Edge::take_child)
            } else {
                None
            };
            garbage.push(root);
            match child {
                Some(child) => {
                    root = child;
                    to_move = c.opponent();
                }
                None => {
                    free_in_background(garbage);
                    return Box::default();
                }
            }
        }
        if to_move != color {
            garbage.push(root);
            free_in_background(garbage);
            return Box::default();
        }
        free_in_background(garbage);
        root
    }

    /// Runs the workers and returns the final snapshot; the tree is kept afterwards.
    fn run(
        &mut self,
        state: &GameState,
        color: Color,
        limits: &SearchLimits,
        control: &SearchControl,
        progress: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let clock = Instant::now();
        let mut root = self.take_root(state, color);
        let board = state.board();
        let recent = recent_moves(state);
        prepare_root(&mut root, state, color, recent, &*self.config.priors);
        let used = root.subtree_bytes();
        self.searches += 1;
        let seed = self
            .config
            .seed
            .wrapping_add(self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let threads = self.config.threads.max(1);
        let shared = SharedSearch {
            root: &root,
            root_board: board,
            root_color: color,
            root_passes: state.consecutive_passes(),
            root_recent: recent,
            komi: state.komi() + state.rules().handicap_points(state.handicap()),
            config: &self.config,
            priors: &*self.config.priors,
            expand_visits: self.config.expand_visits_for(state.size()),
            memory: MemoryBudget::new(used, self.config.max_memory, self.memory_warned),
            stop: AtomicBool::new(false),
            playouts: AtomicU64::new(0),
            claimed: AtomicU64::new(0),
            playout_limit: limits.playouts,
            running: AtomicUsize::new(threads),
            ownership: (0..MAX_CELLS).map(|_| AtomicI32::new(0)).collect(),
            ownership_samples: AtomicU32::new(0),
            seed,
        };
        let nothing_to_do = limits.playouts == Some(0) || limits.time == Some(Duration::ZERO);
        if !nothing_to_do && !control.is_stopped() {
            std::thread::scope(|scope| {
                for k in 0..threads {
                    let shared = &shared;
                    scope.spawn(move || run_worker(shared, k));
                }
                monitor(&shared, state, color, limits, control, clock, progress);
                shared.stop.store(true, Ordering::Relaxed);
            });
        }
        let analysis = snapshot(&shared, state, color, clock.elapsed());
        self.memory_warned = shared.memory.warned();
        drop(shared);
        self.kept = Some(KeptTree {
            root,
            color,
            size: state.size(),
            rules: *state.rules(),
            handicap: state.handicap(),
            setup: state.setup_stones().to_vec(),
            moves: state.moves().to_vec(),
        });
        analysis
    }

    /// The move to play: the most visited, with the pass rules applied.
    fn choose_move(&self, state: &GameState, color: Color, analysis: &Analysis) -> Move {
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        // Area score with every stone counted alive: what passing now would give.
        let pass_margin = state.score() * sign;
        if opponent_passed(state, color) && pass_margin > 0.0 {
            return Move::Pass;
        }
        let most_visited = analysis.moves.first().map(|m| m.mv);
        let best = match most_visited {
            Some(mv) => mv,
            None => self.best_prior_move(),
        };
        if best == Move::Pass && pass_margin <= 0.0 {
            // Passing would end (or let the opponent end) the game short of points: play the
            // best real move that does not fill an own eye, if there is one.
            let board = state.board();
            if let Some(m) = analysis.moves.iter().find(|m| match m.mv {
                Move::Play(p) => !board.is_eye(p, color),
                Move::Pass => false,
            }) {
                return m.mv;
            }
        }
        best
    }

    /// Without any playout: the root edge with the best prior.
    fn best_prior_move(&self) -> Move {
        let Some(kept) = &self.kept else {
            return Move::Pass;
        };
        kept.root
            .edges()
            .and_then(|edges| {
                edges
                    .iter()
                    .max_by(|a, b| a.prior().mean().total_cmp(&b.prior().mean()))
                    .map(Edge::mv)
            })
            .unwrap_or(Move::Pass)
    }
}

fn opponent_passed(state: &GameState, color: Color) -> bool {
    state
        .last_move()
        .is_some_and(|(c, mv)| c != color && mv == Move::Pass)
}

/// Frees trees on a background thread so that the next move does not wait for it.
fn free_in_background<T: Send + 'static>(garbage: T) {
    let spawned = std::thread::Builder::new()
        .name("hane-free-tree".into())
        .spawn(move || drop(garbage));
    // If no thread can be started the closure (and the garbage) is dropped right here.
    let _ = spawned;
}

/// The last two moves of a game.
fn recent_moves(state: &GameState) -> Recent {
    let moves = state.moves();
    let nth_last = |k: usize| moves.len().checked_sub(k).map(|i| moves[i].1);
    Recent {
        last: nth_last(1).and_then(|mv| mv.point()),
        second_last: nth_last(2).and_then(|mv| mv.point()),
        last_was_pass: nth_last(1) == Some(Move::Pass),
    }
}

/// Gives the root its edges (the game's legal moves, superko included) or removes edges a
/// reused tree brought that the game's ko rule forbids.
fn prepare_root(
    root: &mut Node,
    state: &GameState,
    color: Color,
    recent: Recent,
    priors: &dyn MovePriors,
) {
    if root.edges().is_some() {
        let removed = root.retain_edges(|e| state.is_legal(color, e.mv()));
        if !removed.is_empty() {
            free_in_background(removed);
        }
        return;
    }
    if !root.try_begin_expansion() {
        return;
    }
    let mut moves: Vec<Move> = state
        .legal_points(color)
        .into_iter()
        .filter(|&p| !state.board().is_suicide(p, color))
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    let mut out = vec![Prior::NONE; moves.len()];
    priors.priors(state.board(), color, recent, &moves, &mut out);
    let edges: Box<[Edge]> = moves
        .iter()
        .zip(&out)
        .map(|(&mv, &prior)| Edge::new(mv, prior))
        .collect();
    root.finish_expansion(edges);
}

/// Playouts a timed search reports before the early-stop rule may end it.
const EARLY_STOP_MIN_PLAYOUTS: f64 = 256.0;

/// The calling thread's part of a search: watches the clock, the stop flag and the early-stop
/// rule, and calls `progress`, until the search should end.
fn monitor(
    shared: &SharedSearch<'_>,
    state: &GameState,
    color: Color,
    limits: &SearchLimits,
    control: &SearchControl,
    clock: Instant,
    progress: &mut dyn FnMut(&Analysis),
) {
    let mut last_report = clock;
    loop {
        if shared.running.load(Ordering::Acquire) == 0 || control.is_stopped() {
            return;
        }
        let elapsed = clock.elapsed();
        let mut wake = Duration::from_millis(2);
        if let Some(budget) = limits.time {
            let max = limits.max_time.map_or(budget, |m| m.max(budget));
            if elapsed >= max || (elapsed >= budget && !uncertain(shared)) {
                return;
            }
            if shared.config.early_stop && elapsed < budget && elapsed > Duration::from_millis(20) {
                // Workers report playouts in batches: until a few batches are in, the rate
                // (and so the playouts left) reads too low. A first search that paid for
                // building the playout tables once stopped this way after 12 playouts.
                let done = shared.playouts.load(Ordering::Relaxed) as f64;
                let rate = done / elapsed.as_secs_f64();
                let left = rate * (budget - elapsed).as_secs_f64();
                if done >= EARLY_STOP_MIN_PLAYOUTS && shared.decided(left.ceil() as u64) {
                    return;
                }
            }
            let until = if elapsed < budget { budget } else { max };
            wake = wake.min(until - elapsed);
        }
        if let Some(interval) = limits.report_interval {
            let since = last_report.elapsed();
            if since >= interval {
                progress(&snapshot(shared, state, color, elapsed));
                last_report = Instant::now();
            } else {
                wake = wake.min(interval - since);
            }
        }
        std::thread::sleep(wake.max(Duration::from_micros(100)));
    }
}

/// Whether the best root move is still in doubt: the runner-up has at least 60% of its
/// visits, or has a third of them and a better winrate.
fn uncertain(shared: &SharedSearch<'_>) -> bool {
    let Some(edges) = shared.root.edges() else {
        return false;
    };
    let mut first: Option<tree::Stats> = None;
    let mut second: Option<tree::Stats> = None;
    for edge in edges {
        let stats = edge.stats();
        if stats.visits == 0 {
            continue;
        }
        if first.is_none_or(|f| stats.visits > f.visits) {
            second = first;
            first = Some(stats);
        } else if second.is_none_or(|s| stats.visits > s.visits) {
            second = Some(stats);
        }
    }
    match (first, second) {
        (Some(a), Some(b)) if a.visits > 0 && b.visits > 0 => {
            let close = b.visits as f32 >= 0.6 * a.visits as f32;
            let better = b.visits as f32 >= 0.33 * a.visits as f32
                && b.mean().unwrap_or(0.0) > a.mean().unwrap_or(0.0) + 0.01;
            close || better
        }
        _ => false,
    }
}

/// A snapshot of the search: root children by visits, with PVs and ownership.
fn snapshot(
    shared: &SharedSearch<'_>,
    state: &GameState,
    color: Color,
    elapsed: Duration,
) -> Analysis {
    let root = shared.root;
    let mut moves = Vec::new();
    if let Some(edges) = root.edges() {
        let prior_sum: f32 = edges.iter().map(|e| e.prior().mean()).sum();
        for edge in edges {
            let stats = edge.stats();
            if stats.visits == 0 {
                continue;
            }
            let n = stats.visits as f32;
            let winrate = stats.wins / n;
            let lcb = (winrate - 1.96 * (winrate * (1.0 - winrate) / n).sqrt()).clamp(0.0, 1.0);
            let mut pv = vec![edge.mv()];
            let mut next = edge.child();
            while let Some(node) = next {
                let Some(edge) = most_visited_edge(node) else {
                    break;
                };
                if pv.len() >= 24 {
                    break;
                }
                pv.push(edge.mv());
                next = edge.child();
            }
            moves.push(MoveInfo {
                mv: edge.mv(),
                visits: stats.visits as u64,
                winrate,
                prior: if prior_sum > 0.0 {
                    edge.prior().mean() / prior_sum
                } else {
                    0.0
                },
                lcb,
                pv,
            });
        }
    }
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let winrate = moves.first().map_or(0.5, |m| m.winrate);
    let samples = shared.ownership_samples.load(Ordering::Relaxed).max(1) as f32;
    let ownership = state
        .geometry()
        .points()
        .map(|p| shared.ownership[p.index()].load(Ordering::Relaxed) as f32 / samples)
        .collect();
    Analysis {
        color,
        playouts: shared.playouts.load(Ordering::Relaxed),
        elapsed,
        winrate,
        moves,
        ownership,
    }
}

fn most_visited_edge(node: &Node) -> Option<&Edge> {
    node.edges()?
        .iter()
        .filter(|e| e.stats().visits > 0)
        .max_by_key(|e| e.stats().visits)
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
