//! What the readers' unit tests share: boards from diagrams, points from vertices, and
//! answers in GNU Go's format with the check of an expected one.

use crate::board::{Board, Color, Point};

use super::reader::Reading;

pub fn board(diagram: &str) -> Board {
    Board::from_diagram(diagram).unwrap_or_else(|e| panic!("bad diagram ({e})"))
}

pub fn point(board: &Board, vertex: &str) -> Point {
    board.geometry().parse_point(vertex).expect("vertex")
}

/// The board of `diagram` after `color` played at `vertex`.
pub fn board_after(diagram: &str, vertex: &str, color: Color) -> Board {
    let mut b = board(diagram);
    b.play(point(&b, vertex), color).expect("legal");
    b
}

/// GNU Go's reply to `attack`, `defend`, `owl_attack` or `owl_defend`: `0`, or the code and
/// the move.
pub fn answer(board: &Board, reading: Reading) -> String {
    reading.gtp_reply(board.geometry())
}

/// What a test expects of a read: GNU Go's code, and the moves that may achieve it.
#[track_caller]
pub fn expect(answer: String, code: u8, moves: &[&str]) {
    let mut words = answer.split(' ');
    assert_eq!(words.next(), Some(code.to_string().as_str()), "{answer}");
    if !moves.is_empty() {
        let mv = words.next().unwrap_or("");
        assert!(moves.contains(&mv), "{answer}, expected one of {moves:?}");
    }
}
