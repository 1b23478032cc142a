//! Pruning tests of a search thread before a node's moves: the transposition table's cutoff,
//! razoring and futility pruning.

use super::super::params::*;
use super::super::score::{value_from_tt, Score, MATE_BOUND};
use super::super::tt::{Bound, TtHit};
use super::{NodeInfo, Worker};

/// The value of table entry `h` when it settles a node at `depth` and `ply` (deep enough, and
/// its bound holds against the window).
pub(super) fn tt_cutoff(
    h: TtHit,
    alpha: Score,
    beta: Score,
    depth: i32,
    ply: usize,
) -> Option<Score> {
    let v = value_from_tt(h.value, ply);
    let settles = h.depth >= depth
        && match h.bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
            Bound::None => false,
        };
    settles.then_some(v)
}

impl Worker<'_> {
    /// The pruning of a quiet non-PV node before its moves: razoring (hopeless positions
    /// drop into the leaf VCF) and futility (a comfortable margin above beta at low depth).
    /// `Some` with the node's value when one applies.
    pub(super) fn prune_quiet_node(
        &mut self,
        info: &NodeInfo,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        let (depth, ply, static_eval) = (info.depth, info.ply, info.static_eval);
        if beta.abs() >= MATE_BOUND {
            return None;
        }
        if depth <= razor_depth() && static_eval + self.tuned.razor_margin * depth < alpha {
            let v = self.quiesce(beta, ply);
            if v < alpha {
                return Some(v);
            }
        }
        if depth <= futility_depth()
            && static_eval - futility_margin() * (depth - info.improving as i32) >= beta
        {
            return Some(static_eval);
        }
        None
    }
}
