//! Game review: hane analyses every position of a game record and says, move by move, how
//! much each move lost against its own choice. This file owns the plan of a review (the
//! record's rules, komi and setup, the moves to review, the search budget and the seed of
//! each position), running the analyses (in parallel, one searcher per position) and the
//! loss and mark computation; [`sgf_out`] writes the annotated record (Sabaki's `SBKV`
//! win rates, comments, variations, move marks), [`chart`] the SVG chart of the win rate
//! and score lead, and [`summary`] the text summary of each player's mistakes.
//!
//! # Definitions
//!
//! Position `p` is the position after `p` moves of the record (position 0: the start,
//! setup stones placed). It is searched for the player who moves next in the record (the
//! colour of move `p + 1`; after the last move, the player to move). Its **value** is the
//! win rate and score lead of the search's best move (the most visited), turned to
//! black's view. For move `k` (1-based), "before" is the value of position `k - 1` and
//! "after" the value of position `k`; the **loss** of move `k` for its player is the value
//! of the best move (before) less the value after the move played, both from that player's
//! view, in win rate and in points of score lead. Searches are noisy: a loss may come out
//! negative (the move looked better after it was played); marks and averages count such a
//! loss as zero.
//!
//! Every position gets the same budget (the `playouts` or `time` setting; early stopping
//! off) and a fresh searcher whose seed is derived from the review's seed and the
//! position's number, so that with playouts and one thread per job a review repeats
//! exactly, whatever the number of jobs.

pub mod chart;
pub mod sgf_out;
pub mod summary;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::board::{Color, GameState, Move, Rules};
use crate::pattern::PatternTables;
use crate::play::{load_patterns, search_config};
use crate::search::{Analysis, MoveInfo, SearchControl, SearchLimits, Searcher};
use crate::settings::{Auto, Settings};
use crate::sgf::SgfGame;

/// Playouts per position when neither `playouts` nor `time` is given.
pub const DEFAULT_PLAYOUTS: u64 = 1000;

/// The seed of a review when the `seed` setting is not given: reviews repeat by default.
pub const DEFAULT_SEED: u64 = 1;

/// Moves of hane's principal variation shown in comments and variations.
pub const PV_MOVES: usize = 10;

/// A position's value from black's view: its best move's win rate in [0, 1] and score lead
/// in points (`None` when no playout reached the end of the game).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    pub winrate: f32,
    pub lead: Option<f32>,
}

impl Value {
    /// The value from `color`'s view (black's is the stored one).
    pub fn for_color(self, color: Color) -> Value {
        match color {
            Color::Black => self,
            Color::White => Value {
                winrate: 1.0 - self.winrate,
                lead: self.lead.map(|l| -l),
            },
        }
    }
}

/// The analysis of one position.
#[derive(Clone, Debug)]
pub struct PositionReview {
    /// Moves of the record played before it.
    pub index: usize,
    /// The player it was searched for.
    pub to_move: Color,
    /// Its value (its best move's), from black's view.
    pub value: Value,
    /// The search's report, from `to_move`'s view.
    pub analysis: Analysis,
}

impl PositionReview {
    /// Position `index` from the search's `analysis` for `analysis.color`.
    pub fn new(index: usize, analysis: Analysis) -> PositionReview {
        let own = match analysis.moves.first() {
            Some(best) => Value {
                winrate: best.winrate,
                lead: best.score_lead.or(analysis.score_lead),
            },
            None => Value {
                winrate: analysis.winrate,
                lead: analysis.score_lead,
            },
        };
        PositionReview {
            index,
            to_move: analysis.color,
            value: own.for_color(analysis.color),
            analysis,
        }
    }

    /// The search's best move, if it searched any.
    pub fn best(&self) -> Option<&MoveInfo> {
        self.analysis.moves.first()
    }
}

/// When a move gets a mark: `BM` (bad move), `DO` (doubtful) or `TE` (tesuji). The default
/// is 9x9's; see [`Thresholds::for_board`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// A bad move loses at least this much win rate (in [0, 1]) ...
    pub bad_winrate: f32,
    /// ... or at least this many points.
    pub bad_points: f32,
    /// A doubtful move (not bad) loses at least this much win rate ...
    pub doubtful_winrate: f32,
    /// ... or at least this many points.
    pub doubtful_points: f32,
    /// A tesuji is hane's first choice in a close position: its player's win rate before
    /// the move within this distance of 50% ...
    pub close: f32,
    /// ... where hane's second choice is at least this much win rate worse.
    pub tesuji_margin: f32,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            bad_winrate: 0.15,
            bad_points: 10.0,
            doubtful_winrate: 0.07,
            doubtful_points: 5.0,
            close: 0.10,
            tesuji_margin: 0.05,
        }
    }
}

impl Thresholds {
    /// The thresholds of a board of `size`: the default ones (9x9's) with the points scaled
    /// by `size / 9` (rounded to half points), as the searches' score leads spread wider on
    /// larger boards: 21 and 10.5 points on 19x19.
    pub fn for_board(size: usize) -> Thresholds {
        let scale = |points: f32| (points * size as f32 / 9.0 * 2.0).round() / 2.0;
        let nine = Thresholds::default();
        Thresholds {
            bad_points: scale(nine.bad_points),
            doubtful_points: scale(nine.doubtful_points),
            ..nine
        }
    }
}

/// How a review measures a move's loss and marks it, for `hane review --help`: the
/// thresholds are [`Thresholds::default`] and [`Thresholds::for_board`]'s, so that the text
/// says what the code does.
pub fn marks_help() -> String {
    let t = Thresholds::default();
    let big = Thresholds::for_board(19);
    let pct = |share: f32| (share * 100.0).round();
    format!(
        "The loss of a move is hane's value of the position before it (its best move's win\n\
         rate and score lead) less its value of the position after it, both for the player\n\
         who moved; a negative loss (search noise) counts as zero. Marks (points for 9x9,\n\
         scaled by size / 9 on other boards: {} and {} on 19x19):\n  \
         BM[1]  bad move: not hane's choice, and loses at least {}% win rate or {} points\n  \
         DO[]   doubtful move: not hane's choice, and loses at least {}% win rate or {} points\n  \
         TE[1]  tesuji: hane's first choice in a close position (the mover's win rate\n         \
         within {}% of 50%), where hane's second choice was at least {}% worse",
        big.bad_points,
        big.doubtful_points,
        pct(t.bad_winrate),
        t.bad_points,
        pct(t.doubtful_winrate),
        t.doubtful_points,
        pct(t.close),
        pct(t.tesuji_margin),
    )
}

/// A move's mark in the annotated record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `BM[1]`: lost at least [`Thresholds::bad_winrate`] or [`Thresholds::bad_points`].
    Bad,
    /// `DO[]`: lost at least [`Thresholds::doubtful_winrate`] or
    /// [`Thresholds::doubtful_points`].
    Doubtful,
    /// `TE[1]`: hane's choice in a close position, where the runner-up was clearly worse.
    Tesuji,
}

impl Mark {
    /// Its name in a comment.
    pub fn describe(self) -> &'static str {
        match self {
            Mark::Bad => "bad move",
            Mark::Doubtful => "doubtful move",
            Mark::Tesuji => "tesuji (hane's choice, the only good move in a close position)",
        }
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Its number in the record (1-based).
    pub number: usize,
    pub color: Color,
    pub played: Move,
    /// hane's choice in the position before it (`None` when the search found no move).
    pub best: Option<Move>,
    /// hane's principal variation from that position, starting with `best`.
    pub pv: Vec<Move>,
    /// The value before the move (black's view).
    pub before: Value,
    /// The value after the move (black's view).
    pub after: Value,
    /// The win rate the move lost for its player (negative: it gained, by the searches'
    /// noise).
    pub winrate_loss: f32,
    /// The points of score lead the move lost for its player.
    pub points_loss: Option<f32>,
    pub mark: Option<Mark>,
}

impl MoveReview {
    /// Whether the move played was hane's first choice.
    pub fn matched(&self) -> bool {
        self.best == Some(self.played)
    }

    /// The loss in win rate, noise below zero counted as zero.
    pub fn winrate_loss_clamped(&self) -> f32 {
        self.winrate_loss.max(0.0)
    }

    /// The loss in points, noise below zero counted as zero.
    pub fn points_loss_clamped(&self) -> Option<f32> {
        self.points_loss.map(|l| l.max(0.0))
    }
}

/// Reviews move `number`, played by `color`, from the analyses of the positions before
/// and after it.
pub fn review_move(
    number: usize,
    (color, played): (Color, Move),
    before: &PositionReview,
    after: &PositionReview,
    thresholds: &Thresholds,
) -> MoveReview {
    let own_before = before.value.for_color(color);
    let own_after = after.value.for_color(color);
    let winrate_loss = own_before.winrate - own_after.winrate;
    let points_loss = own_before.lead.zip(own_after.lead).map(|(b, a)| b - a);
    let best = before.best();
    let mut review = MoveReview {
        number,
        color,
        played,
        best: best.map(|m| m.mv),
        pv: best.map_or_else(Vec::new, |m| m.pv.iter().copied().take(PV_MOVES).collect()),
        before: before.value,
        after: after.value,
        winrate_loss,
        points_loss,
        mark: None,
    };
    review.mark = mark(&review, before, thresholds);
    review
}

/// The mark of `review` (see [`Thresholds`]).
fn mark(review: &MoveReview, before: &PositionReview, t: &Thresholds) -> Option<Mark> {
    let wr = review.winrate_loss_clamped();
    let points = review.points_loss_clamped().unwrap_or(0.0);
    if review.matched() {
        // Searched for the mover: the candidates' win rates are the mover's.
        let moves = before.analysis.moves.as_slice();
        let own = before.value.for_color(review.color).winrate;
        let close = (own - 0.5).abs() <= t.close;
        let clearly_best = match moves {
            [first, second, ..] => first.winrate - second.winrate >= t.tesuji_margin,
            _ => false,
        };
        (close && clearly_best).then_some(Mark::Tesuji)
    } else if wr >= t.bad_winrate || points >= t.bad_points {
        Some(Mark::Bad)
    } else if wr >= t.doubtful_winrate || points >= t.doubtful_points {
        Some(Mark::Doubtful)
    } else {
        None
    }
}

/// What a review runs with.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// The engine's settings: the search's, its budget per position (`playouts`, `time`),
    /// `threads` per job, `seed`, and the `rules` and `komi` of a record that names none.
    pub settings: Settings,
    /// The first move reviewed (1-based; default 1).
    pub from: Option<usize>,
    /// The last move reviewed (default: the last of the record).
    pub to: Option<usize>,
    /// Positions analysed at once.
    pub jobs: usize,
    pub thresholds: Thresholds,
}

/// A review ready to run: the record checked, the settings resolved.
pub struct Plan {
    pub game: SgfGame,
    /// The rules the record is replayed under, its komi included.
    pub rules: Rules,
    /// Notes on the record (a rule set hane does not know, a missing komi).
    pub notes: Vec<String>,
    pub from: usize,
    pub to: usize,
    pub jobs: usize,
    /// The settings of each position's search (one thread unless `threads` was given,
    /// early stopping off, a budget).
    pub settings: Settings,
    pub seed: u64,
    pub thresholds: Thresholds,
    patterns: PatternTables,
}

/// A finished review.
#[derive(Clone, Debug)]
pub struct Review {
    pub game: SgfGame,
    pub rules: Rules,
    pub notes: Vec<String>,
    pub from: usize,
    pub to: usize,
    /// The budget per position.
    pub playouts: Option<u64>,
    pub time: Option<f64>,
    pub seed: u64,
    pub thresholds: Thresholds,
    /// Positions `from - 1` to `to`, in order.
    pub positions: Vec<PositionReview>,
    /// Moves `from` to `to`, in order.
    pub moves: Vec<MoveReview>,
}

impl Review {
    /// The analysis of position `index` (after `index` moves), when reviewed.
    pub fn position(&self, index: usize) -> Option<&PositionReview> {
        index
            .checked_sub(self.from - 1)
            .and_then(|k| self.positions.get(k))
    }

    /// The review of move `number`, when reviewed.
    pub fn move_review(&self, number: usize) -> Option<&MoveReview> {
        number
            .checked_sub(self.from)
            .and_then(|k| self.moves.get(k))
    }
}

/// The rules of `game`: its `RU` when hane knows the name (`Japanese` and `Korean` are
/// played as Chinese: hane scores by area), else the `rules` setting; its `KM`, else the
/// `komi` setting. Notes say where the record was silent or unknown.
fn record_rules(game: &SgfGame, settings: &Settings, notes: &mut Vec<String>) -> Rules {
    let mut rules = match game.rules.as_deref().map(str::trim) {
        None | Some("") => settings.game.rules,
        Some(name) => match name.parse::<Rules>() {
            Ok(rules) => rules,
            Err(_) => {
                notes.push(format!(
                    "the record's rules {name:?} are unknown to hane: reviewed under {}",
                    settings.game.rules.name()
                ));
                settings.game.rules
            }
        },
    };
    rules.komi = match game.komi {
        Some(komi) => komi,
        None => {
            notes.push(format!(
                "the record gives no komi: reviewed with komi {}",
                settings.game.komi
            ));
            settings.game.komi
        }
    };
    rules
}

/// Checks `game` and `options` and resolves the settings: the record must replay (an
/// illegal move is an error naming its number), the range must lie within its moves.
pub fn plan(game: SgfGame, options: &ReviewOptions) -> Result<Plan, String> {
    let mut notes = Vec::new();
    let rules = record_rules(&game, &options.settings, &mut notes);
    game.replay(rules, None).map_err(|e| e.to_string())?;
    let count = game.moves.len();
    if count == 0 {
        return Err("the record has no moves to review".to_string());
    }
    let from = options.from.unwrap_or(1);
    let to = options.to.unwrap_or(count);
    if from == 0 || from > count {
        return Err(format!("--from {from}: the record has moves 1 to {count}"));
    }
    if to < from || to > count {
        return Err(format!(
            "--to {to}: the record has moves 1 to {count}, and --to may not be before --from ({from})"
        ));
    }
    let mut settings = options.settings.clone();
    if settings.game.threads == Auto::Auto {
        settings.game.threads = Auto::Value(1);
    }
    if settings.game.playouts.is_none() && settings.game.time.is_none() {
        settings.game.playouts = Some(DEFAULT_PLAYOUTS);
    }
    // Every position gets the whole budget.
    settings.search.early_stop = false;
    let patterns = load_patterns(&settings)?;
    Ok(Plan {
        game,
        rules,
        notes,
        from,
        to,
        jobs: options.jobs.max(1),
        seed: settings.game.seed.unwrap_or(DEFAULT_SEED),
        settings,
        thresholds: options.thresholds,
        patterns,
    })
}

/// The seed of position `index`'s search in a review seeded with `seed` (SplitMix64 of
/// the pair).
pub fn position_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Plan {
    /// How many positions the review searches.
    pub fn positions(&self) -> usize {
        self.to - self.from + 2
    }

    /// The search limits of every position.
    fn limits(&self) -> SearchLimits {
        let cap = Duration::from_secs_f64(self.settings.game.max_move_time);
        let time = self
            .settings
            .game
            .time
            .map_or(cap, |t| Duration::from_secs_f64(t).min(cap));
        SearchLimits {
            playouts: self.settings.game.playouts,
            time: Some(time),
            ..SearchLimits::default()
        }
    }

    /// Position `index` (after `index` moves) and the player to search it for.
    fn position(&self, index: usize) -> Result<(GameState, Color), String> {
        let state = self
            .game
            .replay(self.rules, Some(index + 1))
            .map_err(|e| e.to_string())?;
        let color = self
            .game
            .moves
            .get(index)
            .map_or(state.to_move(), |&(c, _)| c);
        Ok((state, color))
    }

    /// Searches position `index` with a searcher of its own.
    fn analyse(&self, index: usize) -> Result<PositionReview, String> {
        let (state, color) = self.position(index)?;
        let config = search_config(
            &self.settings,
            self.patterns.clone(),
            position_seed(self.seed, index),
        );
        let mut searcher = Searcher::new(config);
        let analysis = searcher.analyze(
            &state,
            color,
            &self.limits(),
            &SearchControl::default(),
            &mut |_| {},
        );
        Ok(PositionReview::new(index, analysis))
    }

    /// Runs the review: positions `from - 1` to `to` searched by `jobs` threads, calling
    /// `progress` after each.
    pub fn run(self, progress: &(dyn Fn() + Sync)) -> Result<Review, String> {
        let first = self.from - 1;
        let count = self.positions();
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<Result<PositionReview, String>>>> =
            Mutex::new(vec![None; count]);
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.min(count) {
                scope.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= count {
                            break;
                        }
                        let result = self.analyse(first + k);
                        results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(result);
                        progress();
                    }
                });
            }
        });
        let positions = results
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err("a position was not analysed".to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        let moves = (self.from..=self.to)
            .map(|number| {
                let k = number - self.from;
                review_move(
                    number,
                    self.game.moves[number - 1],
                    &positions[k],
                    &positions[k + 1],
                    &self.thresholds,
                )
            })
            .collect();
        Ok(Review {
            playouts: self.settings.game.playouts,
            time: self.settings.game.time,
            game: self.game,
            rules: self.rules,
            notes: self.notes,
            from: self.from,
            to: self.to,
            seed: self.seed,
            thresholds: self.thresholds,
            positions,
            moves,
        })
    }
}

/// The files a review writes, named after the record `GAME.sgf`: `GAME-review.sgf`,
/// `GAME-review.svg` and `GAME-review.txt` in `out` (default: `GAME-review/` beside the
/// record).
#[derive(Clone, Debug)]
pub struct OutputPaths {
    pub dir: PathBuf,
    pub sgf: PathBuf,
    pub svg: PathBuf,
    pub text: PathBuf,
}

impl OutputPaths {
    pub fn new(record: &Path, out: Option<&Path>) -> OutputPaths {
        let stem = record
            .file_stem()
            .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
        let base = format!("{stem}-review");
        let dir = match out {
            Some(dir) => dir.to_path_buf(),
            None => record.parent().unwrap_or_else(|| Path::new("")).join(&base),
        };
        OutputPaths {
            sgf: dir.join(format!("{base}.sgf")),
            svg: dir.join(format!("{base}.svg")),
            text: dir.join(format!("{base}.txt")),
            dir,
        }
    }

    /// Writes the three files: each to a temporary name first, renamed into place once all
    /// are written, so that a failure leaves no half-written review.
    pub fn write(&self, sgf: &str, svg: &str, text: &str) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let files = [(&self.sgf, sgf), (&self.svg, svg), (&self.text, text)];
        let temporary = |path: &Path| {
            let mut name = path.as_os_str().to_owned();
            name.push(".part");
            PathBuf::from(name)
        };
        for (path, content) in files {
            if let Err(e) = std::fs::write(temporary(path), content) {
                for (p, _) in files {
                    let _ = std::fs::remove_file(temporary(p));
                }
                return Err(format!("cannot write {}: {e}", path.display()));
            }
        }
        for (path, _) in files {
            std::fs::rename(temporary(path), path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn the_marks_help_gives_the_thresholds_in_use() {
        let help = marks_help();
        assert!(
            help.contains("at least 15% win rate or 10 points"),
            "{help}"
        );
        assert!(help.contains("at least 7% win rate or 5 points"), "{help}");
        assert!(help.contains("21 and 10.5 on 19x19"), "{help}");
        assert!(help.contains("within 10% of 50%"), "{help}");
    }

    fn info(mv: Move, winrate: f32, lead: f32) -> MoveInfo {
        MoveInfo {
            mv,
            visits: 100,
            winrate,
            prior: 0.1,
            lcb: winrate,
            pv: vec![mv],
            pv_visits: vec![100],
            score_lead: Some(lead),
        }
    }

    /// Position `index` searched for `color`, whose candidates are `moves` (own view).
    fn position(index: usize, color: Color, moves: Vec<MoveInfo>) -> PositionReview {
        PositionReview::new(index, Analysis::of_moves(color, 100, moves))
    }

    fn mv(text: &str) -> Move {
        Move::parse(Geometry::new(9).unwrap(), text).unwrap()
    }

    #[test]
    fn values_are_turned_to_blacks_view() {
        let p = position(1, Color::White, vec![info(mv("C3"), 0.7, 4.0)]);
        assert_eq!(p.value.winrate, 1.0 - 0.7);
        assert_eq!(p.value.lead, Some(-4.0));
        assert_eq!(p.value.for_color(Color::White).lead, Some(4.0));
    }

    #[test]
    fn the_loss_is_the_best_value_less_the_value_after() {
        let t = Thresholds::default();
        // Black to move: best C3 at 60% and +3; after D4, white's best is at 65% and +2.
        let before = position(
            0,
            Color::Black,
            vec![info(mv("C3"), 0.6, 3.0), info(mv("D4"), 0.58, 2.0)],
        );
        let after = position(1, Color::White, vec![info(mv("E5"), 0.65, 2.0)]);
        let r = review_move(1, (Color::Black, mv("D4")), &before, &after, &t);
        assert!((r.winrate_loss - 0.25).abs() < 1e-6, "{r:?}");
        assert_eq!(r.points_loss, Some(5.0));
        assert_eq!(r.mark, Some(Mark::Bad));
        assert!(!r.matched());
        assert_eq!(r.best, Some(mv("C3")));
        // White's move: the loss is from white's view.
        let after2 = position(2, Color::Black, vec![info(mv("F6"), 0.37, -2.5)]);
        let r2 = review_move(2, (Color::White, mv("E5")), &after, &after2, &t);
        assert!((r2.winrate_loss - 0.02).abs() < 1e-6, "{r2:?}");
        assert_eq!(r2.points_loss, Some(-0.5));
        assert_eq!(r2.points_loss_clamped(), Some(0.0));
        assert_eq!(r2.mark, None);
    }

    #[test]
    fn marks_follow_the_thresholds() {
        let t = Thresholds::default();
        let before = |moves| position(4, Color::Black, moves);
        let after = |wr: f32, lead: f32| position(5, Color::White, vec![info(mv("J9"), wr, lead)]);
        let choice = vec![info(mv("C3"), 0.5, 0.0), info(mv("G7"), 0.4, -1.0)];
        let cases = [
            // (move, white's win rate and lead after, mark)
            ("D4", 0.58, 1.0, Some(Mark::Doubtful)),
            ("D4", 0.52, 6.0, Some(Mark::Doubtful)),
            ("D4", 0.52, 1.0, None),
            ("D4", 0.66, 1.0, Some(Mark::Bad)),
            ("D4", 0.52, 11.0, Some(Mark::Bad)),
            // hane's choice in a close position, the runner-up 10% worse.
            ("C3", 0.52, 1.0, Some(Mark::Tesuji)),
        ];
        for (played, wr, lead, want) in cases {
            let r = review_move(
                5,
                (Color::Black, mv(played)),
                &before(choice.clone()),
                &after(wr, lead),
                &t,
            );
            assert_eq!(r.mark, want, "{played} {wr} {lead}: {r:?}");
        }
        // hane's choice in a lopsided position, or with a close runner-up: no mark.
        let lopsided = vec![info(mv("C3"), 0.9, 10.0), info(mv("G7"), 0.5, 0.0)];
        let r = review_move(
            5,
            (Color::Black, mv("C3")),
            &before(lopsided),
            &after(0.1, -10.0),
            &t,
        );
        assert_eq!(r.mark, None);
        let runner_up = vec![info(mv("C3"), 0.5, 0.0), info(mv("G7"), 0.48, 0.0)];
        let r = review_move(
            5,
            (Color::Black, mv("C3")),
            &before(runner_up),
            &after(0.5, 0.0),
            &t,
        );
        assert_eq!(r.mark, None);
    }

    #[test]
    fn point_thresholds_grow_with_the_board() {
        let nine = Thresholds::for_board(9);
        assert_eq!(nine, Thresholds::default());
        let big = Thresholds::for_board(19);
        assert_eq!((big.bad_points, big.doubtful_points), (21.0, 10.5));
        assert_eq!(big.bad_winrate, nine.bad_winrate);
        assert_eq!(Thresholds::for_board(13).bad_points, 14.5);
    }

    #[test]
    fn position_seeds_differ_and_repeat() {
        assert_eq!(position_seed(1, 5), position_seed(1, 5));
        assert_ne!(position_seed(1, 5), position_seed(1, 6));
        assert_ne!(position_seed(1, 5), position_seed(2, 5));
    }

    #[test]
    fn plans_check_the_range_and_the_record() {
        let game = crate::sgf::parse_game("(;SZ[9]KM[6.5]RU[Japanese];B[ee];W[cc];B[gg])").unwrap();
        let options = ReviewOptions {
            settings: Settings::default(),
            from: None,
            to: None,
            jobs: 1,
            thresholds: Thresholds::default(),
        };
        let plan = plan(game.clone(), &options).unwrap();
        assert_eq!((plan.from, plan.to, plan.positions()), (1, 3, 4));
        assert_eq!(plan.rules.komi, 6.5);
        assert_eq!(plan.settings.game.threads, Auto::Value(1));
        assert_eq!(plan.settings.game.playouts, Some(DEFAULT_PLAYOUTS));
        assert!(plan.notes.is_empty(), "{:?}", plan.notes);
        for (from, to) in [
            (Some(0), None),
            (Some(4), None),
            (Some(2), Some(1)),
            (None, Some(4)),
        ] {
            let options = ReviewOptions {
                from,
                to,
                ..options.clone()
            };
            assert!(
                super::plan(game.clone(), &options).is_err(),
                "{from:?} {to:?}"
            );
        }
        let illegal = crate::sgf::parse_game("(;SZ[9];B[ee];W[ee])").unwrap();
        let err = super::plan(illegal, &options).err().unwrap();
        assert!(err.contains("move 2"), "{err}");
        let odd = crate::sgf::parse_game("(;SZ[9]RU[Ing];B[ee])").unwrap();
        let notes = super::plan(odd, &options).unwrap().notes;
        assert_eq!(notes.len(), 2, "{notes:?}");
    }

    #[test]
    fn a_short_review_runs_and_repeats() {
        let game = crate::sgf::parse_game("(;SZ[7]KM[7.5];B[dd];W[cc];B[ee];W[ce])").unwrap();
        let mut settings = Settings::default();
        settings.game.playouts = Some(60);
        let options = ReviewOptions {
            settings,
            from: Some(2),
            to: None,
            jobs: 2,
            thresholds: Thresholds::default(),
        };
        let done = AtomicUsize::new(0);
        let progress = || {
            done.fetch_add(1, Ordering::Relaxed);
        };
        let review = plan(game.clone(), &options)
            .unwrap()
            .run(&progress)
            .unwrap();
        assert_eq!(done.load(Ordering::Relaxed), 4);
        assert_eq!(review.positions.len(), 4);
        assert_eq!(review.moves.len(), 3);
        assert_eq!(review.moves[0].number, 2);
        assert_eq!(review.positions[0].to_move, Color::White);
        assert!(review.move_review(1).is_none() && review.move_review(4).is_some());
        assert_eq!(review.position(1).unwrap().index, 1);
        let one_job = ReviewOptions { jobs: 1, ..options };
        let again = plan(game, &one_job).unwrap().run(&|| {}).unwrap();
        assert_eq!(again.moves, review.moves, "the same seeds, the same review");
    }
}
