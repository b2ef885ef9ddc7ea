//! The eye-space reader: the vital point of a small eye space next to a stone (the middle
//! of a straight or bent three, the centre of a pyramid four, ...), which decides whether
//! the space's owner gets two eyes. The pattern playout policy plays it as one of its
//! tactics. Allocates nothing per call: the reader owns its marks.

use crate::board::{Board, Cell, MAX_CELLS, Point};

/// Marks of the eye-space reader: a power of two, for every cell of the largest board.
const MARK_SLOTS: usize = 1024;
const _: () = assert!(MARK_SLOTS >= MAX_CELLS && MARK_SLOTS.is_power_of_two());

/// Largest eye space [`EyeSpaceReader::vital_point`] reads.
pub const NAKADE_MAX: usize = 6;

/// The eye-space reader of the playout policy's tactics: finds the vital point of a small
/// eye space next to the last move. It owns one mark per cell, the number of the flood that
/// reached it (floods are numbered on across calls), so a flood tests membership with one
/// load instead of a search of the region so far, and allocates nothing per call.
#[derive(Clone, Debug)]
pub struct EyeSpaceReader {
    /// `marks[i]`: the number of the last flood that reached cell `i` (indexed with a
    /// mask, [`MARK_SLOTS`] being a power of two: no bounds check and no division).
    marks: Box<[u32; MARK_SLOTS]>,
    /// The number of the latest flood.
    flood: u32,
}

impl EyeSpaceReader {
    /// A reader with its marks (allocates once).
    pub fn new() -> EyeSpaceReader {
        EyeSpaceReader {
            marks: Box::new([0; MARK_SLOTS]),
            flood: 0,
        }
    }

    /// The vital point of a small eye space next to `last`: an empty region of 3 to
    /// [`NAKADE_MAX`] points that touches `last`, is bounded by stones of one colour (and
    /// the edge), and has one point next to more of the region than any other (the middle
    /// of a straight or bent three, the centre of a pyramid four, a crossed five or a
    /// rabbity six, the inner point of a bulky five). Whoever plays it first decides
    /// whether the owner gets two eyes; random playouts would leave that to chance. Shapes
    /// without a single vital point (a square four, a straight four) are not answered.
    #[inline]
    pub fn vital_point(&mut self, board: &Board, last: Point) -> Option<Point> {
        let geometry = board.geometry();
        let intruder = match board.cell(last) {
            Cell::Black => Cell::White,
            _ => Cell::Black,
        };
        let starts = geometry.neighbors(last);
        // Nearly half the calls end here: no neighbour of `last` is an empty point with an
        // empty neighbour and none of `intruder`, which any start of a fitting region is.
        let mut closed = 0u32;
        for (k, &start) in starts.iter().enumerate() {
            let at = Point::from_index(start);
            let is_closed = (board.cell_at(start) == Cell::Empty)
                & (board.neighbor_count(at, intruder) == 0)
                & (board.neighbor_count(at, Cell::Empty) > 0);
            closed |= (is_closed as u32) << k;
        }
        if closed == 0 {
            return None;
        }
        // Most other calls end here: no closed start (1.8 of them on average) can begin a
        // region that fits, as told by counts alone.
        let mut candidates = 0u32;
        let mut rest = closed;
        while rest != 0 {
            let k = rest.trailing_zeros();
            rest &= rest - 1;
            let start = starts[k as usize & 3];
            candidates |= (may_start_eye_space(board, start, intruder) as u32) << k;
        }
        if candidates == 0 {
            return None;
        }
        if self.flood > u32::MAX - 4 {
            // Once in a billion calls: start the numbers again.
            self.marks.fill(0);
            self.flood = 0;
        }
        // Cells marked by a flood of this call have numbers above `before`.
        let before = self.flood;
        while candidates != 0 {
            let k = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let start = starts[k as usize & 3];
            // A start that an earlier flood reached lies in the same region, whose answer
            // (none, or the flood would have returned) is known.
            if self.marks[start & (MARK_SLOTS - 1)] > before {
                continue;
            }
            if let Some(vital) = self.read_region(board, start, intruder, before) {
                return Some(vital);
            }
        }
        None
    }

    /// Floods the empty region from `start`, giving up once it is too big, touches a stone of
    /// `intruder` (checked as a point joins, so a region that touches one is given up at
    /// once) or reaches a point that an earlier flood of this call (numbered above `before`)
    /// marked: the same region, already answered. The region's vital point, if it fits and
    /// has one.
    #[inline]
    fn read_region(
        &mut self,
        board: &Board,
        start: usize,
        intruder: Cell,
        before: u32,
    ) -> Option<Point> {
        let geometry = board.geometry();
        self.flood += 1;
        let flood = self.flood;
        let mut region = [0usize; NAKADE_MAX];
        let mut len = 1;
        region[0] = start;
        self.marks[start & (MARK_SLOTS - 1)] = flood;
        let mut next = 0;
        while next < len {
            let q = region[next];
            next += 1;
            for n in geometry.neighbors(Point::from_index(q)) {
                let mark = self.marks[n & (MARK_SLOTS - 1)];
                if board.cell_at(n) != Cell::Empty || mark == flood {
                    continue;
                }
                if len == NAKADE_MAX
                    || mark > before
                    || board.neighbor_count(Point::from_index(n), intruder) > 0
                {
                    return None;
                }
                self.marks[n & (MARK_SLOTS - 1)] = flood;
                region[len] = n;
                len += 1;
            }
        }
        if len < 3 {
            return None;
        }
        // The whole region is in hand, so a point's neighbours in it are its empty ones.
        let mut degrees = [0; NAKADE_MAX];
        for (d, &q) in degrees.iter_mut().zip(&region[..len]) {
            *d = board.neighbor_count(Point::from_index(q), Cell::Empty);
        }
        vital_index(&degrees[..len]).map(|k| Point::from_index(region[k]))
    }
}

/// The vital point of a shape of 3 to [`NAKADE_MAX`] points, given each point's number of
/// neighbours in the shape: the index of the one point with more than any other, when it
/// has at least 2 (three points) or 3 (more). These are the shapes whose owner cannot make
/// two eyes once the vital point is taken (a straight or bent three, a pyramid four, a
/// bulky or crossed five, a rabbity six); the others have none (a square four, a straight
/// four, ...).
pub(super) fn vital_index(degrees: &[usize]) -> Option<usize> {
    let (mut best, mut best_degree, mut ties) = (0, 0, 0);
    for (k, &d) in degrees.iter().enumerate() {
        if d > best_degree {
            (best, best_degree, ties) = (k, d, 1);
        } else if d == best_degree {
            ties += 1;
        }
    }
    let enough = if degrees.len() == 3 { 2 } else { 3 };
    (ties == 1 && best_degree >= enough).then_some(best)
}

impl Default for EyeSpaceReader {
    fn default() -> EyeSpaceReader {
        EyeSpaceReader::new()
    }
}

/// Whether the empty region through the empty point `start` (a neighbour of the stone
/// `last`, with no `intruder` neighbour) may be an eye space [`EyeSpaceReader::vital_point`] reads,
/// judged from cells and counts without a flood and without branching (the branches would
/// be coin tosses): no empty neighbour of `start` touches `intruder`, and the region's
/// points within two steps of `start` number from 3 to [`NAKADE_MAX`]. Regions of one and
/// two points are told exactly; for bigger ones the count is a lower bound.
#[inline]
fn may_start_eye_space(board: &Board, start: usize, intruder: Cell) -> bool {
    let geometry = board.geometry();
    let at = Point::from_index(start);
    let mut open = false;
    // `at`, its empty neighbours, and their other empty neighbours: a neighbour of one
    // empty neighbour is `at` itself or a point two steps away, which it shares with at
    // most one other neighbour of `at` (through the diagonal between them).
    let empty = board.neighbours_holding(at, Cell::Empty);
    let mut near = 1;
    // Ring positions of the neighbours below, left, right, above (see `ring_cells`).
    const ORTHOGONAL: [u32; 4] = [6, 3, 4, 1];
    for (n, position) in geometry.neighbors(at).into_iter().zip(ORTHOGONAL) {
        let is_empty = empty.holds(position);
        let n = Point::from_index(n);
        open |= is_empty & (board.neighbor_count(n, intruder) > 0);
        near += board.neighbor_count(n, Cell::Empty) * is_empty as usize;
    }
    // Each diagonal with the two neighbours it touches, by ring position: counted twice
    // when all three are empty.
    const BESIDE: [(u32, u32, u32); 4] = [(0, 1, 3), (2, 1, 4), (5, 3, 6), (7, 4, 6)];
    for (d, a, b) in BESIDE {
        near -= (empty.holds(d) & empty.holds(a) & empty.holds(b)) as usize;
    }
    !open & (3..=NAKADE_MAX).contains(&near)
}

#[cfg(test)]
mod tests {
    use rand::Rng as _;

    use super::*;
    use crate::board::Color;
    use crate::playout::playout_rng;

    /// [`EyeSpaceReader::vital_point`] written the plain way: for each empty neighbour of `last` in
    /// turn, its whole empty region; the first region of 3 to 6 points that touches no
    /// stone of the other colour and has a single point with the most neighbours in the
    /// region (at least 2 for three points, 3 for more) gives that point.
    fn nakade_reference(board: &Board, last: Point) -> Option<Point> {
        let g = board.geometry();
        let owner = board.cell(last);
        for start in g.neighbors(last) {
            if board.cell_at(start) != Cell::Empty {
                continue;
            }
            let mut region = vec![start];
            let mut k = 0;
            while k < region.len() {
                for n in g.neighbors(Point::from_index(region[k])) {
                    if board.cell_at(n) == Cell::Empty && !region.contains(&n) {
                        region.push(n);
                    }
                }
                k += 1;
            }
            let open_to_other = region.iter().any(|&q| {
                g.neighbors(Point::from_index(q)).into_iter().any(|n| {
                    let c = board.cell_at(n);
                    c != Cell::Empty && c != Cell::Border && c != owner
                })
            });
            if open_to_other || region.len() < 3 || region.len() > NAKADE_MAX {
                continue;
            }
            let degree = |q: usize| {
                g.neighbors(Point::from_index(q))
                    .into_iter()
                    .filter(|n| region.contains(n))
                    .count()
            };
            let best = region.iter().map(|&q| degree(q)).max().unwrap();
            let at_best: Vec<usize> = region
                .iter()
                .copied()
                .filter(|&q| degree(q) == best)
                .collect();
            let enough = if region.len() == 3 { 2 } else { 3 };
            if at_best.len() == 1 && best >= enough {
                return Some(Point::from_index(at_best[0]));
            }
        }
        None
    }

    /// The policy's eye-space reader agrees with the plain flood for every stone of many
    /// random positions (random games end with many small eye spaces), and finds vital
    /// points often enough that the comparison means something.
    #[test]
    fn eye_space_vital_point_matches_a_plain_flood() {
        let mut rng = playout_rng(7, 0);
        let mut reader = EyeSpaceReader::new();
        let (mut compared, mut vital) = (0, 0);
        for size in [5, 7, 9, 13, 19] {
            for _ in 0..(300 / size) {
                let mut board = Board::new(size).unwrap();
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    match crate::playout::random_acceptable_move(
                        &mut board,
                        color,
                        &mut rng,
                        |_, _| true,
                    ) {
                        Some(p) => {
                            board.play_unchecked(p, color);
                        }
                        None => board.pass(),
                    }
                    color = color.opponent();
                    if !rng.next_u32().is_multiple_of(4) {
                        continue;
                    }
                    for i in 0..board.geometry().cells() {
                        if matches!(board.cell_at(i), Cell::Black | Cell::White) {
                            let last = Point::from_index(i);
                            let expected = nakade_reference(&board, last);
                            assert_eq!(
                                reader.vital_point(&board, last),
                                expected,
                                "last {last:?} on\n{}",
                                board.to_diagram()
                            );
                            compared += 1;
                            vital += expected.is_some() as usize;
                        }
                    }
                }
            }
        }
        assert!(
            vital > 1000,
            "only {vital} vital points in {compared} comparisons"
        );
    }
}
