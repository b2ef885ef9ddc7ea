//! Playouts: the policy interface, the uniform-random ("light") policy of the reference bot,
//! the playout loop, per-worker random generators, AMAF records, and a batch runner used by
//! `hane bench` and the reference-figure tests. Nothing here allocates per move.

pub mod ownership;
mod pattern_policy;
pub mod replies;
pub use pattern_policy::{PatternPolicy, run_pattern_playout, run_pattern_playouts};
pub use replies::ReplyMemory;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

use crate::board::{Board, Color, GameState, MAX_CELLS, Move, Point, Recent};

/// The random generator every playout worker owns.
pub type PlayoutRng = Pcg32;

/// A generator for worker `worker` of a run seeded with `seed`: the same pair always gives
/// the same stream, so a one-thread run with a fixed seed is reproducible.
pub fn playout_rng(seed: u64, worker: u64) -> PlayoutRng {
    let mixed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
        ^ worker
            .wrapping_mul(0xD1B5_4A32_D192_ED03)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    Pcg32::seed_from_u64(mixed)
}

/// A uniformly distributed integer in `0..bound` (`bound > 0`), by multiply-shift: the bias
/// is below `bound / 2^32`, far under anything a playout statistic can see.
#[inline]
pub fn random_below(rng: &mut PlayoutRng, bound: usize) -> usize {
    ((rng.next_u32() as u64 * bound as u64) >> 32) as usize
}

/// A playout policy chooses the next move for `color`, or `None` to pass.
pub trait PlayoutPolicy {
    fn choose(&mut self, board: &mut Board, color: Color, rng: &mut PlayoutRng) -> Option<Point>;

    /// Called before each playout with the position's last two moves (policies that look
    /// at the last move need them; the default ignores them).
    fn start(&mut self, _recent: Recent) {}
}

/// Receives every stone a playout plays (AMAF statistics listen here).
pub trait MoveSink {
    fn record(&mut self, color: Color, point: Point);
}

/// A sink that ignores everything.
impl MoveSink for () {
    #[inline]
    fn record(&mut self, _: Color, _: Point) {}
}

/// Which colour first played on each point during a playout (all-moves-as-first), and at
/// which step: the record counts the stones it is told of, starting from
/// [`AmafRecord::set_step`] (the search starts a playout's count after its tree moves).
#[derive(Clone)]
pub struct AmafRecord {
    first: [u8; MAX_CELLS],
    /// The step at which `first` was recorded; meaningless where `first` is 0 (never
    /// cleared).
    step: [u16; MAX_CELLS],
    /// The step of the next stone recorded.
    next: u16,
}

impl Default for AmafRecord {
    fn default() -> AmafRecord {
        AmafRecord {
            first: [0; MAX_CELLS],
            step: [0; MAX_CELLS],
            next: 0,
        }
    }
}

impl AmafRecord {
    /// Forgets everything (cheap: one fill) and restarts the step count at 0.
    pub fn clear(&mut self) {
        self.first.fill(0);
        self.next = 0;
    }

    /// Sets the step of the next stone recorded.
    #[inline]
    pub fn set_step(&mut self, step: usize) {
        self.next = step.min(u16::MAX as usize) as u16;
    }

    /// The step the next stone would get: after a playout, its length in stones plus the
    /// count it started from.
    #[inline]
    pub fn next_step(&self) -> usize {
        self.next as usize
    }

    /// Records `color` as the first to play on `point` at `step`, whatever was recorded
    /// before (the search's backup writes the tree moves over the playout's, shallowest
    /// last).
    #[inline]
    pub fn overwrite(&mut self, color: Color, point: Point, step: usize) {
        self.first[point.index()] = color as u8;
        self.step[point.index()] = step.min(u16::MAX as usize) as u16;
    }

    /// The colour code (`Color as u8`; 0 for none) first recorded on the cell `index`; 0 for
    /// cells no move was recorded on, the border cells included.
    #[inline]
    pub fn first_code(&self, index: usize) -> u8 {
        self.first[index]
    }

    /// The step at which the cell `index` was first played (only meaningful where
    /// [`AmafRecord::first_code`] is not 0).
    #[inline]
    pub fn first_step(&self, index: usize) -> usize {
        self.step[index] as usize
    }

    /// Marks `point` as first played by `color` at the current step, unless a colour is
    /// already recorded; the step count advances either way.
    #[inline]
    pub fn mark(&mut self, color: Color, point: Point) {
        let i = point.index();
        if self.first[i] == 0 {
            self.first[i] = color as u8;
            self.step[i] = self.next;
        }
        self.next = self.next.saturating_add(1);
    }
}

impl MoveSink for AmafRecord {
    #[inline]
    fn record(&mut self, color: Color, point: Point) {
        self.mark(color, point);
    }
}

/// The reference bot's policy: a uniformly random move among the legal ones that do not fill
/// one's own one-point eye; simple ko and suicide are illegal.
#[derive(Clone, Copy, Debug, Default)]
pub struct LightPolicy;

impl PlayoutPolicy for LightPolicy {
    #[inline]
    fn choose(&mut self, board: &mut Board, color: Color, rng: &mut PlayoutRng) -> Option<Point> {
        random_acceptable_move(board, color, rng, |_, _| true)
    }
}

/// Samples empty points uniformly without replacement until one is legal for `color`, is not
/// its own eye, and passes `accept`; `None` when no point qualifies.
#[inline]
pub fn random_acceptable_move(
    board: &mut Board,
    color: Color,
    rng: &mut PlayoutRng,
    mut accept: impl FnMut(&Board, Point) -> bool,
) -> Option<Point> {
    let mut remaining = board.empty_count();
    while remaining > 0 {
        let slot = random_below(rng, remaining);
        let p = Point::from_index(board.empty_points()[slot] as usize);
        if board.is_legal_non_eye(p, color) && accept(board, p) {
            return Some(p);
        }
        remaining -= 1;
        board.swap_empty_slots(slot, remaining);
    }
    None
}

/// What a playout ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutOutcome {
    /// Moves played, passes included (both final passes too).
    pub moves: u32,
    /// Tromp-Taylor area score at the end, black minus white, without komi.
    pub score: i32,
    /// Whether the move cap stopped the playout before two passes.
    pub capped: bool,
}

impl PlayoutOutcome {
    /// The winner with the given komi; `None` for a draw.
    pub fn winner(&self, komi: f32) -> Option<Color> {
        let margin = self.score as f32 - komi;
        if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// Plays `moves` moves of [`LightPolicy`] on `state`, a pass where the drawn move is illegal
/// under the state's rules (superko), and returns them: the seeded random positions that
/// benchmarks and tests start from.
pub fn play_random_moves(
    state: &mut GameState,
    moves: usize,
    rng: &mut PlayoutRng,
) -> Vec<(Color, Move)> {
    let mut scratch = state.board().clone();
    let mut played = Vec::with_capacity(moves);
    for _ in 0..moves {
        let color = state.to_move();
        scratch.copy_from(state.board());
        let drawn = LightPolicy
            .choose(&mut scratch, color, rng)
            .map_or(Move::Pass, Move::Play);
        let mv = if state.play(color, drawn).is_ok() {
            drawn
        } else {
            // A pass is always legal.
            let _ = state.play(color, Move::Pass);
            Move::Pass
        };
        played.push((color, mv));
    }
    played
}

/// Default move cap of a playout: three times the board area (random games with simple ko
/// can cycle for ever).
pub fn default_move_cap(size: usize) -> usize {
    3 * size * size + 16
}

/// Plays `board` out from `to_move` with `policy` until two passes in a row or `max_moves`
/// moves, and scores the end position by area.
#[inline]
pub fn run_playout<P: PlayoutPolicy, S: MoveSink>(
    board: &mut Board,
    to_move: Color,
    policy: &mut P,
    rng: &mut PlayoutRng,
    max_moves: usize,
    sink: &mut S,
) -> PlayoutOutcome {
    let mut color = to_move;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        match policy.choose(board, color, rng) {
            Some(p) => {
                board.play_unchecked(p, color);
                sink.record(color, p);
                passes = 0;
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        moves += 1;
        color = color.opponent();
    }
    PlayoutOutcome {
        moves: moves as u32,
        score: board.area_score(),
        capped: passes < 2,
    }
}

/// Totals of a batch of playouts, with the distribution of final scores so that win rates
/// can be read for any komi afterwards.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutStats {
    pub playouts: u64,
    pub moves: u64,
    pub capped: u64,
    /// `score_counts[s + offset]` playouts ended with area score `s` (black minus white).
    score_counts: Vec<u64>,
    offset: i32,
}

impl PlayoutStats {
    /// Empty totals for boards of `size`.
    pub fn new(size: usize) -> PlayoutStats {
        let area = (size * size) as i32;
        PlayoutStats {
            playouts: 0,
            moves: 0,
            capped: 0,
            score_counts: vec![0; 2 * area as usize + 1],
            offset: area,
        }
    }

    /// Adds one playout's outcome.
    pub fn record(&mut self, outcome: &PlayoutOutcome) {
        self.playouts += 1;
        self.moves += outcome.moves as u64;
        self.capped += outcome.capped as u64;
        self.score_counts[(outcome.score + self.offset) as usize] += 1;
    }

    pub fn moves_per_playout(&self) -> f64 {
        self.moves as f64 / self.playouts.max(1) as f64
    }

    /// Black's share of all playouts with the given komi (draws count as not won).
    pub fn black_winrate(&self, komi: f32) -> f64 {
        let wins: u64 = self
            .score_counts
            .iter()
            .enumerate()
            .filter(|&(k, _)| (k as i32 - self.offset) as f32 > komi)
            .map(|(_, &n)| n)
            .sum();
        wins as f64 / self.playouts.max(1) as f64
    }

    /// Mean area score, black minus white, without komi.
    pub fn mean_score(&self) -> f64 {
        let total: i64 = self
            .score_counts
            .iter()
            .enumerate()
            .map(|(k, &n)| (k as i64 - self.offset as i64) * n as i64)
            .sum();
        total as f64 / self.playouts.max(1) as f64
    }

    /// Adds another batch's totals (same board size).
    pub fn merge(&mut self, other: &PlayoutStats) {
        self.playouts += other.playouts;
        self.moves += other.moves;
        self.capped += other.capped;
        for (mine, theirs) in self.score_counts.iter_mut().zip(&other.score_counts) {
            *mine += theirs;
        }
    }
}

/// Runs `playouts` light playouts from `start` (black to move) on `threads` threads, worker
/// `k` seeded with `(seed, k)`.
pub fn run_light_playouts(start: &Board, playouts: u64, threads: usize, seed: u64) -> PlayoutStats {
    run_playouts(start, playouts, threads, seed, || LightPolicy)
}

/// Runs `playouts` playouts from `start` (black to move, no earlier moves) on `threads`
/// threads, each worker with its own policy from `make_policy`, worker `k` seeded with
/// `(seed, k)`; the batch behind `hane bench` and the reference-figure tests.
pub fn run_playouts<P: PlayoutPolicy>(
    start: &Board,
    playouts: u64,
    threads: usize,
    seed: u64,
    make_policy: impl Fn() -> P + Sync,
) -> PlayoutStats {
    let threads = threads.max(1);
    let cap = default_move_cap(start.size());
    let worker = |k: usize| {
        let share = playouts / threads as u64 + ((k as u64) < playouts % threads as u64) as u64;
        let mut rng = playout_rng(seed, k as u64);
        let mut board = start.clone();
        let mut policy = make_policy();
        let mut stats = PlayoutStats::new(start.size());
        for _ in 0..share {
            board.copy_from(start);
            policy.start(Recent::default());
            let outcome = run_playout(
                &mut board,
                Color::Black,
                &mut policy,
                &mut rng,
                cap,
                &mut (),
            );
            stats.record(&outcome);
        }
        stats
    };
    if threads == 1 {
        return worker(0);
    }
    let mut total = PlayoutStats::new(start.size());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| scope.spawn(move || worker(k)))
            .collect();
        for handle in handles {
            total.merge(&handle.join().expect("playout worker panicked"));
        }
    });
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_amaf_record_keeps_the_step_of_each_first_move() {
        let [a, b, c] = [30, 31, 32].map(Point::from_index);
        let mut record = AmafRecord::default();
        record.set_step(3);
        record.mark(Color::Black, a);
        record.mark(Color::White, b);
        // A later stone on `a` (after a capture) keeps the first one, but takes a step.
        record.mark(Color::White, a);
        record.mark(Color::Black, c);
        assert_eq!(record.next_step(), 7);
        assert_eq!(
            [a, b, c].map(|p| (record.first_code(p.index()), record.first_step(p.index()))),
            [
                (Color::Black as u8, 3),
                (Color::White as u8, 4),
                (Color::Black as u8, 6)
            ]
        );
        // A tree move written over it takes the tree's step.
        record.overwrite(Color::White, c, 1);
        assert_eq!(record.first_code(c.index()), Color::White as u8);
        assert_eq!(record.first_step(c.index()), 1);
        record.clear();
        assert_eq!(record.first_code(a.index()), 0);
        assert_eq!(record.next_step(), 0);
    }
}
