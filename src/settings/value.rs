//! The value types settings are made of, and how each is read from and written as text
//! (the same text on the command line, in `hane:key=value` player specs and in logs).

use std::path::PathBuf;

use crate::board::Rules;

/// A type a setting can hold: read from text, written back as the same text, and seen as a
/// number where it is one (for range checks and the tuner).
pub trait SettingValue: Sized {
    /// What a value looks like, for help texts (`N`, `SECONDS`, `ON|OFF`).
    const SHAPE: &'static str;
    /// What a value of `Auto<Self>` looks like, where `auto` changes the shape (a switch
    /// becomes one of three words); numbers keep their shape, their help says `auto`.
    const AUTO_SHAPE: &'static str = Self::SHAPE;
    /// Whether the value is on or off (`Auto<Self>` too).
    const SWITCH: bool = false;
    /// Whether the value is a whole number (a count; `Auto<Self>` and `Option<Self>` too).
    const INTEGER: bool = false;
    /// Reads a value; the error says what was expected.
    fn parse_setting(text: &str) -> Result<Self, String>;
    /// The text that [`SettingValue::parse_setting`] reads back as this value.
    fn format_setting(&self) -> String;
    /// The value as a number, where it is one (`None` for `auto`, switches and names).
    fn as_number(&self) -> Option<f64> {
        None
    }
}

/// `on`/`off` (also `true`/`false`, `yes`/`no`, `1`/`0`).
impl SettingValue for bool {
    const SHAPE: &'static str = "ON|OFF";
    const AUTO_SHAPE: &'static str = "AUTO|ON|OFF";
    const SWITCH: bool = true;
    fn parse_setting(text: &str) -> Result<bool, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" | "1" => Ok(true),
            "false" | "off" | "no" | "0" => Ok(false),
            _ => Err("not on or off".into()),
        }
    }
    fn format_setting(&self) -> String {
        if *self { "on" } else { "off" }.into()
    }
}

macro_rules! count_value {
    ($($t:ty),*) => {$(
        impl SettingValue for $t {
            const SHAPE: &'static str = "N";
            const INTEGER: bool = true;
            fn parse_setting(text: &str) -> Result<$t, String> {
                text.trim().parse().map_err(|_| "not a count".to_string())
            }
            fn format_setting(&self) -> String {
                self.to_string()
            }
            fn as_number(&self) -> Option<f64> {
                Some(*self as f64)
            }
        }
    )*};
}
count_value!(u32, u64, usize);

macro_rules! real_value {
    ($($t:ty),*) => {$(
        impl SettingValue for $t {
            const SHAPE: &'static str = "X";
            fn parse_setting(text: &str) -> Result<$t, String> {
                match text.trim().parse::<$t>() {
                    Ok(v) if v.is_finite() => Ok(v),
                    _ => Err("not a number".to_string()),
                }
            }
            fn format_setting(&self) -> String {
                self.to_string()
            }
            fn as_number(&self) -> Option<f64> {
                Some(*self as f64)
            }
        }
    )*};
}
real_value!(f32, f64);

/// Implements [`SettingValue`] for an enum of keywords: a variant is written as its first
/// keyword and read from any of its keywords, in any case; the error names the setting and
/// lists the first keywords.
macro_rules! keyword_value {
    ($t:ident, $shape:literal, $noun:literal, {
        $($variant:ident => $word:literal $(| $alias:literal)*),+ $(,)?
    }) => {
        impl SettingValue for $t {
            const SHAPE: &'static str = $shape;
            fn parse_setting(text: &str) -> Result<$t, String> {
                match text.trim().to_ascii_lowercase().as_str() {
                    $($word $(| $alias)* => Ok($t::$variant),)+
                    _ => Err(format!("unknown {} ({})", $noun, one_of(&[$($word),+]))),
                }
            }
            fn format_setting(&self) -> String {
                match self {
                    $($t::$variant => $word,)+
                }
                .into()
            }
        }
    };
}

/// `a`, `a or b`, `a, b or c`: the choices of a keyword setting, for its error.
fn one_of(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A value chosen by hane (`auto`, documented with each setting, often by board size) or
/// given.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Auto<T> {
    #[default]
    Auto,
    Value(T),
}

impl<T: Copy> Auto<T> {
    /// The given value, or `auto` when none was given.
    pub fn or(self, auto: T) -> T {
        match self {
            Auto::Auto => auto,
            Auto::Value(v) => v,
        }
    }
}

impl<T: SettingValue> SettingValue for Auto<T> {
    const SHAPE: &'static str = T::AUTO_SHAPE;
    const SWITCH: bool = T::SWITCH;
    const INTEGER: bool = T::INTEGER;
    fn parse_setting(text: &str) -> Result<Auto<T>, String> {
        if text.trim().eq_ignore_ascii_case("auto") {
            Ok(Auto::Auto)
        } else {
            T::parse_setting(text)
                .map(Auto::Value)
                .map_err(|e| format!("{e} (or auto)"))
        }
    }
    fn format_setting(&self) -> String {
        match self {
            Auto::Auto => "auto".into(),
            Auto::Value(v) => v.format_setting(),
        }
    }
    fn as_number(&self) -> Option<f64> {
        match self {
            Auto::Auto => None,
            Auto::Value(v) => v.as_number(),
        }
    }
}

/// A limit that may be absent (`none`).
impl<T: SettingValue> SettingValue for Option<T> {
    const SHAPE: &'static str = T::SHAPE;
    const INTEGER: bool = T::INTEGER;
    fn parse_setting(text: &str) -> Result<Option<T>, String> {
        if text.trim().eq_ignore_ascii_case("none") {
            Ok(None)
        } else {
            T::parse_setting(text)
                .map(Some)
                .map_err(|e| format!("{e} (or none)"))
        }
    }
    fn format_setting(&self) -> String {
        match self {
            None => "none".into(),
            Some(v) => v.format_setting(),
        }
    }
    fn as_number(&self) -> Option<f64> {
        self.as_ref().and_then(T::as_number)
    }
}

/// A number of bytes, written with an optional K, M or G suffix (powers of 1024).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes(pub usize);

impl SettingValue for Bytes {
    const SHAPE: &'static str = "BYTES";
    fn parse_setting(text: &str) -> Result<Bytes, String> {
        let text = text.trim();
        let (digits, scale) = match text.char_indices().last() {
            Some((i, c)) if c.eq_ignore_ascii_case(&'k') => (&text[..i], 1usize << 10),
            Some((i, c)) if c.eq_ignore_ascii_case(&'m') => (&text[..i], 1 << 20),
            Some((i, c)) if c.eq_ignore_ascii_case(&'g') => (&text[..i], 1 << 30),
            _ => (text, 1),
        };
        digits
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_mul(scale))
            .filter(|&n| n > 0)
            .map(Bytes)
            .ok_or_else(|| "not a memory size (examples: 512M, 2G)".to_string())
    }
    fn format_setting(&self) -> String {
        let n = self.0;
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] {
            if n >= 1 << shift && n.is_multiple_of(1 << shift) {
                return format!("{}{suffix}", n >> shift);
            }
        }
        n.to_string()
    }
    fn as_number(&self) -> Option<f64> {
        Some(self.0 as f64)
    }
}

/// A pattern table file, or the compiled-in tables (`builtin`).
impl SettingValue for Option<PathBuf> {
    const SHAPE: &'static str = "FILE";
    fn parse_setting(text: &str) -> Result<Option<PathBuf>, String> {
        match text.trim() {
            "" => Err("no file name".into()),
            "builtin" => Ok(None),
            path => Ok(Some(PathBuf::from(path))),
        }
    }
    fn format_setting(&self) -> String {
        match self {
            None => "builtin".into(),
            Some(path) => path.display().to_string(),
        }
    }
}

/// Where the opening book comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BookSource {
    /// The books compiled in from `patterns/`.
    #[default]
    Builtin,
    /// No book.
    Off,
    /// A book file in the `patterns/` book format.
    File(PathBuf),
}

impl SettingValue for BookSource {
    const SHAPE: &'static str = "FILE";
    fn parse_setting(text: &str) -> Result<BookSource, String> {
        match text.trim() {
            "" => Err("no file name (or builtin, off)".into()),
            "builtin" => Ok(BookSource::Builtin),
            "off" | "none" => Ok(BookSource::Off),
            path => Ok(BookSource::File(PathBuf::from(path))),
        }
    }
    fn format_setting(&self) -> String {
        match self {
            BookSource::Builtin => "builtin".into(),
            BookSource::Off => "off".into(),
            BookSource::File(path) => path.display().to_string(),
        }
    }
}

/// The playout policy the search workers run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayoutKind {
    /// Uniformly random among the legal moves that do not fill one's own eye.
    Light,
    /// The pattern-guided policy (`playout::PatternPolicy`) with the search's pattern table.
    #[default]
    Pattern,
}

keyword_value!(PlayoutKind, "POLICY", "playout policy", {
    Light => "light",
    Pattern => "pattern",
});

/// Which self-ataris the pattern playouts' random move may play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SelfAtariRule {
    /// Any of a chain of one or two stones; none of a bigger chain.
    #[default]
    Small,
    /// Only those that work (`tactics::liberties::self_atari_works`: a snapback, a nakade
    /// in a small enemy eye space, a throw-in against an enemy chain of two liberties);
    /// another is replaced by the liberty it would leave when playing there is safe.
    Useful,
    /// None: each is replaced by the liberty it would leave when playing there is safe.
    Never,
}

keyword_value!(SelfAtariRule, "RULE", "self-atari rule", {
    Small => "small",
    Useful => "useful",
    Never => "never",
});

/// Which priors seed new tree moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PriorsKind {
    /// The hand-written heuristic (`search::priors::HeuristicPriors`).
    Heuristic,
    /// The learned pattern probabilities on top of the heuristic
    /// (`search::priors::PatternPriors`).
    #[default]
    Pattern,
}

keyword_value!(PriorsKind, "KIND", "priors", {
    Heuristic => "heuristic",
    Pattern => "pattern",
});

/// How a game clock's main time is spread over the expected moves (see
/// `play::clock::move_budget`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimePlan {
    /// The same share for every expected move.
    #[default]
    Flat,
    /// On boards from 13x13 up, a smaller share in the opening and a larger one in the
    /// middle game; flat on smaller boards.
    Phased,
}

keyword_value!(TimePlan, "PLAN", "time plan", {
    Flat => "flat",
    Phased => "phased",
});

/// How the search shifts the komi of its playouts in lopsided games (see
/// `play::dynkomi`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DynamicKomiMode {
    /// The default mode in handicap games, off in even games.
    #[default]
    Auto,
    /// No offset: the playouts are scored with the game's komi.
    Off,
    /// An offset for the handicap stones that fades to nothing with the move number.
    Linear,
    /// An offset that follows the search's win rate, kept in a band.
    Adaptive,
}

keyword_value!(DynamicKomiMode, "MODE", "dynamic komi", {
    Auto => "auto",
    Off => "off" | "none",
    Linear => "linear",
    Adaptive => "adaptive" | "situational",
});

/// A rule set by name (its komi is the `komi` setting's).
impl SettingValue for Rules {
    const SHAPE: &'static str = "RULES";
    fn parse_setting(text: &str) -> Result<Rules, String> {
        text.trim().parse()
    }
    fn format_setting(&self) -> String {
        self.name().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: SettingValue + PartialEq + std::fmt::Debug>(text: &str) {
        let value = T::parse_setting(text).unwrap();
        assert_eq!(T::parse_setting(&value.format_setting()).unwrap(), value);
    }

    #[test]
    fn values_read_back_what_they_write() {
        round_trip::<bool>("ON");
        round_trip::<bool>("no");
        round_trip::<u32>("17");
        round_trip::<f32>("0.35");
        round_trip::<Auto<u32>>("auto");
        round_trip::<Auto<u32>>("4");
        round_trip::<Option<u64>>("none");
        round_trip::<Option<u64>>("400");
        round_trip::<Bytes>("512M");
        round_trip::<Bytes>("1000");
        round_trip::<PlayoutKind>("light");
        round_trip::<PriorsKind>("heuristic");
        round_trip::<SelfAtariRule>("Useful");
        round_trip::<SelfAtariRule>("never");
        round_trip::<Rules>("tromp-taylor");
        round_trip::<DynamicKomiMode>("adaptive");
        round_trip::<DynamicKomiMode>("off");
        assert_eq!(
            DynamicKomiMode::parse_setting("Situational"),
            Ok(DynamicKomiMode::Adaptive)
        );
        round_trip::<Option<PathBuf>>("builtin");
        round_trip::<Option<PathBuf>>("patterns/default.txt");
        round_trip::<BookSource>("builtin");
        round_trip::<BookSource>("off");
        round_trip::<BookSource>("patterns/book-9x9.txt");
        assert_eq!(Bytes::parse_setting("2g"), Ok(Bytes(2 << 30)));
        assert_eq!(Bytes(1 << 30).format_setting(), "1G");
    }

    #[test]
    fn bad_text_is_refused() {
        assert!(bool::parse_setting("maybe").is_err());
        assert!(u32::parse_setting("-1").is_err());
        assert!(f32::parse_setting("inf").is_err());
        assert!(f32::parse_setting("nan").is_err());
        assert!(Bytes::parse_setting("lots").is_err());
        assert!(Bytes::parse_setting("0").is_err());
        assert!(Auto::<u32>::parse_setting("some").is_err());
        assert!(PriorsKind::parse_setting("oracle").is_err());
        assert_eq!(
            DynamicKomiMode::parse_setting("sometimes"),
            Err("unknown dynamic komi (auto, off, linear or adaptive)".into())
        );
        assert_eq!(
            PlayoutKind::parse_setting("heavy"),
            Err("unknown playout policy (light or pattern)".into())
        );
        assert!(SelfAtariRule::parse_setting("sometimes").is_err());
        assert!(Option::<PathBuf>::parse_setting(" ").is_err());
        assert!(BookSource::parse_setting("").is_err());
    }
}
