//! A counting global allocator proves that the hot paths allocate nothing: `run_playout`
//! with `LightPolicy` (with and without an AMAF record), `Board::play_unchecked`,
//! `Board::play`, `Board::is_legal`, `Board::copy_from` and `area_score`, and the search's
//! `PatternPriors`, over many
//! playouts on 9x9 and 19x19 once the board and the generator exist; and the tactical
//! reader's `attack` and `defend` once the `Reader` exists, and the race reader's `analyze`
//! and `is_seki` once the `SemeaiReader` exists, and the owl reader's `attack` and `defend`
//! once the `OwlReader` exists.
//!
//! The counter is per thread, so tests running in parallel do not disturb each other. The
//! counting allocator comes from the `allocation-counter` crate, so this repository needs no
//! `unsafe` of its own for it.

use hane::board::{Board, Color, Point};
use hane::playout::{
    AmafRecord, LightPolicy, default_move_cap, playout_rng, random_below, run_playout,
};

/// Allocations made by this thread while running `f`, counted by the `allocation-counter`
/// crate's global allocator (it is a dev-dependency, linked into this test alone).
fn allocations_during(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).count_total
}

#[test]
fn the_counter_sees_allocations() {
    // Without this the other tests could pass with a counter that never counts.
    let n = allocations_during(|| {
        let v: Vec<u64> = std::hint::black_box((0..100).collect());
        assert_eq!(v.len(), 100);
        let b = std::hint::black_box(Box::new(Board::new(9).unwrap()));
        assert_eq!(b.size(), 9);
    });
    assert!(n >= 2, "counted {n} allocations");
}

fn light_playouts_allocate_nothing(size: usize, playouts: usize) {
    let start = Board::new(size).unwrap();
    let mut board = start.clone();
    let mut rng = playout_rng(size as u64, 0);
    let mut policy = LightPolicy;
    let mut amaf = AmafRecord::default();
    let cap = default_move_cap(size);
    let mut total_moves = 0u64;
    let mut score_sum = 0i64;
    let n = allocations_during(|| {
        for k in 0..playouts {
            board.copy_from(&start);
            let outcome = if k % 2 == 0 {
                run_playout(
                    &mut board,
                    Color::Black,
                    &mut policy,
                    &mut rng,
                    cap,
                    &mut (),
                )
            } else {
                amaf.clear();
                run_playout(
                    &mut board,
                    Color::Black,
                    &mut policy,
                    &mut rng,
                    cap,
                    &mut amaf,
                )
            };
            total_moves += outcome.moves as u64;
            score_sum += outcome.score as i64 + board.area_score() as i64;
        }
    });
    assert_eq!(
        n, 0,
        "{playouts} light playouts on {size}x{size} allocated {n} times"
    );
    // the playouts really ran: full games, not empty loops
    assert!(
        total_moves as usize > playouts * size * size,
        "{total_moves} moves"
    );
    std::hint::black_box(score_sum);
}

#[test]
fn light_playouts_on_9x9_allocate_nothing() {
    light_playouts_allocate_nothing(9, 2_000);
}

#[test]
fn light_playouts_on_19x19_allocate_nothing() {
    light_playouts_allocate_nothing(19, 200);
}

#[test]
fn board_primitives_allocate_nothing() {
    for size in [9, 19] {
        let start = Board::new(size).unwrap();
        let mut board = start.clone();
        let mut scratch = Board::new(25).unwrap();
        let mut rng = playout_rng(99, size as u64);
        let mut legal_checks = 0u64;
        let mut played = 0u64;
        let n = allocations_during(|| {
            for _game in 0..50 {
                board.copy_from(&start);
                for mv in 0..3 * size * size {
                    let color = if mv % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let empties = board.empty_count();
                    if empties == 0 {
                        break;
                    }
                    let p = Point::from_index(
                        board.empty_points()[random_below(&mut rng, empties)] as usize,
                    );
                    legal_checks += board.is_legal(p, color) as u64;
                    let _ = board.hash_after(p, color);
                    if board.is_legal(p, color) {
                        if mv % 3 == 0 {
                            board.play(p, color).unwrap();
                        } else {
                            board.play_unchecked(p, color);
                        }
                        played += 1;
                    } else {
                        board.pass();
                    }
                    if mv % 97 == 0 {
                        scratch.copy_from(&board);
                    }
                }
                std::hint::black_box(board.area_score());
            }
        });
        assert_eq!(
            n, 0,
            "board primitives on {size}x{size} allocated {n} times"
        );
        assert!(played > 1000 && legal_checks > 1000);
    }
}

#[test]
fn pattern_priors_allocate_nothing() {
    use hane::board::{MAX_POINTS, Move, Recent};
    use hane::search::prior_mix::PriorQuery;
    use hane::search::priors::{MovePriors, PatternPriors, Prior};
    let priors = PatternPriors::new(
        hane::pattern::PatternTables::Builtin,
        &hane::settings::SearchParams::default(),
    );
    let mut board = Board::new(19).unwrap();
    let mut rng = playout_rng(19, 1);
    // A middle-game position: random light moves.
    for k in 0..60 {
        let color = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if let Some(p) =
            hane::playout::PlayoutPolicy::choose(&mut LightPolicy, &mut board, color, &mut rng)
        {
            board.play_unchecked(p, color);
        }
    }
    let mut moves: Vec<Move> = board
        .geometry()
        .points()
        .filter(|&p| board.is_legal(p, Color::Black))
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    let mut out = Vec::with_capacity(MAX_POINTS + 1);
    out.resize(moves.len(), Prior::NONE);
    let query = PriorQuery::new(&board, Color::Black, Recent::default(), &moves);
    // The table is parsed and its caches built before counting.
    priors.priors(&query, &mut out);
    let n = allocations_during(|| {
        for _ in 0..20 {
            out.fill(Prior::NONE);
            priors.priors(&query, &mut out);
        }
    });
    assert_eq!(n, 0, "pattern priors allocated {n} times");
    assert!(out.iter().any(|p| p.visits > 0.0));
}

/// A middle-game position: half the board's points of random light moves, alternating
/// colours (a pass where none is left), from generator `(seed, stream)`.
fn light_middle_game(size: usize, seed: u64, stream: u64) -> Board {
    let mut board = Board::new(size).unwrap();
    let mut rng = playout_rng(seed, stream);
    for m in 0..size * size / 2 {
        let color = if m % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        match hane::playout::PlayoutPolicy::choose(&mut LightPolicy, &mut board, color, &mut rng) {
            Some(p) => {
                board.play_unchecked(p, color);
            }
            None => board.pass(),
        }
    }
    board
}

#[test]
fn the_tactical_reader_allocates_nothing() {
    use hane::tactics::liberties::liberties_capped;
    use hane::tactics::reader::Reader;
    let mut reader = Reader::new();
    // Middle-game positions of random light moves, and their chains of few liberties.
    let mut positions = Vec::new();
    for (k, size) in [9, 19, 9, 19].into_iter().enumerate() {
        let board = light_middle_game(size, 23, k as u64);
        let targets: Vec<Point> = board
            .geometry()
            .points()
            .filter(|&p| board.cell(p).color().is_some() && liberties_capped(&board, p, 5) <= 3)
            .collect();
        positions.push((board, targets));
    }
    let n = allocations_during(|| {
        for (board, targets) in &positions {
            for &p in targets {
                std::hint::black_box(reader.attack(board, p));
                std::hint::black_box(reader.defend(board, p));
            }
        }
    });
    assert_eq!(n, 0, "the tactical reader allocated {n} times");
    let reads: usize = positions.iter().map(|(_, t)| 2 * t.len()).sum();
    assert!(
        reads > 200 && reader.stats().nodes > 10_000,
        "{reads} reads, {:?}",
        reader.stats()
    );
}

#[test]
fn the_race_reader_allocates_nothing() {
    use hane::tactics::liberties::liberties_capped;
    use hane::tactics::semeai::SemeaiReader;
    let mut reader = SemeaiReader::new();
    // Middle-game positions of random light moves, and their adjacent pairs of chains of
    // opposite colours with few liberties.
    let mut positions = Vec::new();
    for (k, size) in [9, 13, 9, 13].into_iter().enumerate() {
        let board = light_middle_game(size, 29, k as u64);
        let g = board.geometry();
        let mut pairs = Vec::new();
        for p in g.points() {
            if board.cell(p).color() != Some(Color::Black) || liberties_capped(&board, p, 5) > 4 {
                continue;
            }
            for n in g.neighbors(p) {
                let q = Point::from_index(n);
                if board.cell(q).color() == Some(Color::White)
                    && liberties_capped(&board, q, 5) <= 4
                {
                    pairs.push((p, q));
                }
            }
        }
        positions.push((board, pairs));
    }
    let n = allocations_during(|| {
        for (board, pairs) in &positions {
            for &(a, b) in pairs {
                std::hint::black_box(reader.analyze(board, a, b));
                std::hint::black_box(reader.analyze(board, b, a));
                std::hint::black_box(reader.is_seki(board, a, b));
            }
        }
    });
    assert_eq!(n, 0, "the race reader allocated {n} times");
    let reads: usize = positions.iter().map(|(_, p)| 2 * p.len()).sum();
    assert!(
        reads > 50 && reader.stats().nodes > 1_000,
        "{reads} reads, {:?}",
        reader.stats()
    );
}

#[test]
fn the_owl_reader_allocates_nothing() {
    use hane::tactics::liberties::liberties_capped;
    use hane::tactics::owl::{OwlLimits, OwlReader};
    let mut reader = OwlReader::with_limits(
        OwlLimits {
            nodes: 2_000,
            ..OwlLimits::default()
        },
        OwlReader::DEFAULT_TABLE_BITS,
    );
    // Middle-game positions of random light moves, and one stone of each chain of few
    // liberties (the groups through them).
    let mut positions = Vec::new();
    for (k, size) in [9, 13, 9, 19].into_iter().enumerate() {
        let board = light_middle_game(size, 31, k as u64);
        let targets: Vec<Point> = board
            .geometry()
            .points()
            .filter(|&p| {
                board.cell(p).color().is_some()
                    && board.chain_id(p) == p.index()
                    && liberties_capped(&board, p, 5) <= 4
            })
            .collect();
        positions.push((board, targets));
    }
    let n = allocations_during(|| {
        for (board, targets) in &positions {
            for &p in targets {
                std::hint::black_box(reader.attack(board, p));
                std::hint::black_box(reader.defend(board, p));
            }
        }
    });
    assert_eq!(n, 0, "the owl reader allocated {n} times");
    let reads: usize = positions.iter().map(|(_, t)| 2 * t.len()).sum();
    assert!(
        reads > 50 && reader.stats().nodes > 1_000,
        "{reads} reads, {:?}",
        reader.stats()
    );
}
