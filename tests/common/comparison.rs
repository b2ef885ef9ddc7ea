//! One of hane's readers held against GNU Go's, for the tests that compare them
//! (`tactics_gnugo`, `semeai_gnugo`, `owl_gnugo`): GNU Go started with Chinese rules (or the
//! test skipped), the positions (seeded random games, professional games), the loops that
//! play them into both engines and compare the readers after given moves until enough were
//! compared, and the end of a long run (the professional games and the report file). What a
//! test reads in a position and how it counts the answers is its own [`Comparison`].

use std::path::PathBuf;

use hane::board::{Board, Color, GameState, Move};
use hane::playout::{play_random_moves, playout_rng};
use hane::sgf::{SgfGame, parse_collection};

use super::gnugo::{self, GNUGO_RULES, GnuGo, gtp_color};

/// The tally of one comparison run: what is read in a position, and how it is counted.
pub trait Comparison: Default {
    /// hane's reader, new for each set of games.
    type Reader: Default;

    /// How many were compared so far (chains or reads): what `wanted` and `goal` count.
    fn compared(&self) -> usize;

    /// Compares `reader` with GNU Go on `board`, which GNU Go holds too; it may stop once
    /// `goal` were compared.
    fn compare_position(
        &mut self,
        gnugo: &mut GnuGo,
        reader: &mut Self::Reader,
        board: &Board,
        goal: usize,
    );

    /// The figures in one line.
    fn summary(&self) -> String;

    /// Every disagreement so far, each with its diagram.
    fn report(&self) -> &str;
}

/// GNU Go (see [`gnugo::find`]) started with `--chinese-rules`; `None` when it is missing
/// and the test may skip (see [`super::skip_unless_ci`]).
pub fn start_or_skip() -> Option<GnuGo> {
    let Some(path) = gnugo::find() else {
        super::skip_unless_ci(
            "GNU Go (/usr/games/gnugo or gnugo on the PATH)",
            "apt-get install -y gnugo, see .ci/install.d/10-gnugo.sh",
        );
        return None;
    };
    Some(GnuGo::start(&path, &["--chinese-rules"]))
}

/// The moves of seeded game `game_index` of light-policy play on `size` under
/// [`GNUGO_RULES`], `moves` of them (an illegal choice becomes a pass).
pub fn random_game(size: usize, seed: u64, game_index: u64, moves: usize) -> Vec<(Color, Move)> {
    let mut state = GameState::new(size, GNUGO_RULES).unwrap();
    play_random_moves(&mut state, moves, &mut playout_rng(seed, game_index))
}

/// The games of `../shared/data/pro-games/pro-000.sgf` beside the checkout that parse;
/// `None` when the collection is not there.
pub fn pro_games() -> Option<Vec<SgfGame>> {
    pro_collection("pro-000.sgf")
}

/// The games of `../shared/data/pro-games/FILE` beside the checkout that parse; `None` when
/// the collection is not there.
pub fn pro_collection(file: &str) -> Option<Vec<SgfGame>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/pro-games")
        .join(file);
    let bytes = std::fs::read(&path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let games = parse_collection(&text).expect("an SGF collection");
    Some(games.into_iter().filter_map(Result::ok).collect())
}

/// The games of `../shared/data/losses/FILE` beside the checkout (the games hane lost;
/// every one must parse); `None` when the collection is not there.
pub fn loss_collection(file: &str) -> Option<Vec<SgfGame>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/losses")
        .join(file);
    let bytes = std::fs::read(&path).ok()?;
    // Each record's root node ends in a stray `G` (`...DT[2026-11-25]G`, probably what
    // stripping a `GC[...]` comment left; GNU Go refuses such a file), and hane's parser
    // then drops the game's first move: take the `G` out.
    let text = String::from_utf8_lossy(&bytes).replace("]G\n;", "]\n;");
    let games = parse_collection(&text).expect("an SGF collection");
    Some(
        games
            .into_iter()
            .map(|g| g.expect("every game parses"))
            .collect(),
    )
}

/// Plays seeded random games of `size` (see [`random_game`]) into hane and GNU Go and
/// compares the readers after `stops` moves of each game, until `wanted` more were compared.
pub fn compare_random_games<C: Comparison>(
    gnugo: &mut GnuGo,
    size: usize,
    stops: &[usize],
    seed: u64,
    wanted: usize,
    comparison: &mut C,
) {
    let mut reader = C::Reader::default();
    let goal = comparison.compared() + wanted;
    for game_index in 0.. {
        let moves = random_game(size, seed, game_index, *stops.iter().max().unwrap());
        compare_game(gnugo, &mut reader, size, &moves, stops, goal, comparison);
        if comparison.compared() >= goal {
            return;
        }
    }
}

/// Compares the readers on positions of professional games (see [`pro_games`]: the 19x19
/// games without setup stones, every move of which up to the last of `stops` is legal under
/// GNU Go's rules), after each number of moves in `stops`, until `wanted` more were
/// compared; `false` when the collection is not there.
pub fn compare_pro_games<C: Comparison>(
    gnugo: &mut GnuGo,
    stops: &[usize],
    wanted: usize,
    comparison: &mut C,
) -> bool {
    let Some(games) = pro_games() else {
        return false;
    };
    let last = *stops.iter().max().unwrap();
    let games: Vec<SgfGame> = games
        .into_iter()
        .filter(|game| game.size == 19 && game.moves.len() >= last)
        .collect();
    compare_recorded_games(gnugo, &games, stops, wanted, comparison);
    true
}

/// Compares the readers on positions of recorded games: of each game without setup stones,
/// the positions after each number of moves in `stops` that it reaches, when every move up
/// to the last of them is legal under GNU Go's rules; until `wanted` more were compared.
pub fn compare_recorded_games<C: Comparison>(
    gnugo: &mut GnuGo,
    games: &[SgfGame],
    stops: &[usize],
    wanted: usize,
    comparison: &mut C,
) {
    let mut reader = C::Reader::default();
    let goal = comparison.compared() + wanted;
    for game in games {
        let last = stops
            .iter()
            .copied()
            .filter(|&stop| stop <= game.moves.len())
            .max();
        let Some(last) = last else {
            continue;
        };
        if !game.setup.is_empty() {
            continue;
        }
        let mut state = GameState::new(game.size, GNUGO_RULES).unwrap();
        if game.moves[..last]
            .iter()
            .any(|&(color, mv)| state.play(color, mv).is_err())
        {
            continue;
        }
        compare_game(
            gnugo,
            &mut reader,
            game.size,
            &game.moves[..last],
            stops,
            goal,
            comparison,
        );
        if comparison.compared() >= goal {
            break;
        }
    }
}

/// Plays `moves` into hane and GNU Go from the empty board of `size` and compares the
/// readers after each number of moves in `stops`, until `goal` were compared.
fn compare_game<C: Comparison>(
    gnugo: &mut GnuGo,
    reader: &mut C::Reader,
    size: usize,
    moves: &[(Color, Move)],
    stops: &[usize],
    goal: usize,
    comparison: &mut C,
) {
    gnugo.ok(&format!("boardsize {size}"));
    gnugo.ok("clear_board");
    let mut state = GameState::new(size, GNUGO_RULES).unwrap();
    for (k, &(color, mv)) in moves.iter().enumerate() {
        state.play(color, mv).expect("a legal move");
        gnugo.ok(&format!(
            "play {} {}",
            gtp_color(color),
            mv.to_gtp(state.geometry())
        ));
        if stops.contains(&(k + 1)) {
            comparison.compare_position(gnugo, reader, state.board(), goal);
            if comparison.compared() >= goal {
                return;
            }
        }
    }
}

/// The end of a long run, after its random games: prints their summary, compares `wanted`
/// on professional games after `stops` moves (see [`compare_pro_games`]) and prints that
/// summary (or that the collection is missing), and, when the environment variable
/// `report_var` names a file, writes both reports to it. Returns the professional games'
/// tally (empty without the collection).
pub fn finish_long_run<C: Comparison>(
    gnugo: &mut GnuGo,
    random: &C,
    stops: &[usize],
    wanted: usize,
    report_var: &str,
) -> C {
    eprintln!("random games: {}", random.summary());
    let mut pro = C::default();
    if compare_pro_games(gnugo, stops, wanted, &mut pro) {
        eprintln!("professional games: {}", pro.summary());
    } else {
        eprintln!("professional games: ../shared/data/pro-games/pro-000.sgf not found");
    }
    if let Some(file) = std::env::var_os(report_var) {
        let report = format!(
            "# random games\n{}\n# professional games\n{}",
            random.report(),
            pro.report()
        );
        std::fs::write(&file, report).expect("write the report");
    }
    pro
}
