//! What a proved win by continuous threats is ([`VctWin`]): the answer of the engine's
//! threat prover (`pns`) that the root search plays, and of the tools' depth-first VCT solver.

use crate::core::Pos;

/// A win by continuous threats (fours and open threes) for the side to move: the first move,
/// the plies to the five (attacker's moves included), and the line as far as it was recorded.
pub type VctWin = (Pos, u32, Vec<Pos>);
