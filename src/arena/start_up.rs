//! The watches of a running match over its engines' faults: an engine that cannot play at
//! all (it fails before its first move, game after game) stops the match instead of
//! forfeiting the rest of its game list ([`StartUpWatch`]), and so does one that keeps
//! losing games by its faults later in the game (it crashes after a few moves, answers
//! garbage, hangs: [`FaultStreak`]).

use super::results::{GameRecord, MatchSettings};

/// Consecutive games that an engine lost by a fault before its first move (it would not
/// start, refused the set-up, crashed or hung at once) after which the match stops, rather
/// than turn the rest of its game list into forfeits.
const START_UP_FAILURES: usize = 3;

/// Watches for an engine that cannot play at all: its games that end by its fault before
/// it made a move are held back; a game in which it moves releases them (they were
/// forfeits of a flaky engine), and a run of [`START_UP_FAILURES`] of them (or every game
/// left, when fewer remain) stops the match without recording them.
pub(super) struct StartUpWatch {
    /// Held games, per engine.
    held: [Vec<GameRecord>; 2],
    /// How many in a row stop the match.
    limit: usize,
    /// The engine (0 or 1) whose run reached the limit.
    failed: Option<usize>,
}

impl StartUpWatch {
    pub(super) fn new(pending: usize) -> StartUpWatch {
        StartUpWatch {
            held: Default::default(),
            limit: START_UP_FAILURES.min(pending).max(1),
            failed: None,
        }
    }

    /// The colour index (0 black, 1 white) engine `e` (0 or 1) had in `record`.
    fn colour(record: &GameRecord, e: usize) -> usize {
        usize::from(record.black_engine as usize != e + 1)
    }

    /// Takes a finished game; returns the games to record now.
    pub(super) fn sift(&mut self, record: GameRecord) -> Vec<GameRecord> {
        for e in 0..2 {
            if self.failed_at_start(&record, e) {
                self.held[e].push(record);
                if self.failed.is_none() && self.held[e].len() >= self.limit {
                    self.failed = Some(e);
                }
                return Vec::new();
            }
        }
        let mut out = Vec::new();
        for e in 0..2 {
            if self.failed != Some(e) && record.generated_moves[Self::colour(&record, e)] > 0 {
                out.append(&mut self.held[e]);
            }
        }
        out.push(record);
        out
    }

    /// Whether engine `e` lost `record` by a fault before it made a move.
    fn failed_at_start(&self, record: &GameRecord, e: usize) -> bool {
        record.end.is_fault()
            && record.winner_engine.is_some_and(|w| w as usize != e + 1)
            && record.generated_moves[Self::colour(record, e)] == 0
    }

    pub(super) fn failed_engine(&self) -> Option<usize> {
        self.failed
    }

    /// Why the match stopped, for engine `e`.
    pub(super) fn failure(&self, e: usize, settings: &MatchSettings) -> String {
        let last = self.held[e]
            .last()
            .and_then(|r| r.fault.clone())
            .unwrap_or_default();
        format!(
            "engine {} ({}) failed {} games in a row before its first move (the last: {last}); \
             the match stopped without recording them: check the engine, then rerun the \
             command to resume",
            e + 1,
            settings.names[e],
            self.held[e].len()
        )
    }

    /// The held games to record, at the end of a match that did not stop for them.
    pub(super) fn release(&mut self) -> Vec<GameRecord> {
        let mut out = Vec::new();
        for e in 0..2 {
            if self.failed != Some(e) {
                out.append(&mut self.held[e]);
            }
        }
        out
    }

    /// The games left out of the record.
    pub(super) fn discarded(&self) -> &[GameRecord] {
        self.failed.map_or(&[], |e| &self.held[e])
    }
}

/// Games in a row (in the order they finish) that one engine loses by its own fault
/// (a crash, a bad reply, a timeout or an illegal move, at any point of the game) after
/// which the match stops.
const FAULT_STREAK: usize = 3;

/// Counts the games in a row lost by the same engine's faults; the games are recorded (they
/// were played), and a run of [`FAULT_STREAK`] stops the match.
pub(super) struct FaultStreak {
    /// The engine (0 or 1) whose faults ended the last games, and how many in a row.
    engine: Option<usize>,
    count: usize,
    limit: usize,
    /// The last of those faults.
    last: String,
}

impl FaultStreak {
    pub(super) fn new() -> FaultStreak {
        FaultStreak {
            engine: None,
            count: 0,
            limit: FAULT_STREAK,
            last: String::new(),
        }
    }

    /// Takes a recorded game; the engine whose streak of faults it completes, if it does.
    pub(super) fn see(&mut self, record: &GameRecord) -> Option<usize> {
        let faulty = record
            .end
            .is_fault()
            .then_some(record.winner_engine)
            .flatten()
            .map(|winner| usize::from(winner == 1));
        match faulty {
            None => {
                self.engine = None;
                self.count = 0;
                None
            }
            Some(e) => {
                if self.engine == Some(e) {
                    self.count += 1;
                } else {
                    self.engine = Some(e);
                    self.count = 1;
                }
                self.last = record.fault.clone().unwrap_or_default();
                (self.count >= self.limit).then_some(e)
            }
        }
    }

    /// Why the match stopped, for engine `e`.
    pub(super) fn failure(&self, e: usize, settings: &MatchSettings) -> String {
        format!(
            "engine {} ({}) lost {} games in a row by its faults (the last: {}); the match \
             stopped, keeping the finished games: check the engine, then rerun the command to \
             resume",
            e + 1,
            settings.names[e],
            self.count,
            self.last
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::results::EndKind;

    /// A game of engine 1 (black in even games) against engine 2: `mover` is the engine
    /// that made moves (0 for none); `faulty` lost by a fault.
    fn game(index: usize, mover: u8, faulty: Option<u8>) -> GameRecord {
        let black_engine = if index.is_multiple_of(2) { 1 } else { 2 };
        let mut generated_moves = [0, 0];
        if mover != 0 {
            generated_moves[usize::from(mover != black_engine)] = 5;
        }
        GameRecord {
            number: index + 1,
            seed: 1,
            black_engine,
            black: "b".to_string(),
            white: "w".to_string(),
            opening: None,
            result: "B+F".to_string(),
            winner_engine: Some(faulty.map_or(1, |f| 3 - f)),
            end: if faulty.is_some() {
                EndKind::Crash
            } else {
                EndKind::Resignation
            },
            fault: faulty.map(|f| format!("engine {f} broke")),
            score: None,
            moves: 0,
            think_seconds: [0.0; 2],
            generated_moves,
            playouts: [0; 2],
            peak_winrate: [None; 2],
            owl: Default::default(),
            dead_black_says: None,
            dead_white_says: None,
            dead_agreed: None,
            dead_removed: None,
            sgf: String::new(),
            date: String::new(),
        }
    }

    #[test]
    fn start_up_failures_stop_the_match_or_count_as_forfeits() {
        let games =
            |records: Vec<GameRecord>| records.iter().map(|r| r.number - 1).collect::<Vec<_>>();
        // A flaky engine 2: two games lost before its first move are held back, and
        // recorded as forfeits once it plays a move.
        let mut watch = StartUpWatch::new(10);
        assert!(games(watch.sift(game(0, 0, Some(2)))).is_empty());
        assert!(games(watch.sift(game(1, 1, Some(2)))).is_empty());
        // Engine 1 moving says nothing about engine 2.
        assert_eq!(games(watch.sift(game(2, 1, None))), [2]);
        assert_eq!(games(watch.sift(game(3, 2, None))), [0, 1, 3]);
        // A game lost by a fault after the engine moved is an ordinary forfeit.
        assert_eq!(games(watch.sift(game(4, 2, Some(2)))), [4]);
        assert_eq!(watch.failed_engine(), None);
        // Three in a row stop the match, and are not recorded.
        for k in 5..8 {
            assert!(watch.sift(game(k, 0, Some(2))).is_empty());
        }
        assert_eq!(watch.failed_engine(), Some(1));
        assert_eq!(watch.discarded().len(), 3);
        assert!(watch.release().is_empty());
        // With fewer games left than the limit, all of them failing stops the match.
        let mut watch = StartUpWatch::new(2);
        assert!(watch.sift(game(0, 0, Some(1))).is_empty());
        assert_eq!(watch.failed_engine(), None);
        assert!(watch.sift(game(1, 2, Some(1))).is_empty());
        assert_eq!(watch.failed_engine(), Some(0));
        // Without enough failures, the held games are forfeits at the end.
        let mut watch = StartUpWatch::new(5);
        assert!(watch.sift(game(0, 0, Some(1))).is_empty());
        assert_eq!(games(watch.release()), [0]);
    }
}
