//! The release build stays lean: debug information for profilers lives in a profile of its
//! own (`cargo build --profile profiling`), not in the binary every user runs.

/// The lines of `[profile.NAME]` in Cargo.toml, up to the next table.
fn profile(manifest: &str, name: &str) -> Option<Vec<String>> {
    let header = format!("[profile.{name}]");
    let mut lines = manifest.lines().skip_while(|l| l.trim() != header);
    lines.next()?;
    Some(
        lines
            .take_while(|l| !l.trim_start().starts_with('['))
            .map(|l| l.split('#').next().unwrap().replace(' ', ""))
            .filter(|l| !l.is_empty())
            .collect(),
    )
}

#[test]
fn release_has_no_debug_info_and_profiling_has_it() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let release = profile(&manifest, "release").expect("[profile.release]");
    assert!(
        !release
            .iter()
            .any(|l| l.starts_with("debug=") && l != "debug=0" && l != "debug=false"),
        "{release:?}"
    );
    let profiling = profile(&manifest, "profiling").expect("[profile.profiling]");
    assert!(
        profiling.contains(&"inherits=\"release\"".to_string()),
        "{profiling:?}"
    );
    assert!(
        profiling.iter().any(|l| l == "debug=1"
            || l == "debug=true"
            || l == "debug=\"line-tables-only\""
            || l == "debug=2"),
        "{profiling:?}"
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/README.md")).unwrap();
    assert!(readme.contains("--profile profiling"), "benches/README.md");
}
