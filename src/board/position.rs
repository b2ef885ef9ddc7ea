//! The [`Board`] type and its core job: the position's storage (fixed-size per-cell
//! arrays: cloning is a memory copy and playing a move allocates nothing), the accessors,
//! move legality (occupancy, simple ko, suicide, the light playout's eye test) and playing
//! moves with their captures, the simple-ko point, the incremental Zobrist hash and the
//! per-point neighbour counts. The chains' liberty bookkeeping is in `chains`, the ring
//! codes in `ring`, scoring, diagrams and the consistency check in files of their own.

use std::fmt;

use super::chains::{ChainInfo, lib_unit};
use super::geometry::{Cell, Color, Geometry, MAX_CELLS, MAX_POINTS, Point};
use super::ring::{RING_DIAGONAL, ring_fields_holding};
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
pub(super) const CELL_SLOTS: usize = 1024;
const _: () =
    assert!(CELL_SLOTS >= MAX_CELLS && CELL_SLOTS >= MAX_POINTS && CELL_SLOTS.is_power_of_two());

/// A per-cell array indexed through a mask. Every index the board uses is below
/// `MAX_CELLS`; the mask only lets the compiler drop the bounds checks on the hot path
/// (`check_consistency` and the tests verify the indices themselves).
#[derive(Clone)]
pub(super) struct CellArray<T>([T; CELL_SLOTS]);

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

/// One neighbour of kind `cell` in a neighbour-count word.
#[inline]
pub(super) const fn count_unit(cell: Cell) -> u16 {
    1 << (4 * cell as u16)
}

/// The number of neighbours of kind `cell` in a neighbour-count word.
#[inline]
pub(super) const fn count_of(counts: u16, cell: Cell) -> u16 {
    (counts >> (4 * cell as u16)) & 0xF
}

/// The board position: stones, chains, empty points, simple ko, hash and capture counts.
#[derive(Clone)]
pub struct Board {
    pub(super) geometry: Geometry,
    pub(super) cells: CellArray<Cell>,
    /// Head cell of the chain a stone belongs to. Cells that hold no stone (empty points and
    /// the border) name *themselves*: the move loops then update the statistics of all four
    /// neighbours without asking what they hold (fewer unpredictable branches), and the
    /// garbage those updates leave in an empty or border cell's own `chains` slot is never
    /// read (a stone placed there overwrites it). Each cell having its own slot, rather than
    /// all sharing one, keeps the four updates of a move independent.
    pub(super) chain_head: CellArray<u16>,
    /// Next stone of the same chain (a circular list).
    pub(super) next_stone: CellArray<u16>,
    /// Chain statistics, valid at head cells.
    pub(super) chains: CellArray<ChainInfo>,
    /// The empty points, in no particular order.
    pub(super) empties: CellArray<u16>,
    /// Slot of each empty point in `empties`.
    pub(super) empty_slot: CellArray<u16>,
    /// Number of empty points. A `u32`, not a `u16`: the compiler reads it with a 32-bit
    /// load, which must not straddle the `ko_point` that `play_unchecked` has just stored
    /// (a store-forwarding stall measured at a tenth of the move's time).
    pub(super) empty_count: u32,
    /// The point that may not be played next because it would retake a ko (0: none).
    pub(super) ko_point: u16,
    /// The colour that may not play at `ko_point`.
    pub(super) ko_color: Color,
    pub(super) hash: u64,
    /// Stones captured by black and by white.
    pub(super) captures: [u32; 2],
    /// Per cell, how many orthogonal neighbours are empty, black, white and border: four
    /// 4-bit fields at bit offsets `4 * (Cell as u8)`. Border cells hold harmless garbage.
    pub(super) neighbor_counts: CellArray<u16>,
    /// Per cell, what its eight neighbours hold: the [`Cell`] value of each in two bits, in
    /// [`ring_cells`] order from the lowest bits (see [`Board::ring_code`]). Kept up to date
    /// by every stone placed and removed, so that the playout policy reads a point's 3x3
    /// shape in one load. Border cells hold fields for their on-board neighbours only.
    pub(super) ring_codes: CellArray<u16>,
    /// Stones on the board, black and white.
    pub(super) stones: [u16; 2],
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
