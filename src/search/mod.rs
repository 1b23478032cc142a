//! The searcher's public interface: limits in, reports and a best move out.
//!
//! The protocol layer's engine facade calls [`Searcher::search`] on a search thread; the
//! search never prints, it reports through the callback.
//!
//! Layout, each module using only modules listed before it (this file uses them all, and
//! `bench` uses this file's [`Searcher`]): `score` (mate scores, TT adjustment), `smp`
//! (which subtrees other threads are searching), `limits` (what may stop a search), `report`
//! (what comes out), `tunable` (the machinery of run-time tunables), `params` (constants,
//! switches and the table of tunables), `budget` (the threat solvers' node budget),
//! `history` (killers, counter moves, history), `tt` (lock-free table), `time` (time
//! decisions), `movegen` (the board's generator chosen by the threat, moves scored for
//! ordering), `vcf` / `vct` (threat-space solvers), `pvs` (one thread's PVS with TT,
//! razoring, futility, late-move pruning/reductions, VCF leaves), `root` (root VCF/VCT
//! solvers, iterative deepening with aspiration windows, multi-PV, Lazy SMP threads and the
//! helper thread's VCT, strength and randomized choice), `bench` (deterministic bench).

use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::core::Pos;

pub mod bench;
pub mod budget;
mod history;
pub mod limits;
mod movegen;
pub mod params;
mod pvs;
pub mod report;
mod root;
pub mod score;
mod smp;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod vcf;
pub mod vct;

pub use budget::Budget;
pub use limits::SearchLimits;
pub use params::{set_tunable, tunable_value, tunables};
pub use report::{SearchReport, SearchResult};
pub use score::{
    format_score, mate_in, mated_in, value_from_tt, value_to_tt, Score, MATE, MATE_BOUND,
};
pub use tunable::{TunableKind, TunableSpec, TuneError, TUNING};

/// Owns the search state that lives across moves (transposition table).
pub struct Searcher {
    tt: tt::TTable,
}

impl Searcher {
    /// A searcher whose transposition table takes about `hash_bytes` bytes.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher {
            tt: tt::TTable::new(hash_bytes),
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

    /// Searches `board` for the side to move. Returns by `limits.maximum_ms`, or soon after
    /// `stop` becomes true. `report` is called after each completed iteration (once per line
    /// when multi-PV). The best move is legal whenever a legal move exists, even if stopped
    /// at once.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchResult {
        root::search(&self.tt, board, limits, stop, report)
    }
}

/// A legal move without search, for when there is no time to search: see
/// [`Board::simple_move`].
pub fn pick_simple_move(board: &Board) -> Pos {
    board.simple_move()
}
