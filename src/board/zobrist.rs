//! Zobrist keys for stones on cells, computed at compile time from a fixed seed.

use super::geometry::{Color, MAX_CELLS};

const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

const fn make_table() -> [[u64; KEY_SLOTS]; 2] {
    let mut table = [[0u64; KEY_SLOTS]; 2];
    let mut state = 0x6861_6E65_5A6F_6272; // "haneZobr"
    let mut color = 0;
    while color < 2 {
        let mut cell = 0;
        while cell < KEY_SLOTS {
            let (next, value) = splitmix64(state);
            state = next;
            table[color][cell] = value;
            cell += 1;
        }
        color += 1;
    }
    table
}

static STONE_KEYS: [[u64; KEY_SLOTS]; 2] = make_table();

/// Table width: a power of two at least `MAX_CELLS`, so a masked index needs no bounds check.
const KEY_SLOTS: usize = 1024;
const _: () = assert!(KEY_SLOTS >= MAX_CELLS && KEY_SLOTS.is_power_of_two());

/// Key of a stone of `color` on padded cell `index` (`index < MAX_CELLS`).
#[inline]
pub fn stone_key(color: Color, index: usize) -> u64 {
    STONE_KEYS[(color as usize - 1) & 1][index & (KEY_SLOTS - 1)]
}
