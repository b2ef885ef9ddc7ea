//! The chart of a review as SVG: black's win rate (0 to 100%, left axis) and score lead
//! (points, right axis, 0 level with 50%) over the move numbers, two lines, with the moves
//! that lost the most circled and labelled with their numbers.

use std::fmt::Write as _;

use super::sgf_out::percent;
use super::{Mark, Review};
use crate::svg::{self, Frame, escape};

/// The chart's size and margins.
const FRAME: Frame = Frame::new(900.0, 440.0, [64.0, 64.0, 64.0, 48.0]);

/// Colours of the two lines.
const WINRATE_COLOR: &str = "#1f4e9c";
const LEAD_COLOR: &str = "#e6550d";
/// Colours of the circled moves: marked bad, and the others.
const BAD_COLOR: &str = "#c00";
const OTHER_LOSS_COLOR: &str = "#7b3294";

/// Moves labelled as the biggest swings, at most.
pub const LABELLED_SWINGS: usize = 6;

/// A swing smaller than this loss of win rate is not labelled.
pub const MIN_SWING: f32 = 0.03;

/// A player's name for the title: `?` when unknown, cut to 32 characters.
fn short_name(name: Option<&str>) -> String {
    let name = name.unwrap_or("?");
    if name.chars().count() > 32 {
        let cut: String = name.chars().take(31).collect();
        format!("{cut}\u{2026}")
    } else {
        name.to_string()
    }
}

/// The span of the lead axis: the smallest of 5, 10, 20, 30, 50, 100, ... points that
/// holds every lead.
fn lead_span(max: f32) -> f64 {
    let mut span = 5.0;
    for s in [5.0, 10.0, 20.0, 30.0, 50.0] {
        span = s;
        if f64::from(max) <= s {
            return s;
        }
    }
    while f64::from(max) > span {
        span *= 2.0;
    }
    span
}

/// The step between labelled move numbers for `moves` moves.
fn move_step(moves: usize) -> usize {
    match moves {
        0..=20 => 2,
        21..=60 => 5,
        61..=150 => 10,
        151..=300 => 25,
        _ => 50,
    }
}

/// The moves that lost the most win rate (at least [`MIN_SWING`]), at most
/// [`LABELLED_SWINGS`], by number; not hane's own choices, whose losses are the searches'
/// noise.
pub fn biggest_swings(review: &Review) -> Vec<usize> {
    let mut moves: Vec<_> = review
        .moves
        .iter()
        .filter(|m| !m.matched() && m.winrate_loss >= MIN_SWING)
        .collect();
    moves.sort_by(|a, b| b.winrate_loss.total_cmp(&a.winrate_loss));
    let mut numbers: Vec<usize> = moves
        .iter()
        .take(LABELLED_SWINGS)
        .map(|m| m.number)
        .collect();
    numbers.sort_unstable();
    numbers
}

/// The chart of `review` as an SVG document.
pub fn review_svg(review: &Review) -> String {
    let first = review.from - 1;
    let span_moves = (review.to - first).max(1) as f64;
    let (left, top, right) = (FRAME.left, FRAME.top, FRAME.width - FRAME.right);
    let plot_w = FRAME.plot_width();
    let plot_h = FRAME.plot_height();
    let x = |index: usize| left + plot_w * (index - first) as f64 / span_moves;
    let y_rate = |rate: f32| top + plot_h * (1.0 - f64::from(rate.clamp(0.0, 1.0)));
    let max_lead = review
        .positions
        .iter()
        .filter_map(|p| p.value.lead)
        .fold(0.0f32, |m, l| m.max(l.abs()));
    let span = lead_span(max_lead);
    let y_lead = |lead: f32| top + plot_h * (0.5 - f64::from(lead) / (2.0 * span));
    let mut svg = String::new();
    svg::open(&mut svg, FRAME.width, FRAME.height);
    let game = &review.game;
    let names = format!(
        "{} (B) vs {} (W)",
        short_name(game.black_player.as_deref()),
        short_name(game.white_player.as_deref())
    );
    let _ = writeln!(
        svg,
        r#"<text x="{left}" y="20" font-size="15">Review: {}, {}x{}, komi {}</text>"#,
        escape(&names),
        game.size,
        game.size,
        review.rules.komi
    );
    // The legend: each mark, its text beside it.
    let legend_y = 40.0;
    let _ = writeln!(
        svg,
        r#"<line x1="{left}" y1="{legend_y}" x2="{:.1}" y2="{legend_y}" stroke="{WINRATE_COLOR}" stroke-width="2.5"/>"#,
        left + 24.0
    );
    let legend = |svg: &mut String, x: f64, text: &str| svg::text(svg, x, legend_y + 4.0, "", text);
    legend(&mut svg, left + 30.0, "black's win rate (left axis)");
    let _ = writeln!(
        svg,
        r#"<line x1="{0:.1}" y1="{legend_y}" x2="{1:.1}" y2="{legend_y}" stroke="{LEAD_COLOR}" stroke-width="2" stroke-dasharray="6 3"/>"#,
        left + 230.0,
        left + 254.0
    );
    legend(
        &mut svg,
        left + 260.0,
        "score lead, black's view (right axis)",
    );
    let _ = writeln!(
        svg,
        r#"<circle cx="{:.1}" cy="{legend_y}" r="4" fill="none" stroke="{BAD_COLOR}" stroke-width="2"/>"#,
        left + 500.0
    );
    legend(
        &mut svg,
        left + 508.0,
        "biggest losses (move numbers; red: bad moves)",
    );
    // The frame, the grid and the axes' labels.
    let _ = writeln!(
        svg,
        r##"<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>"##
    );
    let rate_attributes = format!(r#" fill="{WINRATE_COLOR}""#);
    let lead_attributes = format!(r#" text-anchor="start" fill="{LEAD_COLOR}""#);
    let y_tick = |tick: f64| y_rate(tick as f32);
    svg::percent_grid(
        &mut svg,
        &FRAME,
        y_tick,
        "#ccc",
        &rate_attributes,
        |svg, tick, ty| {
            let lead = span * (tick * 2.0 - 1.0);
            let lead_label = if lead.abs() < 1e-9 {
                "0".to_string()
            } else if lead > 0.0 {
                format!("B+{lead}")
            } else {
                format!("W+{}", -lead)
            };
            svg::text(svg, right + 6.0, ty + 4.0, &lead_attributes, &lead_label);
        },
    );
    let grey = r##" fill="#888""##;
    svg::text(&mut svg, left + 6.0, top + 14.0, grey, "black ahead");
    svg::text(
        &mut svg,
        left + 6.0,
        top + plot_h - 6.0,
        grey,
        "white ahead",
    );
    let step = move_step(review.to - first);
    let middle = r#" text-anchor="middle""#;
    for number in (first..=review.to).filter(|n| n % step == 0) {
        let tx = x(number);
        let _ = writeln!(
            svg,
            r##"<line x1="{tx:.1}" y1="{0:.1}" x2="{tx:.1}" y2="{1:.1}" stroke="#888"/>"##,
            top + plot_h,
            top + plot_h + 4.0
        );
        svg::text(
            &mut svg,
            tx,
            top + plot_h + 17.0,
            middle,
            &number.to_string(),
        );
    }
    svg::text(
        &mut svg,
        left + plot_w / 2.0,
        FRAME.height - 10.0,
        middle,
        "move",
    );
    let _ = writeln!(
        svg,
        r#"<text x="16" y="{0:.1}" text-anchor="middle" fill="{WINRATE_COLOR}" transform="rotate(-90 16 {0:.1})">black's win rate</text>"#,
        top + plot_h / 2.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{0:.1}" y="{1:.1}" text-anchor="middle" fill="{LEAD_COLOR}" transform="rotate(90 {0:.1} {1:.1})">score lead (points)</text>"#,
        FRAME.width - 14.0,
        top + plot_h / 2.0
    );
    // The two lines: the lead first, so that the win rate is drawn over it.
    let leads = review
        .positions
        .iter()
        .filter_map(|p| p.value.lead.map(|l| (x(p.index), y_lead(l))));
    let _ = writeln!(
        svg,
        r#"<polyline class="score-lead" points="{}" fill="none" stroke="{LEAD_COLOR}" stroke-width="2" stroke-dasharray="6 3"/>"#,
        svg::points(leads)
    );
    let rates = review
        .positions
        .iter()
        .map(|p| (x(p.index), y_rate(p.value.winrate)));
    let _ = writeln!(
        svg,
        r#"<polyline class="winrate" points="{}" fill="none" stroke="{WINRATE_COLOR}" stroke-width="2.5"/>"#,
        svg::points(rates)
    );
    // The biggest swings: a circle on the win rate after the move, its number beside it.
    for number in biggest_swings(review) {
        let (Some(m), Some(after)) = (review.move_review(number), review.position(number)) else {
            continue;
        };
        let (cx, cy) = (x(number), y_rate(after.value.winrate));
        let color = match m.mark {
            Some(Mark::Bad) => BAD_COLOR,
            _ => OTHER_LOSS_COLOR,
        };
        // The label away from the line: below a dip (black lost), above a peak (white
        // lost); beside the circle where that leaves the frame.
        let want = match m.color {
            crate::board::Color::Black => cy + 20.0,
            crate::board::Color::White => cy - 10.0,
        };
        let (lx, ly, anchor) = if (top + 14.0..=top + plot_h - 4.0).contains(&want) {
            (cx, want, "middle")
        } else {
            (cx - 9.0, cy + 4.0, "end")
        };
        let _ = writeln!(
            svg,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="5" fill="none" stroke="{color}" stroke-width="2"><title>move {number}: loses {} for {}</title></circle>"#,
            percent(m.winrate_loss),
            super::sgf_out::color_name(m.color)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="{anchor}" font-weight="bold" fill="{color}" stroke="white" stroke-width="3" paint-order="stroke">{number}</text>"#
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_spans_hold_every_lead() {
        let spans = [
            (0.0, 5.0),
            (7.0, 10.0),
            (30.0, 30.0),
            (51.0, 100.0),
            (150.0, 200.0),
        ];
        for (lead, span) in spans {
            assert_eq!(lead_span(lead), span, "{lead}");
        }
    }

    #[test]
    fn the_chart_draws_both_lines_over_the_reviewed_moves() {
        use crate::review::{ReviewOptions, Thresholds, plan};
        let game = crate::sgf::parse_game(
            "(;SZ[7]KM[7.5]PB[<Ann & Co>];B[dd];W[cc];B[ee];W[ce];B[ec];W[cd])",
        )
        .unwrap();
        let mut settings = crate::settings::Settings::default();
        settings.game.playouts = Some(40);
        let options = ReviewOptions {
            settings,
            from: Some(2),
            to: Some(5),
            jobs: 1,
            thresholds: Thresholds::default(),
        };
        let review = plan(game, &options).unwrap().run(&|| {}).unwrap();
        let svg = review_svg(&review);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(
            svg.contains("&lt;Ann &amp; Co&gt; (B) vs ? (W), 7x7"),
            "{svg}"
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        let winrate = svg
            .lines()
            .find(|l| l.contains(r#"class="winrate""#))
            .unwrap();
        // Positions 1 to 5, the first at the left edge.
        assert_eq!(winrate.matches(',').count(), 5, "{winrate}");
        assert!(
            winrate.contains(&format!(r#"points="{:.1},"#, FRAME.left)),
            "{winrate}"
        );
        for number in biggest_swings(&review) {
            assert!((2..=5).contains(&number));
            assert!(svg.contains(&format!(">{number}</text>")), "{svg}");
        }
    }

    #[test]
    fn move_steps_grow_with_the_game() {
        assert_eq!(move_step(10), 2);
        assert_eq!(move_step(60), 5);
        assert_eq!(move_step(250), 25);
    }
}
