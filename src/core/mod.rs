//! Core vocabulary shared by every layer: board points, colours, cells, game rules, board
//! symmetries, and the instruction set the binary was built for.

mod color;
pub mod cpu;
mod pos;
mod rule;
mod symmetry;

pub use color::{Cell, Color};
pub use pos::{Pos, MAX_SIZE, MIN_SIZE};
pub use rule::{Rule, RuleKind};
pub use symmetry::Symmetry;
