//! The engine facade: owns the searcher, runs searches on their own thread with a shared stop
//! flag, and turns protocol settings into search limits and a hash size. It never prints.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::search::memory::hash_bytes_for;
use crate::search::time::{watchdog_ms, TimeControl, TimeManager};
use crate::search::{SearchLimits, SearchReport, SearchResult, Searcher};

/// Stack size of the search thread.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// The INFO settings that matter to the engine (the protocol layer fills them in).
#[derive(Clone, Debug)]
pub struct Settings {
    /// `timeout_turn` in ms; `None` until sent (then 30 s).
    pub timeout_turn_ms: Option<i64>,
    /// `timeout_match` in ms; 0 = unlimited.
    pub timeout_match_ms: i64,
    /// `time_left` in ms as last sent (may be negative).
    pub time_left_ms: Option<i64>,
    /// `max_memory` in bytes; 0 = no limit (then 350 MB).
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

/// Search limits for one move: the time budget from [`TimeManager`] (turn limit, match clock,
/// `time_left` trusted over the wall clock, safety margin), plus the INFO stop limits.
// The struct update keeps this compiling when the search adds fields to `SearchLimits`.
#[allow(clippy::needless_update)]
pub fn limits_for(s: &Settings, board: &Board) -> SearchLimits {
    let tc = TimeControl {
        timeout_turn_ms: s.timeout_turn_ms,
        timeout_match_ms: s.timeout_match_ms,
        time_left_ms: s.time_left_ms,
    };
    SearchLimits {
        time: TimeManager::new(&tc, board.empty_count(), board.stone_count()),
        max_depth: (s.max_depth > 0).then_some(s.max_depth),
        max_nodes: (s.max_nodes > 0).then_some(s.max_nodes),
        strength: s.strength.min(100),
        multipv: 1,
        threads: s.threads.max(1),
        randomize_seed: (s.game_type == 0).then(random_seed),
        ..SearchLimits::default()
    }
}

fn random_seed() -> u64 {
    rand::random::<u64>()
}

/// Transposition-table size for the settings: what keeps the whole process under
/// `max_memory` (default 350 MB) with `thread_num` threads; `hash_size` (KiB) when given,
/// still capped by the memory limit. See [`hash_bytes_for`].
pub fn hash_bytes_for_settings(s: &Settings) -> usize {
    hash_bytes_for(
        s.max_memory,
        (s.hash_size_kib > 0).then_some(s.hash_size_kib),
        s.threads,
    )
}

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
    /// Size of the table as last set (read without locking: a search may hold the lock).
    hash_bytes: usize,
    stop: Arc<AtomicBool>,
    notify: Notify,
    worker: Option<thread::JoinHandle<()>>,
    /// Set when the watchdog answered for the running search (its thread may still run).
    abandoned: Arc<AtomicBool>,
    /// When the running search was started, and when its `Done` was sent (for the debug
    /// log of how long the answer waits for the protocol thread).
    go_at: Instant,
    done_at: Arc<Mutex<Option<Instant>>>,
}

fn lock(m: &Mutex<Searcher>) -> MutexGuard<'_, Searcher> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The move to play if the search has to be abandoned: the first move of the latest
/// first-line report, if any.
fn best_so_far(latest: &Mutex<Option<SearchReport>>) -> Result<SearchResult, String> {
    let r = latest
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    match r {
        Some(r) if !r.pv.is_empty() => Ok(SearchResult {
            best: r.pv[0],
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            pv: r.pv,
        }),
        _ => Err("search overran its time before any iteration completed".into()),
    }
}

impl Engine {
    /// An idle engine with a hash table of about `hash_bytes`; events go to `notify`.
    pub fn new(hash_bytes: usize, notify: Notify) -> Engine {
        let searcher = Searcher::new(hash_bytes);
        Engine {
            hash_bytes: searcher.hash_bytes(),
            searcher: Arc::new(Mutex::new(searcher)),
            stop: Arc::new(AtomicBool::new(false)),
            notify,
            worker: None,
            abandoned: Arc::new(AtomicBool::new(false)),
            go_at: Instant::now(),
            done_at: Arc::new(Mutex::new(None)),
        }
    }

    /// True from [`Engine::go`] until [`Engine::finished`].
    pub fn is_thinking(&self) -> bool {
        self.worker.is_some()
    }

    /// Starts searching `board` on the search thread. Reports and the final
    /// [`EngineEvent::Done`] arrive through the notify callback. Errors if a search is
    /// already running or the thread cannot be started.
    ///
    /// With a hard limit (`limits.time`'s maximum) a watchdog thread backs the search's own
    /// clock checks: at the maximum it sets the stop flag, and if the search still has not
    /// returned at [`watchdog_ms`] it sends `Done` itself with the best move of the latest
    /// completed iteration (or an error, and the protocol layer plays its fallback move).
    /// The late search's events are then dropped; its thread finishes on its own.
    pub fn go(&mut self, board: Board, limits: SearchLimits) -> Result<(), String> {
        if self.worker.is_some() {
            return Err("a search is already running".into());
        }
        // Fresh flags per search: a late watchdog or STOP can only touch its own search.
        let stop = Arc::new(AtomicBool::new(false));
        self.stop = Arc::clone(&stop);
        // Set by whoever sends `Done` first (the search or the watchdog).
        let answered = Arc::new(AtomicBool::new(false));
        let abandoned = Arc::new(AtomicBool::new(false));
        self.abandoned = Arc::clone(&abandoned);
        let latest: Arc<Mutex<Option<SearchReport>>> = Arc::new(Mutex::new(None));
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let t0 = Instant::now();
        self.go_at = t0;
        let done_at = Arc::new(Mutex::new(None));
        self.done_at = Arc::clone(&done_at);
        let maximum = limits.time.maximum_ms();
        if let Some(max) = maximum {
            let stop = Arc::clone(&stop);
            let answered = Arc::clone(&answered);
            let latest = Arc::clone(&latest);
            let notify = Arc::clone(&self.notify);
            let last_call = watchdog_ms(max);
            let spawned = thread::Builder::new()
                .name("pentad-watchdog".into())
                .stack_size(256 * 1024)
                .spawn(move || {
                    let wait = |until: u64| {
                        let left = until.saturating_sub(t0.elapsed().as_millis() as u64);
                        matches!(
                            done_rx.recv_timeout(Duration::from_millis(left)),
                            Err(mpsc::RecvTimeoutError::Timeout)
                        )
                    };
                    if !wait(max) {
                        return;
                    }
                    stop.store(true, Ordering::Relaxed);
                    log::debug!("time: backstop set the stop flag at {max} ms");
                    if !wait(last_call) {
                        return;
                    }
                    if !answered.swap(true, Ordering::AcqRel) {
                        abandoned.store(true, Ordering::Release);
                        if let Ok(mut d) = done_at.lock() {
                            *d = Some(Instant::now());
                        }
                        let result = best_so_far(&latest);
                        // Routine on a loaded machine when a best move exists (debug); the
                        // fallback move is worth a warning.
                        let level = if result.is_ok() {
                            log::Level::Debug
                        } else {
                            log::Level::Warn
                        };
                        log::log!(
                            level,
                            "time: search still running {} ms after go (maximum {max} ms); \
                             answering with {}",
                            t0.elapsed().as_millis(),
                            match &result {
                                Ok(r) => format!("the best move so far ({})", r.best),
                                Err(_) => "the fallback move".into(),
                            }
                        );
                        notify(EngineEvent::Done(result));
                    }
                });
            if let Err(e) = spawned {
                log::warn!("cannot start the watchdog thread: {e}");
            }
        }
        let searcher = Arc::clone(&self.searcher);
        let notify = Arc::clone(&self.notify);
        let done_at2 = Arc::clone(&self.done_at);
        let handle = thread::Builder::new()
            .name("pentad-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let mut guard = lock(&searcher);
                    let report_to = Arc::clone(&notify);
                    let mut report = |r: &SearchReport| {
                        if answered.load(Ordering::Acquire) {
                            return; // the watchdog already answered for this search
                        }
                        if r.multipv <= 1 {
                            if let Ok(mut l) = latest.lock() {
                                *l = Some(r.clone());
                            }
                        }
                        report_to(EngineEvent::Report(r.clone()))
                    };
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
                let ms = t0.elapsed().as_millis();
                if answered.swap(true, Ordering::AcqRel) {
                    log::debug!("time: late search returned {ms} ms after go; result dropped");
                } else {
                    log::debug!("time: search returned {ms} ms after go (maximum {maximum:?} ms)");
                    if let Ok(mut d) = done_at2.lock() {
                        *d = Some(Instant::now());
                    }
                    notify(EngineEvent::Done(outcome));
                }
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.worker = Some(handle);
        Ok(())
    }

    /// Asks the running search (if any) to stop now; its result arrives as usual.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Marks the search as over after its [`EngineEvent::Done`] has been received. A search
    /// the watchdog answered for is left to finish on its own (the next search waits for
    /// the table, inside its own watchdog's time).
    pub fn finished(&mut self) {
        if log::log_enabled!(log::Level::Debug) {
            let done = self.done_at.lock().ok().and_then(|d| *d);
            if let Some(d) = done {
                log::debug!(
                    "time: answer reached the protocol thread {} ms after Done, {} ms after go",
                    d.elapsed().as_millis(),
                    self.go_at.elapsed().as_millis()
                );
            }
        }
        if let Some(h) = self.worker.take() {
            if self.abandoned.load(Ordering::Acquire) && !h.is_finished() {
                log::debug!("time: leaving the overrunning search thread to finish");
            } else {
                let _ = h.join();
            }
        }
    }

    /// Bytes of the transposition table (as last set; does not wait for a search).
    pub fn hash_bytes(&self) -> usize {
        self.hash_bytes
    }

    /// Resizes the transposition table (only call while idle).
    pub fn resize(&mut self, bytes: usize) {
        let mut s = lock(&self.searcher);
        s.resize(bytes);
        self.hash_bytes = s.hash_bytes();
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
    use crate::search::time::{DEFAULT_TURN_MS, UNLIMITED_MS};

    #[test]
    fn limits_follow_the_clock() {
        let b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        let mut s = Settings::default();
        let l = limits_for(&s, &b);
        let never_sent = l.time.maximum_ms().unwrap();
        assert!(
            never_sent < DEFAULT_TURN_MS as u64 && never_sent > 20_000,
            "{never_sent}"
        );
        assert!(l.time.optimum_ms().unwrap() <= never_sent);
        s.timeout_turn_ms = Some(5000);
        s.timeout_match_ms = 120_000;
        s.time_left_ms = Some(10_000);
        let l = limits_for(&s, &b);
        assert!(l.time.maximum_ms().unwrap() < 2_000);
        assert!(l.time.optimum_ms().unwrap() < 1_000);
        s.time_left_ms = Some(-500);
        assert!(limits_for(&s, &b).time.maximum_ms().unwrap() <= 20);
        s.timeout_turn_ms = Some(0);
        s.time_left_ms = Some(UNLIMITED_MS);
        assert!(limits_for(&s, &b).time.maximum_ms().unwrap() <= 20);
        s.timeout_turn_ms = Some(1 << 40);
        s.timeout_match_ms = 0;
        assert_eq!(
            limits_for(&s, &b).time.maximum_ms(),
            None,
            "analysis thinks until STOP"
        );
    }

    #[test]
    fn watchdog_answer_is_the_latest_report_or_an_error() {
        use crate::core::Pos;
        let latest = Mutex::new(None);
        assert!(best_so_far(&latest).is_err(), "no iteration: fallback");
        *latest.lock().unwrap() = Some(SearchReport {
            depth: 5,
            score: 42,
            pv: vec![Pos::new(7, 8), Pos::new(8, 8)],
            ..SearchReport::default()
        });
        let r = best_so_far(&latest).unwrap();
        assert_eq!((r.best, r.score, r.depth), (Pos::new(7, 8), 42, 5));
        *latest.lock().unwrap() = Some(SearchReport::default());
        assert!(best_so_far(&latest).is_err(), "an empty PV is no move");
    }

    #[test]
    fn hash_fits_the_budget() {
        let mut s = Settings::default();
        let default = hash_bytes_for_settings(&s);
        assert!(default >= 128 << 20 && (default as u64) + (20 << 20) < 350_000_000);
        s.max_memory = 64 << 20;
        assert!(hash_bytes_for_settings(&s) <= 32 << 20);
        s.hash_size_kib = 1024;
        assert_eq!(hash_bytes_for_settings(&s), 1 << 20);
        s.hash_size_kib = u64::MAX;
        assert!(hash_bytes_for_settings(&s) <= 32 << 20);
    }
}
