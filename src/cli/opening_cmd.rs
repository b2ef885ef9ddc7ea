//! `hane opening-lines`: the opening statistic of game records (on which line the first
//! moves were played), beside a reference set such as professional games; the counting is
//! [`crate::arena::opening_lines`]'s.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::arena::opening_lines::{HIGH_LINE, LineCounts};
use crate::sgf::collection::read_games;

#[derive(Args, Debug)]
pub struct OpeningLinesArgs {
    /// SGF files (single games or collections) or folders of them: the games to describe
    /// (for example the `games/` folder of `hane selfplay --size 19 --move-cap 20`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Reference games to compare with (professional games, say).
    #[arg(long, value_name = "FILE")]
    reference: Vec<PathBuf>,
    /// At most this many reference games (0: all).
    #[arg(long, default_value_t = 1000)]
    max_reference: usize,
    /// The board size of the games counted (games from the empty board only).
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// The first moves of each game counted.
    #[arg(long, default_value_t = 20)]
    moves: usize,
}

/// The counts of the games in `files` (at most `limit`, 0: all).
fn count(files: &[PathBuf], size: usize, moves: usize, limit: usize) -> LineCounts {
    let source = read_games(files, size, limit, &HashSet::new());
    let mut counts = LineCounts::default();
    for game in &source.games {
        counts.add_game(game, size, moves);
    }
    counts
}

/// One row of the table: the name, the games and moves, and the share of each line.
fn row(name: &str, counts: &LineCounts) -> String {
    let shares: Vec<String> = (1..=HIGH_LINE)
        .map(|line| format!("{:>6.1}%", 100.0 * counts.share(line)))
        .collect();
    format!(
        "{name:<10} {:>6} {:>7} {}",
        counts.games,
        counts.moves(),
        shares.join(" ")
    )
}

pub fn run(args: &OpeningLinesArgs) -> ExitCode {
    if args.moves == 0 {
        eprintln!("hane opening-lines: --moves must be at least 1");
        return ExitCode::from(2);
    }
    let games = count(&args.files, args.size, args.moves, 0);
    if games.games == 0 {
        eprintln!(
            "hane opening-lines: no {}x{} game from the empty board in the files given",
            args.size, args.size
        );
        return ExitCode::FAILURE;
    }
    println!(
        "The first {} moves of each {}x{} game, by line (1: the edge; {HIGH_LINE}: the \
         {HIGH_LINE}th line or higher)",
        args.moves, args.size, args.size
    );
    let heads: Vec<String> = (1..=HIGH_LINE)
        .map(|line| {
            if line == HIGH_LINE {
                format!("{line}+")
            } else {
                line.to_string()
            }
        })
        .map(|h| format!("{h:>7}"))
        .collect();
    println!(
        "{:<10} {:>6} {:>7} {}",
        "",
        "games",
        "moves",
        heads.join(" ")
    );
    println!("{}", row("games", &games));
    if !args.reference.is_empty() {
        let reference = count(&args.reference, args.size, args.moves, args.max_reference);
        println!("{}", row("reference", &reference));
    }
    println!(
        "fifth line or higher: {:.1}% of {} moves",
        100.0 * games.share(HIGH_LINE),
        games.moves()
    );
    ExitCode::SUCCESS
}
