//! Search threads: the stack every search thread gets, the helper threads of Lazy SMP, and
//! which positions other search threads are searching right now (simplified ABDADA).
//!
//! With Lazy SMP every thread walks the same tree in the same order, so two threads mostly
//! search the same subtree at the same time. A thread about to search a later move of a node
//! first asks whether another thread is inside that move's subtree; if so it defers the move
//! to the end of its list and searches something else meanwhile. By the time it comes back,
//! the other thread's result is usually in the shared transposition table.
//!
//! The table is a small set of position keys: a slot per key, overwritten on collision. A
//! false "busy" only reorders moves, a missed one only duplicates work, so no locking.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::thread::Scope;

/// Stack size of every search thread, the main one and the helpers alike: the recursion of
/// the tree search and of the threat solvers (a helper may run a 21-ply VCT) goes deep, and
/// a thread's default stack (2 MiB) is far from enough.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Starts helper thread `id` of a search inside `scope`, with the search stack. A helper
/// that cannot be started is logged and left out: the other threads search without it.
pub(crate) fn spawn_helper<'scope, F>(scope: &'scope Scope<'scope, '_>, id: usize, f: F)
where
    F: FnOnce() + Send + 'scope,
{
    let spawned = std::thread::Builder::new()
        .name(format!("pentad-helper-{id}"))
        .stack_size(SEARCH_STACK_BYTES)
        .spawn_scoped(scope, f);
    if let Err(e) = spawned {
        log::warn!("cannot start search helper thread {id}: {e}");
    }
}

/// Slots of the table (a power of two).
const SLOTS: usize = 1 << 13;

/// Keys of the positions whose subtrees some thread is searching.
pub(crate) struct InFlight {
    slots: Vec<AtomicU64>,
}

impl InFlight {
    /// An empty table.
    pub fn new() -> InFlight {
        InFlight {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (SLOTS - 1)]
    }

    /// True when some thread has entered `key`'s subtree and not left it yet.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Clears the mark of `key`, unless another key has taken the slot since.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uses about `depth` * 64 KiB of stack.
    fn deep(depth: usize) -> u64 {
        let frame = std::hint::black_box([depth as u8; 64 * 1024]);
        if depth == 0 {
            return frame[0] as u64;
        }
        deep(depth - 1) + std::hint::black_box(frame[frame.len() - 1]) as u64
    }

    #[test]
    fn helpers_get_the_search_stack() {
        // 16 MiB of recursion: far beyond a default 2 MiB thread stack, well inside ours.
        let depth = 256;
        let sum = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            spawn_helper(scope, 1, || {
                sum.store(deep(depth), Relaxed);
            });
        });
        let expected: u64 = (0..=depth).map(|d| u64::from(d as u8)).sum();
        assert_eq!(sum.load(Relaxed), expected);
    }

    #[test]
    fn entered_keys_are_busy_until_left() {
        let t = InFlight::new();
        let a = 0x1234_5678_9abc_def1u64;
        let b = a + SLOTS as u64; // same slot, another key
        assert!(!t.is_busy(a));
        t.enter(a);
        assert!(t.is_busy(a));
        assert!(!t.is_busy(b), "a slot holds one key");
        t.enter(b);
        assert!(!t.is_busy(a), "a colliding key replaces the mark");
        t.leave(a);
        assert!(
            t.is_busy(b),
            "leaving a replaced key keeps the other's mark"
        );
        t.leave(b);
        assert!(!t.is_busy(b));
        assert!(!t.is_busy(0), "key 0 is never busy");
    }
}
