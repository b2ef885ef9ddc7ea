//! The progress line of a running match: the time left by the pace of the games finished so
//! far, engine 1's score once there is one, and each game in progress with its move number
//! and clocks, so that something moves on the screen during a long game.

use std::time::Duration;

use parking_lot::Mutex;

use super::referee::GameProgress;
use super::results::GameRecord;
use super::stats::engine_tallies;
use crate::play::clock::TimeLeft;

/// A game in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiveGame {
    /// The game's number, from 1.
    pub number: usize,
    pub progress: GameProgress,
}

/// The games in progress: one slot per worker thread, which it updates after every move.
pub struct LiveGames {
    slots: Vec<Mutex<Option<LiveGame>>>,
}

impl LiveGames {
    pub fn new(workers: usize) -> LiveGames {
        LiveGames {
            slots: (0..workers).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Sets worker `slot`'s game (`None` between games).
    pub fn set(&self, slot: usize, game: Option<LiveGame>) {
        *self.slots[slot].lock() = game;
    }

    /// The games in progress, by number.
    pub fn snapshot(&self) -> Vec<LiveGame> {
        let mut games: Vec<LiveGame> = self.slots.iter().filter_map(|s| *s.lock()).collect();
        games.sort_by_key(|g| g.number);
        games
    }
}

/// What the progress line is made of.
pub struct Status<'a> {
    /// Engine 1's name: the score is its.
    pub name1: &'a str,
    /// The finished games (of earlier runs too).
    pub records: &'a [GameRecord],
    /// Games finished in this run, and how long this run has been going.
    pub finished_now: usize,
    pub elapsed: Duration,
    /// Games still to finish.
    pub remaining: usize,
    pub live: &'a [LiveGame],
}

/// `1:02:03`, or `2:03` under an hour.
pub fn clock_text(seconds: f64) -> String {
    let total = seconds.max(0.0).round() as u64;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// One colour's clock: what is left (`0:25 for 3` in a byo-yomi period of 3 moves), or
/// without a clock the time it has used.
fn colour_clock(letter: char, clock: Option<TimeLeft>, thought: f64) -> String {
    match clock {
        Some(TimeLeft {
            seconds,
            stones_or_periods: 0,
        }) => format!("{letter} {}", clock_text(seconds)),
        Some(TimeLeft {
            seconds,
            stones_or_periods,
        }) => format!("{letter} {} for {stones_or_periods}", clock_text(seconds)),
        None => format!("{letter} {} used", clock_text(thought)),
    }
}

/// The estimated time to the end: the pace of this run's finished games (whatever the
/// number of jobs) times the games left; `None` before a game has finished.
pub fn eta(finished_now: usize, elapsed: Duration, remaining: usize) -> Option<Duration> {
    (finished_now > 0).then(|| elapsed.mul_f64(remaining as f64 / finished_now as f64))
}

/// The progress line: `game 5 move 43: B 3:21 W 2:58 | NAME (engine 1) +3 -1 =0, 75.0% |
/// ETA 12:30`, the live games and their clocks first, since a narrow terminal cuts the end
/// off. There is no score before a result exists, and no ETA before a game of this run has
/// finished.
pub fn status_line(status: &Status) -> String {
    let eta = match eta(status.finished_now, status.elapsed, status.remaining) {
        Some(left) => format!("ETA {}", clock_text(left.as_secs_f64())),
        None => "ETA --".to_string(),
    };
    let score = if status.records.is_empty() {
        format!("{} (engine 1): no result yet", status.name1)
    } else {
        let (_, _, t) = engine_tallies(status.records, 1);
        format!(
            "{} (engine 1) +{} -{} ={}, {:.1}%",
            status.name1,
            t.wins,
            t.losses,
            t.draws,
            100.0 * t.rate()
        )
    };
    // The terminal cuts the line at its width: what changes every second comes first.
    let mut parts = Vec::new();
    for game in status.live {
        let p = &game.progress;
        parts.push(format!(
            "game {} move {}: {} {}",
            game.number,
            p.moves,
            colour_clock('B', p.clocks[0], p.thought[0]),
            colour_clock('W', p.clocks[1], p.thought[1]),
        ));
    }
    parts.push(score);
    parts.push(eta);
    parts.join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::tests::record;

    #[test]
    fn the_line_shows_moves_clocks_and_an_eta_and_no_rate_before_a_result() {
        let live = [LiveGame {
            number: 5,
            progress: GameProgress {
                moves: 43,
                clocks: [
                    Some(TimeLeft {
                        seconds: 201.2,
                        stones_or_periods: 0,
                    }),
                    Some(TimeLeft {
                        seconds: 25.0,
                        stones_or_periods: 3,
                    }),
                ],
                thought: [150.0, 260.0],
            },
        }];
        let mut status = Status {
            name1: "gnugo",
            records: &[],
            finished_now: 0,
            elapsed: Duration::from_secs(300),
            remaining: 4,
            live: &live,
        };
        let line = status_line(&status);
        assert_eq!(
            line,
            "game 5 move 43: B 3:21 W 0:25 for 3 | gnugo (engine 1): no result yet | ETA --"
        );
        assert!(!line.contains('%'), "no rate without a result: {line}");
        let records = [record(1, 1), record(2, 2)];
        status.records = &records;
        status.finished_now = 2;
        status.elapsed = Duration::from_secs(60);
        let mut no_clock = live[0];
        no_clock.progress.clocks = [None, None];
        let live = [no_clock];
        status.live = &live;
        assert_eq!(
            status_line(&status),
            "game 5 move 43: B 2:30 used W 4:20 used | gnugo (engine 1) +1 -1 =0, 50.0% | \
             ETA 2:00"
        );
        assert_eq!(clock_text(3725.0), "1:02:05");
    }

    #[test]
    fn live_games_come_by_number() {
        let live = LiveGames::new(3);
        let game = |number| LiveGame {
            number,
            progress: GameProgress::default(),
        };
        live.set(0, Some(game(7)));
        live.set(2, Some(game(6)));
        assert_eq!(live.snapshot(), [game(6), game(7)]);
        live.set(2, None);
        assert_eq!(live.snapshot(), [game(7)]);
    }
}
