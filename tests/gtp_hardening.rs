//! The engine against hostile or careless input and surroundings: game records of any depth
//! and size, special files given to `loadsgf`, absurd komi in records, a closed stderr,
//! the end of input during a search, and the log file.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Session;
use hane::engine::Engine;
use hane::settings::{Auto, PlayoutKind, PriorsKind, Settings};
use hane::sgf::{SgfError, parse_collection, parse_game};

mod common;

const HANE: &str = env!("CARGO_BIN_EXE_hane");

/// A fresh directory for one test's files, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("hane-hardening-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `hane ARGS` with piped stdin and stdout, stderr dropped.
fn spawn_hane<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> std::process::Child {
    Command::new(HANE)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hane")
}

const CHEAP: &[&str] = &[
    "--threads",
    "1",
    "--playouts",
    "30",
    "--seed",
    "1",
    "--playout",
    "light",
    "--priors",
    "heuristic",
];

fn cheap_settings() -> Settings {
    {
        let mut s = Settings::default();
        s.game.threads = Auto::Value(1);
        s.game.seed = Some(1);
        s.search.playout.playout = PlayoutKind::Light;
        s.search.priors = PriorsKind::Heuristic;
        s.game.playouts = Some(30);
        s.game.judge_playouts = 50;
        s
    }
}

/// Runs one command in-process and returns the whole response text.
fn run(engine: &mut Engine, line: &str) -> String {
    let mut out = Vec::new();
    engine.execute_line(line, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

// ----- Item 1: records of any depth -----------------------------------------------------------

/// A main line of `nodes` empty nodes after the root.
fn deep_main_line(nodes: usize) -> String {
    format!("(;SZ[9]{})", ";".repeat(nodes))
}

/// `levels` variations nested in each other.
fn deep_variations(levels: usize) -> String {
    format!(
        "(;SZ[9]{}{}",
        "(;B[aa]".repeat(levels),
        ")".repeat(levels + 1)
    )
}

#[test]
fn records_of_any_depth_are_read_without_overflowing_the_stack() {
    for text in [deep_main_line(100_000), deep_variations(100_000)] {
        let game = parse_game(&text).expect("a deep record is still a game");
        assert_eq!(game.size, 9);
        let games = parse_collection(&format!("{text}\n{text}")).unwrap();
        assert_eq!(games.len(), 2);
    }
    // The nested variations' main line is their first moves: B[aa] at every level.
    let game = parse_game(&deep_variations(1_000)).unwrap();
    assert_eq!(game.moves.len(), 1_000);
}

#[test]
fn loadsgf_of_a_deep_record_answers() {
    let dir = TempDir::new("deep");
    dir.write("deep.sgf", deep_main_line(100_000));
    let mut s = Session::start_in(CHEAP, Some(&dir.0));
    assert_eq!(s.ask("loadsgf deep.sgf"), ["= "]);
    assert_eq!(s.ask("name"), ["= hane"]);
    assert_eq!(s.ask("quit"), ["= "]);
}

// ----- Item 2: a closed stderr ---------------------------------------------------------------

#[test]
fn a_closed_stderr_does_not_stop_the_engine() {
    let mut args = vec!["--log-level", "debug"];
    args.extend_from_slice(CHEAP);
    let mut child = Command::new(HANE)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hane");
    // Every log line written from now on fails (EPIPE): nobody reads stderr any more.
    drop(child.stderr.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"boardsize 9\ngenmove b\nname\nbogus\nquit\n")
        .unwrap();
    drop(stdin);
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    let responses: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(responses.len(), 5, "{out:?}");
    assert_eq!(responses[2], "= hane");
    assert_eq!(responses[3], "? unknown command");
    assert!(status.success(), "{status}");
}

// ----- Item 3: what loadsgf reads ------------------------------------------------------------

#[test]
fn loadsgf_refuses_what_is_not_a_regular_file() {
    let dir = TempDir::new("special");
    let fifo = dir.path("fifo.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let mut s = Session::start_in(CHEAP, Some(&dir.0));
    let quick = Duration::from_secs(10);
    let mut names = vec!["/dev/stdin", "/dev/zero", "."];
    if made.is_ok_and(|status| status.success()) {
        names.push("fifo.sgf");
    }
    for name in names {
        s.send(&format!("loadsgf {name}\n"));
        assert_eq!(s.response_within(quick), ["? cannot load file"], "{name}");
    }
    // The GTP input was not read as a record: the engine still answers.
    assert_eq!(s.ask("name"), ["= hane"]);
}

#[test]
fn loadsgf_refuses_files_with_no_game() {
    use rand::{RngExt as _, SeedableRng as _};
    let dir = TempDir::new("nogame");
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
    let mut noise: Vec<u8> = (0..20_000).map(|_| rng.random::<u8>()).collect();
    // Random data that happens to hold the start of a game tree.
    noise[5_000..5_002].copy_from_slice(b"(;");
    dir.write("noise.sgf", &noise);
    dir.write("empty.sgf", "");
    dir.write("unclosed.sgf", "(;SZ[9];B[ee];W[cc]");
    dir.write("text.sgf", "Just some notes (; about a game\n");
    let mut s = Session::start_in(CHEAP, Some(&dir.0));
    assert_eq!(s.ask("boardsize 7"), ["= "]);
    assert_eq!(s.ask("play b d4"), ["= "]);
    for name in ["noise.sgf", "empty.sgf", "unclosed.sgf", "text.sgf"] {
        assert_eq!(
            s.ask(&format!("loadsgf {name}")),
            ["? cannot load file"],
            "{name}"
        );
    }
    // Nothing changed.
    let board = s.ask("showboard").join("\n");
    assert!(board.contains("black to move") || board.contains("white to move"));
    assert!(board.contains(" 7  "), "{board}");
    assert!(board.contains('X'), "{board}");
}

/// A game with one long comment of `comment_bytes` bytes.
fn commented_game(comment_bytes: usize) -> String {
    format!(
        "(;SZ[9]KM[6.5]C[{}];B[ee];W[cc])",
        "x".repeat(comment_bytes)
    )
}

#[test]
fn loadsgf_reads_at_most_max_sgf_bytes_and_only_the_first_game() {
    let dir = TempDir::new("size");
    dir.write("long.sgf", commented_game(4_000));
    // A collection far over the limit whose first game is short: only that game is read.
    let mut collection = String::from("(;SZ[9]KM[0.5];B[gg])\n");
    while collection.len() < 3 << 20 {
        collection.push_str(&commented_game(1_000));
        collection.push('\n');
    }
    dir.write("collection.sgf", &collection);
    let mut args = CHEAP.to_vec();
    args.extend_from_slice(&["--max-sgf-bytes", "2K"]);
    let mut s = Session::start_in(&args, Some(&dir.0));
    assert_eq!(s.ask("loadsgf long.sgf"), ["? cannot load file"]);
    let start = Instant::now();
    assert_eq!(s.ask("loadsgf collection.sgf"), ["= "]);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let board = s.ask("showboard").join("\n");
    assert!(board.contains("komi 0.5"), "{board}");
    // The default limit (a few MB) takes the long game.
    let mut s = Session::start_in(CHEAP, Some(&dir.0));
    assert_eq!(s.ask("loadsgf long.sgf"), ["= "]);
}

// ----- Item 4: komi in records ---------------------------------------------------------------

#[test]
fn records_with_absurd_komi_are_refused() {
    for komi in [
        "nan", "NaN", "inf", "-inf", "infinity", "1e309", "1e6", "-2e6", "0x10", "7,5", "seven", "",
    ] {
        let text = format!("(;GM[1]SZ[9]KM[{komi}];B[ee])");
        assert!(
            matches!(parse_game(&text), Err(SgfError::BadProperty(p)) if p.starts_with("KM[")),
            "KM[{komi}]"
        );
    }
    for (komi, value) in [
        ("6.5", 6.5),
        ("-3", -3.0),
        ("999999", 999_999.0),
        ("0", 0.0),
    ] {
        let game = parse_game(&format!("(;SZ[9]KM[{komi}])")).unwrap();
        assert_eq!(game.komi, Some(value), "KM[{komi}]");
    }
    let dir = TempDir::new("komi");
    let mut engine = Engine::new(cheap_settings(), hane::pattern::PatternTables::Builtin);
    assert_eq!(run(&mut engine, "komi 5.5"), "= \n\n");
    for (name, komi) in [
        ("nan.sgf", "nan"),
        ("hex.sgf", "0x10"),
        ("comma.sgf", "7,5"),
    ] {
        let path = dir.write(name, format!("(;GM[1]SZ[9]KM[{komi}];B[ee])"));
        let reply = run(&mut engine, &format!("loadsgf {}", path.display()));
        assert_eq!(reply, "? cannot load file\n\n", "KM[{komi}]");
        assert_eq!(engine.state().komi(), 5.5, "KM[{komi}]");
    }
}

// ----- Item 5: the end of input during a search ----------------------------------------------

#[test]
fn end_of_input_stops_a_running_genmove() {
    let mut child = spawn_hane(["--threads", "1", "--time", "10", "--seed", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"boardsize 9\ngenmove b\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    drop(stdin);
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    let took = start.elapsed();
    assert!(status.success(), "{status}");
    assert!(
        took < Duration::from_secs(4),
        "exited {took:?} after the end of input"
    );
    let responses: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(responses.len(), 2, "{out:?}");
    assert!(
        regex::Regex::new(r"^= ([A-HJ]\d|pass)$")
            .unwrap()
            .is_match(responses[1]),
        "{out:?}"
    );
}

#[test]
fn commands_queued_before_the_end_of_input_still_run_in_full() {
    // The transcript style: everything sent at once, then stdin closed. The genmove is not
    // the last command, so it searches its full 200 playouts, like the same genmove with
    // stdin left open.
    let script = "boardsize 9\ngenmove b\ngenmove w\nprintsgf\nquit\n";
    let mut args = vec!["--threads", "1", "--playouts", "200", "--seed", "4"];
    args.extend_from_slice(&["--playout", "light", "--priors", "heuristic"]);
    let output = |close_at_once: bool| {
        let mut child = spawn_hane(&args);
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
        let keep = if close_at_once {
            drop(stdin);
            None
        } else {
            Some(stdin)
        };
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        drop(keep);
        child.wait().unwrap();
        out
    };
    assert_eq!(output(true), output(false));
}

// ----- Item 6: small things ------------------------------------------------------------------

#[test]
fn boardsize_of_any_integer_out_of_range_is_an_unacceptable_size() {
    let mut engine = Engine::new(cheap_settings(), hane::pattern::PatternTables::Builtin);
    for size in [
        "99999999999",
        "4294967296",
        "-1",
        "26",
        "0",
        "9 99999999999",
    ] {
        assert_eq!(
            run(&mut engine, &format!("boardsize {size}")),
            "? unacceptable size\n\n",
            "{size}"
        );
    }
    for bad in ["nine", "9.0", "", "1e3"] {
        assert_eq!(
            run(&mut engine, &format!("boardsize {bad}")),
            "? syntax error\n\n",
            "{bad}"
        );
    }
    assert_eq!(engine.state().size(), 19);
}

#[test]
fn printsgf_does_not_overwrite_a_file() {
    let dir = TempDir::new("printsgf");
    let existing = dir.write("existing.sgf", "keep me");
    let mut engine = Engine::new(cheap_settings(), hane::pattern::PatternTables::Builtin);
    run(&mut engine, "boardsize 9");
    run(&mut engine, "play b e5");
    let reply = run(&mut engine, &format!("printsgf {}", existing.display()));
    assert!(reply.starts_with("? cannot save file"), "{reply}");
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me");
    let fresh = dir.path("fresh.sgf");
    assert_eq!(
        run(&mut engine, &format!("printsgf {}", fresh.display())),
        "= \n\n"
    );
    let game = parse_game(&std::fs::read_to_string(&fresh).unwrap()).unwrap();
    assert_eq!(game.moves.len(), 1);
}

#[test]
fn pattern_file_errors_name_the_line_not_its_content() {
    let dir = TempDir::new("patterns");
    let secret = dir.write("secret.txt", "root:SECRET-HASH:0:0\n");
    let out = Command::new(HANE)
        .arg("--patterns")
        .arg(&secret)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("SECRET"), "{stderr}");
    assert!(stderr.contains("line 1"), "{stderr}");
    let table = hane::pattern::PatternTable::uniform().to_text();
    let body_line = table.lines().count() + 1;
    for bad in [
        "capture 1 2 SECRET",
        "SECRET 1 2",
        "capture SECRET 2",
        "capture 1 SECRET",
    ] {
        let text = format!("{table}{bad}\n");
        let err = hane::pattern::PatternTable::parse(&text)
            .unwrap_err()
            .to_string();
        assert!(!err.contains("SECRET"), "{bad}: {err}");
        assert!(err.contains(&format!("line {body_line}")), "{bad}: {err}");
    }
}

// ----- Item 12: scores in the analysis --------------------------------------------------------

#[test]
fn kata_analyze_reports_the_score_and_honours_maxmoves() {
    let dir = TempDir::new("analyze");
    let mut s = Session::start_in(&["--threads", "1", "--seed", "2"], Some(&dir.0));
    assert_eq!(s.ask("boardsize 9"), ["= "]);
    assert_eq!(s.ask("komi 7.5"), ["= "]);
    let score = regex::Regex::new(
        r"^info move \S+ visits \d+ winrate [01]\.\d+ scoreMean (-?\d+\.\d+) scoreLead (-?\d+\.\d+) prior ",
    )
    .unwrap();
    for (color, sign) in [("b", -1.0), ("w", 1.0)] {
        s.send(&format!("kata-analyze {color} 30 maxmoves 3\n"));
        assert_eq!(s.line(), "=");
        let mut report = String::new();
        for _ in 0..4 {
            report = s.line();
            assert!(!report.is_empty());
        }
        s.send("\n");
        s.response();
        let blocks: Vec<&str> = report.split("info move").skip(1).collect();
        assert!((1..=3).contains(&blocks.len()), "{report}");
        for block in blocks {
            let block = format!("info move{block}");
            let caps = score.captures(&block).unwrap_or_else(|| panic!("{block}"));
            let mean: f32 = caps[1].parse().unwrap();
            let lead: f32 = caps[2].parse().unwrap();
            assert_eq!(mean, lead);
            // An empty 9x9 board with komi 7.5: black is about even (about 1 point behind in
            // the playouts), white moving first leads by some 15 points.
            assert!(mean * sign > -6.0 && mean.abs() < 30.0, "{color}: {block}");
        }
    }
    s.send("lz-analyze b 10 maxmoves 1\n");
    assert_eq!(s.line(), "=");
    let report = s.line();
    s.send("\n");
    s.response();
    assert_eq!(report.matches("info move").count(), 1, "{report}");
    assert!(!report.contains("score"), "{report}");
}

// ----- Item 13: the log file -----------------------------------------------------------------

#[test]
fn log_file_receives_the_settings_and_one_line_per_move() {
    let dir = TempDir::new("logfile");
    let log = dir.path("hane.log");
    // The book off: a searched move's line is checked (a book move's says "(book)").
    let mut args = vec![
        "--log-level",
        "info",
        "--log-file",
        log.to_str().unwrap(),
        "--book",
        "off",
    ];
    args.extend_from_slice(CHEAP);
    let out = Command::new(HANE)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"boardsize 9\ngenmove b\ngenmove w\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let settings: Vec<&&str> = lines.iter().filter(|l| l.contains("settings")).collect();
    assert_eq!(settings.len(), 1, "{text}");
    assert!(settings[0].contains("seed 1"), "{text}");
    assert!(settings[0].contains("playouts=30"), "{text}");
    let moves = regex::Regex::new(
        r"^hane: move 1 black ([A-HJ]\d|pass): 30 playouts in \d+\.\d\d s, winrate \d+\.\d%, pv( [A-HJ]\d| pass)+",
    )
    .unwrap();
    assert!(lines.iter().any(|l| moves.is_match(l)), "{text}");
    assert!(
        lines.iter().any(|l| l.starts_with("hane: move 2 white ")),
        "{text}"
    );
    // A log file that cannot be opened stops the engine before it starts.
    let bad = Command::new(HANE)
        .args([
            "--log-file",
            dir.path("missing/dir/hane.log").to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("log"));
}

// ----- Second round, item 1: bounded input lines and read-ahead ------------------------------

/// The peak resident memory of process `pid` in bytes (`VmHWM`), where `/proc` tells.
fn peak_memory(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Writes `lines` lines of `bytes` bytes each (`x`s after `prefix`) to `stdin` from a
/// thread, then `tail`; the thread returns how many bytes it wrote before a write failed.
fn write_in_background(
    mut stdin: std::process::ChildStdin,
    prefix: &'static str,
    bytes: usize,
    lines: usize,
    tail: &'static str,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut line = prefix.as_bytes().to_vec();
        line.resize(bytes.max(prefix.len()), b'x');
        line.push(b'\n');
        let mut written = 0;
        for _ in 0..lines {
            if stdin.write_all(&line).is_err() {
                return written;
            }
            written += line.len();
        }
        let _ = stdin.write_all(tail.as_bytes());
        written
    })
}

#[test]
fn an_overlong_line_is_refused_without_being_stored() {
    let mut args = vec!["--max-line-bytes", "64K"];
    args.extend_from_slice(CHEAP);
    let mut child = spawn_hane(&args);
    // 300 MB on one line, its command id kept; then a short line of exactly the bound.
    let writer = write_in_background(
        child.stdin.take().unwrap(),
        "12 name ",
        300 << 20,
        1,
        "7 name\nboardsize 9\n",
    );
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut responses = Vec::new();
    for _ in 0..3 {
        let mut response = String::new();
        loop {
            let mut line = String::new();
            if std::io::BufRead::read_line(&mut stdout, &mut line).unwrap() == 0 {
                break;
            }
            if line == "\n" {
                break;
            }
            response.push_str(&line);
        }
        responses.push(response);
    }
    assert_eq!(
        responses,
        ["?12 line too long\n", "=7 hane\n", "= \n"],
        "the long line is answered with its id and the next commands run"
    );
    let peak = peak_memory(child.id());
    assert_eq!(writer.join().unwrap(), (300 << 20) + 1);
    child.kill().unwrap();
    child.wait().unwrap();
    if let Some(peak) = peak {
        assert!(
            peak < 120 << 20,
            "peak memory {} MB for a 300 MB line",
            peak >> 20
        );
    }
}

#[test]
fn a_client_that_does_not_read_cannot_grow_the_read_ahead() {
    // A long search, and behind it many long lines: hane must stop reading them.
    let mut child = spawn_hane([
        "--threads",
        "1",
        "--playouts",
        "100000000",
        "--time",
        "30",
        "--playout",
        "light",
        "--priors",
        "heuristic",
        "--max-line-bytes",
        "2M",
        "--book",
        "off",
        "--early-stop",
        "off",
    ]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"boardsize 9\ngenmove b\n").unwrap();
    // 100 lines of 1.5 MB: 150 MB that the reader must not take in.
    let writer = write_in_background(stdin, "name # ", 3 << 19, 100, "");
    std::thread::sleep(Duration::from_secs(3));
    let peak = peak_memory(child.id());
    child.kill().unwrap();
    child.wait().unwrap();
    let written = writer.join().unwrap();
    assert!(
        written < 40 << 20,
        "hane read {} MB ahead of a running search",
        written >> 20
    );
    if let Some(peak) = peak {
        assert!(peak < 120 << 20, "peak memory {} MB", peak >> 20);
    }
}

// ----- Second round, item 4: operator files ---------------------------------------------------

#[test]
fn book_and_pattern_files_must_be_regular_and_bounded() {
    let dir = TempDir::new("operator-files");
    let big = dir.write("big.txt", vec![b'#'; 300_000]);
    let big = big.to_str().unwrap();
    for (args, expected) in [
        (vec!["--book", "/dev/zero"], "not a regular file"),
        (vec!["--patterns", "/dev/zero"], "not a regular file"),
        (
            vec!["--book", big, "--max-data-bytes", "100K"],
            "larger than 102400 bytes",
        ),
        (
            vec!["--patterns", big, "--max-data-bytes", "100K"],
            "larger than 102400 bytes",
        ),
    ] {
        let start = Instant::now();
        let output = Command::new(HANE)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("run hane");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(start.elapsed() < Duration::from_secs(20), "{args:?}");
    }
}

// ----- Second round, item 6: no move waits for an absurd clock --------------------------------

/// Sends `commands` (setup commands, then one `genmove`) to `hane ARGS` and keeps its input
/// open: the time until the `genmove`'s response (the first one with text), and that
/// response (empty if none came within `limit`).
fn time_to_move(args: &[&str], commands: &str, limit: Duration) -> (Duration, String) {
    let mut child = spawn_hane(args);
    let mut stdin = child.stdin.take().unwrap();
    let start = Instant::now();
    stdin.write_all(commands.as_bytes()).unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut reply = String::new();
    while let Ok(line) = rx.recv_timeout(limit.saturating_sub(start.elapsed())) {
        if line.starts_with('?') || (line.starts_with("= ") && !line[2..].trim().is_empty()) {
            reply = line;
            break;
        }
    }
    let elapsed = start.elapsed();
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    (elapsed, reply)
}

#[test]
fn an_absurd_time_left_does_not_keep_a_move_waiting() {
    let cheap = [
        "--threads",
        "1",
        "--playout",
        "light",
        "--priors",
        "heuristic",
        "--book",
        "off",
    ];
    let commands = "boardsize 9\ntime_settings 1800 0 0\ntime_left b 1e30 0\ngenmove b\n";
    // The bound on any move.
    let mut args = cheap.to_vec();
    args.extend_from_slice(&["--max-move-time", "1"]);
    let (elapsed, reply) = time_to_move(&args, commands, Duration::from_secs(60));
    assert!(reply.starts_with("= ") && reply.len() > 2, "{reply:?}");
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    // A full tree: the search stops when it has had as long again as it took to fill it.
    let mut args = cheap.to_vec();
    args.extend_from_slice(&["--max-memory", "1M"]);
    let (elapsed, reply) = time_to_move(&args, commands, Duration::from_secs(120));
    assert!(reply.starts_with("= ") && reply.len() > 2, "{reply:?}");
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
}
