//! The ladder reader and the ladder features on hand-made diagrams: an atari that starts a
//! working ladder, the same ladder broken by a stone on its path, and an escape from atari
//! that the opponent then captures in a ladder.

use hane::board::{Board, Color, Point, Recent};
use hane::pattern::features::{Context, Group, extract};
use hane::tactics::ladder::{atari_starts_ladder, captured_in_ladder, extension_caught_in_ladder};

fn at(board: &Board, vertex: &str) -> Point {
    board.geometry().parse_point(vertex).unwrap()
}

fn level(board: &Board, vertex: &str, color: Color, group: Group) -> u8 {
    let ctx = Context::new(color, Recent::default());
    extract(board, Some(at(board, vertex)), &ctx).levels[group.slot()]
}

// White D4 has liberties D3 and E4. Black D3 chases it up and to the right, to the edge.
const LADDER: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O . . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .";

// The same with a white stone on the ladder's path (G7): the ladder fails.
const BROKEN: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . O . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O . . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn an_atari_that_starts_a_working_ladder() {
    let board = Board::from_diagram(LADDER).unwrap();
    let d4 = at(&board, "D4");
    assert!(atari_starts_ladder(
        &board,
        at(&board, "D3"),
        Color::Black,
        d4
    ));
    assert_eq!(level(&board, "D3", Color::Black, Group::Atari), 3);
    // After the atari, White D4 (in atari) is captured in the ladder.
    let mut after = board.clone();
    after.play(at(&after, "D3"), Color::Black).unwrap();
    assert!(captured_in_ladder(&after, d4));
}

#[test]
fn a_stone_on_the_path_breaks_the_ladder() {
    let board = Board::from_diagram(BROKEN).unwrap();
    let d4 = at(&board, "D4");
    assert!(!atari_starts_ladder(
        &board,
        at(&board, "D3"),
        Color::Black,
        d4
    ));
    assert_eq!(level(&board, "D3", Color::Black, Group::Atari), 1);
    let mut after = board.clone();
    after.play(at(&after, "D3"), Color::Black).unwrap();
    assert!(!captured_in_ladder(&after, d4));
}

#[test]
fn an_escape_caught_in_a_ladder_is_marked() {
    // White D4 is in atari (liberty E4); extending there leaves two liberties, F4 and E5,
    // and Black ladders it to the edge.
    let mut board = Board::from_diagram(LADDER).unwrap();
    board.play(at(&board, "D3"), Color::Black).unwrap();
    assert!(extension_caught_in_ladder(
        &board,
        at(&board, "E4"),
        Color::White
    ));
    assert_eq!(level(&board, "E4", Color::White, Group::Escape), 3);
    // With the breaker on G7 the same escape works: a plain escape.
    let mut broken = Board::from_diagram(BROKEN).unwrap();
    broken.play(at(&broken, "D3"), Color::Black).unwrap();
    assert!(!extension_caught_in_ladder(
        &broken,
        at(&broken, "E4"),
        Color::White
    ));
    assert_eq!(level(&broken, "E4", Color::White, Group::Escape), 1);
}

#[test]
fn a_counter_capture_breaks_the_ladder() {
    // Black D5 is in atari itself (White C5, D6 and D4 around it, liberty E5): after Black
    // D3, White captures D5 instead of running, so the atari does not start a working ladder.
    let board = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . O . . . . .
        . . O X . . . . .
        . . X O . . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .",
    )
    .unwrap();
    assert!(board.in_atari(at(&board, "D5")));
    assert!(!atari_starts_ladder(
        &board,
        at(&board, "D3"),
        Color::Black,
        at(&board, "D4")
    ));
}

#[test]
fn capturing_a_chain_that_could_escape() {
    // White D4 is in atari (liberty E4) and could extend there to two liberties: capturing
    // it is level 4. White B1 (liberty A1) could not escape: capturing it is level 1.
    let board = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . X O . . . . .
        . . . X X . . . .
        . X . . . . . . .
        . O X . . . . . .",
    )
    .unwrap();
    assert_eq!(level(&board, "E4", Color::Black, Group::Capture), 4);
    assert_eq!(level(&board, "A1", Color::Black, Group::Capture), 1);
}
