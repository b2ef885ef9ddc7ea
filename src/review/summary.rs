//! The text summary of a review: what was reviewed and how, and for each player the share
//! of moves that were hane's first choice, the average loss, and the biggest mistakes
//! (move number, move played, hane's choice, loss in points and win rate).

use std::fmt::Write as _;

use super::sgf_out::{color_name, percent, points_text};
use super::{MoveReview, Review};
use crate::board::{Color, Geometry};

/// Mistakes listed per player, at most.
pub const MISTAKES_LISTED: usize = 5;

/// One player's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    pub color: Color,
    /// Moves of this player reviewed.
    pub moves: usize,
    /// Of those, hane's first choice.
    pub matched: usize,
    /// Average loss in win rate (negative losses counted as zero).
    pub average_winrate_loss: f32,
    /// Average loss in points, over the moves with a known score.
    pub average_points_loss: Option<f32>,
    /// The biggest mistakes, worst first: moves other than hane's choice that lost win
    /// rate or points, by win rate lost, then points.
    pub mistakes: Vec<MoveReview>,
}

impl PlayerSummary {
    /// The share of moves that were hane's first choice, in [0, 1].
    pub fn match_share(&self) -> f32 {
        if self.moves == 0 {
            0.0
        } else {
            self.matched as f32 / self.moves as f32
        }
    }
}

/// `color`'s figures in `review`.
pub fn player_summary(review: &Review, color: Color) -> PlayerSummary {
    let own: Vec<&MoveReview> = review.moves.iter().filter(|m| m.color == color).collect();
    let moves = own.len();
    let matched = own.iter().filter(|m| m.matched()).count();
    let average_winrate_loss = if moves == 0 {
        0.0
    } else {
        own.iter().map(|m| m.winrate_loss_clamped()).sum::<f32>() / moves as f32
    };
    let points: Vec<f32> = own.iter().filter_map(|m| m.points_loss_clamped()).collect();
    let average_points_loss =
        (!points.is_empty()).then(|| points.iter().sum::<f32>() / points.len() as f32);
    let mut mistakes: Vec<MoveReview> = own
        .iter()
        .filter(|m| {
            !m.matched()
                && (m.winrate_loss > 0.0 || m.points_loss_clamped().is_some_and(|p| p > 0.0))
        })
        .map(|&m| m.clone())
        .collect();
    mistakes.sort_by(|a, b| {
        b.winrate_loss_clamped()
            .total_cmp(&a.winrate_loss_clamped())
            .then_with(|| {
                let (pa, pb) = (
                    a.points_loss_clamped().unwrap_or(0.0),
                    b.points_loss_clamped().unwrap_or(0.0),
                );
                pb.total_cmp(&pa)
            })
            .then(a.number.cmp(&b.number))
    });
    mistakes.truncate(MISTAKES_LISTED);
    PlayerSummary {
        color,
        moves,
        matched,
        average_winrate_loss,
        average_points_loss,
        mistakes,
    }
}

/// The summary of `review` as text; `record` names the record reviewed.
pub fn summary_text(review: &Review, record: &str) -> String {
    let game = &review.game;
    let geometry = Geometry::new(game.size).expect("a replayed record has a valid size");
    let mut text = String::new();
    let name = |color: Color| {
        let player = match color {
            Color::Black => &game.black_player,
            Color::White => &game.white_player,
        };
        player.clone().unwrap_or_else(|| "?".to_string())
    };
    let _ = writeln!(
        text,
        "Review of {record}: {} (black) vs {} (white), {}x{}, komi {}, {} rules{}",
        name(Color::Black),
        name(Color::White),
        game.size,
        game.size,
        review.rules.komi,
        review.rules.name(),
        game.result
            .as_ref()
            .map_or_else(String::new, |r| format!(", result {r}"))
    );
    let budget = match (review.playouts, review.time) {
        (Some(p), Some(t)) => format!("{p} playouts or {t} s"),
        (Some(p), None) => format!("{p} playouts"),
        (None, Some(t)) => format!("{t} s"),
        (None, None) => "no limit".to_string(),
    };
    let _ = writeln!(
        text,
        "Moves {} to {}, {budget} per position, seed {}. Losses are hane's best value before \
         a move less the value after it, for the player who moved.",
        review.from, review.to, review.seed
    );
    for note in &review.notes {
        let _ = writeln!(text, "Note: {note}.");
    }
    for color in Color::ALL {
        let s = player_summary(review, color);
        let _ = writeln!(text);
        let points = points_text(s.average_points_loss);
        let _ = writeln!(
            text,
            "{} ({}): {} moves, {} matched hane's first choice ({}), average loss {} win rate, {points} points",
            color_name(color),
            name(color),
            s.moves,
            s.matched,
            percent(s.match_share()),
            percent(s.average_winrate_loss),
        );
        if s.mistakes.is_empty() {
            let _ = writeln!(text, "  No mistakes found.");
            continue;
        }
        let _ = writeln!(text, "  Biggest mistakes:");
        let _ = writeln!(
            text,
            "  {:>5}  {:<7} {:<7} {:>13} {:>15}",
            "move", "played", "better", "loss (points)", "loss (win rate)"
        );
        for m in &s.mistakes {
            let better = m
                .best
                .map_or_else(|| "-".to_string(), |b| b.to_gtp(geometry));
            let points = m
                .points_loss
                .map_or_else(|| "?".to_string(), |p| format!("{p:.1}"));
            let mark = match m.mark {
                Some(super::Mark::Bad) => "  bad",
                Some(super::Mark::Doubtful) => "  doubtful",
                _ => "",
            };
            let _ = writeln!(
                text,
                "  {:>5}  {:<7} {:<7} {points:>13} {:>15}{mark}",
                m.number,
                m.played.to_gtp(geometry),
                better,
                percent(m.winrate_loss),
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Rules};
    use crate::review::{Mark, Thresholds, Value};
    use crate::sgf::parse_game;

    fn m(
        number: usize,
        color: Color,
        played: &str,
        best: &str,
        wr: f32,
        points: f32,
    ) -> MoveReview {
        let g = Geometry::new(9).unwrap();
        let value = Value {
            winrate: 0.5,
            lead: Some(0.0),
        };
        MoveReview {
            number,
            color,
            played: Move::parse(g, played).unwrap(),
            best: Some(Move::parse(g, best).unwrap()),
            pv: vec![Move::parse(g, best).unwrap()],
            before: value,
            after: value,
            winrate_loss: wr,
            points_loss: Some(points),
            mark: (wr >= 0.15).then_some(Mark::Bad),
        }
    }

    #[test]
    fn players_get_their_share_losses_and_mistakes() {
        let review = Review {
            game: parse_game("(;SZ[9]PB[Ann]PW[Bob]RE[W+R];B[ee])").unwrap(),
            rules: Rules::default(),
            notes: Vec::new(),
            from: 1,
            to: 4,
            playouts: Some(100),
            time: None,
            seed: 1,
            thresholds: Thresholds::default(),
            positions: Vec::new(),
            moves: vec![
                m(1, Color::Black, "E5", "E5", 0.01, 0.5),
                m(2, Color::White, "C3", "G7", 0.2, 6.0),
                m(3, Color::Black, "D4", "F6", -0.05, -1.0),
                m(4, Color::White, "G3", "C7", 0.04, 2.0),
            ],
        };
        let black = player_summary(&review, Color::Black);
        assert_eq!((black.moves, black.matched), (2, 1));
        assert_eq!(black.match_share(), 0.5);
        assert!((black.average_winrate_loss - 0.005).abs() < 1e-6);
        assert_eq!(black.average_points_loss, Some(0.25));
        assert!(black.mistakes.is_empty(), "{:?}", black.mistakes);
        let white = player_summary(&review, Color::White);
        assert_eq!(
            white.mistakes.iter().map(|m| m.number).collect::<Vec<_>>(),
            [2, 4]
        );
        let text = summary_text(&review, "game.sgf");
        assert!(text.contains("Ann (black) vs Bob (white), 9x9"), "{text}");
        assert!(
            text.contains("Black (Ann): 2 moves, 1 matched hane's first choice (50.0%)"),
            "{text}"
        );
        assert!(text.contains("White (Bob): 2 moves, 0 matched"), "{text}");
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("2 "))
            .unwrap();
        assert!(
            line.contains("C3") && line.contains("G7") && line.contains("6.0"),
            "{line}"
        );
        assert!(line.contains("20.0%") && line.ends_with("bad"), "{line}");
    }
}
