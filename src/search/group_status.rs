//! Group life kept across moves: the owl reader's verdicts on a group (can it be killed,
//! can it live), each stored with the *area* the read depended on, and reused on a later
//! board as long as nothing in that area changed. A move far from a group leaves its
//! verdict standing, so a search can afford the owl on every move of a 19x19 game, where
//! reading every big group afresh cost a third of the playouts.
//!
//! The area of a read is the group's stones and the points the owl's reads and their
//! inner tactical reads played on (`OwlReader::touched`), each widened to the points
//! within [`AREA_MARGIN`] (Manhattan distance) of it: the liberties, eye spaces and free
//! space the group analysis looked at and the chains a capture there would touch. A board
//! matches the area when its stones there are the same ([`area_signature`]: the Zobrist
//! keys of the area's stones, and the ko point when it lies in the area). This is the
//! reader's own dependence as far as it shows in its moves; a ladder run past the margin,
//! or a change beyond it that would have altered the analysis, is missed (the tests
//! measure how often a stored verdict differs from a fresh read on random games).

use crate::board::{Board, Point, PointBits, stone_key};
use crate::tactics::owl::OwlReader;
use crate::tactics::reader::Reading;

/// Points within this Manhattan distance of a group stone or of a point a read played on
/// belong to the read's area.
pub const AREA_MARGIN: usize = 3;

/// The most verdicts kept; beyond it the oldest is dropped.
pub const CAPACITY: usize = 64;

/// What the owl reader says about one group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupStatus {
    /// `attack`: can the group be killed with its opponent to move, and the move.
    pub attack: Reading,
    /// `defend`, read only when the attack succeeds (otherwise the group needs no move).
    pub defence: Option<Reading>,
}

/// One stored verdict.
#[derive(Clone, Debug)]
struct Entry {
    /// The group's stones when it was read.
    stones: PointBits,
    /// The points the read depended on, and the signature of their stones then.
    area: PointBits,
    signature: u64,
    status: GroupStatus,
}

/// The owl verdicts of the groups of recent positions (see the module documentation), of
/// one board size. Allocated once with room for [`CAPACITY`] verdicts.
#[derive(Debug)]
pub struct GroupStatusCache {
    entries: Vec<Entry>,
    /// The board size of the stored verdicts (cell indices mean other points on another).
    size: usize,
}

impl Default for GroupStatusCache {
    fn default() -> GroupStatusCache {
        GroupStatusCache::new()
    }
}

impl GroupStatusCache {
    /// An empty cache.
    pub fn new() -> GroupStatusCache {
        GroupStatusCache {
            entries: Vec::with_capacity(CAPACITY),
            size: 0,
        }
    }

    /// The number of stored verdicts.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no verdict is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Drops the verdicts whose area changed on `board` (they cannot match it again
    /// unless the same stones come back), and every verdict of another board size.
    pub fn keep_valid(&mut self, board: &Board) {
        if self.set_size(board.size()) {
            self.entries
                .retain(|e| area_signature(board, &e.area) == e.signature);
        }
    }

    /// Makes `size` the cache's board size, dropping every verdict of another size;
    /// whether the size was already `size`.
    fn set_size(&mut self, size: usize) -> bool {
        if size == self.size {
            return true;
        }
        self.entries.clear();
        self.size = size;
        false
    }

    /// The stored verdict of the group through the stone at `target` on `board`, when a
    /// read of that group had its area unchanged on `board`.
    pub fn lookup(&self, board: &Board, target: Point) -> Option<GroupStatus> {
        if board.size() != self.size {
            return None;
        }
        self.entries
            .iter()
            .find(|e| e.stones.contains(target) && area_signature(board, &e.area) == e.signature)
            .map(|e| e.status)
    }

    /// Reads the group through the stone at `target` with `reader` (the attack, then the
    /// defence when the attack succeeds) and stores the verdict with its area; `chains`
    /// are one stone of each of the group's chains (`OwlReader::group`).
    pub fn read(
        &mut self,
        reader: &mut OwlReader,
        board: &Board,
        target: Point,
        chains: &[u16],
    ) -> GroupStatus {
        reader.clear_touched();
        let attack = reader.attack(board, target);
        let defence = attack
            .verdict
            .succeeds()
            .then(|| reader.defend(board, target));
        let status = GroupStatus { attack, defence };
        let mut stones = PointBits::EMPTY;
        for &c in chains {
            for s in board.chain_stones(Point::from_index(usize::from(c))) {
                stones.insert(s);
            }
        }
        let mut seeds = reader.touched();
        seeds.union_with(&stones);
        let area = widen(board, &seeds);
        self.set_size(board.size());
        if self.entries.len() == CAPACITY {
            self.entries.remove(0);
        }
        self.entries.push(Entry {
            stones,
            area,
            signature: area_signature(board, &area),
            status,
        });
        status
    }
}

/// The points within [`AREA_MARGIN`] of a point of `seeds`.
fn widen(board: &Board, seeds: &PointBits) -> PointBits {
    let geometry = board.geometry();
    let mut area = PointBits::EMPTY;
    for p in seeds.iter() {
        for q in geometry.within(p, AREA_MARGIN) {
            area.insert(q);
        }
    }
    area
}

/// A key of the stones of `board` on the points of `area`, and of its ko point when the
/// ko point lies in `area`.
pub fn area_signature(board: &Board, area: &PointBits) -> u64 {
    let mut key = 0u64;
    for p in area.iter() {
        if let Some(color) = board.cell(p).color() {
            key ^= stone_key(color, p.index());
        }
    }
    if let Some((ko, color)) = board.ko()
        && area.contains(ko)
    {
        key ^= stone_key(color, ko.index()).rotate_left(17) ^ 0x5bd1_e995_7f4a_7c15;
    }
    key
}

#[cfg(test)]
mod tests;
