//! A GTP engine run as a subprocess. Commands are built and responses parsed with the `gtp`
//! crate (`gtp::Command`, `gtp::ResponseParser`); the process itself is driven here, because
//! the crate's `controller::Engine` cannot serve a referee: it prints the engine's stderr on
//! our stdout, polls by sleeping a quarter of the timeout between looks, never reaps the
//! process it kills, and cannot tell a crash from silence. So a reader thread forwards the
//! engine's stdout lines over a channel, and the referee waits with `recv_timeout` until the
//! deadline; a second thread keeps the tail of stderr for fault reports and move comments.

use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel::{Receiver, RecvTimeoutError, bounded};
use parking_lot::Mutex;

use super::player::{
    DeadStones, Decision, Fault, FaultKind, MoveRequest, Player, Reply, TimeControl,
};
use crate::board::{Color, GameState, Move};
use crate::files::{LineRead, read_bounded_line};
use crate::search::SearchControl;

/// Lines of stderr kept for fault reports.
const STDERR_TAIL: usize = 12;
/// Longest move comment taken from stderr, in bytes.
const MAX_COMMENT: usize = 600;
/// Most bytes of one engine reply (all its lines) the runner reads: a longer reply is a bad
/// reply, read to its end without being stored.
pub const MAX_REPLY_BYTES: usize = 1 << 20;
/// Most bytes of one stderr line kept.
const MAX_STDERR_LINE: usize = 4096;
/// Most bytes of an engine's words quoted in a fault (results, SGF and screen).
const MAX_QUOTE: usize = 160;
/// How often a wait for an answer looks whether the match was interrupted.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// Splits a command line the way a POSIX shell would (quotes, backslashes), without a shell.
pub fn split_command_line(command_line: &str) -> Result<Vec<String>, String> {
    match shlex::split(command_line) {
        Some(words) if !words.is_empty() => Ok(words),
        Some(_) => Err("the engine command line is empty".to_string()),
        None => Err(format!(
            "cannot split the engine command line {command_line:?} (unbalanced quotes?)"
        )),
    }
}

/// What the stderr thread collects.
#[derive(Default)]
struct StderrLog {
    /// The last lines, for fault reports.
    tail: VecDeque<String>,
    /// Lines since the last `genmove` began, for move comments.
    fresh: Vec<String>,
    /// Whether stderr reached its end (the process closed it or exited).
    closed: bool,
}

/// One running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    /// Stdout lines; `None` marks the end of output.
    lines: Receiver<EngineLine>,
    stderr: Arc<Mutex<StderrLog>>,
    next_id: u32,
    /// Stopped when the match is interrupted: waits for answers are then given up.
    interrupt: Arc<SearchControl>,
}

/// What the stdout reader thread hands over: a line (its break dropped), the start of a
/// line over [`MAX_REPLY_BYTES`] (the rest was skipped), or the end of the output.
enum EngineLine {
    Line(String),
    TooLong(String),
    End,
}

/// `text` cut to at most `max` bytes (at a character boundary), with `...` when cut.
fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut cut = max;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &text[..cut])
}

impl Process {
    fn start(words: &[String], interrupt: Arc<SearchControl>) -> Result<Process, Fault> {
        let mut command = Command::new(&words[0]);
        command
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // The engine leads a process group of its own, so that killing it also ends what it
        // started (a wrapper script's real engine, a helper process) instead of leaving it
        // to burn the CPU the rest of the match is timed on.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| {
            Fault::new(
                FaultKind::Crash,
                format!("cannot start {:?}: {e}", words[0]),
            )
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        // Bounded: an engine that writes without end waits for the runner to read.
        let (sender, lines) = bounded(256);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                let item = match read_bounded_line(&mut reader, &mut line, MAX_REPLY_BYTES) {
                    Ok(LineRead::End) | Err(_) => {
                        let _ = sender.send(EngineLine::End);
                        break;
                    }
                    Ok(LineRead::Line) => {
                        EngineLine::Line(String::from_utf8_lossy(&line).into_owned())
                    }
                    Ok(LineRead::TooLong) => EngineLine::TooLong(
                        String::from_utf8_lossy(&line[..MAX_QUOTE]).into_owned(),
                    ),
                };
                if sender.send(item).is_err() {
                    break;
                }
            }
        });
        let log = Arc::new(Mutex::new(StderrLog::default()));
        let log_writer = Arc::clone(&log);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            while let Ok(LineRead::Line | LineRead::TooLong) =
                read_bounded_line(&mut reader, &mut line, MAX_STDERR_LINE)
            {
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                let mut log = log_writer.lock();
                if log.tail.len() == STDERR_TAIL {
                    log.tail.pop_front();
                }
                log.tail.push_back(clip(&text, MAX_QUOTE));
                if log.fresh.len() < 64 {
                    log.fresh.push(text);
                }
            }
            log_writer.lock().closed = true;
        });
        Ok(Process {
            child,
            stdin,
            lines,
            stderr: log,
            next_id: 0,
            interrupt,
        })
    }

    /// Why the process stopped answering: its exit status (if it has exited) and the tail of
    /// its stderr.
    fn crash_detail(&mut self, what: &str) -> String {
        let mut status = None;
        let waited = Instant::now();
        while waited.elapsed() < Duration::from_millis(300) {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Let the stderr thread read what the process wrote before it went.
        while status.is_some()
            && !self.stderr.lock().closed
            && waited.elapsed() < Duration::from_millis(600)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let tail: Vec<String> = self.stderr.lock().tail.iter().cloned().collect();
        let mut detail = match status {
            Some(s) => format!("{what}; the engine exited ({s})"),
            None => format!("{what}; the engine closed its output"),
        };
        if !tail.is_empty() {
            detail.push_str("; stderr: ");
            detail.push_str(&tail.join(" | "));
        }
        detail
    }

    /// Sends one command and waits for its response until `timeout`. The inner result is
    /// the engine's answer: `Ok` for `=`, `Err` for `?`.
    fn command(
        &mut self,
        name: &str,
        args: &[String],
        timeout: Duration,
    ) -> Result<Result<String, String>, Fault> {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = if args.is_empty() {
            gtp::Command::new(name)
        } else {
            gtp::Command::new_with_args(name, |builder| {
                for arg in args {
                    builder.s(arg);
                }
                builder.list()
            })
        };
        command.set_id(id);
        let text = command.to_string();
        if let Err(e) = self
            .stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
        {
            let what = format!("cannot send `{}`: {e}", text.trim_end());
            return Err(Fault::new(FaultKind::Crash, self.crash_detail(&what)));
        }
        let deadline = Instant::now() + timeout;
        let mut parser = gtp::ResponseParser::new();
        let mut started = false;
        let mut reply_bytes = 0;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(EngineLine::Line(line)) => line,
                Ok(EngineLine::TooLong(start)) => {
                    return Err(Fault::new(
                        FaultKind::BadReply,
                        format!(
                            "answered `{}` with a line over {MAX_REPLY_BYTES} bytes: {:?}...",
                            text.trim_end(),
                            start
                        ),
                    ));
                }
                Ok(EngineLine::End) | Err(RecvTimeoutError::Disconnected) => {
                    let what = format!("no answer to `{}`", text.trim_end());
                    return Err(Fault::new(FaultKind::Crash, self.crash_detail(&what)));
                }
                Err(RecvTimeoutError::Timeout) if self.interrupt.is_stopped() => {
                    return Err(Fault::new(
                        FaultKind::Crash,
                        format!("interrupted waiting for `{}`", text.trim_end()),
                    ));
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => continue,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Fault::new(
                        FaultKind::Timeout,
                        format!(
                            "no answer to `{}` within {:.1} s",
                            text.trim_end(),
                            timeout.as_secs_f64()
                        ),
                    ));
                }
            };
            reply_bytes += line.len() + 1;
            if reply_bytes > MAX_REPLY_BYTES {
                return Err(Fault::new(
                    FaultKind::BadReply,
                    format!(
                        "answered `{}` with over {MAX_REPLY_BYTES} bytes",
                        text.trim_end()
                    ),
                ));
            }
            if !started {
                let trimmed = line.trim();
                if trimmed.is_empty() {
                    continue;
                }
                if !(trimmed.starts_with('=') || trimmed.starts_with('?')) {
                    return Err(Fault::new(
                        FaultKind::BadReply,
                        format!(
                            "answered `{}` with {:?}",
                            text.trim_end(),
                            clip(trimmed, MAX_QUOTE)
                        ),
                    ));
                }
                started = true;
                // GTP allows `=` or `=12` alone on the line for an empty answer; the
                // crate's parser wants the separating space.
                let head_len = 1 + trimmed[1..].bytes().take_while(u8::is_ascii_digit).count();
                if trimmed.len() == head_len {
                    parser.feed(&format!("{trimmed} \n"));
                    continue;
                }
            }
            parser.feed(&line);
            parser.feed("\n");
            if !line.trim().is_empty() {
                continue;
            }
            match parser.get_response() {
                Ok(response) => {
                    let answered_id = response.id_0();
                    if answered_id != 0 && answered_id != id {
                        return Err(Fault::new(
                            FaultKind::BadReply,
                            format!("answered id {answered_id} to command id {id}"),
                        ));
                    }
                    return Ok(match response {
                        gtp::Response::Result((_, text)) => Ok(text),
                        gtp::Response::Error((_, text)) => Err(text),
                    });
                }
                Err(gtp::ResponseError::IncompleteResponse) => continue,
                Err(gtp::ResponseError::BadResponse(bad)) => {
                    return Err(Fault::new(
                        FaultKind::BadReply,
                        format!(
                            "malformed answer to `{}`: {:?}",
                            text.trim_end(),
                            clip(&format!("{bad:?}"), MAX_QUOTE)
                        ),
                    ));
                }
            }
        }
    }

    /// Sends `quit`, waits a moment, then makes sure the process is gone and reaped.
    fn stop(mut self, politely: bool) {
        if politely {
            let _ = self.command("quit", &[], Duration::from_millis(500));
            let waited = Instant::now();
            while waited.elapsed() < Duration::from_millis(300) {
                if let Ok(Some(_)) = self.child.try_wait() {
                    // Whatever the engine left behind in its group goes too.
                    kill_group(&self.child);
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }

    /// Kills the engine and every process of its group, and reaps the engine.
    fn kill(&mut self) {
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends SIGKILL to the process group the engine leads (see `Process::start`). The group
/// outlives its leader while members remain, so this also works after the engine exited; it
/// is harmless when the group is already gone.
fn kill_group(child: &Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// A GTP engine given as a command line. `{seed}` in the command line is replaced by the
/// game's seed, and the engine is then restarted for every game.
pub struct EngineProcess {
    name: String,
    command_line: String,
    process: Option<Process>,
    /// The seed the running process was started with (when the command line uses `{seed}`).
    running_seed: Option<u64>,
    /// Time allowed for commands other than `genmove`.
    command_timeout: Duration,
    /// Stopped when the match is interrupted (see [`EngineProcess::watch`]).
    interrupt: Arc<SearchControl>,
    /// The increment of a Fischer clock announced as Canadian byo-yomi (the engine knows
    /// no `kata-time_settings`): its `time_left` is translated (see
    /// [`canadian_time_left`]).
    fischer_as_canadian: Option<f64>,
}

impl EngineProcess {
    /// Starts the engine. `name` overrides the name the engine gives (`name` and `version`).
    pub fn start(
        command_line: &str,
        name: Option<&str>,
        command_timeout: Duration,
    ) -> Result<EngineProcess, Fault> {
        let mut engine = EngineProcess::idle(command_line, name.unwrap_or(""), command_timeout);
        engine.launch(0)?;
        if engine.name.is_empty() {
            engine.name = engine.ask_name();
        }
        Ok(engine)
    }

    /// An engine that starts when first needed (a failure to start is then a fault of
    /// the game that needed it).
    pub fn idle(command_line: &str, name: &str, command_timeout: Duration) -> EngineProcess {
        EngineProcess {
            name: name.to_string(),
            command_line: command_line.to_string(),
            process: None,
            running_seed: None,
            command_timeout,
            interrupt: SearchControl::new(),
            fischer_as_canadian: None,
        }
    }

    /// Gives up waiting for the engine once `interrupt` is stopped (the answer is then a
    /// fault, which the referee, seeing the interrupt, does not hold against the engine).
    pub fn watch(mut self, interrupt: Arc<SearchControl>) -> EngineProcess {
        self.interrupt = interrupt;
        self
    }

    fn uses_seed(&self) -> bool {
        self.command_line.contains("{seed}")
    }

    fn launch(&mut self, seed: u64) -> Result<(), Fault> {
        if let Some(old) = self.process.take() {
            old.stop(false);
        }
        let line = self.command_line.replace("{seed}", &seed.to_string());
        let words = split_command_line(&line).map_err(|e| Fault::new(FaultKind::Crash, e))?;
        self.process = Some(Process::start(&words, Arc::clone(&self.interrupt))?);
        self.running_seed = Some(seed);
        Ok(())
    }

    /// The engine's `name` and `version`, or the program's file name.
    fn ask_name(&mut self) -> String {
        let timeout = self.command_timeout;
        let fallback = || {
            let words = split_command_line(&self.command_line).unwrap_or_default();
            words
                .first()
                .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
                .unwrap_or_else(|| "engine".to_string())
        };
        let Some(process) = self.process.as_mut() else {
            return fallback();
        };
        let name = match process.command("name", &[], timeout) {
            Ok(Ok(n)) if !n.trim().is_empty() => n.trim().to_string(),
            _ => return fallback(),
        };
        match process.command("version", &[], timeout) {
            Ok(Ok(v)) if !v.trim().is_empty() => format!("{name} {}", v.trim()),
            _ => name,
        }
    }

    fn process(&mut self) -> Result<&mut Process, Fault> {
        if self.process.is_none() {
            self.launch(self.running_seed.unwrap_or(0))?;
        }
        Ok(self.process.as_mut().expect("launched"))
    }

    /// Sends a command that must succeed; an error answer is a bad reply.
    fn require(&mut self, name: &str, args: &[String]) -> Result<String, Fault> {
        let timeout = self.command_timeout;
        match self.process()?.command(name, args, timeout)? {
            Ok(text) => Ok(text),
            Err(message) => Err(Fault::new(
                FaultKind::BadReply,
                format!("refused `{name} {}`: {message}", args.join(" ")),
            )),
        }
    }

    pub fn set_name(&mut self, name: String) {
        self.name = name;
    }
}

impl Player for EngineProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(
        &mut self,
        state: &GameState,
        time_control: TimeControl,
        seed: u64,
    ) -> Result<(), Fault> {
        if self.uses_seed() && self.running_seed != Some(seed) {
            self.launch(seed)?;
        }
        let geometry = state.geometry();
        self.require("boardsize", &[state.size().to_string()])?;
        self.require("clear_board", &[])?;
        self.require("komi", &[state.komi().to_string()])?;
        let setup = state.setup_stones();
        if state.handicap() > 0 && setup.len() == state.handicap() {
            let points: Vec<String> = setup
                .iter()
                .map(|&(_, p)| geometry.format_point(p))
                .collect();
            self.require("set_free_handicap", &points)?;
        } else {
            for &(color, p) in setup {
                self.require("play", &[color_word(color), geometry.format_point(p)])?;
            }
        }
        for &(color, mv) in state.moves() {
            self.require("play", &[color_word(color), mv.to_gtp(geometry)])?;
        }
        self.fischer_as_canadian = None;
        match time_control {
            TimeControl::None { .. } => {}
            TimeControl::PerMove { seconds } => {
                let per_move = gtp_seconds(seconds).to_string();
                self.require("time_settings", &["0".into(), per_move, "1".into()])?;
            }
            TimeControl::Clock {
                main,
                byo_yomi,
                stones,
            } => {
                // Without byo-yomi the clock is absolute time, which GTP writes `M 0 0`:
                // byo-yomi stones with no byo-yomi make no sense, and an engine that checks
                // (Pachi asserts) would die on them.
                let byo_yomi = gtp_seconds(byo_yomi);
                let stones = if byo_yomi == 0 { 0 } else { stones };
                let args = [
                    gtp_seconds(main).to_string(),
                    byo_yomi.to_string(),
                    stones.to_string(),
                ];
                self.require("time_settings", &args)?;
            }
            TimeControl::Fischer { main, increment } => {
                // KataGo's command takes seconds with their fraction.
                let timeout = self.command_timeout;
                let fischer = [
                    "fischer".to_string(),
                    main.to_string(),
                    increment.to_string(),
                ];
                let answer = self
                    .process()?
                    .command("kata-time_settings", &fischer, timeout)?;
                if answer.is_err() {
                    // No Fischer clocks: main time less one increment, then one move in
                    // every increment (gtp2ogs's way), so that main time and the period
                    // together are what the bank holds; `time_left` keeps it so.
                    let canadian = [
                        gtp_seconds_down(main - increment).to_string(),
                        gtp_seconds(increment).to_string(),
                        "1".to_string(),
                    ];
                    self.require("time_settings", &canadian)?;
                    self.fischer_as_canadian = Some(increment);
                }
            }
        }
        Ok(())
    }

    fn play(&mut self, state: &GameState, color: Color, mv: Move) -> Result<(), Fault> {
        self.require("play", &[color_word(color), mv.to_gtp(state.geometry())])?;
        Ok(())
    }

    fn genmove(&mut self, state: &GameState, request: &MoveRequest) -> Result<Reply, Fault> {
        let color = color_word(request.color);
        if let Some(left) = request.time_left {
            let (seconds, stones) = match self.fischer_as_canadian {
                Some(increment) => canadian_time_left(left.seconds, increment),
                None => (gtp_seconds(left.seconds), left.stones_or_periods),
            };
            self.require(
                "time_left",
                &[color.clone(), seconds.to_string(), stones.to_string()],
            )?;
        }
        let process = self.process()?;
        process.stderr.lock().fresh.clear();
        let limit = request.allowed + request.margin;
        let answer = match process.command("genmove", std::slice::from_ref(&color), limit)? {
            Ok(text) => text,
            Err(message) => {
                return Err(Fault::new(
                    FaultKind::BadReply,
                    format!("refused `genmove {color}`: {message}"),
                ));
            }
        };
        let fresh: Vec<String> = std::mem::take(&mut process.stderr.lock().fresh);
        let comment = comment_from(&fresh);
        let word = answer.trim();
        let decision = if word.eq_ignore_ascii_case("resign") {
            Decision::Resign
        } else {
            match Move::parse(state.geometry(), word) {
                Some(mv) => Decision::Play(mv),
                None => {
                    return Err(Fault::new(
                        FaultKind::BadReply,
                        format!("`genmove {color}` answered {word:?}, not a move"),
                    ));
                }
            }
        };
        Ok(Reply {
            decision,
            comment,
            playouts: None,
            winrate: None,
            owl: None,
        })
    }

    fn dead_stones(&mut self, state: &GameState) -> DeadStones {
        let timeout = self.command_timeout;
        let process = match self.process() {
            Ok(p) => p,
            Err(fault) => return DeadStones::Unknown(fault.to_string()),
        };
        let text = match process.command("final_status_list", &["dead".to_string()], timeout) {
            Ok(Ok(text)) => text,
            Ok(Err(message)) => return DeadStones::Unknown(format!("refused: {message}")),
            Err(fault) => {
                // The process is hung or gone: the next game starts a fresh one.
                if let Some(process) = self.process.take() {
                    process.stop(false);
                }
                return DeadStones::Unknown(fault.to_string());
            }
        };
        let mut points = Vec::new();
        for word in text.split_whitespace() {
            match state.geometry().parse_point(word) {
                Some(p) if state.board().cell(p).color().is_some() => points.push(p),
                _ => return DeadStones::Unknown(format!("listed {word:?}, not a stone")),
            }
        }
        points.sort_unstable();
        points.dedup();
        DeadStones::Listed(points)
    }

    fn restart(&mut self) -> Result<(), Fault> {
        self.launch(self.running_seed.unwrap_or(0))
    }

    fn shut_down(&mut self) {
        if let Some(process) = self.process.take() {
            process.stop(true);
        }
    }
}

/// Seconds as GTP's `time_settings` and `time_left` take them: a whole number (an int in
/// the spec; GNU Go refuses `12.5`), rounded down so that an engine is not told of time it
/// does not have, but never 0 while some time is left: told 0, an engine would take its
/// clock for run out (and `time_left b 0 0` in absolute time reads as the flag fallen).
/// Under a second that says 1, up to a second more than there is: the referee's margin
/// (`--margin`, 1 s by default) is what covers it.
fn gtp_seconds(seconds: f64) -> u64 {
    if seconds > 0.0 {
        gtp_seconds_down(seconds).max(1)
    } else {
        0
    }
}

/// Whole seconds rounded down, 0 for none (the main time of a Fischer clock announced as
/// Canadian byo-yomi, which may be all in the period).
fn gtp_seconds_down(seconds: f64) -> u64 {
    if seconds > 0.0 {
        seconds.floor() as u64
    } else {
        0
    }
}

/// `time_left` (seconds, stones) for a Fischer bank of `bank` seconds announced as
/// Canadian byo-yomi of one move per `increment`: main time is the bank less one increment
/// while a whole second of it is left, the period of one stone after it; so an engine that
/// spends its main time and then its period spends no more than the bank.
fn canadian_time_left(bank: f64, increment: f64) -> (u64, u32) {
    let main = bank - increment;
    if main >= 1.0 {
        (gtp_seconds_down(main), 0)
    } else {
        (gtp_seconds(bank), 1)
    }
}

fn color_word(color: Color) -> String {
    match color {
        Color::Black => "b".to_string(),
        Color::White => "w".to_string(),
    }
}

/// A move comment from what the engine wrote to stderr while thinking: the last few
/// non-empty lines, shortened.
fn comment_from(lines: &[String]) -> Option<String> {
    let kept: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| informative(l))
        .collect();
    if kept.is_empty() {
        return None;
    }
    let start = kept.len().saturating_sub(4);
    let mut comment = kept[start..].join("\n");
    if comment.len() > MAX_COMMENT {
        let mut cut = MAX_COMMENT;
        while !comment.is_char_boundary(cut) {
            cut -= 1;
        }
        comment.truncate(cut);
    }
    Some(comment)
}

/// Whether an engine's stderr line says something worth a move comment: a figure such as
/// a win rate, playouts or visits, a score or a principal variation, or what it thinks
/// about; not a row of a board diagram (mostly stones, points and frame characters).
fn informative(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    const WORDS: [&str; 12] = [
        "win", "playout", "visit", "score", "pv", "%", "rate", "node", "lead", "think", "eval",
        "best",
    ];
    if line.is_empty() || !WORDS.iter().any(|w| lower.contains(w)) {
        return false;
    }
    let visible: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    let board = visible
        .iter()
        .filter(|c| ".XOxo+#@|-()".contains(**c))
        .count();
    board * 2 < visible.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny engine in bash that answers in the spellings GTP allows but the `gtp` crate's
    /// parser alone would reject (`=5` with no text), without ids, or with a wrong id.
    const SCRIPT: &str = r#"while read -r id cmd rest; do
      case $cmd in
        genmove) printf '= D4\n\n' ;;
        name) printf '=%s Fake\nEngine\n\n' "$id" ;;
        wrongid) printf '=999 x\n\n' ;;
        fail) printf '?%s no such thing\n\n' "$id" ;;
        *) printf '=%s\n\n' "$id" ;;
      esac
    done"#;

    #[test]
    fn answers_are_framed_and_checked() {
        let words = ["bash".to_string(), "-c".to_string(), SCRIPT.to_string()];
        let mut p = Process::start(&words, SearchControl::new()).unwrap();
        let t = Duration::from_secs(10);
        assert_eq!(
            p.command("boardsize", &["9".into()], t),
            Ok(Ok(String::new()))
        );
        assert_eq!(
            p.command("name", &[], t),
            Ok(Ok("Fake\nEngine".to_string()))
        );
        assert_eq!(
            p.command("genmove", &["b".into()], t),
            Ok(Ok("D4".to_string()))
        );
        assert_eq!(
            p.command("fail", &[], t),
            Ok(Err("no such thing".to_string()))
        );
        let fault = p.command("wrongid", &[], t).unwrap_err();
        assert_eq!(fault.kind, FaultKind::BadReply);
        p.stop(true);
    }

    /// An engine that keeps every command it receives and answers `dump` with them.
    const RECORDER: &str = r#"seen=""
    while read -r id cmd rest; do
      case $cmd in
        dump) printf '=%s %s\n\n' "$id" "$seen" ;;
        genmove) seen="$seen|$cmd $rest"; printf '=%s pass\n\n' "$id" ;;
        *) seen="$seen|$cmd $rest"; printf '=%s\n\n' "$id" ;;
      esac
    done"#;

    #[test]
    fn time_is_announced_in_seconds_engines_accept() {
        let line = format!("bash -c {}", shlex::try_quote(RECORDER).unwrap());
        let state = GameState::new(9, crate::board::Rules::default()).unwrap();
        let sent = |control: TimeControl, seconds: f64, stones_or_periods: u32| {
            let mut engine = EngineProcess::idle(&line, "recorder", Duration::from_secs(10));
            engine.new_game(&state, control, 1).unwrap();
            let request = MoveRequest {
                color: Color::Black,
                allowed: Duration::from_secs(5),
                time_left: Some(crate::play::clock::TimeLeft {
                    seconds,
                    stones_or_periods,
                }),
                time_control: control,
                margin: Duration::from_secs(1),
            };
            engine.genmove(&state, &request).unwrap();
            let seen = engine.require("dump", &[]).unwrap();
            engine.shut_down();
            seen
        };
        let clock = |main, byo_yomi, stones| TimeControl::Clock {
            main,
            byo_yomi,
            stones,
        };
        // Sudden death is absolute time: no byo-yomi, so no byo-yomi stones either (GTP
        // says `M 0 0`; Pachi asserts on `M 0 1`).
        let seen = sent(clock(60.0, 0.0, 1), 0.9, 0);
        assert!(seen.contains("|time_settings 60 0 0|"), "{seen}");
        // Time left is a whole number of seconds (GNU Go refuses decimals), and never 0
        // while time is left.
        assert!(seen.contains("|time_left b 1 0|"), "{seen}");
        let seen = sent(TimeControl::PerMove { seconds: 2.5 }, 2.5, 1);
        assert!(seen.contains("|time_settings 0 2 1|"), "{seen}");
        assert!(seen.contains("|time_left b 2 1|"), "{seen}");
        let seen = sent(TimeControl::PerMove { seconds: 0.4 }, 0.4, 1);
        assert!(seen.contains("|time_settings 0 1 1|"), "{seen}");
        assert!(seen.contains("|time_left b 1 1|"), "{seen}");
        let seen = sent(clock(30.7, 5.0, 3), 0.0, 0);
        assert!(seen.contains("|time_settings 30 5 3|"), "{seen}");
        assert!(seen.contains("|time_left b 0 0|"), "{seen}");
        // Fischer: KataGo's command, with the seconds' fractions.
        let fischer = TimeControl::Fischer {
            main: 60.0,
            increment: 2.5,
        };
        let seen = sent(fischer, 61.5, 0);
        assert!(
            seen.contains("|kata-time_settings fischer 60 2.5|"),
            "{seen}"
        );
        assert!(!seen.contains("|time_settings"), "{seen}");
        assert!(seen.contains("|time_left b 61 0|"), "{seen}");
    }

    #[test]
    fn fischer_falls_back_to_canadian_for_engines_without_it() {
        let script = RECORDER.replace(
            "dump)",
            "kata-time_settings) printf '?%s unknown command\\n\\n' \"$id\" ;;\n        dump)",
        );
        let line = format!("bash -c {}", shlex::try_quote(&script).unwrap());
        let state = GameState::new(9, crate::board::Rules::default()).unwrap();
        let mut engine = EngineProcess::idle(&line, "recorder", Duration::from_secs(10));
        let fischer = TimeControl::Fischer {
            main: 30.0,
            increment: 5.0,
        };
        engine.new_game(&state, fischer, 1).unwrap();
        // Main time is the bank less one increment: the engine's main time and its one
        // period add up to the bank, before and after the bank runs low.
        for (bank, said) in [
            (30.0, "b 25 0"),
            (12.7, "b 7 0"),
            (5.5, "b 5 1"),
            (3.0, "b 3 1"),
        ] {
            let request = MoveRequest {
                color: Color::Black,
                allowed: Duration::from_secs_f64(bank),
                time_left: Some(crate::play::clock::TimeLeft {
                    seconds: bank,
                    stones_or_periods: 0,
                }),
                time_control: fischer,
                margin: Duration::from_secs(1),
            };
            engine.genmove(&state, &request).unwrap();
            let seen = engine.require("dump", &[]).unwrap();
            assert!(
                seen.ends_with(&format!("|time_left {said}|genmove b")),
                "{seen}"
            );
        }
        let seen = engine.require("dump", &[]).unwrap();
        engine.shut_down();
        assert!(seen.contains("|komi 7.5|time_settings 25 5 1|"), "{seen}");
        assert_eq!(canadian_time_left(6.5, 5.0), (1, 0));
        assert_eq!(canadian_time_left(5.9, 5.0), (5, 1));
        assert_eq!(canadian_time_left(0.3, 5.0), (1, 1));
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line("gnugo --mode gtp 'a b'").unwrap(),
            ["gnugo", "--mode", "gtp", "a b"]
        );
        assert!(split_command_line("  ").is_err());
        assert!(split_command_line("x \"open").is_err());
    }
}
