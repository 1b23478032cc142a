//! The time manager, the one owner of time decisions: how long to think on this move, when
//! to stop deepening, when the node loop must stop, and how long the threat solvers may run.
//!
//! # The budget
//! [`TimeControl`] holds what the manager sent (`INFO timeout_turn`, `timeout_match`,
//! `time_left`); [`TimeManager::new`] turns it, with the number of empty cells and the move
//! number, into an *optimum* (the base of the time at which deepening stops) and a hard
//! *maximum* (the search must have returned by then).
//!
//! Rules, in order:
//! - `timeout_turn` never sent → [`DEFAULT_TURN_MS`] (30 s). `timeout_turn 0` → answer as fast
//!   as possible: optimum 0, maximum [`INSTANT_MAX_MS`].
//! - The game clock is `time_left` whenever it was sent and is not [`UNLIMITED_MS`] (the
//!   protocol makes it authoritative; it is trusted over any wall clock); before the first
//!   `time_left`, a `timeout_match` with `0 < timeout_match <` [`UNLIMITED_MS`]. A negative or
//!   nearly spent `time_left` shrinks the budget with it, down to [`INSTANT_FLOOR_MS`].
//! - Every real limit `L` is reduced by a margin for process scheduling, pipes and unwinding
//!   the search, so the answer arrives before `min(timeout_turn, time_left)` itself: the time
//!   left by [`safety_margin_ms`]`(L)` (the game clock has no tolerance), the turn limit by
//!   the smaller [`turn_margin_ms`]`(L)` (managers allow 1000 ms more on the turn; only a
//!   stall on a loaded machine makes an answer late, and never by that much).
//! - With a game clock, the time left is shared over an estimate of our remaining moves
//!   ([`moves_to_go`]) after reserving [`MOVE_OVERHEAD_MS`] for the I/O round trip of every
//!   move we might still have to play (half the empty cells).
//! - A huge `timeout_turn` (≥ [`ANALYSIS_TURN_MS`]) with no game clock means analysis: think
//!   until STOP/YXSTOP ([`TimeManager::is_infinite`]).
//!
//! # What the search asks (`search::root`, `search::pvs`)
//! The budget travels in `SearchLimits::time`. Elapsed time counts from the start of
//! `Searcher::search`.
//! - Each threat solver (the root VCF before the tree search, the helper thread's VCT beside it)
//!   gets its share of the maximum: [`TimeManager::solver_deadline`] and
//!   [`TimeManager::solver_node_cap`].
//! - After each completed iteration the main thread records it in its [`IterationState`] and
//!   asks [`TimeManager::should_stop`]: a proven result or a searched only move ends the
//!   search; otherwise it ends past [`TimeManager::iteration_target_ms`], the optimum scaled
//!   by best-move stability and a falling score, capped so that the next iteration could
//!   still finish (with a binding turn limit: the maximum, since time saved is lost).
//! - Every `params::POLL_INTERVAL` nodes the main thread asks
//!   [`TimeManager::past_maximum`] and stops all threads once it is true.
//!
//! The engine facade (`crate::engine`) backs the search's own checks with a watchdog: stop
//! flag at the maximum, and at [`watchdog_ms`] an answer with the best move so far if the
//! search still has not returned.

use std::time::{Duration, Instant};

use crate::core::Pos;
use crate::search::params;
use crate::search::score::{Score, MATE, MATE_BOUND};

/// `timeout_turn` assumed when the manager never sent one (protocol default).
pub const DEFAULT_TURN_MS: i64 = 30_000;
/// The protocol's "unlimited" value for `time_left` / `timeout_match`.
pub use crate::core::UNLIMITED_TIME_MS as UNLIMITED_MS;
/// A `timeout_turn` at least this large without a game clock means "think until stopped".
pub const ANALYSIS_TURN_MS: i64 = 86_400_000;
/// Hard maximum when asked to answer as fast as possible (`timeout_turn 0`, clock spent).
pub const INSTANT_MAX_MS: u64 = 20;
/// Hard maximum never goes below this, even with a negative `time_left`: the search needs a
/// moment to return at least a shallow move (managers allow 1000 ms tolerance).
pub const INSTANT_FLOOR_MS: u64 = 2;
/// Fixed part of the safety margin (ms): thread wake-up, pipe round trip, printing, and
/// waiting for a CPU on a loaded machine (measured at load 5-9 on 2 cores: answers up to
/// 43 ms after a search's maximum when the search itself stopped in time, and rare stalls of
/// 100-250 ms that no margin absorbs; see docs/time-and-memory.md).
pub const MARGIN_BASE_MS: i64 = 50;
/// Proportional part of the safety margin: `limit / MARGIN_DIVISOR`.
pub const MARGIN_DIVISOR: i64 = 10;
/// The safety margin never exceeds this (ms).
pub const MARGIN_CAP_MS: i64 = 500;
/// Fixed part of the margin kept below a turn limit (ms). Smaller than the game clock's
/// [`MARGIN_BASE_MS`]: an answer that is late on the turn by a scheduling stall is still
/// inside every manager's turn tolerance (1 s in Piskvork, GomocupJudge and c-gomoku-cli),
/// while the game clock has none; and at 0.5 s a move the game-clock margin left a fifth of
/// every turn unused.
pub const TURN_MARGIN_BASE_MS: i64 = 25;
/// Proportional part of the turn margin: `limit / TURN_MARGIN_DIVISOR`.
pub const TURN_MARGIN_DIVISOR: i64 = 25;
/// Time reserved per expected remaining move for the manager↔engine round trip (ms).
pub const MOVE_OVERHEAD_MS: i64 = 10;
/// Fewest moves the remaining game clock is shared over.
pub const MIN_MOVES_TO_GO: i64 = 16;
/// Moves [`moves_to_go`] adds to our share of the expected game length left, so that a game
/// running longer than expected does not find the clock spent.
pub const MOVES_TO_GO_EXTRA: i64 = 5;

/// Depth from which a best move unchanged over the recent iterations counts as settled.
pub const SETTLED_DEPTH: u32 = 6;
/// Target factor by the number of best-move changes in the recent iterations: 0, 1, 2, and
/// 3 or more (no change below [`SETTLED_DEPTH`] takes the first).
pub const STABILITY_FACTORS: [f64; 4] = [0.7, 1.0, 1.4, 1.8];
/// A score this far (or further) below the best of the previous iterations doubles the
/// target; a smaller drop raises it in proportion.
pub const FALLING_SCORE_SPAN: Score = 200;
/// No new iteration starts past this share (percent) of the maximum: it would not finish.
pub const NEXT_ITERATION_MAX_PCT: u64 = 60;
/// With a binding turn limit, no new iteration starts past this share (percent) of the
/// maximum time. 100: search to the maximum (time not used is lost, and the interrupted
/// iteration's better move counts). Against 45, 0.2 s a move, 200 games each: renju
/// +34.9 +/- 42.3, freestyle +8.7 +/- 38.5 Elo.
pub const TURN_BOUND_DEEPEN_PCT: u64 = 100;
/// Iterations over which best-move changes are counted.
pub const RECENT_ITERATIONS: u32 = 4;
/// Previous iterations whose best score is the reference for the drop.
pub const SCORE_HISTORY: usize = 3;
/// With a single legal root move, deepening stops once an iteration of this depth is done:
/// the move is forced, the iterations only give it a score and a line.
pub const ONLY_MOVE_DEPTH: u32 = 4;
/// A mate score is settled once the iteration depth exceeds the mate's distance in plies by
/// this many: deeper iterations would find the same mate.
pub const PROVEN_MATE_EXTRA_PLIES: Score = 2;

/// The root VCF solver's node budget is at most this many nodes per ms of the maximum.
pub const ROOT_VCF_NODES_PER_MS: u64 = 60;

/// What the manager told us about the clock (the `INFO` values, as parsed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// `INFO timeout_turn` in ms; `None` when never sent (→ [`DEFAULT_TURN_MS`]); 0 = instant.
    pub timeout_turn_ms: Option<i64>,
    /// `INFO timeout_match` in ms; 0 (or ≤ 0, or 2147483647) = no game limit. Only used until
    /// the first `time_left` arrives.
    pub timeout_match_ms: i64,
    /// `INFO time_left` in ms as last sent; may be negative; 2147483647 = unlimited.
    pub time_left_ms: Option<i64>,
}

impl Default for TimeControl {
    /// Nothing sent yet: 30 s a move, no game clock.
    fn default() -> TimeControl {
        TimeControl {
            timeout_turn_ms: None,
            timeout_match_ms: 0,
            time_left_ms: None,
        }
    }
}

impl TimeControl {
    /// The per-move limit in ms that applies (the default when never sent).
    pub fn turn_ms(&self) -> i64 {
        self.timeout_turn_ms.unwrap_or(DEFAULT_TURN_MS)
    }

    /// The game time left in ms when a game clock is running, `None` without one.
    /// The protocol makes `time_left` authoritative ("the brain can ignore timeout_match and
    /// only rely on time_left"; 2147483647 when unlimited), so a sent `time_left` counts even
    /// when `timeout_match` is 0. Before the first `time_left`, a limited `timeout_match`
    /// stands in for it.
    pub fn game_left_ms(&self) -> Option<i64> {
        match self.time_left_ms {
            Some(t) if t >= UNLIMITED_MS => None,
            Some(t) => Some(t),
            None => {
                let m = self.timeout_match_ms;
                (m > 0 && m < UNLIMITED_MS).then_some(m)
            }
        }
    }

    /// `min(timeout_turn, time_left)`: what the manager enforces (before its tolerance).
    pub fn enforced_limit_ms(&self) -> i64 {
        match self.game_left_ms() {
            Some(left) => left.min(self.turn_ms()),
            None => self.turn_ms(),
        }
    }
}

/// The safety margin (ms) kept below a real limit of `limit_ms`: a fixed part plus a tenth
/// of the limit, capped at [`MARGIN_CAP_MS`]. 0.2 s → 70 ms, 1 s → 150 ms, ≥ 4.5 s → 500 ms.
pub fn safety_margin_ms(limit_ms: i64) -> i64 {
    (MARGIN_BASE_MS + limit_ms.max(0) / MARGIN_DIVISOR).min(MARGIN_CAP_MS)
}

/// The margin (ms) kept below a turn limit of `limit_ms`: a fixed part plus a 25th of the
/// limit, capped at [`MARGIN_CAP_MS`]. 0.2 s → 33 ms, 0.5 s → 45 ms, 1 s → 65 ms, ≥ 11.9 s →
/// 500 ms.
pub fn turn_margin_ms(limit_ms: i64) -> i64 {
    (TURN_MARGIN_BASE_MS + limit_ms.max(0) / TURN_MARGIN_DIVISOR).min(MARGIN_CAP_MS)
}

/// Estimated number of our own moves still to play: our share of the expected game length
/// left plus [`MOVES_TO_GO_EXTRA`], at least [`MIN_MOVES_TO_GO`], but never more than half
/// the empty cells (rounded up), and at least 1.
pub fn moves_to_go(empty_cells: usize, move_number: usize) -> i64 {
    let by_length = (params::expected_game_plies() - move_number as i64) / 2 + MOVES_TO_GO_EXTRA;
    let by_cells = (empty_cells as i64 + 1) / 2;
    by_length.max(MIN_MOVES_TO_GO).min(by_cells).max(1)
}

/// The margin below the game clock covers this many times the worst latency observed.
pub const STALL_RESERVE_FACTOR: i64 = 2;
/// Latency observations are capped here (ms): a manager that charged more than this for one
/// move was not measuring the engine (it was suspended, or the clock was set by hand).
pub const LATENCY_CAP_MS: i64 = 2_000;
/// Weight of a new observation in the typical latency (an exponential average).
pub const LATENCY_AVERAGE_WEIGHT: f64 = 0.125;

/// What the manager's game clock charged for our moves beyond the engine's own time from
/// reading the command to writing the answer (pipes, scheduling, process wake-ups), as seen
/// in the `time_left` of the following move. The protocol layer observes it; the budget
/// reserves for it ([`TimeManager::with_latency`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ObservedLatency {
    /// Exponential average of the latencies (ms), following rises at once.
    pub typical_ms: f64,
    /// The largest latency seen (ms).
    pub worst_ms: i64,
    /// How many moves were observed.
    pub moves: u32,
}

impl ObservedLatency {
    /// Adds one observation (ms; negative values, e.g. an increment, count as 0).
    pub fn observe(&mut self, latency_ms: i64) {
        let l = latency_ms.clamp(0, LATENCY_CAP_MS);
        let avg = self.typical_ms + LATENCY_AVERAGE_WEIGHT * (l as f64 - self.typical_ms);
        self.typical_ms = avg.max(l as f64);
        self.worst_ms = self.worst_ms.max(l);
        self.moves += 1;
    }

    /// What one more move at the floor costs the game clock (ms): the floor, the watchdog's
    /// grace and the typical latency; at least [`MOVE_OVERHEAD_MS`].
    pub fn per_move_ms(&self) -> i64 {
        let floor = (INSTANT_FLOOR_MS + WATCHDOG_GRACE_MIN_MS) as i64;
        (floor + self.typical_ms.ceil() as i64).max(MOVE_OVERHEAD_MS)
    }

    /// The margin kept below a game clock of `left_ms`: [`safety_margin_ms`], or twice the
    /// worst latency seen when that is more.
    pub fn margin_ms(&self, left_ms: i64) -> i64 {
        safety_margin_ms(left_ms).max(STALL_RESERVE_FACTOR * self.worst_ms)
    }
}

/// Smallest extra time the watchdog gives an overrunning search past its maximum (ms).
pub const WATCHDOG_GRACE_MIN_MS: u64 = 5;
/// The watchdog's extra time is `maximum / WATCHDOG_GRACE_DIVISOR`, between the min and cap.
pub const WATCHDOG_GRACE_DIVISOR: u64 = 32;
/// Largest extra time the watchdog gives past the maximum (ms).
pub const WATCHDOG_GRACE_CAP_MS: u64 = 100;

/// When (ms after the search was started) the engine facade stops waiting for a search that
/// ignored its hard maximum and answers with the best move so far: the maximum plus a grace
/// of 1/32 of it (5..=100 ms). That is inside the margin below the real limit, leaving time
/// to wake up and print: 0.2 s turn → maximum 167, watchdog 172; 5 s → 4775, 4924. Answering early costs (almost) nothing: after the stop
/// flag the search returns the best move of its last completed iteration, which is the one
/// the watchdog has from the iteration's report.
pub fn watchdog_ms(maximum_ms: u64) -> u64 {
    let grace =
        (maximum_ms / WATCHDOG_GRACE_DIVISOR).clamp(WATCHDOG_GRACE_MIN_MS, WATCHDOG_GRACE_CAP_MS);
    maximum_ms.saturating_add(grace)
}

/// The per-move time budget and the decisions taken from it: whether to start another
/// iteration, whether the node loop must stop, how long each threat solver may run. All
/// times are ms since the search started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    /// Base of the iteration target; `None`: no stop between iterations for time.
    optimum: Option<u64>,
    /// Hard maximum; `None`: no time limit.
    maximum: Option<u64>,
    /// The turn limit, not the game clock, sets the maximum: time left unused is not banked
    /// for later moves, so the search should use most of it.
    turn_bound: bool,
}

impl Default for TimeManager {
    /// No time limit ([`TimeManager::infinite`]).
    fn default() -> TimeManager {
        TimeManager::infinite()
    }
}

/// Budget from a short turn limit, for the instant case: `min(INSTANT_MAX_MS, limit −
/// margin)`, but at least [`INSTANT_FLOOR_MS`].
fn instant_max(limit_ms: i64) -> u64 {
    let room = limit_ms - turn_margin_ms(limit_ms);
    (room.max(INSTANT_FLOOR_MS as i64) as u64).min(INSTANT_MAX_MS)
}

/// `(optimum, maximum)` for a turn limit of `turn_ms` alone.
fn turn_budget(turn_ms: i64) -> (u64, u64) {
    if turn_ms <= 0 {
        return (0, INSTANT_MAX_MS);
    }
    let max = turn_ms - turn_margin_ms(turn_ms);
    if max < INSTANT_MAX_MS as i64 {
        (0, instant_max(turn_ms))
    } else {
        let max = max as u64;
        ((max as f64 * params::turn_only_optimum()) as u64, max)
    }
}

/// `(optimum, maximum)` for a game clock with `left_ms` left. No "instant" bump here: with
/// little time left every move must stay proportional to the clock, down to the floor, or a
/// long game runs out. The I/O overhead is reserved for every move the game may still last
/// (up to a full board), not only the moves the thinking time is shared over: full-board
/// draws at 5 s a game otherwise end with the clock nearly spent.
///
/// Both reserves grow with the latency the manager's clock showed ([`ObservedLatency`]):
/// every move the game may still last keeps what a move at the floor costs the clock (the
/// floor, the watchdog's grace and the typical latency), and the margin covers twice the
/// worst latency seen. A move at the floor then costs the clock less than its share of the
/// reserve, so the clock cannot run out while the latency stays as observed.
fn game_budget(
    left_ms: i64,
    empty_cells: usize,
    move_number: usize,
    latency: ObservedLatency,
) -> (u64, u64) {
    let mtg = moves_to_go(empty_cells, move_number);
    let may_last = mtg.max((empty_cells as i64 + 1) / 2);
    let usable = (left_ms - latency.margin_ms(left_ms) - latency.per_move_ms() * may_last).max(0);
    let opt = usable as f64 / mtg as f64;
    let max =
        (opt * params::max_over_optimum()).min(usable as f64 * params::max_fraction_of_left());
    (opt as u64, (max as u64).max(INSTANT_FLOOR_MS))
}

impl TimeManager {
    /// The budget for the move about to be searched. `empty_cells` is the number of empty
    /// points on the board, `move_number` the number of stones already on it (plies played).
    pub fn new(tc: &TimeControl, empty_cells: usize, move_number: usize) -> TimeManager {
        TimeManager::with_latency(tc, empty_cells, move_number, ObservedLatency::default())
    }

    /// [`TimeManager::new`] with the game-clock reserves scaled to the latency observed on
    /// the manager's clock (see `game_budget`).
    pub fn with_latency(
        tc: &TimeControl,
        empty_cells: usize,
        move_number: usize,
        latency: ObservedLatency,
    ) -> TimeManager {
        let turn = tc.turn_ms();
        let game_left = tc.game_left_ms();
        if game_left.is_none() && turn >= ANALYSIS_TURN_MS {
            return TimeManager::infinite();
        }
        let (mut optimum, turn_maximum) = turn_budget(turn);
        let mut maximum = turn_maximum;
        if let Some(left) = game_left {
            let (game_optimum, game_maximum) = game_budget(left, empty_cells, move_number, latency);
            optimum = optimum.min(game_optimum);
            maximum = maximum.min(game_maximum);
        }
        TimeManager {
            optimum: Some(optimum.min(maximum)),
            maximum: Some(maximum),
            // The game clock leaves the turn's own maximum untouched: it does not bind.
            turn_bound: turn > 0 && maximum == turn_maximum && optimum > 0,
        }
    }

    /// A manager that never stops on time (analysis; also for tests and benches).
    pub fn infinite() -> TimeManager {
        TimeManager {
            optimum: None,
            maximum: None,
            turn_bound: false,
        }
    }

    /// A hard maximum of `maximum_ms` and nothing else: deepening goes on until the maximum
    /// (or a depth or node limit) stops it. For tests and tools that want a fixed time.
    pub fn fixed_maximum(maximum_ms: u64) -> TimeManager {
        TimeManager {
            optimum: None,
            maximum: Some(maximum_ms),
            turn_bound: false,
        }
    }

    /// True when the search should run until told to stop (no time limit at all).
    pub fn is_infinite(&self) -> bool {
        self.optimum.is_none() && self.maximum.is_none()
    }

    /// The base of the iteration target (ms); `None` when time never stops deepening early.
    pub fn optimum_ms(&self) -> Option<u64> {
        self.optimum
    }

    /// Hard maximum (ms since the search started): the search must have returned by then.
    /// Already includes the safety margin. `None` without a time limit.
    pub fn maximum_ms(&self) -> Option<u64> {
        self.maximum
    }

    /// True when the turn limit alone sets this move's maximum (the game clock, if any, allows
    /// more): time saved now is not available later.
    pub fn turn_bound(&self) -> bool {
        self.turn_bound
    }

    /// Asked by the node loop every `POLL_INTERVAL` nodes: true once `elapsed_ms` has reached
    /// the hard maximum, and every thread must unwind.
    #[inline]
    pub fn past_maximum(&self, elapsed_ms: u64) -> bool {
        self.maximum.is_some_and(|m| elapsed_ms >= m)
    }

    /// The time (ms) after which no new iteration starts, given the iterations so far; `None`
    /// without an optimum. With a binding turn limit: [`TURN_BOUND_DEEPEN_PCT`] of the
    /// maximum. Otherwise `iteration_target_share` of the optimum, scaled down while the
    /// best move is stable and up while it changes ([`STABILITY_FACTORS`]) or the score falls
    /// ([`FALLING_SCORE_SPAN`]), never past [`NEXT_ITERATION_MAX_PCT`] of the maximum.
    pub fn iteration_target_ms(&self, it: &IterationState) -> Option<u64> {
        let optimum = self.optimum?;
        if let (true, Some(m)) = (self.turn_bound, self.maximum) {
            return Some(m * TURN_BOUND_DEEPEN_PCT / 100);
        }
        let stability = match it.best_move_changes() {
            0 if it.depth() >= SETTLED_DEPTH => params::settled_factor(),
            changes => STABILITY_FACTORS[(changes as usize).min(STABILITY_FACTORS.len() - 1)],
        };
        let drop = it.score_drop().clamp(0, FALLING_SCORE_SPAN);
        let falling = 1.0 + f64::from(drop) / f64::from(FALLING_SCORE_SPAN);
        let target =
            (optimum as f64 * params::iteration_target_share() * stability * falling) as u64;
        Some(
            self.maximum
                .map_or(target, |m| target.min(m * NEXT_ITERATION_MAX_PCT / 100)),
        )
    }

    /// Asked after each completed iteration (recorded in `it`), `elapsed_ms` into the search:
    /// true when no further iteration should start. A settled mate
    /// ([`IterationState::mate_settled`]) and a searched only move
    /// ([`IterationState::only_move_searched`]) stop whatever the budget; otherwise the
    /// search stops past [`TimeManager::iteration_target_ms`].
    pub fn should_stop(&self, it: &IterationState, elapsed_ms: u64) -> bool {
        it.mate_settled()
            || it.only_move_searched()
            || self
                .iteration_target_ms(it)
                .is_some_and(|target| elapsed_ms >= target)
    }

    /// When `solver` must give up, for a search started at `start`: its share of the maximum
    /// (`None` without a time limit). The solvers run before or beside the tree search; the
    /// shares leave the tree search the rest of the time.
    pub fn solver_deadline(&self, solver: Solver, start: Instant) -> Option<Instant> {
        let ms = self.maximum? * solver.time_pct() / 100;
        Some(start + Duration::from_millis(ms))
    }

    /// The most nodes `solver` should plan for this budget (at least 1): a short maximum
    /// means a small solver search. `None` when the solver's node budget does not depend on
    /// the time (no time limit, or a solver bounded by its deadline alone).
    pub fn solver_node_cap(&self, solver: Solver) -> Option<u64> {
        let per_ms = solver.nodes_per_ms()?;
        Some(self.maximum?.saturating_mul(per_ms).saturating_add(1))
    }
}

/// The threat solvers that run on the search's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// The root VCF solver, before the tree search.
    RootVcf,
    /// The first helper thread's VCT, beside the main thread's tree search.
    HelperVct,
}

impl Solver {
    /// The share (percent) of the maximum after which the solver stops.
    fn time_pct(self) -> u64 {
        match self {
            Solver::RootVcf => params::root_vcf_time_pct(),
            Solver::HelperVct => params::helper_vct_time_pct(),
        }
    }

    /// Nodes per ms of the maximum the solver may plan; `None`: its deadline alone bounds it.
    fn nodes_per_ms(self) -> Option<u64> {
        match self {
            Solver::RootVcf => Some(ROOT_VCF_NODES_PER_MS),
            Solver::HelperVct => None,
        }
    }
}

/// What the time manager needs to remember between iterations of one search: the number of
/// root moves, best-move changes in the last few iterations and the recent scores. The main
/// thread fills it with [`IterationState::record`] after each completed iteration.
#[derive(Clone, Debug, Default)]
pub struct IterationState {
    root_moves: usize,
    depth: u32,
    best: Option<Pos>,
    /// Bit i set = the best move changed i iterations ago (bit 0 = the latest).
    change_bits: u32,
    /// Scores of the latest iterations, newest last (at most `SCORE_HISTORY + 1`).
    scores: Vec<Score>,
}

impl IterationState {
    /// Empty state for a new search with `root_moves` legal moves to choose from.
    pub fn new(root_moves: usize) -> IterationState {
        IterationState {
            root_moves,
            ..IterationState::default()
        }
    }

    /// Records a completed iteration of `depth` with best move `best` and root `score`.
    pub fn record(&mut self, depth: u32, best: Pos, score: Score) {
        let changed = self.best.is_some_and(|b| b != best);
        self.change_bits = (self.change_bits << 1) | u32::from(changed);
        self.best = Some(best);
        self.depth = depth;
        if self.scores.len() > SCORE_HISTORY {
            self.scores.remove(0);
        }
        self.scores.push(score);
    }

    /// Depth of the latest completed iteration (0 before any).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Changes of the best move in the last [`RECENT_ITERATIONS`] iterations.
    pub fn best_move_changes(&self) -> u32 {
        (self.change_bits & ((1 << RECENT_ITERATIONS) - 1)).count_ones()
    }

    /// How much the latest score is below the best of the previous few (0 when not falling).
    pub fn score_drop(&self) -> i32 {
        match self.scores.split_last() {
            Some((&last, prev)) if !prev.is_empty() => {
                let reference = prev.iter().copied().max().unwrap_or(last);
                reference.saturating_sub(last).max(0)
            }
            _ => 0,
        }
    }

    /// True when the latest score is a mate (for either side) and the latest iteration went
    /// [`PROVEN_MATE_EXTRA_PLIES`] beyond its distance: the result is proven.
    pub fn mate_settled(&self) -> bool {
        self.scores.last().is_some_and(|&s| {
            s.abs() >= MATE_BOUND && self.depth as Score >= MATE - s.abs() + PROVEN_MATE_EXTRA_PLIES
        })
    }

    /// True when the root has a single legal move and [`ONLY_MOVE_DEPTH`] has been searched.
    pub fn only_move_searched(&self) -> bool {
        self.root_moves == 1 && self.depth >= ONLY_MOVE_DEPTH
    }
}

#[cfg(test)]
mod tests;
