//! The one clock arithmetic: time systems as GTP describes them (`time_settings`,
//! `kgs-time_settings`, `kata-time_settings`, `time_left`), one player's [`Clock`] (what the GTP engine keeps
//! between `time_left` reports and what the match runner's referee enforces), and the
//! budget for one move ([`move_time`]).

use std::time::Duration;

use crate::settings::TimePlan;

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
    /// Fischer: `main` seconds, and `increment` seconds added after every move; with
    /// `main_limit` the clock holds at most that after the increment, with `move_limit` no
    /// move may take longer (`kata-time_settings fischer` and `fischer-capped`).
    Fischer {
        main: f64,
        increment: f64,
        main_limit: Option<f64>,
        move_limit: Option<f64>,
    },
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

/// One player's clock under a [`TimeSystem`]: the seconds left and, once main time is
/// spent, the byo-yomi periods or Canadian stones left (`None` without a time limit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub system: TimeSystem,
    pub left: Option<TimeLeft>,
}

impl Clock {
    /// A full clock: main time first; without main time, a full period with all its
    /// periods (byo-yomi) or stones (Canadian).
    pub fn new(system: TimeSystem) -> Clock {
        let left = match system {
            TimeSystem::None => None,
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => Some(TimeLeft {
                seconds: main,
                stones_or_periods: 0,
            }),
            TimeSystem::Byoyomi {
                main,
                period,
                periods: count,
            }
            | TimeSystem::Canadian {
                main,
                period,
                stones: count,
            } => Some(if main > 0.0 {
                TimeLeft {
                    seconds: main,
                    stones_or_periods: 0,
                }
            } else {
                TimeLeft {
                    seconds: period,
                    stones_or_periods: count,
                }
            }),
        };
        Clock { system, left }
    }

    /// Charges `used` seconds for one move. Main time that runs out carries the rest of
    /// the move into the first period; a Canadian period restarts after its stones, a
    /// byo-yomi period after every move, and each byo-yomi period overrun costs one
    /// period (the last one is kept: losing on time is the referee's call). Fischer adds
    /// the increment after the move, up to the main-time limit.
    pub fn charge(&mut self, used: f64) {
        let system = self.system;
        let Some(left) = self.left.as_mut() else {
            return;
        };
        let mut used = used.max(0.0);
        let (period, count) = match system {
            TimeSystem::None => return,
            TimeSystem::Absolute { .. } => {
                left.seconds = (left.seconds - used).max(0.0);
                return;
            }
            TimeSystem::Fischer {
                increment,
                main_limit,
                ..
            } => {
                let seconds = (left.seconds - used).max(0.0) + increment;
                left.seconds = main_limit.map_or(seconds, |limit| seconds.min(limit));
                return;
            }
            TimeSystem::Byoyomi {
                period, periods, ..
            } => (period, periods),
            TimeSystem::Canadian { period, stones, .. } => (period, stones),
        };
        if left.stones_or_periods == 0 {
            if used <= left.seconds || period <= 0.0 || count == 0 {
                left.seconds = (left.seconds - used).max(0.0);
                return;
            }
            used -= left.seconds;
            left.seconds = period;
            left.stones_or_periods = count;
        }
        match system {
            TimeSystem::Canadian { .. } => {
                left.seconds = (left.seconds - used).max(0.0);
                left.stones_or_periods -= 1;
                if left.stones_or_periods == 0 {
                    left.seconds = period;
                    left.stones_or_periods = count;
                }
            }
            _ => {
                while used > left.seconds && left.stones_or_periods > 1 {
                    used -= left.seconds;
                    left.stones_or_periods -= 1;
                }
                left.seconds = period;
            }
        }
    }

    /// The most this move may take before the flag falls: what is left of main time plus
    /// the first period (the move may run over into it), or what is left of the current
    /// period, or under Fischer what is left (the increment comes after the move) within
    /// the limit per move (`None` without a time limit).
    pub fn allowance(&self) -> Option<f64> {
        let left = self.left?;
        Some(match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => left.seconds,
            TimeSystem::Fischer { move_limit, .. } => {
                move_limit.map_or(left.seconds, |limit| left.seconds.min(limit))
            }
            TimeSystem::Byoyomi { period, .. } | TimeSystem::Canadian { period, .. } => {
                if left.stones_or_periods == 0 {
                    left.seconds + period
                } else {
                    left.seconds
                }
            }
        })
    }

    /// The time for the next move with this clock (see [`move_time`]).
    pub fn move_time(
        &self,
        plan: TimePlan,
        moves_played: usize,
        board_size: usize,
        margin: f64,
    ) -> Option<MoveTime> {
        move_time(
            plan,
            self.system,
            self.left,
            moves_played,
            board_size,
            margin,
        )
    }
}

/// The weight of game move `k` (0-based, both players' moves counted) under a phased plan
/// on a board of `area` points: 0.5 in the opening (the first 5% of the points; on 19x19 the
/// first 18 moves), rising to 1.5 by 20% (72), held to 45% (162), falling to 0.7 by 70%
/// (253) and 0.7 after.
pub fn phase_weight(k: usize, area: usize) -> f64 {
    const CURVE: [(f64, f64); 5] = [(0.0, 0.5), (0.05, 0.5), (0.2, 1.5), (0.45, 1.5), (0.7, 0.7)];
    let x = k as f64 / area.max(1) as f64;
    let mut before = CURVE[0];
    for point in CURVE {
        if x <= point.0 {
            let span = point.0 - before.0;
            if span <= 0.0 {
                return point.1;
            }
            return before.1 + (point.1 - before.1) * (x - before.0) / span;
        }
        before = point;
    }
    before.1
}

/// The share of the main time left that the next move gets, with `moves_to_go` of the
/// player's moves expected: `1 / moves_to_go` under a flat plan or on a board below 13x13;
/// under a phased one the next move's [`phase_weight`] over the sum of the weights of the
/// expected moves (every other game move from now, the last one in part).
pub fn main_time_share(
    plan: TimePlan,
    moves_played: usize,
    board_size: usize,
    moves_to_go: f64,
) -> f64 {
    if plan == TimePlan::Flat || board_size < 13 {
        return 1.0 / moves_to_go;
    }
    let area = board_size * board_size;
    let whole = moves_to_go.floor() as usize;
    let part = moves_to_go - whole as f64;
    let weight = |i: usize| phase_weight(moves_played + 2 * i, area);
    let total = (0..whole).map(weight).sum::<f64>() + part * weight(whole);
    weight(0) / total
}

/// Time to spend on the next move, given the plan, the system, what the controller last
/// said is left (if anything), the number of moves played and the board size, keeping
/// `margin` seconds for network lag. `None` means no limit.
pub fn move_budget(
    plan: TimePlan,
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
    let share = main_time_share(plan, moves_played, board_size, moves_to_go);
    let seconds = match system {
        TimeSystem::None => return None,
        TimeSystem::Absolute { main } => {
            let remaining = left.map_or(main, |l| l.seconds);
            remaining * share
        }
        TimeSystem::Fischer {
            main,
            increment,
            move_limit,
            ..
        } => {
            // A share of the bank plus most of the increment, never more than most of the
            // bank itself (the increment comes only after the move).
            let remaining = left.map_or(main, |l| l.seconds);
            let seconds = (remaining * share + increment * 0.9).min(remaining * 0.8);
            move_limit.map_or(seconds, |limit| seconds.min(limit))
        }
        TimeSystem::Byoyomi {
            main,
            period,
            periods,
        } => match left {
            Some(l) if l.stones_or_periods > 0 => l.seconds.min(period),
            Some(l) => l.seconds * share + period * 0.9,
            None if main > 0.0 => main * share + period * 0.9,
            None if periods > 0 => period,
            None => 0.0,
        },
        TimeSystem::Canadian {
            main,
            period,
            stones,
        } => match left {
            Some(l) if l.stones_or_periods > 0 => l.seconds / l.stones_or_periods as f64,
            Some(l) => l.seconds * share + period / stones.max(1) as f64 * 0.9,
            None if main > 0.0 => main * share,
            None => period / stones.max(1) as f64,
        },
    };
    // The floor lets a move be found at all; with almost nothing left it shrinks with what is
    // left, so that a drained absolute clock is not overrun by floors alone.
    let remaining = match (system, left) {
        (TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. }, Some(l)) => l.seconds,
        _ => f64::INFINITY,
    };
    let floor = MIN_MOVE_SECONDS.min(remaining * 0.1);
    Some(seconds_to_duration((seconds - margin).max(floor)))
}

/// Parses an operator's time per move: a positive number of seconds, at most a day.
pub fn parse_move_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds > 0.0 && seconds <= MAX_MOVE_SECONDS {
        Ok(seconds)
    } else {
        Err(format!(
            "`{text}`: seconds per move must be above 0 and at most {MAX_MOVE_SECONDS}"
        ))
    }
}

/// The shortest budget a move normally gets.
const MIN_MOVE_SECONDS: f64 = 0.05;

/// The longest time one move may be given (a day): anything a controller reports beyond
/// it, however large, plans no further.
pub const MAX_MOVE_SECONDS: f64 = 86_400.0;

/// `seconds` as a duration, clamped to `0..=MAX_MOVE_SECONDS` (NaN counts as 0), so that no
/// value a controller sends can make the conversion panic.
fn seconds_to_duration(seconds: f64) -> Duration {
    if seconds > 0.0 {
        Duration::from_secs_f64(seconds.min(MAX_MOVE_SECONDS))
    } else {
        Duration::ZERO
    }
}

/// Time for one move: the planned `budget`, and the most the search may take (`max`) when
/// the best move is still uncertain at the end of the budget. Both already keep the margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    pub budget: Duration,
    pub max: Duration,
}

/// Like [`move_budget`], with the extension allowed for an uncertain position: up to twice the
/// budget while main time runs (never more than a fifth of what is left; under Fischer a
/// fifth of the bank plus most of the increment, within the limit per move), half again in
/// a Canadian period with stones to spare, and nothing extra in a byo-yomi period
/// (overrunning one loses it). `None` means no limit.
pub fn move_time(
    plan: TimePlan,
    system: TimeSystem,
    left: Option<TimeLeft>,
    moves_played: usize,
    board_size: usize,
    margin: f64,
) -> Option<MoveTime> {
    let budget = move_budget(plan, system, left, moves_played, board_size, margin)?;
    let b = budget.as_secs_f64();
    let max = match system {
        TimeSystem::None => return None,
        TimeSystem::Absolute { main } => {
            let remaining = left.map_or(main, |l| l.seconds);
            (2.0 * b).min(remaining * 0.2 - margin)
        }
        TimeSystem::Fischer {
            main,
            increment,
            move_limit,
            ..
        } => {
            let remaining = left.map_or(main, |l| l.seconds);
            let max = (2.0 * b)
                .min(remaining * 0.2 + increment * 0.9 - margin)
                .min(remaining * 0.8 - margin);
            move_limit.map_or(max, |limit| max.min(limit - margin))
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
        max: seconds_to_duration(max.max(b)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(main: f64, increment: f64, move_limit: Option<f64>) -> TimeSystem {
        TimeSystem::Fischer {
            main,
            increment,
            main_limit: None,
            move_limit,
        }
    }

    fn byoyomi(main: f64, period: f64, periods: u32) -> TimeSystem {
        TimeSystem::Byoyomi {
            main,
            period,
            periods,
        }
    }

    fn canadian(main: f64, period: f64, stones: u32) -> TimeSystem {
        TimeSystem::Canadian {
            main,
            period,
            stones,
        }
    }

    /// What `time_left` reports: `seconds` and the stones or periods left.
    fn left(seconds: f64, stones_or_periods: u32) -> Option<TimeLeft> {
        Some(TimeLeft {
            seconds,
            stones_or_periods,
        })
    }

    #[test]
    fn fischer_budgets_spend_the_increment_and_never_drain_the_bank() {
        // 60 s and 5 s a move on 19x19, every move using its whole budget (and the margin):
        // the bank never runs out, and once main time is spent each move still gets most of
        // the increment.
        let system = fischer(60.0, 5.0, None);
        for plan in [TimePlan::Flat, TimePlan::Phased] {
            let mut clock = Clock::new(system);
            for moves in 0..300 {
                let t = clock.move_time(plan, 2 * moves, 19, 0.5).unwrap();
                let left = clock.left.unwrap().seconds;
                assert!(t.budget <= t.max, "move {moves}");
                assert!(
                    t.max.as_secs_f64() <= left * 0.8 + 1e-9,
                    "move {moves}: {t:?} of {left}"
                );
                assert!(
                    t.budget.as_secs_f64() >= 2.0,
                    "move {moves}: {t:?} of {left}"
                );
                clock.charge(t.budget.as_secs_f64() + 0.5);
                assert!(clock.left.unwrap().seconds > 5.0, "move {moves}");
            }
        }
        // The limit per move binds the budget, the extension and the allowance.
        let capped = Clock {
            system: fischer(600.0, 30.0, Some(10.0)),
            left: left(600.0, 0),
        };
        let t = capped.move_time(TimePlan::Phased, 0, 9, 0.5).unwrap();
        assert!(
            t.budget.as_secs_f64() <= 10.0 && t.max.as_secs_f64() <= 9.5 + 1e-9,
            "{t:?}"
        );
        assert_eq!(capped.allowance(), Some(10.0));
        assert_eq!(Clock::new(fischer(60.0, 5.0, None)).allowance(), Some(60.0));
        // The bank is capped after the increment.
        let mut limited = Clock::new(TimeSystem::Fischer {
            main: 60.0,
            increment: 5.0,
            main_limit: Some(62.0),
            move_limit: None,
        });
        limited.charge(1.0);
        assert_eq!(limited.left.unwrap().seconds, 62.0);
        limited.charge(70.0);
        assert_eq!(limited.left.unwrap().seconds, 5.0);
    }

    #[test]
    fn byoyomi_period_never_extends() {
        let system = byoyomi(0.0, 10.0, 3);
        let t = move_time(TimePlan::Phased, system, left(10.0, 3), 40, 9, 1.0).unwrap();
        assert_eq!(t.budget, t.max);
        assert!(t.max.as_secs_f64() <= 9.0 + 1e-9);
    }

    #[test]
    fn absolute_extension_is_bounded_by_what_is_left() {
        let system = TimeSystem::Absolute { main: 60.0 };
        let t = move_time(TimePlan::Phased, system, left(5.0, 0), 10, 9, 0.5).unwrap();
        assert!(t.max >= t.budget);
        assert!(t.max.as_secs_f64() <= 5.0 * 0.2 + 1e-9 || t.max == t.budget);
        assert!(t.max.as_secs_f64() < 5.0);
    }

    #[test]
    fn absurd_clock_values_never_panic_and_stay_bounded() {
        let systems = [
            TimeSystem::Absolute { main: 60.0 },
            byoyomi(60.0, 30.0, 5),
            canadian(60.0, 30.0, 5),
        ];
        for system in systems {
            for seconds in [1e30, f64::MAX, f64::INFINITY, f64::NAN, 0.0, 1e-300] {
                for stones in [0, 1, 25] {
                    let t = move_time(TimePlan::Phased, system, left(seconds, stones), 10, 19, 0.5)
                        .unwrap();
                    assert!(t.budget <= t.max, "{system:?} {seconds} {stones}: {t:?}");
                    assert!(t.max.as_secs_f64() <= MAX_MOVE_SECONDS);
                }
            }
        }
    }

    /// The phased plan spends less than the flat one in the opening and more in the middle
    /// game, and over a whole 19x19 game under absolute time (every move using its whole
    /// budget) keeps a reserve as the flat plan does; below 13x13 it is the flat plan.
    #[test]
    fn phased_plan_moves_time_from_the_opening_to_the_middle_game() {
        assert_eq!(phase_weight(0, 361), 0.5);
        assert_eq!(phase_weight(18, 361), 0.5);
        assert!((phase_weight(72, 361) - 1.49).abs() < 0.02);
        assert_eq!(phase_weight(100, 361), 1.5);
        assert_eq!(phase_weight(300, 361), 0.7);
        let system = TimeSystem::Absolute { main: 600.0 };
        let budget = |plan, moves, seconds: f64| {
            move_budget(plan, system, left(seconds, 0), moves, 19, 0.0)
                .unwrap()
                .as_secs_f64()
        };
        let ratio =
            |moves| budget(TimePlan::Phased, moves, 300.0) / budget(TimePlan::Flat, moves, 300.0);
        assert!(ratio(0) < 0.5, "{}", ratio(0));
        assert!(ratio(100) > 1.3, "{}", ratio(100));
        assert!((ratio(290) - 1.0).abs() < 0.01, "{}", ratio(290));
        for size in [9, 11] {
            assert_eq!(
                move_budget(TimePlan::Phased, system, left(100.0, 0), 10, size, 0.0),
                move_budget(TimePlan::Flat, system, left(100.0, 0), 10, size, 0.0)
            );
        }
        // A whole game of 320 moves under both plans, every move using its budget: the
        // phased plan spends about half as much on the first 9 own moves and keeps a reserve.
        let game = |plan| {
            let mut clock = Clock::new(system);
            let mut opening = 0.0;
            for own in 0..160 {
                let used = clock
                    .move_time(plan, 2 * own, 19, 0.0)
                    .unwrap()
                    .budget
                    .as_secs_f64();
                if own < 9 {
                    opening += used;
                }
                clock.charge(used);
            }
            (opening, clock.left.unwrap().seconds)
        };
        let (flat_opening, flat_left) = game(TimePlan::Flat);
        let (phased_opening, phased_left) = game(TimePlan::Phased);
        assert!(phased_opening < 0.6 * flat_opening);
        assert!(flat_left > 30.0 && phased_left > 30.0);
    }

    #[test]
    fn move_seconds_parser_rejects_what_cannot_be_a_budget() {
        assert_eq!(parse_move_seconds("1.5"), Ok(1.5));
        assert_eq!(parse_move_seconds("86400"), Ok(86_400.0));
        for bad in ["0", "-1", "nan", "inf", "1e30", "86401", "", "two"] {
            assert!(parse_move_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn drained_absolute_clock_gets_a_fraction_of_what_is_left() {
        let system = TimeSystem::Absolute { main: 60.0 };
        let t = move_time(TimePlan::Phased, system, left(0.2, 0), 60, 9, 0.5).unwrap();
        assert!(t.budget.as_secs_f64() <= 0.02 + 1e-12, "{t:?}");
        assert!(t.max.as_secs_f64() <= 0.02 + 1e-12, "{t:?}");
        // With time to spare the floor is the usual one.
        let t = move_time(TimePlan::Phased, system, left(30.0, 0), 60, 9, 5.0).unwrap();
        assert!(
            (t.budget.as_secs_f64() - MIN_MOVE_SECONDS).abs() < 1e-12,
            "{t:?}"
        );
    }

    #[test]
    fn canadian_last_stone_uses_only_its_budget() {
        let system = canadian(0.0, 30.0, 5);
        let t = move_time(TimePlan::Phased, system, left(4.0, 1), 100, 19, 0.5).unwrap();
        assert_eq!(t.budget, t.max);
        assert!((t.budget.as_secs_f64() - 3.5).abs() < 1e-9);
        assert!(move_time(TimePlan::Phased, TimeSystem::None, None, 0, 19, 0.5).is_none());
    }

    #[test]
    fn clock_runs_main_time_then_periods() {
        let mut canadian = Clock::new(TimeSystem::from_gtp(10.0, 5.0, 2));
        assert_eq!(canadian.allowance(), Some(15.0));
        canadian.charge(4.0);
        assert_eq!(canadian.left.unwrap().seconds, 6.0);
        // 6 s of main time and 1 s of the first period; one of its two stones played.
        canadian.charge(7.0);
        let left = canadian.left.unwrap();
        assert_eq!((left.seconds, left.stones_or_periods), (4.0, 1));
        assert_eq!(canadian.allowance(), Some(4.0));
        // The period's last stone: a fresh period follows.
        canadian.charge(3.0);
        let left = canadian.left.unwrap();
        assert_eq!((left.seconds, left.stones_or_periods), (5.0, 2));

        let mut absolute = Clock::new(TimeSystem::from_gtp(10.0, 0.0, 0));
        absolute.charge(9.5);
        assert!((absolute.left.unwrap().seconds - 0.5).abs() < 1e-9);
        absolute.charge(3.0);
        assert_eq!(absolute.left.unwrap().seconds, 0.0);
        assert_eq!(absolute.allowance(), Some(0.0));

        let mut byoyomi = Clock::new(byoyomi(0.0, 30.0, 5));
        byoyomi.charge(29.0);
        assert_eq!(byoyomi.left.unwrap().stones_or_periods, 5);
        byoyomi.charge(31.0);
        let left = byoyomi.left.unwrap();
        assert_eq!((left.seconds, left.stones_or_periods), (30.0, 4));

        let mut unlimited = Clock::new(TimeSystem::None);
        unlimited.charge(100.0);
        assert_eq!((unlimited.left, unlimited.allowance()), (None, None));
    }
}
