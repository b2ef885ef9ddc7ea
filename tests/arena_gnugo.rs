//! End-to-end matches on 9x9 with GNU Go (`/usr/games/gnugo`, level 1): against hane
//! in-process, and against itself from an SGF opening. The scores hane's referee gives are
//! checked against GNU Go's own count of the recorded game (`loadsgf` + `final_score` with
//! Chinese rules) wherever both players agreed on the dead stones.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hane::board::Rules;
use hane::sgf::parse_game;

const GNUGO: &str = "/usr/games/gnugo";

/// GNU Go is installed by CI (`.ci/install.d/`), where its absence fails the tests;
/// elsewhere the tests say so and skip.
fn gnugo_available() -> bool {
    if Path::new(GNUGO).exists() {
        return true;
    }
    common::skip_unless_ci(
        &format!("GNU Go at {GNUGO}"),
        "apt-get install -y gnugo (.ci/install.d/10-gnugo.sh)",
    );
    false
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run_match(dir: &Path, args: &[&str]) -> (String, Vec<serde_json::Value>) {
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .arg("match")
        .args(args)
        .args(["-q", "--out"])
        .arg(dir)
        .output()
        .expect("hane runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    // Lines come in the order games end; with --jobs that need not be game order.
    let mut records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    records.sort_by_key(|r| r["number"].as_u64());
    (String::from_utf8(output.stdout).unwrap(), records)
}

/// GNU Go's area count of a finished SGF record.
fn gnugo_final_score(sgf: &Path) -> String {
    let mut child = Command::new(GNUGO)
        .args(["--mode", "gtp", "--chinese-rules", "--level", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    write!(
        child.stdin.take().unwrap(),
        "loadsgf {}\nfinal_score\nquit\n",
        sgf.display()
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text
        .split("\n\n")
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .collect();
    answers[1].trim_start_matches('=').trim().to_string()
}

/// Checks one record: its SGF agrees with it and replays legally, and the winner agrees
/// with the result.
fn check_record(dir: &Path, record: &serde_json::Value) -> PathBuf {
    let path = dir.join(record["sgf"].as_str().unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    let game = parse_game(&text).unwrap();
    assert_eq!(game.result.as_deref(), record["result"].as_str());
    assert_eq!(game.size, 9);
    assert_eq!(game.moves.len() as u64, record["moves"].as_u64().unwrap());
    game.replay(Rules::default(), None).unwrap();
    let result = record["result"].as_str().unwrap();
    let black_engine = record["black_engine"].as_u64().unwrap();
    let winner = record["winner_engine"].as_u64();
    match result.chars().next() {
        Some('B') => assert_eq!(winner, Some(black_engine)),
        Some('W') => assert_eq!(winner, Some(3 - black_engine)),
        _ => assert_eq!(winner, None),
    }
    if let Some(score) = record["score"].as_f64() {
        assert_eq!(hane::board::format_score(score as f32), result);
    }
    path
}

#[test]
fn gnugo_against_hane_in_process() {
    if !gnugo_available() {
        return;
    }
    let dir = fresh_dir("gnugo-hane");
    let gnugo = format!("{GNUGO} --mode gtp --level 1");
    let (report, records) = run_match(
        &dir,
        &[
            "--engine1",
            &gnugo,
            "--engine2",
            "hane:playouts=30,threads=1",
            "-n",
            "2",
            "-j",
            "2",
        ],
    );
    assert_eq!(records.len(), 2);
    assert!(report.contains("Match: GNU Go"), "{report}");
    for (k, record) in records.iter().enumerate() {
        assert_eq!(record["number"], k as u64 + 1);
        assert_eq!(record["black_engine"], if k == 0 { 1 } else { 2 });
        assert!(record["fault"].is_null(), "{record}");
        check_record(&dir, record);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gnugo_against_itself_from_an_opening_scores_as_gnugo_counts() {
    if !gnugo_available() {
        return;
    }
    let dir = fresh_dir("gnugo-gnugo");
    let openings = fresh_dir("gnugo-openings");
    std::fs::create_dir_all(&openings).unwrap();
    std::fs::write(
        openings.join("a.sgf"),
        "(;GM[1]FF[4]SZ[9]KM[0.5];B[ee];W[gc];B[cg])",
    )
    .unwrap();
    let gnugo = format!("{GNUGO} --mode gtp --level 1");
    let (report, records) = run_match(
        &dir,
        &[
            "--engine1",
            &gnugo,
            "--engine2",
            &gnugo,
            "-n",
            "2",
            "-j",
            "2",
            "--komi",
            "6.5",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    // Two engines with the same name are told apart.
    assert!(report.contains(" #1 vs GNU Go"), "{report}");
    assert_eq!(records.len(), 2);
    let mut compared = 0;
    for (k, record) in records.iter().enumerate() {
        // One opening, played twice with colours swapped.
        assert_eq!(record["black_engine"], if k == 0 { 1 } else { 2 });
        assert!(record["opening"].as_str().unwrap().ends_with("a.sgf#1"));
        let path = check_record(&dir, record);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(";B[ee]\n;W[gc]\n;B[cg]"), "{text}");
        assert!(text.contains("KM[6.5]"));
        if record["end"] == "two-passes" && record["dead_agreed"] == true {
            assert_eq!(gnugo_final_score(&path), record["result"].as_str().unwrap());
            compared += 1;
        }
    }
    assert!(compared > 0, "no game to compare with GNU Go's count");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&openings);
}
