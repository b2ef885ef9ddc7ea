//! Criterion benches of the hot loops: light playouts on 9x9 and 19x19, and board moves.

use criterion::{Criterion, criterion_group, criterion_main};
use hane::board::{Board, Color};
use hane::playout::{LightPolicy, default_move_cap, playout_rng, run_playout};

fn light_playouts(c: &mut Criterion) {
    for size in [9usize, 19] {
        let start = Board::new(size).unwrap();
        let mut board = start.clone();
        let mut rng = playout_rng(1, 0);
        let cap = default_move_cap(size);
        c.bench_function(&format!("light_playout_{size}x{size}"), |b| {
            b.iter(|| {
                board.copy_from(&start);
                run_playout(
                    &mut board,
                    Color::Black,
                    &mut LightPolicy,
                    &mut rng,
                    cap,
                    &mut (),
                )
            })
        });
    }
}

fn board_copy(c: &mut Criterion) {
    let start = Board::new(19).unwrap();
    let mut board = start.clone();
    c.bench_function("board_copy_from_19x19", |b| {
        b.iter(|| board.copy_from(&start))
    });
}

criterion_group!(benches, light_playouts, board_copy);
criterion_main!(benches);
