//! What the referee needs from a player, whatever drives it: the [`Player`] trait, the
//! [`Fault`]s that lose a game, and the time control the referee announces and enforces.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::board::{Color, GameState, Move, Point};
use crate::play::clock::{TimeLeft, TimeSystem};

use super::results::OwlTally;

/// How a player broke the protocol or the rules; any of these loses the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// It chose a move the rules forbid.
    IllegalMove,
    /// It answered something that is not a valid reply (garbage, an error, a wrong id).
    BadReply,
    /// It did not answer in time.
    Timeout,
    /// The process exited or could not be started or written to.
    Crash,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal-move",
            FaultKind::BadReply => "bad-reply",
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
        }
    }
}

/// A fault with what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.detail)
    }
}

/// The time control of a match, as the referee announces and enforces it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum TimeControl {
    /// No clock; a move that takes longer than `max_move` seconds still counts as a hang.
    None { max_move: f64 },
    /// A fixed limit per move (sent as `time_settings 0 S 1`).
    PerMove { seconds: f64 },
    /// `main` seconds, then Canadian byo-yomi: `stones` moves in every `byo_yomi` seconds
    /// (absolute time when `byo_yomi` is 0), as GTP `time_settings` describes.
    Clock {
        main: f64,
        byo_yomi: f64,
        stones: u32,
    },
    /// Fischer: `main` seconds, and `increment` seconds added after every move (sent as
    /// `kata-time_settings fischer`, or to an engine without it as gtp2ogs does: Canadian
    /// byo-yomi of `main - increment` seconds and one move in `increment` seconds, with a
    /// `time_left` whose main time and period add up to the bank).
    Fischer { main: f64, increment: f64 },
}

impl TimeControl {
    /// The clock arithmetic's time system of a clock (`None` for no clock and for a fixed
    /// time per move, which keep no clock).
    pub fn system(self) -> TimeSystem {
        match self {
            TimeControl::None { .. } | TimeControl::PerMove { .. } => TimeSystem::None,
            TimeControl::Clock {
                main,
                byo_yomi,
                stones,
            } => TimeSystem::from_gtp(main, byo_yomi, stones),
            TimeControl::Fischer { main, increment } => TimeSystem::Fischer {
                main,
                increment,
                main_limit: None,
                move_limit: None,
            },
        }
    }
}

/// What the referee tells a player before `genmove`.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest {
    pub color: Color,
    /// The time the referee allows for this move (the margin not included).
    pub allowed: Duration,
    /// The clock as `time_left` reports it (in seconds with their fraction; an engine
    /// gets them rounded to what GTP allows), when there is a clock.
    pub time_left: Option<TimeLeft>,
    /// The match's time control.
    pub time_control: TimeControl,
    /// How long the referee waits beyond `allowed` before it calls a timeout.
    pub margin: Duration,
}

/// A player's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// A decision, the player's comment on it if it gave one, and the playouts its search ran,
/// the mover's win rate it found (under the game's komi) and what its root owl did for the
/// move (one move's [`OwlTally`]) when the player says (hane in-process does; an engine
/// behind GTP does not).
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub decision: Decision,
    pub comment: Option<String>,
    pub playouts: Option<u64>,
    pub winrate: Option<f32>,
    pub owl: Option<OwlTally>,
}

/// A player's opinion of the dead stones at the end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeadStones {
    /// A list of stones the player says are dead.
    Listed(Vec<Point>),
    /// The player cannot say (no such command, an error, or an answer that does not fit
    /// the board); the text says what happened.
    Unknown(String),
}

/// One side of a game. The referee owns the game: players only propose moves and are told
/// the moves that were played.
pub trait Player: Send {
    /// The name shown in records and reports.
    fn name(&self) -> &str;

    /// Sets up a new game that starts from `state` (board size, komi, handicap or setup
    /// stones, opening moves) under `time_control`; `seed` is the game's seed.
    fn new_game(
        &mut self,
        state: &GameState,
        time_control: TimeControl,
        seed: u64,
    ) -> Result<(), Fault>;

    /// Tells the player that `color` played `mv` (already checked by the referee).
    fn play(&mut self, state: &GameState, color: Color, mv: Move) -> Result<(), Fault>;

    /// Asks for a move in `state` (where `request.color` is to play).
    fn genmove(&mut self, state: &GameState, request: &MoveRequest) -> Result<Reply, Fault>;

    /// Asks which stones are dead in the final position.
    fn dead_stones(&mut self, state: &GameState) -> DeadStones;

    /// Starts the player afresh after a fault (a new process for an engine).
    fn restart(&mut self) -> Result<(), Fault>;

    /// Ends the session politely (`quit` for an engine).
    fn shut_down(&mut self) {}
}
