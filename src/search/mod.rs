//! The searcher's public interface: limits in, reports and a best move out.
//!
//! The protocol layer's engine facade calls [`Searcher::search`] on a search thread; the
//! search never prints, it reports through the callback.
//!
//! Layout, each module using only modules listed before it (this file uses them all, and
//! `bench` uses this file's [`Searcher`]): `score` (mate scores, TT adjustment), `smp`
//! (which subtrees other threads are searching), `limits` (what may stop a search), `report`
//! (what comes out), `params` (constants and the table of tunables, on `core::tunable`),
//! `budget` (the threat solvers' node budget), `history` (killers, counter moves, history),
//! `tt` (lock-free table), `memory` (its size under `max_memory`), `time` (the time manager,
//! the one owner of time decisions), `movegen` (the board's generator chosen by the threat,
//! moves scored for ordering), `vcf` / `pns` (threat-space solvers: fours; fours and
//! threes by proof numbers, whose [`pns::VctWin`] the tools' depth-first solver returns too), `pvs` (one thread's PVS with TT,
//! razoring, futility, late-move pruning/reductions, VCF leaves), `root` (root VCF solver,
//! iterative deepening with aspiration windows, multi-PV, Lazy SMP threads and the helper
//! thread's threat proof, strength and randomized choice), `bench` (deterministic bench).

use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::core::Pos;

pub mod bench;
pub mod budget;
mod history;
pub mod limits;
mod lmr;
pub mod memory;
mod movegen;
#[cfg(target_os = "linux")]
mod pages;
pub mod params;
pub mod pns;
mod pvs;
pub mod report;
mod root;
pub mod score;
mod smp;
pub mod time;
pub mod tt;
pub mod vcf;

pub use crate::core::tunable::{TunableKind, TunableSpec, TuneError, TUNING};
pub use budget::Budget;
pub use limits::{Exclusions, LeafSamples, SearchLimits, FULL_STRENGTH};
pub use params::{set_tunable, tunable_value, tunables};
pub use report::{no_root_events, RootEvent, RootEvents, SearchReport, SearchResult};
pub use score::{
    format_score, mate_in, mated_in, value_from_tt, value_to_tt, Score, MATE, MATE_BOUND,
};
pub use smp::SEARCH_STACK_BYTES;

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
        self.search_observed(board, limits, stop, report, &no_root_events)
    }

    /// [`Searcher::search`], also telling `events` what happens to each root move while an
    /// iteration runs (for live displays; it does not change the search).
    pub fn search_observed(
        &mut self,
        board: &Board,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
        events: RootEvents,
    ) -> SearchResult {
        root::search(&self.tt, board, limits, stop, report, events)
    }

    /// Writes the transposition table to `w` (see [`tt::TTable::dump`]).
    pub fn dump_hash(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.tt.dump(w)
    }

    /// Reads a table written by [`Searcher::dump_hash`]; on error the table is unchanged.
    pub fn load_hash(&self, r: &mut dyn std::io::Read) -> Result<(), String> {
        self.tt.load(r)
    }

    /// Permille of the transposition table holding entries of the latest search.
    pub fn hash_usage_permille(&self) -> u32 {
        self.tt.hashfull()
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
            None => self
                .scratch
                .insert(tt::TTable::with_cheap_clear(SCRATCH_HASH_BYTES)),
        };
        root::search(tt, board, limits, stop, &mut |_| {}, &no_root_events)
    }

    /// Frees the table of [`Searcher::search_from_scratch`].
    pub fn drop_scratch(&mut self) {
        self.scratch = None;
    }
}

/// The root's move list as the tree search orders it: every move it would search in this
/// position (the threat decides which), with its ordering score (higher first). For tools
/// that study or fit the ordering.
pub fn ordered_moves(board: &Board) -> Vec<(Pos, i32)> {
    let mut out = Vec::new();
    movegen::generate_root(board, board.threat(), &mut out);
    out
}

/// A legal move without search, for when there is no time to search: see
/// [`Board::simple_move`].
pub fn pick_simple_move(board: &Board) -> Pos {
    board.simple_move()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Pos, Rule};

    /// A bare board (no learned tables, no network installed) searches as a prepared one:
    /// Swap2's probes and the tools hand their boards over unprepared.
    #[test]
    fn a_scratch_search_prepares_the_board_itself() {
        for rule in [Rule::FREESTYLE, Rule::RENJU] {
            let mut bare = Board::new(15, 15, rule).unwrap();
            for (i, s) in ["h8", "i9", "j10", "h9"].iter().enumerate() {
                let c = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                bare.make_move_as(Pos::from_human(s).unwrap(), c);
            }
            let mut prepared = bare.clone();
            crate::eval::prepare(&mut prepared);
            let limits = SearchLimits {
                max_nodes: Some(20_000),
                threads: 1,
                ..SearchLimits::default()
            };
            let stop = AtomicBool::new(false);
            let mut s = Searcher::new(1 << 20);
            let a = s.search_from_scratch(&bare, &limits, &stop);
            let b = s.search_from_scratch(&prepared, &limits, &stop);
            assert_eq!(
                (a.best, a.score, a.nodes),
                (b.best, b.score, b.nodes),
                "{rule:?}"
            );
        }
    }
}
