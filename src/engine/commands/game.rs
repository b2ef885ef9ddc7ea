//! The game's handlers: board size, komi, handicap, moves and setup stones, undo, scoring at
//! the end, SGF records and the board diagram.

use std::fmt::Write as _;
use std::io::Write as _;

use super::{Outcome, color_arg, exactly, no_args, vertex_list};
use crate::board::{
    Color, GameState, HandicapError, MAX_SIZE, MIN_SIZE, Move, Point, komi_is_sane,
};
use crate::engine::parse::{
    looks_like_vertex, parse_color, parse_count, parse_float, parse_move, parse_point,
};
use crate::engine::{
    Call, ERR_ILLEGAL, ERR_LOAD, ERR_SCORE, ERR_SIZE, ERR_SYNTAX, ERR_UNDO, Engine, LogLevel, log,
};
use crate::play::clock::Clock;
use crate::play::judge::seki_chains;
use crate::sgf::{GameInfo, read_first_game, write_game};

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
        self.player.new_game(self.state.size());
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

pub(super) fn cmd_boardsize(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

pub(super) fn cmd_clear_board(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let size = engine.state.size();
    engine.new_game(size);
    Ok(String::new())
}

pub(super) fn cmd_komi(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

fn handicap_count(args: &[&str]) -> Result<usize, String> {
    match args {
        [n] => Ok(parse_count(n).ok_or(ERR_SYNTAX)? as usize),
        _ => Err(ERR_SYNTAX.into()),
    }
}

/// `fixed_handicap N` and `place_free_handicap N`: the handicap stones that `place` puts
/// on the board, listed.
pub(super) fn cmd_handicap(engine: &mut Engine, args: &[&str], place: Placement) -> Outcome {
    let n = handicap_count(args)?;
    let points = place(&mut engine.state, n).map_err(|e| e.to_string())?;
    engine.ponder_wanted = false;
    Ok(vertex_list(&points, engine))
}

/// How the engine places handicap stones: [`GameState::place_fixed_handicap`] or
/// [`GameState::place_free_handicap`].
pub(super) type Placement = fn(&mut GameState, usize) -> Result<Vec<Point>, HandicapError>;

/// `board not empty` unless the board has no stones and no move was played (before the
/// stones of `set_free_handicap` and `gogui-setup` are read).
fn require_fresh_board(engine: &Engine) -> Result<(), String> {
    if engine.state.board().is_empty() && engine.state.moves().is_empty() {
        Ok(())
    } else {
        Err(crate::board::HandicapError::BoardNotEmpty.to_string())
    }
}

pub(super) fn cmd_set_free_handicap(
    engine: &mut Engine,
    args: &[&str],
    _: &mut Call<'_>,
) -> Outcome {
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

pub(super) fn cmd_play(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [color, vertex] = exactly(args)?;
    let (color, mv) = parse_play(engine, color, vertex)?;
    engine
        .state
        .play(color, mv)
        .map_err(|_| ERR_ILLEGAL.to_string())?;
    engine.ponder_wanted = false;
    Ok(String::new())
}

pub(super) fn cmd_play_sequence(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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
pub(super) fn cmd_gogui_setup(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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
pub(super) fn cmd_gogui_setup_player(
    engine: &mut Engine,
    args: &[&str],
    _: &mut Call<'_>,
) -> Outcome {
    let color = color_arg(args)?;
    if !engine.state.set_to_move(color) {
        return Err("moves were played".into());
    }
    engine.ponder_wanted = false;
    Ok(String::new())
}

pub(super) fn cmd_undo(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    if !engine.state.undo() {
        return Err(ERR_UNDO.into());
    }
    engine.ponder_wanted = false;
    Ok(String::new())
}

pub(super) fn cmd_gg_undo(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

// ----- Scoring ------------------------------------------------------------------------------

pub(super) fn cmd_final_score(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

pub(super) fn cmd_final_status_list(
    engine: &mut Engine,
    args: &[&str],
    _: &mut Call<'_>,
) -> Outcome {
    let [status] = exactly(args)?;
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

pub(super) fn cmd_loadsgf(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

pub(super) fn cmd_printsgf(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

pub(super) fn cmd_showboard(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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
