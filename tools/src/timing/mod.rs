//! Time and memory measurements of the engine binary from outside, as a manager sees it:
//! self-play forfeits and answer times, matches under load, peak memory.

mod arena_run;
pub(crate) mod driver;

pub mod peak_memory;
pub mod report;
pub mod rss_sampler;
pub mod stress;
pub mod time_harness;
