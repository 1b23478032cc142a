//! Move ordering inside a search thread: the history part of a move's ordering score, what
//! a cutoff teaches the ordering memory, and the move kinds the ordering and reductions
//! tell apart.

use crate::board::{Pattern4, Threat};
use crate::core::{Color, Pos};

use super::super::params::*;
use super::{NodeInfo, Worker};

impl Worker<'_> {
    /// Adds to the ordering scores of a node's `moves` what the search has learnt: the table
    /// move above all, the killers, the counter move and the history.
    pub(super) fn order_moves(&mut self, moves: &mut [(Pos, i32)], info: &NodeInfo) {
        let (me, threat) = (info.me, info.threat);
        let killers = self.hist.killers(info.ply);
        let prev = self.board.last_move().unwrap_or(Pos::NONE);
        let counter = if USE_COUNTER_MOVE {
            self.hist.counter(me, prev)
        } else {
            Pos::NONE
        };
        for m in moves.iter_mut() {
            if m.0 == info.tt_move {
                m.1 += TT_MOVE_ORDER;
            } else if m.0 == killers[0] {
                m.1 += killer_bonus();
                m.1 = killer_over_fours(m.1, threat, 1);
            } else if m.0 == killers[1] {
                m.1 += second_killer_bonus();
                m.1 = killer_over_fours(m.1, threat, 0);
            } else if m.0 == counter {
                m.1 += counter_move_bonus();
            }
            m.1 += self.history_order(me, m.0);
            if cont_history() > 0 {
                m.1 += self.hist.cont_score(me, prev, m.0) / cont_order_divisor();
            }
        }
    }

    /// The history part of `mv`'s ordering score for the mover `me`.
    #[inline]
    pub(super) fn history_order(&self, me: Color, mv: Pos) -> i32 {
        if attack_history() > 0 && self.board.pattern4(mv, me) >= Pattern4::Flex3 {
            self.hist.attack_score(me, mv) / attack_order_divisor()
        } else {
            self.hist.score(me, mv) / history_order_divisor()
        }
    }

    /// Teaches the move-ordering memory a searched beta cutoff by `best` after `tried`: at
    /// quiet nodes the killer, the counter move and the history scores; at nodes answering
    /// an open three the history scores (`defend_history`); elsewhere nothing.
    pub(super) fn record_cutoff(
        &mut self,
        threat: Threat,
        ply: usize,
        depth: i32,
        best: Pos,
        tried: &[Pos],
    ) {
        let me = self.board.side_to_move();
        let prev = self.board.last_move().unwrap_or(Pos::NONE);
        let quiet_node = matches!(threat, Threat::None);
        let defend_node = defend_history() > 0 && matches!(threat, Threat::Defend);
        if !quiet_node && !defend_node {
            return;
        }
        if quiet_node && (attack_killers() > 0 || self.board.pattern4(best, me) < Pattern4::Flex3) {
            self.hist.update_killer(ply, best);
        }
        if quiet_node || defend_history() > 1 {
            self.hist.set_counter(me, prev, best);
        }
        if cont_history() > 0 {
            self.hist.update_cont(me, prev, depth, best, tried);
        }
        if attack_history() > 0 {
            let board = &self.board;
            let attack = |p: Pos| board.pattern4(p, me) >= Pattern4::Flex3;
            self.hist
                .update_split_scores(me, depth, best, tried, attack);
        } else {
            self.hist.update_scores(me, depth, best, tried);
        }
    }

    /// A table cutoff at or above beta by `tt_move` counts for the move-ordering memory like
    /// a searched cutoff (quiet nodes: history, killer and counter; nodes answering an open
    /// three: the history scores, as `defend_history` does).
    pub(super) fn reward_tt_cut(&mut self, threat: Threat, ply: usize, depth: i32, tt_move: Pos) {
        let me = self.board.side_to_move();
        match threat {
            Threat::None => {
                let prev = self.board.last_move().unwrap_or(Pos::NONE);
                self.hist.update(me, ply, depth, prev, tt_move, &[]);
            }
            Threat::Defend if defend_history() > 0 => {
                self.hist.update_scores(me, depth, tt_move, &[]);
            }
            _ => {}
        }
    }

    /// True when `mv` makes a four of the mover's without an open three and blocks nothing
    /// bigger than a three of the opponent's.
    pub(super) fn is_plain_four(&self, mv: Pos) -> bool {
        let me = self.board.side_to_move();
        matches!(
            self.board.pattern4(mv, me),
            Pattern4::Block4 | Pattern4::Block4Plus
        ) && self.board.pattern4(mv, me.opp()) < Pattern4::Block4Flex3
    }

    /// True when neither side has any shape at the empty point `mv`.
    pub(super) fn is_trivial(&self, mv: Pos) -> bool {
        let me = self.board.side_to_move();
        self.board.pattern4(mv, me) == Pattern4::None
            && self.board.pattern4(mv, me.opp()) == Pattern4::None
    }
}

/// Moves the best-ordered entry of `moves[i..]` to index `i` and returns it.
#[inline]
pub(super) fn pick_next(moves: &mut [(Pos, i32)], i: usize) -> (Pos, i32) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    moves.swap(i, best);
    moves[i]
}

/// A killer's ordering score `order` lifted above the plain fours at quiet nodes when
/// `killer_four_rank` says so (`first` is 1 for the first killer, which stays ahead).
#[inline]
fn killer_over_fours(order: i32, threat: Threat, first: i32) -> i32 {
    if killer_four_rank() > 0 && order < FORCING_ORDER && matches!(threat, Threat::None) {
        FORCING_ORDER + killer_four_rank() + first
    } else {
        order
    }
}
