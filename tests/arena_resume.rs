//! Interrupted and distributed matches: a match killed in the middle and run again on the
//! same folder ends with the same games as an uninterrupted one (and the games finished
//! before the kill are not rewritten), and the merged report of two shards equals the
//! report of the whole match.
//!
//! The players are deterministic: hane in-process with a fixed playout count and one thread
//! (fixed seeds per game) against a fake engine that plays three moves and then passes,
//! slowly enough that the kill lands in the middle of the match.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hane::sgf::parse_game;

const GAMES: &str = "6";

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn match_command(dir: &Path, extra: &[&str]) -> Command {
    let fake = format!(
        "bash '{}/tests/fake_engines/fake_gtp.sh' slow",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut command = Command::new(env!("CARGO_BIN_EXE_hane"));
    command
        .args([
            "match",
            "--engine1",
            "hane:playouts=16,threads=1",
            "--engine2",
            &fake,
        ])
        .args(if extra.contains(&"-n") {
            &[][..]
        } else {
            &["-n", GAMES][..]
        })
        .args(["--size", "7", "--move-cap", "24", "--seed", "42", "-q"])
        .arg("--out")
        .arg(dir)
        .args(extra);
    command
}

fn run_to_end(dir: &Path, extra: &[&str]) -> String {
    let output = match_command(dir, extra).output().expect("hane runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("a UTF-8 report")
}

/// What must not depend on how the match was run: per game, the colours, result, moves.
fn games(dir: &Path) -> BTreeMap<u64, (serde_json::Value, Vec<String>)> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
        let sgf = std::fs::read_to_string(dir.join(record["sgf"].as_str().unwrap())).unwrap();
        let moves = parse_game(&sgf)
            .unwrap()
            .moves
            .iter()
            .map(|(c, m)| format!("{c:?} {m:?}"))
            .collect();
        let object = record.as_object_mut().unwrap();
        for timing in ["think_seconds", "date"] {
            object.remove(timing);
        }
        let game = number(&record);
        assert!(
            out.insert(game, (record, moves)).is_none(),
            "game {game} twice"
        );
    }
    out
}

/// A record's game number: `number`, counted from 1 (folders written before it was
/// introduced have `game`, counted from 0).
fn number(record: &serde_json::Value) -> u64 {
    match record.get("number") {
        Some(n) => n.as_u64().unwrap(),
        None => record["game"].as_u64().unwrap() + 1,
    }
}

fn without_timing(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("Time per move"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn line_count(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn killed_and_resumed_match_equals_an_uninterrupted_one_and_shards_merge() {
    let whole = fresh_dir("whole");
    let whole_report = run_to_end(&whole, &[]);
    let reference = games(&whole);
    assert_eq!(reference.len(), 6);
    assert!(whole_report.contains("Games: 6 finished of 6 planned"));

    // Kill a run after its second game is recorded.
    let resumed = fresh_dir("resumed");
    let mut child = match_command(&resumed, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let results = resumed.join("results.jsonl");
    let started = Instant::now();
    while line_count(&results) < 2 {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before the kill"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done_before = games(&resumed);
    assert!(
        (2..6).contains(&done_before.len()),
        "{} games before the kill",
        done_before.len()
    );
    let sgf_times: Vec<(PathBuf, std::time::SystemTime)> = done_before
        .values()
        .map(|(r, _)| {
            let path = resumed.join(r["sgf"].as_str().unwrap());
            let time = std::fs::metadata(&path).unwrap().modified().unwrap();
            (path, time)
        })
        .collect();
    let resumed_report = run_to_end(&resumed, &[]);
    assert_eq!(games(&resumed), reference);
    assert_eq!(
        without_timing(&resumed_report),
        without_timing(&whole_report)
    );
    for (path, time) in sgf_times {
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            time,
            "{} was rewritten",
            path.display()
        );
    }
    // A third run on a finished folder plays nothing and changes nothing.
    let lines = line_count(&results);
    run_to_end(&resumed, &[]);
    assert_eq!(line_count(&results), lines);

    // Two shards, merged.
    let shard1 = fresh_dir("shard1");
    let shard2 = fresh_dir("shard2");
    let shard_report = run_to_end(&shard1, &["--shard", "1/2"]);
    assert!(
        shard_report.contains("Games: 4 finished of 4 in shard 1/2 of a 6-game match"),
        "{shard_report}"
    );
    run_to_end(&shard2, &["--shard", "2/2", "--jobs", "2"]);
    let first = games(&shard1);
    let second = games(&shard2);
    // Each shard holds whole colour-swapped pairs.
    assert_eq!(first.keys().copied().collect::<Vec<_>>(), [1, 2, 5, 6]);
    assert_eq!(second.keys().copied().collect::<Vec<_>>(), [3, 4]);
    let mut merged = first;
    merged.extend(second);
    assert_eq!(merged, reference);
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["match", "report"])
        .arg(&shard1)
        .arg(&shard2)
        .output()
        .unwrap();
    assert!(output.status.success());
    let merged_report = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        without_timing(&merged_report),
        without_timing(&whole_report)
    );
    // The timing line is there too, computed from both shards.
    assert!(merged_report.contains("Time per move: "));

    // A folder of another match is refused, and left as it was.
    let output = match_command(&shard1, &["--komi", "5.5"]).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("differs in: komi"));
    assert_eq!(line_count(&shard1.join("results.jsonl")), 4);

    for dir in [whole, resumed, shard1, shard2] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_second_runner_on_the_same_folder_is_refused() {
    let dir = fresh_dir("locked");
    let results = dir.join("results.jsonl");
    let mut first = match_command(&dir, &[])
        .env("FAKE_GTP_DELAY", "0.3")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while line_count(&results) < 1 {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(first.try_wait().unwrap().is_none(), "finished too soon");
    let second = match_command(&dir, &[]).output().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "is in use by another hane match (process {})",
            first.id()
        )),
        "{stderr}"
    );
    assert!(first.wait().unwrap().success());
    assert_eq!(games(&dir).len(), 6, "each game once");
    assert!(!dir.join("match.lock").exists(), "the lock is removed");

    // A lock left by a runner that was killed (its process is gone) is taken over.
    let mut gone = Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    std::fs::write(dir.join("match.lock"), format!("{pid}\n{}\n", host.trim())).unwrap();
    run_to_end(&dir, &["-n", "8"]);
    assert_eq!(games(&dir).len(), 8);
    assert!(!dir.join("match.lock").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_are_numbered_from_one_and_old_folders_resume() {
    let dir = fresh_dir("numbering");
    run_to_end(&dir, &["-n", "4"]);
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.sort_by_key(number);
    for (k, record) in lines.iter().enumerate() {
        // The same number in results.jsonl, in the file name and in the SGF's comment.
        assert_eq!(record["number"], k as u64 + 1, "{record}");
        assert!(record.get("game").is_none(), "{record}");
        let sgf = format!("games/game-{:05}.sgf", k + 1);
        assert_eq!(record["sgf"], sgf.as_str());
        let text = std::fs::read_to_string(dir.join(&sgf)).unwrap();
        assert!(text.contains(&format!("Game {} of a hane match", k + 1)));
    }
    // A folder written before the numbering changed: `game` counts from 0. Its games
    // are kept, the missing ones played, and the report counts each game once.
    let old: Vec<String> = lines[..3]
        .iter()
        .map(|record| {
            let mut record = record.clone();
            let object = record.as_object_mut().unwrap();
            let n = object.remove("number").unwrap().as_u64().unwrap();
            object.insert("game".to_string(), (n - 1).into());
            format!("{record}\n")
        })
        .collect();
    std::fs::write(dir.join("results.jsonl"), old.concat()).unwrap();
    std::fs::remove_file(dir.join("games/game-00004.sgf")).unwrap();
    let report = run_to_end(&dir, &["-n", "5"]);
    assert!(
        report.contains("Games: 5 finished of 5 planned"),
        "{report}"
    );
    let played = games(&dir);
    assert_eq!(played.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    assert!(dir.join("games/game-00004.sgf").exists());
    assert!(dir.join("games/game-00005.sgf").exists());
    // Asked again for fewer games, it counts only those (the others stay on file).
    let report = run_to_end(&dir, &["-n", "3"]);
    assert!(
        report.contains("Games: 3 finished of 3 planned"),
        "{report}"
    );
    assert_eq!(line_count(&dir.join("results.jsonl")), 5);
    // A last line cut off just before its line break (a kill while appending) is not
    // counted; the next run cuts it off and plays the game again, so that it never
    // comes back as a record of its own.
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let cut = text.strip_suffix('\n').unwrap();
    std::fs::write(dir.join("results.jsonl"), cut).unwrap();
    let report = run_to_end(&dir, &["-n", "5"]);
    assert!(
        report.contains("Games: 5 finished of 5 planned"),
        "{report}"
    );
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text.ends_with('\n'));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn an_interrupted_match_reports_and_says_how_to_resume() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let interrupt = |child: &std::process::Child| {
        kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    };
    // Ctrl-C after a game is recorded: the report of the games so far, a word on how to
    // resume, and a failure status.
    let dir = fresh_dir("interrupted");
    let results = dir.join("results.jsonl");
    let child = match_command(&dir, &[])
        .env("FAKE_GTP_DELAY", "0.3")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while line_count(&results) < 1 {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    interrupt(&child);
    let signalled = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(signalled.elapsed() < Duration::from_secs(10));
    let report = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    let done = line_count(&results);
    assert!(
        report.contains(&format!("Games: {done} finished of 6 planned")),
        "{report}\n{stderr}"
    );
    assert!(
        stderr.contains("rerun the same command to resume"),
        "{stderr}"
    );
    assert!(!dir.join("match.lock").exists());
    run_to_end(&dir, &[]);
    assert_eq!(games(&dir).len(), 6);

    // An engine that hangs in the middle of a game does not hold the interrupt up: the
    // game in progress is abandoned (and played again on resuming).
    let hung = fresh_dir("interrupted-hang");
    let fake = format!(
        "bash '{}/tests/fake_engines/fake_gtp.sh' hang",
        env!("CARGO_MANIFEST_DIR")
    );
    let child = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["match", "--engine1", "hane:playouts=16,threads=1"])
        .args(["--engine2", &fake, "-n", "2", "--size", "7", "-q", "--out"])
        .arg(&hung)
        .env("FAKE_GTP_HANG_SECONDS", "600")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    interrupt(&child);
    let signalled = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(signalled.elapsed() < Duration::from_secs(5));
    assert!(!output.status.success());
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains("Games: 0 finished of 2 planned"),
        "{report}"
    );
    assert_eq!(line_count(&hung.join("results.jsonl")), 0);
    for dir in [dir, hung] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
