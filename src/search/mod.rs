//! The searcher's public interface: limits in, reports and a best move out.
//!
//! The protocol layer's engine facade calls [`Searcher::search`] on a search thread; the
//! search never prints, it reports through the callback.

pub mod time;

use std::sync::atomic::AtomicBool;

use crate::board::Board;
use crate::core::Pos;

/// Score from the side to move's point of view. Mates are `MATE - plies` / `-(MATE - plies)`.
pub type Score = i32;
/// Value of a win at the root (a win in n plies scores `MATE - n`).
pub const MATE: Score = 30_000;
/// Scores at or beyond this magnitude are forced wins/losses.
pub const MATE_BOUND: Score = MATE - 1_000;

/// What may stop a search, besides the stop flag.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Soft (optimum) time for this move in ms: finish the iteration logic around it.
    pub optimum_ms: Option<u64>,
    /// Hard maximum in ms: the search must return by then.
    pub maximum_ms: Option<u64>,
    /// Maximum nominal depth (0/None = none).
    pub max_depth: Option<u32>,
    /// Maximum node count (None = none).
    pub max_nodes: Option<u64>,
    /// Playing strength 0..=100 (100 = full).
    pub strength: u8,
    /// Number of principal variations to report (YXNBEST); 1 normally.
    pub multipv: usize,
    /// Threads for this search.
    pub threads: usize,
    /// When set, choose among near-best moves at random with this seed (game_type 0).
    pub randomize_seed: Option<u64>,
}

/// Progress after one completed iteration (one line of a multi-PV set).
#[derive(Clone, Debug)]
pub struct SearchReport {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<Pos>,
    /// 1-based index of this line when multi-PV; 1 otherwise.
    pub multipv: usize,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; always legal for the side to move when any legal move exists.
    pub best: Pos,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Pos>,
}

/// Owns the search state that lives across moves (transposition table, histories, threads).
pub struct Searcher {
    hash_bytes: usize,
}

impl Searcher {
    /// A searcher whose transposition table takes about `hash_bytes` bytes.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher { hash_bytes }
    }

    /// Resizes the transposition table (clears it).
    pub fn resize(&mut self, hash_bytes: usize) {
        self.hash_bytes = hash_bytes;
    }

    /// Bytes the transposition table occupies.
    pub fn hash_bytes(&self) -> usize {
        self.hash_bytes
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {}

    /// Searches `board` for the side to move. Returns by `limits.maximum_ms`, or soon after
    /// `stop` becomes true. `report` is called after each completed iteration.
    ///
    /// First version: a one-ply choice (win now, block a five, else the central candidate).
    pub fn search(
        &mut self,
        board: &Board,
        _limits: &SearchLimits,
        _stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchReport),
    ) -> SearchResult {
        let best = pick_simple_move(board);
        report(&SearchReport {
            depth: 1,
            seldepth: 1,
            score: 0,
            nodes: 1,
            elapsed_ms: 0,
            pv: vec![best],
            multipv: 1,
        });
        SearchResult {
            best,
            score: 0,
            depth: 1,
            nodes: 1,
            pv: vec![best],
        }
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
