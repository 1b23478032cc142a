//! Pruning tests of a search thread: null-move pruning, the singular-extension test and the
//! move-count limit.

use crate::board::{Pattern4, Threat};
use crate::core::Pos;

use super::super::params::*;
use super::super::score::{value_from_tt, Score, MATE_BOUND};
use super::super::tt::{Bound, TtHit};
use super::{NodeInfo, Worker};

impl Worker<'_> {
    /// The value of table entry `h` when it settles the node (deep enough, and its bound
    /// holds against the window); a table move that fails high there teaches the ordering
    /// memory (`tt_cut_history`).
    pub(super) fn tt_cutoff(
        &mut self,
        h: TtHit,
        threat: Threat,
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
        if !settles {
            return None;
        }
        if tt_cut_history() > 0 && v >= beta && !h.mv.is_none() {
            self.reward_tt_cut(threat, ply, depth, h.mv);
        }
        Some(v)
    }

    /// The pruning of a quiet non-PV node before its moves: razoring (hopeless positions
    /// drop into the threat quiescence), futility (a comfortable margin above beta at low
    /// depth) and the null move. `Some` with the node's value when one applies.
    pub(super) fn prune_quiet_node(
        &mut self,
        info: &NodeInfo,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        let (depth, ply, static_eval) = (info.depth, info.ply, info.static_eval);
        if USE_FUTILITY && beta.abs() < MATE_BOUND {
            if depth <= razor_depth() && static_eval + razor_margin() * depth < alpha {
                let v = self.quiesce(alpha, beta, ply, info.threat);
                if v < alpha {
                    return Some(v);
                }
            }
            if depth <= futility_depth()
                && static_eval - futility_margin() * (depth - info.improving as i32) >= beta
            {
                return Some(static_eval);
            }
        }
        if info.excluded.is_none() && self.null_move_allowed(ply, depth, static_eval, beta) {
            if let Some(v) = self.null_move_search(beta, depth, ply, info.cut_node) {
                return Some(v);
            }
            if self.stopped {
                return Some(0);
            }
        }
        None
    }

    /// Whether a quiet non-PV node may try a null move: on, deep enough, well above beta, not
    /// right after another null move, and no shape of the opponent's that two moves in a row
    /// would turn into a win (a four-three, a double three, an open four or a five).
    pub(super) fn null_move_allowed(
        &self,
        ply: usize,
        depth: i32,
        static_eval: Score,
        beta: Score,
    ) -> bool {
        if nmp_min_depth() == 0 || depth < nmp_min_depth() || self.nulls[ply] {
            return false;
        }
        if beta.abs() >= MATE_BOUND || static_eval < beta + nmp_margin() {
            return false;
        }
        let opp = self.board.side_to_move().opp();
        [
            Pattern4::Flex3x2,
            Pattern4::Block4Flex3,
            Pattern4::Flex4,
            Pattern4::Five,
        ]
        .iter()
        .all(|&p4| self.board.pattern4_count(opp, p4) == 0)
    }

    /// Passes and searches the opponent's reply reduced with a null window at beta: its
    /// fail-high score when the pass alone holds beta (mates capped to beta), else `None`.
    pub(super) fn null_move_search(
        &mut self,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<Score> {
        let r = nmp_reduction() + depth / nmp_depth_divisor();
        let me = self.board.side_to_move();
        self.threatening[ply] = false;
        self.played[ply] = Pos::NONE;
        self.board.set_side_to_move(me.opp());
        self.nulls[ply + 1] = true;
        let child_depth = (depth - 1 - r) * ONE_PLY;
        let v = -self.node(-beta, -beta + 1, child_depth, ply + 1, false, !cut_node);
        self.nulls[ply + 1] = false;
        self.board.set_side_to_move(me);
        (v >= beta && !self.stopped).then_some(if v >= MATE_BOUND { beta } else { v })
    }

    /// The singular-extension test of a node whose table entry `h` holds a move that failed
    /// high deep enough: a reduced search of the other moves against a bar below the entry's
    /// value. When none reaches the bar, the table move is singular and is searched a ply
    /// deeper; when the bar is at or above beta and another move reaches it too, the node
    /// fails high at once (multi-cut).
    pub(super) fn singular_test(
        &mut self,
        h: TtHit,
        depth: i32,
        ply: usize,
        beta: Score,
        cut_node: bool,
    ) -> SingularTest {
        let tt_value = value_from_tt(h.value, ply);
        if depth < se_min_depth()
            || h.mv.is_none()
            || !matches!(h.bound, Bound::Lower | Bound::Exact)
            || h.depth < depth - se_tt_depth_slack()
            || tt_value.abs() >= MATE_BOUND
        {
            return SingularTest::Neither;
        }
        let bar = tt_value - se_margin() * depth;
        self.excluded_moves[ply] = h.mv;
        let v = self.node(
            bar - 1,
            bar,
            (depth - 1) / 2 * ONE_PLY,
            ply,
            false,
            cut_node,
        );
        self.excluded_moves[ply] = Pos::NONE;
        if v < bar {
            SingularTest::Extend
        } else if bar >= beta {
            SingularTest::MultiCut(bar)
        } else {
            SingularTest::Neither
        }
    }
}

/// What a singular-extension test found.
pub(super) enum SingularTest {
    /// The table move is singular: search it a ply deeper.
    Extend,
    /// Another move also holds the bar, which is at or above beta: fail high with this value.
    MultiCut(Score),
    /// Neither.
    Neither,
}

/// The move-count pruning limit of a node (see `mcp_base`; `usize::MAX` when off).
pub(super) fn move_count_limit(depth: i32, improving: bool) -> usize {
    if mcp_base() == 0 {
        return usize::MAX;
    }
    let grown = f64::from(depth.max(0)).powf(1.32) * f64::from(mcp_scale_pct()) / 100.0;
    ((f64::from(mcp_base()) + grown) / (2 - improving as i32) as f64) as usize
}
