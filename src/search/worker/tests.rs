//! Tests of the module `worker`.

use super::*;
use crate::board::Point;
use crate::settings::{Auto, SearchParams};

/// The selection of the default search without exploration, RAVE equivalence 3000 and a
/// first-play urgency of 1.
fn greedy_selection() -> Selection {
    SearchParams {
        exploration: Auto::Value(0.0),
        rave: 3000.0,
        fpu: 1.0,
        ..SearchParams::default()
    }
    .selection()
}

/// Two fresh edges: `a` with a strong prior but AMAF results that lost, `b` with no prior
/// and AMAF results that won half the time. Counting the prior as AMAF playouts (rave-prior) is what
/// keeps `a` ahead.
#[test]
fn rave_prior_counts_the_prior_as_amaf_playouts() {
    let a = Edge::new(
        Move::Play(Point::from_index(20)),
        Prior {
            visits: 20.0,
            wins: 19.0,
        },
    );
    let b = Edge::new(Move::Play(Point::from_index(21)), Prior::NONE);
    for k in 0..30 {
        a.add_amaf(0); // lost
        b.add_amaf(if k % 2 == 0 { 2 } else { 0 }); // in half-wins: won, lost
    }
    let node = Node::default();
    let edges = [a, b];
    let mut config = greedy_selection();
    config.rave_prior = 0.0;
    assert_eq!(select(&node, &edges, &config), 1);
    config.rave_prior = 2.0;
    assert_eq!(select(&node, &edges, &config), 0);
}

/// The selection value as first written (four divisions, `beta` spelled out), for random
/// edges: `select` must pick an edge whose textbook score is the best (up to rounding).
fn textbook_score(node: &Node, edge: &Edge, config: &Selection) -> f32 {
    let parent = node.stats().visits as f32;
    let prior = edge.prior();
    let stats = edge.stats();
    let n = prior.visits + stats.visits as f32 + edge.virtual_loss() as f32 * config.virtual_loss;
    let w = prior.wins + stats.wins;
    let amaf = edge.amaf();
    let (an, aw) = if config.rave > 0.0 {
        (
            amaf.visits as f32 + config.rave_prior * prior.visits,
            amaf.wins + config.rave_prior * prior.wins,
        )
    } else {
        (0.0, 0.0)
    };
    let value = if an > 0.0 {
        let beta = an / (an + n + an * n / config.rave);
        let q = if n > 0.0 { w / n } else { 0.0 };
        (1.0 - beta) * q + beta * (aw / an)
    } else if n > 0.0 {
        w / n
    } else {
        config.fpu
    };
    let c = config.exploration;
    value + c * ((parent + 1.0).ln() / (n + 1.0)).sqrt()
}

#[test]
fn select_picks_the_best_textbook_score() {
    use rand::{RngExt as _, SeedableRng as _};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
    let mut checked = 0;
    for round in 0..400 {
        let node = Node::default();
        for _ in 0..rng.random_range(0..3000) {
            node.add_result(1);
        }
        let edges: Vec<Edge> = (0..rng.random_range(1..12))
            .map(|k| {
                let visits = if rng.random_bool(0.3) {
                    0.0
                } else {
                    rng.random_range(0.0..40.0f32)
                };
                let prior = Prior {
                    visits,
                    wins: visits * rng.random_range(0.0..1.0f32),
                };
                let edge = Edge::new(Move::Play(Point::from_index(20 + k)), prior);
                for _ in 0..rng.random_range(0..3) * rng.random_range(0..200) {
                    edge.add_result(rng.random_range(0..3));
                }
                for _ in 0..rng.random_range(0..2) * rng.random_range(0..500) {
                    edge.add_amaf(rng.random_range(0..3));
                }
                edge
            })
            .collect();
        let _losses: Vec<_> = edges
            .iter()
            .filter(|_| rng.random_bool(0.1))
            .map(|e| e.enter())
            .collect();
        let config = Selection {
            exploration: [0.0, 0.02, 0.2, 1.0][round % 4],
            rave: [3000.0, 50.0, 0.0][round % 3],
            rave_prior: [3.0, 0.0, 1.0][(round / 3) % 3],
            fpu: [1.0, 0.5][(round / 9) % 2],
            virtual_loss: [1.0, 3.0][(round / 18) % 2],
            ..SearchParams::default().selection()
        };
        let chosen = select(&node, &edges, &config);
        let scores: Vec<f32> = edges
            .iter()
            .map(|e| textbook_score(&node, e, &config))
            .collect();
        let best = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert!(
            scores[chosen] >= best - 1e-5 * best.abs().max(1.0),
            "round {round}: chose {chosen} scoring {} but the best scores {best}: {scores:?}",
            scores[chosen]
        );
        checked += edges.len();
    }
    assert!(checked > 1000);
}

#[test]
fn distance_weighting_counts_early_moves_more_than_late_ones() {
    let full = AMAF_WEIGHT_UNITS;
    // Off: every move weighs the same, whatever its distance.
    let per_step = amaf_units_lost_per_step(0.0, 3, 103);
    assert!((0..100).all(|later| amaf_units(per_step, later) == full));
    // k = 0.5, a node at step 3 of a game played out to step 103: the node's own move
    // counts fully, one halfway down half of what it loses at the end, the last one
    // about half.
    let per_step = amaf_units_lost_per_step(0.5, 3, 103);
    assert_eq!(amaf_units(per_step, 0), full);
    assert_eq!(amaf_units(per_step, 50), full * 3 / 4);
    assert_eq!(amaf_units(per_step, 99), full / 2);
    let weights: Vec<u32> = (0..100).map(|later| amaf_units(per_step, later)).collect();
    assert!(weights.windows(2).all(|w| w[0] >= w[1]), "{weights:?}");
    // k = 1: the last moves count (almost) nothing, never less.
    let per_step = amaf_units_lost_per_step(1.0, 0, 40);
    assert_eq!(amaf_units(per_step, 40), 0);
    assert_eq!(amaf_units(per_step, 1000), 0);
    // An increment carries the weight in both halves.
    assert_eq!(weighted_increment(2, 12), 12 << 32 | 24);
    assert_eq!(weighted_increment(1, 1), result_increment(1));
}

/// Two edges with the same AMAF statistics, the second one's point critical: with the
/// criticality setting and enough samples the selection prefers it, without it (or
/// with too few samples) the tie goes to the first edge.
#[test]
fn criticality_prefers_the_critical_move() {
    use super::super::tree::CRITICALITY_START_VISITS;
    let [a, b] = [30usize, 31];
    let node = Node::default();
    assert!(node.try_begin_expansion());
    node.finish_expansion(
        [a, b]
            .map(|i| Edge::new(Move::Play(Point::from_index(i)), Prior::NONE))
            .into(),
    );
    for k in 0..200 {
        for edge in node.edges().unwrap() {
            edge.add_amaf(if k % 2 == 0 { 2 } else { 0 });
        }
    }
    for _ in 0..CRITICALITY_START_VISITS {
        node.add_result(1);
    }
    let mut config = greedy_selection();
    config.criticality = 2.0;
    let budget = MemoryBudget::new(0, 1 << 20, false);
    let mut memory = LocalMemory::new(&budget);
    let record = |node: &Node, memory: &mut LocalMemory<'_>, playouts: u32| {
        let edges = node.edges().unwrap();
        let counts = node.criticality_or_create(edges, memory).unwrap();
        let mut owners = [0u8; 64];
        for round in 0..playouts {
            // B goes to the winner, A to black whoever wins.
            let winner = if round % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            owners[a] = Color::Black as u8;
            owners[b] = winner as u8;
            counts.record(edges, winner, &owners);
        }
    };
    record(&node, &mut memory, CRITICALITY_MIN_SAMPLES - 1);
    assert_eq!(select(&node, node.edges().unwrap(), &config), 0);
    record(&node, &mut memory, 1);
    assert_eq!(select(&node, node.edges().unwrap(), &config), 1);
    config.criticality = 0.0;
    assert_eq!(select(&node, node.edges().unwrap(), &config), 0);
}

#[test]
fn root_amaf_batches_keep_the_unwritten_results_a_small_share() {
    for visits in [0, 1, 100, 511, 512, 1_000, 5_000, 20_000, 1_000_000] {
        // One thread: eager while the root is young, the full batch after.
        let one = root_amaf_batch(visits, 1);
        assert_eq!(one, if visits < 512 { 1 } else { 16 }, "visits {visits}");
        for threads in [1, 2, 4, 16, 32, 64] {
            let batch = root_amaf_batch(visits, threads);
            assert!(
                (1..=16).contains(&batch),
                "visits {visits} threads {threads}"
            );
            // All threads' pending results together: at most one in 32 of the visits,
            // or one playout per thread.
            let pending = (batch - 1) as usize * threads;
            assert!(
                pending <= (visits as usize / 32).max(threads),
                "visits {visits} threads {threads}: {pending} pending"
            );
        }
    }
    // Sixteen threads on a 1,000-playout search write every result at once.
    assert_eq!(root_amaf_batch(1_000, 16), 1);
    assert_eq!(root_amaf_batch(8_192, 16), 16);
}

#[test]
fn a_descent_waits_for_the_edges_of_a_node_under_expansion() {
    let edge = |i| Edge::new(Move::Play(Point::from_index(i)), Prior::NONE);
    let stop = AtomicBool::new(false);
    // Unexpanded: nothing to wait for.
    let node = Node::default();
    assert!(wait_for_expansion(&node, &stop).is_none());
    // Another thread publishes the edges after a while: the wait returns them.
    assert!(node.try_begin_expansion());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            node.finish_expansion(vec![edge(30), edge(31)].into_boxed_slice());
        });
        let edges = wait_for_expansion(&node, &stop).expect("published");
        assert_eq!(edges.len(), 2);
    });
    // The expanding thread gives up (memory full): no edges, the node stays a leaf.
    let node = Node::default();
    assert!(node.try_begin_expansion());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            node.abandon_expansion();
        });
        assert!(wait_for_expansion(&node, &stop).is_none());
    });
    assert!(node.try_begin_expansion(), "free to expand again");
    // The search stops while the expansion is under way: the wait ends at once.
    stop.store(true, Ordering::Relaxed);
    assert!(wait_for_expansion(&node, &stop).is_none());
    assert!(node.is_expanding());
}
