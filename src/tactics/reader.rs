//! The tactical reader: whether a chain can be captured with the attacker to move
//! ([`Reader::attack`]) and saved with the defender to move ([`Reader::defend`]), and the move
//! that does it, with GNU Go's ko codes ([`Verdict`]).
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

use crate::board::{Board, Cell, Color, Geometry, MAX_SIZE, OtherLiberties, Point};

use super::liberties::{is_self_atari, liberties_after, liberties_capped, liberties_into};

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
/// Candidate moves kept per node.
const MAX_CANDIDATES: usize = 40;
/// Slots of the per-point tables: at least every padded cell index of the largest board.
const SLOTS: usize = 1024;
/// Liberties of the target collected per node: more than any node reads.
const MAX_TARGET_LIBERTIES: usize = 8;
/// No move (a padded index no point has).
const NO_POINT: u16 = 0;

/// Node values, from the side to move's point of view.
pub(super) const LOSS: u8 = 0;
pub(super) const KO_WITH_THREAT: u8 = 1;
pub(super) const KO_FIRST: u8 = 2;
pub(super) const WIN: u8 = 3;

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

/// A chain's tactical status ([`Reader::status`]).
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

/// Counters over a reader's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReaderStats {
    /// Reads answered: `attack` and `defend` calls (a `defend`, which reads the attack first,
    /// counts once).
    pub reads: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// Transposition-table look-ups and the ones that answered.
    pub probes: u64,
    pub hits: u64,
}

/// One node's result: its value for the side to move, whether it is exact, and its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Node {
    pub(super) value: u8,
    pub(super) exact: bool,
    pub(super) point: u16,
}

/// The best of a node's children so far, for the reader and the race reader alike.
/// Cut-offs count against the attacker: its values are lower bounds, and `open` is the most
/// an inexact child could really be worth. The defender's are upper bounds: its best is
/// exact when an exact child reaches it.
pub(super) struct BestChild {
    pub(super) node: Node,
    open: u8,
    attacker_to_move: bool,
}

impl BestChild {
    pub(super) fn new(attacker_to_move: bool) -> BestChild {
        BestChild {
            node: Node {
                value: LOSS,
                exact: true,
                point: NO_POINT,
            },
            open: LOSS,
            attacker_to_move,
        }
    }

    /// Whether a move whose value is capped at `cap` cannot improve on the best (nor make
    /// an inexact best of the defender exact: the caps only bind ko lines).
    pub(super) fn cannot_improve(&self, cap: u8) -> bool {
        cap < self.node.value || (cap == self.node.value && self.node.exact)
    }

    /// Takes in the child reached by move `m`, capped at `cap`; true when the node is won
    /// and the other moves need no reading.
    pub(super) fn add(&mut self, m: u16, cap: u8, child: Node) -> bool {
        let value = cap.min(WIN - child.value);
        let best = &mut self.node;
        if self.attacker_to_move {
            if !child.exact {
                self.open = self.open.max(cap);
            }
            if value > best.value {
                best.value = value;
                best.point = m;
            }
        } else if value > best.value {
            *best = Node {
                value,
                exact: child.exact,
                point: m,
            };
        } else if value == best.value && child.exact && !best.exact {
            best.exact = true;
            best.point = m;
        }
        best.value == WIN
    }

    /// The node's result once its children are in, stored in `table` under `key` for
    /// `depth` at `age`.
    pub(super) fn finish(self, table: &mut Table, key: u64, depth: u8, age: u8) -> Node {
        let mut best = self.node;
        if self.attacker_to_move {
            best.exact = best.value >= self.open;
        }
        table.store(
            Entry {
                key,
                point: best.point,
                value: best.value,
                depth,
                flags: ENTRY_USED | if best.exact { ENTRY_EXACT } else { 0 },
                age,
            },
            age,
        );
        best
    }
}

/// Flags of a table entry.
pub(super) const ENTRY_EXACT: u8 = 1;
pub(super) const ENTRY_USED: u8 = 2;

/// One transposition-table entry.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) point: u16,
    pub(super) value: u8,
    pub(super) depth: u8,
    pub(super) flags: u8,
    pub(super) age: u8,
}

impl Entry {
    /// How much the entry is worth keeping: exact results beat any depth.
    fn weight(&self) -> u32 {
        if self.flags & ENTRY_EXACT != 0 {
            u32::from(u8::MAX) + 1
        } else {
            u32::from(self.depth)
        }
    }
}

/// The transposition table: buckets of two entries at `key & mask` and its neighbour.
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(1, 28);
        Table {
            entries: vec![Entry::default(); len],
            mask: len - 1,
        }
    }

    /// A stored result usable for a node read to `depth`: an exact one, or one read at
    /// least as deep (a deeper read only tightens the bound its cut-offs leave).
    pub(super) fn probe(&self, key: u64, depth: u8) -> Option<Entry> {
        let i = key as usize & self.mask;
        [i, i ^ 1].into_iter().map(|j| self.entries[j]).find(|e| {
            e.flags & ENTRY_USED != 0
                && e.key == key
                && (e.flags & ENTRY_EXACT != 0 || e.depth >= depth)
        })
    }

    /// Stores `entry` in its bucket: over the same key, else over an empty slot, else over
    /// the entry of an older read, else over the shallower one.
    pub(super) fn store(&mut self, entry: Entry, age: u8) {
        let i = entry.key as usize & self.mask;
        let (a, b) = (self.entries[i], self.entries[i ^ 1]);
        let slot = if a.flags & ENTRY_USED == 0 || a.key == entry.key {
            i
        } else if b.flags & ENTRY_USED == 0 || b.key == entry.key {
            i ^ 1
        } else if (a.age == age) != (b.age == age) {
            if a.age == age { i ^ 1 } else { i }
        } else if a.weight() <= b.weight() {
            i
        } else {
            i ^ 1
        };
        let old = self.entries[slot];
        // Keep an exact result over an inexact one for the same node.
        if old.flags & ENTRY_USED != 0
            && old.key == entry.key
            && old.flags & ENTRY_EXACT != 0
            && entry.flags & ENTRY_EXACT == 0
        {
            return;
        }
        self.entries[slot] = entry;
    }

    pub(super) fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}

/// The working state every reader of this module searches with, allocated once: the
/// transposition table and the age its entries get, one scratch board, candidate list and
/// table key per ply, and the node count of the read in progress.
pub(super) struct Scratch {
    pub(super) table: Table,
    /// Read counter modulo 256, the age of the table entries a read stores.
    pub(super) age: u8,
    /// One scratch board per ply.
    pub(super) boards: Vec<Board>,
    /// One candidate list per ply.
    pub(super) candidates: Vec<Candidates>,
    /// The table keys of the nodes on the current line, by ply.
    pub(super) path: Vec<u64>,
    /// Nodes of the read in progress.
    pub(super) nodes: u64,
    /// Whether the read in progress ran out of nodes.
    pub(super) aborted: bool,
}

impl Scratch {
    /// Scratch for lines of up to `max_ply` plies and a table of `2^table_bits` entries.
    pub(super) fn new(table_bits: u32, max_ply: usize) -> Scratch {
        let board = Board::new(MAX_SIZE).expect("the largest size is valid");
        Scratch {
            table: Table::new(table_bits),
            age: 0,
            boards: vec![board; max_ply + 1],
            candidates: vec![Candidates::EMPTY; max_ply + 1],
            path: vec![0; max_ply + 1],
            nodes: 0,
            aborted: false,
        }
    }

    /// Starts a read of `board`: a new age, `board` at ply 0, no nodes counted yet.
    pub(super) fn begin(&mut self, board: &Board) {
        self.age = self.age.wrapping_add(1);
        self.boards[0].copy_from(board);
        self.nodes = 0;
        self.aborted = false;
    }

    /// Records `key` as the node at `ply` of `path` (a [`Scratch`]'s, taken apart so that
    /// its boards may stay borrowed); true when the same position with the same side to
    /// move stands earlier on the line (a sequence that goes round in a circle).
    pub(super) fn repeats(path: &mut [u64], ply: usize, key: u64) -> bool {
        path[ply] = key;
        path[..ply]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }
}

/// A candidate move and its ordering score.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Candidate {
    pub(super) point: u16,
    pub(super) score: i32,
}

/// The candidates of one node, at most [`MAX_CANDIDATES`], without duplicates.
#[derive(Clone, Copy)]
pub(super) struct Candidates {
    pub(super) items: [Candidate; MAX_CANDIDATES],
    pub(super) len: usize,
}

impl Candidates {
    pub(super) const EMPTY: Candidates = Candidates {
        items: [Candidate {
            point: NO_POINT,
            score: 0,
        }; MAX_CANDIDATES],
        len: 0,
    };

    /// Adds `point` with `score`, or raises the score of a point already there.
    pub(super) fn add(&mut self, point: u16, score: i32) {
        if let Some(c) = self.items[..self.len].iter_mut().find(|c| c.point == point) {
            c.score = c.score.max(score);
        } else if self.len < MAX_CANDIDATES {
            self.items[self.len] = Candidate { point, score };
            self.len += 1;
        }
    }

    /// Sorts by score, best first (insertion sort: the lists are short).
    pub(super) fn sort(&mut self) {
        for i in 1..self.len {
            let c = self.items[i];
            let mut j = i;
            while j > 0 && self.items[j - 1].score < c.score {
                self.items[j] = self.items[j - 1];
                j -= 1;
            }
            self.items[j] = c;
        }
    }
}

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

/// A 64-bit mixer (splitmix64's finaliser) for the table keys' extra terms.
pub(super) fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const KEY_ATTACKER_TO_MOVE: u64 = 0x5a1d_e70f_0a77_ac4b;
const KEY_THREAT_SPENT: u64 = 0x7e2e_a75f_3d1c_9b06;

/// The table key of a node: the stones' Zobrist hash, the board size, the ko point and the
/// colour it binds, the target, the side to move and whether the ko threat is spent.
fn node_key(board: &Board, target: Point, attacker_to_move: bool, threat_spent: bool) -> u64 {
    let mut key = board.hash() ^ mix((target.index() as u64) << 8 | board.size() as u64);
    if let Some((p, color)) = board.ko() {
        key ^= mix(0x6b6f_0000_0000 | (p.index() as u64) << 1 | color.index() as u64);
    }
    if attacker_to_move {
        key ^= KEY_ATTACKER_TO_MOVE;
    }
    if threat_spent {
        key ^= KEY_THREAT_SPENT;
    }
    key
}

/// The tactical reader (see the module documentation): its transposition table, its scratch
/// boards and move lists, and its move-ordering tables, all allocated once.
pub struct Reader {
    limits: ReaderLimits,
    scratch: Scratch,
    /// Two killer moves per ply.
    killers: Vec<[u16; 2]>,
    /// History scores per colour and point.
    history: Vec<u32>,
    stats: ReaderStats,
    // The read in progress.
    target: Point,
    attacker: Color,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::new()
    }
}

impl Reader {
    /// Default table size: 2^16 entries (1 MiB).
    pub const DEFAULT_TABLE_BITS: u32 = 16;

    /// A reader with the default limits and table size.
    pub fn new() -> Reader {
        Reader::with_limits(ReaderLimits::default(), Reader::DEFAULT_TABLE_BITS)
    }

    /// A reader with `limits` and a table of `2^table_bits` entries.
    pub fn with_limits(limits: ReaderLimits, table_bits: u32) -> Reader {
        Reader {
            limits,
            scratch: Scratch::new(table_bits, MAX_PLY),
            killers: vec![[NO_POINT; 2]; MAX_PLY + 1],
            history: vec![0; 2 * SLOTS],
            stats: ReaderStats::default(),
            target: Point::from_index(0),
            attacker: Color::Black,
        }
    }

    /// Table size of a reader nested in another reader (the owl's and the race reader's
    /// questions about single chains): 2^12 entries.
    pub const NESTED_TABLE_BITS: u32 = 12;

    /// A tactical reader nested in another reader: `nodes` per read, the default depth,
    /// a table of [`Reader::NESTED_TABLE_BITS`].
    pub fn nested(nodes: u64) -> Reader {
        Reader::with_limits(
            ReaderLimits {
                nodes,
                ..ReaderLimits::default()
            },
            Reader::NESTED_TABLE_BITS,
        )
    }

    /// The limits each read runs under.
    pub fn limits(&self) -> ReaderLimits {
        self.limits
    }

    /// Changes the limits of later reads.
    pub fn set_limits(&mut self, limits: ReaderLimits) {
        self.limits = limits;
    }

    /// Counters since the reader was made.
    pub fn stats(&self) -> ReaderStats {
        self.stats
    }

    /// Forgets every stored result and the move-ordering tables.
    pub fn clear(&mut self) {
        self.scratch.table.clear();
        self.history.fill(0);
        self.killers.fill([NO_POINT; 2]);
    }

    /// Whether the chain through the stone at `target` can be captured with its opponent to
    /// move, and the capturing move. An empty `target` fails.
    pub fn attack(&mut self, board: &Board, target: Point) -> Reading {
        self.stats.reads += 1;
        self.read_attack(board, target)
    }

    /// [`Reader::attack`] without counting a read.
    fn read_attack(&mut self, board: &Board, target: Point) -> Reading {
        let Some(defender) = board.cell(target).color() else {
            return Reading {
                verdict: Verdict::Fails,
                point: None,
                exact: true,
            };
        };
        self.begin(board, target, defender.opponent());
        if liberties_capped(board, target, SAFE_LIBERTIES) >= SAFE_LIBERTIES {
            return Reading {
                verdict: Verdict::Fails,
                point: None,
                exact: true,
            };
        }
        self.deepen(true)
    }

    /// Whether the chain through the stone at `target` can be saved with its owner to move,
    /// and the saving move: `Works` without a move (a pass) when the attack fails anyway.
    /// An empty `target` fails.
    pub fn defend(&mut self, board: &Board, target: Point) -> Reading {
        self.stats.reads += 1;
        if board.cell(target).color().is_none() {
            return Reading {
                verdict: Verdict::Fails,
                point: None,
                exact: true,
            };
        }
        let attack = self.read_attack(board, target);
        if !attack.verdict.succeeds() {
            return Reading {
                verdict: Verdict::Works,
                point: None,
                exact: attack.exact,
            };
        }
        let attacker = self.attacker;
        self.begin(board, target, attacker);
        self.deepen(false)
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
    fn begin(&mut self, board: &Board, target: Point, attacker: Color) {
        self.scratch.begin(board);
        self.target = target;
        self.attacker = attacker;
        // Old history fades, so that one read's ordering does not rule the next ones.
        for h in &mut self.history {
            *h >>= 1;
        }
    }

    /// Iterative deepening from the root board until the result is exact, the depth limit
    /// or the node budget.
    fn deepen(&mut self, attacker_to_move: bool) -> Reading {
        let mut result = Node {
            value: LOSS,
            exact: false,
            point: NO_POINT,
        };
        for depth in 0..=self.limits.max_depth {
            let node = self.search(0, attacker_to_move, depth as i32, false);
            if self.scratch.aborted {
                break;
            }
            result = node;
            if node.exact {
                break;
            }
        }
        let verdict = Verdict::from_value(result.value);
        Reading {
            verdict,
            point: (verdict.succeeds() && result.point != NO_POINT)
                .then(|| Point::from_index(result.point as usize)),
            exact: result.exact,
        }
    }

    /// The value of the node at `ply` for the side to move (see the module documentation),
    /// read to `depth` more units.
    fn search(
        &mut self,
        ply: usize,
        attacker_to_move: bool,
        depth: i32,
        threat_spent: bool,
    ) -> Node {
        self.scratch.nodes += 1;
        self.stats.nodes += 1;
        let cut = Node {
            value: if attacker_to_move { LOSS } else { WIN },
            exact: false,
            point: NO_POINT,
        };
        if self.scratch.nodes > self.limits.nodes {
            self.scratch.aborted = true;
            return cut;
        }
        let target = self.target;
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let board = &self.scratch.boards[ply];
        if !board.cell(target).is(defender) {
            // Captured by the attacker's last move.
            return Node {
                value: if attacker_to_move { WIN } else { LOSS },
                exact: true,
                point: NO_POINT,
            };
        }
        let libs = liberties_capped(board, target, SAFE_LIBERTIES);
        if attacker_to_move && (libs >= SAFE_LIBERTIES || (libs == 4 && ply > FOUR_LIBERTY_PLIES)) {
            return Node {
                value: LOSS,
                exact: true,
                point: NO_POINT,
            };
        }
        if !attacker_to_move && libs >= DEFENDED_LIBERTIES && ply > 0 {
            return Node {
                value: WIN,
                exact: true,
                point: NO_POINT,
            };
        }
        // The least depth a capture can take from here: the attacker's non-atari fills of
        // the liberties beyond the second and the defender's answers cost one each.
        let need = match (attacker_to_move, libs) {
            (true, l) => 2 * l.saturating_sub(2),
            (false, 1) => 0,
            (false, l) => 2 * l - 3,
        } as i32;
        if depth < need || ply + 1 >= MAX_PLY {
            return cut;
        }
        let stored_depth = depth.min(i32::from(u8::MAX)) as u8;
        let key = node_key(board, target, attacker_to_move, threat_spent);
        // A position repeated in this line (the side to move included): the attacker's
        // sequence goes round in a circle and does not capture.
        if Scratch::repeats(&mut self.scratch.path, ply, key) {
            return Node {
                value: if attacker_to_move { LOSS } else { WIN },
                exact: true,
                point: NO_POINT,
            };
        }
        self.stats.probes += 1;
        if let Some(e) = self.scratch.table.probe(key, stored_depth) {
            self.stats.hits += 1;
            return Node {
                value: e.value,
                exact: e.flags & ENTRY_EXACT != 0,
                point: e.point,
            };
        }

        let mover = if attacker_to_move { attacker } else { defender };
        self.generate(ply, attacker_to_move, libs);
        let mut best = BestChild::new(attacker_to_move);
        for i in 0..self.scratch.candidates[ply].len {
            let m = self.scratch.candidates[ply].items[i].point;
            let p = Point::from_index(m as usize);
            let board = &self.scratch.boards[ply];
            let mut cap = WIN;
            let mut child_threat = threat_spent;
            if board.cell(p) != Cell::Empty {
                continue;
            }
            if board.is_ko_retake(p, mover) {
                if threat_spent {
                    continue;
                }
                cap = KO_WITH_THREAT;
                child_threat = true;
            } else if board.is_suicide(p, mover) {
                continue;
            }
            if best.cannot_improve(cap) {
                continue;
            }
            let (done, rest) = self.scratch.boards.split_at_mut(ply + 1);
            let next = &mut rest[0];
            next.copy_from(&done[ply]);
            next.play_unchecked(p, mover);
            if next.ko().is_some() {
                cap = cap.min(KO_FIRST);
            }
            let free = if attacker_to_move {
                next.cell(target).is(defender) && next.in_atari(target)
            } else {
                libs == 1
            };
            let child_depth = depth - i32::from(!free);
            let child = self.search(ply + 1, !attacker_to_move, child_depth, child_threat);
            if self.scratch.aborted {
                return cut;
            }
            if best.add(m, cap, child) {
                break;
            }
        }
        let best = best.finish(&mut self.scratch.table, key, stored_depth, self.scratch.age);
        if best.value > LOSS && best.point != NO_POINT {
            let h = &mut self.history[mover.index() * SLOTS + best.point as usize];
            *h = h.saturating_add(((depth + 1) * (depth + 1)) as u32);
            let k = &mut self.killers[ply];
            if k[0] != best.point {
                k[1] = k[0];
                k[0] = best.point;
            }
        }
        best
    }

    /// Fills the candidate list of `ply` for the side to move, ordered best first.
    fn generate(&mut self, ply: usize, attacker_to_move: bool, libs: usize) {
        let board = &self.scratch.boards[ply];
        let list = &mut self.scratch.candidates[ply];
        list.len = 0;
        let mover = if attacker_to_move {
            self.attacker
        } else {
            self.attacker.opponent()
        };
        if attacker_to_move {
            attack_candidates(board, self.target, self.attacker, libs, ply, list);
        } else {
            defence_candidates(board, self.target, self.attacker, libs, ply, list);
        }
        let killers = self.killers[ply];
        let history = &self.history[mover.index() * SLOTS..(mover.index() + 1) * SLOTS];
        for c in &mut list.items[..list.len] {
            if killers.contains(&c.point) {
                c.score += 300;
            }
            c.score += (history[c.point as usize] >> 2).min(200) as i32;
        }
        list.sort();
    }
}

/// The attacker's candidates against the chain through `target`, which has `libs`
/// liberties (1 to 4), with their ordering scores.
fn attack_candidates(
    board: &Board,
    target: Point,
    attacker: Color,
    libs: usize,
    ply: usize,
    list: &mut Candidates,
) {
    let defender = attacker.opponent();
    let geometry = board.geometry();
    let mut liberty_buffer = [0u16; MAX_TARGET_LIBERTIES];
    let n = liberties_into(board, target, &mut liberty_buffer);
    let liberties = &liberty_buffer[..n];
    if libs == 1 {
        list.add(liberties[0], 10_000);
        return;
    }
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
        if ply <= ROOM_PLIES {
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

/// The defender's candidates for the chain through `target`, which has `libs` liberties,
/// with their ordering scores.
fn defence_candidates(
    board: &Board,
    target: Point,
    attacker: Color,
    libs: usize,
    ply: usize,
    list: &mut Candidates,
) {
    let defender = attacker.opponent();
    let geometry = board.geometry();
    let mut liberty_buffer = [0u16; MAX_TARGET_LIBERTIES];
    let n = liberties_into(board, target, &mut liberty_buffer);
    let liberties = &liberty_buffer[..n];
    for &x in liberties {
        let xp = Point::from_index(x as usize);
        let gained = liberties_after_move(board, xp, defender, 5) as i32;
        let mut score = 1000 + 200 * gained;
        if gained <= 1 {
            score -= 600;
        }
        list.add(x, score);
    }
    if libs == 2 || (libs == 3 && ply <= ROOM_PLIES) {
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
                } else if cell.is(defender) && board.chain_id(Point::from_index(y)) != target_id {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn board(diagram: &str) -> Board {
        Board::from_diagram(diagram).unwrap_or_else(|e| panic!("bad diagram ({e})"))
    }

    fn point(board: &Board, vertex: &str) -> Point {
        board.geometry().parse_point(vertex).expect("vertex")
    }

    /// GNU Go's reply to `attack` (or `defend`): `0`, or the code and the move.
    fn answer(board: &Board, reading: Reading) -> String {
        reading.gtp_reply(board.geometry())
    }

    /// `attack` on a fresh reader; a capture must be proved (exact).
    fn attack(diagram: &str, vertex: &str) -> String {
        let b = board(diagram);
        let r = Reader::new().attack(&b, point(&b, vertex));
        assert!(r.exact || r.verdict != Verdict::Works, "{r:?}");
        answer(&b, r)
    }

    fn defend(diagram: &str, vertex: &str) -> String {
        let b = board(diagram);
        answer(&b, Reader::new().defend(&b, point(&b, vertex)))
    }

    /// What a test expects of a read: GNU Go's code, and the moves that may achieve it.
    #[track_caller]
    fn expect(answer: String, code: u8, moves: &[&str]) {
        let mut words = answer.split(' ');
        assert_eq!(words.next(), Some(code.to_string().as_str()), "{answer}");
        if !moves.is_empty() {
            let mv = words.next().unwrap_or("");
            assert!(moves.contains(&mv), "{answer}, expected one of {moves:?}");
        }
    }

    // Every expected answer below is GNU Go 3.8's too (`attack`/`defend` after the stones
    // were played in, `--chinese-rules`), unless a comment says otherwise.

    /// A ladder in the middle of 13x13: after black G6 or H7, white runs into the edge.
    const LADDER: &str = "
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . X . . . . . .
        . . . . . X O . . . . . .
        . . . . . . . X . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .";

    /// The same ladder with a breaker on each of its paths (K10 and D4).
    const BROKEN_LADDER: &str = "
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . O . . .
        . . . . . . . . . . . . .
        . . . . . . X . . . . . .
        . . . . . X O . . . . . .
        . . . . . . . X . . . . .
        . . . . . . . . . . . . .
        . . . O . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .";

    #[test]
    fn a_ladder_without_a_breaker_works() {
        expect(attack(LADDER, "G7"), 1, &["G6", "H7"]);
        expect(defend(LADDER, "G7"), 1, &["G6", "H7"]);
    }

    #[test]
    fn a_ladder_with_breakers_fails() {
        expect(attack(BROKEN_LADDER, "G7"), 0, &[]);
        expect(defend(BROKEN_LADDER, "G7"), 1, &["PASS"]);
    }

    /// A capture that needs a preparation (hane's loss to Pachi, time odds game 5, move
    /// 43): black's D4 chain has two liberties, F1 and G2, but white's F1 is a self-atari
    /// (E1 has two liberties) and its G2 too; white first shores up E1 at D1 or takes a
    /// liberty from the black stones the escape at G2 would join (H1, H2). GNU Go answers
    /// `1 D1` to `attack` and `1 H2` to `defend` (`0` to `attack` after H2 or J2).
    const PREPARED_CAPTURE: &str = "
        . . . . . . . . .
        . . . . . X O O .
        . . . X X X X O .
        . X . X . X O O .
        . . O O X X X O .
        . . O X O O O O .
        . . O X X O X X .
        . O . O X X . . .
        . . O . O . X . .";

    #[test]
    fn a_capture_after_a_preparation_move() {
        expect(attack(PREPARED_CAPTURE, "D4"), 1, &["D1", "H1", "H2"]);
        // After white's D1 no defence is left; after black's H2 no attack works. (With
        // the default budget hane's `defend` answers G2, which GNU Go refutes at H1: four
        // liberties, a longer read than the budget allows; see the next test.)
        let after = |vertex: &str, color: Color| {
            let mut b = board(PREPARED_CAPTURE);
            b.play(point(&b, vertex), color).expect("legal");
            b
        };
        let b = after("D1", Color::White);
        expect(
            answer(&b, Reader::new().defend(&b, point(&b, "D4"))),
            0,
            &[],
        );
        let b = after("H2", Color::Black);
        expect(
            answer(&b, Reader::new().attack(&b, point(&b, "D4"))),
            0,
            &[],
        );
    }

    /// A net (geta): the ataris on E6 and F5 run into the breaker at G7, F6 holds both.
    const NET: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . O . .
        . . . X . . . . .
        . . . X O . . . .
        . . . . X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn a_net_works_where_the_ladder_fails() {
        expect(attack(NET, "E5"), 1, &["F6"]);
        let mut b = board(NET);
        b.play(point(&b, "F6"), Color::Black).unwrap();
        let r = Reader::new().defend(&b, point(&b, "E5"));
        assert_eq!(answer(&b, r), "0");
        assert!(r.exact);
    }

    /// A snapback: black C2 (or D2) is a self-atari, white's capture at the other point
    /// leaves the chain in atari, and black takes ten stones.
    const SNAPBACK: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X X X X . . . .
        X O O O X . . . .
        X O . . O X . . .
        X O O O O X . . .";

    #[test]
    fn a_snapback_captures() {
        expect(attack(SNAPBACK, "B2"), 1, &["C2", "D2"]);
        expect(defend(SNAPBACK, "B2"), 0, &[]);
        // After the throw-in white must not take: its capture is met by the retake.
        let mut b = board(SNAPBACK);
        b.play(point(&b, "C2"), Color::Black).unwrap();
        b.play(point(&b, "D2"), Color::White).unwrap();
        let r = Reader::new().attack(&b, point(&b, "B2"));
        assert_eq!(answer(&b, r), "1 C2");
    }

    /// A throw-in, from a random game: white J8 is a self-atari that puts black J7 in atari;
    /// black's capture at J9 leaves J7-J8-J9-H8 short of liberties (white J6 works too).
    const THROW_IN: &str = "
        . O . . X . . . .
        O . . X . O . X .
        . . O . . . . O X
        . . . . . . . O .
        . . O . X . X . .
        . O O . . X . X .
        O . . O . . X X X
        . O . . O . O . .
        X X X . . O . . X";

    #[test]
    fn a_throw_in_captures() {
        let b = board(THROW_IN);
        let j7 = point(&b, "J7");
        assert!(is_self_atari(&b, point(&b, "J8"), Color::White, 1));
        expect(attack(THROW_IN, "J7"), 1, &["J8", "J6"]);
        let mut after = b.clone();
        after.play(point(&b, "J8"), Color::White).unwrap();
        let r = Reader::new().defend(&after, j7);
        assert_eq!((r.verdict, r.exact), (Verdict::Fails, true), "{r:?}");
        after.play(point(&b, "J9"), Color::Black).unwrap();
        let r = Reader::new().attack(&after, j7);
        assert_eq!((r.verdict, r.exact), (Verdict::Works, true), "{r:?}");
    }

    #[test]
    fn a_loose_ladder_on_the_edge_captures() {
        // Black B2 keeps white to two liberties without atari; white crawls to its death.
        let diagram = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X X X . . . .
            . . O O X . . . .
            . . . . . . . . .";
        expect(attack(diagram, "C2"), 1, &["B2"]);
        expect(defend(diagram, "C2"), 1, &["B2", "B1", "C1", "D1"]);
    }

    #[test]
    fn chains_with_three_or_more_liberties_in_the_open_are_safe() {
        let diagram = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . X O . . . . .
            . . . O X . . . .
            . . . . . . . . .";
        // D3-D2: C2, D1, E3... three liberties, nothing to catch them.
        expect(attack(diagram, "D3"), 0, &[]);
        expect(defend(diagram, "D3"), 1, &["PASS"]);
        // A lone stone with four liberties, and a stone of two: beyond the reader's reach.
        expect(attack(diagram, "E5"), 0, &[]);
        expect(defend(diagram, "E5"), 1, &["PASS"]);
    }

    /// White B2 can be taken by black C2, a ko capture; after it white needs a ko threat.
    const KO: &str = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X X O . . . .
        X O . O . . .
        X X O . . . .";

    #[test]
    fn a_ko_capture_gives_code_two_and_the_retake_code_three() {
        expect(attack(KO, "B2"), 2, &["C2"]);
        expect(defend(KO, "B2"), 1, &["C2"]);
        let mut b = board(KO);
        b.play(point(&b, "C2"), Color::Black).unwrap();
        let mut reader = Reader::new();
        let r = reader.attack(&b, point(&b, "C2"));
        assert_eq!(answer(&b, r), "3 B2");
        // Black connects out by capturing C1.
        let r = reader.defend(&b, point(&b, "C2"));
        assert_eq!(answer(&b, r), "1 D1");
    }

    #[test]
    fn a_chain_in_atari_is_captured_or_escapes() {
        // B2 in atari with only a self-atari extension: dead; extending from D4 escapes.
        expect(attack(SNAPBACK, "B2"), 1, &[]);
        let diagram = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . X . . . . .
            . . X O . . . . .
            . . . X . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        expect(attack(diagram, "D4"), 1, &["E4"]);
        expect(defend(diagram, "D4"), 1, &["E4"]);
    }

    #[test]
    fn empty_points_and_big_chains() {
        let b = board(LADDER);
        let mut reader = Reader::new();
        let empty = point(&b, "A1");
        assert_eq!(reader.attack(&b, empty).verdict, Verdict::Fails);
        assert_eq!(reader.defend(&b, empty).verdict, Verdict::Fails);
        let nodes = reader.stats().nodes;
        // A lone stone on an empty board: five liberties is safe without reading.
        let open = board(
            "
            . . . . .
            . . . . .
            . . X . .
            . . . . .
            . . . . .",
        );
        let r = reader.defend(&open, point(&open, "C3"));
        assert_eq!((r.verdict, r.point, r.exact), (Verdict::Works, None, true));
        assert!(reader.stats().nodes - nodes < 100);
    }

    /// [`PREPARED_CAPTURE`]: the default budget runs out on the defence of D4; the thorough
    /// one proves H2 (GNU Go's answer), and after H2 the attack fails.
    #[test]
    fn a_thorough_read_proves_the_defence_the_default_budget_cannot() {
        let b = board(PREPARED_CAPTURE);
        let d4 = point(&b, "D4");
        let mut thorough = Reader::with_limits(ReaderLimits::THOROUGH, Reader::DEFAULT_TABLE_BITS);
        let attack = thorough.attack(&b, d4);
        assert!(attack.verdict.succeeds() && attack.exact, "{attack:?}");
        let defence = thorough.defend(&b, d4);
        assert!(defence.verdict.succeeds() && defence.exact, "{defence:?}");
        assert_eq!(answer(&b, defence), "1 H2");
        let mut after = b.clone();
        after.play(point(&b, "H2"), Color::Black).unwrap();
        let refuted = thorough.attack(&after, d4);
        assert!(!refuted.verdict.succeeds() && refuted.exact, "{refuted:?}");
        assert!(!Reader::new().defend(&b, d4).exact);
    }

    #[test]
    fn the_table_answers_a_repeated_read() {
        let b = board(LADDER);
        let mut reader = Reader::new();
        let first = reader.attack(&b, point(&b, "G7"));
        let before = reader.stats();
        let second = reader.attack(&b, point(&b, "G7"));
        let after = reader.stats();
        assert_eq!(first, second);
        assert_eq!(
            after.nodes - before.nodes,
            1,
            "the root comes from the table"
        );
        assert_eq!(after.hits - before.hits, 1);
        reader.clear();
        assert_eq!(reader.attack(&b, point(&b, "G7")), first);
    }
}
