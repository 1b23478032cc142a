//! Fits move-ordering tables to the moves played in recorded games (temporary home; moves
//! to pentad-tools). A point's score for the mover is A[mover][own pcode] + D[mover][opponent's
//! pcode]; the fit maximises the softmax likelihood of the played move among the candidates.
//!
//! Usage: train_policy OUT.txt ITERS TEMP FILE.jsonl...

use pentad::board::{pcode_class, pcode_patterns, Board, Pattern4, N_PCODES};
use pentad::core::{Color, Pos, Rule};
use pentad::eval::tables::Family;
use pentad::eval::weights::{ORDER_ATTACK, ORDER_DEFEND};

/// Parameter layout: attack black, attack white, defend black, defend white (by mover).
const NP: usize = 4 * N_PCODES;

struct Sample {
    /// Per candidate: (attack param, defend param); the played move first.
    cands: Vec<(u32, u32)>,
    held_out: bool,
}

fn quiet(b: &Board) -> bool {
    let me = b.side_to_move();
    let opp = me.opp();
    b.pattern4_count(me, Pattern4::Five) == 0
        && b.pattern4_count(opp, Pattern4::Five) == 0
        && b.pattern4_count(opp, Pattern4::Flex4) == 0
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
            let opening = v["opening_plies"].as_u64().unwrap_or(0) as usize;
            let moves: Vec<Pos> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|m| Pos::from_human(m.as_str()?))
                .collect();
            game += 1;
            let held_out = game % 10 == 0;
            let mut b = Board::new(w, h, rule).unwrap();
            for (k, &m) in moves.iter().enumerate() {
                if !b.is_empty(m) {
                    break;
                }
                if k >= opening && quiet(&b) {
                    let me = b.side_to_move();
                    let mc = me.index();
                    let param = |p: Pos| {
                        let pcs = b.cell_pcodes(p);
                        (
                            (mc * N_PCODES + pcs[mc]) as u32,
                            ((2 + mc) * N_PCODES + pcs[1 - mc]) as u32,
                        )
                    };
                    let mut cands = vec![param(m)];
                    for p in b.candidates() {
                        if p != m && !(me == Color::Black && b.is_forbidden(p)) {
                            cands.push(param(p));
                        }
                    }
                    out.push(Sample { cands, held_out });
                }
                b.make_move(m);
            }
        }
    }
    out
}

fn prior(renju: bool) -> Vec<f64> {
    let mut w = vec![0.0; NP];
    for pc in 0..N_PCODES {
        for mc in 0..2 {
            let rb_own = renju && mc == 0;
            let rb_opp = renju && mc == 1;
            w[mc * N_PCODES + pc] = ORDER_ATTACK[pcode_class(pc, rb_own) as usize] as f64;
            w[(2 + mc) * N_PCODES + pc] = ORDER_DEFEND[pcode_class(pc, rb_opp) as usize] as f64;
        }
    }
    let _ = pcode_patterns(0);
    w
}

/// Mean negative log-likelihood of the played moves, and its gradient (over the fitted part).
fn nll(samples: &[Sample], w: &[f64], temp: f64, held: bool, grad: Option<&mut Vec<f64>>) -> f64 {
    let mut sum = 0.0;
    let mut n = 0usize;
    let mut g = grad;
    let mut logits = Vec::new();
    for s in samples.iter().filter(|s| s.held_out == held) {
        logits.clear();
        logits.extend(s.cands.iter().map(|&(a, d)| (w[a as usize] + w[d as usize]) / temp));
        let mx = logits.iter().cloned().fold(f64::MIN, f64::max);
        let z: f64 = logits.iter().map(|l| (l - mx).exp()).sum();
        sum += -(logits[0] - mx - z.ln());
        n += 1;
        if let Some(g) = g.as_deref_mut() {
            for (i, &(a, d)) in s.cands.iter().enumerate() {
                let p = (logits[i] - mx).exp() / z - if i == 0 { 1.0 } else { 0.0 };
                g[a as usize] += p / temp;
                g[d as usize] += p / temp;
            }
        }
    }
    if let Some(g) = g {
        for x in g.iter_mut() {
            *x /= n.max(1) as f64;
        }
    }
    sum / n.max(1) as f64
}

fn top1(samples: &[Sample], w: &[f64], held: bool) -> f64 {
    let mut hit = 0.0;
    let mut n = 0;
    for s in samples.iter().filter(|s| s.held_out == held) {
        let sc = |&(a, d): &(u32, u32)| w[a as usize] + w[d as usize];
        let best = s.cands.iter().map(sc).fold(f64::MIN, f64::max);
        if sc(&s.cands[0]) >= best {
            // Ties at the top are broken at random.
            hit += 1.0 / s.cands.iter().filter(|c| sc(c) >= best).count() as f64;
        }
        n += 1;
    }
    hit / n.max(1) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = &args[0];
    let iters: usize = args[1].parse().unwrap();
    let temp: f64 = args[2].parse().unwrap();
    let files = &args[3..];
    let mut text = String::from("pentad-order 1\n");
    for family in Family::ALL {
        let samples = load(files, family);
        let mut w = prior(family == Family::Renju);
        eprintln!("{}: {} positions", family.name(), samples.len());
        if !samples.is_empty() {
            let init = w.clone();
            eprintln!(
                "prior: nll {:.4} / {:.4}, top1 {:.3} / {:.3}",
                nll(&samples, &w, temp, false, None),
                nll(&samples, &w, temp, true, None),
                top1(&samples, &w, false),
                top1(&samples, &w, true)
            );
            let (mut m, mut v) = (vec![0.0; NP], vec![0.0; NP]);
            let (b1, b2, lr) = (0.9, 0.999, 3.0);
            for t in 1..=iters {
                let mut g = vec![0.0; NP];
                nll(&samples, &w, temp, false, Some(&mut g));
                for i in 0..NP {
                    g[i] += 1e-6 * (w[i] - init[i]);
                    m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                    v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                    let mh = m[i] / (1.0 - b1.powi(t as i32));
                    let vh = v[i] / (1.0 - b2.powi(t as i32));
                    w[i] -= lr * mh / (vh.sqrt() + 1e-8);
                }
                if family == Family::Gomoku {
                    for pc in 0..N_PCODES {
                        let a = (w[pc] + w[N_PCODES + pc]) / 2.0;
                        w[pc] = a;
                        w[N_PCODES + pc] = a;
                        let d = (w[2 * N_PCODES + pc] + w[3 * N_PCODES + pc]) / 2.0;
                        w[2 * N_PCODES + pc] = d;
                        w[3 * N_PCODES + pc] = d;
                    }
                }
                if t % 50 == 0 || t == iters {
                    eprintln!(
                        "iter {t}: nll {:.4} / {:.4}, top1 {:.3} / {:.3}",
                        nll(&samples, &w, temp, false, None),
                        nll(&samples, &w, temp, true, None),
                        top1(&samples, &w, false),
                        top1(&samples, &w, true)
                    );
                }
            }
        }
        text += &format!("family {}\n", family.name());
        for (k, name) in ["attack black", "attack white", "defend black", "defend white"].iter().enumerate() {
            text += name;
            for pc in 0..N_PCODES {
                text += if pc % 20 == 0 { "\n" } else { " " };
                text += &(w[k * N_PCODES + pc].round() as i32).to_string();
            }
            text += "\n";
        }
    }
    std::fs::write(out, text).expect("write");
}
