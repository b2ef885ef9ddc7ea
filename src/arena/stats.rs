//! Match statistics from the finished games: wins and losses per engine and colour, the
//! score with its 95% Wilson interval, the Elo difference, the sequential probability ratio
//! test (SPRT), and the text report. Everything here depends only on the set of records,
//! taken in game order, so that merged shards report exactly what the whole match reports.

use std::fmt::Write as _;

use super::player::TimeControl;
use super::results::{EndKind, GameRecord, MatchSettings, OwlTally};
use super::shard::Engine1Colour;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: usize,
    pub losses: usize,
    pub draws: usize,
}

impl Tally {
    pub fn games(&self) -> usize {
        self.wins + self.losses + self.draws
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The score rate in [0, 1], 0.5 without games.
    pub fn rate(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    fn add(&mut self, outcome: Option<bool>) {
        match outcome {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }
}

/// The 95% Wilson score interval of a rate `p` over `n` trials.
pub fn wilson_interval(p: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The logistic Elo difference that gives an expected score `rate` (infinite at 0 and 1).
pub fn elo_from_rate(rate: f64) -> f64 {
    if rate <= 0.0 {
        f64::NEG_INFINITY
    } else if rate >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / rate - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub fn rate_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if elo.abs() < 0.5 {
        "0".to_string()
    } else {
        format!("{elo:+.0}")
    }
}

/// An SPRT of H0: Elo = elo0 against H1: Elo = elo1 with error rates alpha and beta.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtVerdict {
    AcceptH0,
    AcceptH1,
    Continue,
}

/// The bound an SPRT crossed first: its verdict, the games recorded by then and the
/// log-likelihood ratio there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtDecision {
    pub verdict: SprtVerdict,
    pub games: usize,
    pub llr: f64,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 4 {
            return Err(format!("--sprt wants elo0,elo1,alpha,beta, got {text:?}"));
        }
        let mut values = [0.0; 4];
        for (slot, part) in values.iter_mut().zip(&parts) {
            *slot = part
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("--sprt: {part:?} is not a number"))?;
        }
        let [elo0, elo1, alpha, beta] = values;
        if elo0 >= elo1 {
            return Err("--sprt: elo0 must be below elo1".to_string());
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err("--sprt: alpha and beta must lie in (0, 0.5)".to_string());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The decision bounds on the log-likelihood ratio: (lower, upper).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results so far (the normal approximation of the
    /// generalized SPRT over game scores 0, 1/2, 1), from the first engine's side.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n = tally.games() as f64;
        if tally.games() == 0 {
            return 0.0;
        }
        let mean = tally.rate();
        let variance = (tally.wins as f64 * (1.0 - mean).powi(2)
            + tally.draws as f64 * (0.5 - mean).powi(2)
            + tally.losses as f64 * mean.powi(2))
            / n;
        if variance <= 0.0 {
            // All games alike: use the variance of one win and one loss, so that a run of
            // equal results still moves the test.
            let v = 0.25;
            return n * self.step(mean, v);
        }
        n * self.step(mean, variance)
    }

    fn step(&self, mean: f64, variance: f64) -> f64 {
        let s0 = rate_from_elo(self.elo0);
        let s1 = rate_from_elo(self.elo1);
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Where the test first crossed a bound, along `records` in the order they were
    /// recorded (the order a match finished them): `None` while it never did. A match stops
    /// there, but the games still in play then are recorded after it and may move the
    /// log-likelihood ratio back inside the bounds; the verdict stays the one reached first.
    pub fn decision(&self, records: &[GameRecord]) -> Option<SprtDecision> {
        let mut tally = Tally::default();
        records.iter().enumerate().find_map(|(k, r)| {
            tally.add(r.winner_engine.map(|w| w == 1));
            let verdict = self.verdict(&tally);
            (verdict != SprtVerdict::Continue).then(|| SprtDecision {
                verdict,
                games: k + 1,
                llr: self.llr(&tally),
            })
        })
    }

    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// Tallies of one engine (index 0 or 1): as black, as white, in total.
pub fn engine_tallies(records: &[GameRecord], engine: u8) -> (Tally, Tally, Tally) {
    let (mut black, mut white, mut total) = Default::default();
    for r in records {
        let outcome = r.winner_engine.map(|w| w == engine);
        if r.black_engine == engine {
            Tally::add(&mut black, outcome);
        } else {
            Tally::add(&mut white, outcome);
        }
        Tally::add(&mut total, outcome);
    }
    (black, white, total)
}

/// The running score rate of engine 1 after each game (in game order), with its interval.
pub fn running_rates(records: &[GameRecord]) -> Vec<(f64, f64, f64)> {
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.number);
    let mut tally = Tally::default();
    sorted
        .iter()
        .map(|r| {
            tally.add(r.winner_engine.map(|w| w == 1));
            let rate = tally.rate();
            let (lo, hi) = wilson_interval(rate, tally.games());
            (rate, lo, hi)
        })
        .collect()
}

fn describe_time(control: &TimeControl) -> String {
    match *control {
        TimeControl::None { max_move } => format!("none (a move over {max_move} s is a hang)"),
        TimeControl::PerMove { seconds } => format!("{seconds} s per move"),
        TimeControl::Clock {
            main,
            byo_yomi,
            stones,
        } if byo_yomi > 0.0 => format!("{main} s + {stones} moves in {byo_yomi} s"),
        TimeControl::Clock { main, .. } => format!("{main} s sudden death"),
        TimeControl::Fischer { main, increment } => {
            format!("{main} s + {increment} s a move (Fischer)")
        }
    }
}

/// A player that gave itself at least this win rate at a move of a game it lost had
/// misjudged the game (the report counts such losses).
pub const MISJUDGED_WINRATE: f32 = 0.6;

/// For a player that reports its win rates: how many of `engine`'s losses came after it
/// gave itself [`MISJUDGED_WINRATE`] or more at one of its moves, with the range of those
/// peaks; `None` when it reported no win rate in a lost game.
fn misjudged_losses(records: &[GameRecord], engine: u8, name: &str) -> Option<String> {
    let peaks: Vec<f32> = records
        .iter()
        .filter(|r| r.winner_engine.is_some_and(|w| w != engine))
        .filter_map(|r| r.peak_winrate[r.colour_of(engine)])
        .collect();
    if peaks.is_empty() {
        return None;
    }
    let high: Vec<f32> = peaks
        .iter()
        .copied()
        .filter(|&p| p >= MISJUDGED_WINRATE)
        .collect();
    let range = if high.is_empty() {
        String::new()
    } else {
        let low = high.iter().copied().fold(f32::INFINITY, f32::min);
        let top = high.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        format!(" (peaks {low:.2}-{top:.2})")
    };
    Some(format!(
        "{name} {} of {} losses{range}",
        high.len(),
        peaks.len()
    ))
}

/// Lines of the report that hold measured times (and the playouts they bought) start with
/// this; everything else depends only on the moves and results.
pub const TIMING_PREFIX: &str = "Time per move";

/// The text report of a match; `records` in the order they were recorded, which decides
/// where an SPRT stopped.
/// Engine 1's score over `records`: `points/games = rate% (95% interval lo% to hi%)`.
fn score_text(records: &[GameRecord]) -> String {
    let (_, _, total) = engine_tallies(records, 1);
    let n = total.games();
    let rate = total.rate();
    let (lo, hi) = wilson_interval(rate, n);
    format!(
        "{}/{n} = {:.1}% (95% interval {:.1}% to {:.1}%)",
        total.points(),
        100.0 * rate,
        100.0 * lo,
        100.0 * hi
    )
}

pub fn report(settings: &MatchSettings, records: &[GameRecord], sprt: Option<&Sprt>) -> String {
    let decision = sprt.and_then(|sprt| sprt.decision(records));
    let mut records: Vec<GameRecord> = records.to_vec();
    records.sort_by_key(|r| r.number);
    let names = &settings.names;
    let mut out = String::new();
    let _ = writeln!(out, "Match: {} vs {}", names[0], names[1]);
    let _ = writeln!(
        out,
        "Board {}x{}, komi {}, rules {}, handicap {}, time: {}, margin {} s, move cap {}",
        settings.size,
        settings.size,
        settings.komi,
        settings.rules,
        settings.handicap,
        describe_time(&settings.time_control),
        settings.margin_seconds,
        settings.move_cap
    );
    if !settings.openings.is_empty() {
        let _ = writeln!(out, "Openings: {}", settings.openings.join(", "));
    }
    match settings.engine1_colour {
        Engine1Colour::Alternate => {}
        Engine1Colour::Black => {
            let _ = writeln!(out, "{} plays black in every game", names[0]);
        }
        Engine1Colour::White => {
            let _ = writeln!(out, "{} plays white in every game", names[0]);
        }
    }
    match settings.shard {
        None => {
            let _ = writeln!(
                out,
                "Games: {} finished of {} planned",
                records.len(),
                settings.games
            );
        }
        Some((k, n)) => {
            let share = (0..settings.games)
                .filter(|&i| super::in_shard(i, settings.shard, settings.shard_pairs))
                .count();
            let _ = writeln!(
                out,
                "Games: {} finished of {share} in shard {k}/{n} of a {}-game match",
                records.len(),
                settings.games
            );
        }
    }
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(6) + 9;
    let _ = writeln!(
        out,
        "{:width$} {:>6} {:>6} {:>6}",
        "", "wins", "losses", "draws"
    );
    for engine in [1u8, 2] {
        let (black, white, total) = engine_tallies(&records, engine);
        let name = &names[engine as usize - 1];
        for (label, t) in [("as black", black), ("as white", white), ("total", total)] {
            let _ = writeln!(
                out,
                "{:width$} {:>6} {:>6} {:>6}",
                format!("{name} {label}"),
                t.wins,
                t.losses,
                t.draws
            );
        }
    }
    let (_, _, total) = engine_tallies(&records, 1);
    let n = total.games();
    let rate = total.rate();
    let (lo, hi) = wilson_interval(rate, n);
    // The score, the Elo and the SPRT are engine 1's, which is not always the engine
    // under test: say so.
    let _ = writeln!(
        out,
        "Score of {} (engine 1) against {}: {}",
        names[0],
        names[1],
        score_text(&records)
    );
    let _ = writeln!(
        out,
        "Elo of {} (engine 1) relative to {}: {} (95% interval {} to {})",
        names[0],
        names[1],
        if n == 0 {
            "n/a".to_string()
        } else {
            format_elo(elo_from_rate(rate))
        },
        format_elo(elo_from_rate(lo)),
        format_elo(elo_from_rate(hi))
    );
    let played: Vec<GameRecord> = records
        .iter()
        .filter(|r| !r.end.is_fault())
        .cloned()
        .collect();
    if played.len() < records.len() {
        // Faults count as losses above; the games that were played out are scored apart.
        let faults = records.len() - played.len();
        let others = if played.is_empty() {
            "none was played out".to_string()
        } else {
            format!("the {} others: {}", played.len(), score_text(&played))
        };
        let _ = writeln!(
            out,
            "Faults: {faults} of {} games ended by an engine's fault (see Endings); {others}",
            records.len()
        );
    }
    let mut endings = Vec::new();
    for kind in [
        EndKind::TwoPasses,
        EndKind::Resignation,
        EndKind::MoveCap,
        EndKind::IllegalMove,
        EndKind::BadReply,
        EndKind::Timeout,
        EndKind::Crash,
    ] {
        let of_kind: Vec<&GameRecord> = records.iter().filter(|r| r.end == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        if kind.is_fault() {
            // The loser is the faulting engine.
            let by = |engine: u8| {
                of_kind
                    .iter()
                    .filter(|r| r.winner_engine.is_some_and(|w| w != engine))
                    .count()
            };
            endings.push(format!(
                "{} {} ({} {}, {} {})",
                kind.name(),
                of_kind.len(),
                names[0],
                by(1),
                names[1],
                by(2)
            ));
        } else {
            endings.push(format!("{} {}", kind.name(), of_kind.len()));
        }
    }
    let _ = writeln!(out, "Endings: {}", endings.join(", "));
    let counted: Vec<&GameRecord> = records.iter().filter(|r| r.dead_agreed.is_some()).collect();
    let disputed = counted
        .iter()
        .filter(|r| r.dead_agreed == Some(false))
        .count();
    let _ = writeln!(
        out,
        "Dead stones: the engines disagreed in {disputed} of {} counted games (settled by playouts)",
        counted.len()
    );
    let total_moves: usize = records.iter().map(|r| r.moves).sum();
    let _ = writeln!(
        out,
        "Average game length: {:.1} moves",
        if records.is_empty() {
            0.0
        } else {
            total_moves as f64 / records.len() as f64
        }
    );
    let mut per_move = Vec::new();
    for engine in [1u8, 2] {
        let (mut seconds, mut moves, mut playouts) = (0.0, 0usize, 0u64);
        let mut owl = OwlTally::default();
        for r in &records {
            let colour = r.colour_of(engine);
            seconds += r.think_seconds[colour];
            moves += r.generated_moves[colour];
            playouts += r.playouts[colour];
            owl.add(&r.owl[colour]);
        }
        let per = |total: f64| {
            if moves == 0 {
                0.0
            } else {
                total / moves as f64
            }
        };
        // The playouts, for players that report them: at an equal clock, what each
        // player's time bought.
        let mut notes = Vec::new();
        if playouts > 0 {
            notes.push(format!("{:.0} playouts", per(playouts as f64)));
        }
        // The root owl's share of the time, and how often its bonus went to a move and
        // that move was played.
        if owl.is_used() {
            let share = if seconds > 0.0 {
                100.0 * owl.seconds / seconds
            } else {
                0.0
            };
            notes.push(format!(
                "owl {:.4} s, {share:.1}% of the time; bonus on {} of {moves} moves, {} played",
                per(owl.seconds),
                owl.bonus_moves,
                owl.bonus_played
            ));
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join("; "))
        };
        per_move.push(format!(
            "{} {:.3} s{notes}",
            names[engine as usize - 1],
            per(seconds)
        ));
    }
    let _ = writeln!(out, "{TIMING_PREFIX}: {}", per_move.join(", "));
    let misjudged: Vec<String> = [1u8, 2]
        .into_iter()
        .filter_map(|engine| misjudged_losses(&records, engine, &names[engine as usize - 1]))
        .collect();
    if !misjudged.is_empty() {
        let _ = writeln!(
            out,
            "Losses after a win rate of {MISJUDGED_WINRATE} or more: {}",
            misjudged.join(", ")
        );
    }
    if let Some(sprt) = sprt {
        let llr = sprt.llr(&total);
        let (lower, upper) = sprt.bounds();
        let verdict = match decision {
            None => "undecided".to_string(),
            Some(d) => {
                let name = match d.verdict {
                    SprtVerdict::AcceptH0 => "H0",
                    _ => "H1",
                };
                let mut text = format!("{name} accepted at game {} (LLR {:.3})", d.games, d.llr);
                let after = records.len() - d.games;
                if after > 0 {
                    let games = if after == 1 { "game" } else { "games" };
                    let _ = write!(text, "; {after} {games} in play then finished after it");
                }
                text
            }
        };
        let _ = writeln!(
            out,
            "SPRT on the Elo of {} (engine 1), elo0={} elo1={} alpha={} beta={}: LLR {:.3} \
             (bounds {:.3}, {:.3}): {verdict}",
            names[0], sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, lower, upper
        );
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn settings(names: [&str; 2]) -> MatchSettings {
        MatchSettings {
            engines: ["e1".to_string(), "e2".to_string()],
            names: names.map(str::to_string),
            size: 9,
            komi: 7.5,
            rules: "cgos".to_string(),
            handicap: 0,
            openings: Vec::new(),
            opening_moves: None,
            time_control: TimeControl::PerMove { seconds: 1.0 },
            margin_seconds: 1.0,
            move_cap: 243,
            seed: 1,
            games: 4,
            shard: None,
            shard_pairs: true,
            engine1_colour: Default::default(),
        }
    }

    /// A finished game's record for tests: game `number`, won by `winner_engine`.
    pub(crate) fn record(number: usize, winner_engine: u8) -> GameRecord {
        serde_json::from_value(serde_json::json!({
            "number": number, "seed": 1, "black_engine": 2 - (number % 2) as u8,
            "black": "x", "white": "y", "opening": null, "result": "B+R",
            "winner_engine": winner_engine, "end": "resignation", "fault": null,
            "score": null, "moves": 10, "think_seconds": [1.0, 1.0],
            "generated_moves": [5, 5], "dead_black_says": null, "dead_white_says": null,
            "dead_agreed": null, "dead_removed": null, "sgf": "games/x.sgf",
            "date": "2026-01-01"
        }))
        .unwrap()
    }

    #[test]
    fn the_report_and_chart_say_whose_score_they_give() {
        let settings = settings(["gnugo", "hane"]);
        let records = [record(1, 1), record(2, 2), record(3, 1)];
        let sprt = Sprt::parse("0,50,0.05,0.05").unwrap();
        let text = report(&settings, &records, Some(&sprt));
        for line in [
            "Score of gnugo (engine 1) against hane: 2/3 = 66.7%",
            "Elo of gnugo (engine 1) relative to hane: +120",
            "SPRT on the Elo of gnugo (engine 1), elo0=0 elo1=50",
        ] {
            assert!(text.contains(line), "{line:?} not in\n{text}");
        }
        let svg = super::super::chart::score_svg(&settings, &records);
        assert!(
            svg.contains("Score of gnugo (engine 1) against hane"),
            "{svg}"
        );
        assert!(svg.contains("score of gnugo"), "{svg}");
        assert!(!text.contains("in every game"), "{text}");
        let mut fixed = settings.clone();
        fixed.engine1_colour = Engine1Colour::White;
        let text = report(&fixed, &records, None);
        assert!(text.contains("gnugo plays white in every game"), "{text}");
    }

    #[test]
    fn the_timing_line_gives_the_playouts_of_players_that_report_them() {
        // Records written before the playouts were kept read as none.
        let mut records = [record(1, 1), record(2, 2)];
        let text = report(&settings(["a", "b"]), &records, None);
        assert!(
            text.contains("Time per move: a 0.200 s, b 0.200 s"),
            "{text}"
        );
        // Engine 1 (black in game 1, white in game 2) reports 1,000 and 3,000 playouts
        // over its five moves of each game; engine 2 reports none.
        records[0].playouts = [1000, 0];
        records[1].playouts = [0, 3000];
        let text = report(&settings(["a", "b"]), &records, None);
        assert!(
            text.contains("Time per move: a 0.200 s (400 playouts), b 0.200 s\n"),
            "{text}"
        );
        // Engine 2's owl read for 0.1 s in game 1 (white) and 0.3 s in game 2 (black), of
        // its 2 s, and gave its bonus at three of its ten moves, two of them played.
        let owl = |seconds, bonus_moves, bonus_played| OwlTally {
            seconds,
            bonus_moves,
            bonus_played,
        };
        records[0].owl = [OwlTally::default(), owl(0.1, 1, 1)];
        records[1].owl = [owl(0.3, 2, 1), OwlTally::default()];
        let text = report(&settings(["a", "b"]), &records, None);
        assert!(
            text.contains(
                "Time per move: a 0.200 s (400 playouts), b 0.200 s (owl 0.0400 s, 20.0% of \
                 the time; bonus on 3 of 10 moves, 2 played)\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn the_report_counts_the_losses_after_a_high_win_rate() {
        // Nobody reports win rates: no line.
        let mut records = [record(1, 2), record(2, 2), record(3, 2), record(4, 1)];
        let text = report(&settings(["a", "b"]), &records, None);
        assert!(!text.contains("Losses after"), "{text}");
        // Engine 1 (black in odd games, white in even ones) loses games 1-3 with peaks
        // 0.9, 0.5 and 0.65; its win in game 4 (peak 0.99) does not count, and engine 2
        // lost game 4 with a peak of 0.3.
        records[0].peak_winrate = [Some(0.9), Some(0.8)];
        records[1].peak_winrate = [Some(0.1), Some(0.5)];
        records[2].peak_winrate = [Some(0.65), None];
        records[3].peak_winrate = [Some(0.3), Some(0.99)];
        let text = report(&settings(["a", "b"]), &records, None);
        assert!(
            text.contains("Losses after a win rate of 0.6 or more: a 2 of 3 losses (peaks 0.65-0.90), b 0 of 1 losses\n"),
            "{text}"
        );
    }

    #[test]
    fn an_sprt_keeps_the_verdict_it_reached_first() {
        let sprt = Sprt::parse("0,50,0.05,0.05").unwrap();
        // Engine 1 scores a third until the lower bound is crossed; then the games still in
        // play (won by engine 1) come in and move the ratio back inside.
        let mut records: Vec<GameRecord> = (1..=300)
            .map(|n| record(n, if n % 3 == 0 { 1 } else { 2 }))
            .collect();
        let decision = sprt
            .decision(&records)
            .expect("a third of the points decides");
        assert_eq!(decision.verdict, SprtVerdict::AcceptH0);
        let (lower, _) = sprt.bounds();
        assert!(decision.llr <= lower);
        let first = decision.games;
        records.truncate(first);
        while sprt.verdict(&engine_tallies(&records, 1).2) != SprtVerdict::Continue {
            assert!(records.len() < first + 20, "wins never undo the verdict");
            records.push(record(records.len() + 1, 1));
        }
        let after = records.len() - first;
        assert!(after > 0);
        assert_eq!(sprt.decision(&records), Some(decision));
        let text = report(&settings(["a", "b"]), &records, Some(&sprt));
        let games = if after == 1 { "game" } else { "games" };
        let line = format!(
            "H0 accepted at game {first} (LLR {:.3}); {after} {games} in play",
            decision.llr
        );
        assert!(text.contains(&line), "{line:?} not in\n{text}");
        // The same games with the late wins first never cross: undecided.
        records.rotate_right(after);
        assert_eq!(sprt.decision(&records), None);
        assert!(report(&settings(["a", "b"]), &records, Some(&sprt)).contains("undecided"));
    }

    #[test]
    fn wilson_interval_matches_published_values() {
        // 8 of 10: the Wilson 95% interval is about (0.490, 0.943).
        let (lo, hi) = wilson_interval(0.8, 10);
        assert!((lo - 0.4902).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-3, "{hi}");
        let (lo, hi) = wilson_interval(0.5, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
    }

    #[test]
    fn elo_and_rate_are_inverse() {
        assert!((elo_from_rate(0.75) - 190.85).abs() < 0.01);
        assert!((rate_from_elo(elo_from_rate(0.3)) - 0.3).abs() < 1e-12);
        assert_eq!(elo_from_rate(0.5), 0.0);
        assert!(elo_from_rate(1.0).is_infinite());
    }

    #[test]
    fn sprt_decides_clear_cases_and_waits_on_close_ones() {
        let sprt = Sprt::parse("0,50,0.05,0.05").unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((lower + upper).abs() < 1e-12);
        let strong = Tally {
            wins: 80,
            losses: 20,
            draws: 0,
        };
        assert_eq!(sprt.verdict(&strong), SprtVerdict::AcceptH1);
        let weak = Tally {
            wins: 30,
            losses: 70,
            draws: 0,
        };
        assert_eq!(sprt.verdict(&weak), SprtVerdict::AcceptH0);
        let close = Tally {
            wins: 6,
            losses: 5,
            draws: 1,
        };
        assert_eq!(sprt.verdict(&close), SprtVerdict::Continue);
        assert!(Sprt::parse("5,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,5,0.05").is_err());
        assert!(Sprt::parse("0,5,0.7,0.05").is_err());
    }
}
