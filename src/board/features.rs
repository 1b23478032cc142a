//! The network's per-cell features kept up to date with the position: every empty cell's
//! activation (from its four line keys, `net::Network::cell_activation`) and their sum over
//! the board, the input of the network's heads.
//!
//! The state catches up lazily, when the evaluation asks ([`Board::net_pool`]): it remembers
//! which of the board's moves it includes, takes back the moves the board has undone since
//! and takes in its newer moves, one *batch* per move. A batch only records its move: the
//! cells on the move's four lines (within the network's window) are marked *pending*, and
//! nothing is computed. A read then computes each pending cell once, from the board's
//! present keys, and files the old activation with the newest batch whose move reaches the
//! cell: for that batch's position the new value is exact, since no later move changes the
//! cell. Older batches that reach the cell keep it pending, and look at it again only once
//! the batch that held it back has been taken back. So moves that no evaluation sees
//! (threat searches, move trials, and the inner nodes of a search whose subtree reads
//! nothing) cost a few stores, and sibling leaves compute only their own move's cells. Undo
//! records sit in a fixed slot per batch, reserved at a rebuild; a rebuild of the board
//! (walls) starts the state afresh.
//!
//! A network with linear cells (no clip) needs no activations: its pool is a sum of table
//! rows, one per empty cell and direction, and a move changes it by two rows per cell its
//! lines reach. The state then keeps the pool at each move of the present line since the
//! rebuild; a read goes back to the newest pool the board's history still shares and adds
//! each newer move's change, computed from the present keys with the still newer stones
//! taken out.

use std::sync::Arc;

use super::{Board, EMPTY, WALL};
use crate::core::{Color, Pos};
use crate::net::{Network, CHANNELS};

/// A cell's activation vector.
type Act = [i16; CHANNELS];

/// The most cells one move can change: its own, and 5 each way along its four lines (the
/// 10-slot window).
const MAX_TOUCHED: usize = 1 + 4 * 2 * 5;

/// Steps `(dx, dy)` of the board's four directions, in the order of `Board::dirs`.
const DIR_STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// One move taken in: where it is and which of the cells it reaches still wait to be
/// computed for the position after it.
#[derive(Clone, Copy)]
struct Batch {
    /// The move's padded index and coordinates (a pass reaches nothing).
    centre: u32,
    x: i16,
    y: i16,
    pass: bool,
    /// Bit k: touched cell k ([`touched`]) not yet computed for this batch's position.
    pending: u64,
    /// The newest of the batches found reaching this batch's pending cells at the last
    /// look (`u32::MAX` before the first): while no batch at or below it has been taken
    /// back since, those cells are still reached by a newer move and need no new look.
    wake: u32,
    /// Per pending cell held back at a look, the batch found reaching it.
    held_by: [u16; MAX_TOUCHED],
    /// Undo records filed in this batch's slot of `undo`.
    undone: u8,
}

impl Batch {
    /// Whether this batch's move changes the keys of the cell at `(x, y)`: the cell itself,
    /// or on one of the move's lines within `reach`.
    #[inline(always)]
    fn reaches(&self, x: i32, y: i32, reach: i32) -> bool {
        let (dx, dy) = (x - i32::from(self.x), y - i32::from(self.y));
        !self.pass
            && dx.abs() <= reach
            && dy.abs() <= reach
            && (dx == 0 || dy == 0 || dx.abs() == dy.abs())
    }
}

/// The incremental network features of one board (see the module comment).
#[derive(Clone, Default)]
pub(super) struct Features {
    /// Per padded cell: its activation (zero for stones and off-board cells), exact for the
    /// position of the newest batch that leaves the cell pending nowhere above it.
    act: Vec<Act>,
    /// Sum of `act` over the board.
    pool: [i32; CHANNELS],
    /// The board moves the state includes, oldest first.
    /// (Colours too: a takeback may put the other colour where a stone was.)
    applied: Vec<(Pos, Color)>,
    /// How many of `applied` the last rebuild took in (never taken back by batches); batch
    /// `b` holds move `base + b`.
    base: usize,
    batches: Vec<Batch>,
    /// The fewest batches there were since the last settling: a batch whose `wake` is
    /// below it still has every pending cell reached by a newer move.
    low_water: u32,
    /// `MAX_TOUCHED` records per batch: (padded index, activation before).
    undo: Vec<(u32, Act)>,
    /// False until the first rebuild, and after any change that bypassed the history.
    valid: bool,
    /// A network with linear cells keeps no activations, only the pool: per length of
    /// `applied` brought up to date, the pool there (oldest first; the first is the rebuild's).
    pools: Vec<(u32, [i32; CHANNELS])>,
}

/// Batches whose undo slots are reserved at a rebuild, so a search never grows the vectors.
const RESERVED_BATCHES: usize = 256;

impl Features {
    /// Forgets the state: the next use rebuilds it.
    pub(super) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Brings the state to `board`'s position, every cell computed.
    fn sync(&mut self, board: &Board, net: &Network) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { self.sync_avx2(board, net) };
        }
        self.sync_inline(board, net)
    }

    /// [`Features::sync`] compiled for AVX2 (the per-cell sums and the pool updates
    /// vectorise to 256-bit operations).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn sync_avx2(&mut self, board: &Board, net: &Network) {
        self.sync_inline(board, net)
    }

    #[inline(always)]
    fn sync_inline(&mut self, board: &Board, net: &Network) {
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
        if net.linear_cells() {
            return self.sync_linear(board, net, common);
        }
        while self.applied.len() > common {
            self.take_back_batch();
        }
        for played in &history[self.applied.len()..] {
            self.push_batch(board, net, played.pos);
            self.applied.push((played.pos, played.color));
        }
        self.settle(board, net);
    }

    /// Takes in one move: a batch with every cell it reaches pending.
    #[inline(always)]
    fn push_batch(&mut self, board: &Board, net: &Network, p: Pos) {
        let touched = 1 + 4 * net.window() as usize;
        let batch = if p.is_none() {
            Batch {
                centre: 0,
                x: 0,
                y: 0,
                pass: true,
                pending: 0,
                wake: 0,
                held_by: [0; MAX_TOUCHED],
                undone: 0,
            }
        } else {
            Batch {
                centre: board.idx(p) as u32,
                x: p.x() as i16,
                y: p.y() as i16,
                pass: false,
                pending: (1u64 << touched) - 1,
                wake: u32::MAX,
                held_by: [0; MAX_TOUCHED],
                undone: 0,
            }
        };
        self.batches.push(batch);
        // The slots grow with the deepest line since the rebuild (inside the reserve, no
        // allocation), and stay: a board's copy copies only those.
        let slots = self.batches.len() * MAX_TOUCHED;
        if self.undo.len() < slots {
            self.undo.resize(slots, (0, [0; CHANNELS]));
        }
    }

    /// Takes back the last batch (there is one whenever `applied` is longer than `base`):
    /// the cells it computed get their activations back.
    #[inline(always)]
    fn take_back_batch(&mut self) {
        let Some(batch) = self.batches.pop() else {
            debug_assert!(false, "no batch to take back");
            return;
        };
        self.low_water = self.low_water.min(self.batches.len() as u32);
        let slot = self.batches.len() * MAX_TOUCHED;
        for &(i, old) in self.undo[slot..slot + usize::from(batch.undone)]
            .iter()
            .rev()
        {
            add_change(&mut self.pool, &self.act[i as usize], &old);
            self.act[i as usize] = old;
        }
        self.applied.pop();
    }

    /// Computes every pending cell that no newer batch reaches (see the module comment).
    #[inline(always)]
    fn settle(&mut self, board: &Board, net: &Network) {
        let reach = net.window() as usize / 2;
        let steps = &TOUCHED_STEPS[reach - 4];
        for b in 0..self.batches.len() {
            let Batch { pending, wake, .. } = self.batches[b];
            if pending == 0 || wake < self.low_water {
                continue;
            }
            // A cell held back at an earlier look by batch j stays held back while j is
            // still there (j below the low water), and the batches between this one and
            // the low water, all older than j, were found not to reach it.
            let fresh = wake == u32::MAX;
            let from = if fresh {
                b + 1
            } else {
                (b + 1).max(self.low_water as usize)
            };
            let mut wake = 0;
            let mut left = pending;
            while left != 0 {
                let k = left.trailing_zeros() as usize;
                left &= left - 1;
                let held = u32::from(self.batches[b].held_by[k]);
                if !fresh && held < self.low_water {
                    wake = wake.max(held);
                    continue;
                }
                let (i, x, y) = touched(board, &self.batches[b], steps[k]);
                if board.grid[i] != WALL {
                    let newer = &self.batches[from..];
                    if let Some(n) = newer.iter().position(|n| n.reaches(x, y, reach as i32)) {
                        self.batches[b].held_by[k] = (from + n) as u16;
                        wake = wake.max((from + n) as u32);
                        continue;
                    }
                    self.refresh(board, net, i, b);
                }
                self.batches[b].pending &= !(1u64 << k);
            }
            self.batches[b].wake = wake;
        }
        self.low_water = self.batches.len() as u32;
    }

    /// [`Features::sync_inline`] for a network with linear cells, whose state shares
    /// `common` moves with the board's history: back to the newest pool kept within them,
    /// then the pool changes of the moves since, from the present keys.
    #[inline(always)]
    fn sync_linear(&mut self, board: &Board, net: &Network, common: usize) {
        while self
            .pools
            .last()
            .is_some_and(|&(len, _)| len as usize > common)
        {
            self.pools.pop();
        }
        let Some(&(len, pool)) = self.pools.last() else {
            return self.rebuild(board, net);
        };
        let len = len as usize;
        self.applied.truncate(len);
        self.pool = pool;
        for j in len..board.history.len() {
            self.pool = linear_changes(board, net, j, self.pool);
            let played = &board.history[j];
            self.applied.push((played.pos, played.color));
            self.pools.push((self.applied.len() as u32, self.pool));
        }
    }

    /// Recomputes every cell from the board.
    fn rebuild(&mut self, board: &Board, net: &Network) {
        self.act.clear();
        self.act.resize(board.grid.len(), [0; CHANNELS]);
        self.pool = [0; CHANNELS];
        for i in 0..board.grid.len() {
            if board.grid[i] == EMPTY {
                let a = cell_activation(board, net, i);
                add_change(&mut self.pool, &[0; CHANNELS], &a);
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
        self.low_water = 0;
        self.undo.clear();
        self.undo.reserve(RESERVED_BATCHES * MAX_TOUCHED);
        self.pools.clear();
        self.pools.reserve(RESERVED_BATCHES);
        self.pools.push((self.base as u32, self.pool));
        self.valid = true;
    }

    /// Recomputes cell `i`'s activation, filing the old one in batch `b`'s slot when it
    /// changes.
    #[inline(always)]
    fn refresh(&mut self, board: &Board, net: &Network, i: usize, b: usize) {
        let new = if board.grid[i] == EMPTY {
            cell_activation(board, net, i)
        } else {
            [0; CHANNELS]
        };
        let old = self.act[i];
        if new != old {
            let batch = &mut self.batches[b];
            self.undo[b * MAX_TOUCHED + usize::from(batch.undone)] = (i as u32, old);
            batch.undone += 1;
            add_change(&mut self.pool, &old, &new);
            self.act[i] = new;
        }
    }
}

/// Where touched cell `k` of a move lies, per reach (4 and 5): (direction, signed distance).
/// Cell 0 is the move's own; then, per direction and distance, the cell behind and the cell
/// ahead.
const TOUCHED_STEPS: [[(u8, i8); MAX_TOUCHED]; 2] = [touched_steps(4), touched_steps(5)];

const fn touched_steps(reach: usize) -> [(u8, i8); MAX_TOUCHED] {
    let mut steps = [(0, 0); MAX_TOUCHED];
    let mut k = 1;
    while k < 1 + 8 * reach {
        let step = (k - 1) / 2;
        let o = (step % reach + 1) as i8;
        steps[k] = ((step / reach) as u8, if k % 2 == 1 { -o } else { o });
        k += 1;
    }
    steps
}

/// The padded index and coordinates of the cell `step` (from [`TOUCHED_STEPS`]) away from
/// `batch`'s move. (Within 5 cells of an on-board cell along a line is inside the padded
/// array.)
#[inline(always)]
fn touched(board: &Board, batch: &Batch, (d, o): (u8, i8)) -> (usize, i32, i32) {
    let (d, o) = (usize::from(d), i32::from(o));
    let i = batch.centre as isize + o as isize * board.dirs[d];
    let (dx, dy) = DIR_STEPS[d];
    (
        i as usize,
        i32::from(batch.x) + o * dx,
        i32::from(batch.y) + o * dy,
    )
}

/// `pool` (the linear pool before the board's move `j`) plus what move `j` changed: its
/// cell loses its four rows, and each empty cell on its lines trades the row of its key
/// before the move for the row after it. The board may hold newer moves: they are taken
/// out of the keys, and their cells count as empty.
#[inline(always)]
fn linear_changes(
    board: &Board,
    net: &Network,
    j: usize,
    mut pool: [i32; CHANNELS],
) -> [i32; CHANNELS] {
    let played = &board.history[j];
    if played.pos.is_none() {
        return pool;
    }
    let (x, y) = (played.pos.x() as i32, played.pos.y() as i32);
    let centre = board.idx(played.pos);
    let v = usize::from(board.grid[centre]);
    let reach = net.window() as i32 / 2;
    for d in 0..4 {
        let newer = NewerOnLine::find(board, j, x, y, d);
        // The move's own cell, empty before it.
        let own = newer.taken_out(board, board.info[centre].keys[d], 0);
        add_change(&mut pool, net.row(window_key(net, own)), &[0; CHANNELS]);
        for o in (-reach..=reach).filter(|&o| o != 0) {
            let c = (centre as isize + o as isize * board.dirs[d]) as usize;
            let empty = match board.grid[c] {
                EMPTY => true,
                WALL => false,
                _ => newer.holds(o),
            };
            if !empty {
                continue;
            }
            let after = newer.taken_out(board, board.info[c].keys[d], o);
            let before = after.wrapping_sub(board.place[v][super::incr::slot(-o as isize)]);
            let (after, before) = (window_key(net, after), window_key(net, before));
            add_change(&mut pool, net.row(before), net.row(after));
        }
    }
    pool
}

/// The moves after move `j` whose stones lie on its line in one direction, near enough to
/// change a key the move changes: (offset along the line, cell value).
struct NewerOnLine {
    stones: [(i32, u8); 20],
    len: usize,
}

impl NewerOnLine {
    #[inline(always)]
    fn find(board: &Board, j: usize, x: i32, y: i32, d: usize) -> NewerOnLine {
        let (dx, dy) = DIR_STEPS[d];
        let mut found = NewerOnLine {
            stones: [(0, 0); 20],
            len: 0,
        };
        for played in board.history[j + 1..]
            .iter()
            .filter(|played| !played.pos.is_none())
        {
            let (ox, oy) = (played.pos.x() as i32 - x, played.pos.y() as i32 - y);
            let t = if dx != 0 { ox * dx } else { oy * dy };
            if t != 0 && t.abs() <= 10 && (ox, oy) == (t * dx, t * dy) {
                found.stones[found.len] = (t, board.grid[board.idx(played.pos)]);
                found.len += 1;
            }
        }
        found
    }

    /// Whether a newer stone stands at offset `o`.
    #[inline(always)]
    fn holds(&self, o: i32) -> bool {
        self.stones[..self.len].iter().any(|&(t, _)| t == o)
    }

    /// `key`, of the cell at offset `o`, with the digits of the newer stones taken out.
    #[inline(always)]
    fn taken_out(&self, board: &Board, mut key: u64, o: i32) -> u64 {
        for &(t, v) in &self.stones[..self.len] {
            let rel = t - o;
            if rel != 0 && rel.abs() <= 5 {
                key =
                    key.wrapping_sub(board.place[usize::from(v)][super::incr::slot(rel as isize)]);
            }
        }
        key
    }
}

/// `pool += new − old` per channel.
#[inline(always)]
fn add_change(pool: &mut [i32; CHANNELS], old: &Act, new: &Act) {
    for ((s, &o), &n) in pool.iter_mut().zip(old).zip(new) {
        // Activations lie in [0, 256], and table rows (linear cells) within ±8191 (checked
        // on load): the difference fits an i16.
        *s += i32::from(n - o);
    }
}

/// The activation of empty padded cell `i` from the board's Black-view line keys, cut to the
/// network's window.
#[inline(always)]
fn cell_activation(board: &Board, net: &Network, i: usize) -> Act {
    net.cell_activation(window_keys(net, board.info[i].keys))
}

/// The network's key of one of a cell's lines ([`window_keys`]).
#[inline(always)]
fn window_key(net: &Network, key: u64) -> usize {
    let [k, ..] = window_keys(net, [key; 4]);
    k
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
    /// network): the search calls it at its root, so that a first read deep in the tree does
    /// not rebuild the state there, below moves the search takes back.
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
        if net.linear_cells() {
            // Linear cells keep only the pool: each activation from its keys.
            return f(&|p| match self.is_empty(p) {
                true => cell_activation(self, net, self.idx(p)),
                false => [0; CHANNELS],
            });
        }
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
                add_change(
                    &mut pool,
                    &[0; CHANNELS],
                    &net.cell_activation(window_keys(net, keys)),
                );
            }
        }
        pool
    }
}
