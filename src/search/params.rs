//! Search constants in one place: limits, margins, reductions.

/// Deepest ply the search stack supports.
pub const MAX_PLY: usize = 128;
/// Entries of the per-ply stacks (lines, move lists, evaluations, killers): a node at the
/// deepest ply still writes its child's entry.
pub const PLY_STACK_LEN: usize = MAX_PLY + 2;
/// Nodes at or beyond this ply return their static evaluation instead of searching on.
pub const MAX_SEARCH_PLY: usize = MAX_PLY - 4;
/// Initial capacity of each ply's move list (grows if a node has more moves).
pub const MOVE_LIST_CAPACITY: usize = 64;
/// Most earlier moves of a node whose history a cutoff lowers.
pub const MAX_TRIED_MOVES: usize = 64;
/// Most moves a node puts off because another thread is searching them.
pub const MAX_DEFERRED_MOVES: usize = 16;
/// Deepest nominal iteration depth.
pub const MAX_DEPTH: i32 = 99;
/// Nodes between polls of the stop flag and the clock.
pub const POLL_INTERVAL: u64 = 256;
/// Nodes between two looks at the clock and the stop flag in the threat solvers.
pub const SOLVER_POLL_INTERVAL: u64 = 256;
/// Most four-making moves one VCF node tries (more never occur in real positions).
pub const MAX_FOUR_MOVES: usize = 64;
/// Ordering scores at or above this mark forcing moves (own fours, blocks of big threats).
pub const FORCING_ORDER: i32 = 1 << 20;
/// Ordering bonus of a defence against an open three (own fours carry `FORCING_ORDER`).
pub const DEFENCE_ORDER: i32 = FORCING_ORDER / 2;
/// First aspiration half-window (centi-stones of eval).
pub const ASPIRATION_DELTA: i32 = 30;
/// Iterations below this depth use a full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Futility pruning: applies at depth <= this; margin per depth.
pub const FUTILITY_DEPTH: i32 = 3;
/// Futility margin per remaining ply. 140 against 90 (0.2 s, 200 games each): renju
/// +26.1 +/- 43.4, freestyle +3.5 +/- 39.9: not a clear gain, kept.
pub const FUTILITY_MARGIN: i32 = 90;
/// Razoring: at depth <= this, an eval this far below alpha drops into quiescence.
pub const RAZOR_DEPTH: i32 = 2;
/// Razoring margin per remaining ply. 240 against 160: renju -15.6 +/- 45.8 (200 games).
pub const RAZOR_MARGIN: i32 = 160;
/// Late-move reductions start after this many moves searched.
pub const LMR_MIN_MOVES: usize = 3;
/// Late-move reductions apply from this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Reduce one ply more from this move index on.
pub const LMR_LATE_MOVES: usize = 8;
/// With at least this depth left, reduce yet one ply more from `LMR_VERY_LATE_MOVES` on.
pub const LMR_DEEP_DEPTH: i32 = 8;
/// See `LMR_DEEP_DEPTH`.
pub const LMR_VERY_LATE_MOVES: usize = 16;
/// Root moves from this index on are searched one reduced ply less first (the root's
/// late-move reduction; a result above alpha is searched again at full depth).
pub const ROOT_LMR_MIN_MOVES: usize = 6;
/// Plies the root's late-move reduction takes off.
pub const ROOT_LMR_REDUCTION: i32 = 1;
/// Late-move pruning applies at this remaining depth and below.
pub const LMP_MAX_DEPTH: i32 = 4;
/// Late-move pruning: at depth d keep at most LMP_BASE + d*d quiet moves (non-PV). Against
/// 4 in renju (0.2 s, 200 games each): 7 lost 43.7 +/- 41.8, 3 gained 10.4 +/- 42.7.
pub const LMP_BASE: usize = 4;
/// Maximum attacker fours in a VCF at a search leaf.
pub const QVCF_DEPTH: i32 = 6;
/// Node budget of one leaf VCF.
pub const QVCF_NODES: u64 = 300;
/// Maximum attacker fours in the root VCF solver.
pub const ROOT_VCF_DEPTH: i32 = 30;
/// Node budget of the root VCF solver.
pub const ROOT_VCF_NODES: u64 = 200_000;
/// With a binding turn limit, no new iteration starts past this share (percent) of the
/// maximum time. 100: search to the maximum (time not used is lost, and the interrupted
/// iteration's better move counts). Against 45, 0.2 s a move, 200 games each: renju
/// +34.9 +/- 42.3, freestyle +8.7 +/- 38.5 Elo.
pub const TURN_BOUND_DEEPEN_PCT: u64 = 100;
/// Ordering bonus of the transposition table's move: above every other score, forcing
/// moves included.
pub const TT_MOVE_ORDER: i32 = 1 << 24;
/// Ordering bonus of a node's first killer move.
pub const KILLER_BONUS: i32 = 300;
/// Ordering bonus of a node's second killer move.
pub const SECOND_KILLER_BONUS: i32 = 250;
/// Ordering bonus of the counter move.
pub const COUNTER_MOVE_BONUS: i32 = 200;
/// A move's history score is divided by this before it is added to its ordering score.
pub const HISTORY_ORDER_DIVISOR: i32 = 64;
/// History scores saturate towards this magnitude.
pub const HISTORY_MAX: i32 = 16_384;
/// Largest history change of one cutoff (the change is depth squared, capped by this).
pub const HISTORY_BONUS_MAX: i32 = 400;
/// Several threads defer busy moves at nodes of at least this depth.
pub const ABDADA_MIN_DEPTH: i32 = 3;
/// Longest VCT (in plies) the root solver tries.
pub const ROOT_VCT_PLIES: u32 = 15;
/// Node budget of the root VCT solver.
pub const ROOT_VCT_NODES: u64 = 150_000;
/// Longest VCT (in plies) the helper thread tries.
pub const HELPER_VCT_PLIES: u32 = 21;
/// Node budget of the helper thread's VCT.
pub const HELPER_VCT_NODES: u64 = 3_000_000;
/// The helper thread's VCT stops at this share (percent) of the maximum time.
pub const HELPER_VCT_TIME_PCT: u64 = 80;
/// The root VCF solver stops at this share (percent) of the maximum time.
pub const ROOT_VCF_TIME_PCT: u64 = 20;
/// The root VCT solver stops at this share (percent) of the maximum time (from search start).
pub const ROOT_VCT_TIME_PCT: u64 = 35;

// Technique switches (for self-play ablations: build a variant with one set to false).
// Session 6 ablations, each switched off against the build with all on, renju, 0.2 s a
// move, 200 games: the Elo the technique is worth is given below.
/// Late-move reductions. Worth +88.7 +/- 41.2 (renju), +57.9 +/- 41.6 (freestyle).
pub const USE_LMR: bool = true;
/// Futility pruning and razoring. Worth +88.7 +/- 47.6 (renju).
pub const USE_FUTILITY: bool = true;
/// VCF quiescence at the leaves. Worth +63.2 +/- 47.1 (renju).
pub const USE_LEAF_VCF: bool = true;
/// The root VCT solver. Off: it is sound (tests/vct_check.rs re-proves every claimed win on
/// 14 000 recorded positions against all defences), but self-play in renju at 0.2 s a move
/// keeps measuring a loss: -200 +/- 73, -111 +/- 70 and -74 +/- 65 Elo for switching it on;
/// running it and ignoring its answers loses too (-63 +/- 73), while playing its wins once it
/// runs is neutral (+24 +/- 69). Its few milliseconds a move cost more than its finds, which
/// the tree search with VCF leaves mostly makes anyway.
pub const USE_ROOT_VCT: bool = false;
/// With several threads, defer moves another thread is searching (see `smp`). 2 threads
/// against 1, renju, 0.2 s a move, 200 games: +3.5 +/- 41.3 with it (alone), +1.7 +/- 43.4
/// without (session 3).
pub const USE_ABDADA: bool = true;
/// With several threads, the first helper runs the root VCT solver before joining the
/// tree search (free for the main thread, unlike `USE_ROOT_VCT`). With ABDADA, 2 threads
/// against 1, renju, 0.2 s a move, 200 games: +29.6 +/- 46.3 (LOS 89 %).
pub const USE_HELPER_VCT: bool = true;
/// Counter-move ordering bonus.
pub const USE_COUNTER_MOVE: bool = true;
/// Move ordering adds the per-direction line shapes of both colours to a point's value
/// (costly lookups).
pub const USE_LINE_ORDER: bool = false;

// Tried and not kept (session 5):
// - Null-move pruning in quiet non-PV nodes (depth >= 3, static eval >= beta + margin, pass
//   searched at depth - 1 - R): the bench's fixed-depth searches grew instead of shrinking
//   (417 795 nodes -> 426 458 with R = 2 + depth/4 and no margin; 419 522-422 822 with margins
//   150-300 and R 2-3): a pass gives the opponent the tempo, which in gomoku is rarely
//   harmless, so the null searches mostly fail and their nodes are lost.
// - Transparent huge pages for the table (madvise): no speed change searching game positions
//   at 0.2 s or 1 s with a 256 MB table, and -43.7 +/- 42.4 Elo in renju self-play (0.2 s,
//   200 games); the gain first measured was this VM's memory warming up.

// Tried and not kept (session 6):
// - Threat-aware late-move reductions (one ply less reduction for a move that makes an open
//   three or better for the mover): bench 417 795 -> 422 712 nodes; renju self-play at 0.2 s,
//   200 games: -1.7 +/- 38.8 Elo. No gain shown.
// - Deeper leaf VCF (QVCF_DEPTH 8, QVCF_NODES 500), now that VCF nodes are cheaper: bench
//   418 276 nodes; renju self-play at 0.2 s, 200 games: -31.4 +/- 49.7 Elo. Not kept.
// - Shallower leaf VCF (QVCF_DEPTH 4): bench 438 878 nodes; renju self-play at 0.2 s, 200
//   games: -31.4 +/- 39.7 Elo. With the trial above, 6 stays.
