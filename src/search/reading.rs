//! The tactical reader's part in the tree ([`ExpansionReader`]): when a node gets its edges,
//! the chains in a fight are read and the moves that decide them get a prior on top of the
//! [`super::priors::MovePriors`] ones.
//!
//! The chains read are those touching the last two moves with at most
//! [`RECENT_LIBERTIES`] liberties, every chain of [`BIG_CHAIN`] stones or more with at
//! most [`MAX_LIBERTIES`], and with `reading-anywhere` N > 0 every chain of N stones or more
//! with at most [`RECENT_LIBERTIES`] (at most [`MAX_TARGETS`] of them, the recent ones
//! first). For a chain of the side to move the
//! reader answers `defend`: a chain the opponent can capture and a move can save gives that
//! move the bonus; a chain no move saves gives the extensions at its liberties the penalty
//! (an escape into a ladder, say), unless they capture something. For an opponent's chain it
//! answers `attack`, and when the capture works, `defend` with the opponent to move: a
//! chain that is lost whatever happens is left alone, and a chain that the side to move can
//! capture but the opponent could still save gives the capturing move the bonus. Results
//! that need a ko count half; with `reading-size` the bonus grows with the chain's stones
//! (up to [`MAX_SIZE_FACTOR`] times).
//!
//! With `race` on, the capturing races next to the last two moves are read too
//! ([`ExpansionReader::configured`]: a chain of each colour, adjacent, each of [`RACE_MIN_STONES`] stones or
//! more with 2 to [`RACE_LIBERTIES`] liberties, at most [`MAX_RACES`] pairs): when the
//! opponent would win the race by moving first and the side to move wins it (or makes
//! seki) by moving now, that move gets the race bonus.
//!
//! At the root the owl reader ([`RootOwl`]) also reads the life of the groups of
//! `owl-min-stones` stones or more (at most [`OWL_TARGETS`], the biggest first): a group
//! of the side to move that the opponent could kill and a move saves gives that move its
//! bonus (unless `owl-saves` is off), and so does a group of the opponent that a move
//! kills and the opponent could still save, unless the group touches a group of the side
//! to move that is critical too (the save gets the bonus there, not the kill: the
//! opponent would answer a kill by killing ours, which may save theirs; with `owl-saves`
//! off no group of ours counts as critical here). Groups that live
//! whoever moves get nothing; with `owl-dead`, a move
//! feeding a dead group of the side to move (its liberties and the empty points next to
//! them, within 2 points of its stones; captures exempt) gets virtual lost playouts (with
//! `owl-dead` the only use of the reads, only the side to move's groups are read). With
//! `owl-score` it also keeps each group's life ([`GroupLife`]) for the playouts' final
//! scores. A timed search gives the root owl [`OWL_TIME_SHARE`] of its budget: past it,
//! only the verdicts kept from earlier reads are used.
//!
//! Each search thread has its own reader ([`Reader`], with its transposition table kept
//! from one search to the next), so reading takes no lock; the time it takes is counted so
//! that its share of the search can be reported ([`ReadingShare`]).

use std::time::Instant;

use crate::board::{Board, Cell, Color, Move, Point, PointBits, Recent};
use crate::settings::SearchParams;
use crate::tactics::liberties::{liberties_capped, liberties_into};
use crate::tactics::owl::{OwlLimits, OwlReader, group_stones};
use crate::tactics::reader::{ChainStatus, Reader, ReaderLimits, Verdict, neighbour_chains};
use crate::tactics::semeai::{RaceOutcome, SemeaiLimits, SemeaiReader};

use super::group_status::{GroupLife, GroupStatusCache, Life, area_signature, group_stone_bits};
use super::prior_mix::PriorQuery;
use super::tree::Prior;

/// Chains of at least this many stones are read wherever they are.
pub const BIG_CHAIN: usize = 5;

/// Big chains are read when they have at most this many liberties.
pub const MAX_LIBERTIES: usize = 3;

/// Chains touching the last two moves are read when they have at most this many liberties.
pub const RECENT_LIBERTIES: usize = 2;

/// At most this many chains are read per expansion.
pub const MAX_TARGETS: usize = 6;

/// The most a chain's size multiplies the tactical bonus by (`reading-size`).
pub const MAX_SIZE_FACTOR: f32 = 4.0;

/// Depth limit of the reads at expansion, in the reader's units.
const MAX_DEPTH: u32 = 12;

/// Chains in a capturing race are read when each has from 2 to this many liberties (and
/// one of them at least 3: races of two liberties each are the tactical reads').
pub const RACE_LIBERTIES: usize = 4;

/// Chains of fewer stones are not read in races.
pub const RACE_MIN_STONES: usize = 2;

/// At most this many races are read per expansion.
pub const MAX_RACES: usize = 2;

/// Depth limit of the race reads at expansion, in attacker moves.
const RACE_DEPTH: u32 = 8;

/// At most this many groups are read by the owl reader at the root.
pub const OWL_TARGETS: usize = 8;

/// The share of a timed search's budget the root owl may spend: once it is spent, the
/// groups whose verdicts are not kept from earlier reads go unread in this search, so that
/// a short move time is not overrun by reads.
pub const OWL_TIME_SHARE: f64 = 0.25;

/// What reading cost in one search, summed over its threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadingShare {
    /// Expansions that read at least one chain.
    pub expansions: u64,
    /// Reads (attack and defend calls).
    pub reads: u64,
    /// Race questions read (their time is in `nanos`).
    pub race_reads: u64,
    /// Nanoseconds spent reading.
    pub nanos: u64,
    /// The owl reads at the root and their nanoseconds (before the threads start).
    pub owl_reads: u64,
    pub owl_nanos: u64,
    /// Groups at the root whose verdict came from an earlier read (no owl read).
    pub owl_cached: u64,
    /// Groups at the root left unread: the owl's share of the time was spent.
    pub owl_unread: u64,
    /// The root moves given the owl's bonus (`owl`), as board indices, the first
    /// [`OWL_TARGETS`] of them; `owl_bonuses` counts them all. Written only through
    /// [`ReadingShare::note_owl_bonus`], which keeps the two consistent.
    owl_bonus_points: [u16; OWL_TARGETS],
    owl_bonuses: u64,
}

impl ReadingShare {
    /// Adds another thread's counts.
    pub fn add(&mut self, other: ReadingShare) {
        self.expansions += other.expansions;
        self.reads += other.reads;
        self.race_reads += other.race_reads;
        self.nanos += other.nanos;
        self.owl_reads += other.owl_reads;
        self.owl_nanos += other.owl_nanos;
        self.owl_cached += other.owl_cached;
        self.owl_unread += other.owl_unread;
        for p in other.owl_bonus_points() {
            self.note_owl_bonus(p);
        }
        self.owl_bonuses += other.owl_bonuses.saturating_sub(OWL_TARGETS as u64);
    }

    /// Counts a root move given the owl's bonus.
    pub fn note_owl_bonus(&mut self, point: Point) {
        if let Some(slot) = self.owl_bonus_points.get_mut(self.owl_bonuses as usize) {
            *slot = point.index() as u16;
        }
        self.owl_bonuses += 1;
    }

    /// The root moves given the owl's bonus (the first [`OWL_TARGETS`] of them).
    pub fn owl_bonus_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.owl_bonus_points[..(self.owl_bonuses as usize).min(OWL_TARGETS)]
            .iter()
            .map(|&i| Point::from_index(i as usize))
    }
}

/// A search thread's tactical reader for new tree nodes (see the module documentation).
pub struct ExpansionReader {
    reader: Reader,
    /// Virtual playouts of a decisive move's bonus (or of a failed escape's penalty); 0:
    /// no tactical reads.
    weight: f32,
    /// Chains of at least this many stones with at most [`RECENT_LIBERTIES`] are read
    /// wherever they are (0: only near the last two moves).
    anywhere: usize,
    /// The bonus of a chain of `s` stones is `weight` times `1 + size_scale * (s - 1)`, at
    /// most [`MAX_SIZE_FACTOR`] times (0: the same for every chain).
    size_scale: f32,
    /// The race reads, when they are on.
    races: Option<RaceReads>,
    share: ReadingShare,
}

/// The capturing races an expansion reads and the bonus of the move that decides one.
struct RaceReads {
    reader: SemeaiReader,
    weight: f32,
}

impl std::fmt::Debug for ExpansionReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExpansionReader")
            .field("weight", &self.weight)
            .field("anywhere", &self.anywhere)
            .field("size_scale", &self.size_scale)
            .field("limits", &self.reader.limits())
            .field("race_weight", &self.races.as_ref().map(|r| r.weight))
            .field("share", &self.share)
            .finish()
    }
}

/// The chains one expansion reads: a stone of each, without duplicates.
struct Targets {
    stones: [Point; MAX_TARGETS],
    ids: [usize; MAX_TARGETS],
    len: usize,
}

impl Targets {
    fn new() -> Targets {
        Targets {
            stones: [Point::from_index(0); MAX_TARGETS],
            ids: [usize::MAX; MAX_TARGETS],
            len: 0,
        }
    }

    fn is_full(&self) -> bool {
        self.len == MAX_TARGETS
    }

    /// Adds the chain through the stone at `p` if it has at most `max_liberties` and is
    /// new.
    fn consider(&mut self, board: &Board, p: Point, max_liberties: usize) {
        if self.is_full() || board.cell(p).color().is_none() {
            return;
        }
        let id = board.chain_id(p);
        if self.ids[..self.len].contains(&id)
            || liberties_capped(board, p, max_liberties + 1) > max_liberties
        {
            return;
        }
        self.stones[self.len] = p;
        self.ids[self.len] = id;
        self.len += 1;
    }

    /// The chains touching the last two moves, then the big ones and those of at least
    /// `anywhere` stones (0: none) short of liberties, in board order.
    fn gather(&mut self, board: &Board, recent: Recent, anywhere: usize) {
        let g = board.geometry();
        for p in [recent.last, recent.second_last].into_iter().flatten() {
            self.consider(board, p, RECENT_LIBERTIES);
            for n in g.neighbors(p) {
                if board.cell_at(n).color().is_some() {
                    self.consider(board, Point::from_index(n), RECENT_LIBERTIES);
                }
            }
        }
        for p in g.points() {
            if self.is_full() {
                break;
            }
            // One stone per chain: its head.
            if board.cell(p).color().is_none() || board.chain_id(p) != p.index() {
                continue;
            }
            let stones = board.chain_len(p);
            if stones >= BIG_CHAIN {
                self.consider(board, p, MAX_LIBERTIES);
            } else if anywhere > 0 && stones >= anywhere {
                self.consider(board, p, RECENT_LIBERTIES);
            }
        }
    }
}

/// The share of the bonus a verdict earns: a ko counts half.
fn verdict_share(verdict: Verdict) -> f32 {
    match verdict {
        Verdict::Works => 1.0,
        Verdict::Ko | Verdict::KoNeedsThreat => 0.5,
        Verdict::Fails => 0.0,
    }
}

/// Adds `visits` virtual playouts won at rate `value` to the prior of the move at `point`
/// (`out[k]` for `moves[k]`), when it is among the candidates.
fn add_prior(moves: &[Move], out: &mut [Prior], point: Point, visits: f32, value: f32) {
    if let Some(k) = moves.iter().position(|&m| m == Move::Play(point)) {
        out[k].add(visits, value);
    }
}

/// The points where a move feeds the group of `stones` on `board`: its liberties, and the
/// empty points next to a liberty within Manhattan distance 2 of a stone.
fn feeding_points(board: &Board, stones: &PointBits) -> PointBits {
    let g = board.geometry();
    let is_liberty = |q: usize| {
        board.cell_at(q) == Cell::Empty
            && g.neighbors(Point::from_index(q))
                .iter()
                .any(|&n| stones.contains(Point::from_index(n)))
    };
    let near_stones = |p: Point| {
        let (col, row) = g.coords(p);
        (-2i32..=2).any(|dc| {
            (-2i32..=2).any(|dr| {
                dc.abs() + dr.abs() <= 2
                    && col
                        .checked_add_signed(dc as isize)
                        .zip(row.checked_add_signed(dr as isize))
                        .and_then(|(c, r)| g.point(c, r))
                        .is_some_and(|q| stones.contains(q))
            })
        })
    };
    let mut points = PointBits::EMPTY;
    for p in g.points() {
        if board.cell(p) == Cell::Empty
            && (is_liberty(p.index())
                || (near_stones(p) && g.neighbors(p).iter().any(|&n| is_liberty(n))))
        {
            points.insert(p);
        }
    }
    points
}

/// Gives `weight` virtual lost playouts to each of `moves` (for `color`) on a point of
/// `feeding` (see [`feeding_points`]); a capture is exempt.
fn discourage_feeding(
    board: &Board,
    color: Color,
    feeding: &PointBits,
    moves: &[Move],
    out: &mut [Prior],
    weight: f32,
) {
    for (mv, prior) in moves.iter().zip(out.iter_mut()) {
        let Move::Play(p) = *mv else { continue };
        if feeding.contains(p) && !captures(board, p, color) {
            prior.add(weight, 0.0);
        }
    }
}

/// A group the root owl read as dead, for the tree's nodes below the root (`owl-dead-tree`):
/// while the stones of the area its verdict depended on are as at the root, a move of its
/// owner on one of its feeding points gets the virtual losses.
#[derive(Clone, Debug)]
pub struct DeadGroup {
    owner: Color,
    feeding: PointBits,
    area: PointBits,
    signature: u64,
}

/// The `owl-dead-tree` prior of the nodes below the root: virtual losses for the moves
/// feeding the root's dead groups (see [`DeadGroup`]).
#[derive(Clone, Copy, Debug)]
pub struct DeadFeeding<'a> {
    pub groups: &'a [DeadGroup],
    pub weight: f32,
}

impl DeadFeeding<'_> {
    /// Adds the virtual losses of the node `query` describes to `out`.
    pub fn add_priors(&self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        for group in self.groups {
            if group.owner == query.color
                && area_signature(query.board, &group.area) == group.signature
            {
                discourage_feeding(
                    query.board,
                    query.color,
                    &group.feeding,
                    query.moves,
                    out,
                    self.weight,
                );
            }
        }
    }
}

/// Whether `color` playing `p` captures something (an enemy neighbour in atari).
fn captures(board: &Board, p: Point, color: Color) -> bool {
    board
        .geometry()
        .neighbors(p)
        .iter()
        .any(|&n| board.cell_at(n).is(color.opponent()) && board.in_atari(Point::from_index(n)))
}

impl ExpansionReader {
    /// The reader `params` describe: tactical reads worth `reading` virtual playouts
    /// (`reading-nodes` nodes a read, also `reading-anywhere` chains, the bonus grown by
    /// `reading-size`) and race reads worth `race` (`race-nodes` nodes a question); `None`
    /// when neither is on.
    pub fn configured(params: &SearchParams) -> Option<ExpansionReader> {
        if params.reading <= 0.0 && params.race <= 0.0 {
            return None;
        }
        let limits = ReaderLimits {
            nodes: params.reading_nodes,
            max_depth: MAX_DEPTH,
        };
        let races = (params.race > 0.0).then(|| RaceReads {
            reader: SemeaiReader::with_limits(
                SemeaiLimits {
                    nodes: params.race_nodes,
                    max_depth: RACE_DEPTH,
                },
                SemeaiReader::DEFAULT_TABLE_BITS,
            ),
            weight: params.race,
        });
        Some(ExpansionReader {
            reader: Reader::with_limits(limits, Reader::DEFAULT_TABLE_BITS),
            weight: params.reading.max(0.0),
            anywhere: params.reading_anywhere as usize,
            size_scale: params.reading_size.max(0.0),
            races,
            share: ReadingShare::default(),
        })
    }

    /// The settings [`ExpansionReader::configured`] reads: readers made under settings
    /// with other keys must be made again.
    pub fn settings_key(params: &SearchParams) -> (f32, u64, u32, f32, f32, u64) {
        (
            params.reading,
            params.reading_nodes,
            params.reading_anywhere,
            params.reading_size,
            params.race,
            params.race_nodes,
        )
    }

    /// The bonus of a decisive move on the chain through `target`.
    fn chain_weight(&self, board: &Board, target: Point) -> f32 {
        let extra = self.size_scale * (board.chain_len(target) - 1) as f32;
        self.weight * (1.0 + extra).min(MAX_SIZE_FACTOR)
    }

    /// Takes the counts since the last call.
    pub fn take_share(&mut self) -> ReadingShare {
        std::mem::take(&mut self.share)
    }

    /// Adds the reader's priors for the player to move in `query` to `out` (`out[k]` for
    /// `query.moves[k]`, the candidates in any order).
    pub fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        let start = Instant::now();
        let mut read = false;
        if self.weight > 0.0 {
            read |= self.add_tactical_priors(query, out);
        }
        if let Some(races) = &mut self.races {
            let reads_before = races.reader.stats().reads;
            read |= races.add_priors(query, out);
            self.share.race_reads += races.reader.stats().reads - reads_before;
        }
        if read {
            self.share.expansions += 1;
            self.share.nanos += start.elapsed().as_nanos() as u64;
        }
    }

    /// The tactical reads' part of [`ExpansionReader::add_priors`]; whether any chain was
    /// read.
    fn add_tactical_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) -> bool {
        let (board, color, moves) = (query.board, query.color, query.moves);
        let mut targets = Targets::new();
        targets.gather(board, query.recent, self.anywhere);
        if targets.len == 0 {
            return false;
        }
        let reads_before = self.reader.stats().reads;
        for &target in &targets.stones[..targets.len] {
            let Some(owner) = board.cell(target).color() else {
                continue;
            };
            let weight = self.chain_weight(board, target);
            if owner == color {
                let reading = self.reader.defend(board, target);
                match (reading.verdict, reading.point) {
                    // Threatened, and this move saves it.
                    (verdict, Some(save)) if verdict.succeeds() => {
                        add_prior(moves, out, save, weight * verdict_share(verdict), 1.0);
                    }
                    // Lost: running at its liberties only adds stones to the capture.
                    (Verdict::Fails, _) => {
                        let mut liberties = [0u16; MAX_LIBERTIES + 1];
                        let count = liberties_into(board, target, &mut liberties);
                        for &n in &liberties[..count] {
                            let n = Point::from_index(n as usize);
                            if !captures(board, n, color) {
                                add_prior(moves, out, n, weight, 0.0);
                            }
                        }
                    }
                    _ => {}
                }
            } else if let ChainStatus::Unsettled { attack, .. } = self.reader.status(board, target)
                && let Some(capture) = attack.point
            {
                add_prior(
                    moves,
                    out,
                    capture,
                    weight * verdict_share(attack.verdict),
                    1.0,
                );
            }
        }
        self.share.reads += self.reader.stats().reads - reads_before;
        true
    }
}

impl RaceReads {
    /// Reads the races next to the last two moves (see [`ExpansionReader::configured`]);
    /// whether any was read.
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) -> bool {
        let board = query.board;
        let mut pairs = [(Point::from_index(0), Point::from_index(0)); MAX_RACES];
        let count = race_pairs(board, query.color, query.recent, &mut pairs);
        for &(own, theirs) in &pairs[..count] {
            // Who wins with the opponent to move, and only when it would win, with us to
            // move.
            match self.reader.analyze(board, theirs, own) {
                Some(theirs_first) if theirs_first.outcome() == RaceOutcome::Wins => {}
                // Our chain is not in danger: a race we win anyway needs no move now.
                _ => continue,
            }
            let Some(ours_first) = self.reader.analyze(board, own, theirs) else {
                continue;
            };
            let (verdict, point) = match ours_first.outcome() {
                RaceOutcome::Wins => (ours_first.captures, ours_first.point),
                RaceOutcome::Seki => (ours_first.survives, ours_first.point),
                RaceOutcome::Loses => continue,
            };
            if let Some(point) = point {
                add_prior(
                    query.moves,
                    out,
                    point,
                    self.weight * verdict_share(verdict),
                    1.0,
                );
            }
        }
        count > 0
    }
}

/// Whether the chain through `p` may be in a race: enough stones, from 2 to
/// [`RACE_LIBERTIES`] liberties; its liberties when it may.
fn race_liberties(board: &Board, p: Point) -> Option<usize> {
    if board.chain_len(p) < RACE_MIN_STONES {
        return None;
    }
    let libs = liberties_capped(board, p, RACE_LIBERTIES + 1);
    (2..=RACE_LIBERTIES).contains(&libs).then_some(libs)
}

/// The races next to the last two moves, our chain first in each pair: a chain of `color`
/// and an adjacent enemy chain, each of at least [`RACE_MIN_STONES`] stones with 2 to
/// [`RACE_LIBERTIES`] liberties, one of them at least 3, one of them touching one of the
/// last two moves; at most `pairs.len()`, in the order found. Returns how many.
fn race_pairs(board: &Board, color: Color, recent: Recent, pairs: &mut [(Point, Point)]) -> usize {
    let g = board.geometry();
    let mut count = 0;
    let mut ids = [(usize::MAX, usize::MAX); MAX_RACES];
    for last in [recent.last, recent.second_last].into_iter().flatten() {
        let mut near = [last; 5];
        let mut n_near = 1;
        for n in g.neighbors(last) {
            if board.cell_at(n).color().is_some() {
                near[n_near] = Point::from_index(n);
                n_near += 1;
            }
        }
        for &p in &near[..n_near] {
            let Some(owner) = board.cell(p).color() else {
                continue;
            };
            let Some(libs) = race_liberties(board, p) else {
                continue;
            };
            let (others, n_others) = neighbour_chains(board, p, owner.opponent());
            for &q in &others[..n_others] {
                let Some(other_libs) = race_liberties(board, q) else {
                    continue;
                };
                if libs.max(other_libs) < 3 {
                    continue;
                }
                let (own, theirs) = if owner == color { (p, q) } else { (q, p) };
                let key = (board.chain_id(own), board.chain_id(theirs));
                if ids[..count].contains(&key) {
                    continue;
                }
                pairs[count] = (own, theirs);
                ids[count] = key;
                count += 1;
                if count == pairs.len().min(MAX_RACES) {
                    return count;
                }
            }
        }
    }
    count
}

/// The owl reader's part at the root (see the module documentation).
pub struct RootOwl {
    reader: OwlReader,
    /// Virtual playouts won of a saving or killing move.
    weight: f32,
    /// Virtual playouts lost of a move feeding a dead group of the side to move.
    dead_weight: f32,
    /// Smallest group read, in stones (`owl-min-stones`).
    min_stones: usize,
    /// Whether saving moves get the bonus too (`owl-saves`).
    saves: bool,
    /// The chains read (one stone each) and the chain ids of the groups already read.
    targets: Vec<Point>,
    read: Vec<usize>,
    /// One stone of each chain of the group being read.
    chains: Vec<u16>,
    /// The verdicts of earlier reads, reused while their areas stand unchanged.
    cache: GroupStatusCache,
    /// Whether the playouts' scores follow the verdicts (`owl-score`), and the lives of
    /// the groups read at the last root.
    scores: bool,
    lives: Vec<GroupLife>,
    /// The groups read as dead at the last root (with `owl-dead`).
    dead: Vec<DeadGroup>,
    /// The root's bonus moves, and the stones of the side to move's groups that the
    /// opponent could kill and a move saves.
    bonuses: Vec<OwlBonus>,
    own_critical: PointBits,
    /// Reads and time since the last [`RootOwl::take_share`].
    share: ReadingShare,
    /// When the reads of the next root must stop (see [`OWL_TIME_SHARE`]); `None`: no limit.
    deadline: Option<Instant>,
}

/// A root move the owl's reads give the bonus: it saves a group of the side to move or
/// kills one of the opponent's (`kill`), whose stones are `stones`.
#[derive(Clone, Copy, Debug)]
struct OwlBonus {
    point: Point,
    visits: f32,
    kill: bool,
    stones: PointBits,
}

/// Whether a stone of `stones` is next to a point of `other`.
fn touches(board: &Board, stones: &PointBits, other: &PointBits) -> bool {
    let geometry = board.geometry();
    stones.iter().any(|p| {
        geometry
            .neighbors(p)
            .into_iter()
            .any(|n| other.contains(Point::from_index(n)))
    })
}

impl std::fmt::Debug for RootOwl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RootOwl")
            .field("weight", &self.weight)
            .field("limits", &self.reader.limits())
            .finish()
    }
}

impl RootOwl {
    /// The root owl `params` describe: a bonus of `owl` virtual playouts, `owl-nodes`
    /// nodes a read, the groups' lives kept for the playouts' scores with `owl-score`,
    /// virtual losses for moves feeding a dead group with `owl-dead`; `None` when none of
    /// the three uses the owl.
    pub fn configured(params: &SearchParams) -> Option<RootOwl> {
        if params.owl <= 0.0 && params.owl_score <= 0.0 && params.owl_dead <= 0.0 {
            return None;
        }
        let limits = OwlLimits {
            nodes: params.owl_nodes,
            ..OwlLimits::default()
        };
        Some(RootOwl {
            reader: OwlReader::with_limits(limits, OwlReader::DEFAULT_TABLE_BITS),
            weight: params.owl,
            dead_weight: params.owl_dead,
            min_stones: params.owl_min_stones as usize,
            saves: params.owl_saves,
            targets: Vec::with_capacity(crate::board::MAX_CELLS),
            read: Vec::with_capacity(crate::board::MAX_CELLS),
            chains: Vec::with_capacity(crate::board::MAX_CELLS),
            cache: GroupStatusCache::new(),
            scores: params.owl_score > 0.0,
            lives: Vec::with_capacity(OWL_TARGETS),
            dead: Vec::with_capacity(OWL_TARGETS),
            bonuses: Vec::with_capacity(OWL_TARGETS),
            own_critical: PointBits::EMPTY,
            share: ReadingShare::default(),
            deadline: None,
        })
    }

    /// Sets when the reads of the next root must stop: groups whose verdicts are not kept
    /// from earlier reads go unread after `deadline` (`None`: all are read).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The settings [`RootOwl::configured`] reads.
    pub fn settings_key(params: &SearchParams) -> (f32, u64, u32, bool, f32, f32) {
        (
            params.owl,
            params.owl_nodes,
            params.owl_min_stones,
            params.owl_saves,
            params.owl_score,
            params.owl_dead,
        )
    }

    /// The lives of the groups read at the last root whose verdicts tell them (kept
    /// with `owl-score` only).
    pub fn lives(&self) -> &[GroupLife] {
        &self.lives
    }

    /// The groups read as dead at the last root (with `owl-dead`), for the tree's nodes.
    pub fn dead_groups(&self) -> &[DeadGroup] {
        &self.dead
    }

    /// Takes the counts since the last call.
    pub fn take_share(&mut self) -> ReadingShare {
        std::mem::take(&mut self.share)
    }

    /// Whether only the groups of the side to move need reading: `owl-dead` alone uses
    /// the reads (neither the `owl` bonus nor `owl-score` looks at the opponent's groups).
    fn own_groups_only(&self) -> bool {
        self.weight <= 0.0 && !self.scores
    }

    /// Whether only the opponent's groups need reading: the `owl` bonus for kills alone
    /// (`owl-saves` off, no `owl-dead`, no `owl-score`).
    fn theirs_only(&self) -> bool {
        !self.saves && self.dead_weight <= 0.0 && !self.scores
    }

    /// Adds the owl priors of `color` to move on `board` to `out` (`out[k]` for
    /// `moves[k]`), and what they cost to the reader's counts.
    pub fn add_priors(&mut self, board: &Board, color: Color, moves: &[Move], out: &mut [Prior]) {
        let start = Instant::now();
        let reads_before = self.reader.stats().reads;
        self.cache.keep_valid(board);
        self.lives.clear();
        self.dead.clear();
        self.bonuses.clear();
        self.own_critical = PointBits::EMPTY;
        // The big chains, biggest first (one stone each: the chain's head).
        self.targets.clear();
        for p in board.geometry().points() {
            if board.cell(p).color().is_some()
                && board.chain_id(p) == p.index()
                && board.chain_len(p) >= 2
            {
                self.targets.push(p);
            }
        }
        self.targets
            .sort_unstable_by_key(|&p| (std::cmp::Reverse(board.chain_len(p)), p.index()));
        self.read.clear();
        let mut groups = 0;
        for k in 0..self.targets.len() {
            if groups == OWL_TARGETS {
                break;
            }
            let target = self.targets[k];
            if self.read.contains(&board.chain_id(target)) {
                continue;
            }
            let chains = self.reader.group(board, target);
            self.chains.clear();
            self.chains.extend_from_slice(chains);
            let stones = group_stones(board, &self.chains);
            for &c in &self.chains {
                self.read
                    .push(board.chain_id(Point::from_index(c as usize)));
            }
            if stones < self.min_stones {
                continue;
            }
            let Some(owner) = board.cell(target).color() else {
                continue;
            };
            if owner != color && self.own_groups_only() {
                continue;
            }
            if owner == color && self.theirs_only() {
                continue;
            }
            let status = match self.cache.lookup(board, target) {
                Some(status) => {
                    self.share.owl_cached += 1;
                    status
                }
                None if self.deadline.is_some_and(|d| Instant::now() >= d) => {
                    self.share.owl_unread += 1;
                    continue;
                }
                None => self
                    .cache
                    .read(&mut self.reader, board, target, &self.chains),
            };
            groups += 1;
            let life = if self.scores || self.dead_weight > 0.0 {
                self.cache.life(board, target)
            } else {
                None
            };
            if let Some(life) = life {
                if self.scores {
                    self.lives.push(life);
                }
                if life.life == Life::Dead && self.dead_weight > 0.0 {
                    let feeding = feeding_points(board, &life.stones);
                    if owner == color {
                        discourage_feeding(board, color, &feeding, moves, out, self.dead_weight);
                    }
                    self.dead.push(DeadGroup {
                        owner,
                        feeding,
                        area: life.area,
                        signature: area_signature(board, &life.area),
                    });
                }
            }
            if self.weight <= 0.0 {
                continue;
            }
            // Our group: killable, and saved by a move; theirs: killable by a move, and
            // not dead already.
            let Some(defence) = status.defence else {
                continue;
            };
            let decisive = if owner == color {
                if !self.saves {
                    continue;
                }
                defence
            } else if defence.verdict.succeeds() {
                status.attack
            } else {
                continue;
            };
            let Some(point) = decisive.point else {
                continue;
            };
            let stones = group_stone_bits(board, &self.chains);
            if owner == color && defence.verdict.succeeds() {
                self.own_critical.union_with(&stones);
            }
            let visits = self.weight * verdict_share(decisive.verdict);
            self.bonuses.push(OwlBonus {
                point,
                visits,
                kill: owner != color,
                stones,
            });
        }
        // A kill of a group next to a critical group of ours is left to the save: the
        // opponent would answer by killing ours, which may well save theirs (a semeai of
        // two dragons that each die to a move elsewhere).
        for k in 0..self.bonuses.len() {
            let bonus = self.bonuses[k];
            if bonus.kill && touches(board, &bonus.stones, &self.own_critical) {
                continue;
            }
            add_prior(moves, out, bonus.point, bonus.visits, 1.0);
            self.share.note_owl_bonus(bonus.point);
        }
        self.share.owl_reads += self.reader.stats().reads - reads_before;
        self.share.owl_nanos += start.elapsed().as_nanos() as u64;
    }
}

#[cfg(test)]
mod tests;
