//! Who owns each point at the end of light playouts from a position: the dead-stone
//! estimate of the engine and the referee, and the tally behind the pattern feature
//! `owner` (a few playouts seeded by the position, so that the trainer, the evaluation and
//! the search see the same levels for the same position).

use crate::board::{Board, Color, MAX_CELLS};
use crate::pattern::features::Ownership;

use super::{LightPolicy, default_move_cap, playout_rng, run_playout};

/// Light playouts per tally: what the `owner` levels of the tables are trained with.
pub const OWNER_PLAYOUTS: u32 = 32;

/// Runs `playouts` light playouts from `board` with `color` first (generator seeded with
/// `seed`), each on `scratch` (any board, overwritten), and gives `each` the owners of
/// every padded index at the end of each (`Board::area_owners`).
pub fn light_playout_owners(
    board: &Board,
    color: Color,
    playouts: u64,
    seed: u64,
    scratch: &mut Board,
    mut each: impl FnMut(&[Option<Color>; MAX_CELLS]),
) {
    let mut rng = playout_rng(seed, 0);
    let cap = default_move_cap(board.size());
    for _ in 0..playouts {
        scratch.copy_from(board);
        run_playout(scratch, color, &mut LightPolicy, &mut rng, cap, &mut ());
        each(&scratch.area_owners());
    }
}

/// Tallies [`OWNER_PLAYOUTS`] light playouts from `board` with `color` to move into `out`
/// (cleared first), seeded by the position; `scratch` is any board, overwritten. The same
/// position and colour always give the same tally. About 1 ms on 19x19.
pub fn owner_tally(board: &Board, color: Color, scratch: &mut Board, out: &mut Ownership) {
    out.clear();
    let seed = board.hash() ^ color as u64;
    light_playout_owners(
        board,
        color,
        OWNER_PLAYOUTS as u64,
        seed,
        scratch,
        |owners| out.add(board.geometry(), owners),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_repeats_and_sees_a_won_area() {
        // Black walls off the left side of a 9x9 board.
        let board = Board::from_diagram(
            "
            . . . X . . . . .
            . . . X . . . . .
            . . . X . . . . .
            . . . X . . . . .
            . . . X . . . . .
            . . . X . . . . .
            . . . X . . . . .
            . . . X . . . . .
            . . . X . . . . .",
        )
        .unwrap();
        let mut scratch = board.clone();
        let mut a = Ownership::new();
        let mut b = Ownership::new();
        owner_tally(&board, Color::White, &mut scratch, &mut a);
        owner_tally(&board, Color::White, &mut scratch, &mut b);
        assert_eq!(a, b);
        assert_eq!(a.playouts(), OWNER_PLAYOUTS);
        let g = board.geometry();
        let left = g.parse_point("A5").unwrap();
        let wall = g.parse_point("D5").unwrap();
        // The wall's stones end black's in most playouts, the area behind them too.
        assert!(
            a.owned(Color::Black, wall) >= OWNER_PLAYOUTS * 3 / 4,
            "{a:?}"
        );
        assert!(
            a.owned(Color::Black, left) > a.owned(Color::White, left),
            "{a:?}"
        );
        assert!(a.level(Color::Black, wall) >= 7);
        assert!(a.level(Color::White, wall) <= 2);
        // Every point ends owned by someone or no one: never both.
        for p in g.points() {
            assert!(a.owned(Color::Black, p) + a.owned(Color::White, p) <= OWNER_PLAYOUTS);
        }
    }
}
