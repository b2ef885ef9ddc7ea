//! `hane book`: building opening books (`build19` from professional records, `build9` by
//! hane's own long searches, with checkpoints, resume and shards), merging shards' books
//! (`merge`) and measuring a book's move prediction on held-out records (`eval`). The book
//! format and lookup are `crate::play::book`'s.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Subcommand};

use super::patterns_cmd::{progress_bar, read_games};
use crate::arena::parse_shard;
use crate::board::{Color, GameState, Move, Rules};
use crate::pattern::{self, Prediction};
use crate::play::book::{
    self, Book, BookMove, BookUse, RulesScope, Scope, Section, canonical, canonical_move,
    from_canonical,
};
use crate::search::{SearchControl, SearchLimits, Searcher};
use crate::settings::{Auto, Settings};
use crate::sgf::SgfGame;

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Build a 19x19 book (use=prior) of the next-move statistics of professional records.
    Build19(Build19Args),
    /// Grow a 9x9 book (use=play) by long searches from the empty board; resumable, in
    /// shards.
    Build9(Build9Args),
    /// Merge books (files, or build9 output folders) into one file.
    Merge(MergeArgs),
    /// Move prediction of a book against the pattern priors on game records: prints
    /// `positions=... covered=... book_top1=... patterns_top1_covered=... ...`.
    Eval(BookEvalArgs),
}

#[derive(Args, Debug)]
struct Build19Args {
    /// SGF files (collections) or directories of them.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the book.
    #[arg(long)]
    out: PathBuf,
    /// Positions before the first this many moves of each game.
    #[arg(long, default_value_t = 30)]
    moves: usize,
    /// Keep positions seen at least this often (under symmetry).
    #[arg(long, default_value_t = 20)]
    min_count: u32,
    /// Keep book moves played at least this often in a kept position.
    #[arg(long, default_value_t = 3)]
    min_move_count: u64,
    /// At most this many book moves per position.
    #[arg(long, default_value_t = 6)]
    max_moves: usize,
    /// Hold out every N-th game (not counted; `hane book eval --test-every N` reads them).
    #[arg(long, default_value_t = 20)]
    test_every: usize,
    /// Use at most this many games (0: all).
    #[arg(long, default_value_t = 0)]
    max_games: usize,
}

#[derive(Args, Debug)]
struct Build9Args {
    /// The output folder: `book.txt` (rewritten after every position: the checkpoint) and
    /// `params.txt`. Run the same command again to resume.
    #[arg(long)]
    out: PathBuf,
    /// Komi of the book's games.
    #[arg(long, default_value_t = 7.5)]
    komi: f32,
    /// Search positions up to this many moves deep (the book moves of the deepest ones
    /// are the last).
    #[arg(long, default_value_t = 6)]
    depth: usize,
    /// Follow at most this many moves of each position: hane's choice and the closest
    /// alternatives.
    #[arg(long, default_value_t = 2)]
    width: usize,
    /// An alternative is followed when its win rate is within this margin of the best
    /// move's and it got at least --min-share of its playouts.
    #[arg(long, default_value_t = 0.03)]
    margin: f32,
    /// The share of the best move's playouts an alternative needs to be followed.
    #[arg(long, default_value_t = 0.1)]
    min_share: f64,
    /// Playouts of each position's search (one thread, a fixed seed: reproducible).
    #[arg(long, default_value_t = 20000)]
    playouts: u64,
    /// Search settings (`key=value,...` as in `hane:` player specs).
    #[arg(long, default_value = "")]
    settings: String,
    /// Base seed of the searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Build only shard K of N: every shard searches the positions shallower than
    /// --split-depth, then only the subtrees whose position at that depth hashes to it.
    #[arg(long)]
    shard: Option<String>,
    /// Stop after searching this many positions in this run (0: no limit); the book is
    /// complete level by level up to where it stopped, and a later run resumes.
    #[arg(long, default_value_t = 0)]
    max_positions: usize,
    /// The depth at which the tree is cut into shards.
    #[arg(long, default_value_t = 2)]
    split_depth: usize,
    /// Grow one tree for each colour the book plays instead: the book's side follows only
    /// its best move, the other side the moves chosen by this many short searches (the
    /// replies an opponent thinking briefly plays); 0: follow --width alternatives instead.
    #[arg(long, default_value_t = 0)]
    samples: usize,
    /// Playouts of each short search of --samples.
    #[arg(long, default_value_t = 3000)]
    sample_playouts: u64,
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// Book files or build9 output folders.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Where to write the merged book.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct BookEvalArgs {
    /// SGF files (collections) or directories of them.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The book to evaluate (builtin or a file).
    #[arg(long, default_value = "builtin")]
    book: String,
    /// Positions before the first this many moves of each game.
    #[arg(long, default_value_t = 30)]
    moves: usize,
    /// Only games on this board size (0: every size).
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Only every N-th game (the games `build19 --test-every N` held out; 0 or 1: all).
    #[arg(long, default_value_t = 0)]
    test_every: usize,
    /// Evaluate at most this many games (0: all).
    #[arg(long, default_value_t = 0)]
    max_games: usize,
    /// Leave out games that also appear in these files (repeat the option).
    #[arg(long, value_name = "PATH")]
    exclude: Vec<PathBuf>,
}

pub fn run(args: &BookArgs) -> ExitCode {
    let result = match &args.command {
        BookCommand::Build19(a) => build19(a),
        BookCommand::Build9(a) => build9(a),
        BookCommand::Merge(a) => merge(a),
        BookCommand::Eval(a) => eval(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hane book: {e}");
            ExitCode::FAILURE
        }
    }
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

fn build19(args: &Build19Args) -> Result<(), String> {
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
    // Pass 1: how often each position occurs.
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let bar = progress_bar(training.len() as u64, "positions");
    for game in &training {
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
    let distinct = seen.len();
    drop(seen);
    // Pass 2: the moves played in the frequent positions.
    let mut counts: HashMap<u64, PositionCounts> = HashMap::new();
    let mut order: Vec<u64> = Vec::new();
    let bar = progress_bar(training.len() as u64, "moves");
    for game in &training {
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
    let mut section = Section::new(Scope {
        size: 19,
        komi: None,
        rules: RulesScope::Any,
        use_: BookUse::Prior,
    });
    for key in &order {
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

/// The moves of a searched position to follow: the most searched one and the
/// alternatives within `margin` of its win rate with at least `min_share` of its count.
fn followed(moves: &[BookMove], width: usize, margin: f32, min_share: f64) -> Vec<Move> {
    let Some(best) = moves.first() else {
        return Vec::new();
    };
    moves
        .iter()
        .filter(|m| {
            m.mv == best.mv
                || (m.count as f64 >= min_share * best.count as f64
                    && m.winrate >= best.winrate - margin)
        })
        .filter(|m| m.mv != Move::Pass)
        .take(width)
        .map(|m| m.mv)
        .collect()
}

fn build9(args: &Build9Args) -> Result<(), String> {
    let clock = Instant::now();
    let (shard, shards) = match &args.shard {
        Some(text) => parse_shard(text)?,
        None => (1, 1),
    };
    let mut settings = Settings::default();
    settings
        .apply_pairs(
            &args.settings,
            &[crate::settings::Scope::Search, crate::settings::Scope::Game],
        )
        .map_err(|e| format!("--settings: {e}"))?;
    settings.game.threads = Auto::Value(1);
    settings.search.reuse = false;
    let patterns = crate::play::load_patterns(&settings)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    // The parameters that decide the book; a resumed run must use the same.
    let params = format!(
        "komi={} depth={} width={} margin={} min-share={} playouts={} settings={} seed={} \
         split-depth={}\n",
        args.komi,
        args.depth,
        args.width,
        args.margin,
        args.min_share,
        args.playouts,
        settings
            .changed(&[crate::settings::Scope::Search])
            .join(","),
        args.seed,
        args.split_depth
    );
    // Older checkpoints (no sampled replies) keep their parameter line.
    let params = if args.samples > 0 {
        format!(
            "{} samples={} sample-playouts={}\n",
            params.trim_end(),
            args.samples,
            args.sample_playouts
        )
    } else {
        params
    };
    let params_path = args.out.join("params.txt");
    match std::fs::read_to_string(&params_path) {
        Ok(old) if old != params => {
            return Err(format!(
                "{} holds a book built with other parameters ({}); use another --out",
                args.out.display(),
                old.trim()
            ));
        }
        Ok(_) => {}
        Err(_) => std::fs::write(&params_path, &params)
            .map_err(|e| format!("cannot write {}: {e}", params_path.display()))?,
    }
    let book_path = args.out.join("book.txt");
    let scope = Scope {
        size: 9,
        komi: Some(args.komi),
        rules: RulesScope::Area,
        use_: BookUse::Play,
    };
    let mut book = if book_path.exists() {
        Book::load(&book_path)?
    } else {
        Book::default()
    };
    book.section_mut(scope);
    let comments = vec![
        "hane 9x9 opening book grown by hane's searches (hane book build9)".to_string(),
        format!("parameters: {}", params.trim()),
        "count: playouts through the move in the position's search; winrate: for the player of the move".into(),
    ];
    let rules = Rules {
        komi: args.komi,
        ..Rules::default()
    };
    let search = |state: &GameState, color: Color, playouts: u64, seed: u64| {
        let mut searcher = Searcher::new(crate::play::search_config(
            &settings,
            Arc::clone(&patterns),
            seed,
        ));
        let limits = SearchLimits {
            playouts: Some(playouts),
            ..SearchLimits::default()
        };
        searcher.search(
            state,
            color,
            &limits,
            &SearchControl::default(),
            &mut |_| {},
        )
    };
    let bar = progress_bar(1, "positions");
    // Breadth first: (line, owner key at the split depth, the book's side in this tree
    // when replies are sampled).
    let roots: Vec<Option<Color>> = if args.samples > 0 {
        vec![Some(Color::Black), Some(Color::White)]
    } else {
        vec![None]
    };
    let mut queue: std::collections::VecDeque<(Vec<Move>, Option<u64>, Option<Color>)> =
        roots.iter().map(|&side| (Vec::new(), None, side)).collect();
    let mut visited: HashSet<(u64, Option<Color>)> = HashSet::new();
    let (mut searched, mut reused, mut queued) = (0usize, 0usize, roots.len() as u64);
    while let Some((line, owner, side)) = queue.pop_front() {
        bar.inc(1);
        let mut state = book::replay(9, &line)?;
        state.set_rules(rules);
        let color = state.to_move();
        let key = canonical(state.board(), color).key;
        if !visited.insert((key, side)) {
            continue;
        }
        let owner = if line.len() == args.split_depth {
            Some(key)
        } else {
            owner
        };
        let ours = owner.is_none_or(|k| k % shards as u64 == shard as u64 - 1);
        let section = book.section_mut(scope);
        // In the frame of this line's position (found under symmetry and transposition).
        let moves = match section.lookup(state.board(), color) {
            Some(moves) => {
                reused += 1;
                moves
            }
            None if ours && (args.max_positions == 0 || searched < args.max_positions) => {
                let result = search(&state, color, args.playouts, args.seed ^ key);
                let floor = (args.playouts / 100).max(1);
                let moves: Vec<BookMove> = result
                    .analysis
                    .moves
                    .iter()
                    .filter(|m| m.visits >= floor)
                    .take(6)
                    .map(|m| BookMove {
                        mv: m.mv,
                        count: m.visits,
                        winrate: m.winrate,
                    })
                    .collect();
                if moves.is_empty() {
                    continue;
                }
                section.insert(line.clone(), moves.clone())?;
                write_book(&book_path, &book, &comments)?;
                searched += 1;
                let g = state.geometry();
                let report = format!(
                    "{:<24} -> {}",
                    if line.is_empty() {
                        "(empty board)".to_string()
                    } else {
                        line.iter()
                            .map(|m| m.to_gtp(g))
                            .collect::<Vec<_>>()
                            .join(" ")
                    },
                    moves
                        .iter()
                        .take(3)
                        .map(|m| format!("{} {} {:.3}", m.mv.to_gtp(g), m.count, m.winrate))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                if bar.is_hidden() {
                    eprintln!("{report}");
                } else {
                    bar.println(report);
                }
                moves
            }
            None => continue,
        };
        if line.len() + 1 < args.depth {
            let next = match side {
                None => followed(&moves, args.width, args.margin, args.min_share),
                Some(side) => {
                    let mut next = followed(&moves, 1, 0.0, 1.0);
                    if side != color {
                        // The replies of short searches (seeded by the position, so that
                        // a resumed run follows the same ones).
                        for k in 0..args.samples as u64 {
                            let seed =
                                args.seed ^ key ^ (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                            let mv = search(&state, color, args.sample_playouts, seed).best;
                            if mv != Move::Pass && !next.contains(&mv) {
                                next.push(mv);
                            }
                        }
                    }
                    next
                }
            };
            for mv in next {
                let mut child = line.clone();
                child.push(mv);
                queue.push_back((child, owner, side));
                queued += 1;
            }
            bar.set_length(queued);
        }
    }
    bar.finish_and_clear();
    write_book(&book_path, &book, &comments)?;
    eprintln!(
        "{}: {} positions ({searched} searched now, {reused} from the checkpoint), shard \
         {shard}/{shards}, {:.0} s",
        book_path.display(),
        book.len(),
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

fn merge(args: &MergeArgs) -> Result<(), String> {
    let mut merged = Book::default();
    let mut comments = vec![format!("merged from: {}", file_list(&args.inputs))];
    for input in &args.inputs {
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
    write_book(&args.out, &merged, &comments)?;
    eprintln!("wrote {} ({} positions)", args.out.display(), merged.len());
    Ok(())
}

fn eval(args: &BookEvalArgs) -> Result<(), String> {
    let book = match args.book.as_str() {
        "builtin" => Book::builtin(),
        path => Arc::new(Book::load(Path::new(path))?),
    };
    let exclude: HashSet<u64> = if args.exclude.is_empty() {
        HashSet::new()
    } else {
        read_games(&args.exclude, 0, 0, &HashSet::new())
            .games
            .iter()
            .map(super::patterns_cmd::game_key)
            .collect()
    };
    let source = read_games(&args.files, args.size, 0, &exclude);
    let mut games: Vec<&SgfGame> = source
        .games
        .iter()
        .enumerate()
        .filter(|(k, _)| args.test_every <= 1 || k % args.test_every == 0)
        .map(|(_, g)| g)
        .collect();
    if args.max_games > 0 {
        games.truncate(args.max_games);
    }
    if games.is_empty() {
        return Err("no usable games".into());
    }
    let table = pattern::default_table();
    let (mut all, mut covered_patterns) = (Prediction::default(), Prediction::default());
    let (mut covered, mut book_hits) = (0u64, 0u64);
    let bar = progress_bar(games.len() as u64, "games");
    for game in &games {
        let mut k = 0;
        let _ = pattern::for_each_position(game, |board, ctx, mv| {
            k += 1;
            if k > args.moves {
                return;
            }
            let before = all.positions;
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
    let rate = |x: f64, n: u64| x / n.max(1) as f64;
    let combined = book_hits as f64 + (all.top1 - covered_patterns.top1);
    eprintln!(
        "{} games ({} repeated, {} also in --exclude skipped), first {} moves",
        games.len(),
        source.duplicates,
        source.excluded,
        args.moves
    );
    println!(
        "positions={} covered={} book_top1={:.4} patterns_top1_covered={:.4} patterns_top1={:.4} \
         book_then_patterns_top1={:.4}",
        all.positions,
        covered,
        rate(book_hits as f64, covered),
        covered_patterns.top1_rate(),
        all.top1_rate(),
        rate(combined, all.positions)
    );
    Ok(())
}
