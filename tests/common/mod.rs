//! Small helpers shared by the integration tests: vertices and colours from text,
//! diagrams compared without caring about spacing, and whether a test whose program or data
//! is missing may skip (not under CI).

#![allow(dead_code)]

pub mod comparison;
pub mod gnugo;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use hane::board::{Board, Color, Geometry, Move, Point};

/// The point a GTP vertex names on a board of `size`; panics on a typo in a test table.
pub fn vertex(size: usize, text: &str) -> Point {
    Geometry::new(size)
        .and_then(|g| g.parse_point(text))
        .unwrap_or_else(|| panic!("bad vertex {text:?} for size {size}"))
}

/// A move (`pass` or a vertex) on a board of `size`.
pub fn gtp_move(size: usize, text: &str) -> Move {
    Move::parse(Geometry::new(size).expect("size"), text)
        .unwrap_or_else(|| panic!("bad move {text:?} for size {size}"))
}

/// `B`/`W` (any case) as a colour.
pub fn color(text: &str) -> Color {
    Color::parse(text).unwrap_or_else(|| panic!("bad colour {text:?}"))
}

/// A diagram with all whitespace removed except line breaks, blank lines dropped: two
/// diagrams are the same position when their normal forms are equal.
pub fn normal_diagram(text: &str) -> String {
    text.lines()
        .map(|line| {
            line.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
        })
        .filter(|line| !line.is_empty())
        .map(|line| {
            line.replace(['#', 'x'], "X")
                .replace(['@', 'o'], "O")
                .replace(['+', ','], ".")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses a diagram, panicking with the reason if a test table holds a bad one.
pub fn diagram(text: &str) -> Board {
    Board::from_diagram(text).unwrap_or_else(|e| panic!("bad diagram ({e}):\n{text}"))
}

/// Asserts that `board` shows the position of `expected`.
#[track_caller]
pub fn assert_diagram(board: &Board, expected: &str, context: &str) {
    assert_eq!(
        normal_diagram(&board.to_diagram()),
        normal_diagram(expected),
        "{context}: position differs\nactual:\n{}",
        board.to_diagram()
    );
}

/// Whether the tests run under CI: the environment variable `CI` is set, not empty, and
/// not `false` or `0` (CI runs with `CI=true`). Under CI every test program and data file
/// is installed (`.ci/install.d/`, `../shared`), so a test that finds one missing fails
/// instead of skipping.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| {
        let value = value.to_string_lossy().trim().to_ascii_lowercase();
        !value.is_empty() && value != "false" && value != "0"
    })
}

/// For a test that finds `what` missing: fails under CI (see [`in_ci`]) with `what` and
/// `remedy`; elsewhere writes one `SKIPPED` line naming the test, and the caller returns.
/// The line goes to the process's stderr directly, past the test harness's capture, so
/// that `cargo test` shows it although the test passes.
#[track_caller]
pub fn skip_unless_ci(what: &str, remedy: &str) {
    assert!(
        !in_ci(),
        "{what} is missing, and under CI (CI is set) a test may not skip: {remedy}"
    );
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {what} is missing ({remedy})"
    );
}

/// A running `hane` with these arguments, its stdout read line by line on a thread (so that
/// a test can wait for a response with a deadline); killed when dropped.
pub struct Session {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Session {
    /// Starts `hane ARGS`, in `cwd` when given.
    pub fn start_in(args: &[&str], cwd: Option<&Path>) -> Session {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hane"));
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(cwd) = cwd {
            command.current_dir(cwd);
        }
        let mut child = command.spawn().expect("start hane");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session { child, lines }
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The next output line, waiting at most 30 s.
    pub fn line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("hane answered within 30 s")
    }

    /// Reads one whole response (up to its blank line), waiting at most `limit` for it.
    pub fn response_within(&self, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no complete response within {limit:?}: {lines:?}"));
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Reads one whole response, waiting at most 30 s.
    pub fn response(&self) -> Vec<String> {
        self.response_within(Duration::from_secs(30))
    }

    /// Sends one command and returns its response.
    pub fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(&format!("{command}\n"));
        self.response()
    }

    /// The process itself (to wait for it or check how it ended).
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `table` with `dims` random latent factors (uniform in +-`scale`, from `seed`) for every
/// level of every levelled group and every listed and unlisted shape.
pub fn with_random_factors(
    table: &hane::pattern::PatternTable,
    dims: usize,
    seed: u64,
    scale: f32,
) -> hane::pattern::PatternTable {
    use hane::pattern::{Group, ShapeWeights};
    use hane::playout::{playout_rng, random_below};
    let mut out = table.clone();
    let mut rng = playout_rng(seed, 3);
    let mut factor = move || (random_below(&mut rng, 2001) as f32 - 1000.0) / 1000.0 * scale;
    let level_factors = std::array::from_fn(|slot| {
        let g = Group::LEVELLED[slot];
        (0..(g.max_level() + 1) * dims)
            .map(|k| if k < dims { 0.0 } else { factor() })
            .collect()
    });
    out.set_level_factors(dims, level_factors);
    for g in Group::SHAPES {
        let weights = table.shapes(g);
        let entries = weights
            .entries()
            .map(|(code, gamma)| (code, gamma, (0..dims).map(|_| factor()).collect()))
            .collect();
        let other = (0..dims).map(|_| factor()).collect();
        out.set_shapes(
            g,
            ShapeWeights::with_factors(entries, weights.other(), other),
        );
    }
    out
}
