//! Memory budget: the transposition-table size that keeps the whole process under
//! `INFO max_memory`.
//!
//! [`hash_bytes_for`] subtracts an estimate of everything else the process keeps resident
//! (binary, libc, pattern tables, I/O buffers: [`BASE_OVERHEAD_BYTES`]; each search thread's
//! stack and state: [`PER_THREAD_OVERHEAD_BYTES`]) and a slack fraction from `max_memory`, and
//! rounds the rest down to a power of two. [`hash_plan`] then caps that at half the machine's
//! memory ([`MachineMemory`]), so that no setting (say `INFO max_memory` of 1 TB) can make the
//! engine starve the machine or get it killed.

/// `max_memory` assumed when 0 or never sent (bytes; Gomocup's 350 MB, read as 10^6).
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 350_000_000;
/// Resident memory of everything but the hash and the search threads: binary text and data,
/// libc, allocator, pattern tables, protocol buffers. `pentad-tools peak-memory` measured the
/// whole process at 3.9 MiB besides a 1 MiB hash (2 search threads, 20x20, full engine,
/// 2026-11-21); the estimate keeps room for larger tables, such as the threat solver's proof
/// table (at most 8 MiB, one at a time: `pns::ProofTable`).
pub const BASE_OVERHEAD_BYTES: u64 = 16 << 20;
/// Resident memory per search thread: touched stack, board copy, move lists, histories,
/// allocator arena (included in the 3.6 MiB measured above; generous on purpose).
pub const PER_THREAD_OVERHEAD_BYTES: u64 = 4 << 20;
/// Fraction of `max_memory` kept free for allocator rounding and anything not estimated.
pub const MEMORY_SLACK: f64 = 0.05;
/// Smallest table ever returned, even when the limit is below the overhead (1 MiB).
pub const MIN_HASH_BYTES: usize = 1 << 20;
/// Largest table [`hash_bytes_for`] returns (16 TiB; less on 32-bit targets): a bound on the
/// arithmetic only, as [`hash_plan`] caps the table at half the machine's memory.
pub const MAX_HASH_BYTES: u64 = 1 << 44;

/// At most this share of the machine's memory (total, and available now) goes to the table.
pub const MACHINE_SHARE_DIVISOR: u64 = 2;
/// Machine memory assumed where it cannot be read (no `/proc/meminfo`): 4 GiB, so a table of
/// at most 2 GiB.
pub const FALLBACK_MACHINE_BYTES: u64 = 4 << 30;
/// The idle engine makes at most this much of a new table resident ahead of the search (see
/// `tt::prefault`); pages past it are faulted in only when a search stores there. Above the
/// default table (256 MiB), so a default-sized table is wholly resident from START.
pub const PREFAULT_MAX_BYTES: usize = 512 << 20;

/// The machine's memory: total and available now (bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MachineMemory {
    /// Physical memory (`MemTotal`).
    pub total: u64,
    /// Memory the kernel can give without swapping (`MemAvailable`; the total if unknown).
    pub available: u64,
}

impl MachineMemory {
    /// Reads `/proc/meminfo` (Linux); [`FALLBACK_MACHINE_BYTES`] elsewhere or on failure.
    pub fn read() -> MachineMemory {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| MachineMemory::parse_meminfo(&text))
            .unwrap_or(MachineMemory {
                total: FALLBACK_MACHINE_BYTES,
                available: FALLBACK_MACHINE_BYTES,
            })
    }

    /// `MemTotal` and `MemAvailable` of a `/proc/meminfo` text (`kB` values); `None` without a
    /// usable `MemTotal`.
    pub fn parse_meminfo(text: &str) -> Option<MachineMemory> {
        let field = |name: &str| {
            text.lines().find_map(|line| {
                let rest = line.strip_prefix(name)?.strip_prefix(':')?;
                let kib: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
                Some(kib.saturating_mul(1024))
            })
        };
        let total = field("MemTotal").filter(|&t| t > 0)?;
        let available = field("MemAvailable").unwrap_or(total).min(total);
        Some(MachineMemory { total, available })
    }

    /// The largest table this machine can give (half its memory and half what is available).
    pub fn table_cap(&self) -> u64 {
        (self.total / MACHINE_SHARE_DIVISOR).min(self.available / MACHINE_SHARE_DIVISOR)
    }
}

/// Table bytes per millisecond of a move's time limit and per thread: four times what a
/// search at 1,000 nodes/ms writes (16-byte entries), so a table holds several moves'
/// searches.
pub const TABLE_BYTES_PER_TURN_MS: u64 = 64 << 10;

/// The largest table worth having when a move may take `turn_ms` on `threads` threads (a
/// power of two, at least [`MIN_HASH_BYTES`]). A bigger one only costs: a fresh process
/// faults its pages in while its first search runs, and at 0.5 s a move the default 256 MiB
/// table left that search at a third of its speed (89 K nodes against 233 K with 32 MiB).
pub fn turn_table_cap(turn_ms: u64, threads: usize) -> usize {
    let bytes = turn_ms
        .saturating_mul(TABLE_BYTES_PER_TURN_MS)
        .saturating_mul(threads.max(1) as u64)
        .min(MAX_HASH_BYTES);
    (bytes.next_power_of_two() as usize).max(MIN_HASH_BYTES)
}

/// A table size, and what the settings alone asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashPlan {
    /// The size to allocate (a power of two, ≥ [`MIN_HASH_BYTES`]).
    pub bytes: usize,
    /// What [`hash_bytes_for`] gives for the settings, before the machine's cap.
    pub asked: usize,
}

impl HashPlan {
    /// Whether the machine's memory made the table smaller than the settings asked.
    pub fn capped_by_machine(&self) -> bool {
        self.bytes < self.asked
    }
}

/// [`hash_bytes_for`], capped at [`MachineMemory::table_cap`] (rounded down to a power of two,
/// never below [`MIN_HASH_BYTES`]).
pub fn hash_plan(
    max_memory_bytes: u64,
    hash_size_kib: Option<u64>,
    threads: usize,
    machine: MachineMemory,
) -> HashPlan {
    let asked = hash_bytes_for(max_memory_bytes, hash_size_kib, threads);
    let cap = machine.table_cap();
    let bytes = if asked as u64 > cap {
        (floor_pow2(cap) as usize).max(MIN_HASH_BYTES)
    } else {
        asked
    };
    HashPlan { bytes, asked }
}

/// The largest power of two ≤ `n` (0 for 0).
fn floor_pow2(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        1u64 << (63 - n.leading_zeros())
    }
}

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
    (floor_pow2(budget) as usize).max(MIN_HASH_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_turn_caps_the_table() {
        assert_eq!(turn_table_cap(500, 1), 32 << 20);
        assert_eq!(turn_table_cap(500, 2), 64 << 20);
        assert_eq!(turn_table_cap(1000, 1), 64 << 20);
        assert_eq!(turn_table_cap(4000, 1), 256 << 20);
        assert_eq!(turn_table_cap(1, 1), MIN_HASH_BYTES);
        assert_eq!(turn_table_cap(u64::MAX, 256), MAX_HASH_BYTES as usize);
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

    #[test]
    fn meminfo_parsed() {
        let text = "MemTotal:       24599928 kB\nMemFree:        23000000 kB\n\
                    MemAvailable:   23500000 kB\nBuffers:            1000 kB\n";
        let m = MachineMemory::parse_meminfo(text).unwrap();
        assert_eq!(m.total, 24_599_928 * 1024);
        assert_eq!(m.available, 23_500_000 * 1024);
        // No MemAvailable (old kernels): the total.
        let m = MachineMemory::parse_meminfo("MemTotal: 1024 kB\n").unwrap();
        assert_eq!((m.total, m.available), (1 << 20, 1 << 20));
        assert_eq!(MachineMemory::parse_meminfo("MemFree: 5 kB\n"), None);
        assert_eq!(MachineMemory::parse_meminfo("MemTotal: lots\n"), None);
        assert_eq!(MachineMemory::parse_meminfo(""), None);
        // Whatever this machine is, the cap is at most half of it and not zero.
        let here = MachineMemory::read();
        assert!(here.table_cap() > 0 && here.table_cap() <= here.total / 2);
    }

    #[test]
    fn machine_caps_the_table() {
        let gib = 1u64 << 30;
        let m = |total: u64, available: u64| MachineMemory { total, available };
        // 1 TB on a 24 GiB machine: half of it, rounded down to a power of two.
        let p = hash_plan(1 << 40, None, 2, m(24 * gib, 23 * gib));
        assert_eq!(p.bytes, 8 << 30);
        assert_eq!(p.asked, 1 << 39);
        assert!(p.capped_by_machine());
        // Half of what is available binds when less is free.
        assert_eq!(
            hash_plan(1 << 40, None, 2, m(24 * gib, 3 * gib)).bytes,
            1 << 30
        );
        assert_eq!(
            hash_plan(1 << 40, Some(1 << 40), 1, m(2 * gib, 2 * gib)).bytes,
            1 << 30
        );
        // The default fits easily: not capped.
        let p = hash_plan(0, None, 2, m(24 * gib, 23 * gib));
        assert_eq!((p.bytes, p.capped_by_machine()), (256 << 20, false));
        // A machine with almost nothing free still gets the minimum table.
        assert_eq!(hash_plan(0, None, 2, m(gib, 1 << 20)).bytes, MIN_HASH_BYTES);
    }
}
