//! Learned move patterns: features of candidate moves (3x3 shapes with atari marks folded
//! over symmetries and colours, larger diamond shapes, tactical features, distances), the
//! Bradley-Terry weights learned from professional games, their plain-text table format
//! (`patterns/`), the trainer, move-prediction figures, and per-point priors for the tree.
//!
//! The table trained on professional games is compiled in ([`default_table`]); [`load`]
//! reads another one (`--patterns FILE`).
//!
//! Priors for the tree search: [`PatternTable::game_move_probabilities`] (from a
//! `GameState`) or [`PatternTable::move_probabilities`] (from a `Board` and a [`Context`]
//! holding the colour to move and the last two moves) fill a `MAX_CELLS`-long slice indexed
//! by `Point::index()` with the model's probability of each move and return the probability
//! of passing. Playouts: `playout::PatternPolicy`.

pub mod features;
pub mod shape;
pub mod table;
pub mod train;
pub mod training_run;

use std::sync::{Arc, LazyLock};

pub use features::{Context, Group, MoveFeatures, extract};
pub use table::{
    PatternError, PatternTable, PlayoutShapes, ShapeWeights, TemperedShapes, context, context_of,
};
pub use train::{PatternDataset, Prediction, ShapeCounter, for_each_position, for_each_state};

/// The text of the shipped table.
pub const DEFAULT_TABLE_TEXT: &str = include_str!("../../patterns/default.txt");

static DEFAULT_TABLE: LazyLock<Arc<PatternTable>> = LazyLock::new(|| {
    Arc::new(PatternTable::parse(DEFAULT_TABLE_TEXT).expect("the shipped pattern table is valid"))
});

/// The shipped table, parsed on first use.
pub fn default_table() -> &'static PatternTable {
    &DEFAULT_TABLE
}

/// The shipped table as a shared handle (for `SearchConfig::patterns`).
pub fn default_table_arc() -> Arc<PatternTable> {
    Arc::clone(&DEFAULT_TABLE)
}

/// Reads a table from a file of at most [`crate::files::DEFAULT_MAX_DATA_BYTES`] bytes; a
/// clear error (and nothing else changes) when it cannot.
pub fn load(path: &std::path::Path) -> Result<PatternTable, PatternError> {
    load_bounded(path, crate::files::DEFAULT_MAX_DATA_BYTES)
}

/// Reads a table from a regular file of at most `max_bytes` bytes (the `max-data-bytes`
/// setting).
pub fn load_bounded(
    path: &std::path::Path,
    max_bytes: usize,
) -> Result<PatternTable, PatternError> {
    let io = |message: String| PatternError::Io {
        path: path.display().to_string(),
        message,
    };
    let bytes = crate::files::read_regular_file(path, max_bytes, "max-data-bytes").map_err(io)?;
    let text = String::from_utf8(bytes).map_err(|_| io("not UTF-8 text".to_string()))?;
    PatternTable::parse(&text)
}
