//! `pentad-tools time-to-depth`: wall time for the engine to finish a fixed-depth search on
//! nine positions (freestyle, renju, standard), for each thread count, with the last
//! `MESSAGE` line of each search (its `n/ms` is the search speed). Compares thread counts or
//! builds; run it on a quiet machine.

use std::time::Duration;

use anyhow::{anyhow, Result};
use pentad::core::Pos;

use super::driver::{default_engine, Driver};
use crate::progress::Progress;

/// (protocol rule number, moves) of the measured positions.
const POSITIONS: [(u32, &str); 9] = [
    (1, "h8 i9 i7 g9 j8"),
    (1, "h8 h9 i8 g8 j9 i10 g7 f6 j7"),
    (1, "h8 i8 h9 h10 g10 f11 i9 j9 g9 f9 g8 g7"),
    (4, "h8 i9 j10"),
    (4, "h8 h9 j8 i8 i7 g9"),
    (4, "h8 i7 j6 i8 i9 h9 g10 j8"),
    (4, "h8 g7 i9 j10 g9 f9 h10 h9 i10 i11"),
    (0, "h8 i9 j8 i8 i7"),
    (0, "h8 g9 h10 h9 i9 g8 g10 f10"),
];
/// Longest a search may take before the run is abandoned.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(600);

/// Options of `pentad-tools time-to-depth`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Engine program (default: pbrain-pentad beside pentad-tools).
    #[arg(long)]
    pub engine: Option<String>,
    /// Search depth (INFO max_depth).
    #[arg(long, default_value_t = 11)]
    pub depth: u32,
    /// Thread counts to compare, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    pub threads: Vec<u32>,
}

fn points(moves: &str) -> Result<Vec<Pos>> {
    moves
        .split_whitespace()
        .map(|m| Pos::from_human(m).ok_or_else(|| anyhow!("bad point {m}")))
        .collect()
}

/// Runs `pentad-tools time-to-depth`.
pub fn run(args: &Args) -> Result<()> {
    let program = args.engine.clone().unwrap_or_else(default_engine);
    let progress = Progress::new((POSITIONS.len() * args.threads.len()) as u64, "searches");
    let mut totals = vec![0.0; args.threads.len()];
    for (rule, moves) in POSITIONS {
        let stones = points(moves)?;
        let mut row = Vec::new();
        for (k, &threads) in args.threads.iter().enumerate() {
            let mut d = Driver::start(&program, 15, 15, false)?;
            d.infos(&[
                ("rule", rule.to_string()),
                ("timeout_turn", "1000000".into()),
                ("timeout_match", "0".into()),
                ("thread_num", threads.to_string()),
                ("max_depth", args.depth.to_string()),
                ("game_type", "1".into()),
            ])?;
            let a = d.board(&stones, SEARCH_TIMEOUT)?;
            d.end();
            totals[k] += a.wall_ms;
            let last = a.last_message.unwrap_or_default();
            row.push(format!("{threads}T {:7.0} ms {:6} {last}", a.wall_ms, a.mv));
            progress.inc(1);
        }
        progress.line(&format!("{rule} {moves:<24} {}", row.join(" | ")));
    }
    let totals: Vec<String> = args
        .threads
        .iter()
        .zip(&totals)
        .map(|(t, ms)| format!("{t}T {:.2} s", ms / 1e3))
        .collect();
    progress.line(&format!("total {}", totals.join(", ")));
    Ok(())
}
