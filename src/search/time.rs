//! The clock model: time systems as GTP describes them (`time_settings`,
//! `kgs-time_settings`, `time_left`) and the budget for one move.

use std::time::Duration;

/// A time system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit.
    None,
    /// `main` seconds for the whole game.
    Absolute { main: f64 },
    /// Japanese byo-yomi: `main` seconds, then `periods` periods of `period` seconds.
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    /// Canadian: `main` seconds, then `stones` moves in every `period` seconds.
    Canadian { main: f64, period: f64, stones: u32 },
}

impl TimeSystem {
    /// From GTP `time_settings main byo stones`: `byo == 0` absolute, `stones == 0` (with
    /// `byo > 0`) no limit, otherwise Canadian.
    pub fn from_gtp(main: f64, byo_yomi: f64, stones: u32) -> TimeSystem {
        if byo_yomi <= 0.0 {
            TimeSystem::Absolute { main }
        } else if stones == 0 {
            TimeSystem::None
        } else {
            TimeSystem::Canadian {
                main,
                period: byo_yomi,
                stones,
            }
        }
    }
}

/// What `time_left color time stones` reported: seconds left in the current period, and the
/// stones (Canadian) or periods (byo-yomi) left; 0 while main time runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLeft {
    pub seconds: f64,
    pub stones_or_periods: u32,
}

/// Time to spend on the next move, given the system, what the controller last said is left
/// (if anything), the number of moves played and the board size, keeping `margin` seconds
/// for network lag. `None` means no limit.
pub fn move_budget(
    system: TimeSystem,
    left: Option<TimeLeft>,
    moves_played: usize,
    board_size: usize,
    margin: f64,
) -> Option<Duration> {
    let area = (board_size * board_size) as f64;
    // Expected moves still to play by this player: about half the empty board, never few.
    let moves_to_go = ((area * 0.9 - moves_played as f64) / 2.0)
        .max(area / 8.0)
        .max(4.0);
    let seconds = match system {
        TimeSystem::None => return None,
        TimeSystem::Absolute { main } => {
            let remaining = left.map_or(main, |l| l.seconds);
            remaining / moves_to_go
        }
        TimeSystem::Byoyomi {
            main,
            period,
            periods,
        } => match left {
            Some(l) if l.stones_or_periods > 0 => l.seconds.min(period),
            Some(l) => l.seconds / moves_to_go + period * 0.9,
            None if main > 0.0 => main / moves_to_go + period * 0.9,
            None if periods > 0 => period,
            None => 0.0,
        },
        TimeSystem::Canadian {
            main,
            period,
            stones,
        } => match left {
            Some(l) if l.stones_or_periods > 0 => l.seconds / l.stones_or_periods as f64,
            Some(l) => l.seconds / moves_to_go + period / stones.max(1) as f64 * 0.9,
            None if main > 0.0 => main / moves_to_go,
            None => period / stones.max(1) as f64,
        },
    };
    Some(Duration::from_secs_f64((seconds - margin).max(0.05)))
}
