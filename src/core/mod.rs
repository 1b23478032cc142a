//! Core vocabulary shared by every layer: board points, colours, cells and game rules.

mod color;
mod pos;
mod rule;

pub use color::{Cell, Color};
pub use pos::{Pos, MAX_SIZE, MIN_SIZE};
pub use rule::{Rule, RuleKind};
