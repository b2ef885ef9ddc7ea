//! Moves a search must not explore near its root: the `avoid` and `allow` options of the
//! analyze commands (as KataGo and Lizzie use them). Each colour's move carries the number
//! of plies from the root during which it is barred; the root is ply 1.

use crate::board::{Color, Geometry, MAX_CELLS, Move};

/// The slot of a pass, after every point's.
const PASS_SLOT: usize = MAX_CELLS;

/// Per colour and move, the plies from the root (1: only the root's own move) during which
/// the search leaves the move out. Empty (and unallocated) when nothing is barred.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AvoidMoves {
    /// `until[color * SLOTS + slot]`: the move is barred at plies 1..=until; empty when
    /// nothing is barred.
    until: Vec<u16>,
}

/// Slots per colour: every cell index and pass.
const SLOTS: usize = MAX_CELLS + 1;

fn slot(color: Color, mv: Move) -> usize {
    color.index() * SLOTS
        + match mv {
            Move::Pass => PASS_SLOT,
            Move::Play(p) => p.index(),
        }
}

impl AvoidMoves {
    /// Nothing barred.
    pub fn new() -> AvoidMoves {
        AvoidMoves::default()
    }

    pub fn is_empty(&self) -> bool {
        self.until.is_empty()
    }

    /// Bars `mv` for `color` at plies 1..=`plies` (keeping a longer bar already given).
    pub fn avoid(&mut self, color: Color, mv: Move, plies: u32) {
        let plies = plies.min(u32::from(u16::MAX)) as u16;
        if plies == 0 {
            return;
        }
        if self.until.is_empty() {
            self.until = vec![0; 2 * SLOTS];
        }
        let cell = &mut self.until[slot(color, mv)];
        *cell = (*cell).max(plies);
    }

    /// Bars every move of `color` but `allowed` (and pass, unless listed or barred
    /// otherwise) at plies 1..=`plies` on a board of `geometry`: KataGo's `allow`, which
    /// leaves a player no move but those listed. Pass stays open so that no position is
    /// left without a move.
    pub fn allow_only(&mut self, geometry: Geometry, color: Color, allowed: &[Move], plies: u32) {
        for p in geometry.points() {
            if !allowed.contains(&Move::Play(p)) {
                self.avoid(color, Move::Play(p), plies);
            }
        }
    }

    /// Whether the search leaves out `mv` for `color` at `ply` (the root's move is ply 1).
    pub fn bars(&self, color: Color, mv: Move, ply: usize) -> bool {
        self.until
            .get(slot(color, mv))
            .is_some_and(|&until| ply <= usize::from(until))
    }

    /// Removes from `moves` what is barred for `color` at `ply`, keeping at least pass when
    /// it was there (a node with no move would end every descent through it).
    pub fn retain_allowed(&self, color: Color, ply: usize, moves: &mut Vec<Move>) {
        if self.is_empty() {
            return;
        }
        moves.retain(|&mv| mv == Move::Pass || !self.bars(color, mv, ply));
        let pass_barred = self.bars(color, Move::Pass, ply);
        if pass_barred && moves.len() > 1 {
            moves.retain(|&mv| mv != Move::Pass);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(g: Geometry, text: &str) -> Move {
        Move::parse(g, text).unwrap()
    }

    #[test]
    fn a_move_is_barred_for_its_colour_and_plies_only() {
        let g = Geometry::new(9).unwrap();
        let mut a = AvoidMoves::new();
        assert!(a.is_empty());
        a.avoid(Color::Black, mv(g, "E5"), 1);
        a.avoid(Color::Black, mv(g, "C3"), 3);
        assert!(!a.is_empty());
        assert!(a.bars(Color::Black, mv(g, "E5"), 1));
        assert!(!a.bars(Color::Black, mv(g, "E5"), 2));
        assert!(!a.bars(Color::White, mv(g, "E5"), 1));
        assert!(a.bars(Color::Black, mv(g, "C3"), 3));
        assert!(!a.bars(Color::Black, mv(g, "C3"), 4));
        assert!(!a.bars(Color::Black, mv(g, "D4"), 1));
        // A second, shorter bar keeps the longer one.
        a.avoid(Color::Black, mv(g, "C3"), 1);
        assert!(a.bars(Color::Black, mv(g, "C3"), 3));
        // Zero plies bars nothing.
        let mut b = AvoidMoves::new();
        b.avoid(Color::White, mv(g, "C3"), 0);
        assert!(b.is_empty());
    }

    #[test]
    fn allow_only_leaves_the_listed_moves_and_pass() {
        let g = Geometry::new(5).unwrap();
        let mut a = AvoidMoves::new();
        let allowed = [mv(g, "C3"), mv(g, "B2")];
        a.allow_only(g, Color::White, &allowed, 2);
        let mut moves: Vec<Move> = g.points().map(Move::Play).collect();
        moves.push(Move::Pass);
        a.retain_allowed(Color::White, 1, &mut moves);
        assert_eq!(moves, vec![mv(g, "B2"), mv(g, "C3"), Move::Pass]);
        // Black and deeper plies are untouched.
        let mut black: Vec<Move> = g.points().map(Move::Play).collect();
        a.retain_allowed(Color::Black, 1, &mut black);
        assert_eq!(black.len(), 25);
        let mut deep: Vec<Move> = g.points().map(Move::Play).collect();
        a.retain_allowed(Color::White, 3, &mut deep);
        assert_eq!(deep.len(), 25);
    }

    #[test]
    fn a_barred_pass_goes_only_when_another_move_is_left() {
        let g = Geometry::new(5).unwrap();
        let mut a = AvoidMoves::new();
        a.avoid(Color::Black, Move::Pass, 1);
        a.avoid(Color::Black, mv(g, "C3"), 1);
        let mut moves = vec![mv(g, "C3"), mv(g, "D4"), Move::Pass];
        a.retain_allowed(Color::Black, 1, &mut moves);
        assert_eq!(moves, vec![mv(g, "D4")]);
        let mut only = vec![mv(g, "C3"), Move::Pass];
        a.retain_allowed(Color::Black, 1, &mut only);
        assert_eq!(only, vec![Move::Pass]);
    }
}
