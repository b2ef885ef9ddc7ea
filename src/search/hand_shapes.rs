//! Hand-written 3x3 shapes for the heuristic priors: the hane, cut and edge shapes that Gelly,
//! Wang, Munos and Teytaud describe for MoGo ("Modification of UCT with patterns in
//! Monte-Carlo Go", INRIA report 6062, 2006), written here in hane's own notation and matched
//! through one 65,536-bit table over the 8 neighbours of a move.
//!
//! A shape is three rows of three cells, north row first, with the move in the centre:
//! `X` and `O` are stones of the two colours (either colour may be the one to move unless
//! the shape says otherwise), `.` an empty point, `?` anything, `x` anything but an `X`
//! stone, `o` anything but an `O` stone, `#` off the board. Every shape also matches in its
//! 8 rotations and reflections.

use std::sync::OnceLock;

use crate::board::{Board, Color, Point};
use crate::pattern::shape::{EMPTY, ENEMY, OFF, OWN, SLOTS_3X3, SYMMETRIES, raw_code_3x3};

/// Who may play a shape's centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// Either colour.
    Either,
    /// Only the owner of the `X` stones.
    X,
}

/// One hand-written shape.
#[derive(Clone, Copy, Debug)]
pub struct HandShape {
    pub name: &'static str,
    pub rows: [&'static str; 3],
    pub mover: Mover,
}

/// The shapes, after MoGo's figures: four hane, three cuts and five edge shapes.
pub const HAND_SHAPES: [HandShape; 12] = [
    // Hane: the move bends around the head of an enemy stone.
    HandShape {
        name: "hane-enclosing",
        rows: ["XOX", "...", "???"],
        mover: Mover::Either,
    },
    HandShape {
        name: "hane-open",
        rows: ["XO.", "...", "?.?"],
        mover: Mover::Either,
    },
    HandShape {
        name: "hane-bend",
        rows: ["XO?", "X..", "?.?"],
        mover: Mover::Either,
    },
    HandShape {
        name: "hane-thin",
        rows: ["XOO", "...", "?.?"],
        mover: Mover::X,
    },
    // Cuts: the move separates two diagonal stones, or joins them.
    HandShape {
        name: "cut-open",
        rows: ["XO?", "O.o", "?o?"],
        mover: Mover::Either,
    },
    HandShape {
        name: "cut-peeped",
        rows: ["XO?", "O.X", "???"],
        mover: Mover::Either,
    },
    HandShape {
        name: "cut-between",
        rows: ["?X?", "O.O", "ooo"],
        mover: Mover::Either,
    },
    // On the first line (the south row is off the board).
    HandShape {
        name: "edge-chase",
        rows: ["X.?", "O.?", "###"],
        mover: Mover::Either,
    },
    HandShape {
        name: "edge-block-cut",
        rows: ["OX?", "X.O", "###"],
        mover: Mover::Either,
    },
    HandShape {
        name: "edge-block-link",
        rows: ["?X?", "x.O", "###"],
        mover: Mover::Either,
    },
    HandShape {
        name: "edge-descend",
        rows: ["?XO", "x.x", "###"],
        mover: Mover::Either,
    },
    HandShape {
        name: "edge-cut",
        rows: ["?OX", "X.O", "###"],
        mover: Mover::Either,
    },
];

/// The 2-bit states (see `pattern::shape`) a shape character allows, as a 4-bit set, when
/// `x_is_own` says whether the `X` stones are the mover's.
fn allowed_states(symbol: char, x_is_own: bool) -> u8 {
    let (x, o) = if x_is_own { (OWN, ENEMY) } else { (ENEMY, OWN) };
    let all = 0b1111u8;
    match symbol {
        'X' => 1 << x,
        'O' => 1 << o,
        '.' => 1 << EMPTY,
        '#' => 1 << OFF,
        'x' => all & !(1 << x),
        'o' => all & !(1 << o),
        '?' => all,
        other => panic!("unknown shape symbol {other:?}"),
    }
}

/// Sets the bit of every 16-bit cell code that satisfies `allowed` (one state set per
/// slot of `SLOTS_3X3`), slot `k` onwards, with `code` holding the slots before it.
fn mark_codes(allowed: &[u8; 8], k: usize, code: u32, table: &mut [u64]) {
    if k == 8 {
        table[(code >> 6) as usize] |= 1 << (code & 63);
        return;
    }
    for state in 0..4u32 {
        if allowed[k] & (1 << state) != 0 {
            mark_codes(allowed, k + 1, code | state << (2 * k), table);
        }
    }
}

/// The bit table of `shapes`: bit `c` is set when the 16-bit cell code `c` (the low 16 bits
/// of `raw_code_3x3`) matches one of them.
pub fn build_table(shapes: &[HandShape]) -> Vec<u64> {
    let mut table = vec![0u64; 1 << 10];
    for shape in shapes {
        let rows: Vec<Vec<char>> = shape.rows.iter().map(|r| r.chars().collect()).collect();
        assert!(
            rows.len() == 3 && rows.iter().all(|r| r.len() == 3) && rows[1][1] == '.',
            "shape {} must be 3x3 around an empty centre",
            shape.name
        );
        let assignments: &[bool] = match shape.mover {
            Mover::Either => &[true, false],
            Mover::X => &[true],
        };
        for &x_is_own in assignments {
            for symmetry in SYMMETRIES {
                let mut allowed = [0u8; 8];
                for (r, row) in rows.iter().enumerate() {
                    for (c, &symbol) in row.iter().enumerate() {
                        if r == 1 && c == 1 {
                            continue;
                        }
                        let offset = symmetry(c as i32 - 1, 1 - r as i32);
                        let slot = SLOTS_3X3
                            .iter()
                            .position(|&s| s == offset)
                            .expect("a symmetry maps the 3x3 square onto itself");
                        allowed[slot] = allowed_states(symbol, x_is_own);
                    }
                }
                mark_codes(&allowed, 0, 0, &mut table);
            }
        }
    }
    table
}

fn table() -> &'static [u64] {
    static TABLE: OnceLock<Vec<u64>> = OnceLock::new();
    TABLE.get_or_init(|| build_table(&HAND_SHAPES))
}

/// Whether `color` playing on the empty point `p` makes one of [`HAND_SHAPES`].
#[inline]
pub fn matches_hand_shape(board: &Board, p: Point, color: Color) -> bool {
    let code = raw_code_3x3(board, p, color) & 0xFFFF;
    table()[(code >> 6) as usize] & (1 << (code & 63)) != 0
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::Cell;
    use crate::playout::{LightPolicy, PlayoutPolicy, playout_rng};

    /// Reads a shape straight off the board, by coordinates, in each of the 8 orientations
    /// (each as a pair of axis flips and an optional transpose): the reference for the table.
    fn naive_match(board: &Board, p: Point, color: Color, shape: &HandShape) -> bool {
        let g = board.geometry();
        let n = g.size() as i32;
        let (pc, pr) = g.coords(p);
        let rows: Vec<Vec<char>> = shape.rows.iter().map(|r| r.chars().collect()).collect();
        let assignments: &[Color] = match shape.mover {
            Mover::Either => &[color, color.opponent()],
            Mover::X => &[color],
        };
        for &x_color in assignments {
            for flip_x in [false, true] {
                for flip_y in [false, true] {
                    for transpose in [false, true] {
                        let fits = (0..3).all(|r| {
                            (0..3).all(|c| {
                                if r == 1 && c == 1 {
                                    return true;
                                }
                                let (mut dx, mut dy) = (c as i32 - 1, 1 - r as i32);
                                if transpose {
                                    std::mem::swap(&mut dx, &mut dy);
                                }
                                if flip_x {
                                    dx = -dx;
                                }
                                if flip_y {
                                    dy = -dy;
                                }
                                let (x, y) = (pc as i32 + dx, pr as i32 + dy);
                                let cell = if x < 0 || y < 0 || x >= n || y >= n {
                                    Cell::Border
                                } else {
                                    board.cell(g.point(x as usize, y as usize).unwrap())
                                };
                                let is_x = cell.is(x_color);
                                let is_o = cell.is(x_color.opponent());
                                match rows[r][c] {
                                    'X' => is_x,
                                    'O' => is_o,
                                    '.' => cell == Cell::Empty,
                                    '#' => cell == Cell::Border,
                                    'x' => !is_x,
                                    'o' => !is_o,
                                    _ => true,
                                }
                            })
                        });
                        if fits {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    #[test]
    fn the_table_agrees_with_a_naive_reading_of_the_board() {
        let mut rng = playout_rng(7, 0);
        let mut checked = 0;
        let mut matched = 0;
        for size in [5usize, 9, 13, 19] {
            for game in 0..12 {
                let mut board = Board::new(size).unwrap();
                let mut color = Color::Black;
                let plies = (game + 1) * size * size / 12;
                for _ in 0..plies {
                    if let Some(p) = LightPolicy.choose(&mut board, color, &mut rng) {
                        board.play_unchecked(p, color);
                    }
                    color = color.opponent();
                }
                for &index in board.empty_points().to_vec().iter() {
                    let p = Point::from_index(index as usize);
                    for mover in [Color::Black, Color::White] {
                        let naive = HAND_SHAPES.iter().any(|s| naive_match(&board, p, mover, s));
                        assert_eq!(
                            matches_hand_shape(&board, p, mover),
                            naive,
                            "{size}x{size}, {mover:?} at {p:?}"
                        );
                        checked += 1;
                        matched += naive as usize;
                    }
                }
            }
        }
        assert!(checked > 5000, "{checked} points checked");
        // Both answers occur, so the comparison is not between two constant functions.
        assert!(
            matched > 100 && matched < checked / 2,
            "{matched} of {checked}"
        );
    }

    /// A hane on 7x7: Black C5 beside White D5.
    pub(in crate::search) fn hane() -> Board {
        Board::from_diagram(
            ".......
             .......
             ..XO...
             .......
             .......
             .......
             .......",
        )
        .unwrap()
    }

    #[test]
    fn a_hane_matches_and_an_empty_board_does_not() {
        let board = hane();
        let g = board.geometry();
        // Under either stone, with the other stone diagonal: "XO." / "..." / "?.?" (or its
        // mirror image), a hane for either colour.
        for point in ["C4", "D4", "C6", "D6"] {
            let p = g.parse_point(point).unwrap();
            assert!(matches_hand_shape(&board, p, Color::White), "{point}");
            assert!(matches_hand_shape(&board, p, Color::Black), "{point}");
        }
        let far = g.parse_point("F2").unwrap();
        assert!(!matches_hand_shape(&board, far, Color::Black));
        let empty = Board::new(9).unwrap();
        for &index in empty.empty_points() {
            let p = Point::from_index(index as usize);
            assert!(!matches_hand_shape(&empty, p, Color::Black));
        }
    }

    #[test]
    fn a_shape_for_one_mover_only_matches_for_that_mover() {
        // "XOO" over "..." over "?.?": the thin hane, for the owner of X only. Under the
        // left white stone, with Black's stone to the north-west.
        let board = Board::from_diagram(
            ".......
             .......
             ..XOO..
             .......
             .......
             .......
             .......",
        )
        .unwrap();
        let p = board.geometry().parse_point("D4").unwrap();
        let thin = [HAND_SHAPES[3]];
        let table = build_table(&thin);
        let lookup = |color| {
            let code = raw_code_3x3(&board, p, color) & 0xFFFF;
            table[(code >> 6) as usize] & (1 << (code & 63)) != 0
        };
        assert!(lookup(Color::Black));
        assert!(!lookup(Color::White));
        assert!(naive_match(&board, p, Color::Black, &thin[0]));
        assert!(!naive_match(&board, p, Color::White, &thin[0]));
    }
}
