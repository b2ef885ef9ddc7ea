//! `hane train-patterns` end to end on a small generated collection with damaged and unusual
//! records mixed in: the table is written and loads, the header says what was trained on and
//! how many games of each kind were skipped, a directory is searched for SGF files, repeated
//! games are dropped, and nothing crashes.

use std::path::{Path, PathBuf};
use std::process::Command;

use hane::board::{Color, GameState, Move, Rules};
use hane::pattern;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn hane() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hane"))
}

/// A random legal 19x19 game of `moves` moves (no passes) as one SGF game tree.
fn random_game(rng: &mut Pcg64Mcg, moves: usize) -> String {
    let mut state = GameState::new(19, Rules::default()).unwrap();
    let geometry = state.geometry();
    let mut sgf = String::from("(;GM[1]FF[4]SZ[19]KM[6.5]");
    let mut color = Color::Black;
    for _ in 0..moves {
        let legal = state.legal_points(color);
        if legal.is_empty() {
            break;
        }
        let p = legal[rng.random_range(0..legal.len())];
        state.play(color, Move::Play(p)).unwrap();
        sgf.push_str(&format!(";{}[{}]", color.letter(), geometry.sgf_point(p)));
        color = color.opponent();
    }
    sgf.push(')');
    sgf
}

/// A fresh temporary folder `hane-pattern-NAME-PID` holding `games.sgf`: `count` random
/// games of `moves` moves from `seed`. Returns the folder and the file.
fn games_folder(name: &str, seed: u64, count: usize, moves: usize) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("hane-pattern-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let games: String = (0..count).map(|_| random_game(&mut rng, moves)).collect();
    let file = dir.join("games.sgf");
    std::fs::write(&file, games).unwrap();
    (dir, file)
}

/// Runs `command` and checks that it succeeded (else fails with its stderr).
fn succeeds(command: &mut Command) -> std::process::Output {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn header_line<'a>(table: &'a str, key: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.starts_with(&format!("# {key}:")))
        .unwrap_or_else(|| panic!("no `{key}` header line in\n{table}"))
}

#[test]
fn train_patterns_learns_from_a_directory_and_counts_what_it_skipped() {
    let dir = std::env::temp_dir().join(format!("hane-pattern-train-{}", std::process::id()));
    let games_dir = dir.join("games");
    let nested = games_dir.join("more");
    std::fs::create_dir_all(&nested).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(17);

    // 24 good games in one collection, and 6 more in a nested folder.
    let good: Vec<String> = (0..30).map(|_| random_game(&mut rng, 60)).collect();
    std::fs::write(games_dir.join("a.sgf"), good[..24].concat()).unwrap();
    std::fs::write(nested.join("b.SGF"), good[24..].concat()).unwrap();
    // Damaged and unusual records, each in its own collection.
    let odd = [
        // A repeat of a game already read (overlapping collections).
        good[3].clone(),
        // A board size hane does not play: broken.
        "(;GM[1]SZ[30];B[aa];W[bb])".to_string(),
        // A move off the board: broken.
        "(;GM[1]SZ[19];B[dd];W[zz])".to_string(),
        // A 9x9 game: another size.
        "(;GM[1]SZ[9];B[ee];W[cc])".to_string(),
        // An illegal move (occupied point) after two good ones: used up to it.
        "(;GM[1]SZ[19];B[dd];W[pp];B[dd];W[dp])".to_string(),
        // Setup stones on one point twice: cannot be placed.
        "(;GM[1]SZ[19]AB[dd]AW[dd];B[pp];W[dp])".to_string(),
        // A handicap game, a pass written as `tt`, and a variation (only the main line counts).
        "(;GM[1]SZ[19]HA[2]AB[dd][pp];W[dp];B[tt];W[pd](;B[qc])(;B[jj]))".to_string(),
    ];
    std::fs::write(games_dir.join("odd.sgf"), odd.concat()).unwrap();
    // Files that are no SGF at all, and a file that is not `.sgf` (ignored in a folder).
    std::fs::write(games_dir.join("garbage.sgf"), "this is not a game record").unwrap();
    std::fs::write(games_dir.join("empty.sgf"), "").unwrap();
    std::fs::write(games_dir.join("notes.txt"), "(;GM[1]SZ[19];B[aa])").unwrap();

    let out_file = dir.join("table.txt");
    let out = hane()
        .arg("train-patterns")
        .arg(&games_dir)
        .args(["--out"])
        .arg(&out_file)
        .args([
            "--size",
            "19",
            "--max-games",
            "0",
            "--test-every",
            "5",
            "--iterations",
            "3",
            "--min-count-3x3",
            "2",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The summary of the held-out test goes to stdout, alone.
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("positions="), "{stdout}");

    let table = std::fs::read_to_string(&out_file).unwrap();
    // 30 good games, the cut game, the bad-setup game and the handicap game are 19x19 and
    // distinct: 33 games, every 5th (7) held out, 26 trained on.
    let training = header_line(&table, "training");
    assert!(
        training.starts_with("# training: 26 games of size 19"),
        "{training}"
    );
    for count in [
        "2 broken",
        "1 other-size",
        "1 repeated",
        "2 in unreadable files",
        "every 5th game held out",
        "every 1st position used",
    ] {
        assert!(training.contains(count), "`{count}` not in {training}");
    }
    // Files are read in path order (a.sgf, more/b.SGF, odd.sgf), so the cut game is game 30
    // (held out: a multiple of 5) and the bad-setup game 31 (trained on).
    assert!(
        training.contains("0 cut at an illegal move, 1 with unplaceable setup"),
        "{training}"
    );
    assert!(header_line(&table, "held-out test (7 games)").contains("top1="));
    assert!(header_line(&table, "trained-on").contains("games"));
    assert!(header_line(&table, "mm").contains("3 rounds"));

    // The table loads and predicts: its gammas are not all one.
    let loaded = pattern::load(&out_file).unwrap();
    let text = loaded.to_text();
    assert!(text.lines().filter(|l| l.starts_with("shape3 ")).count() > 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_patterns_without_usable_games_fails_cleanly() {
    let dir = std::env::temp_dir().join(format!("hane-pattern-train-none-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.sgf");
    std::fs::write(&file, "(;GM[1]SZ[30];B[aa])").unwrap();
    let out_file = dir.join("table.txt");
    let out = hane()
        .arg("train-patterns")
        .arg(&file)
        .arg(dir.join("missing.sgf"))
        .arg("--out")
        .arg(&out_file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no usable games"), "{stderr}");
    assert!(!Path::new(&out_file).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The trainer's threads replay batches of games apart and join them in the games' order,
/// and share MM's sums: `--threads 3` writes the table `--threads 1` writes (the same
/// features, the gammas to about the last bits of the MM sums) and tests it the same.
#[test]
fn train_patterns_on_threads_writes_the_one_thread_table() {
    // 70 games: several 16-game batches per thread.
    let (dir, games_file) = games_folder("threads", 31, 70, 40);
    let train = |threads: &str| {
        let out_file = dir.join(format!("table-{threads}.txt"));
        let out = hane()
            .arg("train-patterns")
            .arg(&games_file)
            .arg("--out")
            .arg(&out_file)
            .args(["--max-games", "0", "--test-every", "7", "--iterations", "4"])
            .args(["--sample-every", "3", "--min-count-3x3", "2"])
            .args(["--threads", threads])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let summary = String::from_utf8(out.stdout).unwrap();
        let table = std::fs::read_to_string(&out_file).unwrap();
        let body: Vec<String> = table
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        (summary, body)
    };
    let (one_summary, one) = train("1");
    let (three_summary, three) = train("3");
    assert!(one.len() > 100, "{} lines", one.len());
    assert_eq!(one.len(), three.len());
    let numbers = |s: &str| -> Vec<f64> {
        s.split(|c: char| c.is_whitespace() || c == '=')
            .filter_map(|w| w.parse::<f64>().ok())
            .collect()
    };
    let close = |a: &str, b: &str| {
        let (x, y) = (numbers(a), numbers(b));
        x.len() == y.len()
            && x.iter()
                .zip(&y)
                .all(|(p, q)| (p - q).abs() <= 1e-4 * p.abs().max(1e-3))
    };
    for (a, b) in one.iter().zip(&three) {
        // The same feature (group and key) on each line, and gammas that agree.
        let key = |l: &str| l.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        assert_eq!(key(a), key(b));
        assert!(close(a, b), "one thread: {a}\nthree threads: {b}");
    }
    assert!(
        close(&one_summary, &three_summary),
        "{one_summary} against {three_summary}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--factors K` writes a table with K latent factors per feature, rounded to 1e-4 (so the
/// file stays short), that loads and says in its header how the factors were fitted.
#[test]
fn train_patterns_with_factors_writes_a_factor_table() {
    let (dir, games_file) = games_folder("factors", 23, 12, 50);
    let out_file = dir.join("table.txt");
    let out = hane()
        .arg("train-patterns")
        .arg(&games_file)
        .arg("--out")
        .arg(&out_file)
        .args(["--max-games", "0", "--test-every", "4", "--iterations", "2"])
        .args([
            "--factors",
            "3",
            "--factor-epochs",
            "2",
            "--factor-rate",
            "0.2",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("factor pass 2 mean log-likelihood"),
        "{stderr}"
    );
    let table = std::fs::read_to_string(&out_file).unwrap();
    assert!(table.contains("\nhane-patterns 2 factors 3\n"));
    let factors = header_line(&table, "factors");
    assert!(
        factors.starts_with("# factors: 3 per feature, 2 passes"),
        "{factors}"
    );
    // Three decimals, and no factors where all would be under `--factor-min` (0.1).
    let mut nonzero = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() == 3 {
            continue;
        }
        assert_eq!(fields.len(), 6, "{line}");
        let mut largest = 0.0f32;
        for field in &fields[3..] {
            let decimals = field.split('.').nth(1).map_or(0, str::len);
            assert!(decimals <= 3 && !field.contains('e'), "{line}");
            let x = field.parse::<f32>().unwrap();
            largest = largest.max(x.abs());
            nonzero += (x != 0.0) as usize;
        }
        assert!(largest >= 0.1 - 5e-4, "{line}");
    }
    assert!(nonzero > 100, "{nonzero} factors differ from 0");
    let loaded = pattern::load(&out_file).unwrap();
    assert_eq!(loaded.factor_count(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `hane patterns compact` rounds a factor table's factors to three decimals, drops those
/// of the features whose factors are all under `--factor-min`, keeps the header and says
/// so in it; a table it cannot read, or one without factors, is a clear error and writes
/// nothing.
#[test]
fn patterns_compact_rewrites_a_factor_table_shorter() {
    let dir = std::env::temp_dir().join(format!("hane-compact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.txt");
    std::fs::write(
        &input,
        "# trained somewhere\nhane-patterns 2 factors 2\ncapture 1 2 0.04 -0.09\n\
         atari 1 3 0.12345 -0.5\nshape3 0x1f 4 0.01 0.02\n",
    )
    .unwrap();
    let compact = |from: &Path, to: &Path| {
        let mut command = hane();
        command
            .args(["patterns", "compact"])
            .arg(from)
            .arg("--out")
            .arg(to);
        command.output().unwrap()
    };
    let output = dir.join("out.txt");
    let out = compact(&input, &output);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(text.starts_with("# trained somewhere\n"), "{text}");
    assert!(
        text.contains(
            "# compacted: factors rounded to multiples of 0.001, none where all are under 0.1\n"
        ),
        "{text}"
    );
    for line in [
        "\ncapture 1 2\n",
        "\natari 1 3 0.123 -0.5\n",
        "\nshape3 0x1f 4\n",
    ] {
        assert!(text.contains(line), "{line:?} missing from {text}");
    }
    assert_eq!(pattern::load(&output).unwrap().factor_count(), 2);

    // A plain table has nothing to compact: an error, and nothing written.
    let plain = dir.join("plain.txt");
    std::fs::write(&plain, "hane-patterns 1\ncapture 1 2\n").unwrap();
    let unwritten = dir.join("unwritten.txt");
    let out = compact(&plain, &unwritten);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("no latent factors"), "{stderr}");
    assert!(!unwritten.exists());

    let missing = dir.join("missing.txt");
    let nothing = dir.join("nothing.txt");
    let out = compact(&missing, &nothing);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("missing.txt"), "{stderr}");
    assert!(out.stdout.is_empty() && !nothing.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_patterns_learns_the_owner_levels_unless_left_out() {
    let (dir, games_file) = games_folder("owner", 23, 12, 80);
    let train = |table: &Path, extra: &[&str]| {
        succeeds(
            hane()
                .arg("train-patterns")
                .arg(&games_file)
                .arg("--out")
                .arg(table)
                .args(["--iterations", "3", "--test-every", "4", "--threads", "2"])
                .args(extra),
        );
        pattern::load(table).unwrap()
    };
    let with = train(&dir.join("with.txt"), &[]);
    let without = train(&dir.join("without.txt"), &["--leave-out", "owner"]);
    // Each position's tally of 32 light playouts gives the points levels 1 to 8: the
    // fitted gammas are not all 1, and the search will run the playouts for this table.
    assert!(with.uses_group(pattern::Group::Owner));
    let fitted = with
        .to_text()
        .lines()
        .filter(|l| l.starts_with("owner ") && !l.ends_with(" 1"))
        .count();
    assert!(fitted >= 4, "{fitted} owner levels fitted");
    assert!(!without.uses_group(pattern::Group::Owner));
    // The tallies are seeded by the position: training again gives the same table.
    let again = train(&dir.join("again.txt"), &[]);
    let body = |t: &pattern::PatternTable| {
        let text = t.to_text();
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&again), body(&with));
    // `patterns eval` runs the same playouts for a table that uses the group.
    let eval = |table: &str| {
        let out = succeeds(
            hane()
                .args(["patterns", "eval", "--patterns"])
                .arg(dir.join(table))
                .arg(&games_file),
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(eval("with.txt"), eval("again.txt"));
    assert_ne!(eval("with.txt"), eval("without.txt"));
    std::fs::remove_dir_all(&dir).unwrap();
}
