//! Core vocabulary shared by every layer: board points, colours, cells, game rules, board
//! symmetries, the protocol's value for "no clock", the instruction set the binary was built
//! for (`cpu`), and the machinery of run-time tunable parameters (`tunable`).

mod color;
pub mod cpu;
mod pos;
mod rule;
mod symmetry;
pub mod tunable;

pub use color::{Cell, Color};
pub use pos::{Pos, MAX_SIZE, MIN_SIZE};
pub use rule::{Rule, RuleKind};
pub use symmetry::Symmetry;

/// The Gomocup protocol's "unlimited" value of `INFO time_left` and `timeout_match`
/// (2^31 − 1 ms): a manager sends it when the game has no clock. A protocol fact, defined in
/// this bottom layer because the search's time manager reads it as well as the protocol;
/// managers and front ends name it [`crate::protocol::UNLIMITED_TIME_MS`].
pub const UNLIMITED_TIME_MS: i64 = 2_147_483_647;
