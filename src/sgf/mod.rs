//! Game records: reading SGF collections (with the `sgf-parse` crate) into plain game
//! descriptions, replaying them into a `GameState`, and writing a game as SGF `FF[4]`.
//!
//! Records from elsewhere are input like any other: a collection is cut into its game
//! trees by a scan of the text before any of them is parsed (so that reading the first
//! game of a large collection parses only that game), each game tree must be complete and
//! well formed, and the parsed tree is taken apart node by node (`sgf-parse` builds a
//! recursive tree whose recursive drop overflowed the stack on a main line of 100,000
//! nodes): records of any depth are read. [`read_first_game`] reads a record from a file
//! for GTP `loadsgf`: regular files only, and at most a given number of bytes. Whole sets of
//! records (files and folders) are read by [`collection`].

pub mod collection;

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

use sgf_parse::go::{Move as SgfMove, Prop};
use sgf_parse::{GameTree, ParseOptions, SgfNode, SgfProp};

use crate::board::{Color, GameState, Geometry, Move, Point, Rules, komi_is_sane};

/// Why a record could not be read or replayed.
#[derive(Clone, Debug, PartialEq)]
pub enum SgfError {
    /// The file cannot be read (missing, not a regular file, unreadable).
    Io(String),
    /// No game ends within the first `limit` bytes of the file.
    TooLong { limit: usize },
    /// The text is not SGF.
    Parse(String),
    /// The record is not a game of Go (`GM` other than 1).
    NotGo,
    /// The board size is missing support (non-square or outside 2..=25).
    BadSize(String),
    /// A property value is broken (a point off the board, a malformed move, a komi that is
    /// not finite or absurd: see [`crate::board::KOMI_LIMIT`]).
    BadProperty(String),
    /// Move `number` (1-based) is illegal in the replay.
    IllegalMove { number: usize, text: String },
    /// Setup stones that cannot be placed.
    BadSetup(String),
}

impl std::fmt::Display for SgfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SgfError::Io(e) => write!(f, "cannot read the file: {e}"),
            SgfError::TooLong { limit } => write!(
                f,
                "no game ends within the first {limit} bytes (setting max-sgf-bytes)"
            ),
            SgfError::Parse(e) => write!(f, "not an SGF file: {e}"),
            SgfError::NotGo => f.write_str("not a game of Go"),
            SgfError::BadSize(s) => write!(f, "unsupported board size {s}"),
            SgfError::BadProperty(s) => write!(f, "bad property {s}"),
            SgfError::IllegalMove { number, text } => {
                write!(f, "move {number} ({text}) is illegal")
            }
            SgfError::BadSetup(s) => write!(f, "bad setup stones: {s}"),
        }
    }
}

impl std::error::Error for SgfError {}

/// One game's main line, as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    pub size: usize,
    pub komi: Option<f32>,
    /// `HA`, when given.
    pub handicap: Option<usize>,
    /// `RU`, when given.
    pub rules: Option<String>,
    pub black_player: Option<String>,
    pub white_player: Option<String>,
    /// `RE`, when given.
    pub result: Option<String>,
    /// Setup stones of the root node (`AB`, `AW`), handicap stones included.
    pub setup: Vec<(Color, Point)>,
    /// `PL` of the root node.
    pub player_to_move: Option<Color>,
    /// The moves of the main variation.
    pub moves: Vec<(Color, Move)>,
}

/// Parses an SGF collection. The collection's text must hold at least one game tree (an
/// error otherwise); each game is read on its own, so one broken game (an unclosed last
/// one included) does not spoil the others.
pub fn parse_collection(text: &str) -> Result<Vec<Result<SgfGame, SgfError>>, SgfError> {
    let games: Vec<_> = game_trees(text)
        .map(|tree| tree.and_then(parse_tree))
        .collect();
    if games.is_empty() {
        return Err(no_game_tree());
    }
    Ok(games)
}

/// Parses the first game of `text`; the text after it is not looked at.
pub fn parse_game(text: &str) -> Result<SgfGame, SgfError> {
    game_trees(text)
        .next()
        .unwrap_or_else(|| Err(no_game_tree()))
        .and_then(parse_tree)
}

fn no_game_tree() -> SgfError {
    SgfError::Parse("no game tree: `(;` not found".to_string())
}

/// Reads the first game of the record in the file at `path` (GTP `loadsgf`): the path must
/// name a regular file (not a pipe, a device or a directory, which could block or never
/// end), of which at most `max_bytes` are read; the first game must end within them, and
/// the rest of the file is not read.
pub fn read_first_game(path: &Path, max_bytes: usize) -> Result<SgfGame, SgfError> {
    let io = |e: std::io::Error| SgfError::Io(e.to_string());
    let file = crate::files::open_regular(path).map_err(SgfError::Io)?;
    let mut bytes = Vec::new();
    file.take(max_bytes as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let text = String::from_utf8_lossy(&bytes);
    match game_trees(&text).next() {
        None if bytes.len() >= max_bytes => Err(SgfError::TooLong { limit: max_bytes }),
        None => Err(no_game_tree()),
        Some(Err(_)) if bytes.len() >= max_bytes => Err(SgfError::TooLong { limit: max_bytes }),
        Some(tree) => tree.and_then(parse_tree),
    }
}

/// The text of each game tree of a collection, in order: from a `(` followed by a node
/// (`;`) to its matching `)`, property values (`[...]`, where `\` escapes a character)
/// skipped. Text outside game trees is ignored. A game tree the text ends in is an error,
/// and the last item.
fn game_trees(text: &str) -> impl Iterator<Item = Result<&str, SgfError>> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        // The next `(` that starts a game tree.
        let start = loop {
            let k = pos + bytes.get(pos..)?.iter().position(|&b| b == b'(')?;
            pos = k + 1;
            let after = bytes[pos..].iter().find(|b| !b.is_ascii_whitespace());
            if after == Some(&b';') {
                break k;
            }
        };
        let mut depth = 1usize;
        let mut in_value = false;
        let mut escaped = false;
        while pos < bytes.len() {
            let b = bytes[pos];
            pos += 1;
            if in_value {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b']' {
                    in_value = false;
                }
                continue;
            }
            match b {
                b'[' => in_value = true,
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        // Delimiters are ASCII: the slice ends on a character boundary.
                        return Some(Ok(&text[start..pos]));
                    }
                }
                _ => {}
            }
        }
        Some(Err(SgfError::Parse(
            "the game tree does not end (a `)` or `]` is missing)".to_string(),
        )))
    })
}

/// Parses the text of one game tree.
fn parse_tree(text: &str) -> Result<SgfGame, SgfError> {
    check_between_values(text)?;
    let options = ParseOptions {
        lenient: false,
        ..ParseOptions::default()
    };
    let mut trees = sgf_parse::parse_with_options(text, &options)
        .map_err(|e| SgfError::Parse(e.to_string()))?;
    let tree = trees
        .pop()
        .ok_or_else(|| SgfError::Parse("no game tree".to_string()))?;
    match tree {
        GameTree::GoGame(root) => {
            let game = read_game(&root);
            take_apart(root);
            game
        }
        GameTree::Unknown(root) => {
            take_apart(root);
            Err(SgfError::NotGo)
        }
    }
}

/// Refuses text between property values that is not SGF: the parser takes everything up to a
/// `[` as a property identifier and keeps only its capital letters, so stray text before a
/// node (`DT[...]G;B[ee]`) would merge into an identifier (`GB`) and swallow the next move
/// silently. Between values only white space, `(`, `)`, `;` and identifiers followed by a
/// value may stand.
fn check_between_values(text: &str) -> Result<(), SgfError> {
    let (mut in_value, mut escaped) = (false, false);
    // The identifier read since the last value or node, waiting for its value.
    let mut identifier = String::new();
    for c in text.chars() {
        if in_value {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                ']' => in_value = false,
                _ => {}
            }
            continue;
        }
        match c {
            '[' => {
                identifier.clear();
                in_value = true;
            }
            '(' | ')' | ';' if !identifier.is_empty() => {
                return Err(SgfError::Parse(format!(
                    "property `{identifier}` has no value before `{c}`"
                )));
            }
            '(' | ')' | ';' => {}
            _ if c.is_ascii_alphabetic() => identifier.push(c),
            _ if c.is_whitespace() => {}
            _ => {
                return Err(SgfError::Parse(format!(
                    "unexpected `{}` between properties",
                    c.escape_debug()
                )));
            }
        }
    }
    Ok(())
}

/// Drops a parsed tree one node at a time: `SgfNode`'s own drop recurses once per level
/// and overflows the stack on deep records.
fn take_apart<P: SgfProp>(root: SgfNode<P>) {
    let mut stack = vec![root];
    while let Some(mut node) = stack.pop() {
        stack.append(&mut node.children);
    }
}

fn read_game(root: &SgfNode<Prop>) -> Result<SgfGame, SgfError> {
    let size = match root.get_property("SZ") {
        None => 19,
        Some(Prop::SZ((w, h))) if w == h => *w as usize,
        Some(Prop::SZ((w, h))) => return Err(SgfError::BadSize(format!("{w}x{h}"))),
        Some(other) => return Err(SgfError::BadSize(format!("{other:?}"))),
    };
    let geometry = Geometry::new(size).ok_or_else(|| SgfError::BadSize(size.to_string()))?;
    if let Some(Prop::GM(game)) = root.get_property("GM")
        && *game != 1
    {
        return Err(SgfError::NotGo);
    }
    let text = |id: &str| -> Option<String> {
        match root.get_property(id)? {
            Prop::PB(t) | Prop::PW(t) | Prop::RE(t) | Prop::RU(t) => Some(t.text.clone()),
            _ => None,
        }
    };
    let komi = match root.get_property("KM") {
        Some(Prop::KM(k)) if komi_is_sane(*k) => Some(*k as f32),
        Some(Prop::KM(k)) => return Err(SgfError::BadProperty(format!("KM[{k}]"))),
        // Not a number as SGF writes one (`KM[0x10]`, `KM[7,5]`): refused, not defaulted.
        Some(Prop::Invalid(_, values)) => {
            return Err(SgfError::BadProperty(format!("KM[{}]", values.join("]["))));
        }
        _ => None,
    };
    let handicap = match root.get_property("HA") {
        Some(Prop::HA(h)) if *h >= 0 => Some(*h as usize),
        _ => None,
    };
    let player_to_move = match root.get_property("PL") {
        Some(Prop::PL(sgf_parse::Color::Black)) => Some(Color::Black),
        Some(Prop::PL(sgf_parse::Color::White)) => Some(Color::White),
        _ => None,
    };
    let mut game = SgfGame {
        size,
        komi,
        handicap,
        rules: text("RU"),
        black_player: text("PB"),
        white_player: text("PW"),
        result: text("RE"),
        setup: Vec::new(),
        player_to_move,
        moves: Vec::new(),
    };
    for (depth, node) in root.main_variation().enumerate() {
        for prop in node.properties() {
            match prop {
                Prop::AB(stones) | Prop::AW(stones) => {
                    if depth > 0 && !game.moves.is_empty() {
                        return Err(SgfError::BadSetup(
                            "setup stones after the first move".to_string(),
                        ));
                    }
                    let color = if matches!(prop, Prop::AB(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let mut points: Vec<Point> = stones
                        .iter()
                        .map(|s| sgf_point(geometry, s.x, s.y))
                        .collect::<Result<_, _>>()?;
                    points.sort_unstable();
                    game.setup.extend(points.into_iter().map(|p| (color, p)));
                }
                Prop::B(mv) => game.moves.push((Color::Black, sgf_move(geometry, mv)?)),
                Prop::W(mv) => game.moves.push((Color::White, sgf_move(geometry, mv)?)),
                Prop::Invalid(id, values) if id == "B" || id == "W" => {
                    return Err(SgfError::BadProperty(format!(
                        "{id}[{}]",
                        values.join("][")
                    )));
                }
                _ => {}
            }
        }
    }
    Ok(game)
}

fn sgf_point(geometry: Geometry, x: u8, y: u8) -> Result<Point, SgfError> {
    let size = geometry.size();
    if (x as usize) < size && (y as usize) < size {
        Ok(geometry
            .point(x as usize, size - 1 - y as usize)
            .expect("inside the board"))
    } else {
        Err(SgfError::BadProperty(format!(
            "point ({x}, {y}) off a {size}x{size} board"
        )))
    }
}

fn sgf_move(geometry: Geometry, mv: &SgfMove) -> Result<Move, SgfError> {
    match mv {
        SgfMove::Pass => Ok(Move::Pass),
        // `tt` is the old spelling of a pass on boards up to 19x19.
        SgfMove::Move(p) if geometry.size() <= 19 && p.x == 19 && p.y == 19 => Ok(Move::Pass),
        SgfMove::Move(p) => sgf_point(geometry, p.x, p.y).map(Move::Play),
    }
}

impl SgfGame {
    /// Replays the game under `rules` (komi from the record when it has one) up to, not
    /// including, move `until` (1-based, as GTP `loadsgf` counts); all moves when `None`.
    pub fn replay(&self, rules: Rules, until: Option<usize>) -> Result<GameState, SgfError> {
        let mut rules = rules;
        if let Some(komi) = self.komi {
            rules.komi = komi;
        }
        let mut state = GameState::new(self.size, rules)
            .ok_or_else(|| SgfError::BadSize(self.size.to_string()))?;
        let black_only = self.setup.iter().all(|&(c, _)| c == Color::Black);
        if self.setup.len() >= 2
            && black_only
            && self.handicap.is_some_and(|h| h == self.setup.len())
        {
            let points: Vec<Point> = self.setup.iter().map(|&(_, p)| p).collect();
            state
                .set_free_handicap(&points)
                .map_err(|e| SgfError::BadSetup(e.to_string()))?;
        } else if !self.setup.is_empty() {
            state
                .add_setup_stones(&self.setup)
                .map_err(|e| SgfError::BadSetup(e.to_string()))?;
        }
        if let Some(color) = self.player_to_move.or(self.moves.first().map(|&(c, _)| c)) {
            state.set_to_move(color);
        }
        let limit = until.map_or(self.moves.len(), |n| {
            n.saturating_sub(1).min(self.moves.len())
        });
        for (k, &(color, mv)) in self.moves[..limit].iter().enumerate() {
            state.play(color, mv).map_err(|e| SgfError::IllegalMove {
                number: k + 1,
                text: format!("{} {}: {e}", color.letter(), mv.to_gtp(state.geometry())),
            })?;
        }
        Ok(state)
    }
}

/// What a written record says besides the moves.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    pub black_player: Option<String>,
    pub white_player: Option<String>,
    /// `RE`: `B+3.5`, `W+R`, `0`, `Void`, ...
    pub result: Option<String>,
    /// `DT`, as `YYYY-MM-DD`.
    pub date: Option<String>,
    /// `GC`: a comment on the whole game.
    pub game_comment: Option<String>,
    /// `C` of each move's node, by move index (shorter than the move list is fine).
    pub move_comments: Vec<Option<String>>,
}

/// Escapes SGF text (a property value): backslash and closing bracket.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Appends `ID[text]` (escaped) for each property that has a value.
pub fn write_text_properties(out: &mut String, properties: &[(&str, &Option<String>)]) {
    for &(id, value) in properties {
        if let Some(v) = value {
            let _ = write!(out, "{id}[{}]", escape(v));
        }
    }
}

/// Appends the setup stones as `AB[..]` and `AW[..]`.
pub fn write_setup(out: &mut String, geometry: Geometry, setup: &[(Color, Point)]) {
    for color in Color::ALL {
        let stones: Vec<String> = setup
            .iter()
            .filter(|&&(c, _)| c == color)
            .map(|&(_, p)| geometry.sgf_point(p))
            .collect();
        if !stones.is_empty() {
            let _ = write!(out, "A{}[{}]", color.letter(), stones.join("]["));
        }
    }
}

/// Writes the game as one SGF `FF[4]` game tree: root properties, setup stones and every move.
pub fn write_game(state: &GameState, info: &GameInfo) -> String {
    let geometry = state.geometry();
    let mut out = String::new();
    let _ = write!(
        out,
        "(;GM[1]FF[4]CA[UTF-8]AP[hane:{}]SZ[{}]KM[{}]RU[{}]",
        env!("CARGO_PKG_VERSION"),
        state.size(),
        state.komi(),
        sgf_rules_name(state.rules())
    );
    if state.handicap() > 0 {
        let _ = write!(out, "HA[{}]", state.handicap());
    }
    write_text_properties(
        &mut out,
        &[
            ("PB", &info.black_player),
            ("PW", &info.white_player),
            ("RE", &info.result),
            ("DT", &info.date),
            ("GC", &info.game_comment),
        ],
    );
    write_setup(&mut out, geometry, state.setup_stones());
    // The side to move at the start: after setup stones, and whenever it is white (a
    // reader assumes black).
    if !state.setup_stones().is_empty() || first_player(state) == Color::White {
        let _ = write!(out, "PL[{}]", first_player(state).letter());
    }
    for (k, &(color, mv)) in state.moves().iter().enumerate() {
        let vertex = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => geometry.sgf_point(p),
        };
        let _ = write!(out, "\n;{}[{vertex}]", color.letter());
        if let Some(Some(comment)) = info.move_comments.get(k) {
            let _ = write!(out, "C[{}]", escape(comment));
        }
    }
    out.push_str(")\n");
    out
}

fn first_player(state: &GameState) -> Color {
    state.moves().first().map_or(state.to_move(), |&(c, _)| c)
}

/// The `RU` value for a rule set (SGF's names where one exists).
fn sgf_rules_name(rules: &Rules) -> &'static str {
    match rules.name() {
        "chinese" => "Chinese",
        "aga" => "AGA",
        "new-zealand" => "NZ",
        "tromp-taylor" => "Tromp-Taylor",
        _ => "Chinese",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read_round_trip() {
        let mut state = GameState::new(9, Rules::default()).unwrap();
        state.place_fixed_handicap(2).unwrap();
        let g = state.geometry();
        for v in ["E5", "D4", "pass", "F6"] {
            let color = state.to_move();
            state.play(color, Move::parse(g, v).unwrap()).unwrap();
        }
        let info = GameInfo {
            black_player: Some("a]b".into()),
            result: Some("B+R".into()),
            move_comments: vec![Some("first \\ move".into())],
            ..GameInfo::default()
        };
        let text = write_game(&state, &info);
        let game = parse_game(&text).unwrap();
        assert_eq!(game.size, 9);
        assert_eq!(game.black_player.as_deref(), Some("a]b"));
        assert_eq!(game.handicap, Some(2));
        assert_eq!(game.moves, state.moves());
        let replayed = game.replay(Rules::default(), None).unwrap();
        assert_eq!(replayed.board(), state.board());
        assert_eq!(replayed.handicap(), 2);
        let partial = game.replay(Rules::default(), Some(3)).unwrap();
        assert_eq!(partial.moves().len(), 2);
        // White to move on an empty board comes back white to move.
        let mut white_first = GameState::new(9, Rules::default()).unwrap();
        assert!(white_first.set_to_move(Color::White));
        let text = write_game(&white_first, &GameInfo::default());
        assert!(text.contains("PL[W]"), "{text}");
        let replayed = parse_game(&text)
            .unwrap()
            .replay(Rules::default(), None)
            .unwrap();
        assert_eq!(replayed.to_move(), Color::White);
        let plain = write_game(
            &GameState::new(9, Rules::default()).unwrap(),
            &GameInfo::default(),
        );
        assert!(!plain.contains("PL["), "{plain}");
    }

    #[test]
    fn collections_are_cut_into_game_trees() {
        let text = "header (not a game) (;SZ[9]C[a ) ( \\] ]\n;B[ee](;W[cc])(;W[dd]))\n\
                    junk ( ; SZ[5];B[cc]) (;SZ[9];W[aa]";
        let trees: Vec<_> = game_trees(text).collect();
        assert_eq!(trees.len(), 3);
        assert_eq!(
            trees[0],
            Ok("(;SZ[9]C[a ) ( \\] ]\n;B[ee](;W[cc])(;W[dd]))")
        );
        assert_eq!(trees[1], Ok("( ; SZ[5];B[cc])"));
        assert!(trees[2].is_err());
        let games = parse_collection(text).unwrap();
        assert_eq!(games[0].as_ref().unwrap().moves.len(), 2);
        assert_eq!(games[1].as_ref().unwrap().size, 5);
        assert!(games[2].is_err());
        // Only the first game is parsed: what follows it may be anything.
        assert_eq!(parse_game("(;SZ[7]) (;SZ[99] broken").unwrap().size, 7);
        assert!(parse_game("(;SZ[9];B[ee]XX").is_err());
        assert!(parse_game("(;SZ[9]\u{fffd}\u{fffd})").is_err());
    }

    #[test]
    fn stray_text_before_a_node_is_an_error_not_a_lost_move() {
        // The parser reads `G;B` as one identifier: the first move would vanish.
        let err = parse_game("(;GM[1]SZ[9]DT[2026-11-25]G;B[ee];W[cc])").unwrap_err();
        assert!(
            err.to_string().contains("property `G` has no value"),
            "{err}"
        );
        assert!(parse_game("(;SZ[9];B[ee]1;W[cc])").is_err());
        assert!(parse_game("(;SZ[9];B[ee]\n;W[cc] X;B[dd])").is_err());
        // Old-style identifiers with lower-case letters are still read.
        let game = parse_game("(;CoPyright[x]SZ[9];B[ee];W[cc])").unwrap();
        assert_eq!(game.moves.len(), 2);
    }

    #[test]
    fn broken_records_are_errors() {
        assert!(parse_collection("not sgf at all").is_err());
        assert!(matches!(
            parse_game("(;SZ[30];B[aa])"),
            Err(SgfError::BadSize(_))
        ));
        assert!(matches!(
            parse_game("(;SZ[9];B[zz])"),
            Err(SgfError::BadProperty(_))
        ));
        let game = parse_game("(;SZ[9];B[aa];W[aa])").unwrap();
        assert!(matches!(
            game.replay(Rules::default(), None),
            Err(SgfError::IllegalMove { number: 2, .. })
        ));
        let game = parse_game("(;SZ[19];B[tt];W[dd])").unwrap();
        assert_eq!(game.moves[0].1, Move::Pass);
    }
}
