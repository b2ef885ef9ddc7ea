//! Area scoring of a board position (Tromp-Taylor): the score and each point's owner.

use super::geometry::{Cell, Color, MAX_CELLS, MAX_POINTS, Point};
use super::position::{Board, count_of};

impl Board {
    /// Tromp-Taylor area score, black minus white, without komi: stones plus empty regions
    /// that reach only one colour.
    pub fn area_score(&self) -> i32 {
        // Fast path, which covers finished playouts: when no empty point touches another,
        // each one is its own region, owned when its neighbours are of one colour.
        let mut score = self.stones[0] as i32 - self.stones[1] as i32;
        let mut isolated = true;
        for &e in self.empty_points() {
            let counts = self.neighbor_counts[e as usize];
            if count_of(counts, Cell::Empty) > 0 {
                isolated = false;
                break;
            }
            let black = count_of(counts, Cell::Black);
            let white = count_of(counts, Cell::White);
            score += (white == 0 && black > 0) as i32 - (black == 0 && white > 0) as i32;
        }
        if isolated {
            return score;
        }
        let owners = self.area_owners();
        let mut score = 0;
        for p in self.geometry.points() {
            match owners[p.index()] {
                Some(Color::Black) => score += 1,
                Some(Color::White) => score -= 1,
                None => {}
            }
        }
        score
    }

    /// For every padded index: the colour that owns it by Tromp-Taylor area rules (a stone,
    /// or an empty point whose region reaches only that colour), or `None`.
    pub fn area_owners(&self) -> [Option<Color>; MAX_CELLS] {
        let mut owners = [None; MAX_CELLS];
        let mut visited = [false; MAX_CELLS];
        let mut region = [0u16; MAX_POINTS];
        for p in self.geometry.points() {
            let i = p.index();
            match self.cells[i] {
                Cell::Black => owners[i] = Some(Color::Black),
                Cell::White => owners[i] = Some(Color::White),
                Cell::Empty if !visited[i] => {
                    // Flood the empty region; `region` doubles as the work stack.
                    let mut len = 1;
                    let mut next = 0;
                    region[0] = i as u16;
                    visited[i] = true;
                    let (mut reaches_black, mut reaches_white) = (false, false);
                    while next < len {
                        let q = region[next] as usize;
                        next += 1;
                        for n in self.geometry.neighbors(Point::from_index(q)) {
                            match self.cells[n] {
                                Cell::Empty if !visited[n] => {
                                    visited[n] = true;
                                    region[len] = n as u16;
                                    len += 1;
                                }
                                Cell::Black => reaches_black = true,
                                Cell::White => reaches_white = true,
                                _ => {}
                            }
                        }
                    }
                    let owner = match (reaches_black, reaches_white) {
                        (true, false) => Some(Color::Black),
                        (false, true) => Some(Color::White),
                        _ => None,
                    };
                    for &q in &region[..len] {
                        owners[q as usize] = owner;
                    }
                }
                _ => {}
            }
        }
        owners
    }
}
