//! What may stop a search besides the stop flag: time, depth, nodes, strength, threads.

/// What may stop a search, besides the stop flag. `Default` is a full-strength, single-PV,
/// one-thread search without limits.
#[derive(Clone, Debug)]
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
    /// The turn limit binds, not the game clock: unused time is lost, so deepen until the
    /// next iteration could not finish instead of stopping early on a stable best move.
    pub turn_bound: bool,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            optimum_ms: None,
            maximum_ms: None,
            max_depth: None,
            max_nodes: None,
            strength: 100,
            multipv: 1,
            threads: 1,
            randomize_seed: None,
            turn_bound: false,
        }
    }
}
