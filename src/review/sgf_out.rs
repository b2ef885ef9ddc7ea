//! The annotated record of a review, as SGF `FF[4]`: the record's main line, and on the
//! node of every reviewed move Sabaki's `SBKV` (black's win rate in percent after the move,
//! from which Sabaki draws its win-rate graph), a comment with the win rate and score lead
//! before and after the move (black's view), hane's choice with its principal variation and
//! the loss of the move played, and a mark (`BM[1]`, `DO[]`, `TE[1]`); hane's choice with
//! its principal variation is a variation (a sibling of the move played) wherever it
//! differs from the move played.

use std::fmt::Write as _;

use super::{MoveReview, PositionReview, Review, Thresholds};
use crate::board::{Color, Geometry, Move};
use crate::sgf::{escape, write_setup, write_text_properties};

/// A win rate in [0, 1] as a percentage with one decimal: `54.2%`.
pub fn percent(winrate: f32) -> String {
    format!("{:.1}%", 100.0 * winrate)
}

/// A number of points lost with one decimal: `2.5`; `unknown` without one.
pub fn points_text(points: Option<f32>) -> String {
    points.map_or_else(|| "unknown".to_string(), |p| format!("{p:.1}"))
}

/// A score lead from black's view as `B+2.5`, `W+1.0` or `even`; `unknown` without one.
pub fn lead_text(lead: Option<f32>) -> String {
    match lead {
        None => "unknown".to_string(),
        Some(l) if l >= 0.05 => format!("B+{l:.1}"),
        Some(l) if l <= -0.05 => format!("W+{:.1}", -l),
        Some(_) => "even".to_string(),
    }
}

/// The colour's name in prose.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Moves as GTP vertices separated by spaces.
pub fn moves_text(geometry: Geometry, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_gtp(geometry))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The SGF value of a move: a point, or empty for a pass.
fn sgf_move(geometry: Geometry, mv: Move) -> String {
    match mv {
        Move::Pass => String::new(),
        Move::Play(p) => geometry.sgf_point(p),
    }
}

/// `SBKV`: black's win rate in percent with two decimals, as Sabaki writes it.
fn sbkv(position: &PositionReview) -> String {
    format!("SBKV[{:.2}]", 100.0 * position.value.winrate)
}

/// The comment of a reviewed move.
pub fn move_comment(geometry: Geometry, review: &MoveReview, thresholds: &Thresholds) -> String {
    let mut text = String::new();
    let played = review.played.to_gtp(geometry);
    let _ = writeln!(
        text,
        "Move {}: {} {played}",
        review.number,
        color_name(review.color)
    );
    let _ = writeln!(
        text,
        "Black's win rate: {} before, {} after",
        percent(review.before.winrate),
        percent(review.after.winrate)
    );
    let _ = writeln!(
        text,
        "Score lead (black's view): {} before, {} after",
        lead_text(review.before.lead),
        lead_text(review.after.lead)
    );
    match review.best {
        Some(best) if review.matched() => {
            let _ = writeln!(
                text,
                "hane's choice: {} (the move played), PV {}",
                best.to_gtp(geometry),
                moves_text(geometry, &review.pv)
            );
        }
        Some(best) => {
            let _ = writeln!(
                text,
                "hane's choice: {}, PV {}",
                best.to_gtp(geometry),
                moves_text(geometry, &review.pv)
            );
        }
        None => {
            let _ = writeln!(text, "hane's choice: none (nothing searched)");
        }
    }
    let points = points_text(review.points_loss);
    let _ = write!(
        text,
        "Loss of {played} for {}: {:.1}% win rate, {points} points",
        color_name(review.color),
        100.0 * review.winrate_loss
    );
    if let Some(mark) = review.mark {
        let why = match mark {
            super::Mark::Bad => format!(
                " (loses at least {:.0}% win rate or {} points)",
                100.0 * thresholds.bad_winrate,
                thresholds.bad_points
            ),
            super::Mark::Doubtful => format!(
                " (loses at least {:.0}% win rate or {} points)",
                100.0 * thresholds.doubtful_winrate,
                thresholds.doubtful_points
            ),
            super::Mark::Tesuji => String::new(),
        };
        let _ = write!(text, "\nMarked: {}{why}", mark.describe());
    }
    text
}

/// The SGF mark property of a move.
fn mark_property(review: &MoveReview) -> &'static str {
    match review.mark {
        Some(super::Mark::Bad) => "BM[1]",
        // DO takes no value in FF[4].
        Some(super::Mark::Doubtful) => "DO[]",
        Some(super::Mark::Tesuji) => "TE[1]",
        None => "",
    }
}

/// The variation of hane's choice instead of `review`'s move: its principal variation, the
/// first node commented.
fn variation(geometry: Geometry, review: &MoveReview) -> String {
    let mut out = String::from("(");
    let mut color = review.color;
    for (k, &mv) in review.pv.iter().enumerate() {
        let _ = write!(out, ";{}[{}]", color.letter(), sgf_move(geometry, mv));
        if k == 0 {
            let comment = format!(
                "hane's choice instead of move {} ({}): PV {}\nBlack's win rate {}, score lead {} (black's view)",
                review.number,
                review.played.to_gtp(geometry),
                moves_text(geometry, &review.pv),
                percent(review.before.winrate),
                lead_text(review.before.lead),
            );
            let _ = write!(out, "C[{}]", escape(&comment));
        }
        color = color.opponent();
    }
    out.push(')');
    out
}

/// The annotated record of `review` (see the module documentation).
pub fn annotated_sgf(review: &Review) -> String {
    let game = &review.game;
    let geometry = Geometry::new(game.size).expect("a replayed record has a valid size");
    let mut out = String::new();
    let _ = write!(
        out,
        "(;GM[1]FF[4]CA[UTF-8]AP[hane:{}]SZ[{}]KM[{}]",
        env!("CARGO_PKG_VERSION"),
        game.size,
        review.rules.komi
    );
    let rules = game
        .rules
        .clone()
        .unwrap_or_else(|| review.rules.name().to_string());
    let _ = write!(out, "RU[{}]", escape(&rules));
    if let Some(h) = game.handicap {
        let _ = write!(out, "HA[{h}]");
    }
    write_text_properties(
        &mut out,
        &[
            ("PB", &game.black_player),
            ("PW", &game.white_player),
            ("RE", &game.result),
        ],
    );
    write_setup(&mut out, geometry, &game.setup);
    if let Some(color) = game.player_to_move {
        let _ = write!(out, "PL[{}]", color.letter());
    } else if game.moves.first().is_some_and(|&(c, _)| c == Color::White) {
        out.push_str("PL[W]");
    }
    let _ = write!(out, "GC[{}]", escape(&root_comment(review)));
    if let Some(p) = review.position(0) {
        out.push_str(&sbkv(p));
    }
    // Variations waiting for the main line after them to close.
    let mut pending: Vec<String> = Vec::new();
    for (k, &(color, mv)) in game.moves.iter().enumerate() {
        let number = k + 1;
        let reviewed = review.move_review(number);
        if let Some(r) = reviewed
            && r.best.is_some()
            && !r.matched()
            && !r.pv.is_empty()
        {
            pending.push(variation(geometry, r));
            out.push_str("\n(");
        } else {
            out.push('\n');
        }
        let _ = write!(out, ";{}[{}]", color.letter(), sgf_move(geometry, mv));
        if let Some(p) = review.position(number) {
            out.push_str(&sbkv(p));
        }
        if let Some(r) = reviewed {
            out.push_str(mark_property(r));
            let _ = write!(
                out,
                "C[{}]",
                escape(&move_comment(geometry, r, &review.thresholds))
            );
        }
    }
    while let Some(var) = pending.pop() {
        out.push_str(")\n");
        out.push_str(&var);
    }
    out.push_str(")\n");
    out
}

/// The comment on the whole game: what was reviewed, with which budget, and what the
/// numbers and marks mean.
fn root_comment(review: &Review) -> String {
    let budget = match (review.playouts, review.time) {
        (Some(p), Some(t)) => format!("{p} playouts or {t} s per position"),
        (Some(p), None) => format!("{p} playouts per position"),
        (None, Some(t)) => format!("{t} s per position"),
        (None, None) => "no budget".to_string(),
    };
    let t = &review.thresholds;
    let mut text = format!(
        "Reviewed by hane {}: moves {} to {}, {budget}, seed {}, {} rules, komi {}.\n\
         Win rates (SBKV, comments) and score leads are black's. The loss of a move is \
         hane's best value before it less the value after it, for the player who moved.\n\
         Marks: BM (bad) loses at least {:.0}% win rate or {} points; DO (doubtful) at least \
         {:.0}% or {} points; TE (tesuji) is hane's choice in a close position (win rate \
         within {:.0}% of 50%) where its second choice was at least {:.0}% worse.",
        env!("CARGO_PKG_VERSION"),
        review.from,
        review.to,
        review.seed,
        review.rules.name(),
        review.rules.komi,
        100.0 * t.bad_winrate,
        t.bad_points,
        100.0 * t.doubtful_winrate,
        t.doubtful_points,
        100.0 * t.close,
        100.0 * t.tesuji_margin,
    );
    for note in &review.notes {
        let _ = write!(text, "\nNote: {note}.");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rules;
    use crate::review::{Mark, MoveReview, Thresholds};
    use crate::search::{Analysis, MoveInfo};
    use crate::sgf::{SgfGame, parse_game};
    use std::time::Duration;

    fn g() -> Geometry {
        Geometry::new(9).unwrap()
    }

    fn mv(text: &str) -> Move {
        Move::parse(g(), text).unwrap()
    }

    fn position(index: usize, color: Color, best: Move, winrate: f32) -> PositionReview {
        PositionReview::new(
            index,
            Analysis {
                color,
                playouts: 10,
                elapsed: Duration::ZERO,
                winrate,
                search_winrate: winrate,
                komi_offset: 0.0,
                score_lead: Some(1.0),
                moves: vec![MoveInfo {
                    mv: best,
                    visits: 10,
                    winrate,
                    prior: 0.5,
                    lcb: winrate,
                    pv: vec![best, mv("G7")],
                    pv_visits: vec![10, 4],
                    score_lead: Some(1.0),
                }],
                ownership: Vec::new(),
                reading: Default::default(),
            },
        )
    }

    /// A review of moves 2 and 3 of a three-move game, by hand: white's C7 is hane's
    /// choice, black's G3 loses 20% against D4.
    fn review() -> Review {
        let game = parse_game("(;SZ[9]KM[7.5]PB[a\\]b];B[ee];W[cc];B[gg])").unwrap();
        let t = Thresholds::default();
        let positions = vec![
            position(1, Color::White, mv("C7"), 0.6),
            position(2, Color::Black, mv("D4"), 0.3),
            position(3, Color::White, mv("F6"), 0.9),
        ];
        let moves: Vec<MoveReview> = (2..=3)
            .map(|n| {
                crate::review::review_move(
                    n,
                    game.moves[n - 1],
                    &positions[n - 2],
                    &positions[n - 1],
                    &t,
                )
            })
            .collect();
        Review {
            rules: Rules::default(),
            game,
            notes: vec!["a ] note".into()],
            from: 2,
            to: 3,
            playouts: Some(10),
            time: None,
            seed: 1,
            thresholds: t,
            positions,
            moves,
        }
    }

    #[test]
    fn leads_and_percentages_read_well() {
        assert_eq!(lead_text(Some(2.45)), "B+2.5");
        assert_eq!(lead_text(Some(-0.5)), "W+0.5");
        assert_eq!(lead_text(Some(0.01)), "even");
        assert_eq!(lead_text(None), "unknown");
        assert_eq!(percent(0.5423), "54.2%");
    }

    #[test]
    fn the_annotated_record_keeps_the_game_and_adds_the_review() {
        let review = review();
        assert!(review.moves[0].matched());
        assert_eq!(review.moves[1].best, Some(mv("D4")));
        assert_eq!(review.moves[1].mark, Some(Mark::Bad));
        let text = annotated_sgf(&review);
        let game: SgfGame = parse_game(&text).unwrap();
        assert_eq!(game.moves, review.game.moves, "{text}");
        assert_eq!(game.black_player.as_deref(), Some("a]b"));
        assert_eq!(game.komi, Some(7.5));
        // Positions 1 to 3: the node of move 1 (before the first reviewed move) and the
        // two reviewed moves; one variation: D4 then G7 instead of G3, a sibling of move 3.
        assert_eq!(text.matches("SBKV[").count(), 3, "{text}");
        assert_eq!(text.matches("(;").count(), 3, "{text}");
        let parts = [
            ";B[ee]SBKV[40.00]\n",
            ";W[cc]SBKV[30.00]C[Move 2: White C7",
            ";B[gg]SBKV[10.00]BM[1]C[",
            "\n(;B[gg]",
            ")\n(;B[df]C[hane's choice instead of move 3 (G3): PV D4 G7",
            ";W[gc])",
            "Black's win rate: 30.0% before, 10.0% after",
            "Loss of G3 for Black: 20.0% win rate",
            "Score lead (black's view)",
            "a \\] note",
        ];
        for part in parts {
            assert!(text.contains(part), "{part:?} not in {text}");
        }
    }

    #[test]
    fn the_sgf_parser_reads_every_annotation() {
        let text = annotated_sgf(&review());
        let trees = sgf_parse::go::parse(&text).unwrap();
        let root = &trees[0];
        let mut sbkv = 0;
        let mut nodes = 0;
        for node in root.main_variation() {
            nodes += 1;
            sbkv += usize::from(node.get_property("SBKV").is_some());
            for prop in node.properties() {
                assert!(
                    !matches!(prop, sgf_parse::go::Prop::Invalid(..)),
                    "{prop:?} in {text}"
                );
            }
        }
        assert_eq!((nodes, sbkv), (4, 3));
    }
}
