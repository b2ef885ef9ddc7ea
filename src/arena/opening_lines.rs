//! The opening statistic of a set of game records: on which line (distance to the nearest
//! edge, the edge itself being the first line) the first moves of each game from the empty
//! board were played. Strong players put under a tenth of their first 20 moves on the fifth
//! line or higher on 19x19; `hane opening-lines` prints the shares of an engine's games (from
//! `hane selfplay --move-cap 20`, say) beside those of professional games.

use crate::board::{Geometry, Move};
use crate::sgf::SgfGame;

/// Lines counted one by one; the ones from this line up are counted together.
pub const HIGH_LINE: usize = 5;

/// The counts of one set of records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineCounts {
    /// Games counted (of the asked size, from the empty board).
    pub games: usize,
    /// Games left out: another size, handicap or setup stones, or no moves.
    pub skipped: usize,
    /// Moves on line `k + 1` for `k < HIGH_LINE - 1`, and on line `HIGH_LINE` or higher at
    /// `HIGH_LINE - 1`.
    pub by_line: [u64; HIGH_LINE],
    /// Passes among the counted moves.
    pub passes: u64,
}

impl LineCounts {
    /// Counts the first `moves` moves of `game` when it is a `size` x `size` game from the
    /// empty board.
    pub fn add_game(&mut self, game: &SgfGame, size: usize, moves: usize) {
        let Some(geometry) = Geometry::new(size) else {
            self.skipped += 1;
            return;
        };
        if game.size != size
            || !game.setup.is_empty()
            || game.handicap.is_some_and(|h| h > 0)
            || game.moves.is_empty()
        {
            self.skipped += 1;
            return;
        }
        self.games += 1;
        for &(_, mv) in game.moves.iter().take(moves) {
            match mv {
                Move::Pass => self.passes += 1,
                Move::Play(p) => {
                    let (col, row) = geometry.coords(p);
                    let line = [col, row, size - 1 - col, size - 1 - row]
                        .into_iter()
                        .min()
                        .unwrap_or(0)
                        + 1;
                    self.by_line[line.min(HIGH_LINE) - 1] += 1;
                }
            }
        }
    }

    /// Moves counted, passes included.
    pub fn moves(&self) -> u64 {
        self.by_line.iter().sum::<u64>() + self.passes
    }

    /// The share of the counted moves on line `line` (1-based; `HIGH_LINE`: that line or
    /// higher); 0 without moves.
    pub fn share(&self, line: usize) -> f64 {
        let moves = self.moves();
        if moves == 0 || line == 0 || line > HIGH_LINE {
            return 0.0;
        }
        self.by_line[line - 1] as f64 / moves as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::parse_game;

    #[test]
    fn moves_are_counted_by_their_line() {
        // D4 (4th), Q16 (4th), C3 (3rd), K10 (10th: high), A1 (1st), pass, E5 (5th).
        let game = parse_game("(;GM[1]SZ[19];B[dp];W[pd];B[cq];W[jj];B[as];W[];B[eo])").unwrap();
        let mut counts = LineCounts::default();
        counts.add_game(&game, 19, 20);
        assert_eq!(counts.games, 1);
        assert_eq!(counts.by_line, [1, 0, 1, 2, 2]);
        assert_eq!(counts.passes, 1);
        assert_eq!(counts.moves(), 7);
        assert!((counts.share(HIGH_LINE) - 2.0 / 7.0).abs() < 1e-12);
        // Only the first moves count.
        let mut first = LineCounts::default();
        first.add_game(&game, 19, 3);
        assert_eq!(first.by_line, [0, 0, 1, 2, 0]);
    }

    #[test]
    fn other_sizes_and_handicap_games_are_left_out() {
        let mut counts = LineCounts::default();
        for text in [
            "(;GM[1]SZ[9];B[ee])",
            "(;GM[1]SZ[19]HA[2]AB[dd][pp];W[dp])",
            "(;GM[1]SZ[19]AB[dd];W[dp])",
            "(;GM[1]SZ[19])",
        ] {
            counts.add_game(&parse_game(text).unwrap(), 19, 20);
        }
        assert_eq!((counts.games, counts.skipped, counts.moves()), (0, 4, 0));
        assert_eq!(counts.share(HIGH_LINE), 0.0);
    }
}
