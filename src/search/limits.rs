//! What may stop a search besides the stop flag: time, depth, nodes, strength, threads; and
//! the moves a search must not consider (Yixin-Board's block lists).

use crate::core::Pos;

use super::time::TimeManager;

/// `SearchLimits::strength` of a full-strength search (the scale is 0..=100).
pub const FULL_STRENGTH: u8 = 100;

/// What may stop a search, besides the stop flag. `Default` is a full-strength, single-PV,
/// one-thread search without limits.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// The time budget, and the one owner of time decisions (see [`super::time`]).
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
    /// Moves the search must not play or consider (empty in a normal search).
    pub excluded: Exclusions,
}

/// Moves excluded from a search: at the root (`YXBLOCK`), and in given positions anywhere in
/// the tree (`YXBLOCKPATH`). Ignored where they would leave no move at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exclusions {
    /// Root moves never searched.
    pub root: Vec<Pos>,
    /// (position hash, move): the move is skipped wherever the position is reached.
    pub at: Vec<(u64, Pos)>,
}

impl Exclusions {
    /// True when nothing is excluded.
    pub fn is_empty(&self) -> bool {
        self.root.is_empty() && self.at.is_empty()
    }

    /// True when `mv` is excluded in the position whose hash is `hash`.
    pub fn excludes(&self, hash: u64, mv: Pos) -> bool {
        self.at.iter().any(|&(h, m)| h == hash && m == mv)
    }
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
            excluded: Exclusions::default(),
        }
    }
}
