//! Pentad: a gomoku/renju engine for the Gomocup (Piskvork) protocol, and its match runner.
//!
//! Layers look only down: `core` ← `board` ← `eval` ← `search` ← `engine` ← `protocol`;
//! `arena` uses `core` and `board` to referee engine processes.

pub mod arena;
pub mod board;
pub mod core;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod search;
