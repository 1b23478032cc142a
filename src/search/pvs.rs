//! One search thread: principal-variation alpha-beta with TT, threats, LMR and VCF leaves.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use crate::board::{Board, Pattern4, Threat, UNDEFENDED_THREAT_LOSS_PLIES};
use crate::core::Pos;
use crate::eval;

use super::history::History;
use super::limits::Exclusions;
use super::lmr::Reductions;
use super::movegen;
use super::params::*;
use super::report::{RootEvent, RootEvents};
use super::score::{mate_in, mated_in, value_from_tt, value_to_tt, Score, MATE, MATE_BOUND};
use super::smp::InFlight;
use super::time::TimeManager;
use super::tt::{Bound, TTable};

mod leaf;
mod ordering;
mod pruning;

use ordering::{killer_over_fours, pick_next};
use pruning::{move_count_limit, SingularTest};

/// State shared by all threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TTable,
    pub stop: &'a AtomicBool,
    /// Set by the main thread when the search must end (limits reached or done).
    pub abort: AtomicBool,
    /// Nodes flushed by all threads.
    pub nodes: AtomicU64,
    pub start: Instant,
    /// Asked on every poll whether the hard maximum has passed.
    pub time: TimeManager,
    pub max_nodes: Option<u64>,
    pub threads: usize,
    /// Subtrees some thread is searching now (only used with several threads).
    pub in_flight: InFlight,
    /// Moves not to consider in given positions (`YXBLOCKPATH`; empty normally).
    pub excluded: &'a Exclusions,
    /// Where the main thread tells what happens to root moves (see [`Worker::announce_root`]).
    pub root_events: RootEvents<'a>,
}

impl Shared<'_> {
    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Pos,
    pub score: Score,
    pub prev_score: Score,
    pub pv: Vec<Pos>,
}

/// Per-thread search state.
pub(crate) struct Worker<'a> {
    pub id: usize,
    pub sh: &'a Shared<'a>,
    pub board: Board,
    pub nodes: u64,
    flushed: u64,
    next_poll: u64,
    pub seldepth: usize,
    pub hist: History,
    reductions: Reductions,
    pub stopped: bool,
    pv: Vec<Vec<Pos>>,
    move_bufs: Vec<Vec<(Pos, i32)>>,
    evals: Vec<Score>,
    /// `nulls[ply]`: the node at `ply` was reached by a null move (no two in a row).
    nulls: Vec<bool>,
    /// `excluded_moves[ply]`: the move a singular-extension test leaves out at `ply`.
    excluded_moves: Vec<Pos>,
    /// `threatening[ply]`: the move being searched at `ply` makes an open three or better for
    /// its mover (a continued attack two plies later is reduced less).
    threatening: Vec<bool>,
    /// Depth of the current root iteration.
    pub root_depth: i32,
    /// Root moves the last `search_root` call finished (a prefix of its list).
    pub root_completed: usize,
    /// `search_root` sends [`RootEvent`]s (the main thread, first line of an iteration).
    pub announce_root: bool,
}

impl<'a> Worker<'a> {
    /// A worker searching a copy of `board`.
    pub fn new(id: usize, sh: &'a Shared<'a>, board: &Board) -> Worker<'a> {
        Worker {
            id,
            sh,
            board: board.clone(),
            nodes: 0,
            flushed: 0,
            next_poll: POLL_INTERVAL,
            seldepth: 0,
            hist: History::default(),
            reductions: Reductions::new(),
            stopped: false,
            pv: (0..PLY_STACK_LEN)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            move_bufs: (0..PLY_STACK_LEN)
                .map(|_| Vec::with_capacity(MOVE_LIST_CAPACITY))
                .collect(),
            evals: vec![0; PLY_STACK_LEN],
            nulls: vec![false; PLY_STACK_LEN],
            excluded_moves: vec![Pos::NONE; PLY_STACK_LEN],
            threatening: vec![false; PLY_STACK_LEN],
            root_depth: 0,
            root_completed: 0,
            announce_root: false,
        }
    }

    /// Counts a node and polls the limits; true when the search must unwind.
    #[inline]
    pub fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.sh.threads == 1 {
            if let Some(m) = self.sh.max_nodes {
                if self.nodes >= m {
                    self.sh.abort.store(true, Relaxed);
                    self.stopped = true;
                }
            }
        }
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_INTERVAL;
            self.poll();
        }
        self.stopped
    }

    /// Flushes the node count and checks the stop flag, the clock and the node budget.
    pub fn poll(&mut self) {
        let total = self.sh.nodes.fetch_add(self.nodes - self.flushed, Relaxed)
            + (self.nodes - self.flushed);
        self.flushed = self.nodes;
        if self.sh.stop.load(Relaxed) {
            self.sh.abort.store(true, Relaxed);
        }
        if self.id == 0 && self.sh.time.past_maximum(self.sh.elapsed_ms()) {
            self.sh.abort.store(true, Relaxed);
        }
        if let Some(m) = self.sh.max_nodes {
            if total >= m {
                self.sh.abort.store(true, Relaxed);
            }
        }
        if self.sh.abort.load(Relaxed) {
            self.stopped = true;
        }
    }

    /// Flushes the remaining node count into the shared total.
    pub fn flush_nodes(&mut self) {
        self.sh.nodes.fetch_add(self.nodes - self.flushed, Relaxed);
        self.flushed = self.nodes;
    }

    fn update_pv(&mut self, ply: usize, mv: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    #[allow(clippy::needless_range_loop)]
    /// Searches the root moves `rms` (already ordered) to `depth` within (alpha, beta).
    /// Updates each searched move's score and line; returns the best score (or alpha-ish when
    /// stopped). Moves not searched because of a stop keep `-MATE` as score.
    pub fn search_root(
        &mut self,
        rms: &mut [RootMove],
        mut alpha: Score,
        beta: Score,
        depth: i32,
    ) -> Score {
        self.root_depth = depth;
        self.root_completed = 0;
        let mut best = -MATE;
        for i in 0..rms.len() {
            let mv = rms[i].mv;
            if self.announce_root {
                (self.sh.root_events)(RootEvent::Searching {
                    mv,
                    depth: depth as u32,
                });
            }
            self.threatening[0] = continued_attack_reduction() > 0
                && self.board.pattern4(mv, self.board.side_to_move()) >= Pattern4::Flex3;
            self.board.make_move(mv);
            self.pv[1].clear();
            let mut score;
            if i == 0 {
                score = -self.node(-beta, -alpha, depth - 1, 1, true, false);
            } else {
                let r = if USE_LMR && depth > lmr_min_depth() && i >= root_lmr_min_moves() {
                    root_lmr_reduction()
                } else {
                    0
                };
                score = -self.node(-alpha - 1, -alpha, depth - 1 - r, 1, false, true);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.node(-alpha - 1, -alpha, depth - 1, 1, false, true);
                }
                if score > alpha && score < beta && !self.stopped {
                    self.pv[1].clear();
                    score = -self.node(-beta, -alpha, depth - 1, 1, true, false);
                }
            }
            self.board.undo();
            if self.stopped {
                break;
            }
            self.root_completed = i + 1;
            if self.announce_root {
                (self.sh.root_events)(RootEvent::Searched {
                    mv,
                    depth: depth as u32,
                    new_best: i == 0 || score > alpha,
                    lost: score <= -MATE_BOUND,
                });
            }
            if i == 0 || score > alpha {
                rms[i].score = score;
                let mut line = vec![mv];
                line.extend_from_slice(&self.pv[1]);
                rms[i].pv = line;
            } else {
                rms[i].score = -MATE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The recursive principal-variation search at `ply` (the root is ply 0).
    pub fn node(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Score {
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.board.empty_count() == 0 {
            return 0;
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let threat = self.board.threat();
        let mut depth = depth;
        let extend = (ply as i32) < extension_ply_cap() * self.root_depth;
        match threat {
            Threat::Win(n) => return mate_in(ply + n as usize),
            Threat::Loss(n) => return mated_in(ply + n as usize),
            // The forced block of a four: searched `block_extension` plies deeper (below
            // `extension_ply_cap` times the iteration's depth), and never the end of a line.
            Threat::Block(_) if extend => depth = (depth + block_extension()).max(1),
            Threat::Block(_) => depth = depth.max(1),
            // An open three to answer: the few replies may be searched a ply deeper.
            Threat::Defend if extend && depth >= defend_ext_min_depth() => {
                depth += defend_extension()
            }
            _ => {}
        }
        if ply >= MAX_SEARCH_PLY {
            return eval::evaluate(&self.board);
        }
        if depth <= 0 {
            return self.leaf(alpha, beta, ply, threat);
        }

        let key = self.board.hash();
        let tte = self.sh.tt.probe(key);
        let excluded = self.excluded_moves[ply];
        let mut tt_move = Pos::NONE;
        if let Some(h) = tte {
            tt_move = h.mv;
            let v = value_from_tt(h.value, ply);
            if !pv_node
                && excluded.is_none()
                && h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    Bound::None => false,
                }
            {
                if tt_cut_history() > 0 && v >= beta && !tt_move.is_none() {
                    self.reward_tt_cut(threat, ply, depth, tt_move);
                }
                return v;
            }
        }
        if iir_min_depth() > 0
            && depth >= iir_min_depth()
            && tt_move.is_none()
            && (pv_node || cut_node)
        {
            depth -= 1;
        }
        let static_eval = match tte {
            Some(h) if h.bound != Bound::None || h.eval != 0 => h.eval,
            _ => eval::evaluate(&self.board),
        };
        self.evals[ply] = static_eval;
        let improving = ply >= 2 && static_eval > self.evals[ply - 2];

        let quiet_node = matches!(threat, Threat::None);
        if USE_FUTILITY && !pv_node && quiet_node && beta.abs() < MATE_BOUND {
            // Razoring: hopeless positions drop straight into the threat quiescence.
            if depth <= razor_depth() && static_eval + razor_margin() * depth < alpha {
                let v = self.quiesce(alpha, beta, ply, threat);
                if v < alpha {
                    return v;
                }
            }
            // Futility: a comfortable margin above beta at low depth.
            if depth <= futility_depth()
                && static_eval - futility_margin() * (depth - improving as i32) >= beta
            {
                return static_eval;
            }
        }

        if !pv_node
            && quiet_node
            && excluded.is_none()
            && self.null_move_allowed(ply, depth, static_eval, beta)
        {
            if let Some(v) = self.null_move_search(beta, depth, ply, cut_node) {
                return v;
            }
            if self.stopped {
                return 0;
            }
        }

        let mut singular = false;
        if let Some(h) = tte.filter(|_| excluded.is_none() && se_min_depth() > 0) {
            match self.singular_test(h, depth, ply, beta, cut_node) {
                SingularTest::Extend => singular = true,
                SingularTest::MultiCut(v) => return v,
                SingularTest::Neither => {}
            }
            if self.stopped {
                return 0;
            }
        }

        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        moves.clear();
        movegen::generate(&mut self.board, threat, &mut moves);
        if !self.sh.excluded.at.is_empty() {
            let here = self.board.hash();
            moves.retain(|m| !self.sh.excluded.excludes(here, m.0));
        }
        if moves.is_empty() {
            self.move_bufs[ply] = moves;
            // No defence against the opponent's threat: its open four follows.
            return if matches!(threat, Threat::Defend) {
                mated_in(ply + UNDEFENDED_THREAT_LOSS_PLIES as usize)
            } else {
                0
            };
        }
        let me = self.board.side_to_move();
        let killers = self.hist.killers(ply);
        let prev = self.board.last_move().unwrap_or(Pos::NONE);
        let counter = if USE_COUNTER_MOVE {
            self.hist.counter(me, prev)
        } else {
            Pos::NONE
        };
        for m in moves.iter_mut() {
            if m.0 == tt_move {
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

        let mcp_limit = move_count_limit(depth, improving);
        let likely_fail_high = fhr_margin() > 0
            && !pv_node
            && cut_node
            && static_eval >= beta + fhr_bias() + fhr_margin() * depth;
        let orig_alpha = alpha;
        let mut best = -MATE;
        let mut best_move = Pos::NONE;
        let mut tried = [Pos::NONE; MAX_TRIED_MOVES];
        let mut n_tried = 0;
        let n = moves.len();
        // Moves put off because another thread is searching them (ABDADA): (move, order,
        // index in the ordered list). Searched after the rest, with their first index.
        let share = USE_ABDADA && self.sh.threads > 1 && depth >= abdada_min_depth();
        let mut deferred = [(Pos::NONE, 0, 0usize); MAX_DEFERRED_MOVES];
        let (mut n_deferred, mut next_deferred) = (0, 0);
        let mut next = 0;
        loop {
            let (mv, order, i, may_defer) = if next < n {
                // Selection ordering: most nodes cut off after a few moves, so a full sort
                // of the list would mostly be wasted.
                let (mv, order) = pick_next(&mut moves, next);
                next += 1;
                (mv, order, next - 1, share && next > 1)
            } else if next_deferred < n_deferred {
                let (mv, order, i) = deferred[next_deferred];
                next_deferred += 1;
                (mv, order, i, false)
            } else {
                break;
            };
            if mv == excluded {
                continue;
            }
            let forcing = order >= FORCING_ORDER;
            let trivial = (trivial_reduction() > 0 || trivial_prune_depth() > 0)
                && !forcing
                && self.is_trivial(mv);
            // Late-move pruning of quiet moves in non-PV nodes.
            if !pv_node
                && quiet_node
                && i > 0
                && !forcing
                && best > -MATE_BOUND
                && depth <= lmp_max_depth()
                && i >= lmp_base() + (depth * depth) as usize
            {
                // The rest of the ordered list is pruned; deferred moves still get their turn.
                next = n;
                continue;
            }
            if quiet_node && i > 0 && !forcing && best > -MATE_BOUND {
                // Move-count pruning: the rest of the ordered list goes.
                if i >= mcp_limit {
                    next = n;
                    continue;
                }
                // Trivial moves: no shape of either side there.
                if depth < trivial_prune_depth() && trivial {
                    continue;
                }
            }
            let threatening =
                continued_attack_reduction() > 0 && self.board.pattern4(mv, me) >= Pattern4::Flex3;
            let plain_four = reduce_plain_fours() > 0 && quiet_node && self.is_plain_four(mv);
            self.threatening[ply] = threatening;
            self.board.make_move(mv);
            let child = self.board.hash();
            if may_defer && n_deferred < deferred.len() && self.sh.in_flight.is_busy(child) {
                self.board.undo();
                deferred[n_deferred] = (mv, order, i);
                n_deferred += 1;
                continue;
            }
            if share {
                self.sh.in_flight.enter(child);
            }
            let new_depth = depth - 1 - (likely_fail_high && !forcing) as i32
                + (singular && mv == tt_move) as i32;
            let mut score;
            if i == 0 {
                score = -self.node(-beta, -alpha, new_depth, ply + 1, pv_node, !cut_node);
            } else {
                let mut r = 0;
                if USE_LMR
                    && depth >= lmr_min_depth()
                    && i >= lmr_min_moves()
                    && (!forcing || plain_four)
                    && (quiet_node || (defend_lmr() > 0 && matches!(threat, Threat::Defend)))
                {
                    r = self.reductions.get(depth, i);
                    if pv_node {
                        r -= 1;
                    }
                    if cut_node {
                        r += lmr_cut_node();
                    }
                    if lmr_history_div() > 0 {
                        let h = self.hist.score(me, mv) / lmr_history_div();
                        r -= h.clamp(-LMR_HISTORY_MAX, LMR_HISTORY_MAX);
                    }
                    if improving {
                        r -= 1;
                    }
                    if trivial {
                        r += trivial_reduction();
                    }
                    if threatening && ply >= 2 && self.threatening[ply - 2] {
                        r -= continued_attack_reduction();
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.node(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.node(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if pv_node && score > alpha && score < beta && !self.stopped {
                    score = -self.node(-beta, -alpha, new_depth, ply + 1, true, false);
                }
            }
            if share {
                self.sh.in_flight.leave(child);
            }
            self.board.undo();
            if self.stopped {
                self.move_bufs[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.record_cutoff(threat, ply, depth, mv, &tried[..n_tried]);
                        break;
                    }
                }
            }
            if n_tried < tried.len() {
                tried[n_tried] = mv;
                n_tried += 1;
            }
        }
        self.move_bufs[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() {
            self.sh.tt.store(
                key,
                best_move,
                value_to_tt(best, ply),
                static_eval,
                depth,
                bound,
            );
        }
        best
    }
}
