//! `hane selfplay` (hane against hane with other settings, in-process), the SPRT stopping a
//! decided match early, and the SVG chart.

use std::path::PathBuf;
use std::process::Command;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn records(dir: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs `hane selfplay` with the two players' settings and `extra` options into `dir`,
/// expects success, and returns the report.
fn selfplay(dir: &std::path::Path, player1: &str, player2: &str, extra: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["selfplay", "--player1", player1, "--player2", player2])
        .args(extra)
        .args(["-q", "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn selfplay_plays_hane_against_hane() {
    let dir = fresh_dir("selfplay");
    let report = selfplay(
        &dir,
        "playouts=8,threads=1",
        "playouts=32,threads=1",
        &["-n", "2", "--size", "7", "--move-cap", "40"],
    );
    assert!(
        report.contains("Match: hane(threads=1,playouts=8) vs hane(threads=1,playouts=32)"),
        "{report}"
    );
    let records = records(&dir);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert!(record["fault"].is_null());
        let sgf = std::fs::read_to_string(dir.join(record["sgf"].as_str().unwrap())).unwrap();
        // In-process hane comments on its moves.
        assert!(sgf.contains("playouts, "), "{sgf}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_compares_policies_and_search_parameters() {
    let dir = fresh_dir("selfplay-parameters");
    let report = selfplay(
        &dir,
        "playouts=16,threads=1,playout=pattern,priors=pattern,exploration=0.4,rave=500,expand=3",
        "playouts=16,threads=2,playout=light,priors=heuristic,reuse=false,early-stop=false",
        &["-n", "2", "--size", "7", "--move-cap", "30"],
    );
    assert!(
        report.contains(
            "Match: hane(threads=1,playouts=16,exploration=0.4,rave=500,expand=3) vs \
             hane(threads=2,playouts=16,playout=light,priors=heuristic,early-stop=off,\
             reuse=off)"
        ),
        "{report}"
    );
    assert_eq!(records(&dir).len(), 2);
    // A bad parameter stops the match before any game, with the reason.
    let bad = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["selfplay", "--player1", "rave=-5", "-n", "2", "-q", "--out"])
        .arg(dir.join("bad"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("rave"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    assert!(!dir.join("bad").join("results.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_a_decided_match_and_the_chart_shows_it() {
    // hane against an engine that passes from its fourth move on: hane wins every game,
    // and the SPRT (0 against 50 Elo) decides long before 200 games.
    let dir = fresh_dir("sprt");
    let passer = format!(
        "bash '{}/tests/fake_engines/fake_gtp.sh' passer",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args([
            "match",
            "--engine1",
            "hane:playouts=50,threads=1",
            "--engine2",
            &passer,
        ])
        .args([
            "-n",
            "200",
            "--size",
            "5",
            "--sprt",
            "0,50,0.05,0.05",
            "-q",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(report.contains("H1 accepted"), "{report}");
    let played = records(&dir).len();
    assert!((10..60).contains(&played), "{played} games");
    assert!(records(&dir).iter().all(|r| r["winner_engine"] == 1));
    let svg = std::fs::read_to_string(dir.join("score.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let line = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
    let points = line.split('"').nth(1).unwrap().split(' ').count();
    assert_eq!(points, played);
    // `match report` evaluates the SPRT on the folder the same way.
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["match", "report", "--sprt", "0,50,0.05,0.05"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), report);
    let _ = std::fs::remove_dir_all(&dir);
}
