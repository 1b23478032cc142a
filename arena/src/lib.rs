//! The match runner library: engine processes, game loop, openings, adjudication, statistics, records.
//!
//! `pentad-arena` (arena/src/bin/pentad-arena.rs) is a thin wrapper over [`cli`]; tests and tools
//! can drive a match directly with [`tournament::run_match`].

pub mod cli;
pub mod engine;
pub mod game;
pub mod openings;
pub mod records;
pub mod schedule;
pub mod stats;
pub mod tournament;

pub use engine::{Engine, EngineError, EngineSpec};
pub use game::{play_game, EngineSlot, GameConfig, GameResult, Reason, TimeControl};
pub use openings::Opening;
pub use records::{read_results, GameRecord};
pub use stats::{EloModel, SprtConfig, SprtDecision, Wld};
pub use tournament::{run_match, MatchConfig, MatchSummary, PairSummary};
