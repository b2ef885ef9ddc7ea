//! The GTP command table (the single source of truth for dispatch, `known_command` and
//! `list_commands`) and the argument helpers the handlers share. The handlers live by
//! concern: the game and its records in `game`, clocks in `time`, move generation in
//! `genmove`, analysis in `analyze`, tactical reading in `tactics`, and the
//! protocol, controller and server extensions in `server`.

mod analyze;
mod game;
mod genmove;
mod server;
mod tactics;
mod time;

use analyze::{
    cmd_analyze, cmd_dead_stones, cmd_genmove_analyze, cmd_gogui_analyze_commands, cmd_heat_map,
    cmd_ownership, cmd_principal_variation, cmd_winrate_board,
};
use game::{
    cmd_boardsize, cmd_clear_board, cmd_final_score, cmd_final_status_list, cmd_gg_undo,
    cmd_gogui_setup, cmd_gogui_setup_player, cmd_handicap, cmd_komi, cmd_loadsgf, cmd_play,
    cmd_play_sequence, cmd_printsgf, cmd_set_free_handicap, cmd_showboard, cmd_undo,
};
use genmove::{cmd_genmove, cmd_gomill_genmove_ex, cmd_kgs_genmove_cleanup, cmd_reg_genmove};
use server::{
    cmd_book, cmd_cputime, cmd_describe_engine, cmd_kgs_chat, cmd_kgs_game_over, cmd_kgs_rules,
    cmd_known_command, cmd_list_commands, cmd_quit,
};
use tactics::{cmd_analyze_semeai, cmd_owl, cmd_read_chain, cmd_tactical_status};
use time::{KATA_TIME_SETTINGS, cmd_time_left, cmd_time_settings, cmd_time_system};

use super::analysis::Dialect;
use super::parse::parse_color;
use super::{Call, ERR_SYNTAX, Engine};
use crate::board::{Color, GameState, Point};

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
    spec("fixed_handicap", |e, a, _| {
        cmd_handicap(e, a, GameState::place_fixed_handicap)
    }),
    spec("place_free_handicap", |e, a, _| {
        cmd_handicap(e, a, GameState::place_free_handicap)
    }),
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
    spec("kgs-time_settings", |e, a, _| cmd_time_system(e, a, false)),
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
    spec("kata-time_settings", |e, a, _| cmd_time_system(e, a, true)),
];

const fn spec(name: &'static str, handler: Handler) -> CommandSpec {
    CommandSpec { name, handler }
}

/// The command called `name`, if hane has it.
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Refuses any argument (a syntax error).
fn no_args(args: &[&str]) -> Result<(), String> {
    exactly::<0>(args).map(|[]| ())
}

/// Exactly `N` arguments (otherwise a syntax error).
fn exactly<'a, const N: usize>(args: &[&'a str]) -> Result<[&'a str; N], String> {
    args.try_into().map_err(|_| ERR_SYNTAX.to_string())
}

/// The one argument, a colour.
fn color_arg(args: &[&str]) -> Result<Color, String> {
    match args {
        [c] => parse_color(c).ok_or_else(|| ERR_SYNTAX.to_string()),
        _ => Err(ERR_SYNTAX.into()),
    }
}

/// The points as GTP vertices, separated by spaces.
fn vertex_list(points: &[Point], engine: &Engine) -> String {
    let g = engine.state.geometry();
    points
        .iter()
        .map(|&p| g.format_point(p))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod test_engine {
    //! An engine for the handlers' unit tests, and helpers to run one command.

    use super::super::Engine;
    use crate::settings::{Auto, PlayoutKind, PriorsKind, Settings};

    pub(super) fn engine(playouts: u64, resign_moves: u32) -> Engine {
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
        Engine::new(settings, crate::pattern::PatternTables::Builtin)
    }

    /// Runs one command and returns its response without the `=` (panics on `?`).
    pub(super) fn ok(engine: &mut Engine, line: &str) -> String {
        respond(engine, line, '=')
    }

    /// Runs one command that must fail and returns its message.
    pub(super) fn refused(engine: &mut Engine, line: &str) -> String {
        respond(engine, line, '?')
    }

    /// Runs one command whose response must start with `mark`; the response without it.
    fn respond(engine: &mut Engine, line: &str, mark: char) -> String {
        let mut out = Vec::new();
        engine.execute_line(line, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with(mark), "{line}: {text}");
        text[1..].trim().to_string()
    }
}
