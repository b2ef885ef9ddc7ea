//! One game of a match: its start position, the referee playing it between a worker's
//! players, and what it leaves: the SGF file and the record.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::player::{DeadStones, Player};
use super::referee::{GameEnd, GameOutcome, GameProgress, RefereeSettings, play_game};
use super::results::{self, EndKind, GameRecord};
use super::run::MatchPlan;
use super::shard::GameSpec;
use crate::board::{Color, GameState};
use crate::sgf::{GameInfo, write_game};

/// The start position of a game: handicap or opening, with the match's komi.
pub fn start_position(plan: &MatchPlan, spec: &GameSpec) -> Result<GameState, String> {
    let mut rules = plan.rules;
    rules.komi = plan.settings.komi;
    let mut state = match spec.opening {
        Some(k) => {
            let opening = &plan.openings[k];
            let until = plan.settings.opening_moves.map(|n| n + 1);
            opening
                .game
                .replay(rules, until)
                .map_err(|e| format!("opening {}: {e}", opening.label))?
        }
        None => {
            let mut state = GameState::new(plan.settings.size, rules)
                .ok_or_else(|| format!("unsupported board size {}", plan.settings.size))?;
            if plan.settings.handicap > 0 {
                state
                    .place_fixed_handicap(plan.settings.handicap)
                    .map_err(|e| format!("handicap {}: {e}", plan.settings.handicap))?;
            }
            state
        }
    };
    state.set_komi(plan.settings.komi);
    Ok(state)
}

/// The line on stderr for a finished game.
pub(super) fn game_line(r: &GameRecord) -> String {
    let fault = r
        .fault
        .as_deref()
        .map(|f| format!(" [{f}]"))
        .unwrap_or_default();
    format!(
        "game {}: {} (B) vs {} (W): {} by {}, {} moves{fault}",
        r.number,
        r.black,
        r.white,
        r.result,
        r.end.name(),
        r.moves,
    )
}

/// Plays one game with the worker's players, telling `progress` where it stands, and writes
/// its SGF; returns its record, or `None` for a game abandoned because the match was
/// interrupted.
pub(super) fn play_one(
    plan: &MatchPlan,
    spec: &GameSpec,
    players: &mut [Box<dyn Player>],
    progress: &mut dyn FnMut(&GameProgress),
) -> Result<Option<GameRecord>, String> {
    let start = start_position(plan, spec)?;
    let outcome = referee_game(plan, spec, start, players, progress);
    // A fault once the match is interrupted may be a wait given up: the game is abandoned
    // with the others in progress.
    if plan.interrupt.is_stopped() && matches!(outcome.end, GameEnd::Fault(..)) {
        return Ok(None);
    }
    let (black_engine, white_engine) = engines_by_colour(spec);
    for (colour, engine) in [(Color::Black, black_engine), (Color::White, white_engine)] {
        if outcome.faulted[colour.index()] {
            // A failed restart is retried when the next game needs the engine.
            let _ = players[engine].restart();
        }
    }
    let date = results::today();
    let Some((end, fault)) = how_it_ended(plan, spec, &outcome) else {
        return Ok(None);
    };
    let facts = GameFacts {
        end,
        fault,
        opening: spec.opening.map(|k| plan.openings[k].label.clone()),
        sgf: results::sgf_path(spec.number()),
        date,
    };
    write_sgf(plan, spec, &outcome, &facts)?;
    Ok(Some(game_record(plan, spec, &outcome, facts)))
}

/// The engines (0 or 1) playing black and white in `spec`.
fn engines_by_colour(spec: &GameSpec) -> (usize, usize) {
    if spec.engine1_black { (0, 1) } else { (1, 0) }
}

/// The engine number (1 or 2) that plays `colour` in `spec`.
fn engine_number(spec: &GameSpec, colour: Color) -> u8 {
    if (colour == Color::Black) == spec.engine1_black {
        1
    } else {
        2
    }
}

/// Has the referee play the game of `spec` from `start` between the worker's players.
fn referee_game(
    plan: &MatchPlan,
    spec: &GameSpec,
    start: GameState,
    players: &mut [Box<dyn Player>],
    progress: &mut dyn FnMut(&GameProgress),
) -> GameOutcome {
    let referee = RefereeSettings {
        time_control: plan.settings.time_control,
        margin: Duration::from_secs_f64(plan.settings.margin_seconds),
        move_cap: plan.settings.move_cap,
        dead_playouts: plan.dead_playouts,
        interrupt: Arc::clone(&plan.interrupt),
    };
    let (first, second) = players.split_at_mut(1);
    let (black, white) = if spec.engine1_black {
        (&mut first[0], &mut second[0])
    } else {
        (&mut second[0], &mut first[0])
    };
    play_game(
        start,
        black.as_mut(),
        white.as_mut(),
        &referee,
        spec.seed,
        progress,
    )
}

/// How the game ended for its record, with the fault (which engine, and what) when one
/// ended it; `None` for a game interrupted with the match.
fn how_it_ended(
    plan: &MatchPlan,
    spec: &GameSpec,
    outcome: &GameOutcome,
) -> Option<(EndKind, Option<String>)> {
    let names = &plan.settings.names;
    Some(match &outcome.end {
        GameEnd::TwoPasses => (EndKind::TwoPasses, None),
        GameEnd::MoveCap => (EndKind::MoveCap, None),
        GameEnd::Resignation(_) => (EndKind::Resignation, None),
        GameEnd::Interrupted => return None,
        GameEnd::Fault(colour, f) => (
            EndKind::from(f.kind),
            Some(format!(
                "{} ({}): {f}",
                names[engine_number(spec, *colour) as usize - 1],
                colour
            )),
        ),
    })
}

/// What a game's record says besides the referee's outcome.
struct GameFacts {
    end: EndKind,
    fault: Option<String>,
    /// The opening's label.
    opening: Option<String>,
    /// The SGF file, inside the result folder.
    sgf: PathBuf,
    date: String,
}

/// Writes the game's SGF record, with a comment on how it was played and ended.
fn write_sgf(
    plan: &MatchPlan,
    spec: &GameSpec,
    outcome: &GameOutcome,
    facts: &GameFacts,
) -> Result<(), String> {
    let names = &plan.settings.names;
    let (black_engine, white_engine) = engines_by_colour(spec);
    let info = GameInfo {
        black_player: Some(names[black_engine].clone()),
        white_player: Some(names[white_engine].clone()),
        result: Some(outcome.result.clone()),
        date: Some(facts.date.clone()),
        game_comment: Some(game_comment(spec, outcome, facts)),
        move_comments: outcome.comments.clone(),
    };
    let text = write_game(&outcome.state, &info);
    results::write_atomically(&plan.out_dir.join(&facts.sgf), text.as_bytes())
}

/// The SGF game comment: the game's number and seed, how it ended, its opening and the
/// dead stones.
fn game_comment(spec: &GameSpec, outcome: &GameOutcome, facts: &GameFacts) -> String {
    let geometry = outcome.state.geometry();
    let mut comment = format!(
        "Game {} of a hane match, seed {}. Ended by {}.",
        spec.number(),
        spec.seed,
        facts.end.name()
    );
    if let Some(f) = &facts.fault {
        comment.push_str(&format!(" Fault: {f}."));
    }
    if let Some(o) = &facts.opening {
        comment.push_str(&format!(" Opening: {o}."));
    }
    if let Some(s) = &outcome.settlement {
        let removed: Vec<String> = s.dead.iter().map(|&p| geometry.format_point(p)).collect();
        comment.push_str(&format!(
            " Dead stones {} ({}): {}.",
            if s.agreed {
                "agreed"
            } else {
                "disputed, settled by playouts"
            },
            removed.len(),
            if removed.is_empty() {
                "none".to_string()
            } else {
                removed.join(" ")
            }
        ));
    }
    comment
}

/// The game's line in `results.jsonl`.
fn game_record(
    plan: &MatchPlan,
    spec: &GameSpec,
    outcome: &GameOutcome,
    facts: GameFacts,
) -> GameRecord {
    let names = &plan.settings.names;
    let (black_engine, white_engine) = engines_by_colour(spec);
    let geometry = outcome.state.geometry();
    let listed = |answer: &DeadStones| match answer {
        DeadStones::Listed(points) => {
            Some(points.iter().map(|&p| geometry.format_point(p)).collect())
        }
        DeadStones::Unknown(_) => None,
    };
    let settlement = outcome.settlement.as_ref();
    GameRecord {
        number: spec.number(),
        seed: spec.seed,
        black_engine: black_engine as u8 + 1,
        black: names[black_engine].clone(),
        white: names[white_engine].clone(),
        opening: facts.opening,
        result: outcome.result.clone(),
        winner_engine: outcome.winner.map(|c| engine_number(spec, c)),
        end: facts.end,
        fault: facts.fault,
        score: outcome.score,
        moves: outcome.state.moves().len(),
        think_seconds: outcome.think_seconds,
        generated_moves: outcome.generated_moves,
        playouts: outcome.playouts,
        peak_winrate: outcome.peak_winrate,
        owl: outcome.owl,
        dead_black_says: settlement.and_then(|s| listed(&s.answers[0])),
        dead_white_says: settlement.and_then(|s| listed(&s.answers[1])),
        dead_agreed: settlement.map(|s| s.agreed),
        dead_removed: settlement
            .map(|s| s.dead.iter().map(|&p| geometry.format_point(p)).collect()),
        sgf: facts.sgf.to_string_lossy().into_owned(),
        date: facts.date,
    }
}
