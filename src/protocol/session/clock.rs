//! The latency the manager's game clock shows: what it charged for our previous move beyond
//! the engine's own time from starting the search to writing the answer (pipes, scheduling,
//! process wake-ups, the watchdog's grace). It is read from two successive `time_left`
//! values, so it measures exactly the clock that can make us lose.

use std::time::Instant;

use crate::search::time::ObservedLatency;

/// The move being searched: the clock when it started.
#[derive(Clone, Copy, Debug)]
struct Pending {
    left_ms: i64,
    started: Instant,
}

/// The move last answered: the clock when it started and our own time for it.
#[derive(Clone, Copy, Debug)]
struct Answered {
    left_ms: i64,
    elapsed_ms: i64,
}

/// Links each answered move to the `time_left` of the next one, and keeps the latencies.
/// The observations outlive a game (the machine's load does), the links do not.
#[derive(Debug, Default)]
pub(super) struct ClockWatch {
    pending: Option<Pending>,
    answered: Option<Answered>,
    latency: ObservedLatency,
}

impl ClockWatch {
    /// A new game or position: the next `time_left` is not a successor of the last one.
    pub fn unlink(&mut self) {
        self.pending = None;
        self.answered = None;
    }

    /// A move search starts with `left_ms` on our game clock (`None` without one). The
    /// clock's drop since the previous answered move, less our own time for it, is that
    /// move's latency (no drop: the manager did not charge it, nothing is learned).
    pub fn search_started(&mut self, left_ms: Option<i64>) -> ObservedLatency {
        if let (Some(prev), Some(now)) = (self.answered.take(), left_ms) {
            let charged = prev.left_ms - now;
            if charged > 0 {
                self.latency.observe(charged - prev.elapsed_ms);
            }
        }
        self.pending = left_ms.map(|left_ms| Pending {
            left_ms,
            started: Instant::now(),
        });
        self.latency
    }

    /// The move of the pending search was written (and flushed).
    pub fn answered(&mut self) {
        if let Some(p) = self.pending.take() {
            self.answered = Some(Answered {
                left_ms: p.left_ms,
                elapsed_ms: p.started.elapsed().as_millis() as i64,
            });
        }
    }

    /// The latencies observed so far.
    #[cfg(test)]
    pub fn latency(&self) -> ObservedLatency {
        self.latency
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_is_the_charge_beyond_our_own_time() {
        let mut w = ClockWatch::default();
        assert_eq!(w.search_started(Some(5000)).moves, 0);
        w.answered();
        let own = w.answered.unwrap().elapsed_ms;
        // The manager charged 120 ms for a move we took `own` ms for.
        let l = w.search_started(Some(5000 - 120 - own));
        assert_eq!((l.moves, l.worst_ms), (1, 120));
        w.answered();
        // No drop (a clock not charged, or an increment): nothing learned.
        assert_eq!(w.search_started(Some(6000)).moves, 1);
        // A new game: the first move links to nothing.
        w.answered();
        w.unlink();
        assert_eq!(w.search_started(Some(100)).moves, 1);
        assert_eq!(w.latency().worst_ms, 120);
        // No game clock: nothing pending.
        w.search_started(None);
        w.answered();
        assert!(w.answered.is_none());
    }
}
