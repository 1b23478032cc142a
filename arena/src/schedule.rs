//! The tournament schedule: which engines meet (round robin or gauntlet), with which colours
//! and which opening, in a reproducible order.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// 1-based game number in the whole tournament (schedule order).
    pub id: usize,
    /// Index of the engine pair in [`pairings`].
    pub pair: usize,
    /// The pair's first engine (the one scores are reported for) and second engine.
    pub first: usize,
    pub second: usize,
    /// Engine indices playing Black and White.
    pub black: usize,
    pub white: usize,
    /// Index of this game within its pair (0-based); games `2k` and `2k+1` form a game pair
    /// (same opening with `--repeat`, colours swapped).
    pub index_in_pair: usize,
    /// Index into the openings list, or `None` to start from an empty board.
    pub opening: Option<usize>,
    /// Board symmetry applied to the opening (0 = none; see `Opening::points_transformed`).
    pub transform: u8,
}

impl GameSpec {
    /// Which game pair (for pentanomial statistics) this game belongs to.
    pub fn game_pair(&self) -> usize {
        self.index_in_pair / 2
    }
}

/// Engine pairs: every pair (round robin), or the first engine against each other (gauntlet).
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|j| (0, j)).collect()
    } else {
        (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect()
    }
}

/// The opening order: file order, or shuffled with `seed`.
pub fn opening_order(count: usize, seed: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if let Some(s) = seed {
        order.shuffle(&mut StdRng::seed_from_u64(s));
    }
    order
}

/// Builds the schedule (`transform`: a seeded random board symmetry per opening slot).
/// Each pair plays `games` games; game `k` of a pair has the first engine
/// as Black when `k` is even. With `repeat`, games `2j` and `2j+1` share an opening (colours
/// swapped); otherwise every game takes the next opening. Openings are used in
/// [`opening_order`] and wrap around. Games are ordered round by round (a game pair of every
/// engine pair, then the next), so partial tournaments stay balanced.
pub fn schedule(
    engines: usize,
    gauntlet: bool,
    games: usize,
    openings: usize,
    repeat: bool,
    seed: Option<u64>,
    transform: bool,
) -> Vec<GameSpec> {
    let pairs = pairings(engines, gauntlet);
    let order = opening_order(openings, seed);
    // One symmetry per opening slot, so both games of a pair (and every engine pair) get the
    // same position.
    let mut rng = StdRng::seed_from_u64(seed.unwrap_or(0) ^ 0x7A5F_0E1D_C3B2_9184);
    let slots = if repeat { games.div_ceil(2) } else { games };
    let transforms: Vec<u8> = (0..slots)
        .map(|_| if transform { rng.gen_range(0..8) } else { 0 })
        .collect();
    let mut out = Vec::with_capacity(pairs.len() * games);
    for round in 0..games.div_ceil(2) {
        for (pi, &(a, b)) in pairs.iter().enumerate() {
            for k in [2 * round, 2 * round + 1] {
                if k >= games {
                    continue;
                }
                let slot = if repeat { k / 2 } else { k };
                let opening = (!order.is_empty()).then(|| order[slot % order.len()]);
                let (black, white) = if k % 2 == 0 { (a, b) } else { (b, a) };
                out.push(GameSpec {
                    id: out.len() + 1,
                    pair: pi,
                    first: a,
                    second: b,
                    black,
                    white,
                    index_in_pair: k,
                    opening,
                    transform: transforms[slot],
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_pairs() {
        assert_eq!(pairings(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(3, true), vec![(0, 1), (0, 2)]);
        assert!(pairings(1, false).is_empty());
    }

    #[test]
    fn colours_alternate_and_repeat_shares_openings() {
        let s = schedule(2, false, 6, 10, true, None, false);
        assert_eq!(s.len(), 6);
        for g in &s {
            assert_eq!(g.black == 0, g.index_in_pair % 2 == 0);
            assert_eq!(g.opening, Some(g.index_in_pair / 2));
        }
        let s = schedule(2, false, 4, 3, false, None, false);
        let ops: Vec<_> = s.iter().map(|g| g.opening.unwrap()).collect();
        assert_eq!(ops, vec![0, 1, 2, 0]);
        let s = schedule(2, false, 3, 0, true, None, false);
        assert!(s.iter().all(|g| g.opening.is_none()));
        assert_eq!(s.iter().map(|g| g.id).collect::<Vec<_>>(), vec![1, 2, 3]);
    }

    #[test]
    fn rounds_interleave_pairs() {
        let s = schedule(3, false, 4, 5, true, Some(1), false);
        assert_eq!(s.len(), 12);
        let pairs: Vec<usize> = s.iter().map(|g| g.pair).collect();
        assert_eq!(pairs, vec![0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2]);
    }

    #[test]
    fn seeds_reproduce_and_differ() {
        let a = schedule(2, false, 26, 26, true, Some(42), false);
        let b = schedule(2, false, 26, 26, true, Some(42), false);
        let c = schedule(2, false, 26, 26, true, Some(43), false);
        assert_eq!(a, b);
        assert_ne!(a, c);
        // A shuffle is a permutation: the first 13 game pairs use 13 distinct openings.
        let mut used: Vec<usize> = a.iter().map(|g| g.opening.unwrap()).collect();
        used.sort();
        used.dedup();
        assert_eq!(used.len(), 13);
        assert_ne!(opening_order(26, Some(42)), (0..26).collect::<Vec<_>>());
        assert_eq!(opening_order(5, None), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn transforms_are_seeded_and_shared_by_game_pairs() {
        let a = schedule(2, false, 40, 26, true, Some(3), true);
        assert_eq!(a, schedule(2, false, 40, 26, true, Some(3), true));
        for g in a.chunks(2) {
            assert_eq!(g[0].transform, g[1].transform);
        }
        let used: std::collections::HashSet<u8> = a.iter().map(|g| g.transform).collect();
        assert!(used.len() > 3 && used.iter().all(|&t| t < 8));
        assert!(schedule(2, false, 40, 26, true, Some(3), false)
            .iter()
            .all(|g| g.transform == 0));
    }
}
