//! The searcher behind its lock, and the table changes waiting for it.
//!
//! A search the watchdog abandoned keeps the searcher locked until it returns. The protocol
//! thread must never wait for it, so a resize or clear asked for while the searcher is taken
//! is recorded here and applied by the search thread that holds the searcher: the late search
//! itself just before it lets go, or else the next search before it starts.

use std::sync::{Mutex, MutexGuard, TryLockError};

use crate::search::Searcher;

/// Changes to the transposition table not applied yet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TableChanges {
    /// New size in bytes (the table starts empty at the new size).
    resize: Option<usize>,
    /// Empty the table.
    clear: bool,
}

impl TableChanges {
    fn apply(self, s: &mut Searcher) {
        if let Some(bytes) = self.resize {
            s.resize(bytes);
        } else if self.clear {
            s.clear_hash();
        }
    }

    fn is_empty(&self) -> bool {
        *self == TableChanges::default()
    }
}

/// Locks `m`, taking over the value of a mutex poisoned by a panic (the engine recovers from
/// search panics itself).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The engine's [`Searcher`], shared by the search threads, and its pending table changes.
pub(crate) struct SearcherSlot {
    searcher: Mutex<Searcher>,
    pending: Mutex<TableChanges>,
    /// How long the next job keeps the searcher after it is done (tests of late searches).
    #[cfg(test)]
    stall: Mutex<Option<std::time::Duration>>,
}

impl SearcherSlot {
    pub fn new(searcher: Searcher) -> SearcherSlot {
        SearcherSlot {
            searcher: Mutex::new(searcher),
            pending: Mutex::new(TableChanges::default()),
            #[cfg(test)]
            stall: Mutex::new(None),
        }
    }

    /// Gives the table `bytes` bytes (emptied): now if the searcher is free, otherwise as
    /// soon as the search holding it lets go. Never waits for a search.
    pub fn resize(&self, bytes: usize) {
        self.change(|c| c.resize = Some(bytes));
    }

    /// Empties the table: now if the searcher is free, otherwise as soon as the search
    /// holding it lets go. Never waits for a search.
    pub fn clear(&self) {
        self.change(|c| c.clear = true);
    }

    /// Records a change and applies everything pending if the searcher is free. The pending
    /// lock is held meanwhile, so a search thread letting go of the searcher either sees the
    /// change or has let go before the `try_lock` here.
    fn change(&self, f: impl FnOnce(&mut TableChanges)) {
        let mut pending = lock(&self.pending);
        f(&mut pending);
        let mut searcher = match self.searcher.try_lock() {
            Ok(s) => s,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                log::debug!("hash: searcher busy (a late search), table change deferred");
                return;
            }
        };
        std::mem::take(&mut *pending).apply(&mut searcher);
    }

    /// Applies the pending changes, one batch at a time (without holding the pending lock
    /// while the table is reallocated), and returns the pending lock once nothing is left:
    /// the caller lets go of the searcher while holding it.
    fn settle<'a>(&'a self, searcher: &mut Searcher) -> MutexGuard<'a, TableChanges> {
        loop {
            let mut pending = lock(&self.pending);
            if pending.is_empty() {
                return pending;
            }
            let changes = std::mem::take(&mut *pending);
            drop(pending);
            changes.apply(searcher);
        }
    }

    /// Runs `job` on the searcher, waiting for it if a late search still holds it (only
    /// search threads call this). Pending table changes are applied before and after.
    pub fn with_searcher<R>(&self, job: impl FnOnce(&mut Searcher) -> R) -> R {
        let mut searcher = lock(&self.searcher);
        #[cfg(test)]
        let stall = lock(&self.stall).take();
        drop(self.settle(&mut searcher));
        let result = job(&mut searcher);
        #[cfg(test)]
        if let Some(stall) = stall {
            std::thread::sleep(stall);
        }
        let pending = self.settle(&mut searcher);
        drop(searcher);
        drop(pending);
        result
    }

    /// Replaces the searcher by a fresh one with a table of the same size (after a panic
    /// inside a search, whose state is then suspect).
    pub fn reset(&self) {
        let mut searcher = lock(&self.searcher);
        let bytes = searcher.hash_bytes();
        *searcher = Searcher::new(bytes);
        drop(searcher);
        self.searcher.clear_poison();
    }

    /// Bytes of the table as it is now, or `None` while a search holds the searcher (never
    /// waits). After a resize this tells whether the allocation gave less than asked.
    pub fn table_bytes_now(&self) -> Option<usize> {
        match self.searcher.try_lock() {
            Ok(s) => Some(s.hash_bytes()),
            Err(TryLockError::Poisoned(p)) => Some(p.into_inner().hash_bytes()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// Makes the next job keep the searcher `stall` longer (tests of late searches).
    #[cfg(test)]
    pub fn stall_next_job(&self, stall: std::time::Duration) {
        *lock(&self.stall) = Some(stall);
    }

    /// Bytes of the table as it is now; waits for a running search (tests only).
    #[cfg(test)]
    pub fn table_bytes(&self) -> usize {
        lock(&self.searcher).hash_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    #[test]
    fn changes_wait_for_the_searcher_without_blocking_the_caller() {
        let slot = SearcherSlot::new(Searcher::new(1 << 16));
        slot.resize(1 << 17);
        assert_eq!(
            slot.table_bytes(),
            1 << 17,
            "a free searcher changes at once"
        );
        let (holding, held) = mpsc::channel();
        let (release, released) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let slot = &slot;
            scope.spawn(move || {
                slot.with_searcher(|s| {
                    holding.send(s.hash_bytes()).unwrap();
                    let _ = released.recv_timeout(Duration::from_secs(10));
                })
            });
            assert_eq!(held.recv().unwrap(), 1 << 17);
            let t = Instant::now();
            slot.resize(1 << 18);
            slot.clear();
            assert!(
                t.elapsed() < Duration::from_secs(1),
                "waited for the search"
            );
            release.send(()).unwrap();
        });
        assert_eq!(
            slot.table_bytes(),
            1 << 18,
            "applied when the search let go"
        );
        assert!(slot.pending.lock().unwrap().is_empty());
    }
}
