//! hane playing in-process: a [`Searcher`] driven directly, with its settings given as
//! `key=value` pairs (`hane:playouts=400,threads=1`).

use std::time::Duration;

use super::player::{DeadStones, Decision, Fault, MoveRequest, Player, Reply, TimeControl};
use super::referee::dead_stones_by_playouts;
use crate::board::{Color, GameState, Move};
use crate::search::priors::PriorsKind;
use crate::search::time::{MoveTime, TimeSystem, move_time};
use crate::search::{PlayoutKind, SearchConfig, SearchControl, SearchLimits, Searcher};

/// Playouts per move when neither a playout count nor a time limit is given.
pub const DEFAULT_PLAYOUTS: u64 = 1000;

/// The settings of an in-process hane.
#[derive(Clone, Debug, PartialEq)]
pub struct HaneSettings {
    /// Playouts per move.
    pub playouts: Option<u64>,
    /// Seconds per move (further limited by the match's clock).
    pub seconds: Option<f64>,
    pub threads: usize,
    /// `resign_threshold` of the search (0 never resigns).
    pub resign: f32,
    /// Tree memory bound, in MiB.
    pub max_memory_mib: usize,
    /// Playouts used to answer `final_status_list dead`.
    pub dead_playouts: u64,
    /// Playout policy (`playout=light|pattern`).
    pub playout: PlayoutKind,
    /// Tree priors (`priors=heuristic|pattern`), from the compiled-in pattern table.
    pub priors: PriorsKind,
}

impl Default for HaneSettings {
    fn default() -> HaneSettings {
        HaneSettings {
            playouts: None,
            seconds: None,
            threads: 1,
            resign: SearchConfig::default().resign_threshold,
            max_memory_mib: 256,
            dead_playouts: 400,
            playout: PlayoutKind::default(),
            priors: PriorsKind::default(),
        }
    }
}

impl HaneSettings {
    /// Parses `playouts=400,time=0.5,threads=2,resign=0.1,memory=512,playout=pattern,
    /// priors=pattern` (any subset, in any
    /// order; an empty text gives the defaults).
    pub fn parse(text: &str) -> Result<HaneSettings, String> {
        let mut settings = HaneSettings::default();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("hane setting {pair:?} is not key=value"))?;
            let bad = |what: &str| format!("hane setting {key}={value:?}: {what}");
            match key.trim() {
                "playouts" => {
                    let n: u64 = value.parse().map_err(|_| bad("not a count"))?;
                    if n == 0 {
                        return Err(bad("must be at least 1"));
                    }
                    settings.playouts = Some(n);
                }
                "time" | "seconds" => {
                    let s: f64 = value.parse().map_err(|_| bad("not a number of seconds"))?;
                    if !(s > 0.0 && s.is_finite()) {
                        return Err(bad("must be positive"));
                    }
                    settings.seconds = Some(s);
                }
                "threads" => {
                    let n: usize = value.parse().map_err(|_| bad("not a count"))?;
                    if n == 0 || n > 1024 {
                        return Err(bad("must be 1..=1024"));
                    }
                    settings.threads = n;
                }
                "resign" => {
                    let r: f32 = value.parse().map_err(|_| bad("not a number"))?;
                    if !(0.0..1.0).contains(&r) {
                        return Err(bad("must be in [0, 1)"));
                    }
                    settings.resign = r;
                }
                "memory" => {
                    let m: usize = value.parse().map_err(|_| bad("not a size in MiB"))?;
                    if m == 0 {
                        return Err(bad("must be positive"));
                    }
                    settings.max_memory_mib = m;
                }
                "dead-playouts" => {
                    let n: u64 = value.parse().map_err(|_| bad("not a count"))?;
                    settings.dead_playouts = n.max(1);
                }
                "playout" => {
                    settings.playout = value.trim().parse().map_err(|e: String| bad(&e))?
                }
                "priors" => settings.priors = value.trim().parse().map_err(|e: String| bad(&e))?,
                other => {
                    return Err(format!(
                        "unknown hane setting {other:?} (known: playouts, time, threads, \
                         resign, memory, dead-playouts, playout, priors)"
                    ));
                }
            }
        }
        Ok(settings)
    }

    /// A short description for names: `hane(playouts=400,threads=1)`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(p) = self.playouts {
            parts.push(format!("playouts={p}"));
        }
        if let Some(s) = self.seconds {
            parts.push(format!("time={s}"));
        }
        if self.playouts.is_none() && self.seconds.is_none() {
            parts.push(format!("playouts={DEFAULT_PLAYOUTS}"));
        }
        parts.push(format!("threads={}", self.threads));
        if self.playout != PlayoutKind::default() {
            parts.push(format!("playout={:?}", self.playout).to_lowercase());
        }
        if self.priors != PriorsKind::default() {
            parts.push(format!("priors={:?}", self.priors).to_lowercase());
        }
        format!("hane({})", parts.join(","))
    }
}

/// hane in-process.
pub struct HanePlayer {
    name: String,
    settings: HaneSettings,
    searcher: Searcher,
    seed: u64,
}

impl HanePlayer {
    pub fn new(name: String, settings: HaneSettings) -> HanePlayer {
        let config = Self::config(&settings, 0);
        HanePlayer {
            name,
            settings,
            searcher: Searcher::new(config),
            seed: 0,
        }
    }

    // The struct update keeps this compiling when the search gains settings.
    #[allow(clippy::needless_update)]
    fn config(settings: &HaneSettings, seed: u64) -> SearchConfig {
        let defaults = SearchConfig::default();
        SearchConfig {
            threads: settings.threads,
            seed,
            max_memory: settings.max_memory_mib << 20,
            resign_threshold: settings.resign,
            playout: settings.playout,
            priors: settings.priors.build(&defaults.patterns),
            ..defaults
        }
    }
}

impl Player for HanePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _state: &GameState, _time: TimeControl, seed: u64) -> Result<(), Fault> {
        self.seed = seed;
        self.searcher.set_config(Self::config(&self.settings, seed));
        self.searcher.clear();
        Ok(())
    }

    fn play(&mut self, _state: &GameState, _color: Color, _mv: Move) -> Result<(), Fault> {
        Ok(())
    }

    fn genmove(&mut self, state: &GameState, request: &MoveRequest) -> Result<Reply, Fault> {
        // A fixed per-move limit is kept with a tenth to spare; a clock gets the planned budget
        // and, for an uncertain position, the extension `move_time` allows.
        let clock = match request.time_control {
            TimeControl::None { .. } => None,
            TimeControl::PerMove { seconds } => {
                let limit = Duration::from_secs_f64((seconds * 0.9).max(0.01));
                Some(MoveTime {
                    budget: limit,
                    max: limit,
                })
            }
            TimeControl::Clock {
                main,
                byo_yomi,
                stones,
            } => move_time(
                TimeSystem::from_gtp(main, byo_yomi, stones),
                request.time_left,
                state.moves().len(),
                state.size(),
                0.05,
            ),
        };
        let own = self.settings.seconds.map(Duration::from_secs_f64);
        // hane's own time per move caps both the plan and the extension.
        let (time, max_time) = match (clock, own) {
            (Some(c), Some(op)) => (Some(c.budget.min(op)), Some(c.max.min(op))),
            (Some(c), None) => (Some(c.budget), Some(c.max)),
            (None, op) => (op, None),
        };
        let playouts = match (self.settings.playouts, time) {
            (None, None) => Some(DEFAULT_PLAYOUTS),
            (p, _) => p,
        };
        let limits = SearchLimits {
            playouts,
            time,
            report_interval: None,
            max_time,
        };
        let control = SearchControl::new();
        let result = self
            .searcher
            .search(state, request.color, &limits, &control, &mut |_| {});
        let analysis = &result.analysis;
        let comment = Some(format!(
            "winrate {:.3}, {} playouts, {:.2} s",
            analysis.winrate,
            analysis.playouts,
            analysis.elapsed.as_secs_f64()
        ));
        let decision = if result.resign {
            Decision::Resign
        } else {
            Decision::Play(result.best)
        };
        Ok(Reply { decision, comment })
    }

    fn dead_stones(&mut self, state: &GameState) -> DeadStones {
        DeadStones::Listed(dead_stones_by_playouts(
            state,
            self.settings.dead_playouts,
            self.seed ^ 0x6465_6164,
        ))
    }

    fn restart(&mut self) -> Result<(), Fault> {
        self.searcher = Searcher::new(Self::config(&self.settings, self.seed));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_and_reject() {
        let s = HaneSettings::parse("playouts=200, threads=2,time=0.5").unwrap();
        assert_eq!(s.playouts, Some(200));
        assert_eq!(s.threads, 2);
        assert_eq!(s.seconds, Some(0.5));
        assert_eq!(HaneSettings::parse("").unwrap(), HaneSettings::default());
        assert!(HaneSettings::parse("playouts=0").is_err());
        assert!(HaneSettings::parse("colour=blue").is_err());
        assert!(HaneSettings::parse("threads").is_err());
        assert!(HaneSettings::parse("time=-1").is_err());
        let p = HaneSettings::parse("playout=pattern,priors=pattern").unwrap();
        assert_eq!(p.playout, PlayoutKind::Pattern);
        assert_eq!(p.priors, PriorsKind::Pattern);
        assert_eq!(
            p.describe(),
            "hane(playouts=1000,threads=1,playout=pattern,priors=pattern)"
        );
        assert!(HaneSettings::parse("playout=heavy").is_err());
        assert!(HaneSettings::parse("priors=none").is_err());
    }
}
