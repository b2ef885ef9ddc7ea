//! The search's contracts: consistent statistics under many threads, the time budget, seeded
//! reproducibility, the memory bound, tree reuse, stopping, analysis snapshots, passing and
//! resigning.

use std::sync::Arc;
use std::time::{Duration, Instant};

use hane::board::{Board, Color, GameState, Move, Rules};
use hane::play::{MoveRequest, Player};
use hane::playout::{play_random_moves, playout_rng};
use hane::search::{Analysis, SearchControl, SearchLimits, Searcher};
use hane::settings::{Auto, Bytes, DynamicKomiMode, PlayoutKind, PriorsKind, Settings};

/// Light playouts and heuristic priors (cheap searches) on `threads` threads.
fn config(threads: usize) -> Settings {
    {
        let mut s = Settings::default();
        s.game.threads = Auto::Value(threads);
        s.search.playout.playout = PlayoutKind::Light;
        s.search.priors = PriorsKind::Heuristic;
        s
    }
}

/// A searcher with `settings` and seed 11.
fn searcher_with(settings: Settings) -> Searcher {
    Searcher::new(hane::play::search_config(
        &settings,
        hane::pattern::PatternTables::Builtin,
        11,
    ))
}

/// A player with `settings` and seed 11.
fn player_with(settings: Settings) -> Player {
    Player::new(settings, hane::pattern::PatternTables::Builtin, 11)
}

fn playouts(n: u64) -> SearchLimits {
    SearchLimits {
        playouts: Some(n),
        ..SearchLimits::default()
    }
}

/// A reproducible middle-game position: `moves` random legal moves from the empty board.
fn middle_game(size: usize, moves: usize) -> GameState {
    let mut state = GameState::new(size, Rules::default()).unwrap();
    play_random_moves(&mut state, moves, &mut playout_rng(3, 0));
    state
}

fn search(searcher: &mut Searcher, state: &GameState, limits: &SearchLimits) -> Analysis {
    let control = SearchControl::default();
    searcher
        .search(state, state.to_move(), limits, &control, &mut |_| {})
        .analysis
}

#[test]
fn statistics_stay_consistent_under_many_threads() {
    let mut state = middle_game(9, 20);
    let mut searcher = searcher_with({
        let mut s = config(8);
        s.search.early_stop = false;
        s
    });
    let first = search(&mut searcher, &state, &playouts(12_000));
    let tree = searcher.check_tree().expect("consistent tree");
    assert_eq!(first.playouts, 12_000);
    assert_eq!(tree.root_visits, 12_000, "one root visit per playout");
    assert!(tree.nodes > 100, "the tree grew: {tree:?}");
    // Play the best move and search again on the reused subtree.
    let best = first.moves[0].mv;
    state.play(state.to_move(), best).unwrap();
    let second = search(&mut searcher, &state, &playouts(6_000));
    let tree = searcher.check_tree().expect("consistent tree after reuse");
    assert!(tree.root_visits >= second.playouts);
}

#[test]
fn search_returns_within_the_time_budget() {
    let state = GameState::new(19, Rules::default()).unwrap();
    let mut searcher = searcher_with({
        let mut s = config(2);
        s.search.early_stop = false;
        s
    });
    let limits = SearchLimits {
        time: Some(Duration::from_millis(300)),
        ..SearchLimits::default()
    };
    let clock = Instant::now();
    let analysis = search(&mut searcher, &state, &limits);
    let elapsed = clock.elapsed();
    assert!(
        elapsed < Duration::from_millis(300 + 150),
        "took {elapsed:?} for a 0.3 s budget"
    );
    assert!(
        elapsed >= Duration::from_millis(290),
        "stopped early: {elapsed:?}"
    );
    assert!(analysis.playouts > 0);
}

#[test]
fn time_extension_never_passes_max_time() {
    let state = middle_game(9, 10);
    let mut searcher = searcher_with(config(2));
    let limits = SearchLimits {
        time: Some(Duration::from_millis(100)),
        max_time: Some(Duration::from_millis(250)),
        ..SearchLimits::default()
    };
    let clock = Instant::now();
    search(&mut searcher, &state, &limits);
    assert!(clock.elapsed() < Duration::from_millis(250 + 150));
}

#[test]
fn a_win_rate_below_the_threshold_runs_into_the_extension() {
    // Black captures the nine white stones at E4 or loses: no doubt about the best move,
    // so only the win rate threshold can keep the search past its budget.
    let board = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         X X X X X X X X X
         X X X X . X X X X
         O O O O O O O O O
         X X X X X X X X X
         . . . . . . . . .",
    )
    .unwrap();
    let state = GameState::from_board(board, Color::Black, Rules::chinese(7.5));
    let mut settings = config(2);
    settings.search.early_stop = false;
    let run = |extend_below: f32| {
        let mut searcher = searcher_with(settings.clone());
        let limits = SearchLimits {
            time: Some(Duration::from_millis(30)),
            max_time: Some(Duration::from_secs(3)),
            extend_below: Some(extend_below),
            ..SearchLimits::default()
        };
        let clock = Instant::now();
        let analysis = search(&mut searcher, &state, &limits);
        let best = analysis.moves.first().map(|m| m.mv);
        (clock.elapsed(), best, analysis.playouts)
    };
    let e4 = Move::parse(state.geometry(), "E4").unwrap();
    // Every win rate is below 1.5: the search runs on to `max_time`.
    let (elapsed, best, _) = run(1.5);
    assert!(elapsed >= Duration::from_secs(3), "{elapsed:?}");
    assert_eq!(best, Some(e4));
    // None is below -1: the budget ends it, far before `max_time`. On a loaded machine it
    // may end after a handful of playouts (or none), too few to name the best move.
    let (elapsed, best, playouts) = run(-1.0);
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    if playouts >= 500 {
        assert_eq!(best, Some(e4), "{playouts} playouts");
    }
}

#[test]
fn seeded_single_thread_search_is_reproducible() {
    let state = middle_game(9, 16);
    let run = || {
        let mut searcher = searcher_with(config(1));
        let result = searcher.search(
            &state,
            state.to_move(),
            &playouts(4_000),
            &SearchControl::default(),
            &mut |_| {},
        );
        (
            result.best,
            result.analysis.moves,
            result.analysis.ownership,
        )
    };
    let a = run();
    let b = run();
    assert!(!a.1.is_empty());
    assert_eq!(a, b);
    // A different seed explores differently.
    let mut other = Searcher::new(hane::play::search_config(
        &config(1),
        hane::pattern::PatternTables::Builtin,
        12,
    ));
    let c = search(&mut other, &state, &playouts(4_000));
    assert_ne!(a.1, c.moves);
}

/// With a vanishing distance weighting every AMAF result still gets the full weight, so the
/// weighted statistics (kept in weight units, the root's batched ones included) are the
/// unweighted ones times a power of two, and the seeded search must replay the unweighted
/// one move for move; a real weighting changes it. Criticality 0 leaves it alone too.
#[test]
fn amaf_weighting_at_full_weight_replays_the_unweighted_search() {
    let state = middle_game(9, 16);
    let run = |rave_distance: f32, criticality: f32| {
        let mut searcher = searcher_with({
            let mut s = config(1);
            s.search.rave_distance = rave_distance;
            s.search.criticality = criticality;
            s.search.playout.playout = PlayoutKind::Pattern;
            s
        });
        let result = searcher.search(
            &state,
            state.to_move(),
            &playouts(3_000),
            &SearchControl::default(),
            &mut |_| {},
        );
        (result.best, result.analysis.moves)
    };
    let plain = run(0.0, 0.0);
    assert!(plain.1.len() > 3);
    assert_eq!(run(1e-6, 0.0), plain);
    assert_ne!(run(0.5, 0.0).1, plain.1);
    assert_ne!(run(0.0, 1.0).1, plain.1);
}

#[test]
fn memory_bound_is_respected_and_search_goes_on() {
    let state = GameState::new(9, Rules::default()).unwrap();
    let limit = 48 * 1024;
    let mut searcher = searcher_with({
        let mut s = config(2);
        s.search.max_memory = Bytes(limit);
        s.search.early_stop = false;
        s
    });
    let analysis = search(&mut searcher, &state, &playouts(6_000));
    assert_eq!(analysis.playouts, 6_000, "kept searching when full");
    let tree = searcher.check_tree().expect("consistent tree");
    assert!(
        tree.bytes <= limit,
        "{} bytes over the {limit} limit",
        tree.bytes
    );
    assert_eq!(tree.root_visits, 6_000);
    // Without the bound the same search grows far beyond it.
    let mut free = searcher_with({
        let mut s = config(2);
        s.search.early_stop = false;
        s
    });
    search(&mut free, &state, &playouts(6_000));
    assert!(free.check_tree().unwrap().bytes > 4 * limit);
}

#[test]
fn tree_is_reused_after_both_players_move() {
    let mut state = GameState::new(9, Rules::default()).unwrap();
    let mut searcher = searcher_with(config(1));
    let first = search(&mut searcher, &state, &playouts(8_000));
    let pv = &first.moves[0].pv;
    assert!(pv.len() >= 2, "a principal variation of two moves: {pv:?}");
    state.play(Color::Black, pv[0]).unwrap();
    state.play(Color::White, pv[1]).unwrap();
    let second = search(&mut searcher, &state, &playouts(100));
    let tree = searcher.check_tree().unwrap();
    assert!(
        tree.root_visits > second.playouts,
        "root kept earlier visits: {tree:?}"
    );
    // A position the tree does not know starts from scratch.
    let mut elsewhere = GameState::new(9, Rules::default()).unwrap();
    elsewhere.play(Color::Black, Move::Pass).unwrap();
    elsewhere.play(Color::White, Move::Pass).unwrap();
    elsewhere.reset_consecutive_passes();
    let mut fresh = searcher_with(config(1));
    search(&mut fresh, &state, &playouts(500));
    let third = search(&mut fresh, &elsewhere, &playouts(300));
    assert_eq!(fresh.check_tree().unwrap().root_visits, third.playouts);
}

#[test]
fn stop_request_ends_an_unlimited_search_and_keeps_the_work() {
    let state = GameState::new(9, Rules::default()).unwrap();
    let mut searcher = searcher_with(config(2));
    let control = Arc::new(SearchControl::default());
    let stopper = {
        let control = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            control.stop();
        })
    };
    let clock = Instant::now();
    let pondered = searcher.ponder(&state, &control);
    stopper.join().unwrap();
    assert!(clock.elapsed() < Duration::from_millis(150 + 200));
    assert!(pondered.playouts > 0);
    control.reset();
    let next = search(&mut searcher, &state, &playouts(50));
    assert!(searcher.check_tree().unwrap().root_visits >= pondered.playouts + next.playouts);
}

#[test]
fn analysis_snapshots_are_well_formed() {
    let state = middle_game(9, 24);
    let mut searcher = searcher_with(config(2));
    let limits = SearchLimits {
        time: Some(Duration::from_millis(250)),
        report_interval: Some(Duration::from_millis(50)),
        ..SearchLimits::default()
    };
    let mut reports = Vec::new();
    let control = SearchControl::default();
    let result = searcher.search(&state, state.to_move(), &limits, &control, &mut |a| {
        reports.push(a.clone())
    });
    assert!(reports.len() >= 2, "{} progress reports", reports.len());
    for a in reports.iter().chain([&result.analysis]) {
        assert_eq!(a.ownership.len(), 81);
        assert!(a.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
        assert!(a.moves.windows(2).all(|w| w[0].visits >= w[1].visits));
        for m in &a.moves {
            assert!(state.is_legal(state.to_move(), m.mv), "illegal root move");
            assert!((0.0..=1.0).contains(&m.winrate));
            assert!((0.0..=1.0).contains(&m.prior));
            assert!(m.lcb <= m.winrate);
            assert_eq!(m.pv[0], m.mv);
        }
    }
    assert_eq!(result.best, result.analysis.moves[0].mv);
    let total_prior: f32 = result.analysis.moves.iter().map(|m| m.prior).sum();
    assert!(total_prior <= 1.0 + 1e-4);
}

/// Black owns columns A-C, white D-E: black is 5 points ahead on the board.
const SPLIT: &str = "
. . X O .
. . X O .
. . X O .
. . X O .
. . X O .";

fn after_white_pass(komi: f32) -> GameState {
    let board = Board::from_diagram(SPLIT).unwrap();
    let mut state = GameState::from_board(board, Color::White, Rules::chinese(komi));
    state.play(Color::White, Move::Pass).unwrap();
    state
}

/// The move the play layer chooses for black in `state` after `playouts` playouts.
fn black_move(player: &mut Player, state: &GameState) -> hane::play::ChosenMove {
    player.choose(
        state,
        Color::Black,
        &MoveRequest::normal(None),
        &SearchControl::default(),
        None,
    )
}

#[test]
fn passes_back_when_passing_wins() {
    let state = after_white_pass(0.5);
    let mut player = player_with({
        let mut s = config(1);
        s.game.playouts = Some(2_000);
        s
    });
    let chosen = black_move(&mut player, &state);
    assert_eq!(chosen.mv, Move::Pass);
    assert!(!chosen.resign);
}

#[test]
fn does_not_pass_back_when_passing_loses() {
    let state = after_white_pass(7.5);
    let mut player = player_with({
        let mut s = config(1);
        s.game.resign_threshold = 0.0;
        s.game.playouts = Some(2_000);
        s
    });
    let chosen = black_move(&mut player, &state);
    assert_ne!(chosen.mv, Move::Pass);
    assert!(state.is_legal(Color::Black, chosen.mv));
}

/// Black's win rates and verdicts (as `verdict` reads each chosen move) in three searches in
/// a row on the empty 5x5 board with `komi`, resign threshold 0.1 over three moves, and the
/// verdicts of four searches of a player that never resigns (threshold 0).
fn verdicts_in_a_row(
    komi: f32,
    verdict: fn(&hane::play::ChosenMove) -> bool,
) -> (Vec<(f32, bool)>, Vec<bool>) {
    let state = GameState::new(5, Rules::chinese(komi)).unwrap();
    let mut player = player_with({
        let mut s = config(1);
        s.game.resign_threshold = 0.1;
        s.game.resign_moves = 3;
        s.game.playouts = Some(500);
        s
    });
    let sure = (0..3)
        .map(|_| {
            let chosen = black_move(&mut player, &state);
            (chosen.result.analysis.winrate, verdict(&chosen))
        })
        .collect();
    let mut never = player_with({
        let mut s = config(1);
        s.game.resign_threshold = 0.0;
        s.game.playouts = Some(200);
        s
    });
    let unsure = (0..4)
        .map(|_| verdict(&black_move(&mut never, &state)))
        .collect();
    (sure, unsure)
}

#[test]
fn resigns_only_after_several_hopeless_moves() {
    // Komi 30 on 5x5: black cannot win.
    let (sure, never) = verdicts_in_a_row(30.0, |c| c.resign);
    assert!(sure.iter().all(|&(winrate, _)| winrate < 0.1), "{sure:?}");
    let verdicts: Vec<bool> = sure.iter().map(|&(_, v)| v).collect();
    assert_eq!(verdicts, [false, false, true]);
    assert_eq!(never, [false; 4]);
}

#[test]
fn claims_the_game_only_after_several_won_moves() {
    // Komi -30 on 5x5: black cannot lose. It never resigns meanwhile.
    let (sure, never) = verdicts_in_a_row(-30.0, |c| {
        assert!(!c.resign);
        c.claim
    });
    assert!(sure.iter().all(|&(winrate, _)| winrate > 0.9), "{sure:?}");
    let verdicts: Vec<bool> = sure.iter().map(|&(_, v)| v).collect();
    assert_eq!(verdicts, [false, false, true]);
    assert_eq!(never, [false; 4]);
}

#[test]
fn scores_are_the_mean_final_score_as_the_analysed_sides_lead() {
    // Komi 30 on an empty 7x7 board: the playouts' area scores are near 0, so black trails
    // by about 30 points and white leads by as much, whoever moves.
    for (komi, black_sign) in [(30.0, -1.0), (-30.0, 1.0)] {
        let rules = Rules {
            komi,
            ..Rules::default()
        };
        let state = GameState::new(7, rules).unwrap();
        for (color, sign) in [(Color::Black, black_sign), (Color::White, -black_sign)] {
            let mut searcher = searcher_with(config(1));
            let analysis = searcher.analyze(
                &state,
                color,
                &playouts(3_000),
                &SearchControl::default(),
                &mut |_| {},
            );
            let lead = analysis.score_lead.expect("a mean score");
            assert!(
                (15.0..45.0).contains(&(sign * lead)),
                "komi {komi}, {color}: {lead}"
            );
            let mut scored = 0;
            for m in &analysis.moves {
                if let Some(move_lead) = m.score_lead {
                    scored += m.visits;
                    let area = match color {
                        Color::Black => move_lead + komi,
                        Color::White => komi - move_lead,
                    };
                    assert!((-49.0..=49.0).contains(&area), "{color} {:?}: {area}", m.mv);
                    if m.visits >= 50 {
                        assert!(sign * move_lead > 0.0, "{color} {:?}: {move_lead}", m.mv);
                    }
                }
            }
            assert!(
                scored * 10 >= analysis.playouts * 9,
                "{scored} of {}",
                analysis.playouts
            );
        }
    }
}

#[test]
fn a_komi_offset_scores_the_playouts_but_not_the_reports() {
    // Komi 45 on an empty 7x7 board: black loses nearly every playout. Scored as if black
    // received 90 points more (komi -45 in the playouts), it wins nearly every one; the
    // reported win rates and leads stay those of komi 45, as a search without the offset
    // reports them.
    let rules = Rules {
        komi: 45.0,
        ..Rules::default()
    };
    let state = GameState::new(7, rules).unwrap();
    let mut searcher = searcher_with(config(1));
    searcher.set_komi_offset(-90.0);
    let analysis = search(&mut searcher, &state, &playouts(3_000));
    assert_eq!(analysis.komi_offset, -90.0);
    // Light playouts on an empty 7x7 board often end with one side owning nearly all of
    // it: the area scores spread over the whole board, and a komi of 45 still loses some.
    let (shifted, reported) = (analysis.search_winrate, analysis.winrate);
    assert!(shifted > 0.7 && reported < 0.3, "{shifted} {reported}");
    let lead = analysis.score_lead.expect("a mean score");
    assert!((-49.0..-30.0).contains(&lead), "{lead}");
    for m in analysis.moves.iter().filter(|m| m.visits >= 50) {
        assert!(m.winrate < 0.4, "{:?}: {}", m.mv, m.winrate);
        assert!(m.lcb <= m.winrate);
    }
    let mut plain = searcher_with(config(1));
    let real = search(&mut plain, &state, &playouts(3_000));
    assert_eq!((real.komi_offset, real.winrate), (0.0, real.search_winrate));
    assert!(
        (real.winrate - reported).abs() < 0.1,
        "{} {reported}",
        real.winrate
    );
    let real_lead = real.score_lead.unwrap();
    assert!((real_lead - lead).abs() < 5.0, "{real_lead} {lead}");
}

#[test]
fn the_tree_is_kept_across_small_komi_offset_changes_only() {
    let state = middle_game(9, 10);
    let mut searcher = searcher_with(config(1));
    searcher.set_komi_offset(3.0);
    let first = search(&mut searcher, &state, &playouts(500));
    // One point: the tree stays.
    searcher.set_komi_offset(2.0);
    let second = search(&mut searcher, &state, &playouts(500));
    assert_eq!(
        searcher.check_tree().unwrap().root_visits,
        first.playouts + second.playouts
    );
    // Two points: a fresh tree.
    searcher.set_komi_offset(4.0);
    let third = search(&mut searcher, &state, &playouts(500));
    assert_eq!(searcher.check_tree().unwrap().root_visits, third.playouts);
}

#[test]
fn a_dynamic_komi_offset_never_makes_hane_resign() {
    // hane is black with four handicap stones, and the linear dynamic komi makes it give
    // 88 points on 9x9 at move 2 (100 a stone, scaled by area, faded by 1/45): every playout
    // is lost under the offset, but the game is not.
    let mut state = GameState::new(9, Rules::chinese(0.5)).unwrap();
    state.place_fixed_handicap(4).unwrap();
    state.play(Color::White, Move::Pass).unwrap();
    let mut player = player_with({
        let mut s = config(1);
        s.game.resign_threshold = 0.1;
        s.game.resign_moves = 1;
        s.game.playouts = Some(1_000);
        s.game.dynamic_komi = DynamicKomiMode::Linear;
        s.game.dynamic_komi_stone = 100.0;
        s
    });
    let chosen = black_move(&mut player, &state);
    let analysis = &chosen.result.analysis;
    assert_eq!(analysis.komi_offset, 88.0);
    assert!(analysis.search_winrate < 0.1, "{}", analysis.search_winrate);
    assert!(analysis.winrate > 0.5, "{}", analysis.winrate);
    assert!(!chosen.resign);
    // A new game forgets it; in an even game (auto) there is none.
    player.new_game(state.size());
    let even = GameState::new(9, Rules::chinese(7.5)).unwrap();
    let mut auto = player_with({
        let mut s = config(1);
        s.game.playouts = Some(200);
        s
    });
    assert_eq!(
        black_move(&mut auto, &even).result.analysis.komi_offset,
        0.0
    );
    assert_eq!(
        black_move(&mut player, &even).result.analysis.komi_offset,
        0.0
    );
}

#[test]
fn avoided_moves_stay_out_of_the_tree_for_their_plies_only() {
    use hane::search::avoid::AvoidMoves;
    let state = GameState::new(9, Rules::default()).unwrap();
    let g = state.geometry();
    let mv = |text| Move::parse(g, text).unwrap();
    let mut searcher = searcher_with({
        let mut s = config(2);
        s.search.early_stop = false;
        s.search.expand = Auto::Value(1);
        s
    });
    // Black may not play E5 at the root; white may play only A1 or pass at ply 2.
    let mut avoid = AvoidMoves::new();
    avoid.avoid(Color::Black, mv("E5"), 1);
    avoid.allow_only(g, Color::White, &[mv("A1")], 2);
    searcher.set_avoid(avoid);
    let analysis = search(&mut searcher, &state, &playouts(4_000));
    assert!(analysis.moves.len() > 10);
    let mut deep = 0;
    for info in &analysis.moves {
        assert_ne!(info.mv, mv("E5"));
        if let Some(&reply) = info.pv.get(1) {
            assert!(reply == mv("A1") || reply == Move::Pass, "{:?}", info.pv);
        }
        // Ply 3 (black again) and ply 4 are free: white's second moves vary.
        if let Some(&later) = info.pv.get(3)
            && later != mv("A1")
            && later != Move::Pass
        {
            deep += 1;
        }
    }
    assert!(deep > 0, "no principal variation reached a free ply 4");
    // The next search (nothing avoided) does not reuse that tree: E5 comes back.
    let next = search(&mut searcher, &state, &playouts(4_000));
    assert!(next.moves.iter().any(|m| m.mv == mv("E5") && m.visits > 0));
    assert!(next.moves.iter().any(|m| {
        m.pv.get(1)
            .is_some_and(|&r| r != mv("A1") && r != Move::Pass)
    }));
}
