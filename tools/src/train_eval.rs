//! `pentad-tools train` (alias `train-eval`): fits the learned evaluation tables (`src/eval/tables.rs`) to
//! training positions (`positions.rs`). The tables add to the linear evaluation, so the fit
//! starts from zero tables (the linear evaluation alone) and pulls every entry back towards
//! zero (L2); the target blends the game's result with the search score, and the loss is
//! the logistic cross-entropy of `sigmoid(eval / scale)`. Every step is one full pass over
//! the training positions (full-batch Adam). One game in ten, chosen by `--seed`, is held
//! out, and its loss printed with the training loss every `REPORT_EVERY` passes. The same
//! data, seed and `--threads` give the same tables.

use anyhow::{bail, Result};
use pentad::board::{Board, N_PCODES};
use pentad::core::{Color, RuleKind};
use pentad::eval::tables::{EvalTables, Family, FamilyValues};
use pentad::eval::threat::{threat_index, N_THREAT};
use pentad::eval::{evaluate_linear, EVAL_LIMIT};

use crate::fit::{self, sigmoid};
use crate::games_file;
use crate::positions::Position;
use crate::progress::Progress;

/// Options of `pentad-tools train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Positions files (`pentad-tools label` output) or games files (`pentad-tools
    /// selfplay` output), comma-separated or repeated.
    #[arg(long, required = true, value_delimiter = ',')]
    pub positions: Vec<String>,
    /// The tables file to write (load it with `INFO eval_file <path>`).
    #[arg(long)]
    pub out: String,
    /// Adam steps over the whole training set.
    #[arg(long, default_value_t = 300)]
    pub iters: usize,
    /// L2 pull towards zero, per 1000 units of a table entry.
    #[arg(long, default_value_t = 0.01)]
    pub lambda: f64,
    /// Weight of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    pub blend: f64,
    /// Adam step size, in evaluation units.
    #[arg(long, default_value_t = 2.0)]
    pub rate: f64,
    /// Seed of the choice of held-out games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Write the fitted values multiplied by this, a cautious step when the targets come
    /// from another engine (renju's built-in tables are a fit to Rapfi's scores at 0.5).
    #[arg(long, default_value_t = 1.0, value_parser = parse_fraction)]
    pub fraction: f64,
}

/// A `--fraction` in (0, 1].
fn parse_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1.0 => Ok(f),
        _ => Err(format!("`{text}` is not a number in (0, 1]")),
    }
}

/// Parameter layout of a family: cells of Black, of White; threat values with Black, with
/// White to move.
const CELL_W: usize = N_PCODES;
const THREAT_B: usize = 2 * N_PCODES;
const THREAT_W: usize = 2 * N_PCODES + N_THREAT;
const N_PARAMS: usize = 2 * N_PCODES + 2 * N_THREAT;
/// One game in `HOLD_OUT` (chosen by `--seed`) is held out.
const HOLD_OUT: u64 = 10;
/// Fewest positions worth fitting a family to.
const MIN_POSITIONS: usize = 1000;
/// Logistic scales tried for the linear evaluation (the best one is kept).
const SCALES: [f64; 8] = [150.0, 200.0, 250.0, 300.0, 350.0, 400.0, 500.0, 600.0];
/// Iterations between two loss reports.
const REPORT_EVERY: usize = 10;

/// One position as the model sees it.
struct Sample {
    /// The linear evaluation (the fixed part of the value).
    base: f64,
    /// Sparse features: (parameter, value).
    x: Vec<(u32, f32)>,
    /// Game result for the side to move.
    result: f64,
    /// Search score for the side to move.
    score: f64,
    held_out: bool,
}

/// Pcode counts of both colours over the empty cells.
fn pcode_counts(b: &Board) -> Vec<[f32; 2]> {
    let mut n = vec![[0f32; 2]; N_PCODES];
    b.for_each_empty_pcode(|c, pc| n[pc][c.index()] += 1.0);
    n
}

/// The features of `b` (its side to move's view): the averaged cell counts of this and the
/// previous position (`before`), signed per colour, and the threat index; Black's and
/// White's parameters tied outside renju.
fn features(b: &Board, before: &[[f32; 2]], tied: bool) -> Vec<(u32, f32)> {
    let me = b.side_to_move();
    let now = pcode_counts(b);
    let s = if me == Color::Black { 0.5 } else { -0.5 };
    let mut x = Vec::with_capacity(256);
    for pc in 0..N_PCODES {
        let nb = now[pc][0] + before[pc][0];
        let nw = now[pc][1] + before[pc][1];
        if tied {
            if nb != nw {
                x.push((pc as u32, s * (nb - nw)));
            }
        } else {
            if nb != 0.0 {
                x.push((pc as u32, s * nb));
            }
            if nw != 0.0 {
                x.push(((CELL_W + pc) as u32, -s * nw));
            }
        }
    }
    let base = if tied || me == Color::Black {
        THREAT_B
    } else {
        THREAT_W
    };
    x.push(((base + threat_index(b, me)) as u32, 1.0));
    x
}

/// The sample of one position, or `None` when it is not quiet (a five or an open four to
/// play, or the opponent's five to block: the search decides those without evaluating).
fn sample(p: &Position, held_out: bool) -> Result<Option<Sample>> {
    use pentad::board::Pattern4::{Five, Flex4};
    let mut b = p.board()?;
    let me = b.side_to_move();
    if b.pattern4_count(me, Five) > 0
        || b.pattern4_count(me, Flex4) > 0
        || b.pattern4_count(me.opp(), Five) > 0
    {
        return Ok(None);
    }
    let now_board = b.clone();
    b.undo();
    let before = pcode_counts(&b);
    Ok(Some(Sample {
        base: f64::from(evaluate_linear(&now_board)),
        x: features(&now_board, &before, p.rule.kind != RuleKind::Renju),
        result: f64::from(p.result),
        score: f64::from(p.score),
        held_out,
    }))
}

fn value(s: &Sample, w: &[f64]) -> f64 {
    s.base
        + s.x
            .iter()
            .map(|&(i, x)| w[i as usize] * f64::from(x))
            .sum::<f64>()
}

/// Mean cross-entropy against `targets` over the held-out (or the training) samples.
fn loss(samples: &[Sample], targets: &[f64], w: &[f64], k: f64, held: bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for (s, &y) in samples
        .iter()
        .zip(targets)
        .filter(|(s, _)| s.held_out == held)
    {
        let p = sigmoid(value(s, w) / k).clamp(1e-6, 1.0 - 1e-6);
        sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        n += 1;
    }
    sum / n.max(1) as f64
}

/// The training samples' mean gradient, on `threads` threads (summed in a fixed order).
fn gradient(samples: &[Sample], targets: &[f64], w: &[f64], k: f64, threads: usize) -> Vec<f64> {
    let half = samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<f64>, usize)> = std::thread::scope(|sc| {
        let handles: Vec<_> = samples
            .chunks(half)
            .zip(targets.chunks(half))
            .map(|(ss, ts)| {
                sc.spawn(move || {
                    let mut g = vec![0.0; N_PARAMS];
                    let mut n = 0;
                    for (s, &y) in ss.iter().zip(ts).filter(|(s, _)| !s.held_out) {
                        let d = (sigmoid(value(s, w) / k) - y) / k;
                        for &(i, x) in &s.x {
                            g[i as usize] += d * f64::from(x);
                        }
                        n += 1;
                    }
                    (g, n)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut g = vec![0.0; N_PARAMS];
    let n: usize = parts.iter().map(|p| p.1).sum();
    for (pg, _) in parts {
        for (a, b) in g.iter_mut().zip(pg) {
            *a += b / n.max(1) as f64;
        }
    }
    g
}

/// Fits one family; returns its table values.
fn fit(samples: &[Sample], args: &Args, tied: bool, name: &str) -> FamilyValues {
    let zero = vec![0.0; N_PARAMS];
    let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
    let k = SCALES
        .into_iter()
        .min_by(|&a, &b| {
            loss(samples, &results, &zero, a, false)
                .total_cmp(&loss(samples, &results, &zero, b, false))
        })
        .unwrap_or(SCALES[0]);
    let targets: Vec<f64> = samples
        .iter()
        .map(|s| args.blend * s.result + (1.0 - args.blend) * sigmoid(s.score / k))
        .collect();
    let progress = Progress::new(args.iters as u64, name);
    progress.println(&format!(
        "{name}: {} positions, scale {k}, linear evaluation: loss {:.5} / held out {:.5}",
        samples.len(),
        loss(samples, &targets, &zero, k, false),
        loss(samples, &targets, &zero, k, true)
    ));
    let mut w = zero;
    let mut adam = fit::Adam::new(N_PARAMS);
    for t in 1..=args.iters {
        let g = gradient(samples, &targets, &w, k, args.threads);
        adam.step(&mut w, &g, args.rate, args.lambda / 1000.0);
        progress.inc(1);
        if t.is_multiple_of(REPORT_EVERY) || t == args.iters {
            progress.println(&format!(
                "{name} step {t}: loss {:.5} / held out {:.5}",
                loss(samples, &targets, &w, k, false),
                loss(samples, &targets, &w, k, true)
            ));
        }
    }
    progress.finish();
    let r = |x: f64| {
        (x * args.fraction)
            .round()
            .clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT)) as i16
    };
    let cells = |off: usize| (0..N_PCODES).map(|pc| r(w[off + pc])).collect::<Vec<i16>>();
    let threat = |off: usize| (0..N_THREAT).map(|i| r(w[off + i])).collect::<Vec<i16>>();
    let white = if tied {
        (0, THREAT_B)
    } else {
        (CELL_W, THREAT_W)
    };
    FamilyValues {
        cells: [cells(0), cells(white.0)],
        threat: [threat(THREAT_B), threat(white.1)],
    }
}

pub fn run(args: &Args) -> Result<()> {
    let mut games = Vec::new();
    for f in &args.positions {
        games.extend(games_file::read_games(f)?);
    }
    let mut values = [FamilyValues::zero(), FamilyValues::zero()];
    for (f, family) in Family::ALL.iter().enumerate() {
        let mut samples = Vec::new();
        for (g, game) in games.iter().enumerate() {
            let held_out = fit::is_held_out(args.seed, g, HOLD_OUT);
            for p in game.iter().filter(|p| Family::of(p.rule.kind) == *family) {
                if let Some(s) = sample(p, held_out)? {
                    samples.push(s);
                }
            }
        }
        if samples.len() < MIN_POSITIONS {
            eprintln!(
                "{}: {} positions, too few to fit: zero tables",
                family.name(),
                samples.len()
            );
            continue;
        }
        values[f] = fit(&samples, args, *family == Family::Gomoku, family.name());
    }
    if values.iter().all(|v| *v == FamilyValues::zero()) {
        bail!("no family had enough positions");
    }
    std::fs::write(&args.out, EvalTables::new(values).to_text())?;
    eprintln!("wrote {}", args.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fraction_must_lie_in_zero_to_one() {
        assert_eq!(parse_fraction("0.5"), Ok(0.5));
        assert_eq!(parse_fraction("1"), Ok(1.0));
        for bad in ["0", "-0.5", "1.5", "half", "NaN"] {
            assert!(parse_fraction(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_fraction_scales_the_written_values() {
        let args = |fraction| Args {
            positions: Vec::new(),
            out: String::new(),
            iters: 50,
            lambda: 0.0,
            blend: 1.0,
            rate: 2.0,
            seed: 1,
            threads: 1,
            fraction,
        };
        // One feature, present in every position, which the side to move wins 3 times in 4.
        let samples: Vec<Sample> = (0..20)
            .map(|i| Sample {
                base: 0.0,
                x: vec![(0, 1.0)],
                result: if i % 4 == 0 { 0.0 } else { 1.0 },
                score: 0.0,
                held_out: i == 0,
            })
            .collect();
        let full = fit(&samples, &args(1.0), false, "full").cells[0][0];
        let half = fit(&samples, &args(0.5), false, "half").cells[0][0];
        assert!(full > 20, "{full}");
        assert!(
            (i32::from(full) - 2 * i32::from(half)).abs() <= 1,
            "{full} {half}"
        );
    }
}
