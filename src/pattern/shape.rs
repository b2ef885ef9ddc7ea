//! Shape codes around a candidate move: the 3x3 neighbourhood with atari marks, and larger
//! diamond-shaped neighbourhoods, all seen from the player to move (own / enemy rather than
//! black / white, which folds the colour swap) and folded over the 8 rotations and
//! reflections of the square by taking the smallest code among the 8 transformed ones.
//!
//! Cell states use 2 bits: 0 empty, 1 the mover's stone, 2 an enemy stone, 3 off the board.
//! After the cells come 4 atari bits, one per orthogonal neighbour (north, west, east,
//! south): set when a stone there belongs to a chain with exactly one liberty.
//!
//! Shapes of up to 30 cells have codes that fit 64 bits and are their own keys. Larger ones
//! (up to 62 cells: the 40- and 60-point diamonds) are read and folded in 128 bits, and their
//! key is a 64-bit hash of the folded code ([`wide_key`]).

use std::sync::OnceLock;

use crate::board::{Board, Cell, Color, MAX_SIZE, Point};

/// Cell state: empty point.
pub const EMPTY: u64 = 0;
/// Cell state: a stone of the player to move.
pub const OWN: u64 = 1;
/// Cell state: an enemy stone.
pub const ENEMY: u64 = 2;
/// Cell state: off the board.
pub const OFF: u64 = 3;

/// A map of an offset `(dx, dy)` to another.
pub type OffsetMap = fn(i32, i32) -> (i32, i32);

/// The 8 symmetries of the square as maps of an offset `(dx, dy)`.
pub const SYMMETRIES: [OffsetMap; 8] = [
    |x, y| (x, y),
    |x, y| (-x, y),
    |x, y| (x, -y),
    |x, y| (-x, -y),
    |x, y| (y, x),
    |x, y| (-y, x),
    |x, y| (y, -x),
    |x, y| (-y, -x),
];

/// Slots of the 3x3 code, in bit order: `(dx, dy)` with `dy = 1` to the north.
pub const SLOTS_3X3: [(i32, i32); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The orthogonal neighbours whose atari bits follow the cells: north, west, east, south.
pub const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (-1, 0), (1, 0), (0, -1)];

/// Number of distinct raw 3x3 codes (8 cells of 2 bits and 4 atari bits).
pub const RAW_3X3_CODES: usize = 1 << 20;

/// A neighbourhood shape: the offsets it reads, in bit order, and for each symmetry where
/// each offset (and each atari bit) lands.
#[derive(Clone, Debug)]
pub struct ShapeKind {
    offsets: Vec<(i32, i32)>,
    /// `cell_map[s][k]`: the bit slot that offset `k` moves to under symmetry `s`.
    cell_map: [Vec<u8>; 8],
    /// `atari_map[s][k]`: the atari slot that orthogonal neighbour `k` moves to.
    atari_map: [[u8; 4]; 8],
    /// `cell_source[s][j]`: the offset that lands on bit slot `j` under symmetry `s` (the
    /// inverse of `cell_map[s]`).
    cell_source: [Vec<u8>; 8],
    /// `atari_source[s][j]`: the orthogonal neighbour that lands on atari slot `j`.
    atari_source: [[u8; 4]; 8],
    /// Ranges of slots that every symmetry maps onto themselves (the rings of a diamond,
    /// one per Manhattan distance), in slot order; one range for other shapes.
    rings: Vec<(usize, usize)>,
}

/// Most cells a shape may have.
pub const MAX_SHAPE_CELLS: usize = 62;

fn position_of(list: &[(i32, i32)], item: (i32, i32)) -> u8 {
    list.iter()
        .position(|&o| o == item)
        .expect("symmetries map a shape onto itself") as u8
}

impl ShapeKind {
    fn from_offsets(offsets: Vec<(i32, i32)>) -> ShapeKind {
        let cell_map = std::array::from_fn(|s| {
            offsets
                .iter()
                .map(|&(x, y)| position_of(&offsets, SYMMETRIES[s](x, y)))
                .collect()
        });
        let atari_map = std::array::from_fn(|s| {
            std::array::from_fn(|k| {
                let (x, y) = ORTHOGONAL[k];
                position_of(&ORTHOGONAL, SYMMETRIES[s](x, y))
            })
        });
        let cell_source = std::array::from_fn(|s| {
            let map: &Vec<u8> = &cell_map[s];
            (0..map.len())
                .map(|j| {
                    map.iter()
                        .position(|&to| to as usize == j)
                        .expect("a bijection") as u8
                })
                .collect()
        });
        let atari_source = std::array::from_fn(|s| {
            std::array::from_fn(|j| {
                atari_map[s]
                    .iter()
                    .position(|&to| to as usize == j)
                    .expect("a bijection") as u8
            })
        });
        // Runs of equal Manhattan distance; a symmetry keeps the distance, so each run is
        // closed under the symmetries when the distances never decrease along the offsets.
        let distance = |&(x, y): &(i32, i32)| x.abs() + y.abs();
        let sorted = offsets
            .windows(2)
            .all(|w| distance(&w[0]) <= distance(&w[1]));
        let mut rings = Vec::new();
        if sorted {
            let mut start = 0;
            for k in 1..=offsets.len() {
                if k == offsets.len() || distance(&offsets[k]) != distance(&offsets[start]) {
                    rings.push((start, k));
                    start = k;
                }
            }
        } else {
            rings.push((0, offsets.len()));
        }
        ShapeKind {
            offsets,
            cell_map,
            atari_map,
            cell_source,
            atari_source,
            rings,
        }
    }

    /// The 3x3 neighbourhood.
    pub fn square3() -> ShapeKind {
        ShapeKind::from_offsets(SLOTS_3X3.to_vec())
    }

    /// Every point at Manhattan distance 1..=`radius`, ordered by distance, then row, then
    /// column (radius 2: 12 points; radius 3: 24 points).
    pub fn diamond(radius: i32) -> ShapeKind {
        let mut offsets = Vec::new();
        for d in 1..=radius {
            for y in (-d..=d).rev() {
                for x in -d..=d {
                    if x.abs() + y.abs() == d {
                        offsets.push((x, y));
                    }
                }
            }
        }
        assert!(
            offsets.len() <= MAX_SHAPE_CELLS,
            "a shape code holds at most 62 cells"
        );
        ShapeKind::from_offsets(offsets)
    }

    /// The offsets read, in bit order.
    pub fn offsets(&self) -> &[(i32, i32)] {
        &self.offsets
    }

    /// Bit position of the first atari bit.
    fn atari_shift(&self) -> u32 {
        2 * self.offsets.len() as u32
    }

    /// Whether codes fit 64 bits (at most 30 cells): then a folded code is its own key.
    pub fn fits_u64(&self) -> bool {
        self.atari_shift() + 4 <= 64
    }

    /// The code of this shape around `p` for `color` to move, not folded (the low 64 bits
    /// for shapes that do not fit them: see [`ShapeKind::raw_code_wide`]).
    pub fn raw_code(&self, board: &Board, p: Point, color: Color) -> u64 {
        self.raw_code_wide(board, p, color) as u64
    }

    /// Applies symmetry `s` to a code of a shape that fits 64 bits.
    pub fn transform(&self, code: u64, s: usize) -> u64 {
        self.transform_wide(code as u128, s) as u64
    }

    /// The smallest of the 8 transformed codes (a shape that fits 64 bits).
    pub fn canonical(&self, code: u64) -> u64 {
        self.canonical_wide(code as u128) as u64
    }

    /// The code of this shape around `p` for `color` to move, not folded, in 128 bits.
    pub fn raw_code_wide(&self, board: &Board, p: Point, color: Color) -> u128 {
        let geometry = board.geometry();
        let size = board.size() as i32;
        let stride = geometry.stride() as i32;
        let (col, row) = geometry.coords(p);
        let (col, row) = (col as i32, row as i32);
        let mut code = 0u128;
        for (k, &(dx, dy)) in self.offsets.iter().enumerate() {
            let (c, r) = (col + dx, row + dy);
            let state = if c < 0 || r < 0 || c >= size || r >= size {
                OFF
            } else {
                let index = (p.index() as i32 + dy * stride + dx) as usize;
                cell_state(board.cell_at(index), color)
            };
            code |= (state as u128) << (2 * k);
        }
        code | (atari_bits(board, p) as u128) << self.atari_shift()
    }

    /// Applies symmetry `s` to a 128-bit code of this shape.
    pub fn transform_wide(&self, code: u128, s: usize) -> u128 {
        let mut out = 0u128;
        for (k, &to) in self.cell_map[s].iter().enumerate() {
            out |= ((code >> (2 * k)) & 3) << (2 * to as u32);
        }
        let shift = self.atari_shift();
        for (k, &to) in self.atari_map[s].iter().enumerate() {
            out |= ((code >> (shift + k as u32)) & 1) << (shift + to as u32);
        }
        out
    }

    /// The smallest of the 8 transformed codes: equal for all symmetric neighbourhoods.
    pub fn canonical_wide(&self, code: u128) -> u128 {
        (0..8)
            .map(|s| self.transform_wide(code, s))
            .min()
            .unwrap_or(code)
    }

    /// The key of the folded code of this shape around `p` for `color` to move: the folded
    /// code itself when it fits 64 bits, else its [`wide_key`]. Equal to folding
    /// [`ShapeKind::raw_code_wide`] with [`ShapeKind::canonical_wide`], but faster: the cells
    /// are read once, and the smallest transformed code is found digit by digit from the
    /// top, dropping symmetries as soon as they give a larger digit, so that usually only
    /// one code is built.
    pub fn code(&self, board: &Board, p: Point, color: Color) -> u64 {
        let n = self.offsets.len();
        let mut states = [0u8; MAX_SHAPE_CELLS];
        self.read_states(board, p, color, &mut states);
        let atari = atari_bits(board, p) as u8;
        self.key(&states[..n], atari)
    }

    /// The key of the fold of these cell states (in offset order) and atari bits.
    #[inline]
    fn key(&self, states: &[u8], atari: u8) -> u64 {
        let folded = self.fold(states, atari);
        if self.fits_u64() {
            folded as u64
        } else {
            wide_key(folded)
        }
    }

    /// Writes the 2-bit state of each offset around `p` into `states` (offset order).
    #[inline]
    fn read_states(&self, board: &Board, p: Point, color: Color, states: &mut [u8]) {
        let geometry = board.geometry();
        let size = board.size() as i32;
        let stride = geometry.stride() as i32;
        let (col, row) = geometry.coords(p);
        let (col, row) = (col as i32, row as i32);
        for (state, &(dx, dy)) in states.iter_mut().zip(&self.offsets) {
            let (c, r) = (col + dx, row + dy);
            *state = if c < 0 || r < 0 || c >= size || r >= size {
                OFF as u8
            } else {
                let index = (p.index() as i32 + dy * stride + dx) as usize;
                cell_state(board.cell_at(index), color) as u8
            };
        }
    }

    /// The smallest transformed code of the shape with these cell states (in offset order)
    /// and atari bits.
    fn fold(&self, states: &[u8], atari: u8) -> u128 {
        let mut alive: u8 = 0xFF;
        if atari != 0 {
            for j in (0..4).rev() {
                let mut zeros = 0u8;
                for s in 0..8 {
                    if alive >> s & 1 == 1 && (atari >> self.atari_source[s][j]) & 1 == 0 {
                        zeros |= 1 << s;
                    }
                }
                if zeros != 0 {
                    alive = zeros;
                }
            }
        }
        // Outer rings first (the high digits). Every symmetry reads an empty ring as zeros:
        // no symmetry drops out there.
        'rings: for &(start, end) in self.rings.iter().rev() {
            if states[start..end].iter().all(|&d| d == 0) {
                continue;
            }
            for j in (start..end).rev() {
                if alive & (alive - 1) == 0 {
                    break 'rings;
                }
                let mut min = u8::MAX;
                let mut mask = 0u8;
                for s in 0..8 {
                    if alive >> s & 1 == 1 {
                        let d = states[self.cell_source[s][j] as usize];
                        if d < min {
                            min = d;
                            mask = 1 << s;
                        } else if d == min {
                            mask |= 1 << s;
                        }
                    }
                }
                alive = mask;
            }
        }
        let s = alive.trailing_zeros() as usize;
        let mut code = 0u128;
        for (j, &k) in self.cell_source[s].iter().enumerate() {
            code |= (states[k as usize] as u128) << (2 * j);
        }
        let shift = self.atari_shift();
        for (j, &k) in self.atari_source[s].iter().enumerate() {
            code |= (((atari >> k) & 1) as u128) << (shift + j as u32);
        }
        code
    }
}

/// The 64-bit key of a folded code wider than 64 bits: a fixed mix (splitmix64) of its
/// halves. Part of the table format: changing it invalidates trained tables.
pub fn wide_key(code: u128) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    mix(mix(code as u64) ^ (code >> 64) as u64)
}

/// `STATES[color as usize - 1][cell as usize]`: the 2-bit state of a cell.
const STATES: [[u8; 4]; 2] = [
    [EMPTY as u8, OWN as u8, ENEMY as u8, OFF as u8],
    [EMPTY as u8, ENEMY as u8, OWN as u8, OFF as u8],
];

/// The 2-bit state of a cell for `color` to move.
#[inline]
pub fn cell_state(cell: Cell, color: Color) -> u64 {
    STATES[color.index()][cell as usize] as u64
}

/// The raw (unfolded) 3x3 code around `p` for `color` to move: the hot-path twin of
/// `ShapeKind::square3().raw_code`. The eight cells come from the board's ring code (one
/// load; its fields are the states for black to move, and for white the own and enemy
/// fields swap places), the atari bits from the four orthogonal neighbours' chains.
#[inline]
pub fn raw_code_3x3(board: &Board, p: Point, color: Color) -> u32 {
    cells_3x3(board, p, color) | (atari_bits(board, p) as u32) << 16
}

/// The low 16 bits of [`raw_code_3x3`]: the eight neighbours' states for `color` to move,
/// without the atari bits (no chain is looked at).
#[inline]
pub fn cells_3x3(board: &Board, p: Point, color: Color) -> u32 {
    let ring = board.ring_code(p) as u32;
    // A field of 1 or 2 has differing bits; flipping both turns one into the other, while
    // empty (0) and off-board (3) stay.
    let differ =
        (ring ^ (ring >> 1)) & 0x5555 & (0u32.wrapping_sub((color == Color::White) as u32));
    ring ^ (differ * 3)
}

/// The low bit of each orthogonal field of a ring code (or of the cells of a raw code) whose
/// two bits differ, that is, that holds a stone: ring positions 1 (north), 3 (west), 4
/// (east) and 6 (south).
#[inline]
fn orthogonal_stone_fields(ring: u32) -> u32 {
    (ring ^ (ring >> 1)) & 0x1144
}

/// Per ring position (0..8), the atari bit of the neighbour there (north 0, west 1, east 2,
/// south 3); only the orthogonal positions are used.
const ATARI_BIT: [u32; 8] = [0, 0, 0, 1, 2, 0, 3, 0];

/// The atari bits (as [`raw_code_3x3`] places them, above bit 16) that a raw code with the
/// cells `cells` can have: one for each orthogonal neighbour holding a stone.
pub fn possible_atari_bits(cells: u32) -> u32 {
    let mut stones = orthogonal_stone_fields(cells);
    let mut bits = 0;
    while stones != 0 {
        let position = (stones.trailing_zeros() / 2) as usize & 7;
        stones &= stones - 1;
        bits |= 1 << (16 + ATARI_BIT[position]);
    }
    bits
}

/// The 4 atari bits of the orthogonal neighbours of `p` (north, west, east, south). Only
/// the neighbours that hold stones (read from `p`'s ring code) have their chains looked at.
#[inline]
pub fn atari_bits(board: &Board, p: Point) -> u64 {
    let mut stones = orthogonal_stone_fields(board.ring_code(p) as u32);
    let i = p.index();
    let stride = board.geometry().stride();
    // Per ring position (0..8): the neighbour's offset; only the orthogonal positions are
    // read.
    let offsets = [0, i + stride, 0, i - 1, i + 1, 0, i - stride, 0];
    let mut bits = 0u64;
    while stones != 0 {
        let position = (stones.trailing_zeros() / 2) as usize & 7;
        stones &= stones - 1;
        bits |=
            (board.in_atari(Point::from_index(offsets[position])) as u64) << ATARI_BIT[position];
    }
    bits
}

/// The 3x3 shape, built once.
pub fn square3() -> &'static ShapeKind {
    static SHAPE: OnceLock<ShapeKind> = OnceLock::new();
    SHAPE.get_or_init(ShapeKind::square3)
}

/// The 12-point diamond (Manhattan radius 2), built once.
pub fn diamond12() -> &'static ShapeKind {
    static SHAPE: OnceLock<ShapeKind> = OnceLock::new();
    SHAPE.get_or_init(|| ShapeKind::diamond(2))
}

/// The 24-point diamond (Manhattan radius 3), built once.
pub fn diamond24() -> &'static ShapeKind {
    static SHAPE: OnceLock<ShapeKind> = OnceLock::new();
    SHAPE.get_or_init(|| ShapeKind::diamond(3))
}

/// The 40-point diamond (Manhattan radius 4), built once; its keys are hashed
/// ([`wide_key`]).
pub fn diamond40() -> &'static ShapeKind {
    static SHAPE: OnceLock<ShapeKind> = OnceLock::new();
    SHAPE.get_or_init(|| {
        let shape = ShapeKind::diamond(4);
        assert!(
            shape.offsets.starts_with(&diamond24().offsets)
                && diamond24().offsets.starts_with(&diamond12().offsets),
            "the smaller diamonds are prefixes of the larger"
        );
        shape
    })
}

/// The 60-point diamond (Manhattan radius 5), built once; its keys are hashed
/// ([`wide_key`]).
pub fn diamond60() -> &'static ShapeKind {
    static SHAPE: OnceLock<ShapeKind> = OnceLock::new();
    SHAPE.get_or_init(|| {
        let shape = ShapeKind::diamond(5);
        assert!(
            shape.offsets.starts_with(&diamond40().offsets),
            "the smaller diamonds are prefixes of the larger"
        );
        shape
    })
}

/// The keys of the 12-, 24-, 40- and 60-point diamonds around `p` for `color` to move (equal
/// to their [`ShapeKind::code`]s), reading the 60 cells and the atari bits once
/// ([`RawNeighbourhood`]): each smaller diamond's offsets are the first ones of the larger.
pub fn diamond_codes(board: &Board, p: Point, color: Color) -> [u64; 4] {
    let raw = RawNeighbourhood::read(board, p, color);
    let [d12, d24] = raw.inner_keys();
    [d12, d24, raw.outer_key(), raw.far_key()]
}

/// Cells of the 40-point diamond.
pub const DIAMOND40_CELLS: usize = 40;

/// Cells of the 60-point diamond.
pub const DIAMOND60_CELLS: usize = 60;

/// For every padded index of a board of `size`, the padded indices of the 60 cells of the
/// 60-point diamond around it, in the diamond's offset order (the 40-point diamond's cells
/// first); an off-board cell is index 0, which is always a border cell. Built once per size,
/// so the hot path reads the cells with no bounds checks.
fn diamond60_cells(board: &Board) -> &'static [[u16; DIAMOND60_CELLS]] {
    static TABLES: [OnceLock<Vec<[u16; DIAMOND60_CELLS]>>; MAX_SIZE + 1] =
        [const { OnceLock::new() }; MAX_SIZE + 1];
    let geometry = board.geometry();
    TABLES[geometry.size()].get_or_init(|| {
        let size = geometry.size() as i32;
        let stride = geometry.stride() as i32;
        let offsets = diamond60().offsets();
        assert_eq!(offsets.len(), DIAMOND60_CELLS);
        (0..geometry.cells())
            .map(|index| {
                let mut cells = [0u16; DIAMOND60_CELLS];
                if geometry.contains_index(index) {
                    let (col, row) = geometry.coords(Point::from_index(index));
                    for (cell, &(dx, dy)) in cells.iter_mut().zip(offsets) {
                        let (c, r) = (col as i32 + dx, row as i32 + dy);
                        if c >= 0 && r >= 0 && c < size && r < size {
                            *cell = (index as i32 + dy * stride + dx) as u16;
                        }
                    }
                }
                cells
            })
            .collect()
    })
}

/// The raw (unfolded) neighbourhood of `p` for `color` to move, which decides every shape
/// feature of a move there: the 24-point diamond (cell `k` of the offset order in bits
/// `2k..2k+2`, the 4 atari bits in bits 48..52), which holds the 3x3 square and the
/// 12-point diamond (so it decides their codes too); the 40-point diamond (bits `2k`, atari
/// bits in 80..84); and the 60-point diamond (bits `2k`, atari bits in 120..124). Keys of
/// the shape memo ([`super::table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawNeighbourhood {
    pub inner: u64,
    pub outer: u128,
    pub far: u128,
}

impl RawNeighbourhood {
    /// Reads the neighbourhood of `p`.
    #[inline]
    pub fn read(board: &Board, p: Point, color: Color) -> RawNeighbourhood {
        let cells = &diamond60_cells(board)[p.index()];
        let states = &STATES[color.index()];
        let mut code = 0u128;
        for (k, &index) in cells.iter().enumerate() {
            code |= (states[board.cell_at(index as usize) as usize] as u128) << (2 * k);
        }
        let atari = atari_bits(board, p);
        let inner_cells = (1u64 << 48) - 1;
        let outer_cells = (1u128 << 80) - 1;
        RawNeighbourhood {
            inner: (code as u64 & inner_cells) | atari << 48,
            outer: (code & outer_cells) | (atari as u128) << 80,
            far: code | (atari as u128) << 120,
        }
    }

    /// The 60 cell states, in offset order.
    #[inline]
    fn states(&self) -> [u8; DIAMOND60_CELLS] {
        std::array::from_fn(|k| ((self.far >> (2 * k)) & 3) as u8)
    }

    /// The atari bits.
    #[inline]
    fn atari(&self) -> u8 {
        (self.far >> 120) as u8
    }

    /// The keys of the 12- and 24-point diamonds (as [`diamond_codes`]).
    pub fn inner_keys(&self) -> [u64; 2] {
        let states = self.states();
        [
            diamond12().key(&states[..12], self.atari()),
            diamond24().key(&states[..24], self.atari()),
        ]
    }

    /// The key of the 40-point diamond (as [`diamond_codes`]).
    pub fn outer_key(&self) -> u64 {
        diamond40().key(&self.states()[..DIAMOND40_CELLS], self.atari())
    }

    /// The key of the 60-point diamond (as [`diamond_codes`]).
    pub fn far_key(&self) -> u64 {
        diamond60().key(&self.states(), self.atari())
    }
}

/// The folded code of every raw 3x3 code, computed once (4 MiB).
pub fn canonical_3x3_table() -> &'static [u32] {
    static TABLE: OnceLock<Vec<u32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let shape = square3();
        // A symmetry only moves the code's fields (2 bits per cell, 1 per atari mark), so it
        // acts on each byte of the code separately: three 256-entry tables per symmetry
        // make the 8 million transforms lookups (a few milliseconds instead of half a
        // second of start-up).
        let parts: Vec<[[u32; 256]; 3]> = (0..8)
            .map(|s| {
                [0u32, 8, 16].map(|shift| {
                    std::array::from_fn(|v| shape.transform((v as u64) << shift, s) as u32)
                })
            })
            .collect();
        (0..RAW_3X3_CODES as u32)
            .map(|code| {
                let bytes = [code & 0xFF, (code >> 8) & 0xFF, code >> 16].map(|b| b as usize);
                parts
                    .iter()
                    .map(|t| t[0][bytes[0]] | t[1][bytes[1]] | t[2][bytes[2]])
                    .min()
                    .unwrap_or(code)
            })
            .collect()
    })
}

/// The folded 3x3 code around `p` for `color` to move.
#[inline]
pub fn code_3x3(board: &Board, p: Point, color: Color) -> u32 {
    canonical_3x3_table()[raw_code_3x3(board, p, color) as usize]
}

/// Renders a 3x3 code as three rows (`X` own, `O` enemy, `#` off board, `.` empty, `*` the
/// candidate point; a lower-case `x`/`o` marks a stone in atari): for logs and tests.
pub fn describe_3x3(code: u64) -> String {
    let symbol = |k: usize| -> char {
        let state = (code >> (2 * k)) & 3;
        let atari = ORTHOGONAL
            .iter()
            .position(|&o| o == SLOTS_3X3[k])
            .is_some_and(|a| (code >> (16 + a)) & 1 == 1);
        match (state, atari) {
            (EMPTY, _) => '.',
            (OWN, false) => 'X',
            (OWN, true) => 'x',
            (ENEMY, false) => 'O',
            (ENEMY, true) => 'o',
            _ => '#',
        }
    };
    format!(
        "{}{}{}\n{}*{}\n{}{}{}",
        symbol(0),
        symbol(1),
        symbol(2),
        symbol(3),
        symbol(4),
        symbol(5),
        symbol(6),
        symbol(7)
    )
}
