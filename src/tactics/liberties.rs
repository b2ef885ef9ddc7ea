//! Liberties of chains and of moves, read without allocating: a chain's distinct liberties
//! up to a cap, what playing a point would leave the new chain with (liberties, size,
//! captures), and self-atari. The pattern features, the playout policy, the priors and the
//! readers of this module use them.

use crate::board::{Board, Cell, Color, OtherLiberties, Point};

/// A set of at most `N` distinct points with a fixed array: no allocation.
pub(crate) struct SmallSet<const N: usize> {
    items: [u16; N],
    pub(crate) len: usize,
}

impl<const N: usize> SmallSet<N> {
    pub(crate) fn new() -> Self {
        SmallSet {
            items: [0; N],
            len: 0,
        }
    }

    /// Adds `x` when `add` is true, without a branch; the caller knows `x` is not in the
    /// set yet and that the set is not full.
    #[inline]
    pub(crate) fn push_when(&mut self, x: u16, add: bool) {
        self.items[self.len] = x;
        self.len += add as usize;
    }

    /// Adds `x` unless present; returns whether the set is now full.
    pub(crate) fn insert(&mut self, x: u16) -> bool {
        if !self.items[..self.len].contains(&x) && self.len < N {
            self.items[self.len] = x;
            self.len += 1;
        }
        self.len == N
    }

    pub(crate) fn contains(&self, x: u16) -> bool {
        self.items[..self.len].contains(&x)
    }
}

/// The distinct liberties of the chain through `p`, up to `out`'s length; returns how many
/// were found. Walks the chain;
/// allocates nothing.
pub fn liberties_into(board: &Board, p: Point, out: &mut [u16]) -> usize {
    let mut len = 0;
    for s in board.chain_stones(p) {
        for n in board.geometry().neighbors(s) {
            if board.cell_at(n) == Cell::Empty && !out[..len].contains(&(n as u16)) {
                out[len] = n as u16;
                len += 1;
                if len == out.len() {
                    return len;
                }
            }
        }
    }
    len
}

/// Distinct liberties of the chain through the stone at `p`, counted up to `cap` (at most
/// 8). Walks the chain; allocates nothing.
pub fn liberties_capped(board: &Board, p: Point, cap: usize) -> usize {
    let cap = cap.min(8);
    if board.in_atari(p) {
        return 1.min(cap);
    }
    // With a liberty next to `p` in hand, the pseudo-liberty sums tell whether the chain
    // has one, two, or three and more liberties without walking it.
    if let Some((_, rest)) = board.adjacent_liberty_and_rest(p) {
        match rest {
            OtherLiberties::None => return 1.min(cap),
            OtherLiberties::One(_) => return 2.min(cap),
            OtherLiberties::Several if cap <= 3 => return cap,
            OtherLiberties::Several => {}
        }
    }
    let mut libs = SmallSet::<8>::new();
    for s in board.chain_stones(p) {
        for n in board.geometry().neighbors(s) {
            if board.cell_at(n) == Cell::Empty {
                libs.insert(n as u16);
                if libs.len >= cap {
                    return cap;
                }
            }
        }
    }
    libs.len
}

/// What playing `color` on the empty point `p` would do to liberties: the liberties of the
/// new chain (counted up to 3; a captured neighbour counts as one), its size, and whether
/// it captures. Allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLiberties {
    pub liberties: usize,
    pub chain_size: usize,
    pub captures: bool,
}

pub fn liberties_after(board: &Board, p: Point, color: Color) -> MoveLiberties {
    const CAP: usize = 3;
    let own = Cell::from(color);
    let enemy = Cell::from(color.opponent());
    let neighbours = board.geometry().neighbors(p);
    // The neighbours sorted without a branch per neighbour (what each holds is a coin
    // toss): the empty ones and the enemy stones in atari (captured: their points become
    // liberties) are distinct liberties at once; the own stones' chains come after.
    // `in_atari` may read the meaningless statistics of an empty or border cell, masked out.
    let mut known = SmallSet::<4>::new();
    let mut captures = false;
    let mut own_heads = [usize::MAX; 4];
    for (k, &n) in neighbours.iter().enumerate() {
        let cell = board.cell_at(n);
        let np = Point::from_index(n);
        let captured = (cell == enemy) & board.in_atari(np);
        captures |= captured;
        known.push_when(n as u16, (cell == Cell::Empty) | captured);
        if cell == own {
            own_heads[k] = board.chain_id(np);
        }
    }
    let mut chain_size = 1;
    for k in 0..4 {
        let head = own_heads[k];
        if head == usize::MAX || own_heads[..k].contains(&head) {
            continue;
        }
        let np = Point::from_index(neighbours[k]);
        chain_size += board.chain_len(np);
        if known.len >= CAP {
            continue;
        }
        match board.liberties_besides(np, p) {
            OtherLiberties::None => {}
            OtherLiberties::One(q) => {
                known.insert(q.index() as u16);
            }
            OtherLiberties::Several => {
                'walk: for s in board.chain_stones(np) {
                    for m in board.geometry().neighbors(s) {
                        if m != p.index() && board.cell_at(m) == Cell::Empty {
                            known.insert(m as u16);
                            if known.len >= CAP {
                                break 'walk;
                            }
                        }
                    }
                }
            }
        }
    }
    MoveLiberties {
        liberties: known.len.min(CAP),
        chain_size,
        captures,
    }
}

/// Whether `color` playing on `p` would leave its own chain of at least `min_size` stones
/// with one liberty and capture nothing (`liberties_after` reporting no capture, one
/// liberty or none, and a chain of `min_size`). Walks no chain: the joined chain's
/// liberties are `p`'s empty neighbours and each friendly neighbour's liberties besides
/// `p`, which [`Board::liberties_besides`] gives as none, one or several; a second
/// distinct liberty, or an enemy neighbour in atari (a capture), ends the question.
#[inline]
pub fn is_self_atari(board: &Board, p: Point, color: Color, min_size: usize) -> bool {
    // Most points answer from the neighbour counts alone: two empty neighbours are two
    // liberties, and without an own neighbour the chain is the one new stone.
    if board.neighbor_count(p, Cell::Empty) >= 2
        || (min_size > 1 && board.neighbor_count(p, Cell::from(color)) == 0)
    {
        return false;
    }
    // The one liberty seen so far (a padded index; 0 for none yet).
    let mut liberty = 0;
    let mut size = 1;
    let mut seen = [usize::MAX; 4];
    for (k, n) in board.geometry().neighbors(p).into_iter().enumerate() {
        let other = match board.cell_at(n) {
            Cell::Border => continue,
            Cell::Empty => n,
            cell if cell.is(color) => {
                let np = Point::from_index(n);
                let id = board.chain_id(np);
                if seen.contains(&id) {
                    continue;
                }
                seen[k] = id;
                size += board.chain_len(np);
                match board.liberties_besides(np, p) {
                    OtherLiberties::None => continue,
                    OtherLiberties::One(q) => q.index(),
                    OtherLiberties::Several => return false,
                }
            }
            _ => {
                if board.in_atari(Point::from_index(n)) {
                    return false;
                }
                continue;
            }
        };
        if liberty != 0 && liberty != other {
            return false;
        }
        liberty = other;
    }
    size >= min_size
}
