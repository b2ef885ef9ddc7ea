//! The features of a candidate move that the Bradley-Terry model rates: tactical ones
//! (capture, atari escape, self-atari, atari given), distances to the last two moves and to
//! the edge, the liberties after the move, how full the board is, who owns the point at the
//! end of a few random playouts (when the caller has run them), pass, and five shapes (3x3
//! with atari marks, 12-, 24-, 40- and 60-point diamonds).
//! Each feature group gives a move at most one level; level 0 means "absent" (gamma 1).
//!
//! Extraction allocates nothing: chain walks use small fixed arrays.

use crate::board::{Board, Color, Geometry, MAX_CELLS, Point, Recent};
use crate::tactics::ladder::{atari_starts_ladder, extension_caught_in_ladder};
use crate::tactics::liberties::{liberties_after, liberties_capped, touches_chain_in_atari};

use super::shape::{code_3x3, diamond_codes};

/// The feature groups, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// 1: pass; 2: pass right after the opponent passed.
    Pass,
    /// 1: captures a chain; 2: the captured chain holds the last move's stone; 3: the capture
    /// frees an own chain that is in atari; 4: captures a chain that could have escaped (its
    /// owner extending on the capturing point would get two or more liberties).
    Capture,
    /// 1: extends an own chain out of atari (to two or more liberties); 2: the same for a
    /// chain touching the last move; 3: the extension has two liberties and the opponent
    /// then captures it in a ladder (an escape that fails).
    Escape,
    /// 1: self-atari of a chain of at most two stones; 2: of a bigger chain.
    SelfAtari,
    /// 1: puts an enemy chain in atari; 2: the same while a ko is on the board; 3: the atari
    /// starts a ladder that captures the chain.
    Atari,
    /// Coulom's distance `dx + dy + max(dx, dy)` to the last move, 2..=16; 17 for farther.
    DistLast,
    /// The same distance to the move before the last.
    DistSecond,
    /// Lines of the move counted from the nearest edge `a` and from the nearest edge in
    /// the other direction `b`, both from 0 and capped at 5 (the sixth line and beyond), with
    /// `a <= b`: level `6 * a + b + 1` (so the 3-4 point differs from the 3-10 point).
    Edge,
    /// Liberties after the move: the move's own chain's liberties `own` (1, 2, 3 or more:
    /// 0..=2), whether it joins an own chain `joins` (0 or 1), and the fewest liberties
    /// `enemy` an adjacent enemy chain not captured is left with (0: no such chain; 1, 2, 3
    /// or more): level `1 + own + 3 * joins + 6 * enemy`, 1..=24.
    Liberties,
    /// How full the board is: the share of its points holding a stone, in eight steps
    /// (level 1: under 2%, then under 5.5%, 11%, 19%, 30%, 44%, 61%, and 61% or more). The
    /// same for every candidate of a position, pass included, so its gamma cancels out; with
    /// latent factors it tells the other features the stage of the game.
    Stones,
    /// Who owns the point at the end of a few random playouts from the position
    /// ([`Ownership`]): the share of them in which it ends as the mover's, in eight steps
    /// (level 1: under an eighth, ..., level 8: seven eighths or more). No level when the
    /// context has no ownership.
    Owner,
    /// The folded 3x3 code with atari marks.
    Shape3,
    /// The folded 12-point diamond code.
    Shape12,
    /// The folded 24-point diamond code.
    Shape24,
    /// The key of the folded 40-point diamond (Manhattan distance 4) code.
    Shape40,
    /// The key of the folded 60-point diamond (Manhattan distance 5) code.
    Shape60,
}

impl Group {
    /// Groups with a small number of levels, in table order.
    pub const LEVELLED: [Group; LEVELLED_GROUPS] = [
        Group::Pass,
        Group::Capture,
        Group::Escape,
        Group::SelfAtari,
        Group::Atari,
        Group::DistLast,
        Group::DistSecond,
        Group::Edge,
        Group::Liberties,
        Group::Stones,
        Group::Owner,
    ];

    /// Shape groups, in table order.
    pub const SHAPES: [Group; 5] = [
        Group::Shape3,
        Group::Shape12,
        Group::Shape24,
        Group::Shape40,
        Group::Shape60,
    ];

    /// Name used in the table format.
    pub fn name(self) -> &'static str {
        match self {
            Group::Pass => "pass",
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::SelfAtari => "self_atari",
            Group::Atari => "atari",
            Group::DistLast => "dist_last",
            Group::DistSecond => "dist_second",
            Group::Edge => "edge",
            Group::Liberties => "liberties",
            Group::Stones => "stones",
            Group::Owner => "owner",
            Group::Shape3 => "shape3",
            Group::Shape12 => "shape12",
            Group::Shape24 => "shape24",
            Group::Shape40 => "shape40",
            Group::Shape60 => "shape60",
        }
    }

    /// Every group, in table order: the levelled ones, then the shapes.
    pub fn all() -> impl Iterator<Item = Group> {
        Group::LEVELLED.into_iter().chain(Group::SHAPES)
    }

    pub fn from_name(name: &str) -> Option<Group> {
        Group::all().find(|g| g.name() == name)
    }

    /// Highest level of a levelled group (levels run 1..=max); 0 for shape groups.
    pub fn max_level(self) -> usize {
        match self {
            Group::Pass => 2,
            Group::Capture => 4,
            Group::Escape => 3,
            Group::SelfAtari => 2,
            Group::Atari => 3,
            Group::DistLast | Group::DistSecond => 17,
            Group::Edge => 36,
            Group::Liberties => 24,
            Group::Stones | Group::Owner => 8,
            _ => 0,
        }
    }

    /// Position of a levelled group in [`Group::LEVELLED`], or of a shape group in
    /// [`Group::SHAPES`].
    pub fn slot(self) -> usize {
        match self {
            Group::Shape3 => 0,
            Group::Shape12 => 1,
            Group::Shape24 => 2,
            Group::Shape40 => 3,
            Group::Shape60 => 4,
            g => g as usize,
        }
    }
}

/// Number of levelled groups.
pub const LEVELLED_GROUPS: usize = 11;
/// Number of shape groups.
pub const SHAPE_GROUPS: usize = 5;

/// The features of one candidate: a level per levelled group (0 = absent) and the folded
/// code of each shape (meaningless for a pass, which has `is_pass` set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveFeatures {
    pub levels: [u8; LEVELLED_GROUPS],
    pub shapes: [u64; SHAPE_GROUPS],
    pub is_pass: bool,
}

/// What the features of a position depend on besides the board: who moves, the last two
/// moves, and the ownership of the points in a few playouts when the caller ran them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context<'a> {
    pub color: Color,
    pub recent: Recent,
    /// Gives [`Group::Owner`] its levels (`None`: no level).
    pub owner: Option<&'a Ownership>,
}

impl Context<'static> {
    /// The context of `color` to move after `recent`, without ownership.
    pub fn new(color: Color, recent: Recent) -> Context<'static> {
        Context {
            color,
            recent,
            owner: None,
        }
    }
}

/// How often each point ended as black's and as white's (by area) in some playouts from a
/// position: what [`Group::Owner`] reads. The playouts are run above this layer
/// (`crate::playout::ownership`); this is their tally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    /// The playouts counted.
    playouts: u32,
    /// Per padded index: playouts that ended with the point black's, and white's.
    counts: [[u8; MAX_CELLS]; 2],
}

impl Ownership {
    /// Most playouts a tally holds (the counts are bytes).
    pub const MAX_PLAYOUTS: u32 = 255;

    /// An empty tally.
    pub fn new() -> Ownership {
        Ownership {
            playouts: 0,
            counts: [[0; MAX_CELLS]; 2],
        }
    }

    /// Forgets every playout.
    pub fn clear(&mut self) {
        self.playouts = 0;
        self.counts = [[0; MAX_CELLS]; 2];
    }

    /// Counts one playout's end: `owners[i]` the owner of padded index `i` (as
    /// `Board::area_owners` gives it) for the points of `geometry`. At most
    /// [`Ownership::MAX_PLAYOUTS`] are counted; later ones are ignored.
    pub fn add(&mut self, geometry: Geometry, owners: &[Option<Color>; MAX_CELLS]) {
        if self.playouts >= Self::MAX_PLAYOUTS {
            return;
        }
        self.playouts += 1;
        for p in geometry.points() {
            if let Some(c) = owners[p.index()] {
                self.counts[Self::slot(c)][p.index()] += 1;
            }
        }
    }

    /// The playouts counted.
    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    /// The playouts in which `p` ended as `color`'s.
    pub fn owned(&self, color: Color, p: Point) -> u32 {
        self.counts[Self::slot(color)][p.index()] as u32
    }

    fn slot(color: Color) -> usize {
        (color == Color::White) as usize
    }

    /// The level of [`Group::Owner`] of `p` for `color` to move: 1 + the share of playouts
    /// that ended with `p` `color`'s, in eighths (rounded down, below 1); 0 with no playouts.
    pub fn level(&self, color: Color, p: Point) -> u8 {
        if self.playouts == 0 {
            return 0;
        }
        1 + (self.owned(color, p) * 8 / (self.playouts + 1)) as u8
    }
}

/// Tallies the ownership of a position for `color` to move into the [`Ownership`] (with a
/// scratch board): the playouts run above this layer, and the trainer, the evaluation and
/// the search are handed this function (`crate::playout::ownership::owner_tally`).
pub type OwnerTally = fn(&Board, Color, &mut Board, &mut Ownership);

/// The ownership tally of one position at a time for [`Group::Owner`]: an [`OwnerTally`]
/// with the tally it fills and the scratch board its playouts run on (both made at the
/// first position, then reused).
pub struct OwnerScratch {
    run: OwnerTally,
    made: Option<(Board, Box<Ownership>)>,
}

impl OwnerScratch {
    /// Tallies by `run`.
    pub fn new(run: OwnerTally) -> OwnerScratch {
        OwnerScratch { run, made: None }
    }

    /// Tallies `board` with `color` to move and returns the tally.
    pub fn tally(&mut self, board: &Board, color: Color) -> &Ownership {
        let (scratch, ownership) = self
            .made
            .get_or_insert_with(|| (board.clone(), Box::default()));
        (self.run)(board, color, scratch, ownership);
        ownership
    }

    /// The last tally ([`OwnerScratch::tally`]'s), if any.
    pub fn last(&self) -> Option<&Ownership> {
        self.made.as_ref().map(|(_, ownership)| &**ownership)
    }
}

impl Default for Ownership {
    fn default() -> Ownership {
        Ownership::new()
    }
}

/// Coulom's move distance `dx + dy + max(dx, dy)`.
pub fn move_distance(board: &Board, a: Point, b: Point) -> usize {
    let (ac, ar) = board.geometry().coords(a);
    let (bc, br) = board.geometry().coords(b);
    let dx = ac.abs_diff(bc);
    let dy = ar.abs_diff(br);
    dx + dy + dx.max(dy)
}

/// The features of `color` playing on the empty point `p` (or passing, when `p` is `None`).
pub fn extract(board: &Board, p: Option<Point>, ctx: &Context) -> MoveFeatures {
    let mut f = MoveFeatures::default();
    let Some(p) = p else {
        f.is_pass = true;
        f.levels[Group::Pass.slot()] = if ctx.recent.last_was_pass { 2 } else { 1 };
        f.levels[Group::Stones.slot()] = stones_level(board);
        return f;
    };
    extract_tactical(board, p, ctx, &mut f.levels);
    f.shapes[0] = code_3x3(board, p, ctx.color) as u64;
    let [d12, d24, d40, d60] = diamond_codes(board, p, ctx.color);
    f.shapes[1] = d12;
    f.shapes[2] = d24;
    f.shapes[3] = d40;
    f.shapes[4] = d60;
    f
}

/// Fills the levelled groups other than pass for a move on `p`.
pub fn extract_tactical(
    board: &Board,
    p: Point,
    ctx: &Context,
    levels: &mut [u8; LEVELLED_GROUPS],
) {
    let color = ctx.color;
    let enemy = color.opponent();
    let geometry = board.geometry();
    let last_chain = ctx
        .recent
        .last
        .filter(|&l| board.cell(l).is(enemy))
        .map(|l| board.chain_id(l));
    // Whether the own chain through `q` touches the last move's stone.
    let touches_last = |q: Point| -> bool {
        ctx.recent.last.is_some_and(|l| {
            board.cell(l).is(enemy)
                && geometry.neighbors(l).iter().any(|&n| {
                    board.cell_at(n).is(color)
                        && board.chain_id(Point::from_index(n)) == board.chain_id(q)
                })
        })
    };

    let mut capture = 0u8;
    let mut escape_chain: Option<Point> = None;
    let mut atari = false;
    let mut ladder = false;
    // The fewest liberties an adjacent enemy chain not captured keeps (capped at 3; 0: none).
    let mut enemy_left = 0u8;
    for n in geometry.neighbors(p) {
        let cell = board.cell_at(n);
        let np = Point::from_index(n);
        if cell.is(enemy) {
            if board.in_atari(np) {
                let level = if Some(board.chain_id(np)) == last_chain {
                    2
                } else if touches_chain_in_atari(board, np, color) {
                    // Capturing it frees an own chain.
                    3
                } else if liberties_after(board, p, enemy).liberties >= 2 {
                    4
                } else {
                    1
                };
                // Priority: holds the last move, then frees a chain, then one that could
                // escape, then plain.
                capture = match (capture, level) {
                    (2, _) | (_, 2) => 2,
                    (3, _) | (_, 3) => 3,
                    (4, _) | (_, 4) => 4,
                    _ => 1,
                };
            } else {
                // `p` is one of the chain's liberties: the move leaves it one fewer.
                let left = liberties_capped(board, np, 4) as u8 - 1;
                enemy_left = if enemy_left == 0 {
                    left
                } else {
                    enemy_left.min(left)
                };
                if left == 1 {
                    atari = true;
                    ladder = ladder || atari_starts_ladder(board, p, color, np);
                }
            }
        } else if cell.is(color) && board.in_atari(np) {
            escape_chain = Some(np);
        }
    }
    let after = liberties_after(board, p, color);
    levels[Group::Capture.slot()] = capture;
    if let Some(chain) = escape_chain
        && after.liberties >= 2
    {
        levels[Group::Escape.slot()] =
            if after.liberties == 2 && extension_caught_in_ladder(board, p, color) {
                3
            } else if touches_last(chain) {
                2
            } else {
                1
            };
    }
    if !after.captures && after.liberties <= 1 {
        levels[Group::SelfAtari.slot()] = if after.chain_size <= 2 { 1 } else { 2 };
    }
    if ladder {
        levels[Group::Atari.slot()] = 3;
    } else if atari {
        levels[Group::Atari.slot()] = if board.ko().is_some() { 2 } else { 1 };
    }
    if let Some(l) = ctx.recent.last {
        levels[Group::DistLast.slot()] = move_distance(board, p, l).clamp(2, 17) as u8;
    }
    if let Some(l) = ctx.recent.second_last {
        levels[Group::DistSecond.slot()] = move_distance(board, p, l).clamp(2, 17) as u8;
    }
    levels[Group::Edge.slot()] = edge_level(board, p);
    let own = after.liberties.clamp(1, 3) as u8 - 1;
    let joins = (after.chain_size > 1) as u8;
    levels[Group::Liberties.slot()] = 1 + own + 3 * joins + 6 * enemy_left;
    levels[Group::Stones.slot()] = stones_level(board);
    if let Some(owner) = ctx.owner {
        levels[Group::Owner.slot()] = owner.level(color, p);
    }
}

/// The level of the stones group: see [`Group::Stones`].
pub fn stones_level(board: &Board) -> u8 {
    // Thousandths of the board's points at which each level after the first begins.
    const STEPS: [usize; 7] = [20, 55, 110, 190, 300, 440, 610];
    let points = board.size() * board.size();
    let occupied = points - board.empty_points().len();
    let share = occupied * 1000 / points.max(1);
    1 + STEPS.iter().filter(|&&step| share >= step).count() as u8
}

/// The level of the edge group: see [`Group::Edge`].
pub fn edge_level(board: &Board, p: Point) -> u8 {
    let (col, row) = board.geometry().coords(p);
    let last = board.size() - 1;
    let x = col.min(last - col).min(5);
    let y = row.min(last - row).min(5);
    (6 * x.min(y) + x.max(y) + 1) as u8
}
