//! Small value types of the board: colours, cell contents, points on the padded
//! one-dimensional grid, moves, and their GTP spelling (`A1`..`Z25` without `I`, `pass`).

use std::fmt;

/// Smallest supported board size.
pub const MIN_SIZE: usize = 2;
/// Largest supported board size (the largest the GTP vertex syntax can express).
pub const MAX_SIZE: usize = 25;
/// Row stride of the largest board: one shared border column.
const MAX_STRIDE: usize = MAX_SIZE + 1;
/// Cells of the padded array for the largest board: a border row above and below, one shared
/// border column, and one extra cell so that the diagonal below-right of the last point exists.
pub const MAX_CELLS: usize = (MAX_SIZE + 2) * MAX_STRIDE + 1;
/// Points on the largest board.
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// GTP column letters: A..Z without I.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A player's colour. The discriminants match [`Cell`]'s so that comparisons are byte compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Black = 1,
    White = 2,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// Parses `b`, `black`, `w`, `white` in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// One-letter SGF/GTP spelling, upper case.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// What a cell of the padded board holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Border = 3,
}

impl Cell {
    /// The stone's colour, if the cell holds a stone.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }

    /// Whether the cell holds a stone of `color`.
    #[inline]
    pub fn is(self, color: Color) -> bool {
        self as u8 == color as u8
    }
}

impl From<Color> for Cell {
    #[inline]
    fn from(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// An intersection, as an index into the padded one-dimensional grid of a board of a given
/// size. A `Point` is only meaningful together with the board size it was made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// Wraps a raw padded index. The caller promises it names an on-board point.
    #[inline]
    pub const fn from_index(index: usize) -> Point {
        Point(index as u16)
    }

    /// The raw padded index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Geometry of one board size: stride, conversions between (column, row) and [`Point`],
/// and the GTP vertex syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    size: u8,
}

impl Geometry {
    /// Geometry for `size`, which must lie in `MIN_SIZE..=MAX_SIZE`.
    pub fn new(size: usize) -> Option<Geometry> {
        (MIN_SIZE..=MAX_SIZE)
            .contains(&size)
            .then_some(Geometry { size: size as u8 })
    }

    #[inline]
    pub fn size(self) -> usize {
        self.size as usize
    }

    /// Distance between vertically adjacent cells.
    #[inline]
    pub fn stride(self) -> usize {
        self.size as usize + 1
    }

    /// Number of padded cells used by this size.
    #[inline]
    pub fn cells(self) -> usize {
        (self.size() + 2) * self.stride() + 1
    }

    /// The point at `col` (0 = A, left) and `row` (0 = 1, bottom); `None` off the board.
    #[inline]
    pub fn point(self, col: usize, row: usize) -> Option<Point> {
        (col < self.size() && row < self.size())
            .then(|| Point::from_index((row + 1) * self.stride() + col + 1))
    }

    /// (column, row) of a point, both from 0, row 0 at the bottom.
    #[inline]
    pub fn coords(self, p: Point) -> (usize, usize) {
        let row = p.index() / self.stride() - 1;
        let col = p.index() % self.stride() - 1;
        (col, row)
    }

    /// Whether a raw padded index is an on-board point for this size.
    pub fn contains_index(self, index: usize) -> bool {
        let stride = self.stride();
        index >= stride && index < (self.size() + 1) * stride && !index.is_multiple_of(stride)
    }

    /// All points, bottom row first, left to right.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let size = self.size();
        (0..size).flat_map(move |row| (0..size).map(move |col| self.point(col, row).unwrap()))
    }

    /// The four orthogonal neighbour indices of `p` (some may be border cells).
    #[inline]
    pub fn neighbors(self, p: Point) -> [usize; 4] {
        let i = p.index();
        let s = self.stride();
        [i - s, i - 1, i + 1, i + s]
    }

    /// The four diagonal neighbour indices of `p` (some may be border cells).
    #[inline]
    pub fn diagonals(self, p: Point) -> [usize; 4] {
        let i = p.index();
        let s = self.stride();
        [i - s - 1, i - s + 1, i + s - 1, i + s + 1]
    }

    /// Parses a GTP vertex (`D4`, `t19`; `pass` is not a point: see [`Move::parse`]).
    pub fn parse_point(self, text: &str) -> Option<Point> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        let letter = letter.to_ascii_uppercase();
        let col = COLUMN_LETTERS.iter().position(|&l| l == letter)?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
        if row == 0 {
            return None;
        }
        self.point(col, row - 1)
    }

    /// The GTP vertex of a point, upper case (`D4`).
    pub fn format_point(self, p: Point) -> String {
        let (col, row) = self.coords(p);
        format!("{}{}", COLUMN_LETTERS[col] as char, row + 1)
    }

    /// The SGF coordinate pair of a point (`aa` is the top-left corner).
    pub fn sgf_point(self, p: Point) -> String {
        let (col, row) = self.coords(p);
        let top_row = self.size() - 1 - row;
        format!(
            "{}{}",
            (b'a' + col as u8) as char,
            (b'a' + top_row as u8) as char
        )
    }

    /// Parses an SGF coordinate pair; `None` for anything off the board (including the
    /// empty string and `tt`, which older records use for pass).
    pub fn parse_sgf_point(self, text: &str) -> Option<Point> {
        let b = text.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
            return None;
        }
        let col = (b[0] - b'a') as usize;
        let top_row = (b[1] - b'a') as usize;
        if top_row >= self.size() {
            return None;
        }
        self.point(col, self.size() - 1 - top_row)
    }

    /// Manhattan distance between two points.
    pub fn distance(self, a: Point, b: Point) -> usize {
        let (ac, ar) = self.coords(a);
        let (bc, br) = self.coords(b);
        ac.abs_diff(bc) + ar.abs_diff(br)
    }

    /// The points of the board within Manhattan distance `radius` of `p`, `p` itself
    /// included, column by column from the left.
    pub fn within(self, p: Point, radius: usize) -> impl Iterator<Item = Point> {
        let (c, r) = self.coords(p);
        let reach = radius as isize;
        (-reach..=reach).flat_map(move |dc| {
            let left = reach - dc.abs();
            (-left..=left).filter_map(move |dr| {
                let col = usize::try_from(c as isize + dc).ok()?;
                let row = usize::try_from(r as isize + dr).ok()?;
                self.point(col, row)
            })
        })
    }

    /// Distance from `p` to the nearest edge: 0 on the first line.
    pub fn edge_distance(self, p: Point) -> usize {
        let (c, r) = self.coords(p);
        let n = self.size() - 1;
        c.min(r).min(n - c).min(n - r)
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Point),
}

impl Move {
    /// Parses a GTP vertex or `pass` (any case).
    pub fn parse(geometry: Geometry, text: &str) -> Option<Move> {
        if text.eq_ignore_ascii_case("pass") {
            Some(Move::Pass)
        } else {
            geometry.parse_point(text).map(Move::Play)
        }
    }

    /// GTP spelling: `D4` or `pass`.
    pub fn to_gtp(self, geometry: Geometry) -> String {
        match self {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => geometry.format_point(p),
        }
    }

    /// The point, unless this is a pass.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Pass => None,
            Move::Play(p) => Some(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `within` yields exactly the points a scan of the whole board finds at Manhattan
    /// distance at most `radius`, each once, edges and corners included.
    #[test]
    fn within_matches_a_scan_of_the_board() {
        for size in [2, 9, 19] {
            let g = Geometry::new(size).unwrap();
            for p in g.points() {
                for radius in 0..=4 {
                    let mut got: Vec<Point> = g.within(p, radius).collect();
                    got.sort_by_key(|q| q.index());
                    let mut expected: Vec<Point> =
                        g.points().filter(|&q| g.distance(p, q) <= radius).collect();
                    expected.sort_by_key(|q| q.index());
                    assert_eq!(got, expected, "{size}x{size} {p:?} radius {radius}");
                }
            }
        }
    }

    #[test]
    fn vertex_round_trip_every_size() {
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::new(size).unwrap();
            let mut seen = std::collections::HashSet::new();
            for p in g.points() {
                assert!(g.contains_index(p.index()));
                assert!(p.index() < g.cells());
                for n in g.neighbors(p).into_iter().chain(g.diagonals(p)) {
                    assert!(n < g.cells());
                }
                let text = g.format_point(p);
                assert_eq!(g.parse_point(&text), Some(p));
                assert_eq!(g.parse_point(&text.to_lowercase()), Some(p));
                assert_eq!(g.parse_sgf_point(&g.sgf_point(p)), Some(p));
                assert!(seen.insert(p));
            }
            assert_eq!(seen.len(), size * size);
            let on_board = (0..g.cells()).filter(|&i| g.contains_index(i)).count();
            assert_eq!(on_board, size * size);
        }
    }

    #[test]
    fn vertex_spelling() {
        let g = Geometry::new(19).unwrap();
        assert_eq!(g.format_point(g.point(0, 0).unwrap()), "A1");
        assert_eq!(g.format_point(g.point(18, 18).unwrap()), "T19");
        assert_eq!(g.format_point(g.point(8, 0).unwrap()), "J1");
        assert_eq!(g.parse_point("I5"), None);
        assert_eq!(g.parse_point("U1"), None);
        assert_eq!(g.parse_point("A20"), None);
        assert_eq!(g.parse_point("A0"), None);
        assert_eq!(g.parse_point("A"), None);
        assert_eq!(g.parse_point("A+1"), None);
        assert_eq!(g.parse_point(""), None);
        assert_eq!(Move::parse(g, "PASS"), Some(Move::Pass));
        assert_eq!(g.sgf_point(g.point(0, 18).unwrap()), "aa");
        let g25 = Geometry::new(25).unwrap();
        assert_eq!(g25.format_point(g25.point(24, 24).unwrap()), "Z25");
        assert!(Geometry::new(1).is_none());
        assert!(Geometry::new(26).is_none());
    }
}
