//! The engine's integration tests that need no process or clock of their own, in one test
//! binary: each file used to be its own binary, and linking ~20 release test binaries was
//! most of CI's build time. Tests that measure time or memory, replace the allocator or set
//! process-wide tunables stay in binaries of their own (`tests/*.rs`), where no other test
//! runs beside them.

mod board_incremental;
mod board_outcomes;
mod database_durability;
mod fuzz_corpus;
mod net_agreement;
mod protocol_fuzz;
mod renju_cases;
mod renju_random;
mod renju_support;
mod swap2;
mod tactics;
mod threat_wins;
