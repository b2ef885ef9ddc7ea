//! Tests of the module `reader`.

use super::*;
use crate::tactics::testing::{answer, board, board_after, expect, point};

/// `attack` on a fresh reader; a capture must be proved (exact).
fn attack(diagram: &str, vertex: &str) -> String {
    let b = board(diagram);
    let r = Reader::new().attack(&b, point(&b, vertex));
    assert!(r.exact || r.verdict != Verdict::Works, "{r:?}");
    answer(&b, r)
}

fn defend(diagram: &str, vertex: &str) -> String {
    let b = board(diagram);
    answer(&b, Reader::new().defend(&b, point(&b, vertex)))
}

// Every expected answer below is GNU Go 3.8's too (`attack`/`defend` after the stones
// were played in, `--chinese-rules`), unless a comment says otherwise.

/// A ladder in the middle of 13x13: after black G6 or H7, white runs into the edge.
const LADDER: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . X . . . . . .
    . . . . . X O . . . . . .
    . . . . . . . X . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .";

/// The same ladder with a breaker on each of its paths (K10 and D4).
const BROKEN_LADDER: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . O . . .
    . . . . . . . . . . . . .
    . . . . . . X . . . . . .
    . . . . . X O . . . . . .
    . . . . . . . X . . . . .
    . . . . . . . . . . . . .
    . . . O . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .";

#[test]
fn a_ladder_without_a_breaker_works() {
    expect(attack(LADDER, "G7"), 1, &["G6", "H7"]);
    expect(defend(LADDER, "G7"), 1, &["G6", "H7"]);
}

#[test]
fn a_ladder_with_breakers_fails() {
    expect(attack(BROKEN_LADDER, "G7"), 0, &[]);
    expect(defend(BROKEN_LADDER, "G7"), 1, &["PASS"]);
}

/// A capture that needs a preparation (hane's loss to Pachi, time odds game 5, move
/// 43): black's D4 chain has two liberties, F1 and G2, but white's F1 is a self-atari
/// (E1 has two liberties) and its G2 too; white first shores up E1 at D1 or takes a
/// liberty from the black stones the escape at G2 would join (H1, H2). GNU Go answers
/// `1 D1` to `attack` and `1 H2` to `defend` (`0` to `attack` after H2 or J2).
const PREPARED_CAPTURE: &str = "
    . . . . . . . . .
    . . . . . X O O .
    . . . X X X X O .
    . X . X . X O O .
    . . O O X X X O .
    . . O X O O O O .
    . . O X X O X X .
    . O . O X X . . .
    . . O . O . X . .";

#[test]
fn a_capture_after_a_preparation_move() {
    expect(attack(PREPARED_CAPTURE, "D4"), 1, &["D1", "H1", "H2"]);
    // After white's D1 no defence is left; after black's H2 no attack works. (With
    // the default budget hane's `defend` answers G2, which GNU Go refutes at H1: four
    // liberties, a longer read than the budget allows; see the next test.)
    let after = |vertex: &str, color: Color| board_after(PREPARED_CAPTURE, vertex, color);
    let b = after("D1", Color::White);
    expect(
        answer(&b, Reader::new().defend(&b, point(&b, "D4"))),
        0,
        &[],
    );
    let b = after("H2", Color::Black);
    expect(
        answer(&b, Reader::new().attack(&b, point(&b, "D4"))),
        0,
        &[],
    );
}

/// A net (geta): the ataris on E6 and F5 run into the breaker at G7, F6 holds both.
const NET: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . O . .
    . . . X . . . . .
    . . . X O . . . .
    . . . . X X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn a_net_works_where_the_ladder_fails() {
    expect(attack(NET, "E5"), 1, &["F6"]);
    let b = board_after(NET, "F6", Color::Black);
    let r = Reader::new().defend(&b, point(&b, "E5"));
    assert_eq!(answer(&b, r), "0");
    assert!(r.exact);
}

/// A snapback: black C2 (or D2) is a self-atari, white's capture at the other point
/// leaves the chain in atari, and black takes ten stones.
const SNAPBACK: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X . . . .
    X O O O X . . . .
    X O . . O X . . .
    X O O O O X . . .";

#[test]
fn a_snapback_captures() {
    expect(attack(SNAPBACK, "B2"), 1, &["C2", "D2"]);
    expect(defend(SNAPBACK, "B2"), 0, &[]);
    // After the throw-in white must not take: its capture is met by the retake.
    let mut b = board_after(SNAPBACK, "C2", Color::Black);
    b.play(point(&b, "D2"), Color::White).unwrap();
    let r = Reader::new().attack(&b, point(&b, "B2"));
    assert_eq!(answer(&b, r), "1 C2");
}

/// A throw-in, from a random game: white J8 is a self-atari that puts black J7 in atari;
/// black's capture at J9 leaves J7-J8-J9-H8 short of liberties (white J6 works too).
const THROW_IN: &str = "
    . O . . X . . . .
    O . . X . O . X .
    . . O . . . . O X
    . . . . . . . O .
    . . O . X . X . .
    . O O . . X . X .
    O . . O . . X X X
    . O . . O . O . .
    X X X . . O . . X";

#[test]
fn a_throw_in_captures() {
    let b = board(THROW_IN);
    let j7 = point(&b, "J7");
    assert!(is_self_atari(&b, point(&b, "J8"), Color::White, 1));
    expect(attack(THROW_IN, "J7"), 1, &["J8", "J6"]);
    let mut after = b.clone();
    after.play(point(&b, "J8"), Color::White).unwrap();
    let r = Reader::new().defend(&after, j7);
    assert_eq!((r.verdict, r.exact), (Verdict::Fails, true), "{r:?}");
    after.play(point(&b, "J9"), Color::Black).unwrap();
    let r = Reader::new().attack(&after, j7);
    assert_eq!((r.verdict, r.exact), (Verdict::Works, true), "{r:?}");
}

#[test]
fn a_loose_ladder_on_the_edge_captures() {
    // Black B2 keeps white to two liberties without atari; white crawls to its death.
    let diagram = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X X . . . .
        . . O O X . . . .
        . . . . . . . . .";
    expect(attack(diagram, "C2"), 1, &["B2"]);
    expect(defend(diagram, "C2"), 1, &["B2", "B1", "C1", "D1"]);
}

#[test]
fn chains_with_three_or_more_liberties_in_the_open_are_safe() {
    let diagram = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . X O . . . . .
        . . . O X . . . .
        . . . . . . . . .";
    // D3-D2: C2, D1, E3... three liberties, nothing to catch them.
    expect(attack(diagram, "D3"), 0, &[]);
    expect(defend(diagram, "D3"), 1, &["PASS"]);
    // A lone stone with four liberties, and a stone of two: beyond the reader's reach.
    expect(attack(diagram, "E5"), 0, &[]);
    expect(defend(diagram, "E5"), 1, &["PASS"]);
}

/// White B2 can be taken by black C2, a ko capture; after it white needs a ko threat.
const KO: &str = "
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    X X O . . . .
    X O . O . . .
    X X O . . . .";

#[test]
fn a_ko_capture_gives_code_two_and_the_retake_code_three() {
    expect(attack(KO, "B2"), 2, &["C2"]);
    expect(defend(KO, "B2"), 1, &["C2"]);
    let b = board_after(KO, "C2", Color::Black);
    let mut reader = Reader::new();
    let r = reader.attack(&b, point(&b, "C2"));
    assert_eq!(answer(&b, r), "3 B2");
    // Black connects out by capturing C1.
    let r = reader.defend(&b, point(&b, "C2"));
    assert_eq!(answer(&b, r), "1 D1");
}

#[test]
fn a_chain_in_atari_is_captured_or_escapes() {
    // B2 in atari with only a self-atari extension: dead; extending from D4 escapes.
    expect(attack(SNAPBACK, "B2"), 1, &[]);
    let diagram = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . X O . . . . .
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .";
    expect(attack(diagram, "D4"), 1, &["E4"]);
    expect(defend(diagram, "D4"), 1, &["E4"]);
}

#[test]
fn empty_points_and_big_chains() {
    let b = board(LADDER);
    let mut reader = Reader::new();
    let empty = point(&b, "A1");
    assert_eq!(reader.attack(&b, empty).verdict, Verdict::Fails);
    assert_eq!(reader.defend(&b, empty).verdict, Verdict::Fails);
    let nodes = reader.stats().nodes;
    // A lone stone on an empty board: five liberties is safe without reading.
    let open = board(
        "
        . . . . .
        . . . . .
        . . X . .
        . . . . .
        . . . . .",
    );
    let r = reader.defend(&open, point(&open, "C3"));
    assert_eq!((r.verdict, r.point, r.exact), (Verdict::Works, None, true));
    assert!(reader.stats().nodes - nodes < 100);
}

/// [`PREPARED_CAPTURE`]: the default budget runs out on the defence of D4; the thorough
/// one proves H2 (GNU Go's answer), and after H2 the attack fails.
#[test]
fn a_thorough_read_proves_the_defence_the_default_budget_cannot() {
    let b = board(PREPARED_CAPTURE);
    let d4 = point(&b, "D4");
    let mut thorough = Reader::with_limits(ReaderLimits::THOROUGH, Reader::DEFAULT_TABLE_BITS);
    let attack = thorough.attack(&b, d4);
    assert!(attack.verdict.succeeds() && attack.exact, "{attack:?}");
    let defence = thorough.defend(&b, d4);
    assert!(defence.verdict.succeeds() && defence.exact, "{defence:?}");
    assert_eq!(answer(&b, defence), "1 H2");
    let mut after = b.clone();
    after.play(point(&b, "H2"), Color::Black).unwrap();
    let refuted = thorough.attack(&after, d4);
    assert!(!refuted.verdict.succeeds() && refuted.exact, "{refuted:?}");
    assert!(!Reader::new().defend(&b, d4).exact);
}

#[test]
fn the_table_answers_a_repeated_read() {
    let b = board(LADDER);
    let mut reader = Reader::new();
    let first = reader.attack(&b, point(&b, "G7"));
    let before = reader.stats();
    let second = reader.attack(&b, point(&b, "G7"));
    let after = reader.stats();
    assert_eq!(first, second);
    assert_eq!(
        after.nodes - before.nodes,
        1,
        "the root comes from the table"
    );
    assert_eq!(after.hits - before.hits, 1);
    reader.clear();
    assert_eq!(reader.attack(&b, point(&b, "G7")), first);
}
