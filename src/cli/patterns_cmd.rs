//! `hane train-patterns` (fit the move-pattern table on SGF collections) and `hane patterns
//! eval` (move-prediction accuracy of a table on game records): their options; the work is
//! [`crate::pattern::training_run`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::arena::hane_player::HaneSettings;
use crate::log::progress_bar;
use crate::pattern::{self, training_run};
use crate::play::Player;
use crate::playout::ownership::owner_tally;
use crate::sgf::collection::{GameSource, game_keys, read_games};

#[derive(Args, Debug)]
pub struct TrainPatternsArgs {
    /// SGF files (single games or collections) or directories of them to learn from.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the table.
    #[arg(long)]
    out: PathBuf,
    /// Use at most this many training games (0: all).
    #[arg(long, default_value_t = 1500)]
    max_games: usize,
    /// Only games on this board size (0: every size).
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Hold out every N-th game for testing (0: none).
    #[arg(long, default_value_t = 20)]
    test_every: usize,
    /// Test on at most this many held-out games.
    #[arg(long, default_value_t = 100)]
    max_test_games: usize,
    /// Learn from every N-th position of each training game (shapes are counted on all).
    #[arg(long, default_value_t = 1)]
    sample_every: usize,
    /// Rounds of minorization-maximization.
    #[arg(long, default_value_t = 20)]
    iterations: usize,
    /// A 3x3 shape gets its own weight when played at least this often.
    #[arg(long, default_value_t = 3)]
    min_count_3x3: u32,
    /// The same for the 12-point diamond.
    #[arg(long, default_value_t = 10)]
    min_count_12: u32,
    /// The same for the 24-point diamond.
    #[arg(long, default_value_t = 20)]
    min_count_24: u32,
    /// The same for the 40-point diamond.
    #[arg(long, default_value_t = 20)]
    min_count_40: u32,
    /// The same for the 60-point diamond.
    #[arg(long, default_value_t = 20)]
    min_count_60: u32,
    /// Leave this feature group out (its gammas stay 1), to measure what it adds; repeat
    /// the option for several (names as in the table: `liberties`, `shape60`, ...).
    #[arg(long, value_name = "GROUP", value_parser = parse_group)]
    leave_out: Vec<pattern::Group>,
    /// Latent factors per feature (0: a plain Bradley-Terry table): after MM, fit the
    /// factorization Bradley-Terry model, where each pair of a move's features adds the
    /// dot product of their factors to its log-strength.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=32))]
    factors: u32,
    /// Passes of stochastic gradient descent over the positions for the factors.
    #[arg(long, default_value_t = 8)]
    factor_epochs: usize,
    /// Step size of the first pass (pass e, from 0, uses rate / (1 + e)).
    #[arg(long, default_value_t = 0.02)]
    factor_rate: f32,
    /// L2 penalty on the factors.
    #[arg(long, default_value_t = 0.00001)]
    factor_regularization: f32,
    /// A feature whose factors all end under this in magnitude gets none (most rare shapes;
    /// they barely move a prediction and are most of the file).
    #[arg(long, default_value_t = 0.1)]
    factor_min: f32,
    /// Threads that replay the games and fit the table (0: one per core). A plain table
    /// does not depend on it but for the last bits of MM's sums; the factors do (the threads
    /// join their steps every 4,096 positions each; one thread is plain stochastic gradient
    /// descent).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

fn parse_group(name: &str) -> Result<pattern::Group, String> {
    pattern::Group::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = pattern::Group::all().map(pattern::Group::name).collect();
        format!("unknown feature group (known: {})", known.join(" "))
    })
}

#[derive(Args, Debug)]
pub struct PatternsArgs {
    #[command(subcommand)]
    command: PatternsCommand,
}

#[derive(Subcommand, Debug)]
enum PatternsCommand {
    /// Move-prediction accuracy on game records: prints
    /// `positions=... top1=... top5=... mean_log_likelihood=...`.
    Eval(EvalArgs),
    /// Rewrites a table with latent factors shorter: factors rounded to three decimals, and
    /// none for the features whose factors are all under `--factor-min` (what
    /// `train-patterns` now writes itself).
    Compact(CompactArgs),
}

#[derive(Args, Debug)]
struct CompactArgs {
    /// The table to read.
    table: PathBuf,
    /// Where to write the shorter table.
    #[arg(long)]
    out: PathBuf,
    /// A feature whose factors are all under this in magnitude gets none.
    #[arg(long, default_value_t = 0.1)]
    factor_min: f32,
}

#[derive(Args, Debug)]
struct EvalArgs {
    /// SGF files (single games or collections) or directories of them.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Pattern table to evaluate (default: the compiled-in table of `--size`, the large
    /// boards' one for 0).
    #[arg(long)]
    patterns: Option<PathBuf>,
    /// Only games on this board size (0: every size).
    #[arg(long, default_value_t = 0)]
    size: usize,
    /// Evaluate at most this many games (0: all).
    #[arg(long, default_value_t = 0)]
    max_games: usize,
    /// Leave out games that also appear in these files or directories (for example the
    /// training games, so that overlapping collections cannot leak them into the test);
    /// repeat the option for several.
    #[arg(long, value_name = "PATH")]
    exclude: Vec<PathBuf>,
    /// Threads that replay the games (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Rank the moves by the priors the search gives its root (the pattern table's with
    /// the heuristic terms, the opening prior, the tree reader's and the book's, as
    /// `hane` plays with its defaults and `--settings`), not by the table alone: top1 and
    /// top5 of the moves with the highest prior value; no log-likelihood.
    #[arg(long)]
    search_priors: bool,
    /// With `--search-priors`: hane's settings, `key=value,...` as in a match's `hane:`
    /// player (`prior-weight=30,book=off`).
    #[arg(
        long,
        value_name = "SPEC",
        requires = "search_priors",
        default_value = ""
    )]
    settings: String,
}

/// `n` threads, or one per core for 0.
fn thread_count(n: usize) -> usize {
    if n > 0 { n } else { crate::cores() }
}

pub fn train(args: &TrainPatternsArgs) -> ExitCode {
    let options = training_run::TrainOptions {
        files: args.files.clone(),
        out: args.out.clone(),
        max_games: args.max_games,
        size: args.size,
        test_every: args.test_every,
        max_test_games: args.max_test_games,
        sample_every: args.sample_every,
        iterations: args.iterations,
        min_count_3x3: args.min_count_3x3,
        min_count_12: args.min_count_12,
        min_count_24: args.min_count_24,
        min_count_40: args.min_count_40,
        min_count_60: args.min_count_60,
        leave_out: args.leave_out.clone(),
        factors: (args.factors > 0).then_some(pattern::train::LatentFit {
            dims: args.factors as usize,
            epochs: args.factor_epochs,
            rate: args.factor_rate,
            regularization: args.factor_regularization,
            seed: 1,
            min: args.factor_min,
        }),
        threads: thread_count(args.threads),
        owner: Some(owner_tally),
    };
    match training_run::train(&options) {
        Ok(prediction) => {
            println!("{}", prediction.summary());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hane train-patterns: {e}");
            ExitCode::FAILURE
        }
    }
}

pub fn patterns(args: &PatternsArgs) -> ExitCode {
    match &args.command {
        PatternsCommand::Eval(eval) => run_eval(eval),
        PatternsCommand::Compact(compact) => run_compact(compact),
    }
}

fn run_compact(args: &CompactArgs) -> ExitCode {
    let mut table = match pattern::load(&args.table) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hane patterns compact: {e}");
            return ExitCode::FAILURE;
        }
    };
    if table.factor_count() == 0 {
        // Nothing to round or drop: a copy with a "compacted" line would say what is not so.
        eprintln!(
            "hane patterns compact: {} has no latent factors (a plain table); nothing to do",
            args.table.display()
        );
        return ExitCode::FAILURE;
    }
    table.compact_factors(pattern::train::FACTOR_STEPS, args.factor_min);
    let mut header = table.header().to_vec();
    header.push(format!(
        "compacted: factors rounded to multiples of {}, none where all are under {}",
        1.0 / pattern::train::FACTOR_STEPS,
        args.factor_min
    ));
    table.set_header(header);
    match std::fs::write(&args.out, table.to_text()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "hane patterns compact: cannot write {}: {e}",
                args.out.display()
            );
            ExitCode::FAILURE
        }
    }
}

fn run_eval(args: &EvalArgs) -> ExitCode {
    if args.search_priors {
        return run_search_priors_eval(args);
    }
    let loaded;
    let table = match &args.patterns {
        Some(path) => match pattern::load(path) {
            Ok(t) => {
                loaded = t;
                &loaded
            }
            Err(e) => {
                eprintln!("hane patterns eval: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => pattern::PatternTables::Builtin.for_size(match args.size {
            0 => pattern::LARGE_BOARD,
            size => size,
        }),
    };
    let Some(source) = eval_games(args) else {
        return ExitCode::FAILURE;
    };
    let bar = progress_bar(source.games.len() as u64, "games");
    let threads = thread_count(args.threads);
    let owner = table
        .uses_group(pattern::Group::Owner)
        .then_some(owner_tally as pattern::features::OwnerTally);
    let (prediction, faults) = training_run::evaluate(table, &source.games, threads, owner, &bar);
    eprintln!(
        "{} games ({} broken, {} of another size, {} repeated, {} also in --exclude \
         skipped; {} cut at an illegal move, {} with unplaceable setup)",
        source.games.len(),
        source.broken_games,
        source.other_size,
        source.duplicates,
        source.excluded,
        faults.cut,
        faults.bad_setup
    );
    println!("{}", prediction.summary());
    ExitCode::SUCCESS
}

/// The games `patterns eval` reads (`None`, said on stderr, when there are none).
fn eval_games(args: &EvalArgs) -> Option<GameSource> {
    let exclude = game_keys(&args.exclude);
    let source = read_games(&args.files, args.size, args.max_games, &exclude);
    if source.games.is_empty() {
        eprintln!("hane patterns eval: no usable games");
        return None;
    }
    Some(source)
}

/// `hane patterns eval --search-priors`: the search's root priors as a move predictor.
fn run_search_priors_eval(args: &EvalArgs) -> ExitCode {
    let mut spec = format!("threads=1,{}", args.settings);
    if let Some(path) = &args.patterns {
        spec.push_str(&format!(",patterns={}", path.display()));
    }
    let hane = match HaneSettings::parse(spec.trim_end_matches(',')) {
        Ok(hane) => hane,
        Err(e) => {
            eprintln!("hane patterns eval: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(source) = eval_games(args) else {
        return ExitCode::FAILURE;
    };
    let bar = progress_bar(source.games.len() as u64, "games");
    let (prediction, faults) = training_run::evaluate_ranker(
        &source.games,
        thread_count(args.threads),
        &bar,
        || Player::new(hane.settings.clone(), hane.patterns.clone(), 0),
        |player, state, color, scores| {
            scores.extend(
                player
                    .root_priors(state, color)
                    .into_iter()
                    .map(|(mv, prior)| (mv, prior.mean())),
            );
        },
    );
    eprintln!(
        "{} games ({} cut at an illegal move, {} with unplaceable setup); the search's \
         root priors of {}",
        source.games.len(),
        faults.cut,
        faults.bad_setup,
        hane.describe()
    );
    println!("{}", prediction.ranking_summary());
    ExitCode::SUCCESS
}
