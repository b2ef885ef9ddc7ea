//! `hane review GAME.sgf`: the flags of a game review (the engine's settings among them)
//! and its run; the review itself is [`crate::review`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::settings_args::{EngineScopes, SettingsArgs};
use crate::review::{OutputPaths, ReviewOptions, Thresholds, chart, plan, sgf_out, summary};
use crate::sgf::read_first_game;

/// `hane review`: the record, where the review goes, which moves, how many searches at
/// once, and every engine setting (`--playouts` or `--time` per position, `--threads` per
/// search, `--seed`; `--rules` and `--komi` for a record that gives none).
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game record (SGF; its first game is reviewed).
    #[arg(value_name = "GAME.sgf")]
    game: PathBuf,
    /// Folder of the review's files (default: GAME-review/ beside the record).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The first move reviewed (1-based).
    #[arg(long, value_name = "MOVE")]
    from: Option<usize>,
    /// The last move reviewed (default: the record's last).
    #[arg(long, value_name = "MOVE")]
    to: Option<usize>,
    /// Positions analysed at once, each by its own searcher (on one thread unless
    /// --threads is given).
    #[arg(long, default_value_t = 1, value_name = "J")]
    jobs: usize,
    #[command(flatten)]
    settings: SettingsArgs<EngineScopes>,
}

pub fn run(args: &ReviewArgs) -> ExitCode {
    match review(args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hane review: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reviews the record and writes the files; the summary for stdout.
fn review(args: &ReviewArgs) -> Result<String, String> {
    if args.jobs == 0 {
        return Err("--jobs must be at least 1".to_string());
    }
    let record = args.game.display().to_string();
    let settings = args.settings.settings.clone();
    let game = read_first_game(&args.game, settings.game.max_sgf_bytes.0)
        .map_err(|e| format!("{record}: {e}"))?;
    let options = ReviewOptions {
        settings,
        from: args.from,
        to: args.to,
        jobs: args.jobs,
        thresholds: Thresholds::for_board(game.size),
    };
    let plan = plan(game, &options).map_err(|e| format!("{record}: {e}"))?;
    let paths = OutputPaths::new(&args.game, args.out.as_deref());
    let bar = crate::log::progress_bar(plan.positions() as u64, "positions");
    let review = plan.run(&|| bar.inc(1))?;
    bar.finish_and_clear();
    let text = summary::summary_text(&review, &record);
    paths.write(
        &sgf_out::annotated_sgf(&review),
        &chart::review_svg(&review),
        &text,
    )?;
    Ok(format!(
        "{text}\nWrote {}, {} and {}\n",
        paths.sgf.display(),
        paths.svg.display(),
        paths.text.display()
    ))
}
