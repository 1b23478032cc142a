//! The network's per-cell features kept up to date with the position: every empty cell's
//! activation (from its four line keys, `net::Network::cell_activation`) and their sum over
//! the board, the input of the network's heads.
//!
//! The state catches up lazily, when the evaluation asks ([`Board::net_pool`]): it remembers
//! which of the board's moves it includes, takes back whole batches of moves the board has
//! undone since (restoring the recorded activations) and applies the board's newer moves as
//! one batch, recomputing the cells on their lines from the board's present keys. So moves
//! that no evaluation sees between (threat searches, move trials) cost nothing. A batch's
//! cells were read from the position after all its moves, so a batch is taken back whole:
//! the search brings the state up to date at its root and at every inner node
//! ([`Board::sync_network`]), which keeps its batches one move long. Undo records are kept
//! per batch; a rebuild of the board (walls) starts the state afresh.

use std::sync::Arc;

use super::{Board, EMPTY};
use crate::core::{Color, Pos};
use crate::net::{Network, CHANNELS};

/// A cell's activation vector.
type Act = [i16; CHANNELS];

/// One batch of moves applied together: where it starts in `applied` and in the undo
/// records, and the pooled sum before it.
#[derive(Clone)]
struct Batch {
    start: u32,
    undo_start: u32,
    pool: [i32; CHANNELS],
}

/// The incremental network features of one board (see the module comment).
#[derive(Clone, Default)]
pub(super) struct Features {
    /// Per padded cell: its activation (zero for stones and off-board cells).
    act: Vec<Act>,
    /// Sum of `act` over the board.
    pool: [i32; CHANNELS],
    /// The board moves the state includes, oldest first.
    /// (Colours too: a takeback may put the other colour where a stone was.)
    applied: Vec<(Pos, Color)>,
    /// How many of `applied` the last rebuild took in (never taken back by batches).
    base: usize,
    batches: Vec<Batch>,
    /// (padded index, activation before) of every change the batches made.
    undo: Vec<(u32, Act)>,
    /// False until the first rebuild, and after any change that bypassed the history.
    valid: bool,
}

/// Batches and undo records reserved at a rebuild, so a search never grows the vectors.
const RESERVED_BATCHES: usize = 256;
const RESERVED_UNDO: usize = 256 * 41;

impl Features {
    /// Forgets the state: the next use rebuilds it.
    pub(super) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Brings the state to `board`'s position.
    fn sync(&mut self, board: &Board, net: &Network) {
        if !self.valid {
            return self.rebuild(board, net);
        }
        let history = &board.history;
        let common = self
            .applied
            .iter()
            .zip(history)
            .take_while(|(a, h)| **a == (h.pos, h.color))
            .count();
        if common < self.base {
            return self.rebuild(board, net);
        }
        while self.applied.len() > common {
            self.take_back_batch();
        }
        if self.applied.len() < history.len() {
            self.batches.push(Batch {
                start: self.applied.len() as u32,
                undo_start: self.undo.len() as u32,
                pool: self.pool,
            });
            for played in &history[self.applied.len()..] {
                self.apply_move(board, net, played.pos);
                self.applied.push((played.pos, played.color));
            }
        }
    }

    /// Takes back the last batch (there is one whenever `applied` is longer than `base`).
    fn take_back_batch(&mut self) {
        let Some(batch) = self.batches.pop() else {
            debug_assert!(false, "no batch to take back");
            return;
        };
        for &(i, old) in self.undo[batch.undo_start as usize..].iter().rev() {
            self.act[i as usize] = old;
        }
        self.undo.truncate(batch.undo_start as usize);
        self.pool = batch.pool;
        self.applied.truncate(batch.start as usize);
    }

    /// Recomputes every cell from the board.
    fn rebuild(&mut self, board: &Board, net: &Network) {
        self.act.clear();
        self.act.resize(board.grid.len(), [0; CHANNELS]);
        self.pool = [0; CHANNELS];
        for i in 0..board.grid.len() {
            if board.grid[i] == EMPTY {
                let a = cell_activation(board, net, i);
                add(&mut self.pool, &a, 1);
                self.act[i] = a;
            }
        }
        self.applied.clear();
        self.applied.reserve(board.width * board.height);
        self.applied
            .extend(board.history.iter().map(|h| (h.pos, h.color)));
        self.base = self.applied.len();
        self.batches.clear();
        self.batches.reserve(RESERVED_BATCHES);
        self.undo.clear();
        self.undo.reserve(RESERVED_UNDO);
        self.valid = true;
    }

    /// Recomputes the cells a stone at `p` (placed or since removed) can change: `p` and the
    /// cells within the network's window along its four lines.
    fn apply_move(&mut self, board: &Board, net: &Network, p: Pos) {
        if p.is_none() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { self.apply_move_avx2(board, net, p) };
        }
        self.apply_move_inline(board, net, p)
    }

    /// [`Features::apply_move`] compiled for AVX2 (the per-cell sums and the pool updates
    /// vectorise to 256-bit operations).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_move_avx2(&mut self, board: &Board, net: &Network, p: Pos) {
        self.apply_move_inline(board, net, p)
    }

    #[inline(always)]
    fn apply_move_inline(&mut self, board: &Board, net: &Network, p: Pos) {
        let centre = board.idx(p);
        self.refresh(board, net, centre);
        let reach = net.window() as isize / 2;
        for &off in &board.dirs {
            for o in 1..=reach {
                for q in [centre as isize - o * off, centre as isize + o * off] {
                    // Within 5 cells of an on-board cell along a line is inside the padded
                    // array; cells off the board are walls and never change.
                    let q = q as usize;
                    if board.grid[q] != super::WALL {
                        self.refresh(board, net, q);
                    }
                }
            }
        }
    }

    /// Recomputes cell `i`'s activation, recording the old one when it changes.
    #[inline(always)]
    fn refresh(&mut self, board: &Board, net: &Network, i: usize) {
        let new = if board.grid[i] == EMPTY {
            cell_activation(board, net, i)
        } else {
            [0; CHANNELS]
        };
        let old = self.act[i];
        if new != old {
            self.undo.push((i as u32, old));
            add(&mut self.pool, &old, -1);
            add(&mut self.pool, &new, 1);
            self.act[i] = new;
        }
    }
}

/// `pool += sign × a` per channel.
#[inline(always)]
fn add(pool: &mut [i32; CHANNELS], a: &Act, sign: i32) {
    for (s, &v) in pool.iter_mut().zip(a) {
        *s += sign * i32::from(v);
    }
}

/// The activation of empty padded cell `i` from the board's Black-view line keys, cut to the
/// network's window.
#[inline(always)]
fn cell_activation(board: &Board, net: &Network, i: usize) -> Act {
    net.cell_activation(window_keys(net, board.info[i].keys))
}

/// The network's keys of a cell: the Black halves of the board's 10-slot keys, cut to its
/// window by dropping as many outer slots on each side (slot 0 is the lowest digit;
/// freestyle boards keep the outer slots at zero).
#[inline(always)]
fn window_keys(net: &Network, keys: [u64; 4]) -> [usize; 4] {
    // The two windows a network may read, with constant divisors (a division by a
    // run-time power of three cost about 3 % of a search's time).
    match net.window() {
        10 => keys.map(|k| k as u32 as usize),
        8 => keys.map(|k| (k as u32 as usize) / 3 % 3usize.pow(8)),
        window => keys.map(|k| {
            let outer = 3usize.pow((10 - window) / 2);
            (k as u32 as usize) / outer % 3usize.pow(window)
        }),
    }
}

impl Board {
    /// Installs the network whose features the board keeps (`None`: none, and no cost). A
    /// network of another rule family than the board's is not installed (`None` instead).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        let family = crate::net::Family::of(self.rule.kind);
        let net = net.filter(|n| Some(n.family()) == family);
        let same = match (&self.net, &net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.net = net;
            self.features.get_mut().invalidate();
        }
    }

    /// The installed network, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Whether the board has a network with a value (the evaluation reads it).
    #[inline]
    pub fn has_value_network(&self) -> bool {
        self.net.as_ref().is_some_and(|n| n.has_value())
    }

    /// Brings the network's features up to date with this position (no-op without a
    /// network): a search calls it at inner nodes, so that the moves between one leaf and
    /// the next are taken back and applied one at a time, not as one batch redone whole.
    pub fn sync_network(&self) {
        if let Some(net) = &self.net {
            self.features.borrow_mut().sync(self, net);
        }
    }

    /// The sum of the empty cells' activations in this position (zero without a network).
    pub fn net_pool(&self) -> [i32; CHANNELS] {
        let Some(net) = &self.net else {
            return [0; CHANNELS];
        };
        let mut f = self.features.borrow_mut();
        f.sync(self, net);
        f.pool
    }

    /// The activation of point `p` in this position (zero for a stone, or without a network).
    pub fn net_activation(&self, p: Pos) -> [i16; CHANNELS] {
        self.with_net_activations(|act| act(p))
    }

    /// Installs the network whose policy orders moves (`None`: none). A network of another
    /// rule family than the board's, or without a policy, is not installed (`None` instead).
    pub fn set_policy_network(&mut self, net: Option<Arc<Network>>) {
        let family = crate::net::Family::of(self.rule.kind);
        self.policy_net = net.filter(|n| Some(n.family()) == family && n.has_policy());
    }

    /// The network whose policy orders moves, if any.
    pub fn policy_network(&self) -> Option<&Arc<Network>> {
        self.policy_net.as_ref()
    }

    /// The policy network's activation of empty point `p` computed from its line keys on the
    /// spot, without the incremental state (for a few points, cheaper than bringing the
    /// state up to date; zero without a policy network).
    #[inline]
    pub fn net_activation_direct(&self, p: Pos) -> [i16; CHANNELS] {
        match &self.policy_net {
            Some(net) if self.is_empty(p) => cell_activation(self, net, self.idx(p)),
            _ => [0; CHANNELS],
        }
    }

    /// Calls `f` with a lookup of points' activations in this position (zero for a stone or
    /// without a network), brought up to date once for all the lookups.
    pub fn with_net_activations<R>(
        &self,
        f: impl FnOnce(&dyn Fn(Pos) -> [i16; CHANNELS]) -> R,
    ) -> R {
        let Some(net) = &self.net else {
            return f(&|_| [0; CHANNELS]);
        };
        let mut state = self.features.borrow_mut();
        state.sync(self, net);
        let state = &*state;
        f(&|p| state.act[self.idx(p)])
    }

    /// The sum of the empty cells' activations computed from the cells alone, keys
    /// included (the reference the incremental state is tested against).
    pub fn net_pool_from_scratch(&self) -> [i32; CHANNELS] {
        let Some(net) = &self.net else {
            return [0; CHANNELS];
        };
        let mut pool = [0; CHANNELS];
        for i in 0..self.grid.len() {
            if self.grid[i] == EMPTY && self.on_board_index(i) {
                let keys = self.scratch_keys(i);
                add(&mut pool, &net.cell_activation(window_keys(net, keys)), 1);
            }
        }
        pool
    }
}
