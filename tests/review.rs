//! `hane review GAME.sgf`: the annotated SGF (read back by hane's parser, by `sgf-parse`
//! node by node, by sgfmill and by Sabaki's `@sabaki/sgf` when they are installed), the SVG chart and the summary of a
//! short 9x9 game; a 9x9 game with a planted blunder, found and marked; part of a
//! professional 19x19 game; a broken record.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hane::sgf::parse_game;

/// A 9x9 game of hane against itself (`hane selfplay`, 300 playouts a move, komi 7.5): 51
/// moves, black wins by resignation.
const GAME_9X9: &str = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]RU[Chinese]PB[hane]PW[hane]RE[B+R]
;B[fe];W[de];B[ed];W[dd];B[eg];W[ef];B[ff];W[dg];B[eh];W[ec];B[fc];W[eb];B[dc];W[cc]
;B[fb];W[db];B[dh];W[cg];B[ch];W[bh];B[bi];W[bg];B[fa];W[gd];B[fd];W[hf];B[ge];W[he]
;B[hd];W[gg];B[gh];W[hh];B[fg];W[gi];B[fh];W[hc];B[gc];W[id];B[hb];W[gd];B[hi];W[ii]
;B[ig];W[hd];B[hg];W[gf];B[if];W[ib];B[ha];W[gb];B[ga])";

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hane-review-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn hane(args: &[&str], record: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hane"))
        .arg("review")
        .arg(record)
        .args(args)
        .output()
        .unwrap()
}

fn succeeded(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Checks that `text` is well-formed XML as far as an SVG needs: every tag closed in
/// order, attribute values quoted, `&` only in entities; returns the element names.
fn check_xml(text: &str) -> Vec<String> {
    let mut open: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = text.trim();
    while let Some(start) = rest.find('<') {
        let between = &rest[..start];
        for (k, _) in between.match_indices('&') {
            let entity = &between[k..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "a bare & in {between:?}"
            );
        }
        let end = start + rest[start..].find('>').expect("a tag ends");
        let tag = &rest[start + 1..end];
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name.trim()),
                "</{name}> out of order"
            );
        } else if !tag.starts_with('?') && !tag.starts_with('!') {
            let name = tag
                .split(|c: char| c.is_whitespace() || c == '/')
                .next()
                .unwrap()
                .to_string();
            names.push(name.clone());
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        rest = &rest[end + 1..];
        if open.is_empty() {
            assert!(
                rest.trim().is_empty(),
                "text after the root element: {rest:?}"
            );
        }
    }
    assert!(open.is_empty(), "unclosed elements {open:?}");
    names
}

/// The main line's nodes of the annotated record: (properties with SBKV, whether it has
/// a sibling variation after it, its comment).
struct MainLine {
    nodes: usize,
    sbkv: usize,
    comments: usize,
    variations: usize,
    marks: usize,
}

fn main_line(text: &str) -> MainLine {
    use sgf_parse::go::Prop;
    let trees = sgf_parse::go::parse(text).expect("sgf-parse reads the annotated record");
    let mut line = MainLine {
        nodes: 0,
        sbkv: 0,
        comments: 0,
        variations: 0,
        marks: 0,
    };
    for node in trees[0].main_variation() {
        line.nodes += 1;
        line.variations += node.children().count().saturating_sub(1);
        for prop in node.properties() {
            match prop {
                Prop::C(_) => line.comments += 1,
                Prop::BM(_) | Prop::DO | Prop::TE(_) => line.marks += 1,
                Prop::Unknown(id, values) if id == "SBKV" => {
                    let value: f64 = values[0].parse().expect("SBKV is a number");
                    assert!((0.0..=100.0).contains(&value), "SBKV[{value}]");
                    line.sbkv += 1;
                }
                Prop::Invalid(..) => panic!("invalid property {prop:?}"),
                _ => {}
            }
        }
    }
    line
}

#[test]
fn reviews_a_short_9x9_game() {
    let dir = fresh_dir("9x9");
    let record = dir.join("game.sgf");
    std::fs::write(&record, GAME_9X9).unwrap();
    let stdout = succeeded(&hane(
        &["--playouts", "40", "--jobs", "2", "--seed", "5"],
        &record,
    ));
    let out = dir.join("game-review");
    let (sgf, svg, txt) = (
        out.join("game-review.sgf"),
        out.join("game-review.svg"),
        out.join("game-review.txt"),
    );
    for file in [&sgf, &svg, &txt] {
        assert!(file.is_file(), "{} is missing", file.display());
    }
    // The SGF: the game's moves, one SBKV per move (and one at the root), a comment on
    // every move, variations.
    let text = std::fs::read_to_string(&sgf).unwrap();
    let original = parse_game(GAME_9X9).unwrap();
    let annotated = parse_game(&text).unwrap();
    assert_eq!(annotated.moves, original.moves);
    assert_eq!(annotated.komi, Some(7.5));
    let moves = original.moves.len();
    let line = main_line(&text);
    assert_eq!(line.nodes, moves + 1);
    assert_eq!(line.sbkv, moves + 1, "{text}");
    assert_eq!(line.comments, moves, "{text}");
    assert!(line.variations > 0, "{text}");
    assert!(text.contains("Black's win rate: "), "{text}");
    assert!(text.contains("GC[Reviewed by hane"), "{text}");
    // The chart: well-formed, with the win-rate and score-lead lines.
    let chart = std::fs::read_to_string(&svg).unwrap();
    let elements = check_xml(&chart);
    assert_eq!(elements[0], "svg");
    assert_eq!(elements.iter().filter(|e| *e == "polyline").count(), 2);
    let winrate = chart
        .lines()
        .find(|l| l.contains(r#"class="winrate""#))
        .unwrap();
    assert_eq!(winrate.matches(',').count(), moves + 1);
    // The summary: both players, on stdout and in the file.
    let summary = std::fs::read_to_string(&txt).unwrap();
    assert!(stdout.starts_with(&summary), "{stdout}");
    for player in ["Black (hane): 26 moves", "White (hane): 25 moves"] {
        assert!(summary.contains(player), "{summary}");
    }
    assert!(summary.contains("matched hane's first choice"), "{summary}");
    // With the seed, one job reviews the same as two.
    let again = dir.join("again");
    succeeded(&hane(
        &[
            "--playouts",
            "40",
            "--seed",
            "5",
            "--out",
            again.to_str().unwrap(),
        ],
        &record,
    ));
    assert_eq!(
        std::fs::read_to_string(again.join("game-review.sgf")).unwrap(),
        text
    );
    check_with_sgfmill(&sgf, moves);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads the record with sgfmill (Python), when installed: the main line's moves and SBKV.
fn check_with_sgfmill(sgf: &Path, moves: usize) {
    let available = Command::new("python3")
        .args(["-c", "import sgfmill"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        common::skip_unless_ci("sgfmill", "python3 -m pip install sgfmill");
        return;
    }
    let script = r#"
import sys
from sgfmill import sgf
game = sgf.Sgf_game.from_bytes(open(sys.argv[1], "rb").read())
moves = sbkv = 0
for node in game.get_main_sequence():
    colour, move = node.get_move()
    if colour is not None:
        moves += 1
    if node.has_property("SBKV"):
        sbkv += 1
        assert 0.0 <= float(node.get_raw("SBKV")) <= 100.0
print(moves, sbkv, game.get_size())
"#;
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(sgf)
        .output()
        .unwrap();
    let stdout = succeeded(&output);
    assert_eq!(stdout.trim(), format!("{moves} {} 9", moves + 1));
}

/// Sabaki's SGF parser (`@sabaki/sgf`, driven from Node by
/// `tests/clients/sabaki_sgf_check.js`) reads the review of the short 9x9 game: its main
/// line holds every move, an SBKV value (0 to 100) at every node and a comment on every
/// move, and as many variations as `sgf-parse` finds, each a line of moves. Skips, except
/// under CI, where Node or the library is missing.
#[test]
fn sabaki_reads_the_review() {
    let clients = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients");
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node || !clients.join("node_modules/@sabaki/sgf").is_dir() {
        common::skip_unless_ci(
            "node with @sabaki/sgf",
            "apt-get install nodejs npm; (cd tests/clients && npm ci)",
        );
        return;
    }
    let dir = fresh_dir("sabaki");
    let record = dir.join("game.sgf");
    std::fs::write(&record, GAME_9X9).unwrap();
    succeeded(&hane(
        &["--playouts", "40", "--jobs", "2", "--seed", "5"],
        &record,
    ));
    let sgf = dir.join("game-review/game-review.sgf");
    let output = Command::new("node")
        .arg(clients.join("sabaki_sgf_check.js"))
        .arg(&sgf)
        .output()
        .unwrap();
    let stdout = succeeded(&output);
    let summary: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    let text = std::fs::read_to_string(&sgf).unwrap();
    let moves = parse_game(GAME_9X9).unwrap().moves.len();
    let line = main_line(&text);
    assert_eq!(summary["size"], 9, "{summary}");
    assert_eq!(summary["nodes"], moves + 1, "{summary}");
    assert_eq!(summary["moves"], moves, "{summary}");
    assert_eq!(summary["sbkv"], moves + 1, "{summary}");
    assert_eq!(summary["comments"], moves, "{summary}");
    assert_eq!(summary["variations"], line.variations, "{summary}");
    assert!(
        summary["variationMoves"].as_u64().unwrap() >= line.variations as u64,
        "{summary}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 9x9 record with a planted blunder. After move 33 (black B6) the position is
///
/// ```text
///    A B C D E F G H J
///  9 . . . . . X O . .
///  8 . . . . . X O . .
///  7 . . X . X X O . .
///  6 . X . . X O O . .
///  5 . . X . X O . . .
///  4 . . . . X O . . .
///  3 X X X X X O . . .
///  2 O O O O X O . . .
///  1 . O . O X O . . .
/// ```
///
/// and every border is closed: white's six corner stones have two eyes (A1, C1), and white
/// leads by 8.5 points (41 points of area and 7.5 komi against 40). Move 34, white C1,
/// fills an eye: the corner is left with one liberty, and move 35, black A1, captures
/// seven stones, which turns the game into a black win by 7.5. Checked with GNU Go 3.8
/// (`--chinese-rules`): before move 34 `owl_attack A2` answers 0 (the corner lives),
/// `estimate_score` W+8.5 and white's `reg_genmove` a pass; after it `owl_attack A2`
/// answers 1 A1 and `estimate_score` B+7.5.
const PLANTED_BLUNDER: &str =
    "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]RU[Chinese]PB[Black]PW[White]RE[B+R]
;B[ee];W[fe];B[ef];W[ff];B[ed];W[fd];B[eg];W[fg];B[ec];W[gd];B[fc];W[gc];B[fb];W[gb]
;B[fa];W[ga];B[dg];W[dh];B[cg];W[ch];B[bg];W[bh];B[ag];W[ah];B[eh];W[fh];B[ei];W[fi]
;B[ce];W[di];B[cc];W[bi];B[bd];W[ci];B[ai])";

/// The rows of one player's table of biggest mistakes in a summary, split into words: the
/// section after `heading`, from the line after the table's header to the first blank line.
fn mistakes_of(summary: &str, heading: &str) -> Vec<Vec<String>> {
    let section = summary
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("no {heading:?} in {summary}"));
    section
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("move"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The planted blunder (see [`PLANTED_BLUNDER`]) is white's biggest mistake in the
/// summary, with the loss of a won game, and marked `BM` in the record; the seeded review
/// (one thread a job) repeats exactly.
#[test]
fn finds_a_planted_blunder() {
    let game = parse_game(PLANTED_BLUNDER).unwrap();
    let before = game
        .replay(hane::board::Rules::chinese(7.5), Some(34))
        .unwrap();
    common::assert_diagram(
        before.board(),
        ". . . . . X O . .
         . . . . . X O . .
         . . X . X X O . .
         . X . . X O O . .
         . . X . X O . . .
         . . . . X O . . .
         X X X X X O . . .
         O O O O X O . . .
         . O . O X O . . .",
        "before move 34",
    );
    let after = game.replay(hane::board::Rules::chinese(7.5), None).unwrap();
    assert_eq!(after.board().captures(hane::board::Color::Black), 7);

    let dir = fresh_dir("blunder");
    let record = dir.join("planted.sgf");
    std::fs::write(&record, PLANTED_BLUNDER).unwrap();
    let args = ["--playouts", "2000", "--jobs", "2", "--seed", "1"];
    let stdout = succeeded(&hane(&args, &record));
    // White's table of mistakes: the first row, the worst, is move 34.
    let rows = mistakes_of(&stdout, "White (White): ");
    assert!(!rows.is_empty(), "{stdout}");
    assert_eq!(&rows[0][..2], ["34", "C1"], "{stdout}");
    assert_eq!(rows[0].last().map(String::as_str), Some("bad"), "{stdout}");
    let points: f32 = rows[0][3].parse().unwrap();
    let winrate: f32 = rows[0][4].trim_end_matches('%').parse().unwrap();
    assert!(points >= 10.0, "{stdout}");
    assert!(winrate >= 50.0, "{stdout}");
    // The record: move 34's node carries BM.
    let text = std::fs::read_to_string(dir.join("planted-review/planted-review.sgf")).unwrap();
    let trees = sgf_parse::go::parse(&text).unwrap();
    let node = trees[0].main_variation().nth(34).unwrap();
    let props: Vec<_> = node.properties().collect();
    assert!(
        props
            .iter()
            .any(|p| matches!(p, sgf_parse::go::Prop::W(sgf_parse::go::Move::Move(_)))),
        "{props:?}"
    );
    assert!(
        props
            .iter()
            .any(|p| matches!(p, sgf_parse::go::Prop::BM(_))),
        "move 34 is not marked BM: {props:?}"
    );
    assert!(text.contains("C[Move 34: White C1"), "{text}");
    // Seeded, one thread a job: the same review again, with one job.
    let again = dir.join("again");
    let args = ["--playouts", "2000", "--jobs", "1", "--seed", "1", "--out"];
    let mut args = args.to_vec();
    args.push(again.to_str().unwrap());
    let stdout_again = succeeded(&hane(&args, &record));
    assert_eq!(
        std::fs::read_to_string(again.join("planted-review.sgf")).unwrap(),
        text
    );
    assert_eq!(mistakes_of(&stdout_again, "White (White): "), rows);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reviews_part_of_a_professional_game() {
    let pro = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pro-games/pro-000.sgf");
    if !pro.is_file() {
        common::skip_unless_ci(
            "../shared/data/pro-games/pro-000.sgf",
            "the shared professional records",
        );
        return;
    }
    let dir = fresh_dir("pro");
    let stdout = succeeded(&hane(
        &[
            "--from",
            "20",
            "--to",
            "23",
            "--playouts",
            "30",
            "--jobs",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
        &pro,
    ));
    assert!(stdout.contains("Moves 20 to 23"), "{stdout}");
    assert!(stdout.contains("19x19"), "{stdout}");
    for player in ["Black (", "White ("] {
        assert!(stdout.contains(player), "{stdout}");
    }
    let text = std::fs::read_to_string(dir.join("pro-000-review.sgf")).unwrap();
    let game = parse_game(&text).unwrap();
    assert_eq!(game.size, 19);
    let original = hane::sgf::read_first_game(&pro, 1 << 22).unwrap();
    assert_eq!(game.moves, original.moves);
    // Positions 19 to 23, comments on moves 20 to 23 only.
    let line = main_line(&text);
    assert_eq!((line.sbkv, line.comments), (5, 4), "{text}");
    assert!(text.contains("C[Move 20: "), "{text}");
    assert!(!text.contains("C[Move 19: "), "{text}");
    assert!(text.contains("C[Move 23: "), "{text}");
    let svg = std::fs::read_to_string(dir.join("pro-000-review.svg")).unwrap();
    check_xml(&svg);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_record_is_an_error_and_writes_nothing() {
    let dir = fresh_dir("broken");
    // Move 4 plays on a stone.
    let record = dir.join("broken.sgf");
    std::fs::write(&record, "(;SZ[9]KM[7.5];B[ee];W[cc];B[gg];W[ee];B[dd])").unwrap();
    let output = hane(&["--playouts", "10"], &record);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("move 4 (W E5"), "{stderr}");
    assert!(stderr.contains("broken.sgf"), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(!dir.join("broken-review").exists());
    // Not SGF at all, and a range outside the game.
    let junk = dir.join("junk.sgf");
    std::fs::write(&junk, "no game here").unwrap();
    let output = hane(&["--playouts", "10"], &junk);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("junk.sgf"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let short = dir.join("short.sgf");
    std::fs::write(&short, "(;SZ[9];B[ee];W[cc])").unwrap();
    let output = hane(&["--playouts", "10", "--from", "3"], &short);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--from 3"));
    assert!(!dir.join("junk-review").exists() && !dir.join("short-review").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
