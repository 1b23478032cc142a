//! pentad-web: a local web board for playing Pentad (or any Gomocup engine) and viewing
//! `pentad-arena` results. The server owns the rules and the engine processes (through the
//! arena's engine code); the page (assets/, embedded in the binary) only draws and asks.

pub mod analysis;
pub mod game;
pub mod levels;
pub mod messages;
pub mod results;
pub mod server;
pub mod session;
pub mod sgf;
pub mod worker;
