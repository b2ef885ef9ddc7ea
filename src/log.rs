//! The process's log: one line per message, `hane: ` first, on stderr or in the file given
//! with [`set_log_file`], for messages at or above the level set with [`set_log_level`].
//!
//! Logging never fails and never panics: a write that fails (stderr closed, a full disk) is
//! dropped, so that an engine whose operator closed stderr keeps answering on stdout. The
//! module depends on nothing else in the crate, so that every layer may log (the search
//! notes a full tree here); [`crate::engine`] re-exports it.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering};

/// How much hane logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    Off = 0,
    Error = 1,
    Warn = 2,
    Info = 3,
    Debug = 4,
}

static LOG_LEVEL: AtomicU8 = AtomicU8::new(LogLevel::Warn as u8);

/// The log file, once there is one (stderr until then).
static LOG_FILE: Mutex<Option<File>> = Mutex::new(None);

/// Sets the log level for the whole process.
pub fn set_log_level(level: LogLevel) {
    LOG_LEVEL.store(level as u8, Ordering::Relaxed);
}

/// Whether messages at `level` are written.
pub fn enabled(level: LogLevel) -> bool {
    level != LogLevel::Off && level as u8 <= LOG_LEVEL.load(Ordering::Relaxed)
}

/// Sends the log to the file at `path` (opened for appending, created if missing) instead
/// of stderr.
pub fn set_log_file(path: &Path) -> io::Result<()> {
    let file = File::options().create(true).append(true).open(path)?;
    *LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()) = Some(file);
    Ok(())
}

/// Writes one log line when `level` is enabled.
pub fn log(level: LogLevel, message: std::fmt::Arguments<'_>) {
    if enabled(level) {
        write_line(message);
    }
}

/// Writes one line whatever the log level (a fatal error at startup, which the operator must
/// see even with `--log-level off`).
pub fn report(message: std::fmt::Arguments<'_>) {
    write_line(message);
}

/// Writes `hane: message` and a line feed to the log file or stderr in one write, ignoring
/// errors.
fn write_line(message: std::fmt::Arguments<'_>) {
    let line = format!("hane: {message}\n");
    let mut file = LOG_FILE.lock().unwrap_or_else(|e| e.into_inner());
    let _ = match file.as_mut() {
        Some(file) => file.write_all(line.as_bytes()),
        None => io::stderr().lock().write_all(line.as_bytes()),
    };
}

/// A progress bar on stderr for the offline tools (training, book building), counting
/// `len` steps of `what`; hidden when stderr is not a terminal.
pub fn progress_bar(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg:>12} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}
