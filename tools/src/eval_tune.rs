//! `pentad-tools eval-tune`: fits the evaluation weights of `src/eval/weights.rs` to game
//! results (the Texel method): the quiet positions of recorded games, each labelled with the
//! final result for the side to move, and the weights that minimise the squared error of
//! `sigmoid(eval / scale)`.
//!
//! It reads pentad-arena JSON records, fits the renju set and the set of the other rules
//! separately and prints them, to be copied into `weights.rs` by hand and kept only if
//! self-play shows a gain. A unit test checks the feature extraction against `evaluate`.

use anyhow::{Context, Result};
use pentad::board::{Board, Pattern, Pattern4};
use pentad::core::{Pos, Rule, RuleKind};
use pentad::eval::weights;

use crate::progress::Progress;

/// Options of `pentad-tools eval-tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// pentad-arena JSON-lines records (`--results` files), comma-separated or repeated.
    #[arg(long, required = true, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Adam steps over the whole training set.
    #[arg(long, default_value_t = 1000)]
    pub steps: usize,
}

/// Fewest positions worth fitting a weight set to.
const MIN_POSITIONS: usize = 1000;
/// Every `HOLD_OUT`-th game is held out to check that the fit generalises.
const HOLD_OUT: usize = 5;

const N4: usize = 14;
const NL: usize = 11;
/// Parameters: tempo, CELL_ME, CELL_OPP, LINE_ME, LINE_OPP.
const NP: usize = 1 + 2 * N4 + 2 * NL;

/// Weights that stay as they are: fives and open fours are wins (the search's static win
/// check), dead and overline cells carry no value.
fn frozen(i: usize) -> bool {
    let cell_fixed = |k: usize| k == Pattern4::None as usize || k == Pattern4::Five as usize;
    let line_fixed = |k: usize| {
        k == Pattern::Dead as usize
            || k == Pattern::Overline as usize
            || k == Pattern::Five as usize
    };
    match i {
        0 => false,
        i if i < 1 + N4 => cell_fixed(i - 1) || i - 1 == Pattern4::Flex4 as usize,
        i if i < 1 + 2 * N4 => cell_fixed(i - 1 - N4),
        i if i < 1 + 2 * N4 + NL => line_fixed(i - 1 - 2 * N4),
        i => line_fixed(i - 1 - 2 * N4 - NL),
    }
}

fn current_weights(kind: RuleKind) -> Vec<f64> {
    let set = weights::for_rule(kind);
    let mut w = vec![set.tempo as f64];
    w.extend(set.cell_me.iter().map(|&v| v as f64));
    w.extend(set.cell_opp.iter().map(|&v| v as f64));
    w.extend(set.line_me.iter().map(|&v| v as f64));
    w.extend(set.line_opp.iter().map(|&v| v as f64));
    w
}

/// Signed feature counts of `b` from the side to move's point of view (`w · x` is the
/// unclamped evaluation).
fn features(b: &Board) -> [f64; NP] {
    let me = b.side_to_move();
    let opp = me.opp();
    let mut x = [0.0; NP];
    x[0] = 1.0;
    for p4 in Pattern4::ALL {
        let i = p4 as usize;
        x[1 + i] = b.pattern4_count(me, p4) as f64;
        x[1 + N4 + i] = -(b.pattern4_count(opp, p4) as f64);
    }
    for p in Pattern::ALL {
        let i = p as usize;
        x[1 + 2 * N4 + i] = b.pattern_count(me, p) as f64;
        x[1 + 2 * N4 + NL + i] = -(b.pattern_count(opp, p) as f64);
    }
    x
}

/// A position the static evaluation is meant for: no five or open four to play, no five of
/// the opponent to block.
fn quiet(b: &Board) -> bool {
    let me = b.side_to_move();
    let opp = me.opp();
    b.pattern4_count(me, Pattern4::Five) == 0
        && b.pattern4_count(me, Pattern4::Flex4) == 0
        && b.pattern4_count(me, Pattern4::Block4Flex3) == 0
        && b.pattern4_count(opp, Pattern4::Five) == 0
}

struct Sample {
    x: [f64; NP],
    /// Result for the side to move: 1 win, 0.5 draw, 0 loss.
    y: f64,
    /// Index of the game it comes from.
    game: usize,
}

/// Quiet positions of the games in `files` whose rule is in the weight family of `renju`
/// (renju, or every rule without forbidden points).
fn load(files: &[String], renju: bool) -> Result<Vec<Sample>> {
    let mut out = Vec::new();
    let mut game = 0;
    for file in files.iter().filter(|f| !f.is_empty()) {
        let text = std::fs::read_to_string(file).with_context(|| file.clone())?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{file}: not a JSON game record"))?;
            let rule_name = v["rule"].as_str().unwrap_or("freestyle");
            game += 1;
            let black_score = match v["result"].as_str() {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") => 0.5,
                _ => continue,
            };
            let (w, h) = (
                v["width"].as_u64().unwrap_or(15),
                v["height"].as_u64().unwrap_or(15),
            );
            let Some(rule) = Rule::from_name(rule_name) else {
                continue;
            };
            if (rule.kind == RuleKind::Renju) != renju {
                continue;
            }
            let Ok(mut b) = Board::new(w as usize, h as usize, rule) else {
                continue;
            };
            let skip = v["opening_plies"].as_u64().unwrap_or(0) as usize;
            let moves: Vec<Pos> = v["moves"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str().and_then(Pos::from_human))
                .collect();
            for (ply, &m) in moves.iter().enumerate() {
                if ply >= skip && quiet(&b) {
                    let y = if b.side_to_move() == pentad::core::Color::Black {
                        black_score
                    } else {
                        1.0 - black_score
                    };
                    out.push(Sample {
                        x: features(&b),
                        y,
                        game,
                    });
                }
                if !b.is_empty(m) {
                    break;
                }
                b.make_move(m);
            }
        }
    }
    Ok(out)
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

fn loss(samples: &[Sample], w: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let e: f64 = s.x.iter().zip(w).map(|(a, b)| a * b).sum();
            let d = sigmoid(e / scale) - s.y;
            d * d
        })
        .sum();
    total / samples.len() as f64
}

/// The logistic scale that fits the current weights best (golden-section search).
fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 2000.0f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if loss(samples, w, a) < loss(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam on the squared error, with a small pull towards the starting weights.
fn fit(samples: &[Sample], start: &[f64], scale: f64, steps: usize, name: &str) -> Vec<f64> {
    let progress = Progress::new(steps as u64, &format!("fitting {name}"));
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; NP], vec![0.0; NP]);
    let (lr, b1, b2, eps, l2) = (0.5, 0.9, 0.999, 1e-8, 1e-7);
    let n = samples.len() as f64;
    for t in 1..=steps {
        let mut g = vec![0.0; NP];
        for s in samples {
            let e: f64 = s.x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(e / scale);
            let k = 2.0 * (p - s.y) * p * (1.0 - p) / scale;
            for (gi, xi) in g.iter_mut().zip(&s.x) {
                *gi += k * xi;
            }
        }
        for i in 0..NP {
            if frozen(i) {
                continue;
            }
            let gi = g[i] / n + l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
        progress.inc(1);
    }
    w
}

fn print_array(name: &str, w: &[f64]) {
    let vals: Vec<String> = w.iter().map(|v| format!("{}", v.round() as i64)).collect();
    println!("    {name}: [{}],", vals.join(", "));
}

/// Runs `pentad-tools eval-tune`.
pub fn run(args: &Args) -> Result<()> {
    for (name, kind) in [("RENJU", RuleKind::Renju), ("GOMOKU", RuleKind::Freestyle)] {
        let samples = load(&args.games, kind == RuleKind::Renju)?;
        if samples.len() < MIN_POSITIONS {
            println!("{name}: too few positions ({}), not fitted", samples.len());
            continue;
        }
        let (train, test): (Vec<Sample>, Vec<Sample>) =
            samples.into_iter().partition(|s| s.game % HOLD_OUT != 0);
        let start = current_weights(kind);
        let scale = fit_scale(&train, &start);
        println!(
            "{name}: {} positions to fit, {} held out; scale {scale:.1}",
            train.len(),
            test.len()
        );
        println!(
            "current weights: fit loss {:.6}, held-out loss {:.6}",
            loss(&train, &start, scale),
            loss(&test, &start, scale)
        );
        let w = fit(&train, &start, scale, args.steps, name);
        println!(
            "fitted weights:  fit loss {:.6}, held-out loss {:.6}",
            loss(&train, &w, scale),
            loss(&test, &w, scale)
        );
        println!("pub const {name}: EvalWeights = EvalWeights {{");
        println!("    tempo: {},", w[0].round() as i64);
        print_array("cell_me", &w[1..1 + N4]);
        print_array("cell_opp", &w[1 + N4..1 + 2 * N4]);
        print_array("line_me", &w[1 + 2 * N4..1 + 2 * N4 + NL]);
        print_array("line_opp", &w[1 + 2 * N4 + NL..]);
        println!("}};");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::eval::evaluate;

    #[test]
    fn features_reproduce_the_evaluation() {
        for rule in ["renju", "freestyle", "standard", "caro"] {
            let rule = Rule::from_name(rule).unwrap();
            let mut b = Board::new(15, 15, rule).unwrap();
            let w = current_weights(rule.kind);
            for m in [
                "h8", "h9", "i9", "g7", "j10", "i8", "g9", "f8", "k11", "j9", "g10",
            ] {
                b.make_move(Pos::from_human(m).unwrap());
                let e: f64 = features(&b).iter().zip(&w).map(|(a, b)| a * b).sum();
                assert_eq!(e as i32, evaluate(&b), "{rule:?} after {m}");
            }
        }
    }
}
