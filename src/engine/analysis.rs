//! Analysis output: the `info move ... pv ...` lines of `lz-analyze` / `kata-analyze` and
//! their genmove variants (as Sabaki and Lizzie read them), and the GoGui analyze-command
//! replies (`dboard` boards, `gfx` heat maps, `var` variations).

use std::fmt::Write as _;

use crate::board::{Color, Geometry, Move};
use crate::search::Analysis;
use crate::search::avoid::AvoidMoves;

/// Which dialect of the `info` line to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `lz-analyze`: winrate, prior and lcb as integers, 10000 times the fraction.
    Leela,
    /// `kata-analyze`: fractions in [0, 1].
    Kata,
}

/// The options after an analyze command's colour and interval.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeRequest {
    /// The side to analyse for (the side to move when not given).
    pub color: Option<Color>,
    /// Report interval in centiseconds (0: only when the stream ends).
    pub interval_cs: u64,
    /// Report at most this many candidates (0: all).
    pub max_moves: usize,
    /// Append `ownership` to every report (`kata-analyze ... ownership true`).
    pub ownership: bool,
    /// Follow every candidate's `pv` with `pvVisits`, the visits of each of its moves
    /// (`kata-analyze ... pvVisits true`).
    pub pv_visits: bool,
    /// Append `rootInfo` (the search's visits, win rate and score) after the candidates
    /// (`kata-analyze ... rootInfo true`).
    pub root_info: bool,
    /// Moves the search leaves out (`avoid` / `allow`).
    pub avoid: AvoidMoves,
}

/// Parses `[color] [interval] [key value ...]` as Leela Zero and KataGo accept it:
/// `interval N`, `maxmoves N`, `minmoves N` (accepted, no effect: every move with visits is
/// reported), `ownership`, `pvVisits` and `rootInfo` `true|false` (kata only), any number
/// of `avoid C V,V,... N` (the search leaves out colour C's moves V for the first N plies
/// from the root, the root's own move being ply 1) and one `allow C V,V,... N` per colour
/// (it leaves out every other move of C's but pass; with `avoid` clauses too, both bar),
/// vertices of a board of `geometry`. Anything else is a syntax error.
pub fn parse_analyze_args(
    args: &[&str],
    dialect: Dialect,
    geometry: Geometry,
) -> Option<AnalyzeRequest> {
    let mut request = AnalyzeRequest {
        color: None,
        interval_cs: 100,
        max_moves: 0,
        ownership: false,
        pv_visits: false,
        root_info: false,
        avoid: AvoidMoves::new(),
    };
    let mut allowed = [false; 2];
    let mut rest = args;
    if let Some((first, tail)) = rest.split_first()
        && let Some(color) = Color::parse(first)
    {
        request.color = Some(color);
        rest = tail;
    }
    if let Some((first, tail)) = rest.split_first()
        && let Some(n) = super::parse::parse_count(first)
    {
        request.interval_cs = n as u64;
        rest = tail;
    }
    while let Some((key, tail)) = rest.split_first() {
        let key = key.to_ascii_lowercase();
        if key == "avoid" || key == "allow" {
            let [color, vertices, plies, tail @ ..] = tail else {
                return None;
            };
            let color = Color::parse(color)?;
            let plies = super::parse::parse_count(plies)?;
            let moves = vertices
                .split(',')
                .map(|v| super::parse::parse_move(geometry, v))
                .collect::<Option<Vec<Move>>>()?;
            if key == "avoid" {
                for mv in moves {
                    request.avoid.avoid(color, mv, plies);
                }
            } else {
                // A second list would leave only the moves both name: refused, as KataGo
                // takes one `allow`.
                if std::mem::replace(&mut allowed[color.index()], true) {
                    return None;
                }
                request.avoid.allow_only(geometry, color, &moves, plies);
            }
            rest = tail;
            continue;
        }
        let (value, tail) = tail.split_first()?;
        match key.as_str() {
            "interval" => request.interval_cs = super::parse::parse_count(value)? as u64,
            "maxmoves" => request.max_moves = super::parse::parse_count(value)? as usize,
            "minmoves" => {
                super::parse::parse_count(value)?;
            }
            "ownership" | "pvvisits" | "rootinfo" if dialect == Dialect::Kata => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return None,
                };
                match key.as_str() {
                    "ownership" => request.ownership = on,
                    "pvvisits" => request.pv_visits = on,
                    _ => request.root_info = on,
                }
            }
            _ => return None,
        }
        rest = tail;
    }
    Some(request)
}

fn fraction(value: f32, dialect: Dialect) -> String {
    match dialect {
        Dialect::Leela => format!("{}", (value.clamp(0.0, 1.0) * 10000.0).round() as i64),
        Dialect::Kata => format!("{:.6}", value.clamp(0.0, 1.0)),
    }
}

/// One report: every candidate (at most `maxmoves`) as `info move V visits N winrate W
/// prior P lcb L order K pv ...` on a single line (best first), with `scoreMean S scoreLead
/// S` after the winrate in the Kata dialect (the candidate's mean final score in the
/// playouts, as the analysed side's lead), then `ownership` values when asked for. Empty
/// when the search has no candidate yet.
pub fn info_line(
    analysis: &Analysis,
    geometry: Geometry,
    dialect: Dialect,
    request: &AnalyzeRequest,
) -> String {
    let mut line = String::new();
    let limit = if request.max_moves == 0 {
        usize::MAX
    } else {
        request.max_moves
    };
    for (order, info) in analysis
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .take(limit)
        .enumerate()
    {
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = write!(
            line,
            "info move {} visits {} winrate {}",
            info.mv.to_gtp(geometry),
            info.visits,
            fraction(info.winrate, dialect),
        );
        if dialect == Dialect::Kata
            && let Some(score) = info.score_lead.or(analysis.score_lead)
        {
            // hane's one score estimate, the playouts' mean final score, stands for both
            // of KataGo's.
            let _ = write!(line, " scoreMean {score:.2} scoreLead {score:.2}");
        }
        let _ = write!(
            line,
            " prior {} lcb {} order {order} pv",
            fraction(info.prior, dialect),
            fraction(info.lcb, dialect),
        );
        let pv: &[Move] = if info.pv.is_empty() {
            std::slice::from_ref(&info.mv)
        } else {
            &info.pv
        };
        for mv in pv {
            let _ = write!(line, " {}", mv.to_gtp(geometry));
        }
        if request.pv_visits {
            line.push_str(" pvVisits");
            for i in 0..pv.len() {
                let visits =
                    info.pv_visits
                        .get(i)
                        .copied()
                        .unwrap_or(if i == 0 { info.visits } else { 0 });
                let _ = write!(line, " {visits}");
            }
        }
    }
    if request.root_info && !line.is_empty() {
        // The root: every candidate's visits (not only the reported ones), the best
        // move's win rate and the search's score.
        let visits: u64 = analysis.moves.iter().map(|m| m.visits).sum();
        let _ = write!(
            line,
            " rootInfo visits {visits} winrate {}",
            fraction(analysis.winrate, dialect)
        );
        if let Some(score) = analysis.score_lead {
            let _ = write!(line, " scoreMean {score:.2} scoreLead {score:.2}");
        }
    }
    if request.ownership && !line.is_empty() {
        line.push_str(" ownership");
        // Row-major from the top-left corner, from the analysed side's point of view.
        let sign = if analysis.color == Color::Black {
            1.0
        } else {
            -1.0
        };
        for value in top_down_values(&analysis.ownership, geometry) {
            let _ = write!(line, " {:.4}", sign * value);
        }
    }
    line
}

/// Values given in `Geometry::points()` order (bottom row first) rearranged top row first,
/// row-major from the top-left corner (A19 on 19x19): the order of the analysis commands'
/// ownership and of KataGo's JSON protocol.
pub fn top_down_values(values: &[f32], geometry: Geometry) -> Vec<f32> {
    let size = geometry.size();
    let mut out = Vec::with_capacity(size * size);
    for row in (0..size).rev() {
        for col in 0..size {
            out.push(values.get(row * size + col).copied().unwrap_or(0.0));
        }
    }
    out
}

/// A GoGui `dboard`: a leading line break, then one line per row, top row first.
pub fn dboard(values_bottom_first: &[f32], geometry: Geometry) -> String {
    let size = geometry.size();
    let values = top_down_values(values_bottom_first, geometry);
    let mut out = String::from("\n");
    for row in values.chunks(size) {
        let cells: Vec<String> = row.iter().map(|v| format!("{:.2}", v)).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// A GoGui `gfx` heat map: influence by share of visits, labels with winrate percentages
/// for the most visited moves, and the best move marked.
pub fn gfx_heat_map(analysis: &Analysis, geometry: Geometry) -> String {
    let total: u64 = analysis.moves.iter().map(|m| m.visits).sum();
    let max = analysis.moves.iter().map(|m| m.visits).max().unwrap_or(0);
    let mut influence = String::new();
    let mut labels = String::new();
    let sign = if analysis.color == Color::Black {
        1.0
    } else {
        -1.0
    };
    for info in analysis.moves.iter().filter(|m| m.visits > 0) {
        let Move::Play(p) = info.mv else { continue };
        let vertex = geometry.format_point(p);
        let strength = info.visits as f32 / max.max(1) as f32;
        let _ = write!(influence, " {vertex} {:.2}", sign * strength);
        if info.visits * 20 >= max {
            let _ = write!(labels, " {vertex} {:.0}", info.winrate * 100.0);
        }
    }
    let mut out = String::new();
    if !influence.is_empty() {
        let _ = writeln!(out, "INFLUENCE{influence}");
    }
    if !labels.is_empty() {
        let _ = writeln!(out, "LABEL{labels}");
    }
    if let Some(best) = analysis.moves.first()
        && let Move::Play(p) = best.mv
    {
        let _ = writeln!(out, "CIRCLE {}", geometry.format_point(p));
    }
    let _ = write!(
        out,
        "TEXT {} to move: winrate {:.1}%, {} playouts",
        analysis.color,
        analysis.winrate * 100.0,
        total.max(analysis.playouts)
    );
    out
}

/// A GoGui `dboard` of each candidate's winrate, 0 where no candidate was searched; values
/// from black's point of view scaled to [-1, 1] (+1: black surely wins).
pub fn winrate_board(analysis: &Analysis, geometry: Geometry) -> String {
    let size = geometry.size();
    let mut values = vec![0.0f32; size * size];
    for info in analysis.moves.iter().filter(|m| m.visits > 0) {
        if let Move::Play(p) = info.mv {
            let (col, row) = geometry.coords(p);
            let black_winrate = if analysis.color == Color::Black {
                info.winrate
            } else {
                1.0 - info.winrate
            };
            values[row * size + col] = 2.0 * black_winrate - 1.0;
        }
    }
    dboard(&values, geometry)
}

/// The principal variation as GoGui's `var` type wants it: vertices, alternating colours
/// from the analysed side.
pub fn principal_variation(analysis: &Analysis, geometry: Geometry) -> String {
    analysis.moves.first().map_or_else(String::new, |best| {
        let pv: &[Move] = if best.pv.is_empty() {
            std::slice::from_ref(&best.mv)
        } else {
            &best.pv
        };
        pv.iter()
            .map(|m| m.to_gtp(geometry))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MoveInfo;

    #[test]
    fn analyze_arguments() {
        let g = Geometry::new(19).unwrap();
        let parse = |args: &[&str], dialect| parse_analyze_args(args, dialect, g);
        let r = parse(&["B", "50"], Dialect::Leela).unwrap();
        assert_eq!(r.color, Some(Color::Black));
        assert_eq!(r.interval_cs, 50);
        assert!(r.avoid.is_empty());
        let r = parse(&["interval", "20", "maxmoves", "3"], Dialect::Kata).unwrap();
        assert_eq!((r.color, r.interval_cs, r.max_moves), (None, 20, 3));
        let r = parse(&["w", "10", "ownership", "true"], Dialect::Kata).unwrap();
        assert!(r.ownership);
        assert!(parse(&["b", "10", "ownership", "true"], Dialect::Leela).is_none());
        let r = parse(
            &["b", "10", "pvVisits", "true", "rootInfo", "TRUE"],
            Dialect::Kata,
        )
        .unwrap();
        assert!(r.pv_visits && r.root_info && !r.ownership);
        let r = parse(&["b", "pvVisits", "false"], Dialect::Kata).unwrap();
        assert!(!r.pv_visits);
        assert!(parse(&["b", "10", "pvVisits", "true"], Dialect::Leela).is_none());
        assert!(parse(&["b", "10", "rootInfo", "yes"], Dialect::Kata).is_none());
        assert!(parse(&["b", "10", "interval"], Dialect::Leela).is_none());
        assert!(parse(&["b", "x"], Dialect::Leela).is_none());
    }

    #[test]
    fn avoid_and_allow_arguments() {
        let g = Geometry::new(19).unwrap();
        let mv = |text| Move::parse(g, text).unwrap();
        let args = [
            "b",
            "50",
            "avoid",
            "b",
            "q16,D4,pass",
            "1",
            "avoid",
            "w",
            "q4",
            "3",
            "interval",
            "20",
        ];
        let r = parse_analyze_args(&args, Dialect::Leela, g).unwrap();
        assert_eq!((r.color, r.interval_cs), (Some(Color::Black), 20));
        assert!(r.avoid.bars(Color::Black, mv("Q16"), 1));
        assert!(r.avoid.bars(Color::Black, mv("D4"), 1));
        assert!(r.avoid.bars(Color::Black, Move::Pass, 1));
        assert!(!r.avoid.bars(Color::Black, mv("Q16"), 2));
        assert!(r.avoid.bars(Color::White, mv("Q4"), 3));
        assert!(!r.avoid.bars(Color::White, mv("Q16"), 1));
        let r = parse_analyze_args(&["w", "allow", "w", "c3,r17", "2"], Dialect::Kata, g).unwrap();
        assert!(!r.avoid.bars(Color::White, mv("C3"), 1));
        assert!(!r.avoid.bars(Color::White, mv("R17"), 2));
        assert!(r.avoid.bars(Color::White, mv("K10"), 2));
        assert!(!r.avoid.bars(Color::White, mv("K10"), 3));
        assert!(!r.avoid.bars(Color::White, Move::Pass, 1));
        let both = ["b", "allow", "b", "d4", "1", "allow", "w", "q16", "1"];
        let r = parse_analyze_args(&both, Dialect::Kata, g).unwrap();
        assert!(
            !r.avoid.bars(Color::Black, mv("D4"), 1) && r.avoid.bars(Color::Black, mv("Q16"), 1)
        );
        assert!(
            !r.avoid.bars(Color::White, mv("Q16"), 1) && r.avoid.bars(Color::White, mv("D4"), 1)
        );
        // Missing fields, a bad colour, count or vertex, a point off the board.
        for bad in [
            &["b", "avoid", "b", "q16"][..],
            &["b", "avoid", "x", "q16", "1"],
            &["b", "avoid", "b", "q16", "one"],
            &["b", "avoid", "b", "q16,,d4", "1"],
            &["b", "allow", "b", "z99", "1"],
            &["b", "avoid", "b", "T20", "1"],
            // One allow per colour.
            &["b", "allow", "b", "d4", "1", "allow", "b", "q16", "1"],
        ] {
            assert!(
                parse_analyze_args(bad, Dialect::Kata, g).is_none(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn pv_visits_follow_the_pv_and_root_info_the_candidates() {
        let g = Geometry::new(9).unwrap();
        let mv = |text: &str| Move::parse(g, text).unwrap();
        let info = |first: &str, visits: u64, pv: &[&str], pv_visits: &[u64]| MoveInfo {
            mv: mv(first),
            visits,
            winrate: 0.5,
            prior: 0.25,
            lcb: 0.4,
            pv: pv.iter().map(|v| mv(v)).collect(),
            pv_visits: pv_visits.to_vec(),
            score_lead: None,
        };
        let analysis = Analysis {
            moves: vec![
                info("E5", 30, &["E5", "C3", "G7"], &[30, 12, 5]),
                info("D4", 10, &["D4"], &[10]),
            ],
            color: Color::Black,
            playouts: 40,
            elapsed: std::time::Duration::ZERO,
            winrate: 0.625,
            search_winrate: 0.625,
            komi_offset: 0.0,
            score_lead: Some(3.5),
            ownership: vec![0.0; 81],
            reading: Default::default(),
        };
        let args = ["b", "maxmoves", "1", "pvVisits", "true", "rootInfo", "true"];
        let request = parse_analyze_args(&args, Dialect::Kata, g).unwrap();
        let line = info_line(&analysis, g, Dialect::Kata, &request);
        assert!(
            line.ends_with(
                "order 0 pv E5 C3 G7 pvVisits 30 12 5 rootInfo visits 40 winrate 0.625000 \
                 scoreMean 3.50 scoreLead 3.50"
            ),
            "{line}"
        );
        let plain = parse_analyze_args(&["b"], Dialect::Kata, g).unwrap();
        let line = info_line(&analysis, g, Dialect::Kata, &plain);
        assert!(
            !line.contains("pvVisits") && !line.contains("rootInfo"),
            "{line}"
        );
    }
}
