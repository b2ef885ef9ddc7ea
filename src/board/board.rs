//! The fast board: stones, chains with pseudo-liberties, captures, suicide, the simple-ko
//! point, an incremental Zobrist hash and each point's eight neighbours in one word (its
//! ring code, which the pattern playouts read 3x3 shapes from). Fixed-size arrays only:
//! cloning is a memory copy and playing a move allocates nothing.
//!
//! Chains keep *pseudo-liberties*: one count per (stone, adjacent empty point) pair, with the
//! sum and the sum of squares of those points' indices. A chain is in atari exactly when all
//! of its pseudo-liberties are the same point, that is when `count * sum_sq == sum * sum`, and
//! that point is `sum / count`: both answered in constant time.

use std::fmt;

use super::geometry::{Cell, Color, Geometry, MAX_CELLS, MAX_POINTS, MAX_SIZE, Point};
use super::zobrist::stone_key;

/// Why a move is illegal on the board (before any superko rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The vertex is not on this board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The move retakes a simple ko.
    Ko,
    /// The move would leave its own chain without liberties.
    Suicide,
    /// The move repeats an earlier position (a superko rule).
    Superko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OffBoard => "vertex off the board",
            IllegalMove::Occupied => "point occupied",
            IllegalMove::Ko => "retakes a ko",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Superko => "repeats a position (superko)",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Slots of every per-cell array: a power of two above `MAX_CELLS`, so that indexing with a
/// mask needs no bounds check and cannot go out of range.
const CELL_SLOTS: usize = 1024;
const _: () =
    assert!(CELL_SLOTS >= MAX_CELLS && CELL_SLOTS >= MAX_POINTS && CELL_SLOTS.is_power_of_two());

/// A per-cell array indexed through a mask. Every index the board uses is below
/// `MAX_CELLS`; the mask only lets the compiler drop the bounds checks on the hot path
/// (`check_consistency` and the tests verify the indices themselves).
#[derive(Clone)]
struct CellArray<T>([T; CELL_SLOTS]);

impl<T: Copy> CellArray<T> {
    fn filled(value: T) -> CellArray<T> {
        CellArray([value; CELL_SLOTS])
    }

    /// Copies the first `n` slots of `other`.
    #[inline]
    fn copy_prefix(&mut self, other: &CellArray<T>, n: usize) {
        self.0[..n].copy_from_slice(&other.0[..n]);
    }

    #[inline]
    fn prefix(&self, n: usize) -> &[T] {
        &self.0[..n]
    }

    #[inline]
    fn swap(&mut self, a: usize, b: usize) {
        self.0.swap(a & (CELL_SLOTS - 1), b & (CELL_SLOTS - 1));
    }
}

impl<T> std::ops::Index<usize> for CellArray<T> {
    type Output = T;

    #[inline]
    fn index(&self, index: usize) -> &T {
        &self.0[index & (CELL_SLOTS - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for CellArray<T> {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.0[index & (CELL_SLOTS - 1)]
    }
}

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
fn lib_unit(index: usize) -> u64 {
    LIB_UNITS[index & (CELL_SLOTS - 1)]
}

/// Statistics of one chain, stored at the chain's head cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ChainInfo {
    /// Pseudo-liberties packed in one word: their count, the sum of their indices and the sum
    /// of their squared indices (see `LIB_COUNT_BITS`), so that adding or removing one is a
    /// single addition. The fields of a real chain never underflow or overflow, so no carry
    /// crosses from one to the next.
    libs: u64,
    /// Stones in the chain.
    stones: u16,
}

impl ChainInfo {
    // Wrapping arithmetic: the slots of empty and border cells take arbitrary updates; real
    // chains never wrap (their counts stay exact).
    #[inline]
    fn add_lib(&mut self, index: usize) {
        self.libs = self.libs.wrapping_add(lib_unit(index));
    }

    /// Adds `index` as a liberty when `present` is true, without branching.
    #[inline]
    fn add_lib_if(&mut self, index: usize, present: bool) {
        // A select, not a branch: whether a neighbour is empty is a coin toss.
        self.libs += std::hint::select_unpredictable(present, lib_unit(index), 0);
    }

    #[inline]
    fn remove_lib(&mut self, index: usize) {
        self.libs = self.libs.wrapping_sub(lib_unit(index));
    }

    #[inline]
    fn absorb(&mut self, other: ChainInfo) {
        self.libs += other.libs;
        self.stones += other.stones;
    }

    /// Pseudo-liberty count.
    #[inline]
    fn lib_count(&self) -> u64 {
        self.libs & ((1 << LIB_COUNT_BITS) - 1)
    }

    /// Sum of the pseudo-liberties' indices.
    #[inline]
    fn lib_sum(&self) -> u64 {
        (self.libs >> LIB_SUM_SHIFT) & ((1 << LIB_SUM_BITS) - 1)
    }

    /// Sum of the pseudo-liberties' squared indices.
    #[inline]
    fn lib_sum_sq(&self) -> u64 {
        self.libs >> LIB_SUM_SQ_SHIFT
    }

    /// No liberty at all.
    #[inline]
    fn has_no_liberty(&self) -> bool {
        self.lib_count() == 0
    }

    /// Whether every pseudo-liberty is the point whose [`lib_unit`] is `unit`, for a chain
    /// that has that point among its pseudo-liberties: then the chain is in atari there. `c`
    /// pseudo-liberties all at `p` pack to exactly `c * lib_unit(p)`; any other set differs
    /// in its sum or its sum of squares (equality in Cauchy-Schwarz), so one multiplication
    /// decides it.
    #[inline]
    fn only_liberty_is(&self, unit: u64) -> bool {
        self.libs == self.lib_count().wrapping_mul(unit)
    }

    /// Exactly one distinct liberty. Wrapping products: a real chain's never wrap, and the
    /// meaningless statistics of an empty or border cell may be read (and masked out) by
    /// branch-free callers.
    #[inline]
    fn in_atari(&self) -> bool {
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

/// The board position: stones, chains, empty points, simple ko, hash and capture counts.
#[derive(Clone)]
pub struct Board {
    geometry: Geometry,
    cells: CellArray<Cell>,
    /// Head cell of the chain a stone belongs to. Cells that hold no stone (empty points and
    /// the border) name *themselves*: the move loops then update the statistics of all four
    /// neighbours without asking what they hold (fewer unpredictable branches), and the
    /// garbage those updates leave in an empty or border cell's own `chains` slot is never
    /// read (a stone placed there overwrites it). Each cell having its own slot, rather than
    /// all sharing one, keeps the four updates of a move independent.
    chain_head: CellArray<u16>,
    /// Next stone of the same chain (a circular list).
    next_stone: CellArray<u16>,
    /// Chain statistics, valid at head cells.
    chains: CellArray<ChainInfo>,
    /// The empty points, in no particular order.
    empties: CellArray<u16>,
    /// Slot of each empty point in `empties`.
    empty_slot: CellArray<u16>,
    /// Number of empty points. A `u32`, not a `u16`: the compiler reads it with a 32-bit
    /// load, which must not straddle the `ko_point` that `play_unchecked` has just stored
    /// (a store-forwarding stall measured at a tenth of the move's time).
    empty_count: u32,
    /// The point that may not be played next because it would retake a ko (0: none).
    ko_point: u16,
    /// The colour that may not play at `ko_point`.
    ko_color: Color,
    hash: u64,
    /// Stones captured by black and by white.
    captures: [u32; 2],
    /// Per cell, how many orthogonal neighbours are empty, black, white and border: four
    /// 4-bit fields at bit offsets `4 * (Cell as u8)`. Border cells hold harmless garbage.
    neighbor_counts: CellArray<u16>,
    /// Per cell, what its eight neighbours hold: the [`Cell`] value of each in two bits, in
    /// [`ring_cells`] order from the lowest bits (see [`Board::ring_code`]). Kept up to date
    /// by every stone placed and removed, so that the playout policy reads a point's 3x3
    /// shape in one load. Border cells hold fields for their on-board neighbours only.
    ring_codes: CellArray<u16>,
    /// Stones on the board, black and white.
    stones: [u16; 2],
}

/// The eight neighbours of cell `i` on a board of row stride `stride`, in the order of the
/// fields of a ring code ([`Board::ring_code`]): the row above (`+stride`) west to east,
/// west, east, the row below west to east. The neighbour at position `k` sees `i` at
/// position `7 - k`.
#[inline]
pub const fn ring_cells(i: usize, stride: usize) -> [usize; 8] {
    [
        i + stride - 1,
        i + stride,
        i + stride + 1,
        i - 1,
        i + 1,
        i - stride - 1,
        i - stride,
        i - stride + 1,
    ]
}

/// Bits of a [`RingSet`] (or of the low bits of a ring code) at the orthogonal positions.
const RING_ORTHOGONAL: u32 = 0x1144;
/// Bits of a ring code's low bits at the diagonal positions.
const RING_DIAGONAL: u32 = 0x4411;
/// Row (0 below, 2 above) and column (0 west, 2 east) of each ring position, around the
/// centre at row 1, column 1.
const RING_ROW: [usize; 8] = [2, 2, 2, 1, 1, 0, 0, 0];
const RING_COLUMN: [usize; 8] = [0, 1, 2, 0, 2, 0, 1, 2];

/// Bits of the fields of `ring` that hold `cell`: bit `2k` for ring position `k`.
#[inline]
const fn ring_fields_holding(ring: u16, cell: Cell) -> u32 {
    let differ = ring as u32 ^ (cell as u32 * 0x5555);
    !(differ | differ >> 1) & 0x5555
}

/// Some of the eight neighbours of a point, read from its ring code in a few bit
/// operations ([`Board::neighbours_holding`]); iterating gives their cell indices, in ring
/// order.
#[derive(Clone, Copy, Debug)]
pub struct RingSet {
    /// Bit `2k` for ring position `k`.
    bits: u32,
    /// The cell below and west of the centre.
    corner: usize,
    stride: usize,
}

impl RingSet {
    /// Only the orthogonal neighbours of the set.
    #[inline]
    pub fn orthogonal(self) -> RingSet {
        RingSet {
            bits: self.bits & RING_ORTHOGONAL,
            ..self
        }
    }

    /// Whether no neighbour is in the set.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// Whether the neighbour at ring `position` (0..8, see [`ring_cells`]) is in the set.
    #[inline]
    pub fn holds(self, position: u32) -> bool {
        (self.bits >> (2 * position)) & 1 == 1
    }
}

impl Iterator for RingSet {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.bits == 0 {
            return None;
        }
        let k = (self.bits.trailing_zeros() / 2) as usize & 7;
        self.bits &= self.bits - 1;
        Some(self.corner + RING_ROW[k] * self.stride + RING_COLUMN[k])
    }
}

/// One neighbour of kind `cell` in a neighbour-count word.
#[inline]
const fn count_unit(cell: Cell) -> u16 {
    1 << (4 * cell as u16)
}

/// The number of neighbours of kind `cell` in a neighbour-count word.
#[inline]
const fn count_of(counts: u16, cell: Cell) -> u16 {
    (counts >> (4 * cell as u16)) & 0xF
}

impl Board {
    /// An empty board of `size` (2..=25).
    pub fn new(size: usize) -> Option<Board> {
        Geometry::new(size).map(Board::with_geometry)
    }

    /// An empty board with the given geometry.
    pub fn with_geometry(geometry: Geometry) -> Board {
        let mut board = Board {
            geometry,
            cells: CellArray::filled(Cell::Border),
            chain_head: CellArray(std::array::from_fn(|i| i as u16)),
            next_stone: CellArray::filled(0),
            chains: CellArray::filled(ChainInfo::default()),
            empties: CellArray::filled(0),
            empty_slot: CellArray::filled(0),
            empty_count: 0,
            ko_point: 0,
            ko_color: Color::Black,
            hash: 0,
            captures: [0; 2],
            // Border cells start with four "empty" neighbours so that updates never borrow.
            neighbor_counts: CellArray::filled(4 * count_unit(Cell::Empty)),
            ring_codes: CellArray::filled(0),
            stones: [0; 2],
        };
        for p in geometry.points() {
            board.cells[p.index()] = Cell::Empty;
            board.add_empty(p.index());
        }
        for p in geometry.points() {
            let mut counts = 0;
            for n in geometry.neighbors(p) {
                counts += count_unit(board.cells[n]);
            }
            board.neighbor_counts[p.index()] = counts;
            board.ring_codes[p.index()] = board.ring_code_of_cells(p);
        }
        board
    }

    /// The ring code of `p` read from the cells (what `ring_codes` holds, computed afresh).
    fn ring_code_of_cells(&self, p: Point) -> u16 {
        let mut code = 0;
        for (k, n) in ring_cells(p.index(), self.geometry.stride())
            .into_iter()
            .enumerate()
        {
            code |= (self.cells[n] as u16) << (2 * k);
        }
        code
    }

    /// What the eight neighbours of `p` hold, in one word: the [`Cell`] value (empty 0,
    /// black 1, white 2, border 3) of the neighbour at position `k` of [`ring_cells`] in bits
    /// `2k..2k+2`. Kept up to date by the board, so it costs one load.
    #[inline]
    pub fn ring_code(&self, p: Point) -> u16 {
        self.ring_codes[p.index()]
    }

    /// The neighbours of `p` (all eight; [`RingSet::orthogonal`] narrows them to four) that
    /// hold `cell`, from the ring code: one load, no branch per neighbour.
    #[inline]
    pub fn neighbours_holding(&self, p: Point, cell: Cell) -> RingSet {
        let stride = self.geometry.stride();
        RingSet {
            bits: ring_fields_holding(self.ring_codes[p.index()], cell),
            corner: p.index() - stride - 1,
            stride,
        }
    }

    /// Adds (`placed`) or removes a stone of kind `cell` at `i` in its neighbours' ring
    /// codes.
    #[inline]
    fn update_rings(&mut self, i: usize, cell: Cell, placed: bool) {
        for (k, n) in ring_cells(i, self.geometry.stride())
            .into_iter()
            .enumerate()
        {
            let field = (cell as u16) << (2 * (7 - k));
            let code = self.ring_codes[n];
            self.ring_codes[n] = if placed {
                code.wrapping_add(field)
            } else {
                code.wrapping_sub(field)
            };
        }
    }

    /// Makes `self` equal to `other` by copying only the cells `other`'s size uses: the cheap
    /// way for a playout worker to reset its scratch board.
    pub fn copy_from(&mut self, other: &Board) {
        let n = other.geometry.cells();
        self.geometry = other.geometry;
        self.cells.copy_prefix(&other.cells, n);
        self.chain_head.copy_prefix(&other.chain_head, n);
        self.next_stone.copy_prefix(&other.next_stone, n);
        self.chains.copy_prefix(&other.chains, n);
        self.empty_slot.copy_prefix(&other.empty_slot, n);
        let e = other.empty_count as usize;
        self.empties.copy_prefix(&other.empties, e);
        self.empty_count = other.empty_count;
        self.ko_point = other.ko_point;
        self.ko_color = other.ko_color;
        self.hash = other.hash;
        self.captures = other.captures;
        self.neighbor_counts.copy_prefix(&other.neighbor_counts, n);
        self.ring_codes.copy_prefix(&other.ring_codes, n);
        self.stones = other.stones;
    }

    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.geometry.size()
    }

    /// Content of an on-board point.
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.index()]
    }

    /// Content of a raw padded index (border cells included).
    #[inline]
    pub fn cell_at(&self, index: usize) -> Cell {
        self.cells[index]
    }

    /// Zobrist hash of the stones on the board.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones captured so far by `color`.
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// The point `color` may not play next because it would retake a simple ko.
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko_point != 0).then(|| (Point::from_index(self.ko_point as usize), self.ko_color))
    }

    /// The empty points, in an unspecified order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        self.empties.prefix(self.empty_count as usize)
    }

    /// Number of empty points.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty_count as usize
    }

    /// Swaps two slots of the empty-point list. The list's order carries no meaning, so this
    /// changes nothing observable; playouts use it to sample candidates without replacement.
    #[inline]
    pub fn swap_empty_slots(&mut self, a: usize, b: usize) {
        let pa = self.empties[a];
        let pb = self.empties[b];
        self.empties[a] = pb;
        self.empties[b] = pa;
        self.empty_slot[pb as usize] = a as u16;
        self.empty_slot[pa as usize] = b as u16;
    }

    /// Whether the board has no stones.
    pub fn is_empty(&self) -> bool {
        self.empty_count() == self.size() * self.size()
    }

    /// Number of stones of `color` on the board.
    #[inline]
    pub fn stone_count(&self, color: Color) -> usize {
        self.stones[color.index()] as usize
    }

    /// How many orthogonal neighbours of `p` hold `cell` (empty, a colour, or the edge).
    #[inline]
    pub fn neighbor_count(&self, p: Point, cell: Cell) -> usize {
        count_of(self.neighbor_counts[p.index()], cell) as usize
    }

    #[inline]
    fn head(&self, index: usize) -> usize {
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

    /// Whether `p` is a one-point eye of `color` in the light-playout sense: all four
    /// orthogonal neighbours are `color`'s stones or the edge, and at most one diagonal holds
    /// an enemy stone (none when `p` is on the edge).
    #[inline]
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        let counts = self.neighbor_counts[p.index()];
        let border = count_of(counts, Cell::Border);
        if count_of(counts, Cell::from(color)) + border != 4 {
            return false;
        }
        let on_edge = border > 0;
        // The enemy diagonals from the ring code, one bit each: none, or one off the edge.
        let enemy = Cell::from(color.opponent());
        let enemy_diagonals =
            ring_fields_holding(self.ring_codes[p.index()], enemy) & RING_DIAGONAL;
        enemy_diagonals == 0 || (!on_edge && enemy_diagonals & (enemy_diagonals - 1) == 0)
    }

    /// Whether `color` playing on the empty point `p` would capture nothing and leave its
    /// own chain without liberties.
    #[inline]
    pub fn is_suicide(&self, p: Point, color: Color) -> bool {
        count_of(self.neighbor_counts[p.index()], Cell::Empty) == 0
            && self.is_suicide_when_surrounded(p, color)
    }

    /// `is_suicide` for a point without empty neighbours: true unless a friendly chain keeps
    /// another liberty or an enemy chain loses its last one (and so is captured). Branch-free
    /// over the four neighbours; a border neighbour's scratch statistics are masked out.
    #[inline]
    fn is_suicide_when_surrounded(&self, p: Point, color: Color) -> bool {
        let mut gives_liberty = false;
        let unit = lib_unit(p.index());
        for n in self.geometry.neighbors(p) {
            let cell = self.cells[n];
            let atari = self.chains[self.head(n)].only_liberty_is(unit);
            gives_liberty |= (cell != Cell::Border) & (cell.is(color) != atari);
        }
        !gives_liberty
    }

    /// The light playout's test of a candidate: legal for `color` (not a ko retake, not
    /// suicide) and not `color`'s own one-point eye. Equal to
    /// `!is_eye && !is_ko_retake && !is_suicide`, with the common case (an empty neighbour,
    /// so neither eye nor suicide) decided by one test.
    #[inline]
    pub fn is_legal_non_eye(&self, p: Point, color: Color) -> bool {
        let counts = self.neighbor_counts[p.index()];
        if count_of(counts, Cell::Empty) > 0 {
            // A ko point never has an empty neighbour: the single stone captured there was
            // surrounded by the capturer's stones and the edge.
            debug_assert!(!self.is_ko_retake(p, color));
            return true;
        }
        !self.is_eye(p, color)
            && !self.is_ko_retake(p, color)
            && !self.is_suicide_when_surrounded(p, color)
    }

    /// Whether `p` retakes the simple ko for `color`.
    #[inline]
    pub fn is_ko_retake(&self, p: Point, color: Color) -> bool {
        self.ko_point as usize == p.index() && self.ko_color == color
    }

    /// Zobrist hash of the position after `color` plays on the empty point `p`, with the
    /// captures it makes and, if its chain would be left without liberties, the suicide;
    /// the board is not changed. Superko checks use it.
    pub fn hash_after(&self, p: Point, color: Color) -> u64 {
        let i = p.index();
        let mut hash = self.hash ^ stone_key(color, i);
        let mut captured = [0usize; 4];
        let mut captured_count = 0;
        let mut friends = [0usize; 4];
        let mut friend_count = 0;
        let mut has_liberty = false;
        for n in self.geometry.neighbors(p) {
            match self.cells[n] {
                Cell::Empty => has_liberty = true,
                Cell::Border => {}
                cell => {
                    let h = self.head(n);
                    let atari = self.chains[h].in_atari();
                    if cell.is(color) {
                        has_liberty |= !atari;
                        if !friends[..friend_count].contains(&h) {
                            friends[friend_count] = h;
                            friend_count += 1;
                        }
                    } else if atari && !captured[..captured_count].contains(&h) {
                        captured[captured_count] = h;
                        captured_count += 1;
                        hash ^= self.chain_key(h);
                    }
                }
            }
        }
        if captured_count == 0 && !has_liberty {
            hash ^= stone_key(color, i);
            for &h in &friends[..friend_count] {
                hash ^= self.chain_key(h);
            }
        }
        hash
    }

    /// Xor of the keys of all stones of a chain.
    fn chain_key(&self, head: usize) -> u64 {
        let color = self.cells[head]
            .color()
            .expect("a chain head holds a stone");
        self.chain_stones(Point::from_index(head))
            .fold(0, |key, s| key ^ stone_key(color, s.index()))
    }

    /// Checks a move by the board's own rules (occupancy, simple ko, suicide).
    pub fn check_move(&self, p: Point, color: Color) -> Result<(), IllegalMove> {
        if !self.geometry.contains_index(p.index()) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p.index()] != Cell::Empty {
            return Err(IllegalMove::Occupied);
        }
        if self.is_ko_retake(p, color) {
            return Err(IllegalMove::Ko);
        }
        if self.is_suicide(p, color) {
            return Err(IllegalMove::Suicide);
        }
        Ok(())
    }

    /// Whether the board's own rules allow the move.
    #[inline]
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check_move(p, color).is_ok()
    }

    /// Plays a move after checking it (suicide forbidden); on error the board is unchanged.
    /// Returns the number of stones captured.
    pub fn play(&mut self, p: Point, color: Color) -> Result<usize, IllegalMove> {
        self.check_move(p, color)?;
        Ok(self.play_unchecked(p, color))
    }

    /// A pass: clears the ko point.
    #[inline]
    pub fn pass(&mut self) {
        self.ko_point = 0;
    }

    /// Plays `color` on the empty point `p` without checking ko or suicide. Captures enemy
    /// chains left without liberties; if the move's own chain then has none, it is removed
    /// (suicide, as Tromp-Taylor rules allow). Returns the number of enemy stones captured.
    /// The caller promises that `p` is an empty on-board point.
    ///
    /// The four neighbours are read once into two bit masks (friendly stones, enemy chains
    /// left without a liberty), so the common cases cost one branch each rather than one
    /// unpredictable branch per neighbour.
    #[inline]
    pub fn play_unchecked(&mut self, p: Point, color: Color) -> usize {
        let i = p.index();
        debug_assert_eq!(self.cells[i], Cell::Empty);
        let neighbors = self.geometry.neighbors(p);
        let own_cell = Cell::from(color);
        let enemy = color.opponent();
        let enemy_cell = Cell::from(enemy);
        self.ko_point = 0;
        self.remove_empty(i);
        self.cells[i] = own_cell;
        self.update_rings(i, own_cell, true);
        self.hash ^= stone_key(color, i);
        self.stones[color.index()] += 1;
        self.chain_head[i] = i as u16;
        self.next_stone[i] = i as u16;
        let placed = count_unit(own_cell) - count_unit(Cell::Empty);
        let mut info = ChainInfo {
            stones: 1,
            ..ChainInfo::default()
        };
        let mut friends = 0u32;
        for (k, &n) in neighbors.iter().enumerate() {
            let cell = self.cells[n];
            self.neighbor_counts[n] += placed;
            // An empty neighbour is a liberty of the new stone; a stone neighbour's chain loses
            // `i`; the border and empty points update only their own scratch slots.
            info.add_lib_if(n, cell == Cell::Empty);
            let h = self.head(n);
            self.chains[h].remove_lib(i);
            friends |= ((cell == own_cell) as u32) << k;
        }
        // Read after every neighbour's update: a chain touching `i` twice loses both.
        let mut dead_enemies = 0u32;
        for (k, &n) in neighbors.iter().enumerate() {
            let dead = (self.cells[n] == enemy_cell) & self.chains[self.head(n)].has_no_liberty();
            dead_enemies |= (dead as u32) << k;
        }

        let mut head = i;
        if friends == 0 {
            self.chains[i] = info;
        } else {
            // The stone joins its first friendly neighbour's chain directly; any further
            // friendly chains are merged into that one.
            let first = neighbors[friends.trailing_zeros() as usize];
            head = self.head(first);
            self.chain_head[i] = head as u16;
            self.next_stone[i] = self.next_stone[head];
            self.next_stone[head] = i as u16;
            self.chains[head].absorb(info);
            let mut rest = friends & (friends - 1);
            while rest != 0 {
                let other = self.head(neighbors[rest.trailing_zeros() as usize]);
                if other != head {
                    head = self.merge_chains(head, other);
                }
                rest &= rest - 1;
            }
        }

        if dead_enemies != 0 {
            self.capture_around(i, color, head, neighbors, dead_enemies)
        } else {
            if self.chains[head].has_no_liberty() {
                let lost = self.remove_chain(head);
                self.captures[enemy.index()] += lost as u32;
            }
            0
        }
    }

    /// The capturing end of `play_unchecked`: removes the enemy chains marked in
    /// `dead_enemies` (bits over `neighbors`) and sets the ko point when a single stone took
    /// a single stone and is left with that one liberty. `head` is the new stone's chain.
    #[inline(never)]
    fn capture_around(
        &mut self,
        i: usize,
        color: Color,
        head: usize,
        neighbors: [usize; 4],
        dead_enemies: u32,
    ) -> usize {
        let mut captured = 0;
        let mut captured_at = 0;
        let mut rest = dead_enemies;
        while rest != 0 {
            let n = neighbors[rest.trailing_zeros() as usize];
            // A chain touching `i` twice is marked twice; the first removal empties `n`.
            if self.cells[n] != Cell::Empty {
                captured += self.remove_chain(self.head(n));
                captured_at = n;
            }
            rest &= rest - 1;
        }
        self.captures[color.index()] += captured as u32;
        let own = self.chains[head];
        if captured == 1 && own.stones == 1 && own.lib_count() == 1 {
            self.ko_point = captured_at as u16;
            self.ko_color = color.opponent();
        }
        debug_assert!(!own.has_no_liberty() && !self.chains[self.head(i)].has_no_liberty());
        captured
    }

    /// Merges two chains (the smaller into the larger); returns the surviving head.
    #[inline]
    fn merge_chains(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.chains[a].stones >= self.chains[b].stones {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.chain_head[s] = big as u16;
            s = self.next_stone[s] as usize;
            if s == small {
                break;
            }
        }
        self.next_stone.swap(big, small);
        let small_info = self.chains[small];
        self.chains[big].absorb(small_info);
        big
    }

    /// Removes the chain with head `head`, giving liberties to its neighbours; returns the
    /// number of stones removed.
    fn remove_chain(&mut self, head: usize) -> usize {
        let color = self.cells[head]
            .color()
            .expect("a chain head holds a stone");
        let removed = count_unit(Cell::Empty).wrapping_sub(count_unit(Cell::from(color)));
        let mut count = 0;
        let mut s = head;
        loop {
            self.cells[s] = Cell::Empty;
            self.update_rings(s, Cell::from(color), false);
            self.chain_head[s] = s as u16;
            self.hash ^= stone_key(color, s);
            self.add_empty(s);
            // Every neighbouring enemy chain gains `s`. Other neighbours are empty points,
            // the border (their own scratch slots) or stones of this same chain, whose statistics
            // die with it.
            for n in self.geometry.neighbors(Point::from_index(s)) {
                self.neighbor_counts[n] = self.neighbor_counts[n].wrapping_add(removed);
                let h = self.head(n);
                self.chains[h].add_lib(s);
            }
            count += 1;
            s = self.next_stone[s] as usize;
            if s == head {
                break;
            }
        }
        self.stones[color.index()] -= count as u16;
        count
    }

    #[inline]
    fn add_empty(&mut self, index: usize) {
        self.empties[self.empty_count as usize] = index as u16;
        self.empty_slot[index] = self.empty_count as u16;
        self.empty_count += 1;
    }

    #[inline]
    fn remove_empty(&mut self, index: usize) {
        let slot = self.empty_slot[index] as usize;
        self.empty_count -= 1;
        let last = self.empties[self.empty_count as usize];
        self.empties[slot] = last;
        self.empty_slot[last as usize] = slot as u16;
    }

    /// Tromp-Taylor area score, black minus white, without komi: stones plus empty regions
    /// that reach only one colour.
    pub fn area_score(&self) -> i32 {
        // Fast path, which covers finished playouts: when no empty point touches another,
        // each one is its own region, owned when its neighbours are of one colour.
        let mut score = self.stones[0] as i32 - self.stones[1] as i32;
        let mut isolated = true;
        for &e in self.empty_points() {
            let counts = self.neighbor_counts[e as usize];
            if count_of(counts, Cell::Empty) > 0 {
                isolated = false;
                break;
            }
            let black = count_of(counts, Cell::Black);
            let white = count_of(counts, Cell::White);
            score += (white == 0 && black > 0) as i32 - (black == 0 && white > 0) as i32;
        }
        if isolated {
            return score;
        }
        let owners = self.area_owners();
        let mut score = 0;
        for p in self.geometry.points() {
            match owners[p.index()] {
                Some(Color::Black) => score += 1,
                Some(Color::White) => score -= 1,
                None => {}
            }
        }
        score
    }

    /// For every padded index: the colour that owns it by Tromp-Taylor area rules (a stone,
    /// or an empty point whose region reaches only that colour), or `None`.
    pub fn area_owners(&self) -> [Option<Color>; MAX_CELLS] {
        let mut owners = [None; MAX_CELLS];
        let mut visited = [false; MAX_CELLS];
        let mut region = [0u16; MAX_POINTS];
        for p in self.geometry.points() {
            let i = p.index();
            match self.cells[i] {
                Cell::Black => owners[i] = Some(Color::Black),
                Cell::White => owners[i] = Some(Color::White),
                Cell::Empty if !visited[i] => {
                    // Flood the empty region; `region` doubles as the work stack.
                    let mut len = 1;
                    let mut next = 0;
                    region[0] = i as u16;
                    visited[i] = true;
                    let (mut reaches_black, mut reaches_white) = (false, false);
                    while next < len {
                        let q = region[next] as usize;
                        next += 1;
                        for n in self.geometry.neighbors(Point::from_index(q)) {
                            match self.cells[n] {
                                Cell::Empty if !visited[n] => {
                                    visited[n] = true;
                                    region[len] = n as u16;
                                    len += 1;
                                }
                                Cell::Black => reaches_black = true,
                                Cell::White => reaches_white = true,
                                _ => {}
                            }
                        }
                    }
                    let owner = match (reaches_black, reaches_white) {
                        (true, false) => Some(Color::Black),
                        (false, true) => Some(Color::White),
                        _ => None,
                    };
                    for &q in &region[..len] {
                        owners[q as usize] = owner;
                    }
                }
                _ => {}
            }
        }
        owners
    }

    /// Recomputes chains, liberties, empty points and the hash from the stones alone and
    /// compares them with the incremental state. Returns a description of the first mismatch.
    pub fn check_consistency(&self) -> Result<(), String> {
        let g = self.geometry;
        for index in 0..g.cells() {
            let on_board = g.contains_index(index);
            let cell = self.cells[index];
            if on_board == (cell == Cell::Border) {
                return Err(format!("cell {index} is {cell:?}, on board: {on_board}"));
            }
        }
        let mut hash = 0;
        let mut empties = 0;
        let mut seen = [false; MAX_CELLS];
        for p in g.points() {
            let i = p.index();
            match self.cells[i].color() {
                None => {
                    empties += 1;
                    let slot = self.empty_slot[i] as usize;
                    if slot >= self.empty_count() || self.empties[slot] as usize != i {
                        return Err(format!(
                            "empty point {} missing from the list",
                            g.format_point(p)
                        ));
                    }
                    if self.chain_head[i] as usize != i {
                        return Err(format!(
                            "empty point {} still names a chain",
                            g.format_point(p)
                        ));
                    }
                }
                Some(color) => {
                    hash ^= stone_key(color, i);
                    if seen[i] {
                        continue;
                    }
                    // Flood-fill the chain from the stones alone.
                    let mut stack = vec![i];
                    let mut members = Vec::new();
                    seen[i] = true;
                    while let Some(q) = stack.pop() {
                        members.push(q);
                        for n in g.neighbors(Point::from_index(q)) {
                            if self.cells[n].is(color) && !seen[n] {
                                seen[n] = true;
                                stack.push(n);
                            }
                        }
                    }
                    let head = self.head(i);
                    if self.head(head) != head || !members.contains(&head) {
                        return Err(format!("chain at {} has a bad head", g.format_point(p)));
                    }
                    let mut expected = ChainInfo::default();
                    for &q in &members {
                        if self.head(q) != head {
                            return Err(format!(
                                "stone {} has the wrong head",
                                g.format_point(Point::from_index(q))
                            ));
                        }
                        expected.stones += 1;
                        for n in g.neighbors(Point::from_index(q)) {
                            if self.cells[n] == Cell::Empty {
                                expected.add_lib(n);
                            }
                        }
                    }
                    if expected != self.chains[head] {
                        return Err(format!(
                            "chain at {}: stored {:?}, recomputed {:?}",
                            g.format_point(p),
                            self.chains[head],
                            expected
                        ));
                    }
                    if expected.has_no_liberty() {
                        return Err(format!("chain at {} has no liberties", g.format_point(p)));
                    }
                    let ring: Vec<usize> = self.chain_stones(p).map(|s| s.index()).collect();
                    let mut sorted_ring = ring.clone();
                    sorted_ring.sort_unstable();
                    let mut sorted_members = members.clone();
                    sorted_members.sort_unstable();
                    if sorted_ring != sorted_members {
                        return Err(format!(
                            "chain ring at {} differs from the chain",
                            g.format_point(p)
                        ));
                    }
                }
            }
        }
        for color in Color::ALL {
            let count = g
                .points()
                .filter(|&p| self.cells[p.index()].is(color))
                .count();
            if count != self.stones[color.index()] as usize {
                return Err(format!(
                    "{color} has {count} stones, counter says {}",
                    self.stones[color.index()]
                ));
            }
        }
        for p in g.points() {
            let mut counts = 0;
            for n in g.neighbors(p) {
                counts += count_unit(self.cells[n]);
            }
            if counts != self.neighbor_counts[p.index()] {
                return Err(format!(
                    "neighbour counts of {} are stale",
                    g.format_point(p)
                ));
            }
            if self.ring_code_of_cells(p) != self.ring_codes[p.index()] {
                return Err(format!("ring code of {} is stale", g.format_point(p)));
            }
        }
        if empties != self.empty_count() {
            return Err(format!(
                "{} empty points, list holds {}",
                empties,
                self.empty_count()
            ));
        }
        if hash != self.hash {
            return Err("incremental hash differs from the recomputed one".to_string());
        }
        if self.ko_point != 0 && self.cells[self.ko_point as usize] != Cell::Empty {
            return Err("ko point is not empty".to_string());
        }
        Ok(())
    }

    /// Reads a diagram: one line per row, top row first; `X` or `#` black, `O` or `@`
    /// white, `.`, `+` or `,` empty; spaces ignored. The board size is the number of rows,
    /// and every row must have that many points. Stones are placed as setup; chains left
    /// without liberties are an error.
    pub fn from_diagram(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<Cell>> = text
            .lines()
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| match c {
                        'X' | 'x' | '#' => Ok(Cell::Black),
                        'O' | 'o' | '@' => Ok(Cell::White),
                        '.' | '+' | ',' => Ok(Cell::Empty),
                        other => Err(format!("unexpected character {other:?} in diagram")),
                    })
                    .collect::<Result<Vec<Cell>, String>>()
            })
            .filter(|row| !matches!(row, Ok(r) if r.is_empty()))
            .collect::<Result<_, _>>()?;
        let size = rows.len();
        let mut board = Board::new(size).ok_or_else(|| format!("unsupported size {size}"))?;
        for (r, row) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(format!(
                    "row {} has {} points, expected {size}",
                    r + 1,
                    row.len()
                ));
            }
            for (c, &cell) in row.iter().enumerate() {
                if let Some(color) = cell.color() {
                    let p = board
                        .geometry
                        .point(c, size - 1 - r)
                        .expect("inside the board");
                    board.play_unchecked(p, color);
                }
            }
        }
        board.ko_point = 0;
        board.captures = [0; 2];
        if board.geometry.points().any(|p| {
            let r = size - 1 - board.geometry.coords(p).1;
            rows[r][board.geometry.coords(p).0] != board.cell(p)
        }) {
            return Err("diagram holds a chain without liberties".to_string());
        }
        Ok(board)
    }

    /// The position as a diagram (`X` black, `O` white, `.` empty), top row first, one
    /// space between points.
    pub fn to_diagram(&self) -> String {
        let size = self.size();
        let mut out = String::with_capacity(size * (2 * size + 1));
        for row in (0..size).rev() {
            for col in 0..size {
                let p = self.geometry.point(col, row).expect("inside the board");
                if col > 0 {
                    out.push(' ');
                }
                out.push(match self.cell(p) {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.size(), self.size())?;
        f.write_str(&self.to_diagram())
    }
}

impl PartialEq for Board {
    /// Two boards are equal when they hold the same stones and the same ko restriction.
    fn eq(&self, other: &Board) -> bool {
        self.geometry == other.geometry
            && self
                .geometry
                .points()
                .all(|p| self.cell(p) == other.cell(p))
            && self.ko() == other.ko()
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
