//! Small helpers shared by the integration tests: vertices and colours from text,
//! diagrams compared without caring about spacing, and whether a test whose program or data
//! is missing may skip (not under CI).

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

/// Whether the tests run under CI: the environment variable `CI` is set, not empty, and
/// not `false` or `0` (CI runs with `CI=true`). Under CI every test program and data file
/// is installed (`.ci/install.d/`, `../shared`), so a test that finds one missing fails
/// instead of skipping.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| {
        let value = value.to_string_lossy().trim().to_ascii_lowercase();
        !value.is_empty() && value != "false" && value != "0"
    })
}

/// For a test that finds `what` missing: fails under CI (see [`in_ci`]) with `what` and
/// `remedy`; elsewhere prints a `SKIPPED` line, and the caller returns.
#[track_caller]
pub fn skip_unless_ci(what: &str, remedy: &str) {
    assert!(
        !in_ci(),
        "{what} is missing, and under CI (CI is set) a test may not skip: {remedy}"
    );
    eprintln!("SKIPPED: {what} is missing ({remedy})");
}
