//! A whole training run of the move-pattern table (`hane train-patterns`): game records
//! read and split into training and held-out test games, the frequent shapes counted,
//! training positions sampled, the model fitted by MM, the table tested on the held-out
//! games and written with a header that says how it was made; and the evaluation of a
//! table on game records (`hane patterns eval`). The algorithms are in [`super::train`].

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use indicatif::ProgressBar;

use super::features::{Context, OwnerScratch, OwnerTally};
use super::{
    Group, PatternDataset, PatternTable, Prediction, ShapeCounter, for_each_position,
    for_each_state,
};
use crate::board::{Board, Color, GameState, Move};
use crate::log::progress_bar;
use crate::sgf::SgfGame;
use crate::sgf::collection::{GameSource, read_games};

/// What a training run uses and how (the options of `hane train-patterns`).
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// SGF files (single games or collections) or directories of them to learn from.
    pub files: Vec<PathBuf>,
    /// Where to write the table.
    pub out: PathBuf,
    /// Use at most this many training games (0: all).
    pub max_games: usize,
    /// Only games on this board size (0: every size).
    pub size: usize,
    /// Hold out every N-th game for testing (0: none).
    pub test_every: usize,
    /// Test on at most this many held-out games.
    pub max_test_games: usize,
    /// Learn from every N-th position of each training game (shapes are counted on all).
    pub sample_every: usize,
    /// Rounds of minorization-maximization.
    pub iterations: usize,
    /// A 3x3 shape gets its own weight when played at least this often.
    pub min_count_3x3: u32,
    /// The same for the 12-point diamond.
    pub min_count_12: u32,
    /// The same for the 24-point diamond.
    pub min_count_24: u32,
    /// The same for the 40-point diamond.
    pub min_count_40: u32,
    /// The same for the 60-point diamond.
    pub min_count_60: u32,
    /// Feature groups not used (their gammas stay 1): for measuring what a group adds.
    pub leave_out: Vec<super::Group>,
    /// Latent factors fitted after MM (`None`: a plain table).
    pub factors: Option<super::train::LatentFit>,
    /// Threads that replay the games and fit the model (at least 1).
    pub threads: usize,
    /// The ownership playouts of [`Group::Owner`] (`None`: the group gets no levels).
    pub owner: Option<OwnerTally>,
}

/// Calls `visit` with the context `ctx` and, when `owner` is given, the position's
/// ownership tally in it (made in the batch's `scratch`).
fn with_owner(
    owner: Option<OwnerTally>,
    scratch: &mut Option<OwnerScratch>,
    board: &Board,
    ctx: &Context,
    visit: impl FnOnce(&Context),
) {
    match owner {
        None => visit(ctx),
        Some(run) => {
            let ownership = scratch
                .get_or_insert_with(|| OwnerScratch::new(run))
                .tally(board, ctx.color);
            visit(&Context {
                owner: Some(ownership),
                ..*ctx
            })
        }
    }
}

/// Games that could not be replayed to the end.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayFaults {
    /// Setup or handicap stones could not be placed: nothing of the game was used.
    pub bad_setup: usize,
    /// An illegal move: the game was used up to it.
    pub cut: usize,
}

impl ReplayFaults {
    fn count(&mut self, result: Result<(), usize>) {
        match result {
            Ok(()) => {}
            Err(0) => self.bad_setup += 1,
            Err(_) => self.cut += 1,
        }
    }

    fn add(&mut self, other: ReplayFaults) {
        self.bad_setup += other.bad_setup;
        self.cut += other.cut;
    }
}

/// Games replayed per batch of [`over_games`].
const GAME_BATCH: usize = 16;

/// Goes through `games` on `threads` threads, in batches of consecutive games: each batch
/// gets a part (`new_part()`), `work(part, index of the game, game)` for each of its games,
/// and the parts go to `merge` in the games' order, so that a merge that depends on the
/// order gets what one thread would give. `bar` advances by a game at a time.
fn over_games<T: Send>(
    games: &[SgfGame],
    threads: usize,
    bar: &ProgressBar,
    new_part: impl Fn() -> T + Sync,
    work: impl Fn(&mut T, usize, &SgfGame) + Sync,
    mut merge: impl FnMut(T),
) {
    let batches = games.len().div_ceil(GAME_BATCH);
    let threads = threads.clamp(1, batches.max(1));
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (parts, finished) = std::sync::mpsc::sync_channel::<(usize, T)>(2 * threads);
        for _ in 0..threads {
            let parts = parts.clone();
            let (next, new_part, work) = (&next, &new_part, &work);
            scope.spawn(move || {
                loop {
                    let batch = next.fetch_add(1, Ordering::Relaxed);
                    if batch >= batches {
                        break;
                    }
                    let first = batch * GAME_BATCH;
                    let mut part = new_part();
                    for (k, game) in games[first..(first + GAME_BATCH).min(games.len())]
                        .iter()
                        .enumerate()
                    {
                        work(&mut part, first + k, game);
                        bar.inc(1);
                    }
                    if parts.send((batch, part)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(parts);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (batch, part) in finished {
            waiting.insert(batch, part);
            while let Some(part) = waiting.remove(&due) {
                merge(part);
                due += 1;
            }
        }
    });
}

/// Evaluates `table` on `games` on `threads` threads; returns the figures and the games
/// not replayed to the end.
pub fn evaluate(
    table: &PatternTable,
    games: &[SgfGame],
    threads: usize,
    owner: Option<OwnerTally>,
    bar: &ProgressBar,
) -> (Prediction, ReplayFaults) {
    evaluate_games(
        games,
        threads,
        bar,
        || None,
        |scratch, part, game| {
            for_each_position(game, |board, ctx, mv| {
                with_owner(owner, scratch, board, ctx, |ctx| {
                    part.observe(table, board, ctx, mv)
                })
            })
        },
    )
}

/// Evaluates a move ranker on `games` on `threads` threads: each batch of games gets a
/// ranker from `new_ranker`, and `rank(ranker, state, color, scores)` fills `scores` with a
/// score for each candidate of `color` to move in `state` (see
/// [`Prediction::observe_scores`]). Returns the figures (no log-likelihood) and the games
/// not replayed to the end.
pub fn evaluate_ranker<R: Send>(
    games: &[SgfGame],
    threads: usize,
    bar: &ProgressBar,
    new_ranker: impl Fn() -> R + Sync,
    rank: impl Fn(&mut R, &GameState, Color, &mut Vec<(Move, f32)>) + Sync,
) -> (Prediction, ReplayFaults) {
    evaluate_games(
        games,
        threads,
        bar,
        || (new_ranker(), Vec::new()),
        |(ranker, scores), part, game| {
            for_each_state(game, |state, color, mv| {
                scores.clear();
                rank(ranker, state, color, scores);
                part.observe_scores(scores, mv);
            })
        },
    )
}

/// Runs `visit(scratch, prediction, game)` over `games` on `threads` threads, each batch
/// with its own scratch from `new_scratch`, and adds up the batches' predictions and
/// replay faults.
fn evaluate_games<S: Send>(
    games: &[SgfGame],
    threads: usize,
    bar: &ProgressBar,
    new_scratch: impl Fn() -> S + Sync,
    visit: impl Fn(&mut S, &mut Prediction, &SgfGame) -> Result<(), usize> + Sync,
) -> (Prediction, ReplayFaults) {
    let mut prediction = Prediction::default();
    let mut faults = ReplayFaults::default();
    over_games(
        games,
        threads,
        bar,
        || {
            (
                Prediction::default(),
                ReplayFaults::default(),
                new_scratch(),
            )
        },
        |(part, part_faults, scratch), _, game| part_faults.count(visit(scratch, part, game)),
        |(part, part_faults, _)| {
            prediction.merge(&part);
            faults.add(part_faults);
        },
    );
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

/// The files' names (without their folders), separated by spaces.
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

/// Trains a table as `args` say and writes it to `args.out`, reporting each step on
/// stderr; returns the table's move prediction on the held-out games.
pub fn train(args: &TrainOptions) -> Result<Prediction, String> {
    let clock = Instant::now();
    let (source, training, test) = read_sets(args);
    if training.is_empty() {
        return Err("no usable games".into());
    }
    let min_counts = [
        args.min_count_3x3,
        args.min_count_12,
        args.min_count_24,
        args.min_count_40,
        args.min_count_60,
    ];
    let threads = args.threads.max(1);
    let (mut shapes, faults) = frequent_shapes(&training, min_counts, threads);
    for g in &args.leave_out {
        if Group::SHAPES.contains(g) {
            shapes[g.slot()].clear();
        }
    }
    let shape_counts = shapes.each_ref().map(Vec::len);
    let sample_every = args.sample_every.max(1);
    let owner = args
        .owner
        .filter(|_| !args.leave_out.contains(&Group::Owner));
    let dataset = sample_positions(
        shapes,
        &training,
        sample_every,
        &args.leave_out,
        threads,
        owner,
    );
    let positions = dataset.data.positions();
    eprintln!(
        "{positions} positions, {} candidates, {} distinct teams ({:.0} s)",
        dataset.data.candidate_count(),
        dataset.data.teams(),
        clock.elapsed().as_secs_f64()
    );
    let (mut table, last_ll, factor_ll) =
        fit(&dataset, args.iterations, threads, args.factors.as_ref());
    drop(dataset);

    let bar = progress_bar(test.len() as u64, "testing");
    let (prediction, _) = evaluate(&table, &test, threads, owner, &bar);
    let seconds = clock.elapsed().as_secs_f64();
    let facts = RunFacts {
        source: &source,
        training: training.len(),
        test: test.len(),
        faults,
        positions,
        sample_every,
        shape_counts,
        min_counts,
        last_ll,
        factor_ll,
        prediction: &prediction,
        seconds,
    };
    table.set_header(header(args, &facts));
    std::fs::write(&args.out, table.to_text())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    eprintln!("wrote {} ({seconds:.0} s)", args.out.display());
    Ok(prediction)
}

/// Reads the games and splits them into training and test games (every `test_every`-th
/// held out), each set cut to its limit; reports on stderr what was read and skipped.
fn read_sets(args: &TrainOptions) -> (GameSource, Vec<SgfGame>, Vec<SgfGame>) {
    // Read enough games for both sets.
    let wanted = match (args.max_games, args.test_every) {
        (0, _) => 0,
        (n, 0) => n,
        (n, k) => n + n / (k - 1).max(1) + 1,
    };
    let mut source = read_games(&args.files, args.size, wanted, &HashSet::new());
    let (mut training, mut test) = (Vec::new(), Vec::new());
    for (k, game) in std::mem::take(&mut source.games).into_iter().enumerate() {
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
    (source, training, test)
}

/// The shapes played at least `min_counts` times in the training games, per shape group,
/// and the games not replayed to the end (counted on `threads` threads); reported on stderr.
fn frequent_shapes(
    training: &[SgfGame],
    min_counts: [u32; 5],
    threads: usize,
) -> ([Vec<u64>; 5], ReplayFaults) {
    let mut counter = ShapeCounter::new();
    let mut faults = ReplayFaults::default();
    let bar = progress_bar(training.len() as u64, "shapes");
    over_games(
        training,
        threads,
        &bar,
        || (ShapeCounter::new(), ReplayFaults::default()),
        |(part, part_faults), _, game| {
            part_faults.count(for_each_position(game, |b, c, m| part.observe(b, c, m)));
        },
        |(part, part_faults)| {
            counter.merge(part);
            faults.add(part_faults);
        },
    );
    bar.finish_and_clear();
    let shapes = counter.frequent(min_counts);
    drop(counter);
    eprintln!(
        "shapes kept: 3x3 {}, diamond-12 {}, diamond-24 {}, diamond-40 {}, diamond-60 {}; {} \
         games cut at an illegal move, {} with setup stones that could not be placed",
        shapes[0].len(),
        shapes[1].len(),
        shapes[2].len(),
        shapes[3].len(),
        shapes[4].len(),
        faults.cut,
        faults.bad_setup
    );
    (shapes, faults)
}

/// The training positions: every `sample_every`-th position of the training games
/// (counted across games), described with `shapes`; replayed on `threads` threads, the
/// same data set as one thread builds.
fn sample_positions(
    shapes: [Vec<u64>; 5],
    training: &[SgfGame],
    sample_every: usize,
    left_out: &[Group],
    threads: usize,
    owner: Option<OwnerTally>,
) -> PatternDataset {
    let mut dataset = PatternDataset::without(shapes, left_out.to_vec());
    let mut data = dataset.empty_part();
    let bar = progress_bar(training.len() as u64, "positions");
    let maker = &dataset;
    over_games(
        training,
        threads,
        &bar,
        || (maker.empty_part(), Vec::new(), None),
        |(part, scratch, owner_scratch), g, game| {
            let mut k = g;
            let _ = for_each_position(game, |b, c, m| {
                if k % sample_every == 0 {
                    with_owner(owner, owner_scratch, b, c, |c| {
                        maker.observe_into(part, scratch, b, c, m)
                    });
                }
                k += 1;
            });
        },
        |(part, _, _)| data.append(&part),
    );
    bar.finish_and_clear();
    dataset.data = data;
    dataset
}

/// Fits the table by `iterations` rounds of MM on `threads` threads, printing each round's
/// mean log-likelihood; returns the table and the last round's figure.
/// With `factors`, then fits the latent factors, printing each pass's figure and returning
/// the last one's too.
fn fit(
    dataset: &PatternDataset,
    iterations: usize,
    threads: usize,
    factors: Option<&super::train::LatentFit>,
) -> (PatternTable, f64, Option<f64>) {
    let rounds = iterations + factors.map_or(0, |f| f.epochs);
    let bar = progress_bar(rounds as u64, "MM rounds");
    let mut last_ll = f64::NAN;
    let mut factor_ll = None;
    // One step of the bar and its line (with the seconds since the fit began), for an MM
    // round and a factor pass alike.
    let clock = Instant::now();
    let step = |line: String| {
        let line = format!("{line} ({:.0} s)", clock.elapsed().as_secs_f64());
        bar.inc(1);
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    };
    let mm = |round: usize, ll: f64| {
        step(format!("round {} mean log-likelihood {ll:.4}", round + 1));
        last_ll = ll;
    };
    let table = match factors {
        None => dataset.fit(iterations, threads, mm),
        Some(fit) => dataset.fit_with_factors(iterations, threads, fit, mm, |epoch, ll| {
            step(format!(
                "factor pass {} mean log-likelihood {ll:.4} (during the pass)",
                epoch + 1
            ));
            factor_ll = Some(ll);
        }),
    };
    bar.finish_and_clear();
    (table, last_ll, factor_ll)
}

/// What a training run found, for the table's header.
struct RunFacts<'a> {
    source: &'a GameSource,
    /// Training and test games.
    training: usize,
    test: usize,
    faults: ReplayFaults,
    positions: usize,
    sample_every: usize,
    /// Shapes kept per group, and the counts that kept them.
    shape_counts: [usize; 5],
    min_counts: [u32; 5],
    last_ll: f64,
    /// The last factor pass's mean log-likelihood (measured during the pass), when fitted.
    factor_ll: Option<f64>,
    prediction: &'a Prediction,
    seconds: f64,
}

/// The table's header: how it was trained and how well it predicts.
fn header(args: &TrainOptions, facts: &RunFacts<'_>) -> Vec<String> {
    let (source, faults) = (facts.source, facts.faults);
    let mut header = vec![
        if args.factors.is_some() {
            "hane move-pattern table: factorization Bradley-Terry model, gammas fitted by \
             minorization-maximization, then gammas and latent factors by gradient descent"
                .into()
        } else {
            "hane move-pattern table: Bradley-Terry gammas fitted by minorization-maximization"
                .into()
        },
        format!("trained-on: {}", file_names(&args.files)),
        format!(
            "training: {} games of size {} ({} broken, {} other-size, {} repeated, {} in unreadable \
             files skipped; {} cut at an illegal move, {} with unplaceable setup), {} \
             positions, {}, every {} position used",
            facts.training,
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
            facts.positions,
            if args.test_every > 0 {
                format!("every {} game held out", ordinal(args.test_every))
            } else {
                "no game held out".to_string()
            },
            ordinal(facts.sample_every)
        ),
        format!(
            "shapes: 3x3 {} (played >= {}), diamond-12 {} (>= {}), diamond-24 {} (>= {}), \
             diamond-40 {} (>= {}), diamond-60 {} (>= {})",
            facts.shape_counts[0],
            facts.min_counts[0],
            facts.shape_counts[1],
            facts.min_counts[1],
            facts.shape_counts[2],
            facts.min_counts[2],
            facts.shape_counts[3],
            facts.min_counts[3],
            facts.shape_counts[4],
            facts.min_counts[4]
        ),
        if args.leave_out.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = args.leave_out.iter().map(|g| g.name()).collect();
            format!("left out (gamma 1): {}", names.join(" "))
        },
        format!(
            "mm: {} rounds, training mean log-likelihood {:.4}",
            args.iterations, facts.last_ll
        ),
        match (&args.factors, facts.factor_ll) {
            (Some(fit), Some(ll)) => format!(
                "factors: {} per feature, {} passes of gradient descent (rate {}, \
                 regularization {}, {} thread{}), last pass's training mean log-likelihood \
                 {ll:.4}; none where all are under {}",
                fit.dims,
                fit.epochs,
                fit.rate,
                fit.regularization,
                args.threads,
                if args.threads == 1 { "" } else { "s" },
                fit.min
            ),
            _ => String::new(),
        },
        format!(
            "held-out test ({} games): {}",
            facts.test,
            facts.prediction.summary()
        ),
        format!("training time: {:.0} s", facts.seconds),
    ];
    header.retain(|l: &String| !l.is_empty());
    header
}
