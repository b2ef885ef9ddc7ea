//! The result folder of a match: `match.json` (what the match is, so that a rerun can check
//! it resumes the same match), `results.jsonl` (one JSON line per finished game, appended
//! and flushed when the game ends), `games/` (one SGF per game) and, while a runner plays
//! in it, `match.lock` ([`FolderLock`]). JSON goes through `serde_json`, because engine
//! names, comments and fault details are arbitrary text that must be escaped exactly and
//! read back without a hand-written parser.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

use super::player::{FaultKind, TimeControl};

pub const SETTINGS_FILE: &str = "match.json";
pub const RESULTS_FILE: &str = "results.jsonl";
pub const GAMES_DIR: &str = "games";

/// What defines a match: a rerun must agree on all of it to resume (the number of games may
/// grow, and the shard is the folder's own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSettings {
    /// How each engine is run: a command line, or `hane:settings` in-process.
    pub engines: [String; 2],
    /// The names used in records and reports.
    pub names: [String; 2],
    pub size: usize,
    pub komi: f32,
    pub rules: String,
    pub handicap: usize,
    /// The opening files, as given.
    pub openings: Vec<String>,
    /// How many moves of each opening are played before the engines take over.
    pub opening_moves: Option<usize>,
    pub time_control: TimeControl,
    pub margin_seconds: f64,
    pub move_cap: usize,
    pub seed: u64,
    pub games: usize,
    /// `K/N`, or `None` for a whole match.
    pub shard: Option<(usize, usize)>,
    /// Whether shards hold whole colour-swapped pairs of games ([`super::in_shard`]): true
    /// in every folder made since shards split that way; folders made before keep their
    /// split by single games when they resume, so that their shards still add up.
    #[serde(default)]
    pub shard_pairs: bool,
    /// Engine 1's colour in the games (folders made before the option: alternate).
    #[serde(default)]
    pub engine1_colour: super::shard::Engine1Colour,
}

/// The names of the fields in which `$a` and `$b` differ, in the order given: each field as
/// its name and the field (`"move cap" move_cap`).
macro_rules! differing_fields {
    ($a:expr, $b:expr; $($name:literal $field:ident),* $(,)?) => {{
        let (a, b) = ($a, $b);
        let mut out: Vec<&'static str> = Vec::new();
        $(
            if a.$field != b.$field {
                out.push($name);
            }
        )*
        out
    }};
}
pub(crate) use differing_fields;

impl MatchSettings {
    /// The fields in which `self` and `other` describe different matches (games and shard
    /// aside).
    pub fn differences(&self, other: &MatchSettings) -> Vec<&'static str> {
        differing_fields!(self, other;
            "engines" engines, "names" names, "size" size, "komi" komi, "rules" rules,
            "handicap" handicap, "openings" openings, "opening-moves" opening_moves,
            "time control" time_control, "margin" margin_seconds, "move cap" move_cap,
            "seed" seed, "engine 1's colour" engine1_colour)
    }
}

/// How a finished game ended, in the results file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndKind {
    TwoPasses,
    MoveCap,
    Resignation,
    IllegalMove,
    BadReply,
    Timeout,
    Crash,
}

impl From<FaultKind> for EndKind {
    fn from(kind: FaultKind) -> EndKind {
        match kind {
            FaultKind::IllegalMove => EndKind::IllegalMove,
            FaultKind::BadReply => EndKind::BadReply,
            FaultKind::Timeout => EndKind::Timeout,
            FaultKind::Crash => EndKind::Crash,
        }
    }
}

impl EndKind {
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            EndKind::IllegalMove | EndKind::BadReply | EndKind::Timeout | EndKind::Crash
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            EndKind::TwoPasses => "two passes",
            EndKind::MoveCap => "move cap",
            EndKind::Resignation => "resignation",
            EndKind::IllegalMove => "illegal move",
            EndKind::BadReply => "bad reply",
            EndKind::Timeout => "timeout",
            EndKind::Crash => "crash",
        }
    }
}

/// What a player's root owl did over a game's moves (hane in-process with the owl on; all
/// zero otherwise): the seconds its reads took, the moves whose search gave the owl's
/// bonus to some move, and how many of those played a move that had the bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OwlTally {
    pub seconds: f64,
    pub bonus_moves: usize,
    pub bonus_played: usize,
}

impl OwlTally {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &OwlTally) {
        self.seconds += other.seconds;
        self.bonus_moves += other.bonus_moves;
        self.bonus_played += other.bonus_played;
    }

    /// Whether the owl did anything: read or gave a bonus.
    pub fn is_used(&self) -> bool {
        self.seconds > 0.0 || self.bonus_moves > 0
    }
}

/// One finished game: a line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the match, from 1 (as in its file name and on screen). Lines
    /// written before games were numbered from 1 have `game`, from 0, instead: see
    /// [`read_records`].
    pub number: usize,
    pub seed: u64,
    /// Which engine (1 or 2) had black.
    pub black_engine: u8,
    pub black: String,
    pub white: String,
    /// The opening (`file#n`), if one was used.
    pub opening: Option<String>,
    /// SGF `RE`.
    pub result: String,
    /// Which engine (1 or 2) won; `None` for a draw.
    pub winner_engine: Option<u8>,
    pub end: EndKind,
    /// What went wrong, for faults.
    pub fault: Option<String>,
    /// Black minus white, komi included, when counted.
    pub score: Option<f32>,
    /// Moves played in the game (opening moves included).
    pub moves: usize,
    /// Seconds spent in `genmove` and moves generated, black's first.
    pub think_seconds: [f64; 2],
    pub generated_moves: [usize; 2],
    /// Playouts of those moves' searches, black's first, for players that report them
    /// (hane in-process); 0 otherwise, and in lines written before this field.
    #[serde(default)]
    pub playouts: [u64; 2],
    /// The highest win rate each colour's player gave itself at one of its moves (under
    /// the game's komi), black's first, for players that report one (hane in-process);
    /// `None` otherwise, and in lines written before this field.
    #[serde(default)]
    pub peak_winrate: [Option<f32>; 2],
    /// What each colour's root owl did, black's first (zero for players without one, and
    /// in lines written before this field).
    #[serde(default)]
    pub owl: [OwlTally; 2],
    /// When counted: the dead stones each player named (`None`: it could not say), whether
    /// they agreed, and the stones removed.
    pub dead_black_says: Option<Vec<String>>,
    pub dead_white_says: Option<Vec<String>>,
    pub dead_agreed: Option<bool>,
    pub dead_removed: Option<Vec<String>>,
    /// The SGF file, relative to the result folder.
    pub sgf: String,
    /// The date the game was played, `YYYY-MM-DD`.
    pub date: String,
}

impl GameRecord {
    /// The index (0: black, 1: white) of the colour engine `engine` (1 or 2) played, for
    /// the per-colour fields.
    pub fn colour_of(&self, engine: u8) -> usize {
        usize::from(self.black_engine != engine)
    }
}

/// The path of game `number`'s SGF record inside a result folder.
pub fn sgf_path(number: usize) -> PathBuf {
    Path::new(GAMES_DIR).join(format!("game-{number:05}.sgf"))
}

/// One line of `results.jsonl` as a record: lines written before games were numbered from
/// 1 give the game's place in the list as `game`, from 0 (their SGF file names were
/// already numbered from 1), and are read as `number` = `game` + 1.
fn parse_record(line: &str) -> Option<GameRecord> {
    let mut value: serde_json::Value = serde_json::from_str(line).ok()?;
    let object = value.as_object_mut()?;
    if !object.contains_key("number") {
        let game = object.remove("game")?.as_u64()?;
        object.insert("number".to_string(), (game + 1).into());
    }
    serde_json::from_value(value).ok()
}

/// Reads `results.jsonl`: every complete, well-formed line (a line cut short by a kill is
/// skipped), in either numbering (`parse_record`), in the order the games finished (which
/// decides where an SPRT stopped). Later lines for the same game replace nothing: the
/// first one counts.
pub fn read_records(dir: &Path) -> Result<Vec<GameRecord>, String> {
    let path = dir.join(RESULTS_FILE);
    let mut text = String::new();
    match File::open(&path) {
        Ok(mut f) => {
            f.read_to_string(&mut text)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    }
    let mut seen = BTreeSet::new();
    let mut records = Vec::new();
    for line in text.split_inclusive('\n') {
        if !line.ends_with('\n') {
            break;
        }
        if let Some(record) = parse_record(line.trim())
            && seen.insert(record.number)
        {
            records.push(record);
        }
    }
    Ok(records)
}

/// Reads `match.json`, if the folder has one.
pub fn read_settings(dir: &Path) -> Result<Option<MatchSettings>, String> {
    let path = dir.join(SETTINGS_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("{} is not a match description: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Writes `match.json` (through a temporary file, so a kill leaves the old or the new).
pub fn write_settings(dir: &Path, settings: &MatchSettings) -> Result<(), String> {
    let text = serde_json::to_string_pretty(settings).expect("settings serialize");
    write_atomically(&dir.join(SETTINGS_FILE), text.as_bytes())
}

/// A temporary name next to `path`, unique to this process and call (`.NAME.PID-N.tmp`),
/// so that writers never share one.
fn temporary_path(path: &Path) -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Writes a file through a temporary name and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = temporary_path(path);
    let result = File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_data()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The lock of a result folder: `match.lock`, created only if absent, holding the pid,
/// the host and the process's start time of the runner that owns the folder; removed when
/// the lock is dropped. Two runners on one folder would play the same games twice.
pub struct FolderLock {
    path: PathBuf,
    text: String,
}

/// Who holds a lock, as written in the lock file.
#[derive(Debug, PartialEq, Eq)]
struct LockOwner {
    pid: u32,
    host: String,
    /// The process's start time (`/proc/PID/stat`, field 22), which tells a recycled pid
    /// from the owner.
    started: Option<u64>,
}

impl LockOwner {
    fn current() -> LockOwner {
        let pid = std::process::id();
        LockOwner {
            pid,
            host: host_name(),
            started: process_start(pid),
        }
    }

    fn text(&self) -> String {
        let started = self.started.map(|t| t.to_string()).unwrap_or_default();
        format!("{}\n{}\n{started}\n", self.pid, self.host)
    }

    fn parse(text: &str) -> Option<LockOwner> {
        let mut lines = text.lines();
        let pid = lines.next()?.trim().parse().ok()?;
        let host = lines.next().unwrap_or("").trim().to_string();
        let started = lines.next().and_then(|l| l.trim().parse().ok());
        Some(LockOwner { pid, host, started })
    }

    /// Whether the owner is known to be gone: it ran on this host (as far as the lock
    /// says), and its process no longer exists, is a zombie, or is another process that
    /// got its pid (or is this very process, as in a container whose runner always gets
    /// the same pid). Without `/proc` nothing is known.
    fn is_gone(&self) -> bool {
        if !Path::new("/proc/self/stat").exists() {
            return false;
        }
        if !self.host.is_empty() && self.host != host_name() {
            return false;
        }
        if self.pid == std::process::id() {
            return true;
        }
        match proc_stat(self.pid) {
            None => true,
            Some(fields) => {
                fields.first().is_some_and(|state| state == "Z")
                    || self
                        .started
                        .is_some_and(|t| fields.get(19).and_then(|f| f.parse().ok()) != Some(t))
            }
        }
    }
}

/// The fields of `/proc/PID/stat` after the command name (the state first).
fn proc_stat(pid: u32) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_string).collect())
}

fn process_start(pid: u32) -> Option<u64> {
    proc_stat(pid)?.get(19)?.parse().ok()
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

pub const LOCK_FILE: &str = "match.lock";

impl FolderLock {
    /// Locks `dir` for this process; a lock whose owner is gone (a runner that was
    /// killed) is taken over, a live one refused.
    pub fn acquire(dir: &Path) -> Result<FolderLock, String> {
        let path = dir.join(LOCK_FILE);
        let text = LockOwner::current().text();
        let cannot = |e: std::io::Error| format!("cannot lock {}: {e}", path.display());
        for _ in 0..4 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    if let Err(e) = file
                        .write_all(text.as_bytes())
                        .and_then(|()| file.sync_data())
                    {
                        let _ = std::fs::remove_file(&path);
                        return Err(cannot(e));
                    }
                    return Ok(FolderLock { path, text });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(cannot(e)),
            }
            let held = match std::fs::read_to_string(&path) {
                Ok(held) => held,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(cannot(e)),
            };
            let owner = LockOwner::parse(&held);
            if !owner.as_ref().is_some_and(LockOwner::is_gone) {
                let who = match &owner {
                    Some(o) if o.host.is_empty() || o.host == host_name() => {
                        format!("process {}", o.pid)
                    }
                    Some(o) => format!("process {} on {}", o.pid, o.host),
                    None => "an unreadable lock".to_string(),
                };
                return Err(format!(
                    "{} is in use by another hane match ({who}): two runners on one folder \
                     would play the same games; wait for it to end or use another folder \
                     (if no such match runs, remove {})",
                    dir.display(),
                    path.display()
                ));
            }
            // Take the stale lock over: move it aside (only one runner can), check that it
            // is still the stale one, and try again.
            let aside = temporary_path(&path);
            match std::fs::rename(&path, &aside) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(cannot(e)),
            }
            if std::fs::read_to_string(&aside).ok().as_deref() != Some(held.as_str()) {
                // Another runner took it over in between: give its lock back.
                let _ = std::fs::rename(&aside, &path);
                continue;
            }
            let _ = std::fs::remove_file(&aside);
        }
        Err(format!(
            "cannot lock {}: other runners keep taking it",
            path.display()
        ))
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Only our own lock goes (never one that another runner took over).
        if std::fs::read_to_string(&self.path).ok().as_deref() == Some(self.text.as_str()) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Appends finished games to `results.jsonl`, one flushed line each.
pub struct ResultsWriter {
    file: File,
}

impl ResultsWriter {
    /// Opens the results file for appending; a last line cut short by a kill is cut off
    /// (its game was not counted, and is played again), so that the next record starts on
    /// a line of its own and the fragment never reads as a record.
    pub fn open(dir: &Path) -> Result<ResultsWriter, String> {
        let path = dir.join(RESULTS_FILE);
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut text = Vec::new();
        file.read_to_end(&mut text)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if text.last().is_some_and(|&b| b != b'\n') {
            let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(whole as u64)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(ResultsWriter { file })
    }

    pub fn append(&mut self, record: &GameRecord) -> Result<(), String> {
        let mut line = serde_json::to_string(record).expect("records serialize");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot append to {RESULTS_FILE}: {e}"))
    }
}

/// Today's date as `YYYY-MM-DD` (UTC), from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_owners_are_written_and_read_back() {
        let me = LockOwner::current();
        assert_eq!(LockOwner::parse(&me.text()), Some(me));
        let bare = LockOwner::parse("42\n").unwrap();
        assert_eq!((bare.pid, bare.host.as_str(), bare.started), (42, "", None));
        assert_eq!(LockOwner::parse("not a pid\n"), None);
        #[cfg(target_os = "linux")]
        {
            // This process is alive, unless the lock claims another start time.
            let mut parent = LockOwner::current();
            parent.pid = std::os::unix::process::parent_id();
            parent.started = process_start(parent.pid);
            assert!(!parent.is_gone());
            parent.started = parent.started.map(|t| t + 1);
            assert!(parent.is_gone());
            // Another host's process cannot be checked.
            parent.host = "elsewhere.invalid".to_string();
            assert!(!parent.is_gone());
        }
    }

    #[test]
    fn temporary_names_are_unique() {
        let path = Path::new("dir/report.txt");
        let (a, b) = (temporary_path(path), temporary_path(path));
        assert_ne!(a, b);
        assert_eq!(a.parent(), path.parent());
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(".report.txt."), "{name}");
        assert!(name.contains(&std::process::id().to_string()), "{name}");
    }

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }
}
