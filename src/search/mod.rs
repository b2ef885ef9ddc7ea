//! Move search: a multithreaded Monte-Carlo tree search (UCT with RAVE/AMAF and priors) over
//! one shared tree. This file holds the API the play layer uses: [`Searcher`] (owns the
//! tree kept between moves), [`SearchConfig`], [`SearchLimits`], [`SearchControl`] (a stop
//! flag other threads may set) and [`Analysis`] snapshots. The tree lives in `tree`, the
//! workers in `worker`, the prior hook in [`priors`].
//!
//! # How it is driven
//!
//! * **a move**: call [`Searcher::search`] with the limits of the move (the play layer
//!   derives them from the clock and the settings), the game's [`GameState`] and the colour
//!   to move. The result's `best` is the most visited move; passing, resigning and the end
//!   of the game are the play layer's rules. The search keeps its tree; the next call finds
//!   the moves played since (hane's and the opponent's) in the game history and reuses the
//!   matching subtree, so call it with the real game state, not a copy that lost its
//!   history.
//! * **analysis**: call [`Searcher::analyze`] with `report_interval` set and no other
//!   limit, from a thread of its own; `progress` receives [`Analysis`] snapshots; the GTP
//!   reader calls [`SearchControl::stop`] when the next command arrives.
//! * **pondering**: call [`Searcher::ponder`] (the opponent to move, no limits) on a
//!   background thread and stop it with [`SearchControl::stop`]; the work stays in the tree
//!   for the next move.
//! * a new game: call [`Searcher::clear`] (a changed komi, size or setup is also detected
//!   and the tree dropped).
//! * dynamic komi: [`Searcher::set_komi_offset`] gives the komi of the playouts an offset
//!   (the play layer's `play::dynkomi`). The tree's statistics then hold wins under the
//!   shifted komi; the reported win rates and scores ([`Analysis::winrate`],
//!   [`MoveInfo::winrate`], the score leads) are counted from the same playouts under the
//!   real komi, and [`Analysis::search_winrate`] is the tree's own value. A kept tree is
//!   reused while the offset moves by at most [`MAX_KEPT_KOMI_CHANGE`].
//!
//! The search never prints to stdout and knows nothing of clocks or GTP; the only log line
//! ([`crate::log`]) is the note that the tree's memory is full.

pub mod avoid;
pub mod group_status;
pub mod hand_shapes;
pub mod opening_prior;
pub mod prior_mix;
pub mod priors;
pub mod reading;
mod tree;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};
use std::time::{Duration, Instant};

use crate::board::{Board, Color, GameState, MAX_CELLS, Move, Point, Recent, Rules};
use crate::pattern::PatternTables;
use crate::pattern::features::{OwnerScratch, Ownership};
use crate::playout::ownership::{light_playout_owners, owner_tally};
use crate::settings::{PlayoutKind, SearchParams};

use avoid::AvoidMoves;
use opening_prior::OpeningLines;
use parking_lot::Mutex;
pub use prior_mix::RootPrior;
use prior_mix::{PriorQuery, PriorSources};
use priors::MovePriors;
use reading::{DeadFeeding, ExpansionReader, OWL_TIME_SHARE, ReadingShare, RootOwl};
use tree::{Edge, MemoryBudget, Node};
use worker::{SharedSearch, run_worker};

/// What a [`Searcher`] runs with: the search's parameters (the playouts' among them), the
/// thread count and seed, and the pattern tables and priors built from them.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// The search's settings.
    pub params: SearchParams,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the playout generators; a fixed seed and one thread give reproducible searches.
    pub seed: u64,
    /// The pattern tables of the pattern playouts and priors (one for each board size).
    pub patterns: PatternTables,
    /// Priors of new edges, as virtual wins and visits.
    pub priors: Arc<dyn MovePriors>,
}

impl SearchConfig {
    /// The search `params` describe on `threads` threads, with `patterns` as the pattern
    /// tables (the compiled-in pair, or the table the `patterns` setting names, loaded by
    /// the caller) and `seed`.
    pub fn new(
        params: SearchParams,
        threads: usize,
        patterns: impl Into<PatternTables>,
        seed: u64,
    ) -> SearchConfig {
        let patterns = patterns.into();
        SearchConfig {
            threads,
            seed,
            priors: priors::build(&params, &patterns),
            patterns,
            params,
        }
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
    /// With `max_time`: the search also runs on while the best move's win rate (for the
    /// player to move) is below this, as when the win rate just dropped.
    pub extend_below: Option<f32>,
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
    /// Winrate in [0, 1], under the real komi: with a komi offset, the share of this
    /// search's playouts through the move that reached the end of the game and won under the
    /// real komi (the tree's winrate, scored with the offset, when it has none).
    pub winrate: f32,
    /// Prior probability in [0, 1].
    pub prior: f32,
    /// Lower confidence bound of the winrate, in [0, 1].
    pub lcb: f32,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// The visits of each move of `pv` (its edge's), as many as `pv` has.
    pub pv_visits: Vec<u64>,
    /// The mean final score of this search's playouts through the move that reached the end
    /// of the game, as `color`'s lead (area score less komi and handicap compensation,
    /// negated for white); `None` without such playouts (a move searched only in an earlier
    /// search whose tree was kept).
    pub score_lead: Option<f32>,
}

/// A snapshot of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The player the search is for.
    pub color: Color,
    /// Playouts run so far in this search.
    pub playouts: u64,
    pub elapsed: Duration,
    /// Winrate of the best move, for `color`, under the real komi (see
    /// [`MoveInfo::winrate`]).
    pub winrate: f32,
    /// Winrate of the best move as the search sees it: its tree statistics, scored with the
    /// komi offset (equal to `winrate` without an offset).
    pub search_winrate: f32,
    /// The komi offset the playouts were scored with (extra komi black gives).
    pub komi_offset: f32,
    /// The mean final score of all of this search's playouts that reached the end of the
    /// game, as `color`'s lead (see [`MoveInfo::score_lead`]).
    pub score_lead: Option<f32>,
    /// Candidates, best first (most visited).
    pub moves: Vec<MoveInfo>,
    /// Ownership per point in `Geometry::points()` order (bottom row first): +1 black owns
    /// it in every simulation, -1 white does.
    pub ownership: Vec<f32>,
    /// What the tactical reading at expansion cost, summed over the threads (counted when
    /// a thread finishes: zero in the reports of a running search).
    pub reading: ReadingShare,
}

impl Analysis {
    /// An analysis of the candidates `moves` (best first) that no search stands behind: the
    /// best one's winrate (0.5 without candidates), no score, no ownership, no komi offset.
    pub fn of_moves(color: Color, playouts: u64, moves: Vec<MoveInfo>) -> Analysis {
        let winrate = moves.first().map_or(0.5, |m| m.winrate);
        Analysis {
            color,
            playouts,
            elapsed: Duration::ZERO,
            winrate,
            search_winrate: winrate,
            komi_offset: 0.0,
            score_lead: None,
            moves,
            ownership: Vec::new(),
            reading: ReadingShare::default(),
        }
    }
}

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The most visited move (without any playout, the best prior; a pass when nothing
    /// else is legal).
    pub best: Move,
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
    /// The komi offset its statistics were scored with.
    komi_offset: f32,
    /// The moves its search left out near its root.
    avoid: AvoidMoves,
}

/// The largest change of the komi offset (in points) from one search to the next across
/// which a kept tree is reused: its last search's statistics were scored with a komi at
/// most this far from the new one, and fade as new playouts come in. A larger change starts
/// a fresh tree. Only consecutive searches are compared: an offset that drifts a point a
/// move keeps its tree, whose older statistics (deeper in it, from searches several points
/// away) weigh less and less.
pub const MAX_KEPT_KOMI_CHANGE: f32 = 1.0;

/// The search engine. Keeps its tree between moves.
pub struct Searcher {
    config: SearchConfig,
    kept: Option<KeptTree>,
    memory_warned: bool,
    /// Searches run since the seed was set, in every game: mixed into each search's seed.
    searches: u64,
    /// One tactical reader per search thread when the tree reads (`reading` setting).
    readers: Vec<Mutex<ExpansionReader>>,
    /// The owl reader of the root when the search reads groups (`owl` setting).
    owl: Option<RootOwl>,
    /// Extra priors of root moves for the next search (see [`Searcher::set_root_priors`]).
    root_priors: Vec<RootPrior>,
    /// Extra komi black gives in the playouts (see [`Searcher::set_komi_offset`]).
    komi_offset: f32,
    /// Moves the next search leaves out (see [`Searcher::set_avoid`]).
    avoid: AvoidMoves,
    /// The ownership tally of the root for the pattern feature `owner`, taken when the
    /// priors read it.
    ownership: OwnerScratch,
}

impl Searcher {
    /// A searcher. Its pattern table is read and prepared on first use; see
    /// [`Searcher::prepare`] to do it before a clock runs.
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher {
            config,
            kept: None,
            memory_warned: false,
            searches: 0,
            readers: Vec::new(),
            owl: None,
            root_priors: Vec::new(),
            komi_offset: 0.0,
            avoid: AvoidMoves::new(),
            ownership: OwnerScratch::new(owner_tally),
        }
    }

    /// Reads the pattern table of boards of `size` lines and, with pattern playouts, builds
    /// its playout shapes (a fraction of a second, once per table and process), so that no
    /// move's clock pays for it: called when a game's board size is known.
    pub fn prepare(&self, size: usize) {
        let table = self.config.patterns.for_size(size);
        if self.config.params.playout.playout == PlayoutKind::Pattern {
            table.playout_3x3_gammas();
        }
    }

    /// Scores the playouts of the next searches as if black gave `offset` more komi
    /// (negative: received more); 0 scores them with the game's komi. The reported win
    /// rates and scores stay those of the real komi. A kept tree whose offset differs by more
    /// than [`MAX_KEPT_KOMI_CHANGE`] is dropped at the next search.
    pub fn set_komi_offset(&mut self, offset: f32) {
        self.komi_offset = offset;
    }

    /// The komi offset of the next search.
    pub fn komi_offset(&self) -> f32 {
        self.komi_offset
    }

    /// Gives the root moves of the next search (only that one) extra priors: the play
    /// layer's hook for an opening book. On a root kept from an earlier search, the
    /// priors of those moves are computed again with the extra added (not added twice).
    pub fn set_root_priors(&mut self, priors: Vec<RootPrior>) {
        self.root_priors = priors;
    }

    /// Leaves `avoid`'s moves out of the next search's tree (only that one): the analyze
    /// commands' `avoid` and `allow`. A tree searched with other moves left out (or with
    /// some left out and moves played since) is not reused.
    pub fn set_avoid(&mut self, avoid: AvoidMoves) {
        self.avoid = avoid;
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
        // Weighted and unweighted AMAF statistics are kept in different units: a kept tree
        // of the other kind is dropped.
        if (config.params.rave_distance > 0.0) != (self.config.params.rave_distance > 0.0) {
            self.clear();
        }
        // The readers are made with the reading settings: new settings, new readers.
        let (old, new) = (&self.config.params, &config.params);
        if ExpansionReader::settings_key(old) != ExpansionReader::settings_key(new) {
            self.readers.clear();
        }
        if RootOwl::settings_key(old) != RootOwl::settings_key(new) {
            self.owl = None;
        }
        self.config = config;
    }

    /// Forgets everything kept from earlier moves (a new game). The count of searches,
    /// which varies each search's seed, goes on: a second game played by the same process
    /// does not replay the first.
    pub fn clear(&mut self) {
        self.memory_warned = false;
        if let Some(kept) = self.kept.take() {
            free_in_background(kept.root);
        }
    }

    /// Searches for `color` to move in `state` until a limit is reached or `control` is
    /// stopped, calling `progress` every `limits.report_interval`. The result's `best` is
    /// the most visited move (the best prior without any playout); the play layer applies
    /// the pass and resign rules to it.
    pub fn search(
        &mut self,
        state: &GameState,
        color: Color,
        limits: &SearchLimits,
        control: &SearchControl,
        progress: &mut dyn FnMut(&Analysis),
    ) -> SearchResult {
        let analysis = self.run(state, color, limits, control, progress);
        let best = match analysis.moves.first() {
            Some(m) => m.mv,
            None => self.best_prior_move(),
        };
        SearchResult { best, analysis }
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
    fn take_root(&mut self, state: &GameState, color: Color, avoid: &AvoidMoves) -> Box<Node> {
        let Some(kept) = self.kept.take() else {
            return Box::default();
        };
        if !self.config.params.reuse {
            free_in_background(kept.root);
            return Box::default();
        }
        let history = state.moves();
        let same_game = kept.size == state.size()
            && kept.rules == *state.rules()
            && kept.handicap == state.handicap()
            && kept.setup == state.setup_stones()
            && history.len() >= kept.moves.len()
            && history[..kept.moves.len()] == kept.moves[..]
            && (kept.komi_offset - self.komi_offset).abs() <= MAX_KEPT_KOMI_CHANGE
            // Moves left out near the root leave holes a later root would inherit.
            && kept.avoid == *avoid
            && (avoid.is_empty() || history.len() == kept.moves.len());
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

    /// Makes the threads' tactical readers and the root's owl where the settings ask for
    /// them and they are not made yet.
    fn make_readers(&mut self) {
        let threads = self.config.threads.max(1);
        while self.readers.len() < threads {
            match ExpansionReader::configured(&self.config.params) {
                Some(reader) => self.readers.push(Mutex::new(reader)),
                None => break,
            }
        }
        if self.owl.is_none() {
            self.owl = RootOwl::configured(&self.config.params);
        }
    }

    /// The priors a search of `state` with `color` to move would give its root's moves on a
    /// fresh tree: every source of [`PriorSources::mix`], the extra root priors set for it
    /// (which this takes, as a search does) and the moves left out included. What the
    /// search knows of the moves before its first playout, rounded as its tree keeps them;
    /// nothing is searched.
    pub fn root_priors(&mut self, state: &GameState, color: Color) -> Vec<(Move, priors::Prior)> {
        let avoid = std::mem::take(&mut self.avoid);
        self.make_readers();
        let extra = std::mem::take(&mut self.root_priors);
        let board = state.board();
        let owner = self
            .config
            .priors
            .reads_ownership(board.size())
            .then(|| self.ownership.tally(board, color));
        let moves = root_moves(state, color, &avoid);
        let mut root_reader = self.readers.first().map(Mutex::lock);
        let mut sources = PriorSources::root(
            &*self.config.priors,
            &self.config.params,
            root_reader.as_deref_mut(),
            self.owl.as_mut(),
            &extra,
        );
        let query = PriorQuery {
            board,
            color,
            recent: Recent::of_game(state),
            moves: &moves,
            owner,
        };
        let mut out = Vec::new();
        sources.mix(&query, &mut out);
        drop(root_reader);
        if let Some(owl) = self.owl.as_mut() {
            owl.take_share();
        }
        // As the tree's edges keep them (rounded).
        moves
            .into_iter()
            .zip(out)
            .map(|(mv, prior)| (mv, Edge::new(mv, prior).prior()))
            .collect()
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
        let avoid = std::mem::take(&mut self.avoid);
        let mut root = self.take_root(state, color, &avoid);
        let board = state.board();
        let recent = Recent::of_game(state);
        let threads = self.config.threads.max(1);
        self.make_readers();
        let extra = std::mem::take(&mut self.root_priors);
        let owner = self
            .config
            .priors
            .reads_ownership(board.size())
            .then(|| self.ownership.tally(board, color));
        if let Some(owl) = self.owl.as_mut() {
            owl.set_deadline(limits.time.map(|t| clock + t.mul_f64(OWL_TIME_SHARE)));
        }
        let mut root_reader = self.readers.first().map(Mutex::lock);
        prepare_root(
            &mut root,
            state,
            color,
            recent,
            PriorSources::root(
                &*self.config.priors,
                &self.config.params,
                root_reader.as_deref_mut(),
                self.owl.as_mut(),
                &extra,
            ),
            &avoid,
            owner,
        );
        drop(root_reader);
        let share = self
            .owl
            .as_mut()
            .map_or_else(ReadingShare::default, RootOwl::take_share);
        let used = root.subtree_bytes();
        let real_komi = state.komi() + state.rules().handicap_points(state.handicap());
        self.searches += 1;
        let seed = self
            .config
            .seed
            .wrapping_add(self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let shared = SharedSearch {
            root: &root,
            root_board: board,
            root_color: color,
            owner,
            root_passes: state.consecutive_passes(),
            root_recent: recent,
            komi: real_komi + self.komi_offset,
            real_komi,
            config: &self.config,
            priors: &*self.config.priors,
            opening: OpeningLines::configured(&self.config.params),
            expand_visits: self.config.params.expand_visits(state.size()),
            selection: self.config.params.selection(),
            memory: MemoryBudget::new(used, self.config.params.max_memory.0, self.memory_warned),
            stop: AtomicBool::new(false),
            playouts: AtomicU64::new(0),
            claimed: AtomicU64::new(0),
            playout_limit: limits.playouts,
            running: AtomicUsize::new(threads),
            wait_for_expansions: threads > crate::cores(),
            ownership: (0..MAX_CELLS).map(|_| AtomicI32::new(0)).collect(),
            ownership_samples: AtomicU32::new(0),
            root_scores: (0..MAX_CELLS).map(|_| AtomicI64::new(0)).collect(),
            root_score_counts: (0..MAX_CELLS).map(|_| AtomicU32::new(0)).collect(),
            root_real_half_wins: (0..MAX_CELLS).map(|_| AtomicU32::new(0)).collect(),
            seed,
            readers: &self.readers,
            reading: Mutex::new(share),
            avoid: &avoid,
            lives: self.owl.as_ref().map_or(&[], RootOwl::lives),
            dead: self
                .owl
                .as_ref()
                .filter(|owl| {
                    self.config.params.owl_dead_tree > 0.0 && !owl.dead_groups().is_empty()
                })
                .map(|owl| DeadFeeding {
                    groups: owl.dead_groups(),
                    weight: self.config.params.owl_dead_tree,
                }),
            owl_score: self.config.params.owl_score,
        };
        let nothing_to_do = limits.playouts == Some(0) || limits.time == Some(Duration::ZERO);
        if !nothing_to_do && !control.is_stopped() {
            // The playouts start now: the root's preparation (its priors, the owl's reads)
            // is spent time, but not time the early-stop rule measures their rate over.
            let playouts_start = clock.elapsed();
            std::thread::scope(|scope| {
                for k in 0..threads {
                    let shared = &shared;
                    scope.spawn(move || run_worker(shared, k));
                }
                let timing = MonitorClock {
                    start: clock,
                    playouts_start,
                };
                monitor(&shared, state, color, limits, control, timing, progress);
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
            komi_offset: self.komi_offset,
            avoid,
        });
        analysis
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

/// Frees trees on a background thread so that the next move does not wait for it.
fn free_in_background<T: Send + 'static>(garbage: T) {
    let spawned = std::thread::Builder::new()
        .name("hane-free-tree".into())
        .spawn(move || drop(garbage));
    // If no thread can be started the closure (and the garbage) is dropped right here.
    let _ = spawned;
}

/// Gives the root its edges (the game's legal moves, superko included, less what `avoid`
/// bars at ply 1) or removes edges a reused tree brought that the game's ko rule forbids; a
/// kept root gets its priors again when the root has priors of its own (see
/// [`PriorSources::has_root_only`]).
fn prepare_root(
    root: &mut Node,
    state: &GameState,
    color: Color,
    recent: Recent,
    mut sources: PriorSources<'_>,
    avoid: &AvoidMoves,
    owner: Option<&Ownership>,
) {
    let mut out = Vec::new();
    if root.edges().is_some() {
        let removed = root.retain_edges(|e| state.is_legal(color, e.mv()));
        if !removed.is_empty() {
            free_in_background(removed);
        }
        if sources.has_root_only()
            && let Some(edges) = root.edges_mut()
        {
            let moves: Vec<Move> = edges.iter().map(Edge::mv).collect();
            let query = PriorQuery {
                board: state.board(),
                color,
                recent,
                moves: &moves,
                owner,
            };
            sources.mix(&query, &mut out);
            for (edge, prior) in edges.iter_mut().zip(out) {
                edge.set_prior(prior);
            }
        }
        return;
    }
    if !root.try_begin_expansion() {
        return;
    }
    let moves = root_moves(state, color, avoid);
    let query = PriorQuery {
        board: state.board(),
        color,
        recent,
        moves: &moves,
        owner,
    };
    sources.mix(&query, &mut out);
    let edges: Box<[Edge]> = moves
        .iter()
        .zip(&out)
        .map(|(&mv, &prior)| Edge::new(mv, prior))
        .collect();
    root.finish_expansion(edges);
}

/// The root's moves: the legal points but suicides, a pass, less the moves left out.
fn root_moves(state: &GameState, color: Color, avoid: &AvoidMoves) -> Vec<Move> {
    let mut moves: Vec<Move> = state
        .legal_points(color)
        .into_iter()
        .filter(|&p| !state.board().is_suicide(p, color))
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    avoid.retain_allowed(color, 1, &mut moves);
    moves
}

/// Playouts a timed search reports before the early-stop rule may end it.
const EARLY_STOP_MIN_PLAYOUTS: f64 = 256.0;

/// When a search started (its budget counts from then) and how long after that its
/// playouts started (the early-stop rule's rate counts from then).
#[derive(Clone, Copy, Debug)]
struct MonitorClock {
    start: Instant,
    playouts_start: Duration,
}

/// The calling thread's part of a search: watches the clock, the stop flag and the early-stop
/// rule, and calls `progress`, until the search should end.
fn monitor(
    shared: &SharedSearch<'_>,
    state: &GameState,
    color: Color,
    limits: &SearchLimits,
    control: &SearchControl,
    timing: MonitorClock,
    progress: &mut dyn FnMut(&Analysis),
) {
    let clock = timing.start;
    let mut last_report = clock;
    // When the tree's memory filled up in this search: from then on it stops growing, and
    // a timed search gives itself as long again as it took to fill it, at most.
    let mut full_at: Option<Duration> = None;
    loop {
        if shared.running.load(Ordering::Acquire) == 0 || control.is_stopped() {
            return;
        }
        let elapsed = clock.elapsed();
        if full_at.is_none() && shared.memory.would_overflow(tree::MEMORY_CHUNK) {
            full_at = Some(elapsed);
        }
        let mut wake = Duration::from_millis(2);
        if let Some(budget) = limits.time {
            let cap = full_at.map_or(Duration::MAX, |t| t.saturating_mul(2));
            let budget = budget.min(cap);
            let max = limits.max_time.map_or(budget, |m| m.max(budget)).min(cap);
            if elapsed >= max || (elapsed >= budget && !runs_on(shared, limits.extend_below)) {
                return;
            }
            let playing = elapsed.saturating_sub(timing.playouts_start);
            if shared.config.params.early_stop
                && elapsed < budget
                && playing > Duration::from_millis(20)
            {
                // Workers report playouts in batches: until a few batches are in, the rate
                // (and so the playouts left) reads too low. A first search that paid for
                // building the playout tables once stopped this way after 12 playouts. The
                // rate is that of the playouts' own time: counting the root's preparation
                // (the owl's reads) in it would read it too low and stop too soon.
                let done = shared.playouts.load(Ordering::Relaxed) as f64;
                let rate = done / playing.as_secs_f64();
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

/// Whether the search should run on past its budget: the best (most visited) root move
/// is still in doubt — the runner-up has at least 60% of its visits, or has a third of
/// them and a better winrate — or its win rate is below `extend_below`.
fn runs_on(shared: &SharedSearch<'_>, extend_below: Option<f32>) -> bool {
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
    let below = match (first.and_then(tree::Stats::mean), extend_below) {
        (Some(mean), Some(threshold)) => mean < threshold,
        _ => false,
    };
    let uncertain = match (first, second) {
        (Some(a), Some(b)) if a.visits > 0 && b.visits > 0 => {
            let close = b.visits as f32 >= 0.6 * a.visits as f32;
            let better = b.visits as f32 >= 0.33 * a.visits as f32
                && b.mean().unwrap_or(0.0) > a.mean().unwrap_or(0.0) + 0.01;
            close || better
        }
        _ => false,
    };
    uncertain || below
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
    // Scores as `color`'s lead.
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let lead = |sum: i64, count: u64| {
        (count > 0).then(|| sign * ((sum as f64 / count as f64) as f32 - shared.real_komi))
    };
    let offset = shared.komi - shared.real_komi;
    let (mut score_sum, mut score_count) = (0i64, 0u64);
    if let Some(edges) = root.edges() {
        let prior_sum: f32 = edges.iter().map(|e| e.prior().mean()).sum();
        for edge in edges {
            let i = edge.point_index();
            let sum = shared.root_scores[i].load(Ordering::Relaxed);
            let count = shared.root_score_counts[i].load(Ordering::Relaxed) as u64;
            score_sum += sum;
            score_count += count;
            let stats = edge.stats();
            if stats.visits == 0 {
                continue;
            }
            let mut n = stats.visits as f32;
            let mut winrate = stats.wins / n;
            if offset != 0.0 && count > 0 {
                // The real komi's result of this search's playouts through the move.
                let black = shared.root_real_half_wins[i].load(Ordering::Relaxed) as f32;
                let half_wins = match color {
                    Color::Black => black,
                    Color::White => 2.0 * count as f32 - black,
                };
                n = count as f32;
                winrate = half_wins / (2.0 * n);
            }
            let lcb = (winrate - 1.96 * (winrate * (1.0 - winrate) / n).sqrt()).clamp(0.0, 1.0);
            let mut pv = vec![edge.mv()];
            let mut pv_visits = vec![stats.visits as u64];
            let mut next = edge.child();
            while let Some(node) = next {
                let Some(edge) = most_visited_edge(node) else {
                    break;
                };
                if pv.len() >= 24 {
                    break;
                }
                pv.push(edge.mv());
                pv_visits.push(edge.stats().visits as u64);
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
                pv_visits,
                score_lead: lead(sum, count),
            });
        }
    }
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let winrate = moves.first().map_or(0.5, |m| m.winrate);
    let search_winrate = moves.first().map_or(0.5, |best| {
        root.edges()
            .and_then(|edges| edges.iter().find(|e| e.mv() == best.mv))
            .and_then(|e| e.stats().mean())
            .unwrap_or(best.winrate)
    });
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
        search_winrate,
        komi_offset: offset,
        score_lead: lead(score_sum, score_count),
        moves,
        ownership,
        reading: *shared.reading.lock(),
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
    let mut scratch = board.clone();
    light_playout_owners(
        board,
        state.to_move(),
        playouts,
        seed,
        &mut scratch,
        |owners| {
            for p in board.geometry().points() {
                sum[p.index()] += match owners[p.index()] {
                    Some(Color::Black) => 1,
                    Some(Color::White) => -1,
                    None => 0,
                };
            }
        },
    );
    sum.iter()
        .map(|&s| s as f32 / playouts.max(1) as f32)
        .collect()
}
