//! The pattern playout policy plays only legal moves that do not fill its own eye, plays
//! tactically urgent answers, and allocates nothing per move (the `allocation-counter`
//! crate counts).

use hane::board::Geometry;
use hane::board::{Board, Color, Recent};
use hane::pattern::{self, PatternTable};
use hane::playout::{PatternPolicy, PlayoutPolicy, default_move_cap, playout_rng, run_playout};
use hane::settings::{Auto, PlayoutParams};

/// The policy of `params` on 19x19.
fn policy_19(table: &PatternTable, params: PlayoutParams) -> PatternPolicy<'_> {
    PatternPolicy::configured(table, &params, Geometry::new(19).unwrap())
}

fn check_games(table: &PatternTable, size: usize, games: usize, seed: u64) -> u64 {
    let mut rng = playout_rng(seed, 0);
    let mut policy = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    let mut moves = 0;
    for _ in 0..games {
        let mut board = Board::new(size).unwrap();
        policy.start(Recent::default());
        let mut color = Color::Black;
        let mut passes = 0;
        let mut played = 0;
        while passes < 2 && played < default_move_cap(size) {
            match policy.choose(&mut board, color, &mut rng) {
                Some(p) => {
                    assert!(
                        board.is_legal(p, color),
                        "illegal {p:?}\n{}",
                        board.to_diagram()
                    );
                    assert!(!board.is_eye(p, color), "fills its own eye");
                    board.play(p, color).unwrap();
                    passes = 0;
                }
                None => {
                    board.pass();
                    passes += 1;
                }
            }
            board.check_consistency().unwrap();
            played += 1;
            moves += 1;
            color = color.opponent();
        }
    }
    moves
}

#[test]
fn plays_only_legal_moves_with_the_shipped_and_a_uniform_table() {
    let uniform = PatternTable::uniform();
    assert!(check_games(pattern::small_boards_table(), 9, 60, 1) > 60 * 50);
    assert!(check_games(&uniform, 9, 30, 2) > 30 * 50);
    assert!(check_games(pattern::default_table(), 19, 6, 3) > 6 * 200);
}

#[test]
fn answers_a_capture_of_the_last_move() {
    // White just played D4 into atari (its only liberty D3): black captures.
    let board = Board::from_diagram(
        "
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X O X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
    )
    .unwrap();
    let d4 = board.geometry().parse_point("D4").unwrap();
    let d3 = board.geometry().parse_point("D3").unwrap();
    let table = pattern::default_table();
    let mut policy = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    for seed in 0..20 {
        let mut rng = playout_rng(seed, 0);
        let mut b = board.clone();
        policy.start(Recent::new(Some(d4), None));
        assert_eq!(policy.choose(&mut b, Color::Black, &mut rng), Some(d3));
    }
}

// Black D3 has put White D4 in atari; White extended to E4 (two liberties, E5 and F4), and
// Black can ladder it to the edge.
const LADDER_RUN: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O O . . . .
    . . . X X . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn continues_a_ladder_the_opponent_runs_into() {
    let board = Board::from_diagram(LADDER_RUN).unwrap();
    let g = board.geometry();
    let (e4, d3) = (g.parse_point("E4").unwrap(), g.parse_point("D3").unwrap());
    let (e5, f4) = (g.parse_point("E5").unwrap(), g.parse_point("F4").unwrap());
    let table = pattern::default_table();
    let mut policy = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    for seed in 0..20 {
        let mut rng = playout_rng(seed, 0);
        let mut b = board.clone();
        policy.start(Recent::new(Some(e4), Some(d3)));
        let chosen = policy.choose(&mut b, Color::Black, &mut rng);
        // F4 drives White up to E5 and on to the edge (the working ladder); E5 would let
        // White out at F4, which has three empty neighbours.
        assert_eq!(chosen, Some(f4), "seed {seed}");
        assert_ne!(chosen, Some(e5));
    }
    // Without ladder reading the policy picks other moves too (the race ataris off as
    // well: Black's D3-E3 touches the two-liberty chain, and F4 is such an atari).
    let mut plain = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ladders: false,
            race_ataris: Auto::Value(false),
            ..PlayoutParams::default()
        },
    );
    let others = (0..40)
        .filter(|&seed| {
            let mut rng = playout_rng(seed, 0);
            let mut b = board.clone();
            plain.start(Recent::new(Some(e4), Some(d3)));
            plain.choose(&mut b, Color::Black, &mut rng) != Some(f4)
        })
        .count();
    assert!(others > 0);
}

#[test]
fn does_not_run_into_a_ladder() {
    // Black D3 has just put White D4 in atari: extending on E4 runs into a working ladder,
    // so White plays elsewhere; with a white stone on G7 the ladder fails and White runs.
    let ladder = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . X O . . . . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .";
    let broken = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . O . .
        . . . . . . . . .
        . . . X . . . . .
        . . X O . . . . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .";
    let table = pattern::default_table();
    let mut policy = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    for (diagram, runs) in [(ladder, false), (broken, true)] {
        let board = Board::from_diagram(diagram).unwrap();
        let g = board.geometry();
        let (d3, e4) = (g.parse_point("D3").unwrap(), g.parse_point("E4").unwrap());
        let ran = (0..30)
            .filter(|&seed| {
                let mut rng = playout_rng(seed, 0);
                let mut b = board.clone();
                policy.start(Recent::new(Some(d3), None));
                policy.choose(&mut b, Color::White, &mut rng) == Some(e4)
            })
            .count();
        if runs {
            assert_eq!(ran, 30, "the escape works: always taken");
        } else {
            assert!(ran < 10, "ran into the ladder {ran} times of 30");
        }
    }
}

/// How often, over `seeds` seeds, `policy` answers `last` (and `second_last`) on `board`
/// for `color` with a move in `wanted`.
fn times_chosen(
    policy: &mut PatternPolicy<'_>,
    board: &Board,
    color: Color,
    last: &str,
    wanted: &[&str],
    seeds: u64,
) -> usize {
    let g = board.geometry();
    let last = g.parse_point(last).unwrap();
    let wanted: Vec<_> = wanted.iter().map(|v| g.parse_point(v).unwrap()).collect();
    (0..seeds)
        .filter(|&seed| {
            let mut rng = playout_rng(seed, 0);
            let mut b = board.clone();
            policy.start(Recent::new(Some(last), None));
            policy
                .choose(&mut b, color, &mut rng)
                .is_some_and(|p| wanted.contains(&p))
        })
        .count()
}

#[test]
fn tactics_save_a_chain_in_atari_by_capturing_a_neighbour() {
    // White E4 has put Black C4-D4 in atari (liberty D3, where Black would have no liberty
    // at all); Black lives by capturing White C5-D5 at E5.
    let board = Board::from_diagram(
        "
        . . . . . . .
        . . X X . . .
        . X O O . . .
        . O X X O . .
        . . O . O . .
        . . . O . . .
        . . . . . . .",
    )
    .unwrap();
    let table = pattern::default_table();
    let mut tactical = policy_19(
        table,
        PlayoutParams {
            tactics: true,
            ..PlayoutParams::default()
        },
    );
    assert_eq!(
        times_chosen(&mut tactical, &board, Color::Black, "E4", &["E5"], 30),
        30
    );
    // Without the extra tactics E5 is only one of the shapes next to E4.
    let mut plain = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    assert!(times_chosen(&mut plain, &board, Color::Black, "E4", &["E5"], 30) < 30);
}

#[test]
fn tactics_give_a_chain_left_with_two_liberties_a_third() {
    // White D4 leaves Black C3-D3 with two liberties, E3 and D2; either extension gives
    // three or more.
    let board = Board::from_diagram(
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X . . .
        . . O . . . .
        . . . . . . .",
    )
    .unwrap();
    let table = pattern::default_table();
    let mut tactical = policy_19(
        table,
        PlayoutParams {
            tactics: true,
            ..PlayoutParams::default()
        },
    );
    assert_eq!(
        times_chosen(&mut tactical, &board, Color::Black, "D4", &["E3", "D2"], 30),
        30
    );
    let mut plain = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    assert!(times_chosen(&mut plain, &board, Color::Black, "D4", &["E3", "D2"], 30) < 30);
}

#[test]
fn tactics_play_the_vital_point_of_a_small_eye_space() {
    // White E3 has closed a straight three (B3, C3, D3); Black kills at C3. A bent three
    // (B3, C3, C2) has its vital point at C3 too; a straight four (B3..E3 with the wall
    // moved) has none, and no vital point is forced there.
    let straight = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O O . .
        O . . . O . .
        O O O O O . .
        . . . . . . .";
    let bent = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O . . .
        O . . O . . .
        O O . O . . .
        . O O O . . .";
    let four = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O O O .
        O . . . . O .
        O O O O O O .
        . . . . . . .";
    let table = pattern::default_table();
    let mut tactical = policy_19(
        table,
        PlayoutParams {
            tactics: true,
            ..PlayoutParams::default()
        },
    );
    let straight = Board::from_diagram(straight).unwrap();
    assert_eq!(
        times_chosen(&mut tactical, &straight, Color::Black, "E3", &["C3"], 30),
        30
    );
    let bent = Board::from_diagram(bent).unwrap();
    assert_eq!(
        times_chosen(&mut tactical, &bent, Color::Black, "D3", &["C3"], 30),
        30
    );
    let four = Board::from_diagram(four).unwrap();
    assert!(times_chosen(&mut tactical, &four, Color::Black, "F3", &["C3", "D3"], 30) < 30);
    // Without the extra tactics the vital point is left to chance.
    let mut plain = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    assert!(times_chosen(&mut plain, &straight, Color::Black, "E3", &["C3"], 30) < 30);
}

#[test]
fn allocates_nothing_per_playout() {
    let table = pattern::default_table();
    table.playout_3x3_gammas();
    let start = Board::new(19).unwrap();
    let mut board = start.clone();
    let mut policy = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            ..PlayoutParams::default()
        },
    );
    let mut rng = playout_rng(5, 0);
    let cap = default_move_cap(19);
    // Warm up, then count.
    run_playout(
        &mut board,
        Color::Black,
        &mut policy,
        &mut rng,
        cap,
        &mut (),
    );
    let mut moves = 0;
    let allocations = allocation_counter::measure(|| {
        for _ in 0..20 {
            board.copy_from(&start);
            policy.start(Recent::default());
            moves += run_playout(
                &mut board,
                Color::Black,
                &mut policy,
                &mut rng,
                cap,
                &mut (),
            )
            .moves;
        }
    })
    .count_total;
    assert!(moves > 20 * 300);
    assert_eq!(allocations, 0);
    // The counter does see allocations.
    let seen = allocation_counter::measure(|| {
        std::hint::black_box(vec![1u8; 10]);
    })
    .count_total;
    assert!(seen > 0);
}
