//! Tree priors from the pattern table: a probability per point that sums to one with pass,
//! zero on occupied and forbidden points, and the urgent move on top.

mod common;

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

/// The reference of `move_probabilities`: every legal point's strength from freshly
/// extracted features (no memo), normalised with pass.
fn reference_probabilities(
    table: &pattern::PatternTable,
    board: &Board,
    ctx: &pattern::Context,
) -> (Vec<f64>, f64) {
    use pattern::features::extract;
    let mut out = vec![0f64; MAX_CELLS];
    let pass = table.strength(&extract(board, None, ctx));
    let mut total = pass;
    for p in board.geometry().points() {
        if board.cell(p) == hane::board::Cell::Empty && board.is_legal(p, ctx.color) {
            let s = table.strength(&extract(board, Some(p), ctx));
            out[p.index()] = s;
            total += s;
        }
    }
    (out.iter().map(|s| s / total).collect(), pass / total)
}

/// `move_probabilities` keeps a per-thread memo of shape gammas keyed by the raw
/// neighbourhood; over random positions of both sizes, both colours and changing last
/// moves, it must give the same numbers as features extracted from scratch, and a table
/// whose weights change (or a clone with other weights) must never see the old entries.
#[test]
fn memoised_probabilities_equal_features_extracted_from_scratch() {
    use hane::pattern::features::Group;
    use hane::pattern::table::ShapeWeights;
    use hane::playout::{LightPolicy, PlayoutPolicy, playout_rng};
    let base = pattern::default_table().clone();
    // The same table with every listed 12-point shape's gamma squared: the memo must not
    // answer for it with the base table's products.
    let mut changed = base.clone();
    let squared: Vec<(u64, f32)> = base
        .shapes(Group::Shape12)
        .entries()
        .map(|(code, gamma)| (code, gamma * gamma))
        .collect();
    changed.set_shapes(
        Group::Shape12,
        ShapeWeights::new(squared, base.shapes(Group::Shape12).other()),
    );
    // The base table with random latent factors for every feature: its memo entries keep
    // factor sums besides the gammas.
    let factored = common::with_random_factors(&base, 6, 11, 1.0 / 3.0);
    let mut compared = 0;
    for (size, moves) in [(9, 50), (19, 160)] {
        let mut rng = playout_rng(size as u64, 7);
        let mut board = Board::new(size).unwrap();
        let mut last = None;
        let mut second_last = None;
        for k in 0..moves {
            let color = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if k % 5 == 0 {
                for table in [&base, &changed, &factored, &base] {
                    let ctx = context(color, last, second_last);
                    let mut out = vec![0f32; MAX_CELLS];
                    let pass = table.move_probabilities(&board, &ctx, &mut out);
                    let (want, want_pass) = reference_probabilities(table, &board, &ctx);
                    assert!((pass as f64 - want_pass).abs() <= 1e-6 * want_pass.max(1e-30));
                    for p in board.geometry().points() {
                        let (got, want) = (out[p.index()] as f64, want[p.index()]);
                        assert!(
                            (got - want).abs() <= 1e-5 * want.max(1e-12),
                            "{size}x{size} move {k} {}: memo {got} vs scratch {want}",
                            board.geometry().format_point(p)
                        );
                        compared += 1;
                    }
                }
            }
            match LightPolicy.choose(&mut board, color, &mut rng) {
                Some(p) => {
                    board.play_unchecked(p, color);
                    second_last = last;
                    last = Some(p);
                }
                None => {
                    board.pass();
                    second_last = last;
                    last = None;
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}
