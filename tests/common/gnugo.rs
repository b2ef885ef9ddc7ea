//! GNU Go driven over GTP on a pipe, for the tests that hold hane against it: where to find
//! the program, the rules its `play` enforces, and a process that answers one command at a
//! time.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use std::collections::HashSet;

use hane::board::{Board, Color, HandicapCompensation, KoRule, Point, Rules};

/// GNU Go's rules for `play`: simple ko, no suicide.
pub const GNUGO_RULES: Rules = Rules {
    ko: KoRule::Simple,
    suicide_allowed: false,
    komi: 7.5,
    handicap_compensation: HandicapCompensation::None,
};

/// Where GNU Go is: Debian's path, or `gnugo` on the PATH.
pub fn find() -> Option<PathBuf> {
    let debian = PathBuf::from("/usr/games/gnugo");
    if debian.is_file() {
        return Some(debian);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("gnugo"))
            .find(|candidate| candidate.is_file())
    })
}

/// A colour as GNU Go's commands spell it.
pub fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A GNU Go process speaking GTP on a pipe; told to quit when dropped.
pub struct GnuGo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl GnuGo {
    /// Starts `path --mode gtp` with `args` after it.
    pub fn start(path: &Path, args: &[&str]) -> GnuGo {
        let mut child = Command::new(path)
            .args(["--mode", "gtp"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        GnuGo {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command; `Ok(body)` for a success response, `Err(body)` for a failure.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").expect("write to gnugo");
        self.stdin.flush().expect("flush gnugo");
        let mut response = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read from gnugo");
            assert!(n > 0, "gnugo closed its output after {command:?}");
            if line.trim().is_empty() {
                if response.is_empty() {
                    continue;
                }
                break;
            }
            response.push_str(&line);
        }
        let response = response.trim_end().to_string();
        if let Some(body) = response.strip_prefix('=') {
            Ok(body.trim().to_string())
        } else if let Some(body) = response.strip_prefix('?') {
            Err(body.trim().to_string())
        } else {
            panic!("malformed GTP response to {command:?}: {response:?}")
        }
    }

    /// Sends one command and returns the body of its success response; panics on a failure.
    pub fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("gnugo refused {command:?}: {e}"))
    }

    /// Sets up `board`'s stones on an empty board of its size, one `play` each (adding the
    /// stones of a legal position one by one captures nothing). The position's ko and move
    /// history are not carried.
    pub fn load_board(&mut self, board: &Board) {
        let g = board.geometry();
        self.ok(&format!("boardsize {}", board.size()));
        self.ok("clear_board");
        for p in g.points() {
            if let Some(color) = board.cell(p).color() {
                self.ok(&format!("play {} {}", gtp_color(color), g.format_point(p)));
            }
        }
    }

    /// One read (`command` at `vertex`, e.g. `attack D4` or `owl_defend D4`) from an empty
    /// cache, and the nodes it took by the counter `counter` (`reading_node_counter`,
    /// `owl_node_counter`): GNU Go's answer and its effort.
    pub fn counted_read(&mut self, command: &str, vertex: &str, counter: &str) -> (String, u64) {
        self.ok("clear_cache");
        self.ok(&format!("reset_{counter}"));
        let answer = self.ok(&format!("{command} {vertex}"));
        let nodes = self
            .ok(&format!("get_{counter}"))
            .parse()
            .unwrap_or_else(|e| panic!("gnugo's {counter} is not a count: {e}"));
        (answer, nodes)
    }
}

/// One of GNU Go's dragons, as [`dragons`] lists them.
pub struct Dragon {
    /// One stone of it.
    pub stone: Point,
    /// GNU Go's status of it (`alive`, `critical`, `dead`, ...).
    pub status: String,
    /// Its stones (GNU Go's `dragon_stones`).
    pub stones: usize,
}

/// Each of GNU Go's dragons on `board` (which `gnugo` holds).
pub fn dragons(gnugo: &mut GnuGo, board: &Board) -> Vec<Dragon> {
    let g = board.geometry();
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for p in g.points() {
        if board.cell(p).color().is_none() || seen.contains(&p) {
            continue;
        }
        let vertex = g.format_point(p);
        let mut stones = 0;
        for stone in gnugo
            .ok(&format!("dragon_stones {vertex}"))
            .split_whitespace()
        {
            if let Some(q) = g.parse_point(stone) {
                seen.insert(q);
                stones += 1;
            }
        }
        seen.insert(p);
        let status = gnugo.ok(&format!("dragon_status {vertex}"));
        let status = status.split_whitespace().next().unwrap_or("").to_string();
        found.push(Dragon {
            stone: p,
            status,
            stones,
        });
    }
    found
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}
