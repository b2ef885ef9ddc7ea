//! `hane analysis` as a subprocess speaking KataGo's JSON analysis protocol: the fields of
//! the responses, several queries in flight, actions, errors, long lines, a golden
//! transcript (`tests/golden/kata-json.queries` and `kata-json.expected`); and KaTrain's own engine code
//! driving it (`tests/clients/katrain_check.py`, skipped with a line saying so where
//! KaTrain is not installed, except under CI).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const HANE: &str = env!("CARGO_BIN_EXE_hane");

/// A running `hane analysis`, its stdout read on a thread.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(HANE)
            .args(["analysis", "--threads", "1", "--seed", "7"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hane analysis");
        let stdin = child.stdin.take();
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
        Server {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn send_json(&mut self, value: &Value) {
        self.send(&value.to_string());
    }

    /// The next response, parsed; every line must be a JSON object.
    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("a response within 60 s");
        let value: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(value.is_object(), "{line}");
        value
    }

    /// Responses until `done` says the last was the one awaited (warnings skipped).
    fn until(&self, mut done: impl FnMut(&Value) -> bool) -> Vec<Value> {
        let mut seen = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            let value = self.next();
            let stop = done(&value);
            seen.push(value);
            if stop {
                return seen;
            }
        }
        panic!("not done: {seen:?}");
    }

    fn close(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_final(value: &Value) -> bool {
    value.get("isDuringSearch") == Some(&json!(false))
}

fn query(id: &str, extra: Value) -> Value {
    let mut q = json!({
        "id": id,
        "boardXSize": 9,
        "boardYSize": 9,
        "rules": "chinese",
        "komi": 7.5,
        "moves": [["B", "E5"], ["W", "C3"], ["B", "G7"]],
        "maxVisits": 150,
    });
    for (k, v) in extra.as_object().unwrap() {
        q[k] = v.clone();
    }
    q
}

fn unit(value: &Value) -> f64 {
    let x = value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"));
    assert!((0.0..=1.0).contains(&x), "{x} outside [0, 1]");
    x
}

/// Checks a final analysis response as KataGo documents it.
fn check_analysis(r: &Value, to_move: &str, ownership: bool) {
    assert_eq!(r["isDuringSearch"], json!(false), "{r}");
    let infos = r["moveInfos"].as_array().expect("moveInfos");
    assert!(!infos.is_empty(), "{r}");
    let mut sum = 0;
    for (k, info) in infos.iter().enumerate() {
        assert_eq!(info["order"], json!(k), "{info}");
        let mv = info["move"].as_str().expect("move");
        let visits = info["visits"].as_u64().expect("visits");
        assert!(visits > 0, "{info}");
        sum += visits;
        unit(&info["winrate"]);
        unit(&info["lcb"]);
        assert!(info["lcb"].as_f64() <= info["winrate"].as_f64(), "{info}");
        unit(&info["prior"]);
        let lead = info["scoreLead"].as_f64().expect("scoreLead");
        assert!(lead.abs() <= 81.0 + 7.5, "{info}");
        assert_eq!(info["scoreMean"], info["scoreLead"]);
        let pv = info["pv"].as_array().expect("pv");
        assert_eq!(pv.first().and_then(Value::as_str), Some(mv), "{info}");
        if let Some(pv_visits) = info.get("pvVisits") {
            let pv_visits = pv_visits.as_array().unwrap();
            assert_eq!(pv_visits.len(), pv.len(), "{info}");
            assert_eq!(pv_visits[0].as_u64(), Some(visits), "{info}");
        }
        for absent in ["scoreStdev", "utility", "ownership"] {
            assert!(info.get(absent).is_none(), "{absent}: {info}");
        }
    }
    let visits: Vec<u64> = infos
        .iter()
        .map(|i| i["visits"].as_u64().unwrap())
        .collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
    let root = &r["rootInfo"];
    assert_eq!(root["visits"].as_u64(), Some(sum), "{r}");
    unit(&root["winrate"]);
    assert!(root["scoreLead"].is_number(), "{root}");
    assert_eq!(root["currentPlayer"], json!(to_move));
    if ownership {
        let own = r["ownership"].as_array().expect("ownership");
        assert_eq!(own.len(), 81);
        for v in own {
            let v = v.as_f64().unwrap();
            assert!((-1.0..=1.0).contains(&v), "{v}");
        }
    } else {
        assert!(r.get("ownership").is_none());
    }
}

#[test]
fn turns_are_analysed_with_every_field() {
    let mut s = Server::start(&[]);
    s.send_json(&query(
        "t",
        json!({"analyzeTurns": [0, 2], "includeOwnership": true, "includePolicy": true,
               "includePVVisits": true}),
    ));
    let mut finals = Vec::new();
    while finals.len() < 2 {
        let r = s.next();
        assert_eq!(r["id"], json!("t"), "{r}");
        assert!(
            r.get("error").is_none() && r.get("warning").is_none(),
            "{r}"
        );
        if is_final(&r) {
            finals.push(r);
        }
    }
    finals.sort_by_key(|r| r["turnNumber"].as_u64());
    assert_eq!(finals[0]["turnNumber"], json!(0));
    assert_eq!(finals[1]["turnNumber"], json!(2));
    check_analysis(&finals[0], "B", true);
    check_analysis(&finals[1], "B", true);
    // The policy: 82 values, -1 on the stones of turn 2, the rest summing to 1.
    for (r, stones) in [(&finals[0], 0), (&finals[1], 2)] {
        let policy: Vec<f64> = r["policy"]
            .as_array()
            .expect("policy")
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(policy.len(), 82);
        assert_eq!(policy.iter().filter(|&&p| p == -1.0).count(), stones);
        let sum: f64 = policy.iter().filter(|&&p| p >= 0.0).sum();
        assert!((sum - 1.0).abs() < 1e-3, "{sum}");
    }
    // E5 is row 5 from the top (index 4), column E (index 4); C3 is row index 6, column 2.
    assert_eq!(finals[1]["policy"][4 * 9 + 4], json!(-1.0));
    assert_eq!(finals[1]["policy"][6 * 9 + 2], json!(-1.0));
}

#[test]
fn the_perspective_follows_override_settings_and_the_flag() {
    // White to move after E5. One thread, a fixed seed and a playout limit make a fresh
    // server's first search reproducible: the three views are of the same search.
    let q = query(
        "p",
        json!({"moves": [["B", "E5"]], "maxVisits": 400, "includeOwnership": true}),
    );
    let analyse = |flags: &[&str], q: &Value| {
        let mut s = Server::start(flags);
        s.send_json(q);
        let r = s.until(is_final).pop().unwrap();
        check_analysis(&r, "W", true);
        r
    };
    let own = analyse(&[], &q);
    let mut asked = q.clone();
    asked["overrideSettings"] = json!({"reportAnalysisWinratesAs": "BLACK"});
    let black = analyse(&[], &asked);
    let flagged = analyse(&["--report-winrates-as", "black"], &q);
    assert_eq!(black, flagged);
    let close = |a: &Value, b: &Value| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!((a - b).abs() < 2e-6, "{a} {b}");
    };
    close(
        &black["rootInfo"]["winrate"],
        &json!(1.0 - own["rootInfo"]["winrate"].as_f64().unwrap()),
    );
    close(
        &black["rootInfo"]["scoreLead"],
        &json!(-own["rootInfo"]["scoreLead"].as_f64().unwrap()),
    );
    for (b, o) in black["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .zip(own["moveInfos"].as_array().unwrap())
    {
        assert_eq!(b["move"], o["move"]);
        close(&b["winrate"], &json!(1.0 - o["winrate"].as_f64().unwrap()));
        close(&b["scoreLead"], &json!(-o["scoreLead"].as_f64().unwrap()));
    }
    for (b, o) in black["ownership"]
        .as_array()
        .unwrap()
        .iter()
        .zip(own["ownership"].as_array().unwrap())
    {
        close(b, &json!(-o.as_f64().unwrap()));
    }
    // Black's stone at E5 (row 5 from the top, column E) is black's in black's view (in
    // most playouts: hane samples the ownership of every 16th).
    assert!(
        black["ownership"][4 * 9 + 4].as_f64().unwrap() > 0.0,
        "{black}"
    );
}

#[test]
fn queries_in_flight_are_all_answered() {
    let mut s = Server::start(&["--jobs", "2"]);
    s.send_json(&query("a", json!({"maxVisits": 300})));
    s.send_json(&query("b", json!({"maxVisits": 50, "priority": 5})));
    s.send_json(&query("c", json!({"maxVisits": 50, "moves": []})));
    let mut done = Vec::new();
    s.until(|r| {
        if is_final(r) {
            done.push(r["id"].as_str().unwrap().to_string());
        }
        done.len() == 3
    });
    done.sort();
    assert_eq!(done, ["a", "b", "c"]);
}

#[test]
fn terminate_stops_running_and_queued_turns() {
    let mut s = Server::start(&[]);
    // One job: "long" runs, "queued" waits behind it.
    s.send_json(&query(
        "long",
        json!({"maxVisits": 100_000_000, "reportDuringSearchEvery": 0.05}),
    ));
    let partial = s.next();
    assert_eq!(partial["isDuringSearch"], json!(true), "{partial}");
    assert_eq!(partial["id"], json!("long"));
    s.send_json(&query("queued", json!({"analyzeTurns": [1, 3]})));
    s.send(r#"{"id":"t1","action":"terminate","terminateId":"queued","turnNumbers":[3]}"#);
    let seen = s.until(|r| r["id"] == json!("t1"));
    assert_eq!(
        seen.last().unwrap(),
        &json!({"id":"t1","action":"terminate","terminateId":"queued","turnNumbers":[3]})
    );
    let dropped = s.until(|r| r["id"] == json!("queued"));
    assert_eq!(
        dropped.last().unwrap(),
        &json!({"id":"queued","turnNumber":3,"isDuringSearch":false,"noResults":true})
    );
    let started = Instant::now();
    s.send(r#"{"id":"t2","action":"terminate","terminateId":"long"}"#);
    let mut ack = false;
    let seen = s.until(|r| {
        ack |= r["id"] == json!("t2");
        r["id"] == json!("long") && is_final(r)
    });
    let last = seen.last().unwrap();
    check_analysis(last, "W", false);
    assert!(started.elapsed() < Duration::from_secs(30));
    // The queued query's other turn still runs.
    let rest = s.until(|r| r["id"] == json!("queued") && is_final(r));
    assert_eq!(rest.last().unwrap()["turnNumber"], json!(1));
    if !ack {
        s.until(|r| r["id"] == json!("t2"));
    }
    s.send(r#"{"id":"t3","action":"terminate_all"}"#);
    assert_eq!(s.next(), json!({"id":"t3","action":"terminate_all"}));
}

#[test]
fn actions_are_echoed() {
    let mut s = Server::start(&[]);
    s.send(r#"{"id":"v","action":"query_version"}"#);
    let v = s.next();
    assert_eq!(v["id"], json!("v"));
    assert_eq!(v["action"], json!("query_version"));
    assert_eq!(v["version"], json!(env!("CARGO_PKG_VERSION")));
    assert_eq!(v["name"], json!("hane"));
    assert!(v["note"].as_str().unwrap().contains("not KataGo"), "{v}");
    s.send(r#"{"id":"c","action":"clear_cache"}"#);
    assert_eq!(s.next(), json!({"id":"c","action":"clear_cache"}));
}

#[test]
fn errors_and_warnings_are_json_and_the_server_goes_on() {
    let mut s = Server::start(&["--max-line-bytes", "2000"]);
    s.send("{this is not json");
    let e = s.next();
    assert!(e["error"].as_str().unwrap().contains("json"), "{e}");
    assert!(e.get("id").is_none());
    s.send_json(&query("bad", json!({"moves": [["B", "E5"], ["W", "E5"]]})));
    let e = s.next();
    assert_eq!(e["id"], json!("bad"));
    assert_eq!(e["field"], json!("moves"));
    assert!(
        e["error"].as_str().unwrap().starts_with("Illegal move 1"),
        "{e}"
    );
    s.send_json(&query("size", json!({"boardYSize": 13})));
    let e = s.next();
    assert_eq!(
        (&e["id"], &e["field"]),
        (&json!("size"), &json!("boardYSize"))
    );
    s.send_json(&query("type", json!({"includeOwnership": "yes"})));
    assert_eq!(s.next()["field"], json!("includeOwnership"));
    // A line over --max-line-bytes: an error with the id read from its start.
    let huge = format!(r#"{{"id":"huge","padding":"{}"}}"#, "x".repeat(100_000));
    s.send(&huge);
    let e = s.next();
    assert_eq!(e["id"], json!("huge"), "{e}");
    assert!(e["error"].as_str().unwrap().contains("too long"), "{e}");
    s.send("\u{1}\u{2}garbage ]]]");
    assert!(s.next()["error"].is_string());
    // Unknown fields: a warning, then the analysis.
    s.send_json(&query("warn", json!({"colour": "blue", "maxVisits": 20})));
    let w = s.next();
    assert_eq!((&w["id"], &w["field"]), (&json!("warn"), &json!("colour")));
    assert!(w["warning"].is_string());
    let r = s.until(is_final).pop().unwrap();
    assert_eq!(r["id"], json!("warn"));
    // The input ends: the queued work is finished, then the server exits cleanly.
    s.send_json(&query("last", json!({"maxVisits": 30})));
    s.close();
    let r = s.until(is_final).pop().unwrap();
    assert_eq!(r["id"], json!("last"));
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// The Python with KaTrain: `HANE_KATRAIN_PYTHON`, else the virtual environment that
/// `.ci/install.d/30-katrain.sh` makes.
fn katrain_python() -> PathBuf {
    std::env::var_os("HANE_KATRAIN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/hane-katrain/bin/python"))
}

#[test]
fn katrain_analyses_a_game_through_hane() {
    let python = katrain_python();
    let present = python.exists()
        && Command::new(&python)
            .args(["-c", "import katrain.core.engine"])
            .env("KIVY_NO_ARGS", "1")
            .env("KIVY_NO_CONSOLELOG", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    if !present {
        common::skip_unless_ci(
            "KaTrain",
            "bash .ci/install.d/30-katrain.sh, or set HANE_KATRAIN_PYTHON to a Python with \
             katrain installed",
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/katrain_check.py");
    let home = std::env::temp_dir().join(format!("hane-katrain-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let output = Command::new(&python)
        .arg(&script)
        .arg(format!("{HANE} analysis --threads 1 --seed 3"))
        .env("HOME", &home)
        .env("KIVY_NO_ARGS", "1")
        .env("KIVY_NO_CONSOLELOG", "1")
        .env("KIVY_HOME", home.join(".kivy"))
        .output()
        .expect("run the KaTrain check");
    let _ = std::fs::remove_dir_all(&home);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("KATRAIN OK"),
        "KaTrain check failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
}

/// A JSON value's shape: its type, and for an object its field names (sorted) with their
/// shapes, for an array the shapes its elements have (each once, in order of appearance).
fn shape(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(_) => "bool".to_string(),
        Value::Number(_) => "number".to_string(),
        Value::String(_) => "string".to_string(),
        Value::Array(items) => {
            let mut shapes: Vec<String> = Vec::new();
            for item in items {
                let s = shape(item);
                if !shapes.contains(&s) {
                    shapes.push(s);
                }
            }
            format!("[{}]", shapes.join(" | "))
        }
        Value::Object(fields) => {
            let mut names: Vec<&String> = fields.keys().collect();
            names.sort();
            let fields: Vec<String> = names
                .iter()
                .map(|name| format!("{name}: {}", shape(&fields[name.as_str()])))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
    }
}

/// One response of the transcript as the golden file holds it: its id and turn, its shape,
/// then the text of an error or warning and the field it names.
fn golden_entry(response: &Value) -> String {
    let id = response
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("(no id)");
    let mut entry = match response.get("turnNumber").and_then(Value::as_u64) {
        Some(turn) => format!("{id} turn {turn}: {}\n", shape(response)),
        None => format!("{id}: {}\n", shape(response)),
    };
    for key in ["error", "warning", "field"] {
        if let Some(text) = response.get(key).and_then(Value::as_str) {
            entry += &format!("  {key}: {text}\n");
        }
    }
    entry
}

/// `tests/golden/kata-json.queries`, queries as KaTrain and KataGo's docs send them (turns,
/// ownership and policy, initial stones, rules by name and as an object, actions, a
/// terminate) and bad ones (malformed JSON, an illegal move, a bad location, sizes, wrong
/// types, a missing field, unknown rules and action), all sent at once to one server,
/// whose input then ends. Its responses, sorted by id and turn, are compared with
/// `kata-json.expected` by shape (field names and JSON types, not numbers), errors and warnings
/// word for word: the server answers every query, the last included, and exits cleanly.
/// `HANE_BLESS=1` rewrites `kata-json.expected` instead when it differs.
#[test]
fn golden_transcript_of_queries() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let input = std::fs::read_to_string(golden.join("kata-json.queries")).unwrap();
    let queries: Vec<&str> = input
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let mut s = Server::start(&[]);
    for query in &queries {
        s.send(query);
    }
    s.close();
    let mut responses = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match s.lines.recv_timeout(left) {
            Ok(line) => {
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                assert!(value.is_object(), "{line}");
                responses.push(value);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("no end within 120 s: {responses:?}"),
        }
    }
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{status}");
    // Sorted by id (none first), then turn (none first), then text: the order in which
    // the server answers depends on timing and priorities.
    let mut entries: Vec<((String, i64), String)> = responses
        .iter()
        .map(|r| {
            let id = r
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let turn = r.get("turnNumber").and_then(Value::as_i64).unwrap_or(-1);
            ((id, turn), golden_entry(r))
        })
        .collect();
    entries.sort();
    let actual: String = entries.into_iter().map(|(_, entry)| entry).collect();
    let last = queries
        .last()
        .and_then(|q| serde_json::from_str::<Value>(q).ok())
        .expect("the last query is JSON");
    assert!(
        responses
            .iter()
            .any(|r| r["id"] == last["id"] && r.get("moveInfos").is_some()),
        "the last query was not answered: {actual}"
    );
    let out = golden.join("kata-json.expected");
    let expected = std::fs::read_to_string(&out).unwrap_or_default();
    if std::env::var_os("HANE_BLESS").is_some() && expected != actual {
        std::fs::write(&out, &actual).unwrap();
        return;
    }
    assert!(
        expected == actual,
        "{} differs (HANE_BLESS=1 rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}",
        out.display()
    );
}
