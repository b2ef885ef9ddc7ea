//! Shape codes: the 8 rotations and reflections of a position, and the same position with
//! colours swapped (and the other player to move), give the same folded code; different
//! shapes give different codes; the fast 3x3 reader (over the board's ring codes) agrees with the
//! generic one, and the ring sets name the neighbours that hold each kind of cell.

use hane::board::{Board, Cell, Color, Point, ring_cells};
use hane::pattern::shape::{
    SYMMETRIES, canonical_3x3_table, code_3x3, describe_3x3, diamond12, diamond24, diamond40,
    diamond60, raw_code_3x3, square3,
};
use hane::playout::{playout_rng, random_below};

/// A random position on a `size` board: stones of both colours, about `fill` of the
/// points, built by legal moves so every chain has a liberty.
fn random_board(size: usize, moves: usize, seed: u64) -> Board {
    let mut board = Board::new(size).unwrap();
    let mut rng = playout_rng(seed, 0);
    let mut color = Color::Black;
    for _ in 0..moves {
        let empties = board.empty_points().len();
        if empties == 0 {
            break;
        }
        let p = Point::from_index(board.empty_points()[random_below(&mut rng, empties)] as usize);
        if board.is_legal(p, color) {
            board.play(p, color).unwrap();
        }
        color = color.opponent();
    }
    board
}

/// The diagram of `board` transformed by symmetry `s` (about the centre), colours swapped
/// when `swap` is set.
fn transformed(board: &Board, s: usize, swap: bool) -> (Board, impl Fn(Point) -> Point) {
    let n = board.size() as i32;
    let half = n - 1;
    let map = move |col: i32, row: i32| -> (i32, i32) {
        // Centre the coordinates (doubled, to stay integral), transform, un-centre.
        let (x, y) = SYMMETRIES[s](2 * col - half, 2 * row - half);
        ((x + half) / 2, (y + half) / 2)
    };
    let mut grid = vec![vec!['.'; n as usize]; n as usize];
    let geometry = board.geometry();
    for p in geometry.points() {
        let (c, r) = geometry.coords(p);
        let (tc, tr) = map(c as i32, r as i32);
        let ch = match (board.cell(p), swap) {
            (Cell::Black, false) | (Cell::White, true) => 'X',
            (Cell::White, false) | (Cell::Black, true) => 'O',
            _ => '.',
        };
        grid[(half - tr) as usize][tc as usize] = ch;
    }
    let text: String = grid
        .iter()
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect();
    let out = Board::from_diagram(&text).expect("a transformed legal position is legal");
    let point_map = move |p: Point| -> Point {
        let (c, r) = geometry.coords(p);
        let (tc, tr) = map(c as i32, r as i32);
        geometry.point(tc as usize, tr as usize).unwrap()
    };
    (out, point_map)
}

#[test]
fn all_symmetries_and_colour_swap_give_the_same_code() {
    for (size, moves, seed) in [(9, 50, 1), (9, 70, 2), (13, 120, 3), (19, 250, 4)] {
        let board = random_board(size, moves, seed);
        let mut checked = 0;
        for s in 0..8 {
            for swap in [false, true] {
                let (other, map) = transformed(&board, s, swap);
                for p in board.geometry().points() {
                    if board.cell(p) != Cell::Empty {
                        continue;
                    }
                    let q = map(p);
                    assert_eq!(other.cell(q), Cell::Empty);
                    let (color, other_color) = if swap {
                        (Color::Black, Color::White)
                    } else {
                        (Color::Black, Color::Black)
                    };
                    assert_eq!(
                        code_3x3(&board, p, color),
                        code_3x3(&other, q, other_color),
                        "3x3 code differs under symmetry {s} swap {swap}"
                    );
                    assert_eq!(
                        diamond12().code(&board, p, color),
                        diamond12().code(&other, q, other_color)
                    );
                    assert_eq!(
                        diamond24().code(&board, p, color),
                        diamond24().code(&other, q, other_color)
                    );
                    assert_eq!(
                        diamond40().code(&board, p, color),
                        diamond40().code(&other, q, other_color)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100);
    }
}

#[test]
fn fast_3x3_reader_agrees_with_the_generic_shape() {
    // The fast reader takes the eight cells from the board's incremental ring codes: check
    // it on every size class and on positions long enough for many captures (which remove
    // stones from the ring codes), and the board's own consistency check with it.
    let mut checked = 0;
    let mut captured = 0;
    for (size, moves) in [
        (2, 6),
        (3, 20),
        (5, 60),
        (9, 60),
        (9, 400),
        (13, 600),
        (19, 900),
        (25, 400),
    ] {
        for seed in 0..3 {
            let board = random_board(size, moves, 7 + seed);
            board.check_consistency().unwrap();
            captured += board.captures(Color::Black) + board.captures(Color::White);
            for p in board.geometry().points() {
                if board.cell(p) != Cell::Empty {
                    continue;
                }
                for color in Color::ALL {
                    let fast = raw_code_3x3(&board, p, color) as u64;
                    assert_eq!(
                        fast,
                        square3().raw_code(&board, p, color),
                        "{size}x{size} seed {seed} at {p:?}, {color} to move:\n{board:?}"
                    );
                    assert_eq!(
                        canonical_3x3_table()[fast as usize] as u64,
                        square3().canonical(fast)
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2000, "{checked} codes checked");
    assert!(captured > 100, "{captured} stones captured");
}

#[test]
fn ring_sets_are_the_neighbours_holding_the_cell() {
    // `neighbours_holding` reads the ring code; a plain scan of the eight cells around the
    // point must give the same cells, in ring order, for every kind of cell.
    let mut nonempty_sets = 0;
    for (size, moves, seed) in [(2, 4, 1), (7, 200, 2), (19, 500, 3)] {
        let board = random_board(size, moves, seed);
        let stride = board.geometry().stride();
        for p in board.geometry().points() {
            for cell in [Cell::Empty, Cell::Black, Cell::White, Cell::Border] {
                let scan: Vec<usize> = ring_cells(p.index(), stride)
                    .into_iter()
                    .filter(|&n| board.cell_at(n) == cell)
                    .collect();
                let set = board.neighbours_holding(p, cell);
                assert_eq!(set.collect::<Vec<_>>(), scan, "{p:?} {cell:?}\n{board:?}");
                assert_eq!(set.is_empty(), scan.is_empty());
                let mut expected: Vec<usize> = board
                    .geometry()
                    .neighbors(p)
                    .into_iter()
                    .filter(|&n| board.cell_at(n) == cell)
                    .collect();
                expected.sort_unstable();
                let mut from_set: Vec<usize> = set.orthogonal().collect();
                from_set.sort_unstable();
                assert_eq!(from_set, expected);
                for (k, &n) in ring_cells(p.index(), stride).iter().enumerate() {
                    assert_eq!(set.holds(k as u32), board.cell_at(n) == cell);
                }
                nonempty_sets += !scan.is_empty() as usize;
            }
        }
    }
    assert!(nonempty_sets > 500, "{nonempty_sets}");
}

#[test]
fn folding_keeps_different_shapes_apart() {
    // Own stone north vs enemy stone north; stone north vs diagonal; atari mark or not.
    let own_north = Board::from_diagram(
        ". . . . .
         . . X . .
         . . . . .
         . . . . .
         . . . . .",
    )
    .unwrap();
    let own_diagonal = Board::from_diagram(
        ". . . . .
         . X . . .
         . . . . .
         . . . . .
         . . . . .",
    )
    .unwrap();
    let p = own_north.geometry().point(2, 2).unwrap();
    let a = code_3x3(&own_north, p, Color::Black);
    let b = code_3x3(&own_north, p, Color::White);
    let c = code_3x3(&own_diagonal, p, Color::Black);
    assert_ne!(a, b, "own and enemy stone");
    assert_ne!(a, c, "adjacent and diagonal");
    // A stone in atari is marked.
    let atari = Board::from_diagram(
        ". . O . .
         . O X O .
         . . . X .
         . . . . .
         . . . . .",
    )
    .unwrap();
    let below = atari.geometry().point(2, 2).unwrap();
    let code = code_3x3(&atari, below, Color::White);
    assert!(
        describe_3x3(code as u64).contains('o'),
        "{}",
        describe_3x3(code as u64)
    );
    let free = Board::from_diagram(
        ". . . . .
         . O X O .
         . . . X .
         . . . . .
         . . . . .",
    )
    .unwrap();
    assert_ne!(code, code_3x3(&free, below, Color::White));
}

#[test]
fn fold_is_a_canonical_representative() {
    // Brute force: every raw 3x3 code's fold is the minimum of its orbit and the orbit
    // of the fold is the same set.
    let table = canonical_3x3_table();
    let shape = square3();
    let mut distinct = std::collections::HashSet::new();
    for raw in (0u64..1 << 20).step_by(97) {
        let orbit: Vec<u64> = (0..8).map(|s| shape.transform(raw, s)).collect();
        let folded = table[raw as usize] as u64;
        assert_eq!(folded, *orbit.iter().min().unwrap());
        for &o in &orbit {
            assert_eq!(table[o as usize] as u64, folded);
        }
        distinct.insert(folded);
    }
    assert!(distinct.len() > 1000);
}

#[test]
fn the_40_point_diamond_reads_distance_4_and_hashes_its_fold() {
    let shape = diamond40();
    assert_eq!(shape.offsets().len(), 40);
    assert!(!shape.fits_u64() && diamond24().fits_u64());
    // A stone at distance 4 changes the key; the same stone mirrored gives the same key.
    let empty = Board::new(19).unwrap();
    let centre = empty.geometry().parse_point("K10").unwrap();
    let mut north = empty.clone();
    north
        .play(empty.geometry().parse_point("K14").unwrap(), Color::White)
        .unwrap();
    let mut south = empty.clone();
    south
        .play(empty.geometry().parse_point("K6").unwrap(), Color::White)
        .unwrap();
    let mut far = empty.clone();
    far.play(empty.geometry().parse_point("K15").unwrap(), Color::White)
        .unwrap();
    let key = |b: &Board| shape.code(b, centre, Color::Black);
    assert_ne!(key(&empty), key(&north));
    assert_eq!(key(&north), key(&south));
    assert_eq!(key(&empty), key(&far));
    // The 24-point diamond does not see distance 4.
    assert_eq!(
        diamond24().code(&empty, centre, Color::Black),
        diamond24().code(&north, centre, Color::Black)
    );
}

#[test]
fn the_fast_fold_equals_the_minimum_of_the_orbit() {
    use hane::pattern::shape::wide_key;
    for (size, moves, seed) in [(9, 60, 11), (19, 200, 12), (19, 300, 13)] {
        let board = random_board(size, moves, seed);
        for p in board.geometry().points() {
            if board.cell(p) != Cell::Empty {
                continue;
            }
            for color in [Color::Black, Color::White] {
                for shape in [diamond12(), diamond24()] {
                    let slow = shape.canonical(shape.raw_code(&board, p, color));
                    assert_eq!(shape.code(&board, p, color), slow);
                }
                let wide = diamond40();
                let slow = wide.canonical_wide(wide.raw_code_wide(&board, p, color));
                assert_eq!(wide.code(&board, p, color), wide_key(slow));
                let far = diamond60();
                let slow_far = far.canonical_wide(far.raw_code_wide(&board, p, color));
                assert_eq!(far.code(&board, p, color), wide_key(slow_far));
                assert_eq!(
                    hane::pattern::shape::diamond_codes(&board, p, color),
                    [
                        diamond12().code(&board, p, color),
                        diamond24().code(&board, p, color),
                        wide_key(slow),
                        wide_key(slow_far)
                    ]
                );
            }
        }
    }
}

/// The memo's raw neighbourhood reader (cells through a per-size index table) gives the
/// same diamond keys as each shape's own reader (`ShapeKind::code`, which checks the board's
/// bounds cell by cell), at every point of random positions on every size from 2x2 to
/// 25x25, for both colours; and two points have equal raw neighbourhoods only when their
/// 3x3 codes and keys agree.
#[test]
fn raw_neighbourhood_keys_equal_the_direct_readers_on_every_size() {
    use hane::pattern::shape::{RawNeighbourhood, code_3x3, diamond_codes};
    let (d12_shape, d24_shape, d40_shape, d60_shape) =
        (diamond12(), diamond24(), diamond40(), diamond60());
    use hane::playout::{LightPolicy, PlayoutPolicy, playout_rng};
    let mut checked = 0;
    for size in 2..=25 {
        let mut rng = playout_rng(size as u64, 3);
        let mut board = Board::new(size).unwrap();
        let mut seen = std::collections::HashMap::new();
        for k in 0..size * size / 2 {
            let color = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if let Some(p) = LightPolicy.choose(&mut board, color, &mut rng) {
                board.play_unchecked(p, color);
            }
            if k % 3 != 0 {
                continue;
            }
            for p in board.geometry().points() {
                for color in Color::ALL {
                    let raw = RawNeighbourhood::read(&board, p, color);
                    let d12 = d12_shape.code(&board, p, color);
                    let d24 = d24_shape.code(&board, p, color);
                    let d40 = d40_shape.code(&board, p, color);
                    let d60 = d60_shape.code(&board, p, color);
                    assert_eq!(raw.inner_keys(), [d12, d24], "{size}x{size}");
                    assert_eq!(raw.outer_key(), d40, "{size}x{size}");
                    assert_eq!(raw.far_key(), d60, "{size}x{size}");
                    assert_eq!(diamond_codes(&board, p, color), [d12, d24, d40, d60]);
                    let keys = (code_3x3(&board, p, color), d12, d24, d40, d60);
                    assert_eq!(*seen.entry(raw).or_insert(keys), keys);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}
