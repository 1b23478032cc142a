//! Time and memory measurements of the engine binary from outside, as a manager sees it:
//! self-play forfeits and answer times, replayed answers, peak memory, time to depth.

mod driver;

pub mod answer_latency;
pub mod peak_memory;
pub mod report;
pub mod rss_sampler;
pub mod stress;
pub mod time_harness;
pub mod time_to_depth;
