//! The table of learned weights (Bradley-Terry "gammas"), its plain-text format, move
//! strengths, and the per-point priors the tree search uses.
//!
//! # Text format
//!
//! ```text
//! # free-form header lines: what the table was trained on, how, and its figures
//! hane-patterns 1
//! capture 2 31.6
//! edge 1 0.42
//! shape3 other 0.83
//! shape3 0x0a405 12.5
//! ```
//!
//! Lines starting with `#` are the header. The first other line is the version line. Each
//! further line is `GROUP KEY GAMMA`: `GROUP` one of `pass capture escape self_atari atari
//! dist_last dist_second edge liberties stones shape3 shape12 shape24 shape40 shape60`; `KEY`
//! a level (decimal, 1 up to the group's maximum) for the first ten groups, and for shape
//! groups either `other` (every shape not listed) or a folded shape code in hexadecimal (see
//! [`super::shape`]); `GAMMA` a positive finite number. A feature that is not listed has
//! gamma 1. A move's strength is the product of the gammas of its features; the model says
//! the move is chosen with probability strength / (sum of the strengths of all legal moves
//! and pass).
//!
//! A table with latent factors has the version line `hane-patterns 2 factors K` and K more
//! numbers on a feature line, the feature's factors; a line without them, like an unlisted
//! feature, has zeros (so the many rare shapes whose factors stay near zero cost no text). A
//! move's strength is then also multiplied by e to the sum, over each pair of its features,
//! of the dot product of their factors (the factorization Bradley-Terry model: a shape can
//! be worth more next to the last move, or early in the game, than the product of gammas
//! allows).
//!
//! Tables written before the `liberties`, `stones` and `shape60` groups existed have no
//! lines for them and read as before: every move has gamma 1 in them, so they predict
//! exactly what they did.

use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::{Board, Color, GameState, MAX_CELLS, Point, Recent};

use super::features::extract_tactical;
use super::features::{Context, Group, LEVELLED_GROUPS, MoveFeatures, SHAPE_GROUPS, extract};
use super::shape::{
    RAW_3X3_CODES, RawNeighbourhood, canonical_3x3_table, code_3x3, possible_atari_bits,
};

/// The version line of the format.
pub const FORMAT_LINE: &str = "hane-patterns 1";

/// The start of the version line of a table with latent factors, followed by their number:
/// `hane-patterns 2 factors K`.
pub const FACTORS_FORMAT_LINE: &str = "hane-patterns 2 factors";

/// The most latent factors a feature may have.
pub const MAX_FACTORS: usize = 32;

/// A running sum of some features' latent factors and of their squared norms, laid out as
/// the memo keeps it: `dims` sums, then the norms.
struct FactorSum {
    dims: usize,
    values: [f32; MAX_FACTORS + 1],
}

impl FactorSum {
    fn new(dims: usize) -> FactorSum {
        FactorSum {
            dims,
            values: [0.0; MAX_FACTORS + 1],
        }
    }

    /// Adds one feature's factors (none for an empty slice).
    fn add_factors(&mut self, v: &[f32]) {
        for (k, &x) in v.iter().enumerate() {
            self.values[k] += x;
            self.values[self.dims] += x * x;
        }
    }

    /// Adds another sum in the same layout (`dims + 1` values).
    fn add_sum(&mut self, row: &[f32]) {
        for (s, &x) in self.values.iter_mut().zip(row) {
            *s += x;
        }
    }

    /// The sum and norms, `dims + 1` values.
    fn row(&self) -> &[f32] {
        &self.values[..=self.dims]
    }

    /// The sum over pairs of the features of the dot products of their factors: half of
    /// the squared norm of the sum less the sum of their squared norms.
    fn pairs(&self) -> f64 {
        let squared: f32 = self.values[..self.dims].iter().map(|x| x * x).sum();
        0.5 * f64::from(squared - self.values[self.dims])
    }
}

/// Why a table could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum PatternError {
    /// The file could not be read.
    Io { path: String, message: String },
    /// Line `line` (1-based) is malformed.
    Syntax { line: usize, message: String },
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            PatternError::Syntax { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for PatternError {}

/// Gammas of one shape group: listed codes (sorted) and the gamma of every other code.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeWeights {
    codes: Vec<u64>,
    gammas: Vec<f32>,
    other: f32,
    /// The latent factors of a table with interactions: `dims` values for every unlisted
    /// code (first), then for each listed code in code order; empty in a table without.
    vectors: Vec<f32>,
}

impl Default for ShapeWeights {
    fn default() -> ShapeWeights {
        ShapeWeights {
            codes: Vec::new(),
            gammas: Vec::new(),
            other: 1.0,
            vectors: Vec::new(),
        }
    }
}

impl ShapeWeights {
    /// Builds from (code, gamma) pairs and the gamma of unlisted codes.
    pub fn new(mut entries: Vec<(u64, f32)>, other: f32) -> ShapeWeights {
        entries.sort_unstable_by_key(|&(c, _)| c);
        entries.dedup_by_key(|&mut (c, _)| c);
        ShapeWeights {
            codes: entries.iter().map(|&(c, _)| c).collect(),
            gammas: entries.iter().map(|&(_, g)| g).collect(),
            other,
            vectors: Vec::new(),
        }
    }

    /// Builds from (code, gamma, latent factors) triples and the gamma and factors of
    /// unlisted codes; every factor list has the same length.
    pub fn with_factors(
        mut entries: Vec<(u64, f32, Vec<f32>)>,
        other: f32,
        other_factors: Vec<f32>,
    ) -> ShapeWeights {
        entries.sort_by_key(|e| e.0);
        entries.dedup_by_key(|e| e.0);
        let dims = other_factors.len();
        let mut vectors = other_factors;
        for e in &entries {
            assert_eq!(e.2.len(), dims, "factor lists of one length");
            vectors.extend_from_slice(&e.2);
        }
        ShapeWeights {
            codes: entries.iter().map(|e| e.0).collect(),
            gammas: entries.iter().map(|e| e.1).collect(),
            other,
            vectors,
        }
    }

    /// The latent factors of a folded code (`dims` values; empty without factors).
    #[inline]
    fn factors(&self, code: u64, dims: usize) -> &[f32] {
        if self.vectors.is_empty() {
            return &[];
        }
        let row = match self.codes.binary_search(&code) {
            Ok(k) => k + 1,
            Err(_) => 0,
        };
        &self.vectors[row * dims..(row + 1) * dims]
    }

    /// The gamma of a folded code.
    #[inline]
    pub fn gamma(&self, code: u64) -> f32 {
        match self.codes.binary_search(&code) {
            Ok(k) => self.gammas[k],
            Err(_) => self.other,
        }
    }

    /// Number of listed codes.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The gamma of unlisted codes.
    pub fn other(&self) -> f32 {
        self.other
    }

    /// Listed (code, gamma) pairs in code order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, f32)> + '_ {
        self.codes.iter().copied().zip(self.gammas.iter().copied())
    }
}

/// The 3x3 gammas in the form the playout policy reads: one byte per raw code (a
/// quantised log-gamma, steps of 1/16 in the natural log, about 6%), so the whole table is
/// 1 MiB and stays in cache.
#[derive(Debug)]
pub struct PlayoutShapes {
    levels: Box<[u8]>,
    /// `bound_levels[cells]`: the highest level of the raw codes with these cells (the low
    /// 16 bits) and any atari bits they can have.
    bound_levels: Box<[u8; 1 << 16]>,
}

/// The playout gammas at one temperature ([`PlayoutShapes::tempered`]): the shared levels
/// and the gamma of each level.
#[derive(Clone, Debug)]
pub struct TemperedShapes<'t> {
    shapes: &'t PlayoutShapes,
    temperature: f32,
    gamma_of_level: [f32; 256],
}

impl<'t> TemperedShapes<'t> {
    /// The temperature.
    pub fn temperature(&self) -> f32 {
        self.temperature
    }

    /// The same shapes at another temperature.
    pub fn at(&self, temperature: f32) -> TemperedShapes<'t> {
        self.shapes.tempered(temperature)
    }

    /// The gamma (within about 3% at temperature 1) of a raw 3x3 code (see
    /// [`super::shape::raw_code_3x3`]).
    #[inline]
    pub fn gamma(&self, raw_code: u32) -> f32 {
        self.gamma_of_level[self.shapes.levels[raw_code as usize] as usize]
    }

    /// An upper bound of [`TemperedShapes::gamma`] over the raw codes with the given cells
    /// (see [`super::shape::cells_3x3`]), whatever their atari bits: exact for most cells,
    /// and known without looking at a chain.
    #[inline]
    pub fn gamma_bound(&self, cells: u32) -> f32 {
        self.gamma_of_level[self.shapes.bound_levels[cells as usize & 0xffff] as usize]
    }
}

impl PlayoutShapes {
    fn level_of(gamma: f32) -> u8 {
        ((gamma.ln() + 8.0) * 16.0).round().clamp(0.0, 255.0) as u8
    }

    /// The natural log of a level's gamma.
    fn log_gamma_of(level: u8) -> f32 {
        level as f32 / 16.0 - 8.0
    }

    /// The gammas raised to the power `1 / temperature` (1: as learned; below 1 the draw
    /// favours the best shapes more, above 1 it flattens towards uniform). A temperature
    /// keeps the order of the gammas, so the bounds stay bounds (a gamma is kept within
    /// e^80 of 1, so a temperature near 0 draws the best shapes almost always).
    pub fn tempered(&self, temperature: f32) -> TemperedShapes<'_> {
        TemperedShapes {
            shapes: self,
            temperature,
            gamma_of_level: std::array::from_fn(|q| {
                // Clamped so that a temperature near 0 cannot overflow a gamma.
                (PlayoutShapes::log_gamma_of(q as u8) / temperature)
                    .clamp(-80.0, 80.0)
                    .exp()
            }),
        }
    }

    /// The highest level over the atari variants of each 16-bit cells code.
    fn bound_levels(levels: &[u8]) -> Box<[u8; 1 << 16]> {
        let mut bounds = Box::new([0u8; 1 << 16]);
        for (cells, bound) in (0u32..).zip(bounds.iter_mut()) {
            // Every subset of the possible atari bits, the empty one included.
            let possible = possible_atari_bits(cells);
            let mut subset = possible;
            *bound = levels[cells as usize];
            while subset != 0 {
                *bound = (*bound).max(levels[(cells | subset) as usize]);
                subset = (subset - 1) & possible;
            }
        }
        bounds
    }
}

/// Learned weights of every feature.
#[derive(Default)]
pub struct PatternTable {
    header: Vec<String>,
    /// `levels[g][level]`: gamma of levelled group `g` at `level`; `[0]` is 1 (absent).
    levels: [Vec<f32>; LEVELLED_GROUPS],
    shapes: [ShapeWeights; SHAPE_GROUPS],
    /// Latent factors per feature (0: a plain Bradley-Terry table, no interactions).
    dims: usize,
    /// `level_factors[g][level * dims..]`: the factors of levelled group `g` at `level`
    /// (level 0, absent, has zeros); empty without factors.
    level_factors: [Vec<f32>; LEVELLED_GROUPS],
    /// Raw 3x3 code to gamma, built on first use by the playout policy.
    playout_3x3: OnceLock<PlayoutShapes>,
    /// Names this table's weights for the per-thread shape memo: new for every table, clone
    /// and change of weights, so a memo entry never outlives the weights it was made from.
    generation: Generation,
}

/// A process-wide unique number; `Default` draws the next one.
#[derive(Debug, PartialEq, Eq)]
struct Generation(u64);

impl Default for Generation {
    fn default() -> Generation {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Generation(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl Clone for PatternTable {
    fn clone(&self) -> PatternTable {
        PatternTable {
            header: self.header.clone(),
            levels: self.levels.clone(),
            shapes: self.shapes.clone(),
            dims: self.dims,
            level_factors: self.level_factors.clone(),
            playout_3x3: OnceLock::new(),
            generation: Generation::default(),
        }
    }
}

/// Slots of each table of the per-thread shape memo (a power of two).
const MEMO_SLOTS: usize = 1 << 16;

/// No neighbourhood code: real codes leave the top bits clear.
const MEMO_EMPTY: u128 = u128::MAX;

/// A direct-mapped memo, one per thread, from a move's raw neighbourhood
/// ([`RawNeighbourhood`]) to its shape gammas: the product of the 3x3, 12- and 24-point
/// gammas keyed by the raw 24-point diamond, the 40-point gamma keyed by the raw 40-point
/// diamond, and the 60-point gamma keyed by the raw 60-point diamond (only for tables that
/// list 60-point shapes). The tree search asks for the priors of thousands of positions that
/// differ in a few stones, so most neighbourhoods repeat, and a hit skips symmetry folds
/// and table searches. Kept per thread, and passed on from ended threads ([`MEMO_POOL`]).
struct ShapeMemo {
    generation: u64,
    /// (raw 24-point diamond, gamma product) pairs: key and value share a cache line.
    inner: Box<[(u64, f64)]>,
    /// (raw 40-point diamond, gamma) pairs.
    outer: Box<[(u128, f64)]>,
    /// (raw 60-point diamond, gamma) pairs.
    far: Box<[(u128, f64)]>,
    /// For a table with latent factors (`dims` of them): per slot of `inner`, `outer` and
    /// `far` in turn, the sum of the entry's shapes' factors and the sum of their squared
    /// norms (`dims + 1` values); empty for a plain table.
    factor_sums: Vec<f32>,
}

impl ShapeMemo {
    fn new() -> ShapeMemo {
        ShapeMemo {
            generation: 0,
            inner: vec![(MEMO_EMPTY as u64, 0.0); MEMO_SLOTS].into_boxed_slice(),
            outer: vec![(MEMO_EMPTY, 0.0); MEMO_SLOTS].into_boxed_slice(),
            far: vec![(MEMO_EMPTY, 0.0); MEMO_SLOTS].into_boxed_slice(),
            factor_sums: Vec::new(),
        }
    }

    /// Forgets every entry when `generation` is not the one the entries were made for,
    /// and sizes the factor sums for a table with `dims` latent factors.
    fn adopt(&mut self, generation: u64, dims: usize) {
        if self.generation != generation {
            self.inner.fill((MEMO_EMPTY as u64, 0.0));
            self.outer.fill((MEMO_EMPTY, 0.0));
            self.far.fill((MEMO_EMPTY, 0.0));
            self.generation = generation;
            let len = if dims == 0 {
                0
            } else {
                3 * MEMO_SLOTS * (dims + 1)
            };
            if self.factor_sums.len() != len {
                self.factor_sums = vec![0.0; len];
            }
        }
    }

    #[inline]
    fn slot(key: u128) -> usize {
        let mixed = (key as u64 ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (mixed >> (64 - MEMO_SLOTS.trailing_zeros())) as usize
    }
}

/// Memos of threads that have ended, for the next threads to take over warm: the search
/// starts its workers anew for every move, and a position's neighbourhoods mostly repeat
/// from one move to the next. Holds at most as many memos as threads ever ran at once.
static MEMO_POOL: parking_lot::Mutex<Vec<ShapeMemo>> = parking_lot::Mutex::new(Vec::new());

/// This thread's memo: taken from its pool (or made) on first use, given back to the pool
/// when the thread ends.
struct ThreadMemo {
    memo: Option<ShapeMemo>,
    pool: &'static parking_lot::Mutex<Vec<ShapeMemo>>,
}

impl ThreadMemo {
    const fn new(pool: &'static parking_lot::Mutex<Vec<ShapeMemo>>) -> ThreadMemo {
        ThreadMemo { memo: None, pool }
    }

    fn get(&mut self) -> &mut ShapeMemo {
        let pool = self.pool;
        self.memo
            .get_or_insert_with(|| pool.lock().pop().unwrap_or_else(ShapeMemo::new))
    }
}

impl Drop for ThreadMemo {
    fn drop(&mut self) {
        if let Some(memo) = self.memo.take() {
            self.pool.lock().push(memo);
        }
    }
}

thread_local! {
    static SHAPE_MEMO: RefCell<ThreadMemo> = const { RefCell::new(ThreadMemo::new(&MEMO_POOL)) };
}

/// A summary (header and sizes), not the thousands of weights.
impl fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatternTable")
            .field("header", &self.header)
            .field(
                "shapes",
                &self
                    .shapes
                    .iter()
                    .map(ShapeWeights::len)
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl PartialEq for PatternTable {
    fn eq(&self, other: &PatternTable) -> bool {
        self.header == other.header
            && self.levels == other.levels
            && self.shapes == other.shapes
            && self.dims == other.dims
            && self.level_factors == other.level_factors
    }
}

impl PatternTable {
    /// A table where every gamma is 1 (every legal move equally likely).
    pub fn uniform() -> PatternTable {
        let mut table = PatternTable::default();
        for g in Group::LEVELLED {
            table.levels[g.slot()] = vec![1.0; g.max_level() + 1];
        }
        table
    }

    /// The header lines (without their `# `).
    pub fn header(&self) -> &[String] {
        &self.header
    }

    pub fn set_header(&mut self, header: Vec<String>) {
        self.header = header;
    }

    /// Sets the gamma of `level` (1..=max) of a levelled group.
    pub fn set_level(&mut self, group: Group, level: usize, gamma: f32) {
        assert!(group.max_level() > 0 && (1..=group.max_level()).contains(&level));
        self.levels[group.slot()][level] = gamma;
        self.generation = Generation::default();
    }

    /// The gamma of `level` of a levelled group (1 for level 0, absent).
    #[inline]
    pub fn level_gamma(&self, group: Group, level: usize) -> f32 {
        self.levels[group.slot()].get(level).copied().unwrap_or(1.0)
    }

    /// Replaces a shape group's weights.
    pub fn set_shapes(&mut self, group: Group, weights: ShapeWeights) {
        assert!(Group::SHAPES.contains(&group));
        self.shapes[group.slot()] = weights;
        self.playout_3x3 = OnceLock::new();
        self.generation = Generation::default();
    }

    pub fn shapes(&self, group: Group) -> &ShapeWeights {
        &self.shapes[group.slot()]
    }

    /// The model's strength of a move with these features: the product of their gammas
    /// (the levelled groups' product times the shapes' product, in that order, so that
    /// [`PatternTable::move_probabilities`]'s memoised shapes give the same bits).
    #[inline]
    pub fn strength(&self, f: &MoveFeatures) -> f64 {
        let levels = self.level_strength(&f.levels);
        let plain = if f.is_pass {
            levels
        } else {
            levels * self.shape_strength(&f.shapes)
        };
        if self.dims == 0 {
            return plain;
        }
        plain * self.interaction(f).exp()
    }

    /// Latent factors per feature (0: none, a plain Bradley-Terry table).
    pub fn factor_count(&self) -> usize {
        self.dims
    }

    /// The interaction term of a table with latent factors: the sum over pairs of the
    /// move's features of the dot products of their factors, computed as half of the
    /// squared norm of the factors' sum less the sum of their squared norms.
    fn interaction(&self, f: &MoveFeatures) -> f64 {
        let mut sum = FactorSum::new(self.dims);
        self.add_level_factors(&f.levels, &mut sum);
        if !f.is_pass {
            for (weights, &code) in self.shapes.iter().zip(&f.shapes) {
                sum.add_factors(weights.factors(code, self.dims));
            }
        }
        sum.pairs()
    }

    /// Adds the factors of the levelled groups at these levels to `sum`.
    fn add_level_factors(&self, levels: &[u8; LEVELLED_GROUPS], sum: &mut FactorSum) {
        let dims = self.dims;
        for (slot, &level) in levels.iter().enumerate() {
            let level = level as usize;
            if level != 0
                && let Some(v) = self.level_factors[slot].get(level * dims..(level + 1) * dims)
            {
                sum.add_factors(v);
            }
        }
    }

    /// Gives the table latent factors: `level_factors[g]` holds `dims` values for each
    /// level of levelled group `g` from 0 (zeros) to its maximum; the shape groups' factors
    /// come with their weights ([`ShapeWeights::with_factors`], set after this).
    pub fn set_level_factors(&mut self, dims: usize, level_factors: [Vec<f32>; LEVELLED_GROUPS]) {
        assert!(dims <= MAX_FACTORS);
        for g in Group::LEVELLED {
            assert_eq!(level_factors[g.slot()].len(), (g.max_level() + 1) * dims);
        }
        self.dims = dims;
        self.level_factors = level_factors;
        self.generation = Generation::default();
    }

    /// Rounds every latent factor to a multiple of `1 / steps` and takes away the factors
    /// of each feature whose factors are all under `min` in magnitude (they become zeros,
    /// written as none): most rare shapes' factors stay near their small random start, and
    /// dropping them shortens the text several times over for a prediction that barely
    /// moves. Nothing changes in a table without factors.
    pub fn compact_factors(&mut self, steps: f64, min: f32) {
        let dims = self.dims;
        if dims == 0 {
            return;
        }
        let compact = |row: &mut [f32]| {
            if row.iter().all(|x| x.abs() < min) {
                row.fill(0.0);
            } else {
                for x in row.iter_mut() {
                    *x = ((f64::from(*x) * steps).round() / steps) as f32;
                }
            }
        };
        let rows = self
            .level_factors
            .iter_mut()
            .chain(self.shapes.iter_mut().map(|w| &mut w.vectors));
        for factors in rows {
            factors.chunks_exact_mut(dims).for_each(compact);
        }
        self.generation = Generation::default();
    }

    /// Whether the levelled group `group` changes any move's strength: a gamma other than
    /// 1 or a latent factor other than 0 at some level. The search runs the ownership
    /// playouts of [`Group::Owner`] only for a table that uses it.
    pub fn uses_group(&self, group: Group) -> bool {
        let slot = group.slot();
        Group::LEVELLED.contains(&group)
            && (self.levels[slot].iter().any(|&g| g != 1.0)
                || self.level_factors[slot].iter().any(|&f| f != 0.0))
    }

    /// The product of the gammas of the levelled groups at these levels.
    #[inline]
    fn level_strength(&self, levels: &[u8; LEVELLED_GROUPS]) -> f64 {
        let mut s = 1.0f64;
        for (slot, &level) in levels.iter().enumerate() {
            if level != 0 {
                s *= self.levels[slot]
                    .get(level as usize)
                    .copied()
                    .unwrap_or(1.0) as f64;
            }
        }
        s
    }

    /// The product of the gammas of these shape keys (one per shape group: 3x3, 12-, 24-,
    /// 40- and 60-point), multiplied in that order (a table without 60-point shapes leaves
    /// out their factor, which is its `other` gamma, 1 in the tables written before them).
    #[inline]
    fn shape_strength(&self, shapes: &[u64; SHAPE_GROUPS]) -> f64 {
        let inner = self.inner_shape_strength(shapes[0], shapes[1], shapes[2]);
        inner * self.shapes[3].gamma(shapes[3]) as f64 * self.shapes[4].gamma(shapes[4]) as f64
    }

    /// The product of the 3x3, 12- and 24-point gammas.
    #[inline]
    fn inner_shape_strength(&self, code_3x3: u64, d12: u64, d24: u64) -> f64 {
        self.shapes[0].gamma(code_3x3) as f64
            * self.shapes[1].gamma(d12) as f64
            * self.shapes[2].gamma(d24) as f64
    }

    /// The strength of a move on `p` for `color` to move, with its shape gammas looked up
    /// in (or added to) `memo`: equal to `strength(&extract(board, Some(p), ctx))`.
    fn memo_strength(&self, board: &Board, p: Point, ctx: &Context, memo: &mut ShapeMemo) -> f64 {
        if self.dims > 0 {
            return self.memo_strength_with_factors(board, p, ctx, memo);
        }
        let mut levels = [0u8; LEVELLED_GROUPS];
        extract_tactical(board, p, ctx, &mut levels);
        let raw = RawNeighbourhood::read(board, p, ctx.color);
        let entry = &mut memo.inner[ShapeMemo::slot(raw.inner as u128)];
        if entry.0 != raw.inner {
            let [d12, d24] = raw.inner_keys();
            *entry = (
                raw.inner,
                self.inner_shape_strength(code_3x3(board, p, ctx.color) as u64, d12, d24),
            );
        }
        let inner = entry.1;
        let entry = &mut memo.outer[ShapeMemo::slot(raw.outer)];
        if entry.0 != raw.outer {
            *entry = (raw.outer, self.shapes[3].gamma(raw.outer_key()) as f64);
        }
        let outer = entry.1;
        let far_weights = &self.shapes[4];
        let far = if far_weights.is_empty() {
            far_weights.other() as f64
        } else {
            let entry = &mut memo.far[ShapeMemo::slot(raw.far)];
            if entry.0 != raw.far {
                *entry = (raw.far, far_weights.gamma(raw.far_key()) as f64);
            }
            entry.1
        };
        self.level_strength(&levels) * (inner * outer * far)
    }

    /// [`PatternTable::memo_strength`] for a table with latent factors: each memo entry
    /// also keeps its shapes' factor sum and squared norms (`ShapeMemo::factor_sums`).
    fn memo_strength_with_factors(
        &self,
        board: &Board,
        p: Point,
        ctx: &Context,
        memo: &mut ShapeMemo,
    ) -> f64 {
        let dims = self.dims;
        let row = dims + 1;
        let mut levels = [0u8; LEVELLED_GROUPS];
        extract_tactical(board, p, ctx, &mut levels);
        let raw = RawNeighbourhood::read(board, p, ctx.color);
        // Writes the factor sum and squared norms of `factors` into `out`.
        let gather = |out: &mut [f32], factors: &[&[f32]]| {
            let mut sum = FactorSum::new(dims);
            for v in factors {
                sum.add_factors(v);
            }
            out.copy_from_slice(sum.row());
        };
        // Where the factor sums of slot `slot` of the memo's table `table` (0: inner,
        // 1: outer, 2: far) begin.
        let at = |table: usize, slot: usize| (table * MEMO_SLOTS + slot) * row;
        let inner = ShapeMemo::slot(raw.inner as u128);
        if memo.inner[inner].0 != raw.inner {
            let [d12, d24] = raw.inner_keys();
            let c3 = code_3x3(board, p, ctx.color) as u64;
            memo.inner[inner] = (raw.inner, self.inner_shape_strength(c3, d12, d24));
            let factors = [
                self.shapes[0].factors(c3, dims),
                self.shapes[1].factors(d12, dims),
                self.shapes[2].factors(d24, dims),
            ];
            let start = at(0, inner);
            gather(&mut memo.factor_sums[start..start + row], &factors);
        }
        let outer = ShapeMemo::slot(raw.outer);
        if memo.outer[outer].0 != raw.outer {
            let key = raw.outer_key();
            memo.outer[outer] = (raw.outer, self.shapes[3].gamma(key) as f64);
            let start = at(1, outer);
            gather(
                &mut memo.factor_sums[start..start + row],
                &[self.shapes[3].factors(key, dims)],
            );
        }
        let far = ShapeMemo::slot(raw.far);
        if memo.far[far].0 != raw.far {
            let key = raw.far_key();
            memo.far[far] = (raw.far, self.shapes[4].gamma(key) as f64);
            let start = at(2, far);
            gather(
                &mut memo.factor_sums[start..start + row],
                &[self.shapes[4].factors(key, dims)],
            );
        }
        let mut sum = FactorSum::new(dims);
        self.add_level_factors(&levels, &mut sum);
        for start in [at(0, inner), at(1, outer), at(2, far)] {
            sum.add_sum(&memo.factor_sums[start..start + row]);
        }
        let shapes = memo.inner[inner].1 * memo.outer[outer].1 * memo.far[far].1;
        self.level_strength(&levels) * shapes * sum.pairs().exp()
    }

    /// Gamma of every raw (unfolded) 3x3 code, for the playout policy: one lookup per
    /// candidate, no folding on the hot path. Built on first use.
    pub fn playout_3x3_gammas(&self) -> &PlayoutShapes {
        self.playout_3x3.get_or_init(|| {
            let canonical = canonical_3x3_table();
            let weights = &self.shapes[Group::Shape3.slot()];
            let levels: Box<[u8]> = (0..RAW_3X3_CODES)
                .map(|raw| PlayoutShapes::level_of(weights.gamma(canonical[raw] as u64)))
                .collect();
            PlayoutShapes {
                bound_levels: PlayoutShapes::bound_levels(&levels),
                levels,
            }
        })
    }

    /// Move probabilities for the tree search.
    ///
    /// For `ctx.color` to move on `board` (last moves in `ctx`), writes into `out` (indexed
    /// by [`Point::index`], at least `board.geometry().cells()` long, e.g. `MAX_CELLS`) the
    /// model's probability of each point: 0 for occupied points and moves the board forbids
    /// (simple ko, suicide), and returns the probability of passing. The probabilities sum
    /// to 1. Superko is not checked. Cost: feature extraction for every empty point (a few
    /// tenths of a microsecond each on 19x19); allocates nothing.
    pub fn move_probabilities(&self, board: &Board, ctx: &Context, out: &mut [f32]) -> f32 {
        let cells = board.geometry().cells();
        out[..cells].fill(0.0);
        let pass = self.strength(&extract(board, None, ctx));
        let mut total = pass;
        SHAPE_MEMO.with_borrow_mut(|memo| {
            let memo = memo.get();
            memo.adopt(self.generation.0, self.dims);
            for &index in board.empty_points() {
                let p = Point::from_index(index as usize);
                if board.is_legal(p, ctx.color) {
                    let s = self.memo_strength(board, p, ctx, memo);
                    out[p.index()] = s as f32;
                    total += s;
                }
            }
        });
        let scale = (1.0 / total) as f32;
        for v in &mut out[..cells] {
            *v *= scale;
        }
        (pass / total) as f32
    }

    /// [`PatternTable::move_probabilities`] for the player to move in a game, with the last
    /// two moves taken from its history. `out` must hold at least `MAX_CELLS` values.
    pub fn game_move_probabilities(&self, state: &GameState, out: &mut [f32]) -> f32 {
        assert!(out.len() >= MAX_CELLS.min(state.geometry().cells()));
        let ctx = context_of(state);
        self.move_probabilities(state.board(), &ctx, out)
    }

    /// Writes the table in the text format.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for line in &self.header {
            let _ = writeln!(out, "# {line}");
        }
        let dims = self.dims;
        if dims == 0 {
            let _ = writeln!(out, "{FORMAT_LINE}");
        } else {
            let _ = writeln!(out, "{FACTORS_FORMAT_LINE} {dims}");
        }
        // A line of a table with factors has `dims` of them, or none where all are zero.
        let factors = |out: &mut String, v: &[f32]| {
            if v.iter().any(|&x| x != 0.0) {
                for k in 0..dims {
                    let _ = write!(out, " {}", v.get(k).copied().unwrap_or(0.0));
                }
            }
            out.push('\n');
        };
        for g in Group::LEVELLED {
            for (level, gamma) in self.levels[g.slot()].iter().enumerate().skip(1) {
                let _ = write!(out, "{} {level} {gamma}", g.name());
                let row = self.level_factors[g.slot()]
                    .get(level * dims..(level + 1) * dims)
                    .unwrap_or(&[]);
                factors(&mut out, row);
            }
        }
        for g in Group::SHAPES {
            let weights = &self.shapes[g.slot()];
            let _ = write!(out, "{} other {}", g.name(), weights.other);
            factors(&mut out, weights.vectors.get(..dims).unwrap_or(&[]));
            for (k, (code, gamma)) in weights.entries().enumerate() {
                let _ = write!(out, "{} {code:#x} {gamma}", g.name());
                let row = weights
                    .vectors
                    .get((k + 1) * dims..(k + 2) * dims)
                    .unwrap_or(&[]);
                factors(&mut out, row);
            }
        }
        out
    }

    /// Reads a table in the text format.
    pub fn parse(text: &str) -> Result<PatternTable, PatternError> {
        let mut table = PatternTable::uniform();
        let mut header = Vec::new();
        let mut seen_version = false;
        let mut shape_entries: [Vec<(u64, f32, Vec<f32>)>; SHAPE_GROUPS] = Default::default();
        let mut shape_other: [Option<(f32, Vec<f32>)>; SHAPE_GROUPS] = Default::default();
        let mut dims = 0usize;
        let mut level_factors: [Vec<f32>; LEVELLED_GROUPS] = Default::default();
        let mut level_seen = [[false; 64]; LEVELLED_GROUPS];
        for (k, raw_line) in text.lines().enumerate() {
            let line_no = k + 1;
            let err = |message: String| PatternError::Syntax {
                line: line_no,
                message,
            };
            let line = raw_line.trim();
            if let Some(comment) = line.strip_prefix('#') {
                if !seen_version {
                    header.push(comment.strip_prefix(' ').unwrap_or(comment).to_string());
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            if !seen_version {
                if line != FORMAT_LINE {
                    let count = line
                        .strip_prefix(FACTORS_FORMAT_LINE)
                        .and_then(|rest| rest.trim().parse::<usize>().ok())
                        .filter(|k| (1..=MAX_FACTORS).contains(k));
                    let Some(count) = count else {
                        return Err(err(format!(
                            "expected `{FORMAT_LINE}` or `{FACTORS_FORMAT_LINE} K` with K in \
                             1..={MAX_FACTORS} (the version line)"
                        )));
                    };
                    dims = count;
                    for g in Group::LEVELLED {
                        level_factors[g.slot()] = vec![0.0; (g.max_level() + 1) * dims];
                    }
                }
                seen_version = true;
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 3 + dims && fields.len() != 3 {
                return Err(err(if dims == 0 {
                    format!(
                        "expected three fields `GROUP KEY GAMMA`, found {}",
                        fields.len()
                    )
                } else {
                    format!(
                        "expected 3 fields `GROUP KEY GAMMA`, or {} with the factors, found {}",
                        3 + dims,
                        fields.len()
                    )
                }));
            }
            let (group, key, gamma) = (fields[0], fields[1], fields[2]);
            let mut factors = Vec::with_capacity(dims);
            for field in &fields[3..] {
                let x: f32 = field
                    .parse()
                    .ok()
                    .filter(|x: &f32| x.is_finite() && x.abs() <= 1e3)
                    .ok_or_else(|| {
                        err(format!(
                            "the factor `{field}` is not a number between -1000 and 1000"
                        ))
                    })?;
                factors.push(x);
            }
            factors.resize(dims, 0.0);
            let group = Group::from_name(group).ok_or_else(|| {
                let known: Vec<&str> = Group::all().map(Group::name).collect();
                err(format!(
                    "unknown feature group (known: {})",
                    known.join(" ")
                ))
            })?;
            let gamma: f32 = gamma
                .parse()
                .ok()
                .filter(|g: &f32| g.is_finite() && *g > 0.0)
                .ok_or_else(|| err("the gamma is not a positive number".to_string()))?;
            if group.max_level() > 0 {
                let level: usize = key
                    .parse()
                    .ok()
                    .filter(|l| (1..=group.max_level()).contains(l))
                    .ok_or_else(|| {
                        err(format!(
                            "the level of `{}` is not in 1..={}",
                            group.name(),
                            group.max_level()
                        ))
                    })?;
                let seen = &mut level_seen[group.slot()][level];
                if *seen {
                    return Err(err(format!("`{} {level}` listed twice", group.name())));
                }
                *seen = true;
                table.levels[group.slot()][level] = gamma;
                level_factors[group.slot()][level * dims..(level + 1) * dims]
                    .copy_from_slice(&factors);
            } else if key == "other" {
                let slot = &mut shape_other[group.slot()];
                if slot.is_some() {
                    return Err(err(format!("`{} other` listed twice", group.name())));
                }
                *slot = Some((gamma, factors));
            } else {
                let code = key
                    .strip_prefix("0x")
                    .and_then(|hex| u64::from_str_radix(hex, 16).ok())
                    .ok_or_else(|| err("the shape code is not `0x` and hex digits".to_string()))?;
                shape_entries[group.slot()].push((code, gamma, factors));
            }
        }
        if !seen_version {
            return Err(PatternError::Syntax {
                line: text.lines().count().max(1),
                message: format!("no `{FORMAT_LINE}` line"),
            });
        }
        for g in Group::SHAPES {
            let entries = std::mem::take(&mut shape_entries[g.slot()]);
            let count = entries.len();
            let (other, other_factors) = shape_other[g.slot()]
                .take()
                .unwrap_or_else(|| (1.0, vec![0.0; dims]));
            let weights = if dims == 0 {
                ShapeWeights::new(entries.into_iter().map(|e| (e.0, e.1)).collect(), other)
            } else {
                ShapeWeights::with_factors(entries, other, other_factors)
            };
            if weights.len() != count {
                return Err(PatternError::Syntax {
                    line: 0,
                    message: format!("a `{}` code is listed twice", g.name()),
                });
            }
            table.shapes[g.slot()] = weights;
        }
        if dims > 0 {
            table.dims = dims;
            table.level_factors = level_factors;
        }
        table.header = header;
        Ok(table)
    }
}

/// The feature context of the player to move in a game: the last two moves.
pub fn context_of(state: &GameState) -> Context<'static> {
    Context::new(state.to_move(), Recent::of_game(state))
}

/// The feature context for `color` to move with the given last two moves.
pub fn context(color: Color, last: Option<Point>, second_last: Option<Point>) -> Context<'static> {
    Context::new(color, Recent::new(last, second_last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_memo_passes_to_the_next_thread_through_its_pool() {
        static POOL: parking_lot::Mutex<Vec<ShapeMemo>> = parking_lot::Mutex::new(Vec::new());
        thread_local! {
            static MEMO: RefCell<ThreadMemo> = const { RefCell::new(ThreadMemo::new(&POOL)) };
        }
        let first = std::thread::spawn(|| {
            MEMO.with_borrow_mut(|m| {
                let memo = m.get();
                assert_eq!(memo.generation, 0, "a new memo");
                memo.generation = 12345;
                memo.inner[7] = (99, 2.5);
            })
        });
        first.join().unwrap();
        assert_eq!(POOL.lock().len(), 1, "the ended thread gave its memo back");
        let second = std::thread::spawn(|| {
            MEMO.with_borrow_mut(|m| {
                let memo = m.get();
                (memo.generation, memo.inner[7])
            })
        });
        assert_eq!(second.join().unwrap(), (12345, (99, 2.5)));
        assert_eq!(POOL.lock().len(), 1, "one memo, passed on and back");
        // A thread that never asks for a memo neither takes nor adds one.
        std::thread::spawn(|| MEMO.with_borrow_mut(|_| ()))
            .join()
            .unwrap();
        assert_eq!(POOL.lock().len(), 1);
    }
}
