//! `hane train-patterns` (fit the move-pattern table on SGF collections) and `hane patterns
//! eval` (move-prediction accuracy of a table on game records).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::pattern::{self, PatternDataset, PatternTable, Prediction, ShapeCounter};
use crate::sgf::{SgfGame, parse_collection};

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
}

#[derive(Args, Debug)]
struct EvalArgs {
    /// SGF files (single games or collections) or directories of them.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Pattern table to evaluate (default: the compiled-in table).
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
}

/// Games read from files, with counts of what was skipped.
#[derive(Default)]
pub(super) struct GameSource {
    pub(super) games: Vec<SgfGame>,
    pub(super) unreadable_files: usize,
    pub(super) broken_games: usize,
    pub(super) other_size: usize,
    /// Games whose size, setup and moves repeat an earlier game (collections overlap).
    pub(super) duplicates: usize,
    /// Games left out because they are in the exclusion set.
    pub(super) excluded: usize,
}

/// The files named on the command line, with every `*.sgf` file under a named directory
/// (recursively, in name order) in its place.
fn expand_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut stack = vec![path.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    eprintln!("skipping {}: cannot list it", dir.display());
                    continue;
                };
                for entry in entries.flatten() {
                    let p = entry.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                        found.push(p);
                    }
                }
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files
}

/// A key that is equal for two records of the same game: size, setup stones and moves.
pub(super) fn game_key(game: &SgfGame) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    game.size.hash(&mut hasher);
    for (color, p) in &game.setup {
        (*color as u8, p.index()).hash(&mut hasher);
    }
    for (color, mv) in &game.moves {
        (*color as u8, mv.point().map_or(0, |p| p.index())).hash(&mut hasher);
    }
    hasher.finish()
}

/// Reads every game of the given size (0: any) from `paths` (files, or directories searched
/// for `*.sgf` files), dropping repeated games and games whose [`game_key`] is in
/// `exclude`, up to `limit` games (0: all).
pub(super) fn read_games(
    paths: &[PathBuf],
    size: usize,
    limit: usize,
    exclude: &HashSet<u64>,
) -> GameSource {
    let mut source = GameSource::default();
    let mut seen = HashSet::new();
    for path in expand_paths(paths) {
        if limit > 0 && source.games.len() >= limit {
            break;
        }
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("skipping {}: {e}", path.display());
                source.unreadable_files += 1;
                continue;
            }
        };
        match parse_collection(&text) {
            Err(e) => {
                eprintln!("skipping {}: {e}", path.display());
                source.unreadable_files += 1;
            }
            Ok(games) => {
                for game in games {
                    match game {
                        Err(_) => source.broken_games += 1,
                        Ok(g) if size != 0 && g.size != size => source.other_size += 1,
                        Ok(g) => {
                            let key = game_key(&g);
                            if !seen.insert(key) {
                                source.duplicates += 1;
                            } else if exclude.contains(&key) {
                                source.excluded += 1;
                            } else {
                                source.games.push(g);
                            }
                        }
                    }
                }
            }
        }
    }
    if limit > 0 {
        source.games.truncate(limit);
    }
    source
}

pub(super) fn progress_bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>12} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// Games that could not be replayed to the end.
#[derive(Clone, Copy, Debug, Default)]
struct ReplayFaults {
    /// Setup or handicap stones could not be placed: nothing of the game was used.
    bad_setup: usize,
    /// An illegal move: the game was used up to it.
    cut: usize,
}

impl ReplayFaults {
    fn count(&mut self, result: Result<(), usize>) {
        match result {
            Ok(()) => {}
            Err(0) => self.bad_setup += 1,
            Err(_) => self.cut += 1,
        }
    }
}

/// Evaluates `table` on `games`; returns the figures and the games not replayed to the end.
fn evaluate(
    table: &PatternTable,
    games: &[SgfGame],
    bar: &ProgressBar,
) -> (Prediction, ReplayFaults) {
    let mut prediction = Prediction::default();
    let mut faults = ReplayFaults::default();
    for game in games {
        faults.count(pattern::for_each_position(game, |board, ctx, mv| {
            prediction.observe(table, board, ctx, mv)
        }));
        bar.inc(1);
    }
    bar.finish_and_clear();
    (prediction, faults)
}

/// "1st", "2nd", "3rd", "20th": for the table header.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn file_names(files: &[PathBuf]) -> String {
    let names: Vec<String> = files
        .iter()
        .map(|p| {
            Path::new(p)
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    names.join(" ")
}

pub fn train(args: &TrainPatternsArgs) -> ExitCode {
    let clock = Instant::now();
    // Read enough games for both sets.
    let wanted = match (args.max_games, args.test_every) {
        (0, _) => 0,
        (n, 0) => n,
        (n, k) => n + n / (k - 1).max(1) + 1,
    };
    let source = read_games(&args.files, args.size, wanted, &HashSet::new());
    let (mut training, mut test) = (Vec::new(), Vec::new());
    for (k, game) in source.games.into_iter().enumerate() {
        if args.test_every > 0 && k % args.test_every == 0 {
            test.push(game);
        } else {
            training.push(game);
        }
    }
    if args.max_games > 0 {
        training.truncate(args.max_games);
    }
    test.truncate(args.max_test_games);
    eprintln!(
        "read {} training and {} test games ({} broken, {} of another size, {} repeated games, \
         {} unreadable files skipped)",
        training.len(),
        test.len(),
        source.broken_games,
        source.other_size,
        source.duplicates,
        source.unreadable_files
    );
    if training.is_empty() {
        eprintln!("hane train-patterns: no usable games");
        return ExitCode::FAILURE;
    }

    let mut counter = ShapeCounter::new();
    let mut faults = ReplayFaults::default();
    let bar = progress_bar(training.len() as u64, "shapes");
    for game in &training {
        faults.count(pattern::for_each_position(game, |b, c, m| {
            counter.observe(b, c, m)
        }));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let min_counts = [
        args.min_count_3x3,
        args.min_count_12,
        args.min_count_24,
        args.min_count_40,
    ];
    let shapes = counter.frequent(min_counts);
    drop(counter);
    eprintln!(
        "shapes kept: 3x3 {}, diamond-12 {}, diamond-24 {}, diamond-40 {}; {} games cut at an \
         illegal move, {} with setup stones that could not be placed",
        shapes[0].len(),
        shapes[1].len(),
        shapes[2].len(),
        shapes[3].len(),
        faults.cut,
        faults.bad_setup
    );
    let shape_counts = [
        shapes[0].len(),
        shapes[1].len(),
        shapes[2].len(),
        shapes[3].len(),
    ];

    let mut dataset = PatternDataset::new(shapes);
    let bar = progress_bar(training.len() as u64, "positions");
    let sample_every = args.sample_every.max(1);
    for (g, game) in training.iter().enumerate() {
        let mut k = g;
        let _ = pattern::for_each_position(game, |b, c, m| {
            if k % sample_every == 0 {
                dataset.observe(b, c, m);
            }
            k += 1;
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let positions = dataset.data.positions();
    eprintln!(
        "{positions} positions, {} candidates, {} distinct teams ({:.0} s)",
        dataset.data.candidate_count(),
        dataset.data.teams(),
        clock.elapsed().as_secs_f64()
    );

    let bar = progress_bar(args.iterations as u64, "MM rounds");
    let mut last_ll = f64::NAN;
    let mut table = dataset.fit(args.iterations, |round, ll| {
        bar.inc(1);
        let line = format!("round {} mean log-likelihood {ll:.4}", round + 1);
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
        last_ll = ll;
    });
    bar.finish_and_clear();
    drop(dataset);

    let bar = progress_bar(test.len() as u64, "testing");
    let (prediction, _) = evaluate(&table, &test, &bar);
    let seconds = clock.elapsed().as_secs_f64();
    let mut header = vec![
        "hane move-pattern table: Bradley-Terry gammas fitted by minorization-maximization".into(),
        format!("trained-on: {}", file_names(&args.files)),
        format!(
            "training: {} games of size {} ({} broken, {} other-size, {} repeated, {} in unreadable \
             files skipped; {} cut at an illegal move, {} with unplaceable setup), {positions} \
             positions, {}, every {} position used",
            training.len(),
            if args.size == 0 {
                "any".to_string()
            } else {
                args.size.to_string()
            },
            source.broken_games,
            source.other_size,
            source.duplicates,
            source.unreadable_files,
            faults.cut,
            faults.bad_setup,
            if args.test_every > 0 {
                format!("every {} game held out", ordinal(args.test_every))
            } else {
                "no game held out".to_string()
            },
            ordinal(sample_every)
        ),
        format!(
            "shapes: 3x3 {} (played >= {}), diamond-12 {} (>= {}), diamond-24 {} (>= {}), diamond-40 {} (>= {})",
            shape_counts[0],
            min_counts[0],
            shape_counts[1],
            min_counts[1],
            shape_counts[2],
            min_counts[2],
            shape_counts[3],
            min_counts[3]
        ),
        format!(
            "mm: {} rounds, training mean log-likelihood {last_ll:.4}",
            args.iterations
        ),
        format!(
            "held-out test ({} games): {}",
            test.len(),
            prediction.summary()
        ),
        format!("training time: {seconds:.0} s"),
    ];
    header.retain(|l: &String| !l.is_empty());
    table.set_header(header);
    if let Err(e) = std::fs::write(&args.out, table.to_text()) {
        eprintln!(
            "hane train-patterns: cannot write {}: {e}",
            args.out.display()
        );
        return ExitCode::FAILURE;
    }
    eprintln!("wrote {} ({seconds:.0} s)", args.out.display());
    println!("{}", prediction.summary());
    ExitCode::SUCCESS
}

pub fn patterns(args: &PatternsArgs) -> ExitCode {
    match &args.command {
        PatternsCommand::Eval(eval) => run_eval(eval),
    }
}

fn run_eval(args: &EvalArgs) -> ExitCode {
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
        None => pattern::default_table(),
    };
    let exclude: HashSet<u64> = if args.exclude.is_empty() {
        HashSet::new()
    } else {
        read_games(&args.exclude, 0, 0, &HashSet::new())
            .games
            .iter()
            .map(game_key)
            .collect()
    };
    let source = read_games(&args.files, args.size, args.max_games, &exclude);
    if source.games.is_empty() {
        eprintln!("hane patterns eval: no usable games");
        return ExitCode::FAILURE;
    }
    let bar = progress_bar(source.games.len() as u64, "games");
    let (prediction, faults) = evaluate(table, &source.games, &bar);
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
