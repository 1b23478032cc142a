//! Memory budget: the transposition-table size that keeps the whole process under
//! `INFO max_memory`.
//!
//! [`hash_bytes_for`] subtracts an estimate of everything else the process keeps resident
//! (binary, libc, pattern tables, I/O buffers: [`BASE_OVERHEAD_BYTES`]; each search thread's
//! stack and state: [`PER_THREAD_OVERHEAD_BYTES`]) and a slack fraction from `max_memory`, and
//! rounds the rest down to a power of two.

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
