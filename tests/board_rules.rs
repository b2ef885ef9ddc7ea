//! Data-driven rules cases written as ASCII diagrams: captures (middle, edge, corner,
//! several stones, several chains at once), snapback, simple ko, superko cycles (a triple
//! ko under simple, positional and situational rules), suicide (forbidden, and allowed under
//! Tromp-Taylor and New Zealand rules), undo round-trips, fixed handicap against the GTP
//! specification's table, and Tromp-Taylor area scoring with seki and dame.
//!
//! Every case is: a diagram in, moves with their expected verdicts (stones captured, or the
//! error), and the expected diagram out. A rejected move must leave everything unchanged.

mod common;

use common::{assert_diagram, color, diagram, gtp_move, normal_diagram, vertex};
use hane::board::{
    Board, Color, GameState, HandicapError, IllegalMove, KoRule, Rules, format_score,
};

/// The expected verdict of one move: `Ok(stones captured)` or the error.
type Verdict = Result<usize, IllegalMove>;

/// One rules case.
struct Case {
    name: &'static str,
    /// `None`: moves go to `Board::play` (board rules: simple ko, no suicide).
    /// `Some(rules)`: moves go to a `GameState` with these rules, black to move at the start.
    rules: Option<Rules>,
    before: &'static str,
    /// (colour, move, verdict)
    moves: &'static [(&'static str, &'static str, Verdict)],
    after: &'static str,
}

const SIMPLE_KO: Rules = Rules {
    ko: KoRule::Simple,
    suicide_allowed: false,
    komi: 7.5,
    handicap_compensation: hane::board::HandicapCompensation::None,
};

const SITUATIONAL: Rules = Rules {
    ko: KoRule::SituationalSuperko,
    suicide_allowed: false,
    komi: 7.5,
    handicap_compensation: hane::board::HandicapCompensation::None,
};

const POSITIONAL: Rules = Rules {
    ko: KoRule::PositionalSuperko,
    suicide_allowed: false,
    komi: 7.5,
    handicap_compensation: hane::board::HandicapCompensation::None,
};

/// Simple ko, suicide allowed: a single-stone suicide is then a legal no-op.
const SIMPLE_KO_SUICIDE: Rules = Rules {
    ko: KoRule::Simple,
    suicide_allowed: true,
    komi: 7.5,
    handicap_compensation: hane::board::HandicapCompensation::None,
};

/// Three independent kos on 9x9: black can take the first (C7) and third (H3), white the
/// second (C3).
const TRIPLE_KO: &str = "
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . O X . . . X O .
    O X . X . X O . O
    . O X . . . X O .
    . . . . . . . . .";

/// The seki position used by the scoring and suicide cases: the black chain B5-A4-B4-C4 and
/// the white chain D5-D4-E4 have one eye each (A5, E5) and share the liberty C5.
const SEKI: &str = "
    . X . O .
    X X X O O
    O O O X X
    . . O X .
    . . O X .";

const CASES: &[Case] = &[
    Case {
        name: "capture in the middle",
        rules: None,
        before: "
            . . . . .
            . . X . .
            . X O X .
            . . . . .
            . . . . .",
        moves: &[("B", "C2", Ok(1))],
        after: "
            . . . . .
            . . X . .
            . X . X .
            . . X . .
            . . . . .",
    },
    Case {
        name: "capture on the edge",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            . X O X .",
        moves: &[("B", "C2", Ok(1))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            . . X . .
            . X . X .",
    },
    Case {
        name: "capture in the corner",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            O X . . .",
        moves: &[("B", "A2", Ok(1))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            X . . . .
            . X . . .",
    },
    Case {
        name: "white captures in the top-right corner",
        rules: None,
        before: "
            . . . . X
            . . . . O
            . . . . .
            . . . . .
            . . . . .",
        moves: &[("W", "D5", Ok(1))],
        after: "
            . . . O .
            . . . . O
            . . . . .
            . . . . .
            . . . . .",
    },
    Case {
        name: "two-stone capture on the edge",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . . . . .
            . X . . .
            X O O X .",
        moves: &[("B", "C2", Ok(2))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            . X X . .
            X . . X .",
    },
    Case {
        name: "large chain captured",
        rules: None,
        before: "
            . X X X .
            X O O O X
            X O . O X
            X O O O X
            . X X X .",
        moves: &[("B", "C3", Ok(8))],
        after: "
            . X X X .
            X . . . X
            X . X . X
            X . . . X
            . X X X .",
    },
    Case {
        name: "three chains captured at once",
        rules: None,
        before: "
            . . X . .
            . X O X .
            X O . O X
            . X . X .
            . . . . .",
        moves: &[("B", "C3", Ok(3))],
        after: "
            . . X . .
            . X . X .
            X . X . X
            . X . X .
            . . . . .",
    },
    Case {
        name: "corner ko: a capture by a stone without liberties of its own",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . . . . .
            O X . . .
            . O X . .",
        moves: &[("B", "A1", Ok(1)), ("W", "B1", Err(IllegalMove::Ko))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            O X . . .
            X . X . .",
    },
    Case {
        name: "snapback",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . X X X .
            X O O O X
            X O . . X",
        // Black throws in at C1 (self-atari), white captures it at D1, and black retakes
        // five stones at C1: not a ko, because white's capturing stone joined a chain.
        moves: &[("B", "C1", Ok(0)), ("W", "D1", Ok(1)), ("B", "C1", Ok(5))],
        after: "
            . . . . .
            . . . . .
            . X X X .
            X . . . X
            X . X . X",
    },
    Case {
        name: "occupied point and off-board moves are rejected",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . . X . .
            . . . . .
            . . . . .",
        moves: &[
            ("B", "C3", Err(IllegalMove::Occupied)),
            ("W", "C3", Err(IllegalMove::Occupied)),
        ],
        after: "
            . . . . .
            . . . . .
            . . X . .
            . . . . .
            . . . . .",
    },
    Case {
        name: "simple ko: immediate retake illegal, legal after moves elsewhere",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . X O . .
            X O . O .
            . X O . .",
        moves: &[
            ("B", "C2", Ok(1)),
            ("W", "B2", Err(IllegalMove::Ko)),
            ("W", "E5", Ok(0)),
            ("B", "A5", Ok(0)),
            ("W", "B2", Ok(1)),
            ("B", "C2", Err(IllegalMove::Ko)),
        ],
        after: "
            X . . . O
            . . . . .
            . X O . .
            X O . O .
            . X O . .",
    },
    Case {
        name: "ko retake is only forbidden to the player whose stone was taken",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . X O . .
            X O . O .
            . X O . .",
        // After black takes at C2, black itself may still fill B2.
        moves: &[("B", "C2", Ok(1)), ("B", "B2", Ok(0))],
        after: "
            . . . . .
            . . . . .
            . X O . .
            X X X O .
            . X O . .",
    },
    Case {
        name: "simple ko under GameState: retake after a pass",
        rules: Some(SIMPLE_KO),
        before: "
            . . . . .
            . . . . .
            . X O . .
            X O . O .
            . X O . .",
        // A pass lifts the ko ban (GNU Go and the reference bot agree).
        moves: &[
            ("B", "C2", Ok(1)),
            ("W", "B2", Err(IllegalMove::Ko)),
            ("W", "pass", Ok(0)),
            ("B", "pass", Ok(0)),
            ("W", "B2", Ok(1)),
        ],
        after: "
            . . . . .
            . . . . .
            . X O . .
            X O . O .
            . X O . .",
    },
    Case {
        name: "triple ko: simple ko allows the cycle",
        rules: Some(SIMPLE_KO),
        before: TRIPLE_KO,
        moves: &[
            ("B", "C7", Ok(1)),
            ("W", "C3", Ok(1)),
            ("B", "H3", Ok(1)),
            ("W", "B7", Ok(1)),
            ("B", "B3", Ok(1)),
            ("W", "G3", Ok(1)),
            // and round again
            ("B", "C7", Ok(1)),
        ],
        after: "
            . . . . . . . . .
            . X O . . . . . .
            X . X O . . . . .
            . X O . . . . . .
            . . . . . . . . .
            . O X . . . X O .
            O X . X . X O . O
            . O X . . . X O .
            . . . . . . . . .",
    },
    Case {
        name: "triple ko: positional superko forbids recreating the start",
        rules: Some(POSITIONAL),
        before: TRIPLE_KO,
        moves: &[
            ("B", "C7", Ok(1)),
            ("W", "C3", Ok(1)),
            ("B", "H3", Ok(1)),
            ("W", "B7", Ok(1)),
            ("B", "B3", Ok(1)),
            ("W", "G3", Err(IllegalMove::Superko)),
        ],
        after: "
            . . . . . . . . .
            . X O . . . . . .
            X O . O . . . . .
            . X O . . . . . .
            . . . . . . . . .
            . O X . . . X O .
            O X . X . X . X O
            . O X . . . X O .
            . . . . . . . . .",
    },
    Case {
        name: "triple ko: situational superko forbids it too (same player to move)",
        rules: Some(SITUATIONAL),
        before: TRIPLE_KO,
        moves: &[
            ("B", "C7", Ok(1)),
            ("W", "C3", Ok(1)),
            ("B", "H3", Ok(1)),
            ("W", "B7", Ok(1)),
            ("B", "B3", Ok(1)),
            ("W", "G3", Err(IllegalMove::Superko)),
        ],
        after: "
            . . . . . . . . .
            . X O . . . . . .
            X O . O . . . . .
            . X O . . . . . .
            . . . . . . . . .
            . O X . . . X O .
            O X . X . X . X O
            . O X . . . X O .
            . . . . . . . . .",
    },
    Case {
        name: "triple ko with a pass: positional superko forbids the repeat",
        rules: Some(POSITIONAL),
        before: TRIPLE_KO,
        // Black's pass makes the start position come back with white to move.
        moves: &[
            ("B", "C7", Ok(1)),
            ("W", "C3", Ok(1)),
            ("B", "H3", Ok(1)),
            ("W", "B7", Ok(1)),
            ("B", "pass", Ok(0)),
            ("W", "G3", Ok(1)),
            ("B", "B3", Err(IllegalMove::Superko)),
        ],
        after: "
            . . . . . . . . .
            . X O . . . . . .
            X O . O . . . . .
            . X O . . . . . .
            . . . . . . . . .
            . O X . . . X O .
            O . O X . X O . O
            . O X . . . X O .
            . . . . . . . . .",
    },
    Case {
        name: "triple ko with a pass: situational superko allows it (other player to move)",
        rules: Some(SITUATIONAL),
        before: TRIPLE_KO,
        moves: &[
            ("B", "C7", Ok(1)),
            ("W", "C3", Ok(1)),
            ("B", "H3", Ok(1)),
            ("W", "B7", Ok(1)),
            ("B", "pass", Ok(0)),
            ("W", "G3", Ok(1)),
            ("B", "B3", Ok(1)),
        ],
        after: TRIPLE_KO,
    },
    Case {
        name: "single-stone suicide is illegal by default",
        rules: None,
        before: "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . O . . .",
        moves: &[("B", "A1", Err(IllegalMove::Suicide)), ("W", "A1", Ok(0))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            O O . . .",
    },
    Case {
        name: "multi-stone suicide is illegal by default",
        rules: Some(POSITIONAL),
        before: "
            . . . . .
            . . . . .
            . . . . .
            O O . . .
            X . O . .",
        moves: &[("B", "B1", Err(IllegalMove::Suicide))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            O O . . .
            X . O . .",
    },
    Case {
        name: "Tromp-Taylor: multi-stone suicide removes the own chain",
        rules: Some(Rules {
            ko: KoRule::PositionalSuperko,
            suicide_allowed: true,
            komi: 7.5,
            handicap_compensation: hane::board::HandicapCompensation::None,
        }),
        before: "
            . . . . .
            . . . . .
            . . . . .
            O O . . .
            X . O . .",
        moves: &[("B", "B1", Ok(0))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            O O . . .
            . . O . .",
    },
    Case {
        name: "Tromp-Taylor: single-stone suicide recreates the position, so superko forbids it",
        rules: Some(Rules {
            ko: KoRule::PositionalSuperko,
            suicide_allowed: true,
            komi: 7.5,
            handicap_compensation: hane::board::HandicapCompensation::None,
        }),
        before: "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . O . . .",
        moves: &[("B", "A1", Err(IllegalMove::Superko))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . O . . .",
    },
    Case {
        name: "suicide allowed with simple ko: single-stone suicide is a legal no-op",
        rules: Some(SIMPLE_KO_SUICIDE),
        before: "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . O . . .",
        moves: &[("B", "A1", Ok(0)), ("W", "C3", Ok(0))],
        after: "
            . . . . .
            . . . . .
            . . O . .
            O . . . .
            . O . . .",
    },
    Case {
        name: "New Zealand: single-stone suicide is legal (same position, other player)",
        rules: Some(Rules {
            ko: KoRule::SituationalSuperko,
            suicide_allowed: true,
            komi: 7.5,
            handicap_compensation: hane::board::HandicapCompensation::None,
        }),
        before: "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . O . . .",
        moves: &[("B", "A1", Ok(0))],
        after: "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . O . . .",
    },
    Case {
        name: "seki: self-atari on the shared liberty is legal, playing in the eye is suicide",
        rules: Some(POSITIONAL),
        before: SEKI,
        moves: &[
            ("W", "A5", Err(IllegalMove::Suicide)),
            ("B", "E5", Err(IllegalMove::Suicide)),
            ("B", "C5", Ok(0)),
            // white now captures the black chain through its eye
            ("W", "A5", Ok(5)),
        ],
        after: "
            O . . O .
            . . . O O
            O O O X X
            . . O X .
            . . O X .",
    },
];

/// Everything a rejected move must leave unchanged.
fn snapshot(board: &Board) -> (String, u64, Option<(hane::board::Point, Color)>, [u32; 2]) {
    (
        board.to_diagram(),
        board.hash(),
        board.ko(),
        [board.captures(Color::Black), board.captures(Color::White)],
    )
}

fn run_case(case: &Case) {
    let start = diagram(case.before);
    let size = start.size();
    assert_eq!(
        normal_diagram(&start.to_diagram()),
        normal_diagram(case.before),
        "{}: from_diagram/to_diagram round trip",
        case.name
    );
    start
        .check_consistency()
        .unwrap_or_else(|e| panic!("{}: start inconsistent: {e}", case.name));
    let mut board = start.clone();
    let mut game = case
        .rules
        .map(|rules| GameState::from_board(start.clone(), Color::Black, rules));
    for (k, &(who, mv, expected)) in case.moves.iter().enumerate() {
        let color = color(who);
        let context = format!("{} (move {}: {who} {mv})", case.name, k + 1);
        let current = game.as_ref().map_or(&board, |g| g.board()).clone();
        let before = snapshot(&current);
        let verdict: Verdict = match game.as_mut() {
            None => board.play(vertex(size, mv), color),
            Some(game) => {
                let captured_before = game.board().captures(color);
                let legal = game.is_legal(color, gtp_move(size, mv));
                let result = game.play(color, gtp_move(size, mv));
                assert_eq!(
                    legal,
                    result.is_ok(),
                    "{context}: is_legal disagrees with play"
                );
                result.map(|()| (game.board().captures(color) - captured_before) as usize)
            }
        };
        assert_eq!(verdict, expected, "{context}");
        let now = game.as_ref().map_or(&board, |g| g.board());
        if verdict.is_err() {
            assert_eq!(
                snapshot(now),
                before,
                "{context}: a rejected move changed the board"
            );
        }
        now.check_consistency()
            .unwrap_or_else(|e| panic!("{context}: inconsistent: {e}"));
    }
    let end = game.as_ref().map_or(&board, |g| g.board());
    assert_diagram(end, case.after, case.name);
}

#[test]
fn diagram_cases() {
    for case in CASES {
        run_case(case);
    }
    assert!(CASES.len() >= 20);
}

#[test]
fn capture_counts_accumulate() {
    let mut board = diagram(
        "
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        O X . . .",
    );
    assert_eq!(board.play(vertex(5, "C2"), Color::Black), Ok(1));
    assert_eq!(board.play(vertex(5, "A2"), Color::White), Ok(0));
    assert_eq!(board.play(vertex(5, "A3"), Color::Black), Ok(0));
    assert_eq!(board.play(vertex(5, "E5"), Color::White), Ok(0));
    assert_eq!(board.play(vertex(5, "B2"), Color::Black), Ok(2));
    assert_eq!(board.captures(Color::Black), 3);
    assert_eq!(board.captures(Color::White), 0);
    assert_eq!(board.stone_count(Color::Black), 7);
    assert_eq!(board.stone_count(Color::White), 1);
}

#[test]
fn ko_point_is_reported_and_cleared() {
    let mut board = diagram(
        "
        . . . . .
        . . . . .
        . X O . .
        X O . O .
        . X O . .",
    );
    assert_eq!(board.ko(), None);
    board.play(vertex(5, "C2"), Color::Black).unwrap();
    assert_eq!(board.ko(), Some((vertex(5, "B2"), Color::White)));
    assert!(board.is_ko_retake(vertex(5, "B2"), Color::White));
    assert!(!board.is_ko_retake(vertex(5, "B2"), Color::Black));
    board.pass();
    assert_eq!(board.ko(), None);
    // a capture of one stone by a stone that then has two liberties is no ko
    let mut board = diagram(
        "
        . . . . .
        . . . . .
        . X O . .
        X O . . .
        . X O . .",
    );
    assert_eq!(board.play(vertex(5, "C2"), Color::Black), Ok(1));
    assert_eq!(board.ko(), None);
}

#[test]
fn liberties_and_atari() {
    let board = diagram(
        "
        . . . . . . .
        . X X . . . .
        . X O O . . .
        . . X O . . .
        . . . X . . .
        O . . . . . .
        X . . . . . .",
    );
    let p = |v| vertex(7, v);
    assert_eq!(board.chain_len(p("B6")), 3);
    assert_eq!(board.liberty_count(p("B6")), 6);
    assert!(!board.in_atari(p("B6")));
    assert_eq!(board.chain_len(p("D4")), 3);
    assert_eq!(
        board.chain_liberties(p("C5")),
        vec![p("E4"), p("E5"), p("D6")]
    );
    assert_eq!(board.liberty_count(p("D5")), 3);
    assert_eq!(board.atari_liberty(p("C5")), None);
    assert!(board.in_atari(p("A1")));
    assert_eq!(board.atari_liberty(p("A1")), Some(p("B1")));
    assert_eq!(board.liberty_count(p("A1")), 1);
    assert_eq!(board.liberty_count(p("C4")), 2);
    let mut board = board;
    assert_eq!(board.play(p("B1"), Color::White), Ok(1));
    assert_eq!(board.cell(p("A1")), hane::board::Cell::Empty);
    assert_eq!(board.liberty_count(p("B1")), 3);
}

/// The GTP specification's fixed handicap table (section 4.1.1), as vertex sets; GNU Go 3.8
/// answers `fixed_handicap` with the same sets.
const HANDICAP_TABLE: &[(usize, usize, &str)] = &[
    (19, 2, "D4 Q16"),
    (19, 3, "D4 Q16 D16"),
    (19, 4, "D4 Q16 D16 Q4"),
    (19, 5, "D4 Q16 D16 Q4 K10"),
    (19, 6, "D4 Q16 D16 Q4 D10 Q10"),
    (19, 7, "D4 Q16 D16 Q4 D10 Q10 K10"),
    (19, 8, "D4 Q16 D16 Q4 D10 Q10 K4 K16"),
    (19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"),
    (13, 2, "D4 K10"),
    (13, 3, "D4 K10 D10"),
    (13, 4, "D4 K10 D10 K4"),
    (13, 5, "D4 K10 D10 K4 G7"),
    (13, 6, "D4 K10 D10 K4 D7 K7"),
    (13, 7, "D4 K10 D10 K4 D7 K7 G7"),
    (13, 8, "D4 K10 D10 K4 D7 K7 G4 G10"),
    (13, 9, "D4 K10 D10 K4 D7 K7 G4 G10 G7"),
    (9, 2, "C3 G7"),
    (9, 3, "C3 G7 C7"),
    (9, 4, "C3 G7 C7 G3"),
    (9, 5, "C3 G7 C7 G3 E5"),
    (9, 6, "C3 G7 C7 G3 C5 G5"),
    (9, 7, "C3 G7 C7 G3 C5 G5 E5"),
    (9, 8, "C3 G7 C7 G3 C5 G5 E3 E7"),
    (9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5"),
    (8, 4, "C3 F6 C6 F3"),
    (7, 4, "C3 E5 C5 E3"),
];

fn sorted_vertices(size: usize, text: &str) -> Vec<hane::board::Point> {
    let mut points: Vec<_> = text.split_whitespace().map(|v| vertex(size, v)).collect();
    points.sort_unstable();
    points
}

#[test]
fn fixed_handicap_matches_the_gtp_table() {
    for &(size, stones, expected) in HANDICAP_TABLE {
        let mut game = GameState::new(size, Rules::default()).unwrap();
        let mut placed = game
            .place_fixed_handicap(stones)
            .unwrap_or_else(|e| panic!("{size}x{size} handicap {stones}: {e}"));
        placed.sort_unstable();
        assert_eq!(
            placed,
            sorted_vertices(size, expected),
            "{size}x{size} handicap {stones}"
        );
        assert_eq!(game.handicap(), stones);
        assert_eq!(game.to_move(), Color::White, "white moves after handicap");
        assert_eq!(game.board().stone_count(Color::Black), stones);
        assert_eq!(game.board().stone_count(Color::White), 0);
        for p in placed {
            assert_eq!(game.board().cell(p), hane::board::Cell::Black);
        }
        // handicap stones are not moves: undo has nothing to take back
        assert!(!game.undo());
        assert_eq!(game.board().stone_count(Color::Black), stones);
    }
}

#[test]
fn fixed_handicap_errors() {
    let cases: &[(usize, usize)] = &[
        (19, 0),
        (19, 1),
        (19, 10),
        (13, 10),
        (9, 10),
        (8, 5),
        (7, 5),
        (6, 2),
        (5, 2),
        (2, 2),
        (25, 10),
        (24, 5),
    ];
    for &(size, stones) in cases {
        let mut game = GameState::new(size, Rules::default()).unwrap();
        assert_eq!(
            game.place_fixed_handicap(stones),
            Err(HandicapError::InvalidNumberOfStones),
            "{size}x{size} handicap {stones}"
        );
        assert!(game.board().is_empty(), "a failed handicap placed stones");
        assert_eq!(game.to_move(), Color::Black);
        assert_eq!(
            HandicapError::InvalidNumberOfStones.to_string(),
            "invalid number of stones"
        );
    }
    // board not empty: after a move, and after a first handicap
    let mut game = GameState::new(19, Rules::default()).unwrap();
    game.play(Color::Black, gtp_move(19, "K10")).unwrap();
    let before = game.board().to_diagram();
    assert_eq!(
        game.place_fixed_handicap(4),
        Err(HandicapError::BoardNotEmpty)
    );
    assert_eq!(HandicapError::BoardNotEmpty.to_string(), "board not empty");
    assert_eq!(game.board().to_diagram(), before);
    let mut game = GameState::new(19, Rules::default()).unwrap();
    game.place_fixed_handicap(2).unwrap();
    assert_eq!(
        game.place_fixed_handicap(3),
        Err(HandicapError::BoardNotEmpty)
    );
    assert_eq!(game.board().stone_count(Color::Black), 2);
    // the largest sizes with a centre: 25x25 takes nine stones, 24x24 four
    let mut game = GameState::new(25, Rules::default()).unwrap();
    let mut placed = game.place_fixed_handicap(9).unwrap();
    placed.sort_unstable();
    assert_eq!(
        placed,
        sorted_vertices(25, "D4 W22 D22 W4 D13 W13 N4 N22 N13")
    );
    let mut game = GameState::new(24, Rules::default()).unwrap();
    let mut placed = game.place_fixed_handicap(4).unwrap();
    placed.sort_unstable();
    assert_eq!(placed, sorted_vertices(24, "D4 V21 D21 V4"));
}

/// (diagram, Tromp-Taylor area score black minus white), computed by hand.
const SCORING_CASES: &[(&str, i32)] = &[
    (
        "
        . . .
        . . .
        . . .",
        0,
    ),
    (
        "
        . . .
        . X .
        . . .",
        9,
    ),
    (
        "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . O",
        -25,
    ),
    // a wall: black 5 stones + 10 points, white 5 stones + 5 points
    (
        "
        . . X O .
        . . X O .
        . . X O .
        . . X O .
        . . X O .",
        5,
    ),
    // a column of dame between the walls
    (
        "
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .",
        0,
    ),
    // seki: A5 black eye, E5 white eye, C5 shared (dame); A1-B2 white, E1-E2 black
    (SEKI, -2),
    // black 8 stones + the eye C3; the outer region touches the white stone: dame
    (
        "
        . . . . .
        . X X X .
        . X . X .
        . X X X .
        . . . . O",
        9 - 1,
    ),
    // enclosed territories with a dame point D3 between them
    (
        "
        . X . O . . .
        X X . O O O O
        . . X . O . .
        X X X . O O O
        . . X X X O .
        . . . . X O .
        . . . . X O .",
        // black: 12 stones + A7 + A5,B5 + A3,B3 + A1..D2 (8) = 25
        // white: 12 stones + E7,F7,G7 + F5,G5 + G3,G2,G1 = 20; C7,C6 and D5,D4 are dame
        25 - 20,
    ),
];

#[test]
fn area_scoring() {
    for &(text, expected) in SCORING_CASES {
        let board = diagram(text);
        assert_eq!(board.area_score(), expected, "area score of\n{text}");
        let owners = board.area_owners();
        let counted: i32 = board
            .geometry()
            .points()
            .map(|p| match owners[p.index()] {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            })
            .sum();
        assert_eq!(counted, expected, "area owners of\n{text}");
        let game = GameState::from_board(board, Color::Black, Rules::default());
        assert_eq!(game.score(), expected as f32 - 7.5);
    }
    let seki = GameState::from_board(diagram(SEKI), Color::Black, Rules::default());
    assert_eq!(format_score(seki.score()), "W+9.5");
    let owners = seki.board().area_owners();
    assert_eq!(owners[vertex(5, "A5").index()], Some(Color::Black));
    assert_eq!(
        owners[vertex(5, "C5").index()],
        None,
        "the shared liberty of a seki is dame"
    );
    assert_eq!(owners[vertex(5, "E5").index()], Some(Color::White));
    // removing the dead black stones D3 E3 D2 D1 gives their area to white
    let dead: Vec<_> = ["D3", "E3", "D2", "D1"]
        .iter()
        .map(|v| vertex(5, v))
        .collect();
    // black keeps B5 A4 B4 C4 + A5 (eye) = 5; white gets everything else except C5 (dame)
    // and A5: 25 - 5 - 1 = 19
    assert_eq!(seki.score_with_dead(&dead), (5 - 19) as f32 - 7.5);
    // handicap compensation under Chinese rules: one point per stone
    let mut game = GameState::new(9, Rules::chinese(0.5)).unwrap();
    game.place_fixed_handicap(4).unwrap();
    assert_eq!(game.score(), 81.0 - 0.5 - 4.0);
}

#[test]
fn undo_round_trips() {
    // A game with captures, a ko and a pass on 5x5, undone one move at a time.
    let moves = [
        ("B", "C3"),
        ("W", "B3"),
        ("B", "C2"),
        ("W", "B2"),
        ("B", "C4"),
        ("W", "B4"),
        ("B", "B1"),
        ("W", "A1"),
        ("B", "C1"),
        ("W", "pass"),
        ("B", "A2"), // captures nothing: A2 is... played to make a ko below
        ("W", "B5"),
        ("B", "C5"),
        ("W", "A3"),
        ("B", "D3"),
        ("W", "A2"),
    ];
    for rules in [Rules::default(), SIMPLE_KO, Rules::tromp_taylor(7.5)] {
        let mut game = GameState::new(5, rules).unwrap();
        let mut history = vec![(game.board().clone(), game.board().hash(), game.to_move(), 0)];
        for &(who, mv) in &moves {
            if game.play(color(who), gtp_move(5, mv)).is_ok() {
                history.push((
                    game.board().clone(),
                    game.board().hash(),
                    game.to_move(),
                    game.moves().len(),
                ));
            }
        }
        assert!(history.len() > 10, "the scripted game mostly plays");
        while let Some((board, hash, to_move, moves)) = history.pop() {
            assert_eq!(game.board(), &board);
            assert_eq!(game.board().to_diagram(), board.to_diagram());
            assert_eq!(game.board().hash(), hash);
            assert_eq!(game.to_move(), to_move);
            assert_eq!(game.moves().len(), moves);
            assert_eq!(
                game.board().captures(Color::Black),
                board.captures(Color::Black)
            );
            assert_eq!(
                game.board().captures(Color::White),
                board.captures(Color::White)
            );
            game.board().check_consistency().unwrap();
            assert_eq!(game.undo(), !history.is_empty());
        }
        assert!(game.board().is_empty());
        assert!(!game.undo());
    }
}

#[test]
fn undo_restores_ko_and_superko_state() {
    let start = diagram(TRIPLE_KO);
    let mut game = GameState::from_board(start, Color::Black, POSITIONAL);
    for (who, mv) in [
        ("B", "C7"),
        ("W", "C3"),
        ("B", "H3"),
        ("W", "B7"),
        ("B", "B3"),
    ] {
        game.play(color(who), gtp_move(9, mv)).unwrap();
    }
    assert_eq!(
        game.check_move(Color::White, gtp_move(9, "G3")),
        Err(IllegalMove::Superko)
    );
    // undo black's B3: now C3 is white's and the ko ban is on black at B3
    assert!(game.undo());
    assert_eq!(game.check_move(Color::Black, gtp_move(9, "B3")), Ok(()));
    assert_eq!(game.board().ko(), Some((vertex(9, "C7"), Color::Black)));
    assert_eq!(
        game.check_move(Color::Black, gtp_move(9, "C7")),
        Err(IllegalMove::Ko)
    );
    game.play(Color::Black, gtp_move(9, "B3")).unwrap();
    assert_eq!(
        game.check_move(Color::White, gtp_move(9, "G3")),
        Err(IllegalMove::Superko)
    );
    assert_eq!(game.board().ko(), Some((vertex(9, "C3"), Color::White)));
}

#[test]
fn diagram_errors_are_reported() {
    for bad in [
        "",
        ". .\n. .\n. .",
        ". . .\n. . .\n. .",
        ". . Z\n. . .\n. . .",
        "X O\nO .",
        ".",
        &(". ".repeat(26) + "\n").repeat(26),
    ] {
        assert!(
            Board::from_diagram(bad).is_err(),
            "accepted bad diagram {bad:?}"
        );
    }
    let board = Board::from_diagram("X O .\n. . .\n. . .").unwrap();
    assert_eq!(
        board.captures(Color::Black) + board.captures(Color::White),
        0
    );
    assert_eq!(board.ko(), None);
}

#[test]
fn off_board_points_are_rejected() {
    let mut game = GameState::new(5, Rules::default()).unwrap();
    let g = game.geometry();
    let big = hane::board::Geometry::new(19).unwrap();
    let outside = [
        hane::board::Point::from_index(0),
        hane::board::Point::from_index(g.stride()), // left border column of row 1
        hane::board::Point::from_index(g.cells() - 1),
        big.parse_point("T19").unwrap(),
    ];
    for p in outside {
        assert!(!g.contains_index(p.index()));
        assert_eq!(
            game.board().check_move(p, Color::Black),
            Err(IllegalMove::OffBoard)
        );
        assert_eq!(
            game.play(Color::Black, hane::board::Move::Play(p)),
            Err(IllegalMove::OffBoard)
        );
        let mut board = game.board().clone();
        assert_eq!(board.play(p, Color::White), Err(IllegalMove::OffBoard));
    }
    assert!(game.board().is_empty());
    assert!(game.moves().is_empty());
    assert_eq!(IllegalMove::OffBoard.to_string(), "vertex off the board");
}
