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
    let fitted = data.fit_mm(60, |_, ll| likelihoods.push(ll));
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
