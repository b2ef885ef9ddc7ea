//! One search worker: descends the shared tree from the root (selection by UCT + RAVE with
//! priors and virtual loss), expands the leaf once it has enough visits, runs a playout,
//! and backs the result up the path together with the AMAF statistics. Also the state all
//! workers of one search share ([`SharedSearch`]).
//!
//! Selection value of an edge for the player to move, with `n`/`w` the child's visits and
//! wins plus its virtual losses (`virtual-loss` lost visits for each descent in flight
//! through it) plus the prior's virtual visits and wins,
//! `q = w / n`, and AMAF visits/wins `an`/`aw`:
//!
//! ```text
//! an, aw = AMAF visits and wins + r * the prior's virtual visits and wins
//!                                             (r: SearchConfig::rave_prior)
//! beta  = an / (an + n + an * n / K)          (K: SearchConfig::rave_equivalence)
//! value = (1 - beta) * q + beta * aw / an     (q alone when an = 0; fpu when n = 0 too)
//!       = ((1 + an / K) * w + aw) / (an + n + an * n / K)     (as computed: one division)
//! score = value + c * sqrt(ln(N + 1) / (n + 1))   (c: Selection::exploration)
//! ```
//!
//! This is the "equivalence parameter" schedule: the AMAF estimate and the real one weigh the
//! same when `n = K` real visits, and RAVE fades out as real visits accumulate. `K = 0`
//! turns RAVE off.
//!
//! Two options refine the AMAF statistics, both off by default: `rave-distance` weighs each
//! AMAF result by how soon after the node its move was played (see `Worker::backup`), and
//! `criticality` adds extra AMAF wins to the moves whose points decide the playouts more
//! than the node's moves on average (see [`super::tree::Criticality`] and `select`).

use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};

use crate::board::{Board, Cell, Color, MAX_CELLS, Move, Recent};
use crate::pattern::features::Ownership;
use crate::playout::{
    AmafRecord, LightPolicy, PatternPolicy, PlayoutPolicy, PlayoutRng, default_move_cap,
    playout_rng, random_below, run_playout,
};

use super::SearchConfig;
use super::avoid::AvoidMoves;
use super::group_status::GroupLife;
use super::opening_prior::OpeningLines;
use super::prior_mix::{PriorQuery, PriorSources};
use super::priors::MovePriors;
use super::reading::{DeadFeeding, ExpansionReader, OWL_TARGETS, ReadingShare};
use super::tree::{
    AMAF_WEIGHT_UNITS, CRITICALITY_START_VISITS, Edge, LocalMemory, MemoryBudget, Node, Prior,
    VirtualLoss, result_increment, weighted_increment,
};
use crate::settings::{PlayoutKind, Selection};
use parking_lot::{Mutex, MutexGuard};

/// Deepest descent a worker keeps buffers for (longer paths still work, they just grow them).
const PATH_CAPACITY: usize = 256;

/// Criticality starts to count in the selection once a node has sampled this many playouts.
const CRITICALITY_MIN_SAMPLES: u32 = 32;

/// Ownership is sampled from one playout in this many.
const OWNERSHIP_SAMPLE_EVERY: u64 = 8;

/// Finished playouts are added to the shared count in batches of this many.
const PLAYOUT_COUNT_BATCH: u64 = 8;

/// A worker adds its root AMAF results to the root's edges once per this many playouts at
/// most (every playout while the root is young, see [`ROOT_AMAF_EAGER_VISITS`]). Every
/// playout touches about half of the root's edges for AMAF; written at once by every thread,
/// those cache lines would move between cores on every playout.
const ROOT_AMAF_BATCH: u32 = 16;

/// Below this many root visits the root's AMAF statistics are written at once: early
/// selection depends on them most.
const ROOT_AMAF_EAGER_VISITS: u32 = 512;

/// The batches of all threads together hold at most about one root AMAF result in this
/// many of the root's visits: a worker's batch is `visits / (ROOT_AMAF_LAG * threads)`,
/// between 1 and [`ROOT_AMAF_BATCH`]. (One thread reaches the full batch at
/// [`ROOT_AMAF_EAGER_VISITS`]; sixteen threads batching 16 each would keep 240 results
/// unwritten, a quarter of a 1,000-playout search.)
const ROOT_AMAF_LAG: u32 = 32;

/// The root AMAF batch of one of `threads` workers when the root has `visits` visits.
fn root_amaf_batch(visits: u32, threads: usize) -> u32 {
    if visits < ROOT_AMAF_EAGER_VISITS {
        return 1;
    }
    let threads = threads.clamp(1, u32::MAX as usize) as u32;
    (visits / ROOT_AMAF_LAG.saturating_mul(threads)).clamp(1, ROOT_AMAF_BATCH)
}

/// Everything the workers of one search share.
pub struct SharedSearch<'a> {
    pub root: &'a Node,
    pub root_board: &'a Board,
    pub root_color: Color,
    /// The root's ownership tally for the pattern feature `owner` (every expansion of the
    /// search uses the root's), when the pattern table uses it.
    pub owner: Option<&'a Ownership>,
    /// Passes in a row before the root (0 or 1 matter).
    pub root_passes: u32,
    /// Last two moves before the root, for the priors and the pattern playouts.
    pub root_recent: Recent,
    /// The komi the playouts are scored with (the game's komi plus handicap compensation,
    /// plus the dynamic komi offset): black wins when area score > komi.
    pub komi: f32,
    /// The game's komi plus handicap compensation, without the offset: the reported scores
    /// and [`SharedSearch::root_real_half_wins`] use it.
    pub real_komi: f32,
    pub config: &'a SearchConfig,
    pub priors: &'a dyn MovePriors,
    /// The opening prior of the expansions, when it is on.
    pub opening: Option<OpeningLines>,
    pub expand_visits: u32,
    /// The selection constants, resolved once per search.
    pub selection: Selection,
    pub memory: MemoryBudget,
    pub stop: AtomicBool,
    /// Playouts finished in this search.
    pub playouts: AtomicU64,
    /// Playouts claimed (started) in this search, for the fixed-playout limit.
    pub claimed: AtomicU64,
    pub playout_limit: Option<u64>,
    /// Workers still running.
    pub running: AtomicUsize,
    /// Whether a descent that meets a node under expansion waits for its edges: when the
    /// search has more threads than the machine has cores (see `wait_for_expansion`).
    pub wait_for_expansions: bool,
    /// Sum over sampled playouts of +1 (black owns) / -1 (white owns), per board index.
    pub ownership: Box<[AtomicI32]>,
    pub ownership_samples: AtomicU32,
    /// Sum of the final area scores (black's minus white's, no komi) of the playouts that
    /// reached the end of the game, by the root move they went through (its board index:
    /// 0 for a pass).
    pub root_scores: Box<[AtomicI64]>,
    /// How many playouts each sum of `root_scores` adds up.
    pub root_score_counts: Box<[AtomicU32]>,
    /// Black's half-wins under `real_komi` of the playouts counted in `root_score_counts`.
    pub root_real_half_wins: Box<[AtomicU32]>,
    /// Seed for this search's generators.
    pub seed: u64,
    /// The tactical readers of the expansions, one per thread (none: the tree does not
    /// read).
    pub readers: &'a [Mutex<ExpansionReader>],
    /// Reading counts of the threads that finished.
    pub reading: Mutex<ReadingShare>,
    /// Moves left out of the tree near the root (the analyze commands' `avoid`/`allow`).
    pub avoid: &'a AvoidMoves,
    /// The root groups' lives the playouts' final scores follow, and the share of the
    /// playouts that follow them (`owl-score`).
    pub lives: &'a [GroupLife],
    /// The virtual losses of moves feeding the root's dead groups below the root
    /// (`owl-dead-tree`), when on.
    pub dead: Option<DeadFeeding<'a>>,
    pub owl_score: f32,
}

impl SharedSearch<'_> {
    /// Whether the best root child's lead in visits can no longer be caught up with
    /// `remaining` more playouts.
    pub fn decided(&self, remaining: u64) -> bool {
        let Some(edges) = self.root.edges() else {
            return false;
        };
        let (mut best, mut second) = (0u64, 0u64);
        for edge in edges {
            let v = edge.stats().visits as u64;
            if v > best {
                second = best;
                best = v;
            } else if v > second {
                second = v;
            }
        }
        best > 0 && best - second > remaining
    }
}

/// Half-wins (2 = win, 1 = draw, 0 = loss) for `color`, given black's half-wins.
#[inline]
fn half_wins_for(color: Color, black_half_wins: u32) -> u32 {
    match color {
        Color::Black => black_half_wins,
        Color::White => 2 - black_half_wins,
    }
}

/// Black's half-wins for an area score (black minus white, no komi).
#[inline]
fn black_half_wins(score: i32, komi: f32) -> u32 {
    let margin = score as f32 - komi;
    if margin > 0.0 {
        2
    } else if margin < 0.0 {
        0
    } else {
        1
    }
}

/// AMAF weight units a result loses per step between the node's step and its move's, with
/// distance weighting `distance` (k), for a node at step `node_step` of a game played out to
/// step `end` (T): `AMAF_WEIGHT_UNITS * k / (T - node_step)`.
#[inline]
fn amaf_units_lost_per_step(distance: f32, node_step: usize, end: usize) -> f32 {
    AMAF_WEIGHT_UNITS as f32 * distance / end.saturating_sub(node_step).max(1) as f32
}

/// The weight, in units of 1 / [`AMAF_WEIGHT_UNITS`], of an AMAF result for a move played
/// `later` steps after the node: `1 - k (t - t_node) / (T - t_node)`, rounded.
#[inline]
fn amaf_units(per_step: f32, later: usize) -> u32 {
    (AMAF_WEIGHT_UNITS as f32 + 0.5 - per_step * later as f32).max(0.0) as u32
}

/// A worker's scratch, reused for every playout (nothing is allocated per playout once the
/// buffers have grown to the deepest path).
struct Worker<'a, P> {
    shared: &'a SharedSearch<'a>,
    policy: P,
    rng: PlayoutRng,
    board: Board,
    amaf: AmafRecord,
    /// Nodes on the current path, root first.
    path: Vec<&'a Node>,
    /// Edges taken, `taken[k]` from `path[k]` (the last one may have no node yet).
    taken: Vec<&'a Edge>,
    /// Virtual-loss guards for the edges taken.
    guards: Vec<VirtualLoss<'a>>,
    /// Moves played in the tree, `moves[k]` from `path[k]`.
    moves: Vec<(Color, Move)>,
    /// Stone hashes along the path, for the path superko check.
    hashes: Vec<u64>,
    /// Indices of the edges of one node that get an AMAF result, gathered without a branch
    /// per edge in `backup`.
    amaf_hits: [u16; MAX_CELLS],
    candidates: Vec<Move>,
    prior_buf: Vec<Prior>,
    ownership: [i32; MAX_CELLS],
    ownership_samples: u32,
    /// The owner of each board index at the end of the current playout (`Color as u8`, 0
    /// for none), filled only for the criticality counts.
    owner_codes: [u8; MAX_CELLS],
    /// AMAF results for the root's edges not yet added to them, by point index, summed as
    /// `result_increment` words.
    root_amaf: [u64; MAX_CELLS],
    /// Playouts whose root AMAF results wait in `root_amaf` (and whose scores wait in
    /// `root_scores`).
    root_amaf_pending: u32,
    /// Final area scores not yet added to [`SharedSearch::root_scores`], by root move
    /// (flushed with the root AMAF results), and how many playouts each sums up.
    root_scores: [i32; MAX_CELLS],
    root_score_counts: [u32; MAX_CELLS],
    /// Black's half-wins under the real komi of those playouts.
    root_real_half_wins: [u32; MAX_CELLS],
    /// This worker's share of the tree's memory budget.
    memory: LocalMemory<'a>,
    cap: usize,
    /// Playouts run by this worker.
    done: u64,
    /// Finished playouts not yet added to the shared count.
    unreported: u64,
    /// This thread's tactical reader, when the tree reads.
    reader: Option<MutexGuard<'a, ExpansionReader>>,
}

/// Runs one worker until the search stops.
pub fn run_worker(shared: &SharedSearch<'_>, index: usize) {
    match shared.config.params.playout.playout {
        PlayoutKind::Light => Worker::new(shared, index, LightPolicy).run(),
        PlayoutKind::Pattern => {
            let policy = PatternPolicy::configured(
                shared.config.patterns.for_size(shared.root_board.size()),
                &shared.config.params.playout,
                shared.root_board.geometry(),
            );
            Worker::new(shared, index, policy).run()
        }
    }
    shared.running.fetch_sub(1, Ordering::AcqRel);
}

/// A playout policy as the workers use it: told the last two moves before each playout.
trait SearchPolicy: PlayoutPolicy {
    /// Before a playout: `recent` are the last two moves before it, `tree_moves` the
    /// descent from the root (where `root_color` was to move after `root_recent`).
    fn begin(
        &mut self,
        _recent: Recent,
        _root_recent: Recent,
        _root_color: Color,
        _tree_moves: &[(Color, Move)],
    ) {
    }

    /// After a playout: who won it (`None`: a draw).
    fn learn(&mut self, _winner: Option<Color>) {}
}

impl SearchPolicy for LightPolicy {}

impl SearchPolicy for PatternPolicy<'_> {
    #[inline]
    fn begin(
        &mut self,
        recent: Recent,
        root_recent: Recent,
        root_color: Color,
        tree_moves: &[(Color, Move)],
    ) {
        self.start(recent);
        if let Some(replies) = self.replies() {
            let [last, second_last] = root_recent.indices();
            replies.begin(second_last, last, root_color);
            for &(_, mv) in tree_moves {
                replies.push_move(mv);
            }
        }
    }

    #[inline]
    fn learn(&mut self, winner: Option<Color>) {
        if let Some(replies) = self.replies() {
            replies.learn(winner);
        }
    }
}

impl<'a, P: SearchPolicy> Worker<'a, P> {
    fn new(shared: &'a SharedSearch<'a>, index: usize, policy: P) -> Worker<'a, P> {
        Worker {
            shared,
            policy,
            rng: playout_rng(shared.seed, index as u64),
            board: shared.root_board.clone(),
            amaf: AmafRecord::default(),
            path: Vec::with_capacity(PATH_CAPACITY),
            taken: Vec::with_capacity(PATH_CAPACITY),
            guards: Vec::with_capacity(PATH_CAPACITY),
            moves: Vec::with_capacity(PATH_CAPACITY),
            hashes: Vec::with_capacity(PATH_CAPACITY),
            amaf_hits: [0; MAX_CELLS],
            candidates: Vec::with_capacity(crate::board::MAX_POINTS + 1),
            prior_buf: Vec::with_capacity(crate::board::MAX_POINTS + 1),
            ownership: [0; MAX_CELLS],
            ownership_samples: 0,
            owner_codes: [0; MAX_CELLS],
            root_amaf: [0; MAX_CELLS],
            root_amaf_pending: 0,
            root_scores: [0; MAX_CELLS],
            root_score_counts: [0; MAX_CELLS],
            root_real_half_wins: [0; MAX_CELLS],
            memory: LocalMemory::new(&shared.memory),
            cap: default_move_cap(shared.root_board.size()),
            done: 0,
            unreported: 0,
            reader: shared.readers.get(index).map(Mutex::lock),
        }
    }

    fn run(&mut self) {
        let shared = self.shared;
        loop {
            if shared.stop.load(Ordering::Relaxed) {
                break;
            }
            if let Some(limit) = shared.playout_limit {
                let claimed = shared.claimed.fetch_add(1, Ordering::Relaxed);
                if claimed >= limit {
                    break;
                }
                // Stop early when the runner-up cannot catch up with the playouts left.
                if shared.config.params.early_stop
                    && claimed.is_multiple_of(16)
                    && shared.decided(limit - claimed)
                {
                    shared.stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            self.playout_once();
            self.unreported += 1;
            if self.unreported >= PLAYOUT_COUNT_BATCH {
                shared
                    .playouts
                    .fetch_add(self.unreported, Ordering::Relaxed);
                self.unreported = 0;
            }
        }
        shared
            .playouts
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
        self.flush_ownership();
        self.flush_root_amaf();
        self.memory.give_back();
        if let Some(reader) = self.reader.as_mut() {
            let share = reader.take_share();
            shared.reading.lock().add(share);
        }
    }

    /// Adds the buffered root AMAF results to the root's edges, and the buffered scores to
    /// the shared sums. (A playout with a score went through a root edge: its backup counted
    /// it as pending.)
    fn flush_root_amaf(&mut self) {
        if self.root_amaf_pending == 0 {
            return;
        }
        let shared = self.shared;
        if let Some(edges) = shared.root.edges() {
            for edge in edges {
                let i = edge.point_index();
                let sum = self.root_amaf[i];
                if sum != 0 {
                    edge.add_amaf_sum(sum);
                    self.root_amaf[i] = 0;
                }
                let count = self.root_score_counts[i];
                if count != 0 {
                    shared.root_scores[i].fetch_add(self.root_scores[i] as i64, Ordering::Relaxed);
                    shared.root_score_counts[i].fetch_add(count, Ordering::Relaxed);
                    shared.root_real_half_wins[i]
                        .fetch_add(self.root_real_half_wins[i], Ordering::Relaxed);
                    self.root_scores[i] = 0;
                    self.root_score_counts[i] = 0;
                    self.root_real_half_wins[i] = 0;
                }
            }
        }
        self.root_amaf_pending = 0;
    }

    fn flush_ownership(&mut self) {
        if self.ownership_samples == 0 {
            return;
        }
        let shared = self.shared;
        for p in self.board.geometry().points() {
            let i = p.index();
            if self.ownership[i] != 0 {
                shared.ownership[i].fetch_add(self.ownership[i], Ordering::Relaxed);
                self.ownership[i] = 0;
            }
        }
        shared
            .ownership_samples
            .fetch_add(self.ownership_samples, Ordering::Relaxed);
        self.ownership_samples = 0;
    }

    /// One descent, playout and backup.
    fn playout_once(&mut self) {
        let shared = self.shared;
        self.board.copy_from(shared.root_board);
        self.path.clear();
        self.taken.clear();
        self.guards.clear();
        self.moves.clear();
        self.hashes.clear();
        self.amaf.clear();

        let mut node = shared.root;
        self.path.push(node);
        self.hashes.push(self.board.hash());
        let mut color = shared.root_color;
        let mut passes = shared.root_passes.min(1);
        let mut recent = shared.root_recent;
        // Black's half-wins when the descent itself decides the result.
        let mut decided: Option<u32> = None;
        // The final area score, when the game reached its end.
        let mut score: Option<i32> = None;

        loop {
            let edges = match node.edges() {
                Some(edges) => edges,
                None => {
                    let is_root = self.path.len() == 1;
                    if (is_root || node.stats().visits >= shared.expand_visits)
                        && node.try_begin_expansion()
                    {
                        if !self.expand(node, color, recent) {
                            break;
                        }
                        node.edges().expect("just expanded")
                    } else if shared.wait_for_expansions
                        && let Some(edges) = wait_for_expansion(node, &shared.stop)
                    {
                        edges
                    } else {
                        break;
                    }
                }
            };
            if edges.is_empty() {
                break;
            }
            let edge = &edges[select(node, edges, &shared.selection)];
            let mv = edge.mv();
            match mv {
                Move::Pass => {
                    self.board.pass();
                    passes += 1;
                }
                Move::Play(p) => {
                    self.board.play_unchecked(p, color);
                    passes = 0;
                }
            }
            recent = recent.after(mv);
            self.moves.push((color, mv));
            self.taken.push(edge);
            self.guards.push(edge.enter());
            let Some(child) = edge.child_or_create(&mut self.memory) else {
                break;
            };
            self.path.push(child);
            node = child;
            color = color.opponent();
            if passes >= 2 {
                let area = self.board.area_score();
                score = Some(area);
                decided = Some(black_half_wins(area, shared.komi));
                break;
            }
            let hash = self.board.hash();
            if mv != Move::Pass && self.hashes.contains(&hash) {
                // The move repeats a position of the path: superko forbids it; count it as
                // a loss for the player who made it.
                decided = Some(half_wins_for(color, 2));
                break;
            }
            self.hashes.push(hash);
        }

        let black = match decided {
            Some(result) => result,
            None => {
                let verdicts = self.verdicts_at_leaf(color);
                self.policy
                    .begin(recent, shared.root_recent, shared.root_color, &self.moves);
                // The playout's stones come after the tree moves, steps 0 to depth - 1.
                self.amaf.set_step(self.moves.len());
                let outcome = run_playout(
                    &mut self.board,
                    color,
                    &mut self.policy,
                    &mut self.rng,
                    self.cap,
                    &mut self.amaf,
                );
                self.done += 1;
                if self.done.is_multiple_of(OWNERSHIP_SAMPLE_EVERY) {
                    self.sample_ownership();
                }
                let final_score = outcome.score + self.score_correction(&verdicts);
                score = Some(final_score);
                let black = black_half_wins(final_score, shared.komi);
                self.policy.learn(match black {
                    0 => Some(Color::White),
                    2 => Some(Color::Black),
                    _ => None,
                });
                black
            }
        };
        if let (Some(score), Some(edge)) = (score, self.taken.first()) {
            let i = edge.point_index();
            self.root_scores[i] += score;
            self.root_score_counts[i] += 1;
            self.root_real_half_wins[i] += black_half_wins(score, shared.real_komi);
        }
        // The winner, for the criticality counts: only of a game played to its end (not a
        // draw), with the owners of its final position.
        let critical_winner = match (black, score) {
            (2, Some(_)) => Some(Color::Black),
            (0, Some(_)) => Some(Color::White),
            _ => None,
        }
        .filter(|_| shared.selection.criticality > 0.0);
        if critical_winner.is_some() {
            self.record_owners();
        }
        self.backup(black, critical_winner);
        // Dropping the guards removes the virtual loss.
        self.guards.clear();
    }

    /// For each of the root's group lives (`owl-score`), whether the group counts as dead
    /// at the end of this playout (`None`: as the playout leaves it), given the tree's
    /// moves and `to_move` at the leaf; all `None` for a playout that does not follow
    /// the verdicts.
    fn verdicts_at_leaf(&mut self, to_move: Color) -> [Option<bool>; OWL_TARGETS] {
        let shared = self.shared;
        let mut dead = [None; OWL_TARGETS];
        if shared.lives.is_empty()
            || (shared.owl_score < 1.0
                && random_below(&mut self.rng, 1 << 24) as f32 >= shared.owl_score * 16_777_216.0)
        {
            return dead;
        }
        for (slot, life) in dead.iter_mut().zip(shared.lives) {
            *slot = life.dead_after(&self.moves, to_move);
        }
        dead
    }

    /// What the verdicts of [`Worker::verdicts_at_leaf`] add to the final score of the
    /// position on the worker's board.
    fn score_correction(&self, verdicts: &[Option<bool>; OWL_TARGETS]) -> i32 {
        verdicts
            .iter()
            .zip(self.shared.lives)
            .filter_map(|(dead, life)| dead.map(|dead| life.score_correction(&self.board, dead)))
            .sum()
    }

    /// Fills `owner_codes` from the final position on the worker's board.
    #[inline(never)]
    fn record_owners(&mut self) {
        let owners = self.board.area_owners();
        for p in self.board.geometry().points() {
            let i = p.index();
            self.owner_codes[i] = owners[i].map_or(0, |c| c as u8);
        }
    }

    #[inline(never)]
    fn sample_ownership(&mut self) {
        let owners = self.board.area_owners();
        for p in self.board.geometry().points() {
            let i = p.index();
            self.ownership[i] += match owners[i] {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
        }
        self.ownership_samples += 1;
        if self.ownership_samples >= 64 {
            self.flush_ownership();
        }
    }

    /// Creates the edges of `node` (claimed by `try_begin_expansion`) for `color` to move on
    /// the worker's board. False when memory is full (the node stays a leaf).
    #[inline(never)]
    fn expand(&mut self, node: &Node, color: Color, recent: Recent) -> bool {
        let shared = self.shared;
        // With memory full, skip building a candidate list that could not be stored.
        let smallest = super::tree::EDGE_LIST_BYTES + super::tree::EDGE_BYTES;
        if self.memory.is_full_for(smallest) {
            if !self.memory.try_reserve(smallest) {
                node.abandon_expansion();
                return false;
            }
            // Room after all (another thread released some): keep it as slack.
            self.memory.release(smallest);
        }
        self.candidates.clear();
        // Board order, whatever the order of the empty-point list.
        for p in self.board.geometry().points() {
            if self.board.cell(p) == Cell::Empty
                && !self.board.is_ko_retake(p, color)
                && !self.board.is_suicide(p, color)
            {
                self.candidates.push(Move::Play(p));
            }
        }
        self.candidates.push(Move::Pass);
        // The move out of this node is ply `path.len()` from the root (the root's is ply 1).
        shared
            .avoid
            .retain_allowed(color, self.path.len(), &mut self.candidates);
        let bytes = super::tree::EDGE_LIST_BYTES + self.candidates.len() * super::tree::EDGE_BYTES;
        if !self.memory.try_reserve(bytes) {
            node.abandon_expansion();
            return false;
        }
        let query = PriorQuery {
            board: &self.board,
            color,
            recent,
            moves: &self.candidates,
            owner: shared.owner,
        };
        PriorSources::expansion(
            shared.priors,
            shared.opening,
            self.reader.as_deref_mut(),
            shared.dead,
        )
        .mix(&query, &mut self.prior_buf);
        let edges: Box<[Edge]> = self
            .candidates
            .iter()
            .zip(&self.prior_buf)
            .map(|(&mv, &prior)| Edge::new(mv, prior))
            .collect();
        node.finish_expansion(edges);
        true
    }

    /// Adds the result to every node on the path and the AMAF statistics to their edges, and
    /// when `critical_winner` is given (the playout's winner, `owner_codes` holding its final
    /// owners) the criticality counts of the nodes that keep them.
    ///
    /// With `rave-distance` k > 0 an AMAF result of a node at depth d for a point first
    /// played at step t of a playout of T steps (the tree moves are steps 0 to depth - 1)
    /// weighs `1 - k (t - d) / (T - d)`, in units of 1 / [`AMAF_WEIGHT_UNITS`].
    #[inline(never)]
    fn backup(&mut self, black: u32, critical_winner: Option<Color>) {
        let root_color = self.shared.root_color;
        let depth = self.path.len();
        let moves = self.moves.len();
        let distance = self.shared.selection.rave_distance;
        // Steps in the whole game played out: the tree moves and the playout's stones.
        let end = self.amaf.next_step().max(moves);
        // A playout that ended below the last node went through an edge without a node
        // (memory full) and is counted in that edge; otherwise it ended at the last node.
        if self.taken.len() < depth {
            self.path[depth - 1].add_own_playout();
        }
        // From the deepest depth up, the tree move of each depth is written over the
        // playout's AMAF record: at depth d the record then says who first played each point
        // from d on (a tree move there comes before every playout move).
        for d in (0..depth.max(moves + 1)).rev() {
            if d < moves {
                let (c, mv) = self.moves[d];
                if let Move::Play(p) = mv {
                    self.amaf.overwrite(c, p, d);
                }
            }
            if d >= depth {
                continue;
            }
            let node = self.path[d];
            // The player to move at depth d (the node's statistics are for the other one).
            let to_move = if d % 2 == 0 {
                root_color
            } else {
                root_color.opponent()
            };
            node.add_result(half_wins_for(to_move.opponent(), black));
            if let Some(edge) = self.taken.get(d) {
                edge.add_result(half_wins_for(to_move, black));
            }
            if let Some(edges) = node.edges() {
                let wins = half_wins_for(to_move, black);
                let code = to_move as u8;
                // Gather the edges first played by `to_move` without branching on each (the
                // test is a coin toss), then add their results. A pass edge has point index
                // 0, a border cell, where nothing is recorded.
                let mut hits = 0;
                for (k, edge) in edges.iter().enumerate() {
                    self.amaf_hits[hits] = k as u16;
                    hits += (self.amaf.first_code(edge.point_index()) == code) as usize;
                }
                if distance > 0.0 {
                    let per_step = amaf_units_lost_per_step(distance, d, end);
                    for &k in &self.amaf_hits[..hits] {
                        let edge = &edges[k as usize];
                        let i = edge.point_index();
                        let units = amaf_units(per_step, self.amaf.first_step(i).saturating_sub(d));
                        let increment = weighted_increment(wins, units);
                        if d == 0 {
                            self.root_amaf[i] += increment;
                        } else {
                            edge.add_amaf_word(increment);
                        }
                    }
                } else {
                    for &k in &self.amaf_hits[..hits] {
                        let edge = &edges[k as usize];
                        if d == 0 {
                            self.root_amaf[edge.point_index()] += result_increment(wins);
                        } else {
                            edge.add_amaf(wins);
                        }
                    }
                }
                if let Some(winner) = critical_winner
                    && node.stats().visits >= CRITICALITY_START_VISITS
                    && let Some(counts) = node.criticality_or_create(edges, &mut self.memory)
                {
                    counts.record(edges, winner, &self.owner_codes);
                }
            }
        }
        if depth > 0 && self.shared.root.edges().is_some() {
            self.root_amaf_pending += 1;
            let batch =
                root_amaf_batch(self.shared.root.stats().visits, self.shared.config.threads);
            if self.root_amaf_pending >= batch {
                self.flush_root_amaf();
            }
        }
    }
}

/// The edges of `node` once the thread expanding it has published them; `None` when no
/// thread is expanding it, when that thread gave up (memory full) or when the search
/// stops. Used when the search has more threads than the machine has cores
/// ([`SharedSearch::wait_for_expansions`]): the expanding thread can then be descheduled
/// for milliseconds, long enough for the other threads to spend a good share of a short
/// search on playouts from one unexpanded node (16 threads at 1,000 playouts a move on
/// two cores lost most of their strength that way, benches/README.md). With a core for
/// each thread the expansion soon ends, and a descent that meets it plays out from the
/// leaf at once instead of spinning through it.
fn wait_for_expansion<'n>(node: &'n Node, stop: &AtomicBool) -> Option<&'n [Edge]> {
    while node.is_expanding() && !stop.load(Ordering::Relaxed) {
        std::thread::yield_now();
    }
    node.edges()
}

/// The index of the edge to descend, for the player to move at `node`.
///
/// An edge's value mixes its own mean `q = w / n` and its AMAF mean `aw / an` (the prior
/// counting as `n` and `rave_prior` times as AMAF playouts) with the weight
/// `beta = an / (an + n + an * n / equivalence)`. With `d = an + n + an * n / equivalence`,
/// `(1 - beta) * q = (1 + an / equivalence) * w / d` and `beta * aw / an = aw / d`, so the
/// value is `((1 + an / equivalence) * w + aw) / d`: one division per edge instead of four
/// (this loop runs over every edge of every node of a descent).
#[inline(never)]
fn select(node: &Node, edges: &[Edge], config: &Selection) -> usize {
    let parent = node.stats().visits as f32;
    let log_parent = (parent + 1.0).ln();
    // K = 0 turns RAVE off (the value is `q` alone).
    let rave_on = config.rave > 0.0;
    let per_equivalence = if rave_on { 1.0 / config.rave } else { 0.0 };
    let c = config.exploration;
    let rave_prior = config.rave_prior;
    // AMAF statistics are kept in weight units when weighted by distance.
    let amaf_scale = if config.rave_distance > 0.0 {
        1.0 / AMAF_WEIGHT_UNITS as f32
    } else {
        1.0
    };
    // Criticality, once the node has sampled enough playouts.
    let criticality = if rave_on && config.criticality > 0.0 {
        node.criticality()
            .filter(|c| c.samples() >= CRITICALITY_MIN_SAMPLES)
            .map(|c| (c, c.mean()))
    } else {
        None
    };
    let first_play_urgency = config.fpu;
    let virtual_loss = config.virtual_loss;
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (k, edge) in edges.iter().enumerate() {
        let prior = edge.prior();
        let stats = edge.stats();
        let n = prior.visits + stats.visits as f32 + edge.virtual_loss() as f32 * virtual_loss;
        let w = prior.wins + stats.wins;
        let (mut an, mut aw) = if rave_on {
            let amaf = edge.amaf();
            (
                amaf.visits as f32 * amaf_scale + rave_prior * prior.visits,
                amaf.wins * amaf_scale + rave_prior * prior.wins,
            )
        } else {
            (0.0, 0.0)
        };
        if let Some((counts, mean)) = criticality {
            // A move more critical than the node's moves on average gets the excess, times
            // the setting, of its AMAF playouts as extra AMAF wins.
            let extra = config.criticality * (counts.of(k) - mean).max(0.0) * an;
            an += extra;
            aw += extra;
        }
        let mixed = an * per_equivalence;
        let d = an + n + mixed * n;
        let value = if d > 0.0 {
            ((1.0 + mixed) * w + aw) / d
        } else {
            first_play_urgency
        };
        let score = if c > 0.0 {
            value + c * (log_parent / (n + 1.0)).sqrt()
        } else {
            value
        };
        if score > best_score {
            best_score = score;
            best = k;
        }
    }
    best
}

#[cfg(test)]
mod tests;
