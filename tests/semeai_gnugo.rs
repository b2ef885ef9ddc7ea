//! The capturing-race reader against GNU Go's `analyze_semeai` (`/usr/games/gnugo --mode gtp
//! --chinese-rules`, driven over a pipe). Positions come from seeded random games (light-policy
//! moves under GNU Go's rules) and, in the ignored long run, from professional games when the
//! collection is next to the repository (`../shared/data/pro-games/pro-000.sgf`, read at run
//! time). In each position every pair of adjacent chains of opposite colours with at most four
//! liberties each is read both ways (each side to move first) by both engines, and the
//! outcomes (the side to move wins, seki, loses) are compared.
//!
//! GNU Go reads *dragons* (chains it judges connected) with its life-and-death reader, hane
//! reads the two chains alone, so they differ where a chain belongs to a bigger dragon or
//! where life and death beyond the race decides (GNU Go answers whether a dragon lives, hane
//! whether a chain is captured): the comparison also counts the pairs whose dragons are the
//! chains themselves (GNU Go's `dragon_stones`), the pairs of which neither dragon is alive
//! (`dragon_status`: the pairs GNU Go itself reads as semeai), and hane's exact reads. With `HANE_SEMEAI_REPORT=FILE` the long run writes every disagreement as a diagram
//! to FILE. GNU Go missing fails under CI (`CI` set) and skips elsewhere.

mod common;

use common::comparison::{self, Comparison, compare_random_games};
use common::gnugo::GnuGo;

use std::collections::HashSet;
use std::fmt::Write as _;

use hane::board::{Board, Point};
use hane::tactics::liberties::liberties_capped;
use hane::tactics::semeai::{RaceOutcome, RaceResult, SemeaiReader};

/// The most liberties of either chain of a compared pair.
const PAIR_LIBERTIES: usize = 4;

/// hane's answer in GNU Go's format.
fn hane_answer(board: &Board, r: &RaceResult) -> String {
    let mv = r
        .point
        .map_or("PASS".to_string(), |p| board.geometry().format_point(p));
    format!("{} {} {mv}", r.survives.gtp_code(), r.captures.gtp_code())
}

/// The outcome GNU Go's answer `SURVIVES CAPTURES MOVE` means for the side to move.
fn gnugo_outcome(answer: &str) -> RaceOutcome {
    let mut words = answer.split_whitespace();
    let survives = words.next().unwrap_or("0") != "0";
    let captures = words.next().unwrap_or("0") != "0";
    if captures {
        RaceOutcome::Wins
    } else if survives {
        RaceOutcome::Seki
    } else {
        RaceOutcome::Loses
    }
}

/// Counts of one comparison run.
#[derive(Default, Debug)]
struct Agreement {
    /// Pairs read one way (a pair read both ways counts twice).
    reads: usize,
    /// Reads whose outcomes (wins, seki, loses) agree.
    agree: usize,
    /// Reads whose two codes agree exactly (ko codes included).
    codes_agree: usize,
    /// Reads where both of GNU Go's dragons are the two chains alone, and how many agree.
    plain: usize,
    plain_agree: usize,
    /// Reads where neither of GNU Go's dragons is alive (`dragon_status`: the pairs GNU Go
    /// itself would read as a semeai), and how many agree.
    racing: usize,
    racing_agree: usize,
    /// Reads hane finished without a cut-off, and how many agree.
    exact_agree: usize,
    /// Seki outcomes found by hane and by GNU Go.
    hane_seki: usize,
    gnugo_seki: usize,
    inexact: usize,
    report: String,
}

impl Agreement {
    fn rate(agree: usize, of: usize) -> f64 {
        100.0 * agree as f64 / of.max(1) as f64
    }
}

/// Every race pair of the positions after given moves, read both ways (see
/// [`compare_position`]).
impl Comparison for Agreement {
    type Reader = SemeaiReader;

    fn compared(&self) -> usize {
        self.reads
    }

    fn compare_position(
        &mut self,
        gnugo: &mut GnuGo,
        reader: &mut SemeaiReader,
        board: &Board,
        _: usize,
    ) {
        compare_position(gnugo, reader, board, self);
    }

    fn summary(&self) -> String {
        format!(
            "{} reads: outcome agrees {:.1}%, codes agree {:.1}%; {} reads of single-chain \
             dragons: {:.1}%; {} reads of dragons neither alive: {:.1}%; {} exact reads: \
             {:.1}%; seki hane {} gnugo {}",
            self.reads,
            Agreement::rate(self.agree, self.reads),
            Agreement::rate(self.codes_agree, self.reads),
            self.plain,
            Agreement::rate(self.plain_agree, self.plain),
            self.racing,
            Agreement::rate(self.racing_agree, self.racing),
            self.reads - self.inexact,
            Agreement::rate(self.exact_agree, self.reads - self.inexact),
            self.hane_seki,
            self.gnugo_seki,
        )
    }

    fn report(&self) -> &str {
        &self.report
    }
}

/// The adjacent pairs of chains of opposite colours with at most [`PAIR_LIBERTIES`]
/// liberties each, as one stone of each (black first).
fn race_pairs(board: &Board) -> Vec<(Point, Point)> {
    let g = board.geometry();
    let mut seen = HashSet::new();
    let mut pairs = Vec::new();
    for p in g.points() {
        if board.cell(p) != hane::board::Cell::Black
            || liberties_capped(board, p, PAIR_LIBERTIES + 1) > PAIR_LIBERTIES
        {
            continue;
        }
        for n in g.neighbors(p) {
            let q = Point::from_index(n);
            if board.cell_at(n) == hane::board::Cell::White
                && liberties_capped(board, q, PAIR_LIBERTIES + 1) <= PAIR_LIBERTIES
                && seen.insert((board.chain_id(p), board.chain_id(q)))
            {
                pairs.push((p, q));
            }
        }
    }
    pairs
}

/// Whether GNU Go's dragon through `p` is the chain through `p` alone.
fn dragon_is_chain(gnugo: &mut GnuGo, board: &Board, p: Point) -> bool {
    let stones = gnugo.ok(&format!(
        "dragon_stones {}",
        board.geometry().format_point(p)
    ));
    stones.split_whitespace().count() == board.chain_len(p)
}

/// Whether GNU Go's dragon through `p` is alive (`dragon_status`).
fn dragon_alive(gnugo: &mut GnuGo, board: &Board, p: Point) -> bool {
    let status = gnugo.ok(&format!(
        "dragon_status {}",
        board.geometry().format_point(p)
    ));
    status.split_whitespace().next() == Some("alive")
}

/// Compares the readers on every race pair of `board`, each side moving first.
fn compare_position(
    gnugo: &mut GnuGo,
    reader: &mut SemeaiReader,
    board: &Board,
    agreement: &mut Agreement,
) {
    let g = board.geometry();
    for (black, white) in race_pairs(board) {
        let plain = dragon_is_chain(gnugo, board, black) && dragon_is_chain(gnugo, board, white);
        let racing = !dragon_alive(gnugo, board, black) && !dragon_alive(gnugo, board, white);
        for (a, b) in [(black, white), (white, black)] {
            let (va, vb) = (g.format_point(a), g.format_point(b));
            let ours = reader.analyze(board, a, b).expect("opposite colours");
            let hane = hane_answer(board, &ours);
            let theirs = gnugo.ok(&format!("analyze_semeai {va} {vb}"));
            let agrees = ours.outcome() == gnugo_outcome(&theirs);
            let codes = |s: &str| s.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
            agreement.reads += 1;
            agreement.agree += usize::from(agrees);
            agreement.codes_agree += usize::from(codes(&hane) == codes(&theirs));
            agreement.plain += usize::from(plain);
            agreement.plain_agree += usize::from(plain && agrees);
            agreement.racing += usize::from(racing);
            agreement.racing_agree += usize::from(racing && agrees);
            agreement.exact_agree += usize::from(ours.exact && agrees);
            agreement.hane_seki += usize::from(ours.outcome() == RaceOutcome::Seki);
            agreement.gnugo_seki += usize::from(gnugo_outcome(&theirs) == RaceOutcome::Seki);
            agreement.inexact += usize::from(!ours.exact);
            if !agrees {
                let _ = writeln!(
                    agreement.report,
                    "analyze_semeai {va} {vb} ({} and {} liberties{}{}): hane {hane:?}{}, \
                     gnugo {theirs:?}\n{}",
                    liberties_capped(board, a, 8),
                    liberties_capped(board, b, 8),
                    if plain { "" } else { ", bigger dragons" },
                    if racing { "" } else { ", a living dragon" },
                    if ours.exact { "" } else { " (inexact)" },
                    board.to_diagram()
                );
            }
        }
    }
}

#[test]
fn race_reader_agrees_with_gnugo_on_most_pairs() {
    let Some(mut gnugo) = comparison::start_or_skip() else {
        return;
    };
    let mut agreement = Agreement::default();
    compare_random_games(&mut gnugo, 9, &[40, 60], 21, 60, &mut agreement);
    eprintln!("{}\n{}", agreement.summary(), agreement.report);
    assert!(agreement.reads >= 60);
    // Measured: 78.3% of 60 reads, 85.5% of the 55 exact ones. The disagreements are mostly
    // about life rather than the race: GNU Go's codes say whether a dragon lives (a lone
    // stone that captures its neighbour in atari still "fails" when it is dead anyway), and
    // GNU Go reads whole dragons.
    assert!(
        Agreement::rate(agreement.agree, agreement.reads) >= 70.0,
        "{}",
        agreement.summary()
    );
}

#[test]
#[ignore = "a long run: cargo test --release --test semeai_gnugo -- --ignored --nocapture"]
fn race_reader_agrees_with_gnugo_on_many_pairs() {
    let Some(mut gnugo) = comparison::start_or_skip() else {
        return;
    };
    let mut random = Agreement::default();
    compare_random_games(&mut gnugo, 9, &[30, 45, 60], 201, 500, &mut random);
    compare_random_games(&mut gnugo, 19, &[120, 200], 202, 500, &mut random);
    let pro = comparison::finish_long_run(
        &mut gnugo,
        &random,
        &[100, 150, 200, 250],
        500,
        "HANE_SEMEAI_REPORT",
    );
    // Measured: random games 63.8% of 1,006 reads (72.6% of the 208 where neither dragon
    // lives, 85.3% of hane's 689 exact reads); professional games 63.7% of 510 reads
    // (84.4% of 32, 85.5% of 290).
    for agreement in [&random, &pro] {
        assert!(
            agreement.reads == 0 || Agreement::rate(agreement.agree, agreement.reads) >= 60.0,
            "{}",
            agreement.summary()
        );
    }
}
