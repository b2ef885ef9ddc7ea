//! An SVG chart of the first engine's running score rate over the games of a match, with
//! its 95% interval as a band and the 50% line, for people who would rather look than read.

use std::fmt::Write as _;

use super::results::{GameRecord, MatchSettings};
use super::stats::running_rates;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 360.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 44.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart as an SVG document.
pub fn winrate_svg(settings: &MatchSettings, records: &[GameRecord]) -> String {
    let rates = running_rates(records);
    let n = rates.len().max(1) as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |k: usize| LEFT + plot_w * (k as f64 + 1.0) / n;
    let y = |rate: f64| TOP + plot_h * (1.0 - rate);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="20" font-size="14">Score of {} (engine 1) against {} ({} games, 95% interval shaded)</text>"#,
        escape(&settings.names[0]),
        escape(&settings.names[1]),
        rates.len()
    );
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let ty = y(tick);
        let dash = if tick == 0.5 {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#bbb"{dash}/>"##,
            WIDTH - RIGHT
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{:.0}%</text>"#,
            LEFT - 6.0,
            ty + 4.0,
            tick * 100.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="14" y="{:.1}" text-anchor="middle" transform="rotate(-90 14 {:.1})">score of {}</text>"#,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        escape(&settings.names[0])
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">games</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 8.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
        WIDTH - RIGHT,
        HEIGHT - 24.0,
        rates.len()
    );
    if !rates.is_empty() {
        let mut band = String::new();
        for (k, &(_, _, hi)) in rates.iter().enumerate() {
            let _ = write!(band, "{:.1},{:.1} ", x(k), y(hi));
        }
        for (k, &(_, lo, _)) in rates.iter().enumerate().rev() {
            let _ = write!(band, "{:.1},{:.1} ", x(k), y(lo));
        }
        let _ = writeln!(
            svg,
            r##"<polygon points="{}" fill="#9ecae1" fill-opacity="0.6" stroke="none"/>"##,
            band.trim_end()
        );
        let line: Vec<String> = rates
            .iter()
            .enumerate()
            .map(|(k, &(rate, _, _))| format!("{:.1},{:.1}", x(k), y(rate)))
            .collect();
        let _ = writeln!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#08519c" stroke-width="2"/>"##,
            line.join(" ")
        );
    }
    svg.push_str("</svg>\n");
    svg
}
