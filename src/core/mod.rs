//! Core vocabulary shared by every layer: board points, colours, cells, game rules and board
//! symmetries.

mod color;
mod pos;
mod rule;
mod symmetry;

pub use color::{Cell, Color};
pub use pos::{Pos, MAX_SIZE, MIN_SIZE};
pub use rule::{Rule, RuleKind};
pub use symmetry::Symmetry;
