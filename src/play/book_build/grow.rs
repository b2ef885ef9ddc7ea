//! Growing the 9x9 book by hane's own long searches (`hane book build9`): positions
//! visited breadth first from the empty board, each searched once with a fixed seed and
//! checkpointed into the book, the moves to follow chosen by win rate (or, per colour, the
//! other side's replies sampled by short searches), a resumed run checked against the
//! parameters it was started with, and the tree cut into shards at a given depth.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::ProgressBar;

use super::write_book;
use crate::board::{Color, GameState, Move, Rules};
use crate::log::progress_bar;
use crate::pattern::PatternTables;
use crate::play::book::{self, Book, BookMove, BookUse, RulesScope, Scope, canonical};
use crate::search::{SearchControl, SearchLimits, SearchResult, Searcher};
use crate::settings::{Auto, Settings};

/// How `build9` grows its book (the options of `hane book build9`).
#[derive(Clone, Debug)]
pub struct Build9Options {
    /// The output folder: `book.txt` (the checkpoint) and `params.txt`.
    pub out: PathBuf,
    /// Komi of the book's games.
    pub komi: f32,
    /// Search positions up to this many moves deep.
    pub depth: usize,
    /// Follow at most this many moves of each position.
    pub width: usize,
    /// An alternative is followed when its win rate is within this margin of the best
    /// move's and it got at least `min_share` of its playouts.
    pub margin: f32,
    pub min_share: f64,
    /// Playouts of each position's search.
    pub playouts: u64,
    /// Search settings (threads and tree reuse are set by the builder).
    pub settings: Settings,
    /// Base seed of the searches.
    pub seed: u64,
    /// Build only shard K of N (`(1, 1)`: the whole book).
    pub shard: (usize, usize),
    /// Stop after searching this many positions in this run (0: no limit).
    pub max_positions: usize,
    /// The depth at which the tree is cut into shards.
    pub split_depth: usize,
    /// Grow one tree per colour, the other side's moves sampled by this many short
    /// searches (0: follow `width` alternatives).
    pub samples: usize,
    /// Playouts of each short search of `samples`.
    pub sample_playouts: u64,
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

/// Grows the 9x9 book of hane's searches in `args.out`, resuming from the checkpoint there.
pub fn build9(args: &Build9Options) -> Result<(), String> {
    let clock = Instant::now();
    let (shard, shards) = args.shard;
    let mut settings = args.settings.clone();
    settings.game.threads = Auto::Value(1);
    settings.search.reuse = false;
    let patterns = crate::play::load_patterns(&settings)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let params = params_line(args, &settings);
    check_params(&args.out, &params)?;
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
    let mut grower = Grower {
        args,
        settings,
        patterns,
        rules,
        scope,
        book,
        book_path,
        comments,
        bar: progress_bar(1, "positions"),
        searched: 0,
        reused: 0,
    };
    grower.grow()?;
    grower.bar.finish_and_clear();
    write_book(&grower.book_path, &grower.book, &grower.comments)?;
    eprintln!(
        "{}: {} positions ({} searched now, {} from the checkpoint), shard \
         {shard}/{shards}, {:.0} s",
        grower.book_path.display(),
        grower.book.len(),
        grower.searched,
        grower.reused,
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The parameters that decide the book, as written in `params.txt`; a resumed run must
/// use the same.
fn params_line(args: &Build9Options, settings: &Settings) -> String {
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
    if args.samples > 0 {
        format!(
            "{} samples={} sample-playouts={}\n",
            params.trim_end(),
            args.samples,
            args.sample_playouts
        )
    } else {
        params
    }
}

/// Writes `params` into the folder `out`, or checks that a resumed build has the same.
fn check_params(out: &Path, params: &str) -> Result<(), String> {
    let params_path = out.join("params.txt");
    match std::fs::read_to_string(&params_path) {
        Ok(old) if old != params => {
            return Err(format!(
                "{} holds a book built with other parameters ({}); use another --out",
                out.display(),
                old.trim()
            ));
        }
        Ok(_) => {}
        Err(_) => std::fs::write(&params_path, params)
            .map_err(|e| format!("cannot write {}: {e}", params_path.display()))?,
    }
    Ok(())
}

/// A 9x9 book growing: the book so far (the checkpoint) and how the positions are searched.
struct Grower<'a> {
    args: &'a Build9Options,
    settings: Settings,
    patterns: PatternTables,
    rules: Rules,
    scope: Scope,
    book: Book,
    book_path: PathBuf,
    comments: Vec<String>,
    bar: ProgressBar,
    /// Positions searched in this run, and found in the checkpoint.
    searched: usize,
    reused: usize,
}

impl Grower<'_> {
    /// Visits the positions breadth first from the empty board, searching those of this
    /// shard that the book does not hold yet, and queues the moves to follow.
    fn grow(&mut self) -> Result<(), String> {
        let args = self.args;
        let (shard, shards) = args.shard;
        // Breadth first: (line, owner key at the split depth, the book's side in this tree
        // when replies are sampled).
        let roots: Vec<Option<Color>> = if args.samples > 0 {
            vec![Some(Color::Black), Some(Color::White)]
        } else {
            vec![None]
        };
        let mut queue: VecDeque<(Vec<Move>, Option<u64>, Option<Color>)> =
            roots.iter().map(|&side| (Vec::new(), None, side)).collect();
        let mut visited: HashSet<(u64, Option<Color>)> = HashSet::new();
        let mut queued = roots.len() as u64;
        while let Some((line, owner, side)) = queue.pop_front() {
            self.bar.inc(1);
            let mut state = book::replay(9, &line)?;
            state.set_rules(self.rules);
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
            let Some(moves) = self.position_moves(&line, &state, key, ours)? else {
                continue;
            };
            if line.len() + 1 < args.depth {
                for mv in self.next_moves(&moves, side, &state, key) {
                    let mut child = line.clone();
                    child.push(mv);
                    queue.push_back((child, owner, side));
                    queued += 1;
                }
                self.bar.set_length(queued);
            }
        }
        Ok(())
    }

    /// The book moves of the position after `line` (canonical key `key`), in its frame:
    /// from the book, or, when the position is `ours` and the run's budget allows, from
    /// a new search, added to the book and checkpointed; `None` when there are none.
    fn position_moves(
        &mut self,
        line: &[Move],
        state: &GameState,
        key: u64,
        ours: bool,
    ) -> Result<Option<Vec<BookMove>>, String> {
        let args = self.args;
        let color = state.to_move();
        // In the frame of this line's position (found under symmetry and transposition).
        if let Some(moves) = self
            .book
            .section_mut(self.scope)
            .lookup(state.board(), color)
        {
            self.reused += 1;
            return Ok(Some(moves));
        }
        if !ours || (args.max_positions != 0 && self.searched >= args.max_positions) {
            return Ok(None);
        }
        let result = self.search(state, color, args.playouts, args.seed ^ key);
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
            return Ok(None);
        }
        self.book
            .section_mut(self.scope)
            .insert(line.to_vec(), moves.clone())?;
        write_book(&self.book_path, &self.book, &self.comments)?;
        self.searched += 1;
        self.report(line, state, &moves);
        Ok(Some(moves))
    }

    /// Shows a newly searched position and its best moves.
    fn report(&self, line: &[Move], state: &GameState, moves: &[BookMove]) {
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
        if self.bar.is_hidden() {
            eprintln!("{report}");
        } else {
            self.bar.println(report);
        }
    }

    /// The moves to follow from a position with book moves `moves`: the best ones within
    /// the margin, or, in a tree of the book's `side`, its best move and the other side's
    /// sampled replies.
    fn next_moves(
        &self,
        moves: &[BookMove],
        side: Option<Color>,
        state: &GameState,
        key: u64,
    ) -> Vec<Move> {
        let args = self.args;
        let color = state.to_move();
        match side {
            None => followed(moves, args.width, args.margin, args.min_share),
            Some(side) => {
                let mut next = followed(moves, 1, 0.0, 1.0);
                if side != color {
                    // The replies of short searches (seeded by the position, so that
                    // a resumed run follows the same ones).
                    for k in 0..args.samples as u64 {
                        let seed = args.seed ^ key ^ (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        let mv = self.search(state, color, args.sample_playouts, seed).best;
                        if mv != Move::Pass && !next.contains(&mv) {
                            next.push(mv);
                        }
                    }
                }
                next
            }
        }
    }

    /// A fresh one-thread search of `playouts` playouts with `seed`.
    fn search(&self, state: &GameState, color: Color, playouts: u64, seed: u64) -> SearchResult {
        let mut searcher = Searcher::new(crate::play::search_config(
            &self.settings,
            self.patterns.clone(),
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
    }
}
