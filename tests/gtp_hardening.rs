//! The engine against hostile or careless input and surroundings: game records of any depth
//! and size, special files given to `loadsgf`, absurd komi in records, a closed stderr,
//! the end of input during a search, and the log file.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

const HANE: &str = env!("CARGO_BIN_EXE_hane");

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
