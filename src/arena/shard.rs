//! The match's game list (seeds, colours, openings) and its shards: which games a shard
//! plays, the `K/N` option, and merging result folders (the shards of a match, and runs of
//! it with other seeds).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::results::{self, GameRecord, MatchSettings};

/// One game of the match's game list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's place in the list, from 0 (its seed, colours and opening follow from it).
    pub index: usize,
    pub seed: u64,
    /// Whether engine 1 plays black.
    pub engine1_black: bool,
    /// Index into the openings.
    pub opening: Option<usize>,
}

/// SplitMix64: a fixed, well-mixed seed per game from the match seed.
fn game_seed(match_seed: u64, index: usize) -> u64 {
    let mut z = match_seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(index as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether shard `K/N` holds the game of list index `index`: with `pairs`, the shard holds
/// pairs K-1, K-1+N, ... of the colour-swapped pairs of games (list indices 2p and 2p+1), so
/// that it plays each engine as often with black as with white; without (folders made
/// before pairs), the games with index % N == K-1.
pub fn in_shard(index: usize, shard: Option<(usize, usize)>, pairs: bool) -> bool {
    let unit = if pairs { index / 2 } else { index };
    shard.is_none_or(|(k, n)| unit % n == k - 1)
}

/// The colour engine 1 plays in a match's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine1Colour {
    /// Black in the odd-numbered games (1, 3, ...), white in the even ones.
    #[default]
    Alternate,
    Black,
    /// White in every game: with `--handicap N`, the engine that gives the stones.
    White,
}

impl std::str::FromStr for Engine1Colour {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "alternate" => Ok(Engine1Colour::Alternate),
            "black" | "b" => Ok(Engine1Colour::Black),
            "white" | "w" => Ok(Engine1Colour::White),
            _ => Err(format!(
                "engine 1's colour is alternate, black or white, not {text:?}"
            )),
        }
    }
}

impl Engine1Colour {
    /// Whether engine 1 plays black in the game of list index `index`.
    pub fn engine1_black(self, index: usize) -> bool {
        match self {
            Engine1Colour::Alternate => index.is_multiple_of(2),
            Engine1Colour::Black => true,
            Engine1Colour::White => false,
        }
    }
}

/// The match's game list, or a shard's part of it (see [`in_shard`]). Colours alternate
/// unless `colour` fixes engine 1's; with openings, each opening is played twice in a row
/// (with colours swapped when they alternate), and the openings repeat in order.
pub fn game_list(
    games: usize,
    seed: u64,
    openings: usize,
    shard: Option<(usize, usize)>,
    pairs: bool,
    colour: Engine1Colour,
) -> Vec<GameSpec> {
    (0..games)
        .filter(|&i| in_shard(i, shard, pairs))
        .map(|index| GameSpec {
            index,
            seed: game_seed(seed, index),
            engine1_black: colour.engine1_black(index),
            opening: (openings > 0).then(|| (index / 2) % openings),
        })
        .collect()
}

impl GameSpec {
    /// The game's number, from 1: in `results.jsonl`, file names, SGF comments and on
    /// screen.
    pub fn number(&self) -> usize {
        self.index + 1
    }
}

/// Parses `K/N` with 1 <= K <= N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard wants K/N with 1 <= K <= N, got {text:?}");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The games of several result folders merged into one match.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The common settings; `games` the games planned over all the runs.
    pub settings: MatchSettings,
    /// The games, by number: each run's in turn, numbered on from the run before.
    pub records: Vec<GameRecord>,
    /// The match seed of each run, in the order the folders named them first.
    pub seeds: Vec<u64>,
}

/// Merges result folders into one list of records and their common settings. Folders of
/// one match (its shards, or copies) merge game by game; folders that differ only in the
/// match seed are runs of the same match with other games (a run extended with a new seed),
/// pooled one after the other: the games of each later run are numbered on from the
/// highest number of the runs before. Any other difference is refused.
pub fn merge_folders(dirs: &[PathBuf]) -> Result<Merged, String> {
    let mut settings: Option<MatchSettings> = None;
    // Each run (match seed): its games by number, and the games it planned.
    let mut runs: Vec<(u64, std::collections::BTreeMap<usize, GameRecord>, usize)> = Vec::new();
    for dir in dirs {
        let here = results::read_settings(dir)?
            .ok_or_else(|| format!("{} holds no {}", dir.display(), results::SETTINGS_FILE))?;
        if let Some(first) = &settings {
            // Another seed is another run of the match: compare the rest.
            let differences = first.differences(&MatchSettings {
                seed: first.seed,
                ..here.clone()
            });
            if !differences.is_empty() {
                return Err(format!(
                    "{} holds a different match (it differs in: {})",
                    dir.display(),
                    differences.join(", ")
                ));
            }
        } else {
            settings = Some(here.clone());
        }
        let run = match runs.iter().position(|(seed, _, _)| *seed == here.seed) {
            Some(k) => k,
            None => {
                runs.push((here.seed, Default::default(), 0));
                runs.len() - 1
            }
        };
        let (_, merged, planned) = &mut runs[run];
        *planned = (*planned).max(here.games);
        for record in results::read_records(dir)? {
            if let Some(previous) = merged.get(&record.number) {
                if previous.result != record.result || previous.moves != record.moves {
                    eprintln!(
                        "hane: game {} appears twice with different results; keeping the first",
                        record.number
                    );
                }
                continue;
            }
            merged.insert(record.number, record);
        }
    }
    let mut settings = settings.ok_or("no result folders given")?;
    settings.shard = None;
    settings.games = runs.iter().map(|(_, _, planned)| planned).sum();
    let seeds = runs.iter().map(|(seed, _, _)| *seed).collect();
    let mut records = Vec::new();
    let mut offset = 0;
    for (_, merged, _) in runs {
        let highest = merged.keys().next_back().copied().unwrap_or(0);
        records.extend(merged.into_values().map(|mut record| {
            record.number += offset;
            record
        }));
        offset += highest;
    }
    Ok(Merged {
        settings,
        records,
        seeds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_list_alternates_colours_and_pairs_openings() {
        let list = game_list(8, 7, 3, None, true, Engine1Colour::Alternate);
        let colours: Vec<bool> = list.iter().map(|g| g.engine1_black).collect();
        assert_eq!(
            colours,
            [true, false, true, false, true, false, true, false]
        );
        let openings: Vec<Option<usize>> = list.iter().map(|g| g.opening).collect();
        assert_eq!(
            openings,
            [
                Some(0),
                Some(0),
                Some(1),
                Some(1),
                Some(2),
                Some(2),
                Some(0),
                Some(0)
            ]
        );
        let first = game_list(8, 7, 3, Some((1, 3)), true, Engine1Colour::Alternate);
        let second = game_list(8, 7, 3, Some((2, 3)), true, Engine1Colour::Alternate);
        let third = game_list(8, 7, 3, Some((3, 3)), true, Engine1Colour::Alternate);
        let mut union: Vec<GameSpec> = [first, second, third].concat();
        union.sort_by_key(|g| g.index);
        assert_eq!(union, list);
        assert_ne!(list[0].seed, list[1].seed);
    }

    #[test]
    fn shards_hold_whole_colour_swapped_pairs() {
        // Games 2k and 2k+1 are one opening (or none) with colours swapped: a shard holds
        // both or neither, so that every shard plays each engine as often with black as
        // with white, and the shards together are the whole list.
        for (games, shards) in [(20, 2), (20, 3), (9, 2), (7, 4), (6, 8)] {
            let whole = game_list(games, 3, 2, None, true, Engine1Colour::Alternate);
            let mut union = Vec::new();
            for k in 1..=shards {
                let part = game_list(
                    games,
                    3,
                    2,
                    Some((k, shards)),
                    true,
                    Engine1Colour::Alternate,
                );
                for spec in &part {
                    let twin = spec.index ^ 1;
                    assert!(
                        twin >= games || part.iter().any(|s| s.index == twin),
                        "{games} games, shard {k}/{shards}: game {} without {twin}",
                        spec.index
                    );
                }
                let black = part.iter().filter(|s| s.engine1_black).count();
                let white = part.len() - black;
                assert!(
                    black.abs_diff(white) <= 1,
                    "{games}, {k}/{shards}: {part:?}"
                );
                union.extend(part);
            }
            union.sort_by_key(|g| g.index);
            assert_eq!(union, whole);
        }
        // A folder made before shards took pairs keeps its split when it resumes.
        let old: Vec<usize> = game_list(6, 3, 0, Some((1, 2)), false, Engine1Colour::Alternate)
            .iter()
            .map(|g| g.index)
            .collect();
        assert_eq!(old, [0, 2, 4]);
        let json = r#"{"engines":["a","b"],"names":["a","b"],"size":9,"komi":7.5,
            "rules":"cgos","handicap":0,"openings":[],"opening_moves":null,
            "time_control":{"kind":"per-move","seconds":1.0},"margin_seconds":1.0,
            "move_cap":243,"seed":1,"games":6,"shard":[1,2]}"#;
        let settings: MatchSettings = serde_json::from_str(json).unwrap();
        assert!(!settings.shard_pairs);
        assert_eq!(settings.engine1_colour, Engine1Colour::Alternate);
    }

    #[test]
    fn engine1_colour_can_be_fixed() {
        for (colour, black) in [(Engine1Colour::Black, true), (Engine1Colour::White, false)] {
            let whole = game_list(7, 5, 2, None, true, colour);
            assert_eq!(whole.len(), 7);
            assert!(whole.iter().all(|g| g.engine1_black == black), "{colour:?}");
            // The seeds and openings are those of the alternating list: only colours differ.
            let alternating = game_list(7, 5, 2, None, true, Engine1Colour::Alternate);
            for (a, b) in whole.iter().zip(&alternating) {
                assert_eq!((a.index, a.seed, a.opening), (b.index, b.seed, b.opening));
            }
            let mut union: Vec<GameSpec> = (1..=3)
                .flat_map(|k| game_list(7, 5, 2, Some((k, 3)), true, colour))
                .collect();
            union.sort_by_key(|g| g.index);
            assert_eq!(union, whole);
        }
        assert_eq!("White".parse(), Ok(Engine1Colour::White));
        assert_eq!("b".parse(), Ok(Engine1Colour::Black));
        assert_eq!("alternate".parse(), Ok(Engine1Colour::Alternate));
        assert!("red".parse::<Engine1Colour>().is_err());
        let text = serde_json::to_string(&Engine1Colour::White).unwrap();
        assert_eq!(text, "\"white\"");
    }

    /// Shards of one run merge game by game; a run of another seed pools after it,
    /// numbered on; a folder of another match is refused.
    #[test]
    fn folders_of_another_seed_pool_as_a_run_after_the_others() {
        use crate::arena::results::ResultsWriter;
        use crate::arena::stats::tests::{record, settings};
        let root = std::env::temp_dir().join(format!("hane-merge-{}", std::process::id()));
        // A folder of the match of `seed` and `komi` holding `numbers`, won by `winner`.
        let folder = |name: &str, seed: u64, komi: f32, numbers: &[usize], winner: u8| {
            let dir = root.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let mut match_settings = settings(["a", "b"]);
            match_settings.seed = seed;
            match_settings.komi = komi;
            results::write_settings(&dir, &match_settings).unwrap();
            let mut writer = ResultsWriter::open(&dir).unwrap();
            for &number in numbers {
                writer.append(&record(number, winner)).unwrap();
            }
            dir
        };
        let first = folder("first", 1, 7.5, &[1, 2], 1);
        let other = folder("other", 2, 7.5, &[1, 2, 3], 2);
        let second = folder("second", 1, 7.5, &[3, 4], 1);
        let pooled = merge_folders(&[first.clone(), other, second.clone()]).unwrap();
        assert_eq!(pooled.seeds, [1, 2]);
        let games: Vec<(usize, Option<u8>)> = pooled
            .records
            .iter()
            .map(|r| (r.number, r.winner_engine))
            .collect();
        let expected = [1, 2, 3, 4, 5, 6, 7].map(|n| (n, Some(if n <= 4 { 1 } else { 2 })));
        assert_eq!(games, expected);
        assert_eq!(pooled.settings.games, 8, "4 planned in each run");
        let shards = merge_folders(&[first.clone(), second]).unwrap();
        assert_eq!(shards.seeds, [1]);
        assert_eq!(shards.records.len(), 4);
        assert_eq!(shards.settings.games, 4);
        let komi = folder("komi", 1, 5.5, &[1], 1);
        let refused = merge_folders(&[first, komi]).unwrap_err();
        assert!(refused.contains("differs in: komi"), "{refused}");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn shards_parse() {
        assert_eq!(parse_shard("2/5"), Ok((2, 5)));
        assert!(parse_shard("0/5").is_err());
        assert!(parse_shard("6/5").is_err());
        assert!(parse_shard("x").is_err());
    }
}
