//! Small helpers shared by the integration tests: vertices and colours from text, and
//! diagrams compared without caring about spacing.

#![allow(dead_code)]

use hane::board::{Board, Color, Geometry, Move, Point};

/// The point a GTP vertex names on a board of `size`; panics on a typo in a test table.
pub fn vertex(size: usize, text: &str) -> Point {
    Geometry::new(size)
        .and_then(|g| g.parse_point(text))
        .unwrap_or_else(|| panic!("bad vertex {text:?} for size {size}"))
}

/// A move (`pass` or a vertex) on a board of `size`.
pub fn gtp_move(size: usize, text: &str) -> Move {
    Move::parse(Geometry::new(size).expect("size"), text)
        .unwrap_or_else(|| panic!("bad move {text:?} for size {size}"))
}

/// `B`/`W` (any case) as a colour.
pub fn color(text: &str) -> Color {
    Color::parse(text).unwrap_or_else(|| panic!("bad colour {text:?}"))
}

/// A diagram with all whitespace removed except line breaks, blank lines dropped: two
/// diagrams are the same position when their normal forms are equal.
pub fn normal_diagram(text: &str) -> String {
    text.lines()
        .map(|line| {
            line.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
        })
        .filter(|line| !line.is_empty())
        .map(|line| {
            line.replace(['#', 'x'], "X")
                .replace(['@', 'o'], "O")
                .replace(['+', ','], ".")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses a diagram, panicking with the reason if a test table holds a bad one.
pub fn diagram(text: &str) -> Board {
    Board::from_diagram(text).unwrap_or_else(|e| panic!("bad diagram ({e}):\n{text}"))
}

/// Asserts that `board` shows the position of `expected`.
#[track_caller]
pub fn assert_diagram(board: &Board, expected: &str, context: &str) {
    assert_eq!(
        normal_diagram(&board.to_diagram()),
        normal_diagram(expected),
        "{context}: position differs\nactual:\n{}",
        board.to_diagram()
    );
}
