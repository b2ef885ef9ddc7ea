//! Random stress test of the fast board against a deliberately naive one written here: a
//! `Vec<Vec<_>>` grid whose chains and liberties are recomputed by flood fill after every
//! move, with no hashing at all (positions compare as sorted stone lists).
//!
//! Thousands of random games on every size from 2x2 to 25x25 (mostly 5, 9 and 19) are played
//! into both, with random legal and illegal attempts. After every move: the legality verdict
//! (occupied, ko, suicide) and the captures agree, the stones agree, every chain's exact
//! liberty count, `in_atari` and `atari_liberty` agree, `check_consistency()` is Ok, and the
//! hash equals that of a fresh board built by placing the same stones. `GameState` undo is
//! exercised by random undo/redo sequences, and its superko verdicts (positional and
//! situational, suicide allowed or not) are compared on small boards with a naive history
//! of positions kept as sorted stone lists.

mod common;

use hane::board::{
    Board, Cell, Color, GameState, IllegalMove, KoRule, MAX_SIZE, MIN_SIZE, Move, OtherLiberties,
    Point, Rules,
};
use hane::playout::{PlayoutRng, playout_rng, random_below};
use hane::tactics::liberties::{MoveLiberties, is_self_atari, liberties_after, liberties_capped};

/// What the naive board stores on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stone {
    Empty,
    Black,
    White,
}

impl Stone {
    fn of(color: Color) -> Stone {
        match color {
            Color::Black => Stone::Black,
            Color::White => Stone::White,
        }
    }
}

/// The naive reference board: a grid, a ko point and capture counts. Nothing is cached.
#[derive(Clone)]
struct NaiveBoard {
    size: usize,
    grid: Vec<Vec<Stone>>,
    /// (column, row, colour that may not play there)
    ko: Option<(usize, usize, Color)>,
    captures: [u32; 2],
}

/// One chain found by flood fill: its stones and its distinct liberties, both sorted.
struct NaiveChain {
    stones: Vec<(usize, usize)>,
    liberties: Vec<(usize, usize)>,
}

impl NaiveBoard {
    fn new(size: usize) -> NaiveBoard {
        NaiveBoard {
            size,
            grid: vec![vec![Stone::Empty; size]; size],
            ko: None,
            captures: [0; 2],
        }
    }

    /// The on-board orthogonal neighbours of a point (two to four of them).
    fn neighbors(&self, (c, r): (usize, usize)) -> impl Iterator<Item = (usize, usize)> + use<> {
        let n = self.size;
        [
            (c > 0).then(|| (c.wrapping_sub(1), r)),
            (c + 1 < n).then_some((c + 1, r)),
            (r > 0).then(|| (c, r.wrapping_sub(1))),
            (r + 1 < n).then_some((c, r + 1)),
        ]
        .into_iter()
        .flatten()
    }

    fn at(&self, (c, r): (usize, usize)) -> Stone {
        self.grid[r][c]
    }

    /// The chain through the stone at `start`, by flood fill.
    fn chain(&self, start: (usize, usize)) -> NaiveChain {
        let color = self.at(start);
        assert_ne!(color, Stone::Empty);
        let mut seen = vec![vec![false; self.size]; self.size];
        let mut stack = vec![start];
        seen[start.1][start.0] = true;
        let mut stones = Vec::new();
        let mut liberties = Vec::new();
        while let Some(p) = stack.pop() {
            stones.push(p);
            for n in self.neighbors(p) {
                let s = self.at(n);
                if s == color && !seen[n.1][n.0] {
                    seen[n.1][n.0] = true;
                    stack.push(n);
                } else if s == Stone::Empty {
                    liberties.push(n);
                }
            }
        }
        stones.sort_unstable();
        liberties.sort_unstable();
        liberties.dedup();
        NaiveChain { stones, liberties }
    }

    /// Every chain on the board, by one flood fill over the whole grid.
    fn all_chains(&self) -> Vec<NaiveChain> {
        let mut seen = vec![vec![false; self.size]; self.size];
        let mut chains = Vec::new();
        for r in 0..self.size {
            for c in 0..self.size {
                let color = self.grid[r][c];
                if color == Stone::Empty || seen[r][c] {
                    continue;
                }
                let mut stack = vec![(c, r)];
                seen[r][c] = true;
                let mut stones = Vec::new();
                let mut liberties = Vec::new();
                while let Some(p) = stack.pop() {
                    stones.push(p);
                    for n in self.neighbors(p) {
                        let s = self.at(n);
                        if s == color && !seen[n.1][n.0] {
                            seen[n.1][n.0] = true;
                            stack.push(n);
                        } else if s == Stone::Empty {
                            liberties.push(n);
                        }
                    }
                }
                stones.sort_unstable();
                liberties.sort_unstable();
                liberties.dedup();
                chains.push(NaiveChain { stones, liberties });
            }
        }
        chains
    }

    fn remove(&mut self, stones: &[(usize, usize)]) {
        for &(c, r) in stones {
            self.grid[r][c] = Stone::Empty;
        }
    }

    /// Plays a move by the board rules (simple ko; suicide removes the own chain if allowed,
    /// else is an error). On error nothing changes. Returns the stones captured.
    fn play(
        &mut self,
        p: (usize, usize),
        color: Color,
        suicide_allowed: bool,
    ) -> Result<usize, IllegalMove> {
        if self.at(p) != Stone::Empty {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some((p.0, p.1, color)) {
            return Err(IllegalMove::Ko);
        }
        let saved = self.grid.clone();
        self.grid[p.1][p.0] = Stone::of(color);
        let enemy = Stone::of(color.opponent());
        let mut captured_points = Vec::new();
        for n in self.neighbors(p) {
            if self.at(n) == enemy {
                let chain = self.chain(n);
                if chain.liberties.is_empty() {
                    self.remove(&chain.stones);
                    captured_points.extend(chain.stones);
                }
            }
        }
        let own = self.chain(p);
        if own.liberties.is_empty() {
            if !suicide_allowed {
                self.grid = saved;
                return Err(IllegalMove::Suicide);
            }
            self.remove(&own.stones);
            self.captures[color.opponent().index()] += own.stones.len() as u32;
        }
        self.captures[color.index()] += captured_points.len() as u32;
        self.ko = None;
        if captured_points.len() == 1 && own.stones.len() == 1 && own.liberties.len() == 1 {
            let (c, r) = captured_points[0];
            self.ko = Some((c, r, color.opponent()));
        }
        Ok(captured_points.len())
    }

    fn pass(&mut self) {
        self.ko = None;
    }

    /// The verdict of a move without playing it.
    fn check(&self, p: (usize, usize), color: Color) -> Result<usize, IllegalMove> {
        self.clone().play(p, color, false)
    }

    /// Every stone, sorted: the naive "hash".
    /// A one-point eye of `color` as the light playout defines it: every orthogonal
    /// neighbour is `color`'s stone, and of the diagonal points on the board at most one (none
    /// on the edge) holds an enemy stone.
    fn is_eye(&self, p: (usize, usize), color: Color) -> bool {
        let own = Stone::of(color);
        let enemy = Stone::of(color.opponent());
        let orthogonal: Vec<_> = self.neighbors(p).collect();
        if orthogonal.iter().any(|&n| self.at(n) != own) {
            return false;
        }
        let (c, r) = (p.0 as isize, p.1 as isize);
        let n = self.size as isize;
        let enemies = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
            .iter()
            .map(|(dc, dr)| (c + dc, r + dr))
            .filter(|&(x, y)| x >= 0 && y >= 0 && x < n && y < n)
            .filter(|&(x, y)| self.at((x as usize, y as usize)) == enemy)
            .count();
        if orthogonal.len() < 4 {
            enemies == 0
        } else {
            enemies <= 1
        }
    }

    /// What `color` playing on the empty point `p` does to liberties, as
    /// `liberties::liberties_after` defines it: the distinct liberties of the joined chain
    /// (its neighbours' liberties but `p`, `p`'s empty neighbours, and each enemy stone next
    /// to `p` whose chain is in atari, which the move captures), counted up to 3; the joined
    /// chain's size; whether it captures.
    fn liberties_after(&self, p: (usize, usize), color: Color) -> MoveLiberties {
        let own = Stone::of(color);
        let mut liberties: Vec<(usize, usize)> = Vec::new();
        let mut stones: Vec<(usize, usize)> = vec![p];
        let mut captures = false;
        for n in self.neighbors(p) {
            match self.at(n) {
                Stone::Empty => liberties.push(n),
                s if s == own => {
                    let chain = self.chain(n);
                    liberties.extend(chain.liberties.iter().filter(|&&q| q != p));
                    stones.extend(chain.stones);
                }
                _ => {
                    if self.chain(n).liberties.len() == 1 {
                        captures = true;
                        liberties.push(n);
                    }
                }
            }
        }
        liberties.sort_unstable();
        liberties.dedup();
        stones.sort_unstable();
        stones.dedup();
        MoveLiberties {
            liberties: liberties.len().min(3),
            chain_size: stones.len(),
            captures,
        }
    }

    fn stone_list(&self) -> Vec<(usize, usize, Stone)> {
        let mut out = Vec::new();
        for r in 0..self.size {
            for c in 0..self.size {
                if self.grid[r][c] != Stone::Empty {
                    out.push((c, r, self.grid[r][c]));
                }
            }
        }
        out
    }
}

fn point(board: &Board, (c, r): (usize, usize)) -> Point {
    board.geometry().point(c, r).expect("on the board")
}

fn stone_list(board: &Board) -> Vec<(usize, usize, Stone)> {
    let mut out = Vec::new();
    for r in 0..board.size() {
        for c in 0..board.size() {
            match board.cell(point(board, (c, r))) {
                Cell::Black => out.push((c, r, Stone::Black)),
                Cell::White => out.push((c, r, Stone::White)),
                Cell::Empty => {}
                Cell::Border => panic!("border cell inside the board"),
            }
        }
    }
    out
}

/// Compares everything the two boards can be asked about; `chains` adds the per-chain
/// checks (stones, liberties, atari), the expensive part.
fn compare(board: &Board, naive: &NaiveBoard, chains: bool, context: &dyn Fn() -> String) {
    if let Err(e) = board.check_consistency() {
        panic!(
            "{}: check_consistency: {e}\n{}",
            context(),
            board.to_diagram()
        );
    }
    let stones = stone_list(board);
    assert_eq!(
        stones,
        naive.stone_list(),
        "{}: stones differ\n{}",
        context(),
        board.to_diagram()
    );
    assert_eq!(
        [board.captures(Color::Black), board.captures(Color::White)],
        naive.captures,
        "{}: capture counts",
        context()
    );
    let ko = naive.ko.map(|(c, r, color)| (point(board, (c, r)), color));
    assert_eq!(board.ko(), ko, "{}: ko point", context());
    assert_eq!(
        board.empty_count(),
        board.size() * board.size() - stones.len()
    );
    // the hash depends on the stones only: a fresh board with the same stones agrees
    let mut fresh = Board::new(board.size()).unwrap();
    for &(c, r, s) in &stones {
        let color = if s == Stone::Black {
            Color::Black
        } else {
            Color::White
        };
        fresh.play_unchecked(point(&fresh, (c, r)), color);
    }
    assert_eq!(
        stone_list(&fresh),
        stones,
        "{}: rebuilding the position",
        context()
    );
    assert_eq!(
        board.hash(),
        fresh.hash(),
        "{}: hash differs from a rebuilt board",
        context()
    );
    if !chains {
        return;
    }
    // every chain: exact liberties, atari and its liberty
    let chains = naive.all_chains();
    let chain_stones: usize = chains.iter().map(|chain| chain.stones.len()).sum();
    assert_eq!(chain_stones, stones.len());
    for chain in &chains {
        let (c, r) = chain.stones[0];
        let p = point(board, (c, r));
        let mut libs: Vec<Point> = chain.liberties.iter().map(|&q| point(board, q)).collect();
        libs.sort_unstable();
        assert_eq!(
            board.chain_len(p),
            chain.stones.len(),
            "{}: chain length",
            context()
        );
        assert_eq!(
            board.liberty_count(p),
            libs.len(),
            "{}: liberty count at {c},{r}",
            context()
        );
        assert_eq!(
            board.chain_liberties(p),
            libs,
            "{}: liberties at {c},{r}",
            context()
        );
        assert_eq!(
            board.in_atari(p),
            libs.len() == 1,
            "{}: in_atari at {c},{r}",
            context()
        );
        assert_eq!(
            board.atari_liberty(p),
            (libs.len() == 1).then(|| libs[0]),
            "{}: atari_liberty at {c},{r}",
            context()
        );
        // The liberties besides each liberty (and besides a point that is none).
        let naive_besides = |except: Point| {
            let rest: Vec<Point> = libs.iter().copied().filter(|&q| q != except).collect();
            match rest.len() {
                0 => OtherLiberties::None,
                1 => OtherLiberties::One(rest[0]),
                _ => OtherLiberties::Several,
            }
        };
        for &except in libs.iter().chain(std::iter::once(&p)) {
            assert_eq!(
                board.liberties_besides(p, except),
                naive_besides(except),
                "{}: liberties of {c},{r} besides {except:?}",
                context()
            );
        }
        let adjacent = board.adjacent_liberty_and_rest(p);
        let empty_neighbours: Vec<Point> = board
            .geometry()
            .neighbors(p)
            .into_iter()
            .filter(|&n| board.cell_at(n) == Cell::Empty)
            .map(Point::from_index)
            .collect();
        match adjacent {
            None => assert!(
                empty_neighbours.is_empty(),
                "{}: no adjacent liberty found at {c},{r}",
                context()
            ),
            Some((x, rest)) => {
                assert!(
                    empty_neighbours.contains(&x),
                    "{}: {x:?} is no empty neighbour of {c},{r}",
                    context()
                );
                assert_eq!(
                    rest,
                    naive_besides(x),
                    "{}: liberties of {c},{r} besides its neighbour {x:?}",
                    context()
                );
            }
        }
        for cap in 0..=8 {
            assert_eq!(
                liberties_capped(board, p, cap),
                libs.len().min(cap),
                "{}: liberties of {c},{r} capped at {cap}",
                context()
            );
        }
        let mut members: Vec<Point> = board.chain_stones(p).collect();
        members.sort_unstable();
        let mut expected: Vec<Point> = chain.stones.iter().map(|&q| point(board, q)).collect();
        expected.sort_unstable();
        assert_eq!(members, expected, "{}: chain stones", context());
        let id = board.chain_id(p);
        assert!(members.iter().all(|&q| board.chain_id(q) == id));
    }
}

/// Checks every point's verdict for both colours against the naive board.
fn compare_all_verdicts(board: &Board, naive: &NaiveBoard, context: &dyn Fn() -> String) {
    for r in 0..board.size() {
        for c in 0..board.size() {
            for color in Color::ALL {
                let p = point(board, (c, r));
                let expected = naive.check((c, r), color).map(|_| ());
                assert_eq!(
                    board.check_move(p, color),
                    expected,
                    "{}: verdict of {color} at {c},{r}",
                    context()
                );
                if expected.is_ok() || expected == Err(IllegalMove::Ko) {
                    // what the light playout asks, piece by piece
                    assert_eq!(
                        board.is_ko_retake(p, color),
                        expected == Err(IllegalMove::Ko)
                    );
                }
                if board.cell(p) == Cell::Empty && expected != Err(IllegalMove::Ko) {
                    assert_eq!(
                        board.is_suicide(p, color),
                        expected == Err(IllegalMove::Suicide)
                    );
                }
                if board.cell(p) == Cell::Empty {
                    let expected = naive.liberties_after((c, r), color);
                    assert_eq!(
                        liberties_after(board, p, color),
                        expected,
                        "{}: liberties after {color} at {c},{r}\n{}",
                        context(),
                        board.to_diagram()
                    );
                    for min_size in 1..=4 {
                        assert_eq!(
                            is_self_atari(board, p, color, min_size),
                            !expected.captures
                                && expected.liberties <= 1
                                && expected.chain_size >= min_size,
                            "{}: self-atari of {color} at {c},{r}, chains of {min_size} or more",
                            context()
                        );
                    }
                }
                if board.cell(p) == Cell::Empty {
                    // the light playout's combined test: legal and not its own eye
                    let eye = naive.is_eye((c, r), color);
                    assert_eq!(board.is_eye(p, color), eye, "{}: eye at {c},{r}", context());
                    assert_eq!(
                        board.is_legal_non_eye(p, color),
                        expected.is_ok() && !eye,
                        "{}: light-playout verdict of {color} at {c},{r}",
                        context()
                    );
                }
            }
        }
    }
}

/// Mostly 5x5, 9x9 and 19x19; every size from 2x2 to 25x25 now and then.
fn random_size(rng: &mut PlayoutRng) -> usize {
    match random_below(rng, 10) {
        0..=3 => 5,
        4..=6 => 9,
        7 => 19,
        8 => 2 + random_below(rng, 3), // 2, 3, 4: tiny boards, many suicides and kos
        _ => MIN_SIZE + random_below(rng, MAX_SIZE - MIN_SIZE + 1),
    }
}

/// Picks the next attempt: mostly a legal non-eye move (so that games end), sometimes any
/// point at all (occupied, ko, suicide...), sometimes a pass.
fn random_attempt(board: &Board, color: Color, rng: &mut PlayoutRng) -> Option<(usize, usize)> {
    let size = board.size();
    let roll = random_below(rng, 100);
    if roll < 2 {
        return None;
    }
    if roll < 30 {
        return Some((random_below(rng, size), random_below(rng, size)));
    }
    let candidates: Vec<Point> = board
        .empty_points()
        .iter()
        .map(|&i| Point::from_index(i as usize))
        .filter(|&p| board.is_legal(p, color) && !board.is_eye(p, color))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    Some(
        board
            .geometry()
            .coords(candidates[random_below(rng, candidates.len())]),
    )
}

/// One random game into both boards; returns the number of attempts made.
fn stress_game(game_index: u64, size: usize, suicide_allowed: bool, rng: &mut PlayoutRng) -> usize {
    let mut board = Board::new(size).unwrap();
    let mut naive = NaiveBoard::new(size);
    let mut color = Color::Black;
    let mut passes = 0;
    let mut attempts = 0;
    let cap = 3 * size * size + 20;
    let full_sweep_every = if size <= 9 { 4 } else { 64 };
    let mut moves = 0;
    let mut captured_before = 0;
    while passes < 2 && moves < cap {
        attempts += 1;
        let attempt = random_attempt(&board, color, rng);
        let (move_number, mover) = (moves, color);
        let context = move || {
            format!(
                "game {game_index} ({size}x{size}, suicide {suicide_allowed}), move {move_number}: {mover} {attempt:?}"
            )
        };
        match attempt {
            None => {
                board.pass();
                naive.pass();
                passes += 1;
            }
            Some(cr) => {
                let p = point(&board, cr);
                let expected = naive.check(cr, color);
                let verdict = board.check_move(p, color);
                assert_eq!(verdict, expected.map(|_| ()), "{}", context());
                assert_eq!(board.is_legal(p, color), expected.is_ok(), "{}", context());
                match expected {
                    Ok(captured) => {
                        let before_hash = board.hash_after(p, color);
                        let got = if random_below(rng, 2) == 0 {
                            board.play(p, color).expect("legal move")
                        } else {
                            board.play_unchecked(p, color)
                        };
                        assert_eq!(got, captured, "{}: captures", context());
                        naive.play(cr, color, false).unwrap();
                        assert_eq!(board.hash(), before_hash, "{}: hash_after", context());
                        passes = 0;
                    }
                    Err(IllegalMove::Suicide) if suicide_allowed => {
                        let before_hash = board.hash_after(p, color);
                        let got = board.play_unchecked(p, color);
                        let captured = naive.play(cr, color, true).unwrap();
                        assert_eq!(got, captured, "{}: suicide captures", context());
                        assert_eq!(
                            board.hash(),
                            before_hash,
                            "{}: hash_after suicide",
                            context()
                        );
                        passes = 0;
                    }
                    Err(_) => {
                        // rejected: nothing may change, and the player tries again
                        let before = board.clone();
                        assert!(board.play(p, color).is_err());
                        assert!(board == before && board.hash() == before.hash());
                        compare(&board, &naive, false, &context);
                        continue;
                    }
                }
            }
        }
        moves += 1;
        color = color.opponent();
        let captured_now = board.captures(Color::Black) + board.captures(Color::White);
        let chains = size <= 9 || captured_now != captured_before || moves % 8 == 0;
        captured_before = captured_now;
        compare(&board, &naive, chains, &context);
        if moves % full_sweep_every == 0 {
            compare_all_verdicts(&board, &naive, &context);
        }
        // copy_from onto a scratch board of another size must give an identical board
        if moves % 50 == 0 {
            let mut scratch = Board::new(MAX_SIZE).unwrap();
            scratch.copy_from(&board);
            assert!(scratch == board && scratch.hash() == board.hash());
            scratch.check_consistency().unwrap();
            compare(&scratch, &naive, true, &context);
        }
    }
    attempts
}

fn game_count() -> u64 {
    // Debug builds run a tenth of the games; `cargo test --release` runs them all.
    if cfg!(debug_assertions) { 150 } else { 1500 }
}

#[test]
fn random_games_match_the_naive_board() {
    let mut rng = playout_rng(20261122, 0);
    let mut attempts = 0;
    let mut sizes = [0usize; MAX_SIZE + 1];
    for game in 0..game_count() {
        // the first games cover every size once
        let size = match MIN_SIZE + game as usize {
            size @ MIN_SIZE..=MAX_SIZE => size,
            _ => random_size(&mut rng),
        };
        sizes[size] += 1;
        let suicide_allowed = random_below(&mut rng, 4) == 0;
        attempts += stress_game(game, size, suicide_allowed, &mut rng);
    }
    eprintln!(
        "stress: {} games, {attempts} attempts, games per size {:?}",
        game_count(),
        &sizes[2..]
    );
    assert!(sizes[MIN_SIZE..].iter().all(|&n| n > 0));
    assert!(attempts as u64 > 20 * game_count());
}

/// A snapshot of everything `undo` must restore.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    diagram: String,
    hash: u64,
    ko: Option<(Point, Color)>,
    to_move: Color,
    moves: Vec<(Color, Move)>,
    captures: [u32; 2],
    passes: u32,
}

fn snapshot(game: &GameState) -> Snapshot {
    Snapshot {
        diagram: game.board().to_diagram(),
        hash: game.board().hash(),
        ko: game.board().ko(),
        to_move: game.to_move(),
        moves: game.moves().to_vec(),
        captures: [
            game.board().captures(Color::Black),
            game.board().captures(Color::White),
        ],
        passes: game.consecutive_passes(),
    }
}

fn random_game_move(game: &GameState, rng: &mut PlayoutRng) -> Move {
    let color = game.to_move();
    let board = game.board();
    let candidates: Vec<Point> = board
        .empty_points()
        .iter()
        .map(|&i| Point::from_index(i as usize))
        .filter(|&p| !board.is_eye(p, color) && game.is_legal(color, Move::Play(p)))
        .collect();
    if candidates.is_empty() || random_below(rng, 50) == 0 {
        Move::Pass
    } else {
        Move::Play(candidates[random_below(rng, candidates.len())])
    }
}

#[test]
fn random_undo_redo_sequences() {
    let mut rng = playout_rng(7, 1);
    let games = if cfg!(debug_assertions) { 40 } else { 300 };
    let mut undos = 0;
    for game_index in 0..games {
        let size = [5, 7, 9, 13, 19][random_below(&mut rng, 5)];
        let rules = match random_below(&mut rng, 4) {
            0 => Rules::default(),
            1 => Rules::tromp_taylor(7.5),
            2 => Rules::aga(7.5),
            _ => Rules {
                ko: KoRule::Simple,
                ..Rules::default()
            },
        };
        let mut game = GameState::new(size, rules).unwrap();
        // history[k]: the state after k moves
        let mut history = vec![snapshot(&game)];
        let steps = 2 * size * size;
        for _ in 0..steps {
            if game.is_over() {
                break;
            }
            if random_below(&mut rng, 5) == 0 && history.len() > 1 {
                // undo a few moves, check each state, then redo them exactly
                let back = 1 + random_below(&mut rng, (history.len() - 1).min(8));
                let replay: Vec<(Color, Move)> = game.moves()[game.moves().len() - back..].to_vec();
                for _ in 0..back {
                    assert!(game.undo());
                    history.pop();
                    undos += 1;
                    assert_eq!(
                        &snapshot(&game),
                        history.last().unwrap(),
                        "game {game_index}: undo"
                    );
                    game.board().check_consistency().unwrap();
                }
                if random_below(&mut rng, 2) == 0 {
                    for (color, mv) in replay {
                        game.play(color, mv)
                            .expect("a move that was legal is legal again");
                        history.push(snapshot(&game));
                    }
                }
                continue;
            }
            let mv = random_game_move(&game, &mut rng);
            let color = game.to_move();
            game.play(color, mv).unwrap();
            history.push(snapshot(&game));
            game.board().check_consistency().unwrap();
        }
        // undo everything: back to the empty board
        while game.undo() {
            history.pop();
            assert_eq!(&snapshot(&game), history.last().unwrap());
        }
        assert_eq!(history.len(), 1);
        assert!(game.board().is_empty());
        assert_eq!(game.board().hash(), Board::new(size).unwrap().hash());
    }
    assert!(undos > 100, "only {undos} undos exercised");
}

/// Positions seen so far: the sorted stone list and the player to move.
type PositionHistory = std::collections::HashSet<(Vec<(usize, usize, Stone)>, Color)>;

/// The naive verdict of a move under full rules: the board's own rules, then superko
/// against the history of sorted stone lists (positional: any earlier position;
/// situational: an earlier position with the same player to move).
fn naive_game_verdict(
    naive: &NaiveBoard,
    history: &PositionHistory,
    rules: &Rules,
    p: (usize, usize),
    color: Color,
) -> Result<NaiveBoard, IllegalMove> {
    let mut after = naive.clone();
    after.play(p, color, rules.suicide_allowed)?;
    let stones = after.stone_list();
    let repeats = match rules.ko {
        KoRule::Simple => false,
        KoRule::PositionalSuperko => Color::ALL
            .iter()
            .any(|&c| history.contains(&(stones.clone(), c))),
        KoRule::SituationalSuperko => history.contains(&(stones, color.opponent())),
    };
    if repeats {
        return Err(IllegalMove::Superko);
    }
    Ok(after)
}

#[test]
fn superko_verdicts_match_a_naive_position_history() {
    let mut rng = playout_rng(1122, 3);
    let games = if cfg!(debug_assertions) { 60 } else { 400 };
    let mut superko_verdicts = 0;
    let mut suicides_played = 0;
    for game_index in 0..games {
        let size = 2 + random_below(&mut rng, 5);
        let rules = match random_below(&mut rng, 4) {
            0 => Rules::default(),
            1 => Rules::tromp_taylor(7.5),
            2 => Rules::aga(7.5),
            _ => Rules::new_zealand(7.5),
        };
        let mut game = GameState::new(size, rules).unwrap();
        let mut naive = NaiveBoard::new(size);
        let mut history = PositionHistory::new();
        history.insert((naive.stone_list(), Color::Black));
        for move_number in 0..4 * size * size {
            let color = game.to_move();
            let mut legal = Vec::new();
            for r in 0..size {
                for c in 0..size {
                    let p = point(game.board(), (c, r));
                    let expected = naive_game_verdict(&naive, &history, &rules, (c, r), color);
                    let verdict = game.check_move(color, Move::Play(p));
                    assert_eq!(
                        verdict,
                        expected.as_ref().map(|_| ()).map_err(|e| *e),
                        "game {game_index} ({size}x{size}, {rules:?}) move {move_number}: {color} at {c},{r}\n{}",
                        game.board().to_diagram()
                    );
                    superko_verdicts += (verdict == Err(IllegalMove::Superko)) as u32;
                    if let Ok(after) = expected {
                        legal.push(((c, r), after));
                    }
                }
            }
            if legal.is_empty() || random_below(&mut rng, 12) == 0 {
                game.play(color, Move::Pass).unwrap();
                naive.pass();
                if game.is_over() {
                    break;
                }
            } else {
                let (cr, after) = legal.swap_remove(random_below(&mut rng, legal.len()));
                let stones_before = naive.stone_list().len();
                game.play(color, Move::Play(point(game.board(), cr)))
                    .unwrap();
                suicides_played += (after.stone_list().len() < stones_before
                    && after.captures[color.opponent().index()]
                        > naive.captures[color.opponent().index()])
                    as u32;
                naive = after;
            }
            history.insert((naive.stone_list(), game.to_move()));
            compare(game.board(), &naive, true, &|| {
                format!("game {game_index} move {move_number}")
            });
        }
    }
    eprintln!(
        "superko: {games} games, {superko_verdicts} superko verdicts, {suicides_played} suicides played"
    );
    assert!(
        superko_verdicts > 100,
        "only {superko_verdicts} superko verdicts compared"
    );
    assert!(
        suicides_played > 10,
        "only {suicides_played} suicides played"
    );
}
