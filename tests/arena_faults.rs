//! Engines that crash, hang, answer garbage, refuse commands and play illegal moves
//! (`tests/fake_engines/fake_gtp.sh`) against hane in-process: each loses its game with the
//! right reason, is restarted for the next game, the match finishes, and the records (JSON
//! lines and SGF files) are complete and agree with each other.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hane::board::Rules;
use hane::sgf::parse_game;

fn hane() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hane"))
}

fn fake(mode: &str) -> String {
    format!(
        "bash '{}/tests/fake_engines/fake_gtp.sh' {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn records(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).expect("results file");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Checks a record against its SGF file: same players, result and moves, and the moves
/// replay legally under hane's rules.
fn check_sgf(dir: &Path, record: &serde_json::Value) {
    let path = dir.join(record["sgf"].as_str().unwrap());
    let text = std::fs::read_to_string(&path).expect("the game's SGF file");
    let game = parse_game(&text).expect("a readable SGF");
    assert_eq!(game.black_player.as_deref(), record["black"].as_str());
    assert_eq!(game.white_player.as_deref(), record["white"].as_str());
    assert_eq!(game.result.as_deref(), record["result"].as_str());
    assert_eq!(game.moves.len() as u64, record["moves"].as_u64().unwrap());
    for id in ["SZ[", "KM[", "RU[", "DT[", "PB[", "PW[", "RE["] {
        assert!(text.contains(id), "{id} missing in {text}");
    }
    game.replay(Rules::default(), None)
        .expect("the recorded moves are legal");
}

/// Plays two games of the faulty engine against hane and returns the records.
fn faulty_match(mode: &str, extra: &[&str]) -> (PathBuf, Vec<serde_json::Value>, Duration) {
    faulty_match_with(mode, extra, &[])
}

/// `faulty_match` with extra environment variables for the engines.
fn faulty_match_with(
    mode: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (PathBuf, Vec<serde_json::Value>, Duration) {
    let dir = fresh_dir(mode);
    let started = Instant::now();
    let output = hane()
        .envs(env.iter().copied())
        .args([
            "match",
            "--engine1",
            &fake(mode),
            "--engine2",
            "hane:playouts=20,threads=1",
        ])
        .args(["-n", "2", "--size", "7", "--move-cap", "30", "-q", "--out"])
        .arg(&dir)
        .args(extra)
        .output()
        .expect("hane runs");
    let elapsed = started.elapsed();
    assert!(
        output.status.success(),
        "{mode}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains("Games: 2 finished of 2 planned"),
        "{report}"
    );
    (dir.clone(), records(&dir), elapsed)
}

fn expect_faults(mode: &str, end: &str, detail: &str, fake_moves: u64, extra: &[&str]) {
    let (dir, records, _) = faulty_match(mode, extra);
    assert_eq!(records.len(), 2);
    for (k, record) in records.iter().enumerate() {
        assert_eq!(record["number"], k as u64 + 1);
        // The fake engine is engine 1: black in the first game, white in the second.
        let fake_colour = if k == 0 { 0 } else { 1 };
        assert_eq!(record["black_engine"], if k == 0 { 1 } else { 2 });
        assert_eq!(record["winner_engine"], 2, "{record}");
        assert_eq!(record["end"], end, "{record}");
        let fault = record["fault"].as_str().unwrap();
        assert!(fault.contains(detail), "{mode}: {fault}");
        let winner_letter = if k == 0 { "W" } else { "B" };
        let kind_letter = if end == "timeout" { "T" } else { "F" };
        assert_eq!(record["result"], format!("{winner_letter}+{kind_letter}"));
        // In both games the engine got through the setup and its ordinary moves: so it was
        // restarted after the first game's fault.
        assert_eq!(
            record["generated_moves"][fake_colour], fake_moves,
            "{mode}: {record}"
        );
        check_sgf(&dir, record);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    expect_faults("crash", "crash", "simulated crash", 3, &[]);
}

#[test]
fn a_hanging_engine_loses_on_time() {
    // The hang is a `sleep` child of the engine's shell, with a length no other process
    // uses, so that the test can see whether killing the engine also ended it.
    let hang_seconds = format!("3600.{}", std::process::id());
    let (dir, records, elapsed) = faulty_match_with(
        "hang",
        &["--move-time", "1", "--margin", "0.5"],
        &[("FAKE_GTP_HANG_SECONDS", &hang_seconds)],
    );
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.trim_end() == format!("sleep {hang_seconds}"))
        .collect();
    assert!(
        left.is_empty(),
        "the hung engine's child outlived it: {left:?}"
    );
    for record in &records {
        assert_eq!(record["end"], "timeout");
        assert_eq!(record["winner_engine"], 2);
        assert!(record["fault"].as_str().unwrap().contains("within 1.5 s"));
        check_sgf(&dir, record);
    }
    // Two hangs of 1.5 s each, and little else.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_slow_engine_loses_on_its_clock() {
    // One second of sudden death (0.1 s margin); the engine sleeps 0.4 s on every move, so
    // its third move cannot be in time, and on a loaded machine its second may not be
    // either. It plays ordinary moves (no passes), so the game cannot end on two passes
    // before that, whatever hane's own pass decision.
    let dir = fresh_dir("clock");
    let output = hane()
        .env("FAKE_GTP_DELAY", "0.4")
        .args([
            "match",
            "--engine1",
            &format!("{} 10", fake("slow")),
            "--engine2",
            "hane:playouts=20,threads=1",
        ])
        .args([
            "-n", "1", "--size", "7", "--time", "1", "--margin", "0.1", "-q",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(output.status.success());
    let records = records(&dir);
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!(record["end"], "timeout", "{record}");
    assert_eq!(record["result"], "W+T");
    // Only the moves in time are counted (a reply that overran is not, whether it was cut
    // off or arrived late): one or two, as three sleeps of 0.4 s do not fit in 1.1 s and
    // the first does; and never less time than their sleeps.
    let generated = record["generated_moves"][0].as_u64().unwrap();
    assert!((1..=2).contains(&generated), "{record}");
    let thought = record["think_seconds"][0].as_f64().unwrap();
    assert!(thought >= 0.4 * generated as f64, "{record}");
    check_sgf(&dir, record);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn garbage_answers_lose() {
    expect_faults("garbage", "bad-reply", "not GTP", 3, &[]);
}

#[test]
fn a_reply_that_is_not_a_move_loses() {
    expect_faults("badmove", "bad-reply", "Z99", 3, &[]);
}

#[test]
fn an_error_reply_to_genmove_loses() {
    expect_faults("refuse", "bad-reply", "cannot play", 3, &[]);
}

#[test]
fn an_illegal_move_loses() {
    // The fourth move is on an occupied point.
    expect_faults("illegal", "illegal-move", "point occupied", 4, &[]);
}

#[test]
fn refusing_a_legal_move_loses() {
    expect_faults("badplay", "bad-reply", "refused `play", 3, &[]);
}

/// Runs a 20-game match of `engine1` (named, so that it is not asked for a name) against
/// hane into a fresh folder; returns the output, the folder and how long it took.
fn broken_engine_match(label: &str, engine1: &str) -> (std::process::Output, PathBuf, Duration) {
    let dir = fresh_dir(label);
    let started = Instant::now();
    let output = hane()
        .args(["match", "--engine1", engine1, "--name1", "ghost"])
        .args(["--engine2", "hane:playouts=10,threads=1"])
        .args(["-n", "20", "--size", "5", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    (output, dir, started.elapsed())
}

#[test]
fn an_engine_that_fails_at_start_up_stops_the_match() {
    // An engine that cannot be started, and one that starts but refuses the board size:
    // a few games that end before the engine's first move, then the match stops with a
    // clear message and a failure status, instead of twenty forfeits "won" by the other
    // engine. The games are not recorded: rerunning with a working engine plays them.
    for (label, engine, why) in [
        (
            "nostart",
            "/nonexistent/engine --gtp".to_string(),
            "cannot start",
        ),
        ("nosetup", fake("nosetup"), "refused `boardsize"),
    ] {
        let (output, dir, elapsed) = broken_engine_match(label, &engine);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{label}: {stderr}");
        assert!(output.stdout.is_empty(), "{label}");
        assert!(
            stderr.contains("engine 1 (ghost) failed 3 games in a row before its first move"),
            "{label}: {stderr}"
        );
        assert!(stderr.contains(why), "{label}: {stderr}");
        assert!(stderr.contains("rerun"), "{label}: {stderr}");
        let recorded = std::fs::read_to_string(dir.join("results.jsonl")).unwrap_or_default();
        assert_eq!(recorded, "", "{label}: nothing is recorded");
        assert!(elapsed < Duration::from_secs(30), "{label}: {elapsed:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    // Without a name, the engine is asked for one: a clear error, and no folder.
    let other = fresh_dir("nostart-unnamed");
    let output = hane()
        .args([
            "match",
            "--engine1",
            "/nonexistent/engine",
            "--engine2",
            "hane",
        ])
        .arg("--out")
        .arg(&other)
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("does not start"));
    assert!(!other.exists());
}

#[test]
fn settings_reach_the_engine_over_gtp() {
    let dir = fresh_dir("protocol");
    let log = dir.with_extension("log");
    let _ = std::fs::remove_file(&log);
    let output = hane()
        .env("FAKE_GTP_LOG", &log)
        .args([
            "match",
            "--engine1",
            // Ordinary moves all the way to the cap, so that the game cannot end on two
            // passes first, whatever hane's own pass decision.
            &format!("{} 20", fake("passer")),
            "--engine2",
            "hane:playouts=10,threads=1",
        ])
        .args(["-n", "2", "--size", "9", "--komi", "0.5", "--handicap", "2"])
        .args(["--time", "60", "--byo-yomi", "10", "--byo-yomi-stones", "5"])
        .args(["--move-cap", "12", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let sent = std::fs::read_to_string(&log).unwrap();
    for expected in [
        "boardsize 9",
        "clear_board",
        "komi 0.5",
        "set_free_handicap C3 G7",
        "time_settings 60 10 5",
        "time_left b 60 0",
        "time_left w 60 0",
        "final_status_list dead",
    ] {
        assert!(sent.contains(expected), "{expected:?} not sent:\n{sent}");
    }
    let records = records(&dir);
    for record in &records {
        check_sgf(&dir, record);
        // The move cap ends the game, which is then counted.
        assert_eq!(record["end"], "move-cap");
        assert!(record["score"].is_number());
        let text = std::fs::read_to_string(dir.join(record["sgf"].as_str().unwrap())).unwrap();
        assert!(text.contains("HA[2]") && text.contains("KM[0.5]"), "{text}");
        // The fake engine's stderr becomes move comments.
        assert!(text.contains("C[thinking about"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&log);
}

#[test]
fn an_engine_that_keeps_crashing_stops_the_match_and_keeps_the_games() {
    // It plays two moves, then crashes, game after game.
    let dir = fresh_dir("keeps-crashing");
    let output = hane()
        .args([
            "match",
            "--engine1",
            &format!("{} 2", fake("crash")),
            "--engine2",
            "hane:playouts=20,threads=1",
        ])
        .args(["-n", "20", "--size", "7", "-j", "1", "-q", "--out"])
        .arg(&dir)
        .output()
        .expect("hane runs");
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("lost 3 games in a row by its faults")
            && stderr.contains("simulated crash"),
        "{stderr}"
    );
    // The game after the third may have started before the stop: it is played out too.
    let records = records(&dir);
    let n = records.len();
    assert!((3..=4).contains(&n), "{n} games recorded");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains(&format!("Games: {n} finished of 20 planned")),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "Faults: {n} of {n} games ended by an engine's fault"
        )),
        "{report}"
    );
    for record in &records {
        assert_eq!(record["end"], "crash", "{record}");
        check_sgf(&dir, record);
    }
    assert!(dir.join("report.txt").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_reply_is_a_bad_reply_and_stays_out_of_the_records() {
    // 50 MB on one line in answer to genmove.
    let (dir, records, _) = faulty_match("huge", &[]);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record["end"], "bad-reply", "{record}");
        let fault = record["fault"].as_str().unwrap();
        assert!(fault.contains("a line over"), "{fault}");
        assert!(fault.len() < 2000, "a fault of {} bytes", fault.len());
        check_sgf(&dir, record);
    }
    let size = |path: PathBuf| std::fs::metadata(path).unwrap().len();
    assert!(size(dir.join("results.jsonl")) < 20_000);
    for record in &records {
        let sgf = dir.join(record["sgf"].as_str().unwrap());
        assert!(size(sgf) < 20_000);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn move_comments_keep_what_the_engine_says_not_its_board() {
    let (dir, records, _) = faulty_match("verbose", &[]);
    let sgf = std::fs::read_to_string(dir.join(records[0]["sgf"].as_str().unwrap())).unwrap();
    assert!(sgf.contains("Playouts: 1234, Win: 56.7%"), "{sgf}");
    assert!(!sgf.contains(". . X O"), "{sgf}");
    let _ = std::fs::remove_dir_all(&dir);
}
