//! The opening book end to end: GTP `hane-book`, book moves played at once and explained,
//! `book=off`, malformed book files refused at start-up with the line named, the 19x19
//! prior reaching the root of the search, and `hane book build9` resuming from its
//! checkpoint and splitting into shards that merge into the same book.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::Session;
use hane::board::{Color, GameState, Move, Rules};
use hane::play::book::{Book, BookUse};
use hane::play::{MoveRequest, Player};
use hane::search::SearchControl;
use hane::settings::{Auto, BookSource, Settings};

fn hane() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hane"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SMALL_BOOK: &str = "hane-book 1
# a hand-made book
section size=9 komi=7.5 rules=area use=play
- -> C3:500:0.6 E5:50:0.5
C3 -> G7:400:0.55
section size=19 komi=any rules=any use=prior
- -> Q16:900:0.5 R16:100:0.5
";

fn write_small_book(dir: &Path) -> PathBuf {
    let path = dir.join("small.txt");
    std::fs::write(&path, SMALL_BOOK).unwrap();
    path
}

#[test]
fn gtp_lists_plays_and_explains_book_moves() {
    let dir = temp_dir("gtp");
    let book = write_small_book(&dir);
    let mut s = Session::start_in(
        &[
            "--book",
            book.to_str().unwrap(),
            "--threads",
            "1",
            "--playouts",
            "50",
        ],
        None,
    );
    assert!(s.ask("list_commands").contains(&"hane-book".to_string()));
    let analyze = s.ask("gogui-analyze_commands");
    assert!(
        analyze
            .iter()
            .any(|l| l == "string/Book moves/hane-book %m"),
        "{analyze:?}"
    );
    assert_eq!(s.ask("boardsize 9"), ["= "]);
    assert_eq!(s.ask("clear_board"), ["= "]);
    assert_eq!(
        s.ask("hane-book"),
        ["= C3 500 0.600 play", "E5 50 0.500 play"]
    );
    // A symmetric position: the book's G7 reply to C3 is found after G3 too, mirrored.
    assert_eq!(s.ask("play b G3"), ["= "]);
    assert_eq!(s.ask("hane-book w"), ["= C7 400 0.550 play"]);
    assert_eq!(s.ask("undo"), ["= "]);
    // Played at once, and explained.
    assert_eq!(s.ask("genmove b"), ["= C3"]);
    let explained = s.ask("gomill-explain_last_move");
    assert!(
        explained[0].starts_with("= book move C3 for black"),
        "{explained:?}"
    );
    assert_eq!(s.ask("genmove w"), ["= G7"]);
    // Out of the book: a search, and an empty list.
    assert_eq!(s.ask("hane-book"), ["= "]);
    let reply = s.ask("genmove b");
    assert!(reply[0].starts_with("= "), "{reply:?}");
    let explained = s.ask("gomill-explain_last_move");
    assert!(explained[0].contains("playouts"), "{explained:?}");
    // Another komi is not the book's.
    assert_eq!(s.ask("komi 6.5"), ["= "]);
    assert_eq!(s.ask("clear_board"), ["= "]);
    assert_eq!(s.ask("hane-book"), ["= "]);
    assert_eq!(s.ask("hane-book x"), ["? syntax error"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_off_has_no_book_moves() {
    let mut s = Session::start_in(&["--book", "off"], None);
    assert_eq!(s.ask("boardsize 9"), ["= "]);
    assert_eq!(s.ask("clear_board"), ["= "]);
    assert_eq!(s.ask("hane-book"), ["= "]);
}

#[test]
fn the_builtin_book_knows_the_empty_boards() {
    let book = Book::builtin();
    for (size, komi, use_) in [
        (9, 7.5, BookUse::Play),
        (9, 7.0, BookUse::Play),
        (19, 7.5, BookUse::Prior),
        (19, 6.5, BookUse::Prior),
    ] {
        let state = GameState::new(
            size,
            Rules {
                komi,
                ..Rules::default()
            },
        )
        .unwrap();
        let hit = book
            .lookup(&state, Color::Black)
            .unwrap_or_else(|| panic!("{size}x{size} komi {komi}"));
        assert_eq!(hit.use_, use_, "{size}x{size} komi {komi}");
        if use_ == BookUse::Play {
            assert!(hit.play_choice().is_some(), "{size}x{size} komi {komi}");
        }
    }
}

#[test]
fn malformed_books_stop_the_engine_at_start_up_naming_the_line() {
    let dir = temp_dir("bad");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "hane-book 1\nsection size=9 komi=7.5 rules=area use=play\n- -> E5:10:0.5\nE5 -> E5:1:0.5\n",
    )
    .unwrap();
    let out = hane()
        .arg("--book")
        .arg(&bad)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("bad.txt: line 4"), "{stderr}");
    assert!(stderr.contains("(setting book)"), "{stderr}");
    // Binary junk and a missing file are errors too, not panics.
    std::fs::write(&bad, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let out = hane().arg("--book").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8"));
    let out = hane()
        .args(["--book", "/nonexistent/book.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/book.txt"));
    // A match refuses a player spec with a bad book before any game.
    let out = hane()
        .args(["selfplay", "--games", "1", "--size", "9", "--out"])
        .arg(dir.join("match"))
        .arg("--player1")
        .arg(format!("book={},playouts=10", bad.display()))
        .args(["--player2", "playouts=10"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("setting book"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_prior_book_seeds_the_root_of_the_search() {
    let dir = temp_dir("prior");
    let book = write_small_book(&dir);
    let settings = |book: BookSource| {
        let mut s = Settings::default();
        s.game.playouts = Some(30);
        s.game.threads = Auto::Value(1);
        s.game.book = book;
        s
    };
    let state = GameState::new(19, Rules::default()).unwrap();
    let prior_of = |book: BookSource, vertex: &str| {
        let mut player = Player::new(settings(book), hane::pattern::PatternTables::Builtin, 3);
        let chosen = player.choose(
            &state,
            Color::Black,
            &MoveRequest::normal(None),
            &SearchControl::default(),
            None,
        );
        let mv = Move::parse(state.geometry(), vertex).unwrap();
        let prior = chosen
            .result
            .analysis
            .moves
            .iter()
            .find(|m| m.mv == mv)
            .map_or(0.0, |m| m.prior);
        (prior, chosen)
    };
    let (with, chosen) = prior_of(BookSource::File(book.clone()), "Q16");
    let (without, plain) = prior_of(BookSource::Off, "Q16");
    assert!(with > without, "{with} {without}");
    let note = chosen.book.expect("the empty board is in the book");
    assert!(!note.played);
    assert!(chosen.result.analysis.playouts > 0);
    assert!(plain.book.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

fn build9(out: &Path, extra: &[&str]) -> (String, String) {
    build9_to_depth(out, 3, extra)
}

fn build9_to_depth(out: &Path, depth: usize, extra: &[&str]) -> (String, String) {
    let output = hane()
        .args(["book", "build9", "--playouts", "200", "--margin", "1"])
        .arg("--depth")
        .arg(depth.to_string())
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty());
    let book = std::fs::read_to_string(out.join("book.txt")).unwrap();
    (book, stderr)
}

fn entries(book: &str) -> Vec<String> {
    let mut lines: Vec<String> = book
        .lines()
        .filter(|l| l.contains("->"))
        .map(String::from)
        .collect();
    lines.sort();
    lines
}

#[test]
fn build9_resumes_from_its_checkpoint_and_shards_merge() {
    let dir = temp_dir("build9");
    let whole = dir.join("whole");
    let (book, stderr) = build9(&whole, &[]);
    assert!(
        stderr.contains("searched now, 0 from the checkpoint"),
        "{stderr}"
    );
    let all = entries(&book);
    // Depth 3, width 2: the root, up to two replies and up to four answers.
    assert!((3..=7).contains(&all.len()), "{book}");
    // Resume after a kill: drop the last entries of the checkpoint; the run searches only
    // those again and reproduces the same book.
    let lines: Vec<&str> = book.lines().collect();
    std::fs::write(
        whole.join("book.txt"),
        lines[..lines.len() - 2].join("\n") + "\n",
    )
    .unwrap();
    let (again, stderr) = build9(&whole, &[]);
    assert!(stderr.contains("(2 searched now"), "{stderr}");
    assert_eq!(entries(&again), all);
    // Other parameters in the same folder are refused.
    let output = hane()
        .args(["book", "build9", "--depth", "4", "--playouts", "200"])
        .arg("--out")
        .arg(&whole)
        .output()
        .unwrap();
    assert!(!output.status.success());
    // Two shards, merged, give the same book.
    let (a, b) = (dir.join("a"), dir.join("b"));
    build9(&a, &["--shard", "1/2", "--split-depth", "1"]);
    build9(&b, &["--shard", "2/2", "--split-depth", "1"]);
    let merged = dir.join("merged.txt");
    let output = hane()
        .args(["book", "merge", "--out"])
        .arg(&merged)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(output.status.success());
    let merged = std::fs::read_to_string(&merged).unwrap();
    assert_eq!(entries(&merged), all);
    Book::parse(&merged).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Entries of a book file as (line, best move) pairs.
fn best_moves(book: &str) -> Vec<(Vec<String>, String)> {
    book.lines()
        .filter_map(|l| l.split_once(" -> "))
        .map(|(line, moves)| {
            let line = match line.trim() {
                "-" => Vec::new(),
                line => line.split(' ').map(String::from).collect(),
            };
            let best = moves.split(':').next().unwrap().to_string();
            (line, best)
        })
        .collect()
}

#[test]
fn build9_with_sampled_replies_grows_one_tree_per_colour() {
    let dir = temp_dir("build9-samples");
    let out = dir.join("sampled");
    let extra = ["--samples", "6", "--sample-playouts", "600"];
    let (book, _) = build9_to_depth(&out, 5, &extra);
    let lines_best = best_moves(&book);
    let best: HashMap<Vec<String>, String> = lines_best.iter().cloned().collect();
    // Every line is in the tree of one colour: that colour's moves are all the book's best
    // move of the position they were played in (the other colour's are sampled replies).
    let mut replies = 0;
    for (line, _) in &lines_best {
        let follows_best = |colour: usize| {
            (colour..line.len())
                .step_by(2)
                .all(|k| best.get(&line[..k]) == Some(&line[k]))
        };
        assert!(follows_best(0) || follows_best(1), "{line:?} in\n{book}");
        replies += line
            .iter()
            .enumerate()
            .filter(|&(k, mv)| best.get(&line[..k]) != Some(mv))
            .count()
            .min(1);
    }
    // The sampled replies add positions beyond the best line, and both colours' trees
    // reach the deepest level searched (depth 5: lines of 4 moves).
    assert!(replies > 0, "{book}");
    assert!(lines_best.len() > 5, "{book}");
    for colour in 0..2 {
        assert!(
            lines_best.iter().any(|(line, _)| line.len() == 4
                && (colour..4)
                    .step_by(2)
                    .all(|k| best.get(&line[..k]) == Some(&line[k]))),
            "{book}"
        );
    }
    // A resumed run samples the same replies.
    let lines: Vec<&str> = book.lines().collect();
    std::fs::write(
        out.join("book.txt"),
        lines[..lines.len() - 3].join("\n") + "\n",
    )
    .unwrap();
    let (again, stderr) = build9_to_depth(&out, 5, &extra);
    assert!(stderr.contains("(3 searched now"), "{stderr}");
    assert_eq!(entries(&again), entries(&book));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_eval_counts_the_very_move_played() {
    let dir = temp_dir("eval");
    let book = write_small_book(&dir);
    // Black's C3, the book's move, and G7, its image under a half turn: only the first is
    // the book's move, as only the very move counts for the patterns.
    let games = dir.join("games.sgf");
    std::fs::write(&games, "(;GM[1]SZ[9];B[cg])\n(;GM[1]SZ[9];B[gc])\n").unwrap();
    let output = hane()
        .args(["book", "eval", "--size", "9", "--moves", "1", "--book"])
        .arg(&book)
        .arg(&games)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("positions=2 covered=2 book_top1=0.5000"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
