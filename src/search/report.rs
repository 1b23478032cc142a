//! What a search hands back: a progress report per completed iteration, root-move events
//! while an iteration runs, and the result.

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

/// What the main thread is doing with one root move, for live displays (Yixin-Board's marks
/// on the board). Sent only for the first line of an iteration (not the extra lines of a
/// multi-PV search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEvent {
    /// Starts searching `mv` at `depth`.
    Searching { mv: Pos, depth: u32 },
    /// Finished `mv` at `depth`: `new_best` when it became the iteration's best move so far,
    /// `lost` when its score proves a loss.
    Searched {
        mv: Pos,
        depth: u32,
        new_best: bool,
        lost: bool,
    },
}

/// Where root events go; called on the main search thread only, so it must be quick.
pub type RootEvents<'a> = &'a (dyn Fn(RootEvent) + Sync);

/// A [`RootEvents`] that drops every event.
pub fn no_root_events(_: RootEvent) {}
