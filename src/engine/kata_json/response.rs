//! Writing KataGo's analysis responses: one JSON object per line for an analysed turn
//! ([`analysis_response`]), a terminated turn without results ([`no_results`]), errors and
//! warnings ([`error`], [`warning`]) and the answers to actions ([`version`]). Values come
//! from hane's [`Analysis`] and are turned to the requested [`Perspective`] here.
//!
//! What hane fills, and how:
//! * `winrate`, `lcb`: the search's win rate of the move (and its 95% lower bound), turned
//!   to the perspective (a lower bound stays a lower bound: for the other side it is the
//!   mirrored upper bound).
//! * `scoreLead`, `scoreMean`: both the mean final area score of this search's playouts
//!   through the move, as a lead; hane has no separate "lead" estimate.
//! * `prior`: the share of the move's prior among the root's moves. hane has no policy
//!   network: a prior is a number of virtual playouts with a virtual win rate from learned
//!   move patterns, tactics and reading; `prior` is that virtual win rate divided by the
//!   sum of it over every root move, so the priors sum to 1.
//! * `policy`: the same share from the pattern (or heuristic) priors alone, over every
//!   legal move, -1 for illegal points, pass last.
//! * `ownership`: the share of the playouts' final positions in which each point was
//!   black's less white's, turned to the perspective.
//! * Not filled: `scoreStdev`, `scoreSelfplay`, `utility`, `utilityLcb`, `thisHash`,
//!   `symHash`, per-move `ownership`.

use serde_json::{Map, Value, json};

use super::query::{Perspective, QueryError, Warning};
use crate::board::{Color, Geometry, Move};
use crate::search::Analysis;

/// Values in `Geometry::points()` order, top row first (KataGo's order).
pub use crate::engine::analysis::top_down_values as top_down;

/// A float rounded to 6 decimals (f32 values printed through f64 would show noise digits).
fn num(x: f32) -> Value {
    let x = f64::from(x);
    if x.is_finite() {
        json!((x * 1e6).round() / 1e6)
    } else {
        Value::Null
    }
}

/// What a response includes besides the candidates.
#[derive(Clone, Copy, Debug)]
pub struct Include {
    pub ownership: bool,
    pub pv_visits: bool,
    /// Moves after the first of each principal variation (none: all).
    pub pv_len: Option<usize>,
    pub perspective: Perspective,
}

/// The response for `turn` of query `id` from `analysis` (`during`: a partial report);
/// `policy`, when asked for, is already in KataGo's order (see [`super::policy_values`]).
pub fn analysis_response(
    id: &str,
    turn: usize,
    during: bool,
    analysis: &Analysis,
    geometry: Geometry,
    include: Include,
    policy: Option<&[f32]>,
) -> Value {
    let view = include.perspective.color(analysis.color);
    let flip = view != analysis.color;
    let winrate = |w: f32| if flip { 1.0 - w } else { w };
    let lcb = |w: f32, lcb: f32| {
        if flip {
            (1.0 - w - (w - lcb)).clamp(0.0, 1.0)
        } else {
            lcb
        }
    };
    let score = |s: f32| if flip { -s } else { s };
    let mut infos = Vec::new();
    for (order, info) in analysis.moves.iter().filter(|m| m.visits > 0).enumerate() {
        let pv: &[Move] = if info.pv.is_empty() {
            std::slice::from_ref(&info.mv)
        } else {
            &info.pv
        };
        let len = include.pv_len.map_or(pv.len(), |n| pv.len().min(n + 1));
        let mut m = Map::new();
        m.insert("move".into(), json!(info.mv.to_gtp(geometry)));
        m.insert("visits".into(), json!(info.visits));
        m.insert("winrate".into(), num(winrate(info.winrate)));
        m.insert("lcb".into(), num(lcb(info.winrate, info.lcb)));
        m.insert("prior".into(), num(info.prior));
        m.insert("order".into(), json!(order));
        m.insert(
            "pv".into(),
            json!(
                pv[..len]
                    .iter()
                    .map(|mv| mv.to_gtp(geometry))
                    .collect::<Vec<_>>()
            ),
        );
        if include.pv_visits {
            let visits: Vec<u64> = (0..len)
                .map(|i| {
                    info.pv_visits
                        .get(i)
                        .copied()
                        .unwrap_or(if i == 0 { info.visits } else { 0 })
                })
                .collect();
            m.insert("pvVisits".into(), json!(visits));
        }
        // A move searched only in an earlier search (a kept tree) has no score of its
        // own in this one: the root's stands for it.
        if let Some(lead) = info.score_lead.or(analysis.score_lead) {
            m.insert("scoreLead".into(), num(score(lead)));
            m.insert("scoreMean".into(), num(score(lead)));
        }
        infos.push(Value::Object(m));
    }
    let visits: u64 = analysis.moves.iter().map(|m| m.visits).sum();
    let mut root = Map::new();
    root.insert("visits".into(), json!(visits));
    root.insert("winrate".into(), num(winrate(analysis.winrate)));
    if let Some(lead) = analysis.score_lead {
        root.insert("scoreLead".into(), num(score(lead)));
        root.insert("scoreMean".into(), num(score(lead)));
    }
    root.insert(
        "currentPlayer".into(),
        json!(analysis.color.letter().to_string()),
    );
    let mut out = Map::new();
    out.insert("id".into(), json!(id));
    out.insert("turnNumber".into(), json!(turn));
    out.insert("isDuringSearch".into(), json!(during));
    out.insert("moveInfos".into(), Value::Array(infos));
    out.insert("rootInfo".into(), Value::Object(root));
    if include.ownership {
        let sign = if view == Color::Black { 1.0 } else { -1.0 };
        let values: Vec<Value> = top_down(&analysis.ownership, geometry)
            .into_iter()
            .map(|v| num((sign * v).clamp(-1.0, 1.0)))
            .collect();
        out.insert("ownership".into(), Value::Array(values));
    }
    if let Some(policy) = policy {
        out.insert(
            "policy".into(),
            Value::Array(policy.iter().map(|&p| num(p)).collect()),
        );
    }
    Value::Object(out)
}

/// The response for a turn terminated before any result.
pub fn no_results(id: &str, turn: usize) -> Value {
    json!({"id": id, "turnNumber": turn, "isDuringSearch": false, "noResults": true})
}

/// KataGo's error object.
pub fn error(e: &QueryError) -> Value {
    let mut out = Map::new();
    out.insert("error".into(), json!(e.message));
    if let Some(field) = &e.field {
        out.insert("field".into(), json!(field));
    }
    if let Some(id) = &e.id {
        out.insert("id".into(), json!(id));
    }
    Value::Object(out)
}

/// KataGo's warning object.
pub fn warning(id: &str, w: &Warning) -> Value {
    json!({"id": id, "warning": w.message, "field": w.field})
}

/// The answer to `query_version`: the query with hane's version added. hane is not KataGo:
/// `version` is hane's own, and `name` and `note` say so.
pub fn version(mut echo: Map<String, Value>) -> Value {
    echo.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    echo.insert("git_hash".into(), json!("<omitted>"));
    echo.insert("name".into(), json!("hane"));
    echo.insert(
        "note".into(),
        json!(
            "hane is not KataGo: a Monte-Carlo tree search engine without neural networks \
               speaking KataGo's analysis protocol"
        ),
    );
    Value::Object(echo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MoveInfo;

    fn analysis(color: Color) -> (Analysis, Geometry) {
        let g = Geometry::new(3).unwrap();
        let mv = |t: &str| Move::parse(g, t).unwrap();
        let info = MoveInfo {
            mv: mv("B2"),
            visits: 10,
            winrate: 0.8,
            prior: 0.5,
            lcb: 0.7,
            pv: vec![mv("B2"), mv("A1"), mv("C3")],
            pv_visits: vec![10, 4, 2],
            score_lead: Some(3.0),
        };
        let mut ownership = vec![0.0; 9];
        ownership[0] = 1.0; // A1: black's
        ownership[8] = -0.5; // C3
        (
            Analysis {
                color,
                playouts: 12,
                elapsed: std::time::Duration::ZERO,
                winrate: 0.8,
                search_winrate: 0.8,
                komi_offset: 0.0,
                score_lead: Some(2.5),
                moves: vec![info],
                ownership,
                reading: Default::default(),
            },
            g,
        )
    }

    #[test]
    fn perspective_turns_winrate_score_and_ownership() {
        let (a, g) = analysis(Color::White);
        let include = |perspective| Include {
            ownership: true,
            pv_visits: true,
            pv_len: Some(1),
            perspective,
        };
        let own = analysis_response("x", 3, false, &a, g, include(Perspective::SideToMove), None);
        assert_eq!(own["moveInfos"][0]["winrate"], json!(0.8));
        assert_eq!(own["moveInfos"][0]["scoreLead"], json!(3.0));
        assert_eq!(own["moveInfos"][0]["pv"], json!(["B2", "A1"]));
        assert_eq!(own["moveInfos"][0]["pvVisits"], json!([10, 4]));
        assert_eq!(own["rootInfo"]["currentPlayer"], json!("W"));
        // Top row first: C3 is the third value, A1 the seventh; white's view.
        assert_eq!(own["ownership"][2], json!(0.5));
        assert_eq!(own["ownership"][6], json!(-1.0));
        let black = analysis_response("x", 3, false, &a, g, include(Perspective::Black), None);
        assert_eq!(black["moveInfos"][0]["winrate"], json!(0.2));
        assert_eq!(black["moveInfos"][0]["lcb"], json!(0.1));
        assert_eq!(black["moveInfos"][0]["scoreLead"], json!(-3.0));
        assert_eq!(black["rootInfo"]["scoreLead"], json!(-2.5));
        assert_eq!(black["ownership"][6], json!(1.0));
        let (a, g) = analysis(Color::Black);
        let white = analysis_response("x", 0, true, &a, g, include(Perspective::White), None);
        assert_eq!(white["rootInfo"]["winrate"], json!(0.2));
        assert_eq!(white["isDuringSearch"], json!(true));
    }
}
