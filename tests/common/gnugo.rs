//! GNU Go driven over GTP on a pipe, for the tests that hold hane against it: where to find
//! the program, the rules its `play` enforces, and a process that answers one command at a
//! time.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use hane::board::{Color, HandicapCompensation, KoRule, Rules};

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
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}
