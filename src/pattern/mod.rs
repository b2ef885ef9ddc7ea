//! Learned move patterns: features of candidate moves (3x3 shapes with atari marks folded
//! over symmetries and colours, larger diamond shapes, tactical features, distances), the
//! Bradley-Terry weights learned from professional games, their plain-text table format
//! (`patterns/`), the trainer, move-prediction figures, and per-point priors for the tree.
//!
//! Two tables trained on professional games are compiled in ([`PatternTables::Builtin`]):
//! [`default_table`] for boards from [`LARGE_BOARD`] lines up, [`small_boards_table`] below;
//! [`load`] reads another one (`--patterns FILE`), used on every size.
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

/// The text of the shipped table for boards from [`LARGE_BOARD`] lines up.
pub const DEFAULT_TABLE_TEXT: &str = include_str!("../../patterns/default.txt");

/// The text of the shipped table for boards under [`LARGE_BOARD`] lines.
pub const SMALL_BOARDS_TABLE_TEXT: &str = include_str!("../../patterns/small-boards.txt");

/// The smallest board size that the compiled-in tables give [`default_table`].
pub const LARGE_BOARD: usize = 13;

static DEFAULT_TABLE: LazyLock<Arc<PatternTable>> = LazyLock::new(|| {
    Arc::new(PatternTable::parse(DEFAULT_TABLE_TEXT).expect("the shipped pattern table is valid"))
});

static SMALL_BOARDS_TABLE: LazyLock<Arc<PatternTable>> = LazyLock::new(|| {
    Arc::new(
        PatternTable::parse(SMALL_BOARDS_TABLE_TEXT)
            .expect("the shipped small-board pattern table is valid"),
    )
});

/// The shipped table of boards from [`LARGE_BOARD`] lines up (19x19's), parsed on first use.
pub fn default_table() -> &'static PatternTable {
    &DEFAULT_TABLE
}

/// The shipped table of boards under [`LARGE_BOARD`] lines, parsed on first use.
pub fn small_boards_table() -> &'static PatternTable {
    &SMALL_BOARDS_TABLE
}

/// The pattern tables a player uses, by board size: the compiled-in pair, or one table
/// (a `--patterns` file, a test's table) on every size. Cloning is cheap.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PatternTables {
    /// [`default_table`] from [`LARGE_BOARD`] lines up, [`small_boards_table`] below.
    #[default]
    Builtin,
    /// This table on every board size.
    One(Arc<PatternTable>),
}

impl PatternTables {
    /// The table of boards of `size` lines.
    pub fn for_size(&self, size: usize) -> &Arc<PatternTable> {
        match self {
            PatternTables::Builtin if size >= LARGE_BOARD => &DEFAULT_TABLE,
            PatternTables::Builtin => &SMALL_BOARDS_TABLE,
            PatternTables::One(table) => table,
        }
    }
}

impl From<Arc<PatternTable>> for PatternTables {
    fn from(table: Arc<PatternTable>) -> PatternTables {
        PatternTables::One(table)
    }
}

impl From<PatternTable> for PatternTables {
    fn from(table: PatternTable) -> PatternTables {
        PatternTables::One(Arc::new(table))
    }
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
