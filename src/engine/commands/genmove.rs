//! Move generation: `genmove` and its variants (`reg_genmove`, `kgs-genmove_cleanup`,
//! `gomill-genmove_ex`), the explanation and log line of a chosen move, and the clock charge.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use super::server::book_moves_text;
use super::{Outcome, color_arg};
use crate::board::{Color, Move};
use crate::engine::{Call, Engine, LogLevel, log};
use crate::play::judge::Judgement;
use crate::play::{ChosenMove, MoveKind, MoveRequest, Report};

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
    pub(super) fn judge(&self) -> Judgement {
        self.player.judge(&self.state)
    }

    /// genmove and its variants: searches, plays the move, charges the clock and replies
    /// with the vertex, `pass` or `resign`.
    pub(super) fn genmove_and_play(
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
pub(super) fn cmd_gomill_genmove_ex(
    engine: &mut Engine,
    args: &[&str],
    _: &mut Call<'_>,
) -> Outcome {
    let Some((color, keywords)) = args.split_first() else {
        return Ok("claim".to_string());
    };
    let color = color_arg(&[color])?;
    let may_claim = keywords.iter().any(|k| k.eq_ignore_ascii_case("claim"));
    Ok(engine.genmove_and_play_or_claim(color, MoveKind::Normal, None, may_claim))
}

pub(super) fn cmd_genmove(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let color = color_arg(args)?;
    Ok(engine.genmove_and_play(color, MoveKind::Normal, None))
}

pub(super) fn cmd_kgs_genmove_cleanup(
    engine: &mut Engine,
    args: &[&str],
    _: &mut Call<'_>,
) -> Outcome {
    let color = color_arg(args)?;
    engine.state.reset_consecutive_passes();
    Ok(engine.genmove_and_play(color, MoveKind::Cleanup, None))
}

pub(super) fn cmd_reg_genmove(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let color = color_arg(args)?;
    let mv = engine.generate(color, MoveKind::Regression, None).mv;
    Ok(mv.to_gtp(engine.state.geometry()))
}

#[cfg(test)]
mod tests {
    use super::super::test_engine::{engine, ok};
    use crate::engine::Engine;

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
