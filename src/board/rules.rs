//! `Rules`: a plain value describing the ko rule, suicide, komi and handicap compensation.
//! Scoring is always by area (stones plus surrounded empty points).

use std::fmt;
use std::str::FromStr;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone is forbidden.
    Simple,
    /// No move may recreate an earlier board position.
    PositionalSuperko,
    /// No move may recreate an earlier board position with the same player to move.
    SituationalSuperko,
}

/// How many points white receives for black's handicap stones under area scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapCompensation {
    /// None: the computer-Go convention (CGOS, most engine matches).
    None,
    /// One point per handicap stone (Chinese rules as KGS applies them).
    Full,
    /// One point per handicap stone after the first (AGA rules).
    AllButOne,
}

/// Komi must be smaller than this in absolute value: GTP `komi` and the `KM` of game
/// records refuse anything else (and every non-finite value).
pub const KOMI_LIMIT: f64 = 1e6;

/// Whether `komi` is a komi hane plays with: finite and below [`KOMI_LIMIT`] in absolute
/// value.
pub fn komi_is_sane(komi: f64) -> bool {
    komi.is_finite() && komi.abs() < KOMI_LIMIT
}

/// The rules of a game, as a plain value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    pub ko: KoRule,
    pub suicide_allowed: bool,
    pub komi: f32,
    pub handicap_compensation: HandicapCompensation,
}

impl Default for Rules {
    /// Computer-Go practice: area scoring, positional superko, suicide illegal, komi 7.5.
    fn default() -> Rules {
        Rules {
            ko: KoRule::PositionalSuperko,
            suicide_allowed: false,
            komi: 7.5,
            handicap_compensation: HandicapCompensation::None,
        }
    }
}

impl Rules {
    /// Tromp-Taylor: positional superko, suicide allowed, no handicap compensation.
    pub fn tromp_taylor(komi: f32) -> Rules {
        Rules {
            ko: KoRule::PositionalSuperko,
            suicide_allowed: true,
            komi,
            handicap_compensation: HandicapCompensation::None,
        }
    }

    /// Chinese rules as KGS plays them: positional superko, no suicide, one point of
    /// compensation per handicap stone.
    pub fn chinese(komi: f32) -> Rules {
        Rules {
            ko: KoRule::PositionalSuperko,
            suicide_allowed: false,
            komi,
            handicap_compensation: HandicapCompensation::Full,
        }
    }

    /// AGA rules (area-scored): situational superko, no suicide, handicap minus one.
    pub fn aga(komi: f32) -> Rules {
        Rules {
            ko: KoRule::SituationalSuperko,
            suicide_allowed: false,
            komi,
            handicap_compensation: HandicapCompensation::AllButOne,
        }
    }

    /// New Zealand rules: situational superko, suicide allowed, no compensation.
    pub fn new_zealand(komi: f32) -> Rules {
        Rules {
            ko: KoRule::SituationalSuperko,
            suicide_allowed: true,
            komi,
            handicap_compensation: HandicapCompensation::None,
        }
    }

    /// Points white receives for `handicap_stones` black handicap stones.
    pub fn handicap_points(&self, handicap_stones: usize) -> f32 {
        match self.handicap_compensation {
            HandicapCompensation::None => 0.0,
            HandicapCompensation::Full => handicap_stones as f32,
            HandicapCompensation::AllButOne => handicap_stones.saturating_sub(1) as f32,
        }
    }

    /// A short name for SGF `RU` and logs.
    pub fn name(&self) -> &'static str {
        match (self.ko, self.suicide_allowed, self.handicap_compensation) {
            (KoRule::PositionalSuperko, true, HandicapCompensation::None) => "tromp-taylor",
            (KoRule::PositionalSuperko, false, HandicapCompensation::Full) => "chinese",
            (KoRule::SituationalSuperko, false, HandicapCompensation::AllButOne) => "aga",
            (KoRule::SituationalSuperko, true, HandicapCompensation::None) => "new-zealand",
            (KoRule::PositionalSuperko, false, HandicapCompensation::None) => "cgos",
            (KoRule::Simple, false, HandicapCompensation::None) => "simple-ko",
            _ => "custom",
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = String;

    /// Parses a rule-set name; the komi stays at the default and is set separately.
    /// Japanese rules are played as Chinese: hane scores by area only.
    fn from_str(text: &str) -> Result<Rules, String> {
        let komi = Rules::default().komi;
        match text.to_ascii_lowercase().replace('_', "-").as_str() {
            "cgos" | "computer" | "default" => Ok(Rules::default()),
            "chinese" | "japanese" | "korean" => Ok(Rules::chinese(komi)),
            "tromp-taylor" | "tt" => Ok(Rules::tromp_taylor(komi)),
            "aga" => Ok(Rules::aga(komi)),
            "new-zealand" | "nz" => Ok(Rules::new_zealand(komi)),
            "simple-ko" => Ok(Rules {
                ko: KoRule::Simple,
                ..Rules::default()
            }),
            other => Err(format!(
                "unknown rules {other:?} (cgos, chinese, japanese, tromp-taylor, aga, new-zealand, simple-ko)"
            )),
        }
    }
}
