//! `hane book`: building opening books (`build19` from professional records, `build9` by
//! hane's own long searches, with checkpoints, resume and shards), merging shards' books
//! (`merge`) and measuring a book's move prediction on held-out records (`eval`): their
//! options. The building is [`crate::play::book_build`]'s; the book format and lookup are
//! `crate::play::book`'s.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Subcommand};

use crate::arena::parse_shard;
use crate::pattern;
use crate::play::book::Book;
use crate::play::book_build::{self, Build9Options, Build19Options};
use crate::settings::Settings;
use crate::sgf::SgfGame;
use crate::sgf::collection::{game_keys, read_games};

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

fn build19(args: &Build19Args) -> Result<(), String> {
    book_build::build19(&Build19Options {
        files: args.files.clone(),
        out: args.out.clone(),
        moves: args.moves,
        min_count: args.min_count,
        min_move_count: args.min_move_count,
        max_moves: args.max_moves,
        test_every: args.test_every,
        max_games: args.max_games,
    })
}

fn build9(args: &Build9Args) -> Result<(), String> {
    let shard = match &args.shard {
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
    book_build::build9(&Build9Options {
        out: args.out.clone(),
        komi: args.komi,
        depth: args.depth,
        width: args.width,
        margin: args.margin,
        min_share: args.min_share,
        playouts: args.playouts,
        settings,
        seed: args.seed,
        shard,
        max_positions: args.max_positions,
        split_depth: args.split_depth,
        samples: args.samples,
        sample_playouts: args.sample_playouts,
    })
}

fn merge(args: &MergeArgs) -> Result<(), String> {
    book_build::merge(&args.inputs, &args.out)
}

fn eval(args: &BookEvalArgs) -> Result<(), String> {
    let book = match args.book.as_str() {
        "builtin" => Book::builtin(),
        path => Arc::new(Book::load(Path::new(path))?),
    };
    let exclude = game_keys(&args.exclude);
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
    let p = book_build::predict(&book, &pattern::PatternTables::Builtin, &games, args.moves);
    let rate = |x: f64, n: u64| x / n.max(1) as f64;
    let combined = p.book_hits as f64 + (p.all.top1 - p.covered_patterns.top1);
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
        p.all.positions,
        p.covered,
        rate(p.book_hits as f64, p.covered),
        p.covered_patterns.top1_rate(),
        p.all.top1_rate(),
        rate(combined, p.all.positions)
    );
    Ok(())
}
