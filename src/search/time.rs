//! Time and memory budgets: how long to think on this move, when to stop iterating, and how
//! big a transposition table keeps the whole process under `max_memory`.
//!
//! # Time
//! [`TimeControl`] holds what the manager sent (`INFO timeout_turn`, `timeout_match`,
//! `time_left`); [`TimeManager::new`] turns it, with the number of empty cells and the move
//! number, into an *optimum* (where the search normally stops after a completed iteration)
//! and a hard *maximum* (the search must have returned by then; the node loop polls it).
//!
//! Rules, in order:
//! - `timeout_turn` never sent → [`DEFAULT_TURN_MS`] (30 s). `timeout_turn 0` → answer as fast
//!   as possible: optimum 0, maximum [`INSTANT_MAX_MS`].
//! - The game clock is `time_left` whenever it was sent and is not 2147483647 (the protocol
//!   makes it authoritative; it is trusted over any wall clock); before the first
//!   `time_left`, a `timeout_match` with `0 < timeout_match < 2147483647`. A negative or
//!   nearly spent `time_left` shrinks the budget with it, down to [`INSTANT_FLOOR_MS`].
//! - Every real limit `L` (the turn limit, the time left) is reduced by
//!   [`safety_margin_ms`]`(L)` for process scheduling, pipes and unwinding the search, so the
//!   answer arrives before `min(timeout_turn, time_left)` itself (managers allow 1000 ms more;
//!   we do not use it).
//! - With a game clock, the time left is shared over an estimate of our remaining moves
//!   ([`moves_to_go`]) after reserving [`MOVE_OVERHEAD_MS`] for the I/O round trip of every
//!   move we might still have to play (half the empty cells).
//! - A huge `timeout_turn` (≥ [`ANALYSIS_TURN_MS`]) with no game clock means analysis: think
//!   until STOP/YXSTOP ([`TimeManager::is_infinite`]).
//!
//! Elapsed time must be measured by the caller from the moment the command (`TURN`, `BOARD`,
//! `BEGIN`…) was read, not from when the search thread started.
//!
//! The engine facade (`crate::engine`) backs the search's own checks with a watchdog: stop
//! flag at the maximum, and at [`watchdog_ms`] an answer with the best move so far if the
//! search still has not returned.
//!
//! # Memory
//! [`hash_bytes_for`] subtracts an estimate of everything else the process keeps resident
//! (binary, libc, pattern tables, I/O buffers: [`BASE_OVERHEAD_BYTES`]; each search thread's
//! stack and state: [`PER_THREAD_OVERHEAD_BYTES`]) and a slack fraction from `max_memory`, and
//! rounds the rest down to a power of two.

use std::time::{Duration, Instant};

use crate::core::Pos;
use crate::search::score::{Score, MATE_BOUND};

/// How often (in nodes) the search should compare the clock with the hard deadline: at a few
/// million nodes per second this is well under a millisecond.
pub const NODE_POLL_INTERVAL: u64 = 1024;

/// `timeout_turn` assumed when the manager never sent one (protocol default).
pub const DEFAULT_TURN_MS: i64 = 30_000;
/// The protocol's "unlimited" value for `time_left` / `timeout_match`.
pub const UNLIMITED_MS: i64 = 2_147_483_647;
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
/// Time reserved per expected remaining move for the manager↔engine round trip (ms).
pub const MOVE_OVERHEAD_MS: i64 = 10;
/// Fewest moves the remaining game clock is shared over.
pub const MIN_MOVES_TO_GO: i64 = 20;
/// Expected game length in plies used by [`moves_to_go`] (gomoku games are short).
pub const EXPECTED_GAME_PLIES: i64 = 80;
/// With a game clock, one move may use at most this multiple of its optimum…
pub const MAX_OVER_OPTIMUM: f64 = 4.0;
/// …and at most this fraction of the usable time left.
pub const MAX_FRACTION_OF_LEFT: f64 = 0.15;
/// With only a turn limit, the optimum is this fraction of the hard maximum.
pub const TURN_ONLY_OPTIMUM: f64 = 0.7;
/// Depth below which a stable best move is not trusted to stop early.
pub const MIN_STABLE_DEPTH: u32 = 4;

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

/// The safety margin (ms) kept below a real limit of `limit_ms`: a fixed part plus 1/16 of
/// the limit, capped at [`MARGIN_CAP_MS`]. 0.2 s → 70 ms, 1 s → 150 ms, ≥ 4.5 s → 500 ms.
pub fn safety_margin_ms(limit_ms: i64) -> i64 {
    (MARGIN_BASE_MS + limit_ms.max(0) / MARGIN_DIVISOR).min(MARGIN_CAP_MS)
}

/// Estimated number of our own moves still to play: from the expected game length, at least
/// [`MIN_MOVES_TO_GO`], but never more than half the empty cells (rounded up), and at least 1.
pub fn moves_to_go(empty_cells: usize, move_number: usize) -> i64 {
    let by_length = (EXPECTED_GAME_PLIES - move_number as i64) / 2 + 5;
    let by_cells = (empty_cells as i64 + 1) / 2;
    by_length.max(MIN_MOVES_TO_GO).min(by_cells).max(1)
}

/// Smallest extra time the watchdog gives an overrunning search past its maximum (ms).
pub const WATCHDOG_GRACE_MIN_MS: u64 = 5;
/// The watchdog's extra time is `maximum / WATCHDOG_GRACE_DIVISOR`, between the min and cap.
pub const WATCHDOG_GRACE_DIVISOR: u64 = 16;
/// Largest extra time the watchdog gives past the maximum (ms).
pub const WATCHDOG_GRACE_CAP_MS: u64 = 100;

/// When (ms after the search was started) the engine facade stops waiting for a search that
/// ignored its hard maximum and answers with the best move so far: the maximum plus a grace
/// of 1/16 of it (5..=100 ms). That is well inside the safety margin below the real limit,
/// leaving time to wake up and print on a loaded machine: 0.2 s turn → maximum 130,
/// watchdog 138; 5 s → 4500, 4600. Answering early costs (almost) nothing: after the stop
/// flag the search returns the best move of its last completed iteration, which is the one
/// the watchdog has from the iteration's report.
pub fn watchdog_ms(maximum_ms: u64) -> u64 {
    let grace =
        (maximum_ms / WATCHDOG_GRACE_DIVISOR).clamp(WATCHDOG_GRACE_MIN_MS, WATCHDOG_GRACE_CAP_MS);
    maximum_ms.saturating_add(grace)
}

/// Per-move time budget: an optimum and a hard maximum, in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    optimum: u64,
    maximum: u64,
    infinite: bool,
    /// The turn limit, not the game clock, sets the maximum: time left unused is not banked
    /// for later moves, so the search should use most of it.
    turn_bound: bool,
}

/// Budget from a single limit that must not be exceeded (turn or game), for the instant case:
/// `min(INSTANT_MAX_MS, limit − margin)`, but at least [`INSTANT_FLOOR_MS`].
fn instant_max(limit_ms: i64) -> u64 {
    let room = limit_ms - safety_margin_ms(limit_ms);
    (room.max(INSTANT_FLOOR_MS as i64) as u64).min(INSTANT_MAX_MS)
}

impl TimeManager {
    /// The budget for the move about to be searched. `empty_cells` is the number of empty
    /// points on the board, `move_number` the number of stones already on it (plies played).
    pub fn new(tc: &TimeControl, empty_cells: usize, move_number: usize) -> TimeManager {
        let turn = tc.turn_ms();
        let game_left = tc.game_left_ms();

        if game_left.is_none() && turn >= ANALYSIS_TURN_MS {
            return TimeManager {
                optimum: u64::MAX,
                maximum: u64::MAX,
                infinite: true,
                turn_bound: false,
            };
        }

        // Per-turn limit.
        let (mut optimum, mut maximum) = if turn <= 0 {
            (0, INSTANT_MAX_MS)
        } else {
            let max = turn - safety_margin_ms(turn);
            if max < INSTANT_MAX_MS as i64 {
                (0, instant_max(turn))
            } else {
                let max = max as u64;
                ((max as f64 * TURN_ONLY_OPTIMUM) as u64, max)
            }
        };

        let turn_maximum = maximum;
        // Game clock.
        if let Some(left) = game_left {
            let mtg = moves_to_go(empty_cells, move_number);
            // No 20 ms "instant" bump here: with little time left every move must stay
            // proportional to the clock, down to the floor, or a long game runs out.
            // The I/O overhead is reserved for every move the game may still last (up to a
            // full board), not only the `mtg` the thinking time is shared over: full-board
            // draws at 5 s a game otherwise end with the clock nearly spent.
            let may_last = mtg.max((empty_cells as i64 + 1) / 2);
            let usable = (left - safety_margin_ms(left) - MOVE_OVERHEAD_MS * may_last).max(0);
            let opt = usable as f64 / mtg as f64;
            let max = (opt * MAX_OVER_OPTIMUM).min(usable as f64 * MAX_FRACTION_OF_LEFT);
            let g_max = (max as u64).max(INSTANT_FLOOR_MS);
            optimum = optimum.min(opt as u64);
            maximum = maximum.min(g_max);
        }

        TimeManager {
            optimum: optimum.min(maximum),
            maximum,
            infinite: false,
            // The game clock leaves the turn's own maximum untouched: it does not bind.
            turn_bound: turn > 0 && maximum == turn_maximum && optimum > 0,
        }
    }

    /// True when the turn limit alone sets this move's maximum (the game clock, if any, allows
    /// more): time saved now is not available later.
    pub fn turn_bound(&self) -> bool {
        self.turn_bound
    }

    /// A manager that never stops on time (analysis; also for tests and benches).
    pub fn infinite() -> TimeManager {
        TimeManager {
            optimum: u64::MAX,
            maximum: u64::MAX,
            infinite: true,
            turn_bound: false,
        }
    }

    /// True when the search should run until told to stop (no time limit at all).
    pub fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// Normal thinking time (ms): stop after the iteration that completes past it, as scaled
    /// by [`TimeManager::should_stop`]. `u64::MAX` when infinite.
    pub fn optimum_ms(&self) -> u64 {
        self.optimum
    }

    /// Hard maximum (ms since the command was read): the search must have returned by then.
    /// Already includes the safety margin. `u64::MAX` when infinite.
    pub fn maximum_ms(&self) -> u64 {
        self.maximum
    }

    /// The deadline the node loop polls: the same instant as [`TimeManager::maximum_ms`].
    pub fn hard_deadline_ms(&self) -> u64 {
        self.maximum
    }

    /// The instant the node loop must stop at, given when the command was read (`None` when
    /// infinite). Compare with `Instant::now()` every [`NODE_POLL_INTERVAL`] nodes.
    pub fn hard_deadline_at(&self, start: Instant) -> Option<Instant> {
        if self.infinite {
            return None;
        }
        start.checked_add(Duration::from_millis(self.maximum))
    }

    /// `(optimum, maximum)` as `SearchLimits` wants them: `None` when infinite.
    pub fn limits(&self) -> (Option<u64>, Option<u64>) {
        if self.infinite {
            (None, None)
        } else {
            (Some(self.optimum), Some(self.maximum))
        }
    }

    /// The time target after an iteration of `depth` with `best_move_changes` changes of the
    /// best move in the recent iterations and a value that fell by `score_drop` (positive =
    /// worse for us): the optimum scaled down when stable, up when unstable or falling, never
    /// beyond the maximum.
    pub fn target_ms(&self, depth: u32, best_move_changes: u32, score_drop: i32) -> u64 {
        if self.infinite {
            return u64::MAX;
        }
        let stability = match best_move_changes {
            0 if depth >= MIN_STABLE_DEPTH => 0.6,
            0 | 1 => 1.0,
            2 => 1.4,
            3 => 1.8,
            _ => 2.2,
        };
        let falling = 1.0 + f64::from(score_drop.clamp(0, 250)) / 250.0;
        let target = self.optimum as f64 * stability * falling;
        (target as u64).min(self.maximum)
    }

    /// Called after each completed iteration: true when the search should not start another.
    /// `elapsed_ms` counts from when the command was read. Never true for an infinite manager.
    pub fn should_stop(
        &self,
        elapsed_ms: u64,
        depth: u32,
        best_move_changes: u32,
        score_drop: i32,
    ) -> bool {
        if self.infinite {
            return false;
        }
        elapsed_ms >= self.maximum
            || elapsed_ms >= self.target_ms(depth, best_move_changes, score_drop)
    }

    /// [`TimeManager::should_stop`] fed from an [`IterationState`]; also stops once a proven
    /// win or loss has held for two iterations (unless infinite: analysis keeps going).
    pub fn should_stop_iter(&self, state: &IterationState, elapsed_ms: u64) -> bool {
        if self.infinite {
            return false;
        }
        state.mate_settled()
            || self.should_stop(
                elapsed_ms,
                state.depth(),
                state.best_move_changes(),
                state.score_drop(),
            )
    }
}

/// Iterations over which best-move changes are counted.
const RECENT_ITERATIONS: u32 = 4;
/// Previous iterations whose best score is the reference for the drop.
const SCORE_HISTORY: usize = 3;

/// What the time manager needs to remember between iterations of one search: best-move
/// changes in the last few iterations and the recent scores. Fill it with
/// [`IterationState::record`] after each completed iteration.
#[derive(Clone, Debug, Default)]
pub struct IterationState {
    depth: u32,
    best: Option<Pos>,
    /// Bit i set = the best move changed i iterations ago (bit 0 = the latest).
    change_bits: u32,
    /// Scores of the latest iterations, newest last (at most `SCORE_HISTORY + 1`).
    scores: Vec<Score>,
    mate_iterations: u32,
}

impl IterationState {
    /// Empty state for a new search.
    pub fn new() -> IterationState {
        IterationState::default()
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
        if score.abs() >= MATE_BOUND {
            self.mate_iterations += 1;
        } else {
            self.mate_iterations = 0;
        }
    }

    /// Depth of the latest completed iteration (0 before any).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Changes of the best move in the last `RECENT_ITERATIONS` (4) iterations.
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

    /// True once a mate score (either side) has been reported by two iterations in a row.
    pub fn mate_settled(&self) -> bool {
        self.mate_iterations >= 2
    }
}

/// `max_memory` assumed when 0 or never sent (bytes; Gomocup's 350 MB, read as 10^6).
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 350_000_000;
/// Resident memory of everything but the hash and the search threads: binary text and data,
/// libc, allocator, pattern tables, protocol buffers. `scripts/peak-memory.sh` measured the
/// whole process at 3.9 MiB besides a 1 MiB hash (2 search threads, 20x20, full engine,
/// 2026-11-21); the estimate keeps room for larger tables later.
pub const BASE_OVERHEAD_BYTES: u64 = 16 << 20;
/// Resident memory per search thread: touched stack, board copy, move lists, histories,
/// allocator arena (included in the 3.6 MiB measured above; generous on purpose).
pub const PER_THREAD_OVERHEAD_BYTES: u64 = 4 << 20;
/// Fraction of `max_memory` kept free for allocator rounding and anything not estimated.
pub const MEMORY_SLACK: f64 = 0.05;
/// Smallest table ever returned, even when the limit is below the overhead (1 MiB).
pub const MIN_HASH_BYTES: usize = 1 << 20;
/// Largest table ever returned (16 GiB; less on 32-bit targets).
pub const MAX_HASH_BYTES: u64 = 1 << 34;

/// Transposition-table size in bytes (a power of two, ≥ [`MIN_HASH_BYTES`]) that keeps the
/// whole process under `max_memory_bytes` (0 → [`DEFAULT_MAX_MEMORY_BYTES`]) with `threads`
/// search threads (0 counts as 1). `hash_size_kib` (`INFO hash_size`, Yixin-Board; 0 = not
/// set) is used instead when given, but is still capped by the memory limit.
///
/// The table must really stay within the returned size (no rounding up by the TT).
pub fn hash_bytes_for(max_memory_bytes: u64, hash_size_kib: Option<u64>, threads: usize) -> usize {
    let limit = if max_memory_bytes == 0 {
        DEFAULT_MAX_MEMORY_BYTES
    } else {
        max_memory_bytes
    };
    let threads = threads.max(1) as u64;
    let overhead =
        BASE_OVERHEAD_BYTES.saturating_add(threads.saturating_mul(PER_THREAD_OVERHEAD_BYTES));
    let usable = (limit as f64 * (1.0 - MEMORY_SLACK)) as u64;
    let mut budget = usable.saturating_sub(overhead);
    if let Some(kib) = hash_size_kib.filter(|&k| k > 0) {
        budget = budget.min(kib.saturating_mul(1024));
    }
    let budget = budget.min(MAX_HASH_BYTES).min(usize::MAX as u64 / 2);
    let pow2 = if budget == 0 {
        0
    } else {
        1u64 << (63 - budget.leading_zeros())
    };
    (pow2 as usize).max(MIN_HASH_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn: Option<i64>, matc: i64, left: Option<i64>) -> TimeControl {
        TimeControl {
            timeout_turn_ms: turn,
            timeout_match_ms: matc,
            time_left_ms: left,
        }
    }

    #[test]
    fn margin_grows_and_is_capped() {
        assert_eq!(safety_margin_ms(0), 50);
        assert_eq!(safety_margin_ms(200), 70);
        assert_eq!(safety_margin_ms(1_000), 150);
        assert_eq!(safety_margin_ms(5_000), 500);
        assert_eq!(safety_margin_ms(30_000), 500);
        assert_eq!(safety_margin_ms(-100), 50);
    }

    #[test]
    fn watchdog_is_past_the_maximum_and_inside_the_margin() {
        for turn in [0, 50, 100, 200, 500, 1_000, 5_000, 30_000, 300_000] {
            let tm = TimeManager::new(&tc(Some(turn), 0, None), 225, 0);
            let w = watchdog_ms(tm.maximum_ms());
            assert!(w > tm.maximum_ms());
            // At least 40 ms (and more for longer turns) left to print the answer.
            let room = turn.max(100) as u64 - w;
            assert!(
                room >= 40,
                "turn {turn}: maximum {} watchdog {w}",
                tm.maximum_ms()
            );
        }
        assert_eq!(watchdog_ms(u64::MAX), u64::MAX);
    }

    #[test]
    fn moves_to_go_bounds() {
        assert_eq!(moves_to_go(225, 0), 45);
        assert_eq!(moves_to_go(225 - 70, 70), MIN_MOVES_TO_GO);
        assert_eq!(moves_to_go(3, 222), 2);
        assert_eq!(moves_to_go(0, 225), 1);
    }

    #[test]
    fn turn_only_uses_most_of_the_turn() {
        let tm = TimeManager::new(&tc(Some(5_000), 0, None), 225, 0);
        assert_eq!(tm.maximum_ms(), 5_000 - 500);
        assert!(tm.optimum_ms() >= tm.maximum_ms() / 2);
        assert!(!tm.is_infinite());
    }

    #[test]
    fn never_sent_turn_is_thirty_seconds() {
        let tm = TimeManager::new(&TimeControl::default(), 225, 0);
        assert_eq!(tm.maximum_ms(), 30_000 - 500);
    }

    #[test]
    fn instant_and_analysis() {
        let tm = TimeManager::new(&tc(Some(0), 0, None), 225, 0);
        assert_eq!((tm.optimum_ms(), tm.maximum_ms()), (0, INSTANT_MAX_MS));
        assert!(tm.should_stop(0, 1, 0, 0));
        let tm = TimeManager::new(&tc(Some(UNLIMITED_MS), 0, None), 225, 0);
        assert!(tm.is_infinite());
        assert_eq!(tm.limits(), (None, None));
        assert!(!tm.should_stop(u64::MAX - 1, 60, 0, 0));
        // A game clock bounds even a huge turn limit.
        let tm = TimeManager::new(&tc(Some(UNLIMITED_MS), 60_000, Some(60_000)), 225, 0);
        assert!(!tm.is_infinite());
        assert!(tm.maximum_ms() < 60_000);
    }

    #[test]
    fn time_left_is_authoritative_and_unlimited_left_is_ignored() {
        let b = TimeManager::new(&tc(Some(5_000), 0, None), 225, 0);
        let c = TimeManager::new(&tc(Some(5_000), 120_000, Some(UNLIMITED_MS)), 225, 0);
        assert_eq!(c, b);
        let d = TimeManager::new(&tc(Some(5_000), 0, Some(UNLIMITED_MS)), 225, 0);
        assert_eq!(d, b);
        // A real time_left counts even with timeout_match 0.
        let a = TimeManager::new(&tc(Some(5_000), 0, Some(100)), 225, 0);
        assert!(a.maximum_ms() <= INSTANT_MAX_MS);
        // Before the first time_left, timeout_match stands in for it.
        let e = TimeManager::new(&tc(Some(5_000), 10_000, None), 225, 0);
        let f = TimeManager::new(&tc(Some(5_000), 10_000, Some(10_000)), 225, 0);
        assert_eq!(e, f);
        assert!(e.maximum_ms() < b.maximum_ms());
    }

    #[test]
    fn deadline_instant() {
        let start = Instant::now();
        let tm = TimeManager::new(&tc(Some(1_000), 0, None), 225, 0);
        let d = tm.hard_deadline_at(start).map(|d| d.duration_since(start));
        assert_eq!(d, Some(Duration::from_millis(tm.maximum_ms())));
        assert_eq!(TimeManager::infinite().hard_deadline_at(start), None);
    }

    #[test]
    fn stable_stops_early_unstable_extends() {
        let tm = TimeManager::new(&tc(Some(10_000), 0, None), 225, 0);
        let opt = tm.optimum_ms();
        let stable = tm.target_ms(10, 0, 0);
        let unstable = tm.target_ms(10, 4, 0);
        let falling = tm.target_ms(10, 0, 300);
        assert!(stable < opt, "{stable} {opt}");
        assert!(unstable > opt && unstable <= tm.maximum_ms());
        assert!(falling > stable);
        // Shallow depths do not trust stability.
        assert_eq!(tm.target_ms(2, 0, 0), opt);
        assert!(tm.should_stop(stable, 10, 0, 0));
        assert!(!tm.should_stop(stable, 10, 3, 0));
        assert!(tm.should_stop(tm.maximum_ms(), 10, 4, 1_000));
    }

    #[test]
    fn iteration_state_counts_changes_and_drops() {
        let (a, b) = (Pos::new(7, 7), Pos::new(8, 8));
        let mut s = IterationState::new();
        assert_eq!((s.best_move_changes(), s.score_drop()), (0, 0));
        s.record(1, a, 50);
        s.record(2, b, 40);
        s.record(3, a, 10);
        assert_eq!(s.best_move_changes(), 2);
        assert_eq!(s.score_drop(), 40);
        for d in 4..8 {
            s.record(d, a, 60);
        }
        assert_eq!(s.best_move_changes(), 0);
        assert_eq!(s.score_drop(), 0);
        assert!(!s.mate_settled());
        s.record(8, a, crate::search::MATE - 5);
        assert!(!s.mate_settled());
        s.record(9, a, crate::search::MATE - 5);
        assert!(s.mate_settled());
        let tm = TimeManager::new(&tc(Some(10_000), 0, None), 225, 0);
        assert!(tm.should_stop_iter(&s, 1));
        assert!(!TimeManager::infinite().should_stop_iter(&s, 1));
    }

    #[test]
    fn hash_power_of_two_and_capped() {
        let h = hash_bytes_for(0, None, 1);
        assert!(h.is_power_of_two());
        assert_eq!(h, 256 << 20);
        assert_eq!(hash_bytes_for(64 << 20, None, 2), 32 << 20);
        assert_eq!(hash_bytes_for(200 << 20, None, 2), 128 << 20);
        assert_eq!(hash_bytes_for(200 << 20, Some(4096), 2), 4 << 20);
        assert_eq!(hash_bytes_for(64 << 20, Some(1 << 30), 2), 32 << 20);
        assert_eq!(hash_bytes_for(1 << 20, None, 1), MIN_HASH_BYTES);
        assert_eq!(hash_bytes_for(200 << 20, Some(0), 2), 128 << 20);
    }
}
