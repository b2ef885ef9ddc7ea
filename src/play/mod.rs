//! Playing a game: choosing a move in a game under a budget. [`Player`] owns the searcher,
//! turns the settings and the clock into the search's limits (one budget rule), applies the
//! pass, resign and cleanup rules to the search's choice ([`judge`]) and judges dead stones
//! and the final score. It consults the opening book ([`book`]) first: a 9x9 book move is
//! played at once, a 19x19 book gives the search's root moves a prior. In handicap games it
//! gives the search's komi an offset ([`dynkomi`]), kept and adapted across the moves of a
//! game; the resign rule then counts a move as hopeless only when it is lost under both the
//! real komi and the offset one, so that an offset never makes hane resign. The GTP engine and
//! the match runner's in-process player are thin adapters over it; the clock arithmetic
//! both they and the referee use is [`clock`].

pub mod book;
pub mod book_build;
pub mod clock;
pub mod dynkomi;
pub mod judge;

use std::sync::Arc;
use std::time::Duration;

use crate::board::{Color, GameState, Move};
use crate::pattern::{self, PatternTables};
use crate::search::avoid::AvoidMoves;
use crate::search::priors::Prior;
use crate::search::{
    Analysis, MoveInfo, RootPrior, SearchConfig, SearchControl, SearchLimits, SearchResult,
    Searcher,
};
use crate::settings::{BookSource, Settings};

use book::{Book, BookHit, BookMove, BookUse};
use clock::MoveTime;
use dynkomi::DynamicKomi;
use judge::{EndRules, Judgement};

/// Thinking time per move when neither the settings nor a clock limit it.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// The pattern tables `settings` name: the file of their `patterns` setting (one table
/// for every board size), or the compiled-in pair. The error names the setting and the
/// file.
pub fn load_patterns(settings: &Settings) -> Result<PatternTables, String> {
    match &settings.game.patterns {
        None => Ok(pattern::PatternTables::Builtin),
        Some(path) => pattern::load_bounded(path, settings.game.max_data_bytes.0)
            .map(PatternTables::from)
            .map_err(|e| {
                format!(
                    "cannot use the pattern table {} (setting patterns): {e}",
                    path.display()
                )
            }),
    }
}

/// The search `settings` describe (their search part, on their number of threads), with
/// `patterns` and `seed`.
pub fn search_config(
    settings: &Settings,
    patterns: impl Into<PatternTables>,
    seed: u64,
) -> SearchConfig {
    SearchConfig::new(
        settings.search.clone(),
        settings.game.thread_count(),
        patterns,
        seed,
    )
}

/// The opening book `settings` name: the compiled-in books, none (`book=off`) or the file
/// of their `book` setting. The error names the setting, the file and the line.
pub fn load_book(settings: &Settings) -> Result<Option<Arc<Book>>, String> {
    match &settings.game.book {
        BookSource::Builtin => Ok(Some(Book::builtin())),
        BookSource::Off => Ok(None),
        BookSource::File(path) => Book::load_bounded(path, settings.game.max_data_bytes.0)
            .map(|b| Some(Arc::new(b)))
            .map_err(|e| format!("cannot use the opening book (setting book): {e}")),
    }
}

/// A progress callback for a move's search and how often to call it.
pub type Report<'a> = (Duration, &'a mut dyn FnMut(&Analysis));

/// What kind of move is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// An ordinary move (`genmove`, a match move): may resign.
    Normal,
    /// `kgs-genmove_cleanup`: play on until the opponent's dead stones are gone; never
    /// resigns.
    Cleanup,
    /// `reg_genmove`: a fresh search (no tree kept), never resigns.
    Regression,
}

/// One move asked of a [`Player`].
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest {
    pub kind: MoveKind,
    /// The time the clock gives this move (`None`: no clock).
    pub clock: Option<MoveTime>,
    /// Never pass while the opponent has dead stones on the board (tournament rules on
    /// KGS).
    pub cleanup: bool,
}

impl MoveRequest {
    /// An ordinary move under `clock`.
    pub fn normal(clock: Option<MoveTime>) -> MoveRequest {
        MoveRequest {
            kind: MoveKind::Normal,
            clock,
            cleanup: false,
        }
    }
}

/// The move a [`Player`] chose.
#[derive(Clone, Debug)]
pub struct ChosenMove {
    /// The move to play (the pass rules applied).
    pub mv: Move,
    /// Whether to resign instead of playing `mv`.
    pub resign: bool,
    /// Whether hane is sure enough of winning to claim the game (`gomill-genmove_ex ...
    /// claim`): the mirror of resigning, `resign-moves` searches in a row whose win rate
    /// was above 1 - `resign-threshold`.
    pub claim: bool,
    /// The search behind it (for a book move: the book moves as the candidates, with
    /// their counts as visits, and no playouts).
    pub result: SearchResult,
    /// What the book said about the position, if it holds it.
    pub book: Option<BookNote>,
}

/// How the book took part in a move.
#[derive(Clone, Debug, PartialEq)]
pub struct BookNote {
    /// Whether the move was played from the book without a search (otherwise the book
    /// moves were a prior of the search).
    pub played: bool,
    pub hit: BookHit,
}

/// hane playing one game at a time (see the module documentation).
pub struct Player {
    settings: Settings,
    patterns: PatternTables,
    book: Option<Arc<Book>>,
    searcher: Searcher,
    seed: u64,
    judge_seed: u64,
    /// Moves in a row whose win rate was under the resign threshold.
    low_winrate_streak: u32,
    /// Moves in a row whose win rate was above 1 - the resign threshold.
    high_winrate_streak: u32,
    /// The game's dynamic komi.
    dynamic_komi: DynamicKomi,
    /// Moves the next [`Player::choose`] leaves out (see [`Player::set_avoid`]).
    avoid: AvoidMoves,
    /// The colour, search win rate and komi offset of the last counted search (for
    /// `time-drop`).
    last_search: Option<(Color, f32, f32)>,
}

impl Player {
    /// A player with `settings`, the pattern table they name (see [`load_patterns`]), the
    /// book they name (see [`load_book`]; a book file that cannot be read is logged and no
    /// book used: callers check it at start-up) and `seed` for its searches and judgements.
    pub fn new(settings: Settings, patterns: impl Into<PatternTables>, seed: u64) -> Player {
        let patterns = patterns.into();
        let config = search_config(&settings, patterns.clone(), seed);
        let book = load_book(&settings).unwrap_or_else(|e| {
            crate::log::log(crate::log::LogLevel::Error, format_args!("{e}"));
            None
        });
        Player {
            settings,
            patterns,
            book,
            searcher: Searcher::new(config),
            seed,
            judge_seed: seed,
            low_winrate_streak: 0,
            high_winrate_streak: 0,
            dynamic_komi: DynamicKomi::default(),
            avoid: AvoidMoves::new(),
            last_search: None,
        }
    }

    /// Leaves `avoid`'s moves out of the next move's search (only that one), which then
    /// does not play from the book: `kata-genmove_analyze ... avoid ...`.
    pub fn set_avoid(&mut self, avoid: AvoidMoves) {
        self.avoid = avoid;
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The seed of the searches.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The opening book in use.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// Replaces the opening book.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// What the book says about `color` to move in `state`.
    pub fn book_hit(&self, state: &GameState, color: Color) -> Option<BookHit> {
        self.book.as_ref()?.lookup(state, color)
    }

    /// The searcher, for analysis and pondering.
    pub fn searcher_mut(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// Starts a new game on a board of `size` lines: the kept tree, the resign count and the
    /// dynamic komi are forgotten, and the pattern table of that size is made ready.
    pub fn new_game(&mut self, size: usize) {
        self.searcher.prepare(size);
        self.searcher.clear();
        self.searcher.set_komi_offset(0.0);
        self.low_winrate_streak = 0;
        self.high_winrate_streak = 0;
        self.dynamic_komi.reset();
        self.last_search = None;
    }

    /// Gives the searches `seed` and the end-of-game judgements `judge_seed` from now on
    /// (the match runner gives every game its own).
    pub fn reseed(&mut self, seed: u64, judge_seed: u64) {
        self.seed = seed;
        self.judge_seed = judge_seed;
        self.searcher
            .set_config(search_config(&self.settings, self.patterns.clone(), seed));
    }

    /// Drops the searcher and its tree for a fresh one (after a fault).
    pub fn restart(&mut self) {
        self.searcher = Searcher::new(search_config(
            &self.settings,
            self.patterns.clone(),
            self.seed,
        ));
        self.low_winrate_streak = 0;
        self.high_winrate_streak = 0;
        self.last_search = None;
    }

    /// The search limits of one move: the clock's budget, the `time` setting (which caps
    /// both the plan and the clock's extension for an uncertain position) and the
    /// `playouts` setting, whichever ends first; [`DEFAULT_MOVE_TIME`] when none applies;
    /// never longer than the `max-move-time` setting.
    pub fn limits(&self, clock: Option<MoveTime>) -> SearchLimits {
        let own = self.settings.game.time.map(Duration::from_secs_f64);
        let (mut time, max_time) = match (clock, own) {
            (Some(c), Some(op)) => (Some(c.budget.min(op)), Some(c.max.min(op))),
            (Some(c), None) => (Some(c.budget), Some(c.max)),
            (None, op) => (op, None),
        };
        if time.is_none() && self.settings.game.playouts.is_none() {
            time = Some(DEFAULT_MOVE_TIME);
        }
        let cap = Duration::from_secs_f64(self.settings.game.max_move_time);
        SearchLimits {
            playouts: self.settings.game.playouts,
            time: Some(time.map_or(cap, |t| t.min(cap))),
            max_time: max_time.map(|m| m.min(cap)),
            ..SearchLimits::default()
        }
    }

    /// Chooses `color`'s move in `state` (without playing it): searches under the limits
    /// of `request` until they end or `control` stops it, calling `progress` every
    /// `report` interval, then applies the pass, cleanup and resign rules.
    pub fn choose(
        &mut self,
        state: &GameState,
        color: Color,
        request: &MoveRequest,
        control: &SearchControl,
        report: Option<Report<'_>>,
    ) -> ChosenMove {
        let avoid = std::mem::take(&mut self.avoid);
        // A search with moves left out (the user's, not the position's) keeps its bars for
        // a quick search and the end-of-game rules, and says nothing to the resign and
        // claim streaks or to the dynamic komi.
        let bars = (!avoid.is_empty()).then(|| avoid.clone());
        let hit = match request.kind {
            // A cleanup move follows the end-of-game rules, which a book move skips.
            MoveKind::Regression | MoveKind::Cleanup => None,
            _ if bars.is_some() => None,
            _ => self.book_hit(state, color),
        };
        self.searcher.set_avoid(avoid);
        if let Some(hit) = hit.clone()
            && let Some(choice) = hit.play_choice()
        {
            self.low_winrate_streak = 0;
            self.high_winrate_streak = 0;
            let result = book_result(state, color, &hit.moves);
            if let Some((_, callback)) = report {
                // One report, so that analysis streams show the book moves.
                callback(&result.analysis);
            }
            return ChosenMove {
                mv: choice.mv,
                resign: false,
                claim: false,
                result,
                book: Some(BookNote { played: true, hit }),
            };
        }
        let book = hit.filter(|h| h.use_ == BookUse::Prior);
        if let Some(hit) = &book {
            self.searcher.set_root_priors(book_priors(hit));
        }
        let mut limits = self.limits(request.clock);
        if request.kind == MoveKind::Regression {
            self.searcher.clear();
        }
        let offset = self.dynamic_komi.offset(&self.settings, state, color);
        if offset != self.searcher.komi_offset() {
            crate::log::log(
                crate::log::LogLevel::Info,
                format_args!(
                    "dynamic komi: the playouts score black with {offset:+} points on the \
                     game's komi {} (move {})",
                    state.komi(),
                    state.moves().len() + 1
                ),
            );
        }
        self.searcher.set_komi_offset(offset);
        limits.extend_below = self.extend_below(request, color, offset);
        let mut ignore = |_: &Analysis| {};
        let progress: &mut dyn FnMut(&Analysis) = match report {
            Some((interval, callback)) => {
                limits.report_interval = Some(interval);
                callback
            }
            None => &mut ignore,
        };
        let mut result = self
            .searcher
            .search(state, color, &limits, control, progress);
        if result.analysis.moves.is_empty() && !state.legal_points(color).is_empty() {
            // Stopped before anything was searched: a short search that cannot be stopped
            // gives the best move "so far", never longer than the clock's budget.
            let quick_time = limits.time.map_or(Duration::from_millis(200), |t| {
                t.min(Duration::from_millis(200))
            });
            let quick = SearchLimits {
                playouts: Some(4 * state.size() as u64 * state.size() as u64),
                time: Some(quick_time),
                ..SearchLimits::default()
            };
            if let Some(bars) = &bars {
                self.searcher.set_avoid(bars.clone());
            }
            result =
                self.searcher
                    .search(state, color, &quick, &SearchControl::default(), &mut |_| {});
        }
        // A regression test's search, or one with bars, asks a question about the position
        // and leaves the game's state (dynamic komi, streaks) as it was.
        let counted = bars.is_none() && request.kind != MoveKind::Regression;
        if result.analysis.playouts > 0 && counted {
            self.last_search = Some((color, result.analysis.search_winrate, offset));
            self.dynamic_komi.adapt(
                &self.settings,
                state,
                color,
                result.analysis.search_winrate,
                result.analysis.score_lead,
            );
            // Pondering and analysis until the next move search with the offset that move
            // will have, so that its tree is kept.
            if let Some(next) = self.dynamic_komi.held() {
                self.searcher.set_komi_offset(next);
            }
        }
        let searched = result.best;
        result.best = judge::search_choice(state, color, &result.analysis, result.best);
        let (low, high) = if counted {
            self.count_winrate_streaks(state, color, &result)
        } else {
            (false, false)
        };
        let rules = match request.kind {
            MoveKind::Cleanup => EndRules::CLEANUP,
            _ => EndRules {
                cleanup: request.cleanup,
                ..EndRules::NORMAL
            },
        };
        let mut mv = judge::move_to_play(state, color, &result, rules, || self.judge(state));
        if let Some(bars) = &bars
            && bars.bars(color, mv, 1)
        {
            // The pass or cleanup rules chose a move the user barred: the search's choice
            // instead, which its root edges kept within the bars.
            mv = searched;
            result.best = searched;
        }
        let resign = request.kind == MoveKind::Normal && low && mv != Move::Pass;
        let claim = request.kind == MoveKind::Normal && high;
        ChosenMove {
            mv,
            resign,
            claim,
            result,
            book: book.map(|hit| BookNote { played: false, hit }),
        }
    }

    /// The win rate under which a search of `color` under a game clock runs on into the
    /// clock's extension (`time-drop` below the win rate of `color`'s last search, at the
    /// same komi offset); `None` when the setting is off or there is nothing to compare.
    fn extend_below(&self, request: &MoveRequest, color: Color, offset: f32) -> Option<f32> {
        let drop = self.settings.game.time_drop;
        if drop <= 0.0 || request.clock.is_none() {
            return None;
        }
        match self.last_search {
            Some((c, winrate, o)) if c == color && o == offset => Some(winrate - drop as f32),
            _ => None,
        }
    }

    /// Counts a move whose win rate is under the resign threshold (not a winning pass)
    /// under the real komi and, with a dynamic komi offset, under the offset komi too, and
    /// one whose win rate is above 1 - the threshold under both; each of the two is true
    /// once `resign-moves` such moves came in a row (resign, claim the game). A threshold
    /// of 0 does neither.
    fn count_winrate_streaks(
        &mut self,
        state: &GameState,
        color: Color,
        result: &SearchResult,
    ) -> (bool, bool) {
        let threshold = self.settings.game.resign_threshold;
        let analysis = &result.analysis;
        let searched = threshold > 0.0 && analysis.playouts > 0;
        let winning_pass = result.best == Move::Pass && judge::opponent_passed(state, color);
        let best = analysis.winrate.max(analysis.search_winrate);
        let worst = analysis.winrate.min(analysis.search_winrate);
        let streak = |counter: &mut u32, counts: bool| {
            *counter = if counts { *counter + 1 } else { 0 };
        };
        streak(
            &mut self.low_winrate_streak,
            searched && best < threshold && !winning_pass,
        );
        streak(
            &mut self.high_winrate_streak,
            searched && worst > 1.0 - threshold,
        );
        // A move that did not count reset its streak, so a streak at `moves` (at least 1)
        // is made of counted moves only.
        let moves = self.settings.game.resign_moves.max(1);
        (
            self.low_winrate_streak >= moves,
            self.high_winrate_streak >= moves,
        )
    }

    /// The priors of the root moves of a search of `state` with `color` to move, before
    /// its first playout: the search's own sources and the book's priors where it has the
    /// position (a book that would play its move outright counts as a prior here).
    /// Nothing is searched and the game's state (dynamic komi, streaks) is untouched.
    pub fn root_priors(&mut self, state: &GameState, color: Color) -> Vec<(Move, Prior)> {
        if let Some(hit) = self.book_hit(state, color) {
            self.searcher.set_root_priors(book_priors(&hit));
        }
        self.searcher.root_priors(state, color)
    }

    /// The end-of-game judgement of `state` (dead stones, score), with the
    /// `judge-playouts` setting and this game's judgement seed.
    pub fn judge(&self, state: &GameState) -> Judgement {
        judge::judge(
            state,
            self.settings.game.judge_playouts.max(1),
            self.judge_seed,
        )
    }

    /// The ownership of every point of `state` (see [`crate::search::estimate_ownership`]),
    /// from `judge-playouts` light playouts.
    pub fn ownership(&self, state: &GameState) -> Vec<f32> {
        crate::search::estimate_ownership(
            state,
            self.settings.game.judge_playouts.max(1),
            self.judge_seed,
        )
    }
}

/// The search result that stands for a book move: the book moves as candidates (counts as
/// visits), no playouts.
/// A book hit's moves as extra root priors of the search.
fn book_priors(hit: &BookHit) -> Vec<RootPrior> {
    hit.root_priors()
        .into_iter()
        .map(|(mv, visits, value)| RootPrior { mv, visits, value })
        .collect()
}

fn book_result(state: &GameState, color: Color, moves: &[BookMove]) -> SearchResult {
    let total: u64 = moves.iter().map(|m| m.count).sum::<u64>().max(1);
    let infos: Vec<MoveInfo> = moves
        .iter()
        .map(|m| MoveInfo {
            mv: m.mv,
            visits: m.count,
            winrate: m.winrate,
            prior: m.count as f32 / total as f32,
            lcb: m.winrate,
            pv: vec![m.mv],
            pv_visits: vec![m.count],
            score_lead: None,
        })
        .collect();
    SearchResult {
        best: moves.first().map_or(Move::Pass, |m| m.mv),
        analysis: Analysis {
            ownership: vec![0.0; state.geometry().points().count()],
            ..Analysis::of_moves(color, 0, infos)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Auto;

    fn player(settings: Settings) -> Player {
        Player::new(settings, pattern::PatternTables::Builtin, 1)
    }

    fn vertex(state: &GameState, text: &str) -> Move {
        Move::parse(state.geometry(), text).unwrap()
    }

    fn rules(komi: f32) -> crate::board::Rules {
        let mut rules: crate::board::Rules = "chinese".parse().unwrap();
        rules.komi = komi;
        rules
    }

    #[test]
    fn a_quick_search_after_a_stop_keeps_the_bars() {
        let mut p = player({
            let mut s = Settings::default();
            s.game.playouts = Some(200);
            s
        });
        let state = GameState::new(9, rules(7.5)).unwrap();
        let c3 = vertex(&state, "C3");
        let mut bars = AvoidMoves::new();
        bars.allow_only(state.geometry(), Color::Black, &[c3], 1);
        p.set_avoid(bars);
        // Stopped before it starts: the quick search picks the move, within the bars.
        let control = SearchControl::default();
        control.stop();
        let chosen = p.choose(
            &state,
            Color::Black,
            &MoveRequest::normal(None),
            &control,
            None,
        );
        assert_eq!(chosen.mv, c3);
    }

    #[test]
    fn the_pass_rules_do_not_play_a_barred_pass() {
        // Black walls the 5x5 board in and leads by the whole board; white has passed.
        let mut state = GameState::new(5, rules(7.5)).unwrap();
        for v in ["C1", "C2", "C3", "C4"] {
            state.play(Color::Black, vertex(&state, v)).unwrap();
            state.play(Color::White, Move::Pass).unwrap();
        }
        let settings = {
            let mut s = Settings::default();
            s.game.playouts = Some(200);
            s
        };
        let control = SearchControl::default();
        let request = MoveRequest::normal(None);
        let free = player(settings.clone()).choose(&state, Color::Black, &request, &control, None);
        assert_eq!(free.mv, Move::Pass, "the game is won by passing");
        let mut barred = player(settings);
        let mut bars = AvoidMoves::new();
        bars.avoid(Color::Black, Move::Pass, 1);
        barred.set_avoid(bars);
        let chosen = barred.choose(&state, Color::Black, &request, &control, None);
        assert_ne!(chosen.mv, Move::Pass);
        assert_eq!(chosen.result.best, chosen.mv);
    }

    #[test]
    fn a_search_with_bars_neither_resigns_nor_counts_towards_it() {
        // Komi 40 on 5x5: black cannot win.
        let state = GameState::new(5, rules(40.0)).unwrap();
        let settings = {
            let mut s = Settings::default();
            s.game.playouts = Some(200);
            s.game.resign_moves = 1;
            s
        };
        let control = SearchControl::default();
        let request = MoveRequest::normal(None);
        assert!(
            player(settings.clone())
                .choose(&state, Color::Black, &request, &control, None)
                .resign
        );
        let mut p = player(settings);
        let mut bars = AvoidMoves::new();
        bars.avoid(Color::Black, vertex(&state, "C3"), 1);
        p.set_avoid(bars);
        let chosen = p.choose(&state, Color::Black, &request, &control, None);
        assert!(!chosen.resign && chosen.mv != vertex(&state, "C3"));
        assert_eq!(p.low_winrate_streak, 0);
    }

    #[test]
    fn a_search_under_a_clock_extends_below_the_last_win_rate_less_the_drop() {
        let clock = Some(MoveTime {
            budget: Duration::from_secs(1),
            max: Duration::from_secs(2),
        });
        let mut p = player({
            let mut s = Settings::default();
            s.game.time_drop = 0.125;
            s
        });
        let timed = MoveRequest::normal(clock);
        assert_eq!(
            p.extend_below(&timed, Color::Black, 0.0),
            None,
            "no search yet"
        );
        p.last_search = Some((Color::Black, 0.625, 0.0));
        assert_eq!(p.extend_below(&timed, Color::Black, 0.0), Some(0.5));
        assert_eq!(
            p.extend_below(&timed, Color::White, 0.0),
            None,
            "the other colour"
        );
        assert_eq!(
            p.extend_below(&timed, Color::Black, 2.0),
            None,
            "another offset"
        );
        let untimed = MoveRequest::normal(None);
        assert_eq!(
            p.extend_below(&untimed, Color::Black, 0.0),
            None,
            "no clock"
        );
        p.new_game(9);
        assert_eq!(
            p.extend_below(&timed, Color::Black, 0.0),
            None,
            "a new game"
        );
        let mut off = player(Settings::default());
        off.last_search = Some((Color::Black, 0.625, 0.0));
        assert_eq!(
            off.extend_below(&timed, Color::Black, 0.0),
            None,
            "time-drop=0"
        );
        // A counted search records its win rate for the next.
        let mut q = player({
            let mut s = Settings::default();
            s.game.playouts = Some(100);
            s.game.time_drop = 0.125;
            s.game.book = BookSource::Off;
            s
        });
        let state = GameState::new(9, rules(7.5)).unwrap();
        let control = SearchControl::default();
        let chosen = q.choose(
            &state,
            Color::Black,
            &MoveRequest::normal(None),
            &control,
            None,
        );
        let winrate = chosen.result.analysis.search_winrate;
        assert_eq!(q.last_search, Some((Color::Black, winrate, 0.0)));
    }

    /// `root_priors` gives the priors a search gives its root, the book's among them: each
    /// searched move's prior share in the analysis is its mean over the sum of the means.
    #[test]
    fn root_priors_are_those_of_a_searched_root() {
        let settings = |book: BookSource| {
            let mut s = Settings::default();
            s.game.playouts = Some(300);
            s.game.threads = crate::settings::Auto::Value(1);
            s.game.book = book;
            s
        };
        let mut state = GameState::new(19, rules(7.5)).unwrap();
        let q16 = state.geometry().parse_point("Q16").unwrap();
        state.play(Color::Black, Move::Play(q16)).unwrap();
        let with_book = settings(BookSource::default());
        let priors = player(with_book.clone()).root_priors(&state, Color::White);
        let control = SearchControl::default();
        let chosen = player(with_book).choose(
            &state,
            Color::White,
            &MoveRequest::normal(None),
            &control,
            None,
        );
        assert!(chosen.book.is_some(), "the book has the position");
        let sum: f32 = priors.iter().map(|(_, p)| p.mean()).sum();
        let searched = &chosen.result.analysis.moves;
        assert!(searched.len() >= 3, "{} moves searched", searched.len());
        for m in searched {
            let (_, p) = priors.iter().find(|(mv, _)| *mv == m.mv).unwrap();
            let share = p.mean() / sum;
            assert!(
                (share - m.prior).abs() < 1e-5 * share,
                "{:?}: {share} against {}",
                m.mv,
                m.prior
            );
        }
        let without = player(settings(BookSource::Off)).root_priors(&state, Color::White);
        assert_eq!(without.len(), priors.len());
        assert_ne!(without, priors, "the book's priors count");
    }

    #[test]
    fn after_a_move_the_search_holds_the_next_moves_komi_offset() {
        let mut p = player({
            let mut s = Settings::default();
            s.game.playouts = Some(200);
            s.game.dynamic_komi = crate::settings::DynamicKomiMode::Adaptive;
            s
        });
        // White gives four stones on 9x9: far behind, its offset moves after the search.
        let mut state = GameState::new(9, rules(0.5)).unwrap();
        state.place_fixed_handicap(4).unwrap();
        let control = SearchControl::default();
        let request = MoveRequest::normal(None);
        let used = p.dynamic_komi.offset(&p.settings, &state, Color::White);
        let chosen = p.choose(&state, Color::White, &request, &control, None);
        state.play(Color::White, chosen.mv).unwrap();
        state.play(Color::Black, Move::Pass).unwrap();
        let next = p.dynamic_komi.offset(&p.settings, &state, Color::White);
        assert_ne!(next, used, "the search's win rate moved the offset");
        assert_eq!(p.searcher_mut().komi_offset(), next);
    }

    #[test]
    fn limits_merge_the_clock_with_the_settings() {
        let second = Duration::from_secs(1);
        let clock = MoveTime {
            budget: 2 * second,
            max: 4 * second,
        };
        let plain = player(Settings::default());
        let l = plain.limits(None);
        assert_eq!(
            (l.playouts, l.time, l.max_time),
            (None, Some(DEFAULT_MOVE_TIME), None)
        );
        let l = plain.limits(Some(clock));
        assert_eq!((l.time, l.max_time), (Some(2 * second), Some(4 * second)));
        let capped = player({
            let mut s = Settings::default();
            s.game.time = Some(3.0);
            s.game.playouts = Some(50);
            s.game.threads = Auto::Value(1);
            s
        });
        let l = capped.limits(Some(clock));
        assert_eq!(
            (l.playouts, l.time, l.max_time),
            (Some(50), Some(2 * second), Some(3 * second))
        );
        let l = capped.limits(None);
        assert_eq!((l.time, l.max_time), (Some(3 * second), None));
        let counted = player({
            let mut s = Settings::default();
            s.game.playouts = Some(50);
            s
        });
        let limit = Duration::from_secs(600);
        assert_eq!(counted.limits(None).time, Some(limit));
        // However long the clock: never past max-move-time.
        let endless = MoveTime {
            budget: Duration::from_secs(86_400),
            max: Duration::from_secs(86_400),
        };
        let l = plain.limits(Some(endless));
        assert_eq!((l.time, l.max_time), (Some(limit), Some(limit)));
        let short = player({
            let mut s = Settings::default();
            s.game.max_move_time = 0.5;
            s
        });
        let l = short.limits(Some(clock));
        assert_eq!((l.time, l.max_time), (Some(second / 2), Some(second / 2)));
    }

    #[test]
    fn missing_pattern_files_are_named() {
        let settings = {
            let mut s = Settings::default();
            s.game.patterns = Some("/nonexistent/table.txt".into());
            s
        };
        let err = load_patterns(&settings).unwrap_err();
        assert!(
            err.contains("/nonexistent/table.txt (setting patterns)"),
            "{err}"
        );
        assert!(load_patterns(&Settings::default()).is_ok());
    }
}
