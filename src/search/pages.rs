//! Huge-page memory for the transposition table (Linux transparent huge pages).
//!
//! Every probe of the table lands on a random page, so with 4 KiB pages nearly every probe
//! also misses the TLB and walks the page tables: with the 32 MiB table of a 0.5 s move,
//! 2 MiB pages made the same search about 7 % faster. The kernel backs an advised region
//! with huge pages as it faults it in, but when no free 2 MiB block is at hand it may compact
//! memory first, which can stall that fault for a long time. So the table asks for huge
//! pages only when the kernel's free lists (`/proc/buddyinfo`) hold twice the blocks it
//! needs, and otherwise stays on ordinary pages. Linux only: elsewhere the table always
//! comes from the global allocator.

use std::ptr::NonNull;

/// Bytes of a huge page where `/sys/kernel/mm/transparent_hugepage/hpage_pmd_size` cannot be
/// read (x86-64's 2 MiB).
pub const DEFAULT_HUGE_PAGE_BYTES: usize = 2 << 20;
/// Size of a base page as `/proc/buddyinfo` counts them (its order 0).
pub const BASE_PAGE_BYTES: usize = 4096;
/// Free huge-page-sized blocks the kernel must hold per block the table needs.
pub const FREE_BLOCKS_PER_NEEDED: u64 = 2;

/// Free blocks of at least `huge_bytes` in a `/proc/buddyinfo` text, in units of
/// `huge_bytes` (a free block of order k counts 2^(k − huge order) times), over all zones.
pub fn free_huge_blocks(buddyinfo: &str, huge_bytes: usize) -> u64 {
    let huge_order = (huge_bytes / BASE_PAGE_BYTES).max(1).trailing_zeros() as usize;
    buddyinfo
        .lines()
        .filter_map(|line| line.split_once("zone"))
        .map(|(_, rest)| {
            // "<zone name> <free blocks of order 0> <order 1> ...".
            rest.split_whitespace()
                .skip(1)
                .enumerate()
                .filter(|&(order, _)| order >= huge_order)
                .filter_map(|(order, n)| {
                    let n: u64 = n.parse().ok()?;
                    n.checked_mul(1u64.checked_shl((order - huge_order) as u32)?)
                })
                .fold(0u64, u64::saturating_add)
        })
        .fold(0, u64::saturating_add)
}

/// Whether the kernel gives huge pages to advised memory: the selected value (in brackets) of
/// `/sys/kernel/mm/transparent_hugepage/enabled` is `always` or `madvise`.
pub fn advised_huge_pages_enabled(enabled: &str) -> bool {
    enabled.contains("[always]") || enabled.contains("[madvise]")
}

/// Whether a table of `bytes` should ask for huge pages on this machine now: huge pages for
/// advised memory are on, the table holds at least one, and the free lists hold
/// [`FREE_BLOCKS_PER_NEEDED`] times the blocks it needs.
pub fn huge_pages_worthwhile(bytes: usize, huge_bytes: usize, enabled: &str, buddy: &str) -> bool {
    huge_bytes > 0
        && bytes >= huge_bytes
        && advised_huge_pages_enabled(enabled)
        && free_huge_blocks(buddy, huge_bytes)
            >= (bytes / huge_bytes) as u64 * FREE_BLOCKS_PER_NEEDED
}

/// The huge page size the kernel uses for transparent huge pages.
fn huge_page_bytes() -> usize {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .filter(|&n: &usize| n.is_power_of_two())
        .unwrap_or(DEFAULT_HUGE_PAGE_BYTES)
}

/// A zeroed anonymous mapping aligned to a huge page and advised to be backed by huge
/// pages; unmapped when dropped.
pub struct HugeRegion {
    ptr: NonNull<u8>,
    bytes: usize,
}

// SAFETY: the region is plain memory owned by this value; what is stored in it decides
// how threads may share it (the table keeps only atomics there).
unsafe impl Send for HugeRegion {}
// SAFETY: as above; `HugeRegion` itself offers only the pointer and the length.
unsafe impl Sync for HugeRegion {}

impl HugeRegion {
    /// `bytes` bytes for the table if this machine can back them with huge pages now
    /// (see [`huge_pages_worthwhile`]); `None` otherwise or when the mapping fails.
    pub fn for_table(bytes: usize) -> Option<HugeRegion> {
        let huge = huge_page_bytes();
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let enabled = read("/sys/kernel/mm/transparent_hugepage/enabled");
        let buddy = read("/proc/buddyinfo");
        if !huge_pages_worthwhile(bytes, huge, &enabled, &buddy) {
            return None;
        }
        HugeRegion::map(bytes, huge)
    }

    /// Maps `bytes` (a multiple of `align`, a power of two of at least a base page) of
    /// zeroed memory at an address aligned to `align` and advises huge pages for it; `None`
    /// for other sizes or if the mapping fails.
    pub fn map(bytes: usize, align: usize) -> Option<HugeRegion> {
        if bytes == 0
            || !align.is_power_of_two()
            || align < BASE_PAGE_BYTES
            || !bytes.is_multiple_of(align)
        {
            return None;
        }
        let span = bytes.checked_add(align)?;
        // SAFETY: a fresh private anonymous mapping: no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let start = base as usize;
        let aligned = start.next_multiple_of(align);
        let (head, tail) = (aligned - start, start + span - (aligned + bytes));
        // SAFETY: both trimmed pieces lie inside the mapping made above, are page
        // aligned (mmap returns page-aligned memory and `align`, checked above, is a
        // multiple of the page size) and nothing refers to them; the advice only concerns
        // the kept range. Failures leave usable memory behind, so they are ignored.
        unsafe {
            if head > 0 {
                libc::munmap(base, head);
            }
            if tail > 0 {
                libc::munmap((aligned + bytes) as *mut libc::c_void, tail);
            }
            libc::madvise(aligned as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
        NonNull::new(aligned as *mut u8).map(|ptr| HugeRegion { ptr, bytes })
    }

    /// The start of the region (zeroed when mapped).
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The region's length in bytes.
    pub fn len(&self) -> usize {
        self.bytes
    }
}

impl Drop for HugeRegion {
    fn drop(&mut self) {
        // SAFETY: exactly the range `map` kept, mapped by it and not unmapped since.
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.bytes) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This machine's buddy lists when the table was written (24 GiB, mostly free).
    const BUDDY: &str = "\
Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3
Node 0, zone    DMA32      2      2      3      2      3      2      1      4      4      2    752
Node 0, zone   Normal  13117  11113   8619   5451   2670   3426   2196   1170    710    446   1942
";

    #[test]
    fn free_blocks_count_the_orders_from_a_huge_page_up() {
        // 2 MiB is order 9: DMA 1 + 2·3, DMA32 2 + 2·752, Normal 446 + 2·1942.
        assert_eq!(free_huge_blocks(BUDDY, 2 << 20), 7 + 1506 + 4330);
        // 4 MiB (order 10) blocks only.
        assert_eq!(free_huge_blocks(BUDDY, 4 << 20), 3 + 752 + 1942);
        assert_eq!(free_huge_blocks("", 2 << 20), 0);
        assert_eq!(
            free_huge_blocks("Node 0, zone Normal 1 2 x 4", 8192),
            2 + 4 * 4
        );
    }

    #[test]
    fn huge_pages_only_with_room_to_spare() {
        let on = "always [madvise] never";
        assert!(advised_huge_pages_enabled(on));
        assert!(advised_huge_pages_enabled("[always] madvise never"));
        assert!(!advised_huge_pages_enabled("always madvise [never]"));
        assert!(huge_pages_worthwhile(32 << 20, 2 << 20, on, BUDDY));
        assert!(!huge_pages_worthwhile(
            32 << 20,
            2 << 20,
            "always madvise [never]",
            BUDDY
        ));
        // Smaller than a huge page, or no fragmentation data: ordinary pages.
        assert!(!huge_pages_worthwhile(1 << 20, 2 << 20, on, BUDDY));
        assert!(!huge_pages_worthwhile(32 << 20, 2 << 20, on, ""));
        // 16 blocks needed: 32 free are enough, 31 are not.
        let free = |n: u32| format!("Node 0, zone Normal 0 0 0 0 0 0 0 0 0 {n} 0");
        assert!(huge_pages_worthwhile(32 << 20, 2 << 20, on, &free(32)));
        assert!(!huge_pages_worthwhile(32 << 20, 2 << 20, on, &free(31)));
    }

    #[test]
    fn mapped_region_is_aligned_zeroed_and_writable() {
        let region = HugeRegion::map(4 << 20, 2 << 20).expect("a 4 MiB mapping");
        assert_eq!(region.as_ptr() as usize % (2 << 20), 0);
        assert_eq!(region.len(), 4 << 20);
        // SAFETY: the region is 4 MiB of memory owned by `region`.
        let bytes = unsafe { std::slice::from_raw_parts_mut(region.as_ptr(), region.len()) };
        assert!(bytes.iter().step_by(4096).all(|&b| b == 0));
        bytes[0] = 1;
        bytes[(4 << 20) - 1] = 2;
        assert_eq!((bytes[0], bytes[(4 << 20) - 1]), (1, 2));
        assert!(
            HugeRegion::map(3 << 20, 2 << 20).is_none(),
            "not a multiple"
        );
        assert!(HugeRegion::map(0, 2 << 20).is_none());
        assert!(HugeRegion::map(4096, 1024).is_none(), "below a base page");
    }
}
