//! The clock handlers: `time_settings`, `kgs-time_settings`, `kata-time_settings` and
//! `time_left`, and the parsing of their time systems.

use super::{Outcome, exactly};
use crate::board::Color;
use crate::engine::parse::{parse_color, parse_count, parse_float, parse_seconds};
use crate::engine::{Call, ERR_SYNTAX, Engine};
use crate::play::clock::{Clock, TimeLeft, TimeSystem};

/// What `kata-time_settings` takes (`byoyomi` is also taken for `byo-yomi`).
pub(super) const KATA_TIME_SETTINGS: &str =
    "none absolute byo-yomi canadian fischer fischer-capped";

impl Engine {
    /// Installs a time system; both clocks start full.
    fn set_time_system(&mut self, system: TimeSystem) {
        // Re-sending the same settings (gtp2ogs does so before every move) keeps the clocks.
        if self.clocks[0].system != system {
            self.clocks = [Clock::new(system); 2];
        }
    }

    /// The clock's time for `color`'s next move (`None`: no clock).
    pub(super) fn clock_time(&self, color: Color) -> Option<crate::play::clock::MoveTime> {
        self.clocks[color.index()].move_time(
            self.settings.game.time_plan,
            self.state.moves().len(),
            self.state.size(),
            self.settings.game.lag_margin,
        )
    }
}

pub(super) fn cmd_time_settings(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [main, byo, stones] = exactly(args)?;
    let main = parse_seconds(main).ok_or(ERR_SYNTAX)?;
    let byo = parse_seconds(byo).ok_or(ERR_SYNTAX)?;
    let stones = parse_count(stones).ok_or(ERR_SYNTAX)?;
    engine.set_time_system(TimeSystem::from_gtp(main, byo, stones));
    Ok(String::new())
}

/// `kgs-time_settings KIND ...` or, with `kata`, `kata-time_settings KIND ...`: the kinds
/// of `kgs-time_settings` (`byo-yomi` spelt either way), and for `kata-time_settings` also
/// `fischer MAIN INCREMENT` and `fischer-capped MAIN INCREMENT MAIN_LIMIT MOVE_LIMIT` (a
/// negative limit: none; a main-time limit must not be below the main time).
pub(super) fn cmd_time_system(engine: &mut Engine, args: &[&str], kata: bool) -> Outcome {
    engine.set_time_system(parse_time_system(args, kata)?);
    Ok(String::new())
}

/// The time system of `kgs-time_settings` (or with `kata`, `kata-time_settings`) arguments.
fn parse_time_system(args: &[&str], kata: bool) -> Result<TimeSystem, String> {
    let Some((kind, rest)) = args.split_first() else {
        return Err(ERR_SYNTAX.into());
    };
    let seconds = |s: &str| parse_seconds(s).ok_or(ERR_SYNTAX);
    let count = |s: &str| parse_count(s).ok_or(ERR_SYNTAX);
    // A limit of fischer-capped: negative means none.
    let limit = |s: &str| match parse_float(s) {
        Some(x) if x < 0.0 => Ok(None),
        _ => seconds(s).map(Some),
    };
    let kind = kind.to_ascii_lowercase();
    let kind = match kind.as_str() {
        "byo-yomi" if kata => "byoyomi",
        "fischer" | "fischer-capped" if !kata => return Err(ERR_SYNTAX.into()),
        other => other,
    };
    Ok(match (kind, rest) {
        ("none", []) => TimeSystem::None,
        ("absolute", [main]) => TimeSystem::Absolute {
            main: seconds(main)?,
        },
        ("byoyomi", [main, period, periods]) => {
            let (main, period, periods) = (seconds(main)?, seconds(period)?, count(periods)?);
            if period <= 0.0 || periods == 0 {
                TimeSystem::Absolute { main }
            } else {
                TimeSystem::Byoyomi {
                    main,
                    period,
                    periods,
                }
            }
        }
        // The same reading as GTP `time_settings main period stones`.
        ("canadian", [main, period, stones]) => {
            TimeSystem::from_gtp(seconds(main)?, seconds(period)?, count(stones)?)
        }
        ("fischer", [main, increment]) => TimeSystem::Fischer {
            main: seconds(main)?,
            increment: seconds(increment)?,
            main_limit: None,
            move_limit: None,
        },
        ("fischer-capped", [main, increment, main_limit, move_limit]) => {
            let main = seconds(main)?;
            let main_limit = limit(main_limit)?;
            if main_limit.is_some_and(|l| l < main) {
                return Err("main time limit below the main time".into());
            }
            TimeSystem::Fischer {
                main,
                increment: seconds(increment)?,
                main_limit,
                move_limit: limit(move_limit)?,
            }
        }
        _ => return Err(ERR_SYNTAX.into()),
    })
}

pub(super) fn cmd_time_left(engine: &mut Engine, args: &[&str], _: &mut Call<'_>) -> Outcome {
    let [color, seconds, stones] = exactly(args)?;
    let color = parse_color(color).ok_or(ERR_SYNTAX)?;
    // Overtime can be reported as negative; absurdly large values plan no further than a
    // day per move anyway (`time::move_budget`).
    let seconds = parse_float(seconds).ok_or(ERR_SYNTAX)?.clamp(0.0, 1e9);
    let stones = parse_count(stones).ok_or(ERR_SYNTAX)?;
    engine.clocks[color.index()].left = Some(TimeLeft {
        seconds,
        stones_or_periods: stones,
    });
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::super::test_engine::{engine, ok, refused};
    use crate::board::Color;
    use crate::play::clock::TimeSystem;

    #[test]
    fn a_new_game_starts_with_full_clocks() {
        let mut e = engine(10, 3);
        ok(&mut e, "boardsize 9");
        ok(&mut e, "time_settings 10 0 0");
        e.clocks[Color::Black.index()].charge(9.5);
        e.clocks[Color::White.index()].charge(4.0);
        assert!((e.clocks[0].left.unwrap().seconds - 0.5).abs() < 1e-9);
        // The same settings again (gtp2ogs, gogui-twogtp) keep the running clocks...
        ok(&mut e, "time_settings 10 0 0");
        assert!((e.clocks[0].left.unwrap().seconds - 0.5).abs() < 1e-9);
        // ...and a new game fills them again.
        ok(&mut e, "clear_board");
        for clock in e.clocks {
            assert_eq!(clock.left.unwrap().seconds, 10.0);
        }
        ok(&mut e, "kgs-time_settings byoyomi 0 30 5");
        e.clocks[Color::Black.index()].charge(31.0);
        assert_eq!(e.clocks[0].left.unwrap().stones_or_periods, 4);
        ok(&mut e, "boardsize 9");
        assert_eq!(e.clocks[0].left.unwrap().stones_or_periods, 5);
        // A loaded record is a new game too.
        e.clocks[Color::Black.index()].charge(31.0);
        let file = std::env::temp_dir().join(format!("hane-clock-{}.sgf", std::process::id()));
        std::fs::write(&file, "(;GM[1]SZ[9];B[ee];W[cc])").unwrap();
        ok(&mut e, &format!("loadsgf {}", file.display()));
        std::fs::remove_file(&file).ok();
        assert_eq!(e.state.moves().len(), 2);
        assert_eq!(e.clocks[0].left.unwrap().stones_or_periods, 5);
    }

    #[test]
    fn kata_time_settings_set_fischer_clocks_and_refuse_bad_ones() {
        let mut e = engine(10, 3);
        let listed = ok(&mut e, "kata-list_time_settings");
        for kind in listed.split(' ') {
            // Every kind listed is taken (with some arguments).
            let args = match kind {
                "none" => "",
                "absolute" => "60",
                "fischer" => "60 5",
                "fischer-capped" => "60 5 90 -1",
                _ => "60 30 5",
            };
            ok(&mut e, &format!("kata-time_settings {kind} {args}"));
        }
        assert!(listed.contains("fischer-capped"), "{listed}");
        ok(&mut e, "kata-time_settings fischer-capped 300.5 10 600 20");
        let expected = TimeSystem::Fischer {
            main: 300.5,
            increment: 10.0,
            main_limit: Some(600.0),
            move_limit: Some(20.0),
        };
        assert_eq!(e.clocks[0].system, expected);
        assert_eq!(e.clocks[1].left.unwrap().seconds, 300.5);
        // The increment comes after the move, up to the limit.
        e.clocks[0].charge(4.5);
        assert_eq!(e.clocks[0].left.unwrap().seconds, 306.0);
        ok(&mut e, "time_left b 595 0");
        e.clocks[0].charge(1.0);
        assert_eq!(e.clocks[0].left.unwrap().seconds, 600.0);
        ok(&mut e, "kata-time_settings byoyomi 0 30 5");
        assert!(matches!(e.clocks[0].system, TimeSystem::Byoyomi { .. }));
        // Errors change nothing.
        ok(&mut e, "kata-time_settings fischer 60 5");
        let before = e.clocks;
        for bad in [
            "kata-time_settings fischer-capped 300 10 100 -1",
            "kata-time_settings fischer 60",
            "kata-time_settings fischer 60 -5",
            "kata-time_settings sudden-death 60",
            "kata-time_settings",
            "kgs-time_settings fischer 60 5",
            "kgs-time_settings byo-yomi 60 30 5",
        ] {
            refused(&mut e, bad);
            assert_eq!(e.clocks, before, "{bad}");
        }
        assert_eq!(
            refused(&mut e, "kata-time_settings fischer-capped 300 10 100 -1"),
            "main time limit below the main time"
        );
        // A move is found under a Fischer clock, whatever time_left says.
        ok(&mut e, "boardsize 9");
        ok(&mut e, "kata-time_settings fischer-capped 10 1 -1 0.5");
        for left in ["1e30 0", "0 0", "0.0001 0"] {
            ok(&mut e, &format!("time_left b {left}"));
            assert!(!ok(&mut e, "genmove b").is_empty(), "{left}");
            ok(&mut e, "undo");
        }
    }

    #[test]
    fn absurd_time_left_values_still_give_a_move() {
        let mut e = engine(30, 3);
        for settings in [
            "time_settings 60 0 0",
            "kgs-time_settings byoyomi 60 30 5",
            "kgs-time_settings canadian 60 30 5",
        ] {
            ok(&mut e, "clear_board");
            ok(&mut e, settings);
            for left in ["1e30 0", "1e300 5", "-1e300 0", "0 0", "0.0001 1"] {
                ok(&mut e, &format!("time_left b {left}"));
                let mv = ok(&mut e, "genmove b");
                assert!(!mv.is_empty(), "{settings} / {left}");
                ok(&mut e, "undo");
            }
        }
    }
}
