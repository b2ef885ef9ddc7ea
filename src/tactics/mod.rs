//! Tactical reading on a board, below the pattern and playout layers: the liberties of
//! chains and of moves (a chain's distinct liberties, what a move would leave its own chain
//! with, self-atari), the ladder reader, the eye-space reader that finds the vital point of
//! a small eye space, and the tactical reader that decides whether a chain can be captured
//! or saved (`attack` and `defend`), the capturing-race reader that decides races and
//! seki between two chains short of liberties (`semeai`), and the owl reader that decides
//! whether a group can be killed or made alive (`owl`); the three readers share one search
//! skeleton (`skeleton`: table, budget, iterative deepening, alpha-beta over ko-aware
//! values) and differ in their goals and move generators. It depends on [`crate::board`]
//! only; the pattern features, the playout policy and the search's priors build on it.
//! Nothing here allocates per call (the readers own their scratch space).

pub mod eye_space;
pub mod ladder;
pub mod liberties;
pub mod owl;
pub mod reader;
pub mod semeai;
mod skeleton;
#[cfg(test)]
mod testing;
