//! Move priors: the hook through which a policy seeds new tree edges with virtual wins and
//! visits ([`MovePriors`]), and the cheap default heuristic ([`HeuristicPriors`]): captures,
//! atari escapes, no filling of one's own eyes, no self-atari, moves near the last one, and
//! no lonely first- or second-line moves; optionally also ladder reading and MoGo's
//! hand-written 3x3 shapes ([`super::hand_shapes`]). A learned policy (the pattern module) plugs in by implementing
//! the trait and being put in `SearchConfig::priors`.

use std::fmt::Debug;
use std::sync::Arc;

use super::hand_shapes::matches_hand_shape;
use super::prior_mix::PriorQuery;
use crate::board::{Board, Cell, Color, MAX_CELLS, Move, Point};
use crate::pattern::{Context, PatternTables};
use crate::settings::{PriorsKind, SearchParams};
use crate::tactics::ladder;
use crate::tactics::liberties::liberties_capped;

pub use super::tree::Prior;

/// The priors `params` describe: [`PatternPriors`] with `tables`, or [`HeuristicPriors`]
/// (with their hand-written shapes and ladder reading when the settings give them a weight).
pub fn build(params: &SearchParams, tables: &PatternTables) -> Arc<dyn MovePriors> {
    match params.priors {
        PriorsKind::Heuristic => Arc::new(match params.heuristic_shape_weight() {
            Some(w) => HeuristicPriors::with_shapes_and_ladders(w),
            None => HeuristicPriors::default(),
        }),
        PriorsKind::Pattern => Arc::new(PatternPriors::new(tables.clone(), params)),
    }
}

/// Computes priors for new tree edges. Called once per expansion, from any worker thread,
/// with `query.moves` the candidate moves (legal under simple ko, no suicide; a pass
/// included); it must fill `out[k]` for `query.moves[k]` (`out` comes zeroed).
/// `query.recent` holds the last two moves. Must not allocate on the hot path.
pub trait MovePriors: Send + Sync + Debug {
    fn priors(&self, query: &PriorQuery<'_>, out: &mut [Prior]);

    /// Whether [`PriorQuery::owner`] changes the priors on boards of `size` lines: the
    /// caller then tallies the position's ownership for them (the search: its root's, once
    /// per move).
    fn reads_ownership(&self, _size: usize) -> bool {
        false
    }
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
    /// Virtual won playouts for extending or capturing out of atari (an extension that a
    /// ladder catches gets `self_atari` lost playouts instead).
    pub atari_escape: f32,
    /// Whether to read ladders: an atari escape that a ladder catches loses its bonus, and
    /// an atari that captures in a ladder gets `ladder_atari`.
    pub read_ladders: bool,
    /// Virtual won playouts for an atari that captures in a ladder.
    pub ladder_atari: f32,
    /// Virtual won playouts for a move that makes one of the hand-written 3x3 shapes.
    pub hand_shape: f32,
    /// Virtual lost playouts for a move that leaves its own chain with one liberty.
    pub self_atari: f32,
    /// Virtual won playouts for a move within distance 2 of the last move.
    pub near_last: f32,
    /// Virtual lost playouts for a first-line move with no stone within distance 2.
    pub lonely_edge: f32,
    /// Virtual lost playouts for a second-line move with no stone within distance 2 (boards
    /// from 9x9 up).
    pub lonely_second_line: f32,
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
            read_ladders: false,
            ladder_atari: 6.0,
            hand_shape: 0.0,
            self_atari: 10.0,
            near_last: 3.0,
            lonely_edge: 6.0,
            lonely_second_line: 3.0,
            early_pass: 20.0,
        }
    }
}

impl HeuristicPriors {
    /// The default terms plus ladder reading and the hand-written shapes at `shape_weight`
    /// virtual playouts (`--priors heuristic` with a prior weight; benches/README.md has
    /// how they fared).
    pub fn with_shapes_and_ladders(shape_weight: f32) -> HeuristicPriors {
        HeuristicPriors {
            read_ladders: true,
            hand_shape: shape_weight,
            ..HeuristicPriors::default()
        }
    }
}

/// What playing `p` does to the chains around it, estimated without playing.
struct MoveShape {
    captures: bool,
    saves_own_atari: bool,
    /// An enemy neighbour chain with exactly two liberties (the move would put it in atari).
    ataris: Option<Point>,
    /// Lower estimate of the liberties of the new stone's chain (capped at 2).
    liberties: u32,
    own_eye: bool,
}

fn move_shape(board: &Board, p: Point, color: Color) -> MoveShape {
    let geometry = board.geometry();
    let mut captures = false;
    let mut own_atari = false;
    let mut liberties = 0u32;
    let mut ataris = None;
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
                } else if ataris.is_none() && liberties_capped(board, q, 3) == 2 {
                    ataris = Some(q);
                }
            }
        }
    }
    let liberties = liberties.min(2);
    MoveShape {
        captures,
        saves_own_atari: own_atari && (captures || liberties >= 2),
        ataris,
        liberties,
        own_eye: board.is_eye(p, color),
    }
}

fn stone_within_two(board: &Board, p: Point) -> bool {
    board
        .geometry()
        .within(p, 2)
        .any(|q| q != p && board.cell(q) != Cell::Empty)
}

impl MovePriors for HeuristicPriors {
    fn priors(&self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        let (board, color, last) = (query.board, query.color, query.recent.last);
        let g = board.geometry();
        let area = g.size() * g.size();
        for (mv, prior) in query.moves.iter().zip(out.iter_mut()) {
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
                if self.read_ladders
                    && !shape.captures
                    && ladder::extension_caught_in_ladder(board, p, color)
                {
                    prior.add(self.self_atari, 0.0);
                } else {
                    prior.add(self.atari_escape, 1.0);
                }
            }
            if self.read_ladders
                && let Some(target) = shape.ataris
                && shape.liberties >= 2
                && ladder::atari_starts_ladder(board, p, color, target)
            {
                prior.add(self.ladder_atari, 1.0);
            }
            if self.hand_shape > 0.0 && matches_hand_shape(board, p, color) {
                prior.add(self.hand_shape, 1.0);
            }
            if !shape.captures && shape.liberties <= 1 {
                prior.add(self.self_atari, 0.0);
            }
            if let Some(q) = last
                && g.distance(p, q) <= 2
            {
                prior.add(self.near_last, 1.0);
            }
            let line = g.edge_distance(p);
            if line <= 1 && g.size() >= 9 && !stone_within_two(board, p) {
                let weight = if line == 0 {
                    self.lonely_edge
                } else {
                    self.lonely_second_line
                };
                prior.add(weight, 0.0);
            }
        }
    }
}

/// Priors from the learned pattern table (progressive bias): the heuristic priors (kept for
/// eye filling, early passes and the like) plus, for every move, `weight` virtual playouts
/// valued at `(p / p_max) ^ exponent`, with `p` the table's probability of the move and
/// `p_max` the largest over the candidates. The most likely moves start as near-certain wins
/// worth `weight` playouts, implausible ones as near-certain losses, so the search spends
/// its first playouts on the moves a professional would consider.
#[derive(Clone)]
pub struct PatternPriors {
    /// The tables, by board size.
    pub tables: PatternTables,
    pub heuristic: HeuristicPriors,
    /// Virtual playouts of the pattern term (the settings'
    /// [`SearchParams::pattern_prior_weight`]).
    pub weight: f32,
    /// Shape of the value curve (0.5: a move a quarter as likely as the best is worth 0.5).
    pub exponent: f32,
}

impl PatternPriors {
    /// Pattern priors from `tables` with the weights of `params`.
    pub fn new(tables: impl Into<PatternTables>, params: &SearchParams) -> PatternPriors {
        PatternPriors {
            tables: tables.into(),
            heuristic: HeuristicPriors::default(),
            weight: params.pattern_prior_weight(),
            exponent: 0.5,
        }
    }
}

impl Debug for PatternPriors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternPriors")
            .field("tables", &self.tables)
            .field("heuristic", &self.heuristic)
            .field("weight", &self.weight)
            .field("exponent", &self.exponent)
            .finish()
    }
}

impl MovePriors for PatternPriors {
    fn reads_ownership(&self, size: usize) -> bool {
        self.tables
            .for_size(size)
            .uses_group(crate::pattern::Group::Owner)
    }

    fn priors(&self, query: &PriorQuery<'_>, out: &mut [Prior]) {
        self.heuristic.priors(query, out);
        let mut probability = [0f32; MAX_CELLS];
        let (color, recent, moves) = (query.color, query.recent, query.moves);
        let ctx = Context {
            color,
            recent,
            owner: query.owner,
        };
        let pass = self.tables.for_size(query.board.size()).move_probabilities(
            query.board,
            &ctx,
            &mut probability,
        );
        let of = |mv: &Move| match *mv {
            Move::Pass => pass,
            Move::Play(p) => probability[p.index()],
        };
        let max = moves.iter().map(of).fold(0f32, f32::max);
        if max <= 0.0 {
            return;
        }
        let weight = self.weight;
        for (mv, prior) in moves.iter().zip(out.iter_mut()) {
            let value = (of(mv) / max).powf(self.exponent);
            prior.add(weight, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Recent;

    /// A table that rates the `owner` levels reads the query's ownership tally: a point the
    /// mover owns in every playout gets less than a contested one; without a tally the two
    /// are rated alike.
    #[test]
    fn the_pattern_term_reads_the_ownership_of_the_query() {
        use crate::pattern::features::Ownership;
        let table =
            crate::pattern::PatternTable::parse("hane-patterns 1\nowner 8 0.1\nowner 4 2\n")
                .unwrap();
        assert!(table.uses_group(crate::pattern::Group::Owner));
        let priors = PatternPriors::new(table, &SearchParams::default());
        assert!(priors.reads_ownership(9) && priors.reads_ownership(19));
        // The compiled-in pair: the large boards' table rates `owner`, the small boards'
        // one does not, so 9x9 searches run no tally.
        let shipped = PatternPriors::new(PatternTables::Builtin, &SearchParams::default());
        assert!(shipped.reads_ownership(19) && shipped.reads_ownership(13));
        assert!(!shipped.reads_ownership(9) && !shipped.reads_ownership(12));
        assert!(!HeuristicPriors::default().reads_ownership(19));
        let board = Board::new(9).unwrap();
        let g = board.geometry();
        let (own, contested) = (g.parse_point("C3").unwrap(), g.parse_point("E5").unwrap());
        let mut tally = Ownership::new();
        for k in 0..16 {
            let mut owners = [None; MAX_CELLS];
            owners[own.index()] = Some(Color::Black);
            owners[contested.index()] = Some(if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            });
            tally.add(g, &owners);
        }
        let moves = [Move::Play(own), Move::Play(contested)];
        let rate = |owner: Option<&Ownership>| {
            let mut out = vec![Prior::NONE; 2];
            let query = PriorQuery {
                owner,
                ..PriorQuery::new(&board, Color::Black, Recent::default(), &moves)
            };
            priors.priors(&query, &mut out);
            let mut heuristic = vec![Prior::NONE; 2];
            priors.heuristic.priors(&query, &mut heuristic);
            out.iter()
                .zip(&heuristic)
                .map(|(p, h)| p.wins - h.wins)
                .collect::<Vec<f32>>()
        };
        let with = rate(Some(&tally));
        assert!(with[0] < with[1], "{with:?}");
        let without = rate(None);
        assert!((without[0] - without[1]).abs() < 1e-4, "{without:?}");
    }

    /// The pattern term adds its weight in virtual playouts to every legal move on top of
    /// the heuristic, the same on every board size: the default or the one set.
    #[test]
    fn the_pattern_term_adds_its_weight_to_every_move() {
        let table = PatternTables::Builtin;
        let added = |priors: &PatternPriors, size: usize| {
            let board = Board::new(size).unwrap();
            let moves: Vec<Move> = (0..size)
                .map(|c| Move::Play(board.geometry().point(c, size / 2).unwrap()))
                .collect();
            let mut with = vec![Prior::NONE; moves.len()];
            let mut without = vec![Prior::NONE; moves.len()];
            let recent = Recent::default();
            let query = PriorQuery::new(&board, Color::Black, recent, &moves);
            priors.priors(&query, &mut with);
            priors.heuristic.priors(&query, &mut without);
            let extra: Vec<f32> = with
                .iter()
                .zip(&without)
                .map(|(w, h)| w.visits - h.visits)
                .collect();
            // Every move got the same virtual playouts, and the best one a full value.
            assert!(
                extra.iter().all(|&e| (e - extra[0]).abs() < 1e-3),
                "{extra:?}"
            );
            let best = with
                .iter()
                .zip(&without)
                .map(|(w, h)| (w.wins - h.wins) / extra[0])
                .fold(0f32, f32::max);
            assert!((best - 1.0).abs() < 1e-4, "best value {best}");
            extra[0]
        };
        let defaults = PatternPriors::new(table.clone(), &SearchParams::default());
        assert_eq!(added(&defaults, 9), 18.26);
        assert_eq!(added(&defaults, 19), 18.26);
        let seven = SearchParams {
            prior_weight: crate::settings::Auto::Value(7.0),
            ..SearchParams::default()
        };
        let fixed = PatternPriors::new(table, &seven);
        assert_eq!(added(&fixed, 9), 7.0);
        assert_eq!(added(&fixed, 19), 7.0);
    }

    fn prior_of(priors: &HeuristicPriors, board: &Board, color: Color, point: &str) -> Prior {
        let p = board.geometry().parse_point(point).unwrap();
        let moves = [Move::Play(p)];
        let mut out = [Prior::NONE];
        priors.priors(
            &PriorQuery::new(board, color, Recent::default(), &moves),
            &mut out,
        );
        out[0]
    }

    fn without_shapes(read_ladders: bool) -> HeuristicPriors {
        HeuristicPriors {
            read_ladders,
            ..HeuristicPriors::default()
        }
    }

    #[test]
    fn an_atari_escape_into_a_ladder_is_discouraged() {
        // White C2 in atari; extending to C1 leaves two liberties on the first line, where
        // Black captures at once (the ladder reader's verdict, checked first).
        let board = Board::from_diagram(
            ".........
             .........
             .........
             .........
             .........
             .........
             ..X......
             .XOX.....
             .........",
        )
        .unwrap();
        let c1 = board.geometry().parse_point("C1").unwrap();
        assert!(ladder::extension_caught_in_ladder(&board, c1, Color::White));
        let reading = prior_of(&without_shapes(true), &board, Color::White, "C1");
        let blind = prior_of(&without_shapes(false), &board, Color::White, "C1");
        assert!(blind.mean() > 0.5, "{blind:?}");
        assert!(reading.mean() < 0.5, "{reading:?}");
        // An escape into the open keeps its bonus.
        let open = Board::from_diagram(
            ".........
             .........
             .........
             ...X.....
             ..XO.....
             ...X.....
             .........
             .........
             .........",
        )
        .unwrap();
        let reading = prior_of(&without_shapes(true), &open, Color::White, "E5");
        assert!(reading.mean() > 0.5, "{reading:?}");
    }

    #[test]
    fn an_atari_that_captures_in_a_ladder_is_encouraged() {
        // White D4 with two liberties (D3, E4); Black D3 drives it into a ladder towards
        // the lower right, Black E4 lets it out.
        let board = Board::from_diagram(
            ".........
             .........
             .........
             .........
             ...XX....
             ..XO.....
             .........
             .........
             .........",
        )
        .unwrap();
        let g = board.geometry();
        let d4 = g.parse_point("D4").unwrap();
        let d3 = g.parse_point("D3").unwrap();
        let e4 = g.parse_point("E4").unwrap();
        assert!(ladder::atari_starts_ladder(&board, d3, Color::Black, d4));
        assert!(!ladder::atari_starts_ladder(&board, e4, Color::Black, d4));
        let gain = |point| {
            let reading = prior_of(&without_shapes(true), &board, Color::Black, point);
            let blind = prior_of(&without_shapes(false), &board, Color::Black, point);
            (reading.visits - blind.visits, reading.wins - blind.wins)
        };
        let bonus = HeuristicPriors::default().ladder_atari;
        assert_eq!(gain("D3"), (bonus, bonus));
        assert_eq!(gain("E4"), (0.0, 0.0));
    }

    #[test]
    fn the_hand_shape_term_follows_its_weight() {
        let board = crate::search::hand_shapes::tests::hane();
        let weight = 5.0;
        let extras = HeuristicPriors::with_shapes_and_ladders(weight);
        let shaped = prior_of(&extras, &board, Color::Black, "D4");
        let plain = prior_of(&without_shapes(true), &board, Color::Black, "D4");
        assert_eq!(shaped.visits - plain.visits, weight);
        assert_eq!(shaped.wins - plain.wins, weight);
        let default = HeuristicPriors::default();
        assert!(!default.read_ladders && default.hand_shape == 0.0);
        // `prior-weight` reaches the heuristic priors' shape term.
        let table = PatternTables::Builtin;
        let settings = SearchParams {
            priors: PriorsKind::Heuristic,
            prior_weight: crate::settings::Auto::Value(weight),
            ..SearchParams::default()
        };
        let built = build(&settings, &table);
        let mut out = [Prior::NONE];
        let d4 = Move::Play(board.geometry().parse_point("D4").unwrap());
        let moves = [d4];
        let query = PriorQuery::new(&board, Color::Black, Recent::default(), &moves);
        built.priors(&query, &mut out);
        assert_eq!(out[0], shaped);
    }
}
