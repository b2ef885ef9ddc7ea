//! Chains and their liberties: each chain's *pseudo-liberties* (stored at the chain's head
//! cell, [`ChainInfo`]), the queries on them (atari, the single liberty, the liberties
//! besides a point, chain size and identity) and the walks over a chain's stones.
//!
//!
//! Chains keep *pseudo-liberties*: one count per (stone, adjacent empty point) pair, with the
//! sum and the sum of squares of those points' indices. A chain is in atari exactly when all
//! of its pseudo-liberties are the same point, that is when `count * sum_sq == sum * sum`, and
//! that point is `sum / count`: both answered in constant time.

use super::geometry::{Cell, MAX_CELLS, MAX_SIZE, Point};
use super::position::{Board, CELL_SLOTS};

/// Bits of each field of [`ChainInfo::libs`]: the pseudo-liberty count, the sum of their
/// indices and the sum of their squared indices. A chain has at most one pseudo-liberty per
/// grid edge (1,200 on 25x25) on indices below `MAX_CELLS` (703), so the count fits 11 bits,
/// the sum 20 and the sum of squares 30: 61 bits in all.
const LIB_COUNT_BITS: u32 = 11;
const LIB_SUM_BITS: u32 = 20;
const LIB_SUM_SQ_BITS: u32 = 30;
const LIB_SUM_SHIFT: u32 = LIB_COUNT_BITS;
const LIB_SUM_SQ_SHIFT: u32 = LIB_COUNT_BITS + LIB_SUM_BITS;
const _: () = {
    let edges = 2 * MAX_SIZE * (MAX_SIZE - 1);
    assert!(edges < 1 << LIB_COUNT_BITS);
    assert!(edges * MAX_CELLS < 1 << LIB_SUM_BITS);
    assert!(edges * MAX_CELLS * MAX_CELLS < 1 << LIB_SUM_SQ_BITS);
    assert!(LIB_SUM_SQ_SHIFT + LIB_SUM_SQ_BITS <= 64);
};

/// One pseudo-liberty at `index`, in the packed form of [`ChainInfo::libs`], computed.
const fn lib_unit_of(index: usize) -> u64 {
    let i = index as u64;
    1 | i << LIB_SUM_SHIFT | (i * i) << LIB_SUM_SQ_SHIFT
}

/// [`lib_unit_of`] for every cell slot, so the move loops read it with one load instead of
/// a multiplication, two shifts and two ors per neighbour.
static LIB_UNITS: [u64; CELL_SLOTS] = {
    let mut table = [0u64; CELL_SLOTS];
    let mut i = 0;
    while i < CELL_SLOTS {
        table[i] = lib_unit_of(i);
        i += 1;
    }
    table
};

/// One pseudo-liberty at `index`, in the packed form of [`ChainInfo::libs`].
#[inline]
pub(super) fn lib_unit(index: usize) -> u64 {
    LIB_UNITS[index & (CELL_SLOTS - 1)]
}

/// Statistics of one chain, stored at the chain's head cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ChainInfo {
    /// Pseudo-liberties packed in one word: their count, the sum of their indices and the sum
    /// of their squared indices (see `LIB_COUNT_BITS`), so that adding or removing one is a
    /// single addition. The fields of a real chain never underflow or overflow, so no carry
    /// crosses from one to the next.
    pub(super) libs: u64,
    /// Stones in the chain.
    pub(super) stones: u16,
}

impl ChainInfo {
    // Wrapping arithmetic: the slots of empty and border cells take arbitrary updates; real
    // chains never wrap (their counts stay exact).
    #[inline]
    pub(super) fn add_lib(&mut self, index: usize) {
        self.libs = self.libs.wrapping_add(lib_unit(index));
    }

    /// Adds `index` as a liberty when `present` is true, without branching.
    #[inline]
    pub(super) fn add_lib_if(&mut self, index: usize, present: bool) {
        // A select, not a branch: whether a neighbour is empty is a coin toss.
        self.libs += std::hint::select_unpredictable(present, lib_unit(index), 0);
    }

    #[inline]
    pub(super) fn remove_lib(&mut self, index: usize) {
        self.libs = self.libs.wrapping_sub(lib_unit(index));
    }

    #[inline]
    pub(super) fn absorb(&mut self, other: ChainInfo) {
        self.libs += other.libs;
        self.stones += other.stones;
    }

    /// Pseudo-liberty count.
    #[inline]
    pub(super) fn lib_count(&self) -> u64 {
        self.libs & ((1 << LIB_COUNT_BITS) - 1)
    }

    /// Sum of the pseudo-liberties' indices.
    #[inline]
    pub(super) fn lib_sum(&self) -> u64 {
        (self.libs >> LIB_SUM_SHIFT) & ((1 << LIB_SUM_BITS) - 1)
    }

    /// Sum of the pseudo-liberties' squared indices.
    #[inline]
    pub(super) fn lib_sum_sq(&self) -> u64 {
        self.libs >> LIB_SUM_SQ_SHIFT
    }

    /// No liberty at all.
    #[inline]
    pub(super) fn has_no_liberty(&self) -> bool {
        self.lib_count() == 0
    }

    /// Whether every pseudo-liberty is the point whose [`lib_unit`] is `unit`, for a chain
    /// that has that point among its pseudo-liberties: then the chain is in atari there. `c`
    /// pseudo-liberties all at `p` pack to exactly `c * lib_unit(p)`; any other set differs
    /// in its sum or its sum of squares (equality in Cauchy-Schwarz), so one multiplication
    /// decides it.
    #[inline]
    pub(super) fn only_liberty_is(&self, unit: u64) -> bool {
        self.libs == self.lib_count().wrapping_mul(unit)
    }

    /// Exactly one distinct liberty. Wrapping products: a real chain's never wrap, and the
    /// meaningless statistics of an empty or border cell may be read (and masked out) by
    /// branch-free callers.
    #[inline]
    pub(super) fn in_atari(&self) -> bool {
        let libs = self.lib_count();
        let sum = self.lib_sum();
        (libs > 0) & (libs.wrapping_mul(self.lib_sum_sq()) == sum.wrapping_mul(sum))
    }
}

/// The point of `count` pseudo-liberties that are all one point, from the sum of their
/// indices: the sum itself when there is one (most often), else a division (tens of cycles).
#[inline]
fn single_liberty(sum: u64, count: u64) -> usize {
    (if count == 1 { sum } else { sum / count }) as usize
}

/// The liberties a chain has besides one given point ([`Board::liberties_besides`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherLiberties {
    /// None.
    None,
    /// Exactly one, this one.
    One(Point),
    /// Two or more.
    Several,
}

impl Board {
    #[inline]
    pub(super) fn head(&self, index: usize) -> usize {
        self.chain_head[index] as usize
    }

    /// Whether the chain through the stone at `p` has exactly one liberty. On an empty or
    /// border cell the answer means nothing, but it is safe to ask.
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.chains[self.head(p.index())].in_atari()
    }

    /// The single liberty of the chain through the stone at `p`, if it is in atari.
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let info = &self.chains[self.head(p.index())];
        info.in_atari()
            .then(|| Point::from_index(single_liberty(info.lib_sum(), info.lib_count())))
    }

    /// Number of stones in the chain through the stone at `p`.
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        self.chains[self.head(p.index())].stones as usize
    }

    /// Pseudo-liberties of the chain through the stone at `p`: one per (stone, empty
    /// neighbour) pair, so at least the number of distinct liberties and at most four times
    /// it. Constant time.
    #[inline]
    pub fn pseudo_liberties(&self, p: Point) -> usize {
        self.chains[self.head(p.index())].lib_count() as usize
    }

    /// A stable identifier of the chain through the stone at `p` (its head cell).
    #[inline]
    pub fn chain_id(&self, p: Point) -> usize {
        self.head(p.index())
    }

    /// The distinct liberties of the chain through the stone at `p` other than `except`,
    /// read from the chain's pseudo-liberty sums without walking the chain: each stone of
    /// the chain next to `except` counts it once when it is empty, and taking those out
    /// leaves either nothing, one point (all remaining pseudo-liberties equal), or several.
    #[inline]
    pub fn liberties_besides(&self, p: Point, except: Point) -> OtherLiberties {
        let head = self.head(p.index());
        let mut libs = self.chains[head].libs;
        // Branch-free: whether a neighbour of `except` belongs to the chain is a coin toss.
        // Only stones of the chain have `head` as their head (other cells name themselves).
        let except_empty = self.cells[except.index()] == Cell::Empty;
        let unit = lib_unit(except.index());
        for n in self.geometry.neighbors(except) {
            let counted = except_empty & (self.head(n) == head);
            libs = libs.wrapping_sub(std::hint::select_unpredictable(counted, unit, 0));
        }
        let rest = ChainInfo { libs, stones: 0 };
        let count = rest.lib_count();
        if count == 0 {
            OtherLiberties::None
        } else if count * rest.lib_sum_sq() == rest.lib_sum() * rest.lib_sum() {
            OtherLiberties::One(Point::from_index(single_liberty(rest.lib_sum(), count)))
        } else {
            OtherLiberties::Several
        }
    }

    /// A liberty of the chain through the stone at `p` that touches `p` itself, with the
    /// chain's other liberties ([`Board::liberties_besides`]): how many liberties the chain
    /// has (one, two, several) without walking it. `None` when `p` has no empty neighbour.
    #[inline]
    pub fn adjacent_liberty_and_rest(&self, p: Point) -> Option<(Point, OtherLiberties)> {
        // The first empty neighbour in `neighbors` order, found without a branch per
        // neighbour.
        let neighbours = self.geometry.neighbors(p);
        let mut empty = 0u32;
        for (k, &n) in neighbours.iter().enumerate() {
            empty |= ((self.cells[n] == Cell::Empty) as u32) << k;
        }
        if empty == 0 {
            return None;
        }
        let x = Point::from_index(neighbours[empty.trailing_zeros() as usize & 3]);
        Some((x, self.liberties_besides(p, x)))
    }

    /// The stones of the chain through the stone at `p`.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        let start = p.index();
        ChainStones {
            board: self,
            start,
            current: Some(start),
        }
    }

    /// The distinct liberties of the chain through the stone at `p`, in ascending order.
    /// Not for hot paths: it walks the chain.
    pub fn chain_liberties(&self, p: Point) -> Vec<Point> {
        let mut libs: Vec<Point> = Vec::new();
        for s in self.chain_stones(p) {
            for n in self.geometry.neighbors(s) {
                if self.cells[n] == Cell::Empty {
                    libs.push(Point::from_index(n));
                }
            }
        }
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// Exact number of distinct liberties of the chain through the stone at `p`.
    pub fn liberty_count(&self, p: Point) -> usize {
        if self.in_atari(p) {
            1
        } else {
            self.chain_liberties(p).len()
        }
    }
}

/// Iterator over the stones of one chain.
pub struct ChainStones<'a> {
    board: &'a Board,
    start: usize,
    current: Option<usize>,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let s = self.current?;
        let next = self.board.next_stone[s] as usize;
        self.current = (next != self.start).then_some(next);
        Some(Point::from_index(s))
    }
}
