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

use common::gnugo::{self, GNUGO_RULES, GnuGo, gtp_color};

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use hane::board::{Board, Color, GameState, Move, Point};
use hane::tactics::owl::OwlReader;
use hane::tactics::reader::Reading;

fn gnugo_or_skip() -> Option<PathBuf> {
    let found = gnugo::find();
    if found.is_none() {
        common::skip_unless_ci(
            "GNU Go (/usr/games/gnugo or gnugo on the PATH)",
            "apt-get install -y gnugo, see .ci/install.d/10-gnugo.sh",
        );
    }
    found
}

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
}

/// Plays seeded random games of `size` into hane and GNU Go and compares the owl readers
/// after `stops` moves of each game, until `wanted` reads were compared.
fn compare_random_games(
    gnugo: &mut GnuGo,
    size: usize,
    stops: &[usize],
    seed: u64,
    wanted: usize,
    agreement: &mut Agreement,
) {
    let mut reader = OwlReader::new();
    let goal = agreement.reads + wanted;
    for game_index in 0.. {
        let moves = gnugo::random_game(size, seed, game_index, *stops.iter().max().unwrap());
        compare_game(gnugo, &mut reader, size, &moves, stops, goal, agreement);
        if agreement.reads >= goal {
            return;
        }
    }
}

/// Compares the readers on positions of professional games (`pro-000.sgf`, 19x19 games,
/// after moves 100, 150 and 200) until `wanted` reads were compared; `false` when the
/// collection is not there.
fn compare_pro_games(gnugo: &mut GnuGo, wanted: usize, agreement: &mut Agreement) -> bool {
    let Some(games) = gnugo::pro_games() else {
        return false;
    };
    let mut reader = OwlReader::new();
    let goal = agreement.reads + wanted;
    let stops = [100, 150, 200];
    for game in games {
        if game.size != 19 || !game.setup.is_empty() || game.moves.len() < 200 {
            continue;
        }
        let mut state = GameState::new(19, GNUGO_RULES).unwrap();
        if game.moves[..200]
            .iter()
            .any(|&(color, mv)| state.play(color, mv).is_err())
        {
            continue;
        }
        compare_game(
            gnugo,
            &mut reader,
            19,
            &game.moves[..200],
            &stops,
            goal,
            agreement,
        );
        if agreement.reads >= goal {
            break;
        }
    }
    true
}

/// Plays `moves` into hane and GNU Go and compares the readers after each number of moves
/// in `stops`, until `goal` reads were compared.
fn compare_game(
    gnugo: &mut GnuGo,
    reader: &mut OwlReader,
    size: usize,
    moves: &[(Color, Move)],
    stops: &[usize],
    goal: usize,
    agreement: &mut Agreement,
) {
    gnugo.ok(&format!("boardsize {size}"));
    gnugo.ok("clear_board");
    let mut state = GameState::new(size, GNUGO_RULES).unwrap();
    for (k, &(color, mv)) in moves.iter().enumerate() {
        state.play(color, mv).expect("a legal move");
        gnugo.ok(&format!(
            "play {} {}",
            gtp_color(color),
            mv.to_gtp(state.geometry())
        ));
        if stops.contains(&(k + 1)) {
            compare_position(gnugo, reader, state.board(), goal, agreement);
            if agreement.reads >= goal {
                return;
            }
        }
    }
}

/// One stone of each of GNU Go's dragons on `board`, with GNU Go's status of it.
fn dragons(gnugo: &mut GnuGo, board: &Board) -> Vec<(Point, String)> {
    let g = board.geometry();
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for p in g.points() {
        if board.cell(p).color().is_none() || seen.contains(&p) {
            continue;
        }
        let vertex = g.format_point(p);
        for stone in gnugo
            .ok(&format!("dragon_stones {vertex}"))
            .split_whitespace()
        {
            if let Some(q) = g.parse_point(stone) {
                seen.insert(q);
            }
        }
        seen.insert(p);
        let status = gnugo.ok(&format!("dragon_status {vertex}"));
        let status = status.split_whitespace().next().unwrap_or("").to_string();
        found.push((p, status));
    }
    found
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
    for (p, status) in dragons(gnugo, board) {
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
    let Some(path) = gnugo_or_skip() else {
        return;
    };
    let mut gnugo = GnuGo::start(&path, &["--chinese-rules"]);
    let mut agreement = Agreement::default();
    compare_random_games(&mut gnugo, 9, &[40, 60], 31, 60, &mut agreement);
    eprintln!("{}\n{}", agreement.summary(), agreement.report);
    assert!(agreement.reads >= 60);
    // Measured: success agrees on 90.0% of 60 reads (codes on 88.3%), 100% of hane's 36
    // exact reads. The disagreements are open fights in which hane's reads are cut off.
    assert!(
        Agreement::rate(agreement.works_agree, agreement.reads) >= 80.0,
        "{}",
        agreement.summary()
    );
}

#[test]
#[ignore = "a long run: cargo test --release --test owl_gnugo -- --ignored --nocapture"]
fn owl_reader_agrees_with_gnugo_on_many_dragons() {
    let Some(path) = gnugo_or_skip() else {
        return;
    };
    let mut gnugo = GnuGo::start(&path, &["--chinese-rules"]);
    let mut random = Agreement::default();
    compare_random_games(&mut gnugo, 9, &[30, 45, 60], 301, 300, &mut random);
    compare_random_games(&mut gnugo, 13, &[60, 100], 302, 200, &mut random);
    eprintln!("random games: {}", random.summary());
    let mut pro = Agreement::default();
    if compare_pro_games(&mut gnugo, 300, &mut pro) {
        eprintln!("professional games: {}", pro.summary());
    } else {
        eprintln!("professional games: ../shared/data/pro-games/pro-000.sgf not found");
    }
    if let Some(file) = std::env::var_os("HANE_OWL_REPORT") {
        let report = format!(
            "# random games\n{}\n# professional games\n{}",
            random.report, pro.report
        );
        std::fs::write(&file, report).expect("write the report");
    }
    // Measured: random games 82.4% of 500 reads (codes 81.2%; 93.4% of hane's 288 exact
    // reads), professional games 93.0% of 300 (codes 93.0%; 96.1% of 206). Most
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
