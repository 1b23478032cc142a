//! `pentad-tools eval-tune`: fits the evaluation weights of `src/eval/weights.rs` to game
//! results (the Texel method): the quiet positions of recorded games, each labelled with the
//! final result for the side to move (blended with the search score where the record has
//! one), and the weights that minimise the squared error of `sigmoid(eval / scale)`.
//!
//! It reads pentad-arena JSON records and `pentad-tools selfplay` games files (positions the
//! search had already solved are left out), fits the renju set and the set of the other
//! rules separately and prints them, to be copied into `weights.rs` by hand and kept only if
//! self-play shows a gain. Before fitting it prints a calibration table: how often the side
//! to move won, by its evaluation and its colour. A unit test checks the feature extraction
//! against `evaluate_classical` (the evaluation without a network).

use anyhow::{bail, Result};
use pentad::board::{Board, Pattern, Pattern4};
use pentad::core::{Color, RuleKind};
use pentad::eval::{self, weights};

use crate::fit::{self, sigmoid, Adam};
use crate::progress::Progress;
use crate::records::{read_records, Record};

/// Options of `pentad-tools eval-tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// pentad-arena JSON-lines records (`--results` files) or `pentad-tools selfplay` games
    /// files, comma-separated or repeated.
    #[arg(long, required = true, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Adam steps over the whole training set.
    #[arg(long, default_value_t = 1000)]
    pub steps: usize,
    /// Weight of the game result in the target; the rest is the search score's winning
    /// chance, for records that carry scores (selfplay games files).
    #[arg(long, default_value_t = 1.0)]
    pub blend: f64,
    /// The logistic scale of the fit, in evaluation units (default: the one that fits the
    /// current weights to the results best). Fixing it keeps the fitted weights in the unit
    /// the search's margins assume when the targets are another engine's scores.
    #[arg(long)]
    pub scale: Option<f64>,
    /// Fit only the tempo and the shapes below an open three; threes, fours and their
    /// combinations keep their values (the search's tactics lean on them).
    #[arg(long)]
    pub below_threes: bool,
    /// Keep the tempo and the one-stone line weights (and their fine corrections) as they
    /// are: every stone makes dozens of one-stone cells, so these act as the evaluation's
    /// tempo term, at a sharp optimum for the search's margins (docs/eval-tuning.md).
    #[arg(long)]
    pub keep_one_stone: bool,
    /// Print the weights moved this fraction of the way from the current ones to the fit
    /// (a cautious step when the targets come from another engine).
    #[arg(long, default_value_t = 1.0)]
    pub fraction: f64,
    /// Seed of the choice of held-out games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Fewest positions worth fitting a weight set to.
const MIN_POSITIONS: usize = 1000;
/// Games files clamp mate scores to this magnitude; such positions are left out.
const MATE_LABEL: f64 = 29_000.0;
/// One game in `HOLD_OUT` (chosen by `--seed`) is held out to check that the fit
/// generalises.
const HOLD_OUT: u64 = 5;

const N4: usize = 14;
const NL: usize = 11;
/// Weights of the evaluation: tempo, CELL_ME, CELL_OPP, LINE_ME, LINE_OPP.
const NP: usize = 1 + 2 * N4 + 2 * NL;
/// The fitted parameters: the evaluation's weights and a colour term (`COLOUR`).
const NFIT: usize = NP + 1;
/// Index of the colour term: added for Black to move, taken off for White. It takes up
/// whatever edge one colour has beyond its shapes (in renju, White's; in freestyle,
/// Black's), which the pattern weights would otherwise twist themselves to explain; it is
/// not part of the engine's evaluation (an edge every line of a search shares decides no
/// move).
const COLOUR: usize = NP;

/// Which weights a fit leaves as they are, beyond those that always stay.
#[derive(Clone, Copy, Debug, Default)]
struct Freeze {
    /// Threes and stronger shapes (`--below-threes`).
    tactical: bool,
    /// The tempo and the one-stone line weights (`--keep-one-stone`).
    one_stone: bool,
}

/// Weights that stay as they are: fives and open fours are wins (the search's static win
/// check), dead and overline cells carry no value; and those `freeze` names.
fn frozen(i: usize, freeze: Freeze) -> bool {
    if (freeze.tactical && tactical(i)) || (freeze.one_stone && one_stone(i)) {
        return true;
    }
    let cell_fixed = |k: usize| k == Pattern4::None as usize || k == Pattern4::Five as usize;
    let line_fixed = |k: usize| {
        k == Pattern::Dead as usize
            || k == Pattern::Overline as usize
            || k == Pattern::Five as usize
    };
    match i {
        0 | COLOUR => false,
        i if i < 1 + N4 => cell_fixed(i - 1) || i - 1 == Pattern4::Flex4 as usize,
        i if i < 1 + 2 * N4 => cell_fixed(i - 1 - N4),
        i if i < 1 + 2 * N4 + NL => line_fixed(i - 1 - 2 * N4),
        i => line_fixed(i - 1 - 2 * N4 - NL),
    }
}

/// Whether weight `i` is the tempo or a one-stone line weight (either side's).
fn one_stone(i: usize) -> bool {
    let one = |k: usize| k == Pattern::Block1 as usize || k == Pattern::Flex1 as usize;
    match i {
        0 => true,
        i if (1 + 2 * N4..1 + 2 * N4 + NL).contains(&i) => one(i - 1 - 2 * N4),
        i if (1 + 2 * N4 + NL..NP).contains(&i) => one(i - 1 - 2 * N4 - NL),
        _ => false,
    }
}

/// Whether weight `i` is that of an open three or a stronger shape.
fn tactical(i: usize) -> bool {
    let cell = |k: usize| k >= Pattern4::Flex3 as usize;
    let line = |k: usize| k >= Pattern::Flex3 as usize;
    match i {
        0 | COLOUR => false,
        i if i < 1 + N4 => cell(i - 1),
        i if i < 1 + 2 * N4 => cell(i - 1 - N4),
        i if i < 1 + 2 * N4 + NL => line(i - 1 - 2 * N4),
        i => line(i - 1 - 2 * N4 - NL),
    }
}

/// The weights in use under `kind`, as `NP` numbers in feature order, and a zero colour
/// term.
fn current_weights(kind: RuleKind) -> Vec<f64> {
    let set = weights::for_rule(kind);
    let mut w = vec![set.tempo as f64];
    w.extend(set.cell_me.iter().map(|&v| v as f64));
    w.extend(set.cell_opp.iter().map(|&v| v as f64));
    w.extend(set.line_me.iter().map(|&v| v as f64));
    w.extend(set.line_opp.iter().map(|&v| v as f64));
    // The one-stone weights' fine corrections, in points.
    let unit = f64::from(weights::FINE_UNIT);
    w[1 + 2 * N4 + Pattern::Block1 as usize] += f64::from(set.fine_me_block1) / unit;
    w[1 + 2 * N4 + NL + Pattern::Block1 as usize] += f64::from(set.fine_opp_block1) / unit;
    w.push(0.0);
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

#[derive(Clone, Copy)]
struct Sample {
    x: [f64; NP],
    /// What the evaluation adds to the linear part (the learned tables' cells and threat
    /// value): a fixed offset the fitted weights work on top of.
    base: f64,
    /// Result for the side to move: 1 win, 0.5 draw, 0 loss.
    result: f64,
    /// Search score for the side to move, when the record has one (games files).
    score: Option<f64>,
    /// Training target (see `set_targets`); the result until then.
    y: f64,
    /// Index of the game it comes from.
    game: usize,
    /// Black is to move.
    black: bool,
}

/// Quiet positions of `records` whose rule is in the weight family of `renju` (renju, or
/// every rule without forbidden points).
fn load(records: &[Record], renju: bool) -> Vec<Sample> {
    let mut out = Vec::new();
    for (game, r) in records.iter().enumerate() {
        if (r.rule.kind == RuleKind::Renju) != renju {
            continue;
        }
        let Ok(mut b) = Board::new(r.width, r.height, r.rule) else {
            continue;
        };
        eval::prepare(&mut b);
        for (ply, &m) in r.moves.iter().enumerate() {
            if ply >= r.opening_plies && quiet(&b) {
                let black = b.side_to_move() == Color::Black;
                let result = if black {
                    r.black_score
                } else {
                    1.0 - r.black_score
                };
                let score = r.scores.get(ply - r.opening_plies).map(|&s| s as f64);
                // A mate score: the search saw the end, the evaluation need not judge it.
                if !score.is_some_and(|s| s.abs() >= MATE_LABEL) {
                    out.push(Sample {
                        x: features(&b),
                        base: f64::from(eval::evaluate_classical(&b) - eval::evaluate_linear(&b)),
                        result,
                        score,
                        y: result,
                        game,
                        black,
                    });
                }
            }
            if !b.is_empty(m) {
                break;
            }
            b.make_move(m);
        }
    }
    out
}

/// Sets every sample's target to `blend` × result + (1 − `blend`) × the search score's
/// winning chance at `scale` (the result alone where there is no score).
fn set_targets(samples: &mut [Sample], blend: f64, scale: f64) {
    for s in samples {
        s.y = match s.score {
            Some(score) => blend * s.result + (1.0 - blend) * sigmoid(score / scale),
            None => s.result,
        };
    }
}

/// The evaluation of sample `s` under weights `w`.
fn eval_of(s: &Sample, w: &[f64]) -> f64 {
    let colour = if s.black { w[COLOUR] } else { -w[COLOUR] };
    s.base + s.x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>() + colour
}

fn loss(samples: &[Sample], w: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let e = eval_of(s, w);
            let d = sigmoid(e / scale) - s.y;
            d * d
        })
        .sum();
    total / samples.len() as f64
}

/// The logistic scale that fits the current weights best (golden-section search).
fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 20_000.0f64);
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
fn fit(
    samples: &[Sample],
    start: &[f64],
    scale: f64,
    steps: usize,
    freeze: Freeze,
    name: &str,
) -> Vec<f64> {
    let progress = Progress::new(steps as u64, &format!("fitting {name}"));
    let mut w = start.to_vec();
    let mut adam = Adam::new(NFIT);
    let (rate, l2) = (0.5, 1e-7);
    let n = samples.len() as f64;
    for _ in 0..steps {
        let mut g = vec![0.0; NFIT];
        for s in samples {
            let p = sigmoid(eval_of(s, &w) / scale);
            let k = 2.0 * (p - s.y) * p * (1.0 - p) / scale;
            for (gi, xi) in g.iter_mut().zip(&s.x) {
                *gi += k * xi;
            }
            g[COLOUR] += if s.black { k } else { -k };
        }
        // A frozen weight gets no gradient, so Adam never moves it; the others are pulled
        // towards their starting values.
        for i in 0..NFIT {
            g[i] = if frozen(i, freeze) {
                0.0
            } else {
                g[i] / n + l2 * (w[i] - start[i])
            };
        }
        adam.step(&mut w, &g, rate, 0.0);
        progress.inc(1);
    }
    w
}

/// Upper ends of the evaluation ranges of the calibration table (the last range is open).
const CALIBRATION_BOUNDS: [f64; 6] = [-600.0, -200.0, -50.0, 50.0, 200.0, 600.0];

/// Prints how often the side to move went on to win, by its evaluation under `w` and its
/// colour: a well-judged evaluation wins more the higher it is, alike for both colours.
fn print_calibration(samples: &[Sample], w: &[f64]) {
    println!("results for the side to move by its evaluation (positions, mean result):");
    let mut rows = vec![(0usize, 0.0f64, 0usize, 0.0f64); CALIBRATION_BOUNDS.len() + 1];
    for s in samples {
        let e = eval_of(s, w);
        let bin = CALIBRATION_BOUNDS.iter().take_while(|&&b| e >= b).count();
        let row = &mut rows[bin];
        if s.black {
            row.0 += 1;
            row.1 += s.result;
        } else {
            row.2 += 1;
            row.3 += s.result;
        }
    }
    let mean = |n: usize, sum: f64| if n == 0 { 0.0 } else { sum / n as f64 };
    for (i, &(nb, sb, nw, sw)) in rows.iter().enumerate() {
        let lo = if i == 0 {
            f64::NEG_INFINITY
        } else {
            CALIBRATION_BOUNDS[i - 1]
        };
        let hi = CALIBRATION_BOUNDS.get(i).copied().unwrap_or(f64::INFINITY);
        println!(
            "  eval [{lo}, {hi}): Black to move {nb} {:.3}, White to move {nw} {:.3}",
            mean(nb, sb),
            mean(nw, sw)
        );
    }
}

fn print_array(name: &str, w: &[f64]) {
    let vals: Vec<String> = w.iter().map(|v| format!("{}", v.round() as i64)).collect();
    println!("    {name}: [{}],", vals.join(", "));
}

/// Runs `pentad-tools eval-tune`.
pub fn run(args: &Args) -> Result<()> {
    check_args(args)?;
    let games = read_records(&args.games)?;
    if games.repeats > 0 {
        println!("{} repeated games left out", games.repeats);
    }
    for (name, kind) in [("RENJU", RuleKind::Renju), ("GOMOKU", RuleKind::Freestyle)] {
        tune_family(args, name, kind, &games.records);
    }
    Ok(())
}

/// Fails on options out of their ranges.
fn check_args(args: &Args) -> Result<()> {
    if !(0.0..=1.0).contains(&args.blend) {
        bail!("--blend must lie in 0..=1");
    }
    if !(0.0..=1.0).contains(&args.fraction) {
        bail!("--fraction must lie in 0..=1");
    }
    if args.scale.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
        bail!("--scale must be a positive number");
    }
    Ok(())
}

/// Fits the weight set `name` of the rule family `kind` to its positions in `records` and
/// prints the losses before and after and the new set; too few positions: says so.
fn tune_family(args: &Args, name: &str, kind: RuleKind, records: &[Record]) {
    let samples = load(records, kind == RuleKind::Renju);
    if samples.len() < MIN_POSITIONS {
        println!("{name}: too few positions ({}), not fitted", samples.len());
        return;
    }
    let (mut train, mut test): (Vec<Sample>, Vec<Sample>) = samples
        .into_iter()
        .partition(|s| !fit::is_held_out(args.seed, s.game, HOLD_OUT));
    let start = current_weights(kind);
    let scale = args.scale.unwrap_or_else(|| fit_scale(&train, &start));
    print_calibration(&train, &start);
    set_targets(&mut train, args.blend, scale);
    set_targets(&mut test, args.blend, scale);
    println!(
        "{name}: {} positions to fit, {} held out; scale {scale:.1}",
        train.len(),
        test.len()
    );
    let test_results: Vec<Sample> = test.iter().map(|s| Sample { y: s.result, ..*s }).collect();
    let losses = |w: &[f64]| {
        (
            loss(&train, w, scale),
            loss(&test, w, scale),
            loss(&test_results, w, scale),
        )
    };
    let (fitted, held_out, on_results) = losses(&start);
    println!(
        "current weights: fit loss {fitted:.6}, held-out loss {held_out:.6} (on results alone {on_results:.6})"
    );
    let freeze = Freeze {
        tactical: args.below_threes,
        one_stone: args.keep_one_stone,
    };
    let w = fit(&train, &start, scale, args.steps, freeze, name);
    let (fitted, held_out, on_results) = losses(&w);
    println!(
        "fitted weights:  fit loss {fitted:.6}, held-out loss {held_out:.6} (on results alone {on_results:.6})"
    );
    println!(
        "colour term (Black's edge beyond its shapes; not in the engine): {:.0}; mean |eval|: \
         current {:.0}, fitted {:.0}",
        w[COLOUR],
        mean_abs_eval(&train, &start),
        mean_abs_eval(&train, &w)
    );
    if args.fraction != 1.0 {
        println!(
            "moved {} of the way from the current weights:",
            args.fraction
        );
    }
    print_set(name, &step_towards(&start, &w, args.fraction));
}

/// The mean size of the evaluation by weights `w` over `samples`, the colour term left out.
fn mean_abs_eval(samples: &[Sample], w: &[f64]) -> f64 {
    let mut no_colour = w.to_vec();
    no_colour[COLOUR] = 0.0;
    let total: f64 = samples.iter().map(|s| eval_of(s, &no_colour).abs()).sum();
    total / samples.len() as f64
}

/// Prints one weight set as the `weights.rs` constant `name`.
/// `start` moved `fraction` of the way to `fitted`, weight by weight.
fn step_towards(start: &[f64], fitted: &[f64], fraction: f64) -> Vec<f64> {
    start
        .iter()
        .zip(fitted)
        .map(|(a, b)| a + fraction * (b - a))
        .collect()
}

fn print_set(name: &str, w: &[f64]) {
    println!("pub const {name}: EvalWeights = EvalWeights {{");
    println!("    tempo: {},", w[0].round() as i64);
    print_array("cell_me", &w[1..1 + N4]);
    print_array("cell_opp", &w[1 + N4..1 + 2 * N4]);
    print_array("line_me", &w[1 + 2 * N4..1 + 2 * N4 + NL]);
    print_array("line_opp", &w[1 + 2 * N4 + NL..NP]);
    // The one-stone weights' fractions, in the fine unit.
    let fine = |i: usize| ((w[i] - w[i].round()) * f64::from(weights::FINE_UNIT)).round() as i64;
    println!(
        "    fine_me_block1: {},",
        fine(1 + 2 * N4 + Pattern::Block1 as usize)
    );
    println!(
        "    fine_opp_block1: {},",
        fine(1 + 2 * N4 + NL + Pattern::Block1 as usize)
    );
    println!("}};");
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::core::Rule;

    #[test]
    fn features_reproduce_the_evaluation() {
        for rule in ["renju", "freestyle", "standard", "caro"] {
            let rule = Rule::from_name(rule).unwrap();
            let w = current_weights(rule.kind);
            let (mut positions, mut with_tables) = (0, 0);
            // Random games, from the first stones to crowded boards.
            pentad::board::random_games(rule, 3, 12, 70, |b| {
                eval::prepare(b);
                // The learned tables (renju's) add to the linear part as a fixed offset.
                let base = f64::from(eval::evaluate_classical(b) - eval::evaluate_linear(b));
                with_tables += usize::from(base != 0.0);
                positions += 1;
                let e = base + features(b).iter().zip(&w).map(|(a, b)| a * b).sum::<f64>();
                let limit = f64::from(eval::EVAL_LIMIT);
                // The engine rounds the one-stone corrections (sixteenths) to whole points.
                // A value network's correction (freestyle's built-in one) is not fitted here.
                let engine = f64::from(eval::evaluate_classical(b));
                assert!(
                    (e.clamp(-limit, limit) - engine).abs() < 1.0,
                    "{rule:?} at {} stones: {e} against {engine}",
                    b.stone_count()
                );
                true
            });
            assert!(positions > 300, "{rule:?}: {positions} positions");
            assert_eq!(
                with_tables > 0,
                rule.kind == RuleKind::Renju,
                "{rule:?}: only renju has built-in tables"
            );
        }
    }

    #[test]
    fn a_fraction_steps_part_of_the_way() {
        let w = step_towards(&[10.0, -4.0, 0.0], &[30.0, 4.0, 0.0], 0.25);
        assert_eq!(w, vec![15.0, -2.0, 0.0]);
    }

    #[test]
    fn below_threes_freezes_threes_and_stronger_shapes_only() {
        let cell_me = |p: Pattern4| 1 + p as usize;
        let line_opp = |p: Pattern| 1 + 2 * N4 + NL + p as usize;
        for i in [
            cell_me(Pattern4::Flex3),
            cell_me(Pattern4::Block4),
            line_opp(Pattern::Flex3),
        ] {
            assert!(frozen(i, TACTICAL) && !frozen(i, NONE), "weight {i}");
        }
        for i in [
            0,
            cell_me(Pattern4::Flex2x2),
            line_opp(Pattern::Block3),
            COLOUR,
        ] {
            assert!(!frozen(i, TACTICAL), "weight {i}");
        }
        // The wins stay frozen either way.
        assert!(frozen(cell_me(Pattern4::Flex4), NONE));
    }

    const NONE: Freeze = Freeze {
        tactical: false,
        one_stone: false,
    };
    const TACTICAL: Freeze = Freeze {
        tactical: true,
        one_stone: false,
    };

    #[test]
    fn keep_one_stone_freezes_the_tempo_and_one_stone_lines_only() {
        let keep = Freeze {
            tactical: false,
            one_stone: true,
        };
        let line_me = |p: Pattern| 1 + 2 * N4 + p as usize;
        let line_opp = |p: Pattern| 1 + 2 * N4 + NL + p as usize;
        for i in [
            0,
            line_me(Pattern::Block1),
            line_me(Pattern::Flex1),
            line_opp(Pattern::Block1),
            line_opp(Pattern::Flex1),
        ] {
            assert!(frozen(i, keep) && !frozen(i, NONE), "weight {i}");
        }
        for i in [
            1 + Pattern4::Flex2 as usize,
            line_me(Pattern::Block2),
            line_opp(Pattern::Flex2),
            COLOUR,
        ] {
            assert!(!frozen(i, keep), "weight {i}");
        }
    }

    #[test]
    fn games_files_give_searched_quiet_positions_with_blended_targets() {
        let dir = tempfile::Builder::new()
            .prefix("pentad-eval-tune-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("games");
        // Renju, Black wins; two opening stones, then four searched moves, the last with a
        // mate score (left out).
        std::fs::write(
            &path,
            "0 renju 15x15 1-0 2 h8,i9,h9,h7,g8,i10 40,-60,80,29000\n",
        )
        .unwrap();
        let records = read_records(&[path.to_string_lossy().into_owned()])
            .unwrap()
            .records;
        assert!(
            load(&records, false).is_empty(),
            "a renju game is not a gomoku sample"
        );
        let mut samples = load(&records, true);
        assert_eq!(samples.len(), 3);
        let scale = 100.0;
        set_targets(&mut samples, 0.5, scale);
        // Black to move after the opening: result 1, score 40.
        assert_eq!(samples[0].result, 1.0);
        assert!((samples[0].y - (0.5 + 0.5 * sigmoid(0.4))).abs() < 1e-12);
        // White to move: result 0, score -60.
        assert_eq!(samples[1].result, 0.0);
        assert!((samples[1].y - 0.5 * sigmoid(-0.6)).abs() < 1e-12);
        assert_eq!(samples[2].score, Some(80.0));
    }
}
