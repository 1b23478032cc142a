//! Lock-free transposition table: cache-line buckets of atomic (key ^ data, data) entries.
//!
//! Each entry is two `AtomicU64`s: the data word and the key xored with the data. A torn
//! write (two threads storing at once) makes the check fail, so a probe never returns data
//! belonging to another position. Shared by all Lazy-SMP threads through `&TTable`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::core::Pos;

use super::memory::PREFAULT_MAX_BYTES;
#[cfg(target_os = "linux")]
use super::pages::HugeRegion;
use super::score::Score;

/// Entries per bucket (4 × 16 bytes = one 64-byte cache line).
const BUCKET_ENTRIES: usize = 4;
const ENTRY_BYTES: usize = 16;

/// Kind of bound stored with a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No value (only move/eval are meaningful).
    None = 0,
    /// value is an upper bound (fail low).
    Upper = 1,
    /// value is a lower bound (fail high).
    Lower = 2,
    /// value is exact.
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best move found (may be `Pos::NONE`).
    pub mv: Pos,
    /// Stored value (mate scores relative to the stored node; see `value_from_tt`).
    pub value: Score,
    /// Static evaluation of the position.
    pub eval: Score,
    /// Search depth of the value.
    pub depth: i32,
    /// Bound type of the value.
    pub bound: Bound,
}

/// One entry: the key xored with the data, and the data.
#[repr(C)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// `n` zeroed entries straight from the allocator (fresh pages need no explicit zeroing).
/// Halves the count until the allocation succeeds (never aborts on a failed allocation);
/// `None` if even one bucket cannot be had.
fn zeroed_entries(n: usize) -> Option<Box<[Entry]>> {
    // SAFETY: `alloc_zeroed` with the non-zero-sized layouts `zeroed_entries_with` passes.
    zeroed_entries_with(n, |layout| unsafe { std::alloc::alloc_zeroed(layout) })
}

/// [`zeroed_entries`] with the allocation call given: `alloc_zeroed` must return zeroed memory
/// of the global allocator for the layout, or null (the tests inject failures this way).
fn zeroed_entries_with(
    mut n: usize,
    mut alloc_zeroed: impl FnMut(std::alloc::Layout) -> *mut u8,
) -> Option<Box<[Entry]>> {
    use std::alloc::Layout;
    while n >= BUCKET_ENTRIES {
        let Ok(layout) = Layout::array::<Entry>(n) else {
            n /= 2;
            continue;
        };
        // SAFETY: the layout has non-zero size (n >= 4 entries of 16 bytes). All-zero bytes
        // are a valid `Entry` (two `AtomicU64`, which have the bit validity of `u64`), and the
        // box is freed with the same layout `Layout::array::<Entry>(n)` it was allocated with.
        unsafe {
            let ptr = alloc_zeroed(layout) as *mut Entry;
            if !ptr.is_null() {
                return Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)));
            }
        }
        n /= 2;
    }
    None
}

/// Writes one entry of every 4 KiB page so that all pages are resident before the search
/// needs them, stopping early when `cancel` is set. Left lazy, the first probe of a page maps
/// the shared zero page and the first store then replaces it, which flushes that page from
/// every core running a search thread: with two threads on this 2-core VM those cross-core
/// flushes took about 40 % of the CPU time and made two threads slower than one. Runs on its
/// own thread right after the allocation (about 0.4 ms per MiB), so neither START nor the
/// first move waits for it. Only the first [`PREFAULT_MAX_BYTES`] are touched: a larger table
/// (asked for with a large `max_memory` or `hash_size`) gets its other pages when a search
/// stores there, so an idle engine never holds memory no search has used.
fn prefault(table: &Table, cancel: &AtomicBool) {
    const PAGE_ENTRIES: usize = 4096 / ENTRY_BYTES;
    let ahead = table.entries.len().min(PREFAULT_MAX_BYTES / ENTRY_BYTES);
    for (i, e) in table.entries[..ahead]
        .iter()
        .step_by(PAGE_ENTRIES)
        .enumerate()
    {
        if i % 256 == 0 && cancel.load(Relaxed) {
            return;
        }
        // A write that keeps the value: a search storing meanwhile loses nothing, so the
        // search result never depends on how far the prefault got. (`black_box` keeps the
        // compiler from turning the idempotent add into a plain load, which faults nothing.)
        e.data.fetch_add(std::hint::black_box(0), Relaxed);
    }
}

/// Where the entries live: the global allocator, or (Linux, when the machine has room for
/// them) a mapping backed by huge pages (`search::pages`).
enum Storage {
    Heap(Box<[Entry]>),
    #[cfg(target_os = "linux")]
    Huge(HugeRegion),
}

impl Storage {
    /// `n` zeroed entries (`n` a multiple of [`BUCKET_ENTRIES`]): on huge pages where
    /// [`HugeRegion::for_table`] allows, else from [`zeroed_entries`]; `None` if not even one
    /// bucket can be had.
    fn zeroed(n: usize) -> Option<Storage> {
        #[cfg(target_os = "linux")]
        if let Some(region) = n.checked_mul(ENTRY_BYTES).and_then(HugeRegion::for_table) {
            return Some(Storage::Huge(region));
        }
        zeroed_entries(n).map(Storage::Heap)
    }
}

impl std::ops::Deref for Storage {
    type Target = [Entry];

    fn deref(&self) -> &[Entry] {
        match self {
            Storage::Heap(entries) => entries,
            #[cfg(target_os = "linux")]
            // SAFETY: the region is zeroed memory of `len()` bytes aligned to a huge page, so
            // it holds `len() / ENTRY_BYTES` valid, aligned entries (all-zero bytes are valid
            // atomics), owned by the region for as long as `self` lives.
            Storage::Huge(region) => unsafe {
                std::slice::from_raw_parts(
                    region.as_ptr().cast::<Entry>(),
                    region.len() / ENTRY_BYTES,
                )
            },
        }
    }
}

/// The entries, shared with the thread that prefaults them.
struct Table {
    entries: Storage,
}

impl Drop for TTable {
    fn drop(&mut self) {
        self.stop_prefault();
    }
}

// data layout: move u16 | value i16 << 16 | eval i16 << 32 | depth u8 << 48 | bound 2 bits << 56
// | age 5 bits << 58 (bit 63 unused)
/// Ages wrap within this mask (5 bits of the entry).
const AGE_MASK: u8 = 31;

fn pack(hit: &TtHit, age: u8) -> u64 {
    let TtHit {
        mv,
        value,
        eval,
        depth,
        bound,
    } = *hit;
    let m = if mv.is_none() {
        0xFFFF
    } else {
        mv.index() as u64
    };
    let v = (value.clamp(-32_000, 32_000) as i16) as u16 as u64;
    let e = (eval.clamp(-32_000, 32_000) as i16) as u16 as u64;
    let d = (depth.clamp(-100, 155) + 100) as u64;
    m | v << 16 | e << 32 | d << 48 | (bound as u64) << 56 | ((age & AGE_MASK) as u64) << 58
}

fn unpack(data: u64) -> (TtHit, u8) {
    let m = (data & 0xFFFF) as u16;
    let mv = if m == 0xFFFF || m as usize >= Pos::COUNT {
        Pos::NONE
    } else {
        Pos::from_index(m as usize)
    };
    let hit = TtHit {
        mv,
        value: (data >> 16) as u16 as i16 as Score,
        eval: (data >> 32) as u16 as i16 as Score,
        depth: ((data >> 48) & 0xFF) as i32 - 100,
        bound: Bound::from_bits(data >> 56),
    };
    (hit, ((data >> 58) as u8) & AGE_MASK)
}

/// First bytes of a file written by [`TTable::dump`].
pub const TT_FILE_MAGIC: &[u8; 8] = b"PENTADTT";
/// Format version of such a file.
pub const TT_FILE_VERSION: u32 = 1;

/// The shared hash table.
pub struct TTable {
    table: Arc<Table>,
    buckets: usize,
    age: AtomicU64,
    /// Tells the prefault thread to stop (the table is being replaced or dropped).
    cancel: Arc<AtomicBool>,
    prefaulter: Option<JoinHandle<()>>,
    /// For a table made by [`TTable::with_cheap_clear`]: one bit per bucket, set when a store
    /// or load writes it since the last clear.
    written: Option<Box<[AtomicU64]>>,
}

impl TTable {
    /// A table of about `bytes` bytes (at least one bucket).
    pub fn new(bytes: usize) -> TTable {
        let buckets = (bytes / (BUCKET_ENTRIES * ENTRY_BYTES)).clamp(1, usize::MAX / 256);
        let entries = Storage::zeroed(buckets * BUCKET_ENTRIES)
            .unwrap_or_else(|| std::alloc::handle_alloc_error(std::alloc::Layout::new::<Entry>()));
        TTable::on(entries)
    }

    /// A table on zeroed `entries` (at least one bucket), prefaulted by its own thread.
    fn on(entries: Storage) -> TTable {
        let buckets = entries.len() / BUCKET_ENTRIES;
        let table = Arc::new(Table { entries });
        let cancel = Arc::new(AtomicBool::new(false));
        let prefaulter = {
            let (table, cancel) = (Arc::clone(&table), Arc::clone(&cancel));
            std::thread::Builder::new()
                .name("pentad-tt-prefault".into())
                .spawn(move || prefault(&table, &cancel))
                .ok()
        };
        TTable {
            table,
            buckets,
            age: AtomicU64::new(0),
            cancel,
            prefaulter,
            written: None,
        }
    }

    /// A table of about `bytes` bytes whose [`TTable::clear`] zeroes only the buckets written
    /// since the last clear, in place (a table cleared before every short search, where
    /// zeroing all of it would cost more than the search). Every store also marks its bucket.
    pub fn with_cheap_clear(bytes: usize) -> TTable {
        let mut tt = TTable::new(bytes);
        let words = tt.buckets.div_ceil(64);
        tt.written = Some((0..words).map(|_| AtomicU64::new(0)).collect());
        tt
    }

    /// Waits until every page is resident (tests and benchmarks; searches need not wait).
    pub fn wait_prefault(&mut self) {
        if let Some(h) = self.prefaulter.take() {
            let _ = h.join();
        }
    }

    /// Stops and joins the prefault thread.
    fn stop_prefault(&mut self) {
        self.cancel.store(true, Relaxed);
        self.wait_prefault();
    }

    /// Bytes the entries occupy.
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_ENTRIES * ENTRY_BYTES
    }

    /// Resizes to about `bytes` bytes; the contents are lost.
    pub fn resize(&mut self, bytes: usize) {
        self.stop_prefault();
        // Free the old table first so that both never coexist.
        self.table = Arc::new(Table {
            entries: Storage::Heap(Box::new([])),
        });
        *self = TTable::new(bytes);
    }

    /// Empties the table: every entry zero and the age back to 0, as a new table of the same
    /// size (fresh zeroed memory, prefaulted as in [`TTable::new`], or for a table made by
    /// [`TTable::with_cheap_clear`] its written buckets zeroed in place).
    pub fn clear(&mut self) {
        let Some(written) = &self.written else {
            let bytes = self.bytes();
            self.resize(bytes);
            return;
        };
        // A plain load first: most words are 0, and a swap is a locked instruction.
        for (w, word) in written
            .iter()
            .enumerate()
            .filter(|(_, x)| x.load(Relaxed) != 0)
        {
            let mut bits = word.swap(0, Relaxed);
            while bits != 0 {
                let b = (w * 64 + bits.trailing_zeros() as usize) * BUCKET_ENTRIES;
                bits &= bits - 1;
                for e in self.table.entries.get(b..b + BUCKET_ENTRIES).unwrap_or(&[]) {
                    e.check.store(0, Relaxed);
                    e.data.store(0, Relaxed);
                }
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Marks the bucket starting at entry `b` written (tables with cheap clearing only).
    #[inline]
    fn mark_written(&self, b: usize) {
        if let Some(written) = &self.written {
            let n = b / BUCKET_ENTRIES;
            written[n / 64].fetch_or(1 << (n % 64), Relaxed);
        }
    }

    /// Writes the table to `w` ([`TT_FILE_MAGIC`], version, entry count, age, then each
    /// entry's two words, little-endian). Call while no search runs.
    pub fn dump(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let entries = &self.table.entries;
        w.write_all(TT_FILE_MAGIC)?;
        w.write_all(&TT_FILE_VERSION.to_le_bytes())?;
        w.write_all(&(entries.len() as u64).to_le_bytes())?;
        w.write_all(&self.age.load(Relaxed).to_le_bytes())?;
        let mut buf = Vec::with_capacity(1 << 16);
        for chunk in entries.chunks(4096) {
            buf.clear();
            for e in chunk {
                buf.extend_from_slice(&e.check.load(Relaxed).to_le_bytes());
                buf.extend_from_slice(&e.data.load(Relaxed).to_le_bytes());
            }
            w.write_all(&buf)?;
        }
        w.flush()
    }

    /// Reads a table written by [`TTable::dump`] into this one, which must have the same
    /// number of entries. The whole file is read and checked first: on any error the table
    /// is unchanged. Call while no search runs.
    pub fn load(&self, r: &mut dyn std::io::Read) -> Result<(), String> {
        let mut head = [0u8; 8 + 4 + 8 + 8];
        r.read_exact(&mut head)
            .map_err(|e| format!("not a table file ({e})"))?;
        let word = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().unwrap_or([0; 8]));
        let version = u32::from_le_bytes(head[8..12].try_into().unwrap_or([0; 4]));
        if &head[..8] != TT_FILE_MAGIC || version != TT_FILE_VERSION {
            return Err("not a table file of this engine".into());
        }
        let (count, age) = (word(12), word(20));
        let entries = &self.table.entries;
        if count != entries.len() as u64 {
            return Err(format!(
                "the file holds {} MiB of entries, the table has {} MiB (set hash_size to match)",
                (count * ENTRY_BYTES as u64) >> 20,
                self.bytes() >> 20
            ));
        }
        let mut body = Vec::new();
        r.read_to_end(&mut body)
            .map_err(|e| format!("cannot read the entries ({e})"))?;
        if body.len() as u64 != count * ENTRY_BYTES as u64 {
            return Err("the file is truncated or too long".into());
        }
        for (e, raw) in entries.iter().zip(body.chunks_exact(ENTRY_BYTES)) {
            let check = u64::from_le_bytes(raw[..8].try_into().unwrap_or([0; 8]));
            let data = u64::from_le_bytes(raw[8..16].try_into().unwrap_or([0; 8]));
            e.check.store(check, Relaxed);
            e.data.store(data, Relaxed);
        }
        for word in self.written.iter().flat_map(|w| w.iter()) {
            word.store(u64::MAX, Relaxed);
        }
        self.age.store(age, Relaxed);
        Ok(())
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    fn current_age(&self) -> u8 {
        (self.age.load(Relaxed) as u8) & AGE_MASK
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the bucket range without a modulo.
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET_ENTRIES
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe a little later finds it
    /// there (the search asks right after a move, before the child's first questions).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(e) = self.table.entries.get(self.bucket(key)) {
            let p = (e as *const Entry).cast::<i8>();
            // SAFETY: a prefetch is only a hint: it reads no data, cannot fault, and `p`
            // points into the live table besides.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let b = self.bucket(key);
        for e in &self.table.entries[b..b + BUCKET_ENTRIES] {
            let data = e.data.load(Relaxed);
            if data != 0 && e.check.load(Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores a result for `key`. A `Pos::NONE` move keeps the move already stored.
    pub fn store(&self, key: u64, mv: Pos, value: Score, eval: Score, depth: i32, bound: Bound) {
        self.store_entry(
            key,
            TtHit {
                mv,
                value,
                eval,
                depth,
                bound,
            },
        );
    }

    /// Stores `entry` for `key`. A `Pos::NONE` move keeps the move already stored.
    pub fn store_entry(&self, key: u64, mut entry: TtHit) {
        let TtHit { depth, bound, .. } = entry;
        let age = self.current_age();
        let b = self.bucket(key);
        let bucket = &self.table.entries[b..b + BUCKET_ENTRIES];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let data = e.data.load(Relaxed);
            if data == 0 {
                if worst > i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            let (old, old_age) = unpack(data);
            if e.check.load(Relaxed) ^ data == key {
                // Same position: keep a deeper exact result unless this one is exact or deep.
                if bound != Bound::Exact && depth + 2 < old.depth && old_age == age {
                    return;
                }
                if entry.mv.is_none() {
                    entry.mv = old.mv;
                }
                victim = i;
                break;
            }
            let age_gap = (age.wrapping_sub(old_age) & AGE_MASK) as i32;
            let worth = old.depth - 8 * age_gap;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let data = pack(&entry, age);
        self.mark_written(b);
        let e = &bucket[victim];
        e.data.store(data, Relaxed);
        e.check.store(key ^ data, Relaxed);
    }

    /// Permille of the first 1000 entries used by the current search (for reports).
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let n = self.table.entries.len().min(1000);
        let used = self.table.entries[..n]
            .iter()
            .filter(|e| {
                let d = e.data.load(Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_and_load_round_trip() {
        let tt = TTable::new(1 << 16);
        tt.store(
            0x1234_5678_9abc_def0,
            Pos::new(3, 4),
            55,
            7,
            9,
            Bound::Exact,
        );
        let mut file = Vec::new();
        tt.dump(&mut file).unwrap();
        let other = TTable::new(1 << 16);
        assert!(other.probe(0x1234_5678_9abc_def0).is_none());
        assert!(
            other.load(&mut &file[..file.len() - 1]).is_err(),
            "truncated"
        );
        assert!(other.probe(0x1234_5678_9abc_def0).is_none(), "unchanged");
        other.load(&mut &file[..]).unwrap();
        let hit = other.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!((hit.mv, hit.depth), (Pos::new(3, 4), 9));
        assert!(
            TTable::new(1 << 17).load(&mut &file[..]).is_err(),
            "size differs"
        );
        assert!(other.load(&mut &b"garbage"[..]).is_err());
    }

    #[test]
    fn failed_allocation_falls_back_to_a_smaller_table() {
        // An allocator that refuses more than 1 MiB: 64 MiB asked, 1 MiB given, no abort.
        let mut asked = Vec::new();
        let entries = zeroed_entries_with((64 << 20) / ENTRY_BYTES, |layout| {
            asked.push(layout.size());
            if layout.size() > 1 << 20 {
                std::ptr::null_mut()
            } else {
                // SAFETY: non-zero size (at least one bucket).
                unsafe { std::alloc::alloc_zeroed(layout) }
            }
        })
        .expect("a smaller table");
        assert_eq!(entries.len() * ENTRY_BYTES, 1 << 20);
        assert_eq!(
            asked,
            [
                64 << 20,
                32 << 20,
                16 << 20,
                8 << 20,
                4 << 20,
                2 << 20,
                1 << 20
            ]
        );
        assert!(entries.iter().all(|e| e.data.load(Relaxed) == 0));
        // Nothing at all: None, not an abort.
        assert!(zeroed_entries_with(1 << 10, |_| std::ptr::null_mut()).is_none());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_table_on_huge_pages_stores_and_probes() {
        let region = HugeRegion::map(4 << 20, 2 << 20).expect("a 4 MiB mapping");
        let mut tt = TTable::on(Storage::Huge(region));
        tt.wait_prefault();
        assert_eq!(tt.bytes(), 4 << 20);
        assert!(tt.table.entries.iter().all(|e| e.data.load(Relaxed) == 0));
        let keys: Vec<u64> = (1..=1000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(
                k,
                Pos::new(i % 15, i / 15 % 15),
                i as Score,
                0,
                5,
                Bound::Lower,
            );
        }
        for (i, &k) in keys.iter().enumerate() {
            let hit = tt.probe(k).expect("stored");
            assert_eq!((hit.value, hit.depth), (i as Score, 5));
        }
        // Resizing gives the memory back and makes a fresh table.
        tt.resize(1 << 20);
        assert_eq!(tt.bytes(), 1 << 20);
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TTable::new(1 << 16);
        let p = Pos::new(7, 8);
        tt.store(0xDEAD_BEEF_1234_5678, p, -29_990, 123, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored entry");
        assert_eq!(hit.mv, p);
        assert_eq!(hit.value, -29_990);
        assert_eq!(hit.eval, 123);
        assert_eq!(hit.depth, 7);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(0x1234).is_none());
    }

    #[test]
    fn extreme_fields_round_trip_beside_every_age() {
        let tt = TTable::new(1 << 16);
        for age_steps in 0..40 {
            for (i, bound) in [Bound::Lower, Bound::Exact].into_iter().enumerate() {
                let key = 0xABCD_0000 + age_steps * 2 + i as u64;
                let entry = TtHit {
                    mv: Pos::new(31, 31),
                    value: -32_000,
                    eval: 32_000,
                    depth: 155,
                    bound,
                };
                tt.store_entry(key, entry);
                assert_eq!(tt.probe(key), Some(entry));
            }
            tt.new_search();
        }
    }

    #[test]
    fn keeps_move_when_storing_none_and_clears() {
        let mut tt = TTable::new(1 << 12);
        let k = 42u64 << 40 | 7;
        tt.store(k, Pos::new(3, 4), 10, 0, 2, Bound::Upper);
        tt.store(k, Pos::NONE, 12, 0, 3, Bound::Upper);
        let hit = tt.probe(k).unwrap();
        assert_eq!(hit.mv, Pos::new(3, 4));
        assert_eq!(hit.value, 12);
        tt.clear();
        assert!(tt.probe(k).is_none());
    }

    /// Every entry's two words and the age.
    fn contents(tt: &TTable) -> (Vec<(u64, u64)>, u64) {
        let words = tt.table.entries.iter();
        let words = words.map(|e| (e.check.load(Relaxed), e.data.load(Relaxed)));
        (words.collect(), tt.age.load(Relaxed))
    }

    #[test]
    fn cheap_clear_leaves_what_a_new_table_has() {
        let bytes = 1 << 14;
        let mut cheap = TTable::with_cheap_clear(bytes);
        let mut plain = TTable::new(bytes);
        let fresh = contents(&TTable::new(bytes));
        for round in 0..3u64 {
            // Round 1 fills a few buckets, round 2 overfills the table (replacements).
            for k in 0..[0u64, 40, 5000][round as usize] {
                let key = (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ round;
                for tt in [&cheap, &plain] {
                    tt.new_search();
                    tt.store(key, Pos::new(2, 3), 5, 1, (k % 9) as i32, Bound::Lower);
                }
            }
            assert_eq!(contents(&cheap), contents(&plain));
            cheap.clear();
            plain.clear();
            assert_eq!(contents(&cheap), fresh);
            assert_eq!(contents(&plain), fresh);
        }
        let mut file = Vec::new();
        let full = TTable::new(bytes);
        full.store(77, Pos::new(1, 1), 3, 0, 4, Bound::Exact);
        full.dump(&mut file).unwrap();
        cheap.load(&mut &file[..]).unwrap();
        assert!(cheap.probe(77).is_some());
        cheap.clear();
        assert_eq!(contents(&cheap), fresh, "a load's buckets are cleared too");
    }

    #[test]
    fn negative_depth_and_sizes() {
        let mut tt = TTable::new(1000);
        assert_eq!(tt.bytes(), 64 * 15);
        tt.store(99, Pos::NONE, 0, -5, -3, Bound::Exact);
        let h = tt.probe(99).unwrap();
        assert_eq!((h.depth, h.eval, h.mv), (-3, -5, Pos::NONE));
        tt.resize(1 << 20);
        assert_eq!(tt.bytes(), 1 << 20);
        assert!(tt.probe(99).is_none());
    }

    #[test]
    fn bucket_replacement_keeps_table_usable() {
        let tt = TTable::new(64); // one bucket
        for k in 1..=10u64 {
            tt.store(
                k * 7919,
                Pos::new(1, 1),
                k as Score,
                0,
                k as i32,
                Bound::Exact,
            );
        }
        // The deepest entries survive.
        assert!(tt.probe(10 * 7919).is_some());
        assert!(tt.probe(7919).is_none());
    }
}
