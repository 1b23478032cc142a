//! Fits the evaluation tables to game results (temporary home; moves to pentad-tools).
//!
//! Usage: train_eval OUT.weights ITERS LAMBDA FILE.jsonl...

use std::sync::Arc;

use pentad::board::{Board, Pattern4, N_PCODES};
use pentad::core::{Color, Pos, Rule, RuleKind};
use pentad::eval::prior::prior;
use pentad::eval::tables::{EvalTables, Family, FamilyValues};
use pentad::eval::threat::{threat_index, N_THREAT};

/// Parameter layout of one family: cells black, cells white, threat black, threat white.
const CELL_B: usize = 0;
const CELL_W: usize = N_PCODES;
const THR_B: usize = 2 * N_PCODES;
const THR_W: usize = 2 * N_PCODES + N_THREAT;
const NP: usize = 2 * N_PCODES + 2 * N_THREAT;

struct Sample {
    linear: f32,
    /// Search score for the side to move, when the record has one.
    score: Option<f32>,
    x: Vec<(u32, f32)>,
    y: f32,
    held_out: bool,
}

impl Sample {
    /// The fixed part of the value: the linear evaluation in residual mode.
    fn base(&self) -> f64 {
        if residual() {
            self.linear as f64
        } else {
            0.0
        }
    }
}

fn residual() -> bool {
    std::env::var("RESIDUAL").is_ok()
}

fn params_of(v: &FamilyValues) -> Vec<f64> {
    let mut w = vec![0.0; NP];
    for pc in 0..N_PCODES {
        w[CELL_B + pc] = v.cells[0][pc] as f64;
        w[CELL_W + pc] = v.cells[1][pc] as f64;
    }
    for i in 0..N_THREAT {
        w[THR_B + i] = v.threat[0][i] as f64;
        w[THR_W + i] = v.threat[1][i] as f64;
    }
    w
}

fn values_of(w: &[f64]) -> FamilyValues {
    let r = |x: f64| x.round().clamp(-32000.0, 32000.0) as i16;
    FamilyValues {
        cells: [
            (0..N_PCODES).map(|pc| r(w[CELL_B + pc])).collect(),
            (0..N_PCODES).map(|pc| r(w[CELL_W + pc])).collect(),
        ],
        threat: [
            (0..N_THREAT).map(|i| r(w[THR_B + i])).collect(),
            (0..N_THREAT).map(|i| r(w[THR_W + i])).collect(),
        ],
    }
}

/// Pcode counts of both colours.
fn pcode_counts(b: &Board) -> Vec<[f32; 2]> {
    let mut n = vec![[0f32; 2]; N_PCODES];
    b.for_each_empty_pcode(|c, pc| n[pc][c.index()] += 1.0);
    n
}

fn quiet(b: &Board) -> bool {
    let me = b.side_to_move();
    b.pattern4_count(me, Pattern4::Five) == 0
        && b.pattern4_count(me, Pattern4::Flex4) == 0
        && b.pattern4_count(me.opp(), Pattern4::Five) == 0
}

fn sample(b: &Board, now: &[[f32; 2]], before: &[[f32; 2]], tied: bool) -> Vec<(u32, f32)> {
    let me = b.side_to_move();
    let s = if me == Color::Black { 0.5 } else { -0.5 };
    let mut x: Vec<(u32, f32)> = Vec::with_capacity(256);
    for pc in 0..N_PCODES {
        let (nb, nw) = if std::env::var("NO_AVG").is_ok() {
            (2.0 * now[pc][0], 2.0 * now[pc][1])
        } else {
            (now[pc][0] + before[pc][0], now[pc][1] + before[pc][1])
        };
        if tied {
            if nb != nw {
                x.push(((CELL_B + pc) as u32, s * (nb - nw)));
            }
        } else {
            if nb != 0.0 {
                x.push(((CELL_B + pc) as u32, s * nb));
            }
            if nw != 0.0 {
                x.push(((CELL_W + pc) as u32, -s * nw));
            }
        }
    }
    let t = threat_index(b, me);
    let base = if tied || me == Color::Black { THR_B } else { THR_W };
    x.push(((base + t) as u32, 1.0));
    x
}

fn load(files: &[String], family: Family) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut game = 0usize;
    for f in files {
        let text = std::fs::read_to_string(f).expect("read");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            let rule = match v["rule"].as_str().unwrap_or("") {
                "renju" => Rule::RENJU,
                "freestyle" => Rule::FREESTYLE,
                "standard" => Rule::STANDARD,
                "caro" => Rule::CARO,
                _ => continue,
            };
            if Family::of(rule.kind) != family {
                continue;
            }
            let (w, h) = (v["width"].as_u64().unwrap() as usize, v["height"].as_u64().unwrap() as usize);
            let result = match v["result"].as_str().unwrap_or("") {
                "1-0" => 1.0f32,
                "0-1" => 0.0,
                _ => 0.5,
            };
            let moves: Vec<Pos> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|m| Pos::from_human(m.as_str()?))
                .collect();
            game += 1;
            let held_out = game % 10 == 0;
            let mut b = Board::new(w, h, rule).unwrap();
            let tied = rule.kind != RuleKind::Renju;
            let mut before = pcode_counts(&b);
            for (k, &m) in moves.iter().enumerate() {
                let now = pcode_counts(&b);
                if k >= 2 && quiet(&b) {
                    let y = if b.side_to_move() == Color::Black { result } else { 1.0 - result };
                    out.push(Sample {
                        linear: pentad::eval::evaluate_linear(&b) as f32,
                        score: v["scores"].get(k).and_then(|x| x.as_f64()).map(|x| x as f32),
                        x: sample(&b, &now, &before, tied),
                        y,
                        held_out,
                    });
                }
                before = now;
                if !b.is_empty(m) {
                    break;
                }
                b.make_move(m);
            }
        }
    }
    out
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of samples (held out or not) under weights `w` and scale `k`.
fn loss(samples: &[Sample], w: &[f64], k: f64, held: bool) -> f64 {
    let mut sum = 0.0;
    let mut n = 0;
    for s in samples.iter().filter(|s| s.held_out == held) {
        let v: f64 = s.base() + s.x.iter().map(|&(i, x)| w[i as usize] * x as f64).sum::<f64>();
        let p = sigmoid(v / k).clamp(1e-6, 1.0 - 1e-6);
        let y = s.y as f64;
        sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        n += 1;
    }
    sum / n.max(1) as f64
}

fn gradient(samples: &[Sample], w: &[f64], k: f64) -> (Vec<f64>, usize) {
    let chunks: Vec<&[Sample]> = samples.chunks(samples.len().div_ceil(2).max(1)).collect();
    let parts: Vec<(Vec<f64>, usize)> = std::thread::scope(|sc| {
        let hs: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                sc.spawn(move || {
                    let mut g = vec![0.0; NP];
                    let mut n = 0;
                    for s in chunk.iter().filter(|s| !s.held_out) {
                        let v: f64 =
                            s.base() + s.x.iter().map(|&(i, x)| w[i as usize] * x as f64).sum::<f64>();
                        let d = (sigmoid(v / k) - s.y as f64) / k;
                        for &(i, x) in &s.x {
                            g[i as usize] += d * x as f64;
                        }
                        n += 1;
                    }
                    (g, n)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut g = vec![0.0; NP];
    let mut n = 0;
    for (pg, pn) in parts {
        n += pn;
        for (a, b) in g.iter_mut().zip(pg) {
            *a += b;
        }
    }
    (g, n)
}

fn fit(samples: &[Sample], init: &[f64], iters: usize, lambda: f64, tied: bool) -> (Vec<f64>, f64) {
    // The logistic scale that fits the prior best.
    let mut k = 200.0;
    let mut best = f64::MAX;
    for kk in (50..=800).step_by(25) {
        let l = loss(samples, init, kk as f64, false);
        if l < best {
            best = l;
            k = kk as f64;
        }
    }
    for kk in [100.0, 150.0, 200.0, 250.0, 300.0, 400.0] {
        let l = |held: bool| {
            let mut sum = 0.0;
            let mut n = 0;
            for s in samples.iter().filter(|s| s.held_out == held) {
                let p = sigmoid(s.linear as f64 / kk).clamp(1e-6, 1.0 - 1e-6);
                let y = s.y as f64;
                sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
                n += 1;
            }
            sum / n as f64
        };
        eprintln!("linear eval at scale {kk}: train {:.5} held-out {:.5}", l(false), l(true));
    }
    eprintln!("scale {k}: prior loss train {:.5} held-out {:.5}", best, loss(samples, init, k, true));
    let blend: f64 = std::env::var("BLEND").ok().and_then(|b| b.parse().ok()).unwrap_or(1.0);
    let samples: Vec<Sample> = samples
        .iter()
        .filter(|s| blend >= 1.0 || s.score.is_some())
        .map(|s| Sample {
            linear: s.linear,
            score: s.score,
            x: s.x.clone(),
            y: match s.score {
                Some(sc) => (blend * s.y as f64 + (1.0 - blend) * sigmoid(sc as f64 / k)) as f32,
                None => s.y,
            },
            held_out: s.held_out,
        })
        .collect();
    let samples = &samples[..];
    eprintln!("{} samples with blend {blend}; prior loss now train {:.5} held-out {:.5}", samples.len(), loss(samples, init, k, false), loss(samples, init, k, true));
    let mut w = init.to_vec();
    let (mut m, mut v) = (vec![0.0; NP], vec![0.0; NP]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 2.0, 1e-8);
    for t in 1..=iters {
        let (mut g, n) = gradient(samples, &w, k);
        for i in 0..NP {
            g[i] = g[i] / n as f64 + lambda * (w[i] - init[i]) / 1000.0;
        }
        if tied {
            for pc in 0..N_PCODES {
                g[CELL_W + pc] = 0.0;
            }
            for i in 0..N_THREAT {
                g[THR_W + i] = 0.0;
            }
        }
        for i in 0..NP {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
        if tied {
            for pc in 0..N_PCODES {
                w[CELL_W + pc] = w[CELL_B + pc];
            }
            for i in 0..N_THREAT {
                w[THR_W + i] = w[THR_B + i];
            }
        }
        if t % 50 == 0 || t == iters {
            eprintln!(
                "iter {t}: train {:.5} held-out {:.5}",
                loss(samples, &w, k, false),
                loss(samples, &w, k, true)
            );
        }
    }
    (w, k)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = &args[0];
    let iters: usize = args[1].parse().unwrap();
    let lambda: f64 = args[2].parse().unwrap();
    let files = &args[3..];
    let mut fams = if residual() {
        [FamilyValues::zero(), FamilyValues::zero()]
    } else {
        [prior(Family::Renju), prior(Family::Gomoku)]
    };
    for (f, family) in Family::ALL.iter().enumerate() {
        let samples = load(files, *family);
        eprintln!("{}: {} positions", family.name(), samples.len());
        if samples.is_empty() || iters == 0 {
            continue;
        }
        let init = params_of(&fams[f]);
        let (w, k) = fit(&samples, &init, iters, lambda, *family == Family::Gomoku);
        eprintln!("{}: scale {k}", family.name());
        fams[f] = values_of(&w);
    }
    let tables = EvalTables::new(fams);
    std::fs::write(out, tables.to_text()).expect("write");
    let _ = Arc::new(());
}
