//! Minorization-maximization on synthetic data: choices drawn from a Bradley-Terry model
//! with known strengths are fitted back to those strengths, and every round raises the
//! likelihood.

use hane::pattern::train::{ABSENT, Dataset};
use hane::playout::{playout_rng, random_below};

#[test]
fn mm_recovers_known_strengths() {
    // Two groups: sizes 3 and 4, with known gammas; a feature is absent (gamma 1) 30% of the
    // time, which fixes the scale of each group.
    let truth: Vec<Vec<f64>> = vec![vec![0.2, 3.0, 8.0], vec![0.5, 1.5, 4.0, 0.1]];
    let mut data = Dataset::new(vec![3, 4]);
    let mut rng = playout_rng(42, 0);
    let mut all_teams = Vec::new();
    for a in 0..4u32 {
        for b in 0..5u32 {
            let row = [
                if a == 3 { ABSENT } else { a },
                if b == 4 { ABSENT } else { b },
            ];
            let strength: f64 = row
                .iter()
                .enumerate()
                .filter(|&(_, &f)| f != ABSENT)
                .map(|(g, &f)| truth[g][f as usize])
                .product();
            all_teams.push((data.team(&row), strength));
        }
    }
    let positions = 30_000;
    for _ in 0..positions {
        let n = 2 + random_below(&mut rng, 12);
        let cands: Vec<(u32, f64)> = (0..n)
            .map(|_| all_teams[random_below(&mut rng, all_teams.len())])
            .collect();
        let total: f64 = cands.iter().map(|&(_, s)| s).sum();
        let mut x = random_below(&mut rng, 1 << 30) as f64 / (1u64 << 30) as f64 * total;
        let mut winner = n - 1;
        for (k, &(_, s)) in cands.iter().enumerate() {
            x -= s;
            if x < 0.0 {
                winner = k;
                break;
            }
        }
        let ids: Vec<u32> = cands.iter().map(|&(t, _)| t).collect();
        data.add_position(&ids, winner);
    }
    let mut likelihoods = Vec::new();
    let fitted = data.fit_mm(60, 1, |_, ll| likelihoods.push(ll));
    for (g, gammas) in truth.iter().enumerate() {
        for (i, &want) in gammas.iter().enumerate() {
            let got = fitted[g][i];
            let ratio = got / want;
            assert!(
                (0.9..1.1).contains(&ratio),
                "group {g} feature {i}: fitted {got:.3}, true {want}"
            );
        }
    }
    for pair in likelihoods.windows(2) {
        assert!(
            pair[1] >= pair[0] - 1e-9,
            "likelihood fell: {likelihoods:?}"
        );
    }
    assert!(likelihoods.last().unwrap() > &likelihoods[0]);
}

/// The factorization Bradley-Terry fit on choices drawn from a model no product of
/// per-feature gammas can express: two groups of two features, a team four times as strong
/// when its two features "match" (0 with 0, 1 with 1). MM can only give the four teams the
/// same strength; the latent factors recover the interaction, and the fitted model's
/// log-likelihood (computed here from the returned gammas and factors) comes near the
/// true model's.
#[test]
fn latent_factors_recover_an_interaction_that_mm_cannot() {
    use hane::pattern::train::LatentFit;
    let truth = |a: u32, b: u32| if a == b { 4.0 } else { 1.0 };
    let mut data = Dataset::new(vec![2, 2]);
    let teams: Vec<(u32, [u32; 2])> = [[0, 0], [0, 1], [1, 0], [1, 1]]
        .into_iter()
        .map(|row| (data.team(&row), row))
        .collect();
    let mut rng = playout_rng(7, 0);
    let mut positions = Vec::new();
    for _ in 0..20_000 {
        let n = 2 + random_below(&mut rng, 4);
        let cands: Vec<usize> = (0..n).map(|_| random_below(&mut rng, 4)).collect();
        let total: f64 = cands
            .iter()
            .map(|&t| truth(teams[t].1[0], teams[t].1[1]))
            .sum();
        let mut x = random_below(&mut rng, 1 << 30) as f64 / (1u64 << 30) as f64 * total;
        let mut winner = n - 1;
        for (k, &t) in cands.iter().enumerate() {
            x -= truth(teams[t].1[0], teams[t].1[1]);
            if x < 0.0 {
                winner = k;
                break;
            }
        }
        let ids: Vec<u32> = cands.iter().map(|&t| teams[t].0).collect();
        data.add_position(&ids, winner);
        positions.push((cands, winner));
    }
    let mean_log_likelihood = |strength: &dyn Fn(u32, u32) -> f64| {
        let mut sum = 0.0;
        for (cands, winner) in &positions {
            let s = |t: usize| strength(teams[t].1[0], teams[t].1[1]);
            let total: f64 = cands.iter().map(|&t| s(t)).sum();
            sum += (s(cands[*winner]) / total).ln();
        }
        sum / positions.len() as f64
    };
    let mm = data.fit_mm(30, 2, |_, _| {});
    let mm_ll = mean_log_likelihood(&|a, b| mm[0][a as usize] * mm[1][b as usize]);
    let fit = LatentFit {
        dims: 2,
        epochs: 12,
        rate: 0.05,
        regularization: 0.0,
        seed: 3,
        min: 0.0,
    };
    // One thread (plain SGD), and threads that add up their changes window by window.
    for threads in [1, 3] {
        let (gammas, factors) = data.fit_latent(&mm, &fit, threads, |_, _| {});
        let fitted = |a: u32, b: u32| {
            let (a, b) = (a as usize, b as usize);
            let dot: f32 = (0..2)
                .map(|k| factors[0][a * 2 + k] * factors[1][b * 2 + k])
                .sum();
            gammas[0][a] * gammas[1][b] * f64::from(dot).exp()
        };
        let fitted_ll = mean_log_likelihood(&fitted);
        let true_ll = mean_log_likelihood(&truth);
        assert!(
            fitted_ll > mm_ll + 0.05 && fitted_ll > true_ll - 0.01,
            "{threads} threads, mean log-likelihood: MM {mm_ll:.4}, factors {fitted_ll:.4}, true model {true_ll:.4}"
        );
        // The matching teams come out about four times as strong as the others.
        for (a, b) in [(0, 0), (1, 1)] {
            for (c, d) in [(0, 1), (1, 0)] {
                let ratio = fitted(a, b) / fitted(c, d);
                assert!(
                    (3.0..5.3).contains(&ratio),
                    "{threads} threads, {a}{b} over {c}{d}: {ratio:.2}"
                );
            }
        }
    }
}

/// A data set stores each distinct team once: the same features give the same id, through
/// the index's growth, as a plain map of the rows says.
#[test]
fn teams_with_equal_features_share_an_id() {
    let mut data = Dataset::new(vec![30, 25, 3]);
    let mut reference: std::collections::HashMap<Vec<u32>, u32> = Default::default();
    let mut rng = playout_rng(11, 0);
    for _ in 0..20_000 {
        let mut feature = |n: u32| match random_below(&mut rng, n as usize + 1) as u32 {
            x if x == n => ABSENT,
            x => x,
        };
        let row = vec![feature(30), feature(25), feature(3)];
        let next = reference.len() as u32;
        let expected = *reference.entry(row.clone()).or_insert(next);
        assert_eq!(data.team(&row), expected, "{row:?}");
    }
    // Of 31 * 26 * 4 = 3,224 possible rows most are seen, many of them more than once; the
    // index grew from 1,024 slots to 8,192 on the way.
    assert!(reference.len() > 3_000, "{}", reference.len());
    assert_eq!(data.teams(), reference.len());
}

/// Random positions over teams of three groups (sizes 5, 4, 6; a feature absent a sixth of
/// the time), the winner drawn uniformly: for tests that compare ways of building and
/// fitting the same data.
fn random_positions(seed: u64, count: usize) -> Vec<(Vec<[u32; 3]>, usize)> {
    let mut rng = playout_rng(seed, 0);
    let sizes = [5usize, 4, 6];
    (0..count)
        .map(|_| {
            let n = 2 + random_below(&mut rng, 9);
            let rows: Vec<[u32; 3]> = (0..n)
                .map(|_| {
                    std::array::from_fn(|g| {
                        let f = random_below(&mut rng, sizes[g] + 1);
                        if f == sizes[g] { ABSENT } else { f as u32 }
                    })
                })
                .collect();
            let winner = random_below(&mut rng, n);
            (rows, winner)
        })
        .collect()
}

fn add_all(data: &mut Dataset, positions: &[(Vec<[u32; 3]>, usize)]) {
    for (rows, winner) in positions {
        let ids: Vec<u32> = rows.iter().map(|row| data.team(row)).collect();
        data.add_position(&ids, *winner);
    }
}

/// Parts built apart (as the trainer's threads build them) and appended in order give the
/// data set that adding every position to one gives: the same teams, positions and
/// candidates, and the same fit to the last bit.
#[test]
fn parts_appended_in_order_make_the_same_data_set() {
    let positions = random_positions(5, 3_000);
    let mut whole = Dataset::new(vec![5, 4, 6]);
    add_all(&mut whole, &positions);
    let mut joined = Dataset::new(vec![5, 4, 6]);
    for chunk in positions.chunks(700) {
        let mut part = Dataset::new(vec![5, 4, 6]);
        add_all(&mut part, chunk);
        joined.append(&part);
    }
    assert_eq!(joined.teams(), whole.teams());
    assert_eq!(joined.positions(), whole.positions());
    assert_eq!(joined.candidate_count(), whole.candidate_count());
    // Team ids follow the order of first appearance in both.
    let rows: Vec<[u32; 3]> = positions.iter().flat_map(|(r, _)| r.clone()).collect();
    for row in &rows[..200] {
        assert_eq!(joined.team(row), whole.team(row));
    }
    assert_eq!(joined.teams(), whole.teams(), "looking up added a team");
    let a = whole.fit_mm(8, 1, |_, _| {});
    let b = joined.fit_mm(8, 1, |_, _| {});
    assert_eq!(a, b);
}

/// MM on several threads sums the same terms in another order: the gammas and the
/// likelihoods agree with one thread's to about the last bits, and each round still
/// raises the likelihood.
#[test]
fn mm_on_threads_matches_one_thread() {
    let positions = random_positions(9, 5_000);
    let mut data = Dataset::new(vec![5, 4, 6]);
    add_all(&mut data, &positions);
    let mut one_ll = Vec::new();
    let one = data.fit_mm(12, 1, |_, ll| one_ll.push(ll));
    for threads in [2, 3, 8] {
        let mut ll = Vec::new();
        let many = data.fit_mm(12, threads, |_, x| ll.push(x));
        for (g, (x, y)) in one.iter().zip(&many).enumerate() {
            for (i, (a, b)) in x.iter().zip(y).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-9 * a.abs(),
                    "{threads} threads, group {g} feature {i}: {a} against {b}"
                );
            }
        }
        for (a, b) in one_ll.iter().zip(&ll) {
            assert!(
                (a - b).abs() < 1e-9,
                "{threads} threads: {one_ll:?} against {ll:?}"
            );
        }
        for pair in ll.windows(2) {
            assert!(pair[1] >= pair[0] - 1e-12, "likelihood fell: {ll:?}");
        }
    }
}
