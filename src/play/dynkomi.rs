//! Dynamic komi: the offset on the komi that the search scores its playouts with in
//! lopsided (handicap) games. A Monte-Carlo search that wins (or loses) nearly every playout
//! cannot tell a good move from a slack one: every move looks won (or lost). Scoring the
//! playouts as if the side ahead gave more komi brings the win rates back to where moves
//! differ.
//!
//! The offset is kept as extra komi black gives (negative: black receives more), in whole
//! points so that a half-point komi stays a half-point komi (no drawn playouts). Viewed from
//! hane's side, an offset that makes hane give more is the *hard* direction, one that makes
//! hane receive more is the *easy* direction: a search with an easy offset plays for a result
//! that may be a real loss, so the easy direction is bounded by a fade that reaches zero by
//! the end of the game, and the real komi decides the late moves.
//!
//! * **linear**: `stones × dynamic-komi-stone` points, scaled by the board's area
//!   (`size² / 361`), fading linearly with the move number to zero at `dynamic-komi-moves`
//!   (also scaled by area). `stones` is the handicap (or, without handicap stones, the
//!   setup stones when they are all of one colour: a handicap placed by hand; a position
//!   with setup stones of both colours is even): the side with the stones gives the
//!   offset. With `dynamic-komi-lead` above 0, hane's lead (the mean score of its last
//!   search under the real komi) adds that share of itself to the offset in hane's hard
//!   direction while hane is ahead: a search far ahead still plays for a margin, where the
//!   faded offset alone lets it play for the smallest win. The lead term moves only by
//!   more than [`LEAD_HYSTERESIS`] points, so that the noise of the score does not cost
//!   the search its tree at every move.
//! * **adaptive**: starts at the linear value; after each of hane's searches, a win rate
//!   (of the search's playouts, with the offset) above [`BAND_HIGH`] moves the offset a step
//!   in the hard direction, one below [`BAND_LOW`] a step in the easy direction. The step
//!   is one point, plus one for each tenth of win rate beyond the band (at most
//!   [`MAX_STEP`]). The offset stays within ± [`MAX_OFFSET_AREA_SHARE`] of the board's area
//!   (or the linear start, when that is larger), and in the easy direction within that
//!   bound times the linear fade: from `dynamic-komi-moves` on, never easier than the real
//!   komi.
//! * **auto** is, in handicap games (two or more stones ahead), linear from 19x19 up and
//!   adaptive on smaller boards (see [`handicap_default`]), and off in even games; an
//!   explicit `linear` or `adaptive` also applies in even games (linear then has nothing
//!   to give, and adds no lead term).
//!
//! The search keeps its tree across moves only while the offset moves by at most one point
//! (see `search::Searcher::set_komi_offset`): the linear fade and the adaptive steps near
//! the band change it by a point at a time and keep the tree; a larger adaptive jump, made
//! when the win rate is far outside the band, starts a fresh tree.

use crate::board::{Color, GameState};
use crate::settings::{DynamicKomiMode, Settings};

/// The low end of the win rate band the adaptive mode keeps the side to move in.
pub const BAND_LOW: f32 = 0.45;
/// The high end of the band.
pub const BAND_HIGH: f32 = 0.65;
/// The largest adaptive step, in points.
pub const MAX_STEP: f32 = 4.0;
/// The adaptive offset's bound, as a share of the board's points (45 points on 19x19, 10 on
/// 9x9).
pub const MAX_OFFSET_AREA_SHARE: f32 = 1.0 / 8.0;

/// The change in the lead term (points) below which the linear mode keeps the term it has.
pub const LEAD_HYSTERESIS: f32 = 3.0;

/// The mode `auto` stands for in handicap games on a board of `size`: linear (with its
/// lead term) from 19x19 up, where it won more games giving handicap than adaptive did,
/// and adaptive on smaller boards, where the two were not compared in games.
pub fn handicap_default(size: usize) -> DynamicKomiMode {
    if size >= 19 {
        DynamicKomiMode::Linear
    } else {
        DynamicKomiMode::Adaptive
    }
}

/// The board's area as a share of 19x19's.
fn area_scale(size: usize) -> f32 {
    (size * size) as f32 / 361.0
}

/// The stones black is ahead in `state` before the first move: the handicap stones, or
/// without them the setup stones when all are of one colour (negative: white's), a
/// handicap placed stone by stone (`gogui-setup`, an SGF's `AB` without `HA`); 0 when
/// they are under two, and for setup stones of both colours (a position, not a handicap).
pub fn stone_advantage(state: &GameState) -> i32 {
    let stones = if state.handicap() >= 2 {
        state.handicap() as i32
    } else {
        let setup = state.setup_stones();
        let black = setup.iter().filter(|&&(c, _)| c == Color::Black).count() as i32;
        let white = setup.len() as i32 - black;
        match (black, white) {
            (b, 0) => b,
            (0, w) => -w,
            _ => 0,
        }
    };
    if stones.abs() >= 2 { stones } else { 0 }
}

/// The mode that applies to `state` under the `dynamic-komi` setting `mode`.
pub fn resolve_mode(mode: DynamicKomiMode, state: &GameState) -> DynamicKomiMode {
    match mode {
        DynamicKomiMode::Auto if stone_advantage(state) != 0 => handicap_default(state.size()),
        DynamicKomiMode::Auto => DynamicKomiMode::Off,
        other => other,
    }
}

/// The share of the offset left after `moves` moves on a board of `size`: 1 at the start,
/// falling linearly to 0 at `fade_moves` (given for 19x19, scaled by area).
pub fn fade(moves: usize, size: usize, fade_moves: u32) -> f32 {
    let end = (fade_moves as f32 * area_scale(size)).round().max(1.0);
    (1.0 - moves as f32 / end).clamp(0.0, 1.0)
}

/// The linear offset (extra komi black gives) with `stones` (see [`stone_advantage`])
/// after `moves` moves on a board of `size`, rounded to whole points.
pub fn linear_offset(
    stones: i32,
    moves: usize,
    size: usize,
    stone_points: f32,
    fade_moves: u32,
) -> f32 {
    let start = stones as f32 * stone_points * area_scale(size);
    (start * fade(moves, size, fade_moves)).round()
}

/// The adaptive offset's bound in either direction on a board of `size`, with `start` the
/// linear offset at move 0.
pub fn offset_bound(size: usize, start: f32) -> f32 {
    ((size * size) as f32 * MAX_OFFSET_AREA_SHARE)
        .round()
        .max(start.abs())
}

/// The adaptive step for a win rate of the side to move: positive (that side gives more)
/// above the band, negative below it, zero inside.
pub fn adaptive_step(winrate: f32) -> f32 {
    let beyond = if winrate > BAND_HIGH {
        winrate - BAND_HIGH
    } else if winrate < BAND_LOW {
        winrate - BAND_LOW
    } else {
        return 0.0;
    };
    let size = (1.0 + (beyond.abs() * 10.0).floor()).min(MAX_STEP);
    size.copysign(beyond)
}

/// Clamps `offset` (extra komi black gives) to the adaptive bounds for `color` to move
/// after `moves` moves: within ± `bound`, and in `color`'s easy direction within `bound`
/// times the fade.
pub fn clamp_offset(
    offset: f32,
    color: Color,
    bound: f32,
    moves: usize,
    size: usize,
    fade_moves: u32,
) -> f32 {
    let easy = (bound * fade(moves, size, fade_moves)).floor();
    // In `color`'s own terms: positive = `color` gives more.
    let own = match color {
        Color::Black => offset,
        Color::White => -offset,
    };
    let own = own.clamp(-easy, bound);
    match color {
        Color::Black => own,
        Color::White => -own,
    }
}

/// The dynamic komi of the game hane is playing: the offset for its next search and the
/// state the adaptive mode keeps between moves. One per game: [`DynamicKomi::reset`] at a
/// new game.
#[derive(Clone, Debug, Default)]
pub struct DynamicKomi {
    /// The adaptive offsets (extra komi black gives) of the game so far, oldest first, each
    /// with the number of moves from which it holds: a position reached again by undo gets
    /// the offset it had, not one its undone searches moved.
    adaptive: Vec<(usize, f32)>,
    /// The linear mode's lead terms (points hane gives beyond the linear offset, in its
    /// own terms), oldest first, each with the number of moves from which it holds, as
    /// `adaptive`.
    leads: Vec<(usize, f32)>,
}

impl DynamicKomi {
    /// Forgets the adaptive offset (a new game).
    pub fn reset(&mut self) {
        self.adaptive.clear();
        self.leads.clear();
    }

    /// The adaptive offset the last search left for the next one (`None` before any, and
    /// outside the adaptive mode).
    pub fn held(&self) -> Option<f32> {
        self.adaptive.last().map(|&(_, offset)| offset)
    }

    /// The adaptive offset for a position after `moves` moves, forgetting those set after
    /// it (undone moves).
    fn adaptive_at(&mut self, moves: usize) -> Option<f32> {
        while self.adaptive.last().is_some_and(|&(from, _)| from > moves) {
            self.adaptive.pop();
        }
        self.held()
    }

    /// The linear mode's lead term for a position after `moves` moves (0 before any),
    /// forgetting those set after it.
    fn lead_term_at(&mut self, moves: usize) -> f32 {
        while self.leads.last().is_some_and(|&(from, _)| from > moves) {
            self.leads.pop();
        }
        self.leads.last().map_or(0.0, |&(_, term)| term)
    }

    /// The offset (extra komi black gives, whole points) of a search for `color` to move in
    /// `state` under `settings`.
    pub fn offset(&mut self, settings: &Settings, state: &GameState, color: Color) -> f32 {
        let size = state.size();
        let moves = state.moves().len();
        let stones = stone_advantage(state);
        let linear = |moves| {
            linear_offset(
                stones,
                moves,
                size,
                settings.game.dynamic_komi_stone,
                settings.game.dynamic_komi_moves,
            )
        };
        match resolve_mode(settings.game.dynamic_komi, state) {
            DynamicKomiMode::Auto | DynamicKomiMode::Off => 0.0,
            DynamicKomiMode::Linear => {
                let term = self.lead_term_at(moves);
                if term == 0.0 {
                    return linear(moves);
                }
                // In `color`'s own terms (positive: `color` gives more), the lead term on
                // top of the linear offset, at most the adaptive bound.
                let sign = match color {
                    Color::Black => 1.0,
                    Color::White => -1.0,
                };
                let bound = offset_bound(size, linear(0));
                let own = (sign * linear(moves) + term).min(bound);
                sign * own
            }
            DynamicKomiMode::Adaptive => {
                let bound = offset_bound(size, linear(0));
                let held = match self.adaptive_at(moves) {
                    Some(offset) => offset,
                    None => {
                        let start = linear(moves);
                        self.adaptive.push((0, start));
                        start
                    }
                };
                let offset = clamp_offset(
                    held,
                    color,
                    bound,
                    moves,
                    size,
                    settings.game.dynamic_komi_moves,
                );
                if offset != held {
                    self.adaptive.push((moves, offset));
                }
                offset
            }
        }
    }

    /// After a search for `color` in `state` whose best move won `winrate` of its playouts
    /// (scored with the offset) and whose playouts ended with `color` ahead by `lead`
    /// points on average (under the real komi): moves the adaptive offset towards the band,
    /// or sets the linear mode's lead term. The other modes keep nothing.
    pub fn adapt(
        &mut self,
        settings: &Settings,
        state: &GameState,
        color: Color,
        winrate: f32,
        lead: Option<f32>,
    ) {
        let moves = state.moves().len();
        match resolve_mode(settings.game.dynamic_komi, state) {
            DynamicKomiMode::Adaptive => {}
            DynamicKomiMode::Linear
                if settings.game.dynamic_komi_lead > 0.0 && stone_advantage(state) != 0 =>
            {
                let held = self.lead_term_at(moves);
                let term = lead.map_or(held, |lead| {
                    (settings.game.dynamic_komi_lead * lead.max(0.0)).round()
                });
                if (term - held).abs() > LEAD_HYSTERESIS || (term == 0.0 && held != 0.0) {
                    self.leads.push((moves + 1, term));
                }
                return;
            }
            _ => return,
        }
        let Some(offset) = self.adaptive_at(moves) else {
            return;
        };
        let step = adaptive_step(winrate);
        let moved = match color {
            Color::Black => offset + step,
            Color::White => offset - step,
        };
        let size = state.size();
        let start = linear_offset(
            stone_advantage(state),
            0,
            size,
            settings.game.dynamic_komi_stone,
            settings.game.dynamic_komi_moves,
        );
        // Bounded for the next move of `color` (two moves on), and held from the next
        // position on.
        let next = clamp_offset(
            moved,
            color,
            offset_bound(size, start),
            moves + 2,
            size,
            settings.game.dynamic_komi_moves,
        );
        self.adaptive.push((moves + 1, next));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Rules};

    fn handicap_game(size: usize, stones: usize) -> GameState {
        let mut state = GameState::new(size, Rules::chinese(7.5)).unwrap();
        if stones > 0 {
            state.place_fixed_handicap(stones).unwrap();
        }
        state
    }

    fn settings(mode: DynamicKomiMode) -> Settings {
        {
            let mut s = Settings::default();
            s.game.dynamic_komi = mode;
            s
        }
    }

    /// Plays `n` passes (moves for the fade; the board does not matter to it).
    fn after_moves(mut state: GameState, n: usize) -> GameState {
        for _ in 0..n {
            let color = state.to_move();
            state.play(color, Move::Pass).unwrap();
        }
        state
    }

    #[test]
    fn handicap_is_counted_from_stones_and_setup() {
        assert_eq!(stone_advantage(&handicap_game(19, 0)), 0);
        assert_eq!(stone_advantage(&handicap_game(19, 4)), 4);
        assert_eq!(stone_advantage(&handicap_game(9, 3)), 3);
        let mut setup = GameState::new(9, Rules::default()).unwrap();
        let p = |x, y| setup.geometry().point(x, y).unwrap();
        let white = [(Color::White, p(2, 2)), (Color::White, p(6, 6))];
        let black = [(Color::Black, p(2, 6))];
        setup.add_setup_stones(&white).unwrap();
        assert_eq!(stone_advantage(&setup), -2);
        setup.add_setup_stones(&black).unwrap();
        assert_eq!(stone_advantage(&setup), 0);
        // A position with stones of both colours is even, however many more one has.
        let mut position = GameState::new(9, Rules::default()).unwrap();
        let p = |x, y| position.geometry().point(x, y).unwrap();
        let stones: Vec<(Color, _)> = (0..6)
            .map(|x| (Color::Black, p(x, 2)))
            .chain([(Color::White, p(4, 4))])
            .collect();
        position.add_setup_stones(&stones).unwrap();
        assert_eq!(stone_advantage(&position), 0);
        assert_eq!(
            resolve_mode(DynamicKomiMode::Auto, &position),
            DynamicKomiMode::Off
        );
        // Black stones alone are a handicap placed by hand.
        let mut by_hand = GameState::new(9, Rules::default()).unwrap();
        let p = |x, y| by_hand.geometry().point(x, y).unwrap();
        by_hand
            .add_setup_stones(&[(Color::Black, p(2, 2)), (Color::Black, p(6, 6))])
            .unwrap();
        assert_eq!(stone_advantage(&by_hand), 2);
    }

    #[test]
    fn an_undone_search_does_not_move_the_offset_of_its_position() {
        let s = settings(DynamicKomiMode::Adaptive);
        let start = after_moves(handicap_game(19, 4), 1);
        let mut dk = DynamicKomi::default();
        let first = dk.offset(&s, &start, Color::White);
        // White's search is far behind: the offset moves in white's easy direction.
        dk.adapt(&s, &start, Color::White, 0.05, None);
        let later = after_moves(start.clone(), 2);
        let moved = dk.offset(&s, &later, Color::White);
        assert_ne!(moved, first);
        // Undone back to the first position, white searches with the offset it had there,
        // again and again.
        for _ in 0..3 {
            assert_eq!(dk.offset(&s, &start, Color::White), first);
            dk.adapt(&s, &start, Color::White, 0.05, None);
        }
        assert_eq!(dk.offset(&s, &later, Color::White), moved);
    }

    #[test]
    fn auto_is_off_in_even_games() {
        let even = handicap_game(19, 0);
        assert_eq!(
            resolve_mode(DynamicKomiMode::Auto, &even),
            DynamicKomiMode::Off
        );
        for (size, mode) in [
            (19, DynamicKomiMode::Linear),
            (21, DynamicKomiMode::Linear),
            (17, DynamicKomiMode::Adaptive),
            (13, DynamicKomiMode::Adaptive),
            (9, DynamicKomiMode::Adaptive),
            (7, DynamicKomiMode::Adaptive),
        ] {
            assert_eq!(
                resolve_mode(DynamicKomiMode::Auto, &handicap_game(size, 2)),
                mode
            );
            assert_eq!(handicap_default(size), mode);
        }
        for mode in [
            DynamicKomiMode::Auto,
            DynamicKomiMode::Off,
            DynamicKomiMode::Linear,
        ] {
            let mut dk = DynamicKomi::default();
            assert_eq!(dk.offset(&settings(mode), &even, Color::Black), 0.0);
            assert_eq!(dk.offset(&settings(mode), &even, Color::White), 0.0);
        }
        let mut dk = DynamicKomi::default();
        let s = settings(DynamicKomiMode::Off);
        assert_eq!(dk.offset(&s, &handicap_game(19, 5), Color::White), 0.0);
        // An explicit linear mode in an even game adds no lead term, however far ahead.
        let mut s = settings(DynamicKomiMode::Linear);
        s.game.dynamic_komi_lead = 0.5;
        let mut dk = DynamicKomi::default();
        let later = after_moves(even.clone(), 100);
        dk.adapt(&s, &later, Color::White, 0.95, Some(40.0));
        assert_eq!(dk.offset(&s, &after_moves(even, 102), Color::White), 0.0);
    }

    #[test]
    fn linear_fades_from_seven_points_a_stone() {
        // 19x19: 7 points a stone, to 0 at move 200.
        assert_eq!(linear_offset(4, 0, 19, 7.0, 200), 28.0);
        assert_eq!(linear_offset(4, 100, 19, 7.0, 200), 14.0);
        assert_eq!(linear_offset(4, 150, 19, 7.0, 200), 7.0);
        assert_eq!(linear_offset(4, 199, 19, 7.0, 200), 0.0);
        assert_eq!(linear_offset(4, 250, 19, 7.0, 200), 0.0);
        assert_eq!(linear_offset(-2, 0, 19, 7.0, 200), -14.0);
        // 9x9: area 81/361 of 19x19: 1.57 points a stone, to 0 at move 45.
        assert_eq!(linear_offset(3, 0, 9, 7.0, 200), 5.0);
        assert!((fade(9, 9, 200) - 0.8).abs() < 1e-6);
        assert_eq!(linear_offset(3, 9, 9, 7.0, 200), 4.0);
        assert_eq!(linear_offset(3, 45, 9, 7.0, 200), 0.0);
        // 13x13: 3.3 points a stone, to 0 at move 94.
        assert_eq!(linear_offset(2, 0, 13, 7.0, 200), 7.0);
        assert_eq!(linear_offset(2, 47, 13, 7.0, 200), 3.0);
        assert_eq!(linear_offset(0, 0, 19, 7.0, 200), 0.0);
        // The settings reach the player's offset, whoever is to move.
        let s = settings(DynamicKomiMode::Linear);
        let mut dk = DynamicKomi::default();
        let state = handicap_game(19, 4);
        assert_eq!(dk.offset(&s, &state, Color::White), 28.0);
        assert_eq!(dk.offset(&s, &after_moves(state, 101), Color::Black), 14.0);
    }

    #[test]
    fn linear_lead_term_adds_a_margin_while_ahead() {
        let mut s = settings(DynamicKomiMode::Linear);
        s.game.dynamic_komi_lead = 0.5;
        let at = |n| after_moves(handicap_game(19, 5), n);
        // hane white, giving 5 stones: 35 points at first, and behind: nothing added.
        let mut dk = DynamicKomi::default();
        assert_eq!(dk.offset(&s, &at(0), Color::White), 35.0);
        dk.adapt(&s, &at(0), Color::White, 0.4, Some(-42.0));
        assert_eq!(dk.offset(&s, &at(2), Color::White), 35.0);
        // Ahead by 20 at move 100: half of it (10) against the linear 17 of move 102.
        dk.adapt(&s, &at(100), Color::White, 0.9, Some(20.0));
        assert_eq!(dk.offset(&s, &at(102), Color::White), 17.0 - 10.0);
        // A lead that moves the term by 3 points or less keeps it (and the tree) ...
        dk.adapt(&s, &at(102), Color::White, 0.9, Some(25.0));
        assert_eq!(dk.offset(&s, &at(104), Color::White), 17.0 - 10.0);
        // ... a larger move sets it, and after the fade white gives the whole term.
        dk.adapt(&s, &at(104), Color::White, 0.9, Some(60.0));
        assert_eq!(dk.offset(&s, &at(250), Color::White), -30.0);
        // Never beyond the adaptive bound (45 points on 19x19 ... or the linear start, 35).
        dk.adapt(&s, &at(250), Color::White, 1.0, Some(200.0));
        assert_eq!(dk.offset(&s, &at(252), Color::White), -45.0);
        // Behind again: the term is dropped, whatever its size.
        dk.adapt(&s, &at(252), Color::White, 0.3, Some(-5.0));
        assert_eq!(dk.offset(&s, &at(254), Color::White), 0.0);
        // Undone to move 250: the term held there comes back.
        assert_eq!(dk.offset(&s, &at(250), Color::White), -30.0);
        // hane black, taking the stones: the margin adds to what black already gives.
        let mut dk = DynamicKomi::default();
        dk.adapt(&s, &at(1), Color::Black, 0.95, Some(30.0));
        assert_eq!(dk.offset(&s, &at(3), Color::Black), 45.0);
        // Share 0 is the plain linear offset; so is a search without a score.
        let mut plain = settings(DynamicKomiMode::Linear);
        plain.game.dynamic_komi_lead = 0.0;
        let mut dk = DynamicKomi::default();
        dk.adapt(&plain, &at(0), Color::White, 0.9, Some(60.0));
        assert_eq!(dk.offset(&plain, &at(250), Color::White), 0.0);
        let mut dk = DynamicKomi::default();
        dk.adapt(&s, &at(200), Color::White, 0.9, None);
        assert_eq!(dk.offset(&s, &at(202), Color::White), 0.0);
    }

    #[test]
    fn adaptive_steps_follow_the_band() {
        let steps = [
            (0.5, 0.0),
            (0.45, 0.0),
            (0.65, 0.0),
            (0.70, 1.0),
            (0.80, 2.0),
            (1.0, 4.0),
            (0.40, -1.0),
            (0.30, -2.0),
            (0.0, -4.0),
        ];
        for (winrate, step) in steps {
            assert_eq!(adaptive_step(winrate), step, "{winrate}");
        }
    }

    #[test]
    fn adaptive_offset_moves_towards_the_band_within_bounds() {
        let s = settings(DynamicKomiMode::Adaptive);
        // The game after `n` moves: each search's adaptation holds from the next position
        // on, and hane's next search comes two moves later.
        let at = |n| after_moves(handicap_game(9, 3), n);
        // hane white, giving 3 stones on 9x9: starts at the linear 5 points.
        let mut dk = DynamicKomi::default();
        assert_eq!(dk.offset(&s, &at(0), Color::White), 5.0);
        // White losing badly: black gives more, by up to 4 points a move.
        dk.adapt(&s, &at(0), Color::White, 0.05, None);
        assert_eq!(dk.offset(&s, &at(2), Color::White), 9.0);
        dk.adapt(&s, &at(2), Color::White, 0.05, None);
        // The bound: 10 points on 9x9, less the fade two moves on (10 × 41/45 → 9).
        assert_eq!(dk.offset(&s, &at(4), Color::White), 9.0);
        // Winning: back towards giving.
        dk.adapt(&s, &at(4), Color::White, 0.72, None);
        assert_eq!(dk.offset(&s, &at(6), Color::White), 8.0);
        dk.adapt(&s, &at(6), Color::White, 0.55, None);
        assert_eq!(dk.offset(&s, &at(8), Color::White), 8.0);
        // Late in the game the easy direction is gone: white gets no more than the real komi.
        assert_eq!(dk.offset(&s, &at(46), Color::White), 0.0);
        dk.adapt(&s, &at(46), Color::White, 0.01, None);
        assert_eq!(dk.offset(&s, &at(48), Color::White), 0.0);
        // ... but may still give more when far ahead.
        for k in 0..10 {
            dk.adapt(&s, &at(48 + 2 * k), Color::White, 0.99, None);
        }
        assert_eq!(dk.offset(&s, &at(68), Color::White), -10.0);
        // hane black, taking 3 stones: gives the linear 5 at first, more while winning,
        // at most 10; when losing, takes back its offset but late never receives any.
        let mut dk = DynamicKomi::default();
        assert_eq!(dk.offset(&s, &at(1), Color::Black), 5.0);
        for k in 0..5 {
            dk.adapt(&s, &at(1 + 2 * k), Color::Black, 0.95, None);
        }
        assert_eq!(dk.offset(&s, &at(11), Color::Black), 10.0);
        for k in 0..10 {
            dk.adapt(&s, &at(47 + 2 * k), Color::Black, 0.1, None);
        }
        assert_eq!(dk.offset(&s, &at(67), Color::Black), 0.0);
        dk.reset();
        assert_eq!(dk.offset(&s, &at(47), Color::Black), 0.0);
        assert_eq!(dk.offset(&s, &at(1), Color::Black), 0.0);
        dk.reset();
        assert_eq!(dk.offset(&s, &at(1), Color::Black), 5.0);
    }

    #[test]
    fn adaptive_bounds_scale_with_the_board() {
        assert_eq!(offset_bound(9, 5.0), 10.0);
        assert_eq!(offset_bound(19, 28.0), 45.0);
        assert_eq!(offset_bound(19, -63.0), 63.0);
        // Black to move: the easy direction is a negative offset.
        assert_eq!(clamp_offset(-30.0, Color::Black, 45.0, 0, 19, 200), -30.0);
        assert_eq!(clamp_offset(-30.0, Color::Black, 45.0, 100, 19, 200), -22.0);
        assert_eq!(clamp_offset(-30.0, Color::Black, 45.0, 200, 19, 200), 0.0);
        assert_eq!(clamp_offset(50.0, Color::Black, 45.0, 200, 19, 200), 45.0);
        // White: the mirror image.
        assert_eq!(clamp_offset(30.0, Color::White, 45.0, 100, 19, 200), 22.0);
        assert_eq!(clamp_offset(-50.0, Color::White, 45.0, 100, 19, 200), -45.0);
    }
}
