//! The search with the learned patterns: pattern playouts on several threads keep the tree
//! consistent, and the pattern priors steer a 19x19 search to plausible moves.

use hane::board::{GameState, Move, Rules};
use hane::search::{Analysis, SearchConfig, SearchControl, SearchLimits, Searcher};
use hane::settings::{Auto, Settings};

/// The default engine's search (pattern playouts, pattern priors) without early stops.
fn pattern_config(threads: usize) -> SearchConfig {
    let settings = {
        let mut s = Settings::default();
        s.game.threads = Auto::Value(threads);
        s.search.early_stop = false;
        s
    };
    hane::play::search_config(&settings, hane::pattern::PatternTables::Builtin, 5)
}

fn search(searcher: &mut Searcher, state: &GameState, playouts: u64) -> Analysis {
    let limits = SearchLimits {
        playouts: Some(playouts),
        ..SearchLimits::default()
    };
    searcher
        .search(
            state,
            state.to_move(),
            &limits,
            &SearchControl::default(),
            &mut |_| {},
        )
        .analysis
}

fn game(size: usize, moves: &[&str]) -> GameState {
    let mut state = GameState::new(size, Rules::default()).unwrap();
    for v in moves {
        let color = state.to_move();
        let mv = Move::parse(state.geometry(), v).unwrap();
        state.play(color, mv).unwrap();
    }
    state
}

#[test]
fn tree_stays_consistent_with_pattern_playouts_on_two_threads() {
    let mut state = game(9, &["E5", "C3", "G3", "C6", "G7"]);
    let mut searcher = Searcher::new(pattern_config(2));
    let first = search(&mut searcher, &state, 6_000);
    let tree = searcher.check_tree().expect("consistent tree");
    assert_eq!(first.playouts, 6_000);
    assert_eq!(tree.root_visits, 6_000, "one root visit per playout");
    assert!(tree.nodes > 100, "the tree grew: {tree:?}");
    state.play(state.to_move(), first.moves[0].mv).unwrap();
    let second = search(&mut searcher, &state, 3_000);
    let tree = searcher.check_tree().expect("consistent tree after reuse");
    assert!(tree.root_visits >= second.playouts);
}

#[test]
fn pattern_priors_focus_a_19x19_search_on_plausible_moves() {
    // Black's approach at the lower-right hoshi: white answers near it or elsewhere in a
    // corner, never on the first two lines of an empty side.
    let state = game(19, &["Q16", "D4", "Q3", "D16", "R5"]);
    let mut searcher = Searcher::new(pattern_config(1));
    let analysis = search(&mut searcher, &state, 3_000);
    let geometry = state.geometry();
    eprintln!(
        "top: {:?}",
        analysis
            .moves
            .iter()
            .take(12)
            .map(|m| (m.mv.to_gtp(geometry), m.visits, m.winrate, m.prior))
            .collect::<Vec<_>>()
    );
    let best = analysis.moves[0].mv;
    let p = best.point().expect("not a pass");
    assert!(
        geometry.edge_distance(p) >= 2,
        "best move {} on the first two lines",
        best.to_gtp(geometry)
    );
    // Under a fifth of the playouts go to the first two lines (39% of the points).
    let low: u64 = analysis
        .moves
        .iter()
        .filter(|m| m.mv.point().is_some_and(|p| geometry.edge_distance(p) <= 1))
        .map(|m| m.visits)
        .sum();
    eprintln!("first two lines: {low} of {}", analysis.playouts);
    assert!(
        low * 5 < analysis.playouts,
        "{low} of {} playouts on the first two lines",
        analysis.playouts
    );
}

#[test]
fn broken_patterns_file_stops_the_gtp_engine_at_start_up() {
    let path = std::env::temp_dir().join(format!("hane-broken-patterns-{}", std::process::id()));
    std::fs::write(&path, "not a pattern table\n").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["gtp", "--playout", "pattern", "--patterns"])
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "stdout: {:?}", output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--patterns"), "{stderr}");
}
