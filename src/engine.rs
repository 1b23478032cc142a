//! The engine facade: owns the searcher, runs searches on their own thread with a shared stop
//! flag, and turns protocol settings into search limits and a hash size. It never prints.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use crate::board::Board;
use crate::search::{SearchLimits, SearchReport, SearchResult, Searcher};

/// `timeout_turn` when the manager never sends it (ms).
pub const DEFAULT_TIMEOUT_TURN_MS: i64 = 30_000;
/// Memory budget when `max_memory` is 0 or never sent (bytes), like Rapfi.
pub const DEFAULT_MAX_MEMORY: u64 = 350 * 1024 * 1024;
/// Time kept in reserve for process, pipe and manager latency (ms).
pub const SAFETY_MARGIN_MS: i64 = 60;
/// `time_left` value that means "no match clock".
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;
/// Stack size of the search thread.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// The INFO settings that matter to the engine (the protocol layer fills them in).
#[derive(Clone, Debug)]
pub struct Settings {
    /// `timeout_turn` in ms; `None` until sent (then [`DEFAULT_TIMEOUT_TURN_MS`]).
    pub timeout_turn_ms: Option<i64>,
    /// `timeout_match` in ms; 0 = unlimited.
    pub timeout_match_ms: i64,
    /// `time_left` in ms as last sent (may be negative).
    pub time_left_ms: Option<i64>,
    /// `max_memory` in bytes; 0 = no limit (use [`DEFAULT_MAX_MEMORY`]).
    pub max_memory: u64,
    /// `hash_size` in KiB (Yixin-Board); 0 = not set.
    pub hash_size_kib: u64,
    /// `thread_num` (at least 1).
    pub threads: usize,
    /// `max_depth`; 0 = none.
    pub max_depth: u32,
    /// `max_node`; 0 = none.
    pub max_nodes: u64,
    /// `strength` 0..=100.
    pub strength: u8,
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament).
    pub game_type: i64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            timeout_turn_ms: None,
            timeout_match_ms: 0,
            time_left_ms: None,
            max_memory: 0,
            hash_size_kib: 0,
            threads: 1,
            max_depth: 0,
            max_nodes: 0,
            strength: 100,
            game_type: 1,
        }
    }
}

/// Search limits for one move from the time settings (simple, safe rule; the time manager
/// `crate::search::time::TimeManager` is meant to replace the time part of this function).
///
/// - per-move cap `turn` = `timeout_turn` (default 30 s); 0 → answer almost at once;
/// - match clock `left` = `time_left` (or `timeout_match` before the first `time_left`),
///   unlimited when `timeout_match` is 0 and `time_left` is absent or 2147483647;
/// - optimum = min(turn, left / moves_left) / 2, with moves_left ≈ max(15, empty/6) (capped);
/// - maximum = min(turn, left / 5) − [`SAFETY_MARGIN_MS`], at least 5 ms.
pub fn limits_for(s: &Settings, board: &Board) -> SearchLimits {
    let turn = s.timeout_turn_ms.unwrap_or(DEFAULT_TIMEOUT_TURN_MS).max(0);
    let left = match s.time_left_ms {
        Some(t) if t < UNLIMITED_TIME_LEFT => Some(t.max(0)),
        Some(_) => None,
        None if s.timeout_match_ms > 0 => Some(s.timeout_match_ms),
        None => None,
    };
    let (optimum, maximum) = if turn == 0 {
        (5, 20)
    } else {
        let moves_left = ((board.empty_count() / 6) as i64).clamp(15, 40);
        let per_move = left.map_or(turn, |l| turn.min(l / moves_left));
        let cap = left.map_or(turn, |l| turn.min(l / 5));
        let maximum = (cap - SAFETY_MARGIN_MS).max(5);
        ((per_move / 2).clamp(1, maximum), maximum)
    };
    SearchLimits {
        optimum_ms: Some(optimum as u64),
        maximum_ms: Some(maximum as u64),
        max_depth: (s.max_depth > 0).then_some(s.max_depth),
        max_nodes: (s.max_nodes > 0).then_some(s.max_nodes),
        strength: s.strength.min(100),
        multipv: 1,
        threads: s.threads.max(1),
        randomize_seed: (s.game_type == 0).then(random_seed),
    }
}

fn random_seed() -> u64 {
    rand::random::<u64>()
}

/// Transposition-table size for the settings: `hash_size` if given, but never more than half
/// the memory budget (`max_memory`, default 350 MB), the rest being left for everything else.
/// (`crate::search::time::hash_bytes_for` is meant to replace the budget rule.)
pub fn hash_bytes_for_settings(s: &Settings) -> usize {
    let budget = if s.max_memory == 0 {
        DEFAULT_MAX_MEMORY
    } else {
        s.max_memory
    };
    let cap = budget / 2;
    let want = if s.hash_size_kib > 0 {
        s.hash_size_kib.saturating_mul(1024)
    } else {
        cap
    };
    want.min(cap)
        .min(MAX_HASH_BYTES)
        .min(usize::MAX as u64 / 2)
        .max(256 * 1024) as usize
}

/// Largest transposition table we ever ask for, whatever the manager claims to allow.
pub const MAX_HASH_BYTES: u64 = 8 << 30;

/// What the search thread sends back.
#[derive(Debug)]
pub enum EngineEvent {
    /// One completed iteration (or one line of a multi-PV set).
    Report(SearchReport),
    /// The search ended: its result, or why it failed (a panic).
    Done(Result<SearchResult, String>),
}

/// Where engine events go (a channel sender wrapped in a closure, or a test collector).
pub type Notify = Arc<dyn Fn(EngineEvent) + Send + Sync>;

/// Owns the [`Searcher`] and at most one running search.
pub struct Engine {
    searcher: Arc<Mutex<Searcher>>,
    stop: Arc<AtomicBool>,
    notify: Notify,
    worker: Option<thread::JoinHandle<()>>,
}

fn lock(m: &Mutex<Searcher>) -> MutexGuard<'_, Searcher> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Engine {
    /// An idle engine with a hash table of about `hash_bytes`; events go to `notify`.
    pub fn new(hash_bytes: usize, notify: Notify) -> Engine {
        Engine {
            searcher: Arc::new(Mutex::new(Searcher::new(hash_bytes))),
            stop: Arc::new(AtomicBool::new(false)),
            notify,
            worker: None,
        }
    }

    /// True from [`Engine::go`] until [`Engine::finished`].
    pub fn is_thinking(&self) -> bool {
        self.worker.is_some()
    }

    /// Starts searching `board` on the search thread. Reports and the final
    /// [`EngineEvent::Done`] arrive through the notify callback. Errors if a search is
    /// already running or the thread cannot be started.
    pub fn go(&mut self, board: Board, limits: SearchLimits) -> Result<(), String> {
        if self.worker.is_some() {
            return Err("a search is already running".into());
        }
        // A fresh flag per search: a late watchdog or STOP can only touch its own search.
        let stop = Arc::new(AtomicBool::new(false));
        self.stop = Arc::clone(&stop);
        let (done_tx, done_rx) = mpsc::channel::<()>();
        if let Some(max) = limits.maximum_ms {
            // Backstop for the hard limit: flip the stop flag if the search overruns.
            let stop = Arc::clone(&stop);
            thread::spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) =
                    done_rx.recv_timeout(Duration::from_millis(max))
                {
                    stop.store(true, Ordering::Relaxed);
                }
            });
        }
        let searcher = Arc::clone(&self.searcher);
        let notify = Arc::clone(&self.notify);
        let handle = thread::Builder::new()
            .name("pentad-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let mut guard = lock(&searcher);
                    let report_to = Arc::clone(&notify);
                    let mut report = |r: &SearchReport| report_to(EngineEvent::Report(r.clone()));
                    guard.search(&board, &limits, &stop, &mut report)
                }));
                let outcome = outcome.map_err(|e| {
                    let why = e
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| e.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".into());
                    // The searcher's state is suspect after a panic: start afresh.
                    let bytes = lock(&searcher).hash_bytes();
                    *lock(&searcher) = Searcher::new(bytes);
                    searcher.clear_poison();
                    log::error!("search panicked: {why}");
                    format!("search panicked: {why}")
                });
                drop(done_tx);
                notify(EngineEvent::Done(outcome));
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.worker = Some(handle);
        Ok(())
    }

    /// Asks the running search (if any) to stop now; its result arrives as usual.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Marks the search as over after its [`EngineEvent::Done`] has been received.
    pub fn finished(&mut self) {
        if let Some(h) = self.worker.take() {
            let _ = h.join();
        }
    }

    /// Bytes of the transposition table.
    pub fn hash_bytes(&self) -> usize {
        lock(&self.searcher).hash_bytes()
    }

    /// Resizes the transposition table (only call while idle).
    pub fn resize(&self, bytes: usize) {
        lock(&self.searcher).resize(bytes);
    }

    /// Clears the transposition table (only call while idle).
    pub fn clear_hash(&self) {
        lock(&self.searcher).clear_hash();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    #[test]
    fn limits_follow_the_clock() {
        let b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        let mut s = Settings::default();
        let l = limits_for(&s, &b);
        assert_eq!(l.maximum_ms, Some(30_000 - SAFETY_MARGIN_MS as u64));
        assert!(l.optimum_ms.unwrap() <= l.maximum_ms.unwrap());
        s.timeout_turn_ms = Some(5000);
        s.timeout_match_ms = 120_000;
        s.time_left_ms = Some(10_000);
        let l = limits_for(&s, &b);
        assert_eq!(l.maximum_ms, Some(2000 - SAFETY_MARGIN_MS as u64));
        assert!(l.optimum_ms.unwrap() < 1000);
        s.time_left_ms = Some(-500);
        let l = limits_for(&s, &b);
        assert_eq!(l.maximum_ms, Some(5));
        s.timeout_turn_ms = Some(0);
        s.time_left_ms = Some(UNLIMITED_TIME_LEFT);
        assert_eq!(limits_for(&s, &b).maximum_ms, Some(20));
    }

    #[test]
    fn hash_fits_the_budget() {
        let mut s = Settings::default();
        assert_eq!(
            hash_bytes_for_settings(&s),
            (DEFAULT_MAX_MEMORY / 2) as usize
        );
        s.max_memory = 100 << 20;
        assert_eq!(hash_bytes_for_settings(&s), 50 << 20);
        s.hash_size_kib = 1024;
        assert_eq!(hash_bytes_for_settings(&s), 1 << 20);
        s.hash_size_kib = u64::MAX;
        assert_eq!(hash_bytes_for_settings(&s), 50 << 20);
    }
}
