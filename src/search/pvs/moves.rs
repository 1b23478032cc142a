//! The move loop of a search node: the order moves come in (with the moves another thread is
//! searching put off), late-move pruning, late-move reductions and the principal-variation
//! re-searches.

use crate::board::{Pattern4, Threat};
use crate::core::Pos;
use crate::net::POLICY_ONE;

use super::super::params::*;
use super::super::score::{Score, MATE, MATE_BOUND};
use super::ordering::pick_next;
use super::{NodeInfo, Worker};

/// The order in which a node's moves come: its ordered list by selection, then the moves put
/// off because another thread was searching them (ABDADA), each with its first index.
struct MoveQueue {
    /// Next index of the ordered list.
    next: usize,
    /// Moves put off: (move, order, index in the ordered list).
    deferred: [(Pos, i32, usize); MAX_DEFERRED_MOVES],
    n_deferred: usize,
    next_deferred: usize,
    /// Moves may be put off at all (several threads, deep enough).
    share: bool,
}

impl MoveQueue {
    /// The next move: (move, ordering score, index, whether it may be put off).
    fn next(&mut self, moves: &mut [(Pos, i32)]) -> Option<(Pos, i32, usize, bool)> {
        if self.next < moves.len() {
            // Selection ordering: most nodes cut off after a few moves, so a full sort of
            // the list would mostly be wasted.
            let (mv, order) = pick_next(moves, self.next);
            self.next += 1;
            Some((mv, order, self.next - 1, self.share && self.next > 1))
        } else if self.next_deferred < self.n_deferred {
            let (mv, order, i) = self.deferred[self.next_deferred];
            self.next_deferred += 1;
            Some((mv, order, i, false))
        } else {
            None
        }
    }

    /// Drops the rest of the ordered list (moves put off still come).
    fn skip_rest(&mut self, moves: &[(Pos, i32)]) {
        self.next = moves.len();
    }

    /// There is room to put off another move.
    fn has_room(&self) -> bool {
        self.n_deferred < self.deferred.len()
    }

    /// Puts `mv` off until the ordered list is done.
    fn defer(&mut self, mv: Pos, order: i32, i: usize) {
        self.deferred[self.n_deferred] = (mv, order, i);
        self.n_deferred += 1;
    }
}

impl Worker<'_> {
    /// Searches the ordered `moves` of a node with window (`alpha`, `beta`). Returns the best
    /// score and the move that raised alpha (`Pos::NONE` if none did); after a stop the
    /// caller must drop the result.
    pub(super) fn search_moves(
        &mut self,
        moves: &mut [(Pos, i32)],
        info: &NodeInfo,
        mut alpha: Score,
        beta: Score,
    ) -> (Score, Pos) {
        let NodeInfo { depth, ply, .. } = *info;
        let (mut best, mut best_move) = (-MATE, Pos::NONE);
        let mut tried = [Pos::NONE; MAX_TRIED_MOVES];
        let mut n_tried = 0;
        let share = self.sh.threads > 1 && depth >= abdada_min_depth();
        let mut queue = MoveQueue {
            next: 0,
            deferred: [(Pos::NONE, 0, 0); MAX_DEFERRED_MOVES],
            n_deferred: 0,
            next_deferred: 0,
            share,
        };
        loop {
            if queue.next == 1 {
                // The first move did not cut the node off: the rest come in the policy's order.
                self.read_policy(ply, moves);
            }
            let Some((mv, order, i, may_defer)) = queue.next(moves) else {
                break;
            };
            let forcing = order >= FORCING_ORDER;
            if best > -MATE_BOUND && prunes_late_moves(info, i, forcing) {
                queue.skip_rest(moves);
                continue;
            }
            let threatening = self.tuned.continued_attack_reduction > 0
                && self.board.pattern4(mv, info.me) >= Pattern4::Flex3;
            self.threatening[ply] = threatening;
            self.board.make_move(mv);
            let child = self.board.hash();
            self.sh.tt.prefetch(child);
            if may_defer && queue.has_room() && self.sh.in_flight.is_busy(child) {
                self.board.undo();
                queue.defer(mv, order, i);
                continue;
            }
            if share {
                self.sh.in_flight.enter(child);
            }
            let new_depth = info.depth_units - ONE_PLY + move_extension(info, mv);
            let r = if i == 0 {
                0
            } else {
                self.late_move_reduction(info, (mv, i), threatening, new_depth)
            };
            let score = self.search_child(info, i, r, new_depth, (alpha, beta));
            if share {
                self.sh.in_flight.leave(child);
            }
            self.board.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if info.pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        let tried = &tried[..n_tried];
                        self.record_cutoff(info.threat, ply, depth, mv, tried);
                        break;
                    }
                }
            }
            if n_tried < tried.len() {
                tried[n_tried] = mv;
                n_tried += 1;
            }
        }
        (best, best_move)
    }

    /// Searches the `i`-th move of a node, already made on the board: the first with the full
    /// window, a later one with a null window reduced by `r`, then unreduced if it beats
    /// alpha, then (at PV nodes) with the full window if it lands inside it (depths in
    /// `ONE_PLY` units).
    fn search_child(
        &mut self,
        info: &NodeInfo,
        i: usize,
        r: i32,
        new_depth: i32,
        (alpha, beta): (Score, Score),
    ) -> Score {
        let (ply, pv_node, cut_node) = (info.ply, info.pv_node, info.cut_node);
        if i == 0 {
            return -self.node(-beta, -alpha, new_depth, ply + 1, pv_node, !cut_node);
        }
        let mut score = -self.node(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
        if score > alpha && r > 0 && !self.stopped {
            score = -self.node(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
        }
        if pv_node && score > alpha && score < beta && !self.stopped {
            score = -self.node(-beta, -alpha, new_depth, ply + 1, true, false);
        }
        score
    }

    /// The late-move reduction of the `i`-th move (not the first; forcing moves too) at a
    /// quiet node or one answering an open three: from the table by depth and move number,
    /// less at PV nodes and for a continued attack (`threatening`), more at cut nodes and at
    /// non-PV nodes whose evaluation does not improve, and by how far the network's policy
    /// puts the move below the node's best ([`policy_reduction`]); at most to a one-ply
    /// search. In `ONE_PLY` units, as `new_depth` is.
    fn late_move_reduction(
        &self,
        info: &NodeInfo,
        (mv, i): (Pos, usize),
        threatening: bool,
        new_depth: i32,
    ) -> i32 {
        let reducible_node = info.quiet() || matches!(info.threat, Threat::Defend);
        if info.depth < lmr_min_depth() || i < lmr_min_moves() || !reducible_node {
            return 0;
        }
        let mut r = self.reductions.get(info.depth, i);
        if info.pv_node {
            r -= lmr_pv_node();
        }
        if info.cut_node {
            r += lmr_cut_node();
        }
        if !info.improving && !info.pv_node && r > ONE_PLY {
            r += lmr_not_improving();
        }
        if threatening && info.ply >= 2 && self.threatening[info.ply - 2] {
            r -= self.tuned.continued_attack_reduction;
        }
        if let Some(gap) = self.policy[info.ply].gap(mv) {
            r += policy_reduction(gap, &self.tuned);
        }
        r.min(new_depth - ONE_PLY).max(0)
    }
}

/// The reduction (`ONE_PLY` units) added to a late move that the policy puts `gap` below the
/// node's best move ([`crate::net::POLICY_ONE`] = 1 nat): `policy_lmr` per nat past
/// `policy_lmr_pivot` hundredths of a nat (less, before it), within a ply less and two more;
/// both from `tuned`, the rule's values.
fn policy_reduction(gap: i32, tuned: &RuleTunables) -> i32 {
    let past = i64::from(gap) - i64::from(tuned.policy_lmr_pivot) * i64::from(POLICY_ONE) / 100;
    let r = past * i64::from(tuned.policy_lmr) / i64::from(POLICY_ONE);
    r.clamp(-i64::from(ONE_PLY), 2 * i64::from(ONE_PLY)) as i32
}

/// Depth (`ONE_PLY` units) added to move `mv` of a node: `tt_move_ext_pv` / `tt_move_ext`
/// for the table move.
fn move_extension(info: &NodeInfo, mv: Pos) -> i32 {
    if mv != info.tt_move {
        0
    } else if info.pv_node {
        tt_move_ext_pv()
    } else {
        tt_move_ext()
    }
}

/// Late-move pruning at quiet non-PV nodes of low depth, for the `i`-th move (not the
/// first, not `forcing`) once a move has been found that does not lose: past `lmp_base` +
/// depth² moves the rest of the list goes.
fn prunes_late_moves(info: &NodeInfo, i: usize, forcing: bool) -> bool {
    let depth = info.depth;
    info.quiet()
        && i > 0
        && !forcing
        && !info.pv_node
        && depth <= lmp_max_depth()
        && i >= lmp_base() + (depth * depth) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::RuleKind;

    #[test]
    fn the_policy_reduces_moves_below_its_pivot_less_and_the_rest_more_within_bounds() {
        let nat = i64::from(POLICY_ONE);
        for rule in [RuleKind::Freestyle, RuleKind::Renju] {
            let tuned = RuleTunables::for_rule(rule);
            let pivot = i64::from(tuned.policy_lmr_pivot) * nat / 100;
            assert_eq!(policy_reduction(pivot as i32, &tuned), 0);
            let mut last = i32::MIN;
            for hundredths in 0..2000 {
                let gap = (i64::from(hundredths) * nat / 100) as i32;
                let r = policy_reduction(gap, &tuned);
                let exact = (i64::from(gap) - pivot) * i64::from(tuned.policy_lmr) / nat;
                let bounds = (-i64::from(ONE_PLY), 2 * i64::from(ONE_PLY));
                assert_eq!(
                    i64::from(r),
                    exact.clamp(bounds.0, bounds.1),
                    "{rule:?} {hundredths}"
                );
                assert!(r >= last);
                last = r;
            }
            let most = if tuned.policy_lmr > 0 { 2 * ONE_PLY } else { 0 };
            assert_eq!(policy_reduction(i32::MAX, &tuned), most);
        }
        // At freestyle's defaults (50 a nat past 2 nats): the best move a ply less, 4 nats
        // below a ply more, 10 nats below the cap of two.
        let tuned = RuleTunables::for_rule(RuleKind::Freestyle);
        let nats = |n: i32| policy_reduction(n * POLICY_ONE, &tuned);
        assert_eq!(
            [nats(0), nats(2), nats(3), nats(4), nats(10)],
            [-100, 0, 50, 100, 200]
        );
    }
}
