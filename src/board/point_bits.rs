//! A set of board cells as bits, one per cell index: a fixed-size value (no allocation) for
//! recording which points something looked at, such as the points a read played on.

use super::geometry::{MAX_CELLS, Point};

const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of cell indices below [`MAX_CELLS`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PointBits {
    words: [u64; WORDS],
}

impl Default for PointBits {
    fn default() -> PointBits {
        PointBits::EMPTY
    }
}

impl std::fmt::Debug for PointBits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Point::index))
            .finish()
    }
}

impl PointBits {
    /// The empty set.
    pub const EMPTY: PointBits = PointBits { words: [0; WORDS] };

    /// Adds the cell at `index`.
    #[inline]
    pub fn insert_index(&mut self, index: usize) {
        self.words[index / 64] |= 1 << (index % 64);
    }

    /// Adds `p`.
    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.insert_index(p.index());
    }

    /// Whether `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.words[p.index() / 64] & (1 << (p.index() % 64)) != 0
    }

    /// Adds every cell of `other`.
    pub fn union_with(&mut self, other: &PointBits) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    /// Removes every cell.
    pub fn clear(&mut self) {
        self.words = [0; WORDS];
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The number of cells in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The cells of the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(Point::from_index(k * 64 + bit))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn behaves_like_a_set_of_indices() {
        let mut bits = PointBits::EMPTY;
        let mut reference = BTreeSet::new();
        assert!(bits.is_empty());
        // A spread of indices over every word, the first and last ones included.
        for k in 0..200usize {
            let index = (k * 37 + k * k) % MAX_CELLS;
            bits.insert_index(index);
            reference.insert(index);
        }
        bits.insert_index(MAX_CELLS - 1);
        reference.insert(MAX_CELLS - 1);
        bits.insert(Point::from_index(0));
        reference.insert(0);
        assert_eq!(bits.len(), reference.len());
        let listed: Vec<usize> = bits.iter().map(Point::index).collect();
        assert_eq!(listed, reference.iter().copied().collect::<Vec<_>>());
        for index in 0..MAX_CELLS {
            assert_eq!(
                bits.contains(Point::from_index(index)),
                reference.contains(&index)
            );
        }
        let mut other = PointBits::EMPTY;
        other.insert_index(5);
        other.insert_index(700.min(MAX_CELLS - 2));
        let mut union = bits;
        union.union_with(&other);
        assert!(union.contains(Point::from_index(5)));
        assert_eq!(
            union.len(),
            reference
                .union(&other.iter().map(Point::index).collect())
                .count()
        );
        union.clear();
        assert!(union.is_empty());
        assert_eq!(union, PointBits::default());
    }
}
