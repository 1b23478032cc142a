//! Transposition-table sizes from `max_memory`: the estimate of the whole process stays
//! under the limit, `hash_size` wins but is capped, and the size grows with the memory.

use pentad::search::memory::{
    hash_bytes_for, BASE_OVERHEAD_BYTES, DEFAULT_MAX_MEMORY_BYTES, MEMORY_SLACK, MIN_HASH_BYTES,
    PER_THREAD_OVERHEAD_BYTES,
};

/// The estimate of the whole process: overhead plus the table.
fn estimated_total(max_memory: u64, kib: Option<u64>, threads: usize) -> u64 {
    hash_bytes_for(max_memory, kib, threads) as u64
        + BASE_OVERHEAD_BYTES
        + threads.max(1) as u64 * PER_THREAD_OVERHEAD_BYTES
}

#[test]
fn hash_keeps_estimate_under_limit() {
    for mb in [40u64, 64, 100, 200, 350, 1_000, 4_000] {
        for threads in [1usize, 2, 4, 8] {
            for limit in [mb * 1_000_000, mb << 20] {
                let h = hash_bytes_for(limit, None, threads);
                assert!(h.is_power_of_two() && h >= MIN_HASH_BYTES);
                let overhead = BASE_OVERHEAD_BYTES + threads as u64 * PER_THREAD_OVERHEAD_BYTES;
                if overhead + MIN_HASH_BYTES as u64 > limit {
                    // Cannot fit at all: the smallest table.
                    assert_eq!(h, MIN_HASH_BYTES, "{limit} {threads}");
                    continue;
                }
                assert!(
                    estimated_total(limit, None, threads) <= limit,
                    "{limit} {threads}"
                );
                // Not wasteful: twice the table would not fit in the limit less the slack.
                let usable = (limit as f64 * (1.0 - MEMORY_SLACK)) as u64;
                assert!(2 * h as u64 + overhead > usable, "{limit} {threads}");
            }
        }
    }
    // 0 means the 350 MB default.
    assert_eq!(
        hash_bytes_for(0, None, 2),
        hash_bytes_for(DEFAULT_MAX_MEMORY_BYTES, None, 2)
    );
    assert!(estimated_total(0, None, 2) <= DEFAULT_MAX_MEMORY_BYTES);
}

#[test]
fn hash_size_wins_but_is_capped() {
    assert_eq!(hash_bytes_for(200 << 20, Some(16 * 1024), 2), 16 << 20);
    assert_eq!(hash_bytes_for(0, Some(65_536), 1), 64 << 20);
    // Not a power of two: rounded down.
    assert_eq!(hash_bytes_for(0, Some(100 * 1024), 1), 64 << 20);
    // Larger than max_memory allows: capped.
    assert_eq!(
        hash_bytes_for(64 << 20, Some(1 << 30), 2),
        hash_bytes_for(64 << 20, None, 2)
    );
    assert_eq!(
        hash_bytes_for(0, Some(1 << 40), 1),
        hash_bytes_for(0, None, 1)
    );
    // Tiny requests and limits give the minimum table.
    assert_eq!(hash_bytes_for(0, Some(1), 1), MIN_HASH_BYTES);
    assert_eq!(hash_bytes_for(10 << 20, None, 4), MIN_HASH_BYTES);
}

#[test]
fn hash_monotone_in_memory_and_threads() {
    let mut prev = 0;
    for mb in (8..2_000u64).step_by(7) {
        let h = hash_bytes_for(mb << 20, None, 2);
        assert!(h >= prev, "{mb}");
        prev = h;
    }
    let one = hash_bytes_for(100 << 20, None, 1);
    let many = hash_bytes_for(100 << 20, None, 16);
    assert!(many <= one);
}
