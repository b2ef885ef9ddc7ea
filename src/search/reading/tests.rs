//! Tests of the module `reading`.

use super::*;
use crate::board::Cell;

const WEIGHT: f32 = 10.0;

/// Every empty point of `board` and a pass.
fn every_move(board: &Board) -> Vec<Move> {
    let mut moves: Vec<Move> = board
        .geometry()
        .points()
        .filter(|&p| board.cell(p) == Cell::Empty)
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    moves
}

/// The reading settings of the tests: bonus `WEIGHT`, 5,000 nodes a read.
fn params() -> SearchParams {
    SearchParams {
        reading: WEIGHT,
        reading_nodes: 5_000,
        ..SearchParams::default()
    }
}

/// A fresh reader of the tests (see [`params`]).
fn reader() -> ExpansionReader {
    ExpansionReader::configured(&params()).unwrap()
}

/// Every empty point and a pass with the priors a fresh reader gives them for `color`
/// after `recent`, and what the reading cost.
fn read(board: &Board, color: Color, recent: Recent) -> (Vec<(Move, Prior)>, ReadingShare) {
    read_with(reader(), board, color, recent)
}

/// [`read`] with `reader`.
fn read_with(
    mut reader: ExpansionReader,
    board: &Board,
    color: Color,
    recent: Recent,
) -> (Vec<(Move, Prior)>, ReadingShare) {
    let moves = every_move(board);
    let mut out = vec![Prior::NONE; moves.len()];
    let query = PriorQuery::new(board, color, recent, &moves);
    reader.add_priors(&query, &mut out);
    (moves.into_iter().zip(out).collect(), reader.take_share())
}

/// The moves that got a prior for `color` with the last move at `last`, as GTP vertices
/// with their virtual visits and wins.
fn touched(board: &Board, color: Color, last: &str) -> Vec<(String, f32, f32)> {
    touched_with(reader(), board, color, last)
}

/// [`touched`] with `reader`.
fn touched_with(
    reader: ExpansionReader,
    board: &Board,
    color: Color,
    last: &str,
) -> Vec<(String, f32, f32)> {
    let g = board.geometry();
    let recent = Recent::new(g.parse_point(last), None);
    read_with(reader, board, color, recent)
        .0
        .into_iter()
        .filter(|(_, p)| p.visits != 0.0)
        .map(|(m, p)| (m.to_gtp(g), p.visits, p.wins))
        .collect()
}

/// White C2 is in atari on the second line and C1 only leads it into a capture.
fn white_in_a_ladder() -> Board {
    Board::from_diagram(
        ".........
         .........
         .........
         .........
         .........
         .........
         ..X......
         .XOX.....
         .........",
    )
    .unwrap()
}

#[test]
fn running_with_a_chain_that_cannot_be_saved_is_discouraged() {
    let board = white_in_a_ladder();
    assert_eq!(
        touched(&board, Color::White, "D2"),
        vec![("C1".to_string(), WEIGHT, 0.0)]
    );
}

#[test]
fn a_chain_that_is_lost_whatever_happens_is_not_worth_a_bonus() {
    // Black can take C2 at C1, but White could not save it either: no urgency.
    let board = white_in_a_ladder();
    assert_eq!(touched(&board, Color::Black, "D2"), vec![]);
}

/// White's three stones A1-C1 have two liberties, C2 and D1, far from the last move
/// (E5): Black C2 or D1 captures them, White C2 saves them.
fn white_short_of_liberties_on_the_edge() -> Board {
    Board::from_diagram(
        ".........
         .........
         .........
         .........
         ....X....
         .........
         .........
         XX.......
         OOO.X....",
    )
    .unwrap()
}

#[test]
fn small_chains_far_from_the_last_move_are_read_only_when_asked() {
    let board = white_short_of_liberties_on_the_edge();
    let anywhere = |stones| {
        ExpansionReader::configured(&SearchParams {
            reading_anywhere: stones,
            ..params()
        })
        .unwrap()
    };
    for color in [Color::Black, Color::White] {
        assert!(touched_with(anywhere(0), &board, color, "E5").is_empty());
        assert!(touched_with(anywhere(4), &board, color, "E5").is_empty());
    }
    // Black captures at C2 or D1 (the reader picks one), White saves at C2.
    let black = touched_with(anywhere(3), &board, Color::Black, "E5");
    let win = |vertex: &str| vec![(vertex.to_string(), WEIGHT, WEIGHT)];
    assert!(black == win("C2") || black == win("D1"), "{black:?}");
    assert_eq!(
        touched_with(anywhere(3), &board, Color::White, "E5"),
        win("C2")
    );
}

#[test]
fn the_bonus_grows_with_the_chain_and_stops_at_the_cap() {
    let board = white_short_of_liberties_on_the_edge();
    let win = |visits: f32| vec![("C2".to_string(), visits, visits)];
    let scaled = |scale| {
        ExpansionReader::configured(&SearchParams {
            reading_anywhere: 3,
            reading_size: scale,
            ..params()
        })
        .unwrap()
    };
    // Three stones: 1 + 2 * scale times the bonus, at most MAX_SIZE_FACTOR times.
    assert_eq!(
        touched_with(scaled(0.0), &board, Color::White, "E5"),
        win(WEIGHT)
    );
    assert_eq!(
        touched_with(scaled(0.5), &board, Color::White, "E5"),
        win(2.0 * WEIGHT)
    );
    assert_eq!(
        touched_with(scaled(10.0), &board, Color::White, "E5"),
        win(MAX_SIZE_FACTOR * WEIGHT)
    );
}

/// White D4 has two liberties, D3 and E4; Black D3 would drive it into a ladder
/// towards the lower right, while White at D3 or E4 first gets out.
fn white_in_a_fight() -> Board {
    Board::from_diagram(
        ".........
         .........
         .........
         .........
         ...XX....
         ..XO.....
         .........
         .........
         .........",
    )
    .unwrap()
}

#[test]
fn the_capture_of_a_chain_that_could_still_run_gets_the_bonus() {
    let board = white_in_a_fight();
    assert_eq!(
        touched(&board, Color::Black, "D5"),
        vec![("D3".to_string(), WEIGHT, WEIGHT)]
    );
}

#[test]
fn the_move_that_saves_a_threatened_chain_gets_the_bonus() {
    let board = white_in_a_fight();
    let got = touched(&board, Color::White, "D5");
    assert_eq!(got.len(), 1, "{got:?}");
    let (vertex, visits, wins) = &got[0];
    assert!(["D3", "E4"].contains(&vertex.as_str()), "{got:?}");
    assert_eq!((*visits, *wins), (WEIGHT, WEIGHT));
}

#[test]
fn quiet_positions_get_nothing_and_read_nothing() {
    // Every chain has four liberties or more.
    let board = Board::from_diagram(
        ".........
         .........
         .........
         .........
         ...X.....
         .....O...
         .........
         .........
         .........",
    )
    .unwrap();
    let g = board.geometry();
    let recent = Recent::new(g.parse_point("F4"), g.parse_point("D5"));
    let (priors, share) = read(&board, Color::Black, recent);
    assert!(priors.iter().all(|(_, p)| *p == Prior::NONE));
    assert_eq!(share, ReadingShare::default());
}

#[test]
fn big_chains_short_of_liberties_are_read_anywhere() {
    // Five white stones on the first line with one liberty, far from the last move:
    // F1 runs into G1 and a capture at H1 after Black F2 (G2 blocks), so it is
    // discouraged. Four such stones are not big enough to be read.
    let big = Board::from_diagram(
        ".........
         .........
         .........
         .........
         .........
         .........
         .........
         XXXXX.X..
         OOOOO....",
    )
    .unwrap();
    assert_eq!(
        touched(&big, Color::White, "J9"),
        vec![("F1".to_string(), WEIGHT, 0.0)]
    );
    let small = Board::from_diagram(
        ".........
         .........
         .........
         .........
         .........
         .........
         .........
         XXXX..X..
         OOOO.....",
    )
    .unwrap();
    assert_eq!(touched(&small, Color::White, "J9"), vec![]);
}

/// The owl priors of every empty point and a pass for `color` on the diagram, as GTP
/// vertices with their virtual visits and wins, and what they cost.
fn owl_touched(diagram: &str, color: Color) -> (Vec<(String, f32, f32)>, ReadingShare) {
    owl_touched_with(
        diagram,
        color,
        &SearchParams {
            owl: WEIGHT,
            owl_nodes: 20_000,
            ..SearchParams::default()
        },
    )
}

/// [`owl_touched`] with the root owl `params` describe.
fn owl_touched_with(
    diagram: &str,
    color: Color,
    params: &SearchParams,
) -> (Vec<(String, f32, f32)>, ReadingShare) {
    let board = Board::from_diagram(diagram).unwrap();
    let moves = every_move(&board);
    let mut out = vec![Prior::NONE; moves.len()];
    let mut owl = RootOwl::configured(params).unwrap();
    owl.add_priors(&board, color, &moves, &mut out);
    let share = owl.take_share();
    (touched_priors(&board, &moves, &out), share)
}

/// The moves of `moves` whose prior in `out` has virtual visits, as GTP vertices with
/// their virtual visits and wins.
fn touched_priors(board: &Board, moves: &[Move], out: &[Prior]) -> Vec<(String, f32, f32)> {
    moves
        .iter()
        .zip(out)
        .filter(|(_, p)| p.visits != 0.0)
        .map(|(m, p)| (m.to_gtp(board.geometry()), p.visits, p.wins))
        .collect()
}

/// Black's five stones in the corner make a straight three: B1 lives or kills.
const STRAIGHT_THREE: &str = "
    .........
    .........
    .........
    .........
    .........
    .........
    OOOOO....
    XXXXO....
    ...XO....";

#[test]
fn the_owl_bonus_goes_to_the_vital_point_for_both_sides() {
    for color in [Color::Black, Color::White] {
        let (touched, share) = owl_touched(STRAIGHT_THREE, color);
        assert_eq!(
            touched,
            vec![("B1".to_string(), WEIGHT, WEIGHT)],
            "{color:?}"
        );
        // Black's group: attack and defence; the white wall: an attack that fails.
        assert!(share.owl_reads >= 3, "{share:?}");
    }
}

/// `owl-min-stones` raises the size a group needs to be read: at 6 Black's five stones
/// of the straight three are not read (no bonus for either side), White's seven are.
#[test]
fn groups_below_owl_min_stones_are_not_read() {
    for color in [Color::Black, Color::White] {
        let params = SearchParams {
            owl: WEIGHT,
            owl_min_stones: 6,
            ..SearchParams::default()
        };
        let (touched, share) = owl_touched_with(STRAIGHT_THREE, color, &params);
        assert_eq!(touched, vec![], "{color:?}");
        assert_eq!(
            share.owl_reads, 1,
            "only the white wall is read ({color:?})"
        );
        let params = SearchParams {
            owl_min_stones: 5,
            ..params
        };
        let (touched, _) = owl_touched_with(STRAIGHT_THREE, color, &params);
        assert_eq!(
            touched,
            vec![("B1".to_string(), WEIGHT, WEIGHT)],
            "{color:?}"
        );
    }
}

/// With `owl-saves` off the bonus goes to kills only: Black to move reads only White's
/// wall (nothing to kill there) and gives B1 nothing; White to move still gets B1, the
/// kill of Black's straight three.
#[test]
fn without_owl_saves_only_kills_get_the_bonus() {
    let params = SearchParams {
        owl: WEIGHT,
        owl_saves: false,
        ..SearchParams::default()
    };
    let (touched, share) = owl_touched_with(STRAIGHT_THREE, Color::Black, &params);
    assert_eq!(touched, vec![]);
    assert_eq!(share.owl_reads, 1, "only the white wall is read");
    let (touched, _) = owl_touched_with(STRAIGHT_THREE, Color::White, &params);
    assert_eq!(touched, vec![("B1".to_string(), WEIGHT, WEIGHT)]);
}

#[test]
fn settled_and_small_groups_get_no_owl_bonus() {
    // Two real eyes: alive whoever moves.
    let alive = "
        .........
        .........
        .........
        .........
        .........
        OOOOOO...
        XXXXXO...
        .X.XXO...
        XXXXXO...";
    // One eye of two points: dead whoever moves.
    let dead = "
        .........
        .........
        .........
        .........
        .........
        .........
        OOOO.....
        XXXO.....
        ..XO.....";
    // A straight three of three stones: too small to be read.
    let small = "
        .........
        .........
        .........
        .........
        .........
        .........
        OOOO.....
        XXXO.....
        ...O.....";
    for diagram in [alive, dead] {
        for color in [Color::Black, Color::White] {
            let (touched, share) = owl_touched(diagram, color);
            assert_eq!(touched, vec![], "{color:?} in {diagram}");
            assert!(share.owl_reads > 0);
        }
    }
    let (touched, share) = owl_touched(small, Color::Black);
    assert_eq!(touched, vec![]);
    assert_eq!(share.owl_reads, 1, "only the white wall is read");
}

/// With `owl-dead` (and no `owl` bonus) the moves that feed a dead group of the side to
/// move get virtual losses: its liberties and the empty points next to them within 2
/// points of its stones, not the points across the opponent's wall; the opponent's dead
/// group and a living group give nothing.
#[test]
fn moves_feeding_a_dead_group_get_virtual_losses() {
    let params = SearchParams {
        owl_dead: WEIGHT,
        ..SearchParams::default()
    };
    let touched = |diagram: &str, color: Color| {
        let mut touched = owl_touched_with(diagram, color, &params).0;
        touched.sort_by(|a, b| a.0.cmp(&b.0));
        touched
    };
    // Black's four stones have one eye of two points and an empty point inside the wall:
    // dead whoever moves. E1 and E2 are within 2 points of them, but across the wall.
    let dead = "
        .........
        .........
        .........
        .........
        .........
        .........
        OOOO.....
        XXXO.....
        ..XO.....";
    let lost = |v: &str| (v.to_string(), WEIGHT, 0.0);
    assert_eq!(touched(dead, Color::Black), vec![lost("A1"), lost("B1")]);
    assert_eq!(touched(dead, Color::White), vec![]);
    // `owl-dead` alone reads only the side to move's groups (White's wall); with the `owl`
    // bonus, White reads Black's group too.
    let reads = |params: &SearchParams| owl_touched_with(dead, Color::White, params).1.owl_reads;
    let with_bonus = SearchParams {
        owl: WEIGHT,
        ..params.clone()
    };
    assert!(reads(&params) > 0);
    assert!(reads(&with_bonus) > reads(&params));
    let alive = "
        .........
        .........
        .........
        .........
        .........
        OOOOOO...
        XXXXXO...
        .X.XXO...
        XXXXXO...";
    assert_eq!(touched(alive, Color::Black), vec![]);
    assert!(RootOwl::configured(&SearchParams::default()).is_none());
}

/// Past the owl's deadline a group is read only when its verdict is kept from an earlier
/// read: a fresh owl reads nothing, and the same owl once its verdicts are kept gives the
/// same priors as without a deadline.
#[test]
fn past_its_deadline_the_root_owl_uses_only_kept_verdicts() {
    let board = Board::from_diagram(STRAIGHT_THREE).unwrap();
    let moves = every_move(&board);
    let params = SearchParams {
        owl: WEIGHT,
        ..SearchParams::default()
    };
    let priors = |owl: &mut RootOwl| {
        let mut out = vec![Prior::NONE; moves.len()];
        owl.add_priors(&board, Color::Black, &moves, &mut out);
        (touched_priors(&board, &moves, &out), owl.take_share())
    };
    let mut owl = RootOwl::configured(&params).unwrap();
    owl.set_deadline(Some(Instant::now()));
    let (touched, share) = priors(&mut owl);
    assert_eq!(touched, vec![]);
    assert_eq!((share.owl_reads, share.owl_cached), (0, 0));
    assert_eq!(
        share.owl_unread, 2,
        "black's group and the white wall: {share:?}"
    );
    owl.set_deadline(None);
    let (read, share) = priors(&mut owl);
    assert_eq!(read, vec![("B1".to_string(), WEIGHT, WEIGHT)]);
    assert!(share.owl_reads > 0 && share.owl_unread == 0, "{share:?}");
    owl.set_deadline(Some(Instant::now()));
    let (kept, share) = priors(&mut owl);
    assert_eq!(kept, read);
    assert_eq!(
        (share.owl_reads, share.owl_cached, share.owl_unread),
        (0, 2, 0)
    );
}

/// The root's dead groups reach the nodes below it (`owl-dead-tree`): on a board where
/// the area of the verdict is unchanged (a stone far away added), the owner's feeding
/// moves get the virtual losses; once a stone falls in the area, nothing.
#[test]
fn the_roots_dead_groups_discourage_feeding_below_the_root() {
    let root = "
        .........
        .........
        .........
        .........
        .........
        .........
        OOOO.....
        XXXO.....
        ..XO.....";
    let board = Board::from_diagram(root).unwrap();
    let mut owl = RootOwl::configured(&SearchParams {
        owl_dead: WEIGHT,
        ..SearchParams::default()
    })
    .unwrap();
    let moves = every_move(&board);
    let mut out = vec![Prior::NONE; moves.len()];
    owl.add_priors(&board, Color::Black, &moves, &mut out);
    assert_eq!(owl.dead_groups().len(), 1);
    let dead = DeadFeeding {
        groups: owl.dead_groups(),
        weight: 2.0 * WEIGHT,
    };
    let touched = |diagram: &str, color: Color| {
        let board = Board::from_diagram(diagram).unwrap();
        let moves = every_move(&board);
        let mut out = vec![Prior::NONE; moves.len()];
        let query = PriorQuery::new(&board, color, Recent::default(), &moves);
        dead.add_priors(&query, &mut out);
        let mut touched = touched_priors(&board, &moves, &out);
        touched.sort_by(|a, b| a.0.cmp(&b.0));
        touched
    };
    let lost = |v: &str| (v.to_string(), 2.0 * WEIGHT, 0.0);
    let far = "
        ........X
        .........
        .........
        .........
        .........
        .........
        OOOO.....
        XXXO.....
        ..XO.....";
    assert_eq!(touched(far, Color::Black), vec![lost("A1"), lost("B1")]);
    assert_eq!(touched(far, Color::White), vec![]);
    let near = "
        .........
        .........
        .........
        .........
        .........
        .X.......
        OOOO.....
        XXXO.....
        ..XO.....";
    assert_eq!(touched(near, Color::Black), vec![]);
}

/// The moves the race reads alone (tactical reads off) touch for `color` to move on
/// `diagram` after a move at `last`, and what they cost.
fn race_touched(diagram: &str, color: Color, last: &str) -> (Vec<String>, ReadingShare) {
    let board = Board::from_diagram(diagram).unwrap();
    let g = board.geometry();
    let moves = every_move(&board);
    let mut out = vec![Prior::NONE; moves.len()];
    let mut reader = ExpansionReader::configured(&SearchParams {
        reading: 0.0,
        reading_nodes: 100,
        race: WEIGHT,
        race_nodes: 5_000,
        ..SearchParams::default()
    })
    .unwrap();
    let recent = Recent::new(g.parse_point(last), None);
    let query = PriorQuery::new(&board, color, recent, &moves);
    reader.add_priors(&query, &mut out);
    let touched = moves
        .iter()
        .zip(&out)
        .filter(|(_, p)| p.visits != 0.0)
        .map(|(m, p)| {
            assert_eq!((p.visits, p.wins), (WEIGHT, WEIGHT), "{}", m.to_gtp(g));
            m.to_gtp(g)
        })
        .collect();
    (touched, reader.take_share())
}

/// Black D1-D5 against white E1-E5, walled in by white (columns B-D) and black
/// (columns E-G): three liberties each (C3-C5, F3-F5), so whoever moves first wins.
const THREE_AGAINST_THREE: &str = "
    .........
    .........
    .........
    .OOOXXX..
    .O.XO.X..
    .O.XO.X..
    .O.XO.X..
    .OOXOXX..
    .OOXOXX..";

/// The same with F3 filled: white has two liberties and loses whoever moves first.
const THREE_AGAINST_TWO: &str = "
    .........
    .........
    .........
    .OOOXXX..
    .O.XO.X..
    .O.XO.X..
    .O.XOXX..
    .OOXOXX..
    .OOXOXX..";

#[test]
fn the_move_that_wins_an_even_race_gets_the_bonus() {
    for (color, outside) in [
        (Color::Black, ["F3", "F4", "F5"]),
        (Color::White, ["C3", "C4", "C5"]),
    ] {
        let (touched, share) = race_touched(THREE_AGAINST_THREE, color, "E5");
        assert_eq!(touched.len(), 1, "{color:?}: {touched:?}");
        assert!(
            outside.contains(&touched[0].as_str()),
            "{color:?}: {touched:?}"
        );
        assert!(share.race_reads >= 2 && share.expansions == 1, "{share:?}");
        assert_eq!(share.reads, 0, "the tactical reads are off");
    }
}

#[test]
fn a_race_decided_whoever_moves_gets_no_bonus() {
    for color in [Color::Black, Color::White] {
        let (touched, share) = race_touched(THREE_AGAINST_TWO, color, "D5");
        assert_eq!(touched, Vec::<String>::new(), "{color:?}");
        assert!(share.race_reads >= 2, "{share:?}");
    }
}

#[test]
fn races_away_from_the_last_moves_are_not_read() {
    let (touched, share) = race_touched(THREE_AGAINST_THREE, Color::Black, "J9");
    assert_eq!(touched, Vec::<String>::new());
    assert_eq!((share.race_reads, share.expansions), (0, 0), "{share:?}");
}
