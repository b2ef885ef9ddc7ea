//! Differential test against GNU Go (`/usr/games/gnugo --mode gtp`, driven over a pipe):
//! random games on 7x7, 9x9 and 19x19 are played into both hane's `GameState` (simple ko,
//! suicide forbidden: what GNU Go's `play` enforces) and GNU Go. Random candidate moves,
//! including occupied points, suicides and ko retakes, must get the same legality verdict
//! from both (`is_legal`, and `play` answering `? illegal move`), and the stone lists and
//! capture counts must agree periodically and at the end of every game.
//!
//! Without GNU Go the test skips with a line saying so, except under CI (`CI` set), where
//! it fails; `.ci/install.d/10-gnugo.sh` installs it for CI.

mod common;

use common::gnugo::{self, GNUGO_RULES, GnuGo, gtp_color};

use std::collections::BTreeSet;
use std::path::PathBuf;

use hane::board::{Cell, Color, GameState, IllegalMove, Move, Point};
use hane::playout::{PlayoutRng, playout_rng, random_below};

fn gnugo_or_skip() -> Option<PathBuf> {
    let found = gnugo::find();
    if found.is_none() {
        common::skip_unless_ci(
            "GNU Go (/usr/games/gnugo or on the PATH)",
            "`apt-get install -y gnugo`, see .ci/install.d/10-gnugo.sh",
        );
    }
    found
}

/// hane's stones of `color` as GTP vertices.
fn hane_stones(game: &GameState, color: Color) -> BTreeSet<String> {
    let g = game.geometry();
    g.points()
        .filter(|&p| game.board().cell(p) == Cell::from(color))
        .map(|p| g.format_point(p))
        .collect()
}

fn gnugo_stones(gnugo: &mut GnuGo, color: Color) -> BTreeSet<String> {
    gnugo
        .ok(&format!("list_stones {}", gtp_color(color)))
        .split_whitespace()
        .map(|v| v.to_ascii_uppercase())
        .collect()
}

fn compare_positions(gnugo: &mut GnuGo, game: &GameState, context: &str) {
    for color in Color::ALL {
        assert_eq!(
            hane_stones(game, color),
            gnugo_stones(gnugo, color),
            "{context}: {color} stones differ\n{}",
            game.board().to_diagram()
        );
        let captured: u32 = gnugo
            .ok(&format!("captures {}", gtp_color(color)))
            .parse()
            .expect("captures answers a number");
        assert_eq!(
            game.board().captures(color),
            captured,
            "{context}: {color} captures"
        );
    }
}

/// Tallies of the verdicts compared, by kind.
#[derive(Default, Debug)]
struct Tally {
    legal: u64,
    occupied: u64,
    ko: u64,
    suicide: u64,
    illegal_plays: u64,
    moves: u64,
    passes: u64,
    games: u64,
}

/// A candidate for `color`: a random point anywhere, a known suicide or ko retake, or a
/// legal non-eye point; `None` to pass.
fn candidate(game: &GameState, color: Color, rng: &mut PlayoutRng) -> Option<Point> {
    let board = game.board();
    let points: Vec<Point> = game.geometry().points().collect();
    if let Some((ko, banned)) = board.ko()
        && banned == color
        && random_below(rng, 2) == 0
    {
        return Some(ko);
    }
    let roll = random_below(rng, 100);
    if roll < 25 {
        return Some(points[random_below(rng, points.len())]);
    }
    if roll < 45 {
        let tricky: Vec<Point> = points
            .iter()
            .copied()
            .filter(|&p| {
                matches!(
                    board.check_move(p, color),
                    Err(IllegalMove::Ko | IllegalMove::Suicide)
                )
            })
            .collect();
        if !tricky.is_empty() {
            return Some(tricky[random_below(rng, tricky.len())]);
        }
    }
    let playable: Vec<Point> = points
        .iter()
        .copied()
        .filter(|&p| game.is_legal(color, Move::Play(p)) && !board.is_eye(p, color))
        .collect();
    (!playable.is_empty()).then(|| playable[random_below(rng, playable.len())])
}

fn differential_game(
    gnugo: &mut GnuGo,
    size: usize,
    game_index: usize,
    rng: &mut PlayoutRng,
    tally: &mut Tally,
) {
    gnugo.ok(&format!("boardsize {size}"));
    gnugo.ok("clear_board");
    let mut game = GameState::new(size, GNUGO_RULES).unwrap();
    let g = game.geometry();
    let cap = 3 * size * size;
    let mut moves = 0;
    while !game.is_over() && moves < cap {
        let color = game.to_move();
        let name = gtp_color(color);
        let mut played = false;
        for _attempt in 0..6 {
            let Some(p) = candidate(&game, color, rng) else {
                break;
            };
            let vertex = g.format_point(p);
            let context = format!("{size}x{size} game {game_index} move {moves}: {name} {vertex}");
            let verdict = game.check_move(color, Move::Play(p));
            let gnugo_legal = match gnugo.ok(&format!("is_legal {name} {vertex}")).as_str() {
                "1" => true,
                "0" => false,
                other => panic!("{context}: is_legal answered {other:?}"),
            };
            assert_eq!(
                verdict.is_ok(),
                gnugo_legal,
                "{context}: hane says {verdict:?}, gnugo is_legal says {gnugo_legal}\n{}",
                game.board().to_diagram()
            );
            match verdict {
                Ok(()) => tally.legal += 1,
                Err(IllegalMove::Occupied) => tally.occupied += 1,
                Err(IllegalMove::Ko) => tally.ko += 1,
                Err(IllegalMove::Suicide) => tally.suicide += 1,
                Err(other) => panic!("{context}: unexpected verdict {other:?}"),
            }
            if verdict.is_ok() {
                gnugo.ok(&format!("play {name} {vertex}"));
                game.play(color, Move::Play(p)).unwrap();
                played = true;
                break;
            }
            // every other illegal candidate is also sent to `play`, which must refuse it
            if random_below(rng, 2) == 0 {
                let before = game.board().clone();
                assert_eq!(
                    gnugo.send(&format!("play {name} {vertex}")),
                    Err("illegal move".to_string()),
                    "{context}: gnugo accepted a move hane calls {verdict:?}"
                );
                assert!(game.play(color, Move::Play(p)).is_err());
                assert!(game.board() == &before);
                tally.illegal_plays += 1;
            }
        }
        if !played {
            gnugo.ok(&format!("play {name} pass"));
            game.play(color, Move::Pass).unwrap();
            tally.passes += 1;
        }
        moves += 1;
        tally.moves += 1;
        if moves % 20 == 0 {
            compare_positions(
                gnugo,
                &game,
                &format!("{size}x{size} game {game_index} move {moves}"),
            );
        }
    }
    compare_positions(
        gnugo,
        &game,
        &format!("{size}x{size} game {game_index} at the end"),
    );
    tally.games += 1;
}

#[test]
fn random_games_agree_with_gnugo() {
    let Some(path) = gnugo_or_skip() else {
        return;
    };
    let mut gnugo = GnuGo::start(&path, &[]);
    let version = gnugo.ok("version");
    let mut rng = playout_rng(0x676e7567, 0);
    let mut tally = Tally::default();
    // (size, games): small boards for many captures, kos and suicides
    for (size, games) in [(7, 150), (9, 100), (19, 12)] {
        for k in 0..games {
            differential_game(&mut gnugo, size, k, &mut rng, &mut tally);
        }
    }
    eprintln!("gnugo {version}: {tally:?}");
    assert!(tally.games >= 250);
    // the random candidates must really have exercised every kind of verdict
    assert!(tally.ko >= 200, "too few ko retakes compared: {tally:?}");
    assert!(tally.suicide >= 100, "too few suicides compared: {tally:?}");
    assert!(
        tally.occupied >= 1000,
        "too few occupied points compared: {tally:?}"
    );
    assert!(tally.illegal_plays >= 500, "{tally:?}");
}

#[test]
fn gnugo_and_hane_agree_on_a_scripted_ko_and_suicide() {
    let Some(path) = gnugo_or_skip() else {
        return;
    };
    let mut gnugo = GnuGo::start(&path, &[]);
    gnugo.ok("boardsize 5");
    gnugo.ok("clear_board");
    let mut game = GameState::new(5, GNUGO_RULES).unwrap();
    // a ko at B2/C2 and a suicide point at A1 for white
    let script = [
        ("black", "B3", true),
        ("black", "A2", true),
        ("black", "B1", true),
        ("white", "C3", true),
        ("white", "B2", true),
        ("white", "D2", true),
        ("white", "C1", true),
        ("black", "C2", true),
        ("white", "B2", false), // ko
        ("white", "A1", false), // suicide
        ("white", "C2", false), // occupied
        ("white", "E5", true),
        ("black", "A1", true),
        ("white", "B2", true), // the ko again, after a move elsewhere
    ];
    for (name, vertex, legal) in script {
        let color = Color::parse(name).unwrap();
        let p = game.geometry().parse_point(vertex).unwrap();
        assert_eq!(
            game.is_legal(color, Move::Play(p)),
            legal,
            "hane: {name} {vertex}"
        );
        assert_eq!(
            gnugo.ok(&format!("is_legal {name} {vertex}")),
            if legal { "1" } else { "0" },
            "gnugo: {name} {vertex}"
        );
        if legal {
            gnugo.ok(&format!("play {name} {vertex}"));
            game.play(color, Move::Play(p)).unwrap();
        }
    }
    compare_positions(&mut gnugo, &game, "scripted");
}
