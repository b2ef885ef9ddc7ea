//! hane: a multithreaded Monte-Carlo tree search Go engine that speaks GTP.
//!
//! Modules in dependency order: [`board`] (rules and positions), [`playout`] (random
//! games), and [`cli`] (the command line). See README.md for the architecture.

pub mod arena;
pub mod board;
pub mod cli;
pub mod engine;
pub mod pattern;
pub mod playout;
pub mod search;
pub mod sgf;
