//! Evaluation read off the board's incremental state: a linear part and learned tables.
//!
//! The value, from the side to move's point of view, is the linear evaluation over the
//! board's pattern counts ([`evaluate_linear`], weights in [`weights`]) plus two learned
//! parts, fitted by `pentad-tools train`, built in (`tables::builtin`) or loaded with
//! `INFO eval_file`:
//! - **cell values**: every empty cell's pattern code (its four line patterns) has a value
//!   per colour; the board keeps `sum(Black) - sum(White)` up to date on move and undo. The
//!   evaluation averages that sum over the position and the one before the last move, which
//!   smooths the swing of whoever moved last.
//! - **threat value**: a table indexed by which tactical shapes each side can make with one
//!   stone (see [`threat`]), per side to move.
//!
//! A board with a network (`crate::net`) adds the network's value to all that: the network is
//! trained on top of the classical evaluation, as a correction to it.
//!
//! No board scan: a few counter reads and two table lookups. The tables (`tables`) are
//! installed on a board with [`prepare`]. The built-in tables (`builtin.eval`) have values for
//! renju only (docs/eval-training.md); for the other rules they are zero, and a
//! board with zero tables keeps no value sum and evaluates linearly.

pub mod tables;
pub mod threat;
pub mod tuning;
pub mod weights;

use crate::board::{Board, Pattern};
use crate::core::Color;
use tables::EvalTables;

/// Largest magnitude an evaluation can take (well below mate scores).
pub const EVAL_LIMIT: i32 = 20_000;

/// Evaluation units per unit of the network's value logit: the logistic scale of the
/// classical evaluation against game results, which the trainer uses to turn the classical
/// evaluation into the logit its correction adds to.
pub const EVAL_PER_LOGIT: i64 = 600;

/// Installs the current evaluation tables and networks for the board's rule (no-op when
/// they are), and brings the network's features up to date.
pub fn prepare(board: &mut Board) {
    let tables = tables::current();
    board.set_cell_values(tables.for_rule(board.rule().kind).clone());
    let nets = crate::net::current();
    let kind = board.rule().kind;
    board.set_network(nets.for_rule(kind).cloned());
    board.set_policy_network(nets.policy_for_rule(kind).cloned());
    // The network's features are brought up to date here, at the search's root: they are
    // rebuilt wherever they are first read, and a rebuild deep in the tree (where the first
    // evaluation that reads the network may come) would be redone at every evaluation
    // above it.
    board.sync_network();
}

/// Static evaluation of `board` for the side to move ([`prepare`] must have installed the
/// tables): the classical evaluation, plus the network's correction when the board has one.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let classical = evaluate_classical(board);
    match board.network() {
        Some(net) if net.has_value() => {
            (classical + net_correction(board, net)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        }
        _ => classical,
    }
}

/// The classical evaluation: the linear part plus the learned tables.
#[inline]
pub fn evaluate_classical(board: &Board) -> i32 {
    let ready = board.cell_values();
    if ready.extra().is_empty() {
        // No learned tables for this rule (all zero): the linear evaluation alone.
        return evaluate_linear(board);
    }
    let me = board.side_to_move();
    let black = (board.value_black() + board.value_black_before_last()) / 2;
    let cells = if me == Color::Black { black } else { -black };
    let threat = EvalTables::threat_value(ready, me, threat::threat_index(board, me));
    (evaluate_linear(board) + cells + threat).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The network's value logit for the side to move, in evaluation units: what it adds to the
/// classical evaluation (it was trained on top of it, `pentad-tools static-eval`).
pub fn net_correction(board: &Board, net: &crate::net::Network) -> i32 {
    let pool = net.value_pool(board.net_pool(), || board.raw_counts());
    let hidden = net.heads(board.side_to_move().index()).hidden(&pool);
    let units = i64::from(hidden.value) * EVAL_PER_LOGIT / i64::from(crate::net::VALUE_ONE);
    units.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
}

/// The linear evaluation over pattern counts (weights in [`weights`]), on which the learned
/// tables add their corrections.
pub fn evaluate_linear(board: &Board) -> i32 {
    let kind = board.rule().kind;
    let me = board.side_to_move();
    // A `tune` build reads the weights set at run time; a normal one the constants.
    #[cfg(feature = "tune")]
    let w = &tuning::current(kind);
    #[cfg(feature = "tune")]
    let by_count = &weights::count_weights(w, me.index());
    #[cfg(not(feature = "tune"))]
    let w = weights::for_rule(kind);
    #[cfg(not(feature = "tune"))]
    let by_count = weights::count_weights_for_rule(kind, me.index());
    // Every pattern count of both colours in one pass (the compiler vectorises it).
    let counts = board.raw_counts();
    let mut s = w.tempo + dot(by_count, &counts);
    if let Some(resolved) = board.resolved_33_counts(&counts) {
        // Black's renju 3-3 candidates, resolved: the mover's cell weights if Black moves.
        let (cell, sign) = if me == Color::Black {
            (&w.cell_me, 1)
        } else {
            (&w.cell_opp, -1)
        };
        s += sign * dot(cell, &resolved);
    }
    let block1 = |c: Color| i32::from(counts[16 * c.index() + Pattern::Block1 as usize]);
    let fine = w.fine_me_block1 * block1(me) - w.fine_opp_block1 * block1(me.opp());
    s += fine / weights::FINE_UNIT;
    s.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// `Σ weight × count` over the weights (counts beyond them are not read).
#[inline(always)]
fn dot(weights: &[i32], counts: &[u16]) -> i32 {
    weights
        .iter()
        .zip(counts)
        .map(|(&w, &n)| w * i32::from(n))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Pos, Rule};

    /// The linear evaluation read shape by shape through [`Board::pattern_count`] and
    /// [`Board::pattern4_count`] (the reference for the one-pass sum of `evaluate_linear`).
    fn linear_by_shapes(board: &Board) -> i32 {
        use crate::board::Pattern4;
        #[cfg(feature = "tune")]
        let w = &tuning::current(board.rule().kind);
        #[cfg(not(feature = "tune"))]
        let w = weights::for_rule(board.rule().kind);
        let me = board.side_to_move();
        let opp = me.opp();
        let mut s = w.tempo;
        for p4 in Pattern4::ALL {
            let i = p4 as usize;
            s += w.cell_me[i] * board.pattern4_count(me, p4) as i32;
            s -= w.cell_opp[i] * board.pattern4_count(opp, p4) as i32;
        }
        for p in Pattern::ALL {
            let i = p as usize;
            s += w.line_me[i] * board.pattern_count(me, p) as i32;
            s -= w.line_opp[i] * board.pattern_count(opp, p) as i32;
        }
        let fine = w.fine_me_block1 * board.pattern_count(me, Pattern::Block1) as i32
            - w.fine_opp_block1 * board.pattern_count(opp, Pattern::Block1) as i32;
        (s + fine / weights::FINE_UNIT).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    #[test]
    fn the_one_pass_linear_evaluation_equals_the_sum_over_shapes() {
        use crate::board::random_games;
        let mut resolved = 0;
        for rule in [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO] {
            random_games(rule, 11, 30, 90, |b| {
                assert_eq!(evaluate_linear(b), linear_by_shapes(b), "{rule:?}");
                // Black's 3-3 candidates, which the one-pass sum resolves apart.
                resolved += usize::from(b.resolved_33_counts(&b.raw_counts()).is_some());
                true
            });
        }
        assert!(resolved > 20, "renju 3-3 candidates met {resolved} times");
    }

    #[test]
    fn learned_tables_add_to_the_linear_evaluation() {
        use std::sync::Arc;
        use tables::{Family, FamilyValues};
        let mut values = [FamilyValues::zero(), FamilyValues::zero()];
        let f = Family::Gomoku as usize;
        values[f].threat = [vec![7; threat::N_THREAT], vec![-5; threat::N_THREAT]];
        let tables = EvalTables::new(values);
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 7)] {
            b.make_move(Pos::new(x, y));
        }
        b.set_cell_values(Arc::clone(tables.for_rule(b.rule().kind)));
        // White to move: the linear evaluation plus White's threat value (cells are zero).
        assert_eq!(evaluate(&b), evaluate_linear(&b) - 5);
        b.undo();
        assert_eq!(evaluate(&b), evaluate_linear(&b) + 7);
    }

    #[test]
    fn a_network_adds_its_correction_to_the_classical_evaluation() {
        use std::sync::Arc;
        let net = Arc::new(crate::net::random_network(crate::net::Family::Renju, 5));
        let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
        prepare(&mut b);
        for (x, y) in [(7, 7), (8, 8), (6, 7), (9, 9)] {
            b.make_move(Pos::new(x, y));
        }
        // The classical part alone (renju's built-in value network is installed).
        let classical = evaluate_classical(&b);
        b.set_network(Some(Arc::clone(&net)));
        let correction = net_correction(&b, &net);
        assert_ne!(correction, 0, "the random network has a value");
        assert_eq!(evaluate(&b), classical + correction);
        assert_eq!(evaluate_classical(&b), classical);
    }

    #[test]
    fn a_policy_network_leaves_the_evaluation_classical() {
        use std::sync::Arc;
        let net = Arc::new(crate::net::random_policy_network(
            crate::net::Family::Renju,
            5,
        ));
        let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
        prepare(&mut b);
        for (x, y) in [(7, 7), (8, 8), (6, 7), (9, 9)] {
            b.make_move(Pos::new(x, y));
        }
        let classical = evaluate_classical(&b);
        assert_ne!(
            evaluate(&b),
            classical,
            "the built-in value network corrects"
        );
        b.set_network(Some(net));
        assert_eq!(evaluate(&b), classical);
    }

    #[test]
    fn own_shape_is_good_for_the_mover() {
        for rule in [Rule::FREESTYLE] {
            let mut b = Board::new(15, 15, rule).unwrap();
            prepare(&mut b);
            // Black builds a three while White's stones are scattered.
            for (x, y) in [(7, 7), (0, 0), (8, 7), (14, 14), (9, 7), (0, 14)] {
                b.make_move(Pos::new(x, y));
            }
            // Black to move with an open three: clearly better for Black.
            assert!(evaluate(&b) > 100, "{rule:?}: eval {}", evaluate(&b));
            b.set_side_to_move(Color::White);
            assert!(evaluate(&b) < -100, "{rule:?}: eval {}", evaluate(&b));
        }
    }
}
