//! Tables derived from the former linear evaluation ([`super::weights`]): where the fitted
//! tables start, and what rarely seen pattern codes and threat indices are pulled towards.

use super::tables::{Family, FamilyValues};
use super::threat::{threat_shapes, N_THREAT};
use super::weights::{self, EvalWeights};
use crate::board::{pcode_class, pcode_patterns, N_PCODES};
use crate::core::RuleKind;

/// The linear weights standing for a family.
fn linear(family: Family) -> &'static EvalWeights {
    weights::for_rule(match family {
        Family::Renju => RuleKind::Renju,
        Family::Gomoku => RuleKind::Freestyle,
    })
}

/// The linear evaluation's value of one pattern code for colour index `c`: its class and
/// its four lines at the mean of the mover's and the opponent's weights.
fn cell_value(w: &EvalWeights, pc: usize, renju_black: bool) -> i16 {
    let class = pcode_class(pc, renju_black) as usize;
    let mut v = (w.cell_me[class] + w.cell_opp[class]) / 2;
    for p in pcode_patterns(pc) {
        v += (w.line_me[p as usize] + w.line_opp[p as usize]) / 2;
    }
    v as i16
}

/// The linear evaluation's value of a threat index: the tempo bonus plus, per shape present,
/// half the difference between its weight for the mover and for the opponent.
fn threat_value(w: &EvalWeights, index: usize) -> i16 {
    let (own, opp) = threat_shapes(index);
    let mut v = w.tempo;
    for p in own {
        v += (w.cell_me[p as usize] - w.cell_opp[p as usize]) / 2;
    }
    for p in opp {
        v -= (w.cell_opp[p as usize] - w.cell_me[p as usize]) / 2;
    }
    v as i16
}

/// The prior values of a family.
pub fn prior(family: Family) -> FamilyValues {
    let w = linear(family);
    let renju = family == Family::Renju;
    let cells = [
        (0..N_PCODES).map(|pc| cell_value(w, pc, renju)).collect(),
        (0..N_PCODES).map(|pc| cell_value(w, pc, false)).collect(),
    ];
    let threat: Vec<i16> = (0..N_THREAT).map(|i| threat_value(w, i)).collect();
    FamilyValues {
        cells,
        threat: [threat.clone(), threat],
    }
}
