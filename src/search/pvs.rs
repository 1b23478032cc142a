//! One search thread: principal-variation alpha-beta with TT, threats, LMR and VCF leaves.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use crate::board::{Board, Pattern4, Threat, UNDEFENDED_THREAT_LOSS_PLIES};
use crate::core::{Color, Pos};
use crate::eval;

use super::history::History;
use super::limits::{Exclusions, LeafSamples};
use super::lmr::Reductions;
use super::movegen::{self, PolicyMemo};
use super::params::*;
use super::report::{RootEvent, RootEvents};
use super::score::{mate_in, mated_in, value_to_tt, Score, MATE, MATE_BOUND};
use super::smp::InFlight;
use super::time::TimeManager;
use super::tt::{Bound, TTable, TtHit};

mod leaf;
mod moves;
mod ordering;
mod pruning;

/// What a node's pruning tests, move ordering and move loop read about it.
#[derive(Clone, Copy)]
struct NodeInfo {
    /// Remaining depth in whole plies (rounded), extensions and internal reductions applied.
    depth: i32,
    /// The same in [`ONE_PLY`] units.
    depth_units: i32,
    ply: usize,
    pv_node: bool,
    cut_node: bool,
    /// The threat on the board (`Threat::None`: a quiet node).
    threat: Threat,
    /// The side to move.
    me: Color,
    /// The transposition table's move (`Pos::NONE` if none).
    tt_move: Pos,
    static_eval: Score,
    /// The static evaluation rose since the mover's previous turn.
    improving: bool,
}

impl NodeInfo {
    /// No threat to answer: the node where pruning and reductions apply.
    fn quiet(&self) -> bool {
        matches!(self.threat, Threat::None)
    }
}

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
    /// Where sampled leaves go (training data; `None` in play).
    pub leaf_samples: Option<&'a LeafSamples>,
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
    /// The tunables of the board's rule.
    tuned: RuleTunables,
    reductions: Reductions,
    pub stopped: bool,
    pv: Vec<Vec<Pos>>,
    move_bufs: Vec<Vec<(Pos, i32)>>,
    /// `policy[ply]`: the network's policy logits of the moves of the node at `ply`.
    policy: Vec<PolicyMemo>,
    evals: Vec<Score>,
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
        let tuned = RuleTunables::for_rule(board.rule().kind);
        Worker {
            id,
            sh,
            board: board.clone(),
            nodes: 0,
            flushed: 0,
            next_poll: POLL_INTERVAL,
            seldepth: 0,
            hist: History::default(),
            tuned,
            reductions: Reductions::new(tuned.lmr_log_div),
            stopped: false,
            pv: (0..PLY_STACK_LEN)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            move_bufs: (0..PLY_STACK_LEN)
                .map(|_| Vec::with_capacity(MOVE_LIST_CAPACITY))
                .collect(),
            policy: (0..PLY_STACK_LEN)
                .map(|_| PolicyMemo::for_board(board))
                .collect(),
            evals: vec![0; PLY_STACK_LEN],
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
            let score = self.search_root_move(i, mv, (alpha, beta), depth);
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
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Searches the `i`-th root move `mv` to `depth` within `(alpha, beta)`: the first with
    /// the full window, a later one with a null window (reduced late in the list, then
    /// unreduced if it beats alpha) and again with the full window if it lands inside it.
    fn search_root_move(
        &mut self,
        i: usize,
        mv: Pos,
        (alpha, beta): (Score, Score),
        depth: i32,
    ) -> Score {
        self.threatening[0] = self.tuned.continued_attack_reduction > 0
            && self.board.pattern4(mv, self.board.side_to_move()) >= Pattern4::Flex3;
        self.board.make_move(mv);
        self.pv[1].clear();
        let child_depth = (depth - 1) * ONE_PLY;
        let score = if i == 0 {
            -self.node(-beta, -alpha, child_depth, 1, true, false)
        } else {
            let r = if depth > lmr_min_depth() && i >= root_lmr_min_moves() {
                root_lmr_reduction() * ONE_PLY
            } else {
                0
            };
            let mut score = -self.node(-alpha - 1, -alpha, child_depth - r, 1, false, true);
            if score > alpha && r > 0 && !self.stopped {
                score = -self.node(-alpha - 1, -alpha, child_depth, 1, false, true);
            }
            if score > alpha && score < beta && !self.stopped {
                self.pv[1].clear();
                score = -self.node(-beta, -alpha, child_depth, 1, true, false);
            }
            score
        };
        self.board.undo();
        score
    }

    /// The recursive principal-variation search at `ply` (the root is ply 0), `depth` in
    /// [`ONE_PLY`] units.
    pub fn node(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Score {
        (alpha, beta) = match self.enter_node(alpha, beta, ply) {
            Ok(window) => window,
            Err(v) => return v,
        };
        let threat = self.board.threat();
        let depth = match self.threat_depth(threat, depth, ply) {
            Ok(depth) => depth,
            Err(mate) => return mate,
        };
        if matches!(threat, Threat::None | Threat::Defend) {
            if let Some(plies) = self.board.quick_win() {
                return mate_in(ply + plies as usize);
            }
        }
        if ply >= MAX_SEARCH_PLY {
            return eval::evaluate(&self.board);
        }
        if plies(depth) <= 0 {
            return self.leaf(alpha, beta, ply);
        }

        let key = self.board.hash();
        let tte = self.sh.tt.probe(key);
        if let Some(h) = tte.filter(|_| !pv_node) {
            if let Some(v) = pruning::tt_cutoff(h, alpha, beta, plies(depth), ply) {
                return v;
            }
        }
        let info = self.node_info(tte, depth, ply, pv_node, cut_node, threat);
        if !pv_node && info.quiet() {
            if let Some(v) = self.prune_quiet_node(&info, alpha, beta) {
                return v;
            }
        }
        let (best, best_move) = match self.search_node_moves(&info, alpha, beta) {
            Ok(result) => result,
            Err(v) => return v,
        };
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = TtHit {
            mv: best_move,
            value: value_to_tt(best, ply),
            eval: info.static_eval,
            depth: info.depth,
            bound,
        };
        self.sh.tt.store_entry(key, entry);
        best
    }

    /// What the node's pruning, ordering and move loop read, from its table entry `tte`:
    /// the depth after the internal reduction (a node expected to matter that has no table
    /// move searches a ply shallower) and the static evaluation (the table's when it holds
    /// one), which is also kept by ply for the `improving` test.
    #[inline]
    fn node_info(
        &mut self,
        tte: Option<TtHit>,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        threat: Threat,
    ) -> NodeInfo {
        let tt_move = tte.map_or(Pos::NONE, |h| h.mv);
        if iir_min_depth() > 0
            && plies(depth) >= iir_min_depth()
            && tt_move.is_none()
            && (pv_node || cut_node)
        {
            depth -= ONE_PLY;
        }
        let static_eval = match tte {
            // With a value network the pruning reads the classical evaluation (the network
            // at every node measured weaker), and the leaves add the network's correction.
            _ if self.board.has_value_network() => eval::evaluate_classical(&self.board),
            Some(h) if h.bound != Bound::None || h.eval != 0 => h.eval,
            _ => eval::evaluate(&self.board),
        };
        self.evals[ply] = static_eval;
        NodeInfo {
            depth: plies(depth),
            depth_units: depth,
            ply,
            pv_node,
            cut_node,
            threat,
            me: self.board.side_to_move(),
            tt_move,
            static_eval,
            improving: ply >= 2 && static_eval > self.evals[ply - 2],
        }
    }

    /// Generates, orders and searches the node's moves: the best score and move, or `Err`
    /// with the node's value when it has no move to search.
    #[inline]
    fn search_node_moves(
        &mut self,
        info: &NodeInfo,
        alpha: Score,
        beta: Score,
    ) -> Result<(Score, Pos), Score> {
        let policy_weight = if info.depth >= policy_min_depth() {
            policy_order()
        } else {
            0
        };
        let mut moves = self.generate_moves(info.ply, info.threat, policy_weight)?;
        if !self.order_moves(&mut moves, info) {
            // The policy orders the first move too; with a table move it waits until that
            // move has failed to cut the node off (`search_moves`).
            self.read_policy(info.ply, &mut moves);
        }
        let result = self.search_moves(&mut moves, info, alpha, beta);
        self.move_bufs[info.ply] = moves;
        Ok(result)
    }

    /// Counts a node entered at `ply` and narrows its window by the mate distance: `Err`
    /// with the node's value when the search stops, the board is full or the window closes.
    fn enter_node(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Result<(Score, Score), Score> {
        self.pv[ply].clear();
        if self.count_node() {
            return Err(0);
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.board.empty_count() == 0 {
            return Err(0);
        }
        let alpha = alpha.max(mated_in(ply));
        let beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// The moves of the node at `ply` (in its reusable buffer, which the caller gives back),
    /// ordered with the network's policy at `policy_weight`, less those the search must leave
    /// out; `Err` with the node's value when there are none.
    fn generate_moves(
        &mut self,
        ply: usize,
        threat: Threat,
        policy_weight: i32,
    ) -> Result<Vec<(Pos, i32)>, Score> {
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        moves.clear();
        let memo = &mut self.policy[ply];
        movegen::generate(&mut self.board, threat, policy_weight, &mut moves, memo);
        if !self.sh.excluded.at.is_empty() {
            let here = self.board.hash();
            moves.retain(|m| !self.sh.excluded.excludes(here, m.0));
        }
        if !moves.is_empty() {
            return Ok(moves);
        }
        self.move_bufs[ply] = moves;
        // No defence against the opponent's threat: its open four follows.
        Err(if matches!(threat, Threat::Defend) {
            mated_in(ply + UNDEFENDED_THREAT_LOSS_PLIES as usize)
        } else {
            0
        })
    }

    /// Adds the policy pending at `ply` (if any) to the scores of the node's `moves`.
    fn read_policy(&mut self, ply: usize, moves: &mut [(Pos, i32)]) {
        movegen::read_policy(&self.board, moves, &mut self.policy[ply]);
    }

    /// Whether a node at `ply` may still be extended: below `extension_cap_pct` % of the
    /// iteration's depth.
    fn may_extend(&self, ply: usize) -> bool {
        (ply as i32) * 100 < self.tuned.extension_cap_pct * self.root_depth
    }

    /// The depth a node searches to ([`ONE_PLY`] units), given the threat on its board (`Err`
    /// with the score when the threat decides the game): the forced block of a four is
    /// searched `block_extension` deeper and never ends a line; the few answers to an open
    /// three are searched `defend_extension` deeper. Extensions stop at `extension_cap_pct` %
    /// of the iteration's depth.
    fn threat_depth(&self, threat: Threat, depth: i32, ply: usize) -> Result<i32, Score> {
        let extend = self.may_extend(ply);
        Ok(match threat {
            Threat::Win(n) => return Err(mate_in(ply + n as usize)),
            Threat::Loss(n) => return Err(mated_in(ply + n as usize)),
            Threat::Block(_) if extend => (depth + self.tuned.block_extension).max(ONE_PLY),
            Threat::Block(_) => depth.max(ONE_PLY),
            Threat::Defend if extend => depth + self.tuned.defend_extension,
            _ => depth,
        })
    }
}
