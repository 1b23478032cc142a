//! The search's parameters in one place: structural limits, ordering marks and the table of
//! tunables.
//!
//! Tunables are read through getters (`futility_margin()`): constants in a normal build,
//! settable at run time in a build with the `tune` feature (see `core::tunable` and
//! `docs/tuning.md`). What was measured for the values is in `docs/experiments.md`.

use std::sync::LazyLock;

use crate::core::tunable::{tunables, TunableSpec, TuneError};
use crate::core::RuleKind;
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
/// A leaf VCF's fours near a point: within this many cells in both directions…
pub const NEAR_SQUARE: usize = 2;
/// …or on one of the point's four lines within this many cells.
pub const NEAR_LINE: usize = 4;
/// Nodes between polls of the stop flag and the clock.
pub const POLL_INTERVAL: u64 = 256;
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
    /// quiescence; every rule but renju.
    razor_margin: i32 = 160, 20..=600, step 20;
    /// `razor_margin` in renju.
    razor_margin_renju: i32 = 160, 20..=600, step 20;
    /// Late-move reductions apply from this remaining depth (at least 2, so that a reduced
    /// search keeps a ply).
    lmr_min_depth: i32 = 2, 2..=10, step 1;
    /// Late-move reductions start after this many moves searched.
    lmr_min_moves: usize = 1, 1..=16, step 1;
    /// Late-move reductions follow `ln(depth) * ln(i + 1) * 100 / lmr_log_div` plies (kept in
    /// fractions of a ply) for the move of index `i`; every rule but renju.
    lmr_log_div: i32 = 100, 10..=600, step 10;
    /// `lmr_log_div` in renju.
    lmr_log_div_renju: i32 = 178, 10..=600, step 10;
    /// Late-move reduction added at cut nodes (`ONE_PLY` units).
    lmr_cut_node: i32 = 180, 0..=300, step 10;
    /// Late-move reduction taken off at PV nodes (`ONE_PLY` units).
    lmr_pv_node: i32 = 100, 0..=200, step 10;
    /// Late-move reduction added at non-PV nodes whose static evaluation does not improve,
    /// when the reduction is already above a ply (`ONE_PLY` units).
    lmr_not_improving: i32 = 100, 0..=200, step 10;
    /// Depth (`ONE_PLY` units) added to the table move at PV nodes.
    tt_move_ext_pv: i32 = 25, 0..=100, step 5;
    /// Depth (`ONE_PLY` units) added to the table move at non-PV nodes.
    tt_move_ext: i32 = 8, 0..=100, step 5;
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
    /// Ordering units per unit (nat) of the network's policy logit, added to every move's
    /// ordering score when the board has a network with a policy (0: the policy is not read).
    policy_order: i32 = 150, 0..=2000, step 25;
    /// The policy orders the moves of nodes with at least this remaining depth (plies).
    policy_min_depth: i32 = 2, 1..=10, step 1;
    /// Late-move reduction (`ONE_PLY` units) per nat that the policy puts a move below the
    /// node's best move, past `policy_lmr_pivot` (0: the policy does not reduce); every
    /// rule but renju.
    policy_lmr: i32 = 50, 0..=200, step 10;
    /// `policy_lmr` in renju.
    policy_lmr_renju: i32 = 50, 0..=200, step 10;
    /// The policy gap (hundredths of a nat) below which a late move is reduced less; every
    /// rule but renju.
    policy_lmr_pivot: i32 = 200, 0..=1000, step 25;
    /// `policy_lmr_pivot` in renju.
    policy_lmr_pivot_renju: i32 = 200, 0..=1000, step 25;
    /// History scores saturate towards this magnitude.
    history_max: i32 = 16_384, 1_024..=65_536, step 1_024;
    /// Largest history change of one cutoff (the change is depth squared, capped by this).
    history_bonus_max: i32 = 400, 16..=4000, step 32;
    /// Internal iterative reduction: a PV or cut node without a table move searches one ply
    /// less from this remaining depth (0: off).
    iir_min_depth: i32 = 6, 0..=12, step 1;
    /// Depth (`ONE_PLY` units) added to a node that must answer the opponent's open three
    /// (0: none); every rule but renju.
    defend_extension: i32 = 100, 0..=200, step 10;
    /// `defend_extension` in renju.
    defend_extension_renju: i32 = 100, 0..=200, step 10;
    /// Depth (`ONE_PLY` units) added to the forced block of the opponent's four (0: the
    /// block costs a ply); every rule but renju.
    block_extension: i32 = 130, 0..=200, step 10;
    /// `block_extension` in renju.
    block_extension_renju: i32 = 130, 0..=200, step 10;
    /// The block and defend extensions apply at plies below this percentage of the
    /// iteration's depth (a cap that keeps forcing lines from growing without end); every
    /// rule but renju.
    extension_cap_pct: i32 = 150, 50..=800, step 10;
    /// `extension_cap_pct` in renju.
    extension_cap_pct_renju: i32 = 200, 50..=800, step 10;
    /// Late-move reduction (`ONE_PLY` units) taken off a move that makes an open three or
    /// better when the mover's move two plies before did too (a continued attack; 0: none);
    /// every rule but renju.
    continued_attack_reduction: i32 = 53, 0..=200, step 10;
    /// `continued_attack_reduction` in renju.
    continued_attack_reduction_renju: i32 = 53, 0..=200, step 10;
    /// Most attacker fours in a VCF at a search leaf.
    qvcf_depth: i32 = 6, 1..=20, step 1;
    /// Node budget of one leaf VCF.
    qvcf_nodes: u64 = 300, 20..=5000, step 20;
    /// Most attacker fours in the root VCF solver.
    root_vcf_depth: i32 = 30, 2..=60, step 2;
    /// Node budget of the root VCF solver.
    root_vcf_nodes: u64 = 200_000, 1_000..=5_000_000, step 10_000;
    /// Node budget of the first helper thread's threat proof (with several threads it runs
    /// before that thread joins the tree search).
    helper_vct_nodes: u64 = 3_000_000, 10_000..=30_000_000, step 100_000;
    /// Time: with only a turn limit, the optimum is this share of the maximum.
    turn_only_optimum: f64 = 0.7, 0.3..=1.0, step 0.05;
    /// Time: the game length in plies that [`moves_to_go`](crate::search::time::moves_to_go)
    /// shares a game clock over. Games are short: renju from the 3-stone openings lasts about
    /// 58 plies, freestyle about 70. At 80 plies (and at least 20 moves to go) Pentad ended
    /// its games with most of the clock unspent; 60 and 16, with the optimum as the iteration
    /// target, gained about 68 Elo in renju (12 s a game, 2 s a move).
    expected_game_plies: i64 = 60, 20..=160, step 10;
    /// Time: the maximum is at most this many optimums…
    max_over_optimum: f64 = 4.0, 1.5..=8.0, step 0.75;
    /// …and at most this share of the usable game clock.
    max_fraction_of_left: f64 = 0.15, 0.05..=0.3, step 0.03;
    /// Time: no new iteration starts past this share of the optimum (times the stability and
    /// falling-score factors). At 0.6 Pentad left most of a game clock unspent.
    iteration_target_share: f64 = 1.0, 0.3..=2.0, step 0.2;
    /// Time: the stability factor once the best move has not changed for several iterations.
    settled_factor: f64 = 0.5, 0.2..=1.0, step 0.15;
    /// Time: the root VCF solver stops at this share (percent) of the maximum.
    root_vcf_time_pct: u64 = 20, 5..=60, step 5;
    /// Time: the helper thread's VCT stops at this share (percent) of the maximum.
    helper_vct_time_pct: u64 = 80, 10..=100, step 5;
}

/// The tunables that renju keeps apart from the other rules, read once when a search thread
/// starts: renju's `_renju` copies, or the shared values for every other rule. Renju's
/// forbidden points change which threats exist and how long its games run, so its margins,
/// extensions and reductions were tuned on their own (`docs/experiments.md`, *Search: the
/// parameters tuned together*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleTunables {
    /// See `razor_margin`.
    pub razor_margin: i32,
    /// See `lmr_log_div`.
    pub lmr_log_div: i32,
    /// See `policy_lmr`.
    pub policy_lmr: i32,
    /// See `policy_lmr_pivot`.
    pub policy_lmr_pivot: i32,
    /// See `defend_extension`.
    pub defend_extension: i32,
    /// See `block_extension`.
    pub block_extension: i32,
    /// See `continued_attack_reduction`.
    pub continued_attack_reduction: i32,
    /// See `extension_cap_pct`.
    pub extension_cap_pct: i32,
}

impl RuleTunables {
    /// The current values for a search under `rule`.
    pub fn for_rule(rule: RuleKind) -> RuleTunables {
        if rule == RuleKind::Renju {
            RuleTunables {
                razor_margin: razor_margin_renju(),
                lmr_log_div: lmr_log_div_renju(),
                policy_lmr: policy_lmr_renju(),
                policy_lmr_pivot: policy_lmr_pivot_renju(),
                defend_extension: defend_extension_renju(),
                block_extension: block_extension_renju(),
                continued_attack_reduction: continued_attack_reduction_renju(),
                extension_cap_pct: extension_cap_pct_renju(),
            }
        } else {
            RuleTunables {
                razor_margin: razor_margin(),
                lmr_log_div: lmr_log_div(),
                policy_lmr: policy_lmr(),
                policy_lmr_pivot: policy_lmr_pivot(),
                defend_extension: defend_extension(),
                block_extension: block_extension(),
                continued_attack_reduction: continued_attack_reduction(),
                extension_cap_pct: extension_cap_pct(),
            }
        }
    }
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
