//! The opening prior of large boards ([`OpeningLines`]): in the first moves of a game, a
//! move belongs on the third or fourth line unless the stones around it say otherwise. In
//! the first 20 moves of professional 19x19 games, 97% of the moves far from every stone
//! (none within 3 points) are on those two lines (under 1% on the first two, 2% on the fifth
//! or higher), and three quarters of the others. The playouts' AMAF statistics, which rule
//! the tree's choice until a move has many real visits, favour the centre of an empty board
//! instead. The prior gives a lonely move off the third and fourth lines the `opening-prior`
//! setting's virtual lost playouts, and a move near a stone off those lines the share
//! `opening-prior-near` of them, at full strength while the board holds at most a twelfth
//! of its points in stones, fading to none at a sixth (30 and 60 stones on 19x19).

use crate::board::{Board, Cell, MAX_CELLS, Move, Point};
use crate::settings::SearchParams;

use super::prior_mix::{PriorProvider, PriorQuery};
use super::priors::Prior;

/// Smallest board the prior applies to.
pub const MIN_SIZE: usize = 13;

/// A move with no stone within this Manhattan distance is lonely.
pub const LONELY_DISTANCE: usize = 3;

/// The opening prior on lonely moves off the third and fourth lines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpeningLines {
    /// Virtual lost playouts of a lonely move off the third and fourth lines, at full
    /// strength.
    pub weight: f32,
    /// The share of `weight` a move near a stone gets off the third and fourth lines.
    pub near: f32,
}

impl OpeningLines {
    /// The prior of `params`, or `None` when its weight is 0.
    pub fn configured(params: &SearchParams) -> Option<OpeningLines> {
        (params.opening_prior > 0.0).then_some(OpeningLines {
            weight: params.opening_prior,
            near: params.opening_prior_near,
        })
    }

    /// The share of the full weight on `board`: 1 up to a twelfth of the points in stones,
    /// falling linearly to 0 at a sixth; 0 on boards below [`MIN_SIZE`].
    pub fn strength(board: &Board) -> f32 {
        let size = board.size();
        if size < MIN_SIZE {
            return 0.0;
        }
        let area = (size * size) as f32;
        let stones = area - board.empty_count() as f32;
        ((area / 6.0 - stones) / (area / 12.0)).clamp(0.0, 1.0)
    }

    /// The share of the weight a move on `p` gets: none on the third and fourth lines,
    /// elsewhere 1 for a lonely move and `near` for one near a stone.
    fn share(&self, board: &Board, p: Point, lonely: bool) -> f32 {
        match (board.geometry().edge_distance(p), lonely) {
            (2 | 3, _) => 0.0,
            (_, true) => 1.0,
            (_, false) => self.near,
        }
    }
}

/// Marks in `near` (indexed by point) every point within [`LONELY_DISTANCE`] of a stone of
/// `board`.
fn mark_near_stones(board: &Board, near: &mut [bool; MAX_CELLS]) {
    let g = board.geometry();
    for p in g.points().filter(|&p| board.cell(p) != Cell::Empty) {
        for q in g.within(p, LONELY_DISTANCE) {
            near[q.index()] = true;
        }
    }
}

impl PriorProvider for OpeningLines {
    fn add_priors(&mut self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        let strength = OpeningLines::strength(query.board);
        if strength <= 0.0 {
            return;
        }
        let mut near = [false; MAX_CELLS];
        mark_near_stones(query.board, &mut near);
        let visits = self.weight * strength;
        for (mv, prior) in query.moves.iter().zip(out.iter_mut()) {
            if let Move::Play(p) = *mv {
                let share = self.share(query.board, p, !near[p.index()]);
                if share > 0.0 {
                    prior.add(visits * share, 0.0);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Recent};

    fn priors_of(board: &Board, points: &[&str], prior: OpeningLines) -> Vec<Prior> {
        let g = board.geometry();
        let moves: Vec<Move> = points
            .iter()
            .map(|s| Move::Play(g.parse_point(s).unwrap()))
            .collect();
        let mut out = vec![Prior::NONE; moves.len()];
        let query = PriorQuery {
            board,
            color: Color::Black,
            recent: Recent::default(),
            moves: &moves,
            owner: None,
        };
        { prior }.add_priors(&query, &mut out);
        out
    }

    /// On the empty 19x19 board the first, second and fifth-or-higher lines lose, the third
    /// and fourth get nothing.
    #[test]
    fn lonely_moves_lose_off_the_third_and_fourth_lines() {
        let board = Board::new(19).unwrap();
        let out = priors_of(
            &board,
            &["A1", "B2", "C3", "D4", "E5", "K10", "Q16", "R3"],
            OpeningLines {
                weight: 50.0,
                near: 0.0,
            },
        );
        let lost: Vec<bool> = out.iter().map(|p| p.visits > 0.0).collect();
        assert_eq!(
            lost,
            [true, true, false, false, true, true, false, false],
            "{out:?}"
        );
        for p in out.iter().filter(|p| p.visits > 0.0) {
            assert_eq!((p.visits, p.wins), (50.0, 0.0));
        }
    }

    /// A move within three points of a stone is not lonely: off the third and fourth
    /// lines it gets the `near` share of the weight, on them nothing.
    #[test]
    fn moves_near_stones_get_the_near_share() {
        let mut board = Board::new(19).unwrap();
        let g = board.geometry();
        board
            .play(g.parse_point("K10").unwrap(), Color::White)
            .unwrap();
        board
            .play(g.parse_point("C16").unwrap(), Color::Black)
            .unwrap();
        // K13 is 3 away (near, 7th line), K14 4 away (lonely), B10 lonely on the 2nd line,
        // B16 near on the 2nd line, D16 near on the 4th.
        let points = ["K13", "L12", "K14", "B10", "B16", "D16"];
        let visits = |near: f32| -> Vec<f32> {
            let weight = 100.0;
            let out = priors_of(&board, &points, OpeningLines { weight, near });
            assert!(out.iter().all(|p| p.wins == 0.0));
            out.iter().map(|p| p.visits).collect()
        };
        assert_eq!(visits(0.0), [0.0, 0.0, 100.0, 100.0, 0.0, 0.0]);
        assert_eq!(visits(0.25), [25.0, 25.0, 100.0, 100.0, 25.0, 0.0]);
    }

    /// Full strength up to a twelfth of the board in stones, none from a sixth, nothing
    /// below 13x13.
    #[test]
    fn the_prior_fades_with_the_stones_on_the_board() {
        let mut board = Board::new(19).unwrap();
        assert_eq!(OpeningLines::strength(&board), 1.0);
        let g = board.geometry();
        let mut placed = 0;
        // Stones on the first line, far from the tested middle of the board.
        for p in g.points() {
            if g.edge_distance(p) == 0 && placed < 45 {
                let color = if placed % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                if board.play(p, color).is_ok() {
                    placed += 1;
                }
            }
        }
        let stones = 361 - board.empty_count();
        let expected = ((361.0 / 6.0 - stones as f32) / (361.0 / 12.0)).clamp(0.0, 1.0);
        assert!(expected > 0.0 && expected < 1.0, "{stones} stones");
        assert!((OpeningLines::strength(&board) - expected).abs() < 1e-6);
        let out = priors_of(
            &board,
            &["K10"],
            OpeningLines {
                weight: 50.0,
                near: 0.0,
            },
        );
        assert!((out[0].visits - 50.0 * expected).abs() < 1e-3);
        assert_eq!(OpeningLines::strength(&Board::new(9).unwrap()), 0.0);
        assert_eq!(OpeningLines::strength(&Board::new(13).unwrap()), 1.0);
    }
}
