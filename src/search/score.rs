//! Search scores: centi-stone evaluations and mate distances, their adjustment for the
//! transposition table, and the text form reports use.

/// Score from the side to move's point of view. Mates are `MATE - plies` / `-(MATE - plies)`.
pub type Score = i32;
/// Value of a win at the root (a win in n plies scores `MATE - n`).
pub const MATE: Score = 30_000;
/// Scores at or beyond this magnitude are forced wins/losses.
pub const MATE_BOUND: Score = MATE - 1_000;

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

/// The score as the protocol prints it (`+M3`, `-M4`, `35`).
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

    const MAX_PLY_TEST: usize = crate::search::params::MAX_PLY;
}
