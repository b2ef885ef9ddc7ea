//! Last good reply with forgetting (the LGRF-2 idea of Drake, "The last-good-reply policy
//! for Monte-Carlo Go", 2009, and Baier and Drake, "The power of forgetting", 2010): a
//! search worker remembers, for each colour, which move answered the previous move (and
//! the previous two moves) in a playout that colour won, and forgets a reply as soon as it
//! appears in a playout that colour lost. The pattern policy tries the remembered replies
//! before its shapes, so the playouts pick up the local fights the tree has been reading.
//!
//! One memory per worker thread (nothing is shared, nothing locked); its tables are sized
//! once for the board and a playout allocates nothing.

use crate::board::{Color, Move};

/// Replies learnt by one worker, and the move sequence of the playout under way.
#[derive(Clone, Debug)]
pub struct ReplyMemory {
    /// Cells of the board the tables are laid out for.
    cells: usize,
    /// `one[color * cells + last]`: reply of `color` to the move `last` (0: none).
    one: Vec<u16>,
    /// `two[(color * cells + second_last) * cells + last]`: reply of `color` to the two
    /// moves `second_last`, `last` (0: none).
    two: Vec<u16>,
    /// The moves of the current descent and playout as point indices (0: a pass), with
    /// the two moves before the root first; colours alternate from `first`.
    sequence: Vec<u16>,
    /// Colour of `sequence[0]`.
    first: Color,
}

impl ReplyMemory {
    /// An empty memory for boards of `cells` padded cells (allocates the tables).
    pub fn new(cells: usize) -> ReplyMemory {
        ReplyMemory {
            cells,
            one: vec![0; 2 * cells],
            two: vec![0; 2 * cells * cells],
            sequence: Vec::with_capacity(4 * cells + 64),
            first: Color::Black,
        }
    }

    /// Starts a sequence: `second_last` and `last` are the two moves before it (point
    /// indices, 0 for a pass or none), `second_last` played by `to_move`.
    pub fn begin(&mut self, second_last: u16, last: u16, to_move: Color) {
        self.sequence.clear();
        self.sequence.push(second_last);
        self.sequence.push(last);
        self.first = to_move;
    }

    /// Appends a tree move to the sequence.
    #[inline]
    pub fn push_move(&mut self, mv: Move) {
        self.push(mv.point().map_or(0, |p| p.index() as u16));
    }

    /// Appends a move (point index, 0 for a pass); a sequence longer than the buffer stops
    /// growing (without allocating) and learns from its first part only.
    #[inline]
    pub fn push(&mut self, point: u16) {
        if self.sequence.len() < self.sequence.capacity() {
            self.sequence.push(point);
        }
    }

    /// The remembered replies of `color` to `second_last` then `last` (point indices, 0
    /// for a pass): the two-move reply and the one-move reply, 0 where there is none.
    #[inline]
    pub fn replies(&self, color: Color, second_last: u16, last: u16) -> (u16, u16) {
        let c = color.index() * self.cells;
        let (s, l) = (second_last as usize, last as usize);
        (self.two[(c + s) * self.cells + l], self.one[c + l])
    }

    /// Learns from the finished sequence: `winner` (None for a draw) keeps its moves as
    /// replies, the loser forgets the replies it played.
    pub fn learn(&mut self, winner: Option<Color>) {
        let Some(winner) = winner else {
            return;
        };
        let cells = self.cells;
        for (i, w) in self.sequence.windows(3).enumerate() {
            let (second_last, last, mv) = (w[0] as usize, w[1] as usize, w[2]);
            if mv == 0 {
                continue;
            }
            // `w[2]` is `sequence[i + 2]`: the same colour as `sequence[i]`.
            let color = if i % 2 == 0 {
                self.first
            } else {
                self.first.opponent()
            };
            let c = color.index() * cells;
            let one = &mut self.one[c + last];
            let two = &mut self.two[(c + second_last) * cells + last];
            if color == winner {
                *one = mv;
                *two = mv;
            } else {
                if *one == mv {
                    *one = 0;
                }
                if *two == mv {
                    *two = 0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records a playout in `memory`: after the moves `second_last` and `last`, black to
    /// move, the moves `points`, won by `winner`.
    fn playout(
        memory: &mut ReplyMemory,
        (second_last, last): (u16, u16),
        points: &[u16],
        winner: Option<Color>,
    ) {
        memory.begin(second_last, last, Color::Black);
        for &p in points {
            memory.push(p);
        }
        memory.learn(winner);
    }

    #[test]
    fn winner_keeps_replies_and_loser_forgets_them() {
        let mut memory = ReplyMemory::new(50);
        // Black 10, white 11, black 12, white 13 after the moves 1 (black) and 2 (white).
        playout(&mut memory, (1, 2), &[10, 11, 12, 13], Some(Color::Black));
        assert_eq!(memory.replies(Color::Black, 1, 2), (10, 10));
        assert_eq!(memory.replies(Color::Black, 10, 11), (12, 12));
        // White lost: nothing learnt for white.
        assert_eq!(memory.replies(Color::White, 2, 10), (0, 0));
        // Black plays 12 after 10, 11 again and loses: 12 is forgotten as black's reply to
        // 11 in both tables, and white keeps its winning reply 11 to 8, 10.
        playout(&mut memory, (7, 8), &[10, 11, 12], Some(Color::White));
        assert_eq!(memory.replies(Color::Black, 10, 11), (0, 0));
        assert_eq!(memory.replies(Color::White, 8, 10), (11, 11));
        // Black's reply to 1, 2 was not played in the lost playout: it stays. Passes are
        // never stored as replies.
        assert_eq!(memory.replies(Color::Black, 1, 2), (10, 10));
        playout(&mut memory, (0, 0), &[0, 5], Some(Color::White));
        assert_eq!(memory.replies(Color::White, 0, 0), (5, 5));
        assert_eq!(memory.replies(Color::Black, 0, 0), (0, 0));
        // A draw teaches nothing.
        playout(&mut memory, (3, 4), &[6], None);
        assert_eq!(memory.replies(Color::Black, 3, 4), (0, 0));
    }
}
