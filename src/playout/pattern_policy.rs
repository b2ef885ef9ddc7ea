//! The pattern-guided playout policy: answer the last move's tactics (capture a chain left
//! in atari; save an own chain it put in atari, unless the escape only runs into a ladder;
//! continue a ladder when the last move left its chain with two liberties and an atari
//! captures it), else play a shape next to the last move sampled by its learned 3x3 weight,
//! else a uniformly random move that neither fills an own eye nor puts a chain of three or
//! more stones in atari. Optional: last good replies learnt by the search (LGRF-2), the
//! extra two-liberty and eye-space tactics, ataris that win capturing races an own chain
//! of three or four liberties leads, the capture of chains left in atari away
//! from the last move, a few tries at an empty 3x3 area before the random move
//! ("fill the board"), and retaking a ko lost two moves before.
//! Allocates nothing per move (the ladder reader works on two scratch boards the policy
//! owns).

use rand::Rng as _;

use crate::board::{Board, Cell, Color, Geometry, OtherLiberties, Point, Recent};
use crate::pattern::PatternTable;
use crate::pattern::shape::{cells_3x3, raw_code_3x3};
use crate::pattern::table::TemperedShapes;
use crate::settings::{PlayoutParams, SelfAtariRule};
use crate::tactics::eye_space::EyeSpaceReader;
use crate::tactics::ladder::{LadderScratch, two_liberties};
use crate::tactics::liberties::{SmallSet, is_self_atari, liberties_after, self_atari_works};

use super::replies::ReplyMemory;
use super::{
    MoveSink, PlayoutPolicy, PlayoutRng, PlayoutStats, default_move_cap, random_acceptable_move,
    run_playout,
};

/// Self-atari of a chain this big (after the move) is never played by the policy.
const BIG_CHAIN: usize = 3;

/// Pattern-guided playouts. The policy remembers the moves it chose (it chooses for both
/// colours), so a caller only tells it the last two moves before the playout starts, with
/// [`PatternPolicy::start`]; a remembered move that no longer holds a stone of the expected
/// colour is ignored.
#[derive(Clone, Debug)]
pub struct PatternPolicy<'t> {
    /// The settings of the policy (each optional step reads its own; see the settings'
    /// help for what each does).
    params: PlayoutParams,
    /// Whether the race ataris are on: `params.race_ataris` resolved for the board size.
    race_ataris: bool,
    /// Gamma of every raw 3x3 code, at the policy's temperature.
    gammas: TemperedShapes<'t>,
    /// Last move (by the opponent of the player to move) and the one before; 0 for none.
    last: [u16; 2],
    /// Scratch boards of the ladder reader.
    ladder: LadderScratch,
    /// Marks of the eye-space reader.
    eyes: EyeSpaceReader,
    /// Last good replies, when the settings ask for them.
    replies: Option<ReplyMemory>,
    /// Stones of chains seen in atari next to a move the policy played, that may still be
    /// capturable (see [`AtariWatch`]).
    watch: AtariWatch,
    /// For each colour (index `Color::index`), the ko point it was barred from on its
    /// previous turn (0: none).
    lost_ko: [u16; 2],
}

impl<'t> PatternPolicy<'t> {
    /// The policy `params` describe, with the 3x3 weights of `table`, for boards of
    /// `geometry`. The steps of a move, in order (each optional one behind its setting):
    ///
    /// 1. `ko-retakes`: with that probability, retake a ko the opponent has just taken, when
    ///    the retake still captures (a ko fight instead of leaving the ko to whoever took
    ///    it first); tried before the answers to the last move, which it ignores like a ko
    ///    threat.
    /// 2. The answers to the last move: save an own chain in atari (extending, or with
    ///    `tactics` capturing an enemy in atari next to it), capture; with `ladders`, no
    ///    escape into a ladder and a ladder the opponent runs into is continued; with
    ///    `tactics`, a third liberty for an own chain the last move left with two and the
    ///    vital point of a small eye space; `two-liberty-ataris`: an atari on the last
    ///    move's chain of two liberties that cannot simply run; `race-ataris` (resolved for
    ///    the board size): an atari on an enemy chain of two liberties touching an own chain
    ///    the last move left with three or four, when the enemy cannot simply run.
    /// 3. `replies`: the last good reply to the last two moves (LGRF-2).
    /// 4. A 3x3 shape next to the last move, drawn by gamma (raised to `1 /
    ///    shape-temperature`), with probability `W / (W + shape-reluctance)`.
    /// 5. `captures`: capture a chain left in atari away from the last move.
    /// 6. `fill-board`: that many random tries for a point in an empty 3x3 area.
    /// 7. A random move that fills no own eye, with the self-ataris `self-atari` allows (a
    ///    refused self-atari is replaced by the liberty it would leave when playing there is
    ///    safe).
    pub fn configured(
        table: &'t PatternTable,
        params: &PlayoutParams,
        geometry: Geometry,
    ) -> PatternPolicy<'t> {
        let mut params = params.clone();
        params.ko_retakes = params.ko_retakes.clamp(0.0, 1.0);
        params.shape_reluctance = params.shape_reluctance.max(0.0);
        PatternPolicy {
            race_ataris: params.race_ataris_on(geometry.size()),
            gammas: table
                .playout_3x3_gammas()
                .tempered(params.shape_temperature),
            last: [0; 2],
            ladder: LadderScratch::new(),
            eyes: EyeSpaceReader::new(),
            replies: params.replies.then(|| ReplyMemory::new(geometry.cells())),
            watch: AtariWatch::default(),
            lost_ko: [0; 2],
            params,
        }
    }

    /// The default engine's policy on 19x19 (what [`PatternPolicy::configured`] gives for
    /// the default settings; on small boards they add race ataris) with the 3x3 weights of
    /// `table`.
    pub fn new(table: &'t PatternTable) -> PatternPolicy<'t> {
        PatternPolicy::configured(table, &PlayoutParams::default(), Geometry::new(19).unwrap())
    }

    /// The reply memory, when the policy plays replies: the caller starts each sequence,
    /// adds the tree moves and teaches it the result; the policy adds its own moves.
    pub fn replies(&mut self) -> Option<&mut ReplyMemory> {
        self.replies.as_mut()
    }

    /// Tells the policy the last move and the one before it, before a playout starts.
    pub fn start(&mut self, recent: Recent) {
        self.watch.len = 0;
        self.last = recent.indices();
        self.lost_ko = [0; 2];
    }

    /// The ko retake `color` plays now, if any: it could not retake the ko at its previous
    /// turn, the point is still empty, the move is legal and captures, and the draw says so.
    /// Remembers the ko `color` is barred from now, for its next turn.
    #[inline]
    fn ko_retake(&mut self, board: &Board, color: Color, rng: &mut PlayoutRng) -> Option<Point> {
        let side = color.index();
        let lost = std::mem::replace(&mut self.lost_ko[side], 0);
        if let Some((point, barred)) = board.ko()
            && barred == color
        {
            self.lost_ko[side] = point.index() as u16;
        }
        if lost == 0 {
            return None;
        }
        let p = Point::from_index(lost as usize);
        let retake = board.cell(p) == Cell::Empty
            && liberties_after(board, p, color).captures
            && !board.is_ko_retake(p, color)
            && !board.is_suicide(p, color)
            && (rng.next_u32() as f32 / 4_294_967_296.0) < self.params.ko_retakes;
        retake.then_some(p)
    }

    fn remember(&mut self, chosen: Option<Point>) {
        let index = chosen.map_or(0, |p| p.index() as u16);
        self.last = [index, self.last[0]];
        if let Some(replies) = &mut self.replies {
            replies.push(index);
        }
    }

    /// A remembered reply to the last two moves (else to the last one) that the policy
    /// would play: playable and no self-atari of a big chain.
    #[inline]
    fn last_good_reply(&self, board: &Board, color: Color) -> Option<Point> {
        let replies = self.replies.as_ref()?;
        let (two, one) = replies.replies(color, self.last[1], self.last[0]);
        [two, one].into_iter().find_map(|r| {
            let p = Point::from_index(r as usize);
            (r != 0
                && Self::playable(board, p, color)
                && !is_self_atari(board, p, color, BIG_CHAIN))
            .then_some(p)
        })
    }

    /// Whether `color` may play `p` in a playout: legal (not a ko retake nor suicide) and not
    /// filling its own eye.
    #[inline]
    fn playable(board: &Board, p: Point, color: Color) -> bool {
        board.cell(p) == Cell::Empty && board.is_legal_non_eye(p, color)
    }

    /// Captures of chains next to the last move, and escapes of own chains it put in atari
    /// (with the `tactics` setting, also the two-liberty answers).
    fn answer_last_move(
        &mut self,
        board: &Board,
        color: Color,
        last: Point,
        rng: &mut PlayoutRng,
    ) -> Option<Point> {
        let mut found = Candidates::default();
        let enemy = color.opponent();
        if let Some(lib) = board.atari_liberty(last) {
            found.push(lib);
        }
        let mut own_chains = [usize::MAX; 4];
        // Own chains next to the last move with three or more liberties, for the race ataris.
        let mut roomy = [Point::from_index(0); 4];
        let mut n_roomy = 0;
        let own_neighbours = board
            .neighbours_holding(last, Cell::from(color))
            .orthogonal();
        for (k, n) in own_neighbours.enumerate() {
            let np = Point::from_index(n);
            let id = board.chain_id(np);
            if own_chains.contains(&id) {
                continue;
            }
            own_chains[k] = id;
            if let Some(lib) = board.atari_liberty(np) {
                let after = liberties_after(board, lib, color);
                let runs_into_ladder = after.liberties == 2
                    && !after.captures
                    && self.params.ladders
                    && self.ladder.extension_caught_in_ladder(board, lib, color);
                if (after.liberties >= 2 || after.captures) && !runs_into_ladder {
                    found.push(lib);
                }
                if self.params.tactics {
                    counter_captures(board, np, enemy, &mut found);
                }
            } else if self.params.tactics
                && let Some((x, y)) = two_liberties(board, np)
            {
                // Our chain has two liberties left: take a third, by extending where
                // that gives at least three or by capturing a neighbour in atari.
                for (lib, other) in [(x, y), (y, x)] {
                    // Two empty neighbours of `lib` besides `other` already make three
                    // liberties with `other`; else count them on the joined chain.
                    let open = board
                        .geometry()
                        .neighbors(lib)
                        .into_iter()
                        .filter(|&n| n != other.index() && board.cell_at(n) == Cell::Empty)
                        .count();
                    if open >= 2 || liberties_after(board, lib, color).liberties >= 3 {
                        found.push(lib);
                    }
                }
                counter_captures(board, np, enemy, &mut found);
            } else {
                roomy[n_roomy] = np;
                n_roomy += 1;
            }
        }
        if found.len == 0 && self.params.ladders && self.touches_own_last(board, color, last) {
            // The last move's chain touches our previous stone (it has just run from our
            // atari, or pushed against it) and has two liberties: an atari that captures it
            // in a ladder.
            if let Some((x, y)) = two_liberties(board, last) {
                for (m, other) in [(x, y), (y, x)] {
                    if self
                        .ladder
                        .atari_on_two_liberties(board, m, other, color, last)
                    {
                        found.push(m);
                    }
                }
            }
        }
        if found.len == 0
            && self.params.two_liberty_ataris
            && let Some((x, y)) = two_liberties(board, last)
        {
            for (m, other) in [(x, y), (y, x)] {
                if liberties_after(board, m, color).liberties < 2 {
                    continue;
                }
                if escape_liberties(board, other, m, enemy) <= 2 {
                    found.push(m);
                }
            }
        }
        if found.len == 0 && self.race_ataris {
            for &chain in &roomy[..n_roomy] {
                race_ataris(board, chain, color, &mut found);
            }
        }
        if found.len == 0
            && self.params.tactics
            && let Some(vital) = self.eyes.vital_point(board, last)
        {
            found.push(vital);
        }
        while found.len > 0 {
            let k = super::random_below(rng, found.len);
            let p = found.points[k];
            if !board.is_ko_retake(p, color) && !board.is_suicide(p, color) {
                return Some(p);
            }
            found.len -= 1;
            found.points[k] = found.points[found.len];
        }
        None
    }

    /// The remembered move `k` (0: the last move, 1: the one before), when it still holds a
    /// stone of `color`.
    #[inline]
    fn remembered_stone(&self, board: &Board, k: usize, color: Color) -> Option<Point> {
        let index = self.last[k] as usize;
        (index != 0 && board.cell_at(index).is(color)).then(|| Point::from_index(index))
    }

    /// Whether the chain through `last` touches `color`'s previous move (a stone of `color`).
    #[inline]
    fn touches_own_last(&self, board: &Board, color: Color, last: Point) -> bool {
        let Some(own) = self.remembered_stone(board, 1, color) else {
            return false;
        };
        // Without a branch per neighbour: only the chain's own stones have its head as
        // their head (other cells name themselves).
        let chain = board.chain_id(last);
        board
            .geometry()
            .neighbors(own)
            .into_iter()
            .fold(false, |touches, n| {
                touches | (board.chain_id(Point::from_index(n)) == chain)
            })
    }

    /// Adds to the watch the enemy chains next to our previous move that it left in atari:
    /// the only chains of the opponent that can be in atari at our turn without touching
    /// the last move are ones our own moves put there.
    #[inline]
    fn watch_own_last(&mut self, board: &Board, color: Color) {
        let Some(own) = self.remembered_stone(board, 1, color) else {
            return;
        };
        for n in board.geometry().neighbors(own) {
            if board.cell_at(n).is(color.opponent()) && board.in_atari(Point::from_index(n)) {
                self.watch.push(n as u16);
            }
        }
    }

    /// A shape move next to the last move ([`PatternPolicy::draw_shape_point`]), when it is
    /// playable and no self-atari of a big chain.
    fn local_shape(
        &self,
        board: &Board,
        color: Color,
        last: Point,
        rng: &mut PlayoutRng,
    ) -> Option<Point> {
        let p = self.draw_shape_point(board, color, last, rng)?;
        if !Self::playable(board, p, color) || is_self_atari(board, p, color, BIG_CHAIN) {
            return None;
        }
        Some(p)
    }

    /// An empty neighbour of the last move (one of eight) drawn with probability
    /// `gamma / (W + reluctance)`, or none with probability `reluctance / (W +
    /// reluctance)`, `W` the sum of their gammas.
    ///
    /// Rejection sampling, so that the atari bits of a shape (which need the neighbours'
    /// chains) are read only for the point drawn: each empty neighbour is first weighed by
    /// the bound of its gamma over all atari bits its cells allow (one table load, exact
    /// for most cells). A draw that lands on a point is kept with probability
    /// `gamma / bound`; otherwise that point's bound becomes its exact gamma and the draw
    /// starts again. Each outcome has exactly the probability it would have with every
    /// gamma read first, and the loop ends: each rejection makes one bound exact, and a
    /// draw is never rejected on an exact bound.
    #[inline]
    fn draw_shape_point(
        &self,
        board: &Board,
        color: Color,
        last: Point,
        rng: &mut PlayoutRng,
    ) -> Option<Point> {
        let mut points = [0u16; 8];
        let mut bounds = [0f32; 8];
        let mut count = 0;
        let mut total = self.params.shape_reluctance;
        // The empty ones of the eight neighbours, from the ring code: no load and no branch
        // per neighbour.
        for n in board.neighbours_holding(last, Cell::Empty) {
            let bound = self
                .gammas
                .gamma_bound(cells_3x3(board, Point::from_index(n), color));
            points[count] = n as u16;
            bounds[count] = bound;
            total += bound;
            count += 1;
        }
        if count == 0 {
            return None;
        }
        loop {
            let mut x = (rng.next_u32() as f32 / 4_294_967_296.0) * total;
            let mut drawn = None;
            for (k, &bound) in bounds[..count].iter().enumerate() {
                if x < bound {
                    drawn = Some(k);
                    break;
                }
                x -= bound;
            }
            // Past every point: the reluctance's share, no shape move.
            let k = drawn?;
            let p = Point::from_index(points[k] as usize);
            let gamma = self.gammas.gamma(raw_code_3x3(board, p, color));
            if x < gamma {
                return Some(p);
            }
            total -= bounds[k] - gamma;
            bounds[k] = gamma;
        }
    }
}

impl PlayoutPolicy for PatternPolicy<'_> {
    fn start(&mut self, recent: Recent) {
        PatternPolicy::start(self, recent);
    }

    fn choose(&mut self, board: &mut Board, color: Color, rng: &mut PlayoutRng) -> Option<Point> {
        let last = self.remembered_stone(board, 0, color.opponent());
        if self.params.captures {
            self.watch_own_last(board, color);
        }
        let mut chosen = None;
        if self.params.ko_retakes > 0.0 {
            chosen = self.ko_retake(board, color, rng);
        }
        if let Some(last) = last
            && chosen.is_none()
        {
            chosen = self.answer_last_move(board, color, last, rng);
        }
        if chosen.is_none() && self.replies.is_some() {
            chosen = self.last_good_reply(board, color);
        }
        if let Some(last) = last
            && chosen.is_none()
        {
            chosen = self.local_shape(board, color, last, rng);
        }
        if chosen.is_none() && self.params.captures {
            chosen = self.watch.capture(board, color);
        }
        if chosen.is_none() && self.params.fill_board > 0 {
            chosen = open_area_point(board, rng, self.params.fill_board);
        }
        if chosen.is_none() {
            chosen = match self.params.self_atari {
                SelfAtariRule::Small => random_acceptable_move(board, color, rng, |b, p| {
                    !is_self_atari(b, p, color, BIG_CHAIN)
                }),
                SelfAtariRule::Useful => random_move_without_self_atari(board, color, rng, true),
                SelfAtariRule::Never => random_move_without_self_atari(board, color, rng, false),
            };
        }
        self.remember(chosen);
        chosen
    }
}

/// A random legal move that fills no own eye and leaves no own chain in atari (but for a
/// self-atari of one or two stones that [`self_atari_works`], when `useful` ones may be
/// played): a drawn self-atari is replaced by the one liberty it would leave, when that
/// point is a legal non-eye move that is no self-atari itself; otherwise the draw goes on.
fn random_move_without_self_atari(
    board: &mut Board,
    color: Color,
    rng: &mut PlayoutRng,
    useful: bool,
) -> Option<Point> {
    let mut replacement = None;
    let chosen = random_acceptable_move(board, color, rng, |b, p| {
        if !is_self_atari(b, p, color, 1)
            || (useful && !is_self_atari(b, p, color, BIG_CHAIN) && self_atari_works(b, p, color))
        {
            return true;
        }
        if let Some(q) = last_liberty_after(b, p, color)
            && b.is_legal_non_eye(q, color)
            && !is_self_atari(b, q, color, 1)
        {
            replacement = Some(q);
            return true;
        }
        false
    });
    replacement.or(chosen)
}

/// The liberties (capped at 3) the chain of `owner` would have after our atari at `atari`
/// and its extension at `escape`, the two liberties of a chain of its; 3 when the
/// extension captures (the chain gets out). Read on the board before the atari: `atari`
/// never counts.
fn escape_liberties(board: &Board, escape: Point, atari: Point, owner: Color) -> usize {
    const CAP: usize = 3;
    let mut found = [0u16; CAP];
    let mut len = 0;
    let mut add = |q: usize, len: &mut usize| {
        if q != atari.index() && q != escape.index() && !found[..*len].contains(&(q as u16)) {
            found[*len] = q as u16;
            *len += 1;
        }
    };
    for n in board.geometry().neighbors(escape) {
        match board.cell_at(n) {
            Cell::Empty => add(n, &mut len),
            Cell::Border => {}
            cell if cell.is(owner) => {
                'walk: for s in board.chain_stones(Point::from_index(n)) {
                    for m in board.geometry().neighbors(s) {
                        if board.cell_at(m) == Cell::Empty {
                            add(m, &mut len);
                            if len >= CAP {
                                break 'walk;
                            }
                        }
                    }
                }
            }
            _ => {
                if board.in_atari(Point::from_index(n)) {
                    return CAP;
                }
            }
        }
        if len >= CAP {
            return CAP;
        }
    }
    len
}

/// Adds the race ataris against the enemy chains of two liberties that touch `color`'s
/// chain through `chain`, when that chain has three or four liberties: a liberty of the
/// enemy chain where our stone keeps two liberties, when the enemy's extension at the
/// other would have at most two and capture nothing. One walk of the chain counts its
/// liberties (giving up at the fifth) and gathers its enemy neighbours (the first
/// [`RACE_NEIGHBOURS`]); allocates nothing.
fn race_ataris(board: &Board, chain: Point, color: Color, found: &mut Candidates) {
    // Each liberty is next to at most four of the chain's stones: more than sixteen
    // pseudo-liberties mean five liberties or more, with no walk.
    if board.pseudo_liberties(chain) > 16 {
        return;
    }
    let enemy = color.opponent();
    let mut liberties = SmallSet::<5>::new();
    let mut ids = [usize::MAX; RACE_NEIGHBOURS];
    let mut stones = [Point::from_index(0); RACE_NEIGHBOURS];
    let mut n_enemies = 0;
    for s in board.chain_stones(chain) {
        for n in board.geometry().neighbors(s) {
            let cell = board.cell_at(n);
            if cell == Cell::Empty {
                if liberties.insert(n as u16) {
                    return;
                }
            } else if cell.is(enemy) && n_enemies < RACE_NEIGHBOURS {
                let stone = Point::from_index(n);
                let id = board.chain_id(stone);
                if !ids[..n_enemies].contains(&id) {
                    ids[n_enemies] = id;
                    stones[n_enemies] = stone;
                    n_enemies += 1;
                }
            }
        }
    }
    if liberties.len < 3 {
        return;
    }
    for &stone in &stones[..n_enemies] {
        if let Some((x, y)) = two_liberties(board, stone) {
            for (m, other) in [(x, y), (y, x)] {
                if liberties_after(board, m, color).liberties >= 2
                    && escape_liberties(board, other, m, enemy) <= 2
                {
                    found.push(m);
                }
            }
        }
    }
}

/// Enemy neighbour chains of one own chain that [`race_ataris`] looks at.
const RACE_NEIGHBOURS: usize = 12;

/// The one liberty `color`'s chain would keep after playing the self-atari `p` (the empty
/// neighbour of `p`, or the liberty besides `p` of an own neighbour chain).
fn last_liberty_after(board: &Board, p: Point, color: Color) -> Option<Point> {
    for n in board.geometry().neighbors(p) {
        match board.cell_at(n) {
            Cell::Empty => return Some(Point::from_index(n)),
            cell if cell.is(color) => {
                if let OtherLiberties::One(q) = board.liberties_besides(Point::from_index(n), p) {
                    return Some(q);
                }
            }
            _ => {}
        }
    }
    None
}

/// The tactical answers found for one move: distinct points, at most [`Candidates::CAP`]
/// (later ones are dropped).
struct Candidates {
    points: [Point; Candidates::CAP],
    len: usize,
}

impl Default for Candidates {
    fn default() -> Candidates {
        Candidates {
            points: [Point::from_index(0); Candidates::CAP],
            len: 0,
        }
    }
}

impl Candidates {
    const CAP: usize = 12;

    #[inline]
    fn push(&mut self, p: Point) {
        if self.len < Self::CAP && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }
}

/// Stones of chains seen in atari during a playout (either colour), in no particular order;
/// a full watch drops new entries. Entries whose chain is gone or out of atari are dropped when
/// the watch is read.
#[derive(Clone, Debug, Default)]
struct AtariWatch {
    stones: [u16; AtariWatch::CAP],
    len: usize,
}

impl AtariWatch {
    const CAP: usize = 8;

    #[inline]
    fn push(&mut self, stone: u16) {
        if self.len < Self::CAP {
            self.stones[self.len] = stone;
            self.len += 1;
        }
    }

    /// The liberty of a watched chain of `color`'s opponent that is still in atari and that
    /// `color` may take (not a ko retake), the first one found; drops the entries that are
    /// no longer stones in atari.
    fn capture(&mut self, board: &Board, color: Color) -> Option<Point> {
        let enemy = color.opponent();
        let mut k = 0;
        while k < self.len {
            let stone = Point::from_index(self.stones[k] as usize);
            let cell = board.cell(stone);
            let stone_in_atari = cell.color().and_then(|_| board.atari_liberty(stone));
            if let Some(lib) = stone_in_atari {
                if cell.is(enemy) && !board.is_ko_retake(lib, color) {
                    return Some(lib);
                }
                k += 1;
                continue;
            }
            self.len -= 1;
            self.stones[k] = self.stones[self.len];
        }
        None
    }
}

/// An empty point whose eight neighbours are empty too (so not on the edge), found among
/// `tries` points drawn uniformly from the empty ones, or none. Such a move is always legal
/// and fills no eye, for either colour.
#[inline]
fn open_area_point(board: &Board, rng: &mut PlayoutRng, tries: u32) -> Option<Point> {
    let empty = board.empty_count();
    if empty == 0 {
        return None;
    }
    for _ in 0..tries {
        let p = Point::from_index(board.empty_points()[super::random_below(rng, empty)] as usize);
        // A ring code of 0: all eight neighbours empty (the border's field is not 0).
        if board.ring_code(p) == 0 {
            return Some(p);
        }
    }
    None
}

/// Adds to `found` the liberty of every chain of `enemy` in atari that touches the chain
/// through `stone` (capturing it gives that chain a liberty).
fn counter_captures(board: &Board, stone: Point, enemy: Color, found: &mut Candidates) {
    for s in board.chain_stones(stone) {
        for n in board.neighbours_holding(s, Cell::from(enemy)).orthogonal() {
            if let Some(lib) = board.atari_liberty(Point::from_index(n)) {
                found.push(lib);
            }
        }
    }
}

/// Runs `playouts` pattern playouts from `start` (black to move, no last move) on `threads`
/// threads, each worker with its own copy of `policy` (configured with the settings to
/// measure), worker `k` seeded with `(seed, k)`: the `hane bench case=pattern` workload.
pub fn run_pattern_playouts(
    start: &Board,
    policy: &PatternPolicy<'_>,
    playouts: u64,
    threads: usize,
    seed: u64,
) -> PlayoutStats {
    super::run_playouts(start, playouts, threads, seed, || policy.clone())
}

/// A sink-aware single playout with the pattern policy, for the search: plays `board` out
/// from `to_move` after the given last two moves.
pub fn run_pattern_playout<S: MoveSink>(
    board: &mut Board,
    to_move: Color,
    recent: Recent,
    policy: &mut PatternPolicy<'_>,
    rng: &mut PlayoutRng,
    sink: &mut S,
) -> super::PlayoutOutcome {
    policy.start(recent);
    let cap = default_move_cap(board.size());
    run_playout(board, to_move, policy, rng, cap, sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::playout_rng;
    use crate::settings::Auto;

    /// The policy of `params` on 19x19.
    fn policy_19(table: &PatternTable, params: PlayoutParams) -> PatternPolicy<'_> {
        PatternPolicy::configured(table, &params, Geometry::new(19).unwrap())
    }

    /// The rejection sampler of the shape moves draws each empty neighbour of the last move
    /// (and "none") with the probability its exact gamma gives, in positions where the
    /// gamma bounds it starts from are loose: each frequency over 40,000 draws lies
    /// within five standard deviations of the exact probability. At a temperature T the
    /// exact weight is the learned gamma raised to 1 / T, computed here from the learned
    /// table, not from the policy's tempered one.
    #[test]
    fn shape_draws_follow_the_exact_gammas() {
        let table = crate::pattern::default_table();
        let learned = table.playout_3x3_gammas().tempered(1.0);
        let mut rng = playout_rng(11, 0);
        for (temperature, reluctance, positions) in
            [(1.0_f32, 4.0_f32, 60), (0.25, 1.0, 20), (2.0, 8.0, 20)]
        {
            let policy = policy_19(
                table,
                PlayoutParams {
                    shape_temperature: temperature,
                    shape_reluctance: reluctance,
                    ..PlayoutParams::default()
                },
            );
            let exponent = 1.0 / f64::from(temperature);
            let (tested, loose) = shape_draws_at(&policy, &learned, exponent, positions, &mut rng);
            assert_eq!(
                tested, positions,
                "temperature {temperature}: only {tested} positions with loose bounds ({loose} seen)"
            );
        }
    }

    /// A temperature near 0 keeps every tempered gamma finite and positive, and the draws
    /// still end.
    #[test]
    fn a_temperature_near_zero_keeps_the_gammas_finite() {
        let table = crate::pattern::default_table();
        let cold = table.playout_3x3_gammas().tempered(1e-6);
        for raw in 0..(1 << 16) {
            let g = cold.gamma(raw);
            assert!(g.is_finite() && g > 0.0, "{raw}: {g}");
        }
        let policy = policy_19(
            table,
            PlayoutParams {
                shape_temperature: 1e-6,
                ..PlayoutParams::default()
            },
        );
        let mut rng = playout_rng(3, 0);
        let mut board = Board::new(9).unwrap();
        let mut color = Color::Black;
        let mut drawn = 0;
        for _ in 0..40 {
            let Some(p) =
                crate::playout::random_acceptable_move(&mut board, color, &mut rng, |_, _| true)
            else {
                break;
            };
            board.play_unchecked(p, color);
            color = color.opponent();
            for _ in 0..100 {
                drawn += usize::from(
                    policy
                        .draw_shape_point(&board, color, p, &mut rng)
                        .is_some(),
                );
            }
        }
        assert!(drawn > 0, "no shape was ever drawn");
    }

    /// The body of [`shape_draws_follow_the_exact_gammas`] for one policy, whose shapes
    /// should be drawn by the `learned` gammas raised to `exponent`: the positions tested
    /// (at most `positions`) and those with loose bounds seen.
    fn shape_draws_at(
        policy: &PatternPolicy,
        learned: &TemperedShapes,
        exponent: f64,
        positions: usize,
        rng: &mut PlayoutRng,
    ) -> (usize, usize) {
        let (mut tested, mut loose) = (0, 0);
        for size in [9, 13, 19] {
            let mut board = Board::new(size).unwrap();
            let mut color = Color::Black;
            for _ in 0..size * size {
                let Some(p) =
                    crate::playout::random_acceptable_move(&mut board, color, rng, |_, _| true)
                else {
                    break;
                };
                board.play_unchecked(p, color);
                color = color.opponent();
                // The exact distribution, every gamma read.
                let mut outcomes: Vec<(Option<Point>, f64)> = board
                    .neighbours_holding(p, Cell::Empty)
                    .map(|n| {
                        let q = Point::from_index(n);
                        let gamma = f64::from(learned.gamma(raw_code_3x3(&board, q, color)));
                        (Some(q), gamma.powf(exponent))
                    })
                    .collect();
                let exact_sum: f64 = outcomes.iter().map(|&(_, g)| g).sum();
                let mut bound_sum = 0.0;
                for &(q, g) in &outcomes {
                    let cells = cells_3x3(&board, q.unwrap(), color);
                    let bound = f64::from(policy.gammas.gamma_bound(cells));
                    assert!(
                        g <= bound * (1.0 + 1e-5),
                        "{q:?}: gamma {g} above its bound {bound}"
                    );
                    bound_sum += bound;
                }
                if outcomes.len() < 2 || bound_sum < exact_sum * 1.05 {
                    continue;
                }
                loose += 1;
                let reluctance = f64::from(policy.params.shape_reluctance);
                outcomes.push((None, reluctance));
                let total = exact_sum + reluctance;
                let draws = 40_000;
                let mut counts = vec![0usize; outcomes.len()];
                for _ in 0..draws {
                    let drawn = policy.draw_shape_point(&board, color, p, rng);
                    let k = outcomes.iter().position(|&(q, _)| q == drawn).unwrap();
                    counts[k] += 1;
                }
                for (&(q, w), &c) in outcomes.iter().zip(&counts) {
                    let expected = w / total;
                    let seen = c as f64 / draws as f64;
                    let sigma = (expected * (1.0 - expected) / draws as f64).sqrt();
                    assert!(
                        (seen - expected).abs() <= 5.0 * sigma + 1e-4,
                        "{q:?}: drawn {seen:.4}, exact {expected:.4} (last {p:?}) on\n{}",
                        board.to_diagram()
                    );
                }
                tested += 1;
                if tested == positions {
                    return (tested, loose);
                }
            }
        }
        (tested, loose)
    }

    /// A chain that our previous move left in atari, far from the opponent's last move, is
    /// captured when the policy captures anywhere (shapes next to the last move turned off
    /// by a huge reluctance), and only then; once the chain is out of atari the watch
    /// forgets it.
    #[test]
    fn a_chain_left_in_atari_is_captured_anywhere() {
        let board = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . O .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . X . . . . . .
             . X O O X . . . .
             . . X X . . . . .",
        )
        .unwrap();
        let g = board.geometry();
        let at = |name: &str| g.parse_point(name).unwrap();
        let (own_last, last, capture) = (at("C3"), at("H7"), at("D3"));
        let table = crate::pattern::default_table();
        let mut rng = playout_rng(3, 0);
        let mut captured = [0; 2];
        for (k, global) in [false, true].into_iter().enumerate() {
            let mut policy = policy_19(
                table,
                PlayoutParams {
                    tactics: true,
                    shape_reluctance: 1e30,
                    captures: global,
                    ..PlayoutParams::default()
                },
            );
            for _ in 0..50 {
                let mut b = board.clone();
                policy.start(Recent::new(Some(last), Some(own_last)));
                captured[k] +=
                    (policy.choose(&mut b, Color::Black, &mut rng) == Some(capture)) as usize;
            }
        }
        assert!(
            captured[0] < 10,
            "random moves hit the capture {} times",
            captured[0]
        );
        assert_eq!(captured[1], 50);
        // White escapes: the chain has two liberties and the watch drops it.
        let mut escaped = board.clone();
        escaped.play_unchecked(capture, Color::White);
        let mut policy = policy_19(
            table,
            PlayoutParams {
                tactics: false,
                shape_reluctance: 1e30,
                captures: true,
                ..PlayoutParams::default()
            },
        );
        policy.start(Recent::new(Some(last), Some(own_last)));
        policy.watch.push(at("C2").index() as u16);
        assert_eq!(policy.watch.capture(&escaped, Color::Black), None);
        assert_eq!(policy.watch.len, 0);
    }

    /// Under the rule `never` a random move never leaves its own chain, of any size, in
    /// atari without capturing, on positions where the plain random move does so; a drawn
    /// self-atari is sometimes replaced by its last liberty. Under `useful` it does so only
    /// with a self-atari that works.
    #[test]
    fn the_self_atari_rules_keep_small_chains_out_of_atari() {
        let mut rng = playout_rng(5, 0);
        let (mut plain_self_ataris, mut replaced, mut draws) = (0, 0, 0);
        let (mut useful_draws, mut kept) = (0, 0);
        for seed in 0..40 {
            // A crowded position: a seeded light game of 50 moves on 9x9.
            let mut board = Board::new(9).unwrap();
            let mut game_rng = playout_rng(seed, 7);
            let mut color = Color::Black;
            for _ in 0..50 {
                if let Some(p) =
                    random_acceptable_move(&mut board, color, &mut game_rng, |_, _| true)
                {
                    board.play_unchecked(p, color);
                }
                color = color.opponent();
            }
            for _ in 0..20 {
                let mut b = board.clone();
                if let Some(p) = random_acceptable_move(&mut b, color, &mut rng, |b, p| {
                    !is_self_atari(b, p, color, BIG_CHAIN)
                }) && is_self_atari(&board, p, color, 1)
                {
                    plain_self_ataris += 1;
                }
                let mut b = board.clone();
                let self_ataris: Vec<Point> = board
                    .empty_points()
                    .iter()
                    .map(|&i| Point::from_index(i as usize))
                    .filter(|&p| {
                        board.is_legal_non_eye(p, color) && is_self_atari(&board, p, color, 1)
                    })
                    .collect();
                if let Some(p) = random_move_without_self_atari(&mut b, color, &mut rng, false) {
                    draws += 1;
                    assert!(
                        board.is_legal_non_eye(p, color) && !is_self_atari(&board, p, color, 1),
                        "{p:?} for {color:?} on\n{}",
                        board.to_diagram()
                    );
                    replaced += self_ataris
                        .iter()
                        .any(|&q| last_liberty_after(&board, q, color) == Some(p))
                        as usize;
                }
                // Under the rule `useful`, a self-atari is played only where it works.
                let mut b = board.clone();
                if let Some(p) = random_move_without_self_atari(&mut b, color, &mut rng, true) {
                    useful_draws += 1;
                    if is_self_atari(&board, p, color, 1) {
                        assert!(
                            !is_self_atari(&board, p, color, BIG_CHAIN)
                                && self_atari_works(&board, p, color),
                            "{p:?} for {color:?} on\n{}",
                            board.to_diagram()
                        );
                        kept += 1;
                    }
                }
            }
        }
        assert!(
            plain_self_ataris > 0,
            "the positions hold no small self-atari"
        );
        assert!(draws > 700, "{draws} moves");
        assert!(replaced > 0, "no self-atari was replaced by its liberty");
        assert!(
            useful_draws > 700,
            "{useful_draws} moves under the rule useful"
        );
        eprintln!("useful self-ataris kept: {kept} of {useful_draws} moves");
    }

    /// With two-liberty ataris the policy ataris a chain the last move left with two
    /// liberties and no way to run (both escapes keep two liberties), and leaves one that
    /// can run alone.
    #[test]
    fn a_two_liberty_chain_that_cannot_run_is_put_in_atari() {
        let trapped = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . X X . . .
             . . . X O . . . .
             . . . X . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let open = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . X . . . .
             . . . X O . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let g = trapped.geometry();
        let at = |name: &str| g.parse_point(name).unwrap();
        let last = at("E5");
        let ataris = [at("E4"), at("F5")];
        let table = crate::pattern::default_table();
        let mut rng = playout_rng(9, 0);
        for (board, on, expected) in [
            (&trapped, true, true),
            (&trapped, false, false),
            (&open, true, false),
        ] {
            let mut policy = policy_19(
                table,
                PlayoutParams {
                    two_liberty_ataris: on,
                    ..PlayoutParams::default()
                },
            );
            let (hits, answers) = black_answers(&mut policy, board, last, &ataris, &mut rng);
            assert_eq!(hits == 30, expected, "on={on}: {hits} ataris of 30");
            if !on || !expected {
                assert_eq!(answers, 0, "on={on}\n{}", board.to_diagram());
            }
        }
    }

    /// Black's answers to white's `last` on `board` over 30 fresh starts of `policy`: how
    /// many were among `wanted`, and how many answered at all.
    fn black_answers(
        policy: &mut PatternPolicy,
        board: &Board,
        last: Point,
        wanted: &[Point],
        rng: &mut PlayoutRng,
    ) -> (usize, usize) {
        let (mut hits, mut answers) = (0, 0);
        for _ in 0..30 {
            policy.start(Recent::new(Some(last), None));
            let answer = policy.answer_last_move(board, Color::Black, last, rng);
            hits += answer.is_some_and(|p| wanted.contains(&p)) as usize;
            answers += answer.is_some() as usize;
        }
        (hits, answers)
    }

    /// White's last move (D2) left black's corner chain with four liberties (A4, B4, C4,
    /// B1); the white chain A2-B2 beside it has two. Black's atari at B1 keeps its stones
    /// connected, and white's extension at A1 would get no liberty: the race atari plays it.
    /// With a fifth black liberty (no white D3) the chain is not short of liberties and
    /// nothing is found.
    #[test]
    fn a_race_the_own_chain_leads_is_won_by_an_atari() {
        let race = |d3: char| {
            Board::from_diagram(&format!(
                ". . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 X X X {d3} . . . . .
                 O O X O . . . . .
                 . . X O . . . . ."
            ))
            .unwrap()
        };
        let short = race('O');
        let roomy = race('.');
        let g = short.geometry();
        let at = |name: &str| g.parse_point(name).unwrap();
        let last = at("D2");
        let table = crate::pattern::default_table();
        let mut rng = playout_rng(9, 0);
        for (board, on, expected) in [
            (&short, true, true),
            (&short, false, false),
            (&roomy, true, false),
        ] {
            let mut policy = policy_19(
                table,
                PlayoutParams {
                    race_ataris: Auto::Value(on),
                    ..PlayoutParams::default()
                },
            );
            let (hits, _) = black_answers(&mut policy, board, last, &[at("B1")], &mut rng);
            assert_eq!(
                hits == 30,
                expected,
                "on={on}: {hits} of 30\n{}",
                board.to_diagram()
            );
            if !expected {
                assert_eq!(hits, 0, "on={on}");
            }
        }
    }

    /// The race ataris of one walk match a plain reading of their rule on every chain of
    /// random 9x9 and 19x19 positions: count the chain's liberties on their own, and when
    /// there are three or four, try both liberties of every enemy neighbour chain with two.
    #[test]
    fn race_ataris_match_a_plain_reading_of_the_rule() {
        use crate::board::{GameState, Rules};
        use crate::playout::play_random_moves;
        use crate::tactics::liberties::liberties_capped;
        let reference = |board: &Board, chain: Point, color: Color| {
            let mut found = Vec::new();
            if !(3..=4).contains(&liberties_capped(board, chain, 5)) {
                return found;
            }
            let enemy = color.opponent();
            let mut seen = Vec::new();
            for s in board.chain_stones(chain) {
                for n in board.geometry().neighbors(s) {
                    let stone = Point::from_index(n);
                    if !board.cell_at(n).is(enemy) || seen.contains(&board.chain_id(stone)) {
                        continue;
                    }
                    seen.push(board.chain_id(stone));
                    if let Some((x, y)) = two_liberties(board, stone) {
                        for (m, other) in [(x, y), (y, x)] {
                            if liberties_after(board, m, color).liberties >= 2
                                && escape_liberties(board, other, m, enemy) <= 2
                                && !found.contains(&m)
                            {
                                found.push(m);
                            }
                        }
                    }
                }
            }
            found
        };
        let (mut chains, mut with_ataris) = (0, 0);
        for (size, moves) in [(9, 20), (9, 45), (9, 70), (19, 120), (19, 250)] {
            for seed in 0..12 {
                let mut state = GameState::new(size, Rules::default()).unwrap();
                play_random_moves(&mut state, moves, &mut playout_rng(seed, size as u64));
                let board = state.board();
                for p in board.geometry().points() {
                    let Some(color) = board.cell(p).color() else {
                        continue;
                    };
                    let mut found = Candidates::default();
                    race_ataris(board, p, color, &mut found);
                    let expected = reference(board, p, color);
                    assert_eq!(
                        found.points[..found.len],
                        expected[..],
                        "{color:?} chain at {p:?}\n{}",
                        board.to_diagram()
                    );
                    chains += 1;
                    with_ataris += !expected.is_empty() as usize;
                }
            }
        }
        assert!(
            with_ataris >= 20,
            "{with_ataris} of {chains} stones had race ataris"
        );
    }

    /// A ko white has just taken: black, barred from it, plays elsewhere; white answers
    /// with `white_next`; the move black then chooses, with ko retakes at `probability`.
    fn black_after_losing_a_ko(probability: f32, white_next: &str, seed: u64) -> (Point, Point) {
        let mut board = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . O X . . . .
             . . O X . X . . .
             . . . O X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let g = board.geometry();
        let at = |name: &str| g.parse_point(name).unwrap();
        // White takes the ko at E5, capturing D5; black may not retake at D5 at once.
        let take = at("E5");
        board.play(take, Color::White).unwrap();
        let ko = at("D5");
        assert_eq!(board.ko(), Some((ko, Color::Black)));
        let table = crate::pattern::default_table();
        let mut policy = policy_19(
            table,
            PlayoutParams {
                ko_retakes: probability,
                ..PlayoutParams::default()
            },
        );
        let mut rng = playout_rng(seed, 0);
        policy.start(Recent::new(Some(take), None));
        let elsewhere = policy.choose(&mut board, Color::Black, &mut rng).unwrap();
        assert_ne!(elsewhere, ko);
        board.play(elsewhere, Color::Black).unwrap();
        let next = at(white_next);
        if board.cell(next) == Cell::Empty {
            board.play(next, Color::White).unwrap();
        }
        (
            policy.choose(&mut board, Color::Black, &mut rng).unwrap(),
            ko,
        )
    }

    /// With ko retakes, the side that lost a ko retakes it at its next turn when it still
    /// captures, as often as the setting says; never when the ko was filled.
    #[test]
    fn a_lost_ko_is_retaken_at_the_set_rate() {
        for seed in 0..20 {
            let (chosen, ko) = black_after_losing_a_ko(1.0, "H8", seed);
            assert_eq!(chosen, ko, "seed {seed}");
            // White filled the ko (connected at D5): nothing to retake.
            let (chosen, ko) = black_after_losing_a_ko(1.0, "D5", seed);
            assert_ne!(chosen, ko, "seed {seed}");
        }
        let retakes = |probability: f32| {
            (0..400)
                .filter(|&seed| {
                    let (chosen, ko) = black_after_losing_a_ko(probability, "H8", seed);
                    chosen == ko
                })
                .count()
        };
        // Off, the retake comes only from a random move now and then.
        assert!(retakes(0.0) < 40, "{}", retakes(0.0));
        let half = retakes(0.5);
        assert!((160..=240).contains(&half), "{half} retakes of 400 at 0.5");
    }

    /// The fill-the-board step plays only points whose eight neighbours are empty, finds
    /// one on a wide open board nearly always with a few tries, and finds none where every
    /// empty point has a stone next to it.
    #[test]
    fn fill_board_plays_only_in_empty_areas() {
        let mut rng = playout_rng(11, 0);
        let mut board = Board::new(19).unwrap();
        let g = board.geometry();
        // Stones on a third of the board's points, in the lower rows only.
        for row in 0..9 {
            for col in 0..19 {
                if (row + col) % 3 == 0 {
                    board.play_unchecked(g.point(col, row).unwrap(), Color::Black);
                }
            }
        }
        let open = |b: &Board, p: Point| {
            b.cell(p) == Cell::Empty
                && g.neighbors(p)
                    .into_iter()
                    .chain(g.diagonals(p))
                    .all(|n| b.cell_at(n) == Cell::Empty)
        };
        let mut found = 0;
        for _ in 0..400 {
            if let Some(p) = open_area_point(&board, &mut rng, 4) {
                assert!(open(&board, p), "{p:?} is not in an empty 3x3 area");
                found += 1;
            }
        }
        // About half the empty points are open here: four tries find one 15 times in 16.
        assert!(found > 330, "found an open point only {found} times in 400");
        // A board where every empty point touches a stone: nothing to find.
        let mut crowded = Board::new(9).unwrap();
        for row in (0..9).step_by(2) {
            for col in (0..9).step_by(2) {
                crowded.play_unchecked(crowded.geometry().point(col, row).unwrap(), Color::White);
            }
        }
        for _ in 0..100 {
            assert_eq!(open_area_point(&crowded, &mut rng, 64), None);
        }
        // Through the policy: with no last move on an empty board, its moves are in open
        // areas when the step is on.
        let table = crate::pattern::default_table();
        let empty = Board::new(19).unwrap();
        let mut with_step = policy_19(
            table,
            PlayoutParams {
                tactics: false,
                fill_board: 4,
                ..PlayoutParams::default()
            },
        );
        for _ in 0..50 {
            let mut b = empty.clone();
            with_step.start(Recent::default());
            let p = with_step.choose(&mut b, Color::Black, &mut rng).unwrap();
            assert!(open(&empty, p), "{p:?} is not in an empty 3x3 area");
        }
    }

    /// A reply learnt from a won sequence is what the policy plays next time the same two
    /// moves come (no tactics around), and the two-move reply comes before the one-move one.
    #[test]
    fn the_policy_plays_a_learnt_reply() {
        let table = crate::pattern::default_table();
        let params = PlayoutParams {
            tactics: false,
            replies: true,
            race_ataris: Auto::Value(false),
            ..PlayoutParams::default()
        };
        let mut board = Board::new(9).unwrap();
        let mut policy = PatternPolicy::configured(table, &params, board.geometry());
        let g = board.geometry();
        let at = |c, r| g.point(c, r).unwrap();
        let (black_move, white_move) = (at(2, 2), at(6, 6));
        board.play_unchecked(black_move, Color::Black);
        board.play_unchecked(white_move, Color::White);
        let (two, one) = (at(4, 4), at(0, 8));
        let replies = policy.replies().unwrap();
        let index = |p: Point| p.index() as u16;
        // White replied `one` to black's `black_move` (after some other move) and won.
        replies.begin(index(at(8, 0)), index(black_move), Color::Black);
        replies.push(index(one));
        replies.learn(Some(Color::White));
        // Black replied `two` to `black_move`, `white_move` and won; then `one` to
        // `white_move` alone, in a playout that black also won.
        replies.begin(index(black_move), index(white_move), Color::Black);
        replies.push(index(two));
        replies.learn(Some(Color::Black));
        replies.begin(index(at(8, 8)), index(white_move), Color::Black);
        replies.push(index(one));
        replies.learn(Some(Color::Black));
        let mut rng = playout_rng(1, 0);
        for _ in 0..20 {
            policy.start(Recent::new(Some(white_move), Some(black_move)));
            assert_eq!(policy.choose(&mut board, Color::Black, &mut rng), Some(two));
        }
        // With `two` taken, the one-move reply.
        board.play_unchecked(two, Color::White);
        policy.start(Recent::new(Some(white_move), Some(black_move)));
        assert_eq!(policy.choose(&mut board, Color::Black, &mut rng), Some(one));
    }
}
