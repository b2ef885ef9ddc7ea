//! hane: a multithreaded Monte-Carlo tree search Go engine that speaks GTP.
//!
//! # Layers
//!
//! Each module depends only on the ones before it in this list:
//!
//! | module | owns |
//! |---|---|
//! | [`log`] | the process's log lines (stderr or a file), whose writes never fail |
//! | [`files`] | reading the files an operator names: regular files only, of bounded size |
//! | [`svg`] | the pieces of SVG the charts share: frame, document, text, percentage grid, points |
//! | [`board`] | points, stones, chains and liberties, ring codes, ko, Zobrist hashes, rules, game history, scoring, diagrams |
//! | [`tactics`] | liberty and self-atari helpers, the ladder reader, the eye-space reader |
//! | [`settings`] | the one settings definition: every engine setting with its default, help and ranges, in one parameter struct per layer |
//! | [`pattern`] | the pattern format of `patterns/`, 3x3 and larger shapes, learned weights, the trainer |
//! | [`playout`] | light and pattern-guided playout policies, the playout loop |
//! | [`search`] | the shared UCT tree (RAVE, priors, virtual loss), worker threads, analysis snapshots |
//! | [`play`] | choosing a move under a budget: clocks, pass/resign/cleanup rules, dead stones, the opening book |
//! | [`sgf`] | reading and writing game records |
//! | [`engine`] | the GTP server: one command table, handlers, framing, the input reader |
//! | [`arena`] | the match runner: referee, players, results, Elo, SPRT; the SPSA tuner |
//! | [`review`] | game review: every position of a record analysed, the loss of each move, the annotated SGF, chart and summary |
//! | [`cli`] | the `hane` subcommands, their flags derived from [`settings`] |
//!
//! # Example
//!
//! Set up a position, search a few hundred playouts and get a move:
//!
//! ```
//! use hane::board::{Color, GameState, Move, Rules};
//! use hane::play::{MoveRequest, Player};
//! use hane::search::SearchControl;
//! use hane::settings::{Auto, Settings};
//!
//! let mut game = GameState::new(9, Rules::default()).unwrap();
//! let geometry = game.geometry();
//! for (color, vertex) in [(Color::Black, "E5"), (Color::White, "C3")] {
//!     let point = geometry.parse_point(vertex).unwrap();
//!     game.play(color, Move::Play(point)).unwrap();
//! }
//! // The default engine, held to 300 playouts on one thread.
//! let mut settings = Settings::default();
//! settings.game.playouts = Some(300);
//! settings.game.threads = Auto::Value(1);
//! let mut player = Player::new(settings, hane::pattern::PatternTables::Builtin, 7);
//! let chosen = player.choose(
//!     &game,
//!     Color::Black,
//!     &MoveRequest::normal(None),
//!     &SearchControl::default(),
//!     None,
//! );
//! assert!(game.is_legal(Color::Black, chosen.mv));
//! assert!((1..=300).contains(&chosen.result.analysis.playouts));
//! println!("black plays {}", chosen.mv.to_gtp(geometry));
//! ```

pub mod arena;
pub mod board;
pub mod cli;
pub mod engine;
pub mod files;
pub mod log;
pub mod pattern;
pub mod play;
pub mod playout;
pub mod review;
pub mod search;
pub mod settings;
pub mod sgf;
pub mod svg;
pub mod tactics;

/// The machine's cores (hardware threads) as the operating system reports them, 1 when it
/// does not; asked once (on Linux the answer reads the cgroup files). What "one thread per
/// core" means everywhere: search threads on `auto`, `--threads 0` of the trainer and
/// `--threads all` of the bench.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES
        .get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
}
