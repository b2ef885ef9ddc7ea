//! Ring codes: what the eight neighbours of each point hold, kept in one word per point
//! (the pattern playouts read 3x3 shapes from it), the order of those neighbours
//! ([`ring_cells`]) and sets of neighbours read from a code ([`RingSet`]).

use super::geometry::{Cell, Point};
use super::position::Board;

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
pub(super) const RING_DIAGONAL: u32 = 0x4411;
/// Row (0 below, 2 above) and column (0 west, 2 east) of each ring position, around the
/// centre at row 1, column 1.
const RING_ROW: [usize; 8] = [2, 2, 2, 1, 1, 0, 0, 0];
const RING_COLUMN: [usize; 8] = [0, 1, 2, 0, 2, 0, 1, 2];

/// Bits of the fields of `ring` that hold `cell`: bit `2k` for ring position `k`.
#[inline]
pub(super) const fn ring_fields_holding(ring: u16, cell: Cell) -> u32 {
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

impl Board {
    /// The ring code of `p` read from the cells (what `ring_codes` holds, computed afresh).
    pub(super) fn ring_code_of_cells(&self, p: Point) -> u16 {
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
    pub(super) fn update_rings(&mut self, i: usize, cell: Cell, placed: bool) {
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
}
