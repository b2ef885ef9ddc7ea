//! The plain-text table format: writing and reading give back the same table, malformed
//! files give clear errors with line numbers, and the shipped table loads.

mod common;

use hane::pattern::{self, Group, PatternError, PatternTable, ShapeWeights};
use hane::playout::{playout_rng, random_below};

fn random_table(seed: u64) -> PatternTable {
    let mut rng = playout_rng(seed, 0);
    let mut gamma = || (random_below(&mut rng, 1_000_000) as f32 + 1.0) / 7919.0;
    let mut table = PatternTable::uniform();
    for g in Group::LEVELLED {
        for level in 1..=g.max_level() {
            table.set_level(g, level, gamma());
        }
    }
    let mut rng2 = playout_rng(seed, 1);
    for g in Group::SHAPES {
        let entries: Vec<(u64, f32)> = (0..50)
            .map(|_| {
                let code = (random_below(&mut rng2, 1 << 30) as u64) << 20
                    | random_below(&mut rng2, 1 << 20) as u64;
                (code, gamma())
            })
            .collect();
        table.set_shapes(g, ShapeWeights::new(entries, gamma()));
    }
    table.set_header(vec![
        "trained-on: nothing (a test)".into(),
        "second line".into(),
    ]);
    table
}

#[test]
fn text_format_round_trips() {
    for seed in 0..5 {
        let table = random_table(seed);
        let text = table.to_text();
        let back = PatternTable::parse(&text).unwrap();
        assert_eq!(back, table);
        assert_eq!(back.to_text(), text);
        assert_eq!(back.header()[0], "trained-on: nothing (a test)");
    }
}

#[test]
fn unlisted_features_have_gamma_one_and_other_shapes_share_a_gamma() {
    let table = PatternTable::parse(
        "# header\nhane-patterns 1\ncapture 2 5.5\nshape3 other 0.25\nshape3 0x1f 3\n",
    )
    .unwrap();
    assert_eq!(table.level_gamma(Group::Capture, 2), 5.5);
    assert_eq!(table.level_gamma(Group::Capture, 1), 1.0);
    assert_eq!(table.level_gamma(Group::Capture, 0), 1.0);
    assert_eq!(table.shapes(Group::Shape3).gamma(0x1f), 3.0);
    assert_eq!(table.shapes(Group::Shape3).gamma(0x20), 0.25);
    assert_eq!(table.shapes(Group::Shape12).gamma(0x1f), 1.0);
}

/// Each text fails to parse with a syntax error on the given line whose message contains
/// the given words.
fn assert_rejected(cases: &[(&str, usize, &str)]) {
    for &(text, line, message) in cases {
        match PatternTable::parse(text) {
            Err(PatternError::Syntax {
                line: l,
                message: m,
            }) => {
                assert_eq!(l, line, "{text:?}: {m}");
                assert!(m.contains(message), "{text:?}: {m}");
            }
            other => panic!("{text:?} gave {other:?}"),
        }
    }
}

#[test]
fn malformed_tables_are_rejected_with_the_line() {
    let cases = [
        ("capture 1 2\n", 1, "expected `hane-patterns 1`"),
        ("hane-patterns 1\ncapture 1\n", 2, "GROUP KEY GAMMA"),
        ("hane-patterns 1\nfoo 1 2\n", 2, "unknown feature group"),
        ("hane-patterns 1\ncapture 9 2\n", 2, "not in 1..=4"),
        (
            "hane-patterns 1\ncapture 1 -2\n",
            2,
            "not a positive number",
        ),
        (
            "hane-patterns 1\ncapture 1 nan\n",
            2,
            "not a positive number",
        ),
        ("hane-patterns 1\ncapture 1 2\ncapture 1 3\n", 3, "twice"),
        ("# x\n\nhane-patterns 1\nshape3 12 1\n", 4, "hex"),
        ("# only a header\n", 1, "no `hane-patterns 1` line"),
        // Tables with latent factors.
        ("hane-patterns 2 factors 0\n", 1, "K in 1..=32"),
        ("hane-patterns 2 factors 33\n", 1, "K in 1..=32"),
        ("hane-patterns 2 factors x\n", 1, "the version line"),
        (
            "hane-patterns 2 factors 2\ncapture 1 2 0.5\n",
            2,
            "or 5 with the factors",
        ),
        (
            "hane-patterns 2 factors 1\ncapture 1 2 0.5 1 1\n",
            2,
            "or 4 with the factors",
        ),
        (
            "hane-patterns 2 factors 1\ncapture 1 2 nan\n",
            2,
            "not a number",
        ),
        (
            "hane-patterns 2 factors 1\nshape3 0x1f 2 1e9\n",
            2,
            "not a number",
        ),
        ("hane-patterns 1\ncapture 1 2 0.5\n", 2, "GROUP KEY GAMMA"),
    ];
    assert_rejected(&cases);
}

#[test]
fn loading_a_missing_file_is_an_error() {
    let err = pattern::load(std::path::Path::new("/nonexistent/hane-patterns.txt")).unwrap_err();
    assert!(matches!(err, PatternError::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/hane-patterns.txt"));
}

#[test]
fn the_shipped_table_loads_and_says_what_it_was_trained_on() {
    let table = pattern::default_table();
    assert!(
        table.header().iter().any(|l| l.starts_with("trained-on:")),
        "{:?}",
        table.header()
    );
    assert!(table.shapes(Group::Shape3).len() > 500);
    // Capturing the last move's chain is a far stronger move than a self-atari of a big
    // chain: the learned weights say so.
    assert!(table.level_gamma(Group::Capture, 2) > 5.0 * table.level_gamma(Group::SelfAtari, 2));
    // Reading the shipped file from disk gives the same table.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/patterns/default.txt");
    assert_eq!(&pattern::load(std::path::Path::new(path)).unwrap(), table);
}

/// A table written before the `liberties` and `shape60` groups existed still reads, with
/// gamma 1 for both, so its strengths are exactly what they were.
#[test]
fn tables_without_the_newer_groups_read_with_gamma_one_for_them() {
    let table = PatternTable::parse(
        "# old\nhane-patterns 1\ncapture 2 5.5\nedge 3 0.5\nshape40 other 0.75\nshape40 0x1f 3\n",
    )
    .unwrap();
    for level in 1..=Group::Liberties.max_level() {
        assert_eq!(table.level_gamma(Group::Liberties, level), 1.0);
    }
    assert!(table.shapes(Group::Shape60).is_empty());
    assert_eq!(table.shapes(Group::Shape60).other(), 1.0);
    assert_eq!(table.shapes(Group::Shape40).gamma(0x1f), 3.0);
    // The text it writes lists the new groups (all 1) and reads back the same table.
    let back = PatternTable::parse(&table.to_text()).unwrap();
    assert_eq!(back, table);
}

/// `random_table` with `dims` random latent factors for every feature.
fn random_factor_table(seed: u64, dims: usize) -> PatternTable {
    common::with_random_factors(&random_table(seed), dims, seed, 0.25)
}

#[test]
fn a_table_with_latent_factors_round_trips() {
    for (seed, dims) in [(0, 1), (1, 4), (2, 16)] {
        let table = random_factor_table(seed, dims);
        assert_eq!(table.factor_count(), dims);
        let text = table.to_text();
        assert!(text.contains(&format!("\nhane-patterns 2 factors {dims}\n")));
        let back = PatternTable::parse(&text).unwrap();
        assert_eq!(back, table);
        assert_eq!(back.to_text(), text);
    }
    // A plain table still writes the first version.
    assert!(random_table(3).to_text().contains("\nhane-patterns 1\n"));
    // A feature line without factors reads as zeros, and zeros are written as no factors.
    let explicit = PatternTable::parse(
        "hane-patterns 2 factors 2\ncapture 1 2 0 0\natari 1 3 0.5 -0.25\nshape3 0x1f 4 0 0\n",
    )
    .unwrap();
    let sparse = PatternTable::parse(
        "hane-patterns 2 factors 2\ncapture 1 2\natari 1 3 0.5 -0.25\nshape3 0x1f 4\n",
    )
    .unwrap();
    assert_eq!(sparse, explicit);
    let text = sparse.to_text();
    assert!(text.contains("\ncapture 1 2\n"), "{text}");
    assert!(text.contains("\natari 1 3 0.5 -0.25\n"), "{text}");
    assert!(text.contains("\nshape3 0x1f 4\n"), "{text}");
    assert_eq!(PatternTable::parse(&text).unwrap(), sparse);
}

/// `compact_factors` rounds every factor to a multiple of 1 / steps and drops (as zeros,
/// written as no factors) those of the features whose factors are all under the minimum.
#[test]
fn compacting_rounds_factors_and_drops_the_small_ones() {
    let table = common::with_random_factors(&random_table(5), 4, 5, 0.12);
    let mut compact = table.clone();
    compact.compact_factors(1000.0, 0.1);
    let (before, after) = (table.to_text(), compact.to_text());
    let (mut dropped, mut kept) = (0, 0);
    for (old, new) in before
        .lines()
        .zip(after.lines())
        .filter(|(l, _)| !l.starts_with('#'))
        .skip(1)
    {
        let old: Vec<&str> = old.split_whitespace().collect();
        let new: Vec<&str> = new.split_whitespace().collect();
        assert_eq!(old[..3], new[..3]);
        let old_factors: Vec<f32> = old[3..].iter().map(|f| f.parse().unwrap()).collect();
        if old_factors.iter().all(|x| x.abs() < 0.1) {
            assert_eq!(new.len(), 3, "{new:?}");
            dropped += 1;
            continue;
        }
        kept += 1;
        assert_eq!(new.len(), 3 + 4, "{new:?}");
        for (x, field) in old_factors.iter().zip(&new[3..]) {
            let y: f32 = field.parse().unwrap();
            assert!((x - y).abs() <= 5e-4 + 1e-6, "{x} became {y}");
            assert!((y * 1000.0 - (y * 1000.0).round()).abs() < 1e-3, "{y}");
        }
    }
    assert!(dropped > 10 && kept > 10, "{dropped} dropped, {kept} kept");
    assert_eq!(before.lines().count(), after.lines().count());
    // A plain table is left as it is.
    let plain = random_table(6);
    let mut same = plain.clone();
    same.compact_factors(1000.0, 0.1);
    assert_eq!(same, plain);
}

/// With factors, a move's strength is its gammas' product times e to the sum, over each
/// pair of its features, of the dot product of their factors.
#[test]
fn latent_factors_multiply_a_move_by_its_feature_pairs_interactions() {
    use hane::pattern::features::{LEVELLED_GROUPS, MoveFeatures, SHAPE_GROUPS};
    let table = PatternTable::parse(
        "hane-patterns 2 factors 2\n\
         capture 1 2 0.5 1\n\
         edge 3 4 1 -2\n\
         shape3 other 1 0 0\n\
         shape3 0x1f 3 0.25 0.5\n",
    )
    .unwrap();
    let mut levels = [0u8; LEVELLED_GROUPS];
    levels[Group::Capture.slot()] = 1;
    levels[Group::Edge.slot()] = 3;
    let mut shapes = [0u64; SHAPE_GROUPS];
    shapes[0] = 0x1f;
    let move_features = MoveFeatures {
        levels,
        shapes,
        is_pass: false,
    };
    // Pairs: capture.edge = 0.5 - 2, capture.shape = 0.125 + 0.5, edge.shape = 0.25 - 1;
    // the other shape groups are unlisted (gamma 1, factors 0).
    let pairs = (0.5 - 2.0) + (0.125 + 0.5) + (0.25 - 1.0);
    let want = 2.0 * 4.0 * 3.0 * f64::exp(pairs);
    let got = table.strength(&move_features);
    assert!((got - want).abs() < 1e-5 * want, "{got} vs {want}");
    // Without the capture, only the edge-shape pair is left.
    let mut alone = move_features;
    alone.levels[Group::Capture.slot()] = 0;
    let want = 4.0 * 3.0 * f64::exp(0.25 - 1.0);
    let got = table.strength(&alone);
    assert!((got - want).abs() < 1e-5 * want, "{got} vs {want}");
}
