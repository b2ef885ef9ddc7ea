//! hane: a multithreaded Monte-Carlo tree search Go engine that speaks GTP.
//!
//! Modules in dependency order: [`board`] (rules and positions), [`tactics`] (liberties,
//! ladders and eye spaces) and [`sgf`] (game records), [`pattern`] (learned move
//! patterns), [`playout`] (random games), [`search`] (the tree search), [`engine`] and
//! [`arena`] (GTP and matches), and [`cli`] (the command line); no module imports one
//! later in this list (only the unit tests of `tactics` use `playout`, whose random games
//! give them positions to read). See README.md for the architecture.

#![forbid(unsafe_code)]

pub mod arena;
pub mod board;
pub mod cli;
pub mod engine;
pub mod pattern;
pub mod playout;
pub mod search;
pub mod sgf;
pub mod tactics;
