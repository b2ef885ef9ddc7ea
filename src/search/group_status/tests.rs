use super::*;
use crate::board::{Cell, Color};
use crate::tactics::owl::OwlLimits;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn board(diagram: &str) -> Board {
    Board::from_diagram(diagram).unwrap()
}

fn point(board: &Board, vertex: &str) -> Point {
    board.geometry().parse_point(vertex).unwrap()
}

fn reader() -> OwlReader {
    OwlReader::with_limits(
        OwlLimits {
            nodes: 20_000,
            ..OwlLimits::default()
        },
        OwlReader::DEFAULT_TABLE_BITS,
    )
}

/// One stone of each chain of the group through `target`.
fn chains(reader: &mut OwlReader, board: &Board, target: Point) -> Vec<u16> {
    reader.group(board, target).to_vec()
}

/// White's corner group of 13x13 with a straight three: C1 lives or kills.
const CORNER: &str = "
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    XXXXX........
    OOOOOX.......
    OOOOOX.......
    O...OX.......
";

#[test]
fn a_far_move_keeps_the_verdict_and_a_near_one_drops_it() {
    let mut owl = reader();
    let mut cache = GroupStatusCache::new();
    let b = board(CORNER);
    let target = point(&b, "A1");
    assert_eq!(cache.lookup(&b, target), None);
    let group = chains(&mut owl, &b, target);
    let status = cache.read(&mut owl, &b, target, &group);
    // White lives at C1, black kills there.
    assert!(status.attack.verdict.succeeds(), "{status:?}");
    assert!(
        status.defence.is_some_and(|d| d.verdict.succeeds()),
        "{status:?}"
    );
    assert_eq!(cache.len(), 1);
    assert_eq!(cache.lookup(&b, target), Some(status));
    // Another stone of the group finds the same verdict.
    assert_eq!(cache.lookup(&b, point(&b, "E2")), Some(status));

    // A move in the far corner: the verdict stands, and survives `keep_valid`.
    let mut far = b.clone();
    far.play(point(&far, "M13"), Color::Black).unwrap();
    cache.keep_valid(&far);
    assert_eq!(cache.lookup(&far, target), Some(status));

    // Black on the vital point kills: the area changed, the verdict is gone.
    let mut near = far.clone();
    near.play(point(&near, "C1"), Color::Black).unwrap();
    assert_eq!(cache.lookup(&near, target), None);
    cache.keep_valid(&near);
    assert!(cache.is_empty());
    let group = chains(&mut owl, &near, target);
    let killed = cache.read(&mut owl, &near, target, &group);
    assert!(killed.attack.verdict.succeeds(), "{killed:?}");
    assert!(
        killed.defence.is_some_and(|d| !d.verdict.succeeds()),
        "{killed:?}"
    );

    // A board of another size clears the cache.
    cache.keep_valid(&Board::new(9).unwrap());
    assert!(cache.is_empty());
}

#[test]
fn the_area_holds_the_group_and_its_reading_and_stays_local() {
    let (b, cache) = corner_read(1);
    let entry = &cache.entries[0];
    for p in b.geometry().points() {
        if b.cell(p) == Cell::White {
            assert!(entry.stones.contains(p) && entry.area.contains(p));
        }
    }
    // The vital point was played on in the reads, and the far corner is outside.
    assert!(entry.area.contains(point(&b, "C1")));
    assert!(!entry.area.contains(point(&b, "M13")));
    assert!(!entry.area.contains(point(&b, "A13")));
}

#[test]
fn a_full_cache_drops_its_oldest_verdict() {
    let (_, cache) = corner_read(CAPACITY + 5);
    assert_eq!(cache.len(), CAPACITY);
}

/// The corner board and a cache after `times` reads of its white group.
fn corner_read(times: usize) -> (Board, GroupStatusCache) {
    let mut owl = reader();
    let mut cache = GroupStatusCache::new();
    let b = board(CORNER);
    let target = point(&b, "A1");
    let group = chains(&mut owl, &b, target);
    for _ in 0..times {
        cache.read(&mut owl, &b, target, &group);
    }
    (b, cache)
}

/// A random legal move for `color` that fills no single-point eye of its own (`None`: pass).
fn random_move(b: &Board, color: Color, rng: &mut Pcg64Mcg) -> Option<Point> {
    let empty = b.empty_points();
    let start = rng.random_range(0..empty.len().max(1));
    (0..empty.len())
        .map(|k| Point::from_index(usize::from(empty[(start + k) % empty.len()])))
        .find(|&p| {
            let own_eye = b
                .geometry()
                .neighbors(p)
                .iter()
                .all(|&n| matches!(b.cell_at(n), Cell::Border) || b.cell_at(n).is(color));
            !own_eye && !b.is_suicide(p, color) && !b.is_ko_retake(p, color)
        })
}

/// On random 13x13 games, every stored verdict the cache hands out agrees with a fresh read
/// of the same group by a reader with its own table, on the attack and on the defence,
/// nearly always (the area is an approximation: the module documentation says what it
/// misses), and a good part of the groups are answered from the cache (random games move
/// everywhere; real ones, more locally, reuse more).
#[test]
fn stored_verdicts_agree_with_fresh_reads_on_random_games() {
    let mut owl = reader();
    let mut fresh = reader();
    let (mut looked_up, mut hits, mut agree) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for seed in 0..2u64 {
        let mut rng = Pcg64Mcg::seed_from_u64(0x6f77_6c00 + seed);
        let mut b = Board::new(13).unwrap();
        let mut cache = GroupStatusCache::new();
        let mut color = Color::Black;
        for ply in 0..110 {
            if let Some(p) = random_move(&b, color, &mut rng) {
                b.play(p, color).unwrap();
            } else {
                b.pass();
            }
            color = color.opponent();
            if ply < 30 {
                continue;
            }
            cache.keep_valid(&b);
            let mut seen = Vec::new();
            for p in b.geometry().points() {
                if b.cell(p).color().is_none() || seen.contains(&b.chain_id(p)) {
                    continue;
                }
                let group = chains(&mut owl, &b, p);
                seen.extend(
                    group
                        .iter()
                        .map(|&c| b.chain_id(Point::from_index(usize::from(c)))),
                );
                let stones: usize = group
                    .iter()
                    .map(|&c| b.chain_len(Point::from_index(usize::from(c))))
                    .sum();
                if stones < 4 {
                    continue;
                }
                looked_up += 1;
                let Some(stored) = cache.lookup(&b, p) else {
                    cache.read(&mut owl, &b, p, &group);
                    continue;
                };
                hits += 1;
                fresh.clear();
                let attack = fresh.attack(&b, p);
                let defence = attack.verdict.succeeds().then(|| fresh.defend(&b, p));
                let same = attack.verdict == stored.attack.verdict
                    && defence.map(|d| d.verdict) == stored.defence.map(|d| d.verdict);
                if same {
                    agree += 1;
                } else {
                    disagreements.push(format!(
                        "seed {seed} ply {ply} {}: stored {stored:?}, fresh {attack:?} {defence:?}\n{}",
                        b.geometry().format_point(p),
                        b.to_diagram()
                    ));
                }
            }
        }
    }
    eprintln!("groups looked up {looked_up}, answered from the cache {hits}, agreeing {agree}");
    assert!(looked_up >= 300, "{looked_up}");
    assert!(hits * 3 >= looked_up, "{hits} of {looked_up}");
    assert!(
        agree as f64 >= 0.97 * hits as f64,
        "{agree} of {hits}:\n{}",
        disagreements.join("\n")
    );
}

fn reading(verdict: Verdict, exact: bool) -> Reading {
    Reading {
        verdict,
        point: None,
        exact,
    }
}

#[test]
fn life_needs_a_read_out_attack_and_no_ko() {
    let status = |attack, defence| GroupStatus { attack, defence };
    let works = reading(Verdict::Works, true);
    let fails = reading(Verdict::Fails, true);
    assert_eq!(status(fails, None).life(), Some(Life::Alive));
    assert_eq!(status(works, Some(fails)).life(), Some(Life::Dead));
    assert_eq!(status(works, Some(works)).life(), Some(Life::Critical));
    // A defence found before a cut-off still makes the group critical; a defence that
    // failed at a cut-off says nothing.
    let cut_works = reading(Verdict::Works, false);
    let cut_fails = reading(Verdict::Fails, false);
    assert_eq!(status(works, Some(cut_works)).life(), Some(Life::Critical));
    assert_eq!(status(works, Some(cut_fails)).life(), None);
    // An attack decided by a cut-off, or any ko, says nothing.
    assert_eq!(status(cut_fails, None).life(), None);
    assert_eq!(status(cut_works, Some(fails)).life(), None);
    assert_eq!(status(reading(Verdict::Ko, true), Some(fails)).life(), None);
    assert_eq!(
        status(works, Some(reading(Verdict::KoNeedsThreat, true))).life(),
        None
    );
}

#[test]
fn a_critical_group_goes_to_the_side_to_move_or_to_the_key_point_played() {
    let mut owl = reader();
    let mut cache = GroupStatusCache::new();
    let b = board(CORNER);
    let target = point(&b, "A1");
    let group = chains(&mut owl, &b, target);
    cache.read(&mut owl, &b, target, &group);
    let life = cache.life(&b, target).expect("a verdict without ko");
    assert_eq!(life.owner, Color::White);
    assert_eq!(life.life, Life::Critical);
    let c1 = point(&b, "C1");
    assert_eq!((life.attack, life.defence), (Some(c1), Some(c1)));
    let play = |color: Color, vertex: &str| (color, Move::Play(point(&b, vertex)));
    // Nothing played in the area: the side to move decides.
    assert_eq!(life.dead_after(&[], Color::White), Some(false));
    assert_eq!(life.dead_after(&[], Color::Black), Some(true));
    let far = [play(Color::Black, "M13"), (Color::White, Move::Pass)];
    assert_eq!(life.dead_after(&far, Color::Black), Some(true));
    assert_eq!(life.dead_after(&far[..1], Color::White), Some(false));
    // The key point decides whatever follows.
    let killed = [play(Color::Black, "C1"), play(Color::White, "B1")];
    assert_eq!(life.dead_after(&killed, Color::Black), Some(true));
    let saved = [play(Color::White, "C1"), play(Color::Black, "B1")];
    assert_eq!(life.dead_after(&saved, Color::White), Some(false));
    // Another move in the area first: the verdict says nothing.
    let other = [play(Color::Black, "B1"), play(Color::White, "C1")];
    assert_eq!(life.dead_after(&other, Color::Black), None);
    assert_eq!(
        life.dead_after(&[play(Color::Black, "G3")], Color::White),
        None
    );
}

/// White's corner group of 13x13 with a straight two: dead whoever moves.
const DEAD_CORNER: &str = "
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    XXXXX........
    OOOOX........
    O..OX........
";

#[test]
fn a_dead_group_counts_as_dead_until_a_move_falls_in_its_area() {
    let mut owl = reader();
    let mut cache = GroupStatusCache::new();
    let b = board(DEAD_CORNER);
    let target = point(&b, "A1");
    let group = chains(&mut owl, &b, target);
    cache.read(&mut owl, &b, target, &group);
    let life = cache.life(&b, target).expect("a verdict without ko");
    assert_eq!(life.life, Life::Dead, "{:?}", cache.lookup(&b, target));
    assert_eq!(life.stones.iter().count(), 6);
    let far = [(Color::White, Move::Play(point(&b, "M13")))];
    assert_eq!(life.dead_after(&far, Color::Black), Some(true));
    assert_eq!(life.dead_after(&far, Color::White), Some(true));
    let near = [(Color::White, Move::Play(point(&b, "B1")))];
    assert_eq!(life.dead_after(&near, Color::Black), None);

    // Standing at the end, the 6 stones go to black: 12 points of black's minus white's.
    assert_eq!(life.score_correction(&b, true), 12);
    assert_eq!(life.score_correction(&b, false), 0);
    // Captured at the end (black stones on all but one point, that one empty), a
    // living verdict gives them back to white.
    let captured = board(
        "
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    .............
    XXXXX........
    XXXXX........
    .XXXX........
",
    );
    assert_eq!(life.score_correction(&captured, false), -12);
    assert_eq!(life.score_correction(&captured, true), 0);
    // A black group's correction has the other sign.
    let black = GroupLife {
        owner: Color::Black,
        ..life
    };
    assert_eq!(black.score_correction(&captured, true), -10);
}
