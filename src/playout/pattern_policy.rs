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
use crate::tactics::liberties::{
    SmallSet, is_nakade_sacrifice, is_self_atari, liberties_after, self_atari_works,
};

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
                SelfAtariRule::Small => {
                    let sacrifices = self.params.nakade_sacrifice;
                    random_acceptable_move(board, color, rng, |b, p| {
                        !is_self_atari(b, p, color, BIG_CHAIN)
                            || (sacrifices && is_nakade_sacrifice(b, p, color))
                    })
                }
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
mod tests;
