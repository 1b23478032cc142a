//! The move loop of a search node: the order moves come in (with the moves another thread is
//! searching put off), late-move pruning, late-move reductions and the principal-variation
//! re-searches.

use crate::board::{Pattern4, Threat};
use crate::core::{Color, Pos};

use super::super::params::*;
use super::super::score::{Score, MATE, MATE_BOUND};
use super::ordering::pick_next;
use super::pruning::move_count_limit;
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

/// What the pruning and reductions of the move loop tell apart about a move.
#[derive(Clone, Copy)]
struct MoveKind {
    /// Ordered as forcing (own four, block of a big threat): never pruned, reduced only with
    /// `lmr_forcing` (or as a plain four with `reduce_plain_fours`).
    forcing: bool,
    /// No shape of either side at the point (`is_trivial`).
    trivial: bool,
    /// Late-move reduction (`ONE_PLY` units) read off the point before the move is made:
    /// [`Worker::point_reduction`].
    point_reduction: i32,
    /// A killer spared the cut-node reduction ([`Worker::spares_killer`]).
    spared_killer: bool,
}

/// What late-move pruning does with a move.
enum LateMove {
    /// Search it.
    Search,
    /// Skip it.
    Skip,
    /// Skip it and the rest of the ordered list.
    SkipRest,
}

impl Worker<'_> {
    /// Searches the ordered `moves` of a node with window (`alpha`, `beta`); `singular`: the
    /// table move is searched a ply deeper. Returns the best score and the move that raised
    /// alpha (`Pos::NONE` if none did); after a stop the caller must drop the result.
    pub(super) fn search_moves(
        &mut self,
        moves: &mut [(Pos, i32)],
        info: &NodeInfo,
        singular: bool,
        mut alpha: Score,
        beta: Score,
    ) -> (Score, Pos) {
        let NodeInfo { depth, ply, .. } = *info;
        let mcp_limit = move_count_limit(depth, info.improving);
        let likely_fail_high = fhr_margin() > 0
            && !info.pv_node
            && info.cut_node
            && info.static_eval >= beta + fhr_bias() + fhr_margin() * depth;
        let (mut best, mut best_move) = (-MATE, Pos::NONE);
        let mut tried = [Pos::NONE; MAX_TRIED_MOVES];
        let mut n_tried = 0;
        let share = USE_ABDADA && self.sh.threads > 1 && depth >= abdada_min_depth();
        let mut queue = MoveQueue {
            next: 0,
            deferred: [(Pos::NONE, 0, 0); MAX_DEFERRED_MOVES],
            n_deferred: 0,
            next_deferred: 0,
            share,
        };
        while let Some((mv, order, i, may_defer)) = queue.next(moves) {
            if mv == info.excluded {
                continue;
            }
            let forcing = order >= FORCING_ORDER;
            let trivial = (trivial_reduction() > 0 || trivial_prune_depth() > 0)
                && !forcing
                && self.is_trivial(mv);
            let kind = MoveKind {
                forcing,
                trivial,
                point_reduction: self.point_reduction(info, mv),
                spared_killer: info.cut_node && self.spares_killer(info, mv),
            };
            if best > -MATE_BOUND {
                match late_move(info, i, kind, mcp_limit) {
                    LateMove::Search => {}
                    LateMove::Skip => continue,
                    LateMove::SkipRest => {
                        queue.skip_rest(moves);
                        continue;
                    }
                }
            }
            let threatening = continued_attack_reduction() > 0
                && self.board.pattern4(mv, info.me) >= Pattern4::Flex3;
            let plain_four = reduce_plain_fours() > 0 && info.quiet() && self.is_plain_four(mv);
            self.threatening[ply] = threatening;
            self.played[ply] = mv;
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
            let new_depth =
                info.depth_units - ONE_PLY - (likely_fail_high && !forcing) as i32 * ONE_PLY
                    + self.move_extension(info, mv, singular);
            let r = if i == 0 || (forcing && !plain_four && lmr_forcing() == 0) {
                0
            } else {
                self.late_move_reduction(info, i, mv, kind, threatening, new_depth)
            };
            let score = self.search_child(info, i, r, new_depth, (alpha, beta), best);
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
    /// alpha (a ply deeper or shallower by [`research_adjustment`]), then (at PV nodes) with
    /// the full window if it lands inside it (depths in `ONE_PLY` units). `best`: the node's
    /// best score so far.
    fn search_child(
        &mut self,
        info: &NodeInfo,
        i: usize,
        r: i32,
        new_depth: i32,
        (alpha, beta): (Score, Score),
        best: Score,
    ) -> Score {
        let (ply, pv_node, cut_node) = (info.ply, info.pv_node, info.cut_node);
        if i == 0 {
            return -self.node(-beta, -alpha, new_depth, ply + 1, pv_node, !cut_node);
        }
        let reduced = new_depth - r;
        let mut depth = new_depth;
        let mut score = -self.node(-alpha - 1, -alpha, reduced, ply + 1, false, true);
        if score > alpha && r > 0 && !self.stopped {
            depth += research_adjustment(score, alpha, best, r, new_depth);
            if depth > reduced {
                score = -self.node(-alpha - 1, -alpha, depth, ply + 1, false, !cut_node);
            }
        }
        if pv_node && score > alpha && score < beta && !self.stopped {
            score = -self.node(-beta, -alpha, depth, ply + 1, true, false);
        }
        score
    }

    /// The late-move reduction of the `i`-th move `mv` (not the first; forcing only with
    /// `lmr_forcing`, or as a plain four): from the table by depth and move number, less at PV nodes, when improving
    /// and for moves with a good history or a continued attack (`threatening`), more at cut
    /// nodes and for trivial moves; at most to a one-ply search. In `ONE_PLY` units, as
    /// `new_depth` is.
    fn late_move_reduction(
        &self,
        info: &NodeInfo,
        i: usize,
        mv: Pos,
        kind: MoveKind,
        threatening: bool,
        new_depth: i32,
    ) -> i32 {
        let reducible_node =
            info.quiet() || (defend_lmr() > 0 && matches!(info.threat, Threat::Defend));
        if !USE_LMR || info.depth < lmr_min_depth() || i < lmr_min_moves() || !reducible_node {
            return 0;
        }
        let mut r = self.reductions.get(info.depth, i);
        if info.pv_node {
            r -= lmr_pv_node();
        }
        if info.tt_pv {
            r -= lmr_tt_pv();
        }
        if info.cut_node && !kind.spared_killer {
            r += lmr_cut_node();
        }
        if lmr_history_div() > 0 {
            let h = self.hist.score(info.me, mv) * ONE_PLY / lmr_history_div();
            r -= h.clamp(-LMR_HISTORY_MAX * ONE_PLY, LMR_HISTORY_MAX * ONE_PLY);
        }
        r += kind.point_reduction;
        if info.improving {
            r -= lmr_improving();
        } else if !info.pv_node && r > ONE_PLY {
            r += lmr_not_improving();
        }
        if kind.trivial {
            r += trivial_reduction();
        }
        if threatening && info.ply >= 2 && self.threatening[info.ply - 2] {
            r -= continued_attack_reduction();
        }
        r.min(new_depth - ONE_PLY).max(0)
    }

    /// The late-move reduction terms read off point `mv` before it is played (`ONE_PLY`
    /// units): less on a point forbidden to Black in renju (`lmr_false_forbid`); more, at a
    /// node answering an open three, for a move that does not take the opponent's four point
    /// and lies far from the opponent's or the mover's last move (`lmr_far_defence_*`).
    fn point_reduction(&self, info: &NodeInfo, mv: Pos) -> i32 {
        let mut r = 0;
        if lmr_false_forbid() > 0 && self.board.pattern4(mv, Color::Black) == Pattern4::Forbid {
            r -= lmr_false_forbid();
        }
        let far_defence = lmr_far_defence_opp() > 0 || lmr_far_defence_own() > 0;
        if far_defence
            && matches!(info.threat, Threat::Defend)
            && self.board.pattern4(mv, info.me.opp()) < Pattern4::Block4
        {
            let far = |back| {
                self.recent_move(info.ply, back)
                    .distance(mv)
                    .is_some_and(|d| d > USELESS_DEFENCE_DISTANCE)
            };
            if far(1) {
                r += lmr_far_defence_opp();
            }
            if far(2) {
                r += lmr_far_defence_own();
            }
        }
        r
    }

    /// The move played `back` plies before the node at `ply` (`Pos::NONE` for a null move or
    /// before the first stone).
    fn recent_move(&self, ply: usize, back: usize) -> Pos {
        if ply >= back {
            self.played[ply - back]
        } else {
            let (pos, _) = self.board.history().rev().nth(back - 1).unzip();
            pos.unwrap_or(Pos::NONE)
        }
    }

    /// With `lmr_cut_killer`, before `mv` is played: `mv` is one of the node's killers, the node answers no threat
    /// and the move makes less than an open three for its mover.
    fn spares_killer(&self, info: &NodeInfo, mv: Pos) -> bool {
        lmr_cut_killer() > 0
            && info.quiet()
            && self.hist.killers(info.ply).contains(&mv)
            && self.board.pattern4(mv, info.me) < Pattern4::Flex3
    }

    /// Depth (`ONE_PLY` units) added to move `mv` of a node: a ply for a singular table move,
    /// `tt_move_ext_pv` / `tt_move_ext` for another table move.
    fn move_extension(&self, info: &NodeInfo, mv: Pos, singular: bool) -> i32 {
        if mv != info.tt_move {
            0
        } else if singular {
            ONE_PLY
        } else if info.pv_node {
            tt_move_ext_pv()
        } else {
            tt_move_ext()
        }
    }
}

/// The depth change (`ONE_PLY` units) for the full-depth search of a reduced move that beat
/// alpha with `score`: a ply deeper when it beat alpha by more than `lmr_deeper_margin` plus
/// `lmr_deeper_per_ply` for each ply of the reduction `r`; with `lmr_shallower`, a ply
/// shallower when it is no better than the node's `best` so far plus a point per ply of
/// `new_depth` (0 when `lmr_deeper_margin` is 0).
fn research_adjustment(score: Score, alpha: Score, best: Score, r: i32, new_depth: i32) -> i32 {
    if lmr_deeper_margin() == 0 {
        return 0;
    }
    let deeper = score > alpha + lmr_deeper_margin() + lmr_deeper_per_ply() * r / ONE_PLY;
    let shallower = lmr_shallower() > 0 && score < best + plies(new_depth);
    (deeper as i32 - shallower as i32) * ONE_PLY
}

/// Late-move pruning at quiet nodes, for the `i`-th move (not the first, not forcing) once a
/// move has been found that does not lose: at non-PV nodes of low depth past `lmp_base` +
/// depth² moves, and anywhere past the move-count limit, the rest of the list goes; below
/// `trivial_prune_depth` a trivial move goes.
fn late_move(info: &NodeInfo, i: usize, kind: MoveKind, mcp_limit: usize) -> LateMove {
    if !info.quiet() || i == 0 || kind.forcing {
        return LateMove::Search;
    }
    let depth = info.depth;
    if !info.pv_node && depth <= lmp_max_depth() && i >= lmp_base() + (depth * depth) as usize {
        return LateMove::SkipRest;
    }
    if i >= mcp_limit {
        return LateMove::SkipRest;
    }
    if depth < trivial_prune_depth() && kind.trivial {
        return LateMove::Skip;
    }
    LateMove::Search
}
