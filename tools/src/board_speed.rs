//! `pentad-tools board-speed`: how fast the incremental board is. Per rule, the time of the
//! first board (its pattern tables are built then, once per process) and move/undo pairs
//! per second on a fixed middle-game position; then the fixed position mix of
//! `pbrain-pentad bench`. `--rounds N` instead plays that mix N times and prints the pairs, a
//! fixed workload for instruction counting (`valgrind --tool=callgrind`).

use std::time::Instant;

use anyhow::{anyhow, Result};
use pentad::board::{bench_fixed_rounds, bench_move_undo, Board};
use pentad::core::{Pos, Rule};

use crate::progress::Progress;

/// Every rule, in protocol order.
const RULES: [Rule; 5] = [
    Rule::FREESTYLE,
    Rule::STANDARD,
    Rule::RENJU,
    Rule::CARO,
    Rule::CARO5,
];
/// The middle-game position of the per-rule measurement (15x15).
const POSITION: [&str; 12] = [
    "h8", "i9", "g7", "h9", "h7", "j10", "g9", "f8", "k11", "i8", "j7", "e9",
];
/// Passes over the position's candidates per rule.
const PASSES: usize = 3000;

/// Options of `pentad-tools board-speed`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Play the bench's position mix this many times and print the pairs (no timing).
    #[arg(long)]
    pub rounds: Option<usize>,
}

/// Runs `pentad-tools board-speed`.
pub fn run(args: &Args) -> Result<()> {
    if let Some(rounds) = args.rounds {
        println!("{} pairs", bench_fixed_rounds(rounds));
        return Ok(());
    }
    let progress = Progress::new(RULES.len() as u64 + 1, "board speed");
    for rule in RULES {
        let t = Instant::now();
        Board::new(15, 15, rule).map_err(|e| anyhow!("{e}"))?;
        let first_ms = t.elapsed().as_secs_f64() * 1e3;
        let pairs_per_s = per_rule_speed(rule)?;
        progress.line(&format!(
            "{:<9} first board {first_ms:6.1} ms, {pairs_per_s:10.0} move/undo pairs/s",
            rule.name()
        ));
    }
    let (pairs, secs) = bench_move_undo();
    progress.line(&format!(
        "bench position mix: {:.0} move/undo pairs/s",
        pairs as f64 / secs
    ));
    Ok(())
}

/// Move/undo pairs per second of wall time over the candidates of [`POSITION`].
fn per_rule_speed(rule: Rule) -> Result<f64> {
    let mut b = Board::new(15, 15, rule).map_err(|e| anyhow!("{e}"))?;
    for m in POSITION {
        b.make_move(Pos::from_human(m).ok_or_else(|| anyhow!("bad point {m}"))?);
    }
    let cands: Vec<Pos> = b.candidates().collect();
    let t = Instant::now();
    let mut n = 0u64;
    for _ in 0..PASSES {
        for &p in &cands {
            b.make_move(p);
            b.undo();
            n += 1;
        }
    }
    Ok(n as f64 / t.elapsed().as_secs_f64())
}
