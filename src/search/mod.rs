//! The searcher's public interface: limits in, reports and a best move out.
//!
//! The protocol layer's engine facade calls [`Searcher::search`] on a search thread; the
//! search never prints, it reports through the callback.
//!
//! Layout: `root` (root VCF/VCT solvers, iterative deepening with aspiration windows,
//! multi-PV, Lazy SMP threads and the helper thread's VCT, strength and randomized choice),
//! `smp` (search threads: their stack, helper start-up, which subtrees other threads are
//! searching), `pvs` (one thread's PVS with TT, static win/threat check, razoring,
//! futility, late-move pruning/reductions, VCF leaves),
//! `movegen` (threat classification and forced-defence generation from the board's pattern
//! counts), `vcf` / `vct` (threat-space solvers), `tt` (lock-free table), `memory` (its size
//! under `max_memory`), `time` (the time manager), `history` (killers, history), `params`
//! (constants), `bench` (deterministic bench).

use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::core::Pos;
use time::TimeManager;

pub mod bench;
mod history;
pub mod memory;
mod movegen;
pub mod params;
mod pvs;
mod root;
mod smp;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;

pub use smp::SEARCH_STACK_BYTES;

/// Score from the side to move's point of view. Mates are `MATE - plies` / `-(MATE - plies)`.
pub type Score = i32;
/// Value of a win at the root (a win in n plies scores `MATE - n`).
pub const MATE: Score = 30_000;
/// Scores at or beyond this magnitude are forced wins/losses.
pub const MATE_BOUND: Score = MATE - 1_000;
/// `SearchLimits::strength` of a full-strength search (the scale is 0..=100).
pub const FULL_STRENGTH: u8 = 100;

/// What may stop a search, besides the stop flag. `Default` is a full-strength, single-PV,
/// one-thread search without limits.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// The time budget, and the one owner of time decisions (see [`time`]).
    pub time: TimeManager,
    /// Maximum nominal depth (0/None = none).
    pub max_depth: Option<u32>,
    /// Maximum node count (None = none).
    pub max_nodes: Option<u64>,
    /// Playing strength 0..=[`FULL_STRENGTH`].
    pub strength: u8,
    /// Number of principal variations to report (YXNBEST); 1 normally.
    pub multipv: usize,
    /// Threads for this search.
    pub threads: usize,
    /// When set, choose among near-best moves at random with this seed (game_type 0).
    pub randomize_seed: Option<u64>,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            time: TimeManager::infinite(),
            max_depth: None,
            max_nodes: None,
            strength: FULL_STRENGTH,
            multipv: 1,
            threads: 1,
            randomize_seed: None,
        }
    }
}

/// Progress after one completed iteration (one line of a multi-PV set).
#[derive(Clone, Debug, Default)]
pub struct SearchReport {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of this line for the side to move.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub elapsed_ms: u64,
    /// The line, first move first.
    pub pv: Vec<Pos>,
    /// 1-based index of this line when multi-PV; 1 otherwise.
    pub multipv: usize,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; always legal for the side to move when any legal move exists.
    pub best: Pos,
    /// Score of `best` for the side to move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Principal variation starting with `best`.
    pub pv: Vec<Pos>,
}

/// Bytes of the table of [`Searcher::search_from_scratch`].
pub const SCRATCH_HASH_BYTES: usize = 4 << 20;

/// Owns the search state that lives across moves (transposition table), and the small
/// table of reproducible searches.
pub struct Searcher {
    tt: tt::TTable,
    scratch: Option<tt::TTable>,
}

impl Searcher {
    /// A searcher whose transposition table takes about `hash_bytes` bytes.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher {
            tt: tt::TTable::new(hash_bytes),
            scratch: None,
        }
    }

    /// Resizes the transposition table (clears it).
    pub fn resize(&mut self, hash_bytes: usize) {
        self.tt.resize(hash_bytes);
    }

    /// Bytes the transposition table occupies.
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Waits until every page of the table is resident (see `tt::prefault`); for benchmarks.
    pub fn wait_hash_ready(&mut self) {
        self.tt.wait_prefault();
    }

    /// Searches `board` for the side to move. Returns by the maximum of `limits.time`, or
    /// soon after `stop` becomes true. `report` is called after each completed iteration
    /// (once per line when multi-PV). The best move is legal whenever a legal move exists,
    /// even if stopped at once.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchResult {
        let mut board = board.clone();
        crate::eval::prepare(&mut board);
        root::search(&self.tt, &board, limits, stop, report)
    }

    /// A silent search on a table of its own ([`SCRATCH_HASH_BYTES`]) emptied first, so
    /// that with a node limit and one thread the result depends on `board` and `limits` only:
    /// not on the main table, its size, or earlier searches (the main table, up to hundreds
    /// of MB, would cost a reallocation per search to empty). The table stays for the next
    /// such search until [`Searcher::drop_scratch`].
    pub fn search_from_scratch(
        &mut self,
        board: &Board,
        limits: &SearchLimits,
        stop: &AtomicBool,
    ) -> SearchResult {
        let tt = match &mut self.scratch {
            Some(tt) => {
                tt.clear();
                tt
            }
            None => self.scratch.insert(tt::TTable::new(SCRATCH_HASH_BYTES)),
        };
        root::search(tt, board, limits, stop, &mut |_| {})
    }

    /// Frees the table of [`Searcher::search_from_scratch`].
    pub fn drop_scratch(&mut self) {
        self.scratch = None;
    }
}

/// The score of a win delivered at ply `ply` (the winning move is the `ply`-th from the root).
#[inline]
pub fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// The score of a loss: the opponent's winning move is the `ply`-th from the root.
#[inline]
pub fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// Converts a score relative to the root into one relative to the node at `ply` (for the TT).
#[inline]
pub fn value_to_tt(v: Score, ply: usize) -> Score {
    if v >= MATE_BOUND {
        v + ply as Score
    } else if v <= -MATE_BOUND {
        v - ply as Score
    } else {
        v
    }
}

/// Inverse of [`value_to_tt`].
#[inline]
pub fn value_from_tt(v: Score, ply: usize) -> Score {
    if v >= MATE_BOUND {
        v - ply as Score
    } else if v <= -MATE_BOUND {
        v + ply as Score
    } else {
        v
    }
}

/// A legal move without search: a win in one, else the block of the opponent's five, else the
/// legal point nearest the centre among those next to stones. `Pos::NONE` on a full board.
pub fn pick_simple_move(board: &Board) -> Pos {
    let me = board.side_to_move();
    let legal = board.legal_moves();
    if let Some(&p) = legal.iter().find(|&&p| board.is_win_move(p, me)) {
        return p;
    }
    if let Some(&p) = legal.iter().find(|&&p| board.is_win_move(p, me.opp())) {
        return p;
    }
    let (cx, cy) = (
        (board.width() as i32 - 1) / 2,
        (board.height() as i32 - 1) / 2,
    );
    let dist = |p: &Pos| {
        let (dx, dy) = (p.x() as i32 - cx, p.y() as i32 - cy);
        dx * dx + dy * dy
    };
    let near = legal
        .iter()
        .filter(|&&p| board.is_candidate(p, 1))
        .min_by_key(|p| dist(p));
    near.or_else(|| legal.iter().min_by_key(|p| dist(p)))
        .copied()
        .unwrap_or(Pos::NONE)
}

/// Colour-independent helper for reports: the score as the protocol prints it (`+M3`, `-M4`, `35`).
pub fn format_score(score: Score) -> String {
    if score >= MATE_BOUND {
        format!("+M{}", MATE - score)
    } else if score <= -MATE_BOUND {
        format!("-M{}", MATE + score)
    } else {
        score.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_and_tt_adjustment() {
        assert_eq!(format_score(mate_in(3)), "+M3");
        assert_eq!(format_score(mated_in(4)), "-M4");
        assert_eq!(format_score(35), "35");
        assert!(mate_in(MAX_PLY_TEST) >= MATE_BOUND);
        for ply in [0usize, 5, 40] {
            for v in [mate_in(50), mated_in(60), 123, -77] {
                assert_eq!(value_from_tt(value_to_tt(v, ply), ply), v);
            }
        }
        // A mate found 5 plies below a node at ply 2 is a mate in 7 from the root, and in 5
        // from a node at ply 0 reached by transposition.
        let stored = value_to_tt(mate_in(7), 2);
        assert_eq!(value_from_tt(stored, 0), mate_in(5));
    }

    const MAX_PLY_TEST: usize = params::MAX_PLY;
}
