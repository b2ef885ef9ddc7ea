//! hane playing in-process: a [`Searcher`] driven directly, with its settings given as
//! `key=value` pairs (`hane:playouts=400,threads=1`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::player::{DeadStones, Decision, Fault, MoveRequest, Player, Reply, TimeControl};
use crate::board::{Color, GameState, Move};
use crate::pattern::{self, PatternTable};
use crate::search::judge::{EndRules, Judgement, dead_points, judge, move_to_play};
use crate::search::priors::PriorsKind;
use crate::search::time::{MoveTime, TimeSystem, move_time};
use crate::search::{PlayoutKind, SearchConfig, SearchControl, SearchLimits, Searcher};

/// Playouts per move when neither a playout count nor a time limit is given.
pub const DEFAULT_PLAYOUTS: u64 = 1000;

/// Mixed into the game's seed for the end-of-game judgement's playouts.
const DEAD_SEED: u64 = 0x6465_6164;

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
    /// Tree priors (`priors=heuristic|pattern`), from the pattern table below.
    pub priors: PriorsKind,
    /// Virtual playouts of the priors' shape term (`prior-weight=W`): the pattern priors'
    /// learned term, or with the heuristic priors their hand-written shapes, which also turns
    /// on their ladder reading (`None`: the defaults, where the heuristic has neither).
    pub prior_weight: Option<f32>,
    /// A pattern table read from a file (`patterns=FILE`) instead of the compiled-in one,
    /// for pattern playouts and pattern priors.
    pub patterns: Option<(PathBuf, Arc<PatternTable>)>,
    /// Search parameters that differ from `SearchConfig::default()` (`exploration=`,
    /// `rave=`, `fpu=`, `expand=`, `early-stop=`, `reuse=`, `resign-moves=`).
    pub search: SearchParameters,
}

/// The tunable parameters of the search, as `hane selfplay` compares them. `None` keeps
/// the search's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchParameters {
    pub exploration: Option<f32>,
    pub rave_equivalence: Option<f32>,
    pub rave_prior: Option<f32>,
    pub first_play_urgency: Option<f32>,
    pub expand_visits: Option<u32>,
    pub early_stop: Option<bool>,
    pub reuse_tree: Option<bool>,
    pub resign_moves: Option<u32>,
    pub last_good_reply: Option<bool>,
    pub playout_tactics: Option<bool>,
    pub playout_ladders: Option<bool>,
    pub playout_global_captures: Option<bool>,
    pub playout_fill_board: Option<u32>,
}

impl SearchParameters {
    /// `config` with these parameters applied.
    fn apply(&self, config: &mut SearchConfig) {
        if let Some(c) = self.exploration {
            config.exploration = Some(c);
        }
        if let Some(k) = self.rave_equivalence {
            config.rave_equivalence = k;
        }
        if let Some(r) = self.rave_prior {
            config.rave_prior = r;
        }
        if let Some(u) = self.first_play_urgency {
            config.first_play_urgency = u;
        }
        if let Some(v) = self.expand_visits {
            config.expand_visits = Some(v);
        }
        if let Some(e) = self.early_stop {
            config.early_stop = e;
        }
        if let Some(r) = self.reuse_tree {
            config.reuse_tree = r;
        }
        if let Some(m) = self.resign_moves {
            config.resign_moves = m;
        }
        if let Some(r) = self.last_good_reply {
            config.last_good_reply = r;
        }
        if let Some(t) = self.playout_tactics {
            config.playout_tactics = t;
        }
        if let Some(l) = self.playout_ladders {
            config.playout_ladders = l;
        }
        if let Some(c) = self.playout_global_captures {
            config.playout_global_captures = c;
        }
        if let Some(f) = self.playout_fill_board {
            config.playout_fill_board = f;
        }
    }

    /// `key=value` for every parameter that is set, in a fixed order.
    fn describe(&self) -> Vec<String> {
        let mut parts = Vec::new();
        let mut add = |key: &str, value: Option<String>| {
            if let Some(v) = value {
                parts.push(format!("{key}={v}"));
            }
        };
        add("exploration", self.exploration.map(|v| v.to_string()));
        add("rave", self.rave_equivalence.map(|v| v.to_string()));
        add("rave-prior", self.rave_prior.map(|v| v.to_string()));
        add("fpu", self.first_play_urgency.map(|v| v.to_string()));
        add("expand", self.expand_visits.map(|v| v.to_string()));
        add("early-stop", self.early_stop.map(|v| v.to_string()));
        add("reuse", self.reuse_tree.map(|v| v.to_string()));
        add("resign-moves", self.resign_moves.map(|v| v.to_string()));
        add("replies", self.last_good_reply.map(|v| v.to_string()));
        add("tactics", self.playout_tactics.map(|v| v.to_string()));
        add("ladders", self.playout_ladders.map(|v| v.to_string()));
        add(
            "captures",
            self.playout_global_captures.map(|v| v.to_string()),
        );
        add("fill-board", self.playout_fill_board.map(|v| v.to_string()));
        parts
    }
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
            prior_weight: None,
            patterns: None,
            search: SearchParameters::default(),
        }
    }
}

impl HaneSettings {
    /// Parses `playouts=400,time=0.5,threads=2,resign=0.1,memory=512,playout=pattern,
    /// priors=pattern,patterns=FILE,exploration=0.3,rave=2000,fpu=1.1,expand=4,
    /// early-stop=false,reuse=false,resign-moves=5` (any subset, in any order; an empty text
    /// gives the defaults).
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
                    settings.seconds =
                        Some(crate::search::time::parse_move_seconds(value).map_err(|e| bad(&e))?);
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
                "prior-weight" => settings.prior_weight = Some(non_negative(value).map_err(&bad)?),
                "patterns" => {
                    let path = PathBuf::from(value.trim());
                    let table = pattern::load(&path).map_err(|e| bad(&e.to_string()))?;
                    settings.patterns = Some((path, Arc::new(table)));
                }
                "exploration" => {
                    settings.search.exploration = Some(non_negative(value).map_err(&bad)?)
                }
                "rave" => {
                    settings.search.rave_equivalence = Some(non_negative(value).map_err(&bad)?)
                }
                "rave-prior" => {
                    settings.search.rave_prior = Some(non_negative(value).map_err(&bad)?)
                }
                "fpu" => {
                    settings.search.first_play_urgency = Some(non_negative(value).map_err(&bad)?)
                }
                "expand" => {
                    settings.search.expand_visits = Some(at_least_one(value).map_err(&bad)?)
                }
                "early-stop" => settings.search.early_stop = Some(flag(value).map_err(&bad)?),
                "reuse" => settings.search.reuse_tree = Some(flag(value).map_err(&bad)?),
                "resign-moves" => {
                    settings.search.resign_moves = Some(at_least_one(value).map_err(&bad)?)
                }
                "replies" => settings.search.last_good_reply = Some(flag(value).map_err(&bad)?),
                "tactics" => settings.search.playout_tactics = Some(flag(value).map_err(&bad)?),
                "ladders" => settings.search.playout_ladders = Some(flag(value).map_err(&bad)?),
                "captures" => {
                    settings.search.playout_global_captures = Some(flag(value).map_err(&bad)?)
                }
                "fill-board" => {
                    settings.search.playout_fill_board =
                        Some(fill_board_tries(value).map_err(&bad)?)
                }
                other => {
                    return Err(format!(
                        "unknown hane setting {other:?} (known: playouts, time, threads, \
                         resign, memory, dead-playouts, playout, priors, prior-weight, patterns, \
                         exploration, rave, rave-prior, fpu, expand, early-stop, reuse, resign-moves, \
                         replies, tactics, ladders, captures, fill-board)"
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
        if let Some(w) = self.prior_weight {
            parts.push(format!("prior-weight={w}"));
        }
        if let Some((path, _)) = &self.patterns {
            parts.push(format!("patterns={}", path.display()));
        }
        parts.extend(self.search.describe());
        format!("hane({})", parts.join(","))
    }
}

/// A finite number at least 0.
fn non_negative(value: &str) -> Result<f32, &'static str> {
    match value.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err("not a number at least 0"),
    }
}

/// A count of at least 1.
fn at_least_one(value: &str) -> Result<u32, &'static str> {
    match value.trim().parse::<u32>() {
        Ok(0) => Err("must be at least 1"),
        Ok(n) => Ok(n),
        Err(_) => Err("not a count"),
    }
}

/// Fill-the-board tries of the pattern playouts: a count from 0 (none) to
/// [`MAX_FILL_BOARD`].
pub(crate) fn fill_board_tries(value: &str) -> Result<u32, &'static str> {
    match value.trim().parse::<u32>() {
        Ok(n) if n <= MAX_FILL_BOARD => Ok(n),
        Ok(_) => Err("more than 64 tries"),
        Err(_) => Err("not a count"),
    }
}

/// Most fill-the-board tries a setting may ask for (each is a random draw and a look at
/// nine cells, at every random move of every playout).
pub(crate) const MAX_FILL_BOARD: u32 = 64;

/// `true`/`false` (also `on`/`off`, `yes`/`no`, `1`/`0`).
pub(crate) fn flag(value: &str) -> Result<bool, &'static str> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err("not true or false"),
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
    /// The end-of-game judgement of `state`, with the settings' dead-stone playouts and a
    /// seed of this game's: the same one for the pass rules and for the dead-stone list.
    fn judge(&self, state: &GameState) -> Judgement {
        judge(state, self.settings.dead_playouts, self.seed ^ DEAD_SEED)
    }

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
        let patterns = match &settings.patterns {
            Some((_, table)) => table.clone(),
            None => defaults.patterns.clone(),
        };
        let mut config = SearchConfig {
            threads: settings.threads,
            seed,
            max_memory: settings.max_memory_mib << 20,
            resign_threshold: settings.resign,
            playout: settings.playout,
            priors: settings
                .priors
                .build_weighted(&patterns, settings.prior_weight),
            patterns,
            ..defaults
        };
        settings.search.apply(&mut config);
        config
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
        // The GTP engine's end-of-game rules, judged with the dead-stone playouts.
        let mv = move_to_play(state, request.color, &result, EndRules::NORMAL, || {
            self.judge(state)
        });
        let decision = if result.resign && mv != Move::Pass {
            Decision::Resign
        } else {
            Decision::Play(mv)
        };
        Ok(Reply { decision, comment })
    }

    fn dead_stones(&mut self, state: &GameState) -> DeadStones {
        DeadStones::Listed(dead_points(&self.judge(state)))
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
        // The learned patterns are the default; names show only the other choices.
        let p = HaneSettings::parse("playout=pattern,priors=pattern").unwrap();
        assert_eq!(p.playout, PlayoutKind::Pattern);
        assert_eq!(p.priors, PriorsKind::Pattern);
        assert_eq!(p, HaneSettings::default());
        let light = HaneSettings::parse("playout=light,priors=heuristic").unwrap();
        assert_eq!(light.playout, PlayoutKind::Light);
        assert_eq!(light.priors, PriorsKind::Heuristic);
        assert_eq!(
            light.describe(),
            "hane(playouts=1000,threads=1,playout=light,priors=heuristic)"
        );
        assert!(HaneSettings::parse("playout=heavy").is_err());
        assert!(HaneSettings::parse("priors=none").is_err());
    }

    #[test]
    fn search_parameters_reach_the_search_config() {
        let s = HaneSettings::parse(
            "exploration=0.35,rave=1500,rave-prior=2,fpu=1.2,expand=4,early-stop=off,\
             reuse=false,resign-moves=5,replies=on,tactics=on,ladders=off,captures=on,fill-board=5,\
             prior-weight=35,threads=2",
        )
        .unwrap();
        let config = HanePlayer::config(&s, 9);
        assert_eq!(config.exploration, Some(0.35));
        assert_eq!(config.rave_equivalence, 1500.0);
        assert_eq!(config.rave_prior, 2.0);
        assert_eq!(config.first_play_urgency, 1.2);
        assert_eq!(config.expand_visits, Some(4));
        assert!(!config.early_stop);
        assert!(!config.reuse_tree);
        assert_eq!(config.resign_moves, 5);
        assert!(config.last_good_reply);
        assert!(config.playout_tactics);
        assert!(!config.playout_ladders);
        assert!(config.playout_global_captures);
        assert_eq!(config.playout_fill_board, 5);
        assert!(format!("{:?}", config.priors).contains(" weight: 35.0"));
        assert!(format!("{:?}", config.priors).contains("large_board_weight: 35.0"));
        assert_eq!((config.threads, config.seed), (2, 9));
        assert_eq!(
            s.describe(),
            "hane(playouts=1000,threads=2,prior-weight=35,exploration=0.35,rave=1500,\
             rave-prior=2,fpu=1.2,expand=4,early-stop=false,reuse=false,resign-moves=5,\
             replies=true,tactics=true,ladders=false,captures=true,fill-board=5)"
        );
        // Unset parameters keep the search's defaults.
        let plain = HanePlayer::config(&HaneSettings::default(), 0);
        let defaults = SearchConfig::default();
        assert_eq!(plain.exploration, defaults.exploration);
        assert_eq!(plain.rave_equivalence, defaults.rave_equivalence);
        assert_eq!(plain.rave_prior, defaults.rave_prior);
        assert_eq!(plain.early_stop, defaults.early_stop);
        assert_eq!(plain.last_good_reply, defaults.last_good_reply);
        assert_eq!(plain.playout_tactics, defaults.playout_tactics);
        assert!(plain.playout_ladders && defaults.playout_ladders);
        assert!(!plain.playout_global_captures && !defaults.playout_global_captures);
        assert_eq!(plain.playout_fill_board, 0);
        assert!(format!("{:?}", plain.priors).contains(" weight: 20.0"));
        assert!(format!("{:?}", plain.priors).contains("large_board_weight: 40.0"));
        for bad in [
            "exploration=-1",
            "rave=x",
            "rave-prior=-1",
            "fpu=inf",
            "expand=0",
            "early-stop=maybe",
            "resign-moves=0",
            "replies=sometimes",
            "tactics=2",
            "ladders=few",
            "captures=all",
            "fill-board=-1",
            "fill-board=65",
            "fill-board=lots",
            "prior-weight=-3",
        ] {
            assert!(HaneSettings::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn patterns_file_is_loaded_or_refused() {
        let dir = std::env::temp_dir().join(format!("hane-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("uniform.txt");
        std::fs::write(&good, PatternTable::uniform().to_text()).unwrap();
        let s =
            HaneSettings::parse(&format!("patterns={},priors=pattern", good.display())).unwrap();
        let config = HanePlayer::config(&s, 0);
        assert_eq!(*config.patterns, PatternTable::uniform());
        assert!(s.describe().contains("patterns="));
        let broken = dir.join("broken.txt");
        std::fs::write(&broken, "not a pattern table\n").unwrap();
        let err = HaneSettings::parse(&format!("patterns={}", broken.display())).unwrap_err();
        assert!(err.contains("patterns"), "{err}");
        assert!(HaneSettings::parse("patterns=/nonexistent/table.txt").is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
