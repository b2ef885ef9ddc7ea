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

/// Time for one move: the planned `budget`, and the most the search may take (`max`) when
/// the best move is still uncertain at the end of the budget. Both already keep the margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    pub budget: Duration,
    pub max: Duration,
}

/// Like [`move_budget`], with the extension allowed for an uncertain position: up to twice the
/// budget while main time runs (never more than a fifth of what is left), half again in a
/// Canadian period with stones to spare, and nothing extra in a byo-yomi period (overrunning
/// one loses it). `None` means no limit.
pub fn move_time(
    system: TimeSystem,
    left: Option<TimeLeft>,
    moves_played: usize,
    board_size: usize,
    margin: f64,
) -> Option<MoveTime> {
    let budget = move_budget(system, left, moves_played, board_size, margin)?;
    let b = budget.as_secs_f64();
    let max = match system {
        TimeSystem::None => return None,
        TimeSystem::Absolute { main } => {
            let remaining = left.map_or(main, |l| l.seconds);
            (2.0 * b).min(remaining * 0.2 - margin)
        }
        TimeSystem::Byoyomi { main, period, .. } => match left {
            Some(l) if l.stones_or_periods > 0 => b,
            Some(l) => (2.0 * b).min(l.seconds * 0.2 + period * 0.9 - margin),
            None if main > 0.0 => (2.0 * b).min(main * 0.2 + period * 0.9 - margin),
            None => b,
        },
        TimeSystem::Canadian { main, .. } => match left {
            Some(l) if l.stones_or_periods > 1 => 1.5 * b,
            Some(l) if l.stones_or_periods == 1 => b,
            Some(l) => (2.0 * b).min(l.seconds * 0.2 - margin),
            None if main > 0.0 => (2.0 * b).min(main * 0.2 - margin),
            None => b,
        },
    };
    Some(MoveTime {
        budget,
        max: Duration::from_secs_f64(max.max(b)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byoyomi_period_never_extends() {
        let system = TimeSystem::Byoyomi {
            main: 0.0,
            period: 10.0,
            periods: 3,
        };
        let left = TimeLeft {
            seconds: 10.0,
            stones_or_periods: 3,
        };
        let t = move_time(system, Some(left), 40, 9, 1.0).unwrap();
        assert_eq!(t.budget, t.max);
        assert!(t.max.as_secs_f64() <= 9.0 + 1e-9);
    }

    #[test]
    fn absolute_extension_is_bounded_by_what_is_left() {
        let system = TimeSystem::Absolute { main: 60.0 };
        let left = TimeLeft {
            seconds: 5.0,
            stones_or_periods: 0,
        };
        let t = move_time(system, Some(left), 10, 9, 0.5).unwrap();
        assert!(t.max >= t.budget);
        assert!(t.max.as_secs_f64() <= 5.0 * 0.2 + 1e-9 || t.max == t.budget);
        assert!(t.max.as_secs_f64() < 5.0);
    }

    #[test]
    fn canadian_last_stone_uses_only_its_budget() {
        let system = TimeSystem::Canadian {
            main: 0.0,
            period: 30.0,
            stones: 5,
        };
        let left = TimeLeft {
            seconds: 4.0,
            stones_or_periods: 1,
        };
        let t = move_time(system, Some(left), 100, 19, 0.5).unwrap();
        assert_eq!(t.budget, t.max);
        assert!((t.budget.as_secs_f64() - 3.5).abs() < 1e-9);
        assert!(move_time(TimeSystem::None, None, 0, 19, 0.5).is_none());
    }
}
