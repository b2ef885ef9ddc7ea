//! The tuner's algorithm: simultaneous perturbation stochastic approximation (SPSA, Spall
//! 1992 and 1998), with the parameters, their ranges and their steps taken from the one
//! settings definition ([`crate::settings`], the settings marked `tune(min, max, step)`).
//! No I/O here: [`super::tune`] plays the games and keeps the folder.
//!
//! Each parameter is measured in units of its step, so that one gain fits all. Iteration
//! `k` (from 0):
//! - draws a sign `s_i = +-1` per parameter (fixed by the run's seed and `k`);
//! - plays the engine at `theta + c_k s` (engine 1, "plus") against the engine at
//!   `theta - c_k s` ("minus"), both clamped to the range and integers rounded, in
//!   colour-swapped pairs of games; `r = 2 x (plus's score rate) - 1`, in `[-1, 1]`;
//! - estimates the gradient of the score as `g_i = r / d_i`, where `d_i` is the difference
//!   plus - minus as played, in steps (`2 c_k s_i` inside the range; less where the range
//!   or the rounding of a count cut it), and moves `theta_i += a_k g_i`, clamped to the
//!   range. A count whose plus and minus round to the same value (`c_k` under half a step)
//!   was not perturbed: that iteration leaves it where it is and says nothing of its slope.
//!
//! The gains are Spall's: `a_k = a / (A + k + 1)^0.602`, `c_k = c / (k + 1)^0.101`.
//! Defaults: `c = 1` (the first perturbation is one step either way), `A` a tenth of the
//! planned iterations, and `a = 2 c (A + 1)^0.602`, so that a first iteration that plus
//! wins outright moves theta by one step.
//!
//! One perturbation serves all the pairs of an iteration (repeated measurements at one
//! perturbation, where Spall's averaging draws one per measurement): it lowers the noise of
//! the game results, which dominates, though not the cross-talk between parameters, which
//! is small with the few parameters tuned at once; in exchange an iteration is an ordinary
//! match between two fixed engines, which the match runner plays on `--jobs` threads and
//! splits into shards for other machines.

use serde::{Deserialize, Serialize};

use crate::settings::{SETTINGS, Setting, Settings};

/// Spall's exponent of the step gain `a_k`.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation gain `c_k`.
pub const GAMMA: f64 = 0.101;

/// A tuned parameter: a setting marked tunable, with its range and step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The setting's key.
    pub key: String,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// Whether the setting holds a count (values are rounded to integers).
    pub integer: bool,
}

impl Param {
    /// The parameter of `setting`, if it is tunable.
    pub fn of(setting: &Setting) -> Option<Param> {
        let tune = setting.meta.tune?;
        Some(Param {
            key: setting.meta.key.to_string(),
            min: tune.min,
            max: tune.max,
            step: tune.step,
            integer: setting.integer,
        })
    }

    /// `x` clamped to the range.
    pub fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }

    /// The value `x` as the engine gets it: clamped, rounded to an integer for a count and
    /// otherwise to a hundredth of a step, written as the setting's text.
    pub fn text(&self, x: f64) -> String {
        let x = self.clamp(x);
        if self.integer {
            return format!("{}", x.round());
        }
        let decimals = (-(self.step / 100.0).log10()).ceil().max(0.0) as usize;
        let mut text = format!("{x:.decimals$}");
        if text.contains('.') {
            text = text.trim_end_matches('0').trim_end_matches('.').to_string();
        }
        if text == "-0" { "0".to_string() } else { text }
    }
}

/// The settings a tuner may tune, in the order of the definition.
pub fn tunable() -> Vec<Param> {
    SETTINGS.iter().filter_map(Param::of).collect()
}

fn tunable_keys() -> String {
    tunable()
        .iter()
        .map(|p| p.key.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The parameters named in `list` (`key,key,...`, keys or aliases; `None` or empty: every
/// tunable setting), each once, in the order given.
pub fn parse_params(list: Option<&str>) -> Result<Vec<Param>, String> {
    let names: Vec<&str> = list
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return Ok(tunable());
    }
    let mut params: Vec<Param> = Vec::new();
    for name in names {
        let setting = Settings::find(name).ok_or_else(|| {
            format!(
                "unknown setting {name:?} in --params (tunable: {})",
                tunable_keys()
            )
        })?;
        let param = Param::of(setting).ok_or_else(|| {
            format!(
                "setting {:?} is not tunable (tunable: {})",
                setting.meta.key,
                tunable_keys()
            )
        })?;
        if params.iter().any(|p| p.key == param.key) {
            return Err(format!("--params names {:?} twice", param.key));
        }
        params.push(param);
    }
    Ok(params)
}

/// The starting point: each parameter's value in `base` on a board of `size` (`auto`
/// resolved), or the value `given` for it (`key=value,...`), which must lie in the
/// parameter's range; a value out of the range in `base` is clamped into it.
pub fn start_values(
    params: &[Param],
    base: &Settings,
    size: usize,
    given: Option<&str>,
) -> Result<Vec<f64>, String> {
    let mut values = Vec::new();
    for param in params {
        let setting = Settings::find(&param.key).ok_or("a tuned parameter vanished")?;
        let value = base
            .effective_number(setting, size)
            .ok_or_else(|| format!("setting {:?} has no number to start from", param.key))?;
        // As the engine reads it: `0.2`, not the f32 setting's `0.20000000298...`.
        let value = param.text(value).parse().unwrap_or(value);
        values.push(param.clamp(value));
    }
    for pair in given
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (name, text) = pair
            .split_once('=')
            .ok_or_else(|| format!("--start wants key=value, got {pair:?}"))?;
        let key = Settings::find(name)
            .map(|s| s.meta.key)
            .ok_or_else(|| format!("unknown setting {:?} in --start", name.trim()))?;
        let k = params
            .iter()
            .position(|p| p.key == key)
            .ok_or_else(|| format!("--start sets {key:?}, which is not tuned (see --params)"))?;
        let value: f64 = text
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("--start {key}={text:?}: not a number"))?;
        let p = &params[k];
        if !(p.min..=p.max).contains(&value) {
            return Err(format!(
                "--start {key}={value}: outside the tuning range [{}, {}]",
                p.min, p.max
            ));
        }
        values[k] = value;
    }
    Ok(values)
}

/// The gain schedule (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    pub a: f64,
    /// Spall's `A`, the stability constant.
    pub big_a: f64,
    /// The perturbation at `k = 0`, in steps.
    pub c: f64,
}

impl Gains {
    /// The defaults for a run of `iterations`, with `a`, `A` or `c` where given.
    pub fn new(
        iterations: usize,
        a: Option<f64>,
        big_a: Option<f64>,
        c: Option<f64>,
    ) -> Result<Gains, String> {
        let positive = |v: f64, what: &str| {
            if v.is_finite() && v > 0.0 {
                Ok(v)
            } else {
                Err(format!("{what} must be a positive number"))
            }
        };
        let c = positive(c.unwrap_or(1.0), "--spsa-c")?;
        let big_a = match big_a {
            Some(v) if v.is_finite() && v >= 0.0 => v,
            Some(_) => return Err("--spsa-big-a must be a non-negative number".to_string()),
            None => (iterations as f64 / 10.0).round(),
        };
        let a = positive(a.unwrap_or(2.0 * c * (big_a + 1.0).powf(ALPHA)), "--spsa-a")?;
        Ok(Gains { a, big_a, c })
    }

    /// The step gain of iteration `k`.
    pub fn a_k(&self, k: usize) -> f64 {
        self.a / (self.big_a + k as f64 + 1.0).powf(ALPHA)
    }

    /// The perturbation (in steps) of iteration `k`.
    pub fn c_k(&self, k: usize) -> f64 {
        self.c / (k as f64 + 1.0).powf(GAMMA)
    }
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// From 0.
    pub iteration: usize,
    /// Theta before the iteration.
    pub theta: Vec<f64>,
    /// The perturbation's signs.
    pub signs: Vec<i8>,
    /// The values plus and minus played with (clamped and rounded as the engines got them).
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    /// Plus's score rate over the iteration's games.
    pub score: f64,
    pub games: usize,
    /// Theta after the update.
    pub next: Vec<f64>,
}

/// Where a run stands: the current theta and every iteration so far (`state.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub theta: Vec<f64>,
    pub history: Vec<Step>,
}

impl State {
    pub fn new(start: Vec<f64>) -> State {
        State {
            theta: start,
            history: Vec::new(),
        }
    }

    /// The iterations done, which is the number of the next one (from 0).
    pub fn iteration(&self) -> usize {
        self.history.len()
    }

    /// How many of the last iterations [`State::tuned`] averages for `share`: that share of
    /// the iterations done, at least one (none when `share` is 0 or nothing is done).
    pub fn averaged_iterations(&self, share: f64) -> usize {
        let done = self.history.len();
        if share <= 0.0 || done == 0 {
            return 0;
        }
        ((done as f64 * share).ceil() as usize).clamp(1, done)
    }

    /// The tuned values: the mean of theta after each of the last `share` of the iterations
    /// (iterate averaging, Polyak and Ruppert; Spall 1998), which lies closer to the optimum
    /// than the last theta, whose random walk the averaging smooths out; the last theta
    /// when nothing is averaged.
    pub fn tuned(&self, share: f64) -> Vec<f64> {
        let m = self.averaged_iterations(share);
        if m == 0 {
            return self.theta.clone();
        }
        let tail = &self.history[self.history.len() - m..];
        (0..self.theta.len())
            .map(|i| tail.iter().map(|s| s.next[i]).sum::<f64>() / m as f64)
            .collect()
    }
}

/// What a run's games say of one parameter's slope over some iterations: the mean of
/// `r s_i` (plus's result from -1 to 1 times the parameter's sign: twice the score advantage
/// that moving it up gave) and the mean's standard error. Over the iterations that the tuned
/// values average, a mean within two standard errors of 0 says that a step either way from
/// there made no difference the games could show; a parameter held at a bound of its range
/// shows the slope beyond it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slope {
    pub mean: f64,
    pub standard_error: f64,
}

impl Slope {
    /// The mean in standard errors (0 when there is no spread to measure it by).
    pub fn z(&self) -> f64 {
        if self.standard_error > 0.0 {
            self.mean / self.standard_error
        } else {
            0.0
        }
    }
}

impl State {
    /// Each parameter's [`Slope`] over the iterations that [`State::tuned`] averages for
    /// `share` (all of them for 0); `None` when they are fewer than two.
    pub fn slopes(&self, share: f64) -> Option<Vec<Slope>> {
        let n = match self.averaged_iterations(share) {
            0 => self.history.len(),
            m => m,
        };
        if n < 2 {
            return None;
        }
        let tail = &self.history[self.history.len() - n..];
        let params = self.theta.len();
        Some(
            (0..params)
                .map(|i| {
                    // Only the iterations that played the parameter at two values.
                    let samples: Vec<f64> = tail
                        .iter()
                        .filter(|s| s.plus[i] != s.minus[i])
                        .map(|s| (2.0 * s.score - 1.0) * f64::from(s.signs[i]))
                        .collect();
                    let n = samples.len();
                    if n < 2 {
                        let mean = samples.first().copied().unwrap_or(0.0);
                        return Slope {
                            mean,
                            standard_error: 0.0,
                        };
                    }
                    let mean = samples.iter().sum::<f64>() / n as f64;
                    let variance =
                        samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
                    Slope {
                        mean,
                        standard_error: (variance / n as f64).sqrt(),
                    }
                })
                .collect(),
        )
    }
}

/// SplitMix64 of `seed` and `index`: a fixed, well-mixed number per index.
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(index.wrapping_add(1)));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An SPSA run's fixed part: the parameters, the gains and the seed of the perturbations.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    pub params: Vec<Param>,
    pub gains: Gains,
    pub seed: u64,
}

impl Spsa {
    /// The signs of iteration `k`'s perturbation.
    pub fn signs(&self, k: usize) -> Vec<i8> {
        let base = mix(self.seed, k as u64);
        (0..self.params.len())
            .map(|i| if mix(base, i as u64) & 1 == 0 { 1 } else { -1 })
            .collect()
    }

    /// A value as the engine plays it: clamped, and rounded for counts.
    fn played(param: &Param, x: f64) -> f64 {
        let x = param.clamp(x);
        if param.integer { x.round() } else { x }
    }

    /// The points plus and minus of iteration `k` around `theta`.
    pub fn points(&self, theta: &[f64], k: usize) -> (Vec<f64>, Vec<f64>) {
        let signs = self.signs(k);
        let c = self.gains.c_k(k);
        let at = |direction: f64| {
            self.params
                .iter()
                .zip(theta)
                .zip(&signs)
                .map(|((p, &t), &s)| Self::played(p, t + direction * c * f64::from(s) * p.step))
                .collect()
        };
        (at(1.0), at(-1.0))
    }

    /// Applies the next iteration's result to `state`: plus scored `score` (a rate in
    /// `[0, 1]`) over `games` games.
    pub fn update(&self, state: &mut State, score: f64, games: usize) {
        let k = state.iteration();
        let signs = self.signs(k);
        let (plus, minus) = self.points(&state.theta, k);
        let a = self.gains.a_k(k);
        let r = 2.0 * score.clamp(0.0, 1.0) - 1.0;
        let next: Vec<f64> = self
            .params
            .iter()
            .zip(&state.theta)
            .zip(plus.iter().zip(&minus))
            .map(|((p, &t), (&up, &down))| {
                if up == down {
                    // Not perturbed (a count whose plus and minus rounded alike).
                    return t;
                }
                // The perturbation as played, in steps: 2 c s inside the range.
                let played = (up - down) / p.step;
                p.clamp(t + a * (r / played) * p.step)
            })
            .collect();
        state.history.push(Step {
            iteration: k,
            theta: state.theta.clone(),
            signs,
            plus,
            minus,
            score,
            games,
            next: next.clone(),
        });
        state.theta = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt as _, SeedableRng};
    use rand_pcg::Pcg32;

    fn param(key: &str, min: f64, max: f64, step: f64) -> Param {
        Param {
            key: key.to_string(),
            min,
            max,
            step,
            integer: false,
        }
    }

    /// A noisy objective: the strength of a point is minus a quadratic around `optimum`
    /// (in steps), and a game between two points is won with the logistic probability of
    /// their strength difference. Returns the mean of theta over the last 50 iterations.
    fn tune_quadratic(
        spsa: &Spsa,
        start: Vec<f64>,
        optimum: &[f64],
        iterations: usize,
        pairs: usize,
        state: Option<State>,
    ) -> (State, Vec<f64>) {
        let strength = |x: &[f64]| -> f64 {
            -x.iter()
                .zip(optimum)
                .zip(&spsa.params)
                .map(|((x, o), p)| ((x - o) / p.step).powi(2))
                .sum::<f64>()
                * 0.05
        };
        let mut state = state.unwrap_or_else(|| State::new(start));
        while state.iteration() < iterations {
            let k = state.iteration();
            // The games' noise depends only on the iteration, as real games depend on
            // their seeds.
            let mut rng = Pcg32::seed_from_u64(mix(99, k as u64));
            let (plus, minus) = spsa.points(&state.theta, k);
            let p = 1.0 / (1.0 + (strength(&minus) - strength(&plus)).exp());
            let games = 2 * pairs;
            let wins = (0..games).filter(|_| rng.random::<f64>() < p).count();
            spsa.update(&mut state, wins as f64 / games as f64, games);
        }
        let tail = &state.history[state.history.len().saturating_sub(50)..];
        let mean = (0..spsa.params.len())
            .map(|i| tail.iter().map(|s| s.next[i]).sum::<f64>() / tail.len() as f64)
            .collect();
        (state, mean)
    }

    fn two_params(iterations: usize) -> Spsa {
        Spsa {
            params: vec![
                param("x", 0.0, 1.0, 0.05),
                param("y", 100.0, 20_000.0, 500.0),
            ],
            gains: Gains::new(iterations, None, None, None).unwrap(),
            seed: 7,
        }
    }

    #[test]
    fn it_approaches_the_optimum_of_a_noisy_quadratic() {
        let spsa = two_params(400);
        let optimum = [0.7, 12_000.0];
        let start = vec![0.2, 3000.0];
        let (state, mean) = tune_quadratic(&spsa, start.clone(), &optimum, 400, 2, None);
        for i in 0..2 {
            let step = spsa.params[i].step;
            let before = (start[i] - optimum[i]).abs() / step;
            let after = (mean[i] - optimum[i]).abs() / step;
            assert!(
                after < 2.5 && after < before / 4.0,
                "parameter {i}: {before:.1} steps from the optimum at the start, {after:.1} after"
            );
        }
        assert_eq!(state.iteration(), 400);
        assert!(state.history.iter().all(|s| s.games == 4));
    }

    #[test]
    fn averaged_values_lie_closer_to_the_optimum_than_the_last_theta() {
        let optimum = [0.7, 12_000.0];
        let start = vec![0.2, 3000.0];
        let distance = |spsa: &Spsa, x: &[f64]| -> f64 {
            x.iter()
                .zip(&optimum)
                .zip(&spsa.params)
                .map(|((x, o), p)| ((x - o) / p.step).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        let (mut last, mut averaged) = (0.0, 0.0);
        for seed in 1..=20 {
            let spsa = Spsa {
                seed,
                ..two_params(400)
            };
            let (state, _) = tune_quadratic(&spsa, start.clone(), &optimum, 400, 1, None);
            last += distance(&spsa, &state.theta);
            averaged += distance(&spsa, &state.tuned(0.5));
            assert_eq!(state.averaged_iterations(0.5), 200);
        }
        assert!(
            averaged < 0.6 * last,
            "mean distance over 20 runs: averaged {:.2} steps, last theta {:.2}",
            averaged / 20.0,
            last / 20.0
        );
        let (state, _) = tune_quadratic(&two_params(10), start.clone(), &optimum, 10, 1, None);
        assert_eq!(state.tuned(0.0), state.theta);
        assert_eq!(state.averaged_iterations(0.01), 1);
        assert_eq!(state.tuned(0.01), state.history[9].next);
        let mean0 = state.history.iter().map(|s| s.next[0]).sum::<f64>() / 10.0;
        assert!((state.tuned(1.0)[0] - mean0).abs() < 1e-12);
        assert_eq!(State::new(start.clone()).tuned(0.5), start);
    }

    #[test]
    fn slopes_show_a_parameter_that_matters_and_not_one_that_does_not() {
        // x's optimum lies beyond its range, so it ends at the bound with games still
        // won by moving it up; y starts at its optimum.
        let spsa = two_params(300);
        let optimum = [2.0, 3000.0];
        let (state, _) = tune_quadratic(&spsa, vec![0.5, 3000.0], &optimum, 300, 2, None);
        let slopes = state.slopes(0.5).unwrap();
        assert!(slopes[0].mean > 0.0 && slopes[0].z() > 3.0, "{slopes:?}");
        assert!(slopes[1].z().abs() < 2.0, "{slopes:?}");
        // Over the last half of the iterations (150), and over all of them for 0.
        let mean0 = |from: usize| {
            let tail = &state.history[from..];
            tail.iter()
                .map(|s| (2.0 * s.score - 1.0) * f64::from(s.signs[0]))
                .sum::<f64>()
                / tail.len() as f64
        };
        assert!((slopes[0].mean - mean0(150)).abs() < 1e-12);
        assert!((state.slopes(0.0).unwrap()[0].mean - mean0(0)).abs() < 1e-12);
        assert_eq!(State::new(vec![0.5, 3000.0]).slopes(0.5), None);
    }

    #[test]
    fn it_stops_at_the_bound_when_the_optimum_lies_beyond() {
        let spsa = two_params(300);
        let (state, _) = tune_quadratic(&spsa, vec![0.5, 3000.0], &[2.0, 3000.0], 300, 2, None);
        for step in &state.history {
            for (x, p) in step.next.iter().zip(&spsa.params) {
                assert!((p.min..=p.max).contains(x));
            }
            for (x, p) in step
                .plus
                .iter()
                .chain(&step.minus)
                .zip(spsa.params.iter().cycle())
            {
                assert!((p.min..=p.max).contains(x));
            }
        }
        assert!(state.theta[0] > 0.9, "{:?}", state.theta);
    }

    #[test]
    fn the_update_divides_by_the_perturbation_as_played() {
        // fill-board is a count (0 to 16, step 1); ko-retakes a rate (0 to 1, step 0.1).
        let params = parse_params(Some("fill-board,ko-retakes")).unwrap();
        let gains = Gains::new(10, Some(1.0), Some(0.0), Some(0.4)).unwrap();
        let spsa = Spsa {
            params,
            gains,
            seed: 5,
        };
        // c_0 = 0.4: a count at 8 plays 8 both ways (8.4 and 7.6 round to 8), and the rate
        // at its top plays 1 against 0.96: 0.4 steps, not 0.8.
        let mut state = State::new(vec![8.0, 1.0]);
        let (plus, minus) = spsa.points(&state.theta, 0);
        assert_eq!((plus[0], minus[0]), (8.0, 8.0));
        let (a, c) = (gains.a_k(0), gains.c_k(0));
        spsa.update(&mut state, 0.0, 2);
        assert_eq!(state.theta[0], 8.0, "an unperturbed count stays");
        let s = f64::from(spsa.signs(0)[1]);
        let played = (plus[1] - minus[1]) / 0.1;
        let expected = if s > 0.0 { c } else { -c };
        assert!((played - expected).abs() < 1e-9, "{played} {expected}");
        // Plus lost outright (r = -1): the rate moves by a / played steps toward minus.
        let moved = (1.0 - a / played * 0.1).clamp(0.0, 1.0);
        assert!((state.theta[1] - moved).abs() < 1e-12, "{:?}", state.theta);
        // The unperturbed count gives no slope sample, the rate one per iteration.
        let mut more = state.clone();
        for k in 1..6 {
            let (plus, minus) = spsa.points(&more.theta, k);
            assert_eq!(plus[0], minus[0]);
            spsa.update(&mut more, if k % 2 == 0 { 1.0 } else { 0.0 }, 2);
        }
        let slopes = more.slopes(0.0).unwrap();
        assert_eq!(
            slopes[0],
            Slope {
                mean: 0.0,
                standard_error: 0.0
            }
        );
        assert_ne!(
            slopes[1],
            Slope {
                mean: 0.0,
                standard_error: 0.0
            }
        );
    }

    #[test]
    fn a_run_resumed_from_its_checkpoint_ends_where_an_uninterrupted_one_does() {
        let spsa = two_params(120);
        let start = vec![0.2, 3000.0];
        let optimum = [0.7, 12_000.0];
        let (whole, _) = tune_quadratic(&spsa, start.clone(), &optimum, 120, 1, None);
        let (half, _) = tune_quadratic(&spsa, start.clone(), &optimum, 47, 1, None);
        let saved = serde_json::to_string(&half).unwrap();
        let loaded: State = serde_json::from_str(&saved).unwrap();
        let (resumed, _) = tune_quadratic(&spsa, start, &optimum, 120, 1, Some(loaded));
        assert_eq!(resumed, whole);
    }

    #[test]
    fn the_gains_follow_spalls_schedule() {
        let g = Gains::new(100, None, None, None).unwrap();
        assert_eq!(g.big_a, 10.0);
        assert!((g.c_k(0) - 1.0).abs() < 1e-12);
        // A first iteration won outright moves theta by one step.
        assert!((g.a_k(0) / (2.0 * g.c_k(0)) - 1.0).abs() < 1e-12);
        assert!((g.a_k(9) - g.a / 20f64.powf(ALPHA)).abs() < 1e-12);
        assert!((g.c_k(9) - 10f64.powf(-GAMMA)).abs() < 1e-12);
        assert!(g.a_k(50) < g.a_k(10) && g.c_k(50) < g.c_k(10));
        let given = Gains::new(100, Some(3.0), Some(0.0), Some(2.0)).unwrap();
        assert_eq!((given.a, given.big_a, given.c), (3.0, 0.0, 2.0));
        assert!(Gains::new(100, Some(-1.0), None, None).is_err());
        assert!(Gains::new(100, None, None, Some(f64::NAN)).is_err());
        assert!(Gains::new(100, None, Some(-2.0), None).is_err());
    }

    #[test]
    fn parameters_ranges_and_steps_come_from_the_settings_definition() {
        let all = parse_params(None).unwrap();
        let defined: Vec<&str> = SETTINGS
            .iter()
            .filter(|s| s.meta.tune.is_some())
            .map(|s| s.meta.key)
            .collect();
        assert_eq!(
            all.iter().map(|p| p.key.as_str()).collect::<Vec<_>>(),
            defined
        );
        for p in &all {
            let tune = Settings::find(&p.key).unwrap().meta.tune.unwrap();
            assert_eq!((p.min, p.max, p.step), (tune.min, tune.max, tune.step));
        }
        let chosen = parse_params(Some("rave, first-play-urgency ,expand")).unwrap();
        let keys: Vec<&str> = chosen.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["rave", "fpu", "expand"]);
        assert!(chosen[2].integer && !chosen[0].integer);
        let counts = parse_params(Some("fill-board,reading-anywhere,ko-retakes")).unwrap();
        let integer: Vec<bool> = counts.iter().map(|p| p.integer).collect();
        assert_eq!(integer, [true, true, false]);
        for (bad, says) in [
            ("rave,bogus", "unknown setting \"bogus\""),
            ("threads", "\"threads\" is not tunable"),
            ("komi", "\"komi\" is not tunable"),
            ("rave,rave-equivalence", "twice"),
        ] {
            let e = parse_params(Some(bad)).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn start_values_resolve_auto_and_check_the_range() {
        let params = parse_params(Some("exploration,expand,prior-weight,rave")).unwrap();
        let base = Settings::default();
        assert_eq!(
            start_values(&params, &base, 9, None).unwrap(),
            [0.0057, 8.0, 18.26, 1556.0]
        );
        assert_eq!(
            start_values(&params, &base, 19, Some("rave=5000, expand=3")).unwrap(),
            [0.0057, 3.0, 18.26, 5000.0]
        );
        for (bad, says) in [
            ("rave=50", "outside the tuning range"),
            ("fpu=1", "not tuned"),
            ("rave=x", "not a number"),
            ("rave", "key=value"),
            ("colour=1", "unknown setting"),
        ] {
            let e = start_values(&params, &base, 9, Some(bad)).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn points_are_clamped_rounded_and_written_as_settings() {
        let spsa = Spsa {
            params: parse_params(Some("expand,exploration")).unwrap(),
            gains: Gains::new(10, None, None, Some(3.0)).unwrap(),
            seed: 1,
        };
        for k in 0..20 {
            let (plus, minus) = spsa.points(&[1.4, 0.98], k);
            let signs = spsa.signs(k);
            for (values, direction) in [(&plus, 1), (&minus, -1)] {
                assert_eq!(values[0], values[0].round());
                assert!((1.0..=32.0).contains(&values[0]));
                assert!((0.0..=1.0).contains(&values[1]));
                // Clamped at the top when moving up.
                if i32::from(signs[1]) * direction > 0 {
                    assert_eq!(values[1], 1.0);
                }
            }
        }
        let p = &spsa.params[1];
        assert_eq!(p.text(0.123_456), "0.1235");
        assert_eq!(p.text(0.2), "0.2");
        assert_eq!(p.text(-3.0), "0");
        assert_eq!(spsa.params[0].text(7.6), "8");
        let rave = &parse_params(Some("rave")).unwrap()[0];
        assert_eq!(rave.text(3456.78), "3457");
        // Both signs come up.
        let all: Vec<i8> = (0..40).flat_map(|k| spsa.signs(k)).collect();
        assert!(all.contains(&1) && all.contains(&-1));
    }
}
