//! Protocol, controller and server commands: `known_command`, `list_commands`, `quit`,
//! `cputime`, `gomill-describe_engine`, the KGS extensions and the opening book's
//! `hane-book`.

use super::{COMMANDS, Outcome, find, no_args};
use crate::board::Rules;
use crate::engine::parse::parse_color;
use crate::engine::{Call, ERR_SYNTAX, Engine};

pub(super) fn cmd_known_command(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    match args {
        [name] => Ok(find(&name.to_ascii_lowercase()).is_some().to_string()),
        _ => Err(ERR_SYNTAX.into()),
    }
}

pub(super) fn cmd_list_commands(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

pub(super) fn cmd_quit(engine: &mut Engine, _: &[&str], _: &mut Call<'_>) -> Outcome {
    engine.quit = true;
    Ok(String::new())
}

/// CPU seconds used by the process (all threads), or wall-clock time where it cannot be read.
fn process_cpu_seconds() -> f64 {
    cpu_time::ProcessTime::try_now()
        .map(|t| t.as_duration().as_secs_f64())
        .unwrap_or(0.0)
}

pub(super) fn cmd_cputime(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    Ok(format!("{:.3}", process_cpu_seconds()))
}

pub(super) fn cmd_describe_engine(engine: &mut Engine, _: &[&str], _: &mut Call<'_>) -> Outcome {
    Ok(format!(
        "hane {}: Monte-Carlo tree search; rules {}; seed {}; {}",
        env!("CARGO_PKG_VERSION"),
        engine.rules.name(),
        engine.player.seed(),
        engine.settings.describe()
    ))
}

// ----- KGS ----------------------------------------------------------------------------------

pub(super) fn cmd_kgs_rules(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

pub(super) fn cmd_kgs_game_over(engine: &mut Engine, _: &[&str], _: &mut Call<'_>) -> Outcome {
    engine.ponder_wanted = false;
    Ok(String::new())
}

pub(super) fn cmd_kgs_chat(_: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    match args {
        [kind, _name, _message, ..]
            if kind.eq_ignore_ascii_case("game") || kind.eq_ignore_ascii_case("private") =>
        {
            Ok("I am hane, a Monte-Carlo Go program; I cannot chat.".into())
        }
        _ => Err(ERR_SYNTAX.into()),
    }
}

/// `MOVE (COUNT, WINRATE%)` for the first `limit` book moves.
pub(super) fn book_moves_text(
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
pub(super) fn cmd_book(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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
