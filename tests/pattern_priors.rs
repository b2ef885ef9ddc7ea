//! Tree priors from the pattern table: a probability per point that sums to one with pass,
//! zero on occupied and forbidden points, and the urgent move on top.

use hane::board::{Board, Color, GameState, MAX_CELLS, Move, Rules};
use hane::pattern::{self, context};

#[test]
fn priors_are_a_distribution_over_legal_moves() {
    let mut state = GameState::new(19, Rules::default()).unwrap();
    for v in ["D4", "Q16", "C16", "Q4", "E17"] {
        let color = state.to_move();
        let mv = Move::parse(state.geometry(), v).unwrap();
        state.play(color, mv).unwrap();
    }
    let mut out = vec![0f32; MAX_CELLS];
    let pass = pattern::default_table().game_move_probabilities(&state, &mut out);
    let total: f64 = out.iter().map(|&p| p as f64).sum::<f64>() + pass as f64;
    assert!((total - 1.0).abs() < 1e-4, "{total}");
    let board = state.board();
    for p in board.geometry().points() {
        if board.cell(p) != hane::board::Cell::Empty {
            assert_eq!(out[p.index()], 0.0);
        } else {
            assert!(out[p.index()] > 0.0);
        }
    }
    // Early in the game, passing is very unlikely.
    assert!(pass < 0.01, "{pass}");
}

#[test]
fn capturing_a_big_chain_in_atari_gets_the_highest_prior() {
    // Black's three stones D5-F5 have one liberty, G5; black's last move was F5.
    let board = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . O O O . . .
        . . O X X X . . .
        . . . O O O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    )
    .unwrap();
    let at = |v: &str| board.geometry().parse_point(v).unwrap();
    assert_eq!(board.atari_liberty(at("D5")), Some(at("G5")));
    let ctx = context(Color::White, Some(at("F5")), None);
    let mut out = vec![0f32; MAX_CELLS];
    pattern::default_table().move_probabilities(&board, &ctx, &mut out);
    let best = board
        .geometry()
        .points()
        .max_by(|&a, &b| out[a.index()].total_cmp(&out[b.index()]))
        .unwrap();
    assert_eq!(best, at("G5"));
    assert!(out[at("G5").index()] > 0.5, "{}", out[at("G5").index()]);
}
