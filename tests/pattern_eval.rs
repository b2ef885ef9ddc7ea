//! `hane patterns eval`: the output line on a hand-made record (broken games skipped with a
//! count), and the shipped table's move prediction on held-out professional games (files
//! `pro-000.sgf` and `pro-001.sgf` were never used for training), when the collection is
//! present next to the repository (`../shared/data/pro-games`; under CI it must be).

mod common;

use std::path::PathBuf;
use std::process::Command;

use hane::pattern::{self, Prediction, for_each_position};
use hane::sgf::parse_collection;

const GAMES: &str = "(;GM[1]SZ[9]KM[7];B[ee];W[gc];B[cg];W[cc];B[gg];W[dd];B[ed];W[dc];B[ec];W[eb])
(;GM[1]SZ[9];B[ee];W[ee];B[aa])
(;GM[1]SZ[9];B[zz])";

fn hane() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hane"))
}

#[test]
fn eval_prints_one_summary_line_and_counts_what_it_skipped() {
    let dir = std::env::temp_dir().join(format!("hane-pattern-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.sgf");
    std::fs::write(&file, GAMES).unwrap();
    let out = hane()
        .args(["patterns", "eval"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    // Game 1: 10 legal moves. Game 2: one legal move, then an illegal one (cut there).
    // Game 3: a point off the board (a broken game, skipped).
    let fields: Vec<(&str, &str)> = lines[0]
        .split(' ')
        .map(|kv| kv.split_once('=').unwrap())
        .collect();
    let keys: Vec<&str> = fields.iter().map(|&(k, _)| k).collect();
    assert_eq!(keys, ["positions", "top1", "top5", "mean_log_likelihood"]);
    assert_eq!(fields[0].1, "11");
    let top1: f64 = fields[1].1.parse().unwrap();
    let top5: f64 = fields[2].1.parse().unwrap();
    let ll: f64 = fields[3].1.parse().unwrap();
    assert!((0.0..=1.0).contains(&top1) && top1 <= top5 && top5 <= 1.0);
    assert!(ll < 0.0 && ll > -10.0);
    assert!(stderr.contains("1 broken"), "{stderr}");
    assert!(stderr.contains("1 cut at an illegal move"), "{stderr}");

    // A bad table is an error, with nothing on stdout.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "hane-patterns 1\ncapture x 1\n").unwrap();
    let out = hane()
        .args(["patterns", "eval", "--patterns"])
        .arg(&bad)
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));

    // The search's root priors rank the same positions; no log-likelihood.
    let out = hane()
        .args([
            "patterns",
            "eval",
            "--search-priors",
            "--settings",
            "book=off",
        ])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fields: Vec<(&str, &str)> = stdout
        .trim_end()
        .split(' ')
        .map(|kv| kv.split_once('=').unwrap())
        .collect();
    let keys: Vec<&str> = fields.iter().map(|&(k, _)| k).collect();
    assert_eq!(keys, ["positions", "top1", "top5"], "{stdout}");
    assert_eq!(fields[0].1, "11");
    let top1: f64 = fields[1].1.parse().unwrap();
    let top5: f64 = fields[2].1.parse().unwrap();
    assert!((0.0..=1.0).contains(&top1) && top1 <= top5 && top5 <= 1.0);
    // A bad setting is an error; settings need --search-priors.
    for args in [
        &["--search-priors", "--settings", "prior-weight=x"][..],
        &["--settings", "book=off"][..],
    ] {
        let out = hane()
            .args(["patterns", "eval"])
            .args(args)
            .arg(&file)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn held_out_collection() -> Option<PathBuf> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pro-games/pro-000.sgf");
    path.exists().then_some(path)
}

#[test]
fn shipped_table_predicts_held_out_professional_moves() {
    let Some(path) = held_out_collection() else {
        common::skip_unless_ci(
            "../shared/data/pro-games/pro-000.sgf",
            "the held-out professional games belong next to the repository, in ../shared",
        );
        return;
    };
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let games: Vec<_> = parse_collection(&text)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|g| g.size == 19)
        .take(12)
        .collect();
    assert_eq!(games.len(), 12);
    let table = pattern::default_table();
    let mut prediction = Prediction::default();
    for game in &games {
        let _ = for_each_position(game, |b, c, m| prediction.observe(table, b, c, m));
    }
    eprintln!("{}", prediction.summary());
    assert!(prediction.positions > 1500);
    assert!(
        prediction.top1_rate() > TOP1_FLOOR,
        "{}",
        prediction.summary()
    );
    assert!(
        prediction.top5_rate() > TOP5_FLOOR,
        "{}",
        prediction.summary()
    );
}

/// Measured on these 12 games with the shipped table, minus a margin.
const TOP1_FLOOR: f64 = 0.30;
const TOP5_FLOOR: f64 = 0.55;

/// A ranking's score: ties share the places they hold, a move no candidate matches is not
/// counted, and nothing is added to the log-likelihood.
#[test]
fn a_ranking_is_scored_with_shared_ties() {
    use hane::board::{Geometry, Move};
    let g = Geometry::new(9).unwrap();
    let at = |s: &str| Move::Play(g.parse_point(s).unwrap());
    let scores = [
        (at("A1"), 1.0),
        (at("B2"), 2.0),
        (at("C3"), 2.0),
        (at("D4"), 0.9),
        (at("E5"), 0.8),
        (at("F6"), 0.7),
        (Move::Pass, 0.5),
    ];
    let mut p = Prediction::default();
    p.observe_scores(&scores, at("B2"));
    assert_eq!((p.positions, p.top1, p.top5), (1, 0.5, 1.0));
    p.observe_scores(&scores, at("A1"));
    assert_eq!((p.positions, p.top1, p.top5), (2, 0.5, 2.0));
    p.observe_scores(&scores, Move::Pass);
    assert_eq!((p.positions, p.top1, p.top5), (3, 0.5, 2.0));
    p.observe_scores(&scores, at("J9"));
    assert_eq!(p.positions, 3);
    assert_eq!(p.log_likelihood, 0.0);
    assert_eq!(p.ranking_summary(), "positions=3 top1=0.1667 top5=0.6667");
}
