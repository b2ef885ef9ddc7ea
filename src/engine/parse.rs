//! GTP input handling: the specification's preprocessing of a raw line (control characters,
//! comments, tabs, blank lines), splitting off the optional numeric id, and the argument
//! parsers (colours, vertices, numbers) that every handler shares.

use crate::board::{Color, Geometry, Move, Point};

/// One command line after preprocessing: the id (digits as sent) and the words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    pub id: Option<String>,
    /// The command name, lower case; empty when the line held only an id.
    pub name: String,
    pub args: Vec<String>,
}

/// Applies the GTP preprocessing to one line (without its line feed): removes control
/// characters other than tab, cuts the line at `#`, turns tabs into spaces. Returns `None`
/// when nothing but white space is left (such lines get no response).
pub fn preprocess(raw: &str) -> Option<String> {
    let mut text = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c == '#' {
            break;
        }
        if c == '\t' {
            text.push(' ');
        } else if !c.is_control() {
            text.push(c);
        }
    }
    if text.trim().is_empty() {
        None
    } else {
        Some(text)
    }
}

/// Splits a preprocessed line into id, command name and arguments.
pub fn split_command(line: &str) -> CommandLine {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or_default();
    let (id, name) = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first.to_string()), words.next().unwrap_or_default())
    } else {
        (None, first)
    };
    CommandLine {
        id,
        name: name.to_ascii_lowercase(),
        args: words.map(str::to_string).collect(),
    }
}

/// A colour argument: `b`, `black`, `w`, `white`, any case.
pub fn parse_color(text: &str) -> Option<Color> {
    Color::parse(text)
}

/// Whether `text` has the shape of a vertex (a letter other than I and one or two digits),
/// whatever the board size: such a vertex off the board is an illegal move rather than a
/// syntax error.
pub fn looks_like_vertex(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 2
        && b.len() <= 3
        && b[0].is_ascii_alphabetic()
        && !b[0].eq_ignore_ascii_case(&b'i')
        && b[1..].iter().all(u8::is_ascii_digit)
}

/// A vertex or `pass`, case-insensitive.
pub fn parse_move(geometry: Geometry, text: &str) -> Option<Move> {
    Move::parse(geometry, text)
}

/// A vertex that is a point on the board (no `pass`).
pub fn parse_point(geometry: Geometry, text: &str) -> Option<Point> {
    geometry.parse_point(text)
}

/// A non-negative integer that fits in `u32`.
pub fn parse_count(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A finite float (komi, times); integers are accepted too.
pub fn parse_float(text: &str) -> Option<f64> {
    let value: f64 = text.parse().ok()?;
    let looks_numeric = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    (value.is_finite() && looks_numeric).then_some(value)
}

/// A finite non-negative time in seconds.
pub fn parse_seconds(text: &str) -> Option<f64> {
    parse_float(text).filter(|&s| (0.0..1e9).contains(&s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_follows_the_spec() {
        assert_eq!(preprocess(""), None);
        assert_eq!(preprocess("   \t "), None);
        assert_eq!(preprocess("# just a comment"), None);
        assert_eq!(
            preprocess("play\tb c3 # move").as_deref(),
            Some("play b c3 ")
        );
        assert_eq!(preprocess("na\u{7}me\r").as_deref(), Some("name"));
    }

    #[test]
    fn ids_and_names() {
        let c = split_command("12 PLAY b C3");
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, vec!["b", "C3"]);
        let c = split_command("  name ");
        assert_eq!(c.id, None);
        assert_eq!(c.name, "name");
        let c = split_command("7");
        assert_eq!(c.id.as_deref(), Some("7"));
        assert_eq!(c.name, "");
    }

    #[test]
    fn numbers_and_vertices() {
        assert_eq!(parse_count("19"), Some(19));
        assert_eq!(parse_count("-1"), None);
        assert_eq!(parse_count("1.5"), None);
        assert_eq!(parse_float("6.5"), Some(6.5));
        assert_eq!(parse_float("-3"), Some(-3.0));
        assert_eq!(parse_float("nan"), None);
        assert_eq!(parse_float("inf"), None);
        assert!(looks_like_vertex("Z25"));
        assert!(looks_like_vertex("t19"));
        assert!(!looks_like_vertex("I5"));
        assert!(!looks_like_vertex("C"));
        assert!(!looks_like_vertex("C100"));
    }
}
