//! What a match is played with: the two engines ([`EngineSpec`]), the openings, and the
//! time control and time options from the command line.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::engine_process::{self, EngineProcess};
use super::hane_player::{HanePlayer, HaneSettings};
use super::player::{Player, TimeControl};
use crate::board::Rules;
use crate::search::SearchControl;
use crate::sgf::{SgfGame, parse_collection};

/// How one side of a match is played.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineSpec {
    /// A GTP engine's command line.
    Command(String),
    /// hane in-process with these settings (boxed: they are large).
    Hane(Box<HaneSettings>),
}

impl EngineSpec {
    /// `hane` or `hane:key=value,...` is hane in-process; anything else is a command line.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let trimmed = text.trim();
        if trimmed == "hane" {
            return Ok(EngineSpec::Hane(Box::default()));
        }
        if let Some(settings) = trimmed.strip_prefix("hane:") {
            return HaneSettings::parse(settings).map(|s| EngineSpec::Hane(Box::new(s)));
        }
        engine_process::split_command_line(trimmed)?;
        Ok(EngineSpec::Command(trimmed.to_string()))
    }

    /// The name to use when none is given: the engine's own (`name` + `version`) for a
    /// command, the settings for hane.
    pub fn default_name(&self, command_timeout: Duration) -> Result<String, String> {
        match self {
            EngineSpec::Hane(settings) => Ok(settings.describe()),
            EngineSpec::Command(line) => {
                let mut engine = EngineProcess::start(line, None, command_timeout)
                    .map_err(|f| format!("engine {line:?} does not start: {f}"))?;
                let name = engine.name().to_string();
                engine.shut_down();
                Ok(name)
            }
        }
    }

    /// The player for one worker, called `name`; `interrupt` stops its waits.
    pub(super) fn make(
        &self,
        name: &str,
        command_timeout: Duration,
        interrupt: &Arc<SearchControl>,
    ) -> Box<dyn Player> {
        let interrupt = Arc::clone(interrupt);
        match self {
            EngineSpec::Hane(settings) => {
                Box::new(HanePlayer::new(name.to_string(), (**settings).clone()).watch(interrupt))
            }
            EngineSpec::Command(line) => {
                Box::new(EngineProcess::idle(line, name, command_timeout).watch(interrupt))
            }
        }
    }
}

/// One opening: the start of a game record.
#[derive(Clone, Debug)]
pub struct Opening {
    /// `file#n` (n counts games in the file from 1).
    pub label: String,
    pub game: SgfGame,
}

/// Reads openings from SGF files and folders (every `.sgf` inside, sorted by name), checking
/// that each replays legally on a board of `size`.
pub fn load_openings(paths: &[PathBuf], size: usize, rules: Rules) -> Result<Vec<Opening>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("cannot list {}: {e}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(format!("{} holds no .sgf files", path.display()));
            }
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    let mut openings = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read opening {}: {e}", file.display()))?;
        let games =
            parse_collection(&text).map_err(|e| format!("opening {}: {e}", file.display()))?;
        for (k, game) in games.into_iter().enumerate() {
            let label = format!("{}#{}", file.display(), k + 1);
            let game = game.map_err(|e| format!("opening {label}: {e}"))?;
            if game.size != size {
                return Err(format!(
                    "opening {label} is for {0}x{0}, the match is {size}x{size}",
                    game.size
                ));
            }
            game.replay(rules, None)
                .map_err(|e| format!("opening {label}: {e}"))?;
            openings.push(Opening { label, game });
        }
    }
    Ok(openings)
}

/// The longest time any clock option may give, in seconds (about 115 days): what a
/// `Duration` and an `Instant` hold with room to spare, and more than any game needs.
pub const MAX_SECONDS: f64 = 1e7;

/// `v`, a time option `what` in seconds, when it is a number from 0 to [`MAX_SECONDS`].
pub fn check_seconds(v: f64, what: &str) -> Result<f64, String> {
    if v.is_finite() && (0.0..=MAX_SECONDS).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{what} must be a number of seconds from 0 to {MAX_SECONDS}"
        ))
    }
}

/// Time control from the command-line options.
pub fn time_control(
    main: Option<f64>,
    byo_yomi: f64,
    stones: u32,
    increment: f64,
    per_move: Option<f64>,
    max_move: f64,
) -> Result<TimeControl, String> {
    if increment != 0.0 && main.is_none() {
        return Err("--increment needs --time (the main time)".to_string());
    }
    if byo_yomi != 0.0 && main.is_none() {
        return Err("--byo-yomi needs --time (the main time; --time 0 for none)".to_string());
    }
    check_seconds(max_move, "--max-move-time")?;
    match (main, per_move) {
        (Some(_), Some(_)) => Err("give either --time or --move-time, not both".to_string()),
        (None, Some(s)) => {
            if check_seconds(s, "--move-time")? <= 0.0 {
                return Err("--move-time must be positive".to_string());
            }
            Ok(TimeControl::PerMove { seconds: s })
        }
        (Some(m), None) if increment != 0.0 => {
            let main = check_seconds(m, "--time")?;
            let increment = check_seconds(increment, "--increment")?;
            if byo_yomi != 0.0 {
                return Err("give either --byo-yomi or --increment, not both".to_string());
            }
            if main <= 0.0 {
                // The first move would have no time: the increment comes after it.
                return Err("--increment needs a positive --time".to_string());
            }
            Ok(TimeControl::Fischer { main, increment })
        }
        (Some(m), None) => {
            let main = check_seconds(m, "--time")?;
            let byo_yomi = check_seconds(byo_yomi, "--byo-yomi")?;
            if main <= 0.0 && byo_yomi <= 0.0 {
                return Err("--time 0 needs --byo-yomi".to_string());
            }
            if byo_yomi > 0.0 && stones == 0 {
                return Err("--byo-yomi-stones must be at least 1".to_string());
            }
            Ok(TimeControl::Clock {
                main,
                byo_yomi,
                stones,
            })
        }
        (None, None) => {
            if !(max_move > 0.0 && max_move.is_finite()) {
                return Err("--max-move-time must be positive".to_string());
            }
            Ok(TimeControl::None { max_move })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_from_the_options() {
        let fischer = time_control(Some(60.0), 0.0, 1, 2.5, None, 30.0);
        assert_eq!(
            fischer,
            Ok(TimeControl::Fischer {
                main: 60.0,
                increment: 2.5
            })
        );
        assert_eq!(
            time_control(Some(60.0), 5.0, 2, 0.0, None, 30.0),
            Ok(TimeControl::Clock {
                main: 60.0,
                byo_yomi: 5.0,
                stones: 2
            })
        );
        assert_eq!(
            time_control(None, 0.0, 1, 0.0, Some(0.5), 30.0),
            Ok(TimeControl::PerMove { seconds: 0.5 })
        );
        for bad in [
            time_control(None, 0.0, 1, 2.0, None, 30.0),
            time_control(None, 0.0, 1, 2.0, Some(1.0), 30.0),
            time_control(Some(60.0), 5.0, 1, 2.0, None, 30.0),
            time_control(Some(60.0), 0.0, 1, -1.0, None, 30.0),
            time_control(Some(60.0), 0.0, 1, f64::NAN, None, 30.0),
            // Fischer with no main time: the first move would have none.
            time_control(Some(0.0), 0.0, 1, 2.0, None, 30.0),
            // Byo-yomi without a main time given, or beside a time per move.
            time_control(None, 30.0, 1, 0.0, None, 30.0),
            time_control(None, 30.0, 1, 0.0, Some(2.0), 30.0),
            // Beyond what a clock may hold.
            time_control(Some(1e300), 0.0, 1, 0.0, None, 30.0),
            time_control(None, 0.0, 1, 0.0, Some(1e19), 30.0),
            time_control(None, 0.0, 1, 0.0, None, 1e19),
            time_control(Some(60.0), 0.0, 1, 1e12, None, 30.0),
        ] {
            assert!(bad.is_err(), "{bad:?}");
        }
    }

    #[test]
    fn engine_specs_parse() {
        assert!(matches!(EngineSpec::parse("hane"), Ok(EngineSpec::Hane(_))));
        assert!(matches!(
            EngineSpec::parse("gnugo --mode gtp"),
            Ok(EngineSpec::Command(_))
        ));
        assert!(EngineSpec::parse("hane:bogus=1").is_err());
        assert!(EngineSpec::parse("gnugo 'unclosed").is_err());
    }
}
