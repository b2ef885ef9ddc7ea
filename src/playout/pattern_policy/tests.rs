//! Tests of the module `pattern_policy`.

use super::*;
use crate::playout::playout_rng;
use crate::settings::Auto;

/// The policy of `params` on 19x19.
fn policy_19(table: &PatternTable, params: PlayoutParams) -> PatternPolicy<'_> {
    PatternPolicy::configured(table, &params, Geometry::new(19).unwrap())
}

/// The rejection sampler of the shape moves draws each empty neighbour of the last move
/// (and "none") with the probability its exact gamma gives, in positions where the
/// gamma bounds it starts from are loose: each frequency over 40,000 draws lies
/// within five standard deviations of the exact probability. At a temperature T the
/// exact weight is the learned gamma raised to 1 / T, computed here from the learned
/// table, not from the policy's tempered one.
#[test]
fn shape_draws_follow_the_exact_gammas() {
    let table = crate::pattern::default_table();
    let learned = table.playout_3x3_gammas().tempered(1.0);
    let mut rng = playout_rng(11, 0);
    for (temperature, reluctance, positions) in
        [(1.0_f32, 4.0_f32, 60), (0.25, 1.0, 20), (2.0, 8.0, 20)]
    {
        let policy = policy_19(
            table,
            PlayoutParams {
                shape_temperature: temperature,
                shape_reluctance: reluctance,
                ..PlayoutParams::default()
            },
        );
        let exponent = 1.0 / f64::from(temperature);
        let (tested, loose) = shape_draws_at(&policy, &learned, exponent, positions, &mut rng);
        assert_eq!(
            tested, positions,
            "temperature {temperature}: only {tested} positions with loose bounds ({loose} seen)"
        );
    }
}

/// A temperature near 0 keeps every tempered gamma finite and positive, and the draws
/// still end.
#[test]
fn a_temperature_near_zero_keeps_the_gammas_finite() {
    let table = crate::pattern::default_table();
    let cold = table.playout_3x3_gammas().tempered(1e-6);
    for raw in 0..(1 << 16) {
        let g = cold.gamma(raw);
        assert!(g.is_finite() && g > 0.0, "{raw}: {g}");
    }
    let policy = policy_19(
        table,
        PlayoutParams {
            shape_temperature: 1e-6,
            ..PlayoutParams::default()
        },
    );
    let mut rng = playout_rng(3, 0);
    let mut board = Board::new(9).unwrap();
    let mut color = Color::Black;
    let mut drawn = 0;
    for _ in 0..40 {
        let Some(p) =
            crate::playout::random_acceptable_move(&mut board, color, &mut rng, |_, _| true)
        else {
            break;
        };
        board.play_unchecked(p, color);
        color = color.opponent();
        for _ in 0..100 {
            drawn += usize::from(
                policy
                    .draw_shape_point(&board, color, p, &mut rng)
                    .is_some(),
            );
        }
    }
    assert!(drawn > 0, "no shape was ever drawn");
}

/// The body of [`shape_draws_follow_the_exact_gammas`] for one policy, whose shapes
/// should be drawn by the `learned` gammas raised to `exponent`: the positions tested
/// (at most `positions`) and those with loose bounds seen.
fn shape_draws_at(
    policy: &PatternPolicy,
    learned: &TemperedShapes,
    exponent: f64,
    positions: usize,
    rng: &mut PlayoutRng,
) -> (usize, usize) {
    let (mut tested, mut loose) = (0, 0);
    for size in [9, 13, 19] {
        let mut board = Board::new(size).unwrap();
        let mut color = Color::Black;
        for _ in 0..size * size {
            let Some(p) =
                crate::playout::random_acceptable_move(&mut board, color, rng, |_, _| true)
            else {
                break;
            };
            board.play_unchecked(p, color);
            color = color.opponent();
            // The exact distribution, every gamma read.
            let mut outcomes: Vec<(Option<Point>, f64)> = board
                .neighbours_holding(p, Cell::Empty)
                .map(|n| {
                    let q = Point::from_index(n);
                    let gamma = f64::from(learned.gamma(raw_code_3x3(&board, q, color)));
                    (Some(q), gamma.powf(exponent))
                })
                .collect();
            let exact_sum: f64 = outcomes.iter().map(|&(_, g)| g).sum();
            let mut bound_sum = 0.0;
            for &(q, g) in &outcomes {
                let cells = cells_3x3(&board, q.unwrap(), color);
                let bound = f64::from(policy.gammas.gamma_bound(cells));
                assert!(
                    g <= bound * (1.0 + 1e-5),
                    "{q:?}: gamma {g} above its bound {bound}"
                );
                bound_sum += bound;
            }
            if outcomes.len() < 2 || bound_sum < exact_sum * 1.05 {
                continue;
            }
            loose += 1;
            let reluctance = f64::from(policy.params.shape_reluctance);
            outcomes.push((None, reluctance));
            let total = exact_sum + reluctance;
            let draws = 40_000;
            let mut counts = vec![0usize; outcomes.len()];
            for _ in 0..draws {
                let drawn = policy.draw_shape_point(&board, color, p, rng);
                let k = outcomes.iter().position(|&(q, _)| q == drawn).unwrap();
                counts[k] += 1;
            }
            for (&(q, w), &c) in outcomes.iter().zip(&counts) {
                let expected = w / total;
                let seen = c as f64 / draws as f64;
                let sigma = (expected * (1.0 - expected) / draws as f64).sqrt();
                assert!(
                    (seen - expected).abs() <= 5.0 * sigma + 1e-4,
                    "{q:?}: drawn {seen:.4}, exact {expected:.4} (last {p:?}) on\n{}",
                    board.to_diagram()
                );
            }
            tested += 1;
            if tested == positions {
                return (tested, loose);
            }
        }
    }
    (tested, loose)
}

/// A chain that our previous move left in atari, far from the opponent's last move, is
/// captured when the policy captures anywhere (shapes next to the last move turned off
/// by a huge reluctance), and only then; once the chain is out of atari the watch
/// forgets it.
#[test]
fn a_chain_left_in_atari_is_captured_anywhere() {
    let board = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . O .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . X . . . . . .
         . X O O X . . . .
         . . X X . . . . .",
    )
    .unwrap();
    let g = board.geometry();
    let at = |name: &str| g.parse_point(name).unwrap();
    let (own_last, last, capture) = (at("C3"), at("H7"), at("D3"));
    let table = crate::pattern::default_table();
    let mut rng = playout_rng(3, 0);
    let mut captured = [0; 2];
    for (k, global) in [false, true].into_iter().enumerate() {
        let mut policy = policy_19(
            table,
            PlayoutParams {
                tactics: true,
                shape_reluctance: 1e30,
                captures: global,
                ..PlayoutParams::default()
            },
        );
        for _ in 0..50 {
            let mut b = board.clone();
            policy.start(Recent::new(Some(last), Some(own_last)));
            captured[k] +=
                (policy.choose(&mut b, Color::Black, &mut rng) == Some(capture)) as usize;
        }
    }
    assert!(
        captured[0] < 10,
        "random moves hit the capture {} times",
        captured[0]
    );
    assert_eq!(captured[1], 50);
    // White escapes: the chain has two liberties and the watch drops it.
    let mut escaped = board.clone();
    escaped.play_unchecked(capture, Color::White);
    let mut policy = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            shape_reluctance: 1e30,
            captures: true,
            ..PlayoutParams::default()
        },
    );
    policy.start(Recent::new(Some(last), Some(own_last)));
    policy.watch.push(at("C2").index() as u16);
    assert_eq!(policy.watch.capture(&escaped, Color::Black), None);
    assert_eq!(policy.watch.len, 0);
}

/// Under the rule `never` a random move never leaves its own chain, of any size, in
/// atari without capturing, on positions where the plain random move does so; a drawn
/// self-atari is sometimes replaced by its last liberty. Under `useful` it does so only
/// with a self-atari that works.
#[test]
fn the_self_atari_rules_keep_small_chains_out_of_atari() {
    let mut rng = playout_rng(5, 0);
    let (mut plain_self_ataris, mut replaced, mut draws) = (0, 0, 0);
    let (mut useful_draws, mut kept) = (0, 0);
    for seed in 0..40 {
        // A crowded position: a seeded light game of 50 moves on 9x9.
        let mut board = Board::new(9).unwrap();
        let mut game_rng = playout_rng(seed, 7);
        let mut color = Color::Black;
        for _ in 0..50 {
            if let Some(p) = random_acceptable_move(&mut board, color, &mut game_rng, |_, _| true) {
                board.play_unchecked(p, color);
            }
            color = color.opponent();
        }
        for _ in 0..20 {
            let mut b = board.clone();
            if let Some(p) = random_acceptable_move(&mut b, color, &mut rng, |b, p| {
                !is_self_atari(b, p, color, BIG_CHAIN)
            }) && is_self_atari(&board, p, color, 1)
            {
                plain_self_ataris += 1;
            }
            let mut b = board.clone();
            let self_ataris: Vec<Point> = board
                .empty_points()
                .iter()
                .map(|&i| Point::from_index(i as usize))
                .filter(|&p| board.is_legal_non_eye(p, color) && is_self_atari(&board, p, color, 1))
                .collect();
            if let Some(p) = random_move_without_self_atari(&mut b, color, &mut rng, false) {
                draws += 1;
                assert!(
                    board.is_legal_non_eye(p, color) && !is_self_atari(&board, p, color, 1),
                    "{p:?} for {color:?} on\n{}",
                    board.to_diagram()
                );
                replaced += self_ataris
                    .iter()
                    .any(|&q| last_liberty_after(&board, q, color) == Some(p))
                    as usize;
            }
            // Under the rule `useful`, a self-atari is played only where it works.
            let mut b = board.clone();
            if let Some(p) = random_move_without_self_atari(&mut b, color, &mut rng, true) {
                useful_draws += 1;
                if is_self_atari(&board, p, color, 1) {
                    assert!(
                        !is_self_atari(&board, p, color, BIG_CHAIN)
                            && self_atari_works(&board, p, color),
                        "{p:?} for {color:?} on\n{}",
                        board.to_diagram()
                    );
                    kept += 1;
                }
            }
        }
    }
    assert!(
        plain_self_ataris > 0,
        "the positions hold no small self-atari"
    );
    assert!(draws > 700, "{draws} moves");
    assert!(replaced > 0, "no self-atari was replaced by its liberty");
    assert!(
        useful_draws > 700,
        "{useful_draws} moves under the rule useful"
    );
    eprintln!("useful self-ataris kept: {kept} of {useful_draws} moves");
}

/// A group that only looks like a seki dies in the playouts that play nakade sacrifices
/// and lives in those that do not. White's ten stones in the upper right have two
/// liberties, F9 and H8, both shared with black's G9-G8: black F9 or H8 throws in a bent
/// three, white captures, and black's stone on the bent three's middle leaves white one
/// eye (GNU Go's owl reads the group dead too). Black to move, 200 playouts each.
#[test]
fn nakade_sacrifices_kill_a_false_seki_in_the_playouts() {
    let board = Board::from_diagram(
        ". . . X O . X O O
         . . . X O O X . O
         . . . X X O O O O
         . . . . X X X X X
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    )
    .unwrap();
    let group = board.geometry().parse_point("E8").unwrap();
    let table = crate::pattern::default_table();
    let mut lived = [0; 2];
    for (k, sacrifices) in [false, true].into_iter().enumerate() {
        let params = PlayoutParams {
            nakade_sacrifice: sacrifices,
            ..PlayoutParams::default()
        };
        let mut policy = PatternPolicy::configured(table, &params, board.geometry());
        let mut rng = playout_rng(17, 0);
        for _ in 0..200 {
            let mut b = board.clone();
            policy.start(Recent::default());
            crate::playout::run_playout(&mut b, Color::Black, &mut policy, &mut rng, 1000, &mut ());
            lived[k] += usize::from(b.cell(group) == Cell::White);
        }
    }
    assert!(
        lived[0] >= 150,
        "without sacrifices white lived in {} of 200",
        lived[0]
    );
    assert!(
        lived[1] <= 50,
        "with sacrifices white lived in {} of 200",
        lived[1]
    );
    eprintln!(
        "white lived in {} of 200 playouts without sacrifices, {} with",
        lived[0], lived[1]
    );
}

/// With two-liberty ataris the policy ataris a chain the last move left with two
/// liberties and no way to run (both escapes keep two liberties), and leaves one that
/// can run alone.
#[test]
fn a_two_liberty_chain_that_cannot_run_is_put_in_atari() {
    let trapped = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . X X . . .
         . . . X O . . . .
         . . . X . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    )
    .unwrap();
    let open = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . X . . . .
         . . . X O . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    )
    .unwrap();
    let g = trapped.geometry();
    let at = |name: &str| g.parse_point(name).unwrap();
    let last = at("E5");
    let ataris = [at("E4"), at("F5")];
    let table = crate::pattern::default_table();
    let mut rng = playout_rng(9, 0);
    for (board, on, expected) in [
        (&trapped, true, true),
        (&trapped, false, false),
        (&open, true, false),
    ] {
        let mut policy = policy_19(
            table,
            PlayoutParams {
                two_liberty_ataris: on,
                ..PlayoutParams::default()
            },
        );
        let (hits, answers) = black_answers(&mut policy, board, last, &ataris, &mut rng);
        assert_eq!(hits == 30, expected, "on={on}: {hits} ataris of 30");
        if !on || !expected {
            assert_eq!(answers, 0, "on={on}\n{}", board.to_diagram());
        }
    }
}

/// Black's answers to white's `last` on `board` over 30 fresh starts of `policy`: how
/// many were among `wanted`, and how many answered at all.
fn black_answers(
    policy: &mut PatternPolicy,
    board: &Board,
    last: Point,
    wanted: &[Point],
    rng: &mut PlayoutRng,
) -> (usize, usize) {
    let (mut hits, mut answers) = (0, 0);
    for _ in 0..30 {
        policy.start(Recent::new(Some(last), None));
        let answer = policy.answer_last_move(board, Color::Black, last, rng);
        hits += answer.is_some_and(|p| wanted.contains(&p)) as usize;
        answers += answer.is_some() as usize;
    }
    (hits, answers)
}

/// White's last move (D2) left black's corner chain with four liberties (A4, B4, C4,
/// B1); the white chain A2-B2 beside it has two. Black's atari at B1 keeps its stones
/// connected, and white's extension at A1 would get no liberty: the race atari plays it.
/// With a fifth black liberty (no white D3) the chain is not short of liberties and
/// nothing is found.
#[test]
fn a_race_the_own_chain_leads_is_won_by_an_atari() {
    let race = |d3: char| {
        Board::from_diagram(&format!(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             X X X {d3} . . . . .
             O O X O . . . . .
             . . X O . . . . ."
        ))
        .unwrap()
    };
    let short = race('O');
    let roomy = race('.');
    let g = short.geometry();
    let at = |name: &str| g.parse_point(name).unwrap();
    let last = at("D2");
    let table = crate::pattern::default_table();
    let mut rng = playout_rng(9, 0);
    for (board, on, expected) in [
        (&short, true, true),
        (&short, false, false),
        (&roomy, true, false),
    ] {
        let mut policy = policy_19(
            table,
            PlayoutParams {
                race_ataris: Auto::Value(on),
                ..PlayoutParams::default()
            },
        );
        let (hits, _) = black_answers(&mut policy, board, last, &[at("B1")], &mut rng);
        assert_eq!(
            hits == 30,
            expected,
            "on={on}: {hits} of 30\n{}",
            board.to_diagram()
        );
        if !expected {
            assert_eq!(hits, 0, "on={on}");
        }
    }
}

/// The race ataris of one walk match a plain reading of their rule on every chain of
/// random 9x9 and 19x19 positions: count the chain's liberties on their own, and when
/// there are three or four, try both liberties of every enemy neighbour chain with two.
#[test]
fn race_ataris_match_a_plain_reading_of_the_rule() {
    use crate::board::{GameState, Rules};
    use crate::playout::play_random_moves;
    use crate::tactics::liberties::liberties_capped;
    let reference = |board: &Board, chain: Point, color: Color| {
        let mut found = Vec::new();
        if !(3..=4).contains(&liberties_capped(board, chain, 5)) {
            return found;
        }
        let enemy = color.opponent();
        let mut seen = Vec::new();
        for s in board.chain_stones(chain) {
            for n in board.geometry().neighbors(s) {
                let stone = Point::from_index(n);
                if !board.cell_at(n).is(enemy) || seen.contains(&board.chain_id(stone)) {
                    continue;
                }
                seen.push(board.chain_id(stone));
                if let Some((x, y)) = two_liberties(board, stone) {
                    for (m, other) in [(x, y), (y, x)] {
                        if liberties_after(board, m, color).liberties >= 2
                            && escape_liberties(board, other, m, enemy) <= 2
                            && !found.contains(&m)
                        {
                            found.push(m);
                        }
                    }
                }
            }
        }
        found
    };
    let (mut chains, mut with_ataris) = (0, 0);
    for (size, moves) in [(9, 20), (9, 45), (9, 70), (19, 120), (19, 250)] {
        for seed in 0..12 {
            let mut state = GameState::new(size, Rules::default()).unwrap();
            play_random_moves(&mut state, moves, &mut playout_rng(seed, size as u64));
            let board = state.board();
            for p in board.geometry().points() {
                let Some(color) = board.cell(p).color() else {
                    continue;
                };
                let mut found = Candidates::default();
                race_ataris(board, p, color, &mut found);
                let expected = reference(board, p, color);
                assert_eq!(
                    found.points[..found.len],
                    expected[..],
                    "{color:?} chain at {p:?}\n{}",
                    board.to_diagram()
                );
                chains += 1;
                with_ataris += !expected.is_empty() as usize;
            }
        }
    }
    assert!(
        with_ataris >= 20,
        "{with_ataris} of {chains} stones had race ataris"
    );
}

/// A ko white has just taken: black, barred from it, plays elsewhere; white answers
/// with `white_next`; the move black then chooses, with ko retakes at `probability`.
fn black_after_losing_a_ko(probability: f32, white_next: &str, seed: u64) -> (Point, Point) {
    let mut board = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . O X . . . .
         . . O X . X . . .
         . . . O X . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    )
    .unwrap();
    let g = board.geometry();
    let at = |name: &str| g.parse_point(name).unwrap();
    // White takes the ko at E5, capturing D5; black may not retake at D5 at once.
    let take = at("E5");
    board.play(take, Color::White).unwrap();
    let ko = at("D5");
    assert_eq!(board.ko(), Some((ko, Color::Black)));
    let table = crate::pattern::default_table();
    let mut policy = policy_19(
        table,
        PlayoutParams {
            ko_retakes: probability,
            ..PlayoutParams::default()
        },
    );
    let mut rng = playout_rng(seed, 0);
    policy.start(Recent::new(Some(take), None));
    let elsewhere = policy.choose(&mut board, Color::Black, &mut rng).unwrap();
    assert_ne!(elsewhere, ko);
    board.play(elsewhere, Color::Black).unwrap();
    let next = at(white_next);
    if board.cell(next) == Cell::Empty {
        board.play(next, Color::White).unwrap();
    }
    (
        policy.choose(&mut board, Color::Black, &mut rng).unwrap(),
        ko,
    )
}

/// With ko retakes, the side that lost a ko retakes it at its next turn when it still
/// captures, as often as the setting says; never when the ko was filled.
#[test]
fn a_lost_ko_is_retaken_at_the_set_rate() {
    for seed in 0..20 {
        let (chosen, ko) = black_after_losing_a_ko(1.0, "H8", seed);
        assert_eq!(chosen, ko, "seed {seed}");
        // White filled the ko (connected at D5): nothing to retake.
        let (chosen, ko) = black_after_losing_a_ko(1.0, "D5", seed);
        assert_ne!(chosen, ko, "seed {seed}");
    }
    let retakes = |probability: f32| {
        (0..400)
            .filter(|&seed| {
                let (chosen, ko) = black_after_losing_a_ko(probability, "H8", seed);
                chosen == ko
            })
            .count()
    };
    // Off, the retake comes only from a random move now and then.
    assert!(retakes(0.0) < 40, "{}", retakes(0.0));
    let half = retakes(0.5);
    assert!((160..=240).contains(&half), "{half} retakes of 400 at 0.5");
}

/// The fill-the-board step plays only points whose eight neighbours are empty, finds
/// one on a wide open board nearly always with a few tries, and finds none where every
/// empty point has a stone next to it.
#[test]
fn fill_board_plays_only_in_empty_areas() {
    let mut rng = playout_rng(11, 0);
    let mut board = Board::new(19).unwrap();
    let g = board.geometry();
    // Stones on a third of the board's points, in the lower rows only.
    for row in 0..9 {
        for col in 0..19 {
            if (row + col) % 3 == 0 {
                board.play_unchecked(g.point(col, row).unwrap(), Color::Black);
            }
        }
    }
    let open = |b: &Board, p: Point| {
        b.cell(p) == Cell::Empty
            && g.neighbors(p)
                .into_iter()
                .chain(g.diagonals(p))
                .all(|n| b.cell_at(n) == Cell::Empty)
    };
    let mut found = 0;
    for _ in 0..400 {
        if let Some(p) = open_area_point(&board, &mut rng, 4) {
            assert!(open(&board, p), "{p:?} is not in an empty 3x3 area");
            found += 1;
        }
    }
    // About half the empty points are open here: four tries find one 15 times in 16.
    assert!(found > 330, "found an open point only {found} times in 400");
    // A board where every empty point touches a stone: nothing to find.
    let mut crowded = Board::new(9).unwrap();
    for row in (0..9).step_by(2) {
        for col in (0..9).step_by(2) {
            crowded.play_unchecked(crowded.geometry().point(col, row).unwrap(), Color::White);
        }
    }
    for _ in 0..100 {
        assert_eq!(open_area_point(&crowded, &mut rng, 64), None);
    }
    // Through the policy: with no last move on an empty board, its moves are in open
    // areas when the step is on.
    let table = crate::pattern::default_table();
    let empty = Board::new(19).unwrap();
    let mut with_step = policy_19(
        table,
        PlayoutParams {
            tactics: false,
            fill_board: 4,
            ..PlayoutParams::default()
        },
    );
    for _ in 0..50 {
        let mut b = empty.clone();
        with_step.start(Recent::default());
        let p = with_step.choose(&mut b, Color::Black, &mut rng).unwrap();
        assert!(open(&empty, p), "{p:?} is not in an empty 3x3 area");
    }
}

/// A reply learnt from a won sequence is what the policy plays next time the same two
/// moves come (no tactics around), and the two-move reply comes before the one-move one.
#[test]
fn the_policy_plays_a_learnt_reply() {
    let table = crate::pattern::default_table();
    let params = PlayoutParams {
        tactics: false,
        replies: true,
        race_ataris: Auto::Value(false),
        ..PlayoutParams::default()
    };
    let mut board = Board::new(9).unwrap();
    let mut policy = PatternPolicy::configured(table, &params, board.geometry());
    let g = board.geometry();
    let at = |c, r| g.point(c, r).unwrap();
    let (black_move, white_move) = (at(2, 2), at(6, 6));
    board.play_unchecked(black_move, Color::Black);
    board.play_unchecked(white_move, Color::White);
    let (two, one) = (at(4, 4), at(0, 8));
    let replies = policy.replies().unwrap();
    let index = |p: Point| p.index() as u16;
    // White replied `one` to black's `black_move` (after some other move) and won.
    replies.begin(index(at(8, 0)), index(black_move), Color::Black);
    replies.push(index(one));
    replies.learn(Some(Color::White));
    // Black replied `two` to `black_move`, `white_move` and won; then `one` to
    // `white_move` alone, in a playout that black also won.
    replies.begin(index(black_move), index(white_move), Color::Black);
    replies.push(index(two));
    replies.learn(Some(Color::Black));
    replies.begin(index(at(8, 8)), index(white_move), Color::Black);
    replies.push(index(one));
    replies.learn(Some(Color::Black));
    let mut rng = playout_rng(1, 0);
    for _ in 0..20 {
        policy.start(Recent::new(Some(white_move), Some(black_move)));
        assert_eq!(policy.choose(&mut board, Color::Black, &mut rng), Some(two));
    }
    // With `two` taken, the one-move reply.
    board.play_unchecked(two, Color::White);
    policy.start(Recent::new(Some(white_move), Some(black_move)));
    assert_eq!(policy.choose(&mut board, Color::Black, &mut rng), Some(one));
}
