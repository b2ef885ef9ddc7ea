//! The shared search tree: nodes with atomic statistics, children stored compactly as edges
//! (move, prior, AMAF statistics) whose nodes are materialised lazily on first visit, the
//! one-shot expansion protocol, virtual loss with a guard that always undoes it, and the
//! memory account that bounds the tree.
//!
//! Concurrency model: no global lock. Statistics (visits and wins packed in one `AtomicU64`),
//! virtual loss and own-playout counts are atomics. The statistics of a move live in its
//! edge, so that selection reads one contiguous array and never chases child pointers; a
//! node keeps its own total (the root's is the only one not mirrored by an edge). The edge list is a
//! `OnceLock` filled exactly once by the thread that wins the `UNEXPANDED -> EXPANDING`
//! compare-and-swap on `expansion`. Other threads that meet a node being expanded treat it as
//! a leaf for that descent and keep working. A child node is created under the edge's own
//! `OnceLock`, so two threads selecting the same new edge share one node.

use std::sync::OnceLock;
use std::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};

use crate::board::{Color, Move, Point};

/// `Edge::mv` code of a pass (no point has index 0: it is a border cell).
const PASS_CODE: u16 = 0;

/// Prior statistics are stored in quarter visits / quarter wins.
const PRIOR_SCALE: f32 = 4.0;

const UNEXPANDED: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// Packs one result into the `(visits << 32) | half_wins` statistics word: a win counts two
/// half-wins, a draw one. (The half-wins would overflow into the visits after 2^31 wins
/// through one edge: some hours of playouts on one move.)
#[inline]
pub fn result_increment(half_wins: u32) -> u64 {
    (1u64 << 32) | half_wins as u64
}

/// AMAF weight units of one result at full weight when AMAF results are weighted by their
/// distance from the node (`rave-distance` > 0): an edge's AMAF word then holds
/// `(weight units << 32) | half-win units`. Unweighted, a result is one unit, as in
/// [`result_increment`].
pub const AMAF_WEIGHT_UNITS: u32 = 16;

/// AMAF visits (in units) at which an edge's AMAF statistics are halved, both halves alike:
/// the half-wins, at most twice the visits, then stay clear of the 32 bits they have, and the
/// AMAF mean is kept.
const AMAF_HALVE_AT: u64 = 1 << 30;

/// One AMAF result of `half_wins` half-wins at a weight of `units` (see
/// [`AMAF_WEIGHT_UNITS`]) as an AMAF word increment; `units` 1 is [`result_increment`].
#[inline]
pub fn weighted_increment(half_wins: u32, units: u32) -> u64 {
    ((units as u64) << 32) | (half_wins * units) as u64
}

/// An AMAF word with both halves halved.
#[inline]
fn halve_amaf(word: u64) -> u64 {
    ((word >> 33) << 32) | ((word & 0xffff_ffff) >> 1)
}

/// Criticality statistics of a node start once it has this many visits.
pub const CRITICALITY_START_VISITS: u32 = 32;

/// Visits and wins of one node or edge, read atomically together.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub visits: u32,
    /// Wins, draws counting one half.
    pub wins: f32,
}

impl Stats {
    #[inline]
    fn unpack(word: u64) -> Stats {
        Stats {
            visits: (word >> 32) as u32,
            wins: (word & 0xffff_ffff) as u32 as f32 * 0.5,
        }
    }

    /// Wins / visits, or `None` without visits.
    #[inline]
    pub fn mean(self) -> Option<f32> {
        (self.visits > 0).then(|| self.wins / self.visits as f32)
    }
}

/// A position in the tree. Its statistics count results for the player who moved into it.
#[derive(Debug, Default)]
pub struct Node {
    /// `(visits << 32) | half_wins` of playouts through this node.
    stats: AtomicU64,
    /// Playouts that ended at this node itself: it was a leaf or a terminal position.
    own_playouts: AtomicU32,
    expansion: AtomicU8,
    edges: OnceLock<Box<[Edge]>>,
    /// Criticality counts (`criticality` > 0), created once the node has
    /// [`CRITICALITY_START_VISITS`] visits: see [`Criticality`].
    criticality: OnceLock<Box<[AtomicU32]>>,
}

/// Cells of a node's criticality counts before the edges' (see [`Criticality`]).
const CRITICALITY_HEAD: usize = 6;

/// The criticality counts of one node's edges over the playouts through the node that reached
/// the end of the game (draws left out): `[samples, black wins, the sums over the edges of
/// the three per-edge counts, the number of edges on points; then per edge: the edge's point
/// owned by the winner, by black, by white]`. Updated with plain loads and stores, like the
/// AMAF statistics: a rare lost update is harmless. The counts stop (they are frozen) before
/// the sums could outgrow their 32 bits.
#[derive(Clone, Copy, Debug)]
pub struct Criticality<'a>(&'a [AtomicU32]);

impl<'a> Criticality<'a> {
    /// Counts for `edges`.
    fn create(edges: &[Edge]) -> Box<[AtomicU32]> {
        let counts: Box<[AtomicU32]> = (0..CRITICALITY_HEAD + 3 * edges.len())
            .map(|_| AtomicU32::new(0))
            .collect();
        let points = edges.iter().filter(|e| e.point_index() != 0).count();
        counts[5].store(points as u32, Ordering::Relaxed);
        counts
    }

    /// Bytes the counts of a node of `edges` edges cost.
    pub fn bytes(edges: usize) -> usize {
        (CRITICALITY_HEAD + 3 * edges) * std::mem::size_of::<AtomicU32>() + ALLOCATION_OVERHEAD
    }

    /// Playouts sampled.
    #[inline]
    pub fn samples(self) -> u32 {
        self.0[0].load(Ordering::Relaxed)
    }

    #[inline]
    fn bump(cell: &AtomicU32, by: u32) {
        cell.store(cell.load(Ordering::Relaxed) + by, Ordering::Relaxed);
    }

    /// Records one playout that `winner` won, with `owner_codes[i]` the owner (`Color as
    /// u8`, 0 for none) of the board index `i` at its end, for the edges `edges`.
    #[inline]
    pub fn record(self, edges: &[Edge], winner: Color, owner_codes: &[u8]) {
        let samples = self.samples();
        if self.0.len() != CRITICALITY_HEAD + 3 * edges.len()
            || samples as u64 >= u32::MAX as u64 / (edges.len() as u64 + 1)
        {
            return;
        }
        self.0[0].store(samples + 1, Ordering::Relaxed);
        Self::bump(&self.0[1], (winner == Color::Black) as u32);
        let winner = winner as u8;
        let mut sums = [0u32; 3];
        for (edge, counts) in edges.iter().zip(self.0[CRITICALITY_HEAD..].chunks_exact(3)) {
            let owner = owner_codes[edge.point_index()];
            let hits = [
                (owner == winner) as u32,
                (owner == Color::Black as u8) as u32,
                (owner == Color::White as u8) as u32,
            ];
            for ((cell, sum), hit) in counts.iter().zip(&mut sums).zip(hits) {
                Self::bump(cell, hit);
                *sum += hit;
            }
        }
        for (cell, sum) in self.0[2..5].iter().zip(sums) {
            Self::bump(cell, sum);
        }
    }

    /// `P(owner = winner) - (P(black owns) P(black wins) + P(white owns) P(white wins))` from
    /// the three counts, out of `n` samples with black's win share `black_wins`.
    #[inline]
    fn formula(counts: [f32; 3], n: f32, black_wins: f32) -> f32 {
        let [winner, black, white] = counts.map(|x| x / n);
        winner - (black * black_wins + white * (1.0 - black_wins))
    }

    /// The criticality of edge `k`: how much more often its point ended owned by the winner
    /// than chance would have it, `P(owner = winner) - (P(black owns) P(black wins) +
    /// P(white owns) P(white wins))`; 0 without samples.
    #[inline]
    pub fn of(self, k: usize) -> f32 {
        let samples = self.samples();
        if samples == 0 {
            return 0.0;
        }
        let n = samples as f32;
        let black_wins = self.0[1].load(Ordering::Relaxed) as f32 / n;
        let counts = &self.0[CRITICALITY_HEAD + 3 * k..CRITICALITY_HEAD + 3 + 3 * k];
        Self::formula(
            [0, 1, 2].map(|j| counts[j].load(Ordering::Relaxed) as f32),
            n,
            black_wins,
        )
    }

    /// The mean criticality of the edges on points (the same formula on the counts summed
    /// over them); 0 without samples.
    #[inline]
    pub fn mean(self) -> f32 {
        let samples = self.samples();
        let points = self.0[5].load(Ordering::Relaxed);
        if samples == 0 || points == 0 {
            return 0.0;
        }
        let n = samples as f32 * points as f32;
        let black_wins = self.0[1].load(Ordering::Relaxed) as f32 / samples as f32;
        Self::formula(
            [2, 3, 4].map(|j| self.0[j].load(Ordering::Relaxed) as f32),
            n,
            black_wins,
        )
    }
}

/// A candidate move below a node: the move, its prior as virtual visits and wins, the
/// statistics of the playouts through it and its AMAF statistics (both for the player
/// choosing it), its virtual loss, and the child node once some descent has chosen it.
#[derive(Debug)]
pub struct Edge {
    mv: u16,
    prior_visits: u16,
    prior_wins: u16,
    /// Descents currently under way through this edge (each counts as a lost visit).
    virtual_loss: AtomicU16,
    /// `(visits << 32) | half_wins` of playouts through this edge.
    stats: AtomicU64,
    /// `(visits << 32) | half_wins` of AMAF updates.
    amaf: AtomicU64,
    child: OnceLock<Box<Node>>,
}

/// A prior for one candidate: `visits` virtual playouts of which `wins` were won.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prior {
    pub visits: f32,
    pub wins: f32,
}

impl Prior {
    pub const NONE: Prior = Prior {
        visits: 0.0,
        wins: 0.0,
    };

    /// Adds `visits` virtual playouts won at rate `value`.
    #[inline]
    pub fn add(&mut self, visits: f32, value: f32) {
        self.visits += visits;
        self.wins += visits * value;
    }

    /// The prior's mean, 0.5 without virtual visits.
    pub fn mean(self) -> f32 {
        if self.visits > 0.0 {
            self.wins / self.visits
        } else {
            0.5
        }
    }
}

impl Edge {
    pub fn new(mv: Move, prior: Prior) -> Edge {
        let quantise = |x: f32| (x.max(0.0) * PRIOR_SCALE).round().min(u16::MAX as f32) as u16;
        let prior_visits = quantise(prior.visits);
        Edge {
            mv: match mv {
                Move::Pass => PASS_CODE,
                Move::Play(p) => p.index() as u16,
            },
            prior_visits,
            prior_wins: quantise(prior.wins).min(prior_visits),
            virtual_loss: AtomicU16::new(0),
            stats: AtomicU64::new(0),
            amaf: AtomicU64::new(0),
            child: OnceLock::new(),
        }
    }

    /// Replaces the prior (the play layer's root priors on a reused root).
    pub fn set_prior(&mut self, prior: Prior) {
        let fresh = Edge::new(self.mv(), prior);
        self.prior_visits = fresh.prior_visits;
        self.prior_wins = fresh.prior_wins;
    }

    #[inline]
    pub fn mv(&self) -> Move {
        if self.mv == PASS_CODE {
            Move::Pass
        } else {
            Move::Play(Point::from_index(self.mv as usize))
        }
    }

    /// The board index of the move's point (0 for a pass).
    #[inline]
    pub fn point_index(&self) -> usize {
        self.mv as usize
    }

    #[inline]
    pub fn prior(&self) -> Prior {
        Prior {
            visits: self.prior_visits as f32 / PRIOR_SCALE,
            wins: self.prior_wins as f32 / PRIOR_SCALE,
        }
    }

    #[inline]
    pub fn stats(&self) -> Stats {
        Stats::unpack(self.stats.load(Ordering::Relaxed))
    }

    #[inline]
    pub fn virtual_loss(&self) -> u32 {
        self.virtual_loss.load(Ordering::Relaxed) as u32
    }

    /// Records one playout result through this edge.
    #[inline]
    pub fn add_result(&self, half_wins: u32) {
        self.stats
            .fetch_add(result_increment(half_wins), Ordering::Relaxed);
    }

    /// Adds virtual loss; the guard removes it again when dropped.
    #[inline]
    pub fn enter(&self) -> VirtualLoss<'_> {
        self.virtual_loss.fetch_add(1, Ordering::Relaxed);
        VirtualLoss(self)
    }

    /// The AMAF statistics in their units: one per result, or [`AMAF_WEIGHT_UNITS`] per
    /// result at full weight when weighted.
    #[inline]
    pub fn amaf(&self) -> Stats {
        Stats::unpack(self.amaf.load(Ordering::Relaxed))
    }

    /// Adds AMAF results already summed as [`result_increment`] (or
    /// [`weighted_increment`]) words.
    #[inline]
    pub fn add_amaf_sum(&self, sum: u64) {
        let after = self
            .amaf
            .fetch_add(sum, Ordering::Relaxed)
            .wrapping_add(sum);
        if after >> 32 >= AMAF_HALVE_AT {
            let _ = self
                .amaf
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |word| {
                    (word >> 32 >= AMAF_HALVE_AT).then(|| halve_amaf(word))
                });
        }
    }

    /// Adds one AMAF result with a plain load and store rather than an atomic
    /// read-modify-write: a backup makes dozens of these per node, and a locked add costs
    /// several times a plain one. Two threads updating the same edge at the same instant can
    /// lose one of the two updates; AMAF statistics only guide selection, so a rare lost
    /// update is harmless (the real visit counts, which must add up, use `fetch_add`).
    #[inline]
    pub fn add_amaf(&self, half_wins: u32) {
        self.add_amaf_word(result_increment(half_wins));
    }

    /// Adds one AMAF result given as a word increment ([`weighted_increment`]), like
    /// [`Edge::add_amaf`]. Statistics about to outgrow their 32-bit halves are halved first.
    #[inline]
    pub fn add_amaf_word(&self, increment: u64) {
        let mut word = self.amaf.load(Ordering::Relaxed);
        if word >> 32 >= AMAF_HALVE_AT {
            word = halve_amaf(word);
        }
        self.amaf
            .store(word.wrapping_add(increment), Ordering::Relaxed);
    }

    /// The child node, if materialised.
    #[inline]
    pub fn child(&self) -> Option<&Node> {
        self.child.get().map(|b| &**b)
    }

    /// The child node, created now if needed when `memory` allows it.
    #[inline]
    pub fn child_or_create(&self, memory: &mut LocalMemory<'_>) -> Option<&Node> {
        if let Some(node) = self.child.get() {
            return Some(node);
        }
        if !memory.try_reserve(NODE_BYTES) {
            return None;
        }
        let mut created = false;
        let node = self.child.get_or_init(|| {
            created = true;
            Box::default()
        });
        if !created {
            // Another thread created it first; give our reservation back.
            memory.release(NODE_BYTES);
        }
        Some(node)
    }

    /// Takes the child out (tree reuse).
    pub fn take_child(&mut self) -> Option<Box<Node>> {
        self.child.take()
    }
}

/// What the allocator is assumed to add to every allocation (header and rounding).
pub const ALLOCATION_OVERHEAD: usize = 16;
/// Bytes one node costs (the boxed node).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + ALLOCATION_OVERHEAD;
/// Bytes one edge costs.
pub const EDGE_BYTES: usize = std::mem::size_of::<Edge>();
/// Bytes an edge list costs besides its edges.
pub const EDGE_LIST_BYTES: usize = ALLOCATION_OVERHEAD;

impl Node {
    #[inline]
    pub fn stats(&self) -> Stats {
        Stats::unpack(self.stats.load(Ordering::Relaxed))
    }

    #[inline]
    pub fn own_playouts(&self) -> u32 {
        self.own_playouts.load(Ordering::Relaxed)
    }

    /// Records one playout result through this node.
    #[inline]
    pub fn add_result(&self, half_wins: u32) {
        self.stats
            .fetch_add(result_increment(half_wins), Ordering::Relaxed);
    }

    /// Records that a playout ended here (besides `add_result`).
    #[inline]
    pub fn add_own_playout(&self) {
        self.own_playouts.fetch_add(1, Ordering::Relaxed);
    }

    /// The criticality counts, once created.
    #[inline]
    pub fn criticality(&self) -> Option<Criticality<'_>> {
        self.criticality.get().map(|c| Criticality(c))
    }

    /// The criticality counts, created now for `edges` (this node's) if needed when
    /// `memory` allows it.
    pub fn criticality_or_create(
        &self,
        edges: &[Edge],
        memory: &mut LocalMemory<'_>,
    ) -> Option<Criticality<'_>> {
        if let Some(counts) = self.criticality.get() {
            return Some(Criticality(counts));
        }
        let bytes = Criticality::bytes(edges.len());
        if !memory.try_reserve(bytes) {
            return None;
        }
        let mut created = false;
        let counts = self.criticality.get_or_init(|| {
            created = true;
            Criticality::create(edges)
        });
        if !created {
            memory.release(bytes);
        }
        Some(Criticality(counts))
    }

    /// The edges, once expanded.
    #[inline]
    pub fn edges(&self) -> Option<&[Edge]> {
        if self.expansion.load(Ordering::Acquire) == EXPANDED {
            self.edges.get().map(|e| &**e)
        } else {
            None
        }
    }

    pub fn edges_mut(&mut self) -> Option<&mut [Edge]> {
        self.edges.get_mut().map(|e| &mut **e)
    }

    /// Keeps only the edges `keep` accepts (the root's, when tree reuse brings edges that
    /// the game's superko rule forbids). The removed edges' playouts leave this node's
    /// statistics too (its visits stay the sum of its edges' plus its own playouts); the
    /// removed edges are returned, for the caller to free where it suits it.
    pub fn retain_edges(&mut self, mut keep: impl FnMut(&Edge) -> bool) -> Vec<Edge> {
        let Some(edges) = self.edges.take() else {
            return Vec::new();
        };
        // The criticality counts follow the edge order: start them again.
        self.criticality.take();
        let (kept, removed): (Vec<Edge>, Vec<Edge>) =
            edges.into_vec().into_iter().partition(|e| keep(e));
        for edge in &removed {
            let word = edge.stats.load(Ordering::Relaxed);
            let visits = word >> 32;
            // The node counts each of those playouts for the other player: 2 - w half-wins.
            let node_half_wins = (2 * visits).saturating_sub(word & 0xffff_ffff);
            self.stats
                .fetch_sub(visits << 32 | node_half_wins, Ordering::Relaxed);
        }
        let _ = self.edges.set(kept.into_boxed_slice());
        removed
    }

    /// Claims the right to expand this node: true for exactly one caller while unexpanded.
    #[inline]
    pub fn try_begin_expansion(&self) -> bool {
        self.expansion.load(Ordering::Relaxed) == UNEXPANDED
            && self
                .expansion
                .compare_exchange(UNEXPANDED, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
    }

    /// Whether some thread's `try_begin_expansion` succeeded and its edges are not
    /// published yet.
    #[inline]
    pub fn is_expanding(&self) -> bool {
        self.expansion.load(Ordering::Acquire) == EXPANDING
    }

    /// Publishes the edges after `try_begin_expansion` succeeded.
    pub fn finish_expansion(&self, edges: Box<[Edge]>) {
        let _ = self.edges.set(edges);
        self.expansion.store(EXPANDED, Ordering::Release);
    }

    /// Gives up an expansion begun with `try_begin_expansion` (no memory): the node stays a
    /// leaf and may be expanded later.
    pub fn abandon_expansion(&self) {
        self.expansion.store(UNEXPANDED, Ordering::Release);
    }

    /// Bytes this node and everything below it use.
    pub fn subtree_bytes(&self) -> usize {
        let mut total = 0;
        let mut stack: Vec<&Node> = vec![self];
        while let Some(node) = stack.pop() {
            total += NODE_BYTES;
            if let Some(counts) = node.criticality.get() {
                total += counts.len() * std::mem::size_of::<AtomicU32>() + ALLOCATION_OVERHEAD;
            }
            if let Some(edges) = node.edges.get() {
                total += EDGE_LIST_BYTES + edges.len() * EDGE_BYTES;
                stack.extend(edges.iter().filter_map(Edge::child));
            }
        }
        total
    }

    /// Checks that every node's visits equal the sum of its children's (its edges') visits
    /// plus its own playouts, that a child node never has more visits than its edge (it
    /// has fewer only when memory was full as the edge was first taken), and that no virtual
    /// loss is left over; returns the number of nodes checked.
    pub fn check_consistency(&self) -> Result<usize, String> {
        let mut count = 0;
        let mut stack: Vec<(&Node, usize)> = vec![(self, 0)];
        while let Some((node, depth)) = stack.pop() {
            count += 1;
            let visits = node.stats().visits as u64;
            let mut sum = node.own_playouts() as u64;
            if let Some(edges) = node.edges.get() {
                for edge in edges.iter() {
                    let stats = edge.stats();
                    sum += stats.visits as u64;
                    if edge.virtual_loss() != 0 {
                        return Err(format!(
                            "edge at depth {depth}: virtual loss {} left over",
                            edge.virtual_loss()
                        ));
                    }
                    if let Some(child) = edge.child() {
                        let child_stats = child.stats();
                        if child_stats.visits > stats.visits || child_stats.wins > stats.wins {
                            return Err(format!(
                                "child at depth {}: {child_stats:?} but its edge has {stats:?}",
                                depth + 1
                            ));
                        }
                        stack.push((child, depth + 1));
                    }
                }
            }
            if sum != visits {
                return Err(format!(
                    "node at depth {depth}: {visits} visits but children and own playouts sum to {sum}"
                ));
            }
        }
        Ok(count)
    }
}

/// Virtual loss on one edge for as long as the guard lives.
#[derive(Debug)]
pub struct VirtualLoss<'a>(&'a Edge);

impl Drop for VirtualLoss<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.virtual_loss.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The tree's memory account: reservations fail once `limit` bytes are in use, and the first
/// failure is logged once (a warning, see [`crate::log`]).
#[derive(Debug)]
pub struct MemoryBudget {
    used: AtomicUsize,
    limit: usize,
    /// Whether the note was logged (it is logged once per searcher).
    warned: AtomicBool,
}

impl MemoryBudget {
    /// An account with `used` bytes in use out of `limit`; `warned` says whether the
    /// "memory full" note was already printed.
    pub fn new(used: usize, limit: usize, warned: bool) -> MemoryBudget {
        MemoryBudget {
            used: AtomicUsize::new(used),
            limit,
            warned: AtomicBool::new(warned),
        }
    }

    /// Whether `bytes` more would exceed the limit (a hint: other threads may reserve or
    /// release meanwhile).
    #[inline]
    pub fn would_overflow(&self, bytes: usize) -> bool {
        self.used.load(Ordering::Relaxed) + bytes > self.limit
    }

    #[inline]
    pub fn try_reserve(&self, bytes: usize) -> bool {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            if used + bytes > self.limit {
                // Read before writing: once warned, full-memory descents no longer write the
                // shared line.
                if !self.warned.load(Ordering::Relaxed)
                    && !self.warned.swap(true, Ordering::Relaxed)
                {
                    crate::log::log(
                        crate::log::LogLevel::Warn,
                        format_args!(
                            "search tree memory full ({} KiB of {} KiB); no longer expanding, \
                             still searching",
                            used >> 10,
                            self.limit >> 10
                        ),
                    );
                }
                return false;
            }
            match self.used.compare_exchange_weak(
                used,
                used + bytes,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(now) => used = now,
            }
        }
    }

    /// Whether the note was printed.
    pub fn warned(&self) -> bool {
        self.warned.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn release(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// Bytes a worker reserves from the shared budget at a time, so that the shared counter is
/// written once per many nodes rather than once per node (it is one cache line that every
/// thread would otherwise fight over).
pub const MEMORY_CHUNK: usize = 64 << 10;

/// One worker's view of the memory budget: reservations come out of a private slack that is
/// refilled from the shared [`MemoryBudget`] a chunk at a time. The slack is returned with
/// [`LocalMemory::give_back`] when the worker stops (and the next search recounts the kept
/// tree anyway).
pub struct LocalMemory<'a> {
    shared: &'a MemoryBudget,
    slack: usize,
}

impl<'a> LocalMemory<'a> {
    pub fn new(shared: &'a MemoryBudget) -> LocalMemory<'a> {
        LocalMemory { shared, slack: 0 }
    }

    /// Takes `bytes` from the slack, refilling it from the shared budget when short (a whole
    /// chunk when the budget has room for one, else exactly what is needed).
    #[inline]
    pub fn try_reserve(&mut self, bytes: usize) -> bool {
        if self.slack >= bytes {
            self.slack -= bytes;
            return true;
        }
        let chunk = MEMORY_CHUNK.max(bytes);
        if !self.shared.would_overflow(chunk) && self.shared.try_reserve(chunk) {
            self.slack += chunk - bytes;
            true
        } else {
            self.shared.try_reserve(bytes)
        }
    }

    /// Returns `bytes` reserved earlier (kept as slack).
    #[inline]
    pub fn release(&mut self, bytes: usize) {
        self.slack += bytes;
    }

    /// Whether a reservation of `bytes` is certain to fail now (a hint that lets a worker skip
    /// building an expansion it could not store).
    #[inline]
    pub fn is_full_for(&self, bytes: usize) -> bool {
        self.slack < bytes && self.shared.would_overflow(bytes)
    }

    /// Returns the unused slack to the shared budget.
    pub fn give_back(&mut self) {
        self.shared.release(self.slack);
        self.slack = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_edges_takes_their_playouts_out_of_the_node() {
        let mut node = Node::default();
        assert!(node.try_begin_expansion());
        let edges: Box<[Edge]> = (1..=3)
            .map(|i| Edge::new(Move::Play(Point::from_index(20 + i)), Prior::NONE))
            .collect();
        node.finish_expansion(edges);
        // Playouts through each edge: (edge index, half-wins for the player choosing it).
        let results = [(0, 2), (0, 0), (1, 2), (2, 1), (2, 2), (2, 0)];
        for &(k, half_wins) in &results {
            node.edges().unwrap()[k].add_result(half_wins);
            node.add_result(2 - half_wins);
        }
        node.add_own_playout();
        node.add_result(2);
        assert_eq!(node.check_consistency(), Ok(1));
        let removed = node.retain_edges(|e| e.point_index() != 23);
        assert_eq!(removed.len(), 1);
        assert_eq!(removed[0].stats().visits, 3);
        assert_eq!(node.edges().unwrap().len(), 2);
        assert_eq!(node.check_consistency(), Ok(1));
        // Left: the three playouts of edges 0 and 1 (the node's half-wins 0 + 2 + 0) and the
        // own playout (2 half-wins).
        let stats = node.stats();
        assert_eq!(stats.visits, 4);
        assert_eq!(stats.wins, 2.0);
    }

    fn edges_on(points: &[usize]) -> Box<[Edge]> {
        points
            .iter()
            .map(|&i| {
                let mv = if i == 0 {
                    Move::Pass
                } else {
                    Move::Play(Point::from_index(i))
                };
                Edge::new(mv, Prior::NONE)
            })
            .collect()
    }

    #[test]
    fn amaf_statistics_are_halved_before_they_overflow() {
        let edge = Edge::new(Move::Play(Point::from_index(30)), Prior::NONE);
        // Just under the limit, won three quarters of the time.
        let visits = AMAF_HALVE_AT - 1;
        edge.amaf
            .store(visits << 32 | (visits * 3 / 2), Ordering::Relaxed);
        let before = edge.amaf();
        for _ in 0..1000 {
            edge.add_amaf_word(weighted_increment(2, AMAF_WEIGHT_UNITS));
            edge.add_amaf_word(weighted_increment(0, AMAF_WEIGHT_UNITS));
            edge.add_amaf_sum(16 * weighted_increment(1, AMAF_WEIGHT_UNITS));
            let word = edge.amaf.load(Ordering::Relaxed);
            assert!(word >> 32 < AMAF_HALVE_AT + 32 * AMAF_WEIGHT_UNITS as u64);
            assert!(
                word & 0xffff_ffff <= 2 * (word >> 32),
                "half-wins carried: {word:x}"
            );
        }
        let after = edge.amaf();
        assert!(after.visits < before.visits, "halved: {after:?}");
        let mean = |s: Stats| s.wins as f64 / s.visits as f64;
        assert!(
            (mean(after) - mean(before)).abs() < 0.001,
            "{before:?} -> {after:?}"
        );
    }

    #[test]
    fn criticality_singles_out_the_points_that_decide_the_game() {
        // Edges on A (owned by the winner of every playout), B (always black's), C (black's
        // in half of the playouts, whoever won) and a pass.
        let [a, b, c] = [30, 31, 32];
        let edges = edges_on(&[a, b, c, 0]);
        let node = Node::default();
        let budget = MemoryBudget::new(0, 1 << 20, false);
        let mut memory = LocalMemory::new(&budget);
        let counts = node.criticality_or_create(&edges, &mut memory).unwrap();
        assert_eq!(counts.of(0), 0.0);
        // Black wins three playouts in four.
        let mut owners = [0u8; 64];
        for round in 0..400 {
            let winner = if round % 4 == 3 {
                Color::White
            } else {
                Color::Black
            };
            owners[a] = winner as u8;
            owners[b] = Color::Black as u8;
            owners[c] = if (round / 4) % 2 == 0 {
                Color::Black as u8
            } else {
                Color::White as u8
            };
            counts.record(&edges, winner, &owners);
        }
        assert_eq!(counts.samples(), 400);
        // A: 1 - (3/4 * 3/4 + 1/4 * 1/4); B and C: 0; the pass: 0.
        let criticality: Vec<f32> = (0..4).map(|k| counts.of(k)).collect();
        for (got, want) in criticality.iter().zip([0.375, 0.0, 0.0, 0.0]) {
            assert!((got - want).abs() < 1e-6, "{criticality:?}");
        }
        // The mean over the three points.
        assert!((counts.mean() - 0.125).abs() < 1e-6, "{}", counts.mean());
        // Removing an edge starts the counts again.
        let mut node = Node::default();
        assert!(node.try_begin_expansion());
        node.finish_expansion(edges);
        node.criticality_or_create(node.edges().unwrap(), &mut memory)
            .unwrap()
            .record(node.edges().unwrap(), Color::Black, &owners);
        assert!(node.criticality().is_some());
        node.retain_edges(|e| e.point_index() != b);
        assert!(node.criticality().is_none());
    }

    #[test]
    fn criticality_counts_freeze_before_they_overflow() {
        let edges = edges_on(&[30, 31, 0]);
        let node = Node::default();
        let budget = MemoryBudget::new(0, 1 << 20, false);
        let mut memory = LocalMemory::new(&budget);
        let counts = node.criticality_or_create(&edges, &mut memory).unwrap();
        let limit = u32::MAX / 4;
        counts.0[0].store(limit - 1, Ordering::Relaxed);
        let mut owners = [Color::Black as u8; 64];
        owners[0] = 0;
        counts.record(&edges, Color::Black, &owners);
        counts.record(&edges, Color::Black, &owners);
        assert_eq!(counts.samples(), limit);
        // Each of the three per-edge sums grew by the two points once.
        assert_eq!(counts.0[2].load(Ordering::Relaxed), 2);
    }
}
