//! The owl (life-and-death) reader against GNU Go's `owl_attack` and `owl_defend`
//! (`/usr/games/gnugo --mode gtp --chinese-rules`, driven over a pipe). Positions come from
//! seeded random games (light-policy moves under GNU Go's rules) and, in the ignored long
//! run, from professional games when the collection is next to the repository
//! (`../shared/data/pro-games/pro-000.sgf`, read at run time). In each position one stone of
//! every GNU Go dragon (`dragon_stones`) is read both ways by both engines, and the answers
//! are compared two ways: whether the read works at all (code 0 or not), and the code
//! itself (ko codes included). The moves are reported, not compared: several moves often
//! work.
//!
//! GNU Go's groups (dragons) are wider than hane's (it amalgamates across loose connections
//! and reads escape by influence), so the two differ most on groups in the open. The
//! report also counts the dragons that GNU Go's static analysis calls `critical` and the
//! reads hane finished without a cut-off. With `HANE_OWL_REPORT=FILE` the long run writes
//! every disagreement as a diagram to FILE. GNU Go missing fails under CI (`CI` set) and
//! skips elsewhere.

mod common;

use common::comparison::{self, Comparison, compare_random_games};
use common::gnugo::{Dragon, GnuGo, dragons};

use std::fmt::Write as _;

use hane::board::Board;
use hane::tactics::owl::OwlReader;
use hane::tactics::reader::Reading;

/// hane's answer in GNU Go's format.
fn hane_answer(board: &Board, r: &Reading) -> String {
    r.gtp_reply(board.geometry())
}

/// The code of an answer (`0`, `1 B1`, ...).
fn code(answer: &str) -> &str {
    answer.split_whitespace().next().unwrap_or("0")
}

/// Counts of one comparison run.
#[derive(Default, Debug)]
struct Agreement {
    /// Reads compared (a dragon read both ways counts twice).
    reads: usize,
    /// Reads whose success (code 0 or not) agrees, and whose codes agree.
    works_agree: usize,
    codes_agree: usize,
    /// Reads where both succeed with the same move.
    moves_agree: usize,
    both_succeed: usize,
    /// Reads of dragons GNU Go calls critical, and how many agree about success.
    critical: usize,
    critical_agree: usize,
    /// Reads hane finished without a cut-off, and how many agree about success.
    exact: usize,
    exact_agree: usize,
    /// Successes found by hane and by GNU Go.
    hane_works: usize,
    gnugo_works: usize,
    report: String,
}

impl Agreement {
    fn rate(agree: usize, of: usize) -> f64 {
        100.0 * agree as f64 / of.max(1) as f64
    }
}

/// One stone of every GNU Go dragon of the positions after given moves, read both ways (see
/// [`compare_position`]).
impl Comparison for Agreement {
    type Reader = OwlReader;

    fn compared(&self) -> usize {
        self.reads
    }

    fn compare_position(
        &mut self,
        gnugo: &mut GnuGo,
        reader: &mut OwlReader,
        board: &Board,
        goal: usize,
    ) {
        compare_position(gnugo, reader, board, goal, self);
    }

    fn summary(&self) -> String {
        format!(
            "{} reads: works-or-not agrees {:.1}%, codes agree {:.1}%; same move in {} of the \
             {} where both succeed; {} reads of critical dragons: {:.1}%; {} exact reads: \
             {:.1}%; successes hane {} gnugo {}",
            self.reads,
            Agreement::rate(self.works_agree, self.reads),
            Agreement::rate(self.codes_agree, self.reads),
            self.moves_agree,
            self.both_succeed,
            self.critical,
            Agreement::rate(self.critical_agree, self.critical),
            self.exact,
            Agreement::rate(self.exact_agree, self.exact),
            self.hane_works,
            self.gnugo_works,
        )
    }

    fn report(&self) -> &str {
        &self.report
    }
}

/// Compares the readers on every dragon of `board`, both ways, until `goal` reads.
fn compare_position(
    gnugo: &mut GnuGo,
    reader: &mut OwlReader,
    board: &Board,
    goal: usize,
    agreement: &mut Agreement,
) {
    let g = board.geometry();
    for Dragon {
        stone: p, status, ..
    } in dragons(gnugo, board)
    {
        let vertex = g.format_point(p);
        for attack in [true, false] {
            let ours = if attack {
                reader.attack(board, p)
            } else {
                reader.defend(board, p)
            };
            let hane = hane_answer(board, &ours);
            let command = if attack { "owl_attack" } else { "owl_defend" };
            let theirs = gnugo.ok(&format!("{command} {vertex}"));
            let works = |s: &str| code(s) != "0";
            let agrees = works(&hane) == works(&theirs);
            let critical = status == "critical";
            agreement.reads += 1;
            agreement.works_agree += usize::from(agrees);
            agreement.codes_agree += usize::from(code(&hane) == code(&theirs));
            if works(&hane) && works(&theirs) {
                agreement.both_succeed += 1;
                agreement.moves_agree +=
                    usize::from(hane.split_whitespace().nth(1) == theirs.split_whitespace().nth(1));
            }
            agreement.critical += usize::from(critical);
            agreement.critical_agree += usize::from(critical && agrees);
            agreement.exact += usize::from(ours.exact);
            agreement.exact_agree += usize::from(ours.exact && agrees);
            agreement.hane_works += usize::from(works(&hane));
            agreement.gnugo_works += usize::from(works(&theirs));
            if !agrees {
                let _ = writeln!(
                    agreement.report,
                    "{command} {vertex} ({} stones, gnugo status {status}): hane {hane:?}{}, \
                     gnugo {theirs:?}\n{}",
                    board.chain_len(p),
                    if ours.exact { "" } else { " (inexact)" },
                    board.to_diagram()
                );
            }
        }
        if agreement.reads >= goal {
            return;
        }
    }
}

#[test]
fn owl_reader_agrees_with_gnugo_on_most_dragons() {
    let Some(mut gnugo) = comparison::start_or_skip() else {
        return;
    };
    let mut agreement = Agreement::default();
    compare_random_games(&mut gnugo, 9, &[40, 60], 31, 60, &mut agreement);
    eprintln!("{}\n{}", agreement.summary(), agreement.report);
    assert!(agreement.reads >= 60);
    // Measured: success agrees on 90.0% of 60 reads (codes on 88.3%), 97.4% of hane's 39
    // exact reads. The disagreements are open fights in which hane's reads are cut off.
    assert!(
        Agreement::rate(agreement.works_agree, agreement.reads) >= 80.0,
        "{}",
        agreement.summary()
    );
}

/// Eye shapes in the lower left corner of a 9x9 board (the rows given are its lowest ones),
/// each with one stone of the black group: the bent four in the corner (on either arm,
/// with an outside liberty, with the key point taken), a bent four and a pyramid four on
/// the edge, the rectangular six in the corner (both ways up, with none and with two
/// outside liberties, and with two after the attacker's move at the 2-1 point), on the
/// edge, the flower
/// six on the edge and in the middle, a bulky five and a straight two of the attacker's
/// stones inside.
const EYE_SHAPES: [(&str, &str, &str); 15] = [
    (
        "bent four in the corner",
        "C3",
        "O O O O . / X X X O . / . X X O . / . X X O . / . . X O .",
    ),
    (
        "bent four in the corner along the edge",
        "C3",
        "O O O O O / X X X X O / . X X X O / . . . X O",
    ),
    (
        "bent four in the corner with a liberty",
        "C3",
        "O O O O O / X X X X O / . X X . O / . X X O . / . . X O .",
    ),
    (
        "bent four in the corner, key point taken",
        "C3",
        "O O O O . / X X X O . / . X X O . / O X X O . / . . X O .",
    ),
    (
        "bent four on the edge",
        "C3",
        "O O O O O O O O / X X X X X X X O / X X . X X X X O / X X . . . X X O",
    ),
    (
        "pyramid four on the edge",
        "D3",
        "O O O O O O O O / X X X X X X X O / X X X . X X X O / X X . . . X X O",
    ),
    (
        "rectangular six in the corner",
        "A3",
        "O O O O O / X X X X O / . . . X O / . . . X O",
    ),
    (
        "rectangular six in the corner, upright",
        "A4",
        "O O O O . / X X X O . / . . X O . / . . X O . / . . X O .",
    ),
    (
        "rectangular six in the corner, two liberties",
        "A3",
        "O O O O O O / X X X X X O / . . . X . O / . . . X . O",
    ),
    (
        "rectangular six after 2-1, two liberties",
        "A3",
        "O O O O O O / X X X X X O / . . . X . O / . O . X . O",
    ),
    (
        "rectangular six on the edge",
        "B4",
        "O O O O O O O / O X X X X X O / O X . . . X O / O X . . . X O",
    ),
    (
        "flower six on the edge",
        "D4",
        "O O O O O O O O / O X X X X X X O / O X X . X X X O / O X . . . X X O / O X X . . X X O",
    ),
    (
        "flower six in the middle",
        "D5",
        "O O O O O O O O O / O X X X X X X X O / O X X X . X X X O / O X X . . . X X O / O X X X . . X X O / O O O X X X X O O",
    ),
    (
        "bulky five of stones in a six",
        "A3",
        "O O O O O O / X X X X X O / O O O X X O / O O . X X O",
    ),
    (
        "two stones in a straight three",
        "A2",
        "O O O O O / X X X X O / O O . X O",
    ),
];

/// A 9x9 board with `rows` (separated by `/`, padded with empty points to the right) as its
/// lowest rows.
fn corner_board(rows: &str) -> Board {
    let given: Vec<&str> = rows.split('/').map(str::trim).collect();
    let mut lines = vec![". . . . . . . . .".to_string(); 9 - given.len()];
    for row in given {
        let cells = row.split_whitespace().count();
        lines.push(format!("{row}{}", " .".repeat(9 - cells)));
    }
    common::diagram(&lines.join("\n"))
}

/// The eye shapes that the owl reader judges by shape (see the module documentation of
/// `hane::tactics::owl`) read both ways by both programs: the codes agree, and the moves
/// too where both name one (GNU Go names a defence even when the group needs none).
#[test]
fn owl_reader_agrees_with_gnugo_on_eye_shapes() {
    let Some(mut gnugo) = comparison::start_or_skip() else {
        return;
    };
    let mut reader = OwlReader::new();
    let mut disagreements = Vec::new();
    for (name, vertex, rows) in EYE_SHAPES {
        let board = corner_board(rows);
        gnugo.load_board(&board);
        let p = board.geometry().parse_point(vertex).expect("vertex");
        for attack in [true, false] {
            let ours = if attack {
                reader.attack(&board, p)
            } else {
                reader.defend(&board, p)
            };
            let hane = hane_answer(&board, &ours);
            let command = if attack { "owl_attack" } else { "owl_defend" };
            let theirs = gnugo.ok(&format!("{command} {vertex}"));
            let moves = |s: &str| {
                s.split_whitespace()
                    .nth(1)
                    .filter(|&m| m != "PASS")
                    .map(String::from)
            };
            let same_move = match (moves(&hane), moves(&theirs)) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            };
            if code(&hane) != code(&theirs) || !same_move {
                disagreements.push(format!(
                    "{name}: {command} {vertex}: hane {hane:?}, gnugo {theirs:?}"
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
#[ignore = "a long run: cargo test --release --test owl_gnugo -- --ignored --nocapture"]
fn owl_reader_agrees_with_gnugo_on_many_dragons() {
    let Some(mut gnugo) = comparison::start_or_skip() else {
        return;
    };
    let mut random = Agreement::default();
    compare_random_games(&mut gnugo, 9, &[30, 45, 60], 301, 300, &mut random);
    compare_random_games(&mut gnugo, 13, &[60, 100], 302, 200, &mut random);
    let pro = comparison::finish_long_run(
        &mut gnugo,
        &random,
        &[100, 150, 200],
        300,
        "HANE_OWL_REPORT",
    );
    // Measured: random games 84.8% of 500 reads (codes 83.8%; 91.0% of hane's 323 exact
    // reads), professional games 91.3% of 300 (codes 91.3%; 93.8% of 211). Most
    // disagreements are reads that hane's budget cuts off (a kill it cannot prove). Of the
    // exact ones, checked by playing the disputed move into GNU Go and asking it the
    // opposite question: hane's kills of lone stones with two or three liberties in the
    // open are mostly refuted there (GNU Go finds a counter-attack or a way out), while
    // in several positions GNU Go's own claim does not survive its follow-up read (an
    // attack after which its `owl_defend` still works, a defence after which its
    // `owl_attack` still works), so hane's `0` stands there.
    for agreement in [&random, &pro] {
        assert!(
            agreement.reads == 0 || Agreement::rate(agreement.works_agree, agreement.reads) >= 75.0,
            "{}",
            agreement.summary()
        );
    }
}

/// Counts of the dead-dragon run: GNU Go's dragons of [`RECALL_MIN_STONES`] stones or more,
/// each read by both engines' `owl_defend` only (the read `owl-dead` acts on).
#[derive(Default, Debug)]
struct DeadRecall {
    /// Dragons read.
    dragons: usize,
    /// Both say a defence works; both say none does (and those dragons' stones).
    both_alive: usize,
    both_dead: usize,
    both_dead_stones: usize,
    /// GNU Go finds no defence, hane does (or needs none): dead dragons hane misses.
    missed: usize,
    missed_stones: usize,
    /// hane finds no defence, GNU Go does: a kill hane claims that GNU Go does not.
    claimed: usize,
    report: String,
}

/// The smallest dragon (GNU Go's `dragon_stones`) the dead-dragon run reads; the root owl
/// of the search reads groups of 4 stones or more.
const RECALL_MIN_STONES: usize = 4;

impl Comparison for DeadRecall {
    type Reader = OwlReader;

    fn compared(&self) -> usize {
        self.dragons
    }

    fn compare_position(
        &mut self,
        gnugo: &mut GnuGo,
        reader: &mut OwlReader,
        board: &Board,
        goal: usize,
    ) {
        let g = board.geometry();
        for Dragon {
            stone: p,
            status,
            stones,
        } in dragons(gnugo, board)
        {
            if stones < RECALL_MIN_STONES {
                continue;
            }
            let vertex = g.format_point(p);
            let group = hane::tactics::owl::group_stones(board, reader.group(board, p));
            let ours = reader.defend(board, p);
            let hane = hane_answer(board, &ours);
            let theirs = gnugo.ok(&format!("owl_defend {vertex}"));
            self.dragons += 1;
            let (hane_lives, gnugo_lives) = (code(&hane) != "0", code(&theirs) != "0");
            match (hane_lives, gnugo_lives) {
                (true, true) => self.both_alive += 1,
                (false, false) => {
                    self.both_dead += 1;
                    self.both_dead_stones += stones;
                }
                (true, false) => {
                    self.missed += 1;
                    self.missed_stones += stones;
                }
                (false, true) => self.claimed += 1,
            }
            if hane_lives != gnugo_lives {
                let _ = writeln!(
                    self.report,
                    "owl_defend {vertex} ({stones} stones, hane's group {group}, gnugo status \
                     {status}): hane {hane:?}{}, gnugo {theirs:?}\n{}",
                    if ours.exact { "" } else { " (inexact)" },
                    board.to_diagram()
                );
            }
            if self.dragons >= goal {
                return;
            }
        }
    }

    fn summary(&self) -> String {
        let dead = self.both_dead + self.missed;
        format!(
            "{} dragons of {RECALL_MIN_STONES}+ stones: alive for both {}, dead for both {} \
             ({} stones); of GNU Go's {dead} dead, hane reads {:.1}% dead ({} missed, {} \
             stones); hane's kills GNU Go does not find: {}",
            self.dragons,
            self.both_alive,
            self.both_dead,
            self.both_dead_stones,
            Agreement::rate(self.both_dead, dead),
            self.missed,
            self.missed_stones,
            self.claimed,
        )
    }

    fn report(&self) -> &str {
        &self.report
    }
}

/// The dead dragons of the games hane lost on 19x19 (`../shared/data/losses/`, read at run
/// time), after moves 100, 150 and 200: how many of the dragons GNU Go's `owl_defend`
/// finds no defence for hane's owl reads as dead too (the groups `owl-dead` can act on),
/// and how often hane claims a kill GNU Go does not. With `HANE_OWL_REPORT=FILE` every
/// disagreement is written to FILE with its diagram.
#[test]
#[ignore = "a long run: cargo test --release --test owl_gnugo -- --ignored --nocapture"]
fn owl_reader_finds_the_dead_dragons_of_lost_games() {
    let Some(mut gnugo) = comparison::start_or_skip() else {
        return;
    };
    let mut recall = DeadRecall::default();
    for file in ["19x19-equal-clock-2.sgf", "19x19-equal-clock.sgf"] {
        let Some(games) = comparison::loss_collection(file) else {
            eprintln!("../shared/data/losses/{file} not found");
            return;
        };
        comparison::compare_recorded_games(
            &mut gnugo,
            &games,
            &[100, 150, 200],
            usize::MAX / 2,
            &mut recall,
        );
    }
    eprintln!("{}", recall.summary());
    if let Some(file) = std::env::var_os("HANE_OWL_REPORT") {
        std::fs::write(&file, recall.report()).expect("write the report");
    }
    // Measured: 371 dragons; 34 of GNU Go's 47 dead ones read dead by hane (72.3%), one
    // kill GNU Go does not find (26 before weak neighbours were read: see `Kill::
    // weak_neighbours_hold`). Before that rule, ten times the nodes (200,000) found 27,
    // with depth 24 as well 30, and an escape rule of 16 points of free space instead of
    // 8 found 27: the misses are the model (open and loosely surrounded groups), not the
    // budget.
    assert!(recall.dragons >= 100, "{}", recall.summary());
    assert!(
        recall.claimed * 50 <= recall.dragons,
        "hane's kills that GNU Go does not find: {}",
        recall.summary()
    );
    assert!(
        Agreement::rate(recall.both_dead, recall.both_dead + recall.missed) >= 45.0,
        "{}",
        recall.summary()
    );
}
