//! The rules of Go: board geometry, the fast board with chains and Zobrist hashing, the
//! `Rules` value, and `GameState` (history, superko, undo, handicap, area scoring).
//! No I/O, and nothing here knows about search.

#[allow(clippy::module_inception)]
mod board;
mod game;
mod geometry;
mod rules;
mod zobrist;

pub use board::{Board, ChainStones, IllegalMove, OtherLiberties, RingSet, ring_cells};
pub use game::{GameState, HandicapError, format_score};
pub use geometry::{Cell, Color, Geometry, MAX_CELLS, MAX_POINTS, MAX_SIZE, MIN_SIZE, Move, Point};
pub use rules::{HandicapCompensation, KoRule, Rules};
pub use zobrist::stone_key;
