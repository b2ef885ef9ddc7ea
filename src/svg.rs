//! The pieces of SVG that the charts share (the match and tuning charts of `arena`, the
//! review chart of `review`): a chart's frame, the document's opening, text elements, the
//! percentage grid and polyline points.

use std::fmt::Write as _;

/// A chart's size and the margins that leave its plot area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub width: f64,
    pub height: f64,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
}

impl Frame {
    /// A `width` by `height` chart with the margins `[left, right, top, bottom]` around its
    /// plot area.
    pub const fn new(width: f64, height: f64, margins: [f64; 4]) -> Frame {
        let [left, right, top, bottom] = margins;
        Frame {
            width,
            height,
            left,
            right,
            top,
            bottom,
        }
    }

    /// The width of the plot area.
    pub fn plot_width(&self) -> f64 {
        self.width - self.left - self.right
    }

    /// The height of the plot area.
    pub fn plot_height(&self) -> f64 {
        self.height - self.top - self.bottom
    }
}

/// Escapes text for XML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Opens a `width` by `height` SVG document on a white background (close it with
/// `</svg>`).
pub fn open(svg: &mut String, width: f64, height: f64) {
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"#
    );
}

/// A text element at (`x`, `y`), with further `attributes` (each after a space, or empty),
/// holding `content` (escaped already).
pub fn text(svg: &mut String, x: f64, y: f64, attributes: &str, content: &str) {
    let _ = writeln!(
        svg,
        r#"<text x="{x:.1}" y="{y:.1}"{attributes}>{content}</text>"#
    );
}

/// The grid of a percentage axis across the plot area of `frame`: a line at 0, 25, 50
/// (dashed), 75 and 100% in the colour `grid`, each labelled left of the plot with the text
/// `attributes` given; `y` places a rate in [0, 1]; `beside` may add to each tick, given its
/// rate and its height.
pub fn percent_grid(
    svg: &mut String,
    frame: &Frame,
    y: impl Fn(f64) -> f64,
    grid: &str,
    attributes: &str,
    mut beside: impl FnMut(&mut String, f64, f64),
) {
    let (left, right) = (frame.left, frame.width - frame.right);
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let ty = y(tick);
        let dash = if tick == 0.5 {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{left}" y1="{ty:.1}" x2="{right:.1}" y2="{ty:.1}" stroke="{grid}"{dash}/>"#
        );
        let label = format!("{:.0}%", tick * 100.0);
        let anchored = format!(r#" text-anchor="end"{attributes}"#);
        text(svg, left - 6.0, ty + 4.0, &anchored, &label);
        beside(svg, tick, ty);
    }
}

/// The `points` attribute of a polyline through `points`.
pub fn points(points: impl IntoIterator<Item = (f64, f64)>) -> String {
    let points: Vec<String> = points
        .into_iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect();
    points.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_labels_each_tick_and_dashes_the_middle() {
        let frame = Frame::new(200.0, 100.0, [20.0, 10.0, 10.0, 10.0]);
        assert_eq!((frame.plot_width(), frame.plot_height()), (170.0, 80.0));
        let mut svg = String::new();
        let mut seen = Vec::new();
        let y = |rate: f64| 10.0 + 80.0 * (1.0 - rate);
        percent_grid(&mut svg, &frame, y, "#ccc", "", |_, tick, ty| {
            seen.push((tick, ty))
        });
        assert_eq!(seen.len(), 5);
        assert_eq!(seen[0], (0.0, 90.0));
        assert_eq!(svg.matches("<line").count(), 5);
        assert_eq!(svg.matches("stroke-dasharray").count(), 1);
        assert!(svg.contains(r#"<text x="14.0" y="54.0" text-anchor="end">50%</text>"#));
        assert_eq!(points([(1.0, 2.0), (3.0, 4.04)]), "1.0,2.0 3.0,4.0");
        assert_eq!(escape(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
