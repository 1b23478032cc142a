//! The search's parameters in one place: structural limits, ordering marks, the technique switches and the table of tunables.
//!
//! Tunables are read through getters (`futility_margin()`): constants in a normal build,
//! settable at run time in a build with the `tune` feature (see `tunable.rs` and
//! `docs/tuning.md`). What was measured for the values is in `docs/experiments.md`.

use std::sync::LazyLock;

use super::tunable::{tunables, TunableSpec, TuneError};
use crate::eval::tuning as eval_tuning;

// ---------------------------------------------------------------- structural limits

/// Deepest ply the search stack supports.
pub const MAX_PLY: usize = 128;
/// Entries of the per-ply stacks (lines, move lists, evaluations, killers): a node at the
/// deepest ply still writes its child's entry.
pub const PLY_STACK_LEN: usize = MAX_PLY + 2;
/// Nodes at or beyond this ply return their static evaluation instead of searching on.
pub const MAX_SEARCH_PLY: usize = MAX_PLY - 4;
/// Deepest nominal iteration depth.
pub const MAX_DEPTH: i32 = 99;
/// Initial capacity of each ply's move list (grows if a node has more moves).
pub const MOVE_LIST_CAPACITY: usize = 64;
/// Most earlier moves of a node whose history a cutoff lowers.
pub const MAX_TRIED_MOVES: usize = 64;
/// Most moves a node puts off because another thread is searching them.
pub const MAX_DEFERRED_MOVES: usize = 16;
/// Most four-making moves one VCF node tries (more never occur in real positions).
pub const MAX_FOUR_MOVES: usize = 64;
/// A leaf VCF's fours near a point (`qvcf_near`): within this many cells in both directions…
pub const NEAR_SQUARE: usize = 2;
/// …or on one of the point's four lines within this many cells.
pub const NEAR_LINE: usize = 4;
/// Nodes between polls of the stop flag and the clock.
pub const POLL_INTERVAL: u64 = 256;
/// The most plies a move's history may add to or take off its late-move reduction.
pub const LMR_HISTORY_MAX: i32 = 2;
/// Beyond this king-move distance from a last move, an answer to an open three that does
/// not take the opponent's four point counts as a delaying move (`lmr_far_defence_*`).
pub const USELESS_DEFENCE_DISTANCE: usize = 4;
/// The most (`ONE_PLY` units) `iir_tt_pct` takes off a node's depth.
pub const IIR_TT_MAX_REDUCTION: i32 = 360;
/// Nodes between two looks at the clock and the stop flag in the threat solvers.
pub const SOLVER_POLL_INTERVAL: u64 = 256;
/// A ply in the units of the main search's depth: a node's remaining depth is counted in
/// hundredths of a ply so extensions and reductions can be fractions of a ply.
pub const ONE_PLY: i32 = 100;

/// Whole plies of `depth` (in [`ONE_PLY`] units), rounded to the nearest.
pub const fn plies(depth: i32) -> i32 {
    (depth + ONE_PLY / 2).div_euclid(ONE_PLY)
}

// ---------------------------------------------------------------- ordering marks

/// Ordering scores at or above this mark forcing moves (own fours, blocks of big threats).
pub const FORCING_ORDER: i32 = 1 << 20;
/// Ordering bonus of a defence against an open three (own fours carry `FORCING_ORDER`).
pub const DEFENCE_ORDER: i32 = FORCING_ORDER / 2;
/// Ordering bonus of the transposition table's move: above every other score, forcing
/// moves included.
pub const TT_MOVE_ORDER: i32 = 1 << 24;

// ---------------------------------------------------------------- root and strength

/// With a node limit, each threat solver may use at most this fraction (1/n) of it, so that
/// the tree search keeps the rest.
pub const SOLVER_NODE_LIMIT_DIVISOR: u64 = 4;
/// The safety check (`safety`) tests root moves from this iteration depth on…
pub const SAFETY_MIN_DEPTH: i32 = 2;
/// …at most this many after one iteration (the best, and the next ones while they fail)…
pub const SAFETY_CHECKS_PER_ITERATION: usize = 3;
/// …and at most this many in one search.
pub const SAFETY_TOTAL_CHECKS: usize = 12;
/// A safety test takes at most this share of a search's node limit.
pub const SAFETY_NODE_LIMIT_DIVISOR: u64 = 10;
/// Once an aspiration window's half-width has grown past this, the window opens fully.
pub const ASPIRATION_MAX_DELTA: i32 = 1_000;
/// When no generated root move is legal, the fallback list takes the legal points within
/// this distance of a stone.
pub const FALLBACK_CANDIDATE_DISTANCE: i32 = 2;
/// Randomized choice (`game_type` 0) at full strength: any move scoring within this of the
/// best may be played.
pub const RANDOM_CHOICE_MARGIN: i32 = 12;
/// Randomized choice searches at least this many lines (multi-PV) to choose among.
pub const RANDOM_CHOICE_LINES: usize = 4;
/// Below full strength the depth cap is one ply, plus one per this many strength points.
pub const WEAK_STRENGTH_PER_PLY: i32 = 8;
/// Below full strength the node cap starts at this (strength 0)…
pub const WEAK_NODES_BASE: u64 = 500;
/// …and doubles every this many strength points…
pub const WEAK_STRENGTH_PER_DOUBLING: i32 = 7;
/// …at most this many times.
pub const WEAK_MAX_DOUBLINGS: i32 = 20;
/// Below full strength the randomized choice's margin is this per strength point missing
/// (400 at strength 0).
pub const WEAK_MARGIN_PER_POINT: i32 = 4;

// ---------------------------------------------------------------- technique switches
// Compile-time switches, for self-play ablations: build a variant with one flipped.

/// Late-move reductions.
pub const USE_LMR: bool = true;
/// Futility pruning and razoring.
pub const USE_FUTILITY: bool = true;
/// VCF quiescence at the leaves.
pub const USE_LEAF_VCF: bool = true;
/// With several threads, defer moves another thread is searching (see `smp`).
pub const USE_ABDADA: bool = true;
/// With several threads, the first helper runs the root VCT solver before joining the tree
/// search (free for the main thread, unlike the root solver: `root_vct_nodes`).
pub const USE_HELPER_VCT: bool = true;
/// Counter-move ordering bonus.
pub const USE_COUNTER_MOVE: bool = true;
/// Move ordering adds the per-direction line shapes of both colours to a point's value
/// (costly lookups).
pub const USE_LINE_ORDER: bool = false;

// ---------------------------------------------------------------- tunables
// name: type = default, min..=max, step <SPSA perturbation>;
// Ranges keep the search sound: every value in them is safe to play with.

tunables! {
    /// First aspiration half-window (centi-stones of eval).
    aspiration_delta: i32 = 30, 5..=200, step 5;
    /// Iterations below this depth use a full window.
    aspiration_min_depth: i32 = 5, 1..=12, step 1;
    /// Futility pruning applies at this remaining depth and below (0: never).
    futility_depth: i32 = 3, 0..=8, step 1;
    /// Futility margin per remaining ply (centi-stones).
    futility_margin: i32 = 90, 10..=400, step 10;
    /// Razoring applies at this remaining depth and below (0: never).
    razor_depth: i32 = 2, 0..=6, step 1;
    /// Razoring margin per remaining ply: an eval this far below alpha drops into
    /// quiescence.
    razor_margin: i32 = 160, 20..=600, step 20;
    /// Late-move reductions apply from this remaining depth (at least 2, so that a reduced
    /// search keeps a ply).
    lmr_min_depth: i32 = 2, 2..=10, step 1;
    /// Late-move reductions start after this many moves searched.
    lmr_min_moves: usize = 1, 1..=16, step 1;
    /// With `lmr_log_div` 0: reduce one ply more from this move index on.
    lmr_late_moves: usize = 8, 2..=32, step 1;
    /// With at least this depth left, reduce yet one ply more from `lmr_very_late_moves` on.
    lmr_deep_depth: i32 = 8, 2..=20, step 1;
    /// See `lmr_deep_depth`.
    lmr_very_late_moves: usize = 16, 4..=64, step 2;
    /// Late-move reductions follow `lmr_base + ln(depth) * ln(i + 1) * 100 / lmr_log_div`
    /// plies for the move of index `i` (0: one ply plus the move-count steps above instead);
    /// every rule but renju.
    lmr_log_div: i32 = 100, 0..=600, step 10;
    /// `lmr_log_div` in renju.
    lmr_log_div_renju: i32 = 178, 0..=600, step 10;
    /// The constant term of the late-move reduction (`ONE_PLY` units).
    lmr_base: i32 = 0, 0..=200, step 10;
    /// 1: the logarithmic term of the late-move reduction is kept in fractions of a ply; 0:
    /// it is rounded down to whole plies.
    lmr_fraction: i32 = 1, 0..=1, step 1;
    /// Late-move reduction added at cut nodes (`ONE_PLY` units).
    lmr_cut_node: i32 = 180, 0..=300, step 10;
    /// Late-move reduction taken off at PV nodes (`ONE_PLY` units).
    lmr_pv_node: i32 = 100, 0..=200, step 10;
    /// Late-move reduction taken off when the static evaluation improves (`ONE_PLY` units).
    lmr_improving: i32 = 0, 0..=200, step 10;
    /// Late-move reduction added at non-PV nodes whose static evaluation does not improve,
    /// when the reduction is already above a ply (`ONE_PLY` units).
    lmr_not_improving: i32 = 100, 0..=200, step 10;
    /// 1: forcing moves after the first (the mover's fours, blocks of big threats) get
    /// late-move reductions too; 0: they never do.
    lmr_forcing: i32 = 1, 0..=1, step 1;
    /// A reduced move that beats alpha by more than this plus `lmr_deeper_per_ply` for each
    /// ply of its reduction is searched again a ply deeper than unreduced (0: never).
    lmr_deeper_margin: i32 = 0, 0..=400, step 5;
    /// See `lmr_deeper_margin`.
    lmr_deeper_per_ply: i32 = 11, 0..=100, step 2;
    /// 1 (with `lmr_deeper_margin`): a reduced move that beats alpha but not the node's best
    /// score plus a point per ply is searched again a ply shallower than unreduced.
    lmr_shallower: i32 = 0, 0..=1, step 1;
    /// At a PV node whose table entry is shallower than the node, this many `ONE_PLY`
    /// hundredths per ply of the difference come off the depth (at most
    /// `IIR_TT_MAX_REDUCTION`; 0: none).
    iir_tt_pct: i32 = 0, 0..=100, step 2;
    /// Depth (`ONE_PLY` units) added to the table move at PV nodes.
    tt_move_ext_pv: i32 = 25, 0..=100, step 5;
    /// Depth (`ONE_PLY` units) added to the table move at non-PV nodes.
    tt_move_ext: i32 = 8, 0..=100, step 5;
    /// A move's history score times `ONE_PLY` divided by this comes off its late-move
    /// reduction (within `LMR_HISTORY_MAX` plies either way; 0: history does not change it).
    lmr_history_div: i32 = 0, 0..=16_384, step 256;
    /// Late-move reduction taken off at a node that is or was on a principal variation (the
    /// table entry's flag; `ONE_PLY` units).
    lmr_tt_pv: i32 = 0, 0..=200, step 10;
    /// Renju: late-move reduction taken off a move on a point forbidden to Black (`ONE_PLY`
    /// units): White taking it, or Black's move there being searched at all, matters.
    lmr_false_forbid: i32 = 0, 0..=200, step 10;
    /// Late-move reduction added at a node answering an open three (`Threat::Defend`) to a
    /// move that is not where the opponent makes a four and lies more than
    /// `USELESS_DEFENCE_DISTANCE` from the opponent's last move (`ONE_PLY` units).
    lmr_far_defence_opp: i32 = 0, 0..=300, step 10;
    /// The same, for a move that far from the mover's own last move.
    lmr_far_defence_own: i32 = 0, 0..=300, step 10;
    /// 1: a node's killer moves (when it answers no threat and the killer makes less than an
    /// open three) do not get the cut-node reduction `lmr_cut_node`.
    lmr_cut_killer: i32 = 0, 0..=1, step 1;
    /// Root moves from this index on are first searched `root_lmr_reduction` plies less (a
    /// result above alpha is searched again at full depth).
    root_lmr_min_moves: usize = 6, 1..=32, step 1;
    /// Plies the root's late-move reduction takes off.
    root_lmr_reduction: i32 = 1, 0..=3, step 1;
    /// Late-move pruning: at depth d a non-PV quiet node keeps at most `lmp_base` + d*d moves.
    lmp_base: usize = 4, 0..=20, step 1;
    /// Late-move pruning applies at this remaining depth and below.
    lmp_max_depth: i32 = 4, 0..=8, step 1;
    /// With several threads, busy moves are deferred at nodes of at least this depth.
    abdada_min_depth: i32 = 3, 1..=12, step 1;
    /// Ordering bonus of a node's first killer move.
    killer_bonus: i32 = 300, 0..=2000, step 25;
    /// Ordering bonus of a node's second killer move.
    second_killer_bonus: i32 = 250, 0..=2000, step 25;
    /// Ordering bonus of the counter move.
    counter_move_bonus: i32 = 200, 0..=2000, step 25;
    /// A move's history score is divided by this before it joins its ordering score.
    history_order_divisor: i32 = 64, 4..=1024, step 8;
    /// History scores saturate towards this magnitude.
    history_max: i32 = 16_384, 1_024..=65_536, step 1_024;
    /// Largest history change of one cutoff (the change is depth squared, capped by this).
    history_bonus_max: i32 = 400, 16..=4000, step 32;
    /// Null-move pruning applies from this remaining depth in quiet non-PV nodes (0: off).
    nmp_min_depth: i32 = 0, 0..=12, step 1;
    /// Null-move pruning needs the static evaluation this far above beta.
    nmp_margin: i32 = 0, 0..=600, step 20;
    /// Plies a null move takes off besides the move itself…
    nmp_reduction: i32 = 2, 1..=6, step 1;
    /// …plus one more per this many plies of remaining depth.
    nmp_depth_divisor: i32 = 4, 1..=16, step 1;
    /// Internal iterative reduction: a PV or cut node without a table move searches one ply
    /// less from this remaining depth (0: off).
    iir_min_depth: i32 = 6, 0..=12, step 1;
    /// Depth (`ONE_PLY` units) added to a node that must answer the opponent's open three
    /// (0: none).
    defend_extension: i32 = 100, 0..=200, step 10;
    /// The defend extension only from this remaining depth (1: an open three met at the
    /// horizon is a leaf, not a node of its own).
    defend_ext_min_depth: i32 = 0, 0..=4, step 1;
    /// 1: at a node answering an open three, the mover's plain fours are tried before the
    /// defences; 0: ranked among them by pattern value.
    defend_four_order: i32 = 1, 0..=1, step 1;
    /// 1: a cutoff at a node answering an open three also updates the history scores; 2:
    /// and the counter move.
    defend_history: i32 = 1, 0..=2, step 1;
    /// 1: a transposition-table cutoff at or above beta rewards the table's move in the
    /// move-ordering memory as a searched cutoff would.
    tt_cut_history: i32 = 0, 0..=1, step 1;
    /// 1: moves making an open three or better keep their own history table (updated at
    /// quiet nodes and at nodes answering an open three, read by ordering with
    /// `attack_order_divisor`); 0: one table for all moves.
    attack_history: i32 = 0, 0..=1, step 1;
    /// An attacking move's attack-history score is divided by this before it joins its
    /// ordering score.
    attack_order_divisor: i32 = 32, 4..=1024, step 8;
    /// 1: late-move reductions also at nodes answering an open three (the defences after the
    /// first few; the mover's fours only with `lmr_forcing`); 0: quiet nodes only.
    defend_lmr: i32 = 1, 0..=1, step 1;
    /// 1: a quiet node's killer moves may be attacking moves (an open three or better); 0:
    /// only moves below that become killers.
    attack_killers: i32 = 1, 0..=1, step 1;
    /// 1: a continuation history (scores of replies to the opponent's previous move) is
    /// kept where the history scores are and read by ordering with `cont_order_divisor`.
    cont_history: i32 = 0, 0..=1, step 1;
    /// A move's continuation-history score is divided by this before it joins its ordering
    /// score.
    cont_order_divisor: i32 = 64, 4..=1024, step 8;
    /// Non-zero: at quiet nodes a killer move that is not forcing is ordered as a forcing
    /// move of this rank (above plain fours, below fours that make an open three), so it is
    /// tried before the plain fours; 0: killers come after every forcing move.
    killer_four_rank: i32 = 0, 0..=1500, step 50;
    /// 1: the main thread's history, continuation history and counter moves carry over to
    /// the next search, their scores halved (killers are cleared); 0: every search starts
    /// with empty tables.
    keep_history: i32 = 0, 0..=1, step 1;
    /// 1: at quiet nodes a late plain four (a four that makes no open three and blocks no
    /// big threat) may get a late-move reduction like a quiet move (it is still ordered first
    /// and never pruned); 0: fours are reduced only with `lmr_forcing` (then this changes
    /// nothing).
    reduce_plain_fours: i32 = 0, 0..=1, step 1;
    /// 1: where the opponent has a four-three point that wins by force, a non-root node with no
    /// other threat to answer searches only the moves that leave it none, plus its own fours
    /// (all moves when there are none); 0: every candidate.
    four_three_defence: i32 = 1, 0..=1, step 1;
    /// Depth (`ONE_PLY` units) added to a node that must answer the opponent's winning
    /// four-three point (with `four_three_defence`; 0: none). Capped like the other extensions.
    four_three_extension: i32 = 0, 0..=100, step 10;
    /// 1: a node with no four or open four on the board returns a mate at once when the side
    /// to move has a winning four-three point, or a double three the opponent cannot meet
    /// with a four (`Board::quick_win`); 0: the search finds them.
    quick_wins: i32 = 1, 0..=1, step 1;
    /// Depth (`ONE_PLY` units) added to the forced block of the opponent's four (0: the
    /// block costs a ply).
    block_extension: i32 = 130, 0..=200, step 10;
    /// A plain four (one that makes no open three) is a forcing move: ordered first, never
    /// reduced or pruned (0: only fours that also make an open three are, and plain fours
    /// are ordered, reduced and pruned as quiet moves by their pattern value).
    four_forcing: i32 = 1, 0..=1, step 1;
    /// The block and defend extensions apply at plies below this percentage of the
    /// iteration's depth (a cap that keeps forcing lines from growing without end).
    extension_cap_pct: i32 = 200, 50..=800, step 10;
    /// The open-three (defend) extension's own cap, a percentage of the iteration's depth
    /// like `extension_cap_pct`; the lower of the two applies (at 100 the answers to threes
    /// stop compounding along long forcing lines while the block of a four keeps the wider
    /// cap: docs/experiments-3.md, session 24).
    defend_cap_pct: i32 = 200, 50..=800, step 10;
    /// Late-move reduction (`ONE_PLY` units) taken off a move that makes an open three or
    /// better when the mover's move two plies before did too (a continued attack; 0: none).
    continued_attack_reduction: i32 = 53, 0..=200, step 10;
    /// Move-count pruning at every depth (0: off): past
    /// `(mcp_base + depth^1.32 * mcp_scale_pct / 100) / (2 - improving)` moves, a node that has
    /// a non-losing move prunes its remaining non-forcing moves.
    mcp_base: i32 = 0, 0..=20, step 1;
    /// See `mcp_base`.
    mcp_scale_pct: i32 = 100, 20..=400, step 10;
    /// Moves where neither side has any shape are pruned below this remaining depth (0: never).
    trivial_prune_depth: i32 = 0, 0..=8, step 1;
    /// Late-move reduction (`ONE_PLY` units) added for a move where neither side has any
    /// shape (0: none).
    trivial_reduction: i32 = 0, 0..=300, step 10;
    /// Fail-high reduction: in a cut node whose evaluation is this much (per ply, plus
    /// `fhr_bias`) above beta, non-forcing moves are searched one ply less (0: off).
    fhr_margin: i32 = 0, 0..=100, step 5;
    /// See `fhr_margin`.
    fhr_bias: i32 = 0, -100..=300, step 10;
    /// Singular extensions from this remaining depth (0: off): a table move that failed high
    /// is searched a ply deeper when no other move reaches its value less `se_margin` per
    /// ply in a search of half the depth.
    se_min_depth: i32 = 0, 0..=16, step 1;
    /// See `se_min_depth`.
    se_margin: i32 = 4, 1..=60, step 1;
    /// The table entry may be this many plies shallower than the node for the test.
    se_tt_depth_slack: i32 = 3, 0..=8, step 1;
    /// Leaves (remaining depth 0) keep their result in the transposition table and read it
    /// back before running their VCF (0: never).
    leaf_tt: i32 = 1, 0..=1, step 1;
    /// A leaf whose static evaluation lies this far or more below alpha skips its VCF (0:
    /// always tried).
    qvcf_delta: i32 = 0, 0..=2000, step 20;
    /// A leaf's VCF only plays fours near the attacker's last stone, each later four near the
    /// one before (0: every four).
    qvcf_near: i32 = 1, 0..=1, step 1;
    /// Leaves run the evaluating four quiescence (`qfours`): the side to move may stand on
    /// its evaluation or play fours, and a line of fours counts for the evaluation it ends
    /// in, not only for a mate (0: the mate-only VCF).
    qvcf_eval: i32 = 0, 0..=1, step 1;
    /// In the evaluating quiescence, plain fours are tried at this many first levels; deeper,
    /// only fours that also make a three or a two.
    qvcf_plain: i32 = 20, 0..=20, step 1;
    /// Most attacker fours in a VCF at a search leaf.
    qvcf_depth: i32 = 6, 1..=20, step 1;
    /// Node budget of one leaf VCF.
    qvcf_nodes: u64 = 300, 20..=5000, step 20;
    /// Most attacker fours in the root VCF solver.
    root_vcf_depth: i32 = 30, 2..=60, step 2;
    /// Node budget of the root VCF solver.
    root_vcf_nodes: u64 = 200_000, 1_000..=5_000_000, step 10_000;
    /// Node budget of the root VCT solver, the proof-number threat search on the main
    /// thread before the tree search (0: off; the depth-first solver it replaced cost more
    /// time than its finds were worth).
    root_vct_nodes: u64 = 0, 0..=5_000_000, step 10_000;
    /// Node budget of one safety test: the opponent's proof-number threat search after the
    /// best root move (0: no safety check).
    safety_check_nodes: u64 = 0, 0..=1_000_000, step 2_000;
    /// Node budget of the helper thread's VCT.
    helper_vct_nodes: u64 = 3_000_000, 10_000..=30_000_000, step 100_000;
    /// Time: with only a turn limit, the optimum is this share of the maximum.
    turn_only_optimum: f64 = 0.7, 0.3..=1.0, step 0.05;
    /// Time: the maximum is at most this many optimums…
    max_over_optimum: f64 = 4.0, 1.5..=8.0, step 0.25;
    /// …and at most this share of the usable game clock.
    max_fraction_of_left: f64 = 0.15, 0.05..=0.3, step 0.01;
    /// Time: no new iteration starts past this share of the optimum (times the stability and
    /// falling-score factors).
    iteration_target_share: f64 = 0.6, 0.3..=1.2, step 0.05;
    /// Time: the stability factor once the best move has not changed for several iterations.
    settled_factor: f64 = 0.5, 0.2..=1.0, step 0.05;
    /// Time: the root VCF solver stops at this share (percent) of the maximum.
    root_vcf_time_pct: u64 = 20, 5..=60, step 5;
    /// Time: the root VCT solver stops at this share (percent) of the maximum.
    root_vct_time_pct: u64 = 35, 5..=80, step 5;
    /// Time: the helper thread's VCT stops at this share (percent) of the maximum.
    helper_vct_time_pct: u64 = 80, 10..=100, step 5;
}

/// Every tunable: name, kind, default, range and SPSA step, in table order (the search's,
/// then the evaluation's weights, `eval::tuning`). Its [`TunableSpec::spsa_line`] is the line
/// an SPSA tuner reads.
pub fn tunables() -> &'static [TunableSpec] {
    static ALL: LazyLock<Vec<TunableSpec>> = LazyLock::new(|| {
        let mut all = TUNABLES.specs().to_vec();
        all.extend_from_slice(eval_tuning::specs());
        all
    });
    &ALL
}

/// The current value of tunable `name` (its default in a normal build).
pub fn tunable_value(name: &str) -> Option<f64> {
    TUNABLES.value(name).or_else(|| eval_tuning::value(name))
}

/// Sets tunable `name` from the text `value`, checked against its kind and range. Only a
/// build with the `tune` feature changes anything; on an error nothing changes.
pub fn set_tunable(name: &str, value: &str) -> Result<(), TuneError> {
    match TUNABLES.set(name, value) {
        Err(TuneError::UnknownName(_)) => eval_tuning::set(name, value),
        done => done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_round_depth_units_to_the_nearest_ply() {
        assert_eq!(plies(0), 0);
        assert_eq!(plies(ONE_PLY / 2 - 1), 0);
        assert_eq!(plies(ONE_PLY / 2), 1);
        assert_eq!(plies(3 * ONE_PLY), 3);
        assert_eq!(plies(3 * ONE_PLY + 49), 3);
        assert_eq!(plies(-ONE_PLY / 2), 0);
        assert_eq!(plies(-ONE_PLY / 2 - 1), -1);
        assert_eq!(plies(-3 * ONE_PLY), -3);
    }
}
