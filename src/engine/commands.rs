//! The command table (the single source of truth for dispatch, `known_command` and
//! `list_commands`) and every command's handler.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::analysis::{self, AnalyzeRequest, Dialect};
use super::parse::{
    looks_like_vertex, parse_color, parse_count, parse_float, parse_move, parse_point,
    parse_seconds,
};
use super::{
    Call, ERR_ILLEGAL, ERR_LOAD, ERR_SCORE, ERR_SIZE, ERR_SYNTAX, ERR_UNDO, Engine, LogLevel, log,
};
use crate::board::{Color, GameState, MAX_SIZE, MIN_SIZE, Move, Point, Rules, komi_is_sane};
use crate::play::clock::{Clock, TimeLeft, TimeSystem};
use crate::play::judge::{Judgement, seki_chains};
use crate::play::{ChosenMove, MoveKind, MoveRequest, Report};
use crate::search::{Analysis, SearchLimits};
use crate::sgf::{GameInfo, read_first_game, write_game};
use crate::tactics::liberties::liberties_capped;
use crate::tactics::owl::OwlReader;
use crate::tactics::reader::{ChainStatus, Reader, ReaderLimits, Reading, Verdict};
use crate::tactics::semeai::SemeaiReader;

/// What a handler returns: the response text, or the error message.
pub type Outcome = Result<String, String>;

/// A handler: the engine, the arguments after the command name, and the response channel
/// (used only by streaming commands).
pub type Handler = fn(&mut Engine, &[&str], &mut Call<'_>) -> Outcome;

/// One command: its GTP name and handler.
pub struct CommandSpec {
    pub name: &'static str,
    pub handler: Handler,
}

/// Every command hane answers, in `list_commands` order.
pub static COMMANDS: &[CommandSpec] = &[
    // Administrative (GTP version 2, required).
    spec("protocol_version", |_, _, _| Ok("2".into())),
    spec("name", |_, _, _| Ok("hane".into())),
    spec("version", |_, _, _| Ok(env!("CARGO_PKG_VERSION").into())),
    spec("known_command", cmd_known_command),
    spec("list_commands", cmd_list_commands),
    spec("quit", cmd_quit),
    // Setup.
    spec("boardsize", cmd_boardsize),
    spec("clear_board", cmd_clear_board),
    spec("komi", cmd_komi),
    spec("fixed_handicap", cmd_fixed_handicap),
    spec("place_free_handicap", cmd_place_free_handicap),
    spec("set_free_handicap", cmd_set_free_handicap),
    // Core play.
    spec("play", cmd_play),
    spec("genmove", cmd_genmove),
    spec("undo", cmd_undo),
    // Tournament.
    spec("time_settings", cmd_time_settings),
    spec("time_left", cmd_time_left),
    spec("final_score", cmd_final_score),
    spec("final_status_list", cmd_final_status_list),
    // Regression and debugging.
    spec("loadsgf", cmd_loadsgf),
    spec("reg_genmove", cmd_reg_genmove),
    spec("showboard", cmd_showboard),
    spec("printsgf", cmd_printsgf),
    spec("cputime", cmd_cputime),
    spec("attack", |e, a, _| cmd_read_chain(e, a, true)),
    spec("defend", |e, a, _| cmd_read_chain(e, a, false)),
    spec("analyze_semeai", cmd_analyze_semeai),
    spec("owl_attack", |e, a, _| cmd_owl(e, a, true)),
    spec("owl_defend", |e, a, _| cmd_owl(e, a, false)),
    // gomill.
    spec("gomill-cpu_time", cmd_cputime),
    spec("gomill-describe_engine", cmd_describe_engine),
    spec("gomill-explain_last_move", |e, _, _| {
        Ok(e.last_explanation.clone())
    }),
    spec("gomill-genmove_ex", cmd_gomill_genmove_ex),
    // KGS.
    spec("kgs-genmove_cleanup", cmd_kgs_genmove_cleanup),
    spec("kgs-time_settings", cmd_kgs_time_settings),
    spec("kgs-rules", cmd_kgs_rules),
    spec("kgs-game_over", cmd_kgs_game_over),
    spec("kgs-chat", cmd_kgs_chat),
    // GoGui.
    spec("gogui-analyze_commands", cmd_gogui_analyze_commands),
    spec("gogui-interrupt", |_, _, _| Ok(String::new())),
    spec("gogui-play_sequence", cmd_play_sequence),
    spec("gogui-setup", cmd_gogui_setup),
    spec("gogui-setup_player", cmd_gogui_setup_player),
    spec("gg-undo", cmd_gg_undo),
    spec("hane-heat_map", cmd_heat_map),
    spec("hane-winrate_board", cmd_winrate_board),
    spec("hane-principal_variation", cmd_principal_variation),
    spec("hane-ownership", cmd_ownership),
    spec("hane-dead_stones", cmd_dead_stones),
    spec("hane-tactical_status", cmd_tactical_status),
    spec("hane-book", cmd_book),
    // Sabaki and Lizzie analysis.
    spec("lz-analyze", |e, a, c| cmd_analyze(e, a, c, Dialect::Leela)),
    spec("kata-analyze", |e, a, c| {
        cmd_analyze(e, a, c, Dialect::Kata)
    }),
    spec("lz-genmove_analyze", |e, a, c| {
        cmd_genmove_analyze(e, a, c, Dialect::Leela)
    }),
    spec("kata-genmove_analyze", |e, a, c| {
        cmd_genmove_analyze(e, a, c, Dialect::Kata)
    }),
    // KataGo's time extension (gtp2ogs uses it for Fischer clocks).
    spec("kata-list_time_settings", |_, _, _| {
        Ok(KATA_TIME_SETTINGS.to_string())
    }),
    spec("kata-time_settings", cmd_kata_time_settings),
];

/// What `kata-time_settings` takes (`byoyomi` is also taken for `byo-yomi`).
const KATA_TIME_SETTINGS: &str = "none absolute byo-yomi canadian fischer fischer-capped";

const fn spec(name: &'static str, handler: Handler) -> CommandSpec {
    CommandSpec { name, handler }
}

/// The command called `name`, if hane has it.
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// GoGui analyze commands: `type/label/command`; every command named here is in the table.
const GOGUI_ANALYZE_COMMANDS: &str = "\
gfx/Visit heat map/hane-heat_map %m
dboard/Winrate map/hane-winrate_board %m
var/Principal variation/hane-principal_variation %m
dboard/Ownership/hane-ownership
gfx/Dead stones/hane-dead_stones
gfx/Tactical status/hane-tactical_status
string/Book moves/hane-book %m";

fn no_args(args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(ERR_SYNTAX.into())
    }
}

fn color_arg(args: &[&str]) -> Result<Color, String> {
    match args {
        [c] => parse_color(c).ok_or_else(|| ERR_SYNTAX.to_string()),
        _ => Err(ERR_SYNTAX.into()),
    }
}

fn cmd_known_command(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    match args {
        [name] => Ok(find(&name.to_ascii_lowercase()).is_some().to_string()),
        _ => Err(ERR_SYNTAX.into()),
    }
}

fn cmd_list_commands(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn cmd_quit(engine: &mut Engine, _: &[&str], _: &mut Call<'_>) -> Outcome {
    engine.quit = true;
    Ok(String::new())
}

impl Engine {
    /// A new empty game of `size` with the current rules; clocks and search memory reset.
    fn new_game(&mut self, size: usize) {
        let state = GameState::new(size, self.rules).expect("size checked by the caller");
        self.start_game(state);
    }

    /// `state` as a new game (a fresh board, a loaded record): clocks, search memory and
    /// the last move's explanation reset.
    fn start_game(&mut self, state: GameState) {
        self.state = state;
        self.player.new_game();
        // A controller that re-sends the same `time_settings` for every game (and no
        // `time_left`) must find full clocks, not the last game's.
        self.clocks = [Clock::new(self.clocks[0].system); 2];
        self.ponder_wanted = false;
        self.last_explanation.clear();
    }

    /// Replaces the game state after a successful multi-step change.
    fn set_state(&mut self, state: GameState) {
        self.state = state;
        self.ponder_wanted = false;
    }
}

/// A `boardsize` argument: any integer (a syntax error otherwise); `None` when it is no
/// size hane plays, however large.
fn size_arg(text: &str) -> Result<Option<usize>, String> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ERR_SYNTAX.into());
    }
    Ok(text
        .parse::<i64>()
        .ok()
        .filter(|n| (MIN_SIZE as i64..=MAX_SIZE as i64).contains(n))
        .map(|n| n as usize))
}

fn cmd_boardsize(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let size = match args {
        [n] => size_arg(n)?,
        [w, h] => {
            let (w, h) = (size_arg(w)?, size_arg(h)?);
            if w != h {
                return Err(ERR_SIZE.into());
            }
            w
        }
        _ => return Err(ERR_SYNTAX.into()),
    };
    let size = size.ok_or(ERR_SIZE)?;
    engine.new_game(size);
    Ok(String::new())
}

fn cmd_clear_board(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let size = engine.state.size();
    engine.new_game(size);
    Ok(String::new())
}

fn cmd_komi(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let komi = match args {
        [k] => parse_float(k)
            .filter(|&k| komi_is_sane(k))
            .ok_or(ERR_SYNTAX)? as f32,
        _ => return Err(ERR_SYNTAX.into()),
    };
    engine.rules.komi = komi;
    engine.state.set_komi(komi);
    Ok(String::new())
}

fn vertex_list(points: &[Point], engine: &Engine) -> String {
    let g = engine.state.geometry();
    points
        .iter()
        .map(|&p| g.format_point(p))
        .collect::<Vec<_>>()
        .join(" ")
}

fn handicap_count(args: &[&str]) -> Result<usize, String> {
    match args {
        [n] => Ok(parse_count(n).ok_or(ERR_SYNTAX)? as usize),
        _ => Err(ERR_SYNTAX.into()),
    }
}

fn cmd_fixed_handicap(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let n = handicap_count(args)?;
    let points = engine
        .state
        .place_fixed_handicap(n)
        .map_err(|e| e.to_string())?;
    engine.ponder_wanted = false;
    Ok(vertex_list(&points, engine))
}

fn cmd_place_free_handicap(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let n = handicap_count(args)?;
    let points = engine
        .state
        .place_free_handicap(n)
        .map_err(|e| e.to_string())?;
    engine.ponder_wanted = false;
    Ok(vertex_list(&points, engine))
}

/// `board not empty` unless the board has no stones and no move was played (before the
/// stones of `set_free_handicap` and `gogui-setup` are read).
fn require_fresh_board(engine: &Engine) -> Result<(), String> {
    if engine.state.board().is_empty() && engine.state.moves().is_empty() {
        Ok(())
    } else {
        Err(crate::board::HandicapError::BoardNotEmpty.to_string())
    }
}

fn cmd_set_free_handicap(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    if args.is_empty() {
        return Err(ERR_SYNTAX.into());
    }
    require_fresh_board(engine)?;
    let g = engine.state.geometry();
    let points: Vec<Point> = args
        .iter()
        .map(|a| parse_point(g, a))
        .collect::<Option<_>>()
        .ok_or_else(|| crate::board::HandicapError::BadVertexList.to_string())?;
    engine
        .state
        .set_free_handicap(&points)
        .map_err(|e| e.to_string())?;
    Ok(String::new())
}

/// Parses `color vertex` for `play`: a malformed colour or vertex is a syntax error, a
/// vertex-shaped word off this board is an illegal move.
fn parse_play(engine: &Engine, color: &str, vertex: &str) -> Result<(Color, Move), String> {
    let color = parse_color(color).ok_or(ERR_SYNTAX)?;
    match parse_move(engine.state.geometry(), vertex) {
        Some(mv) => Ok((color, mv)),
        None if looks_like_vertex(vertex) => Err(ERR_ILLEGAL.into()),
        None => Err(ERR_SYNTAX.into()),
    }
}

fn cmd_play(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [color, vertex] = args else {
        return Err(ERR_SYNTAX.into());
    };
    let (color, mv) = parse_play(engine, color, vertex)?;
    engine
        .state
        .play(color, mv)
        .map_err(|_| ERR_ILLEGAL.to_string())?;
    engine.ponder_wanted = false;
    Ok(String::new())
}

fn cmd_play_sequence(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    if !args.len().is_multiple_of(2) {
        return Err(ERR_SYNTAX.into());
    }
    let mut moves = Vec::with_capacity(args.len() / 2);
    for pair in args.chunks(2) {
        moves.push(parse_play(engine, pair[0], pair[1])?);
    }
    let mut state = engine.state.clone();
    for (color, mv) in moves {
        state.play(color, mv).map_err(|_| ERR_ILLEGAL.to_string())?;
    }
    engine.set_state(state);
    Ok(String::new())
}

/// `gogui-setup b A1 w B2 ...`: GoGui's setup stones (an SGF position's `AB`/`AW`), on a
/// board without moves or stones; all or nothing (`board not empty`, `bad vertex list`).
fn cmd_gogui_setup(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    if !args.len().is_multiple_of(2) {
        return Err(ERR_SYNTAX.into());
    }
    require_fresh_board(engine)?;
    let g = engine.state.geometry();
    let mut stones = Vec::with_capacity(args.len() / 2);
    for pair in args.chunks(2) {
        let color = parse_color(pair[0]).ok_or(ERR_SYNTAX)?;
        let p = parse_point(g, pair[1])
            .ok_or_else(|| crate::board::HandicapError::BadVertexList.to_string())?;
        stones.push((color, p));
    }
    let mut state = engine.state.clone();
    state.add_setup_stones(&stones).map_err(|e| e.to_string())?;
    engine.set_state(state);
    Ok(String::new())
}

/// `gogui-setup_player COLOR`: who moves first in a set-up position (before any move).
fn cmd_gogui_setup_player(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [color] = args else {
        return Err(ERR_SYNTAX.into());
    };
    let color = parse_color(color).ok_or(ERR_SYNTAX)?;
    if !engine.state.set_to_move(color) {
        return Err("moves were played".into());
    }
    engine.ponder_wanted = false;
    Ok(String::new())
}

fn cmd_undo(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    if !engine.state.undo() {
        return Err(ERR_UNDO.into());
    }
    engine.ponder_wanted = false;
    Ok(String::new())
}

fn cmd_gg_undo(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let n = match args {
        [] => 1,
        [n] => parse_count(n).ok_or(ERR_SYNTAX)? as usize,
        _ => return Err(ERR_SYNTAX.into()),
    };
    if n > engine.state.moves().len() {
        return Err(ERR_UNDO.into());
    }
    for _ in 0..n {
        engine.state.undo();
    }
    engine.ponder_wanted = false;
    Ok(String::new())
}

// ----- Time -------------------------------------------------------------------------------

impl Engine {
    /// Installs a time system; both clocks start full.
    fn set_time_system(&mut self, system: TimeSystem) {
        // Re-sending the same settings (gtp2ogs does so before every move) keeps the clocks.
        if self.clocks[0].system != system {
            self.clocks = [Clock::new(system); 2];
        }
    }

    /// The clock's time for `color`'s next move (`None`: no clock).
    fn clock_time(&self, color: Color) -> Option<crate::play::clock::MoveTime> {
        self.clocks[color.index()].move_time(
            self.state.moves().len(),
            self.state.size(),
            self.settings.game.lag_margin,
        )
    }
}

fn cmd_time_settings(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [main, byo, stones] = args else {
        return Err(ERR_SYNTAX.into());
    };
    let main = parse_seconds(main).ok_or(ERR_SYNTAX)?;
    let byo = parse_seconds(byo).ok_or(ERR_SYNTAX)?;
    let stones = parse_count(stones).ok_or(ERR_SYNTAX)?;
    engine.set_time_system(TimeSystem::from_gtp(main, byo, stones));
    Ok(String::new())
}

fn cmd_kgs_time_settings(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    engine.set_time_system(parse_time_system(args, false)?);
    Ok(String::new())
}

/// `kata-time_settings KIND ...`: the kinds of `kgs-time_settings` (`byo-yomi` spelt either
/// way), `fischer MAIN INCREMENT` and `fischer-capped MAIN INCREMENT MAIN_LIMIT MOVE_LIMIT`
/// (a negative limit: none; a main-time limit must not be below the main time).
fn cmd_kata_time_settings(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    engine.set_time_system(parse_time_system(args, true)?);
    Ok(String::new())
}

/// The time system of `kgs-time_settings` (or with `kata`, `kata-time_settings`) arguments.
fn parse_time_system(args: &[&str], kata: bool) -> Result<TimeSystem, String> {
    let Some((kind, rest)) = args.split_first() else {
        return Err(ERR_SYNTAX.into());
    };
    let seconds = |s: &str| parse_seconds(s).ok_or(ERR_SYNTAX);
    let count = |s: &str| parse_count(s).ok_or(ERR_SYNTAX);
    // A limit of fischer-capped: negative means none.
    let limit = |s: &str| match parse_float(s) {
        Some(x) if x < 0.0 => Ok(None),
        _ => seconds(s).map(Some),
    };
    let kind = kind.to_ascii_lowercase();
    let kind = match kind.as_str() {
        "byo-yomi" if kata => "byoyomi",
        "fischer" | "fischer-capped" if !kata => return Err(ERR_SYNTAX.into()),
        other => other,
    };
    Ok(match (kind, rest) {
        ("none", []) => TimeSystem::None,
        ("absolute", [main]) => TimeSystem::Absolute {
            main: seconds(main)?,
        },
        ("byoyomi", [main, period, periods]) => {
            let (main, period, periods) = (seconds(main)?, seconds(period)?, count(periods)?);
            if period <= 0.0 || periods == 0 {
                TimeSystem::Absolute { main }
            } else {
                TimeSystem::Byoyomi {
                    main,
                    period,
                    periods,
                }
            }
        }
        // The same reading as GTP `time_settings main period stones`.
        ("canadian", [main, period, stones]) => {
            TimeSystem::from_gtp(seconds(main)?, seconds(period)?, count(stones)?)
        }
        ("fischer", [main, increment]) => TimeSystem::Fischer {
            main: seconds(main)?,
            increment: seconds(increment)?,
            main_limit: None,
            move_limit: None,
        },
        ("fischer-capped", [main, increment, main_limit, move_limit]) => {
            let main = seconds(main)?;
            let main_limit = limit(main_limit)?;
            if main_limit.is_some_and(|l| l < main) {
                return Err("main time limit below the main time".into());
            }
            TimeSystem::Fischer {
                main,
                increment: seconds(increment)?,
                main_limit,
                move_limit: limit(move_limit)?,
            }
        }
        _ => return Err(ERR_SYNTAX.into()),
    })
}

fn cmd_time_left(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [color, seconds, stones] = args else {
        return Err(ERR_SYNTAX.into());
    };
    let color = parse_color(color).ok_or(ERR_SYNTAX)?;
    // Overtime can be reported as negative; absurdly large values plan no further than a
    // day per move anyway (`time::move_budget`).
    let seconds = parse_float(seconds).ok_or(ERR_SYNTAX)?.clamp(0.0, 1e9);
    let stones = parse_count(stones).ok_or(ERR_SYNTAX)?;
    engine.clocks[color.index()].left = Some(TimeLeft {
        seconds,
        stones_or_periods: stones,
    });
    Ok(String::new())
}

// ----- Move generation ----------------------------------------------------------------------

impl Engine {
    /// Searches and decides the move for `color` (the play layer's rules). Does not play
    /// it.
    fn generate(&mut self, color: Color, kind: MoveKind, report: Option<Report<'_>>) -> ChosenMove {
        let request = MoveRequest {
            kind,
            clock: self.clock_time(color),
            cleanup: self.tournament_cleanup,
        };
        let control = Arc::clone(&self.input.control);
        let start = Instant::now();
        let chosen = self
            .player
            .choose(&self.state, color, &request, &control, report);
        let used = start.elapsed();
        let result = &chosen.result;
        let g = self.state.geometry();
        self.last_explanation = match &chosen.book {
            Some(note) if note.played => format!(
                "book move {} for {color}; book: {}",
                chosen.mv.to_gtp(g),
                book_moves_text(&note.hit.moves, g, 3)
            ),
            _ => format!(
                "{} playouts in {:.2} s; winrate {:.1}% for {}; best {}",
                result.analysis.playouts,
                result.analysis.elapsed.as_secs_f64(),
                result.analysis.winrate * 100.0,
                color,
                result
                    .analysis
                    .moves
                    .iter()
                    .take(3)
                    .map(|m| format!("{} ({} visits)", m.mv.to_gtp(g), m.visits))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        if let Some(note) = chosen.book.as_ref().filter(|n| !n.played) {
            let _ = write!(
                self.last_explanation,
                "; book prior on {}",
                book_moves_text(&note.hit.moves, g, 3)
            );
        }
        if crate::log::enabled(LogLevel::Info) {
            // The chosen move's statistics (the pass and resign rules may choose another
            // than the most visited).
            let analysis = &result.analysis;
            let info = analysis.moves.iter().find(|m| m.mv == chosen.mv);
            let winrate = info.map_or(analysis.winrate, |m| m.winrate);
            let pv = info.map_or_else(|| vec![chosen.mv], |m| m.pv.clone());
            let pv: Vec<String> = pv.iter().map(|m| m.to_gtp(g)).collect();
            let reply = if chosen.resign {
                "resign".to_string()
            } else {
                chosen.mv.to_gtp(g)
            };
            log(
                LogLevel::Info,
                format_args!(
                    "move {} {color} {reply}{}: {} playouts in {:.2} s, winrate {:.1}%, pv {}",
                    self.state.moves().len() + 1,
                    match &chosen.book {
                        Some(n) if n.played => " (book)",
                        Some(_) => " (book prior)",
                        None => "",
                    },
                    analysis.playouts,
                    used.as_secs_f64(),
                    winrate * 100.0,
                    pv.join(" "),
                ),
            );
        }
        chosen
    }

    /// The end-of-game judgement of the current position.
    fn judge(&self) -> Judgement {
        self.player.judge(&self.state)
    }

    /// genmove and its variants: searches, plays the move, charges the clock and replies
    /// with the vertex, `pass` or `resign`.
    fn genmove_and_play(
        &mut self,
        color: Color,
        kind: MoveKind,
        report: Option<Report<'_>>,
    ) -> String {
        self.genmove_and_play_or_claim(color, kind, report, false)
    }

    /// [`Engine::genmove_and_play`], which with `may_claim` answers `claim` (and plays
    /// nothing) when hane is sure of winning ([`ChosenMove::claim`]).
    fn genmove_and_play_or_claim(
        &mut self,
        color: Color,
        kind: MoveKind,
        report: Option<Report<'_>>,
        may_claim: bool,
    ) -> String {
        let start = Instant::now();
        let chosen = self.generate(color, kind, report);
        let mv = chosen.mv;
        self.clocks[color.index()].charge(start.elapsed().as_secs_f64());
        if chosen.resign {
            return "resign".into();
        }
        if may_claim && chosen.claim {
            return "claim".into();
        }
        if self.state.play(color, mv).is_err() {
            // The search and the rules disagree: never send an illegal move.
            log(
                LogLevel::Error,
                format_args!("search chose an illegal move; passing"),
            );
            let _ = self.state.play(color, Move::Pass);
            return "pass".into();
        }
        self.ponder_wanted = true;
        mv.to_gtp(self.state.geometry())
    }
}

/// `gomill-genmove_ex [C keyword...]`: with no arguments the keywords hane knows (`claim`);
/// otherwise genmove, answering `claim` instead of a move when `claim` is among the
/// keywords and hane is sure of winning. Unknown keywords are ignored, as gomill asks.
fn cmd_gomill_genmove_ex(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let Some((color, keywords)) = args.split_first() else {
        return Ok("claim".to_string());
    };
    let color = color_arg(&[color])?;
    let may_claim = keywords.iter().any(|k| k.eq_ignore_ascii_case("claim"));
    Ok(engine.genmove_and_play_or_claim(color, MoveKind::Normal, None, may_claim))
}

fn cmd_genmove(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let color = color_arg(args)?;
    Ok(engine.genmove_and_play(color, MoveKind::Normal, None))
}

fn cmd_kgs_genmove_cleanup(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let color = color_arg(args)?;
    engine.state.reset_consecutive_passes();
    Ok(engine.genmove_and_play(color, MoveKind::Cleanup, None))
}

fn cmd_reg_genmove(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let color = color_arg(args)?;
    let mv = engine.generate(color, MoveKind::Regression, None).mv;
    Ok(mv.to_gtp(engine.state.geometry()))
}

// ----- Scoring ------------------------------------------------------------------------------

fn cmd_final_score(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let judgement = engine.judge();
    let board = engine.state.board();
    let empty = board.empty_count();
    // A game in full swing has no final score: with stones on the board, most of the empty
    // points still contested and no two passes yet, hane declines to guess.
    if !board.is_empty() && !engine.state.is_over() && judgement.unsettled * 2 > empty {
        return Err(ERR_SCORE.into());
    }
    Ok(crate::board::format_score(judgement.score))
}

fn cmd_final_status_list(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [status] = args else {
        return Err(ERR_SYNTAX.into());
    };
    let status = status.to_ascii_lowercase();
    if !matches!(status.as_str(), "dead" | "alive" | "seki") {
        return Err(ERR_SYNTAX.into());
    }
    let judgement = engine.judge();
    let chains = if status == "dead" {
        judgement.dead
    } else {
        // Living chains in seki (read by the capturing-race reader) are listed as seki,
        // the others as alive.
        let seki = seki_chains(engine.state.board(), &judgement);
        if status == "seki" {
            seki
        } else {
            judgement
                .alive
                .into_iter()
                .filter(|chain| !seki.contains(chain))
                .collect()
        }
    };
    Ok(chains
        .iter()
        .map(|(_, stones)| vertex_list(stones, engine))
        .collect::<Vec<_>>()
        .join("\n"))
}

// ----- Records ------------------------------------------------------------------------------

fn cmd_loadsgf(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let (file, until) = match args {
        [file] => (*file, None),
        [file, n] => (*file, Some(parse_count(n).ok_or(ERR_SYNTAX)? as usize)),
        _ => return Err(ERR_SYNTAX.into()),
    };
    let max_bytes = engine.settings.game.max_sgf_bytes.0;
    let game = read_first_game(std::path::Path::new(file), max_bytes).map_err(|e| {
        log(LogLevel::Warn, format_args!("loadsgf {file}: {e}"));
        ERR_LOAD.to_string()
    })?;
    let mut rules = engine.rules;
    if let Some(komi) = game.komi {
        rules.komi = komi;
    }
    let state = game.replay(rules, until).map_err(|e| {
        log(LogLevel::Warn, format_args!("loadsgf {file}: {e}"));
        ERR_LOAD.to_string()
    })?;
    engine.rules = rules;
    engine.start_game(state);
    Ok(String::new())
}

fn cmd_printsgf(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let info = GameInfo {
        game_comment: Some("written by hane".into()),
        ..GameInfo::default()
    };
    let text = write_game(&engine.state, &info);
    match args {
        [] | ["-"] => Ok(text),
        [file] => {
            // Never over an existing file: a typo must not destroy a record.
            let mut out = std::fs::File::options()
                .write(true)
                .create_new(true)
                .open(file)
                .map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => "cannot save file: it exists",
                    _ => "cannot save file",
                })?;
            out.write_all(text.as_bytes())
                .map_err(|_| "cannot save file".to_string())?;
            Ok(String::new())
        }
        _ => Err(ERR_SYNTAX.into()),
    }
}

fn cmd_showboard(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let state = &engine.state;
    let g = state.geometry();
    let size = state.size();
    let letters: String = (0..size)
        .map(|c| {
            g.format_point(g.point(c, 0).expect("on board"))
                .chars()
                .next()
                .unwrap_or('?')
        })
        .map(|c| format!(" {c}"))
        .collect();
    let mut out = String::new();
    let _ = writeln!(out);
    let _ = writeln!(out, "   {letters}");
    let diagram = state.board().to_diagram();
    for (k, line) in diagram.lines().enumerate() {
        let row = size - k;
        let _ = write!(out, "{row:>2}  {line} {row:<2}");
        match k {
            0 => {
                let _ = write!(
                    out,
                    "   captured by black: {}",
                    state.board().captures(Color::Black)
                );
            }
            1 => {
                let _ = write!(
                    out,
                    "   captured by white: {}",
                    state.board().captures(Color::White)
                );
            }
            2 => {
                let _ = write!(out, "   {} to move, komi {}", state.to_move(), state.komi());
            }
            _ => {}
        }
        let _ = writeln!(out);
    }
    let _ = write!(out, "   {letters}");
    Ok(out)
}

// ----- Metadata -----------------------------------------------------------------------------

/// CPU seconds used by the process (all threads), or wall-clock time where it cannot be read.
fn process_cpu_seconds() -> f64 {
    cpu_time::ProcessTime::try_now()
        .map(|t| t.as_duration().as_secs_f64())
        .unwrap_or(0.0)
}

fn cmd_cputime(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    Ok(format!("{:.3}", process_cpu_seconds()))
}

/// `attack VERTEX` and `defend VERTEX`: the tactical reader on the chain at VERTEX (a
/// fresh [`Reader`] each time, so answers do not depend on earlier commands, with the
/// budget of [`ReaderLimits::THOROUGH`]), answered as
/// GNU Go answers: `0` when it fails, else its code and the move, `PASS` for a `defend` that
/// needs none. GNU Go's errors for a bad or empty vertex; a wrong argument count is a syntax
/// error.
fn cmd_read_chain(engine: &mut Engine, args: &[&str], attack: bool) -> Outcome {
    read_at_vertex(engine, args, |board, p| {
        let mut reader = Reader::with_limits(ReaderLimits::THOROUGH, Reader::DEFAULT_TABLE_BITS);
        if attack {
            reader.attack(board, p)
        } else {
            reader.defend(board, p)
        }
    })
}

/// The commands that read at one vertex holding a stone (`attack`, `defend`, `owl_attack`,
/// `owl_defend`): `read` on the current board, answered by [`Reading::gtp_reply`]; a syntax
/// error for a wrong argument count, GNU Go's errors for a bad or empty vertex.
fn read_at_vertex(
    engine: &mut Engine,
    args: &[&str],
    read: impl FnOnce(&crate::board::Board, Point) -> Reading,
) -> Outcome {
    let [vertex] = args else {
        return Err(ERR_SYNTAX.into());
    };
    let board = engine.state.board();
    let p = parse_point(board.geometry(), vertex).ok_or("invalid coordinate")?;
    if board.cell(p).color().is_none() {
        return Err("vertex must not be empty".into());
    }
    Ok(read(board, p).gtp_reply(board.geometry()))
}

/// `owl_attack VERTEX` and `owl_defend VERTEX`: the owl reader on the group (the dragon)
/// through the stone at VERTEX, read by a fresh [`OwlReader`]: whether its opponent to move
/// kills it, or its owner to move makes it live, answered as `attack` and `defend` are (a
/// group that needs no defence gets `1 PASS`). A kill is only claimed when it was proved
/// within the reader's limits: a cut-off read answers `0` to `owl_attack` and counts as a
/// success for `owl_defend`, as `attack` and `defend` do. Errors as for `attack`.
fn cmd_owl(engine: &mut Engine, args: &[&str], attack: bool) -> Outcome {
    read_at_vertex(engine, args, |board, p| {
        let mut reader = OwlReader::new();
        if attack {
            reader.attack(board, p)
        } else {
            reader.defend(board, p)
        }
    })
}

/// `analyze_semeai DRAGONA DRAGONB`: the capturing race between the chains at the two
/// vertices with A's owner to move, read by a fresh [`SemeaiReader`], answered in GNU Go's
/// form `SURVIVES CAPTURES MOVE`: the code (0 to 3, as for `attack`) for A's chain
/// surviving, the code for B's chain being captured, and A's owner's move (`PASS` when none
/// is needed or nothing works). `1 0` means that neither chain falls: a seki, or two chains
/// that both get away. Unlike GNU Go, which reads dragons and their life, hane reads the two
/// chains alone. Errors for a bad or empty vertex, and for two stones of one colour.
fn cmd_analyze_semeai(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [a, b] = args else {
        return Err(ERR_SYNTAX.into());
    };
    let board = engine.state.board();
    let g = board.geometry();
    let pa = parse_point(g, a).ok_or("invalid coordinate")?;
    let pb = parse_point(g, b).ok_or("invalid coordinate")?;
    if board.cell(pa).color().is_none() || board.cell(pb).color().is_none() {
        return Err("vertex must not be empty".into());
    }
    let result = SemeaiReader::new()
        .analyze(board, pa, pb)
        .ok_or("vertices must have different colors")?;
    let point = result
        .point
        .map_or_else(|| "PASS".to_string(), |p| g.format_point(p));
    Ok(format!(
        "{} {} {point}",
        result.survives.gtp_code(),
        result.captures.gtp_code()
    ))
}

/// `hane-tactical_status` (GoGui `gfx`): every chain of at most four liberties read both
/// ways by a fresh [`Reader`]. Chains whose fate depends on who moves first get a triangle,
/// with the capturing move labelled `a` and the saving move `d` (`a2`/`d2`, `a3`/`d3` when
/// the move only works through a ko, in GNU Go's codes; `ad` for the point both sides
/// want); chains captured whoever moves first get a square.
fn cmd_tactical_status(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let board = engine.state.board();
    let g = board.geometry();
    let mut reader = Reader::new();
    let (mut unsettled, mut lost) = (Vec::new(), Vec::new());
    let mut labels: Vec<(Point, String)> = Vec::new();
    let mut label = |p: Option<Point>, letter: char, verdict: Verdict| {
        let Some(p) = p else {
            return;
        };
        let text = match verdict.gtp_code() {
            1 => letter.to_string(),
            code => format!("{letter}{code}"),
        };
        match labels.iter_mut().find(|(q, _)| *q == p) {
            Some((_, old)) if !old.contains(&text) => old.push_str(&text),
            Some(_) => {}
            None => labels.push((p, text)),
        }
    };
    for p in g.points() {
        if board.cell(p).color().is_none()
            || board.chain_id(p) != p.index()
            || liberties_capped(board, p, 5) > 4
        {
            continue;
        }
        match reader.status(board, p) {
            ChainStatus::Safe => {}
            ChainStatus::Unsettled { attack, defence } => {
                unsettled.extend(board.chain_stones(p));
                label(attack.point, 'a', attack.verdict);
                label(defence.point, 'd', defence.verdict);
            }
            ChainStatus::Lost { .. } => lost.extend(board.chain_stones(p)),
        }
    }
    let mut out = String::new();
    if !unsettled.is_empty() {
        let _ = writeln!(out, "TRIANGLE {}", vertex_list(&unsettled, engine));
    }
    if !lost.is_empty() {
        let _ = writeln!(out, "SQUARE {}", vertex_list(&lost, engine));
    }
    if !labels.is_empty() {
        let pairs: Vec<String> = labels
            .iter()
            .map(|(p, text)| format!("{} {text}", g.format_point(*p)))
            .collect();
        let _ = writeln!(out, "LABEL {}", pairs.join(" "));
    }
    let _ = write!(
        out,
        "TEXT {} unsettled and {} lost stones",
        unsettled.len(),
        lost.len()
    );
    Ok(out)
}

fn cmd_describe_engine(engine: &mut Engine, _: &[&str], _: &mut Call<'_>) -> Outcome {
    Ok(format!(
        "hane {}: Monte-Carlo tree search; rules {}; seed {}; {}",
        env!("CARGO_PKG_VERSION"),
        engine.rules.name(),
        engine.player.seed(),
        engine.settings.describe()
    ))
}

// ----- KGS ----------------------------------------------------------------------------------

fn cmd_kgs_rules(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let Some(name) = args.first() else {
        return Err(ERR_SYNTAX.into());
    };
    let komi = engine.rules.komi;
    let rules = match name.to_ascii_lowercase().as_str() {
        // hane scores by area only; Japanese games are played as Chinese.
        "japanese" | "chinese" => Rules::chinese(komi),
        "aga" => Rules::aga(komi),
        "new_zealand" => Rules::new_zealand(komi),
        _ => return Err("unknown rules".into()),
    };
    engine.rules = rules;
    engine.state.set_rules(rules);
    engine.tournament_cleanup = true;
    Ok(String::new())
}

fn cmd_kgs_game_over(engine: &mut Engine, _: &[&str], _: &mut Call<'_>) -> Outcome {
    engine.ponder_wanted = false;
    Ok(String::new())
}

fn cmd_kgs_chat(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    match args {
        [kind, _name, _message, ..]
            if kind.eq_ignore_ascii_case("game") || kind.eq_ignore_ascii_case("private") =>
        {
            Ok("I am hane, a Monte-Carlo Go program; I cannot chat.".into())
        }
        _ => Err(ERR_SYNTAX.into()),
    }
}

// ----- GoGui analyze commands ----------------------------------------------------------------

/// `MOVE (COUNT, WINRATE%)` for the first `limit` book moves.
fn book_moves_text(
    moves: &[crate::play::book::BookMove],
    g: crate::board::Geometry,
    limit: usize,
) -> String {
    moves
        .iter()
        .take(limit)
        .map(|m| {
            format!(
                "{} ({}, {:.1}%)",
                m.mv.to_gtp(g),
                m.count,
                m.winrate * 100.0
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `hane-book [COLOR]`: the book moves of the position for `COLOR` (default: the side to
/// move), one `MOVE COUNT WINRATE USE` line each, most frequent first; empty when the book
/// does not hold the position (or there is no book).
fn cmd_book(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let color = match args {
        [] => engine.state.to_move(),
        [c] => parse_color(c).ok_or(ERR_SYNTAX)?,
        _ => return Err(ERR_SYNTAX.into()),
    };
    let g = engine.state.geometry();
    let Some(hit) = engine.player.book_hit(&engine.state, color) else {
        return Ok(String::new());
    };
    let use_ = match hit.use_ {
        crate::play::book::BookUse::Play => "play",
        crate::play::book::BookUse::Prior => "prior",
    };
    Ok(hit
        .moves
        .iter()
        .map(|m| format!("{} {} {:.3} {use_}", m.mv.to_gtp(g), m.count, m.winrate))
        .collect::<Vec<_>>()
        .join("\n"))
}

fn cmd_gogui_analyze_commands(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    Ok(GOGUI_ANALYZE_COMMANDS.into())
}

impl Engine {
    /// A search for an analyze command: the usual move limits, `# interrupt` stops it early.
    fn analyze_once(&mut self, args: &[&str]) -> Result<Analysis, String> {
        let color = match args {
            [] => self.state.to_move(),
            [c] => parse_color(c).ok_or(ERR_SYNTAX)?,
            _ => return Err(ERR_SYNTAX.into()),
        };
        let limits = self.player.limits(self.clock_time(color));
        let control = Arc::clone(&self.input.control);
        Ok(self
            .player
            .searcher_mut()
            .analyze(&self.state, color, &limits, &control, &mut |_| {}))
    }
}

fn cmd_heat_map(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let analysis = engine.analyze_once(args)?;
    Ok(analysis::gfx_heat_map(&analysis, engine.state.geometry()))
}

fn cmd_winrate_board(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let analysis = engine.analyze_once(args)?;
    Ok(analysis::winrate_board(&analysis, engine.state.geometry()))
}

fn cmd_principal_variation(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let analysis = engine.analyze_once(args)?;
    Ok(analysis::principal_variation(
        &analysis,
        engine.state.geometry(),
    ))
}

fn cmd_ownership(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let g = engine.state.geometry();
    let by_cell = engine.player.ownership(&engine.state);
    let by_point: Vec<f32> = g.points().map(|p| by_cell[p.index()]).collect();
    Ok(analysis::dboard(&by_point, g))
}

fn cmd_dead_stones(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let judgement = engine.judge();
    let mut out = String::new();
    for color in Color::ALL {
        let stones: Vec<Point> = judgement
            .dead
            .iter()
            .filter(|(c, _)| *c == color)
            .flat_map(|(_, s)| s.iter().copied())
            .collect();
        if !stones.is_empty() {
            let _ = writeln!(out, "MARK {}", vertex_list(&stones, engine));
        }
    }
    let _ = write!(
        out,
        "TEXT {} dead chains; score {}",
        judgement.dead.len(),
        crate::board::format_score(judgement.score)
    );
    Ok(out)
}

// ----- Sabaki / Lizzie analysis --------------------------------------------------------------

fn interval(request: &AnalyzeRequest) -> Option<Duration> {
    (request.interval_cs > 0).then(|| Duration::from_millis(request.interval_cs * 10))
}

fn cmd_analyze(
    engine: &mut Engine,
    args: &[&str],
    call: &mut Call<'_>,
    dialect: Dialect,
) -> Outcome {
    let geometry = engine.state.geometry();
    let mut request = analysis::parse_analyze_args(args, dialect, geometry).ok_or(ERR_SYNTAX)?;
    let color = request.color.unwrap_or(engine.state.to_move());
    call.start_stream().map_err(|e| e.to_string())?;
    engine
        .player
        .searcher_mut()
        .set_avoid(std::mem::take(&mut request.avoid));
    let limits = SearchLimits {
        playouts: engine.settings.game.analysis_playouts,
        time: None,
        report_interval: interval(&request),
        max_time: None,
    };
    let control = Arc::clone(&engine.input.control);
    engine.input.begin_stop_on_input();
    let mut reported = false;
    let last = engine.player.searcher_mut().analyze(
        &engine.state,
        color,
        &limits,
        &control,
        &mut |analysis: &Analysis| {
            let line = analysis::info_line(analysis, geometry, dialect, &request);
            if !line.is_empty() {
                reported = true;
                let _ = call.stream_line(&line);
            }
        },
    );
    engine.input.end_stop_on_input();
    if !reported {
        // Stopped before the first interval: report what was found.
        let line = analysis::info_line(&last, geometry, dialect, &request);
        let _ = call.stream_line(&line);
    }
    Ok(String::new())
}

fn cmd_genmove_analyze(
    engine: &mut Engine,
    args: &[&str],
    call: &mut Call<'_>,
    dialect: Dialect,
) -> Outcome {
    let geometry = engine.state.geometry();
    let mut request = analysis::parse_analyze_args(args, dialect, geometry).ok_or(ERR_SYNTAX)?;
    let color = request.color.unwrap_or(engine.state.to_move());
    call.start_stream().map_err(|e| e.to_string())?;
    engine.player.set_avoid(std::mem::take(&mut request.avoid));
    let mut report = |analysis: &Analysis| {
        let line = analysis::info_line(analysis, geometry, dialect, &request);
        let _ = call.stream_line(&line);
    };
    let every = interval(&request).unwrap_or(Duration::from_secs(3600));
    let reply = engine.genmove_and_play(color, MoveKind::Normal, Some((every, &mut report)));
    Ok(format!("play {reply}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Auto, PlayoutKind, PriorsKind, Settings};

    fn engine(playouts: u64, resign_moves: u32) -> Engine {
        let settings = {
            let mut s = Settings::default();
            s.game.threads = Auto::Value(1);
            s.game.seed = Some(3);
            s.game.resign_moves = resign_moves;
            s.search.playout.playout = PlayoutKind::Light;
            s.search.priors = PriorsKind::Heuristic;
            s.game.playouts = Some(playouts);
            s.game.judge_playouts = 50;
            s
        };
        Engine::new(settings, crate::pattern::default_table_arc())
    }

    /// Runs one command and returns its response without the `=` (panics on `?`).
    fn ok(engine: &mut Engine, line: &str) -> String {
        let mut out = Vec::new();
        engine.execute_line(line, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with('='), "{line}: {text}");
        text[1..].trim().to_string()
    }

    #[test]
    fn a_new_game_starts_with_full_clocks() {
        let mut e = engine(10, 3);
        ok(&mut e, "boardsize 9");
        ok(&mut e, "time_settings 10 0 0");
        e.clocks[Color::Black.index()].charge(9.5);
        e.clocks[Color::White.index()].charge(4.0);
        assert!((e.clocks[0].left.unwrap().seconds - 0.5).abs() < 1e-9);
        // The same settings again (gtp2ogs, gogui-twogtp) keep the running clocks...
        ok(&mut e, "time_settings 10 0 0");
        assert!((e.clocks[0].left.unwrap().seconds - 0.5).abs() < 1e-9);
        // ...and a new game fills them again.
        ok(&mut e, "clear_board");
        for clock in e.clocks {
            assert_eq!(clock.left.unwrap().seconds, 10.0);
        }
        ok(&mut e, "kgs-time_settings byoyomi 0 30 5");
        e.clocks[Color::Black.index()].charge(31.0);
        assert_eq!(e.clocks[0].left.unwrap().stones_or_periods, 4);
        ok(&mut e, "boardsize 9");
        assert_eq!(e.clocks[0].left.unwrap().stones_or_periods, 5);
        // A loaded record is a new game too.
        e.clocks[Color::Black.index()].charge(31.0);
        let file = std::env::temp_dir().join(format!("hane-clock-{}.sgf", std::process::id()));
        std::fs::write(&file, "(;GM[1]SZ[9];B[ee];W[cc])").unwrap();
        ok(&mut e, &format!("loadsgf {}", file.display()));
        std::fs::remove_file(&file).ok();
        assert_eq!(e.state.moves().len(), 2);
        assert_eq!(e.clocks[0].left.unwrap().stones_or_periods, 5);
    }

    /// Runs one command that must fail and returns its message.
    fn refused(engine: &mut Engine, line: &str) -> String {
        let mut out = Vec::new();
        engine.execute_line(line, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with('?'), "{line}: {text}");
        text[1..].trim().to_string()
    }

    #[test]
    fn kata_time_settings_set_fischer_clocks_and_refuse_bad_ones() {
        let mut e = engine(10, 3);
        let listed = ok(&mut e, "kata-list_time_settings");
        for kind in listed.split(' ') {
            // Every kind listed is taken (with some arguments).
            let args = match kind {
                "none" => "",
                "absolute" => "60",
                "fischer" => "60 5",
                "fischer-capped" => "60 5 90 -1",
                _ => "60 30 5",
            };
            ok(&mut e, &format!("kata-time_settings {kind} {args}"));
        }
        assert!(listed.contains("fischer-capped"), "{listed}");
        ok(&mut e, "kata-time_settings fischer-capped 300.5 10 600 20");
        let expected = TimeSystem::Fischer {
            main: 300.5,
            increment: 10.0,
            main_limit: Some(600.0),
            move_limit: Some(20.0),
        };
        assert_eq!(e.clocks[0].system, expected);
        assert_eq!(e.clocks[1].left.unwrap().seconds, 300.5);
        // The increment comes after the move, up to the limit.
        e.clocks[0].charge(4.5);
        assert_eq!(e.clocks[0].left.unwrap().seconds, 306.0);
        ok(&mut e, "time_left b 595 0");
        e.clocks[0].charge(1.0);
        assert_eq!(e.clocks[0].left.unwrap().seconds, 600.0);
        ok(&mut e, "kata-time_settings byoyomi 0 30 5");
        assert!(matches!(e.clocks[0].system, TimeSystem::Byoyomi { .. }));
        // Errors change nothing.
        ok(&mut e, "kata-time_settings fischer 60 5");
        let before = e.clocks;
        for bad in [
            "kata-time_settings fischer-capped 300 10 100 -1",
            "kata-time_settings fischer 60",
            "kata-time_settings fischer 60 -5",
            "kata-time_settings sudden-death 60",
            "kata-time_settings",
            "kgs-time_settings fischer 60 5",
            "kgs-time_settings byo-yomi 60 30 5",
        ] {
            refused(&mut e, bad);
            assert_eq!(e.clocks, before, "{bad}");
        }
        assert_eq!(
            refused(&mut e, "kata-time_settings fischer-capped 300 10 100 -1"),
            "main time limit below the main time"
        );
        // A move is found under a Fischer clock, whatever time_left says.
        ok(&mut e, "boardsize 9");
        ok(&mut e, "kata-time_settings fischer-capped 10 1 -1 0.5");
        for left in ["1e30 0", "0 0", "0.0001 0"] {
            ok(&mut e, &format!("time_left b {left}"));
            assert!(!ok(&mut e, "genmove b").is_empty(), "{left}");
            ok(&mut e, "undo");
        }
    }

    #[test]
    fn absurd_time_left_values_still_give_a_move() {
        let mut e = engine(30, 3);
        for settings in [
            "time_settings 60 0 0",
            "kgs-time_settings byoyomi 60 30 5",
            "kgs-time_settings canadian 60 30 5",
        ] {
            ok(&mut e, "clear_board");
            ok(&mut e, settings);
            for left in ["1e30 0", "1e300 5", "-1e300 0", "0 0", "0.0001 1"] {
                ok(&mut e, &format!("time_left b {left}"));
                let mv = ok(&mut e, "genmove b");
                assert!(!mv.is_empty(), "{settings} / {left}");
                ok(&mut e, "undo");
            }
        }
    }

    /// 5x5, white to win by a mile: a two-eyed white group on rows 1-3, black to move with
    /// only rows 4 and 5 to claim.
    fn hopeless_for_black(e: &mut Engine) {
        ok(e, "boardsize 5");
        ok(e, "komi 7.5");
        ok(
            e,
            "gogui-play_sequence w b1 b pass w d1 b pass w a2 b pass w b2 b pass w c2 b pass \
             w d2 b pass w e2 b pass w a3 b pass w b3 b pass w c3 b pass w d3 b pass w e3",
        );
    }

    #[test]
    fn plain_genmove_resigns_a_lost_game_under_kgs_rules_too() {
        let mut e = engine(400, 1);
        hopeless_for_black(&mut e);
        assert_eq!(ok(&mut e, "genmove b"), "resign");
        // kgs-rules changes only passing (no pass before dead stones are gone).
        let mut e = engine(400, 1);
        ok(&mut e, "kgs-rules chinese");
        hopeless_for_black(&mut e);
        assert_eq!(ok(&mut e, "genmove b"), "resign");
        // kgs-genmove_cleanup never resigns.
        let mut e = engine(400, 1);
        ok(&mut e, "kgs-rules chinese");
        hopeless_for_black(&mut e);
        assert_ne!(ok(&mut e, "kgs-genmove_cleanup b"), "resign");
    }
}
