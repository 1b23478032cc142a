//! What a search hands back: a progress report per completed iteration and the result.

use crate::core::Pos;

use super::score::Score;

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
