//! A small ladder reader for the pattern features, the playout policy and the priors: does
//! a chain in atari die in a ladder (the attacker keeps it in atari, move after move, until
//! it is captured)?
//!
//! The reader plays the ladder out on two scratch copies of the board ([`LadderScratch`]: no
//! allocation per read). The defender always extends on its last liberty, or escapes when it
//! can capture an attacking stone next to its chain. With two liberties left, the attacker
//! tries both ataris and keeps the one after which the defender's extension has the fewest
//! liberties (a one-move look-ahead, exact for ordinary ladders); three or more liberties
//! after an extension is an escape. Ladders longer than [`MAX_STEPS`] moves count as escapes.

use crate::board::{Board, Cell, Color, OtherLiberties, Point};

use super::liberties::{SmallSet, liberties_after, liberties_capped, touches_chain_in_atari};

/// Most defender moves read.
pub const MAX_STEPS: usize = 100;

/// The two liberties of the chain through `stone`, if it has exactly two, in the order a
/// walk of the chain from `stone` meets them: one next to the first stone with an empty
/// neighbour, the other from the chain's pseudo-liberty sums ([`Board::liberties_besides`]),
/// so the chain is walked only up to that stone.
pub(crate) fn two_liberties(board: &Board, stone: Point) -> Option<(Point, Point)> {
    // A stone with three empty neighbours gives its chain three liberties.
    if board.neighbor_count(stone, Cell::Empty) >= 3 {
        return None;
    }
    let with_liberty = board
        .chain_stones(stone)
        .find(|&s| board.neighbor_count(s, Cell::Empty) > 0)?;
    match board.adjacent_liberty_and_rest(with_liberty)? {
        (x, OtherLiberties::One(y)) => Some((x, y)),
        _ => None,
    }
}

/// Whether a defender extending on `other` after the attacker has filled `filled` surely
/// gets three or more liberties (an escape): `other` alone has three empty neighbours
/// besides `filled`. A cheap test that spares copying the board for most non-ladders.
#[inline]
fn extension_surely_escapes(board: &Board, other: Point, filled: Point) -> bool {
    board
        .geometry()
        .neighbors(other)
        .into_iter()
        .filter(|&n| n != filled.index() && board.cell_at(n) == Cell::Empty)
        .count()
        >= 3
}

/// How the defender fares when it extends after an atari ([`atari_outcome_in_place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extension {
    /// 3 when the defender escapes at once (it can capture an attacking chain in atari
    /// next to it), else the liberties it has after extending (capped at 3, as
    /// [`liberties_after`] counts them: a capture counts one).
    score: usize,
    /// Whether the extension captures attacking stones (told when `score` is below 3).
    captures: bool,
}

/// How the defender fares after `attacker` plays the legal atari `m` on the chain through
/// `stone`, whose two liberties are `m` and `other` (see [`Extension`]). Read without
/// playing: `None` when the atari captures stones, which this reader leaves to a scratch
/// board.
///
/// Without captures, the position after the atari differs from `board` only in the
/// attacker's stone on `m`, which joins the attacking chains next to it (`joined`); those
/// chains are in atari after it exactly when the stone's own chain is.
fn atari_outcome_in_place(
    board: &Board,
    stone: Point,
    m: Point,
    other: Point,
    attacker: Color,
) -> Option<Extension> {
    let escape = Some(Extension {
        score: 3,
        captures: false,
    });
    let defender = attacker.opponent();
    let geometry = board.geometry();
    let mut joined = SmallSet::<4>::new();
    for n in geometry.neighbors(m) {
        let cell = board.cell_at(n);
        let np = Point::from_index(n);
        if cell.is(defender) && board.in_atari(np) {
            return None;
        }
        if cell.is(attacker) {
            joined.insert(board.chain_id(np) as u16);
        }
    }
    let stays_in_atari =
        |np: Point| !joined.contains(board.chain_id(np) as u16) && board.in_atari(np);
    // The defender's extension on `other`, counted as `liberties_after` counts it on the
    // board after the atari (where `m` is no longer empty).
    // The defender's own chain adds nothing: its liberties are `m` and `other`.
    let mut libs = SmallSet::<3>::new();
    let mut captures = false;
    let mut chains = SmallSet::<4>::new();
    chains.insert(board.chain_id(stone) as u16);
    for n in geometry.neighbors(other) {
        if libs.len == 3 {
            break;
        }
        let cell = board.cell_at(n);
        let np = Point::from_index(n);
        if n == m.index() || cell == Cell::Border {
            continue;
        }
        if cell == Cell::Empty {
            libs.insert(n as u16);
        } else if cell.is(defender) {
            let id = board.chain_id(np) as u16;
            if chains.contains(id) {
                continue;
            }
            chains.insert(id);
            'walk: for s in board.chain_stones(np) {
                for q in geometry.neighbors(s) {
                    if q != other.index()
                        && q != m.index()
                        && board.cell_at(q) == Cell::Empty
                        && libs.insert(q as u16)
                    {
                        break 'walk;
                    }
                }
            }
        } else if stays_in_atari(np) {
            captures = true;
            libs.insert(n as u16);
        }
    }
    // Escaping either way is worth 3: the walks below only matter for a held extension.
    if libs.len >= 3 {
        return escape;
    }
    // The atari stone's chain touches the defender (`m` was its liberty): in atari, the
    // defender captures it.
    if liberties_after(board, m, attacker).liberties <= 1 {
        return escape;
    }
    let counter = board.chain_stones(stone).any(|s| {
        geometry
            .neighbors(s)
            .into_iter()
            .any(|n| board.cell_at(n).is(attacker) && stays_in_atari(Point::from_index(n)))
    });
    if counter {
        return escape;
    }
    Some(Extension {
        score: libs.len,
        captures,
    })
}

/// [`atari_outcome_in_place`], on the scratch board `trial` when the atari captures.
fn atari_outcome(
    board: &Board,
    trial: &mut Board,
    stone: Point,
    m: Point,
    other: Point,
    attacker: Color,
) -> Option<usize> {
    if let Some(extension) = atari_outcome_in_place(board, stone, m, other, attacker) {
        return Some(extension.score);
    }
    trial.copy_from(board);
    trial.play_unchecked(m, attacker);
    if trial.cell(stone) == Cell::Empty || !trial.in_atari(stone) {
        return None;
    }
    Some(if touches_chain_in_atari(trial, stone, attacker) {
        3
    } else {
        liberties_after(trial, other, attacker.opponent()).liberties
    })
}

/// The attacker's turn: the chain through `stone` has two liberties. Plays the better
/// atari on `board` (using `trial` as scratch) and returns true, or returns false when no
/// atari keeps the ladder going.
fn attacker_turn(board: &mut Board, trial: &mut Board, stone: Point, attacker: Color) -> bool {
    let Some((x, y)) = two_liberties(board, stone) else {
        return false;
    };
    let mut best: Option<(usize, Point)> = None;
    for (m, other) in [(x, y), (y, x)] {
        if extension_surely_escapes(board, other, m) || !board.is_legal(m, attacker) {
            continue;
        }
        // Liberties of the defender after it extends on `other` (3 or more: an escape).
        let Some(score) = atari_outcome(board, trial, stone, m, other, attacker) else {
            continue;
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
        if touches_chain_in_atari(board, stone, attacker) {
            // The chain captures its way out.
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

/// Two scratch boards for ladder reading. Reading with one of these copies only the used part
/// of the board and allocates nothing. The playout policy keeps one; the plain functions
/// below (feature extraction, priors) use one per thread.
#[derive(Clone)]
pub struct LadderScratch {
    cur: Box<Board>,
    trial: Box<Board>,
}

impl LadderScratch {
    /// Scratch boards for positions of any size (allocates once).
    pub fn new() -> LadderScratch {
        let blank = Board::new(2).expect("2x2 is a valid size");
        LadderScratch {
            cur: Box::new(blank.clone()),
            trial: Box::new(blank),
        }
    }

    /// Whether the chain through `stone`, in atari with its owner to move, dies in a ladder.
    pub fn captured_in_ladder(&mut self, board: &Board, stone: Point) -> bool {
        let Some(defender) = board.cell(stone).color() else {
            return false;
        };
        if !board.in_atari(stone) {
            return false;
        }
        self.cur.copy_from(board);
        read(&mut self.cur, &mut self.trial, stone, defender.opponent())
    }

    /// Whether `attacker` playing on the empty point `p` puts the chain through `target` in
    /// atari and then captures it in a ladder.
    pub fn atari_starts_ladder(
        &mut self,
        board: &Board,
        p: Point,
        attacker: Color,
        target: Point,
    ) -> bool {
        if !board.cell(target).is(attacker.opponent()) {
            return false;
        }
        // The atari must take one of exactly two liberties.
        match two_liberties(board, target) {
            Some((x, y)) if x == p || y == p => {
                let other = if x == p { y } else { x };
                self.atari_on_two_liberties(board, p, other, attacker, target)
            }
            _ => false,
        }
    }

    /// [`LadderScratch::atari_starts_ladder`] for a caller that already knows the chain
    /// through `target` (a stone of `attacker`'s opponent) has exactly the two liberties
    /// `p` and `other`: the atari on `p` leaves it `other`.
    pub fn atari_on_two_liberties(
        &mut self,
        board: &Board,
        p: Point,
        other: Point,
        attacker: Color,
        target: Point,
    ) -> bool {
        // The other liberty must not be an obvious escape.
        if extension_surely_escapes(board, other, p) || !board.is_legal(p, attacker) {
            return false;
        }
        // The defender's first extension, read without copying the board: most ataris
        // end here, as an escape, or as a capture when the extension leaves one liberty
        // or none and captures nothing (an extension without liberties is suicide).
        match atari_outcome_in_place(board, target, p, other, attacker) {
            Some(e) if e.score >= 3 => return false,
            Some(e) if e.score <= 1 && !e.captures => return true,
            _ => {}
        }
        self.cur.copy_from(board);
        self.cur.play_unchecked(p, attacker);
        if self.cur.cell(target) == Cell::Empty || !self.cur.in_atari(target) {
            return false;
        }
        read(&mut self.cur, &mut self.trial, target, attacker)
    }

    /// Whether `color` extending on the empty point `p` leaves its chain with exactly two
    /// liberties and the opponent then captures it in a ladder.
    pub fn extension_caught_in_ladder(&mut self, board: &Board, p: Point, color: Color) -> bool {
        if !board.is_legal(p, color) {
            return false;
        }
        self.cur.copy_from(board);
        self.cur.play_unchecked(p, color);
        if liberties_capped(&self.cur, p, 3) != 2 {
            return false;
        }
        let attacker = color.opponent();
        attacker_turn(&mut self.cur, &mut self.trial, p, attacker)
            && read(&mut self.cur, &mut self.trial, p, attacker)
    }
}

impl std::fmt::Debug for LadderScratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LadderScratch")
    }
}

impl Default for LadderScratch {
    fn default() -> LadderScratch {
        LadderScratch::new()
    }
}

thread_local! {
    /// Scratch boards of the plain functions below, one pair per thread.
    static SCRATCH: std::cell::RefCell<LadderScratch> = std::cell::RefCell::new(LadderScratch::new());
}

/// Runs `read` with this thread's scratch boards (a fresh pair if they are in use, which
/// only a re-entrant call could cause).
fn with_scratch<T>(read: impl FnOnce(&mut LadderScratch) -> T) -> T {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => read(&mut scratch),
        Err(_) => read(&mut LadderScratch::new()),
    })
}

/// Whether the chain through `stone`, in atari with its owner to move, dies in a ladder.
pub fn captured_in_ladder(board: &Board, stone: Point) -> bool {
    with_scratch(|s| s.captured_in_ladder(board, stone))
}

/// Whether `attacker` playing on the empty point `p` puts the chain through `target` in
/// atari and then captures it in a ladder.
pub fn atari_starts_ladder(board: &Board, p: Point, attacker: Color, target: Point) -> bool {
    with_scratch(|s| s.atari_starts_ladder(board, p, attacker, target))
}

/// Whether `color` extending on the empty point `p` leaves its chain with exactly two
/// liberties and the opponent then captures it in a ladder.
pub fn extension_caught_in_ladder(board: &Board, p: Point, color: Color) -> bool {
    with_scratch(|s| s.extension_caught_in_ladder(board, p, color))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::{playout_rng, random_acceptable_move};

    /// The reference for [`two_liberties`]: the whole chain walked, liberties in the order met.
    fn two_liberties_by_walking(board: &Board, stone: Point) -> Option<(Point, Point)> {
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

    /// [`two_liberties`] gives what a walk of the whole chain gives, in the same order, for
    /// every stone of many random positions; both answers occur often.
    #[test]
    fn two_liberties_match_a_chain_walk() {
        let mut rng = playout_rng(13, 0);
        let (mut two, mut other) = (0, 0);
        for size in [5, 9, 13, 19] {
            for _ in 0..(120 / size) {
                let mut board = Board::new(size).unwrap();
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    match random_acceptable_move(&mut board, color, &mut rng, |_, _| true) {
                        Some(p) => {
                            board.play_unchecked(p, color);
                        }
                        None => board.pass(),
                    }
                    color = color.opponent();
                    for p in board.geometry().points() {
                        if board.cell(p).color().is_none() {
                            continue;
                        }
                        let walked = two_liberties_by_walking(&board, p);
                        assert_eq!(
                            two_liberties(&board, p),
                            walked,
                            "{p:?} on\n{}",
                            board.to_diagram()
                        );
                        if walked.is_some() {
                            two += 1;
                        } else {
                            other += 1;
                        }
                    }
                }
            }
        }
        assert!(two > 10_000 && other > 10_000, "{two} {other}");
    }

    /// The reference: the atari played on a copy of the board, read as the reader did before
    /// it learnt to read in place.
    fn atari_outcome_on_a_copy(
        board: &Board,
        stone: Point,
        m: Point,
        other: Point,
        attacker: Color,
    ) -> Option<Extension> {
        let mut trial = board.clone();
        trial.play_unchecked(m, attacker);
        if trial.cell(stone) == Cell::Empty || !trial.in_atari(stone) {
            return None;
        }
        Some(if touches_chain_in_atari(&trial, stone, attacker) {
            Extension {
                score: 3,
                captures: false,
            }
        } else {
            let after = liberties_after(&trial, other, attacker.opponent());
            Extension {
                score: after.liberties,
                captures: after.captures && after.liberties < 3,
            }
        })
    }

    /// Calls `visit(board, target, attacker, m, other)` for both ataris `m` (leaving
    /// `other`) of every chain `target` with two liberties, in every position of `games`
    /// random games (sizes 5 to 19 in turn, generators seeded from `seed`).
    fn for_each_two_liberty_atari(
        games: usize,
        seed: u64,
        mut visit: impl FnMut(&Board, Point, Color, Point, Point),
    ) {
        for (game, size) in [5, 7, 9, 9, 13, 19]
            .into_iter()
            .cycle()
            .take(games)
            .enumerate()
        {
            let mut board = Board::new(size).unwrap();
            let mut rng = playout_rng(seed, game as u64);
            let mut color = Color::Black;
            for _ in 0..size * size * 3 {
                for target in board.geometry().points() {
                    let Some(defender) = board.cell(target).color() else {
                        continue;
                    };
                    if let Some((x, y)) = two_liberties(&board, target) {
                        for (m, other) in [(x, y), (y, x)] {
                            visit(&board, target, defender.opponent(), m, other);
                        }
                    }
                }
                match random_acceptable_move(&mut board, color, &mut rng, |_, _| true) {
                    Some(p) => {
                        board.play_unchecked(p, color);
                    }
                    None => board.pass(),
                }
                color = color.opponent();
            }
        }
    }

    /// On every chain with two liberties in positions of random games (sizes 5 to 19), each
    /// legal atari read in place gives what playing it on a copy gives; the ataris that
    /// capture (left to the copy) are the only ones not read in place.
    #[test]
    fn atari_read_in_place_equals_the_atari_played_on_a_copy() {
        let (mut compared, mut capturing, mut escapes, mut held) = (0, 0, 0, 0);
        for_each_two_liberty_atari(60, 17, |board, p, attacker, m, other| {
            if !board.is_legal(m, attacker) {
                return;
            }
            let expected = atari_outcome_on_a_copy(board, p, m, other, attacker);
            match atari_outcome_in_place(board, p, m, other, attacker) {
                Some(mut extension) => {
                    // Captures are told only for held extensions.
                    extension.captures &= extension.score < 3;
                    assert_eq!(Some(extension), expected, "{board:?} {p:?} {m:?}");
                    compared += 1;
                    if extension.score >= 3 {
                        escapes += 1;
                    } else {
                        held += 1;
                    }
                }
                None => capturing += 1,
            }
        });
        assert!(
            compared > 10_000 && capturing > 100,
            "{compared} {capturing}"
        );
        assert!(escapes > 1_000 && held > 1_000, "{escapes} {held}");
    }

    /// `atari_starts_ladder` the plain way: the atari played on a copy, then the ladder read
    /// from the defender's turn, with no shortcut.
    fn atari_starts_ladder_by_reading(
        board: &Board,
        p: Point,
        attacker: Color,
        target: Point,
    ) -> bool {
        if !board.cell(target).is(attacker.opponent()) || !board.is_legal(p, attacker) {
            return false;
        }
        match two_liberties(board, target) {
            Some((x, y)) if x == p || y == p => {}
            _ => return false,
        }
        let mut cur = board.clone();
        cur.play_unchecked(p, attacker);
        if cur.cell(target) == Cell::Empty || !cur.in_atari(target) {
            return false;
        }
        let mut trial = board.clone();
        read(&mut cur, &mut trial, target, attacker)
    }

    /// For every chain with two liberties in positions of random games (sizes 5 to 19), the
    /// ladder reader's verdict on each atari (which decides many ladders before copying the
    /// board) equals the plain read; both verdicts occur often, and so do extensions that
    /// capture (which the reader does not decide in place).
    #[test]
    fn atari_starts_ladder_equals_the_plain_read() {
        let mut scratch = LadderScratch::new();
        let (mut ladders, mut escapes, mut capturing) = (0, 0, 0);
        for_each_two_liberty_atari(30, 29, |board, target, attacker, m, other| {
            let expected = atari_starts_ladder_by_reading(board, m, attacker, target);
            if board.is_legal(m, attacker)
                && let Some(e) = atari_outcome_in_place(board, target, m, other, attacker)
                && e.score <= 1
                && e.captures
            {
                // Left to the read (the capture may free more liberties).
                capturing += 1;
            }
            assert_eq!(
                scratch.atari_starts_ladder(board, m, attacker, target),
                expected,
                "atari {m:?} on {target:?}:\n{}",
                board.to_diagram()
            );
            if expected {
                ladders += 1;
            } else {
                escapes += 1;
            }
        });
        assert!(
            ladders > 1_000 && escapes > 1_000 && capturing > 100,
            "{ladders} {escapes} {capturing}"
        );
    }
}
