//! `hane tune` end to end, with tiny runs (7x7, a few playouts per move, a few iterations):
//! the output folder's contents, a run resumed after a kill or with more iterations ending
//! where an uninterrupted run ends, shards sharing a folder reaching the same state as one
//! process, a GTP command line as the engine, and clear errors for bad parameters.
//!
//! hane in-process with a fixed playout count and one thread plays the same game for the
//! same seed, so runs can be compared state for state.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tune_command(dir: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hane"));
    command
        .args([
            "tune",
            "--params",
            "exploration,rave,expand",
            "--size",
            "7",
            "--move-cap",
            "60",
            "--seed",
            "5",
            "--spsa-big-a",
            "1",
            "-q",
        ])
        .arg("--out")
        .arg(dir)
        .args(extra);
    command
}

fn run_ok(mut command: Command) -> Output {
    let output = command.output().expect("hane runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .count()
}

const ENGINE: &str = "hane:threads=1,playouts=12";

#[test]
fn a_tiny_run_fills_its_folder() {
    let dir = fresh_dir("folder");
    let output = run_ok(tune_command(
        &dir,
        &[
            "--engine",
            ENGINE,
            "-n",
            "3",
            "--verify-games",
            "4",
            "-j",
            "2",
        ],
    ));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("hane tune: 3 iterations of SPSA"),
        "{stdout}"
    );
    assert!(stdout.contains("Verification (engine 1 tuned"), "{stdout}");
    let config = json(&dir.join("tune.json"));
    let keys: Vec<&str> = config["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["exploration", "rave", "expand"]);
    // The start is hane's values on 7x7 (the small-board selection constants; expand is
    // auto: 2 up to 7x7).
    assert_eq!(config["start"], serde_json::json!([0.0057, 1556.0, 2.0]));
    let state = json(&dir.join("state.json"));
    let history = state["history"].as_array().unwrap();
    assert_eq!(history.len(), 3);
    for (k, step) in history.iter().enumerate() {
        let folder = dir.join(format!("iterations/{:05}/all", k + 1));
        assert_eq!(lines(&folder.join("results.jsonl")), 2, "iteration {k}");
        assert_eq!(step["games"], 2);
        let matched = json(&folder.join("match.json"));
        let plus = matched["engines"][0].as_str().unwrap();
        assert!(
            plus.starts_with("hane:threads=1,playouts=12,exploration="),
            "{plus}"
        );
        // The ranges come from the settings definition.
        let expand = step["plus"][2].as_f64().unwrap();
        assert!((1.0..=32.0).contains(&expand) && expand.fract() == 0.0);
    }
    assert_eq!(state["theta"], history[2]["next"]);
    let svg = std::fs::read_to_string(dir.join("params.svg")).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 3);
    assert_eq!(
        lines(&dir.join("verify/after-3-mean-of-2/all/results.jsonl")),
        4
    );
    let result = std::fs::read_to_string(dir.join("result.txt")).unwrap();
    assert!(result.contains("Tuned: hane:threads=1,playouts=12,exploration="));
    // The tuned values average theta over the last half of the iterations (2 of 3), and
    // the verification plays them.
    assert!(
        result.contains("the mean of theta over the last 2 of the 3 iterations"),
        "{result}"
    );
    let tuned = result
        .lines()
        .find_map(|l| l.strip_prefix("Tuned: "))
        .unwrap();
    let verified = json(&dir.join("verify/after-3-mean-of-2/all/match.json"));
    assert_eq!(verified["engines"][0].as_str().unwrap(), tuned);
    let exploration: f64 = tuned
        .split(',')
        .find_map(|kv| kv.strip_prefix("exploration="))
        .unwrap()
        .parse()
        .unwrap();
    let mean =
        (history[1]["next"][0].as_f64().unwrap() + history[2]["next"][0].as_f64().unwrap()) / 2.0;
    assert!(
        (exploration - mean).abs() < 1e-3,
        "{exploration} against {mean}"
    );
    assert!(
        result.contains("Slopes (the mean of the result"),
        "{result}"
    );
    assert!(result.contains("SPRT on the Elo of tuned("), "{result}");
    assert!(result.contains("Conclusion: "), "{result}");
    // A rerun of a finished run plays nothing more and says the same.
    let again = run_ok(tune_command(
        &dir,
        &["--engine", ENGINE, "-n", "3", "--verify-games", "4"],
    ));
    assert_eq!(String::from_utf8(again.stdout).unwrap(), stdout);
    assert_eq!(json(&dir.join("state.json")), state);
    // Grown by one iteration, the finished run verifies its new values in a folder of
    // their own and reports on them.
    run_ok(tune_command(
        &dir,
        &["--engine", ENGINE, "-n", "4", "--verify-games", "4"],
    ));
    assert_eq!(
        lines(&dir.join("verify/after-4-mean-of-2/all/results.jsonl")),
        4
    );
    assert_eq!(
        lines(&dir.join("verify/after-3-mean-of-2/all/results.jsonl")),
        4
    );
    let grown = std::fs::read_to_string(dir.join("result.txt")).unwrap();
    assert!(
        grown.contains("the mean of theta over the last 2 of the 4 iterations"),
        "{grown}"
    );
    // Another run in the same folder is refused.
    let other = tune_command(&dir, &["--engine", ENGINE, "-n", "4", "--pairs", "2"])
        .output()
        .unwrap();
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("differs in: pairs"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The states of two folders, compared as JSON.
fn same_state(a: &Path, b: &Path) {
    assert_eq!(json(&a.join("state.json")), json(&b.join("state.json")));
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_ends() {
    let engine = "hane:threads=1,playouts=40";
    let whole = fresh_dir("whole");
    run_ok(tune_command(
        &whole,
        &["--engine", engine, "-n", "12", "--verify-games", "0"],
    ));
    // Stopped after 2 iterations, then asked for all 12.
    let grown = fresh_dir("grown");
    run_ok(tune_command(
        &grown,
        &["--engine", engine, "-n", "2", "--verify-games", "0"],
    ));
    assert_eq!(
        json(&grown.join("state.json"))["history"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    run_ok(tune_command(
        &grown,
        &["--engine", engine, "-n", "12", "--verify-games", "0"],
    ));
    same_state(&whole, &grown);
    // Killed (SIGTERM, as a scheduler does) after its first iteration, maybe in the middle
    // of a game, then rerun.
    let killed = fresh_dir("killed");
    let mut child = tune_command(
        &killed,
        &["--engine", engine, "-n", "12", "--verify-games", "0"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(killed.join("state.json"))
        .map_or(true, |t| !t.contains("\"iteration\": 0"))
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
    }
    let status = child.wait().unwrap();
    // 130 when the signal landed before the end (0 if the run was already done).
    assert!(status.success() || status.code() == Some(130), "{status:?}");
    run_ok(tune_command(
        &killed,
        &["--engine", engine, "-n", "12", "--verify-games", "0"],
    ));
    same_state(&whole, &killed);
    for dir in [whole, grown, killed] {
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn shards_sharing_a_folder_reach_the_state_of_one_process() {
    let args = [
        "--engine",
        ENGINE,
        "-n",
        "3",
        "--pairs",
        "2",
        "--verify-games",
        "4",
    ];
    let single = fresh_dir("single");
    run_ok(tune_command(&single, &args));
    let shared = fresh_dir("shared");
    let children: Vec<_> = ["1/2", "2/2"]
        .iter()
        .map(|shard| {
            tune_command(&shared, &args)
                .args(["--shard", shard])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    same_state(&single, &shared);
    assert!(
        shared
            .join("iterations/00001/shard-1-of-2/results.jsonl")
            .is_file()
    );
    assert!(
        shared
            .join("iterations/00003/shard-2-of-2/results.jsonl")
            .is_file()
    );
    assert_eq!(
        lines(&shared.join("verify/after-3-mean-of-2/shard-2-of-2/results.jsonl")),
        2
    );
    let tuned = |dir: &Path| {
        std::fs::read_to_string(dir.join("result.txt"))
            .unwrap()
            .lines()
            .find(|l| l.starts_with("Tuned: "))
            .unwrap()
            .to_string()
    };
    assert_eq!(tuned(&single), tuned(&shared));
    for dir in [single, shared] {
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn a_gtp_command_line_gets_the_values_as_flags() {
    let dir = fresh_dir("gtp");
    let engine = format!(
        "{} gtp --threads 1 --playouts 12",
        env!("CARGO_BIN_EXE_hane")
    );
    run_ok(tune_command(
        &dir,
        &["--engine", &engine, "-n", "1", "--verify-games", "0"],
    ));
    let matched = json(&dir.join("iterations/00001/all/match.json"));
    let plus = matched["engines"][0].as_str().unwrap();
    assert!(
        plus.starts_with(&format!("{engine} --exploration "))
            && plus.contains(" --rave ")
            && plus.contains(" --expand "),
        "{plus}"
    );
    let records = std::fs::read_to_string(dir.join("iterations/00001/all/results.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 2);
    assert!(!records.contains("\"fault\":\""), "{records}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_parameters_are_refused_with_a_reason() {
    for (args, says) in [
        (&["--params", "threads"][..], "\"threads\" is not tunable"),
        (
            &["--params", "exploration,bogus"][..],
            "unknown setting \"bogus\"",
        ),
        (&["--start", "rave=1"][..], "outside the tuning range"),
        (&["--engine", "hane:rave=100"][..], "which is tuned"),
        (&["--jobs", "0"][..], "--jobs must be at least 1"),
        (
            &["--average", "1.5"][..],
            "--average must be a share from 0 to 1",
        ),
    ] {
        let dir = fresh_dir("bad");
        let output = Command::new(env!("CARGO_BIN_EXE_hane"))
            .args(["tune", "--out"])
            .arg(&dir)
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
