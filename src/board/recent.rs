//! The last two moves before a position ([`Recent`]): what the pattern features, the
//! priors and the pattern playouts read besides the board.

use super::game::GameState;
use super::geometry::{Move, Point};

/// The last two moves before a position (`None` for a pass or no move). A small `Copy`
/// value: the tree search carries it down its descent with [`Recent::after`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    pub last: Option<Point>,
    pub second_last: Option<Point>,
    /// Whether the last move was a pass.
    pub last_was_pass: bool,
}

impl Recent {
    /// The moves before a position whose last move was played on `last` and the one before
    /// on `second_last` (`None`: no move, or a pass); the last move was not a pass.
    pub fn new(last: Option<Point>, second_last: Option<Point>) -> Recent {
        Recent {
            last,
            second_last,
            last_was_pass: false,
        }
    }

    /// The last two moves of a game, before its next move.
    pub fn of_game(state: &GameState) -> Recent {
        let moves = state.moves();
        let nth_last = |k: usize| moves.len().checked_sub(k).map(|i| moves[i].1);
        Recent {
            last: nth_last(1).and_then(Move::point),
            second_last: nth_last(2).and_then(Move::point),
            last_was_pass: nth_last(1) == Some(Move::Pass),
        }
    }

    /// The moves before a position after `mv` is played in it.
    #[inline]
    pub fn after(self, mv: Move) -> Recent {
        Recent {
            last: mv.point(),
            second_last: self.last,
            last_was_pass: mv == Move::Pass,
        }
    }

    /// The last move and the one before as padded point indices, in that order, 0 for a
    /// pass or no move: the form the pattern playouts and the reply memory keep them in.
    #[inline]
    pub fn indices(self) -> [u16; 2] {
        let index = |p: Option<Point>| p.map_or(0, |p| p.index() as u16);
        [index(self.last), index(self.second_last)]
    }
}
