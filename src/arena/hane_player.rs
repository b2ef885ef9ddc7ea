//! hane playing in-process: a thin adapter from the match runner's [`Player`] interface to
//! the play layer's [`crate::play::Player`], with the engine's settings given as
//! `key=value` pairs (`hane:playouts=400,threads=1`; the keys are the settings' names, see
//! [`crate::settings`]).

use std::sync::Arc;
use std::time::Duration;

use super::player::{DeadStones, Decision, Fault, MoveRequest, Player, Reply, TimeControl};
use super::results::OwlTally;
use crate::board::{Color, GameState, Geometry, Move};
use crate::pattern::PatternTables;
use crate::play::clock::{MoveTime, move_time};
use crate::play::judge::dead_points;
use crate::play::{self, load_patterns};
use crate::search::{Analysis, SearchControl};
use crate::settings::{Scope, Settings};

/// Mixed into the game's seed for the end-of-game judgement's playouts.
const DEAD_SEED: u64 = 0x6465_6164;

/// Seconds kept back from a move's clock budget in-process, where no network lies between
/// the referee and hane (the GTP engine's `lag-margin` setting is for servers).
const IN_PROCESS_LAG: f64 = 0.05;

/// The settings scopes a `hane:` player spec may set.
pub const PLAYER_SCOPES: &[Scope] = &[Scope::Search, Scope::Game];

/// The settings of an in-process hane, with the pattern table they name.
#[derive(Clone, Debug, PartialEq)]
pub struct HaneSettings {
    pub settings: Settings,
    pub patterns: PatternTables,
}

impl Default for HaneSettings {
    fn default() -> HaneSettings {
        HaneSettings {
            settings: Settings::default(),
            patterns: crate::pattern::PatternTables::Builtin,
        }
    }
}

impl HaneSettings {
    /// Parses `key=value` pairs separated by commas, with the names of the engine's
    /// settings (`playouts=400,time=0.5,threads=2,rave=2000,patterns=FILE`; any subset,
    /// in any order; an empty text gives the defaults). A pattern file is loaded here.
    pub fn parse(text: &str) -> Result<HaneSettings, String> {
        let mut settings = Settings::default();
        settings
            .apply_pairs(text, PLAYER_SCOPES)
            .map_err(|e| format!("hane setting {e}"))?;
        let patterns = load_patterns(&settings)?;
        play::load_book(&settings)?;
        Ok(HaneSettings { settings, patterns })
    }

    /// A short description for names: `hane(playouts=400,threads=1)`, with the settings
    /// that differ from the defaults.
    pub fn describe(&self) -> String {
        format!("hane({})", self.settings.changed(PLAYER_SCOPES).join(","))
    }
}

/// hane in-process.
pub struct HanePlayer {
    name: String,
    player: play::Player,
    /// The search's control: stopped when the match is interrupted.
    control: Arc<SearchControl>,
}

impl HanePlayer {
    pub fn new(name: String, settings: HaneSettings) -> HanePlayer {
        HanePlayer {
            name,
            player: play::Player::new(settings.settings, settings.patterns, 0),
            control: SearchControl::new(),
        }
    }

    /// Cuts a search short once `interrupt` is stopped.
    pub fn watch(mut self, interrupt: Arc<SearchControl>) -> HanePlayer {
        self.control = interrupt;
        self
    }

    /// The time the match's clock gives this move: a fixed per-move limit is kept with a
    /// tenth to spare; a clock gets the planned budget and, for an uncertain position, the
    /// extension [`move_time`] allows; with no clock, the hang limit is kept with a tenth
    /// to spare (and a player given neither `time` nor `playouts` thinks
    /// [`play::DEFAULT_MOVE_TIME`] at most).
    fn clock_time(
        state: &GameState,
        request: &MoveRequest,
        settings: &crate::settings::Settings,
    ) -> Option<MoveTime> {
        match request.time_control {
            TimeControl::None { max_move } => {
                let cap = Duration::from_secs_f64((max_move * 0.9).max(0.01));
                let unlimited = settings.game.time.is_none() && settings.game.playouts.is_none();
                let limit = if unlimited {
                    cap.min(play::DEFAULT_MOVE_TIME)
                } else {
                    cap
                };
                Some(MoveTime {
                    budget: limit,
                    max: limit,
                })
            }
            TimeControl::PerMove { seconds } => {
                let limit = Duration::from_secs_f64((seconds * 0.9).max(0.01));
                Some(MoveTime {
                    budget: limit,
                    max: limit,
                })
            }
            TimeControl::Clock { .. } | TimeControl::Fischer { .. } => move_time(
                settings.game.time_plan,
                request.time_control.system(),
                request.time_left,
                state.moves().len(),
                state.size(),
                IN_PROCESS_LAG,
            ),
        }
    }
}

/// The record's comment on a move of hane's: the win rate under the real komi, with a
/// dynamic komi offset the search's own win rate and the offset it was scored with, and
/// when the root owl read groups, its reads (fresh, cached and left unread for want of
/// time) and the time they took, and the moves its bonus went to (`*` after the one
/// played).
fn move_comment(analysis: &Analysis, geometry: Geometry, played: Move) -> String {
    let offset = if analysis.komi_offset != 0.0 {
        format!(
            ", {:.3} with the komi offset {:+}",
            analysis.search_winrate, analysis.komi_offset
        )
    } else {
        String::new()
    };
    let reading = &analysis.reading;
    let owl = if reading.owl_reads + reading.owl_cached + reading.owl_unread > 0 {
        let unread = if reading.owl_unread > 0 {
            format!(", {} unread", reading.owl_unread)
        } else {
            String::new()
        };
        let mut bonus = String::new();
        for p in reading.owl_bonus_points() {
            let mv = Move::Play(p);
            bonus += if bonus.is_empty() { ", bonus " } else { " " };
            bonus += &mv.to_gtp(geometry);
            if mv == played {
                bonus.push('*');
            }
        }
        format!(
            ", owl {} reads, {} cached{unread}, {:.3} s{bonus}",
            reading.owl_reads,
            reading.owl_cached,
            reading.owl_nanos as f64 * 1e-9
        )
    } else {
        String::new()
    };
    format!(
        "winrate {:.3}{offset}, {} playouts, {:.2} s{owl}",
        analysis.winrate,
        analysis.playouts,
        analysis.elapsed.as_secs_f64()
    )
}

/// What the root owl did for one move: its reads' seconds, and whether its bonus went to
/// some move and to the one `played`.
fn owl_tally(analysis: &Analysis, played: Move) -> OwlTally {
    let reading = &analysis.reading;
    OwlTally {
        seconds: reading.owl_nanos as f64 * 1e-9,
        bonus_moves: usize::from(reading.owl_bonus_points().next().is_some()),
        bonus_played: usize::from(reading.owl_bonus_points().any(|p| Move::Play(p) == played)),
    }
}

impl Player for HanePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, state: &GameState, _time: TimeControl, seed: u64) -> Result<(), Fault> {
        self.player.reseed(seed, seed ^ DEAD_SEED);
        self.player.new_game(state.size());
        Ok(())
    }

    fn play(&mut self, _state: &GameState, _color: Color, _mv: Move) -> Result<(), Fault> {
        Ok(())
    }

    fn genmove(&mut self, state: &GameState, request: &MoveRequest) -> Result<Reply, Fault> {
        let clock = Self::clock_time(state, request, self.player.settings());
        let move_request = play::MoveRequest::normal(clock);
        let chosen = self
            .player
            .choose(state, request.color, &move_request, &self.control, None);
        let comment = Some(move_comment(
            &chosen.result.analysis,
            state.geometry(),
            chosen.mv,
        ));
        let decision = if chosen.resign {
            Decision::Resign
        } else {
            Decision::Play(chosen.mv)
        };
        Ok(Reply {
            decision,
            comment,
            playouts: Some(chosen.result.analysis.playouts),
            winrate: Some(chosen.result.analysis.winrate),
            owl: Some(owl_tally(&chosen.result.analysis, chosen.mv)),
        })
    }

    fn dead_stones(&mut self, state: &GameState) -> DeadStones {
        DeadStones::Listed(dead_points(&self.player.judge(state)))
    }

    fn restart(&mut self) -> Result<(), Fault> {
        self.player.restart();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Auto, PlayoutKind, PriorsKind};

    #[test]
    fn a_comment_gives_the_komi_offset_when_there_is_one() {
        let geometry = Geometry::new(9).unwrap();
        let mut analysis = Analysis::of_moves(Color::White, 0, Vec::new());
        analysis.winrate = 0.3141;
        analysis.playouts = 200;
        analysis.elapsed = Duration::from_millis(1500);
        assert_eq!(
            move_comment(&analysis, geometry, Move::Pass),
            "winrate 0.314, 200 playouts, 1.50 s"
        );
        analysis.search_winrate = 0.52;
        analysis.komi_offset = -35.0;
        assert_eq!(
            move_comment(&analysis, geometry, Move::Pass),
            "winrate 0.314, 0.520 with the komi offset -35, 200 playouts, 1.50 s"
        );
        analysis.reading.owl_reads = 3;
        analysis.reading.owl_cached = 2;
        analysis.reading.owl_nanos = 41_000_000;
        assert_eq!(
            move_comment(&analysis, geometry, Move::Pass),
            "winrate 0.314, 0.520 with the komi offset -35, 200 playouts, 1.50 s, \
             owl 3 reads, 2 cached, 0.041 s"
        );
        analysis.reading.owl_unread = 1;
        assert!(
            move_comment(&analysis, geometry, Move::Pass)
                .ends_with("owl 3 reads, 2 cached, 1 unread, 0.041 s"),
            "{}",
            move_comment(&analysis, geometry, Move::Pass)
        );
        let d4 = geometry.parse_point("D4").unwrap();
        analysis.reading.note_owl_bonus(d4);
        analysis
            .reading
            .note_owl_bonus(geometry.parse_point("C7").unwrap());
        assert!(
            move_comment(&analysis, geometry, Move::Play(d4))
                .ends_with("owl 3 reads, 2 cached, 1 unread, 0.041 s, bonus D4* C7"),
            "{}",
            move_comment(&analysis, geometry, Move::Play(d4))
        );
    }

    #[test]
    fn settings_parse_and_reject() {
        let s = HaneSettings::parse("playouts=200, threads=2,time=0.5")
            .unwrap()
            .settings;
        assert_eq!(s.game.playouts, Some(200));
        assert_eq!(s.game.threads, Auto::Value(2));
        assert_eq!(s.game.time, Some(0.5));
        assert_eq!(HaneSettings::parse("").unwrap(), HaneSettings::default());
        assert!(HaneSettings::parse("playouts=0").is_err());
        assert!(HaneSettings::parse("colour=blue").is_err());
        assert!(HaneSettings::parse("threads").is_err());
        assert!(HaneSettings::parse("time=-1").is_err());
        // The engine's own settings only: the referee decides rules and komi.
        assert!(HaneSettings::parse("komi=6.5").is_err());
        // The learned patterns are the default; names show only the other choices.
        let p = HaneSettings::parse("playout=pattern,priors=pattern").unwrap();
        assert_eq!(p.settings.search.playout.playout, PlayoutKind::Pattern);
        assert_eq!(p.settings.search.priors, PriorsKind::Pattern);
        assert_eq!(p, HaneSettings::default());
        let light = HaneSettings::parse("playout=light,priors=heuristic").unwrap();
        assert_eq!(light.settings.search.playout.playout, PlayoutKind::Light);
        assert_eq!(light.settings.search.priors, PriorsKind::Heuristic);
        assert_eq!(light.describe(), "hane(playout=light,priors=heuristic)");
        assert!(HaneSettings::parse("playout=heavy").is_err());
        assert!(HaneSettings::parse("priors=none").is_err());
    }

    #[test]
    fn without_a_clock_the_hang_limit_caps_the_search() {
        let state = GameState::new(9, crate::board::Rules::default()).unwrap();
        let request = |max_move: f64| MoveRequest {
            color: crate::board::Color::Black,
            allowed: Duration::from_secs_f64(max_move),
            time_left: None,
            time_control: TimeControl::None { max_move },
            margin: Duration::from_secs(1),
        };
        let limit = |settings: &str, max_move: f64| {
            let settings = HaneSettings::parse(settings).unwrap().settings;
            let clock = HanePlayer::clock_time(&state, &request(max_move), &settings).unwrap();
            assert_eq!(clock.budget, clock.max);
            clock.budget.as_secs_f64()
        };
        // Neither time nor playouts: the default time, or 0.9 of a shorter hang limit.
        assert_eq!(limit("", 300.0), play::DEFAULT_MOVE_TIME.as_secs_f64());
        assert!((limit("", 3.0) - 2.7).abs() < 1e-9);
        // Playouts: only the hang limit caps them.
        assert!((limit("playouts=1000", 300.0) - 270.0).abs() < 1e-9);
        assert!((limit("playouts=1000", 3.0) - 2.7).abs() < 1e-9);
    }

    #[test]
    fn search_parameters_reach_the_search_config() {
        let s = HaneSettings::parse(
            "exploration=0.35,rave=1500,rave-prior=2,fpu=1.2,expand=4,early-stop=off,\
             reuse=false,resign-moves=5,replies=on,tactics=on,ladders=off,captures=on,fill-board=5,\
             prior-weight=35,threads=2,resign=0.2,dead-playouts=400,max-memory=256M",
        )
        .unwrap();
        let config = crate::play::search_config(&s.settings, s.patterns.clone(), 9);
        let (c, game) = (&config.params, &s.settings.game);
        let selection = c.selection();
        assert_eq!(selection.exploration, 0.35);
        assert_eq!(selection.rave, 1500.0);
        assert_eq!(selection.rave_prior, 2.0);
        assert_eq!(selection.fpu, 1.2);
        assert_eq!(c.expand_visits(19), 4);
        assert!(!c.early_stop);
        assert!(!c.reuse);
        assert_eq!(game.resign_moves, 5);
        assert_eq!(game.resign_threshold, 0.2);
        assert_eq!(game.judge_playouts, 400);
        assert_eq!(c.max_memory.0, 256 << 20);
        assert!(c.playout.replies);
        assert!(c.playout.tactics);
        assert!(!c.playout.ladders);
        assert!(c.playout.captures);
        assert_eq!(c.playout.fill_board, 5);
        assert!(format!("{:?}", config.priors).contains("weight: 35.0"));
        assert_eq!((config.threads, config.seed), (2, 9));
        assert_eq!(
            s.describe(),
            "hane(threads=2,max-memory=256M,resign-threshold=0.2,resign-moves=5,\
             judge-playouts=400,prior-weight=35,ladders=off,replies=on,captures=on,\
             fill-board=5,exploration=0.35,rave=1500,rave-prior=2,fpu=1.2,expand=4,\
             early-stop=off,reuse=off)"
        );
        // Unset parameters keep the engine's defaults.
        let plain = HaneSettings::default();
        assert_eq!(plain.settings, Settings::default());
        let config = crate::play::search_config(&plain.settings, plain.patterns, 0);
        assert!(format!("{:?}", config.priors).contains("weight: 18.26"));
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
        std::fs::write(&good, crate::pattern::PatternTable::uniform().to_text()).unwrap();
        let s =
            HaneSettings::parse(&format!("patterns={},priors=pattern", good.display())).unwrap();
        assert_eq!(
            s.patterns,
            PatternTables::from(crate::pattern::PatternTable::uniform())
        );
        assert!(s.describe().contains("patterns="));
        let broken = dir.join("broken.txt");
        std::fs::write(&broken, "not a pattern table\n").unwrap();
        let err = HaneSettings::parse(&format!("patterns={}", broken.display())).unwrap_err();
        assert!(err.contains("patterns"), "{err}");
        assert!(HaneSettings::parse("patterns=/nonexistent/table.txt").is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
