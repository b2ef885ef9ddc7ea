//! The referee: plays one game between two players on an authoritative `GameState` with
//! hane's rules, runs the clocks, turns every fault into a loss, and scores the end position
//! by area after settling the dead stones (both players are asked; when they disagree, light
//! playouts decide).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::player::{DeadStones, Decision, Fault, FaultKind, MoveRequest, Player, TimeControl};
use super::results::OwlTally;
use crate::board::{Color, GameState, Point, format_score};
use crate::play::clock::{Clock, TimeLeft};
use crate::play::judge::{dead_points, judge};
use crate::search::SearchControl;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum GameEnd {
    /// Two passes in a row; scored.
    TwoPasses,
    /// The move cap was reached; scored.
    MoveCap,
    /// A player resigned.
    Resignation(Color),
    /// A player broke the rules or the protocol.
    Fault(Color, Fault),
    /// The match was interrupted: the game is abandoned, with no result.
    Interrupted,
}

/// How the dead stones were settled.
#[derive(Clone, Debug, PartialEq)]
pub struct DeadSettlement {
    /// Each player's answer, black's first.
    pub answers: [DeadStones; 2],
    /// Whether both listed the same stones.
    pub agreed: bool,
    /// The stones removed before counting.
    pub dead: Vec<Point>,
}

/// Everything the referee saw in one game.
pub struct GameOutcome {
    /// The final position with its full history.
    pub state: GameState,
    pub end: GameEnd,
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// The SGF `RE` value: `B+3.5`, `W+R`, `B+T`, `W+F`, `0`.
    pub result: String,
    /// Black minus white, when the game was counted.
    pub score: Option<f32>,
    pub settlement: Option<DeadSettlement>,
    /// The players' comments, one slot per move of `state.moves()`.
    pub comments: Vec<Option<String>>,
    /// Seconds each colour spent in `genmove` and how many moves it generated, counting the
    /// replies that came within its time (a move that overran counts in neither).
    pub think_seconds: [f64; 2],
    pub generated_moves: [usize; 2],
    /// The playouts each colour's searches ran over those moves, as far as its player
    /// said (0 for a player that does not).
    pub playouts: [u64; 2],
    /// The highest win rate each colour's player gave itself at one of its moves, as far
    /// as it said (`None` for a player that does not).
    pub peak_winrate: [Option<f32>; 2],
    /// What each colour's root owl did over those moves, as far as its player said.
    pub owl: [OwlTally; 2],
    /// Which colours faulted (their players need a restart).
    pub faulted: [bool; 2],
}

/// The referee's settings for every game of a match.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    pub time_control: TimeControl,
    /// Grace beyond the allowed time before a move counts as late.
    pub margin: Duration,
    /// Moves (after the opening) after which the game is stopped and counted.
    pub move_cap: usize,
    /// Playouts used to settle disputed dead stones.
    pub dead_playouts: u64,
    /// Stopped when the match is interrupted: the game is then abandoned before the next
    /// move (and hane's search in progress cut short, as it watches the same flag).
    pub interrupt: Arc<SearchControl>,
}

/// Where a game in progress stands, for progress displays: given after the set-up and after
/// every move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameProgress {
    /// Moves played, the opening's included.
    pub moves: usize,
    /// Each colour's clock (black's first) as `time_left` would give it, with a clock.
    pub clocks: [Option<TimeLeft>; 2],
    /// Seconds each colour has spent in `genmove`.
    pub thought: [f64; 2],
}

/// One colour's clock: the play layer's clock arithmetic ([`Clock`]) under the match's
/// time control.
#[derive(Clone, Copy, Debug)]
struct MatchClock {
    clock: Clock,
}

impl MatchClock {
    fn new(control: TimeControl) -> MatchClock {
        MatchClock {
            clock: Clock::new(control.system()),
        }
    }

    /// The time this move may take and what `time_left` says.
    fn allowance(&self, control: TimeControl) -> (f64, Option<TimeLeft>) {
        match control {
            TimeControl::None { max_move } => (max_move, None),
            TimeControl::PerMove { seconds } => (
                seconds,
                Some(TimeLeft {
                    seconds,
                    stones_or_periods: 1,
                }),
            ),
            TimeControl::Clock { .. } | TimeControl::Fischer { .. } => (
                self.clock.allowance().unwrap_or(f64::INFINITY),
                self.clock.left,
            ),
        }
    }

    /// Charges `used` seconds (already known to be within the allowance plus margin; an
    /// overrun inside the margin is forgiven).
    fn charge(&mut self, used: f64) {
        self.clock.charge(used);
    }
}

/// Plays one game from `start` (opening, handicap and setup stones already there) between
/// `black` and `white`, telling `progress` where it stands after every move.
pub fn play_game<'p>(
    start: GameState,
    black: &mut (dyn Player + 'p),
    white: &mut (dyn Player + 'p),
    settings: &RefereeSettings,
    seed: u64,
    progress: &mut dyn FnMut(&GameProgress),
) -> GameOutcome {
    let mut outcome = GameOutcome {
        state: start,
        end: GameEnd::TwoPasses,
        winner: None,
        result: String::new(),
        score: None,
        settlement: None,
        comments: Vec::new(),
        think_seconds: [0.0; 2],
        generated_moves: [0; 2],
        playouts: [0; 2],
        peak_winrate: [None; 2],
        owl: [OwlTally::default(); 2],
        faulted: [false; 2],
    };
    outcome.comments = vec![None; outcome.state.moves().len()];
    let control = settings.time_control;
    let end = 'game: {
        for (color, player) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
            if let Err(fault) = player.new_game(&outcome.state, control, seed) {
                break 'game GameEnd::Fault(color, fault);
            }
        }
        let mut clocks = [MatchClock::new(control); 2];
        let opening_moves = outcome.state.moves().len();
        loop {
            progress(&GameProgress {
                moves: outcome.state.moves().len(),
                clocks: [clocks[0].clock.left, clocks[1].clock.left],
                thought: outcome.think_seconds,
            });
            if settings.interrupt.is_stopped() {
                break 'game GameEnd::Interrupted;
            }
            if outcome.state.is_over() {
                break 'game GameEnd::TwoPasses;
            }
            if outcome.state.moves().len() - opening_moves >= settings.move_cap {
                break 'game GameEnd::MoveCap;
            }
            let color = outcome.state.to_move();
            let (mover, other): (&mut (dyn Player + 'p), &mut (dyn Player + 'p)) = match color {
                Color::Black => (&mut *black, &mut *white),
                Color::White => (&mut *white, &mut *black),
            };
            let clock = &mut clocks[color.index()];
            let (allowed, time_left) = clock.allowance(control);
            let request = MoveRequest {
                color,
                allowed: Duration::from_secs_f64(allowed.max(0.0)),
                time_left,
                time_control: control,
                margin: settings.margin,
            };
            let asked = Instant::now();
            let reply = mover.genmove(&outcome.state, &request);
            let used = asked.elapsed().as_secs_f64();
            if settings.interrupt.is_stopped() {
                // Whatever came back may be a search cut short or a wait given up.
                break 'game GameEnd::Interrupted;
            }
            let reply = match reply {
                Ok(reply) => reply,
                Err(fault) => break 'game GameEnd::Fault(color, fault),
            };
            // A reply that overran its time counts in neither total, whether the engine
            // reader cut it off or it arrived late on a loaded machine (both are timeouts).
            if used > allowed + settings.margin.as_secs_f64() {
                break 'game GameEnd::Fault(
                    color,
                    Fault::new(
                        FaultKind::Timeout,
                        format!("took {used:.2} s for a move; {allowed:.2} s were left"),
                    ),
                );
            }
            outcome.think_seconds[color.index()] += used;
            outcome.generated_moves[color.index()] += 1;
            outcome.playouts[color.index()] += reply.playouts.unwrap_or(0);
            if let Some(owl) = &reply.owl {
                outcome.owl[color.index()].add(owl);
            }
            if let Some(w) = reply.winrate {
                let peak = &mut outcome.peak_winrate[color.index()];
                *peak = Some(peak.map_or(w, |p| p.max(w)));
            }
            clock.charge(used);
            let mv = match reply.decision {
                Decision::Resign => break 'game GameEnd::Resignation(color),
                Decision::Play(mv) => mv,
            };
            if let Err(why) = outcome.state.play(color, mv) {
                break 'game GameEnd::Fault(
                    color,
                    Fault::new(
                        FaultKind::IllegalMove,
                        format!(
                            "{} {}: {why}",
                            color.letter(),
                            mv.to_gtp(outcome.state.geometry())
                        ),
                    ),
                );
            }
            outcome.comments.push(reply.comment);
            if let Err(fault) = other.play(&outcome.state, color, mv) {
                break 'game GameEnd::Fault(color.opponent(), fault);
            }
        }
    };
    match &end {
        GameEnd::Fault(color, fault) => {
            outcome.faulted[color.index()] = true;
            outcome.winner = Some(color.opponent());
            let letter = if fault.kind == FaultKind::Timeout {
                'T'
            } else {
                'F'
            };
            outcome.result = format!("{}+{letter}", color.opponent().letter());
        }
        GameEnd::Resignation(color) => {
            outcome.winner = Some(color.opponent());
            outcome.result = format!("{}+R", color.opponent().letter());
        }
        GameEnd::Interrupted => {}
        GameEnd::TwoPasses | GameEnd::MoveCap => {
            let answers = [
                black.dead_stones(&outcome.state),
                white.dead_stones(&outcome.state),
            ];
            if settings.interrupt.is_stopped() {
                // An answer cut short by the interrupt would send the count to the
                // referee's playouts: the game is abandoned like any other in play.
                outcome.comments.resize(outcome.state.moves().len(), None);
                outcome.end = GameEnd::Interrupted;
                return outcome;
            }
            let agreed =
                matches!(&answers, [DeadStones::Listed(a), DeadStones::Listed(b)] if a == b);
            let dead = match (&answers[0], agreed) {
                (DeadStones::Listed(list), true) => list.clone(),
                _ => dead_stones_by_playouts(
                    &outcome.state,
                    settings.dead_playouts,
                    seed ^ 0x7365_7474,
                ),
            };
            let score = outcome.state.score_with_dead(&dead);
            outcome.score = Some(score);
            outcome.winner = if score > 0.0 {
                Some(Color::Black)
            } else if score < 0.0 {
                Some(Color::White)
            } else {
                None
            };
            outcome.result = format_score(score);
            outcome.settlement = Some(DeadSettlement {
                answers,
                agreed,
                dead,
            });
        }
    }
    outcome.comments.resize(outcome.state.moves().len(), None);
    outcome.end = end;
    outcome
}

/// The stones that light playouts from `state` say are dead: whole chains whose points end
/// up owned by the opponent in most playouts (the engine's own judgement, [`judge`]).
pub fn dead_stones_by_playouts(state: &GameState, playouts: u64, seed: u64) -> Vec<Point> {
    dead_points(&judge(state, playouts, seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::player::Reply;
    use crate::board::{Board, Move, Rules};

    #[test]
    fn clock_runs_main_time_then_periods() {
        let control = TimeControl::Clock {
            main: 10.0,
            byo_yomi: 5.0,
            stones: 2,
        };
        let mut clock = MatchClock::new(control);
        let left = |clock: &MatchClock| {
            let l = clock.clock.left.unwrap();
            (l.seconds, l.stones_or_periods)
        };
        assert_eq!(clock.allowance(control).0, 15.0);
        clock.charge(4.0);
        assert_eq!(left(&clock), (6.0, 0));
        clock.charge(8.0); // 6 s of main time, 2 s of the first period
        assert_eq!(left(&clock), (3.0, 1));
        let (allowed, time_left) = clock.allowance(control);
        assert_eq!(allowed, 3.0);
        assert_eq!(time_left.unwrap().stones_or_periods, 1);
        clock.charge(1.0); // the period's last stone: a fresh period
        assert_eq!(left(&clock), (5.0, 2));
    }

    #[test]
    fn a_fischer_clock_gains_its_increment_after_each_move() {
        let control = TimeControl::Fischer {
            main: 10.0,
            increment: 3.0,
        };
        let mut clock = MatchClock::new(control);
        assert_eq!(clock.allowance(control).0, 10.0);
        clock.charge(4.0);
        assert_eq!(clock.clock.left.unwrap().seconds, 9.0);
        clock.charge(1.0);
        assert_eq!(clock.clock.left.unwrap().seconds, 11.0);
        let (allowed, time_left) = clock.allowance(control);
        assert_eq!(allowed, 11.0);
        assert_eq!(time_left.unwrap().stones_or_periods, 0);
    }

    /// Plays the points of `moves` in turn, sleeping `delays[k]` before the `k`-th reply,
    /// which gives the win rate `winrates[k]` where there is one.
    struct ScriptedPlayer {
        moves: Vec<&'static str>,
        delays: Vec<Duration>,
        winrates: Vec<Option<f32>>,
        next: usize,
    }

    impl ScriptedPlayer {
        fn new(moves: Vec<&'static str>, delays: Vec<Duration>) -> ScriptedPlayer {
            ScriptedPlayer {
                moves,
                delays,
                winrates: Vec::new(),
                next: 0,
            }
        }
    }

    /// The referee's settings for a test: `time_control`, 50 ms of margin, at most 100
    /// moves, 10 playouts to find dead stones.
    fn settings(time_control: TimeControl) -> RefereeSettings {
        RefereeSettings {
            time_control,
            margin: Duration::from_millis(50),
            move_cap: 100,
            dead_playouts: 10,
            interrupt: SearchControl::new(),
        }
    }

    impl Player for ScriptedPlayer {
        fn name(&self) -> &str {
            "scripted"
        }

        fn new_game(&mut self, _: &GameState, _: TimeControl, _: u64) -> Result<(), Fault> {
            Ok(())
        }

        fn play(&mut self, _: &GameState, _: Color, _: Move) -> Result<(), Fault> {
            Ok(())
        }

        fn genmove(&mut self, state: &GameState, _: &MoveRequest) -> Result<Reply, Fault> {
            std::thread::sleep(self.delays[self.next]);
            let point = state.geometry().parse_point(self.moves[self.next]).unwrap();
            self.next += 1;
            Ok(Reply {
                decision: Decision::Play(Move::Play(point)),
                comment: None,
                playouts: None,
                winrate: self.winrates.get(self.next - 1).copied().flatten(),
                owl: None,
            })
        }

        fn dead_stones(&mut self, _: &GameState) -> DeadStones {
            DeadStones::Listed(Vec::new())
        }

        fn restart(&mut self) -> Result<(), Fault> {
            Ok(())
        }
    }

    #[test]
    fn a_late_reply_is_a_timeout_and_counts_in_no_total() {
        // 0.2 s per move and 0.05 s of margin: black's third reply comes after 0.5 s. An
        // in-process player is never cut off, so the reply arrives, late, as an engine's
        // can on a loaded machine; the referee must judge it the same as a cut-off one.
        let fast = Duration::ZERO;
        let mut black = ScriptedPlayer::new(
            vec!["A1", "C1", "E1"],
            vec![fast, fast, Duration::from_millis(500)],
        );
        let mut white = ScriptedPlayer::new(vec!["A5", "C5", "E5"], vec![fast; 3]);
        let settings = settings(TimeControl::PerMove { seconds: 0.2 });
        let start = GameState::new(5, Rules::default()).unwrap();
        let mut seen = Vec::new();
        let outcome = play_game(start, &mut black, &mut white, &settings, 1, &mut |p| {
            seen.push(p.moves)
        });
        assert_eq!(seen, [0, 1, 2, 3, 4], "progress after every move");
        match &outcome.end {
            GameEnd::Fault(Color::Black, fault) => assert_eq!(fault.kind, FaultKind::Timeout),
            other => panic!("{other:?}"),
        }
        assert_eq!(outcome.result, "W+T");
        assert_eq!(
            outcome.state.moves().len(),
            4,
            "the late move is not played"
        );
        assert_eq!(outcome.generated_moves, [2, 2]);
        assert!(
            outcome.think_seconds[0] < 0.5,
            "{:?}",
            outcome.think_seconds
        );
    }

    #[test]
    fn the_outcome_keeps_each_colours_highest_win_rate() {
        // Black reports 0.4, 0.7, nothing and 0.2, white nothing; the move cap ends the
        // game after four moves each.
        let fast = Duration::ZERO;
        let mut black = ScriptedPlayer::new(vec!["A1", "C1", "E1", "A3"], vec![fast; 4]);
        black.winrates = vec![Some(0.4), Some(0.7), None, Some(0.2)];
        let mut white = ScriptedPlayer::new(vec!["A5", "C5", "E5", "C3"], vec![fast; 4]);
        let mut settings = settings(TimeControl::None { max_move: 10.0 });
        settings.move_cap = 8;
        let start = GameState::new(5, Rules::default()).unwrap();
        let outcome = play_game(start, &mut black, &mut white, &settings, 1, &mut |_| {});
        assert_eq!(outcome.state.moves().len(), 8);
        assert_eq!(outcome.peak_winrate, [Some(0.7), None]);
    }

    #[test]
    fn an_interrupted_game_is_abandoned() {
        let player = || ScriptedPlayer::new(vec!["A1"], vec![Duration::ZERO]);
        let settings = settings(TimeControl::None { max_move: 10.0 });
        settings.interrupt.stop();
        let start = GameState::new(5, Rules::default()).unwrap();
        let (mut black, mut white) = (player(), player());
        let outcome = play_game(start, &mut black, &mut white, &settings, 1, &mut |_| {});
        assert_eq!(outcome.end, GameEnd::Interrupted);
        assert_eq!((outcome.winner, outcome.result.as_str()), (None, ""));
        assert!(outcome.state.moves().is_empty());
    }

    #[test]
    fn playouts_find_a_dead_stone_in_the_opponents_area() {
        // A lone white stone inside a black wall on 5x5: dead by any reasonable count.
        let board = Board::from_diagram(
            ". X . . .\n\
             X X X X X\n\
             . . O . .\n\
             X X X X X\n\
             . X . . .",
        )
        .unwrap();
        let state = GameState::from_board(board, Color::Black, Rules::default());
        let dead = dead_stones_by_playouts(&state, 200, 1);
        let g = state.geometry();
        assert_eq!(dead, vec![g.parse_point("C3").unwrap()]);
        assert!(state.score_with_dead(&dead) > 0.0);
    }
}
