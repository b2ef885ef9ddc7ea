//! Reading many game records at once (training and test sets): SGF files and folders
//! searched for them, with broken, other-size, repeated and excluded games counted and
//! left out.

use std::collections::HashSet;
use std::path::PathBuf;

use super::{SgfGame, parse_collection};

/// Games read from files, with counts of what was skipped.
#[derive(Default)]
pub struct GameSource {
    pub games: Vec<SgfGame>,
    pub unreadable_files: usize,
    pub broken_games: usize,
    pub other_size: usize,
    /// Games whose size, setup and moves repeat an earlier game (collections overlap).
    pub duplicates: usize,
    /// Games left out because they are in the exclusion set.
    pub excluded: usize,
}

/// The files named on the command line, with every `*.sgf` file under a named directory
/// (recursively, in name order) in its place.
fn expand_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut stack = vec![path.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    eprintln!("skipping {}: cannot list it", dir.display());
                    continue;
                };
                for entry in entries.flatten() {
                    let p = entry.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                        found.push(p);
                    }
                }
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files
}

/// A key that is equal for two records of the same game: size, setup stones and moves.
pub fn game_key(game: &SgfGame) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    game.size.hash(&mut hasher);
    for (color, p) in &game.setup {
        (*color as u8, p.index()).hash(&mut hasher);
    }
    for (color, mv) in &game.moves {
        (*color as u8, mv.point().map_or(0, |p| p.index())).hash(&mut hasher);
    }
    hasher.finish()
}

/// Reads every game of the given size (0: any) from `paths` (files, or directories searched
/// for `*.sgf` files), dropping repeated games and games whose [`game_key`] is in
/// `exclude`, up to `limit` games (0: all).
pub fn read_games(
    paths: &[PathBuf],
    size: usize,
    limit: usize,
    exclude: &HashSet<u64>,
) -> GameSource {
    let mut source = GameSource::default();
    let mut seen = HashSet::new();
    for path in expand_paths(paths) {
        if limit > 0 && source.games.len() >= limit {
            break;
        }
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("skipping {}: {e}", path.display());
                source.unreadable_files += 1;
                continue;
            }
        };
        match parse_collection(&text) {
            Err(e) => {
                eprintln!("skipping {}: {e}", path.display());
                source.unreadable_files += 1;
            }
            Ok(games) => {
                for game in games {
                    match game {
                        Err(_) => source.broken_games += 1,
                        Ok(g) if size != 0 && g.size != size => source.other_size += 1,
                        Ok(g) => {
                            let key = game_key(&g);
                            if !seen.insert(key) {
                                source.duplicates += 1;
                            } else if exclude.contains(&key) {
                                source.excluded += 1;
                            } else {
                                source.games.push(g);
                            }
                        }
                    }
                }
            }
        }
    }
    if limit > 0 {
        source.games.truncate(limit);
    }
    source
}

/// The [`game_key`]s of every game in `paths` (files or folders): the games to leave out
/// of another set.
pub fn game_keys(paths: &[PathBuf]) -> HashSet<u64> {
    if paths.is_empty() {
        HashSet::new()
    } else {
        read_games(paths, 0, 0, &HashSet::new())
            .games
            .iter()
            .map(game_key)
            .collect()
    }
}
