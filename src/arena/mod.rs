//! The match runner: plays a list of games between two players (GTP engines run as
//! subprocesses, or hane in-process), with the [`referee`] owning every game, on `--jobs`
//! worker threads; writes one SGF and one JSON line per finished game into a result folder,
//! resumes an interrupted match from that folder, plays only a shard of the game list when
//! asked, stops early on an SPRT verdict, and reports (text and an SVG chart). The tuner
//! ([`tune`], with the algorithm in [`spsa`]) plays its games as matches of this runner.

pub mod chart;
pub mod engine_process;
mod game;
pub mod hane_player;
pub mod opening_lines;
pub mod player;
pub mod progress;
pub mod referee;
pub mod results;
mod run;
mod shard;
mod spec;
pub mod spsa;
mod start_up;
pub mod stats;
pub mod tune;

pub use game::start_position;
pub use run::{MatchPlan, MatchSummary, check_out_dir, run_match};
pub use shard::{Engine1Colour, GameSpec, Merged, game_list, in_shard, merge_folders, parse_shard};
pub use spec::{EngineSpec, MAX_SECONDS, Opening, check_seconds, load_openings, time_control};
