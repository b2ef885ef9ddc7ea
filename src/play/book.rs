//! The opening book: its plain-text format (`patterns/book-*.txt`, described in
//! `patterns/README.md`), loading it with errors that name the line, and looking positions
//! up by a hash of the canonical position under the 8 board symmetries, so that positions
//! reached by transposition or by a rotated or mirrored line are found too.
//!
//! A book file holds sections; a section says for which games its entries are valid (board
//! size, komi, scoring) and how they are used: `use=play` entries are played at once when
//! their statistics are good enough (the 9x9 book grown by hane's own searches),
//! `use=prior` entries only give the search a prior on the root moves (the 19x19 book of
//! professional statistics, whose komi and rules differ from game to game). An entry is the
//! line of moves that reaches the position from the empty board (black first), so the file
//! depends on no hash constants; the loader replays it.
//!
//! ```text
//! hane-book 1
//! section size=9 komi=7.5 rules=area use=play
//! -> E5:20000:0.552 D5:1200:0.531
//! E5 -> C5:9000:0.47 D3:3100:0.46
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::board::{Board, Color, GameState, Geometry, Move, Point, Rules};

/// The first line of every book file.
pub const BOOK_VERSION_LINE: &str = "hane-book 1";

/// The compiled-in 9x9 book (grown by `hane book build9`).
pub const BUILTIN_9X9: &str = include_str!("../../patterns/book-9x9.txt");
/// The compiled-in 19x19 book (professional statistics from `hane book build19`).
pub const BUILTIN_19X19: &str = include_str!("../../patterns/book-19x19.txt");

/// A `use=play` book move is played only when it was searched at least this often (its
/// count: playouts for a searched book, games for a book of records).
pub const MIN_PLAY_COUNT: u64 = 100;

/// Virtual playouts a `use=prior` book gives its most frequent move at the root of the
/// search (others get the same visits with a value scaled by their frequency).
pub const BOOK_PRIOR_WEIGHT: f32 = 40.0;

/// Positions a line in the book may reach: no deeper than this many moves.
pub const MAX_LINE: usize = 120;

/// How the entries of a section are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookUse {
    /// Play the most frequent move at once, without a search.
    Play,
    /// Give the book moves a prior at the root of the search.
    Prior,
}

/// The games a section is valid for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scope {
    pub size: usize,
    /// `None`: any komi.
    pub komi: Option<f32>,
    /// Whether the section was made with area scoring (`rules=area`); `rules=any` also
    /// matches. hane scores every rule set by area.
    pub rules: RulesScope,
    pub use_: BookUse,
}

/// The scoring a section was made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesScope {
    Area,
    Any,
}

impl Scope {
    /// The section header line.
    pub fn header(&self) -> String {
        format!(
            "section size={} komi={} rules={} use={}",
            self.size,
            self.komi.map_or("any".to_string(), |k| k.to_string()),
            match self.rules {
                RulesScope::Area => "area",
                RulesScope::Any => "any",
            },
            match self.use_ {
                BookUse::Play => "play",
                BookUse::Prior => "prior",
            }
        )
    }

    /// Whether a game of `size` under `rules` is one this section is for: its size and
    /// komi. The scoring needs no check: hane scores every rule set by area (a game under
    /// `kgs-rules japanese` too), which is what `rules=area` and `rules=any` sections are
    /// made for.
    pub fn matches(&self, size: usize, rules: &Rules) -> bool {
        self.size == size && self.komi.is_none_or(|k| (k - rules.komi).abs() < 1e-3)
    }
}

/// A move of an entry with its statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    pub mv: Move,
    /// Games (a book of records) or playouts (a searched book) through the move.
    pub count: u64,
    /// The win rate of the player to move after playing it, in [0, 1].
    pub winrate: f32,
}

/// One position of a section.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The moves that reach the position from the empty board (black first), as written.
    pub line: Vec<Move>,
    /// The book moves in the position the line reaches (the frame of the file), most
    /// frequent first.
    pub moves: Vec<BookMove>,
    /// The symmetry that takes the line's position to its canonical form.
    sym: u8,
}

impl Entry {
    /// The sum of the counts of its moves.
    pub fn total(&self) -> u64 {
        self.moves.iter().map(|m| m.count).sum()
    }
}

/// A section: its scope and its entries, keyed by canonical hash.
#[derive(Clone, Debug, Default)]
pub struct Section {
    pub scope: Option<Scope>,
    entries: HashMap<u64, Entry>,
    /// Keys in the order the entries were first added (the order they are written in).
    order: Vec<u64>,
}

impl Section {
    pub fn new(scope: Scope) -> Section {
        Section {
            scope: Some(scope),
            ..Section::default()
        }
    }

    pub fn scope(&self) -> Scope {
        self.scope.expect("sections are made with a scope")
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.order.iter().filter_map(|k| self.entries.get(k))
    }

    /// The entry of the position `line` reaches, if any (`None` also when the line is
    /// illegal).
    pub fn get_line(&self, line: &[Move]) -> Option<&Entry> {
        let state = replay(self.scope().size, line).ok()?;
        let canon = canonical(state.board(), state.to_move());
        self.entries.get(&canon.key)
    }

    /// Adds the entry for the position `line` reaches, with `moves` in that position's
    /// frame. An entry of the same position (a transposition, a symmetric line) is kept if
    /// its total count is larger, otherwise replaced. Errors: an illegal line or book move.
    pub fn insert(&mut self, line: Vec<Move>, mut moves: Vec<BookMove>) -> Result<(), String> {
        let size = self.scope().size;
        let state = replay(size, &line)?;
        let color = state.to_move();
        for m in &moves {
            if !state.is_legal(color, m.mv) {
                return Err(format!(
                    "book move {} is illegal after the line",
                    m.mv.to_gtp(state.geometry())
                ));
            }
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.count));
        let canon = canonical(state.board(), color);
        let entry = Entry {
            line,
            moves,
            sym: canon.sym,
        };
        match self.entries.get(&canon.key) {
            Some(old) if old.total() >= entry.total() => {}
            Some(_) => {
                self.entries.insert(canon.key, entry);
            }
            None => {
                self.entries.insert(canon.key, entry);
                self.order.push(canon.key);
            }
        }
        Ok(())
    }

    /// The book moves of `board` with `color` to move, in `board`'s frame, most frequent
    /// first; `None` when the position is not in the section.
    pub fn lookup(&self, board: &Board, color: Color) -> Option<Vec<BookMove>> {
        let canon = canonical(board, color);
        let entry = self.entries.get(&canon.key)?;
        let geometry = board.geometry();
        // Entry frame -> canonical -> this board's frame.
        let back = inverse(canon.sym);
        Some(
            entry
                .moves
                .iter()
                .map(|m| BookMove {
                    mv: transform_move(geometry, back, transform_move(geometry, entry.sym, m.mv)),
                    ..*m
                })
                .collect(),
        )
    }
}

/// A loaded book: its sections.
#[derive(Clone, Debug, Default)]
pub struct Book {
    pub sections: Vec<Section>,
}

/// What the book says about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct BookHit {
    pub use_: BookUse,
    /// The book moves, legal in the game, most frequent first.
    pub moves: Vec<BookMove>,
}

impl BookHit {
    /// The move to play at once: a `use=play` hit's most frequent move, when it was
    /// counted at least [`MIN_PLAY_COUNT`] times.
    pub fn play_choice(&self) -> Option<BookMove> {
        match self.use_ {
            BookUse::Play => self
                .moves
                .first()
                .copied()
                .filter(|m| m.count >= MIN_PLAY_COUNT),
            BookUse::Prior => None,
        }
    }

    /// The root priors of a `use=prior` hit: [`BOOK_PRIOR_WEIGHT`] virtual playouts per
    /// book move, won in proportion to its count over the most frequent one's.
    pub fn root_priors(&self) -> Vec<(Move, f32, f32)> {
        let max = self.moves.iter().map(|m| m.count).max().unwrap_or(0);
        if max == 0 {
            return Vec::new();
        }
        self.moves
            .iter()
            .map(|m| (m.mv, BOOK_PRIOR_WEIGHT, m.count as f32 / max as f32))
            .collect()
    }
}

/// A malformed book: the line (1-based; 0 for the file as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct BookError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for BookError {}

impl Book {
    /// The compiled-in book: the 9x9 and 19x19 books of `patterns/`, parsed once.
    pub fn builtin() -> Arc<Book> {
        static BUILTIN: OnceLock<Arc<Book>> = OnceLock::new();
        Arc::clone(BUILTIN.get_or_init(|| {
            let mut book = Book::default();
            for text in [BUILTIN_9X9, BUILTIN_19X19] {
                match Book::parse(text) {
                    Ok(b) => book.sections.extend(b.sections),
                    // A test checks that the shipped books parse.
                    Err(e) => crate::log::log(
                        crate::log::LogLevel::Error,
                        format_args!("the compiled-in book is broken: {e}"),
                    ),
                }
            }
            Arc::new(book)
        }))
    }

    /// Reads a book file of at most [`crate::files::DEFAULT_MAX_DATA_BYTES`] bytes; the error
    /// names the file and the line.
    pub fn load(path: &Path) -> Result<Book, String> {
        Book::load_bounded(path, crate::files::DEFAULT_MAX_DATA_BYTES)
    }

    /// Reads a book from a regular file of at most `max_bytes` bytes (the `max-data-bytes`
    /// setting); the error names the file and the line.
    pub fn load_bounded(path: &Path, max_bytes: usize) -> Result<Book, String> {
        let bytes = crate::files::read_regular_file(path, max_bytes, "max-data-bytes")
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
        Book::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses a book's text (see the module documentation and `patterns/README.md`).
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        let mut lines = text.lines().enumerate();
        let error = |line: usize, message: String| BookError {
            line: line + 1,
            message,
        };
        let first = lines
            .by_ref()
            .find(|(_, l)| !is_blank(l))
            .ok_or(BookError {
                line: 0,
                message: "empty book (the first line must be `hane-book 1`)".into(),
            })?;
        if first.1.trim() != BOOK_VERSION_LINE {
            return Err(error(
                first.0,
                format!("expected `{BOOK_VERSION_LINE}`, found {:?}", clip(first.1)),
            ));
        }
        for (n, raw) in lines {
            if is_blank(raw) {
                continue;
            }
            let line = raw.trim();
            if let Some(rest) = line.strip_prefix("section") {
                let scope = parse_scope(rest).map_err(|e| error(n, e))?;
                book.sections.push(Section::new(scope));
                continue;
            }
            let Some(section) = book.sections.last_mut() else {
                return Err(error(n, "an entry before the first `section` line".into()));
            };
            let size = section.scope().size;
            let (line_moves, moves) = parse_entry(line, size).map_err(|e| error(n, e))?;
            section.insert(line_moves, moves).map_err(|e| error(n, e))?;
        }
        Ok(book)
    }

    /// The book's text: the version line, then each section with its entries.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{BOOK_VERSION_LINE}");
        for c in comments {
            let _ = writeln!(out, "# {c}");
        }
        for section in &self.sections {
            let scope = section.scope();
            let geometry = Geometry::new(scope.size).expect("sections have a valid size");
            let _ = writeln!(out, "{}", scope.header());
            for entry in section.entries() {
                let _ = writeln!(out, "{}", format_entry(geometry, entry));
            }
        }
        out
    }

    /// The section for `scope`'s size, komi, rules and use (a new one if there is none).
    pub fn section_mut(&mut self, scope: Scope) -> &mut Section {
        match self.sections.iter().position(|s| s.scope == Some(scope)) {
            Some(i) => &mut self.sections[i],
            None => {
                self.sections.push(Section::new(scope));
                self.sections.last_mut().expect("just pushed")
            }
        }
    }

    /// Adds every entry of `other` (a shard's or another book's); for a position in both,
    /// the entry with the larger total count is kept.
    pub fn merge(&mut self, other: &Book) {
        for section in &other.sections {
            let target = self.section_mut(section.scope());
            for entry in section.entries() {
                // Entries of a parsed book replay, so this cannot fail.
                let _ = target.insert(entry.line.clone(), entry.moves.clone());
            }
        }
    }

    /// The book moves of `color` to move in `state`, from the first section that is valid
    /// for the game and holds the position, keeping the moves that are legal in the game.
    pub fn lookup(&self, state: &GameState, color: Color) -> Option<BookHit> {
        if state.handicap() > 0 || !state.setup_stones().is_empty() {
            return None;
        }
        for section in &self.sections {
            let scope = section.scope();
            if !scope.matches(state.size(), state.rules()) {
                continue;
            }
            if let Some(moves) = section.lookup(state.board(), color) {
                let moves: Vec<BookMove> = moves
                    .into_iter()
                    .filter(|m| state.is_legal(color, m.mv))
                    .collect();
                if moves.is_empty() {
                    continue;
                }
                return Some(BookHit {
                    use_: scope.use_,
                    moves,
                });
            }
        }
        None
    }

    /// Entries in all sections.
    pub fn len(&self) -> usize {
        self.sections.iter().map(Section::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// At most 40 characters of `text`, for error messages.
fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

fn parse_scope(rest: &str) -> Result<Scope, String> {
    let (mut size, mut komi, mut rules, mut use_) = (None, None, None, None);
    for pair in rest.split_whitespace() {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("section field {:?} is not key=value", clip(pair)))?;
        match key {
            "size" => {
                size = Some(
                    value
                        .parse::<usize>()
                        .ok()
                        .filter(|&s| Geometry::new(s).is_some())
                        .ok_or_else(|| format!("bad board size {:?}", clip(value)))?,
                )
            }
            "komi" => {
                komi = Some(if value == "any" {
                    None
                } else {
                    Some(
                        value
                            .parse::<f32>()
                            .ok()
                            .filter(|k| k.is_finite() && k.abs() < 1000.0)
                            .ok_or_else(|| format!("bad komi {:?}", clip(value)))?,
                    )
                })
            }
            "rules" => {
                rules = Some(match value {
                    "area" => RulesScope::Area,
                    "any" => RulesScope::Any,
                    _ => return Err(format!("unknown rules {:?} (area or any)", clip(value))),
                })
            }
            "use" => {
                use_ = Some(match value {
                    "play" => BookUse::Play,
                    "prior" => BookUse::Prior,
                    _ => return Err(format!("unknown use {:?} (play or prior)", clip(value))),
                })
            }
            _ => return Err(format!("unknown section field {:?}", clip(key))),
        }
    }
    Ok(Scope {
        size: size.ok_or("the section has no size=")?,
        komi: komi.ok_or("the section has no komi= (a number or any)")?,
        rules: rules.ok_or("the section has no rules= (area or any)")?,
        use_: use_.ok_or("the section has no use= (play or prior)")?,
    })
}

/// Reads `MOVES -> MOVE:COUNT:WINRATE ...`.
fn parse_entry(line: &str, size: usize) -> Result<(Vec<Move>, Vec<BookMove>), String> {
    let geometry = Geometry::new(size).ok_or("bad size")?;
    let (left, right) = line
        .split_once("->")
        .ok_or("an entry must be `MOVES -> MOVE:COUNT:WINRATE ...`")?;
    let mut moves_line = Vec::new();
    for token in left.split_whitespace() {
        if token == "-" && moves_line.is_empty() {
            continue;
        }
        let mv = Move::parse(geometry, token)
            .ok_or_else(|| format!("{:?} is not a move on {size}x{size}", clip(token)))?;
        moves_line.push(mv);
    }
    if moves_line.len() > MAX_LINE {
        return Err(format!("the line is longer than {MAX_LINE} moves"));
    }
    let mut moves: Vec<BookMove> = Vec::new();
    for token in right.split_whitespace() {
        let mut parts = token.split(':');
        let (Some(vertex), Some(count), Some(winrate), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(format!(
                "book move {:?} is not MOVE:COUNT:WINRATE",
                clip(token)
            ));
        };
        let mv = Move::parse(geometry, vertex)
            .ok_or_else(|| format!("{:?} is not a move on {size}x{size}", clip(vertex)))?;
        let count = count
            .parse::<u64>()
            .ok()
            .filter(|&c| c < 1 << 48)
            .ok_or_else(|| format!("bad count {:?}", clip(count)))?;
        let winrate = winrate
            .parse::<f32>()
            .ok()
            .filter(|w| (0.0..=1.0).contains(w))
            .ok_or_else(|| format!("bad win rate {:?} (0 to 1)", clip(winrate)))?;
        if moves.iter().any(|m| m.mv == mv) {
            return Err(format!("book move {vertex} is listed twice"));
        }
        moves.push(BookMove { mv, count, winrate });
    }
    if moves.is_empty() {
        return Err("an entry without book moves".into());
    }
    Ok((moves_line, moves))
}

fn format_entry(geometry: Geometry, entry: &Entry) -> String {
    let mut out = String::new();
    if entry.line.is_empty() {
        out.push('-');
    }
    for (k, mv) in entry.line.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        out.push_str(&mv.to_gtp(geometry));
    }
    out.push_str(" ->");
    for m in &entry.moves {
        let _ = write!(
            out,
            " {}:{}:{:.3}",
            m.mv.to_gtp(geometry),
            m.count,
            m.winrate
        );
    }
    out
}

/// The position `line` reaches from the empty board of `size`, black first, under the
/// default rules; the error names the illegal move.
pub fn replay(size: usize, line: &[Move]) -> Result<GameState, String> {
    let mut state = GameState::new(size, Rules::default()).ok_or("bad board size")?;
    let mut color = Color::Black;
    for (k, &mv) in line.iter().enumerate() {
        state.play(color, mv).map_err(|e| {
            format!(
                "move {} of the line ({}) is illegal: {e}",
                k + 1,
                mv.to_gtp(state.geometry())
            )
        })?;
        color = color.opponent();
    }
    Ok(state)
}

// ----- Symmetry and the canonical hash --------------------------------------------------

/// One of the 8 symmetries of the square: bit 2 transposes, then bit 0 mirrors the
/// columns and bit 1 the rows.
pub fn transform(size: usize, sym: u8, (col, row): (usize, usize)) -> (usize, usize) {
    let (mut x, mut y) = if sym & 4 != 0 { (row, col) } else { (col, row) };
    if sym & 1 != 0 {
        x = size - 1 - x;
    }
    if sym & 2 != 0 {
        y = size - 1 - y;
    }
    (x, y)
}

/// The symmetry that undoes `sym`.
pub fn inverse(sym: u8) -> u8 {
    if sym & 4 != 0 {
        4 | ((sym & 1) << 1) | ((sym & 2) >> 1)
    } else {
        sym
    }
}

/// `mv` under symmetry `sym`.
pub fn transform_move(geometry: Geometry, sym: u8, mv: Move) -> Move {
    match mv {
        Move::Pass => Move::Pass,
        Move::Play(p) => {
            let (x, y) = transform(geometry.size(), sym, geometry.coords(p));
            geometry.point(x, y).map_or(Move::Pass, Move::Play)
        }
    }
}

fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser.
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The canonical form of a position: the smallest of its 8 symmetric hashes, and a
/// symmetry that gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    pub key: u64,
    pub sym: u8,
}

/// The hash of `board` with `color` to move under each of the 8 symmetries: over the
/// stones, the simple-ko point and the side to move. Independent of the Zobrist constants.
fn symmetric_hashes(board: &Board, color: Color) -> [u64; 8] {
    let geometry = board.geometry();
    let size = geometry.size();
    let mut hashes = [mix(size as u64 * 7 + color.index() as u64); 8];
    let code = |(x, y): (usize, usize), what: u64| mix((what << 16) | (y * 32 + x) as u64);
    let ko = board.ko().map(|(p, _)| p);
    for p in geometry.points() {
        let what = match board.cell(p).color() {
            Some(c) => 1 + c.index() as u64,
            None if ko == Some(p) => 3,
            None => continue,
        };
        let xy = geometry.coords(p);
        for (sym, h) in hashes.iter_mut().enumerate() {
            *h ^= code(transform(size, sym as u8, xy), what);
        }
    }
    hashes
}

/// The canonical hash of `board` with `color` to move: the smallest of its 8 symmetric
/// hashes (over the stones, the simple-ko point and the side to move), and the first
/// symmetry that gives it.
pub fn canonical(board: &Board, color: Color) -> Canonical {
    let hashes = symmetric_hashes(board, color);
    let (sym, &key) = hashes
        .iter()
        .enumerate()
        .min_by_key(|&(_, h)| *h)
        .expect("eight hashes");
    Canonical {
        key,
        sym: sym as u8,
    }
}

/// The canonical hash of the position and `mv` in the canonical frame, the same for every
/// symmetric equivalent of the move (for counting the moves of records).
pub fn canonical_move(board: &Board, color: Color, mv: Move) -> (u64, Move) {
    let hashes = symmetric_hashes(board, color);
    let key = hashes.iter().copied().min().expect("eight hashes");
    let geometry = board.geometry();
    // Every symmetry that gives the canonical hash maps the position onto the same
    // canonical board; the smallest image of the move among them is its canonical form.
    let order = |m: Move| m.point().map_or(usize::MAX, Point::index);
    let best = (0..8u8)
        .filter(|&sym| hashes[sym as usize] == key)
        .map(|sym| transform_move(geometry, sym, mv))
        .min_by_key(|&m| order(m))
        .unwrap_or(mv);
    (key, best)
}

/// `mv` given in the canonical frame of `board`'s position, in `board`'s own frame.
pub fn from_canonical(board: &Board, color: Color, mv: Move) -> Move {
    let canon = canonical(board, color);
    transform_move(board.geometry(), inverse(canon.sym), mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(size: usize, text: &str) -> Vec<Move> {
        let g = Geometry::new(size).unwrap();
        text.split_whitespace()
            .map(|t| Move::parse(g, t).unwrap())
            .collect()
    }

    #[test]
    fn inverse_undoes_every_symmetry() {
        for sym in 0..8 {
            for xy in [(0, 0), (1, 5), (8, 3), (4, 4)] {
                assert_eq!(transform(9, inverse(sym), transform(9, sym, xy)), xy);
            }
        }
    }

    #[test]
    fn symmetric_and_transposed_lines_share_an_entry() {
        let text = "hane-book 1\nsection size=9 komi=7.5 rules=area use=play\n\
                    C3 G7 -> C7:300:0.6 D4:20:0.5\n";
        let book = Book::parse(text).unwrap();
        let section = &book.sections[0];
        // A mirror image of the line: C3 G7 mirrored left-right is G3 C7.
        let state = replay(9, &line(9, "G3 C7")).unwrap();
        let moves = section.lookup(state.board(), Color::Black).unwrap();
        let g = state.geometry();
        assert_eq!(moves[0].mv.to_gtp(g), "G7");
        assert_eq!(moves[0].count, 300);
        // The 180-degree rotation of the line.
        let state = replay(9, &line(9, "G7 C3")).unwrap();
        let moves = section.lookup(state.board(), Color::Black).unwrap();
        assert_eq!(moves[0].mv.to_gtp(g), "G3");
        // Another position is not found, nor the same stones with white to move.
        let state = replay(9, &line(9, "C3 G6")).unwrap();
        assert!(section.lookup(state.board(), Color::Black).is_none());
        let state = replay(9, &line(9, "C3 G7")).unwrap();
        assert!(section.lookup(state.board(), Color::White).is_none());
    }

    #[test]
    fn transpositions_are_found() {
        let text = "hane-book 1\nsection size=9 komi=any rules=area use=prior\n\
                    E5 C3 G7 -> D7:30:0.5\n";
        let book = Book::parse(text).unwrap();
        let state = replay(9, &line(9, "G7 C3 E5")).unwrap();
        let hit = book.sections[0]
            .lookup(state.board(), Color::White)
            .unwrap();
        assert_eq!(hit[0].mv.to_gtp(state.geometry()), "D7");
    }

    #[test]
    fn canonical_moves_fold_symmetric_moves() {
        let empty = Board::new(19).unwrap();
        let g = empty.geometry();
        let keys: Vec<(u64, Move)> = ["D4", "Q16", "D16", "Q4"]
            .iter()
            .map(|v| canonical_move(&empty, Color::Black, Move::parse(g, v).unwrap()))
            .collect();
        assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
        let other = canonical_move(&empty, Color::Black, Move::parse(g, "C4").unwrap());
        assert_ne!(other.1, keys[0].1);
        // Back in the frame of the board, the canonical move is one of the four.
        let back = from_canonical(&empty, Color::Black, keys[0].1).to_gtp(g);
        assert!(
            ["D4", "Q16", "D16", "Q4"].contains(&back.as_str()),
            "{back}"
        );
    }

    #[test]
    fn books_read_back_what_they_write() {
        let text = "hane-book 1\nsection size=9 komi=7 rules=area use=play\n\
                    - -> E5:2000:0.550 D5:300:0.520\nE5 -> C5:900:0.470\n\
                    section size=19 komi=any rules=any use=prior\nQ16 D4 -> Q3:20:0.600\n";
        let book = Book::parse(text).unwrap();
        assert_eq!(book.len(), 3);
        let written = book.to_text(&[]);
        let again = Book::parse(&written).unwrap();
        assert_eq!(again.to_text(&[]), written);
        assert!(written.contains("section size=19 komi=any rules=any use=prior"));
    }

    #[test]
    fn the_larger_entry_wins_a_merge() {
        let a = Book::parse(
            "hane-book 1\nsection size=9 komi=7 rules=area use=play\n- -> E5:100:0.5\n",
        )
        .unwrap();
        let b = Book::parse(
            "hane-book 1\nsection size=9 komi=7 rules=area use=play\n- -> D4:300:0.5\n\
             E5 -> C5:100:0.5\n",
        )
        .unwrap();
        let mut merged = a.clone();
        merged.merge(&b);
        assert_eq!(merged.len(), 2);
        let mut state = replay(9, &[]).unwrap();
        state.set_komi(7.0);
        let hit = merged.lookup(&state, Color::Black).unwrap();
        assert_eq!(hit.moves[0].count, 300);
    }

    #[test]
    fn lookup_respects_the_scope() {
        let book = Book::parse(
            "hane-book 1\nsection size=9 komi=7 rules=area use=play\n- -> E5:100:0.5\n",
        )
        .unwrap();
        let mut state = GameState::new(9, Rules::default()).unwrap();
        assert!(book.lookup(&state, Color::Black).is_none(), "komi 7.5");
        state.set_komi(7.0);
        let hit = book.lookup(&state, Color::Black).unwrap();
        assert_eq!(hit.play_choice().map(|m| m.count), Some(100));
        let small = GameState::new(7, Rules::default()).unwrap();
        assert!(book.lookup(&small, Color::Black).is_none());
    }

    #[test]
    fn malformed_books_name_the_line() {
        let head = "hane-book 1\nsection size=9 komi=7 rules=area use=play\n";
        for (text, line, needle) in [
            ("", 0, "empty book"),
            ("hane-book 2\n", 1, "expected `hane-book 1`"),
            (
                "hane-book 1\n- -> E5:1:0.5\n",
                2,
                "before the first `section`",
            ),
            ("hane-book 1\nsection size=9 komi=7\n", 2, "no rules="),
            (
                "hane-book 1\nsection size=99 komi=7 rules=area use=play\n",
                2,
                "size",
            ),
            (
                "hane-book 1\nsection size=9 komi=x rules=area use=play\n",
                2,
                "komi",
            ),
            (
                "hane-book 1\nsection size=9 komi=7 rules=go use=play\n",
                2,
                "rules",
            ),
            (&format!("{head}E5\n"), 3, "MOVES -> "),
            (&format!("{head}E5 -> \n"), 3, "without book moves"),
            (&format!("{head}Z9 -> E5:1:0.5\n"), 3, "not a move"),
            (
                &format!("{head}E5 E5 -> D5:1:0.5\n"),
                3,
                "move 2 of the line (E5)",
            ),
            (&format!("{head}E5 -> E5:1:0.5\n"), 3, "illegal"),
            (&format!("{head}- -> E5:1\n"), 3, "MOVE:COUNT:WINRATE"),
            (&format!("{head}- -> E5:-1:0.5\n"), 3, "bad count"),
            (&format!("{head}- -> E5:1:1.5\n"), 3, "bad win rate"),
            (&format!("{head}- -> E5:1:0.5 E5:2:0.5\n"), 3, "twice"),
        ] {
            let err = Book::parse(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.to_string().contains(needle), "{text:?}: {err}");
        }
    }

    #[test]
    fn the_builtin_books_parse() {
        for text in [BUILTIN_9X9, BUILTIN_19X19] {
            Book::parse(text).unwrap();
        }
        assert!(!Book::builtin().sections.is_empty());
    }
}
