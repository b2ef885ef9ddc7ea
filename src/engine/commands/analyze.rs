//! Analysis commands: GoGui's analyze commands (heat map, winrate board, principal
//! variation, ownership, dead stones) and the streaming `lz-analyze` / `kata-analyze`
//! and their `genmove_analyze` forms.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use super::{Outcome, no_args, vertex_list};
use crate::board::{Color, Geometry, Point};
use crate::engine::analysis::{self, AnalyzeRequest, Dialect};
use crate::engine::parse::parse_color;
use crate::engine::{Call, ERR_SYNTAX, Engine};
use crate::play::MoveKind;
use crate::search::{Analysis, SearchLimits};

/// GoGui analyze commands: `type/label/command`; every command named here is in the table.
pub(super) const GOGUI_ANALYZE_COMMANDS: &str = "\
gfx/Visit heat map/hane-heat_map %m
dboard/Winrate map/hane-winrate_board %m
var/Principal variation/hane-principal_variation %m
dboard/Ownership/hane-ownership
gfx/Dead stones/hane-dead_stones
gfx/Tactical status/hane-tactical_status
string/Book moves/hane-book %m";

pub(super) fn cmd_gogui_analyze_commands(
    _: &mut Engine,
    args: &[&str],
    _: &mut Call<'_>,
) -> Outcome {
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

pub(super) fn cmd_heat_map(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let analysis = engine.analyze_once(args)?;
    Ok(analysis::gfx_heat_map(&analysis, engine.state.geometry()))
}

pub(super) fn cmd_winrate_board(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let analysis = engine.analyze_once(args)?;
    Ok(analysis::winrate_board(&analysis, engine.state.geometry()))
}

pub(super) fn cmd_principal_variation(
    engine: &mut Engine,
    args: &[&str],
    _: &mut Call<'_>,
) -> Outcome {
    let analysis = engine.analyze_once(args)?;
    Ok(analysis::principal_variation(
        &analysis,
        engine.state.geometry(),
    ))
}

pub(super) fn cmd_ownership(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let g = engine.state.geometry();
    let by_cell = engine.player.ownership(&engine.state);
    let by_point: Vec<f32> = g.points().map(|p| by_cell[p.index()]).collect();
    Ok(analysis::dboard(&by_point, g))
}

pub(super) fn cmd_dead_stones(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
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

/// The start of an analysis command: its arguments parsed, the colour it is for, and the
/// stream's `=` line written.
fn begin_analysis(
    engine: &Engine,
    args: &[&str],
    call: &mut Call<'_>,
    dialect: Dialect,
) -> Result<(Geometry, AnalyzeRequest, Color), String> {
    let geometry = engine.state.geometry();
    let request = analysis::parse_analyze_args(args, dialect, geometry).ok_or(ERR_SYNTAX)?;
    let color = request.color.unwrap_or(engine.state.to_move());
    call.start_stream().map_err(|e| e.to_string())?;
    Ok((geometry, request, color))
}

pub(super) fn cmd_analyze(
    engine: &mut Engine,
    args: &[&str],
    call: &mut Call<'_>,
    dialect: Dialect,
) -> Outcome {
    let (geometry, mut request, color) = begin_analysis(engine, args, call, dialect)?;
    engine
        .player
        .searcher_mut()
        .set_avoid(std::mem::take(&mut request.avoid));
    let limits = SearchLimits {
        playouts: engine.settings.game.analysis_playouts,
        report_interval: interval(&request),
        ..SearchLimits::default()
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

pub(super) fn cmd_genmove_analyze(
    engine: &mut Engine,
    args: &[&str],
    call: &mut Call<'_>,
    dialect: Dialect,
) -> Outcome {
    let (geometry, mut request, color) = begin_analysis(engine, args, call, dialect)?;
    engine.player.set_avoid(std::mem::take(&mut request.avoid));
    let mut report = |analysis: &Analysis| {
        let line = analysis::info_line(analysis, geometry, dialect, &request);
        let _ = call.stream_line(&line);
    };
    let every = interval(&request).unwrap_or(Duration::from_secs(3600));
    let reply = engine.genmove_and_play(color, MoveKind::Normal, Some((every, &mut report)));
    Ok(format!("play {reply}"))
}
