//! The tactical reader: whether a chain can be captured with the attacker to move
//! (`Reader::attack`) and saved with the defender to move (`Reader::defend`), and the move
//! that does it, with GNU Go's ko codes ([`Verdict`]). This module owns the capture goal
//! (when a node is decided, what a ply costs) and its move generators, and the reading
//! results the other readers share ([`Verdict`], [`Reading`]); the search itself is the
//! shared skeleton's (`super::skeleton`), as described below.
//!
//! # The search
//!
//! An AND-OR search (alpha-beta over the four values below) on scratch copies of the board,
//! one per ply, over a small set of candidate moves:
//!
//! - for the attacker: the target's liberties, the one where the defender's extension would
//!   have the fewest liberties first; with two liberties, the liberties of those liberties
//!   after which no extension of the defender would have more than two (nets); *backfilling*,
//!   the one liberty a self-atari liberty would be left with, played first; saving its
//!   own chains next to the target that are in atari (their liberty, or capturing a stone
//!   that ataris them); and with two liberties near the root ([`ROOM_PLIES`]),
//!   preparations: the liberties of the defender's chains of at most three liberties that
//!   an extension would join, and of its own chains of two liberties next to the target or
//!   a liberty (that the extension would atari);
//! - for the defender: the target's liberties; capturing the attacker's chains next to it
//!   that are in atari, and ataris on those with two liberties (for a lone stone in atari
//!   too: its capture may become a ko); capturing or ataring the attacker's chains short of
//!   liberties that touch a liberty; and with two liberties (three near the root,
//!   [`ROOM_PLIES`]), making room: the liberties of the liberties, the liberties of the
//!   friendly chains an extension would join, and capturing what ataris those chains.
//!
//! A chain with [`SAFE_LIBERTIES`] liberties counts as safe with the attacker to move, and
//! so does one with four deeper than [`FOUR_LIBERTY_PLIES`]; with the defender to move, one
//! with [`DEFENDED_LIBERTIES`] below the root. Neither side passes, a side without a legal
//! candidate loses, and a position repeated in a line is a failure of the attacker.
//! `defend` first reads the attack: when that fails the answer is a success without a move
//! (GNU Go names a move instead for chains of four liberties or fewer).
//!
//! # Depth, cut-offs and exactness
//!
//! Each ply costs one unit of depth except the forcing ones: an attacker move that leaves
//! the target in atari and the defender's answer to an atari, so that a ladder of any length
//! costs nothing ([`MAX_PLY`] still bounds a line). A node whose remaining depth cannot be
//! enough to capture the target (two units per liberty beyond the second) is cut off, and so
//! is every node once the read's node budget is spent. The side that must prove success is
//! the attacker, for `attack` and `defend` alike (a defence works when the capture cannot be
//! proved): a cut-off line counts as a failure of the attacker. So a capture is always
//! proved, and a failure of the attacker (a working defence) is *exact* when no cut-off
//! decided it. The reader deepens iteratively, one unit at a time up to
//! [`ReaderLimits::max_depth`], until the result is exact or the budget
//! ([`ReaderLimits::nodes`]) runs out; then it answers the last finished depth's result and
//! says that it is not exact.
//!
//! # Ko
//!
//! Values are kept from the side to move's point of view, on four levels: a win, a win if the
//! side takes the ko first, a win only with an extra ko threat, a loss; the opponent's value
//! maps to `3 - value` (a ko the opponent wins by taking it first is one this side needs a
//! threat to win back). A move that captures a ko caps what the line is worth to its player
//! at "takes the ko first"; a move that retakes a ko the previous move forbids, allowed once
//! per line as if after a threat answered elsewhere, caps it at "needs a threat". So a line
//! whose own working move is a ko capture gives code 2, and one whose only refutation is the
//! opponent's ko capture gives code 3; over several candidates the best code counts. This
//! is an approximation of real ko fights: after one threat no side retakes a forbidden ko
//! again in that line.
//!
//! # Memory
//!
//! A transposition table keyed by the board's Zobrist hash, the ko point, the target, the side
//! to move and whether the line's ko threat is spent stores each node's value, move, remaining
//! depth and exactness; it is allocated once with the [`Reader`], kept across reads, and
//! replaces by age and then by depth. An exact result answers any later look-up, an inexact
//! one only a look-up with no more depth to go. History and killer tables, also kept across
//! reads, order the moves. Nothing is allocated per node or per read.

use crate::board::{Board, Cell, Color, Geometry, OtherLiberties, Point};

use super::liberties::{is_self_atari, liberties_after, liberties_capped, liberties_into};
use super::skeleton::{
    At, Candidates, Goal, KO_FIRST, KO_WITH_THREAT, LOSS, NO_POINT, Node, ReaderOf, WIN, mix,
};

/// Liberties at which a chain is safe with the attacker to move.
pub const SAFE_LIBERTIES: usize = 5;
/// Plies from the root beyond which a chain of four liberties with the attacker to move
/// counts as safe.
pub const FOUR_LIBERTY_PLIES: usize = 7;
/// Liberties at which a chain is safe with the defender to move (below the root).
pub const DEFENDED_LIBERTIES: usize = 4;
/// Plies up to which a defender with three liberties also tries to make room (the
/// liberties of its liberties and of the chains an extension joins; with two liberties it
/// always does), and an attacker against two liberties tries preparation moves.
pub const ROOM_PLIES: usize = 2;
/// The longest line read, in plies (free ones included).
pub const MAX_PLY: usize = 100;
/// Liberties of the target collected per node: more than any node reads.
const MAX_TARGET_LIBERTIES: usize = 8;

/// The outcome of a read, in GNU Go's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// It fails (GNU Go's code 0).
    Fails,
    /// It works whatever the opponent does (code 1).
    Works,
    /// It works if the reading side takes a ko first (code 2).
    Ko,
    /// It works only if the reading side has an extra ko threat (code 3).
    KoNeedsThreat,
}

impl Verdict {
    /// GNU Go's code: 0 fails, 1 works, 2 works by taking a ko, 3 needs a ko threat.
    pub fn gtp_code(self) -> u8 {
        match self {
            Verdict::Fails => 0,
            Verdict::Works => 1,
            Verdict::Ko => 2,
            Verdict::KoNeedsThreat => 3,
        }
    }

    /// Whether it works at all (any code but 0).
    pub fn succeeds(self) -> bool {
        self != Verdict::Fails
    }

    pub(super) fn from_value(value: u8) -> Verdict {
        match value {
            WIN => Verdict::Works,
            KO_FIRST => Verdict::Ko,
            KO_WITH_THREAT => Verdict::KoNeedsThreat,
            _ => Verdict::Fails,
        }
    }
}

/// What a read found: the verdict, the move that achieves it (`None` for a failure, and for
/// a `defend` of a chain that the attacker cannot capture: no move is needed), and whether
/// the result is exact (no cut-off by depth or budget decided it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub verdict: Verdict,
    pub point: Option<Point>,
    pub exact: bool,
}

impl Reading {
    /// A failure, exactly read.
    pub(super) const FAILS: Reading = Reading {
        verdict: Verdict::Fails,
        point: None,
        exact: true,
    };

    /// A success that needs no move (the opponent's read failed), exact when that failure
    /// was.
    pub(super) fn no_move_needed(exact: bool) -> Reading {
        Reading {
            verdict: Verdict::Works,
            point: None,
            exact,
        }
    }

    /// The reading of a root node: its verdict, its move when it succeeds (no move for a
    /// pass), its exactness.
    pub(super) fn from_node(node: Node) -> Reading {
        let verdict = Verdict::from_value(node.value);
        Reading {
            verdict,
            point: node.move_point().filter(|_| verdict.succeeds()),
            exact: node.exact,
        }
    }

    /// The read in GNU Go's reply format (`attack`, `defend`, `owl_attack`, `owl_defend`):
    /// `0` when it fails, else its code and the move (`PASS` when none is needed).
    pub fn gtp_reply(self, geometry: Geometry) -> String {
        match (self.verdict.succeeds(), self.point) {
            (false, _) => "0".into(),
            (true, None) => format!("{} PASS", self.verdict.gtp_code()),
            (true, Some(p)) => format!("{} {}", self.verdict.gtp_code(), geometry.format_point(p)),
        }
    }
}

/// A chain's tactical status (`Reader::status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainStatus {
    /// Its opponent cannot capture it, even moving first (or the reader could not prove it).
    Safe,
    /// The side to move decides: `attack` captures it, `defence` saves it.
    Unsettled { attack: Reading, defence: Reading },
    /// Captured whoever moves first; `attack` is the capturing move.
    Lost { attack: Reading },
}

/// How far one read may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReaderLimits {
    /// Nodes one read may visit, over all its depths.
    pub nodes: u64,
    /// The deepest iteration, in units of depth (forcing plies are free).
    pub max_depth: u32,
}

impl Default for ReaderLimits {
    fn default() -> ReaderLimits {
        ReaderLimits {
            nodes: 5_000,
            max_depth: 12,
        }
    }
}

impl ReaderLimits {
    /// For a question asked on its own, as GTP `attack` and `defend` ask it: ten times the
    /// default's nodes and a deeper limit. Most reads end far sooner; one that uses it all
    /// takes a few tens of milliseconds, where the default's budget serves reads made by
    /// the thousand (the judge's, the owl's and the race reader's questions).
    pub const THOROUGH: ReaderLimits = ReaderLimits {
        nodes: 50_000,
        max_depth: 16,
    };
}

/// Counters over a reader's life: `attack` and `defend` calls (a `defend`, which reads the
/// attack first, counts once), nodes, table look-ups and hits.
pub use super::skeleton::ReadStats as ReaderStats;

/// The liberties of the chain `color` would form by playing the empty point `p`, counted up
/// to `cap` (at most [`MAX_TARGET_LIBERTIES`]): its empty neighbours, the neighbouring
/// enemy stones it would capture (each point one liberty, as [`liberties_after`] counts),
/// and the other liberties of the friendly chains it joins. Walks those chains.
pub(super) fn liberties_after_move(board: &Board, p: Point, color: Color, cap: usize) -> usize {
    let mut libs = [0u16; MAX_TARGET_LIBERTIES];
    let cap = cap.min(MAX_TARGET_LIBERTIES);
    let mut len = 0;
    let mut add = |x: usize, len: &mut usize| {
        if *len < cap && x != p.index() && !libs[..*len].contains(&(x as u16)) {
            libs[*len] = x as u16;
            *len += 1;
        }
    };
    let geometry = board.geometry();
    for n in geometry.neighbors(p) {
        let cell = board.cell_at(n);
        if cell == Cell::Empty
            || (cell.is(color.opponent()) && board.in_atari(Point::from_index(n)))
        {
            add(n, &mut len);
        }
    }
    for n in geometry.neighbors(p) {
        if len >= cap {
            break;
        }
        if board.cell_at(n).is(color) {
            'walk: for s in board.chain_stones(Point::from_index(n)) {
                for q in geometry.neighbors(s) {
                    if board.cell_at(q) == Cell::Empty {
                        add(q, &mut len);
                        if len >= cap {
                            break 'walk;
                        }
                    }
                }
            }
        }
    }
    len
}

/// The one liberty `color` would be left with by playing the empty point `p`, when the move
/// is a self-atari that captures nothing (see [`is_self_atari`]).
pub(super) fn self_atari_liberty(board: &Board, p: Point, color: Color) -> Option<Point> {
    if !is_self_atari(board, p, color, 1) {
        return None;
    }
    let mut liberty = None;
    for n in board.geometry().neighbors(p) {
        let other = match board.cell_at(n) {
            Cell::Empty => Point::from_index(n),
            cell if cell.is(color) => match board.liberties_besides(Point::from_index(n), p) {
                OtherLiberties::One(q) => q,
                _ => continue,
            },
            _ => continue,
        };
        match liberty {
            Some(l) if l != other => return None,
            _ => liberty = Some(other),
        }
    }
    liberty
}

/// The reader's goal: capture the chain through `target`, of the attacker's opponent.
pub struct Capture {
    target: Point,
}

impl Goal for Capture {
    type Limits = ReaderLimits;
    /// The target's liberties, counted up to [`SAFE_LIBERTIES`].
    type Facts = usize;
    const MAX_PLY: usize = MAX_PLY;
    /// Killers and history: the same refutations recur across the lines of a capture.
    const ORDERS_BY_HISTORY: bool = true;
    /// Neither side passes.
    const DEFENDER_PASSES: bool = false;
    const KEYS: [u64; 2] = [0x5a1d_e70f_0a77_ac4b, 0x7e2e_a75f_3d1c_9b06];

    fn new(_limits: &ReaderLimits) -> Capture {
        Capture {
            target: Point::from_index(0),
        }
    }

    fn before_table(&mut self, at: At<'_>, _nodes: &mut u64) -> Result<usize, Node> {
        let (board, target) = (at.board, self.target);
        if !board.cell(target).is(at.attacker.opponent()) {
            // Captured by the attacker's last move.
            return Err(at.decided(true, true));
        }
        let libs = liberties_capped(board, target, SAFE_LIBERTIES);
        let safe = if at.attacker_to_move {
            libs >= SAFE_LIBERTIES || (libs == 4 && at.ply > FOUR_LIBERTY_PLIES)
        } else {
            libs >= DEFENDED_LIBERTIES && at.ply > 0
        };
        if safe {
            return Err(at.decided(false, true));
        }
        // The least depth a capture can take from here: the attacker's non-atari fills of
        // the liberties beyond the second and the defender's answers cost one each.
        let need = match (at.attacker_to_move, libs) {
            (true, l) => 2 * l.saturating_sub(2),
            (false, 1) => 0,
            (false, l) => 2 * l - 3,
        } as i32;
        if at.depth < need || at.ply + 1 >= MAX_PLY {
            return Err(Node::cut(at.attacker_to_move));
        }
        Ok(libs)
    }

    /// The target and the board size.
    fn key(&self, board: &Board) -> u64 {
        mix((self.target.index() as u64) << 8 | board.size() as u64)
    }

    fn candidates(&mut self, at: At<'_>, libs: usize, list: &mut Candidates, _nodes: &mut u64) {
        let mut buffer = [0u16; MAX_TARGET_LIBERTIES];
        let n = liberties_into(at.board, self.target, &mut buffer);
        if at.attacker_to_move {
            self.attack_moves(at, libs, &buffer[..n], list);
        } else {
            self.defence_moves(at, libs, &buffer[..n], list);
        }
    }

    /// Forcing plies are free: an attacker move that leaves the target in atari, and the
    /// defender's answer to an atari.
    fn child_depth(&self, at: At<'_>, libs: usize, next: &Board) -> i32 {
        let free = if at.attacker_to_move {
            next.cell(self.target).is(at.attacker.opponent()) && next.in_atari(self.target)
        } else {
            libs == 1
        };
        at.depth - i32::from(!free)
    }
}

/// The tactical reader (see the module documentation): its transposition table, its scratch
/// boards and move lists, and its move-ordering tables, all allocated once.
pub type Reader = ReaderOf<Capture>;

impl ReaderOf<Capture> {
    /// Table size of a reader nested in another reader (the owl's and the race reader's
    /// questions about single chains): 2^12 entries.
    pub const NESTED_TABLE_BITS: u32 = 12;

    /// A tactical reader nested in another reader: `nodes` per read, the default depth,
    /// a table of `Reader::NESTED_TABLE_BITS`.
    pub fn nested(nodes: u64) -> Reader {
        Reader::with_limits(
            ReaderLimits {
                nodes,
                ..ReaderLimits::default()
            },
            Reader::NESTED_TABLE_BITS,
        )
    }

    /// Whether the chain through the stone at `target` can be captured with its opponent to
    /// move, and the capturing move. An empty `target` fails.
    pub fn attack(&mut self, board: &Board, target: Point) -> Reading {
        self.scratch.stats.reads += 1;
        self.read_attack(board, target)
    }

    /// `Reader::attack` without counting a read.
    fn read_attack(&mut self, board: &Board, target: Point) -> Reading {
        let Some(defender) = board.cell(target).color() else {
            return Reading::FAILS;
        };
        self.set_up(board, target, defender.opponent());
        if liberties_capped(board, target, SAFE_LIBERTIES) >= SAFE_LIBERTIES {
            return Reading::FAILS;
        }
        self.read(true)
    }

    /// Whether the chain through the stone at `target` can be saved with its owner to move,
    /// and the saving move: `Works` without a move (a pass) when the attack fails anyway.
    /// An empty `target` fails.
    pub fn defend(&mut self, board: &Board, target: Point) -> Reading {
        self.scratch.stats.reads += 1;
        if board.cell(target).color().is_none() {
            return Reading::FAILS;
        }
        let attack = self.read_attack(board, target);
        if !attack.verdict.succeeds() {
            return Reading::no_move_needed(attack.exact);
        }
        let attacker = self.scratch.attacker();
        self.set_up(board, target, attacker);
        self.read(false)
    }

    /// The chain through the stone at `target` read both ways: whether its opponent to move
    /// captures it, and if so whether its owner to move saves it.
    pub fn status(&mut self, board: &Board, target: Point) -> ChainStatus {
        let attack = self.attack(board, target);
        if !attack.verdict.succeeds() {
            return ChainStatus::Safe;
        }
        let defence = self.defend(board, target);
        if defence.verdict.succeeds() {
            ChainStatus::Unsettled { attack, defence }
        } else {
            ChainStatus::Lost { attack }
        }
    }

    /// Sets up a read: the root board, the target, the counters.
    fn set_up(&mut self, board: &Board, target: Point, attacker: Color) {
        self.begin(board, attacker, self.limits.nodes);
        self.goal = Capture { target };
        self.scratch.fade_history();
    }

    /// Iterative deepening from the root board until the result is exact, the depth limit
    /// or the node budget; a read that finishes no depth fails.
    fn read(&mut self, attacker_to_move: bool) -> Reading {
        let fallback = Node {
            value: LOSS,
            exact: false,
            point: NO_POINT,
        };
        let depths = 0..=self.limits.max_depth;
        Reading::from_node(self.deepen(attacker_to_move, depths, fallback))
    }
}

impl Capture {
    /// The attacker's candidates against the target, which has `libs` liberties (1 to 4),
    /// `liberties`, with their ordering scores.
    fn attack_moves(&self, at: At<'_>, libs: usize, liberties: &[u16], list: &mut Candidates) {
        if libs == 1 {
            list.add(liberties[0], 10_000);
            return;
        }
        let (board, target, attacker) = (at.board, self.target, at.attacker);
        let defender = attacker.opponent();
        let geometry = board.geometry();
        // The liberties the defender's extension on each liberty would have.
        let mut extensions = [0usize; MAX_TARGET_LIBERTIES];
        for (k, &x) in liberties.iter().enumerate() {
            let xp = Point::from_index(x as usize);
            // Fill first where the defender's extension would have the fewest liberties.
            extensions[k] = liberties_after_move(board, xp, defender, 5);
            let own = liberties_after(board, xp, attacker);
            let mut score = 1000 - 150 * extensions[k] as i32 + 50 * own.liberties as i32;
            if own.liberties <= 1 && !own.captures {
                // A self-atari: still a candidate (throw-ins, snapbacks), and its liberty is the
                // backfilling move.
                score -= 400;
                if let Some(y) = self_atari_liberty(board, xp, attacker) {
                    list.add(y.index() as u16, 600);
                }
            }
            list.add(x, score);
        }
        if libs == 2 {
            // Nets: a liberty `y` of a liberty, when after it no extension of the defender would
            // have more than two liberties (`y` takes one from the extensions next to it).
            for &x in liberties {
                for y in geometry.neighbors(Point::from_index(x as usize)) {
                    if board.cell_at(y) != Cell::Empty || liberties.contains(&(y as u16)) {
                        continue;
                    }
                    let yp = Point::from_index(y);
                    let holds = liberties.iter().zip(&extensions).all(|(&z, &e)| {
                        let next_to_y = geometry.neighbors(yp).contains(&(z as usize));
                        e - usize::from(next_to_y) <= 2
                    });
                    if holds {
                        let own = liberties_after(board, yp, attacker);
                        list.add(y as u16, 300 + 50 * own.liberties as i32);
                    }
                }
            }
            if at.ply <= ROOM_PLIES {
                escape_cuts(board, target, attacker, liberties, list);
            }
        }
        // The attacker's own chains next to the target in atari: extend, or capture a stone
        // that ataris them.
        let (chains, count) = neighbour_chains(board, target, attacker);
        for &np in &chains[..count] {
            let Some(l) = board.atari_liberty(np) else {
                continue;
            };
            list.add(l.index() as u16, 700);
            for t in board.chain_stones(np) {
                for q in geometry.neighbors(t) {
                    let qp = Point::from_index(q);
                    if board.cell_at(q).is(defender)
                        && let Some(c) = board.atari_liberty(qp)
                    {
                        list.add(c.index() as u16, 800);
                    }
                }
            }
        }
    }

    /// The defender's candidates for the target, which has `libs` liberties, `liberties`, with
    /// their ordering scores.
    fn defence_moves(&self, at: At<'_>, libs: usize, liberties: &[u16], list: &mut Candidates) {
        let (board, target, attacker) = (at.board, self.target, at.attacker);
        let defender = attacker.opponent();
        let geometry = board.geometry();
        for &x in liberties {
            let xp = Point::from_index(x as usize);
            let gained = liberties_after_move(board, xp, defender, 5) as i32;
            let mut score = 1000 + 200 * gained;
            if gained <= 1 {
                score -= 600;
            }
            list.add(x, score);
        }
        if libs == 2 || (libs == 3 && at.ply <= ROOM_PLIES) {
            // Making room: the liberties of the liberties, and the liberties of the chains an
            // extension would join.
            let target_id = board.chain_id(target);
            for &x in liberties {
                for y in geometry.neighbors(Point::from_index(x as usize)) {
                    let cell = board.cell_at(y);
                    if cell == Cell::Empty && !liberties.contains(&(y as u16)) {
                        let own = liberties_after(board, Point::from_index(y), defender);
                        if own.liberties >= 2 {
                            list.add(y as u16, 100 + 50 * own.liberties as i32);
                        }
                    } else if cell.is(defender) && board.chain_id(Point::from_index(y)) != target_id
                    {
                        let yp = Point::from_index(y);
                        let mut more = [0u16; 4];
                        let k = liberties_into(board, yp, &mut more);
                        for &z in &more[..k] {
                            if !liberties.contains(&z) {
                                list.add(z, 150);
                            }
                        }
                        // Capturing what ataris that chain gives the extension more liberties.
                        for s in board.chain_stones(yp) {
                            for q in geometry.neighbors(s) {
                                if board.cell_at(q).is(attacker)
                                    && let Some(c) = board.atari_liberty(Point::from_index(q))
                                {
                                    list.add(c.index() as u16, 900);
                                }
                            }
                        }
                    }
                }
            }
        }
        if libs >= 2 {
            // Counter-attacks next to the liberties: capturing or ataring the attacker's chains
            // that touch a liberty and are short of liberties themselves.
            for &x in liberties {
                for y in geometry.neighbors(Point::from_index(x as usize)) {
                    if !board.cell_at(y).is(attacker) {
                        continue;
                    }
                    let yp = Point::from_index(y);
                    if let Some(c) = board.atari_liberty(yp) {
                        list.add(c.index() as u16, 900);
                        continue;
                    }
                    let mut two = [0u16; 3];
                    if liberties_into(board, yp, &mut two) == 2 {
                        for &z in &two[..2] {
                            list.add(z, 250);
                        }
                    }
                }
            }
        }
        // Capture the attacker's neighbouring chains in atari; atari those with two liberties.
        let (chains, count) = neighbour_chains(board, target, attacker);
        for &np in &chains[..count] {
            if let Some(l) = board.atari_liberty(np) {
                list.add(
                    l.index() as u16,
                    2000 + 100 * board.chain_len(np).min(10) as i32,
                );
            } else if libs >= 2 || board.chain_len(target) == 1 {
                // In atari, a counter-atari can still turn the capture of a lone stone into
                // a ko.
                let mut two = [0u16; 3];
                if liberties_into(board, np, &mut two) == 2 {
                    for &x in &two[..2] {
                        let gained =
                            liberties_after_move(board, Point::from_index(x as usize), defender, 3);
                        let base = if libs >= 2 { 400 } else { 0 };
                        list.add(x, base + 100 * gained as i32);
                    }
                }
            }
        }
    }
}

/// The attacker's preparations against a target of two `liberties`: taking a liberty from
/// the defender's chains an extension would join (those next to a liberty, with at most
/// three liberties, whose extra liberties would let the target out), and shoring up its
/// own chains of two liberties next to a liberty or the target (the defender's extension
/// would atari them, and filling that liberty would be a self-atari). Moves that are
/// self-ataris capturing nothing are left out.
fn escape_cuts(
    board: &Board,
    target: Point,
    attacker: Color,
    liberties: &[u16],
    list: &mut Candidates,
) {
    let geometry = board.geometry();
    let target_id = board.chain_id(target);
    let add_unless_self_atari = |z: u16, score: i32, list: &mut Candidates| {
        if liberties.contains(&z) {
            return;
        }
        let own = liberties_after(board, Point::from_index(z as usize), attacker);
        if own.liberties >= 2 || own.captures {
            list.add(z, score + 25 * own.liberties.min(3) as i32);
        }
    };
    // Each chain once: at most 8 next to the two liberties, 16 next to the target.
    let mut seen = [usize::MAX; 24];
    let mut n_seen = 0;
    let mut consider = |p: Point, owner: Color, list: &mut Candidates| {
        let id = board.chain_id(p);
        if id == target_id || seen[..n_seen].contains(&id) || n_seen == seen.len() {
            return;
        }
        seen[n_seen] = id;
        n_seen += 1;
        let mut more = [0u16; 4];
        let k = liberties_into(board, p, &mut more);
        if owner == attacker {
            if k == 2 {
                for &z in &more[..k] {
                    add_unless_self_atari(z, 250, list);
                }
            }
        } else if k <= 3 {
            for &z in &more[..k] {
                add_unless_self_atari(z, 200, list);
            }
        }
    };
    for &x in liberties {
        for y in geometry.neighbors(Point::from_index(x as usize)) {
            if let Some(owner) = board.cell_at(y).color() {
                consider(Point::from_index(y), owner, list);
            }
        }
    }
    let (chains, count) = neighbour_chains(board, target, attacker);
    for &np in &chains[..count] {
        consider(np, attacker, list);
    }
}

/// One stone of each distinct chain of `color` next to the chain through `target`, in the
/// order the target's stones meet them, and how many (at most 16).
pub fn neighbour_chains(board: &Board, target: Point, color: Color) -> ([Point; 16], usize) {
    let geometry = board.geometry();
    let mut chains = [target; 16];
    let mut ids = [0usize; 16];
    let mut count = 0;
    for s in board.chain_stones(target) {
        for n in geometry.neighbors(s) {
            if !board.cell_at(n).is(color) {
                continue;
            }
            let np = Point::from_index(n);
            let id = board.chain_id(np);
            if ids[..count].contains(&id) || count == chains.len() {
                continue;
            }
            chains[count] = np;
            ids[count] = id;
            count += 1;
        }
    }
    (chains, count)
}

#[cfg(test)]
mod tests;
