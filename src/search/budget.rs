//! The node budget of the threat solvers (VCF, VCT): a node count, optionally also ended by
//! a stop flag or a deadline, polled every few nodes.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use super::params::SOLVER_POLL_INTERVAL;

/// A node budget for the threat solvers, optionally bounded by a stop flag and a deadline
/// (polled every [`SOLVER_POLL_INTERVAL`] nodes). Once exhausted or stopped, `nodes` is 0
/// and stays 0.
pub struct Budget<'a> {
    /// Nodes left.
    pub nodes: u64,
    stop: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    next_poll: u64,
    /// True when the stop flag or the deadline ended the search (not the node count).
    pub interrupted: bool,
    /// Nodes taken so far.
    pub used: u64,
}

impl<'a> Budget<'a> {
    /// A plain node budget.
    pub fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            nodes,
            stop: None,
            deadline: None,
            next_poll: 0,
            interrupted: false,
            used: 0,
        }
    }

    /// A node budget that also ends when `stop` is set or at `deadline`.
    pub fn limited(nodes: u64, stop: &'a AtomicBool, deadline: Option<Instant>) -> Budget<'a> {
        Budget {
            nodes,
            stop: Some(stop),
            deadline,
            next_poll: nodes.saturating_sub(SOLVER_POLL_INTERVAL),
            interrupted: false,
            used: 0,
        }
    }

    /// Takes one node; false when the budget is spent (or the search was interrupted).
    #[inline]
    pub fn take(&mut self) -> bool {
        if self.nodes == 0 {
            return false;
        }
        self.nodes -= 1;
        self.used += 1;
        if self.nodes <= self.next_poll && self.stop.is_some() {
            self.next_poll = self.nodes.saturating_sub(SOLVER_POLL_INTERVAL);
            self.poll();
        }
        true
    }

    /// True when nothing is left.
    #[inline]
    pub fn spent(&self) -> bool {
        self.nodes == 0
    }

    fn poll(&mut self) {
        let stopped = self.stop.is_some_and(|s| s.load(Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d);
        if stopped {
            self.nodes = 0;
            self.interrupted = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_budget_counts_down_to_spent() {
        let mut b = Budget::nodes(3);
        assert!(b.take() && b.take() && b.take());
        assert!(!b.take());
        assert!(b.spent() && !b.interrupted);
        assert_eq!(b.used, 3);
    }

    #[test]
    fn a_stop_or_a_past_deadline_ends_the_budget_at_the_next_poll() {
        let stop = AtomicBool::new(true);
        let mut b = Budget::limited(10_000, &stop, None);
        let taken = (0..10_000).take_while(|_| b.take()).count() as u64;
        assert_eq!(taken, SOLVER_POLL_INTERVAL);
        assert!(b.spent() && b.interrupted);
        let go = AtomicBool::new(false);
        let mut b = Budget::limited(10_000, &go, Some(Instant::now()));
        let taken = (0..10_000).take_while(|_| b.take()).count() as u64;
        assert_eq!(taken, SOLVER_POLL_INTERVAL);
        assert!(b.interrupted);
        let mut b = Budget::limited(10_000, &go, None);
        assert_eq!((0..20_000).take_while(|_| b.take()).count(), 10_000);
        assert!(!b.interrupted);
    }
}
