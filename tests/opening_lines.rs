//! `hane opening-lines` on records written for the test: the shares it prints per line.

use std::process::Command;

#[test]
fn the_opening_statistic_counts_the_first_moves_by_line() {
    let dir = std::env::temp_dir().join(format!("hane-opening-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Four first moves on the 4th, 4th, 3rd and 10th lines; the fifth is not counted with
    // --moves 4. A 9x9 game and a handicap game are left out.
    let games = dir.join("games.sgf");
    std::fs::write(
        &games,
        "(;GM[1]SZ[19];B[dp];W[pd];B[cq];W[jj];B[aa])\n\
         (;GM[1]SZ[9];B[ee])\n\
         (;GM[1]SZ[19]HA[2]AB[dd][pp];W[dp])\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["opening-lines", "--moves", "4"])
        .arg(&games)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let row = text.lines().find(|l| l.starts_with("games ")).unwrap();
    let fields: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        fields,
        ["games", "1", "4", "0.0%", "0.0%", "25.0%", "50.0%", "25.0%"],
        "{text}"
    );
    assert!(
        text.contains("fifth line or higher: 25.0% of 4 moves"),
        "{text}"
    );
    // No game of the size asked: an error.
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(["opening-lines", "--size", "13"])
        .arg(&games)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
