//! The capturing-race (semeai) reader: two chains of opposite colours, each short of
//! liberties, and who wins the race between them with a given side to move
//! (`SemeaiReader::analyze`): the side to move captures the other chain, or neither can
//! capture the other without being captured first (seki), or the side to move loses its
//! chain. It also tells a seki from two chains that merely live side by side
//! (`SemeaiReader::is_seki`). This module owns the race's goal: when a node is decided
//! and which moves each side tries; the search itself (table, budget, iterative deepening,
//! alpha-beta, ko values) is the shared skeleton's (`super::skeleton`). It asks a
//! [`Reader`] whether a chain can be captured outright.
//!
//! # The model
//!
//! One question is read at a time: can the *attacker*, whose chain is `own`, capture the
//! *target* chain before `own` is captured? The attacker wins when the target is captured;
//! it loses when `own` is captured, when the target reaches [`ESCAPED_LIBERTIES`]
//! liberties, and when it has no legal candidate. A chain that gains liberties in a race is
//! out of a plain race, and reading on would chase it across the board: when either chain
//! has [`ESCAPE_GAIN`] more liberties than at the root and at least [`ESCAPE_FLOOR`] (or
//! the attacker's chain [`ESCAPED_LIBERTIES`]), the inner [`Reader`] decides whether the
//! target still falls (with [`READER_NODES`] nodes, or the race's budget when that is smaller). The attacker never passes (a pass lets the
//! defender pass too, and nothing is captured); the defender may pass, which is how a seki
//! holds: every attacker move there is a self-atari that loses `own`. A position repeated in
//! a line is a failure of the attacker.
//!
//! The two answers GNU Go's `analyze_semeai` gives are two such questions. With A's owner
//! to move, "B is captured" is the race read with A's chain attacking B; "A survives" is the
//! race read the other way round, with B's chain attacking A and A's owner, the defender,
//! moving first. A side to move whose chain survives without capturing the other one has a
//! seki (or at least a position where neither chain falls).
//!
//! # The search
//!
//! Alpha-beta over the skeleton's four values (a win, a win by taking a ko first, a win that
//! needs a ko threat, a loss; the same ko caps as [`super::reader`]) on scratch boards, one
//! per ply, over a small candidate set for the side to move: the liberties of the enemy
//! chain, outside ones before shared ones; the *approach* move where filling a liberty would
//! be a self-atari (the one liberty the filling stone would be left with, played first);
//! its own chain's liberties where an extension gains liberties; capturing enemy chains in
//! atari next to either chain; saving its own chains in atari next to either chain; and for
//! the defender, the pass, last.
//!
//! Each attacker move costs one unit of depth and a defender move none, so a line of depth
//! `d` holds at most `d` attacker moves; a node where the target has more liberties than the
//! remaining depth is cut off, counted as a failure of the attacker, and so is every node
//! once the node budget is spent. A capture is therefore always proved; a failure is exact
//! when no cut-off decided it. The search deepens iteratively until the result is exact,
//! [`SemeaiLimits::max_depth`] or the node budget ([`SemeaiLimits::nodes`]).
//!
//! At the root of a capture question with the attacker to move and a target of at most
//! [`OUTRIGHT_LIBERTIES`] liberties, a [`Reader`] is asked first whether the target can be
//! captured outright (a ladder or a net that the race's candidate
//! set does not see): an exact unconditional capture answers the question.
//!
//! # Memory
//!
//! The scratch boards, candidate lists, the transposition table (keyed by the Zobrist hash,
//! the ko point, both chains, the side to move and whether the line's ko threat is spent)
//! and the inner [`Reader`] are allocated once with the [`SemeaiReader`]. Nothing is
//! allocated per node or per read.

use crate::board::{Board, Color, Point};

use super::liberties::{liberties_after, liberties_capped, liberties_into};
use super::reader::{Reader, Verdict, liberties_after_move, neighbour_chains, self_atari_liberty};
use super::skeleton::{At, Candidates, Goal, Node, ReaderOf, WIN, mix};

/// The most liberties a chain may have for a race that `SemeaiReader::is_seki` and the
/// callers that look for races consider (the reader itself reads any pair).
pub const MAX_RACE_LIBERTIES: usize = 6;
/// Liberties at which the target of a capture question counts as escaped (and the attacker's
/// chain as out of the race).
pub const ESCAPED_LIBERTIES: usize = 8;
/// Liberties gained since the root at which either chain counts as out of the race, when it
/// has at least [`ESCAPE_FLOOR`].
pub const ESCAPE_GAIN: usize = 2;
/// The fewest liberties at which a chain that gained [`ESCAPE_GAIN`] is out of the race.
pub const ESCAPE_FLOOR: usize = 4;
/// The longest line read, in plies (passes included).
pub const MAX_PLY: usize = 64;
/// The most liberties of a target that the inner [`Reader`] is asked to capture outright
/// (it reads ladders and nets well, and races with more liberties not at all).
pub const OUTRIGHT_LIBERTIES: usize = 2;
/// Nodes of one read of the inner tactical reader (they count against the race's budget).
pub const READER_NODES: u64 = 1_000;
/// Liberties of a chain collected per node: more than any race reads.
const LIBERTY_BUFFER: usize = 8;

const KEY_RACE: u64 = 0x510e_527f_ade6_82d1;

/// How far one race read may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemeaiLimits {
    /// Nodes one question may visit, over all its depths.
    pub nodes: u64,
    /// The deepest iteration, in attacker moves.
    pub max_depth: u32,
}

impl Default for SemeaiLimits {
    fn default() -> SemeaiLimits {
        SemeaiLimits {
            nodes: 20_000,
            max_depth: 24,
        }
    }
}

/// The race seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceOutcome {
    /// The side to move captures the other chain (perhaps only through a ko: see
    /// [`RaceResult::captures`]).
    Wins,
    /// Neither chain falls: the side to move keeps its chain but cannot capture the other.
    Seki,
    /// The side to move's chain is captured.
    Loses,
}

/// The answer to `SemeaiReader::analyze` for chains A and B with A's owner to move, in
/// GNU Go's codes: whether A survives, whether B is captured, and the move for A's owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceResult {
    /// Whether A's chain survives (GNU Go's first code).
    pub survives: Verdict,
    /// Whether B's chain is captured (the second code).
    pub captures: Verdict,
    /// The move that achieves the better of the two; `None` when no move is needed (a pass)
    /// or nothing works.
    pub point: Option<Point>,
    /// Whether both questions were read without a cut-off by depth or budget.
    pub exact: bool,
}

impl RaceResult {
    /// The race from A's owner's point of view, ko results counted as successes.
    pub fn outcome(&self) -> RaceOutcome {
        if self.captures.succeeds() {
            RaceOutcome::Wins
        } else if self.survives.succeeds() {
            RaceOutcome::Seki
        } else {
            RaceOutcome::Loses
        }
    }
}

/// Counters over a race reader's life: questions read (each `SemeaiReader::analyze`
/// reads one or two), nodes, table look-ups and hits.
pub use super::skeleton::ReadStats as SemeaiStats;

/// The race reader's goal: the attacker's chain through `own` captures the chain through
/// `target` before being captured.
pub struct Race {
    own: Point,
    target: Point,
    /// The target's and the attacker's chain's liberties at the root.
    root_libs: usize,
    own_root_libs: usize,
    /// The tactical reader that decides once a chain is out of the race.
    reader: Reader,
}

impl Goal for Race {
    type Limits = SemeaiLimits;
    type Facts = ();
    const MAX_PLY: usize = MAX_PLY;
    const KEYS: [u64; 2] = [0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1];

    /// The inner reader's budget is the race's when that is smaller.
    fn new(limits: &SemeaiLimits) -> Race {
        let reader = Reader::nested(READER_NODES.min(limits.nodes));
        let (own, target) = (Point::from_index(0), Point::from_index(0));
        Race {
            own,
            target,
            root_libs: 0,
            own_root_libs: 0,
            reader,
        }
    }

    fn clear(&mut self) {
        self.reader.clear();
    }

    fn before_table(&mut self, at: At<'_>, nodes: &mut u64) -> Result<(), Node> {
        let (board, own, target, attacker) = (at.board, self.own, self.target, at.attacker);
        if !board.cell(target).is(attacker.opponent()) {
            return Err(at.decided(true, true));
        }
        if !board.cell(own).is(attacker) {
            return Err(at.decided(false, true));
        }
        let libs = liberties_capped(board, target, ESCAPED_LIBERTIES);
        if libs >= ESCAPED_LIBERTIES {
            return Err(at.decided(false, true));
        }
        let own_libs = liberties_capped(board, own, ESCAPED_LIBERTIES);
        if (libs >= ESCAPE_FLOOR && libs >= self.root_libs + ESCAPE_GAIN)
            || own_libs >= ESCAPED_LIBERTIES
            || (own_libs >= ESCAPE_FLOOR && own_libs >= self.own_root_libs + ESCAPE_GAIN)
        {
            // One chain is out of the race: whether the target still falls (in a ladder,
            // a net) is the tactical reader's question.
            let before = self.reader.stats().nodes;
            let (captured, exact) = if at.attacker_to_move {
                let r = self.reader.attack(board, target);
                (r.verdict == Verdict::Works, r.exact)
            } else {
                let r = self.reader.defend(board, target);
                (!r.verdict.succeeds(), r.exact)
            };
            // The tactical reader's nodes count against this read's budget.
            *nodes += self.reader.stats().nodes - before;
            return Err(at.decided(captured, captured || exact));
        }
        if at.depth < libs as i32 || at.ply + 1 >= MAX_PLY {
            return Err(Node::cut(at.attacker_to_move));
        }
        Ok(())
    }

    /// The race's kind, both chains, the board size and the liberties at the root (the
    /// escapes depend on them).
    fn key(&self, board: &Board) -> u64 {
        KEY_RACE
            ^ mix((self.root_libs as u64) << 48
                | (self.own_root_libs as u64) << 40
                | (self.target.index() as u64) << 24
                | (self.own.index() as u64) << 8
                | board.size() as u64)
    }

    fn candidates(&mut self, at: At<'_>, _facts: (), list: &mut Candidates, _nodes: &mut u64) {
        let (mine, theirs) = if at.attacker_to_move {
            (self.own, self.target)
        } else {
            (self.target, self.own)
        };
        race_candidates(at.board, mine, theirs, at.mover(), list);
    }

    /// Each attacker move costs one unit, a defender's move or pass none.
    fn child_depth(&self, at: At<'_>, _facts: (), _next: &Board) -> i32 {
        at.depth - i32::from(at.attacker_to_move)
    }
}

/// The capturing-race reader (see the module documentation): its scratch boards, candidate
/// lists, transposition table and inner tactical reader, all allocated once.
pub type SemeaiReader = ReaderOf<Race>;

impl ReaderOf<Race> {
    /// The race between the chains through the stones at `a` and `b`, with `a`'s owner to
    /// move; `None` unless both hold stones of opposite colours.
    pub fn analyze(&mut self, board: &Board, a: Point, b: Point) -> Option<RaceResult> {
        let color_a = board.cell(a).color()?;
        let color_b = board.cell(b).color()?;
        if color_a == color_b {
            return None;
        }
        let (capture, capture_exact) = self.read(board, a, b, true);
        if capture.value == WIN {
            return Some(RaceResult {
                survives: Verdict::Works,
                captures: Verdict::Works,
                point: capture.move_point(),
                exact: capture_exact,
            });
        }
        // A survives when B's chain, its owner moving second, cannot capture it.
        let (survival, survival_exact) = self.read(board, b, a, false);
        let survives = Verdict::from_value(survival.value.max(capture.value));
        let captures = Verdict::from_value(capture.value);
        let chosen = if capture.value >= survival.value {
            capture
        } else {
            survival
        };
        let point = chosen.move_point().filter(|_| survives.succeeds());
        Some(RaceResult {
            survives,
            captures,
            point,
            exact: capture_exact && survival_exact,
        })
    }

    /// Whether the chains through `a` and `b` (opposite colours, next to each other) are in
    /// seki: with either side to move neither captures the other (exactly read), and they
    /// share a liberty that neither side can fill without its chain being captured (which
    /// tells a seki from two chains that live on their own side by side). Each chain may
    /// have at most [`MAX_RACE_LIBERTIES`] liberties.
    pub fn is_seki(&mut self, board: &Board, a: Point, b: Point) -> bool {
        let (Some(color_a), Some(color_b)) = (board.cell(a).color(), board.cell(b).color()) else {
            return false;
        };
        if color_a == color_b
            || liberties_capped(board, a, MAX_RACE_LIBERTIES + 1) > MAX_RACE_LIBERTIES
            || liberties_capped(board, b, MAX_RACE_LIBERTIES + 1) > MAX_RACE_LIBERTIES
        {
            return false;
        }
        for (x, y) in [(a, b), (b, a)] {
            match self.analyze(board, x, y) {
                Some(r) if r.exact && r.outcome() == RaceOutcome::Seki => {}
                _ => return false,
            }
        }
        // A shared liberty that is poison to both sides.
        let mut libs_a = [0u16; LIBERTY_BUFFER];
        let na = liberties_into(board, a, &mut libs_a);
        let mut libs_b = [0u16; LIBERTY_BUFFER];
        let nb = liberties_into(board, b, &mut libs_b);
        let mut scratch = board.clone();
        libs_a[..na]
            .iter()
            .filter(|x| libs_b[..nb].contains(x))
            .any(|&x| {
                let p = Point::from_index(x as usize);
                [(a, b, color_a), (b, a, color_b)]
                    .into_iter()
                    .all(|(mine, theirs, color)| {
                        if !board.is_legal(p, color) {
                            return true;
                        }
                        scratch.copy_from(board);
                        scratch.play_unchecked(p, color);
                        if !scratch.cell(mine).is(color) {
                            return true;
                        }
                        let (node, exact) = self.read(&scratch, theirs, mine, true);
                        node.value == WIN && exact
                    })
            })
    }

    /// One question: can the chain through `own` capture the chain through `target` before
    /// being captured, with its owner to move when `attacker_to_move`? The root's value for
    /// the side to move and whether it is exact.
    fn read(
        &mut self,
        board: &Board,
        own: Point,
        target: Point,
        attacker_to_move: bool,
    ) -> (Node, bool) {
        self.scratch.stats.reads += 1;
        let attacker = board.cell(own).color().expect("a stone");
        if attacker_to_move
            && liberties_capped(board, target, OUTRIGHT_LIBERTIES + 1) <= OUTRIGHT_LIBERTIES
        {
            // A capture outright (a ladder, a net) wins the race at once.
            let outright = self.goal.reader.attack(board, target);
            if outright.verdict == Verdict::Works
                && outright.exact
                && let Some(p) = outright.point
            {
                let node = Node {
                    value: WIN,
                    exact: true,
                    point: p.index() as u16,
                };
                return (node, true);
            }
        }
        self.begin(board, attacker, self.limits.nodes);
        let goal = &mut self.goal;
        goal.own = own;
        goal.target = target;
        goal.root_libs = liberties_capped(board, target, ESCAPED_LIBERTIES);
        goal.own_root_libs = liberties_capped(board, own, ESCAPED_LIBERTIES);
        let depths = 0..=self.limits.max_depth;
        let fallback = Node::cut(attacker_to_move);
        let result = self.deepen(attacker_to_move, depths, fallback);
        (result, result.exact)
    }
}

/// The candidates of `mover`, whose chain is `mine`, in the race against the chain
/// `theirs` (see the module documentation), with their ordering scores.
fn race_candidates(board: &Board, mine: Point, theirs: Point, mover: Color, list: &mut Candidates) {
    let enemy = mover.opponent();
    let mut mine_buffer = [0u16; LIBERTY_BUFFER];
    let n_mine = liberties_into(board, mine, &mut mine_buffer);
    let my_libs = &mine_buffer[..n_mine];
    let mut theirs_buffer = [0u16; LIBERTY_BUFFER];
    let n_theirs = liberties_into(board, theirs, &mut theirs_buffer);
    let their_libs = &theirs_buffer[..n_theirs];
    // Filling the enemy's liberties: outside ones first, where the enemy's extension would
    // gain least; a self-atari fill stays a candidate (a throw-in) behind its approach move.
    for &x in their_libs {
        let xp = Point::from_index(x as usize);
        let own = liberties_after(board, xp, mover);
        let shared = my_libs.contains(&x);
        let extension = liberties_after_move(board, xp, enemy, 6) as i32;
        let mut score = 1000 - 40 * extension + if shared { 0 } else { 300 };
        if own.liberties <= 1 && !own.captures {
            score = 100;
            if let Some(y) = self_atari_liberty(board, xp, mover)
                && !my_libs.contains(&(y.index() as u16))
            {
                list.add(y.index() as u16, 900);
            }
        }
        list.add(x, score);
    }
    // Extending the own chain where that gains liberties.
    for &x in my_libs {
        let gained = liberties_after_move(board, Point::from_index(x as usize), mover, 8);
        if gained > n_mine {
            list.add(x, 500 + 100 * (gained - n_mine) as i32);
        }
    }
    // Captures of enemy chains in atari, and saving own chains in atari, next to either
    // chain.
    for chain in [mine, theirs] {
        for color in [enemy, mover] {
            let (chains, count) = neighbour_chains(board, chain, color);
            for &np in &chains[..count] {
                let Some(l) = board.atari_liberty(np) else {
                    continue;
                };
                if color == enemy {
                    list.add(
                        l.index() as u16,
                        2000 + 100 * board.chain_len(np).min(10) as i32,
                    );
                } else if board.chain_id(np) != board.chain_id(mine) {
                    list.add(l.index() as u16, 800);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::testing::{board, point};

    /// GNU Go's reply to `analyze_semeai A B` from a fresh reader; the result must be
    /// exact.
    fn semeai(diagram: &str, a: &str, b: &str) -> String {
        let b0 = board(diagram);
        let r = SemeaiReader::new()
            .analyze(&b0, point(&b0, a), point(&b0, b))
            .expect("opposite colours");
        assert!(r.exact, "{r:?}");
        let mv = r
            .point
            .map_or_else(|| "PASS".to_string(), |p| b0.geometry().format_point(p));
        format!("{} {} {mv}", r.survives.gtp_code(), r.captures.gtp_code())
    }

    /// What a test expects: the two codes, and the moves that may achieve them.
    #[track_caller]
    fn expect(answer: String, codes: &str, moves: &[&str]) {
        let (got_codes, mv) = answer.rsplit_once(' ').expect("three words");
        assert_eq!(got_codes, codes, "{answer}");
        if !moves.is_empty() {
            assert!(moves.contains(&mv), "{answer}, expected one of {moves:?}");
        }
    }

    // The chains race along columns D and E (or C and E with shared liberties in column D):
    // black's outside liberties are in column C (or B) against a white wall, white's in
    // column F against a black wall. Every expected answer is GNU Go 3.8's too
    // (`analyze_semeai` after the stones were played in, `--chinese-rules`); the moves may
    // differ where several work.

    /// Black D1-D5 has three liberties (C3-C5), white E1-E5 two (F4, F5).
    const THREE_AGAINST_TWO: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . O O O X X X . .
        . O . X O . X . .
        . O . X O . X . .
        . O . X O X X . .
        . O O X O X X . .
        . O O X O X X . .";

    #[test]
    fn the_chain_with_more_liberties_wins_whoever_moves_first() {
        expect(semeai(THREE_AGAINST_TWO, "D1", "E1"), "1 1", &["F4", "F5"]);
        // The shorter side to move still loses.
        expect(semeai(THREE_AGAINST_TWO, "E1", "D1"), "0 0", &["PASS"]);
    }

    /// Three liberties each: whoever moves first wins.
    const THREE_AGAINST_THREE: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . O O O X X X . .
        . O . X O . X . .
        . O . X O . X . .
        . O . X O . X . .
        . O O X O X X . .
        . O O X O X X . .";

    #[test]
    fn with_equal_liberties_the_side_to_move_wins() {
        expect(
            semeai(THREE_AGAINST_THREE, "D1", "E1"),
            "1 1",
            &["F3", "F4", "F5"],
        );
        expect(
            semeai(THREE_AGAINST_THREE, "E1", "D1"),
            "1 1",
            &["C3", "C4", "C5"],
        );
    }

    /// Black C1-C3-D3: three outside liberties (B1-B3) and two shared (D1, D2); white
    /// E1-E3: one outside liberty (F3) and the two shared.
    const SHARED_THREE_AGAINST_ONE: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        O . X X O . X . .
        O . X . O X X . .
        O . X . O X X . .";

    /// One shared liberty (D1) and two outside liberties each (B2-B3, F2-F3).
    const SHARED_ONE: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        O . X X O . X . .
        O . X X O . X . .
        O O X . O X X . .";

    #[test]
    fn shared_liberties_favour_the_side_with_more_outside_ones() {
        expect(semeai(SHARED_THREE_AGAINST_ONE, "C1", "E1"), "1 1", &["F3"]);
        expect(
            semeai(SHARED_THREE_AGAINST_ONE, "E1", "C1"),
            "0 0",
            &["PASS"],
        );
        // Equal outside liberties and one shared: the side to move wins.
        expect(semeai(SHARED_ONE, "C1", "E1"), "1 1", &["F2", "F3"]);
        expect(semeai(SHARED_ONE, "E1", "C1"), "1 1", &["B2", "B3"]);
    }

    /// Two shared liberties (D1, D2) and no outside ones, no eyes: seki.
    const SEKI: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        O O X X O X X . .
        O O X . O X X . .
        O O X . O X X . .";

    /// Three outside liberties each and two shared: the outside ones are filled and it is
    /// still seki.
    const SEKI_AFTER_FILLING: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        O . X X O . X . .
        O . X . O . X . .
        O . X . O . X . .";

    #[test]
    fn two_shared_liberties_and_nothing_else_is_seki() {
        expect(semeai(SEKI, "C1", "E1"), "1 0", &["PASS"]);
        expect(semeai(SEKI, "E1", "C1"), "1 0", &["PASS"]);
        let b = board(SEKI);
        let mut reader = SemeaiReader::new();
        let r = reader
            .analyze(&b, point(&b, "C1"), point(&b, "E1"))
            .unwrap();
        assert_eq!(r.outcome(), RaceOutcome::Seki);
        assert!(reader.is_seki(&b, point(&b, "C1"), point(&b, "E1")));
        assert!(reader.is_seki(&b, point(&b, "E1"), point(&b, "D3")));
        // A race is no seki.
        let race = board(SHARED_THREE_AGAINST_ONE);
        assert!(!reader.is_seki(&race, point(&race, "C1"), point(&race, "E1")));
    }

    #[test]
    fn filling_the_outside_liberties_still_leaves_a_seki() {
        // Either side keeps the seki; filling an outside liberty is what GNU Go suggests.
        expect(
            semeai(SEKI_AFTER_FILLING, "C1", "E1"),
            "1 0",
            &["F1", "F2", "F3", "PASS"],
        );
        expect(
            semeai(SEKI_AFTER_FILLING, "E1", "C1"),
            "1 0",
            &["B1", "B2", "B3", "PASS"],
        );
        let b = board(SEKI_AFTER_FILLING);
        assert!(SemeaiReader::new().is_seki(&b, point(&b, "C1"), point(&b, "E1")));
    }

    /// Black has an eye (A1) and shares D1 and D2 with white, which has three outside
    /// liberties (F1-F3) and no eye.
    const EYE_AGAINST_THREE: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        X X X X O . X . .
        X X X . O . X . .
        . X X . O . X . .";

    /// The same with two outside liberties for white: the shared liberties count for the
    /// eye, and black wins moving second.
    const EYE_AGAINST_TWO: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        X X X X O . X . .
        X X X . O . X . .
        . X X . O X X . .";

    #[test]
    fn an_eye_takes_the_shared_liberties() {
        expect(
            semeai(EYE_AGAINST_THREE, "C1", "E1"),
            "1 1",
            &["F1", "F2", "F3"],
        );
        expect(semeai(EYE_AGAINST_THREE, "E1", "C1"), "1 1", &["D1", "D2"]);
        expect(semeai(EYE_AGAINST_TWO, "C1", "E1"), "1 1", &["F2", "F3"]);
        expect(semeai(EYE_AGAINST_TWO, "E1", "C1"), "0 0", &["PASS"]);
    }

    /// White's liberty F1 can only be filled by the ko capture of G1; black has two outside
    /// liberties and white one (F3), with D1 shared.
    const KO_RACE: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        O . X X O . X . .
        O . X X O O X . .
        O O X . O . O X .";

    /// The same with F3 filled: black's ko capture at F1 is the winning move.
    const KO_RACE_LAST: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O O O X X X X .
        O O X X O X X . .
        O . X X O O X . .
        O O X . O . O X .";

    #[test]
    fn a_race_through_a_ko_gives_code_two() {
        expect(semeai(KO_RACE, "C1", "E1"), "2 2", &["F3"]);
        expect(semeai(KO_RACE, "E1", "C1"), "1 1", &["B2", "B3"]);
        expect(semeai(KO_RACE_LAST, "C1", "E1"), "2 2", &["F1"]);
        expect(semeai(KO_RACE_LAST, "E1", "C1"), "1 1", &["B2"]);
    }

    /// White's liberties F1 and F3 are self-ataris for black (white's stones and the wall
    /// surround them, and white's capture leaves no ko) until black has played the
    /// approach moves G1 and G3, which are no liberties of white's. Black has four
    /// outside liberties (B1-B4) and shares D1: it wins moving first, and only with an
    /// approach move.
    const APPROACH: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O . X X O O X X .
        O . X X O . . . X
        O . X X O O X X .
        O . X . O . . . X";

    /// The same with B4 white: black is a move short.
    const APPROACH_SHORT: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O X X X X .
        O O X X O O X X .
        O . X X O . . . X
        O . X X O O X X .
        O . X . O . . . X";

    #[test]
    fn approach_moves_cost_a_race_a_move() {
        expect(semeai(APPROACH, "C1", "E1"), "1 1", &["D1", "G1", "G3"]);
        expect(
            semeai(APPROACH, "E1", "C1"),
            "1 1",
            &["B1", "B2", "B3", "B4"],
        );
        expect(semeai(APPROACH_SHORT, "C1", "E1"), "0 0", &["PASS"]);
        expect(
            semeai(APPROACH_SHORT, "E1", "C1"),
            "1 1",
            &["B1", "B2", "B3"],
        );
    }

    #[test]
    fn empty_and_same_coloured_points_are_refused() {
        let b = board(SEKI);
        let mut reader = SemeaiReader::new();
        assert_eq!(reader.analyze(&b, point(&b, "D1"), point(&b, "E1")), None);
        assert_eq!(reader.analyze(&b, point(&b, "C1"), point(&b, "D3")), None);
        assert!(!reader.is_seki(&b, point(&b, "C1"), point(&b, "D3")));
    }

    #[test]
    fn the_table_answers_a_repeated_read() {
        let b = board(THREE_AGAINST_THREE);
        let mut reader = SemeaiReader::new();
        let (a, w) = (point(&b, "D1"), point(&b, "E1"));
        let first = reader.analyze(&b, w, a);
        let nodes = reader.stats().nodes;
        assert_eq!(reader.analyze(&b, w, a), first);
        assert!(reader.stats().nodes - nodes <= 2 * u64::from(reader.limits().max_depth) + 2);
        reader.clear();
        assert_eq!(reader.analyze(&b, w, a), first);
    }
}
