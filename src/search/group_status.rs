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

use crate::board::{Board, Color, Move, Point, PointBits, stone_key};
use crate::tactics::owl::OwlReader;
use crate::tactics::reader::{Reading, Verdict};

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

impl GroupStatus {
    /// The group's life as the verdict says it, when no ko decides it and no cut-off
    /// decided the attack (`None` otherwise). A defence that works counts even when a
    /// cut-off decided it (the group is then critical, as it is when the defence is
    /// sure); a failed defence counts only when it was read out (dead).
    pub fn life(&self) -> Option<Life> {
        if !self.attack.exact {
            return None;
        }
        match self.attack.verdict {
            Verdict::Fails => Some(Life::Alive),
            Verdict::Works => match self.defence? {
                Reading {
                    verdict: Verdict::Fails,
                    exact: true,
                    ..
                } => Some(Life::Dead),
                Reading {
                    verdict: Verdict::Works,
                    ..
                } => Some(Life::Critical),
                _ => None,
            },
            Verdict::Ko | Verdict::KoNeedsThreat => None,
        }
    }
}

/// A group's life, apart from ko.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Life {
    /// No kill works, even with the opponent moving first.
    Alive,
    /// No move saves it, even with its owner moving first.
    Dead,
    /// The side to move decides: the kill works, and so does the defence.
    Critical,
}

/// The life of one group of a search's root and what it depends on, for the playouts'
/// final scores (`owl-score`).
#[derive(Clone, Copy, Debug)]
pub struct GroupLife {
    pub owner: Color,
    pub life: Life,
    /// The killing and the saving move the reads found (a critical group's first move in
    /// its area at one of them decides it).
    pub attack: Option<Point>,
    pub defence: Option<Point>,
    /// The group's stones at the root.
    pub stones: PointBits,
    /// The points the verdict depended on.
    pub area: PointBits,
}

impl GroupLife {
    /// Whether the group is dead after the tree's `moves` from the root with `to_move`
    /// to move next. While no move fell in the area, as the verdict says, a critical
    /// group going to the side to move; a critical group whose first move in the area
    /// was the reads' killing move (by the opponent) or saving move (by the owner) as
    /// that move decides; `None` when another move fell in the area (the verdict no
    /// longer says anything).
    pub fn dead_after(&self, moves: &[(Color, Move)], to_move: Color) -> Option<bool> {
        let first_in_area = moves.iter().find_map(|&(color, mv)| match mv {
            Move::Play(p) if self.area.contains(p) => Some((color, p)),
            _ => None,
        });
        match (self.life, first_in_area) {
            (Life::Alive, None) => Some(false),
            (Life::Dead, None) => Some(true),
            (Life::Critical, None) => Some(to_move != self.owner),
            (Life::Critical, Some((color, p))) => {
                if color == self.owner {
                    (self.defence == Some(p)).then_some(false)
                } else {
                    (self.attack == Some(p)).then_some(true)
                }
            }
            (Life::Alive | Life::Dead, Some(_)) => None,
        }
    }

    /// What to add to the area score (black's minus white's) of the final position on
    /// `board` so that the group's stones count as the verdict (`dead`) says: a stone
    /// of a dead group still standing goes to the opponent (2 points), a point of a
    /// living group no longer the owner's goes back to it (2 points: in a finished
    /// playout such a point is the opponent's stone or eye).
    pub fn score_correction(&self, board: &Board, dead: bool) -> i32 {
        let mut owners_points = 0;
        for p in self.stones.iter() {
            let held = board.cell(p).color() == Some(self.owner);
            if dead && held {
                owners_points -= 2;
            } else if !dead && !held {
                owners_points += 2;
            }
        }
        match self.owner {
            Color::Black => owners_points,
            Color::White => -owners_points,
        }
    }
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
        self.find(board, target).map(|e| e.status)
    }

    /// The stored entry of the group through `target` whose area is unchanged on `board`.
    fn find(&self, board: &Board, target: Point) -> Option<&Entry> {
        if board.size() != self.size {
            return None;
        }
        self.entries
            .iter()
            .find(|e| e.stones.contains(target) && area_signature(board, &e.area) == e.signature)
    }

    /// The life of the group through the stone at `target` on `board` from its stored
    /// verdict (as [`GroupStatusCache::lookup`] finds it), when the verdict tells it.
    pub fn life(&self, board: &Board, target: Point) -> Option<GroupLife> {
        let entry = self.find(board, target)?;
        Some(GroupLife {
            owner: board.cell(target).color()?,
            life: entry.status.life()?,
            attack: entry.status.attack.point,
            defence: entry.status.defence.and_then(|d| d.point),
            stones: entry.stones,
            area: entry.area,
        })
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
        let stones = group_stone_bits(board, chains);
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

/// The stones of the chains through `chains` (one stone of each).
pub fn group_stone_bits(board: &Board, chains: &[u16]) -> PointBits {
    let mut stones = PointBits::EMPTY;
    for &c in chains {
        for s in board.chain_stones(Point::from_index(usize::from(c))) {
            stones.insert(s);
        }
    }
    stones
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
