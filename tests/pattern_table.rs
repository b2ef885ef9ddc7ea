//! The plain-text table format: writing and reading give back the same table, malformed
//! files give clear errors with line numbers, and the shipped table loads.

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
    ];
    for (text, line, message) in cases {
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
