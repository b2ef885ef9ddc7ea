//! Criterion benches of the default engine's tree search (pattern playouts, pattern priors):
//! fixed-playout searches (one thread, then all cores) from the empty 9x9 and 19x19 boards;
//! divide by the playouts for playouts per second.

use criterion::{Criterion, criterion_group, criterion_main};
use hane::board::{GameState, Rules};
use hane::search::{SearchControl, SearchLimits, Searcher};
use hane::settings::{Auto, Settings};

fn searches(c: &mut Criterion) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (size, playouts) in [(9usize, 2_000u64), (19, 500)] {
        let state = GameState::new(size, Rules::default()).unwrap();
        for threads in [1, cores] {
            let settings = {
                let mut s = Settings::default();
                s.game.threads = Auto::Value(threads);
                s.search.early_stop = false;
                s.search.reuse = false;
                s
            };
            let config =
                hane::play::search_config(&settings, hane::pattern::PatternTables::Builtin, 1);
            let limits = SearchLimits {
                playouts: Some(playouts),
                ..SearchLimits::default()
            };
            let control = SearchControl::default();
            let mut searcher = Searcher::new(config);
            c.bench_function(
                &format!("search_{size}x{size}_{playouts}_playouts_{threads}_threads"),
                |b| {
                    b.iter(|| {
                        searcher
                            .search(&state, state.to_move(), &limits, &control, &mut |_| {})
                            .best
                    })
                },
            );
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = searches
}
criterion_main!(benches);
