//! Zobrist keys for stones on cells, computed at compile time from a fixed seed.

use super::geometry::{Color, MAX_CELLS};

const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

const fn make_table() -> [[u64; MAX_CELLS]; 2] {
    let mut table = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x6861_6E65_5A6F_6272; // "haneZobr"
    let mut color = 0;
    while color < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            let (next, value) = splitmix64(state);
            state = next;
            table[color][cell] = value;
            cell += 1;
        }
        color += 1;
    }
    table
}

static STONE_KEYS: [[u64; MAX_CELLS]; 2] = make_table();

/// Key of a stone of `color` on padded cell `index`.
#[inline]
pub fn stone_key(color: Color, index: usize) -> u64 {
    STONE_KEYS[color.index()][index]
}
