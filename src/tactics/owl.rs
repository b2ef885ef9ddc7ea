//! The owl reader: life and death of a *group* (a dragon: the chain through a stone and the
//! chains of its colour joined to it), with the attacker to move (`OwlReader::attack`:
//! can the group be killed?) and with its owner to move (`OwlReader::defend`: can it
//! live?), and the move that does it, in GNU Go's codes ([`Verdict`](super::reader::Verdict)). This module owns the
//! group and eye-space analysis and the life-and-death goal of the search: when a node is
//! decided and which moves each side tries; the search itself (table, budget, iterative
//! deepening, alpha-beta, ko values) is the shared skeleton's (`super::skeleton`). It asks
//! a [`Reader`] about the group's weak chains.
//!
//! # The group
//!
//! The group starts as the target's chain and takes in, until nothing more joins, every
//! chain of its colour that
//!
//! - shares two liberties with the group,
//! - touches a liberty of the group that the opponent cannot play without being captured
//!   at once (a suicide, or a self-atari that captures nothing: an eye point, a tiger's
//!   mouth), or
//! - borders one of the group's *eye spaces*.
//!
//! An eye space is a region of points that are empty or hold the opponent's stones, reached
//! from a liberty of the group, bounded by stones of the group's colour and the edge, and of
//! at most [`EYE_MAX`] points; a bigger region is *open*. The opponent's stones inside an
//! eye space are surrounded. Each eye space gets three eye counts: the eyes it gives when
//! the opponent moves there first (*min*), those the owner is sure of after moving there
//! first (*sure*: the opponent answers), and the most it might give (*max*):
//!
//! - one point: one eye, or none when it is false: the opponent holds two of its diagonals
//!   (one on the edge). An empty diagonal that would make it false is its *vital point*
//!   (no eye if the opponent plays it first, one if the owner does); an empty diagonal
//!   where the opponent's move would be suicide does not count, and a diagonal stone of
//!   the opponent in atari counts for min and sure but not for max (the owner may capture
//!   it);
//! - two points: one eye;
//! - three to six points with a single point next to more of the space than any other (two
//!   neighbours for three points, three for more: straight and bent three, pyramid four,
//!   bulky and crossed five, rabbity (flower) six; the rule of the eye-space reader,
//!   [`super::eye_space`]): that point is vital, one eye or two; the square four: one eye;
//! - the *bent four in the corner* (four points in a line bent at the corner point of the
//!   board, whose neighbours are both in the space): one eye or two, the corner point
//!   being the owner's vital point. The opponent's move at the other middle point starts a
//!   ko that it can start when it likes, after removing the owner's threats; counted as a
//!   kill, as Japanese rules and GNU Go count it;
//! - the *rectangular six in the corner* (two by three, with a corner point of the board):
//!   two eyes when the group has two liberties outside its eye spaces; with fewer, the
//!   opponent's move at the inner middle point kills (or makes a ko), so one eye or two,
//!   the owner's vital point being the middle point on the edge;
//! - other shapes: two eyes;
//! - with the opponent's stones inside: min none; max one when the space has at most two
//!   points, or is a square four, or the opponent holds its vital point and none of its
//!   stones there is in atari, else two; sure as max, but one when no stone of the
//!   opponent there is in atari (the owner's move does not remove them, and the reads
//!   decide what they spoil), when the opponent holds the other middle point of a bent
//!   four in the corner, or a rectangular six in the corner short of outside liberties,
//!   and when the opponent's stones fill all of it but one point, their last liberty, and
//!   the points they leave when captured make a space of one eye (a nakade: two points, a
//!   square four, a vital point, a bent four in the corner).
//!
//! # Terminal positions
//!
//! - The target's chain captured: the attacker wins.
//! - Never alive with the attacker to move while the target's chain is in atari.
//! - *Alive*, when no chain of the group is in atari and the eye spaces give two eyes with
//!   the opponent moving first in each (min; below the root with the owner to move: two
//!   after the owner improves one space to its sure count); or the group has
//!   [`ESCAPE_LIBERTIES`] liberties; or it reaches [`ESCAPE_SPACE`] points of *free space*
//!   (empty points outside its eye spaces with no stone of the opponent among their eight
//!   surrounding points, reached from its liberties through such points) through at least
//!   two of its liberties, or through one with the owner to move (the attacker could shut
//!   a single gate).
//! - *Dead* (below the root only, so that an attack on a dead group still names a move),
//!   when even the owner moving first in every eye space could not make two eyes (max),
//!   every liberty of the group outside its eye spaces touches a stone of the opponent and no
//!   other chain of the owner (nowhere to run, nothing to connect to), and no chain of the
//!   opponent next to the group (outside its eye spaces) with [`WEAK_LIBERTIES`] liberties
//!   or fewer can be captured, the owner moving first (otherwise the group might live by
//!   capturing it): for a group of [`HELD_NEIGHBOUR_STONES`] stones or more, the tactical
//!   reader's attack on such a chain must fail, read out; next to a smaller group there
//!   must be no such chain at all. A group of [`SHUT_IN_STONES`] stones or more
//!   whose liberties touch no other chain of the owner and reach fewer than
//!   [`SHUT_IN_FREE`] points of free space is shut in as well, even where some liberties
//!   touch no stone of the opponent: a corner group left with a few first-line points
//!   between the opponent's stones (its region there runs through those stones into the
//!   open, so it is no eye space) cannot run and makes no eyes.
//!
//! The thresholds are guesses checked against GNU Go on random and professional positions
//! (`tests/owl_gnugo.rs`); loose nets and fights in the open are beyond this model, and
//! reads of them mostly end cut off.
//!
//! # The search
//!
//! Alpha-beta over the skeleton's four values (a win, a win by taking a ko first, a win that
//! needs a ko threat, a loss; the same ko caps as [`super::reader`]) on scratch boards, one
//! per ply, iteratively deepened one ply at a time up to [`OwlLimits::max_depth`] under a
//! node budget ([`OwlLimits::nodes`]). The candidates, ordered by a score, at most
//! [`ROOT_WIDTH`] at the root and fewer deeper down:
//!
//! - for both sides: the vital points of the eye spaces, then their other empty points;
//!   capturing chains in atari next to the group (the owner's) or of the group (the
//!   attacker's), and ataris on chains of two liberties; the tactical reader's attack
//!   (for the attacker) or defence (for the owner) of the group's chains of at most two
//!   liberties; the group's outer liberties (the more empty neighbours, the better; a
//!   self-atari last); and the free space next to them, which the owner runs into and the
//!   attacker blocks;
//! - the attacker also saves its own chains in atari next to the group, and plays the
//!   tactical reader's defence of its chains of two liberties there (a group shut in
//!   has nothing left once they are safe); the owner may pass, last (a seki holds by
//!   passing).
//!
//! Neither side passes otherwise; the attacker without a legal candidate loses. A position
//! repeated in a line counts as a failure of the attacker.
//!
//! # Cut-offs and exactness
//!
//! As in the tactical reader, the attacker must prove the kill, in `attack` and `defend`
//! alike: a line cut off by depth, by the ply limit or by the budget counts as a failure of
//! the attacker. So a kill is always proved (within the model above), and a failure of the
//! attacker, a successful defence, is *exact* only when no cut-off decided it;
//! [`Reading::exact`] says which. `defend` first reads the attack: when it fails, the group
//! needs no move (`Works` without a move, GNU Go's `1 PASS`, exact when the attack's failure
//! was); otherwise the owner's moves are read, and the defence works with a move after
//! which the kill is not proved. A cut-off read therefore never claims a kill it did not
//! prove, and says through `exact` when its `Works` (or its `0` for an attack) rests on a
//! cut-off; the GTP commands answer in GNU Go's format, which cannot say so.
//!
//! # Memory
//!
//! The scratch boards, candidate lists, marks and lists of the group analysis, the
//! transposition table (keyed by the Zobrist hash, the ko point, the target, the side to
//! move and whether the line's ko threat is spent) and the inner [`Reader`]
//! are allocated once with the [`OwlReader`]. Nothing is allocated per node or per read.

use crate::board::{Board, Cell, Color, MAX_CELLS, Point, PointBits};

use super::liberties::{liberties_after, liberties_capped, liberties_into};
use super::reader::{Reader, Reading};
use super::skeleton::{At, Candidates, Goal, NO_POINT, Node, ReaderOf, mix};

/// A group of at least [`SHUT_IN_STONES`] stones with fewer points of free space than this,
/// no eyes to make and no chain of its colour to connect to is shut in (dead), even where
/// some of its liberties touch no stone of the opponent.
pub const SHUT_IN_FREE: usize = 3;
/// See [`SHUT_IN_FREE`].
pub const SHUT_IN_STONES: usize = 3;

/// The most points of a region that counts as an eye space (a bigger one is open).
pub const EYE_MAX: usize = 7;
/// Points of free space at which a group counts as escaped (alive).
pub const ESCAPE_SPACE: usize = 8;
/// Liberties at which a group counts as alive.
pub const ESCAPE_LIBERTIES: usize = 10;
/// Liberties at which a chain of the opponent next to the group may keep it from being
/// dead (the group may capture it).
pub const WEAK_LIBERTIES: usize = 2;
/// Smallest group (in stones) whose weak neighbours the tactical reader may clear (the
/// chain's attack fails, read out); next to a smaller group any weak neighbour keeps it
/// from being shut in (in the open the shut-in rule is eager for small groups).
pub const HELD_NEIGHBOUR_STONES: usize = 5;
/// The longest line read, in plies (passes included).
pub const MAX_PLY: usize = 40;
/// Candidates read at the root; deeper nodes read fewer, down to [`MIN_WIDTH`].
pub const ROOT_WIDTH: usize = 14;
/// The fewest candidates read at a node.
pub const MIN_WIDTH: usize = 6;
/// Nodes of one read of the inner tactical reader (they count against the owl's budget).
pub const READER_NODES: u64 = 300;
/// Slots of the per-cell marks: at least every padded cell index of the largest board.
const SLOTS: usize = 1024;
const _: () = assert!(SLOTS >= MAX_CELLS);
/// Eye spaces kept per analysis.
const MAX_REGIONS: usize = 64;

const KEY_OWL: u64 = 0x2f8a_61c4_9be3_07d5;

/// How far one owl read may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwlLimits {
    /// Nodes one read may visit, over all its depths (the inner tactical reads included).
    pub nodes: u64,
    /// The deepest iteration, in plies.
    pub max_depth: u32,
}

impl Default for OwlLimits {
    fn default() -> OwlLimits {
        OwlLimits {
            nodes: 20_000,
            max_depth: 12,
        }
    }
}

/// Counters over an owl reader's life: `attack` and `defend` calls (a `defend` counts
/// once), nodes (the inner tactical reads not included), table look-ups and hits.
pub use super::skeleton::ReadStats as OwlStats;

/// One eye space of the group: its points in `Analysis::region_points`, its eye counts
/// with the opponent moving first there (`min`), after the owner moved first there and the
/// opponent answered (`sure`, never more than the owner is sure of) and at best (`max`,
/// never less than the owner might get), and its vital point.
#[derive(Clone, Copy, Debug, Default)]
struct Region {
    start: u16,
    len: u8,
    min: u8,
    sure: u8,
    max: u8,
    /// The vital point (empty), or [`NO_POINT`].
    vital: u16,
    /// Whether the opponent has stones in the space.
    intruded: bool,
    /// For a rectangular six in the corner, whose life turns on the group's outside
    /// liberties (see [`corner_six`]): the middle point on the edge, else [`NO_POINT`].
    corner_six: u16,
}

/// What the group analysis found about a position.
#[derive(Clone, Copy, Debug, Default)]
struct Summary {
    /// Liberties of the group, counted up to [`ESCAPE_LIBERTIES`].
    liberties: usize,
    /// Eyes with the opponent moving first in each eye space, and with the owner doing so.
    min_eyes: usize,
    max_eyes: usize,
    /// The most one owner move in one eye space adds to `min_eyes`.
    gain: usize,
    /// Points of free space, counted up to [`ESCAPE_SPACE`].
    free: usize,
    /// The group's liberties that are free space.
    gates: usize,
    /// Whether a chain of the group is in atari, and whether the target's is.
    in_atari: bool,
    target_in_atari: bool,
    /// The group's liberties outside its eye spaces that touch no stone of the opponent or
    /// touch another chain of the owner.
    open_liberties: usize,
    /// Whether a chain of the opponent next to the group, outside its eye spaces, has at
    /// most [`WEAK_LIBERTIES`] liberties.
    weak_neighbour: bool,
    /// The group's liberties outside its eye spaces that touch another chain of the owner.
    connecting_liberties: usize,
    /// The group's stones.
    stones: usize,
}

impl Summary {
    /// Whether the group lives as it stands, with the attacker to move or not.
    fn alive(&self, attacker_to_move: bool) -> bool {
        if attacker_to_move && self.target_in_atari {
            return false;
        }
        if self.liberties >= ESCAPE_LIBERTIES
            || (self.free >= ESCAPE_SPACE && (self.gates >= 2 || !attacker_to_move))
        {
            return true;
        }
        if self.in_atari {
            return false;
        }
        self.min_eyes >= 2 || (!attacker_to_move && self.min_eyes + self.gain >= 2)
    }

    /// Whether the group is dead as it stands, if no weak chain of the opponent next to
    /// it can be captured (see [`Kill::weak_neighbours_hold`]).
    fn shut_in(&self) -> bool {
        self.max_eyes < 2
            && (self.open_liberties == 0
                || (self.connecting_liberties == 0
                    && self.free < SHUT_IN_FREE
                    && self.stones >= SHUT_IN_STONES))
    }
}

/// The group analysis's scratch space: per-cell marks and the lists of one position.
struct Analysis {
    /// `marks[i]`: the stamp of the last use that marked cell `i` (chains by head cell).
    group: Vec<u32>,
    liberty: Vec<u32>,
    region: Vec<u32>,
    free: Vec<u32>,
    stamp: u32,
    /// The stamp of the group's liberties in `liberty`.
    liberty_stamp: u32,
    /// One stone of each chain of the group.
    chains: Vec<u16>,
    /// The group's liberties.
    liberties: Vec<u16>,
    /// The points of the eye spaces, one after the other, and the spaces.
    region_points: Vec<u16>,
    regions: Vec<Region>,
    /// The free space found (at most [`ESCAPE_SPACE`] points), and the flood's queue.
    free_points: Vec<u16>,
    /// The group's liberties that are free space.
    gates: usize,
    /// The group's liberties outside its eye spaces that touch no stone of the opponent or
    /// touch another chain of the owner.
    open_liberties: usize,
    /// Those of them that touch another chain of the owner.
    connecting_liberties: usize,
    queue: Vec<u16>,
    /// One stone of each chain of the opponent next to the group outside its eye spaces.
    neighbours: Vec<u16>,
}

impl Analysis {
    fn new() -> Analysis {
        Analysis {
            group: vec![0; SLOTS],
            liberty: vec![0; SLOTS],
            region: vec![0; SLOTS],
            free: vec![0; SLOTS],
            stamp: 0,
            liberty_stamp: 0,
            chains: Vec::with_capacity(SLOTS),
            liberties: Vec::with_capacity(SLOTS),
            region_points: Vec::with_capacity(SLOTS),
            regions: Vec::with_capacity(MAX_REGIONS),
            free_points: Vec::with_capacity(SLOTS),
            gates: 0,
            open_liberties: 0,
            connecting_liberties: 0,
            queue: Vec::with_capacity(SLOTS),
            neighbours: Vec::with_capacity(SLOTS),
        }
    }

    /// A fresh stamp for one use of one mark array.
    fn next_stamp(&mut self) -> u32 {
        if self.stamp >= u32::MAX - 1 {
            for marks in [
                &mut self.group,
                &mut self.liberty,
                &mut self.region,
                &mut self.free,
            ] {
                marks.fill(0);
            }
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Analyses the group through the stone of `owner` at `target`.
    fn analyse(&mut self, board: &Board, target: Point, owner: Color) -> Summary {
        let g = self.next_stamp();
        self.chains.clear();
        self.chains.push(target.index() as u16);
        self.group[board.chain_id(target)] = g;
        loop {
            let mut joined = self.collect_liberties(board);
            joined |= self.join_through_liberties(board, owner, g);
            if !joined {
                joined = self.read_regions(board, owner, g);
            }
            if !joined {
                break;
            }
        }
        let mut summary = Summary {
            liberties: self.liberties.len().min(ESCAPE_LIBERTIES),
            ..Summary::default()
        };
        self.count_outside_liberties();
        for r in &self.regions {
            summary.min_eyes += usize::from(r.min);
            summary.max_eyes += usize::from(r.max);
            summary.gain = summary.gain.max(usize::from(r.sure.saturating_sub(r.min)));
        }
        summary.in_atari = self
            .chains
            .iter()
            .any(|&c| board.in_atari(Point::from_index(c as usize)));
        self.scan_neighbours(board, owner, &mut summary);
        summary.target_in_atari = board.in_atari(target);
        summary.free = self.flood_free(board, owner, g);
        summary.gates = self.gates;
        summary.open_liberties = self.open_liberties;
        summary.connecting_liberties = self.connecting_liberties;
        summary.stones = group_stones(board, &self.chains);
        summary
    }

    /// Adds the chain through `p` to the group.
    fn add_chain(&mut self, board: &Board, p: Point, g: u32) {
        self.group[board.chain_id(p)] = g;
        self.chains.push(p.index() as u16);
    }

    /// Collects the group's liberties afresh; never joins anything (returns false).
    fn collect_liberties(&mut self, board: &Board) -> bool {
        let l = self.next_stamp();
        self.liberty_stamp = l;
        self.liberties.clear();
        for n in stone_neighbours(board, &self.chains) {
            if board.cell_at(n) == Cell::Empty && self.liberty[n] != l {
                self.liberty[n] = l;
                self.liberties.push(n as u16);
            }
        }
        false
    }

    /// Joins the chains that share two liberties with the group or touch a liberty the
    /// opponent cannot play without being captured at once; whether any joined.
    fn join_through_liberties(&mut self, board: &Board, owner: Color, g: u32) -> bool {
        let geometry = board.geometry();
        let l = self.liberty_stamp;
        let mut joined = false;
        for k in 0..self.liberties.len() {
            let x = Point::from_index(self.liberties[k] as usize);
            let mut protected = None;
            for n in geometry.neighbors(x) {
                let np = Point::from_index(n);
                if !board.cell_at(n).is(owner) || self.group[board.chain_id(np)] == g {
                    continue;
                }
                let protected = *protected.get_or_insert_with(|| {
                    let attacker = owner.opponent();
                    board.is_suicide(x, attacker) || {
                        let after = liberties_after(board, x, attacker);
                        after.liberties <= 1 && !after.captures
                    }
                });
                let shared = protected || {
                    let mut count = 0;
                    'walk: for s in board.chain_stones(np) {
                        for m in geometry.neighbors(s) {
                            if board.cell_at(m) == Cell::Empty && self.liberty[m] == l {
                                count += 1;
                                if count >= 2 {
                                    break 'walk;
                                }
                            }
                        }
                    }
                    count >= 2
                };
                if shared {
                    self.add_chain(board, np, g);
                    joined = true;
                }
            }
        }
        joined
    }

    /// Floods the regions next to the group's liberties, keeps the eye spaces with their
    /// eye counts and joins the chains of the owner that border one; whether any joined.
    fn read_regions(&mut self, board: &Board, owner: Color, g: u32) -> bool {
        let geometry = board.geometry();
        self.regions.clear();
        self.region_points.clear();
        let before = self.stamp;
        let mut joined = false;
        for k in 0..self.liberties.len() {
            let start = self.liberties[k] as usize;
            if self.region[start] > before {
                continue;
            }
            let flood = self.next_stamp();
            let first = self.region_points.len();
            self.region[start] = flood;
            self.region_points.push(start as u16);
            let mut next = first;
            let mut open = false;
            let mut foreign = false;
            while next < self.region_points.len() && !open {
                let q = Point::from_index(self.region_points[next] as usize);
                next += 1;
                for n in geometry.neighbors(q) {
                    let cell = board.cell_at(n);
                    if cell == Cell::Border {
                        continue;
                    }
                    if cell.is(owner) {
                        foreign |= self.group[board.chain_id(Point::from_index(n))] != g;
                        continue;
                    }
                    let mark = self.region[n];
                    if mark == flood {
                        continue;
                    }
                    if mark > before || self.region_points.len() - first == EYE_MAX {
                        open = true;
                        break;
                    }
                    self.region[n] = flood;
                    self.region_points.push(n as u16);
                }
            }
            if open || self.regions.len() == MAX_REGIONS {
                self.region_points.truncate(first);
                continue;
            }
            if foreign {
                // The owner's chains around this eye space belong to the group.
                for i in first..self.region_points.len() {
                    let q = Point::from_index(self.region_points[i] as usize);
                    for n in geometry.neighbors(q) {
                        let np = Point::from_index(n);
                        if board.cell_at(n).is(owner) && self.group[board.chain_id(np)] != g {
                            self.add_chain(board, np, g);
                            joined = true;
                        }
                    }
                }
            }
            let region = eye_counts(board, owner, &self.region_points[first..], first);
            self.regions.push(region);
        }
        joined
    }

    /// The opponent's chains next to the group outside its eye spaces: collected into
    /// `neighbours`, and whether one is weak.
    fn scan_neighbours(&mut self, board: &Board, owner: Color, summary: &mut Summary) {
        let seen = self.next_stamp();
        self.neighbours.clear();
        let attacker = owner.opponent();
        for n in stone_neighbours(board, &self.chains) {
            if !board.cell_at(n).is(attacker) {
                continue;
            }
            let np = Point::from_index(n);
            let head = board.chain_id(np);
            // `free` doubles as the per-chain seen mark here (it is reset below).
            if self.free[head] == seen || self.in_eye_space(n) {
                continue;
            }
            self.free[head] = seen;
            self.neighbours.push(n as u16);
            if liberties_capped(board, np, WEAK_LIBERTIES + 1) <= WEAK_LIBERTIES {
                summary.weak_neighbour = true;
            }
        }
    }

    /// Settles the rectangular sixes in the corner by the group's liberties outside its
    /// eye spaces: with fewer than two the opponent moving first kills or makes a ko (one
    /// eye counted), and an opponent's stone inside leaves the owner sure of one eye.
    fn count_outside_liberties(&mut self) {
        if self.regions.iter().all(|r| r.corner_six == NO_POINT) {
            return;
        }
        let outside = self
            .liberties
            .iter()
            .filter(|&&x| !self.in_eye_space(x as usize))
            .count();
        if outside >= 2 {
            return;
        }
        for r in &mut self.regions {
            if r.corner_six == NO_POINT {
                continue;
            }
            if r.intruded {
                r.sure = r.sure.min(1);
            } else {
                r.min = 1;
                r.vital = r.corner_six;
            }
        }
    }

    /// Whether cell `n` lies in one of the eye spaces kept by the last `read_regions`.
    fn in_eye_space(&self, n: usize) -> bool {
        self.regions.iter().any(|r| {
            let start = usize::from(r.start);
            self.region_points[start..start + usize::from(r.len)].contains(&(n as u16))
        })
    }

    /// Floods the free space from the group's liberties outside its eye spaces (see the
    /// module documentation), up to [`ESCAPE_SPACE`] points; how many.
    fn flood_free(&mut self, board: &Board, owner: Color, g: u32) -> usize {
        let geometry = board.geometry();
        let f = self.next_stamp();
        let attacker = Cell::from(owner.opponent());
        self.free_points.clear();
        self.queue.clear();
        self.gates = 0;
        self.open_liberties = 0;
        self.connecting_liberties = 0;
        for k in 0..self.liberties.len() {
            let x = self.liberties[k] as usize;
            if self.in_eye_space(x) {
                continue;
            }
            self.free[x] = f;
            let xp = Point::from_index(x);
            let connects = board.geometry().neighbors(xp).into_iter().any(|n| {
                board.cell_at(n).is(owner) && self.group[board.chain_id(Point::from_index(n))] != g
            });
            let open = connects || board.neighbor_count(xp, attacker) == 0;
            self.open_liberties += usize::from(open);
            self.connecting_liberties += usize::from(connects);
            if is_free(board, xp, attacker) {
                self.gates += 1;
                self.free_points.push(x as u16);
                self.queue.push(x as u16);
            }
        }
        let mut next = 0;
        while next < self.queue.len() && self.free_points.len() < ESCAPE_SPACE {
            let q = Point::from_index(self.queue[next] as usize);
            next += 1;
            for n in geometry.neighbors(q) {
                if board.cell_at(n) != Cell::Empty || self.free[n] == f {
                    continue;
                }
                self.free[n] = f;
                if is_free(board, Point::from_index(n), attacker) {
                    self.free_points.push(n as u16);
                    self.queue.push(n as u16);
                    if self.free_points.len() >= ESCAPE_SPACE {
                        break;
                    }
                }
            }
        }
        self.free_points.len().min(ESCAPE_SPACE)
    }
}

/// The stones of the group whose chains `chains` names (one stone of each, as
/// the owl reader's `group` gives them).
pub fn group_stones(board: &Board, chains: &[u16]) -> usize {
    chains
        .iter()
        .map(|&c| board.chain_len(Point::from_index(c as usize)))
        .sum()
}

/// Whether the empty point `p` is free space: no stone of `attacker` on its eight
/// surrounding points.
fn is_free(board: &Board, p: Point, attacker: Cell) -> bool {
    board.neighbor_count(p, attacker) == 0
        && board
            .geometry()
            .diagonals(p)
            .into_iter()
            .all(|d| board.cell_at(d) != attacker)
}

/// The eye counts and vital point of the eye space `points` of `owner` (see the module
/// documentation); `start` is where its points begin in the analysis's list.
fn eye_counts(board: &Board, owner: Color, points: &[u16], start: usize) -> Region {
    let geometry = board.geometry();
    let attacker = owner.opponent();
    let len = points.len();
    let intruded = points
        .iter()
        .any(|&q| board.cell_at(q as usize).is(attacker));
    let mut region = Region {
        start: start as u16,
        len: len as u8,
        min: 1,
        sure: 1,
        max: 1,
        vital: NO_POINT,
        intruded,
        corner_six: NO_POINT,
    };
    if len == 1 {
        if intruded {
            region.min = 0;
            return region;
        }
        let p = Point::from_index(points[0] as usize);
        // Diagonals held by the opponent (`bad`), those of them in atari (`weak`: the owner
        // may capture them), and an empty one the opponent may play (`open`).
        let (mut bad, mut weak, mut edge, mut open) = (0, 0, false, NO_POINT);
        for d in geometry.diagonals(p) {
            let dp = Point::from_index(d);
            match board.cell_at(d) {
                Cell::Border => edge = true,
                Cell::Empty if !board.is_suicide(dp, attacker) => open = d as u16,
                cell if cell.is(attacker) => {
                    bad += 1;
                    weak += usize::from(board.in_atari(dp));
                }
                _ => {}
            }
        }
        let limit = if edge { 1 } else { 2 };
        region.max = u8::from(bad - weak < limit);
        region.sure = u8::from(bad < limit);
        region.min = u8::from(bad + usize::from(open != NO_POINT) < limit);
        if region.min < region.sure {
            region.vital = open;
        }
        return region;
    }
    if len == 2 {
        region.min = u8::from(!intruded);
        return region;
    }
    let (vital, square) = nakade_shape(board, points);
    // The opponent's stones on the vital point hold the space to one eye, unless the owner
    // can capture some of them at once.
    let capturable = points.iter().any(|&q| {
        board.cell_at(q as usize).is(attacker) && board.in_atari(Point::from_index(q as usize))
    });
    let vital_taken = !capturable && vital.is_some_and(|v| board.cell_at(v as usize).is(attacker));
    let bent = (vital.is_none() && !square)
        .then(|| bent_four_in_the_corner(board, points))
        .flatten();
    region.max = if square || vital_taken { 1 } else { 2 };
    region.sure = region.max;
    region.min = if intruded {
        0
    } else if vital.is_some() || square || bent.is_some() {
        1
    } else {
        2
    };
    region.vital = vital
        .filter(|&v| board.cell_at(v as usize) == Cell::Empty)
        .unwrap_or(NO_POINT);
    if let Some((corner, key)) = bent {
        if !intruded {
            // The owner lives by taking the corner point; the opponent's key point starts
            // a ko it can wait with, counted as a kill (as Japanese rules and GNU Go do).
            region.vital = corner;
        } else if board.cell_at(key as usize).is(attacker) {
            // The owner's best is that ko.
            region.sure = 1;
        }
    }
    if vital.is_none()
        && !square
        && let Some(edge_middle) = corner_six(board, points)
    {
        region.corner_six = edge_middle;
    }
    if capturable && let Some(after) = after_capture(board, attacker, points) {
        region.sure = region.sure.min(after);
    }
    if intruded && !capturable {
        // The owner's move leaves the opponent's stones there to fight on.
        region.sure = 1;
    }
    region
}

/// The neighbours of `q` among `points`.
fn degree_in(board: &Board, q: u16, points: &[u16]) -> usize {
    board
        .geometry()
        .neighbors(Point::from_index(q as usize))
        .into_iter()
        .filter(|&n| points.contains(&(n as u16)))
        .count()
}

/// Whether the point `q` is a corner of the board (two neighbours on the board).
fn is_board_corner(board: &Board, q: u16) -> bool {
    board
        .geometry()
        .neighbors(Point::from_index(q as usize))
        .into_iter()
        .filter(|&n| board.cell_at(n) != Cell::Border)
        .count()
        == 2
}

/// The vital point of a space of three to six `points` (one point next to more of the
/// space than any other: two neighbours for three points, three for more), and whether the
/// space is a square four.
fn nakade_shape(board: &Board, points: &[u16]) -> (Option<u16>, bool) {
    let len = points.len();
    let (mut best, mut best_degree, mut ties) = (NO_POINT, 0, 0);
    for &q in points {
        let d = degree_in(board, q, points);
        if d > best_degree {
            (best, best_degree, ties) = (q, d, 1);
        } else if d == best_degree {
            ties += 1;
        }
    }
    let enough = if len == 3 { 2 } else { 3 };
    let vital = (len <= 6 && ties == 1 && best_degree >= enough).then_some(best);
    let square = len == 4 && best_degree == 2 && ties == 4;
    (vital, square)
}

/// A bent four in the corner: four `points` in a line bent at the corner of the board
/// (whose two neighbours are both in the space). The corner point, where the owner makes
/// two eyes, and the other middle point of the line, where the opponent starts a ko: a
/// stone of the owner on the corner point would touch no other stone of its own.
fn bent_four_in_the_corner(board: &Board, points: &[u16]) -> Option<(u16, u16)> {
    if points.len() != 4 {
        return None;
    }
    let middles = two_middles(board, points, 2, 1)?;
    match middles.map(|q| is_board_corner(board, q)) {
        [true, false] => Some((middles[0], middles[1])),
        [false, true] => Some((middles[1], middles[0])),
        _ => None,
    }
}

/// The two points of the space `points` with `middle` neighbours in it, when every
/// other point has `end` of them (a line's two middle points, say).
fn two_middles(board: &Board, points: &[u16], middle: usize, end: usize) -> Option<[u16; 2]> {
    let mut middles = [NO_POINT; 2];
    let mut count = 0;
    for &q in points {
        let degree = degree_in(board, q, points);
        if degree == middle && count < 2 {
            middles[count] = q;
            count += 1;
        } else if degree != end {
            return None;
        }
    }
    (count == 2).then_some(middles)
}

/// A rectangular six (two by three) in the corner of the board: its middle point on the
/// edge, where the owner lives. With fewer than two outside liberties the opponent kills
/// it at the other middle point (with none) or makes a ko (with one); GNU Go reads it so.
fn corner_six(board: &Board, points: &[u16]) -> Option<u16> {
    if points.len() != 6 || !points.iter().any(|&q| is_board_corner(board, q)) {
        return None;
    }
    let middles = two_middles(board, points, 3, 2)?;
    // Four corners of degree two and two middles of degree three, next to each other:
    // seven adjacencies among six points, which only the rectangle has.
    let geometry = board.geometry();
    let beside = geometry
        .neighbors(Point::from_index(middles[0] as usize))
        .contains(&(middles[1] as usize));
    if !beside {
        return None;
    }
    middles.into_iter().find(|&q| {
        geometry
            .neighbors(Point::from_index(q as usize))
            .into_iter()
            .any(|n| board.cell_at(n) == Cell::Border)
    })
}

/// When the owner can capture every stone of `attacker` in the space `points` with one
/// move (they fill all of it but one point, their last liberty): the eyes the captured
/// points give with the opponent to move, which may play the vital point of their shape
/// (a nakade). `None` otherwise.
fn after_capture(board: &Board, attacker: Color, points: &[u16]) -> Option<u8> {
    let mut rest = [0u16; EYE_MAX];
    let mut len = 0;
    let mut empty = 0;
    for &q in points {
        let qp = Point::from_index(q as usize);
        if board.cell_at(q as usize) == Cell::Empty {
            empty += 1;
        } else if board.cell(qp).is(attacker) && board.in_atari(qp) {
            rest[len] = q;
            len += 1;
        } else {
            return None;
        }
    }
    if empty != 1 {
        return None;
    }
    let rest = &rest[..len];
    // Captured stones in two or more separate groups leave as many eyes.
    let mut reached = [false; EYE_MAX];
    reached[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for i in 0..len {
            if reached[i] {
                continue;
            }
            let touches = board
                .geometry()
                .neighbors(Point::from_index(rest[i] as usize))
                .into_iter()
                .any(|n| (0..len).any(|j| reached[j] && rest[j] as usize == n));
            if touches {
                reached[i] = true;
                grew = true;
            }
        }
    }
    if reached[..len].iter().any(|&r| !r) {
        return Some(2);
    }
    let one = len <= 2 || {
        let (vital, square) = nakade_shape(board, rest);
        vital.is_some() || square || bent_four_in_the_corner(board, rest).is_some()
    };
    Some(if one { 1 } else { 2 })
}

/// The owl reader's goal: kill the group through `target`, of the attacker's opponent.
pub struct Kill {
    target: Point,
    /// The group analysis of the node being read, which the move generator uses.
    analysis: Analysis,
    /// The tactical reader on the group's weak chains.
    reader: Reader,
}

impl Kill {
    /// Whether every weak chain of the attacker next to the group (at most
    /// [`WEAK_LIBERTIES`] liberties) holds against the owner moving first: the tactical
    /// reader's attack on it fails, read out. A chain the owner captures, or one whose
    /// read was cut off, may still give the group its life.
    fn weak_neighbours_hold(&mut self, board: &Board, nodes: &mut u64) -> bool {
        for k in 0..self.analysis.neighbours.len() {
            let np = Point::from_index(usize::from(self.analysis.neighbours[k]));
            if liberties_capped(board, np, WEAK_LIBERTIES + 1) > WEAK_LIBERTIES {
                continue;
            }
            let reading = counted(&mut self.reader, nodes, |reader| reader.attack(board, np));
            if reading.verdict.succeeds() || !reading.exact {
                return false;
            }
        }
        true
    }
}

impl Goal for Kill {
    type Limits = OwlLimits;
    type Facts = ();
    const MAX_PLY: usize = MAX_PLY;
    const KEYS: [u64; 2] = [0x6d3b_9e27_c41f_58a3, 0x91c7_3a5e_0f28_b64d];

    fn new(_limits: &OwlLimits) -> Kill {
        let target = Point::from_index(0);
        let reader = Reader::nested(READER_NODES);
        Kill {
            target,
            analysis: Analysis::new(),
            reader,
        }
    }

    fn clear(&mut self) {
        self.reader.clear();
    }

    fn before_table(&mut self, at: At<'_>, _nodes: &mut u64) -> Result<(), Node> {
        if !at.board.cell(self.target).is(at.attacker.opponent()) {
            return Err(at.decided(true, true));
        }
        Ok(())
    }

    /// The owl's kind, the target and the board size.
    fn key(&self, board: &Board) -> u64 {
        KEY_OWL ^ mix((self.target.index() as u64) << 8 | board.size() as u64)
    }

    /// The group analysis: alive, dead (below the root), or cut off by depth.
    fn after_table(&mut self, at: At<'_>, nodes: &mut u64) -> Option<Node> {
        let owner = at.attacker.opponent();
        let summary = self.analysis.analyse(at.board, self.target, owner);
        if summary.alive(at.attacker_to_move || at.ply == 0) {
            return Some(at.decided(false, true));
        }
        if at.ply > 0
            && summary.shut_in()
            && (!summary.weak_neighbour
                || (summary.stones >= HELD_NEIGHBOUR_STONES
                    && self.weak_neighbours_hold(at.board, nodes)))
        {
            return Some(at.decided(true, true));
        }
        if at.depth <= 0 || at.ply + 1 >= MAX_PLY {
            return Some(Node::cut(at.attacker_to_move));
        }
        None
    }

    /// From the group analysis of `board` (just made by `after_table`).
    fn candidates(&mut self, at: At<'_>, _facts: (), list: &mut Candidates, nodes: &mut u64) {
        let (board, attacker_to_move, mover) = (at.board, at.attacker_to_move, at.mover());
        let a = &self.analysis;
        let geometry = board.geometry();
        // Captures first: the group's chains in atari (for the attacker), the opponent's
        // chains in atari next to the group (for the owner); and the attacker's own chains
        // in atari next to the group, which it saves.
        for &c in &a.chains {
            let cp = Point::from_index(c as usize);
            if let Some(l) = board.atari_liberty(cp) {
                let score = if attacker_to_move { 5000 } else { 2500 };
                list.add(l.index() as u16, score + board.chain_len(cp).min(20) as i32);
            }
        }
        for &c in &a.neighbours {
            let cp = Point::from_index(c as usize);
            if let Some(l) = board.atari_liberty(cp) {
                let score = if attacker_to_move { 1500 } else { 3000 };
                list.add(l.index() as u16, score + board.chain_len(cp).min(20) as i32);
            } else if !attacker_to_move {
                let mut two = [0u16; 3];
                if liberties_into(board, cp, &mut two) == 2 {
                    for &x in &two[..2] {
                        list.add(x, 450);
                    }
                }
            } else if liberties_capped(board, cp, WEAK_LIBERTIES + 1) == WEAK_LIBERTIES {
                // A weak chain of the attacker's around the group is the group's hope:
                // making it safe may leave the group with nothing to capture.
                let reading = counted(&mut self.reader, nodes, |reader| reader.defend(board, cp));
                if reading.verdict.succeeds()
                    && let Some(p) = reading.point
                {
                    list.add(p.index() as u16, 1400);
                }
            }
        }
        // Vital points of the eye spaces.
        for r in &a.regions {
            if r.vital != NO_POINT && r.min < r.sure {
                list.add(r.vital, 1200);
            }
        }
        // The tactical reader on the group's weak chains.
        for &c in &a.chains {
            let cp = Point::from_index(c as usize);
            let libs = liberties_capped(board, cp, 3);
            if libs == 2 || (libs == 1 && !attacker_to_move) {
                let reading = counted(&mut self.reader, nodes, |reader| {
                    if attacker_to_move {
                        reader.attack(board, cp)
                    } else {
                        reader.defend(board, cp)
                    }
                });
                if reading.verdict.succeeds()
                    && let Some(p) = reading.point
                {
                    list.add(p.index() as u16, 1600);
                }
                if attacker_to_move && libs == 2 {
                    let mut two = [0u16; 3];
                    liberties_into(board, cp, &mut two);
                    for &x in &two[..2] {
                        list.add(x, 500);
                    }
                }
            }
        }
        // The other points of the eye spaces.
        for r in &a.regions {
            // In a space of one or two points the opponent throws in, and the owner
            // captures what was thrown in.
            if r.len < 3 && !(r.len == 2 && (attacker_to_move || r.intruded)) {
                continue;
            }
            let start = usize::from(r.start);
            for &q in &a.region_points[start..start + usize::from(r.len)] {
                if board.cell_at(q as usize) == Cell::Empty {
                    let score = if attacker_to_move { 600 } else { 250 };
                    list.add(q, score + 50 * i32::from(r.sure.saturating_sub(r.min)));
                }
            }
        }
        // The outer liberties: more room for the owner, less for the attacker.
        for &x in &a.liberties {
            if a.in_eye_space(x as usize) {
                continue;
            }
            let xp = Point::from_index(x as usize);
            let empty = board.neighbor_count(xp, Cell::Empty) as i32;
            let free_next = geometry
                .neighbors(xp)
                .into_iter()
                .any(|n| a.free_points.contains(&(n as u16)))
                || a.free_points.contains(&x);
            let mut score = 300 + 80 * empty + if free_next { 200 } else { 0 };
            let after = liberties_after(board, xp, mover);
            if after.liberties <= 1 && !after.captures {
                score -= 700;
            }
            list.add(x, score);
        }
        // The free space next to them.
        for &x in &a.free_points {
            list.add(x, 200);
        }
    }

    /// Fewer candidates deeper down: [`ROOT_WIDTH`] at the root, at least [`MIN_WIDTH`].
    fn width(ply: usize) -> usize {
        ROOT_WIDTH.saturating_sub(ply).max(MIN_WIDTH)
    }

    /// Each ply costs one unit, passes included.
    fn child_depth(&self, at: At<'_>, _facts: (), _next: &Board) -> i32 {
        at.depth - 1
    }
}

/// The owl reader (see the module documentation): its scratch boards, candidate lists,
/// group-analysis scratch, transposition table and inner tactical reader, all allocated
/// once.
pub type OwlReader = ReaderOf<Kill>;

impl ReaderOf<Kill> {
    /// The group through the stone at `target` as the reads see it: one stone of each of
    /// its chains, the target's first (empty when `target` is empty).
    pub fn group(&mut self, board: &Board, target: Point) -> &[u16] {
        match board.cell(target).color() {
            Some(owner) => {
                let analysis = &mut self.goal.analysis;
                analysis.analyse(board, target, owner);
                &analysis.chains
            }
            None => &[],
        }
    }

    /// Whether the group through the stone at `target` can be killed with its opponent to
    /// move, and the killing move (a dead group gets one too). An empty `target` fails.
    pub fn attack(&mut self, board: &Board, target: Point) -> Reading {
        self.scratch.stats.reads += 1;
        self.read(board, target, true)
    }

    /// Whether the group through the stone at `target` can live with its owner to move, and
    /// the move: `Works` without a move (a pass) when the attack fails anyway, and with the
    /// owner's move after which no kill is proved otherwise (see the module documentation:
    /// `exact` says whether a cut-off decided it). An empty `target` fails.
    pub fn defend(&mut self, board: &Board, target: Point) -> Reading {
        self.scratch.stats.reads += 1;
        let attack = self.read(board, target, true);
        if board.cell(target).color().is_none() {
            return attack;
        }
        if !attack.verdict.succeeds() {
            return Reading::no_move_needed(attack.exact);
        }
        self.read(board, target, false)
    }

    /// The points the owl's reads and its inner tactical reads played on since the last
    /// [`OwlReader::clear_touched`] (see the skeleton's `Scratch::touched`).
    pub fn touched(&self) -> PointBits {
        let mut touched = *self.scratch.touched();
        touched.union_with(self.goal.reader.scratch.touched());
        touched
    }

    /// Starts a new record of the points the reads play on.
    pub fn clear_touched(&mut self) {
        self.scratch.clear_touched();
        self.goal.reader.scratch.clear_touched();
    }

    /// One read: the attack (`attacker_to_move`) or the defence, the side to move proving.
    fn read(&mut self, board: &Board, target: Point, attacker_to_move: bool) -> Reading {
        let Some(owner) = board.cell(target).color() else {
            return Reading::FAILS;
        };
        self.begin(board, owner.opponent(), self.limits.nodes);
        self.goal.target = target;
        let depths = 1..=self.limits.max_depth;
        let fallback = Node::cut(attacker_to_move);
        Reading::from_node(self.deepen(attacker_to_move, depths, fallback))
    }
}

/// One read of the inner tactical `reader`, its nodes added to `nodes`.
fn counted(
    reader: &mut Reader,
    nodes: &mut u64,
    read: impl FnOnce(&mut Reader) -> Reading,
) -> Reading {
    let before = reader.stats().nodes;
    let reading = read(reader);
    *nodes += reader.stats().nodes - before;
    reading
}

/// The cells next to the stones of the chains through `chains`: each as often as it
/// touches one of the stones.
fn stone_neighbours<'a>(board: &'a Board, chains: &'a [u16]) -> impl Iterator<Item = usize> + 'a {
    let geometry = board.geometry();
    chains
        .iter()
        .flat_map(move |&c| board.chain_stones(Point::from_index(usize::from(c))))
        .flat_map(move |s| geometry.neighbors(s))
}

#[cfg(test)]
mod tests;
