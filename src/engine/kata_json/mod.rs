//! `hane analysis`: KataGo's JSON analysis protocol on stdin and stdout, so that review
//! tools written for KataGo's analysis engine (KaTrain among them) can drive hane.
//!
//! This file owns the server: the input loop (bounded lines, one JSON object each), the
//! queue of turns to analyse (highest `priority` first, then in arrival order), the pool of
//! worker threads (`--jobs`, each with its own [`Searcher`] and kept tree), the actions
//! (`terminate`, `terminate_all`, `clear_cache`, `query_version`) and the one writer of
//! stdout, a line per response. Reading queries is [`query`]'s, writing responses
//! [`response`]'s. As in KataGo, responses come as turns finish, possibly out of order;
//! every analysed turn ends with exactly one response whose `isDuringSearch` is false;
//! when the input ends the queued turns are still analysed before the server returns.
//! Nothing but JSON lines goes to stdout; logs go to [`crate::log`].

pub mod query;
pub mod response;

use std::io::{self, BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use serde_json::{Value, json};

use crate::board::{Color, GameState, Move, Recent};
use crate::log::{LogLevel, log};
use crate::pattern::PatternTables;
use crate::pattern::features::OwnerScratch;
use crate::play::{DEFAULT_MOVE_TIME, search_config};
use crate::playout::ownership::owner_tally;
use crate::search::prior_mix::PriorQuery;
use crate::search::priors::Prior;
use crate::search::{Analysis, SearchConfig, SearchControl, SearchLimits, Searcher};
use crate::settings::Settings;

use crate::files::{LineRead, read_bounded_line};
use query::{Perspective, Query, QueryError, Request};
use response::Include;

/// The protocol as hane speaks it, for `hane analysis --help`: the query fields, actions,
/// errors and rules it understands, and what it puts in each response field.
pub const PROTOCOL_HELP: &str = r#"Queries (one JSON line each) may hold KataGo's fields id, moves (GTP vertices or
(x,y)), initialStones (black stones alone are handicap stones), initialPlayer, rules,
komi, whiteHandicapBonus, boardXSize and boardYSize (square, 2 to 25), analyzeTurns,
maxVisits (playouts; default --analysis-playouts, --playouts, --time or 5 s),
includeOwnership, includePolicy, includePVVisits, analysisPVLen, avoidMoves, allowMoves,
reportDuringSearchEvery, priority, priorities, and overrideSettings
(reportAnalysisWinratesAs, maxTime, and hane's search settings by name: {"rave": 900}).
Other fields get KataGo's warning line and are ignored.

Actions: query_version (hane's own version, named "hane", with a note that it is not
KataGo), clear_cache (drops the kept trees), terminate (terminateId, optionally
turnNumbers) and terminate_all. Errors are KataGo's {"id":..,"error":..,"field":..} (no id
when none could be read): malformed JSON, bad field types, illegal moves ("Illegal move
3: ...", counting moves from 0), sizes hane does not play, lines over --max-line-bytes.

Rules: hane scores by area only. tromp-taylor, chinese (simple ko), chinese-ogs,
chinese-kgs, aga, bga, new-zealand and KataGo's rule objects (ko, suicide,
whiteHandicapBonus) are played as given; japanese, korean, stone-scoring, territory
scoring, a seki or full tax and the button are approximated by area scoring (simple ko),
with a warning. The komi is kept as given.

What hane fills:
  visits                playouts through the move, in this search and the kept tree
  winrate, lcb          share of playouts won through the move, and its 95% lower bound
                        (in the black or white perspective a white-to-move lcb is the
                        mirrored upper bound, so that it stays a lower bound)
  scoreLead, scoreMean  both the mean final area score of the playouts through the move
  prior                 the move's virtual win rate from its priors (patterns, readers)
                        over the sum of all root moves': it ranks moves like a policy,
                        much flatter
  order, pv, pvVisits   rank by visits; the most visited line; its visits
  rootInfo              visits (sum over the moves), winrate (best move's), scoreLead,
                        scoreMean, currentPlayer
  ownership             share of the playouts' final positions in which each point was
                        black's less white's, row-major from the top-left corner, in the
                        perspective asked for (+1: that side owns it)
  policy                the pattern priors' share per point, -1 for illegal points, pass
                        last
Not filled, as hane has nothing honest to put there: scoreStdev, scoreSelfplay, utility,
utilityLcb, thisHash, symHash, per-move ownership, ownership deviations."#;

/// How the server runs besides the engine's settings.
#[derive(Clone, Copy, Debug)]
pub struct ServerOptions {
    /// Turns analysed at the same time (worker threads, each searching on the `threads`
    /// setting's threads).
    pub jobs: usize,
    /// The point of view of winrates, scores and ownership when a query names none.
    pub perspective: Perspective,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            jobs: 1,
            perspective: Perspective::SideToMove,
        }
    }
}

/// One turn of one query, waiting or running.
struct Task {
    query: Arc<Query>,
    turn: usize,
    priority: i64,
    /// Arrival order: ties of priority go to the earlier.
    seq: u64,
    control: Arc<SearchControl>,
}

#[derive(Default)]
struct Queue {
    pending: Vec<Task>,
    /// (query id, turn, stop flag) of the turns being searched.
    running: Vec<(String, usize, Arc<SearchControl>)>,
    /// No more queries will come.
    closed: bool,
    next_seq: u64,
}

impl Queue {
    /// Takes the waiting turn with the highest priority (the earliest among equals).
    fn take_best(&mut self) -> Option<Task> {
        let best = self
            .pending
            .iter()
            .enumerate()
            .max_by(|(_, a), (_, b)| a.priority.cmp(&b.priority).then(b.seq.cmp(&a.seq)))
            .map(|(i, _)| i)?;
        Some(self.pending.remove(best))
    }
}

/// What the input loop and the workers share.
struct Shared {
    out: Mutex<Box<dyn Write + Send>>,
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Counts `clear_cache` actions: a worker whose count is behind drops its tree.
    cache_generation: AtomicU64,
    /// Set once stdout cannot be written: everything stops.
    gone: AtomicBool,
    settings: Settings,
    options: ServerOptions,
}

impl Shared {
    /// Writes one response line.
    fn emit(&self, value: &Value) {
        if self.gone.load(Ordering::SeqCst) {
            return;
        }
        let mut line = value.to_string();
        line.push('\n');
        let mut out = self.out.lock();
        if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
            log(
                LogLevel::Error,
                format_args!("cannot write a response: {e}"),
            );
            self.gone.store(true, Ordering::SeqCst);
            let queue = self.queue.lock();
            for (_, _, control) in &queue.running {
                control.stop();
            }
        }
    }

    fn emit_error(&self, error: &QueryError) {
        self.emit(&response::error(error));
    }
}

/// Runs the analysis server on stdin and stdout until the input ends and every queued
/// turn is answered.
pub fn serve_stdio(
    settings: Settings,
    patterns: PatternTables,
    options: ServerOptions,
) -> io::Result<()> {
    let stdin = io::stdin();
    serve(
        &mut stdin.lock(),
        Box::new(io::stdout()),
        settings,
        patterns,
        options,
    )
}

/// Runs the analysis server on `input` and `output` (see [`serve_stdio`]).
pub fn serve(
    input: &mut impl BufRead,
    output: Box<dyn Write + Send>,
    settings: Settings,
    patterns: PatternTables,
    options: ServerOptions,
) -> io::Result<()> {
    let jobs = options.jobs.max(1);
    let seed = settings.game.seed.unwrap_or_else(rand::random);
    log(
        LogLevel::Info,
        format_args!(
            "analysis: {jobs} job{}, {} search thread{} each, seed {seed}; {}",
            if jobs == 1 { "" } else { "s" },
            settings.game.thread_count(),
            if settings.game.thread_count() == 1 {
                ""
            } else {
                "s"
            },
            settings.log_line()
        ),
    );
    let max_line = settings.game.max_line_bytes.0.max(1);
    let shared = Arc::new(Shared {
        out: Mutex::new(output),
        queue: Mutex::new(Queue::default()),
        ready: Condvar::new(),
        cache_generation: AtomicU64::new(0),
        gone: AtomicBool::new(false),
        settings,
        options,
    });
    let mut workers = Vec::with_capacity(jobs);
    for index in 0..jobs {
        let shared = Arc::clone(&shared);
        let patterns = patterns.clone();
        let seed = seed.wrapping_add(index as u64);
        workers.push(
            std::thread::Builder::new()
                .name(format!("analysis-{index}"))
                .spawn(move || worker(&shared, &patterns, seed))?,
        );
    }
    let mut buf = Vec::new();
    let result = loop {
        if shared.gone.load(Ordering::SeqCst) {
            break Ok(());
        }
        match read_bounded_line(input, &mut buf, max_line) {
            Ok(LineRead::End) => break Ok(()),
            Err(e) => break Err(e),
            Ok(LineRead::TooLong) => {
                log(
                    LogLevel::Warn,
                    format_args!("skipped an input line over max-line-bytes"),
                );
                shared.emit_error(&QueryError {
                    id: query::leading_id(&buf),
                    field: None,
                    message: format!("Line too long: over {max_line} bytes (max-line-bytes)"),
                });
            }
            Ok(LineRead::Line) => match std::str::from_utf8(&buf) {
                Err(_) => shared.emit_error(&QueryError {
                    id: None,
                    field: None,
                    message: "Could not parse json: the line is not UTF-8".into(),
                }),
                Ok(text) if text.trim().is_empty() => {}
                Ok(text) => handle_line(&shared, text),
            },
        }
    };
    shared.queue.lock().closed = true;
    shared.ready.notify_all();
    for worker in workers {
        if worker.join().is_err() {
            log(LogLevel::Error, format_args!("an analysis worker failed"));
        }
    }
    result
}

/// Acts on one input line.
fn handle_line(shared: &Shared, text: &str) {
    log(LogLevel::Debug, format_args!("<< {text}"));
    let request = match query::parse_line(text, &shared.settings) {
        Ok(request) => request,
        Err(e) => return shared.emit_error(&e),
    };
    match request {
        Request::Analyze(query) => {
            for w in &query.warnings {
                shared.emit(&response::warning(&query.id, w));
            }
            let query: Arc<Query> = Arc::from(query);
            let mut queue = shared.queue.lock();
            for &(turn, priority) in &query.turns {
                let seq = queue.next_seq;
                queue.next_seq += 1;
                queue.pending.push(Task {
                    query: Arc::clone(&query),
                    turn,
                    priority,
                    seq,
                    control: SearchControl::new(),
                });
            }
            drop(queue);
            shared.ready.notify_all();
        }
        Request::QueryVersion { echo } => shared.emit(&response::version(echo)),
        Request::ClearCache { echo } => {
            shared.cache_generation.fetch_add(1, Ordering::SeqCst);
            shared.emit(&Value::Object(echo));
        }
        Request::Terminate {
            target,
            turns,
            echo,
        } => {
            let matches = |id: &str, turn: usize| {
                target.as_deref().is_none_or(|t| t == id)
                    && turns.as_ref().is_none_or(|list| list.contains(&turn))
            };
            let mut dropped = Vec::new();
            {
                let mut queue = shared.queue.lock();
                let mut k = 0;
                while k < queue.pending.len() {
                    let task = &queue.pending[k];
                    if matches(&task.query.id, task.turn) {
                        let task = queue.pending.remove(k);
                        dropped.push((task.query.id.clone(), task.turn));
                    } else {
                        k += 1;
                    }
                }
                for (id, turn, control) in &queue.running {
                    if matches(id, *turn) {
                        control.stop();
                    }
                }
            }
            shared.emit(&Value::Object(echo));
            for (id, turn) in dropped {
                shared.emit(&response::no_results(&id, turn));
            }
        }
    }
}

/// The settings a worker searches with: the query's, the early stop off (an analysis runs
/// its whole budget, as KataGo's does).
fn analysis_settings(settings: &Settings) -> Settings {
    let mut settings = settings.clone();
    settings.search.early_stop = false;
    settings
}

/// A worker: takes turns off the queue and analyses them until the queue is closed and
/// empty.
fn worker(shared: &Shared, patterns: &PatternTables, seed: u64) {
    let mut current = analysis_settings(&shared.settings);
    let config = |settings: &Settings| search_config(settings, patterns.clone(), seed);
    let mut searcher = Searcher::new(config(&current));
    let mut generation = 0;
    loop {
        let task = {
            let mut queue = shared.queue.lock();
            loop {
                if shared.gone.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(task) = queue.take_best() {
                    queue.running.push((
                        task.query.id.clone(),
                        task.turn,
                        Arc::clone(&task.control),
                    ));
                    break task;
                }
                if queue.closed {
                    return;
                }
                shared.ready.wait(&mut queue);
            }
        };
        let now = shared.cache_generation.load(Ordering::SeqCst);
        if now != generation {
            searcher.clear();
            generation = now;
        }
        let wanted = analysis_settings(&task.query.settings);
        if wanted != current {
            searcher.set_config(config(&wanted));
            current = wanted;
        }
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            analyse_turn(shared, &mut searcher, &task);
        }));
        if outcome.is_err() {
            log(
                LogLevel::Error,
                format_args!(
                    "the analysis of {} turn {} failed",
                    task.query.id, task.turn
                ),
            );
            shared.emit(&json!({
                "id": task.query.id,
                "turnNumber": task.turn,
                "error": "Internal error: the search failed; hane dropped its tree",
            }));
            searcher = Searcher::new(config(&current));
        }
        let mut queue = shared.queue.lock();
        queue
            .running
            .retain(|(_, _, control)| !Arc::ptr_eq(control, &task.control));
    }
}

/// The search limits of one turn: the query's `maxVisits` (else the `analysis-playouts`,
/// else the `playouts` setting) and `maxTime` (else the `time` setting); with neither a
/// playout nor a time limit, hane's default move time; never longer than `max-move-time`.
pub fn turn_limits(settings: &Settings, query: &Query) -> SearchLimits {
    let playouts = query
        .max_visits
        .or(settings.game.analysis_playouts)
        .or(settings.game.playouts);
    let mut time = query
        .max_time
        .or(settings.game.time.map(Duration::from_secs_f64));
    if time.is_none() && playouts.is_none() {
        time = Some(DEFAULT_MOVE_TIME);
    }
    let cap = Duration::from_secs_f64(settings.game.max_move_time);
    SearchLimits {
        playouts,
        time: Some(time.map_or(cap, |t| t.min(cap))),
        report_interval: query.report_every,
        ..SearchLimits::default()
    }
}

fn analyse_turn(shared: &Shared, searcher: &mut Searcher, task: &Task) {
    let query = &task.query;
    let (state, color) = query.position(task.turn);
    let geometry = state.geometry();
    let include = Include {
        ownership: query.include_ownership,
        pv_visits: query.include_pv_visits,
        pv_len: query.pv_len,
        perspective: query.perspective.unwrap_or(shared.options.perspective),
    };
    let policy = query
        .include_policy
        .then(|| policy_values(searcher.config(), &state, color));
    let limits = turn_limits(&query.settings, query);
    searcher.set_avoid(query.avoid.clone());
    let id = query.id.as_str();
    let turn = task.turn;
    let mut report = |analysis: &Analysis| {
        if !analysis.moves.iter().any(|m| m.visits > 0) {
            return;
        }
        shared.emit(&response::analysis_response(
            id,
            turn,
            true,
            analysis,
            geometry,
            include,
            policy.as_deref(),
        ));
    };
    let analysis = searcher.analyze(&state, color, &limits, &task.control, &mut report);
    if task.control.is_stopped() && !analysis.moves.iter().any(|m| m.visits > 0) {
        shared.emit(&response::no_results(id, turn));
        return;
    }
    shared.emit(&response::analysis_response(
        id,
        turn,
        false,
        &analysis,
        geometry,
        include,
        policy.as_deref(),
    ));
}

/// hane's stand-in for a policy: for `color` to move in `state`, each legal move's prior
/// from the pattern (or heuristic) priors of the search, as its virtual win rate's share of
/// the sum over every legal move (pass included), so that the values sum to 1; -1 for
/// illegal points; in KataGo's order (top row first), pass last. A suicide that the rules
/// allow is legal but gets no prior (0).
pub fn policy_values(config: &SearchConfig, state: &GameState, color: Color) -> Vec<f32> {
    let geometry = state.geometry();
    let board = state.board();
    let size = geometry.size();
    let mut moves = Vec::new();
    let mut values = vec![-1.0f32; size * size];
    for p in geometry.points() {
        if state.is_legal(color, Move::Play(p)) {
            let (col, row) = geometry.coords(p);
            values[row * size + col] = 0.0;
            if board.is_legal(p, color) {
                moves.push(Move::Play(p));
            }
        }
    }
    moves.push(Move::Pass);
    let mut priors = vec![Prior::NONE; moves.len()];
    let mut ownership = OwnerScratch::new(owner_tally);
    let query = PriorQuery {
        owner: config
            .priors
            .reads_ownership(board.size())
            .then(|| ownership.tally(board, color)),
        ..PriorQuery::new(board, color, Recent::of_game(state), &moves)
    };
    config.priors.priors(&query, &mut priors);
    let sum: f32 = priors.iter().map(|p| p.mean()).sum();
    let share = |p: &Prior| if sum > 0.0 { p.mean() / sum } else { 0.0 };
    let mut pass = 0.0;
    for (mv, prior) in moves.iter().zip(&priors) {
        match mv {
            Move::Play(p) => {
                let (col, row) = geometry.coords(*p);
                values[row * size + col] = share(prior);
            }
            Move::Pass => pass = share(prior),
        }
    }
    let mut out = response::top_down(&values, geometry);
    out.push(pass);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_protocol_help_names_every_query_field_and_action() {
        for field in query::KNOWN.iter().filter(|&&f| f != "action") {
            assert!(
                PROTOCOL_HELP.contains(field),
                "`hane analysis --help` does not name the query field {field}"
            );
        }
        for action in query::ACTIONS {
            assert!(
                PROTOCOL_HELP.contains(action),
                "`hane analysis --help` does not name the action {action}"
            );
        }
    }

    fn query(line: &str) -> Arc<Query> {
        match query::parse_line(line, &Settings::default()) {
            Ok(Request::Analyze(q)) => Arc::from(q),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_queue_takes_the_highest_priority_then_the_earliest() {
        let q = query(r#"{"id":"q","boardXSize":9,"boardYSize":9,"moves":[["B","E5"]]}"#);
        let mut queue = Queue::default();
        for (seq, (turn, priority)) in [(0, 0), (1, 5), (0, 5), (1, -2)].into_iter().enumerate() {
            queue.pending.push(Task {
                query: Arc::clone(&q),
                turn,
                priority,
                seq: seq as u64,
                control: SearchControl::new(),
            });
        }
        let order: Vec<(usize, i64)> = std::iter::from_fn(|| queue.take_best())
            .map(|t| (t.turn, t.priority))
            .collect();
        assert_eq!(order, [(1, 5), (0, 5), (0, 0), (1, -2)]);
    }

    #[test]
    fn limits_come_from_the_query_then_the_settings() {
        let q = query(r#"{"id":"q","boardXSize":9,"boardYSize":9,"moves":[],"maxVisits":50}"#);
        let mut settings = Settings::default();
        let l = turn_limits(&settings, &q);
        assert_eq!(l.playouts, Some(50));
        assert_eq!(
            l.time,
            Some(Duration::from_secs(600)),
            "max-move-time caps it"
        );
        let q = query(r#"{"id":"q","boardXSize":9,"boardYSize":9,"moves":[]}"#);
        let l = turn_limits(&settings, &q);
        assert_eq!((l.playouts, l.time), (None, Some(DEFAULT_MOVE_TIME)));
        settings.game.analysis_playouts = Some(70);
        settings.game.playouts = Some(90);
        assert_eq!(turn_limits(&settings, &q).playouts, Some(70));
        settings.game.analysis_playouts = None;
        assert_eq!(turn_limits(&settings, &q).playouts, Some(90));
        let q = query(
            r#"{"id":"q","boardXSize":9,"boardYSize":9,"moves":[],"overrideSettings":{"maxTime":2}}"#,
        );
        assert_eq!(
            turn_limits(&settings, &q).time,
            Some(Duration::from_secs(2))
        );
    }

    #[test]
    fn the_policy_covers_the_legal_moves() {
        let q =
            query(r#"{"id":"q","boardXSize":5,"boardYSize":5,"moves":[["B","C3"],["W","A5"]]}"#);
        let (state, color) = q.position(2);
        let config = search_config(
            &Settings::default(),
            crate::pattern::PatternTables::Builtin,
            1,
        );
        let policy = policy_values(&config, &state, color);
        assert_eq!(policy.len(), 26);
        // A5 is the top-left corner (index 0), C3 the centre (index 12).
        assert_eq!((policy[0], policy[12]), (-1.0, -1.0));
        assert!(policy.iter().filter(|&&p| p != -1.0).all(|&p| p >= 0.0));
        let sum: f32 = policy.iter().filter(|&&p| p >= 0.0).sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    }

    /// With a table that rates the `owner` levels the policy tallies the position's
    /// ownership as the search does: a point inside black's wall (black's in most playouts),
    /// black to move, is rated below an open one; without the tally every move of this table would be alike.
    #[test]
    fn the_policy_of_an_owner_table_reads_a_tally() {
        let wall: String = (1..=9)
            .flat_map(|row| [format!(r#"["B","C{row}"]"#), format!(r#"["W","G{row}"]"#)])
            .collect::<Vec<_>>()
            .join(",");
        let q = query(&format!(
            r#"{{"id":"q","boardXSize":9,"boardYSize":9,"moves":[{wall}]}}"#
        ));
        let (state, color) = q.position(18);
        assert_eq!(color, Color::Black);
        let table = crate::pattern::PatternTable::parse(
            "hane-patterns 1\nowner 6 0.01\nowner 7 0.01\nowner 8 0.01\n",
        )
        .unwrap();
        let config = search_config(&Settings::default(), table, 1);
        assert!(config.priors.reads_ownership(9));
        let policy = policy_values(&config, &state, color);
        // Top row first: A5 is row 4, column 0; E5 row 4, column 4.
        let (inside, open) = (policy[4 * 9], policy[4 * 9 + 4]);
        assert!(inside < open / 2.0, "A5 {inside}, E5 {open}");
    }
}
