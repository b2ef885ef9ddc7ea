//! Learning the table: replaying game records into training positions, choosing which
//! shapes get their own weight, and fitting the Bradley-Terry model of move choice with
//! Coulom's minorization-maximization (MM) algorithm; and measuring move prediction.
//!
//! The model: each candidate move (every legal point and pass) is a *team* of features, its
//! strength the product of their gammas, and the move played is the team that won a
//! competition among all candidates. MM raises the likelihood at every step by updating one
//! feature group at a time: `gamma_i <- W_i / C_i`, where `W_i` counts the positions whose
//! played move has feature `i` and `C_i` sums, over positions, the strength of the candidates
//! with feature `i` divided by `gamma_i` and by the position's total strength. Every gamma
//! also gets one virtual win and one virtual loss against a gamma of 1 (Coulom's prior),
//! which keeps rare features finite.

use std::collections::HashMap;
use std::hash::Hasher;

use crate::board::{Board, Color, GameState, KoRule, Move, Point, Recent, Rules};
use crate::sgf::SgfGame;

use super::features::{Context, Group, LEVELLED_GROUPS, MoveFeatures, SHAPE_GROUPS, extract};
use super::table::{MAX_FACTORS, PatternTable, ShapeWeights};

/// Marks a feature group a team does not have (gamma 1).
pub const ABSENT: u32 = u32::MAX;

/// Replays `game` and calls `visit(board, context, move played)` before each move, stopping
/// at the first move the board rules forbid. Returns `Err(move number)` (1-based) when the
/// game stopped early or its setup could not be replayed (number 0).
pub fn for_each_position(
    game: &SgfGame,
    mut visit: impl FnMut(&Board, &Context, Move),
) -> Result<(), usize> {
    let mut recent = Recent::default();
    for_each_state(game, |state, color, mv| {
        visit(state.board(), &Context::new(color, recent), mv);
        recent = recent.after(mv);
    })
}

/// Replays `game` as [`for_each_position`] does and calls `visit(state, color, mv)` before
/// each move, with the whole game state (its history and setup, for a move ranker that
/// needs more than the board).
pub fn for_each_state(
    game: &SgfGame,
    mut visit: impl FnMut(&GameState, Color, Move),
) -> Result<(), usize> {
    let rules = Rules {
        ko: KoRule::Simple,
        suicide_allowed: false,
        ..Rules::default()
    };
    let mut state: GameState = game.replay(rules, Some(1)).map_err(|_| 0usize)?;
    for (k, &(color, mv)) in game.moves.iter().enumerate() {
        if state.check_move(color, mv).is_err() {
            return Err(k + 1);
        }
        visit(&state, color, mv);
        state
            .play(color, mv)
            .expect("checked just above and nothing changed");
    }
    Ok(())
}

/// Counts, per shape group, how often each folded shape was the move played; shapes seen at
/// least a threshold number of times get their own gamma.
#[derive(Debug, Default)]
pub struct ShapeCounter {
    counts: [HashMap<u64, u32>; SHAPE_GROUPS],
}

impl ShapeCounter {
    pub fn new() -> ShapeCounter {
        ShapeCounter::default()
    }

    /// Counts the shapes of the move played at one position.
    pub fn observe(&mut self, board: &Board, ctx: &Context, played: Move) {
        if let Move::Play(p) = played {
            let f = extract(board, Some(p), ctx);
            for (slot, &code) in f.shapes.iter().enumerate() {
                *self.counts[slot].entry(code).or_insert(0) += 1;
            }
        }
    }

    /// Adds the counts of `other` (shapes counted on other games).
    pub fn merge(&mut self, other: ShapeCounter) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            for (code, n) in theirs {
                *mine.entry(code).or_insert(0) += n;
            }
        }
    }

    /// The shapes of each group seen at least `min_count[group]` times, sorted.
    pub fn frequent(&self, min_count: [u32; SHAPE_GROUPS]) -> [Vec<u64>; SHAPE_GROUPS] {
        std::array::from_fn(|slot| {
            let mut codes: Vec<u64> = self.counts[slot]
                .iter()
                .filter(|&(_, &n)| n >= min_count[slot])
                .map(|(&c, _)| c)
                .collect();
            codes.sort_unstable();
            codes
        })
    }
}

/// A fast multiply-rotate hasher for team rows (the keys are not adversarial).
#[derive(Default)]
pub struct TeamHasher(u64);

impl Hasher for TeamHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.write_u64(b as u64);
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// The ids of a [`Dataset`]'s teams by their features: an open-addressing table of ids whose
/// keys are the teams' rows in `team_features`, so each row is stored once (a map keyed by
/// boxed rows held every row twice, with an allocation each: most of the trainer's memory
/// at 30,000 games).
#[derive(Debug, Default)]
struct TeamIndex {
    /// Team ids, [`TeamIndex::EMPTY`] where none; the length is a power of two (or 0).
    slots: Vec<u32>,
    /// Ids held.
    len: usize,
}

impl TeamIndex {
    const EMPTY: u32 = u32::MAX;

    fn hash(features: &[u32]) -> u64 {
        let mut h = TeamHasher::default();
        for &f in features {
            h.write_u32(f);
        }
        h.finish()
    }

    /// The id of the team with `features` among the rows of `rows` (`groups` values each),
    /// or the free slot where it goes.
    fn find(&self, rows: &[u32], groups: usize, features: &[u32]) -> Result<u32, usize> {
        if self.slots.is_empty() {
            return Err(usize::MAX);
        }
        let mask = self.slots.len() - 1;
        let mut slot = Self::hash(features) as usize & mask;
        loop {
            let id = self.slots[slot];
            if id == Self::EMPTY {
                return Err(slot);
            }
            let i = id as usize * groups;
            if rows[i..i + groups] == *features {
                return Ok(id);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Puts `id` (whose row is already in `rows`) in `slot` from [`TeamIndex::find`],
    /// growing the table to keep it at most half full.
    fn insert(&mut self, rows: &[u32], groups: usize, slot: usize, id: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            let capacity = (2 * self.slots.len()).max(1024);
            self.slots = vec![Self::EMPTY; capacity];
            self.len = 0;
            for t in 0..=id {
                let i = t as usize * groups;
                let free = self
                    .find(rows, groups, &rows[i..i + groups])
                    .expect_err("each team is indexed once");
                self.slots[free] = t;
                self.len += 1;
            }
            return;
        }
        self.slots[slot] = id;
        self.len += 1;
    }
}

/// A Bradley-Terry competition data set: teams (one feature index or [`ABSENT`] per group)
/// and positions (candidate teams, one of them the winner). Teams with equal features are
/// stored once.
#[derive(Debug)]
pub struct Dataset {
    /// Features per group.
    group_sizes: Vec<usize>,
    /// `team_features[t * groups + g]`: feature of team `t` in group `g`.
    team_features: Vec<u32>,
    /// Team ids by their features (rows of `team_features`).
    team_ids: TeamIndex,
    /// Candidate teams of all positions, one after another.
    candidates: Vec<u32>,
    /// Start of each position in `candidates`, plus the end.
    starts: Vec<usize>,
    winners: Vec<u32>,
}

impl Dataset {
    /// An empty data set with `group_sizes[g]` features in group `g`.
    pub fn new(group_sizes: Vec<usize>) -> Dataset {
        Dataset {
            group_sizes,
            team_features: Vec::new(),
            team_ids: TeamIndex::default(),
            candidates: Vec::new(),
            starts: vec![0],
            winners: Vec::new(),
        }
    }

    pub fn groups(&self) -> usize {
        self.group_sizes.len()
    }

    pub fn positions(&self) -> usize {
        self.winners.len()
    }

    pub fn teams(&self) -> usize {
        self.team_features.len() / self.groups().max(1)
    }

    pub fn candidate_count(&self) -> usize {
        self.candidates.len()
    }

    /// The id of the team with these features (one per group), adding it if new.
    pub fn team(&mut self, features: &[u32]) -> u32 {
        assert_eq!(features.len(), self.groups());
        for (g, &f) in features.iter().enumerate() {
            assert!(f == ABSENT || (f as usize) < self.group_sizes[g]);
        }
        let groups = self.groups();
        match self.team_ids.find(&self.team_features, groups, features) {
            Ok(id) => id,
            Err(slot) => {
                let id = self.teams() as u32;
                self.team_features.extend_from_slice(features);
                self.team_ids.insert(&self.team_features, groups, slot, id);
                id
            }
        }
    }

    /// Adds a position: the candidates' team ids and the index of the winner among them.
    pub fn add_position(&mut self, candidates: &[u32], winner: usize) {
        assert!(winner < candidates.len());
        self.candidates.extend_from_slice(candidates);
        self.starts.push(self.candidates.len());
        self.winners.push(candidates[winner]);
    }

    /// Appends the positions of `part` (a data set of the same groups), its teams renumbered
    /// as this data set's ids: new teams are added in `part`'s order, so appending the parts
    /// of a run of positions in order gives the data set that adding them one by one gives.
    pub fn append(&mut self, part: &Dataset) {
        assert_eq!(
            self.group_sizes, part.group_sizes,
            "parts of different models"
        );
        let groups = self.groups();
        let ids: Vec<u32> = (0..part.teams())
            .map(|t| self.team(&part.team_features[t * groups..(t + 1) * groups]))
            .collect();
        self.candidates
            .extend(part.candidates.iter().map(|&c| ids[c as usize]));
        let offset = self.starts.last().copied().unwrap_or(0);
        self.starts
            .extend(part.starts[1..].iter().map(|&s| s + offset));
        self.winners
            .extend(part.winners.iter().map(|&w| ids[w as usize]));
    }

    /// Fits gammas with `iterations` rounds of MM (each round updates every group once),
    /// on `threads` threads; `progress(round, mean log-likelihood before the round)` is
    /// called after each round. Returns `gammas[g][i]`.
    ///
    /// The teams' strengths are computed afresh at the start of each round and follow each
    /// group's new gammas by a ratio in between. Each thread sums the denominators of a
    /// share of the positions, so the results depend on `threads` in the last bits only.
    pub fn fit_mm(
        &self,
        iterations: usize,
        threads: usize,
        mut progress: impl FnMut(usize, f64),
    ) -> Vec<Vec<f64>> {
        let groups = self.groups();
        let threads = threads.max(1);
        let mut gammas: Vec<Vec<f64>> = self.group_sizes.iter().map(|&n| vec![1.0; n]).collect();
        let mut wins: Vec<Vec<f64>> = self.group_sizes.iter().map(|&n| vec![0.0; n]).collect();
        for &w in &self.winners {
            let row = &self.team_features[w as usize * groups..(w as usize + 1) * groups];
            for (group_wins, &f) in wins.iter_mut().zip(row) {
                if f != ABSENT {
                    group_wins[f as usize] += 1.0;
                }
            }
        }
        let mut strength = vec![0.0f64; self.teams()];
        let mut column = vec![ABSENT; self.teams()];
        for round in 0..iterations {
            each_chunk(&mut strength, threads, |first, chunk| {
                for (k, s) in chunk.iter_mut().enumerate() {
                    let t = first + k;
                    let row = &self.team_features[t * groups..(t + 1) * groups];
                    *s = row
                        .iter()
                        .enumerate()
                        .filter(|&(_, &f)| f != ABSENT)
                        .map(|(h, &f)| gammas[h][f as usize])
                        .product();
                }
            });
            let mut log_likelihood = 0.0;
            for g in 0..groups {
                // Group g's column of the teams' features: the passes below read it at
                // random, and a column is a fifteenth of the rows' memory.
                each_chunk(&mut column, threads, |first, chunk| {
                    for (k, f) in chunk.iter_mut().enumerate() {
                        *f = self.team_features[(first + k) * groups + g];
                    }
                });
                let (denominators, ll) =
                    self.mm_denominators(&column, &gammas[g], &strength, threads);
                if g == 0 {
                    log_likelihood = ll;
                }
                let old = gammas[g].clone();
                for (i, gamma) in gammas[g].iter_mut().enumerate() {
                    // One virtual win and one virtual loss against a gamma of 1.
                    *gamma = (wins[g][i] + 1.0) / (denominators[i] + 2.0 / (*gamma + 1.0));
                }
                let ratios: Vec<f64> = gammas[g].iter().zip(&old).map(|(n, o)| n / o).collect();
                each_chunk(&mut strength, threads, |first, chunk| {
                    for (s, &f) in chunk.iter_mut().zip(&column[first..]) {
                        if f != ABSENT {
                            *s *= ratios[f as usize];
                        }
                    }
                });
            }
            progress(round, log_likelihood / self.positions().max(1) as f64);
        }
        gammas
    }

    /// MM's denominators of a group (`C_i` of the module doc; `column[t]` is team `t`'s
    /// feature in the group) and the log-likelihood of the positions at these strengths,
    /// summed by `threads` threads over shares of the positions.
    fn mm_denominators(
        &self,
        column: &[u32],
        gammas: &[f64],
        strength: &[f64],
        threads: usize,
    ) -> (Vec<f64>, f64) {
        let partial = |range: std::ops::Range<usize>| {
            let mut denominators = vec![0.0f64; gammas.len()];
            let mut ll = 0.0f64;
            for k in range {
                let cands = &self.candidates[self.starts[k]..self.starts[k + 1]];
                let total: f64 = cands.iter().map(|&c| strength[c as usize]).sum();
                let inverse = 1.0 / total;
                for &c in cands {
                    let f = column[c as usize];
                    if f != ABSENT {
                        denominators[f as usize] += strength[c as usize] * inverse;
                    }
                }
                ll += (strength[self.winners[k] as usize] * inverse).ln();
            }
            for (d, gamma) in denominators.iter_mut().zip(gammas) {
                *d /= gamma;
            }
            (denominators, ll)
        };
        let parts = map_shares(self.positions(), threads, partial);
        let mut denominators = vec![0.0f64; gammas.len()];
        let mut ll = 0.0;
        for (part, part_ll) in parts {
            for (d, p) in denominators.iter_mut().zip(part) {
                *d += p;
            }
            ll += part_ll;
        }
        (denominators, ll)
    }
}

/// Runs `work(range)` on `threads` threads, each on its own contiguous share of `0..len`
/// (the last share may be shorter), and returns the results in the shares' order.
fn map_shares<R: Send>(
    len: usize,
    threads: usize,
    work: impl Fn(std::ops::Range<usize>) -> R + Sync,
) -> Vec<R> {
    let share = len.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..len)
            .step_by(share)
            .map(|start| {
                let work = &work;
                scope.spawn(move || work(start..(start + share).min(len)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a training thread panicked"))
            .collect()
    })
}

/// Runs `work(index of the chunk's first item, chunk)` on `threads` threads, each on its
/// own contiguous share of `items`.
fn each_chunk<T: Send>(items: &mut [T], threads: usize, work: impl Fn(usize, &mut [T]) + Sync) {
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (k, part) in items.chunks_mut(chunk).enumerate() {
            let work = &work;
            scope.spawn(move || work(k * chunk, part));
        }
    });
}

/// How [`Dataset::fit_latent`] fits latent factors.
#[derive(Clone, Copy, Debug)]
pub struct LatentFit {
    /// Latent factors per feature (at most [`MAX_FACTORS`]).
    pub dims: usize,
    /// Passes over the positions.
    pub epochs: usize,
    /// Step size of the first pass; pass `e` (from 0) uses `rate / (1 + e)`.
    pub rate: f32,
    /// L2 penalty on the factors.
    pub regularization: f32,
    /// Seed of the initial factors and of the order of the positions.
    pub seed: u64,
    /// In the table, a feature whose factors are all under this in magnitude gets none
    /// ([`PatternTable::compact_factors`]; 0: every feature keeps its factors).
    pub min: f32,
}

/// A candidate whose model probability differs from its target by less than this gets no
/// update (most candidates of a position are that unlikely).
const LATENT_MIN_STEP: f32 = 1e-6;

/// The parameters [`Dataset::fit_latent`] fits: `weights[g][i]` (log-gammas) and
/// `factors[g][i * dims..]`.
#[derive(Clone, Debug)]
struct LatentParams {
    weights: Vec<Vec<f32>>,
    factors: Vec<Vec<f32>>,
}

impl LatentParams {
    /// Joins the threads' parameters `locals`, all started from these: each parameter moves
    /// by the mean change of the threads that changed it. A rare feature, met by one
    /// thread, takes that thread's change; a common one, which every thread moved about
    /// the same way, moves as one thread moved it (their sum would overshoot).
    fn join(&mut self, locals: &[LatentParams]) {
        // Each thread's vectors in the order of ours: the weights', then the factors'.
        let theirs: Vec<Vec<&[f32]>> = locals
            .iter()
            .map(|l| {
                l.weights
                    .iter()
                    .chain(&l.factors)
                    .map(Vec::as_slice)
                    .collect()
            })
            .collect();
        let mine = self.weights.iter_mut().chain(self.factors.iter_mut());
        for (g, values) in mine.enumerate() {
            for (i, x) in values.iter_mut().enumerate() {
                let (mut change, mut threads) = (0.0f32, 0u32);
                for local in &theirs {
                    let theirs = local[g][i];
                    if theirs != *x {
                        change += theirs - *x;
                        threads += 1;
                    }
                }
                if threads > 0 {
                    *x += change / threads as f32;
                }
            }
        }
    }
}

/// Positions each thread of [`Dataset::fit_latent`] goes through between the moments its
/// changes are added up.
const LATENT_WINDOW: usize = 4096;

impl Dataset {
    /// Fits the factorization Bradley-Terry model by stochastic gradient descent on the
    /// log-likelihood: a team's log-strength is the sum of its features' log-gammas plus,
    /// for every pair of its features, the dot product of their latent factors (so a shape
    /// can count more next to the last move than far from it). Starts from `gammas` (an MM
    /// fit) and small random factors; `progress(epoch, mean log-likelihood during the
    /// epoch)` after each pass. Returns the gammas and `factors[g][i * dims..]`.
    ///
    /// On `threads` > 1 threads, each pass's shuffled positions go in windows of 4,096
    /// per thread: every thread descends on its share of the window from the parameters at
    /// the window's start, and at its end each parameter moves by the mean change of the
    /// threads that changed it (a thread does not see the others' steps of the same
    /// window). The result depends on `threads`; one thread is plain stochastic gradient
    /// descent.
    pub fn fit_latent(
        &self,
        gammas: &[Vec<f64>],
        fit: &LatentFit,
        threads: usize,
        mut progress: impl FnMut(usize, f64),
    ) -> (Vec<Vec<f64>>, Vec<Vec<f32>>) {
        use rand::{RngExt as _, SeedableRng as _};
        let dims = fit.dims;
        assert!((1..=MAX_FACTORS).contains(&dims));
        let threads = threads.max(1);
        let mut rng = rand_pcg::Pcg32::seed_from_u64(fit.seed);
        let weights: Vec<Vec<f32>> = gammas
            .iter()
            .map(|g| g.iter().map(|&x| x.ln() as f32).collect())
            .collect();
        let factors: Vec<Vec<f32>> = self
            .group_sizes
            .iter()
            .map(|&n| {
                (0..n * dims)
                    .map(|_| rng.random_range(-0.02..0.02f32))
                    .collect()
            })
            .collect();
        let mut params = LatentParams { weights, factors };
        let mut order: Vec<u32> = (0..self.positions() as u32).collect();
        let mut scratch = (Vec::new(), Vec::new());
        for epoch in 0..fit.epochs {
            // Fisher-Yates shuffle of the positions.
            for i in (1..order.len()).rev() {
                let j = rng.random_range(0..=i);
                order.swap(i, j);
            }
            let rate = fit.rate / (1.0 + epoch as f32);
            let mut log_likelihood = 0.0f64;
            if threads == 1 {
                for &k in &order {
                    log_likelihood +=
                        self.latent_step(k as usize, &mut params, fit, rate, &mut scratch);
                }
            } else {
                for window in order.chunks(LATENT_WINDOW * threads) {
                    let start = &params;
                    let results = map_shares(window.len(), threads, |range| {
                        let mut local = start.clone();
                        let mut scratch = (Vec::new(), Vec::new());
                        let mut ll = 0.0f64;
                        for &k in &window[range] {
                            ll += self.latent_step(k as usize, &mut local, fit, rate, &mut scratch);
                        }
                        (local, ll)
                    });
                    let (locals, lls): (Vec<LatentParams>, Vec<f64>) = results.into_iter().unzip();
                    params.join(&locals);
                    log_likelihood += lls.iter().sum::<f64>();
                }
            }
            progress(epoch, log_likelihood / self.positions().max(1) as f64);
        }
        let gammas = params
            .weights
            .iter()
            .map(|g| g.iter().map(|&w| f64::from(w).exp()).collect())
            .collect();
        (gammas, params.factors)
    }

    /// One step of stochastic gradient descent on position `k`; returns the log of the
    /// probability the parameters gave its winner before the step (0 where the winner is
    /// not among the candidates). `scratch` is working space.
    fn latent_step(
        &self,
        k: usize,
        params: &mut LatentParams,
        fit: &LatentFit,
        rate: f32,
        (scores, sums): &mut (Vec<f32>, Vec<f32>),
    ) -> f64 {
        let dims = fit.dims;
        let groups = self.groups();
        let LatentParams { weights, factors } = params;
        let cands = &self.candidates[self.starts[k]..self.starts[k + 1]];
        let winner = self.winners[k];
        scores.clear();
        sums.clear();
        sums.resize(cands.len() * dims, 0.0);
        let mut best = f32::NEG_INFINITY;
        for (i, &c) in cands.iter().enumerate() {
            let row = &self.team_features[c as usize * groups..(c as usize + 1) * groups];
            let sum = &mut sums[i * dims..(i + 1) * dims];
            let mut linear = 0.0f32;
            let mut norms = 0.0f32;
            for (g, &f) in row.iter().enumerate() {
                if f == ABSENT {
                    continue;
                }
                let f = f as usize;
                linear += weights[g][f];
                for (s, &x) in sum.iter_mut().zip(&factors[g][f * dims..(f + 1) * dims]) {
                    *s += x;
                    norms += x * x;
                }
            }
            let squared: f32 = sum.iter().map(|x| x * x).sum();
            let score = linear + 0.5 * (squared - norms);
            best = best.max(score);
            scores.push(score);
        }
        let mut total = 0.0f32;
        for s in scores.iter_mut() {
            *s = (*s - best).exp();
            total += *s;
        }
        let Some(won) = cands.iter().position(|&c| c == winner) else {
            return 0.0;
        };
        let log_likelihood = f64::from((scores[won] / total).ln());
        for (i, &c) in cands.iter().enumerate() {
            let step = scores[i] / total - if i == won { 1.0 } else { 0.0 };
            if step.abs() < LATENT_MIN_STEP {
                continue;
            }
            let row = &self.team_features[c as usize * groups..(c as usize + 1) * groups];
            let sum = &sums[i * dims..(i + 1) * dims];
            for (g, &f) in row.iter().enumerate() {
                if f == ABSENT {
                    continue;
                }
                let f = f as usize;
                weights[g][f] -= rate * step;
                for (v, &s) in factors[g][f * dims..(f + 1) * dims].iter_mut().zip(sum) {
                    *v -= rate * (step * (s - *v) + fit.regularization * *v);
                }
            }
        }
        log_likelihood
    }
}

/// Turns the features of a candidate into a team row: levelled groups first (feature index
/// `level - 1`), then shape groups (index 0 for "other", `k + 1` for the `k`-th listed
/// shape). The groups in `left_out` are [`ABSENT`] (their gammas stay 1).
pub fn team_row(
    f: &MoveFeatures,
    shape_index: &[HashMap<u64, u32>; SHAPE_GROUPS],
    left_out: &[Group],
) -> [u32; LEVELLED_GROUPS + SHAPE_GROUPS] {
    let mut row = [ABSENT; LEVELLED_GROUPS + SHAPE_GROUPS];
    for (slot, &level) in f.levels.iter().enumerate() {
        if level != 0 {
            row[slot] = level as u32 - 1;
        }
    }
    if !f.is_pass {
        for (slot, &code) in f.shapes.iter().enumerate() {
            row[LEVELLED_GROUPS + slot] = shape_index[slot].get(&code).map_or(0, |&k| k + 1);
        }
    }
    for g in left_out {
        let column = if Group::SHAPES.contains(g) {
            LEVELLED_GROUPS + g.slot()
        } else {
            g.slot()
        };
        row[column] = ABSENT;
    }
    row
}

/// The group sizes of the pattern model with the given listed shapes.
pub fn model_group_sizes(shapes: &[Vec<u64>; SHAPE_GROUPS]) -> Vec<usize> {
    Group::LEVELLED
        .iter()
        .map(|g| g.max_level())
        .chain(shapes.iter().map(|s| s.len() + 1))
        .collect()
}

/// Builds the training data of the pattern model from game positions.
pub struct PatternDataset {
    pub data: Dataset,
    shapes: [Vec<u64>; SHAPE_GROUPS],
    shape_index: [HashMap<u64, u32>; SHAPE_GROUPS],
    left_out: Vec<Group>,
}

impl PatternDataset {
    /// An empty data set where the given shapes get their own gamma.
    pub fn new(shapes: [Vec<u64>; SHAPE_GROUPS]) -> PatternDataset {
        PatternDataset::without(shapes, Vec::new())
    }

    /// An empty data set where the given shapes get their own gamma and the groups
    /// `left_out` are not used (their gammas stay 1).
    pub fn without(shapes: [Vec<u64>; SHAPE_GROUPS], left_out: Vec<Group>) -> PatternDataset {
        let shape_index = std::array::from_fn(|slot| {
            shapes[slot]
                .iter()
                .enumerate()
                .map(|(k, &c)| (c, k as u32))
                .collect()
        });
        PatternDataset {
            data: Dataset::new(model_group_sizes(&shapes)),
            shapes,
            shape_index,
            left_out,
        }
    }

    /// An empty data set of this model's groups, for [`PatternDataset::observe_into`] (one
    /// per thread; [`Dataset::append`] joins them).
    pub fn empty_part(&self) -> Dataset {
        Dataset::new(self.data.group_sizes.clone())
    }

    /// Adds one position to `data` (a part of this data set, from
    /// [`PatternDataset::empty_part`], joined by [`Dataset::append`]): every legal point
    /// and pass compete; `played` wins. `scratch` is working space.
    pub fn observe_into(
        &self,
        data: &mut Dataset,
        scratch: &mut Vec<u32>,
        board: &Board,
        ctx: &Context,
        played: Move,
    ) {
        scratch.clear();
        let mut winner = None;
        let pass = team_row(
            &extract(board, None, ctx),
            &self.shape_index,
            &self.left_out,
        );
        if played == Move::Pass {
            winner = Some(0);
        }
        scratch.push(data.team(&pass));
        for &index in board.empty_points() {
            let p = Point::from_index(index as usize);
            if !board.is_legal(p, ctx.color) {
                continue;
            }
            if played == Move::Play(p) {
                winner = Some(scratch.len());
            }
            let row = team_row(
                &extract(board, Some(p), ctx),
                &self.shape_index,
                &self.left_out,
            );
            scratch.push(data.team(&row));
        }
        if let Some(w) = winner {
            data.add_position(scratch, w);
        }
    }

    /// Fits the model by MM on `threads` threads and returns it as a table (without header).
    pub fn fit(
        &self,
        iterations: usize,
        threads: usize,
        progress: impl FnMut(usize, f64),
    ) -> PatternTable {
        let gammas = self.data.fit_mm(iterations, threads, progress);
        self.table(&gammas, None)
    }

    /// Fits the model by MM (on `threads` threads), then latent factors by
    /// [`Dataset::fit_latent`] from there; `mm_progress` after each MM round,
    /// `latent_progress` after each pass.
    pub fn fit_with_factors(
        &self,
        iterations: usize,
        threads: usize,
        fit: &LatentFit,
        mm_progress: impl FnMut(usize, f64),
        latent_progress: impl FnMut(usize, f64),
    ) -> PatternTable {
        let gammas = self.data.fit_mm(iterations, threads, mm_progress);
        let (gammas, factors) = self.data.fit_latent(&gammas, fit, threads, latent_progress);
        let mut table = self.table(&gammas, Some((fit.dims, &factors)));
        table.compact_factors(FACTOR_STEPS, fit.min);
        table
    }

    /// The table of fitted gammas (`gammas[g][i]`, per team-row group and feature index)
    /// and latent factors (`factors[g][i * dims..]`).
    fn table(&self, gammas: &[Vec<f64>], factors: Option<(usize, &[Vec<f32>])>) -> PatternTable {
        let mut table = PatternTable::uniform();
        if let Some((dims, factors)) = factors {
            let level_factors = std::array::from_fn(|slot| {
                let mut v = vec![0.0; dims];
                v.extend_from_slice(&factors[slot]);
                v
            });
            table.set_level_factors(dims, level_factors);
        }
        for g in Group::LEVELLED {
            for level in 1..=g.max_level() {
                table.set_level(g, level, gammas[g.slot()][level - 1] as f32);
            }
        }
        for g in Group::SHAPES {
            let fitted = &gammas[LEVELLED_GROUPS + g.slot()];
            let weights = match factors {
                None => {
                    let entries = self.shapes[g.slot()]
                        .iter()
                        .enumerate()
                        .map(|(k, &c)| (c, fitted[k + 1] as f32))
                        .collect();
                    ShapeWeights::new(entries, fitted[0] as f32)
                }
                Some((dims, factors)) => {
                    let rows = &factors[LEVELLED_GROUPS + g.slot()];
                    let row = |i: usize| rows[i * dims..(i + 1) * dims].to_vec();
                    let entries = self.shapes[g.slot()]
                        .iter()
                        .enumerate()
                        .map(|(k, &c)| (c, fitted[k + 1] as f32, row(k + 1)))
                        .collect();
                    ShapeWeights::with_factors(entries, fitted[0] as f32, row(0))
                }
            };
            table.set_shapes(g, weights);
        }
        table
    }
}

/// Latent factors are rounded to multiples of 1 / `FACTOR_STEPS` in a table: a factor is
/// written with at most three decimals (against four, no held-out figure of the 30,000-game
/// table moved by more than 0.0002; patterns/README.md).
pub const FACTOR_STEPS: f64 = 1_000.0;

/// Move-prediction figures of a table on some positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prediction {
    pub positions: u64,
    /// Expected number of positions where the move played is ranked first (ties broken
    /// uniformly at random), and within the first five.
    pub top1: f64,
    pub top5: f64,
    /// Sum of the natural log of the probability the model gives the move played.
    pub log_likelihood: f64,
}

impl Prediction {
    /// Scores the table's prediction at one position (every legal point and pass compete).
    pub fn observe(&mut self, table: &PatternTable, board: &Board, ctx: &Context, played: Move) {
        let target = table.strength(&extract(board, played.point(), ctx));
        let mut total = if played == Move::Pass {
            target
        } else {
            table.strength(&extract(board, None, ctx))
        };
        let mut greater = (played != Move::Pass && total > target) as u64;
        let mut equal = (played != Move::Pass && total == target) as u64;
        let mut found = played == Move::Pass;
        for &index in board.empty_points() {
            let p = Point::from_index(index as usize);
            if !board.is_legal(p, ctx.color) {
                continue;
            }
            if played == Move::Play(p) {
                found = true;
                total += target;
                continue;
            }
            let s = table.strength(&extract(board, Some(p), ctx));
            total += s;
            greater += (s > target) as u64;
            equal += (s == target) as u64;
        }
        if !found {
            return;
        }
        let hit = |k: u64| ((k as f64 - greater as f64) / (equal as f64 + 1.0)).clamp(0.0, 1.0);
        self.positions += 1;
        self.top1 += hit(1);
        self.top5 += hit(5);
        self.log_likelihood += (target / total).ln();
    }

    /// Scores a ranking at one position: `scores` has a score for each candidate move
    /// (higher: more likely; ties shared as in [`Prediction::observe`]). A move played that
    /// is not among the candidates is not counted. No log-likelihood: scores are not
    /// probabilities.
    pub fn observe_scores(&mut self, scores: &[(Move, f32)], played: Move) {
        let Some(&(_, target)) = scores.iter().find(|&&(mv, _)| mv == played) else {
            return;
        };
        let greater = scores.iter().filter(|&&(_, s)| s > target).count() as f64;
        let equal = scores.iter().filter(|&&(_, s)| s == target).count() as f64 - 1.0;
        let hit = |k: f64| ((k - greater) / (equal + 1.0)).clamp(0.0, 1.0);
        self.positions += 1;
        self.top1 += hit(1.0);
        self.top5 += hit(5.0);
    }

    /// The `positions=... top1=... top5=...` line of a ranking without probabilities.
    pub fn ranking_summary(&self) -> String {
        format!(
            "positions={} top1={:.4} top5={:.4}",
            self.positions,
            self.top1_rate(),
            self.top5_rate()
        )
    }

    pub fn top1_rate(&self) -> f64 {
        self.top1 / self.positions.max(1) as f64
    }

    pub fn top5_rate(&self) -> f64 {
        self.top5 / self.positions.max(1) as f64
    }

    pub fn mean_log_likelihood(&self) -> f64 {
        self.log_likelihood / self.positions.max(1) as f64
    }

    pub fn merge(&mut self, other: &Prediction) {
        self.positions += other.positions;
        self.top1 += other.top1;
        self.top5 += other.top5;
        self.log_likelihood += other.log_likelihood;
    }

    /// The `positions=... top1=... top5=... mean_log_likelihood=...` line.
    pub fn summary(&self) -> String {
        format!(
            "positions={} top1={:.4} top5={:.4} mean_log_likelihood={:.4}",
            self.positions,
            self.top1_rate(),
            self.top5_rate(),
            self.mean_log_likelihood()
        )
    }
}
