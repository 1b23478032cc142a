//! What may stop a search besides the stop flag: time, depth, nodes, strength, threads; the
//! moves a search must not consider (Yixin-Board's block lists); and the leaves a search
//! records for training data.

use std::sync::{Arc, Mutex};

use crate::board::Board;
use crate::core::Pos;

use super::params::RANDOM_CHOICE_MARGIN;
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
    /// How far below the best a move chosen at random may score (evaluation units) at full
    /// strength: [`RANDOM_CHOICE_MARGIN`] for a game against a person; training games use
    /// more, for variety.
    pub random_margin: i32,
    /// Moves the search must not play or consider (empty in a normal search).
    pub excluded: Exclusions,
    /// When set, the search records a sample of the leaves it evaluates (training data).
    pub leaf_samples: Option<Arc<LeafSamples>>,
}

/// A sample of the leaf positions a search evaluates, for fitting an evaluation where a
/// search uses it (`pentad-tools leaves`). A leaf is kept when its hash is a multiple of
/// `every`, so the sample does not depend on timing; each position is its stones in the
/// order they were played.
#[derive(Debug)]
pub struct LeafSamples {
    every: u64,
    positions: Mutex<Vec<Vec<Pos>>>,
}

impl LeafSamples {
    /// Keeps the leaves whose hash is a multiple of `every` (at least 1: every leaf).
    pub fn new(every: u64) -> LeafSamples {
        LeafSamples {
            every: every.max(1),
            positions: Mutex::new(Vec::new()),
        }
    }

    /// Records `board` if its hash is sampled.
    #[inline]
    pub fn offer(&self, board: &Board) {
        if board.hash().is_multiple_of(self.every) {
            let stones = board.history().map(|(p, _)| p).collect();
            self.positions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(stones);
        }
    }

    /// The positions recorded so far, leaving none.
    pub fn take(&self) -> Vec<Vec<Pos>> {
        std::mem::take(&mut *self.positions.lock().unwrap_or_else(|e| e.into_inner()))
    }
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
            random_margin: RANDOM_CHOICE_MARGIN,
            excluded: Exclusions::default(),
            leaf_samples: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    #[test]
    fn leaf_samples_keep_the_stones_of_sampled_hashes_only() {
        let samples = LeafSamples::new(3);
        let every = LeafSamples::new(0);
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        let mut stones = Vec::new();
        let mut expected = Vec::new();
        for (x, y) in [
            (7, 7),
            (8, 8),
            (6, 6),
            (9, 9),
            (5, 5),
            (7, 8),
            (8, 7),
            (6, 8),
        ] {
            b.make_move(Pos::new(x, y));
            stones.push(Pos::new(x, y));
            samples.offer(&b);
            every.offer(&b);
            if b.hash().is_multiple_of(3) {
                expected.push(stones.clone());
            }
        }
        assert!(
            !expected.is_empty() && expected.len() < 8,
            "some kept, some not"
        );
        assert_eq!(samples.take(), expected);
        assert!(samples.take().is_empty(), "taken once");
        assert_eq!(every.take().len(), 8, "rate 0 is every leaf");
    }
}
