//! A small ladder reader for the pattern features: does a chain in atari die in a ladder
//! (the attacker keeps it in atari, move after move, until it is captured)?
//!
//! The reader plays the ladder out on two scratch copies of the board (fixed arrays on the
//! stack: no allocation). The defender always extends on its last liberty, or escapes when it
//! can capture an attacking stone next to its chain. With two liberties left, the attacker
//! tries both ataris and keeps the one after which the defender's extension has the fewest
//! liberties (a one-move look-ahead, exact for ordinary ladders); three or more liberties
//! after an extension is an escape. Ladders longer than [`MAX_STEPS`] moves count as escapes.

use crate::board::{Board, Cell, Color, Point};

use super::features::{liberties_after, liberties_capped};

/// Most defender moves read.
pub const MAX_STEPS: usize = 100;

/// The two liberties of the chain through `stone`, if it has exactly two.
fn two_liberties(board: &Board, stone: Point) -> Option<(Point, Point)> {
    let mut found = [0u16; 3];
    let mut n_found = 0;
    for s in board.chain_stones(stone) {
        for n in board.geometry().neighbors(s) {
            if board.cell_at(n) == Cell::Empty && !found[..n_found].contains(&(n as u16)) {
                if n_found == 2 {
                    return None;
                }
                found[n_found] = n as u16;
                n_found += 1;
            }
        }
    }
    (n_found == 2).then(|| {
        (
            Point::from_index(found[0] as usize),
            Point::from_index(found[1] as usize),
        )
    })
}

/// Whether the chain through `stone` touches a chain of `attacker` in atari (that it could
/// capture to get out).
fn can_counter_capture(board: &Board, stone: Point, attacker: Color) -> bool {
    board.chain_stones(stone).any(|s| {
        board
            .geometry()
            .neighbors(s)
            .iter()
            .any(|&n| board.cell_at(n).is(attacker) && board.in_atari(Point::from_index(n)))
    })
}

/// The attacker's turn: the chain through `stone` has two liberties. Plays the better
/// atari on `board` (using `trial` as scratch) and returns true, or returns false when no
/// atari keeps the ladder going.
fn attacker_turn(board: &mut Board, trial: &mut Board, stone: Point, attacker: Color) -> bool {
    let defender = attacker.opponent();
    let Some((x, y)) = two_liberties(board, stone) else {
        return false;
    };
    let mut best: Option<(usize, Point)> = None;
    for (m, other) in [(x, y), (y, x)] {
        if !board.is_legal(m, attacker) {
            continue;
        }
        trial.copy_from(board);
        trial.play_unchecked(m, attacker);
        if trial.cell(stone) == Cell::Empty || !trial.in_atari(stone) {
            continue;
        }
        // Liberties of the defender after it extends on `other` (3 or more: an escape).
        let score = if can_counter_capture(trial, stone, attacker) {
            3
        } else {
            liberties_after(trial, other, defender).liberties
        };
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, m));
        }
    }
    match best {
        Some((score, m)) if score < 3 => {
            board.play_unchecked(m, attacker);
            true
        }
        _ => false,
    }
}

/// The defender's turn and the rest of the ladder: the chain through `stone` is in atari.
fn read(board: &mut Board, trial: &mut Board, stone: Point, attacker: Color) -> bool {
    let defender = attacker.opponent();
    for _ in 0..MAX_STEPS {
        if can_counter_capture(board, stone, attacker) {
            return false;
        }
        let Some(lib) = board.atari_liberty(stone) else {
            return false;
        };
        if !board.is_legal(lib, defender) {
            return true;
        }
        board.play_unchecked(lib, defender);
        match liberties_capped(board, stone, 3) {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        if !attacker_turn(board, trial, stone, attacker) {
            return false;
        }
    }
    false
}

/// Whether the chain through `stone`, in atari with its owner to move, dies in a ladder.
pub fn captured_in_ladder(board: &Board, stone: Point) -> bool {
    let Some(defender) = board.cell(stone).color() else {
        return false;
    };
    if !board.in_atari(stone) {
        return false;
    }
    let mut cur = board.clone();
    let mut trial = board.clone();
    read(&mut cur, &mut trial, stone, defender.opponent())
}

/// Whether `attacker` playing on the empty point `p` puts the chain through `target` in
/// atari and then captures it in a ladder.
pub fn atari_starts_ladder(board: &Board, p: Point, attacker: Color, target: Point) -> bool {
    if !board.cell(target).is(attacker.opponent()) || !board.is_legal(p, attacker) {
        return false;
    }
    let mut cur = board.clone();
    cur.play_unchecked(p, attacker);
    if cur.cell(target) == Cell::Empty || !cur.in_atari(target) {
        return false;
    }
    let mut trial = board.clone();
    read(&mut cur, &mut trial, target, attacker)
}

/// Whether `color` extending on the empty point `p` leaves its chain with exactly two
/// liberties and the opponent then captures it in a ladder.
pub fn extension_caught_in_ladder(board: &Board, p: Point, color: Color) -> bool {
    if !board.is_legal(p, color) {
        return false;
    }
    let mut cur = board.clone();
    cur.play_unchecked(p, color);
    if liberties_capped(&cur, p, 3) != 2 {
        return false;
    }
    let mut trial = board.clone();
    let attacker = color.opponent();
    attacker_turn(&mut cur, &mut trial, p, attacker) && read(&mut cur, &mut trial, p, attacker)
}
