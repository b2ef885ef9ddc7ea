//! Feature extraction on hand-made diagrams: captures (and whether the captured chain holds
//! the last move), atari escape, self-atari, atari given, distances, edge lines, pass.

use hane::board::{Board, Color, Point, Recent};
use hane::pattern::features::{Context, Group, edge_level, extract, move_distance};
use hane::tactics::liberties::{is_self_atari, liberties_after, liberties_capped};

fn at(board: &Board, vertex: &str) -> Point {
    board.geometry().parse_point(vertex).unwrap()
}

fn level(board: &Board, vertex: &str, ctx: &Context, group: Group) -> u8 {
    extract(board, Some(at(board, vertex)), ctx).levels[group.slot()]
}

fn ctx(color: Color, last: Option<Point>, second: Option<Point>) -> Context<'static> {
    Context::new(color, Recent::new(last, second))
}

// Columns A..G (no I on boards this small), rows 7 (top) .. 1 (bottom).
const CAPTURES: &str = "
    . . . . . . .
    . X O . . . .
    . X O X . . .
    . . X . . . .
    . . . . O O .
    . . . O X X O
    . . . . O . .";

#[test]
fn capture_levels() {
    let board = Board::from_diagram(CAPTURES).unwrap();
    // White C6-C5 has liberties C7 and D6.
    assert_eq!(liberties_capped(&board, at(&board, "C5"), 4), 2);
    // Black E2-F2 is in atari (liberty F1): white captures at F1.
    let last = at(&board, "G2");
    let white = ctx(Color::White, Some(last), None);
    assert!(board.in_atari(at(&board, "E2")));
    assert_eq!(level(&board, "F1", &white, Group::Capture), 1);
    // With the last move being black's E2 (part of the chain), the capture holds it.
    let white_after_e2 = ctx(Color::White, Some(at(&board, "E2")), None);
    assert_eq!(level(&board, "F1", &white_after_e2, Group::Capture), 2);
    // An empty point far away captures nothing.
    assert_eq!(level(&board, "F6", &white, Group::Capture), 0);
}

#[test]
fn capture_that_frees_an_own_chain_in_atari() {
    let board = Board::from_diagram(
        "
        . . . . .
        . . . . .
        . O X . .
        O X O . .
        X . X . .",
    )
    .unwrap();
    // Black B2 is in atari (liberty B1); white C2 is in atari (liberty D2) and touches it.
    assert_eq!(
        board.atari_liberty(at(&board, "B2")),
        Some(at(&board, "B1"))
    );
    assert_eq!(
        board.atari_liberty(at(&board, "C2")),
        Some(at(&board, "D2"))
    );
    let after_b3 = ctx(Color::Black, Some(at(&board, "B3")), None);
    assert_eq!(level(&board, "D2", &after_b3, Group::Capture), 3);
    // When C2 was the last move, capturing it is level 2 (takes the last move's chain).
    let after_c2 = ctx(Color::Black, Some(at(&board, "C2")), None);
    assert_eq!(level(&board, "D2", &after_c2, Group::Capture), 2);
    // Black B1 joins B2, A1 and C1 into one chain whose only liberty is D1: a self-atari
    // of four stones, not an escape.
    let after = liberties_after(&board, at(&board, "B1"), Color::Black);
    assert_eq!((after.liberties, after.chain_size), (1, 4));
    assert_eq!(level(&board, "B1", &after_b3, Group::Escape), 0);
    assert_eq!(level(&board, "B1", &after_b3, Group::SelfAtari), 2);
}

#[test]
fn escape_self_atari_and_atari_given() {
    let board = Board::from_diagram(
        "
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O X O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
    )
    .unwrap();
    // Black D4 has one liberty, D3; white's last move was E4.
    let d4 = at(&board, "D4");
    assert!(board.in_atari(d4));
    let last = at(&board, "E4");
    let black = ctx(Color::Black, Some(last), None);
    // Extending to D3 gives three liberties: an escape from the last move's atari.
    assert_eq!(level(&board, "D3", &black, Group::Escape), 2);
    assert_eq!(level(&board, "D3", &black, Group::SelfAtari), 0);
    // Without a last move next to the chain, the escape is level 1.
    let far = ctx(Color::Black, Some(at(&board, "A7")), None);
    assert_eq!(level(&board, "D3", &far, Group::Escape), 1);
    // White D3 captures the stone, which could have escaped there: level 4.
    let white = ctx(Color::White, None, None);
    assert_eq!(level(&board, "D3", &white, Group::Capture), 4);
    // White C6 touches no black chain: no atari.
    assert_eq!(level(&board, "C6", &white, Group::Atari), 0);

    let board = Board::from_diagram(
        "
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . . X O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
    )
    .unwrap();
    // Black D4 has two liberties (C4, D3): white C4 or D3 is an atari.
    let white = ctx(Color::White, None, None);
    assert_eq!(liberties_capped(&board, at(&board, "D4"), 8), 2);
    assert_eq!(level(&board, "C4", &white, Group::Atari), 1);
    assert_eq!(level(&board, "D3", &white, Group::Atari), 1);
    assert_eq!(level(&board, "B4", &white, Group::Atari), 0);

    // Self-atari of one stone: black A3 (between white A4 and B3) has only A2.
    let board = Board::from_diagram(
        "
        . O . . .
        O . O . .
        . O X . .
        . . X . .
        . . X . .",
    )
    .unwrap();
    let black = ctx(Color::Black, None, None);
    assert!(is_self_atari(&board, at(&board, "A3"), Color::Black, 1));
    assert!(
        !is_self_atari(&board, at(&board, "A3"), Color::Black, 3),
        "one stone is small"
    );
    assert_eq!(level(&board, "A3", &black, Group::SelfAtari), 1);
    // Black A2 has liberties A1 and B2 (A3 too): no self-atari.
    assert_eq!(level(&board, "A2", &black, Group::SelfAtari), 0);
    let board = Board::from_diagram(
        "
        . . . . .
        . . . . .
        O O . . .
        X X O . .
        . O . . .",
    )
    .unwrap();
    // Black A2-B2's only liberty is A1: white A1 captures two stones.
    let white = ctx(Color::White, None, None);
    assert_eq!(level(&board, "A1", &white, Group::Capture), 1);
    assert!(liberties_after(&board, at(&board, "A1"), Color::White).captures);
    let board = Board::from_diagram(
        "
        . . . . .
        . . . . .
        O O O . .
        X X . O .
        . O . . .",
    )
    .unwrap();
    // Black C2 joins A2-B2 and the chain keeps liberties A1 and C1: not a self-atari.
    // Black A1 leaves the three stones with the single liberty C2: a self-atari of 3.
    let black = ctx(Color::Black, None, None);
    let after = liberties_after(&board, at(&board, "A1"), Color::Black);
    assert_eq!(
        (after.liberties, after.chain_size, after.captures),
        (1, 3, false)
    );
    assert_eq!(level(&board, "A1", &black, Group::SelfAtari), 2);
    assert!(is_self_atari(&board, at(&board, "A1"), Color::Black, 3));
    let after = liberties_after(&board, at(&board, "C2"), Color::Black);
    assert_eq!(after.liberties, 2, "A1 and C1");
    assert_eq!(level(&board, "C2", &black, Group::SelfAtari), 0);
    // White C2 puts the two black stones in atari, and they cannot run (A1 would be
    // suicide): the atari captures them, as a working ladder does (level 3).
    assert_eq!(level(&board, "C2", &white, Group::Atari), 3);
}

#[test]
fn distances_edges_and_pass() {
    let board = Board::new(19).unwrap();
    let d4 = at(&board, "D4");
    let q16 = at(&board, "Q16");
    let c3 = at(&board, "C3");
    assert_eq!(move_distance(&board, d4, at(&board, "E5")), 3);
    assert_eq!(move_distance(&board, d4, at(&board, "D5")), 2);
    assert_eq!(move_distance(&board, d4, at(&board, "F5")), 5);
    let c = ctx(Color::Black, Some(d4), Some(q16));
    let f = extract(&board, Some(c3), &c);
    assert_eq!(f.levels[Group::DistLast.slot()], 3);
    assert_eq!(
        f.levels[Group::DistSecond.slot()],
        17,
        "far moves are capped"
    );
    // Edge level: C3 is on the third line both ways: 6 * 2 + 2 + 1.
    assert_eq!(edge_level(&board, c3), 15);
    assert_eq!(edge_level(&board, at(&board, "C4")), 6 * 2 + 3 + 1);
    assert_eq!(edge_level(&board, at(&board, "D3")), 6 * 2 + 3 + 1);
    assert_eq!(edge_level(&board, at(&board, "A1")), 1);
    assert_eq!(edge_level(&board, at(&board, "K10")), 6 * 5 + 5 + 1);
    // No last move: no distance features.
    let none = ctx(Color::Black, None, None);
    let f = extract(&board, Some(c3), &none);
    assert_eq!(f.levels[Group::DistLast.slot()], 0);
    assert_eq!(f.levels[Group::DistSecond.slot()], 0);
    // Pass: level 1, or 2 right after a pass; nothing else but how full the board is.
    let f = extract(&board, None, &none);
    assert!(f.is_pass);
    assert_eq!(f.levels[Group::Pass.slot()], 1);
    assert_eq!(f.levels[Group::Stones.slot()], 1);
    assert_eq!(f.levels.iter().filter(|&&l| l != 0).count(), 2);
    let after_pass = Context {
        recent: Recent {
            last_was_pass: true,
            ..none.recent
        },
        ..none
    };
    assert_eq!(
        extract(&board, None, &after_pass).levels[Group::Pass.slot()],
        2
    );
    assert_eq!(
        extract(&board, Some(c3), &none).levels[Group::Pass.slot()],
        0
    );
}

/// The liberties group: `1 + own + 3 * joins + 6 * enemy` with `own` the move's chain's
/// liberties after it (1, 2, 3+ as 0..=2), `joins` whether it joins an own chain and
/// `enemy` the fewest liberties an adjacent enemy chain keeps (0: none; 1, 2, 3+).
#[test]
fn liberties_after_the_move() {
    let board = Board::from_diagram(
        "
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O X . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .",
    )
    .unwrap();
    let black = ctx(Color::Black, None, None);
    // A lone stone in the open: 4 liberties (3+), joins nothing, touches no enemy.
    assert_eq!(level(&board, "F6", &black, Group::Liberties), 1 + 2);
    // A7 in the corner: 2 liberties.
    assert_eq!(level(&board, "A7", &black, Group::Liberties), 1 + 1);
    // E4 joins D4-D3: many liberties; touches no enemy.
    assert_eq!(level(&board, "E4", &black, Group::Liberties), 1 + 2 + 3);
    // Black C3 joins D3 and touches white C4, which keeps 2 liberties (B4, C5).
    assert_eq!(liberties_capped(&board, at(&board, "C4"), 4), 3);
    assert_eq!(
        level(&board, "C3", &black, Group::Liberties),
        1 + 2 + 3 + 6 * 2
    );
    // Black B4 touches white C4 only: leaves it C5 and C3 (2), the stone itself has 3.
    assert_eq!(level(&board, "B4", &black, Group::Liberties), 1 + 2 + 6 * 2);
    // Black C5 has 2 liberties (B5, C6) and touches C4 and D5 (3 liberties each before):
    // each keeps 2.
    assert_eq!(level(&board, "C5", &black, Group::Liberties), 1 + 1 + 6 * 2);
    // A pass has none.
    assert_eq!(
        extract(&board, None, &black).levels[Group::Liberties.slot()],
        0
    );
}

/// The stones group: how full the board is, in eight steps of the share of its points
/// holding a stone (from 2%, 5.5%, 11%, 19%, 30%, 44% and 61%), the same for every
/// candidate and pass. Boards filled row by row with black stones (no captures), checked
/// against the shares computed here in floating point.
#[test]
fn the_stones_level_follows_the_share_of_occupied_points() {
    const STEPS: [f64; 7] = [0.02, 0.055, 0.11, 0.19, 0.30, 0.44, 0.61];
    for size in [9usize, 13, 19] {
        let points = size * size;
        let mut board = Board::new(size).unwrap();
        let none = ctx(Color::White, None, None);
        let mut seen = [false; 9];
        for n in 0..=(points * 2 / 3) {
            let share = n as f64 / points as f64;
            let want = 1 + STEPS.iter().filter(|&&t| share >= t).count() as u8;
            let pass = extract(&board, None, &none).levels[Group::Stones.slot()];
            assert_eq!(pass, want, "{size}x{size}, {n} stones");
            let empty = board
                .geometry()
                .points()
                .find(|&p| board.cell(p) == hane::board::Cell::Empty)
                .unwrap();
            let f = extract(&board, Some(empty), &none);
            assert_eq!(
                f.levels[Group::Stones.slot()],
                want,
                "{size}x{size}, {n} stones"
            );
            seen[want as usize] = true;
            board.play_unchecked(empty, Color::Black);
        }
        assert!(
            seen[1..].iter().all(|&s| s),
            "{size}x{size}: every level met"
        );
    }
}

#[test]
fn owner_levels_come_from_the_tally_in_the_context() {
    use hane::pattern::features::Ownership;
    let board = Board::new(9).unwrap();
    let g = board.geometry();
    let (a, b) = (at(&board, "C3"), at(&board, "G7"));
    // Ten playouts: C3 black's in all, G7 white's in three and black's in none.
    let mut tally = Ownership::new();
    for k in 0..10 {
        let mut owners = [None; hane::board::MAX_CELLS];
        owners[a.index()] = Some(Color::Black);
        if k < 3 {
            owners[b.index()] = Some(Color::White);
        }
        tally.add(g, &owners);
    }
    assert_eq!(tally.playouts(), 10);
    assert_eq!(tally.owned(Color::Black, a), 10);
    assert_eq!(tally.owned(Color::White, b), 3);
    // Level 1 + floor(8 * owned / (playouts + 1)).
    assert_eq!(tally.level(Color::Black, a), 8);
    assert_eq!(tally.level(Color::White, a), 1);
    assert_eq!(tally.level(Color::White, b), 3);
    assert_eq!(tally.level(Color::Black, b), 1);
    let with = Context {
        owner: Some(&tally),
        ..ctx(Color::White, None, None)
    };
    assert_eq!(level(&board, "G7", &with, Group::Owner), 3);
    // No tally, no level; an empty tally, no level either.
    assert_eq!(
        level(&board, "G7", &ctx(Color::White, None, None), Group::Owner),
        0
    );
    assert_eq!(Ownership::new().level(Color::Black, a), 0);
}
