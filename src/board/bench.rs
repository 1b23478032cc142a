//! A deterministic move/undo speed measurement over a fixed mix of positions and rules.

use super::Board;
use crate::core::{Color, Pos, Rule};
use std::time::Instant;

/// A small deterministic generator (SplitMix64).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Fixed positions: 15×15 freestyle/standard/renju/caro and 20×20 freestyle, each with
/// 10..40 stones placed near the centre by a seeded generator.
fn positions() -> Vec<Board> {
    let mut rng = Mix(20240601);
    let setups = [
        (15, Rule::FREESTYLE),
        (15, Rule::STANDARD),
        (15, Rule::RENJU),
        (15, Rule::CARO5),
        (20, Rule::FREESTYLE),
    ];
    let mut out = Vec::new();
    for (k, &(size, rule)) in setups.iter().cycle().take(10).enumerate() {
        let Ok(mut b) = Board::new(size, size, rule) else {
            continue;
        };
        let n = 10 + (k * 7) % 31;
        let c = size / 2;
        let mut placed = 0;
        while placed < n {
            let x = c - 4 + (rng.next() % 9) as usize;
            let y = c - 4 + (rng.next() % 9) as usize;
            let p = Pos::new(x, y);
            if b.is_empty(p) && !b.is_win_move(p, b.side_to_move()) {
                b.make_move(p);
                placed += 1;
            }
        }
        out.push(b);
    }
    out
}

/// CPU time of the calling thread in seconds (Linux `schedstat`), if available: the figure
/// then measures one core even on a loaded machine.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// Plays and takes back every candidate move of a fixed mix of positions, repeatedly, for
/// about 0.5 s of CPU time. Returns (move/undo pairs, seconds): the seconds are the thread's
/// CPU time where the OS reports it (Linux), else wall-clock time.
pub fn bench_move_undo() -> (u64, f64) {
    let cpu0 = thread_cpu_seconds();
    let mut boards = positions();
    let moves: Vec<Vec<Pos>> = boards.iter().map(|b| b.candidates().collect()).collect();
    let start = Instant::now();
    let mut pairs = 0u64;
    loop {
        for (b, ms) in boards.iter_mut().zip(&moves) {
            for &p in ms {
                b.make_move(p);
                b.undo();
            }
            pairs += ms.len() as u64;
            // Two-ply sequences as in a search.
            for (j, &p) in ms.iter().enumerate() {
                let q = ms[(j * 7 + 3) % ms.len()];
                b.make_move(p);
                if q != p {
                    b.make_move_as(q, Color::White);
                    b.undo();
                    pairs += 1;
                }
                b.undo();
                pairs += 1;
            }
        }
        let t = match (cpu0, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => start.elapsed().as_secs_f64(),
        };
        if t >= 0.5 || start.elapsed().as_secs_f64() > 5.0 {
            return (pairs, t);
        }
    }
}
