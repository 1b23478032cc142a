//! The linear evaluation's weights and the move ordering's pattern values as run-time
//! tunables, so that SPSA can tune them by play.
//!
//! Every weight of `weights::RENJU` and `weights::GOMOKU` that shapes quiet positions is listed
//! as a tunable named `w_<family>_<table>_<shape>` (e.g. `w_renju_cell_me_flex3`,
//! `w_gomoku_line_opp_block3`, `w_renju_tempo`), and every ordering value below the forcing
//! marks (`weights::ORDER`, one set for all rules) as `o_<table>_<shape>` (e.g.
//! `o_attack_flex3`, `o_defend_block4`), beside the search's tunables (`pbrain-pentad
//! tunables`, `INFO tune_<name>`). As with those, a normal build uses the constants and
//! refuses to set anything; a build with the `tune` feature reads the current values, which
//! start at the constants.

use std::sync::{LazyLock, RwLock};

use super::tables::Family;
use super::weights::{EvalWeights, OrderWeights, GOMOKU, ORDER, RENJU};
use crate::core::tunable::{TunableKind, TunableSpec, TuneError, TUNING};
use crate::core::RuleKind;

/// The rule families with their own weights, in the order of [`TUNED`] (by
/// [`Family::index`]).
const FAMILIES: [(&str, EvalWeights); 2] = [("renju", RENJU), ("gomoku", GOMOKU)];

/// Names of the `Pattern4` shapes, by discriminant.
const PATTERN4_NAMES: [&str; 14] = [
    "none",
    "forbid",
    "flex2",
    "block3",
    "flex2x2",
    "block3plus",
    "flex3",
    "flex3plus",
    "flex3x2",
    "block4",
    "block4plus",
    "block4flex3",
    "flex4",
    "five",
];
/// Names of the per-direction `Pattern` shapes, by discriminant.
const PATTERN_NAMES: [&str; 11] = [
    "dead", "overline", "block1", "flex1", "block2", "flex2", "block3", "flex3", "block4", "flex4",
    "five",
];
/// The combined shapes whose weights are tunable: forbidden points (renju only) up to the
/// four-three. An open four or a five on the board is the search's business.
const TUNED_CELLS: std::ops::RangeInclusive<usize> = 1..=11;
/// The per-direction shapes whose evaluation weights are tunable: two stones blocked up to
/// an open four. The one-stone shapes are left out: every stone makes dozens of them, so one
/// point more for the mover's than for the opponent's acts as a tempo bonus of a hundred
/// or more, which wrecks the pruning margins (−220 Elo for a change of 1 and 1,
/// docs/experiments-2.md); their sixteenth-of-a-point corrections
/// (`w_<family>_fine_me_block1`, `w_<family>_fine_opp_block1`) are tunable instead.
const TUNED_LINES: std::ops::RangeInclusive<usize> = 4..=9;
/// The combined shapes whose ordering values are tunable: an open two up to the four-three
/// (which the forcing marks rank above every quiet move anyway).
const TUNED_ORDER_CELLS: std::ops::RangeInclusive<usize> = 2..=11;
/// A tuned weight may move from its default by this many points at least…
const MIN_SPAN: i32 = 40;
/// …or by this many times its size, whichever is more.
const SPAN_FACTOR: i32 = 3;
/// SPSA's last perturbation of a weight: this fraction (1/n) of its size… (an eighth, with
/// every weight perturbed at once, moved the evaluation so far that θ+ and θ− played
/// different games altogether: docs/experiments-2.md)
const STEP_DIVISOR: i32 = 16;
/// …and at least this much.
const MIN_STEP: i32 = 1;

/// Which weight of a set a tunable is.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Tempo,
    CellMe(usize),
    CellOpp(usize),
    LineMe(usize),
    LineOpp(usize),
    FineMeBlock1,
    FineOppBlock1,
}

/// Which ordering value a tunable is.
#[derive(Clone, Copy, Debug)]
enum OrderSlot {
    Attack(usize),
    Defend(usize),
}

impl OrderSlot {
    fn get_mut(self, w: &mut OrderWeights) -> &mut i32 {
        match self {
            OrderSlot::Attack(i) => &mut w.attack[i],
            OrderSlot::Defend(i) => &mut w.defend[i],
        }
    }

    fn get(self, w: &OrderWeights) -> i32 {
        match self {
            OrderSlot::Attack(i) => w.attack[i],
            OrderSlot::Defend(i) => w.defend[i],
        }
    }
}

/// What a tunable sets: an evaluation weight of a family, or an ordering value.
#[derive(Clone, Copy, Debug)]
enum Target {
    Eval { family: usize, slot: Slot },
    Order(OrderSlot),
}

impl Slot {
    fn get(self, w: &EvalWeights) -> i32 {
        match self {
            Slot::Tempo => w.tempo,
            Slot::CellMe(i) => w.cell_me[i],
            Slot::CellOpp(i) => w.cell_opp[i],
            Slot::LineMe(i) => w.line_me[i],
            Slot::LineOpp(i) => w.line_opp[i],
            Slot::FineMeBlock1 => w.fine_me_block1,
            Slot::FineOppBlock1 => w.fine_opp_block1,
        }
    }

    fn get_mut(self, w: &mut EvalWeights) -> &mut i32 {
        match self {
            Slot::Tempo => &mut w.tempo,
            Slot::CellMe(i) => &mut w.cell_me[i],
            Slot::CellOpp(i) => &mut w.cell_opp[i],
            Slot::LineMe(i) => &mut w.line_me[i],
            Slot::LineOpp(i) => &mut w.line_opp[i],
            Slot::FineMeBlock1 => &mut w.fine_me_block1,
            Slot::FineOppBlock1 => &mut w.fine_opp_block1,
        }
    }
}

/// One tunable weight: its spec and what it sets.
struct WeightTunable {
    spec: TunableSpec,
    target: Target,
}

/// The spec of a whole-number tunable weight with default `default`.
fn weight_spec(name: String, default: i32) -> TunableSpec {
    let span = MIN_SPAN.max(SPAN_FACTOR * default.abs());
    let step = MIN_STEP.max(default.abs() / STEP_DIVISOR);
    TunableSpec {
        name: Box::leak(name.into_boxed_str()),
        kind: TunableKind::Int,
        default: f64::from(default),
        min: f64::from(default - span),
        max: f64::from(default + span),
        step: f64::from(step),
    }
}

/// Every tunable weight, renju's first.
static WEIGHT_TUNABLES: LazyLock<Vec<WeightTunable>> = LazyLock::new(|| {
    let mut list = Vec::new();
    for (family, (family_name, weights)) in FAMILIES.iter().enumerate() {
        let mut slots = vec![(Slot::Tempo, "tempo".to_string())];
        for i in TUNED_CELLS {
            // Forbidden points exist only under renju.
            if i == 1 && Family::Renju.index() != family {
                continue;
            }
            let shape = PATTERN4_NAMES[i];
            slots.push((Slot::CellMe(i), format!("cell_me_{shape}")));
            slots.push((Slot::CellOpp(i), format!("cell_opp_{shape}")));
        }
        for i in TUNED_LINES {
            let shape = PATTERN_NAMES[i];
            slots.push((Slot::LineMe(i), format!("line_me_{shape}")));
            slots.push((Slot::LineOpp(i), format!("line_opp_{shape}")));
        }
        slots.push((Slot::FineMeBlock1, "fine_me_block1".to_string()));
        slots.push((Slot::FineOppBlock1, "fine_opp_block1".to_string()));
        for (slot, what) in slots {
            let spec = weight_spec(format!("w_{family_name}_{what}"), slot.get(weights));
            let target = Target::Eval { family, slot };
            list.push(WeightTunable { spec, target });
        }
    }
    let mut order_slots = Vec::new();
    for i in TUNED_ORDER_CELLS {
        let shape = PATTERN4_NAMES[i];
        order_slots.push((OrderSlot::Attack(i), format!("attack_{shape}")));
        order_slots.push((OrderSlot::Defend(i), format!("defend_{shape}")));
    }
    for (slot, what) in order_slots {
        let spec = weight_spec(format!("o_{what}"), slot.get(&ORDER));
        list.push(WeightTunable {
            spec,
            target: Target::Order(slot),
        });
    }
    list
});

/// The specs of the tunable weights, in listing order.
static SPECS: LazyLock<Vec<TunableSpec>> =
    LazyLock::new(|| WEIGHT_TUNABLES.iter().map(|t| t.spec).collect());

/// The weights in use per family (read only by a `tune` build's evaluation).
static TUNED: [RwLock<EvalWeights>; 2] = [RwLock::new(RENJU), RwLock::new(GOMOKU)];
/// The ordering values in use (read only by a `tune` build's move generation).
static TUNED_ORDER: RwLock<OrderWeights> = RwLock::new(ORDER);

/// Every tunable weight's spec.
pub fn specs() -> &'static [TunableSpec] {
    &SPECS
}

/// The weights the evaluation uses under `kind`: the constants, or in a `tune` build the
/// values set at run time.
pub fn current(kind: RuleKind) -> EvalWeights {
    current_of_family(Family::of(kind).index())
}

/// The weights in use for family `family` (an index of [`FAMILIES`]).
fn current_of_family(family: usize) -> EvalWeights {
    if !TUNING {
        return FAMILIES[family].1;
    }
    *TUNED[family].read().unwrap_or_else(|e| e.into_inner())
}

/// The ordering values the move generation uses: the constants, or in a `tune` build the
/// values set at run time.
pub fn current_order() -> OrderWeights {
    if !TUNING {
        return ORDER;
    }
    *TUNED_ORDER.read().unwrap_or_else(|e| e.into_inner())
}

/// The current value of the tunable weight `name`, if there is one.
pub fn value(name: &str) -> Option<f64> {
    let t = WEIGHT_TUNABLES.iter().find(|t| t.spec.name == name)?;
    let v = match t.target {
        Target::Eval { family, slot } => slot.get(&current_of_family(family)),
        Target::Order(slot) => slot.get(&current_order()),
    };
    Some(f64::from(v))
}

/// Sets the tunable weight `name` from `text` (checked against its range); only a `tune`
/// build changes anything, and on an error nothing changes.
pub fn set(name: &str, text: &str) -> Result<(), TuneError> {
    let t = WEIGHT_TUNABLES
        .iter()
        .find(|t| t.spec.name == name)
        .ok_or_else(|| TuneError::UnknownName(name.to_string()))?;
    let value = t.spec.parse(text)?;
    if !TUNING {
        return Err(TuneError::NotTuningBuild);
    }
    match t.target {
        Target::Eval { family, slot } => {
            let mut weights = TUNED[family].write().unwrap_or_else(|e| e.into_inner());
            *slot.get_mut(&mut weights) = value as i32;
        }
        Target::Order(slot) => {
            let mut weights = TUNED_ORDER.write().unwrap_or_else(|e| e.into_inner());
            *slot.get_mut(&mut weights) = value as i32;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_weight_reads_its_constant() {
        // Evaluation: 37 renju and 35 gomoku weights; ordering: 20 attack and defence values.
        assert_eq!(specs().len(), 37 + 35 + 20);
        assert!(specs().iter().all(|s| !s.name.starts_with("o_line_")));
        for t in WEIGHT_TUNABLES.iter() {
            let constant = match t.target {
                Target::Eval { family, slot } => slot.get(&FAMILIES[family].1),
                Target::Order(slot) => slot.get(&ORDER),
            };
            assert_eq!(t.spec.default, f64::from(constant), "{}", t.spec.name);
            assert!(t.spec.min <= t.spec.default && t.spec.default <= t.spec.max);
        }
        let flex3 = specs()
            .iter()
            .find(|s| s.name == "w_renju_cell_me_flex3")
            .unwrap();
        assert_eq!(flex3.default, f64::from(RENJU.cell_me[6]));
        assert!(specs().iter().all(|s| s.name != "w_gomoku_cell_me_forbid"));
        assert!(specs().iter().all(|s| s.name != "w_renju_line_me_block1"));
        assert_eq!(value("o_defend_flex3"), Some(f64::from(ORDER.defend[6])));
    }

    #[test]
    fn bad_names_and_values_change_nothing() {
        assert!(matches!(
            set("w_renju_cell_me_five", "1"),
            Err(TuneError::UnknownName(_))
        ));
        assert!(matches!(
            set("w_gomoku_tempo", "100000"),
            Err(TuneError::OutOfRange { .. })
        ));
        assert_eq!(value("w_gomoku_tempo"), Some(f64::from(GOMOKU.tempo)));
    }
}
