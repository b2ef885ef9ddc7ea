//! The search skeleton the tactical readers share: the four-valued ko-aware node values,
//! the transposition table, the node budget, the per-ply scratch boards and candidate
//! lists, the killer and history tables, iterative deepening ([`deepen`]) and the AND-OR
//! alpha-beta loop ([`search`]). A reader supplies only its [`Goal`]: when a node is won,
//! lost or cut off, which moves each side tries, how much depth a move costs and the goal's
//! terms of the table key. The skeleton is generic over the goal, so each reader gets its
//! own monomorphised search: no dynamic dispatch and no allocation per node.
//!
//! # Values
//!
//! Values are kept from the side to move's point of view, on four levels: a win, a win if
//! the side takes the ko first, a win only with an extra ko threat, a loss; the opponent's
//! value maps to `3 - value`. A move that captures a ko caps what the line is worth to its
//! player at "takes the ko first"; a move that retakes a ko the previous move forbids,
//! allowed once per line as if after a threat answered elsewhere, caps it at "needs a
//! threat".
//!
//! # Proof and exactness
//!
//! The side that must prove success is the attacker, whichever side moves at the root: a
//! node cut off (by the goal's depth rules or by the node budget) counts as a failure of the
//! attacker, and so does a position repeated in a line. A win of the attacker is therefore
//! always proved, and a failure of the attacker is *exact* when no cut-off decided it
//! ([`BestChild`] keeps track). [`deepen`] reads one depth after another until the result
//! is exact, the last depth or the budget's end, and answers the last finished depth's
//! result.
//!
//! # Memory
//!
//! The table is keyed by the board's Zobrist hash, the ko point, the goal's terms, the side
//! to move and whether the line's ko threat is spent; each entry holds a node's value,
//! move, remaining depth and exactness, and the table replaces by age and then by depth. An
//! exact result answers any later look-up, an inexact one only a look-up with no more depth
//! to go. Everything ([`Scratch`]) is allocated once with its reader and kept across reads.

use std::ops::RangeInclusive;

use crate::board::{Board, Cell, Color, MAX_CELLS, MAX_SIZE, Point, PointBits};

/// Candidate moves kept per node.
const MAX_CANDIDATES: usize = 40;
/// Slots of the per-point history table: at least every padded cell index of the largest
/// board.
const SLOTS: usize = 1024;
const _: () = assert!(SLOTS >= MAX_CELLS);
/// No move (a padded index no point has).
pub const NO_POINT: u16 = 0;
/// A pass in a candidate list and a table entry (for goals whose defender may pass).
pub const PASS: u16 = u16::MAX;

/// Node values, from the side to move's point of view.
pub const LOSS: u8 = 0;
pub const KO_WITH_THREAT: u8 = 1;
pub const KO_FIRST: u8 = 2;
pub const WIN: u8 = 3;

/// One node's result: its value for the side to move, whether it is exact, and its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub value: u8,
    pub exact: bool,
    pub point: u16,
}

impl Node {
    /// A node decided for or against the attacker, seen from the side to move, without a
    /// move.
    pub fn for_attacker(attacker_wins: bool, exact: bool, attacker_to_move: bool) -> Node {
        Node {
            value: if attacker_wins == attacker_to_move {
                WIN
            } else {
                LOSS
            },
            exact,
            point: NO_POINT,
        }
    }

    /// A node cut off: an inexact failure of the attacker.
    pub fn cut(attacker_to_move: bool) -> Node {
        Node::for_attacker(false, false, attacker_to_move)
    }

    /// The node's move as a point: `None` for no move and for a pass.
    pub fn move_point(&self) -> Option<Point> {
        (self.point != NO_POINT && self.point != PASS)
            .then(|| Point::from_index(self.point as usize))
    }
}

/// The best of a node's children so far. Cut-offs count against the attacker: its values
/// are lower bounds, and `open` is the most an inexact child could really be worth. The
/// defender's are upper bounds: its best is exact when an exact child reaches it.
pub struct BestChild {
    pub node: Node,
    open: u8,
    attacker_to_move: bool,
}

impl BestChild {
    pub fn new(attacker_to_move: bool) -> BestChild {
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
    pub fn cannot_improve(&self, cap: u8) -> bool {
        cap < self.node.value || (cap == self.node.value && self.node.exact)
    }

    /// Takes in the child reached by move `m`, capped at `cap`; true when the node is won
    /// and the other moves need no reading.
    pub fn add(&mut self, m: u16, cap: u8, child: Node) -> bool {
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
    pub fn finish(self, table: &mut Table, key: u64, depth: u8, age: u8) -> Node {
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
const ENTRY_EXACT: u8 = 1;
const ENTRY_USED: u8 = 2;

/// One transposition-table entry.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    point: u16,
    value: u8,
    depth: u8,
    flags: u8,
    age: u8,
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
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(1, 28);
        Table {
            entries: vec![Entry::default(); len],
            mask: len - 1,
        }
    }

    /// A stored result usable for a node read to `depth`: an exact one, or one read at
    /// least as deep (a deeper read only tightens the bound its cut-offs leave).
    fn probe(&self, key: u64, depth: u8) -> Option<Node> {
        let i = key as usize & self.mask;
        [i, i ^ 1]
            .into_iter()
            .map(|j| self.entries[j])
            .find(|e| {
                e.flags & ENTRY_USED != 0
                    && e.key == key
                    && (e.flags & ENTRY_EXACT != 0 || e.depth >= depth)
            })
            .map(|e| Node {
                value: e.value,
                exact: e.flags & ENTRY_EXACT != 0,
                point: e.point,
            })
    }

    /// Stores `entry` in its bucket: over the same key, else over an empty slot, else over
    /// the entry of an older read, else over the shallower one.
    fn store(&mut self, entry: Entry, age: u8) {
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

    fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}

/// A candidate move and its ordering score.
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidate {
    pub point: u16,
    pub score: i32,
}

/// The candidates of one node, at most [`MAX_CANDIDATES`], without duplicates.
#[derive(Clone, Copy)]
pub struct Candidates {
    pub items: [Candidate; MAX_CANDIDATES],
    pub len: usize,
}

impl Candidates {
    const EMPTY: Candidates = Candidates {
        items: [Candidate {
            point: NO_POINT,
            score: 0,
        }; MAX_CANDIDATES],
        len: 0,
    };

    /// Adds `point` with `score`, or raises the score of a point already there.
    pub fn add(&mut self, point: u16, score: i32) {
        if let Some(c) = self.items[..self.len].iter_mut().find(|c| c.point == point) {
            c.score = c.score.max(score);
        } else if self.len < MAX_CANDIDATES {
            self.items[self.len] = Candidate { point, score };
            self.len += 1;
        }
    }

    /// Sorts by score, best first (insertion sort: the lists are short).
    fn sort(&mut self) {
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

/// Counters over a reader's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Reads answered: `attack` and `defend` calls (a `defend`, which reads the attack
    /// first, counts once), or the race reader's questions (each `analyze` reads one or
    /// two).
    pub reads: u64,
    /// Nodes visited (the nodes of a reader's inner tactical reads not included).
    pub nodes: u64,
    /// Transposition-table look-ups and the ones that answered.
    pub probes: u64,
    pub hits: u64,
}

/// The working state a reader searches with, allocated once: the transposition table and
/// the age its entries get, one scratch board, candidate list, table key and pair of killer
/// moves per ply, the history scores, the node count and budget of the read in progress,
/// and the counters over the reader's life.
pub struct Scratch {
    table: Table,
    /// Read counter modulo 256, the age of the table entries a read stores.
    age: u8,
    /// One scratch board per ply; the root's is at 0.
    boards: Vec<Board>,
    candidates: Vec<Candidates>,
    /// The table keys of the nodes on the current line, by ply.
    path: Vec<u64>,
    /// Two killer moves per ply (goals that order by history only).
    killers: Vec<[u16; 2]>,
    /// History scores per colour and point (goals that order by history only).
    history: Vec<u32>,
    /// Nodes of the read in progress (with what the goal adds: its inner reads), and the
    /// most it may visit.
    pub nodes: u64,
    budget: u64,
    /// The attacker of the read in progress.
    attacker: Color,
    /// Whether the read in progress ran out of nodes.
    aborted: bool,
    /// The points the reads played on since [`Scratch::clear_touched`].
    touched: PointBits,
    pub stats: ReadStats,
}

impl Scratch {
    /// Scratch for lines of up to `max_ply` plies and a table of `2^table_bits` entries.
    pub fn new(table_bits: u32, max_ply: usize) -> Scratch {
        let board = Board::new(MAX_SIZE).expect("the largest size is valid");
        Scratch {
            table: Table::new(table_bits),
            age: 0,
            boards: vec![board; max_ply + 1],
            candidates: vec![Candidates::EMPTY; max_ply + 1],
            path: vec![0; max_ply + 1],
            killers: vec![[NO_POINT; 2]; max_ply + 1],
            history: vec![0; 2 * SLOTS],
            nodes: 0,
            budget: 0,
            attacker: Color::Black,
            aborted: false,
            touched: PointBits::EMPTY,
            stats: ReadStats::default(),
        }
    }

    /// Starts a read of `board` by `attacker` with a budget of `nodes`: a new age, `board`
    /// at ply 0, no nodes counted yet.
    fn begin(&mut self, board: &Board, attacker: Color, nodes: u64) {
        self.age = self.age.wrapping_add(1);
        self.boards[0].copy_from(board);
        self.nodes = 0;
        self.budget = nodes;
        self.attacker = attacker;
        self.aborted = false;
    }

    /// Halves the history scores, so that one read's ordering does not rule the next ones.
    pub fn fade_history(&mut self) {
        for h in &mut self.history {
            *h >>= 1;
        }
    }

    /// The attacker of the read begun last.
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// The points the reads played on since the last [`Scratch::clear_touched`] (a
    /// result read from the table does not add the points of the read that stored it).
    pub fn touched(&self) -> &PointBits {
        &self.touched
    }

    /// Starts a new record of the points played on.
    pub fn clear_touched(&mut self) {
        self.touched.clear();
    }

    /// Forgets every stored result.
    pub fn clear_table(&mut self) {
        self.table.clear();
    }

    /// Forgets the move-ordering tables.
    pub fn clear_ordering(&mut self) {
        self.history.fill(0);
        self.killers.fill([NO_POINT; 2]);
    }
}

/// Records `key` as the node at `ply` of the line `path`; true when the same position with
/// the same side to move stands earlier on it (a sequence that goes round in a circle).
fn repeats(path: &mut [u64], ply: usize, key: u64) -> bool {
    path[ply] = key;
    path[..ply]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .any(|&k| k == key)
}

/// A 64-bit mixer (splitmix64's finaliser) for the table keys' extra terms.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where a node stands: its board, its ply, the depth left to it, the attacker of the read
/// and whether it is to move.
#[derive(Clone, Copy)]
pub struct At<'a> {
    pub board: &'a Board,
    pub ply: usize,
    pub depth: i32,
    pub attacker: Color,
    pub attacker_to_move: bool,
}

impl At<'_> {
    /// The side to move.
    pub fn mover(&self) -> Color {
        if self.attacker_to_move {
            self.attacker
        } else {
            self.attacker.opponent()
        }
    }

    /// The node decided for or against the attacker (see [`Node::for_attacker`]).
    pub fn decided(&self, attacker_wins: bool, exact: bool) -> Node {
        Node::for_attacker(attacker_wins, exact, self.attacker_to_move)
    }
}

/// What a reader searches for, and with which moves: everything the skeleton leaves to it.
/// The hooks run in this order at each node: [`Goal::before_table`], then (unless it
/// decided the node) the key ([`Goal::key`]) and the table, then [`Goal::after_table`], then
/// [`Goal::candidates`] and, for each move read, [`Goal::child_depth`].
pub trait Goal: Sized {
    /// How far one read may go.
    type Limits: Copy + Default;
    /// What [`Goal::before_table`] learns that the move generator and the depth rule use.
    type Facts: Copy;
    /// The longest line read, in plies.
    const MAX_PLY: usize;
    /// Whether killer moves and the history table reorder the candidates; by default the
    /// goal's own order stands.
    const ORDERS_BY_HISTORY: bool = false;
    /// Whether the defender may pass, last among its candidates; by default it may (a seki
    /// holds by passing).
    const DEFENDER_PASSES: bool = true;
    /// The key terms of the side to move being the attacker and of a spent ko threat.
    const KEYS: [u64; 2];

    /// The goal of a reader made with `limits`, before its first read.
    fn new(limits: &Self::Limits) -> Self;

    /// Forgets what the goal keeps across reads (an inner reader's table).
    fn clear(&mut self) {}

    /// The checks before the table look-up: the node's value when it is decided or cut off
    /// (see [`At::decided`] and [`Node::cut`]), else what they learnt. Nodes the goal spends
    /// on inner reads are added to `nodes`.
    fn before_table(&mut self, at: At<'_>, nodes: &mut u64) -> Result<Self::Facts, Node>;

    /// The goal's terms of the table key (its targets, its kind), XORed into the board's.
    fn key(&self, board: &Board) -> u64;

    /// The checks after a table miss: the node's value when they decide it; nodes spent
    /// on inner reads are added to `nodes`.
    fn after_table(&mut self, _at: At<'_>, _nodes: &mut u64) -> Option<Node> {
        None
    }

    /// Fills `list` (empty) with the side to move's candidates and their ordering scores;
    /// nodes spent on inner reads are added to `nodes`.
    fn candidates(
        &mut self,
        at: At<'_>,
        facts: Self::Facts,
        list: &mut Candidates,
        nodes: &mut u64,
    );

    /// The most candidates other than a pass read at `ply`.
    fn width(_ply: usize) -> usize {
        usize::MAX
    }

    /// The depth left to the child `next` reached from `at` by a move or a pass.
    fn child_depth(&self, at: At<'_>, facts: Self::Facts, next: &Board) -> i32;
}

/// The table key of a node: the board's Zobrist hash, the ko point and the colour it binds,
/// the goal's terms, the side to move and whether the ko threat is spent.
fn node_key<G: Goal>(goal: &G, board: &Board, attacker_to_move: bool, threat_spent: bool) -> u64 {
    let mut key = board.hash() ^ goal.key(board);
    if let Some((p, color)) = board.ko() {
        key ^= mix(0x6b6f_0000_0000 | (p.index() as u64) << 1 | color.index() as u64);
    }
    if attacker_to_move {
        key ^= G::KEYS[0];
    }
    if threat_spent {
        key ^= G::KEYS[1];
    }
    key
}

/// Iterative deepening from the root board (set up by [`Scratch::begin`]) over `depths`,
/// until the result is exact, the last depth or the node budget; `fallback` when not even
/// the first depth finished.
fn deepen<G: Goal>(
    s: &mut Scratch,
    goal: &mut G,
    attacker_to_move: bool,
    depths: RangeInclusive<u32>,
    fallback: Node,
) -> Node {
    let mut result = fallback;
    for depth in depths {
        let node = search(s, goal, 0, attacker_to_move, depth as i32, false);
        if s.aborted {
            break;
        }
        result = node;
        if node.exact {
            break;
        }
    }
    result
}

/// The value of the node at `ply` for the side to move, read to `depth` more units (the
/// goal says what a move costs), `threat_spent` when the line already retook a ko.
fn search<G: Goal>(
    s: &mut Scratch,
    goal: &mut G,
    ply: usize,
    attacker_to_move: bool,
    depth: i32,
    threat_spent: bool,
) -> Node {
    s.nodes += 1;
    s.stats.nodes += 1;
    let cut = Node::cut(attacker_to_move);
    if s.nodes > s.budget {
        s.aborted = true;
        return cut;
    }
    let at = At {
        board: &s.boards[ply],
        ply,
        depth,
        attacker: s.attacker,
        attacker_to_move,
    };
    let facts = match goal.before_table(at, &mut s.nodes) {
        Ok(facts) => facts,
        Err(node) => return node,
    };
    let stored_depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
    let key = node_key(goal, at.board, attacker_to_move, threat_spent);
    if repeats(&mut s.path, ply, key) {
        return at.decided(false, true);
    }
    s.stats.probes += 1;
    if let Some(node) = s.table.probe(key, stored_depth) {
        s.stats.hits += 1;
        return node;
    }
    if let Some(node) = goal.after_table(at, &mut s.nodes) {
        return node;
    }

    let (attacker, mover) = (at.attacker, at.mover());
    let list = &mut s.candidates[ply];
    list.len = 0;
    goal.candidates(at, facts, list, &mut s.nodes);
    if G::ORDERS_BY_HISTORY {
        let killers = s.killers[ply];
        let history = &s.history[mover.index() * SLOTS..(mover.index() + 1) * SLOTS];
        for c in &mut list.items[..list.len] {
            if killers.contains(&c.point) {
                c.score += 300;
            }
            c.score += (history[c.point as usize] >> 2).min(200) as i32;
        }
    }
    list.sort();
    if G::DEFENDER_PASSES && !attacker_to_move {
        list.add(PASS, i32::MIN);
    }

    let width = G::width(ply);
    let mut best = BestChild::new(attacker_to_move);
    let mut tried = 0;
    for i in 0..s.candidates[ply].len {
        let m = s.candidates[ply].items[i].point;
        let board = &s.boards[ply];
        let mut cap = WIN;
        let mut child_threat = threat_spent;
        if m != PASS {
            if tried >= width {
                continue;
            }
            let p = Point::from_index(m as usize);
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
            tried += 1;
        }
        if best.cannot_improve(cap) {
            continue;
        }
        let (done, rest) = s.boards.split_at_mut(ply + 1);
        let next = &mut rest[0];
        next.copy_from(&done[ply]);
        if m == PASS {
            next.pass();
        } else {
            next.play_unchecked(Point::from_index(m as usize), mover);
            s.touched.insert_index(m as usize);
            if next.ko().is_some() {
                cap = cap.min(KO_FIRST);
            }
        }
        let at = At {
            board: &done[ply],
            ply,
            depth,
            attacker,
            attacker_to_move,
        };
        let child_depth = goal.child_depth(at, facts, next);
        let child = search(
            s,
            goal,
            ply + 1,
            !attacker_to_move,
            child_depth,
            child_threat,
        );
        if s.aborted {
            return cut;
        }
        if best.add(m, cap, child) {
            break;
        }
    }
    let best = best.finish(&mut s.table, key, stored_depth, s.age);
    if G::ORDERS_BY_HISTORY && best.value > LOSS && best.point != NO_POINT {
        let h = &mut s.history[mover.index() * SLOTS + best.point as usize];
        *h = h.saturating_add(((depth + 1) * (depth + 1)) as u32);
        let k = &mut s.killers[ply];
        if k[0] != best.point {
            k[1] = k[0];
            k[0] = best.point;
        }
    }
    best
}

/// A reader of `goal`, as the modules of the readers offer it (`Reader`, `SemeaiReader`,
/// `OwlReader`): its limits, its scratch and its goal, all allocated once. Each reader adds
/// its questions (`attack`, `analyze`...) in its own module.
pub struct ReaderOf<G: Goal> {
    pub(super) limits: G::Limits,
    pub(super) scratch: Scratch,
    pub(super) goal: G,
}

impl<G: Goal> Default for ReaderOf<G> {
    fn default() -> ReaderOf<G> {
        ReaderOf::new()
    }
}

impl<G: Goal> ReaderOf<G> {
    /// Default table size: 2^16 entries (1 MiB).
    pub const DEFAULT_TABLE_BITS: u32 = 16;

    /// A reader with the default limits and table size.
    pub fn new() -> ReaderOf<G> {
        ReaderOf::with_limits(G::Limits::default(), ReaderOf::<G>::DEFAULT_TABLE_BITS)
    }

    /// A reader with `limits` and a table of `2^table_bits` entries.
    pub fn with_limits(limits: G::Limits, table_bits: u32) -> ReaderOf<G> {
        ReaderOf {
            limits,
            scratch: Scratch::new(table_bits, G::MAX_PLY),
            goal: G::new(&limits),
        }
    }

    /// The limits each read runs under.
    pub fn limits(&self) -> G::Limits {
        self.limits
    }

    /// Changes the limits of later reads.
    pub fn set_limits(&mut self, limits: G::Limits) {
        self.limits = limits;
    }

    /// Counters since the reader was made.
    pub fn stats(&self) -> ReadStats {
        self.scratch.stats
    }

    /// Forgets every stored result and the move-ordering tables.
    pub fn clear(&mut self) {
        self.scratch.clear_table();
        self.scratch.clear_ordering();
        self.goal.clear();
    }

    /// Starts a read of `board` by `attacker` with a budget of `nodes` (the goal is set up
    /// apart).
    pub(super) fn begin(&mut self, board: &Board, attacker: Color, nodes: u64) {
        self.scratch.begin(board, attacker, nodes);
    }

    /// Iterative deepening of the read begun over `depths` (see [`deepen`]).
    pub(super) fn deepen(
        &mut self,
        attacker_to_move: bool,
        depths: RangeInclusive<u32>,
        fallback: Node,
    ) -> Node {
        deepen(
            &mut self.scratch,
            &mut self.goal,
            attacker_to_move,
            depths,
            fallback,
        )
    }
}
