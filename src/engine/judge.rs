//! End-of-game judgement: which chains are dead, from ownership over many light playouts
//! (`search::estimate_ownership`), and the area score once they are removed. `final_score`,
//! `final_status_list` and the no-pass rule of the cleanup phase all read the same
//! judgement, so they cannot contradict one another.

use crate::board::{Cell, Color, GameState, Move, Point};
use crate::search::estimate_ownership;

/// The status of every chain on the board and the resulting score.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Dead chains, each as its stones; ordered by their first point.
    pub dead: Vec<(Color, Vec<Point>)>,
    /// Living chains, each as its stones.
    pub alive: Vec<(Color, Vec<Point>)>,
    /// Area score (black minus white, komi included) with the dead chains removed.
    pub score: f32,
    /// Empty points that neither side owns in at least [`SETTLED`] of the playouts (dame
    /// still to fill, or regions still to fight over).
    pub unsettled: usize,
}

/// The ownership (as a fraction of playouts, beyond an even split) above which an empty
/// point counts as settled.
pub const SETTLED: f32 = 0.6;

impl Judgement {
    /// Whether some chain of `color` is judged dead.
    pub fn has_dead(&self, color: Color) -> bool {
        self.dead.iter().any(|(c, _)| *c == color)
    }
}

/// Judges the position with `playouts` light playouts from a fixed `seed`: a chain is dead
/// when, averaged over its stones, the opponent owns its points in more playouts than its
/// owner does. The same state and seed always give the same judgement.
pub fn judge(state: &GameState, playouts: u64, seed: u64) -> Judgement {
    let board = state.board();
    let geometry = board.geometry();
    let has_stones = geometry.points().any(|p| board.cell(p) != Cell::Empty);
    let ownership = if has_stones {
        estimate_ownership(state, playouts.max(1), seed)
    } else {
        Vec::new()
    };
    let mut seen = vec![false; geometry.cells()];
    let mut dead = Vec::new();
    let mut alive = Vec::new();
    for p in geometry.points() {
        let Some(color) = board.cell(p).color() else {
            continue;
        };
        if seen[p.index()] {
            continue;
        }
        let mut stones: Vec<Point> = board.chain_stones(p).collect();
        stones.sort();
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        let mut sum = 0.0;
        for q in &stones {
            seen[q.index()] = true;
            sum += sign * ownership[q.index()];
        }
        if sum / (stones.len() as f32) < 0.0 {
            dead.push((color, stones));
        } else {
            alive.push((color, stones));
        }
    }
    let dead_points: Vec<Point> = dead.iter().flat_map(|(_, s)| s.iter().copied()).collect();
    let score = state.score_with_dead(&dead_points);
    let unsettled = geometry
        .points()
        .filter(|p| board.cell(*p) == Cell::Empty)
        .filter(|p| ownership.get(p.index()).is_none_or(|o| o.abs() < SETTLED))
        .count();
    Judgement {
        dead,
        alive,
        score,
        unsettled,
    }
}

/// A move for `color` that works towards removing `opponent`'s dead chains: a legal move on
/// a liberty of a dead chain, or failing that any legal move that does not fill one of
/// `color`'s own eyes. `None` when there is no such move.
pub fn cleanup_move(state: &GameState, color: Color, judgement: &Judgement) -> Option<Move> {
    let board = state.board();
    let acceptable = |p: Point| state.is_legal(color, Move::Play(p)) && !board.is_eye(p, color);
    for (owner, stones) in &judgement.dead {
        if *owner == color {
            continue;
        }
        let mut liberties = board.chain_liberties(stones[0]);
        liberties.sort();
        if let Some(&p) = liberties.iter().find(|&&p| acceptable(p)) {
            return Some(Move::Play(p));
        }
    }
    // No liberty is playable: approach the dead chains from any other empty point, nearest
    // first.
    let geometry = state.geometry();
    let targets: Vec<Point> = judgement
        .dead
        .iter()
        .filter(|(owner, _)| *owner != color)
        .flat_map(|(_, s)| s.iter().copied())
        .collect();
    geometry
        .points()
        .filter(|&p| board.cell(p) == Cell::Empty && acceptable(p))
        .min_by_key(|&p| {
            let d = targets
                .iter()
                .map(|&t| geometry.distance(p, t))
                .min()
                .unwrap_or(0);
            (d, p)
        })
        .map(Move::Play)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Rules};

    fn state_from(diagram: &str) -> GameState {
        let board = Board::from_diagram(diagram).unwrap();
        GameState::from_board(board, Color::Black, Rules::chinese(0.5))
    }

    #[test]
    fn an_invaded_stone_is_dead_and_scored_as_captured() {
        // Black owns the left, white the right; a lone white stone sits in black's area.
        let state = state_from(
            ". . X . O . .
             . O X . O . .
             . . X . O . .
             X X X . O . .
             . . X O O . .
             . . X O . . .
             . . X O . . .",
        );
        let j = judge(&state, 500, 7);
        assert!(j.has_dead(Color::White));
        assert!(!j.has_dead(Color::Black));
        assert_eq!(j.dead.len(), 1);
        let mv = cleanup_move(&state, Color::Black, &j).unwrap();
        let g = state.geometry();
        let Move::Play(p) = mv else { panic!() };
        assert_eq!(g.distance(p, g.parse_point("B6").unwrap()), 1);
    }
}
