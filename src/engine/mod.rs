//! The GTP server: hane's front end for GUIs, servers and match tools.
//!
//! It owns input preprocessing and parsing ([`parse`]), the one command table that drives
//! dispatch, `known_command` and `list_commands` ([`commands`]), response framing, the stdin
//! reader thread (which handles GoGui's `# interrupt` line itself and stops analysis streams
//! and pondering when input arrives) and the analysis output formats ([`analysis`]). Its
//! sibling [`kata_json`] serves KataGo's JSON analysis protocol instead of GTP. Moves,
//! clocks and the end-of-game judgement are the play layer's ([`crate::play::Player`]);
//! nothing here prints anything but GTP responses on stdout (logs go to [`crate::log`]).

pub mod analysis;
pub mod commands;
pub mod input;
pub mod kata_json;
pub mod parse;

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::board::{GameState, Rules};
use crate::pattern::PatternTables;
use crate::play::Player;
use crate::play::clock::{Clock, TimeSystem};
use crate::search::SearchControl;
use crate::settings::Settings;

pub use crate::log::{LogLevel, log, report, set_log_file, set_log_level};

/// What the reader thread tells the engine, shared between the two threads.
#[derive(Debug)]
pub struct InputSignal {
    /// Lines read for the command queue, counted before they are queued (end of input
    /// counts as one).
    received: AtomicU64,
    /// Lines the engine has taken from the queue.
    consumed: AtomicU64,
    /// Set while a search should end as soon as any input arrives (analysis, pondering).
    stop_on_input: AtomicBool,
    /// Set once the input has ended.
    closed: AtomicBool,
    /// Bytes of the lines queued and not yet taken (the reader waits while they are many).
    queued_bytes: AtomicUsize,
    /// Set once the engine takes no more lines.
    gone: AtomicBool,
    /// The stop flag of the running search.
    control: Arc<SearchControl>,
    /// In-process use without a reader: input counts as always pending.
    batch: bool,
}

impl InputSignal {
    fn new(batch: bool) -> Arc<InputSignal> {
        Arc::new(InputSignal {
            received: AtomicU64::new(0),
            consumed: AtomicU64::new(0),
            stop_on_input: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            queued_bytes: AtomicUsize::new(0),
            gone: AtomicBool::new(false),
            control: SearchControl::new(),
            batch,
        })
    }

    /// Reader side: a line was queued.
    fn line_arrived(&self) {
        self.received.fetch_add(1, Ordering::SeqCst);
        if self.stop_on_input.load(Ordering::SeqCst) {
            self.control.stop();
        }
    }

    /// Reader side: counts `item` and queues it (waiting while the queue is full); false
    /// once the engine is gone. Counted before it is queued: counted after, the engine could
    /// take the line, start the analysis it asks for, and then see the count arrive as new
    /// input that stops that very analysis (seen in CI under load: `lz-analyze` ended
    /// after its first report).
    fn queue(
        &self,
        sender: &crossbeam::channel::Sender<input::Queued>,
        item: input::Queued,
    ) -> bool {
        self.line_arrived();
        self.queued_bytes.fetch_add(item.bytes(), Ordering::SeqCst);
        sender.send(item).is_ok()
    }

    /// Whether the engine takes no more lines.
    fn engine_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    /// Reader side: the end of input, queued like a line. No command can follow it, and
    /// nobody may be left to wait for a long answer: the last command's search stops as at
    /// `# interrupt` (here if it runs already, or as it starts, see
    /// [`InputSignal::last_command`]). Commands queued before the end still run in full.
    fn end_of_input(&self, sender: &crossbeam::channel::Sender<input::Queued>) {
        self.closed.store(true, Ordering::SeqCst);
        self.queue(sender, input::Queued::End);
        if self.last_command() {
            log(LogLevel::Info, format_args!("end of input"));
            self.control.stop();
        }
    }

    /// Whether the input has ended and the command being handled is the last one: only the
    /// end of input is queued after it.
    fn last_command(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
            && self.received.load(Ordering::SeqCst) == self.consumed.load(Ordering::SeqCst) + 1
    }

    /// Reader side: GoGui's `# interrupt`.
    fn interrupt(&self) {
        log(LogLevel::Info, format_args!("interrupt"));
        self.control.stop();
    }

    /// Engine side: `item` was taken from the queue.
    fn line_consumed(&self, item: &input::Queued) {
        self.queued_bytes.fetch_sub(item.bytes(), Ordering::SeqCst);
        self.consumed.fetch_add(1, Ordering::SeqCst);
    }

    /// Whether input is waiting to be handled.
    pub fn input_pending(&self) -> bool {
        self.batch || self.received.load(Ordering::SeqCst) > self.consumed.load(Ordering::SeqCst)
    }

    /// From now on any input stops the search (and stops it at once if input is waiting).
    fn begin_stop_on_input(&self) {
        self.stop_on_input.store(true, Ordering::SeqCst);
        if self.input_pending() {
            self.control.stop();
        }
    }

    fn end_stop_on_input(&self) {
        self.stop_on_input.store(false, Ordering::SeqCst);
    }
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The engine: game state, searcher, clock and session settings. Commands arrive as lines
/// through [`Engine::execute_line`]; [`serve_stdio`] adds the reader thread around it.
pub struct Engine {
    /// The operator's settings (the `Scope::Engine` ones are read here).
    settings: Settings,
    state: GameState,
    /// The rules for the next `clear_board` (komi included).
    rules: Rules,
    player: Player,
    /// Each colour's clock, as hane keeps it between `time_left` reports.
    clocks: [Clock; 2],
    input: Arc<InputSignal>,
    /// After `kgs-rules`: plain genmove behaves like `kgs-genmove_cleanup` about passing.
    tournament_cleanup: bool,
    /// Search after our genmove until the next input (pondering) while this is set.
    ponder_wanted: bool,
    /// What the last genmove found, for `gomill-explain_last_move`.
    last_explanation: String,
    quit: bool,
}

impl Engine {
    /// An engine with `settings` and `patterns` (the table their `patterns` setting names,
    /// see [`crate::play::load_patterns`]), for in-process use (tests): analysis streams
    /// stop after their first report as if input were always waiting, and nobody ponders.
    /// Without a `seed` setting the seed is drawn at random.
    pub fn new(settings: Settings, patterns: PatternTables) -> Engine {
        Engine::with_input(settings, patterns, InputSignal::new(true))
    }

    fn with_input(settings: Settings, patterns: PatternTables, input: Arc<InputSignal>) -> Engine {
        let rules = settings.game.game_rules();
        let seed = settings.game.seed.unwrap_or_else(rand::random);
        Engine {
            state: GameState::new(19, rules).expect("19x19 is a valid size"),
            rules,
            // Its pattern table is made ready by `boardsize` / `clear_board` (`new_game`).
            player: Player::new(settings.clone(), patterns, seed),
            clocks: [Clock::new(TimeSystem::None); 2],
            input,
            tournament_cleanup: false,
            ponder_wanted: false,
            last_explanation: String::new(),
            quit: false,
            settings,
        }
    }

    /// The current game.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Handles one raw input line and writes its response (nothing for lines the
    /// preprocessing empties). Never panics on any input.
    pub fn execute_line(&mut self, raw: &str, out: &mut dyn Write) -> io::Result<Flow> {
        self.input.control.reset();
        if self.input.last_command() {
            // The input ended while this command waited: it searches no longer than an
            // interrupted one.
            self.input.control.stop();
        }
        let Some(line) = parse::preprocess(raw) else {
            return Ok(Flow::Continue);
        };
        let command = parse::split_command(&line);
        log(LogLevel::Debug, format_args!("<< {line}"));
        let mut call = Call {
            id: command.id.as_deref(),
            out,
            streaming: false,
        };
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        let result = if command.name.is_empty() {
            Err(ERR_SYNTAX.to_string())
        } else {
            match commands::find(&command.name) {
                Some(spec) => (spec.handler)(self, &args, &mut call),
                None => Err(ERR_UNKNOWN.to_string()),
            }
        };
        call.finish(result)?;
        Ok(if self.quit {
            Flow::Quit
        } else {
            Flow::Continue
        })
    }

    /// Pondering: searches for the side to move until input arrives. Returns at once when
    /// pondering is off or input is waiting.
    fn ponder(&mut self) {
        if !self.settings.game.ponder || !self.ponder_wanted || self.state.is_over() {
            return;
        }
        let control = Arc::clone(&self.input.control);
        control.reset();
        self.input.begin_stop_on_input();
        if !control.is_stopped() {
            log(LogLevel::Debug, format_args!("pondering"));
            self.player.searcher_mut().ponder(&self.state, &control);
        }
        self.input.end_stop_on_input();
    }
}

/// The GTP spec's error strings.
pub const ERR_UNKNOWN: &str = "unknown command";
pub const ERR_SYNTAX: &str = "syntax error";
pub const ERR_ILLEGAL: &str = "illegal move";
pub const ERR_SIZE: &str = "unacceptable size";
pub const ERR_UNDO: &str = "cannot undo";
pub const ERR_LOAD: &str = "cannot load file";
pub const ERR_SCORE: &str = "cannot score";
/// The response to an input line longer than the `max-line-bytes` setting.
pub const ERR_TOO_LONG: &str = "line too long";

/// One command's response channel: plain responses are framed on return; streaming
/// handlers (analysis) write their `=` line and progress lines as they go.
pub struct Call<'a> {
    id: Option<&'a str>,
    out: &'a mut dyn Write,
    streaming: bool,
}

impl Call<'_> {
    /// Starts a streamed success response: the `=id` line.
    fn start_stream(&mut self) -> io::Result<()> {
        self.streaming = true;
        writeln!(self.out, "={}", self.id.unwrap_or(""))?;
        self.out.flush()
    }

    /// One line of a streamed response (blank lines are dropped: they would end it).
    fn stream_line(&mut self, line: &str) -> io::Result<()> {
        let line = line.trim_end();
        if !line.is_empty() {
            writeln!(self.out, "{line}")?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// Writes the end of the response: `=id text` or `?id message`, then one blank line.
    fn finish(&mut self, result: Result<String, String>) -> io::Result<()> {
        let id = self.id.unwrap_or("");
        if self.streaming {
            let text = match result {
                Ok(text) => text,
                Err(message) => message,
            };
            for line in text.lines() {
                self.stream_line(line)?;
            }
            writeln!(self.out)?;
        } else {
            let (mark, text) = match result {
                Ok(text) => ('=', text),
                Err(message) => ('?', message),
            };
            write!(self.out, "{}", frame_response(mark, id, &text))?;
        }
        self.out.flush()
    }
}

/// Frames a response: the first line of `text` follows `=id ` (or `?id `), later lines
/// follow on their own, blank lines and carriage returns are dropped, and one blank line
/// ends the response.
pub fn frame_response(mark: char, id: &str, text: &str) -> String {
    let text = text.replace('\r', "");
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("").trim_end();
    let mut out = format!("{mark}{id} {first}\n");
    for line in lines {
        let line = line.trim_end();
        if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('\n');
    out
}

/// Runs the GTP server on stdin and stdout until `quit` or the end of input. A reader
/// thread reads stdin: it acts on `# interrupt` at once and queues every other line, so
/// that pipelined commands are answered in order while a search or analysis runs. The end
/// of input interrupts the last command's search: it is answered at once, then the server
/// returns.
pub fn serve_stdio(settings: Settings, patterns: PatternTables) -> io::Result<()> {
    let input = InputSignal::new(false);
    let (sender, receiver) = crossbeam::channel::bounded::<input::Queued>(input::QUEUE_LINES);
    let reader_input = Arc::clone(&input);
    let max_line = settings.game.max_line_bytes.0;
    std::thread::Builder::new()
        .name("gtp-reader".to_string())
        .spawn(move || {
            let stdin = io::stdin();
            input::read_input(&mut stdin.lock(), &reader_input, &sender, max_line);
        })?;
    let mut engine = Engine::with_input(settings, patterns, Arc::clone(&input));
    let threads = engine.settings.game.thread_count();
    log(
        LogLevel::Info,
        format_args!(
            "settings: seed {}, {threads} search thread{}; {}",
            engine.player.seed(),
            if threads == 1 { "" } else { "s" },
            engine.settings.log_line()
        ),
    );
    let stdout = io::stdout();
    let mut out = stdout.lock();
    loop {
        if receiver.is_empty() {
            engine.ponder();
        }
        let Ok(item) = receiver.recv() else {
            break;
        };
        input.line_consumed(&item);
        let line = match item {
            input::Queued::End => break,
            input::Queued::Line(line) => line,
            input::Queued::TooLong { id } => {
                log(
                    LogLevel::Warn,
                    format_args!("skipped an input line over max-line-bytes"),
                );
                let response = frame_response('?', id.as_deref().unwrap_or(""), ERR_TOO_LONG);
                if let Err(e) = out
                    .write_all(response.as_bytes())
                    .and_then(|()| out.flush())
                {
                    log(
                        LogLevel::Error,
                        format_args!("cannot write a response: {e}"),
                    );
                    break;
                }
                continue;
            }
        };
        match engine.execute_line(&line, &mut out) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => break,
            Err(e) => {
                log(
                    LogLevel::Error,
                    format_args!("cannot write a response: {e}"),
                );
                break;
            }
        }
    }
    input.gone.store(true, Ordering::SeqCst);
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine side of `serve_stdio` as an analysis command runs it: take a line, then
    /// begin stopping on input. No line may stop the search its own command starts, however
    /// the reader thread and the engine interleave.
    #[test]
    fn a_queued_line_never_stops_the_search_its_own_command_starts() {
        let input = InputSignal::new(false);
        let (sender, receiver) = crossbeam::channel::unbounded::<input::Queued>();
        // The client sends its next command once the last one is answered: every line is
        // then taken as soon as it is queued, which is when the order of counting matters.
        let (answered, answers) = crossbeam::channel::unbounded::<()>();
        let reader_input = Arc::clone(&input);
        const LINES: usize = 20_000;
        let reader = std::thread::spawn(move || {
            for i in 0..LINES {
                assert!(reader_input.queue(&sender, input::Queued::Line(i.to_string())));
                answers.recv().unwrap();
            }
        });
        let mut stopped = 0;
        for _ in 0..LINES {
            let line = receiver.recv().unwrap();
            assert!(matches!(line, input::Queued::Line(_)));
            input.line_consumed(&line);
            input.control.reset();
            input.begin_stop_on_input();
            // The reader may still be counting a later line: only lines past this one may
            // stop the search, so a stop is legitimate only with input pending.
            std::thread::yield_now();
            if input.control.is_stopped() && !input.input_pending() {
                stopped += 1;
            }
            input.end_stop_on_input();
            answered.send(()).unwrap();
        }
        reader.join().unwrap();
        assert_eq!(stopped, 0, "searches stopped by their own command's line");
    }
}
