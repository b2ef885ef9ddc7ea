//! Tactical reading at a vertex: `attack`, `defend`, `owl_attack`, `owl_defend`,
//! `analyze_semeai` and GoGui's `hane-tactical_status`.

use std::fmt::Write as _;

use super::{Outcome, exactly, no_args, vertex_list};
use crate::board::Point;
use crate::engine::parse::parse_point;
use crate::engine::{Call, Engine};
use crate::tactics::liberties::liberties_capped;
use crate::tactics::owl::OwlReader;
use crate::tactics::reader::{ChainStatus, Reader, ReaderLimits, Reading, Verdict};
use crate::tactics::semeai::SemeaiReader;

/// `attack VERTEX` and `defend VERTEX`: the tactical reader on the chain at VERTEX (a
/// fresh [`Reader`] each time, so answers do not depend on earlier commands, with the
/// budget of [`ReaderLimits::THOROUGH`]), answered as
/// GNU Go answers: `0` when it fails, else its code and the move, `PASS` for a `defend` that
/// needs none. GNU Go's errors for a bad or empty vertex; a wrong argument count is a syntax
/// error.
pub(super) fn cmd_read_chain(engine: &mut Engine, args: &[&str], attack: bool) -> Outcome {
    read_at_vertex(engine, args, |board, p| {
        let mut reader = Reader::with_limits(ReaderLimits::THOROUGH, Reader::DEFAULT_TABLE_BITS);
        if attack {
            reader.attack(board, p)
        } else {
            reader.defend(board, p)
        }
    })
}

/// The commands that read at one vertex holding a stone (`attack`, `defend`, `owl_attack`,
/// `owl_defend`): `read` on the current board, answered by [`Reading::gtp_reply`]; a syntax
/// error for a wrong argument count, GNU Go's errors for a bad or empty vertex.
fn read_at_vertex(
    engine: &mut Engine,
    args: &[&str],
    read: impl FnOnce(&crate::board::Board, Point) -> Reading,
) -> Outcome {
    let [vertex] = exactly(args)?;
    let board = engine.state.board();
    let p = parse_point(board.geometry(), vertex).ok_or("invalid coordinate")?;
    if board.cell(p).color().is_none() {
        return Err("vertex must not be empty".into());
    }
    Ok(read(board, p).gtp_reply(board.geometry()))
}

/// `owl_attack VERTEX` and `owl_defend VERTEX`: the owl reader on the group (the dragon)
/// through the stone at VERTEX, read by a fresh [`OwlReader`]: whether its opponent to move
/// kills it, or its owner to move makes it live, answered as `attack` and `defend` are (a
/// group that needs no defence gets `1 PASS`). A kill is only claimed when it was proved
/// within the reader's limits: a cut-off read answers `0` to `owl_attack` and counts as a
/// success for `owl_defend`, as `attack` and `defend` do. Errors as for `attack`.
pub(super) fn cmd_owl(engine: &mut Engine, args: &[&str], attack: bool) -> Outcome {
    read_at_vertex(engine, args, |board, p| {
        let mut reader = OwlReader::new();
        if attack {
            reader.attack(board, p)
        } else {
            reader.defend(board, p)
        }
    })
}

/// `analyze_semeai DRAGONA DRAGONB`: the capturing race between the chains at the two
/// vertices with A's owner to move, read by a fresh [`SemeaiReader`], answered in GNU Go's
/// form `SURVIVES CAPTURES MOVE`: the code (0 to 3, as for `attack`) for A's chain
/// surviving, the code for B's chain being captured, and A's owner's move (`PASS` when none
/// is needed or nothing works). `1 0` means that neither chain falls: a seki, or two chains
/// that both get away. Unlike GNU Go, which reads dragons and their life, hane reads the two
/// chains alone. Errors for a bad or empty vertex, and for two stones of one colour.
pub(super) fn cmd_analyze_semeai(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [a, b] = exactly(args)?;
    let board = engine.state.board();
    let g = board.geometry();
    let pa = parse_point(g, a).ok_or("invalid coordinate")?;
    let pb = parse_point(g, b).ok_or("invalid coordinate")?;
    if board.cell(pa).color().is_none() || board.cell(pb).color().is_none() {
        return Err("vertex must not be empty".into());
    }
    let result = SemeaiReader::new()
        .analyze(board, pa, pb)
        .ok_or("vertices must have different colors")?;
    let point = result
        .point
        .map_or_else(|| "PASS".to_string(), |p| g.format_point(p));
    Ok(format!(
        "{} {} {point}",
        result.survives.gtp_code(),
        result.captures.gtp_code()
    ))
}

/// `hane-tactical_status` (GoGui `gfx`): every chain of at most four liberties read both
/// ways by a fresh [`Reader`]. Chains whose fate depends on who moves first get a triangle,
/// with the capturing move labelled `a` and the saving move `d` (`a2`/`d2`, `a3`/`d3` when
/// the move only works through a ko, in GNU Go's codes; `ad` for the point both sides
/// want); chains captured whoever moves first get a square.
pub(super) fn cmd_tactical_status(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    no_args(args)?;
    let board = engine.state.board();
    let g = board.geometry();
    let mut reader = Reader::new();
    let (mut unsettled, mut lost) = (Vec::new(), Vec::new());
    let mut labels: Vec<(Point, String)> = Vec::new();
    let mut label = |p: Option<Point>, letter: char, verdict: Verdict| {
        let Some(p) = p else {
            return;
        };
        let text = match verdict.gtp_code() {
            1 => letter.to_string(),
            code => format!("{letter}{code}"),
        };
        match labels.iter_mut().find(|(q, _)| *q == p) {
            Some((_, old)) if !old.contains(&text) => old.push_str(&text),
            Some(_) => {}
            None => labels.push((p, text)),
        }
    };
    for p in g.points() {
        if board.cell(p).color().is_none()
            || board.chain_id(p) != p.index()
            || liberties_capped(board, p, 5) > 4
        {
            continue;
        }
        match reader.status(board, p) {
            ChainStatus::Safe => {}
            ChainStatus::Unsettled { attack, defence } => {
                unsettled.extend(board.chain_stones(p));
                label(attack.point, 'a', attack.verdict);
                label(defence.point, 'd', defence.verdict);
            }
            ChainStatus::Lost { .. } => lost.extend(board.chain_stones(p)),
        }
    }
    let mut out = String::new();
    if !unsettled.is_empty() {
        let _ = writeln!(out, "TRIANGLE {}", vertex_list(&unsettled, engine));
    }
    if !lost.is_empty() {
        let _ = writeln!(out, "SQUARE {}", vertex_list(&lost, engine));
    }
    if !labels.is_empty() {
        let pairs: Vec<String> = labels
            .iter()
            .map(|(p, text)| format!("{} {text}", g.format_point(*p)))
            .collect();
        let _ = writeln!(out, "LABEL {}", pairs.join(" "));
    }
    let _ = write!(
        out,
        "TEXT {} unsettled and {} lost stones",
        unsettled.len(),
        lost.len()
    );
    Ok(out)
}
