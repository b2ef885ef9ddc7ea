//! Move priors: the hook through which a policy seeds new tree edges with virtual wins and
//! visits ([`MovePriors`]), and the cheap default heuristic ([`HeuristicPriors`]): captures,
//! atari escapes, no filling of one's own eyes, no self-atari, moves near the last one, and
//! no lonely first-line moves. A learned policy (the pattern module) plugs in by implementing
//! the trait and being put in `SearchConfig::priors`.

use std::fmt::Debug;

use crate::board::{Board, Cell, Color, Move, Point};

pub use super::tree::Prior;

/// Computes priors for new tree edges. Called once per expansion, from any worker thread,
/// with `moves` the candidate moves (legal under simple ko, no suicide; a pass included);
/// it must fill `out[k]` for `moves[k]` (`out` comes zeroed). `last` is the previous move's
/// point, if it was not a pass. Must not allocate on the hot path.
pub trait MovePriors: Send + Sync + Debug {
    fn priors(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
        moves: &[Move],
        out: &mut [Prior],
    );
}

/// The default priors. Each term adds virtual playouts at a fixed value; the weights are
/// fields so that experiments can change them.
#[derive(Clone, Debug)]
pub struct HeuristicPriors {
    /// Virtual playouts at 0.5 for every move (keeps early estimates from swinging).
    pub even: f32,
    /// Virtual lost playouts for filling one's own one-point eye.
    pub own_eye: f32,
    /// Virtual won playouts for capturing a chain in atari.
    pub capture: f32,
    /// Virtual won playouts for extending or capturing out of atari.
    pub atari_escape: f32,
    /// Virtual lost playouts for a move that leaves its own chain with one liberty.
    pub self_atari: f32,
    /// Virtual won playouts for a move within distance 2 of the last move.
    pub near_last: f32,
    /// Virtual lost playouts for a first-line move with no stone within distance 2.
    pub lonely_edge: f32,
    /// Virtual lost playouts for passing while many points are empty.
    pub early_pass: f32,
}

impl Default for HeuristicPriors {
    fn default() -> HeuristicPriors {
        HeuristicPriors {
            even: 4.0,
            own_eye: 30.0,
            capture: 12.0,
            atari_escape: 10.0,
            self_atari: 10.0,
            near_last: 3.0,
            lonely_edge: 6.0,
            early_pass: 20.0,
        }
    }
}

/// What playing `p` does to the chains around it, estimated without playing.
struct MoveShape {
    captures: bool,
    saves_own_atari: bool,
    /// Lower estimate of the liberties of the new stone's chain (capped at 2).
    liberties: u32,
    own_eye: bool,
}

fn move_shape(board: &Board, p: Point, color: Color) -> MoveShape {
    let geometry = board.geometry();
    let mut captures = false;
    let mut own_atari = false;
    let mut liberties = 0u32;
    for n in geometry.neighbors(p) {
        match board.cell_at(n) {
            Cell::Empty => liberties += 1,
            Cell::Border => {}
            cell => {
                let q = Point::from_index(n);
                let atari = board.in_atari(q);
                if cell.is(color) {
                    if atari {
                        own_atari = true;
                    } else {
                        // A chain with two or more liberties keeps at least one besides `p`.
                        liberties += 1;
                    }
                } else if atari {
                    captures = true;
                    liberties += 1;
                }
            }
        }
    }
    let liberties = liberties.min(2);
    MoveShape {
        captures,
        saves_own_atari: own_atari && (captures || liberties >= 2),
        liberties,
        own_eye: board.is_eye(p, color),
    }
}

fn stone_within_two(board: &Board, p: Point) -> bool {
    let g = board.geometry();
    let (c, r) = g.coords(p);
    let n = g.size() as isize;
    for dc in -2isize..=2 {
        for dr in -2isize..=2 {
            if dc.abs() + dr.abs() > 2 || (dc == 0 && dr == 0) {
                continue;
            }
            let (x, y) = (c as isize + dc, r as isize + dr);
            if x < 0 || y < 0 || x >= n || y >= n {
                continue;
            }
            if let Some(q) = g.point(x as usize, y as usize) {
                if board.cell(q) != Cell::Empty {
                    return true;
                }
            }
        }
    }
    false
}

impl MovePriors for HeuristicPriors {
    fn priors(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
        moves: &[Move],
        out: &mut [Prior],
    ) {
        let g = board.geometry();
        let area = g.size() * g.size();
        for (mv, prior) in moves.iter().zip(out.iter_mut()) {
            prior.add(self.even, 0.5);
            let p = match *mv {
                Move::Pass => {
                    if board.empty_count() * 4 > area {
                        prior.add(self.early_pass, 0.0);
                    }
                    continue;
                }
                Move::Play(p) => p,
            };
            let shape = move_shape(board, p, color);
            if shape.own_eye && !shape.captures {
                prior.add(self.own_eye, 0.0);
                continue;
            }
            if shape.captures {
                prior.add(self.capture, 1.0);
            }
            if shape.saves_own_atari {
                prior.add(self.atari_escape, 1.0);
            }
            if !shape.captures && shape.liberties <= 1 {
                prior.add(self.self_atari, 0.0);
            }
            if let Some(q) = last {
                if g.distance(p, q) <= 2 {
                    prior.add(self.near_last, 1.0);
                }
            }
            if g.edge_distance(p) == 0 && g.size() >= 9 && !stone_within_two(board, p) {
                prior.add(self.lonely_edge, 0.0);
            }
        }
    }
}
