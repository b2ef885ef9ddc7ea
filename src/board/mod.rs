//! The rules of Go: board geometry, the fast board with chains and Zobrist hashing, the
//! `Rules` value, `GameState` (history, superko, undo, handicap, area scoring), and the
//! last two moves before a position (`Recent`).
//! No I/O, and nothing here knows about search.
//!
//! The fast [`Board`] is spread over files by job, each adding to it its own `impl Board`:
//! `position` (the type, its storage, legality and playing moves), `chains` (chains and
//! their pseudo-liberties), `ring` (each point's eight neighbours in one word), `scoring`
//! (area scoring), `diagram` (text diagrams) and `consistency` (the self-check of the
//! incremental state).

mod chains;
mod consistency;
mod diagram;
mod game;
mod geometry;
mod point_bits;
mod position;
mod recent;
mod ring;
mod rules;
mod scoring;
mod zobrist;

pub use chains::{ChainStones, OtherLiberties};
pub use game::{GameState, HandicapError, format_score};
pub use geometry::{Cell, Color, Geometry, MAX_CELLS, MAX_POINTS, MAX_SIZE, MIN_SIZE, Move, Point};
pub use point_bits::PointBits;
pub use position::{Board, IllegalMove};
pub use recent::Recent;
pub use ring::{RingSet, ring_cells};
pub use rules::{HandicapCompensation, KOMI_LIMIT, KoRule, Rules, komi_is_sane};
pub use zobrist::stone_key;
