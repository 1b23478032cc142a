//! The position database: labels, values, depths, best moves, comments and board texts per
//! position, in an SQLite file, with symmetric positions stored once (docs/database.md). The
//! protocol's Yixin database commands (src/protocol/session/database.rs) are its users.

pub mod position;
pub mod record;
pub mod store;
pub mod text;

pub use position::{DbPosition, Key};
pub use record::Record;
pub use store::{Prune, Store};

/// The file `INFO usedatabase 1` opens when no other was set, in the working directory.
pub const DEFAULT_FILE: &str = "pentad.db";
