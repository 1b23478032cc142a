//! Pentad: a gomoku/renju engine for the Gomocup (Piskvork) protocol.
//!
//! Layers look only down: `core` ← `net` ← `board` ← `eval` ← `search` ← `engine` ← `protocol`; `database` (below
//! `protocol`, on `core` and the search's score scale) holds the position database. The
//! match runner (`arena/`) and the tools (`tools/`) are member crates built on this one.

pub mod board;
pub mod core;
pub mod database;
pub mod engine;
pub mod eval;
pub mod net;
pub mod protocol;
pub mod search;
