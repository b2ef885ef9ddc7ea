//! The consistency check of a board: everything the board keeps incrementally (chains,
//! pseudo-liberties, the empty-point list, counts, ring codes, the hash) recomputed from
//! the stones alone and compared. For tests and debugging, not for hot paths.

use super::chains::ChainInfo;
use super::geometry::{Cell, Color, MAX_CELLS, Point};
use super::position::{Board, count_unit};
use super::zobrist::stone_key;

impl Board {
    /// Recomputes chains, liberties, empty points and the hash from the stones alone and
    /// compares them with the incremental state. Returns a description of the first mismatch.
    pub fn check_consistency(&self) -> Result<(), String> {
        let g = self.geometry;
        for index in 0..g.cells() {
            let on_board = g.contains_index(index);
            let cell = self.cells[index];
            if on_board == (cell == Cell::Border) {
                return Err(format!("cell {index} is {cell:?}, on board: {on_board}"));
            }
        }
        let mut hash = 0;
        let mut empties = 0;
        let mut seen = [false; MAX_CELLS];
        for p in g.points() {
            let i = p.index();
            match self.cells[i].color() {
                None => {
                    empties += 1;
                    let slot = self.empty_slot[i] as usize;
                    if slot >= self.empty_count() || self.empties[slot] as usize != i {
                        return Err(format!(
                            "empty point {} missing from the list",
                            g.format_point(p)
                        ));
                    }
                    if self.chain_head[i] as usize != i {
                        return Err(format!(
                            "empty point {} still names a chain",
                            g.format_point(p)
                        ));
                    }
                }
                Some(color) => {
                    hash ^= stone_key(color, i);
                    if seen[i] {
                        continue;
                    }
                    // Flood-fill the chain from the stones alone.
                    let mut stack = vec![i];
                    let mut members = Vec::new();
                    seen[i] = true;
                    while let Some(q) = stack.pop() {
                        members.push(q);
                        for n in g.neighbors(Point::from_index(q)) {
                            if self.cells[n].is(color) && !seen[n] {
                                seen[n] = true;
                                stack.push(n);
                            }
                        }
                    }
                    let head = self.head(i);
                    if self.head(head) != head || !members.contains(&head) {
                        return Err(format!("chain at {} has a bad head", g.format_point(p)));
                    }
                    let mut expected = ChainInfo::default();
                    for &q in &members {
                        if self.head(q) != head {
                            return Err(format!(
                                "stone {} has the wrong head",
                                g.format_point(Point::from_index(q))
                            ));
                        }
                        expected.stones += 1;
                        for n in g.neighbors(Point::from_index(q)) {
                            if self.cells[n] == Cell::Empty {
                                expected.add_lib(n);
                            }
                        }
                    }
                    if expected != self.chains[head] {
                        return Err(format!(
                            "chain at {}: stored {:?}, recomputed {:?}",
                            g.format_point(p),
                            self.chains[head],
                            expected
                        ));
                    }
                    if expected.has_no_liberty() {
                        return Err(format!("chain at {} has no liberties", g.format_point(p)));
                    }
                    let ring: Vec<usize> = self.chain_stones(p).map(|s| s.index()).collect();
                    let mut sorted_ring = ring.clone();
                    sorted_ring.sort_unstable();
                    let mut sorted_members = members.clone();
                    sorted_members.sort_unstable();
                    if sorted_ring != sorted_members {
                        return Err(format!(
                            "chain ring at {} differs from the chain",
                            g.format_point(p)
                        ));
                    }
                }
            }
        }
        for color in Color::ALL {
            let count = g
                .points()
                .filter(|&p| self.cells[p.index()].is(color))
                .count();
            if count != self.stones[color.index()] as usize {
                return Err(format!(
                    "{color} has {count} stones, counter says {}",
                    self.stones[color.index()]
                ));
            }
        }
        for p in g.points() {
            let mut counts = 0;
            for n in g.neighbors(p) {
                counts += count_unit(self.cells[n]);
            }
            if counts != self.neighbor_counts[p.index()] {
                return Err(format!(
                    "neighbour counts of {} are stale",
                    g.format_point(p)
                ));
            }
            if self.ring_code_of_cells(p) != self.ring_codes[p.index()] {
                return Err(format!("ring code of {} is stale", g.format_point(p)));
            }
        }
        if empties != self.empty_count() {
            return Err(format!(
                "{} empty points, list holds {}",
                empties,
                self.empty_count()
            ));
        }
        if hash != self.hash {
            return Err("incremental hash differs from the recomputed one".to_string());
        }
        if self.ko_point != 0 && self.cells[self.ko_point as usize] != Cell::Empty {
            return Err("ko point is not empty".to_string());
        }
        Ok(())
    }
}
