//! `pentad-tools train-order`: fits the learned move-ordering rows of an evaluation tables
//! file (`order own/opp`, see `src/eval/tables.rs`) to the moves the search chose in
//! self-play games (`pentad-tools selfplay` games files).
//!
//! The model is a softmax over the moves the tree search would generate in the position:
//! a move's logit is its pattern ordering score divided by a temperature (fitted first, with
//! no learned values) plus a value of the mover's pattern code at the point and one of the
//! opponent's code there. The learned values are written multiplied by the temperature, so
//! the engine adds them straight to its ordering score. Renju keeps Black's and White's rows
//! apart; the other rules share one. Full-batch Adam with an L2 pull to zero; one game in
//! ten (chosen by `--seed`) is held out and its loss and top-1 rate printed.

use anyhow::{bail, Context, Result};
use pentad::board::N_PCODES;
use pentad::core::Rule;
use pentad::eval::tables::{EvalTables, Family};
use pentad::search::ordered_moves;

use crate::fit;
use crate::games_file;
use crate::progress::Progress;

/// Options of `pentad-tools train-order`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games files (`pentad-tools selfplay` output), comma-separated or repeated.
    #[arg(long, required = true, value_delimiter = ',')]
    pub games: Vec<String>,
    /// A tables file whose evaluation rows are kept (default: the built-in, all zero).
    #[arg(long)]
    pub base: Option<String>,
    /// The tables file to write.
    #[arg(long)]
    pub out: String,
    /// Adam passes over the training positions.
    #[arg(long, default_value_t = 200)]
    pub iters: usize,
    /// L2 pull towards zero.
    #[arg(long, default_value_t = 0.0005)]
    pub lambda: f64,
    /// Adam step size (logit units).
    #[arg(long, default_value_t = 0.05)]
    pub rate: f64,
    /// Seed of the choice of held-out games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Parameters: own rows of Black and White to move, then opponent rows.
const N_PARAMS: usize = 4 * N_PCODES;
/// One game in `HOLD_OUT` (chosen by `--seed`) is held out.
const HOLD_OUT: u64 = 10;
/// Temperatures tried for the pattern ordering score.
const TEMPERATURES: [f64; 9] = [
    50.0, 100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0, 12800.0,
];
/// Passes between two reports.
const REPORT_EVERY: usize = 10;
/// Fewest positions worth fitting a family to.
const MIN_POSITIONS: usize = 1000;

/// One position: its candidates (the chosen one first) with their base score and the two
/// parameters they read.
struct Sample {
    cands: Vec<(f32, u32, u32)>,
    held_out: bool,
}

/// The samples of one family from every game of the files.
fn load(files: &[String], family: Family, seed: u64) -> Result<Vec<Sample>> {
    let tied = family == Family::Gomoku;
    let mut out = Vec::new();
    let mut game_no = 0;
    for f in files {
        for g in games_file::read(f)? {
            game_no += 1;
            let rule = Rule::from_name(&g.rule).context("checked by the reader")?;
            if Family::of(rule.kind) != family {
                continue;
            }
            let held_out = fit::is_held_out(seed, game_no, HOLD_OUT);
            let mut b = pentad::board::Board::new(g.width, g.height, rule)?;
            for (ply, &m) in g.moves.iter().enumerate() {
                if ply >= g.opening_plies {
                    if let Some(cands) = candidates(&b, m, tied) {
                        out.push(Sample { cands, held_out });
                    }
                }
                if !b.is_empty(m) {
                    bail!("{f}: game {}: move {m} is occupied", g.id);
                }
                b.make_move(m);
            }
        }
    }
    Ok(out)
}

/// Ordering scores at or above this mark (the forcing and defence marks, `search/params.rs`)
/// put a move in a tier no learned value (at most ±30000) can leave: the model learns the
/// order within the chosen move's tier only.
const TIER_SHIFT: u32 = 19;

/// The candidates of a position in the chosen move's ordering tier, `chosen` first, with
/// their score within the tier; `None` when there is no choice to learn from (one
/// candidate, or `chosen` not among them).
fn candidates(
    b: &pentad::board::Board,
    chosen: pentad::core::Pos,
    tied: bool,
) -> Option<Vec<(f32, u32, u32)>> {
    let moves = ordered_moves(b);
    let first = moves.iter().position(|&(p, _)| p == chosen)?;
    let tier = moves[first].1 >> TIER_SHIFT;
    let me = b.side_to_move();
    let m = if tied { 0 } else { me.index() };
    let feature = |(p, s): (pentad::core::Pos, i32)| {
        let pc = b.cell_pcodes(p);
        let own = (m * N_PCODES + pc[me.index()]) as u32;
        let opp = ((2 + m) * N_PCODES + pc[me.opp().index()]) as u32;
        ((s - (tier << TIER_SHIFT)) as f32, own, opp)
    };
    let mut out = vec![feature(moves[first])];
    out.extend(
        moves
            .iter()
            .enumerate()
            .filter(|&(i, &(_, s))| i != first && s >> TIER_SHIFT == tier)
            .map(|(_, &m)| feature(m)),
    );
    (out.len() >= 2).then_some(out)
}

/// Softmax probabilities of a sample's candidates.
fn probabilities(s: &Sample, w: &[f64], t: f64, buf: &mut Vec<f64>) {
    buf.clear();
    buf.extend(
        s.cands
            .iter()
            .map(|&(base, own, opp)| f64::from(base) / t + w[own as usize] + w[opp as usize]),
    );
    let max = buf.iter().copied().fold(f64::MIN, f64::max);
    let mut sum = 0.0;
    for v in buf.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in buf.iter_mut() {
        *v /= sum;
    }
}

/// Mean negative log-likelihood of the chosen moves and the top-1 rate, over the held-out
/// (or the training) samples.
fn evaluate(samples: &[Sample], w: &[f64], t: f64, held: bool) -> (f64, f64) {
    let (mut loss, mut top, mut n) = (0.0, 0usize, 0usize);
    let mut buf = Vec::new();
    for s in samples.iter().filter(|s| s.held_out == held) {
        probabilities(s, w, t, &mut buf);
        loss -= buf[0].max(1e-12).ln();
        top += usize::from(buf.iter().skip(1).all(|&p| p < buf[0]));
        n += 1;
    }
    let n = n.max(1) as f64;
    (loss / n, top as f64 / n)
}

fn gradient(samples: &[Sample], w: &[f64], t: f64) -> Vec<f64> {
    let mut g = vec![0.0; N_PARAMS];
    let mut buf = Vec::new();
    let mut n = 0usize;
    for s in samples.iter().filter(|s| !s.held_out) {
        probabilities(s, w, t, &mut buf);
        for (k, &(_, own, opp)) in s.cands.iter().enumerate() {
            let d = buf[k] - f64::from(u8::from(k == 0));
            g[own as usize] += d;
            g[opp as usize] += d;
        }
        n += 1;
    }
    g.iter_mut().for_each(|v| *v /= n.max(1) as f64);
    g
}

/// Fits one family: returns the temperature and the learned values (logit units).
fn fit(samples: &[Sample], args: &Args, name: &str) -> (f64, Vec<f64>) {
    let zero = vec![0.0; N_PARAMS];
    let t = TEMPERATURES
        .into_iter()
        .min_by(|&a, &b| {
            evaluate(samples, &zero, a, false)
                .0
                .total_cmp(&evaluate(samples, &zero, b, false).0)
        })
        .unwrap_or(TEMPERATURES[0]);
    let report = |w: &[f64], what: &str| {
        let (l, top) = evaluate(samples, w, t, false);
        let (hl, htop) = evaluate(samples, w, t, true);
        format!("{name} {what}: loss {l:.4} top-1 {top:.3} / held out {hl:.4} top-1 {htop:.3}")
    };
    let progress = Progress::new(args.iters as u64, name);
    progress.println(&format!(
        "{name}: {} positions, temperature {t}",
        samples.len()
    ));
    progress.println(&report(&zero, "pattern ordering"));
    let mut w = zero;
    let mut adam = fit::Adam::new(N_PARAMS);
    for step in 1..=args.iters {
        let g = gradient(samples, &w, t);
        adam.step(&mut w, &g, args.rate, args.lambda);
        progress.inc(1);
        if step.is_multiple_of(REPORT_EVERY) || step == args.iters {
            progress.println(&report(&w, &format!("step {step}")));
        }
    }
    progress.finish();
    (t, w)
}

pub fn run(args: &Args) -> Result<()> {
    let base = match &args.base {
        Some(p) => EvalTables::parse(
            &std::fs::read_to_string(p).with_context(|| format!("cannot read {p}"))?,
        )
        .with_context(|| format!("in {p}"))?,
        None => EvalTables::zero(),
    };
    let mut values = base.values.clone();
    for (f, family) in Family::ALL.iter().enumerate() {
        let samples = load(&args.games, *family, args.seed)?;
        if samples.len() < MIN_POSITIONS {
            eprintln!(
                "{}: {} positions, too few to fit: no ordering rows",
                family.name(),
                samples.len()
            );
            continue;
        }
        let (t, w) = fit(&samples, args, family.name());
        let row = |k: usize| -> Vec<i16> {
            (0..N_PCODES)
                .map(|pc| (t * w[k * N_PCODES + pc]).round().clamp(-30000.0, 30000.0) as i16)
                .collect()
        };
        let tied = *family == Family::Gomoku;
        let (own_w, opp_w) = if tied { (0, 2) } else { (1, 3) };
        values[f].order_own = [row(0), row(own_w)];
        values[f].order_opp = [row(2), row(opp_w)];
    }
    std::fs::write(&args.out, EvalTables::new(values).to_text())?;
    eprintln!("wrote {}", args.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_are_a_softmax_of_base_and_learned_values() {
        let s = Sample {
            cands: vec![
                (100.0, 0, 2 * N_PCODES as u32),
                (0.0, 1, 2 * N_PCODES as u32 + 1),
            ],
            held_out: false,
        };
        let mut w = vec![0.0; N_PARAMS];
        let mut buf = Vec::new();
        probabilities(&s, &w, 100.0, &mut buf);
        let e = std::f64::consts::E;
        assert!((buf[0] - e / (e + 1.0)).abs() < 1e-9);
        w[1] = 1.0;
        probabilities(&s, &w, 100.0, &mut buf);
        assert!((buf[0] - 0.5).abs() < 1e-9);
        let g = gradient(&[s], &w, 100.0);
        assert!(g[0] < 0.0 && g[1] > 0.0, "the chosen move's values rise");
    }
}
