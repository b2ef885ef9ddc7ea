//! `hane bench`: speed figures as `key=value` lines that scripts can read.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::board::Board;
use crate::pattern;
use crate::playout::{run_light_playouts, run_pattern_playouts};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Playouts per case (default: 200000 on 9x9, 40000 on 19x19).
    #[arg(long)]
    playouts: Option<u64>,
    /// Thread counts to measure, comma separated; `all` means every core.
    #[arg(long, default_value = "1,all", value_delimiter = ',')]
    threads: Vec<String>,
    /// Board sizes to measure, comma separated.
    #[arg(long, default_value = "9,19", value_delimiter = ',')]
    size: Vec<usize>,
    /// Komi for the reported win rate.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    komi: f32,
    /// Seed of the playout generators.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Cases to run, comma separated (`light`, `pattern`).
    #[arg(long, default_value = "light", value_delimiter = ',')]
    case: Vec<String>,
}

fn thread_count(spec: &str) -> Result<usize, String> {
    if spec == "all" {
        Ok(std::thread::available_parallelism().map_or(1, |n| n.get()))
    } else {
        spec.parse::<usize>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("bad thread count {spec:?}"))
    }
}

pub fn run(args: &BenchArgs) -> ExitCode {
    for case in &args.case {
        if case != "light" && case != "pattern" {
            eprintln!("hane bench: unknown case {case:?} (known: light, pattern)");
            return ExitCode::FAILURE;
        }
        for &size in &args.size {
            let Some(start) = Board::new(size) else {
                eprintln!("hane bench: unsupported board size {size}");
                return ExitCode::FAILURE;
            };
            for spec in &args.threads {
                let threads = match thread_count(spec) {
                    Ok(n) => n,
                    Err(e) => {
                        eprintln!("hane bench: {e}");
                        return ExitCode::FAILURE;
                    }
                };
                let playouts = args
                    .playouts
                    .unwrap_or(if size <= 9 { 200_000 } else { 40_000 });
                let table = pattern::default_table();
                if case == "pattern" {
                    table.playout_3x3_gammas();
                }
                let clock = Instant::now();
                let stats = if case == "pattern" {
                    run_pattern_playouts(&start, table, playouts, threads, args.seed)
                } else {
                    run_light_playouts(&start, playouts, threads, args.seed)
                };
                let seconds = clock.elapsed().as_secs_f64();
                println!(
                    "case={case} size={size} threads={threads} playouts={} seconds={seconds:.3} \
                     playouts_per_s={:.0} playouts_per_s_per_thread={:.0} moves_per_playout={:.2} \
                     black_winrate={:.4} komi={}",
                    stats.playouts,
                    stats.playouts as f64 / seconds,
                    stats.playouts as f64 / seconds / threads as f64,
                    stats.moves_per_playout(),
                    stats.black_winrate(args.komi),
                    args.komi
                );
            }
        }
    }
    ExitCode::SUCCESS
}
