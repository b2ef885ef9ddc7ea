//! `GameState`: a board together with its rules and history: whose turn it is, superko,
//! passes, undo, handicap and setup stones, and the score under area rules.

use super::geometry::{Color, Geometry, Move, Point};
use super::position::{Board, IllegalMove};
use super::rules::{KoRule, Rules};

/// Why handicap stones could not be placed; the messages are the GTP spec's error strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapError {
    BoardNotEmpty,
    InvalidNumberOfStones,
    BadVertexList,
}

impl std::fmt::Display for HandicapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HandicapError::BoardNotEmpty => "board not empty",
            HandicapError::InvalidNumberOfStones => "invalid number of stones",
            HandicapError::BadVertexList => "bad vertex list",
        })
    }
}

impl std::error::Error for HandicapError {}

/// The authoritative state of one game.
#[derive(Clone, Debug)]
pub struct GameState {
    board: Board,
    rules: Rules,
    to_move: Color,
    /// The position before the first move: handicap and setup stones.
    start: Board,
    start_to_move: Color,
    /// Setup stones in the order they were placed (handicap stones are black setup stones).
    setup: Vec<(Color, Point)>,
    handicap: usize,
    moves: Vec<(Color, Move)>,
    /// Stone hash and player to move of every position so far, the start included.
    positions: Vec<(u64, Color)>,
    consecutive_passes: u32,
}

/// The fixed handicap layout of the GTP specification: (column, row) in units of
/// low (0), middle (1) and high (2) lines.
/// Five, seven and nine stones add the centre point (1, 1) to the layout of one fewer.
const FIXED_HANDICAP_LAYOUT: [(u8, u8); 8] = [
    (0, 0),
    (2, 2),
    (0, 2),
    (2, 0),
    (0, 1),
    (2, 1),
    (1, 0),
    (1, 2),
];

impl GameState {
    /// A new game on an empty board of `size` (2..=25), black to move.
    pub fn new(size: usize, rules: Rules) -> Option<GameState> {
        let board = Board::new(size)?;
        Some(GameState::from_board(board, Color::Black, rules))
    }

    /// A game that starts from an arbitrary position (for tests and SGF setup).
    pub fn from_board(board: Board, to_move: Color, rules: Rules) -> GameState {
        let mut board = board;
        board.pass(); // the start position has no ko restriction
        let key = position_key(&board, to_move);
        GameState {
            start: board.clone(),
            board,
            rules,
            to_move,
            start_to_move: to_move,
            setup: Vec::new(),
            handicap: 0,
            moves: Vec::new(),
            positions: vec![key],
            consecutive_passes: 0,
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.board.geometry()
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.board.size()
    }

    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Replaces the rules; the position and history stay.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    pub fn komi(&self) -> f32 {
        self.rules.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.rules.komi = komi;
    }

    /// The colour to move: the opponent of the last mover, or who moves first.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The moves played since the start position.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// The last move, if any.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.moves.last().copied()
    }

    /// The setup stones (handicap included) in placement order.
    pub fn setup_stones(&self) -> &[(Color, Point)] {
        &self.setup
    }

    /// Number of handicap stones.
    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// Passes in a row at the end of the history.
    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// Resets the pass counter (the cleanup phase after a disputed end of game).
    pub fn reset_consecutive_passes(&mut self) {
        self.consecutive_passes = 0;
    }

    /// Two passes in a row end the game.
    pub fn is_over(&self) -> bool {
        self.consecutive_passes >= 2
    }

    /// Whether a position with this stone hash and this player to move has occurred, in the
    /// sense of the rules' ko rule (never for simple ko).
    pub fn repeats_position(&self, stone_hash: u64, to_move: Color) -> bool {
        match self.rules.ko {
            KoRule::Simple => false,
            KoRule::PositionalSuperko => self.positions.iter().any(|&(hash, _)| hash == stone_hash),
            KoRule::SituationalSuperko => self.positions.contains(&(stone_hash, to_move)),
        }
    }

    /// Checks a move against every rule: occupancy, simple ko, suicide (unless the rules
    /// allow it) and superko. Passing is always legal.
    pub fn check_move(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        let p = match mv {
            Move::Pass => return Ok(()),
            Move::Play(p) => p,
        };
        match self.board.check_move(p, color) {
            Ok(()) => {}
            Err(IllegalMove::Suicide) if self.rules.suicide_allowed => {}
            Err(e) => return Err(e),
        }
        if self.rules.ko != KoRule::Simple {
            let hash = self.board.hash_after(p, color);
            if self.repeats_position(hash, color.opponent()) {
                return Err(IllegalMove::Superko);
            }
        }
        Ok(())
    }

    /// Whether `color` may play `mv` now.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check_move(color, mv).is_ok()
    }

    /// Every point where `color` may legally play (passing is always legal besides).
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        self.geometry()
            .points()
            .filter(|&p| self.is_legal(color, Move::Play(p)))
            .collect()
    }

    /// Plays a move after checking it; on error nothing changes. Consecutive moves of the
    /// same colour are allowed (GTP permits them).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check_move(color, mv)?;
        self.apply(color, mv);
        Ok(())
    }

    /// Plays a move known to be legal.
    fn apply(&mut self, color: Color, mv: Move) {
        match mv {
            Move::Pass => {
                self.board.pass();
                self.consecutive_passes += 1;
            }
            Move::Play(p) => {
                self.board.play_unchecked(p, color);
                self.consecutive_passes = 0;
            }
        }
        self.to_move = color.opponent();
        self.moves.push((color, mv));
        self.positions.push(position_key(&self.board, self.to_move));
    }

    /// Takes back the last move. Handicap and setup stones cannot be undone.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        let moves = std::mem::take(&mut self.moves);
        self.replay(&moves);
        true
    }

    /// Rebuilds the state from the start position by replaying `moves` (which were legal).
    fn replay(&mut self, moves: &[(Color, Move)]) {
        self.board = self.start.clone();
        self.to_move = self.start_to_move;
        self.positions.truncate(1);
        self.consecutive_passes = 0;
        self.moves.clear();
        for &(color, mv) in moves {
            self.apply(color, mv);
        }
    }

    /// Places setup stones before the first move (SGF `AB`/`AW`). Fails without changing
    /// anything if a move was played, a point is repeated or occupied, or a stone would be
    /// left without liberties.
    pub fn add_setup_stones(&mut self, stones: &[(Color, Point)]) -> Result<(), HandicapError> {
        if !self.moves.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let mut board = self.board.clone();
        for (k, &(color, p)) in stones.iter().enumerate() {
            if stones[..k].iter().any(|&(_, q)| q == p) {
                return Err(HandicapError::BadVertexList);
            }
            if !board.geometry().contains_index(p.index()) || board.is_suicide(p, color) {
                return Err(HandicapError::BadVertexList);
            }
            if board.cell(p) != super::Cell::Empty {
                return Err(HandicapError::BadVertexList);
            }
            if board.play_unchecked(p, color) > 0 {
                return Err(HandicapError::BadVertexList);
            }
        }
        board.pass();
        self.board = board;
        self.start = self.board.clone();
        self.setup.extend_from_slice(stones);
        self.positions = vec![position_key(&self.board, self.to_move)];
        self.start_to_move = self.to_move;
        Ok(())
    }

    /// Sets who moves next without a move (SGF `PL`, or after setup). Only before any move.
    pub fn set_to_move(&mut self, color: Color) -> bool {
        if !self.moves.is_empty() {
            return false;
        }
        self.to_move = color;
        self.start_to_move = color;
        self.positions = vec![position_key(&self.board, color)];
        true
    }

    /// Largest number of stones `fixed_handicap` accepts on this size: 9 on odd sizes from 9
    /// up, 4 on 7x7 and on even sizes from 8 up, none below 7x7.
    pub fn max_fixed_handicap(size: usize) -> usize {
        match size {
            0..=6 => 0,
            7 => 4,
            s if s % 2 == 0 => 4,
            _ => 9,
        }
    }

    /// The GTP specification's fixed handicap points for `stones` on `size`.
    pub fn fixed_handicap_points(size: usize, stones: usize) -> Option<Vec<Point>> {
        if stones < 2 || stones > GameState::max_fixed_handicap(size) {
            return None;
        }
        let geometry = Geometry::new(size)?;
        let edge = if size < 13 { 2 } else { 3 };
        let line = |k: u8| match k {
            0 => edge,
            1 => (size - 1) / 2,
            _ => size - 1 - edge,
        };
        let with_centre = stones >= 5 && stones % 2 == 1;
        let corners_and_sides = if with_centre { stones - 1 } else { stones };
        let mut points: Vec<Point> = FIXED_HANDICAP_LAYOUT[..corners_and_sides]
            .iter()
            .map(|&(c, r)| geometry.point(line(c), line(r)).expect("inside the board"))
            .collect();
        if with_centre {
            points.push(geometry.point(line(1), line(1)).expect("inside the board"));
        }
        Some(points)
    }

    /// `fixed_handicap`: places the standard handicap stones; white moves next.
    pub fn place_fixed_handicap(&mut self, stones: usize) -> Result<Vec<Point>, HandicapError> {
        if !self.board.is_empty() || !self.moves.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let points = GameState::fixed_handicap_points(self.size(), stones)
            .ok_or(HandicapError::InvalidNumberOfStones)?;
        self.set_handicap(&points)?;
        Ok(points)
    }

    /// `set_free_handicap`: the given points become black handicap stones; white moves next.
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        if !self.board.is_empty() || !self.moves.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let area = self.size() * self.size();
        if points.len() < 2 || points.len() >= area {
            return Err(HandicapError::BadVertexList);
        }
        self.set_handicap(points)
    }

    /// `place_free_handicap`: the engine's own choice of handicap points, spread out on the
    /// third and fourth lines (the fixed layout where it exists); white moves next.
    pub fn place_free_handicap(&mut self, stones: usize) -> Result<Vec<Point>, HandicapError> {
        if !self.board.is_empty() || !self.moves.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let area = self.size() * self.size();
        if stones < 2 || stones >= area {
            return Err(HandicapError::InvalidNumberOfStones);
        }
        let points = self.choose_free_handicap(stones);
        self.set_handicap(&points)?;
        Ok(points)
    }

    fn choose_free_handicap(&self, stones: usize) -> Vec<Point> {
        let size = self.size();
        let geometry = self.geometry();
        let mut points =
            GameState::fixed_handicap_points(size, stones.min(GameState::max_fixed_handicap(size)))
                .unwrap_or_default();
        let preferred_edge = if size < 13 { 2 } else { 3 };
        let mut board = self.board.clone();
        for &p in &points {
            board.play_unchecked(p, Color::Black);
        }
        while points.len() < stones {
            // Greedy: the point farthest from the stones so far, preferring the usual lines.
            let best = geometry
                .points()
                .filter(|&p| {
                    board.cell(p) == super::Cell::Empty && !board.is_suicide(p, Color::Black)
                })
                .filter(|&p| {
                    // Keep one liberty-giving neighbour free so that no stone is captured.
                    let mut test = board.clone();
                    test.play_unchecked(p, Color::Black);
                    test.cell(p) == super::Cell::Black
                })
                .max_by_key(|&p| {
                    let spread = points
                        .iter()
                        .map(|&q| geometry.distance(p, q))
                        .min()
                        .unwrap_or(size);
                    let line_bonus =
                        (geometry.edge_distance(p) >= preferred_edge.min(size / 2)) as usize;
                    (spread.min(2 * size) * 2 + line_bonus, std::cmp::Reverse(p))
                });
            match best {
                Some(p) => {
                    board.play_unchecked(p, Color::Black);
                    points.push(p);
                }
                None => break,
            }
        }
        points
    }

    fn set_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        let stones: Vec<(Color, Point)> = points.iter().map(|&p| (Color::Black, p)).collect();
        self.add_setup_stones(&stones)?;
        self.handicap = points.len();
        self.to_move = Color::White;
        self.start_to_move = Color::White;
        self.positions = vec![position_key(&self.board, Color::White)];
        Ok(())
    }

    /// Area score of the current position with every stone taken as alive: black minus white,
    /// komi and handicap compensation included.
    pub fn score(&self) -> f32 {
        self.board.area_score() as f32 - self.rules.komi - self.rules.handicap_points(self.handicap)
    }

    /// Area score after removing the given dead stones first.
    pub fn score_with_dead(&self, dead: &[Point]) -> f32 {
        let mut board = self.board.clone();
        let mut cleaned = Board::with_geometry(board.geometry());
        for p in board.geometry().points() {
            if let Some(color) = board.cell(p).color()
                && !dead.contains(&p)
            {
                cleaned.play_unchecked(p, color);
            }
        }
        board = cleaned;
        board.area_score() as f32 - self.rules.komi - self.rules.handicap_points(self.handicap)
    }
}

/// Formats a score (black minus white) the GTP way: `B+3.5`, `W+0.5`, `0`.
pub fn format_score(score: f32) -> String {
    if score > 0.0 {
        format!("B+{}", trim_float(score))
    } else if score < 0.0 {
        format!("W+{}", trim_float(-score))
    } else {
        "0".to_string()
    }
}

fn trim_float(value: f32) -> String {
    if value.fract() == 0.0 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// What is remembered of a position for superko.
fn position_key(board: &Board, to_move: Color) -> (u64, Color) {
    (board.hash(), to_move)
}
