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

/// Whether the chain through `stone` touches a chain of `color` in atari (that capturing
/// `stone`'s chain would free, or that `stone`'s owner could capture to get out).
pub fn touches_chain_in_atari(board: &Board, stone: Point, color: Color) -> bool {
    board.chain_stones(stone).any(|s| {
        board
            .geometry()
            .neighbors(s)
            .iter()
            .any(|&n| board.cell_at(n).is(color) && board.in_atari(Point::from_index(n)))
    })
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

/// Largest enemy-enclosed region in which [`self_atari_works`] counts a self-atari as a
/// nakade: the eye spaces the playouts' vital points are read in.
const NAKADE_REGION: usize = super::eye_space::NAKADE_MAX;

/// Whether the self-atari of `color` at `p` (see [`is_self_atari`]: one liberty left,
/// nothing captured) is one that works, so that a playout should keep it:
/// - a **throw-in** next to an enemy chain of two liberties (`p` one of them): it puts the
///   chain in atari in a fight, and a snapback is one of these;
/// - a **nakade**: `p` lies in a region of 3 to
///   [`NAKADE_MAX`](super::eye_space::NAKADE_MAX) points, empty or ours, bounded by enemy
///   stones and the edge (an eye space of the opponent that our stones spoil).
///
/// Allocates nothing: the region flood keeps its points in a fixed array.
pub fn self_atari_works(board: &Board, p: Point, color: Color) -> bool {
    let geometry = board.geometry();
    let enemy = Cell::from(color.opponent());
    let own = Cell::from(color);
    for n in geometry.neighbors(p) {
        if board.cell_at(n) == enemy && liberties_capped(board, Point::from_index(n), 3) <= 2 {
            return true;
        }
    }
    // The region through `p` of empty points and our stones, bounded by the enemy.
    let mut region = [0u16; NAKADE_REGION];
    region[0] = p.index() as u16;
    let (mut len, mut next) = (1, 0);
    while next < len {
        for n in geometry.neighbors(Point::from_index(region[next] as usize)) {
            let cell = board.cell_at(n);
            if (cell == Cell::Empty || cell == own) && !region[..len].contains(&(n as u16)) {
                if len == region.len() {
                    return false;
                }
                region[len] = n as u16;
                len += 1;
            }
        }
        next += 1;
    }
    len >= 3
}

/// Whether the self-atari of `color` at `p` (see [`is_self_atari`]: one liberty left,
/// nothing captured) is a **nakade sacrifice**: the chain it makes has 3 to
/// [`NAKADE_MAX`](super::eye_space::NAKADE_MAX) stones, touches a single enemy chain whose
/// only liberties are `p` and the chain's last liberty (so that the move puts it in atari
/// too: the two looked like a seki), and has the shape of a dead eye space (a straight or
/// bent three, a square or pyramid four, a bulky or crossed five, a rabbity six: one point
/// next to more of the shape than any other, as
/// [`EyeSpaceReader::vital_point`](super::eye_space::EyeSpaceReader::vital_point) reads
/// shapes, or a square four). When the enemy captures, its eye space there is that shape,
/// which the vital point kills: this is how a group that looks like a seki, its liberties
/// shared with our stones inside it, is killed. With the setting `nakade-sacrifice` the
/// playouts' random move plays it, where it refuses other self-ataris of three stones or
/// more.
///
/// Allocates nothing: the chain's stones are kept in a fixed array.
pub fn is_nakade_sacrifice(board: &Board, p: Point, color: Color) -> bool {
    const MAX: usize = super::eye_space::NAKADE_MAX;
    let geometry = board.geometry();
    let own = Cell::from(color);
    let enemy = Cell::from(color.opponent());
    let mut stones = [0usize; MAX];
    stones[0] = p.index();
    let mut len = 1;
    for n in geometry.neighbors(p) {
        if board.cell_at(n) != own || stones[..len].contains(&n) {
            continue;
        }
        for s in board.chain_stones(Point::from_index(n)) {
            if len == MAX {
                return false;
            }
            stones[len] = s.index();
            len += 1;
        }
    }
    if len < 3 {
        return false;
    }
    // One enemy chain around the shape, the shape's one liberty, and each stone's
    // neighbours within the shape.
    let mut around = usize::MAX;
    let mut liberty = None;
    let mut degrees = [0usize; MAX];
    for (k, &s) in stones[..len].iter().enumerate() {
        for n in geometry.neighbors(Point::from_index(s)) {
            let cell = if n == p.index() {
                own
            } else {
                board.cell_at(n)
            };
            if cell == enemy {
                let id = board.chain_id(Point::from_index(n));
                if around != usize::MAX && around != id {
                    return false;
                }
                around = id;
            } else if cell == own {
                degrees[k] += 1;
            } else if cell == Cell::Empty {
                liberty = Some(Point::from_index(n));
            }
        }
    }
    // The enemy chain's liberties are the move and the shape's liberty: our move puts it
    // in atari too, and its capture leaves it the shape as its only eye space.
    let (Some(liberty), true) = (liberty, around != usize::MAX) else {
        return false;
    };
    // Every enemy stone next to the shape is of that chain, so `p` touches it when it
    // touches any enemy stone.
    if board.neighbor_count(p, enemy) == 0
        || board.liberties_besides(Point::from_index(around), p) != OtherLiberties::One(liberty)
    {
        return false;
    }
    let degrees = &degrees[..len];
    // Four stones of two neighbours each in the shape: only a square four.
    let square_four = degrees == [2, 2, 2, 2];
    super::eye_space::vital_index(degrees).is_some() || square_four
}

#[cfg(test)]
mod tests {
    use super::*;

    fn works(diagram: &str, vertex: &str, color: Color) -> bool {
        let board = Board::from_diagram(diagram).unwrap_or_else(|e| panic!("bad diagram ({e})"));
        let p = board.geometry().parse_point(vertex).expect("vertex");
        assert!(
            is_self_atari(&board, p, color, 1),
            "{vertex} is no self-atari"
        );
        self_atari_works(&board, p, color)
    }

    #[test]
    fn a_throw_in_that_snaps_back_works() {
        // Black B1 ataris the white chain of two liberties (A1, B1); white A1 captures
        // it and black B1 takes five back.
        let snapback = "
            . . . . .
            . . . . .
            X X X X .
            O O O X .
            . . O X .";
        assert!(works(snapback, "B1", Color::Black));
    }

    #[test]
    fn a_nakade_in_an_enemy_eye_space_works() {
        // Black C1 next to B1 in white's straight three A1-C1: the black pair has the one
        // liberty A1, and white's eye space is spoilt.
        let nakade = "
            . . . . .
            . . . . .
            . . . . .
            O O O O .
            . X . O .";
        assert!(works(nakade, "C1", Color::Black));
        // White's space A1-B1 is two points: a stone there spoils nothing.
        let two = "
            . . . . .
            . . . . .
            . . . . .
            O O O . .
            . . O . .";
        assert!(!works(two, "B1", Color::Black));
        // Black E1 leaves A1-E1 the one liberty F1 in white's six points A1-F1: a nakade.
        // Black F1 leaves A1-F1 the one liberty G1 in seven points: no longer one.
        let edge = |row2: &str, row1: &str| {
            let mut rows = vec![". . . . . . . . ."; 7];
            rows.extend([row2, row1]);
            rows.join("\n")
        };
        let six = edge("O O O O O O O . .", "X X X X . . O . .");
        assert!(works(&six, "E1", Color::Black));
        let seven = edge("O O O O O O O O .", "X X X X X . . O .");
        assert!(!works(&seven, "F1", Color::Black));
    }

    #[test]
    fn a_stone_thrown_against_a_wall_does_not_work() {
        // Black C3 in white's mouth has the one liberty C2, the region behind it is open,
        // and the white chain has many liberties: white simply takes it.
        let wall = "
            . . . . .
            . O O O .
            . O . O .
            . . . . .
            . . . . .";
        assert!(!works(wall, "C3", Color::Black));
    }

    /// `color`'s move at `vertex` is a self-atari; whether it is a nakade sacrifice.
    fn sacrifice(diagram: &str, vertex: &str, color: Color) -> bool {
        let board = Board::from_diagram(diagram).unwrap_or_else(|e| panic!("bad diagram ({e})"));
        let p = board.geometry().parse_point(vertex).expect("vertex");
        assert!(
            is_self_atari(&board, p, color, 1) && !board.is_suicide(p, color),
            "{vertex} is no self-atari"
        );
        is_nakade_sacrifice(&board, p, color)
    }

    /// The false seki of a lost 19x19 game, on 9x9: white's group has only the liberties
    /// F9 and H8, both shared with black's G9-G8. Black F9 or H8 makes a bent three in
    /// atari, whose capture leaves white a bent three's eye space: a sacrifice. White
    /// playing either point is a self-atari of its big chain, no sacrifice.
    const FALSE_SEKI: &str = "
        . . . X O . X O O
        . . . X O O X . O
        . . . X X O O O O
        . . . . X X X X X
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn a_bent_three_thrown_into_a_false_seki_is_a_sacrifice() {
        assert!(sacrifice(FALSE_SEKI, "F9", Color::Black));
        assert!(sacrifice(FALSE_SEKI, "H8", Color::Black));
        assert!(!sacrifice(FALSE_SEKI, "F9", Color::White));
    }

    #[test]
    fn only_dead_shapes_inside_one_enemy_chain_are_sacrifices() {
        // A 7x7 board: a black shape in the lower left, inside a white chain that black
        // surrounds, so that the white chain's only liberties are inside (rows 2 and 1).
        let board = |row2: &str, row1: &str| {
            let mut rows = vec![". . . . . . .", "X X X X X X ."];
            rows.extend(["O O O O O X ."; 3]);
            rows.extend([row2, row1]);
            rows.join("\n")
        };
        // A straight four along the edge (A1-D1, liberty D2, by the move at D1): an eye
        // space that lives, no sacrifice.
        let straight_four = board("O O O . O X .", "X X X . O X .");
        assert!(!sacrifice(&straight_four, "D1", Color::Black));
        // A pyramid four (A1-C1 and B2, liberty D1): its capture leaves a dead shape.
        let pyramid = board("O . O O O X .", "X X X . O X .");
        assert!(sacrifice(&pyramid, "B2", Color::Black));
        // A square four (A1, B1, A2, B2; liberty C1).
        let square = board(". X O O O X .", "X X . O O X .");
        assert!(sacrifice(&square, "A2", Color::Black));
        // A bulky five (A1-C1, A2-B2; liberty D1).
        let bulky = board(". X O O O X .", "X X X . O X .");
        assert!(sacrifice(&bulky, "A2", Color::Black));
        // The pyramid again, with the white chain's liberties outside too (black's outer
        // wall gone): the move does not put it in atari, no sacrifice.
        let open =
            board("O . O O O X .", "X X X . O X .").replace("X X X X X X .", ". . . . . . .");
        assert!(!sacrifice(&open, "B2", Color::Black));
        // Black's chain C5-C3-A3 is already in atari (its last liberty B5). White A5
        // makes a bent three inside it with the same last liberty, but does not touch it:
        // black's B5 would capture the three. White should take B5 itself: no sacrifice.
        let in_atari = "
            . . X O .
            O O X O .
            X X X O .
            O O O O .
            . . . . .";
        assert!(!sacrifice(in_atari, "A5", Color::White));
        // A straight three (A2-C2, liberty C1) whose stones touch three white chains.
        let three_chains = "
            . . . . .
            . . . . .
            O O O . .
            X X . O .
            O O . O .";
        assert!(!sacrifice(three_chains, "C2", Color::Black));
        // Two stones are the small self-ataris the playouts already play.
        let two = "
            . . . . .
            . . . . .
            . . . . .
            O O O O .
            X . . O .";
        assert!(!sacrifice(two, "B1", Color::Black));
    }
}
