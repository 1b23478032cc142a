//! The answer a search and its watchdog race to give, and the watchdog thread.
//!
//! Every search (a move or a Swap2 decision) has a hard maximum. The search's own clock
//! checks should end it by then; the watchdog backs them: at the maximum it sets the stop
//! flag, and if the search still has not returned at [`watchdog_ms`] it answers itself with
//! the best answer so far. Whoever answers first sends the one `Done`; the other's is dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::{Answer, EngineEvent, Notify};
use crate::search::time::watchdog_ms;

/// Stack of the watchdog thread (it only waits and sends).
const WATCHDOG_STACK_BYTES: usize = 256 * 1024;

/// What one search and its watchdog share.
pub(super) struct Answering {
    notify: Notify,
    /// Set by whoever sends `Done` first (the search or the watchdog).
    answered: AtomicBool,
    /// Set when the watchdog answered (the search thread may still run).
    abandoned: AtomicBool,
    /// What the watchdog answers with: the search's latest complete answer, if any.
    best_so_far: Mutex<Option<Answer>>,
    /// When the search started, and when `Done` was sent.
    started: Instant,
    done_at: Mutex<Option<Instant>>,
}

impl Answering {
    pub fn new(notify: Notify) -> Answering {
        Answering {
            notify,
            answered: AtomicBool::new(false),
            abandoned: AtomicBool::new(false),
            best_so_far: Mutex::new(None),
            started: Instant::now(),
            done_at: Mutex::new(None),
        }
    }

    /// Passes a report on, unless the watchdog already answered for this search.
    pub fn report(&self, ev: EngineEvent) {
        if !self.answered.load(Ordering::Acquire) {
            (self.notify)(ev);
        }
    }

    /// Records the answer the watchdog gives if the search overruns.
    pub fn set_best_so_far(&self, answer: Answer) {
        if let Ok(mut b) = self.best_so_far.lock() {
            *b = Some(answer);
        }
    }

    /// Sends `Done(outcome)` unless the other side already answered; true if this did.
    pub fn answer(&self, outcome: Result<Answer, String>) -> bool {
        if self.answered.swap(true, Ordering::AcqRel) {
            return false;
        }
        self.send_done(outcome);
        true
    }

    fn send_done(&self, outcome: Result<Answer, String>) {
        if let Ok(mut d) = self.done_at.lock() {
            *d = Some(Instant::now());
        }
        (self.notify)(EngineEvent::Done(outcome));
    }

    /// The watchdog answers for a search that overran, unless it has just answered.
    fn abandon(&self) {
        if self.answered.swap(true, Ordering::AcqRel) {
            return;
        }
        // Marked before `Done` is sent, so that the receiver of `Done` sees it.
        self.abandoned.store(true, Ordering::Release);
        let best = self.best_so_far.lock().ok().and_then(|mut b| b.take());
        let outcome = best.ok_or_else(|| "search overran its time before any answer".to_string());
        // Routine on a loaded machine when a best answer exists (debug); the fallback is
        // worth a warning.
        let level = if outcome.is_ok() {
            log::Level::Debug
        } else {
            log::Level::Warn
        };
        log::log!(
            level,
            "time: search still running {} ms after go; answering with {}",
            self.ms_since_start(),
            if outcome.is_ok() {
                "the best answer so far"
            } else {
                "the fallback"
            }
        );
        self.send_done(outcome);
    }

    /// True when the watchdog answered for this search.
    pub fn is_abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Acquire)
    }

    pub fn ms_since_start(&self) -> u128 {
        self.started.elapsed().as_millis()
    }

    /// How long after `Done` was sent the protocol thread got to it (debug log).
    pub fn log_delivery(&self) {
        let done = self.done_at.lock().ok().and_then(|d| *d);
        if let Some(d) = done {
            log::debug!(
                "time: answer reached the protocol thread {} ms after Done, {} ms after go",
                d.elapsed().as_millis(),
                self.ms_since_start()
            );
        }
    }
}

/// Starts the watchdog of a search with hard maximum `max` ms. It returns early once
/// `search_done` is dropped (the search thread returned).
pub(super) fn spawn(
    max: u64,
    stop: Arc<AtomicBool>,
    answering: Arc<Answering>,
    search_done: mpsc::Receiver<()>,
) {
    let last_call = watchdog_ms(max);
    let spawned = thread::Builder::new()
        .name("pentad-watchdog".into())
        .stack_size(WATCHDOG_STACK_BYTES)
        .spawn(move || {
            // True when `until` ms after go came while the search was still running.
            let still_running = |until: u64| {
                let left = until.saturating_sub(answering.ms_since_start() as u64);
                matches!(
                    search_done.recv_timeout(Duration::from_millis(left)),
                    Err(mpsc::RecvTimeoutError::Timeout)
                )
            };
            if !still_running(max) {
                return;
            }
            stop.store(true, Ordering::Relaxed);
            log::debug!("time: backstop set the stop flag at {max} ms");
            if still_running(last_call) {
                answering.abandon();
            }
        });
    if let Err(e) = spawned {
        log::warn!("cannot start the watchdog thread: {e}");
    }
}
