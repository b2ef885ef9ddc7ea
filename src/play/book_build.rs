//! Building opening books (`hane book`): the 19x19 prior book counted from professional
//! records (`build19`), the 9x9 book grown breadth first by hane's own long searches, with
//! a checkpoint after every position, resume and shards (`build9`, in `grow`), merging
//! books, and a book's move prediction on game records. The format and lookup are
//! [`super::book`]'s.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::book::{
    self, Book, BookMove, BookUse, RulesScope, Scope, Section, canonical, canonical_move,
    from_canonical,
};
use crate::board::{Color, GameState, Move, Rules};
use crate::log::progress_bar;
use crate::pattern::{self, PatternTables, Prediction};
use crate::sgf::SgfGame;
use crate::sgf::collection::read_games;

mod grow;

pub use grow::{Build9Options, build9};

/// What `build19` counts and keeps (the options of `hane book build19`).
#[derive(Clone, Debug)]
pub struct Build19Options {
    /// SGF files (collections) or directories of them.
    pub files: Vec<PathBuf>,
    /// Where to write the book.
    pub out: PathBuf,
    /// Positions before the first this many moves of each game.
    pub moves: usize,
    /// Keep positions seen at least this often (under symmetry).
    pub min_count: u32,
    /// Keep book moves played at least this often in a kept position.
    pub min_move_count: u64,
    /// At most this many book moves per position.
    pub max_moves: usize,
    /// Hold out every N-th game (not counted).
    pub test_every: usize,
    /// Use at most this many games (0: all).
    pub max_games: usize,
}

/// The winner of a record, from `RE`.
fn winner(game: &SgfGame) -> Option<Color> {
    let re = game.result.as_deref()?.trim().to_ascii_uppercase();
    if re.starts_with("B+") {
        Some(Color::Black)
    } else if re.starts_with("W+") {
        Some(Color::White)
    } else {
        None
    }
}

/// Replays the first `moves` moves of an even game (no setup or handicap stones, black
/// first), calling `visit(state, colour, move)` before each; stops at an illegal move.
fn for_each_opening_position(
    game: &SgfGame,
    moves: usize,
    mut visit: impl FnMut(&GameState, Color, Move),
) {
    if !game.setup.is_empty() || game.handicap.is_some_and(|h| h > 0) {
        return;
    }
    let Some(mut state) = GameState::new(game.size, Rules::default()) else {
        return;
    };
    for &(color, mv) in game.moves.iter().take(moves) {
        if state.to_move() != color || state.check_move(color, mv).is_err() {
            return;
        }
        visit(&state, color, mv);
        if state.play(color, mv).is_err() {
            return;
        }
    }
}

/// One position's counts while building a book of records.
#[derive(Default)]
struct PositionCounts {
    /// The first line that reached it.
    line: Vec<Move>,
    /// Canonical move -> (games, games won by the player who played it).
    moves: HashMap<Move, (u64, f64)>,
}

/// Builds the 19x19 prior book of the next-move statistics of the records and writes it.
pub fn build19(args: &Build19Options) -> Result<(), String> {
    let clock = Instant::now();
    let source = read_games(&args.files, 19, args.max_games, &HashSet::new());
    let training: Vec<&SgfGame> = source
        .games
        .iter()
        .enumerate()
        .filter(|(k, _)| args.test_every <= 1 || k % args.test_every != 0)
        .map(|(_, g)| g)
        .collect();
    eprintln!(
        "read {} games, {} for the book ({} broken, {} of another size, {} repeated skipped)",
        source.games.len(),
        training.len(),
        source.broken_games,
        source.other_size,
        source.duplicates
    );
    if training.is_empty() {
        return Err("no usable games".into());
    }
    let (frequent, distinct) = frequent_positions(&training, args);
    let (counts, order) = count_moves(&training, args, &frequent);
    let section = prior_section(&counts, &order, args)?;
    let entries = section.len();
    let book = Book {
        sections: vec![section],
    };
    let comments = vec![
        "hane 19x19 opening book: next-move statistics of professional games (use=prior)".into(),
        format!("built-from: {}", file_list(&args.files)),
        format!(
            "games: {} used, every {} held out; positions before move {} seen >= {} times \
             under symmetry ({} of {} distinct); moves played >= {} times, at most {} per position",
            training.len(),
            args.test_every,
            args.moves + 1,
            args.min_count,
            entries,
            distinct,
            args.min_move_count,
            args.max_moves
        ),
        "count: games with the move; winrate: share of them won by the player of the move".into(),
    ];
    write_book(&args.out, &book, &comments)?;
    eprintln!(
        "wrote {} ({entries} positions, {:.0} s)",
        args.out.display(),
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Pass 1 of `build19`: the canonical keys of the positions seen at least `min_count`
/// times, and how many distinct positions there were.
fn frequent_positions(training: &[&SgfGame], args: &Build19Options) -> (HashSet<u64>, usize) {
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let bar = progress_bar(training.len() as u64, "positions");
    for game in training {
        for_each_opening_position(game, args.moves, |state, color, _| {
            *seen.entry(canonical(state.board(), color).key).or_default() += 1;
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let frequent: HashSet<u64> = seen
        .iter()
        .filter(|&(_, &n)| n >= args.min_count)
        .map(|(&k, _)| k)
        .collect();
    (frequent, seen.len())
}

/// Pass 2 of `build19`: the moves played in the frequent positions, and the positions in
/// the order first met.
fn count_moves(
    training: &[&SgfGame],
    args: &Build19Options,
    frequent: &HashSet<u64>,
) -> (HashMap<u64, PositionCounts>, Vec<u64>) {
    let mut counts: HashMap<u64, PositionCounts> = HashMap::new();
    let mut order: Vec<u64> = Vec::new();
    let bar = progress_bar(training.len() as u64, "moves");
    for game in training {
        let won = winner(game);
        let mut line = Vec::new();
        for_each_opening_position(game, args.moves, |state, color, mv| {
            let (key, canon) = canonical_move(state.board(), color, mv);
            if frequent.contains(&key) {
                let entry = counts.entry(key).or_insert_with(|| {
                    order.push(key);
                    PositionCounts {
                        line: line.clone(),
                        moves: HashMap::new(),
                    }
                });
                let slot = entry.moves.entry(canon).or_default();
                slot.0 += 1;
                slot.1 += match won {
                    Some(c) if c == color => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
            line.push(mv);
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    (counts, order)
}

/// The book section of the counted positions: their moves played often enough, most
/// played first.
fn prior_section(
    counts: &HashMap<u64, PositionCounts>,
    order: &[u64],
    args: &Build19Options,
) -> Result<Section, String> {
    let mut section = Section::new(Scope {
        size: 19,
        komi: None,
        rules: RulesScope::Any,
        use_: BookUse::Prior,
    });
    for key in order {
        let position = &counts[key];
        let state = book::replay(19, &position.line)?;
        let color = state.to_move();
        let mut moves: Vec<BookMove> = position
            .moves
            .iter()
            .filter(|&(_, &(n, _))| n >= args.min_move_count)
            .map(|(&mv, &(n, wins))| BookMove {
                mv: from_canonical(state.board(), color, mv),
                count: n,
                winrate: (wins / n as f64) as f32,
            })
            .collect();
        moves.sort_by(|a, b| b.count.cmp(&a.count).then(a.winrate.total_cmp(&b.winrate)));
        moves.truncate(args.max_moves);
        if !moves.is_empty() {
            section.insert(position.line.clone(), moves)?;
        }
    }
    Ok(section)
}

/// The files' names (without their folders), separated by spaces.
fn file_list(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes `book` to `path` through a temporary file, so that a kill never leaves half a
/// book.
fn write_book(path: &Path, book: &Book, comments: &[String]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, book.to_text(comments))
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Merges the books `inputs` (files, or build9 output folders) into one written to `out`,
/// with each input's comments after its name.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut merged = Book::default();
    let mut comments = vec![format!("merged from: {}", file_list(inputs))];
    for input in inputs {
        let path = if input.is_dir() {
            input.join("book.txt")
        } else {
            input.clone()
        };
        merged.merge(&Book::load(&path)?);
        // The inputs' own comments (how each was built), after their name.
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let name = file_list(std::slice::from_ref(input));
        comments.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix("# "))
                .filter(|l| !l.starts_with("merged from: "))
                .map(|l| format!("{name}: {l}")),
        );
    }
    write_book(out, &merged, &comments)?;
    eprintln!("wrote {} ({} positions)", out.display(), merged.len());
    Ok(())
}

/// A book's move prediction on game records, beside the pattern table's.
#[derive(Clone, Copy, Debug, Default)]
pub struct BookPrediction {
    /// The patterns on every position.
    pub all: Prediction,
    /// The patterns on the positions the book holds.
    pub covered_patterns: Prediction,
    /// Positions the book holds.
    pub covered: u64,
    /// Positions the book holds whose first book move is the move played.
    pub book_hits: u64,
}

/// Measures `book` and `tables` (each position's size's) on the positions before the first
/// `moves` moves of `games`.
pub fn predict(
    book: &Book,
    tables: &PatternTables,
    games: &[&SgfGame],
    moves: usize,
) -> BookPrediction {
    let (mut all, mut covered_patterns) = (Prediction::default(), Prediction::default());
    let (mut covered, mut book_hits) = (0u64, 0u64);
    let bar = progress_bar(games.len() as u64, "games");
    for game in games {
        let mut k = 0;
        let _ = pattern::for_each_position(game, |board, ctx, mv| {
            k += 1;
            if k > moves {
                return;
            }
            let before = all.positions;
            let table = tables.for_size(board.size());
            all.observe(table, board, ctx, mv);
            if all.positions == before {
                return;
            }
            let hit = book.sections.iter().find_map(|s| {
                (s.scope().size == board.size())
                    .then(|| s.lookup(board, ctx.color))
                    .flatten()
            });
            if let Some(moves) = hit {
                covered += 1;
                covered_patterns.observe(table, board, ctx, mv);
                // The very move, as the patterns are scored: on a symmetric board the book's
                // move is one of several equivalent points, and a pro's choice of another
                // counts for neither.
                if moves.first().is_some_and(|m| m.mv == mv) {
                    book_hits += 1;
                }
            }
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    BookPrediction {
        all,
        covered_patterns,
        covered,
        book_hits,
    }
}
