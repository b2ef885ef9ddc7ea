//! SVG charts, for people who would rather look than read: the first engine's running
//! score rate over the games of a match, with its 95% interval as a band and the 50% line;
//! and the path of each parameter of a tuning run over its iterations.

use std::fmt::Write as _;

use super::results::{GameRecord, MatchSettings};
use super::spsa::{Param, State};
use super::stats::running_rates;
use crate::svg::{self, Frame, escape};

/// The chart's size and margins.
const FRAME: Frame = Frame::new(720.0, 360.0, [56.0, 16.0, 36.0, 44.0]);

/// The running match score chart as an SVG document.
pub fn score_svg(settings: &MatchSettings, records: &[GameRecord]) -> String {
    let rates = running_rates(records);
    let n = rates.len().max(1) as f64;
    let (left, top) = (FRAME.left, FRAME.top);
    let plot_w = FRAME.plot_width();
    let plot_h = FRAME.plot_height();
    let x = |k: usize| left + plot_w * (k as f64 + 1.0) / n;
    let y = |rate: f64| top + plot_h * (1.0 - rate);
    let mut svg = String::new();
    svg::open(&mut svg, FRAME.width, FRAME.height);
    let _ = writeln!(
        svg,
        r#"<text x="{left}" y="20" font-size="14">Score of {} (engine 1) against {} ({} games, 95% interval shaded)</text>"#,
        escape(&settings.names[0]),
        escape(&settings.names[1]),
        rates.len()
    );
    svg::percent_grid(&mut svg, &FRAME, y, "#bbb", "", |_, _, _| {});
    let _ = writeln!(
        svg,
        r#"<text x="14" y="{0:.1}" text-anchor="middle" transform="rotate(-90 14 {0:.1})">score of {1}</text>"#,
        top + plot_h / 2.0,
        escape(&settings.names[0])
    );
    let middle = r#" text-anchor="middle""#;
    svg::text(
        &mut svg,
        left + plot_w / 2.0,
        FRAME.height - 8.0,
        middle,
        "games",
    );
    let games = rates.len().to_string();
    let (right, bottom) = (FRAME.width - FRAME.right, FRAME.height - 24.0);
    svg::text(&mut svg, right, bottom, r#" text-anchor="end""#, &games);
    if !rates.is_empty() {
        let his = rates.iter().enumerate().map(|(k, r)| (x(k), y(r.2)));
        let los = rates.iter().enumerate().rev().map(|(k, r)| (x(k), y(r.1)));
        let _ = writeln!(
            svg,
            r##"<polygon points="{}" fill="#9ecae1" fill-opacity="0.6" stroke="none"/>"##,
            svg::points(his.chain(los))
        );
        let line = rates.iter().enumerate().map(|(k, r)| (x(k), y(r.0)));
        let _ = writeln!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#08519c" stroke-width="2"/>"##,
            svg::points(line)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Height of one parameter's panel in the tuning chart.
const PANEL: f64 = 150.0;
const PANEL_GAP: f64 = 34.0;

/// The path of each tuned parameter over the iterations (theta after each, the start at
/// 0), one panel per parameter spanning its tuning range, with the start value dashed and
/// the tuned value (the mean over the last `average` share of the iterations,
/// [`State::tuned`]) drawn over the iterations it averages.
pub fn parameter_paths_svg(params: &[Param], state: &State, average: f64) -> String {
    let tuned = state.tuned(average);
    let averaged = state.averaged_iterations(average);
    let iterations = state.history.len();
    let left = FRAME.left;
    // Below the title, with room for the first panel's label.
    let first = FRAME.top + 20.0;
    let height = first + params.len() as f64 * (PANEL + PANEL_GAP) + FRAME.bottom - PANEL_GAP;
    let plot_w = FRAME.plot_width();
    let x = |k: usize| left + plot_w * k as f64 / iterations.max(1) as f64;
    let mut svg = String::new();
    svg::open(&mut svg, FRAME.width, height);
    let _ = writeln!(
        svg,
        r#"<text x="{left}" y="20" font-size="14">SPSA: each parameter after {iterations} iterations (start dashed, tuned value orange)</text>"#
    );
    for (i, param) in params.iter().enumerate() {
        let top = first + i as f64 * (PANEL + PANEL_GAP);
        let span = (param.max - param.min).max(f64::MIN_POSITIVE);
        let y = |v: f64| top + PANEL * (1.0 - (param.clamp(v) - param.min) / span);
        let path: Vec<f64> = state
            .history
            .first()
            .map(|s| s.theta[i])
            .into_iter()
            .chain(state.history.iter().map(|s| s.next[i]))
            .collect();
        let start = path.first().copied().unwrap_or(state.theta[i]);
        let _ = writeln!(
            svg,
            r##"<rect x="{left}" y="{top:.1}" width="{plot_w:.1}" height="{PANEL}" fill="none" stroke="#bbb"/>"##
        );
        let _ = writeln!(
            svg,
            r#"<text x="{left}" y="{:.1}">{} (range {} to {}, step {}): now {}, tuned {}</text>"#,
            top - 6.0,
            escape(&param.key),
            param.min,
            param.max,
            param.step,
            param.text(state.theta[i]),
            param.text(tuned[i])
        );
        for (value, shift) in [(param.max, 10.0), (param.min, 0.0)] {
            let label = value.to_string();
            let end = r#" text-anchor="end""#;
            svg::text(&mut svg, left - 6.0, y(value) + shift, end, &label);
        }
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="#888" stroke-dasharray="4 3"/>"##,
            y(start),
            FRAME.width - FRAME.right
        );
        if path.len() > 1 {
            let points = path.iter().enumerate().map(|(k, &v)| (x(k), y(v)));
            let _ = writeln!(
                svg,
                r##"<polyline points="{}" fill="none" stroke="#08519c" stroke-width="1.5"/>"##,
                svg::points(points)
            );
        }
        if averaged > 0 {
            let _ = writeln!(
                svg,
                r##"<line x1="{:.1}" y1="{2:.1}" x2="{1:.1}" y2="{2:.1}" stroke="#e6550d" stroke-width="2.5"/>"##,
                x(iterations - averaged),
                x(iterations),
                y(tuned[i])
            );
        }
    }
    let middle = r#" text-anchor="middle""#;
    svg::text(
        &mut svg,
        left + plot_w / 2.0,
        height - 8.0,
        middle,
        "iterations",
    );
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::spsa::{Gains, Spsa, parse_params};

    #[test]
    fn the_tuning_chart_has_a_panel_and_a_path_per_parameter() {
        let spsa = Spsa {
            params: parse_params(Some("exploration,rave")).unwrap(),
            gains: Gains::new(10, None, None, None).unwrap(),
            seed: 3,
        };
        let mut state = State::new(vec![0.2, 3000.0]);
        let empty = parameter_paths_svg(&spsa.params, &state, 0.5);
        assert!(empty.contains("after 0 iterations") && !empty.contains("polyline"));
        assert!(!empty.contains("#e6550d"));
        for k in 0..5 {
            spsa.update(&mut state, if k % 2 == 0 { 1.0 } else { 0.25 }, 2);
        }
        let svg = parameter_paths_svg(&spsa.params, &state, 0.5);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        // The tuned value of each parameter, over the last 3 of the 5 iterations.
        let tuned = state.tuned(0.5);
        assert_eq!(svg.matches(r##"stroke="#e6550d""##).count(), 2);
        assert!(svg.contains(&format!(
            "now {}, tuned {}",
            spsa.params[0].text(state.theta[0]),
            spsa.params[0].text(tuned[0])
        )));
        assert!(!parameter_paths_svg(&spsa.params, &state, 0.0).contains("#e6550d"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("exploration (range 0 to 1, step 0.05)"));
        assert!(svg.contains("rave (range 100 to 20000, step 500)"));
        // Six points per path: the start and five iterations.
        let line = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
        assert_eq!(line.matches(',').count(), 6);
    }
}
