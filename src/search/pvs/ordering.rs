//! Move ordering inside a search thread: what the ordering memory adds to a move's score,
//! and what a cutoff teaches it.

use crate::board::Threat;
use crate::core::Pos;

use super::super::params::*;
use super::{NodeInfo, Worker};

impl Worker<'_> {
    /// Adds to the ordering scores of a node's `moves` what the search has learnt: the table
    /// move above all, the killers, the counter move and the history. Whether the table move
    /// is among the moves.
    pub(super) fn order_moves(&mut self, moves: &mut [(Pos, i32)], info: &NodeInfo) -> bool {
        let mut has_tt_move = false;
        let me = info.me;
        let killers = self.hist.killers(info.ply);
        let prev = self.board.last_move().unwrap_or(Pos::NONE);
        let counter = self.hist.counter(me, prev);
        for m in moves.iter_mut() {
            if m.0 == info.tt_move {
                m.1 += TT_MOVE_ORDER;
                has_tt_move = true;
            } else if m.0 == killers[0] {
                m.1 += killer_bonus();
            } else if m.0 == killers[1] {
                m.1 += second_killer_bonus();
            } else if m.0 == counter {
                m.1 += counter_move_bonus();
            }
            m.1 += self.hist.score(me, m.0) / history_order_divisor();
        }
        has_tt_move
    }

    /// Teaches the move-ordering memory a searched beta cutoff by `best` after `tried`: at
    /// quiet nodes the killer, the counter move and the history scores; at nodes answering
    /// an open three the history scores only (their moves are answers, not quiet choices);
    /// elsewhere nothing.
    pub(super) fn record_cutoff(
        &mut self,
        threat: Threat,
        ply: usize,
        depth: i32,
        best: Pos,
        tried: &[Pos],
    ) {
        let me = self.board.side_to_move();
        match threat {
            Threat::None => {
                let prev = self.board.last_move().unwrap_or(Pos::NONE);
                self.hist.update(me, ply, depth, prev, best, tried);
            }
            Threat::Defend => self.hist.update_scores(me, depth, best, tried),
            _ => {}
        }
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
