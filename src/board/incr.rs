//! The incremental machinery behind [`Board`]: per-cell line keys, pattern codes and
//! combined codes, per-colour counts, the candidate-area counts, and the hot move/undo path.
//!
//! Layout: every padded cell has, per direction, one `u64` key holding Black's
//! own-perspective key in the low 32 bits and White's in the high 32 bits (each the base-3
//! or base-4 number of [`pattern::LineTables`]); placing or removing a stone adds one
//! precomputed delta per (slot) to the 40 keys within reach, both colours at once. Pattern
//! codes are packed 4 bits per direction, Black in bits 0..16 and White in bits 16..32, so a
//! colour's 16-bit half directly indexes its combination table.
//!
//! A move records the cells whose codes it changed (old values) and a snapshot of the counts;
//! undo subtracts the key deltas and restores those records, so it does no table work. Only
//! `put_wall` on a board with stones falls back to full recomputation (walls are setup-only).

use super::values::TABLE_LEN;
use super::{pattern, Board, CANDIDATE_RADIUS, EMPTY, PAD, WALL};
use pattern::{N_CODES, N_CODES4};

/// The incremental state of one padded cell (hot data only).
#[derive(Clone, Copy, Default)]
pub(super) struct CellInfo {
    /// Per direction: Black's own-perspective key | White's key << 32 (centre excluded).
    pub(super) keys: [u64; 4],
    /// Packed: bits 0..32 the pattern codes, 4 bits each, Black direction d at bit 4d,
    /// White at bit 16 + 4d; bits 32..48 the internal combined code per colour (8 bits
    /// each); bits 48..56 the cell value (a copy of the board's grid entry, next to the hot
    /// data); bits 56..64 zero. Codes are valid for empty cells; a stone cell keeps the codes
    /// it had when it was filled.
    codes: u64,
}

impl CellInfo {
    /// The packed pattern codes (see [`CellInfo::codes`]).
    #[inline(always)]
    pub(super) fn pats(&self) -> u32 {
        self.codes as u32
    }

    /// The internal combined codes of both colours.
    #[inline(always)]
    pub(super) fn pat4(&self) -> [u8; 2] {
        [(self.codes >> 32) as u8, (self.codes >> 40) as u8]
    }

    /// The cell value (0 empty, 1 black, 2 white, 3 wall).
    #[inline(always)]
    pub(super) fn value(&self) -> u8 {
        (self.codes >> 48) as u8
    }

    /// Sets the cell value, keeping the codes.
    #[inline(always)]
    pub(super) fn set_value(&mut self, v: u8) {
        self.codes = self.codes & 0xFFFF_FFFF_FFFF | u64::from(v) << 48;
    }

    /// Sets the codes, keeping the cell value.
    #[inline(always)]
    pub(super) fn set_codes(&mut self, pats: u32, pat4: [u8; 2]) {
        self.codes = u64::from(pats)
            | u64::from(pat4[0]) << 32
            | u64::from(pat4[1]) << 40
            | self.codes & 0xFF << 48;
    }

    /// The four internal pattern codes of colour index `c`.
    #[inline]
    pub(super) fn codes(&self, c: usize) -> [u8; 4] {
        let h = self.pats() >> (16 * c);
        [0, 1, 2, 3].map(|d| ((h >> (4 * d)) & 15) as u8)
    }
}

/// Per-colour counts over the empty cells, rows of 16 (so indexing by a masked code needs
/// no bounds check): `16 c + code` counts (empty cell, direction) pairs of colour index `c`
/// per internal pattern code, `32 + 16 c + code` empty cells per internal combined code.
/// Four banks (`+ 64 b`), whose wrapping sum is the count: successive cells of a move update
/// different banks in turn, which breaks up the chains of read-modify-writes to one counter.
#[derive(Clone, Copy)]
pub(super) struct Counts(pub(super) [u16; 256]);

impl Counts {
    pub(super) const ZERO: Counts = Counts([0; 256]);

    /// Pattern-code count of colour index `c`.
    #[inline]
    pub(super) fn pat(&self, c: usize, code: usize) -> u16 {
        let k = (16 * c + code) & 63;
        let n = self.0[k].wrapping_add(self.0[k + 64]);
        n.wrapping_add(self.0[k + 128])
            .wrapping_add(self.0[k + 192])
    }

    /// Combined-code count of colour index `c`.
    #[inline]
    pub(super) fn pat4(&self, c: usize, code: usize) -> u16 {
        let k = (32 + 16 * c + code) & 63;
        let n = self.0[k].wrapping_add(self.0[k + 64]);
        n.wrapping_add(self.0[k + 128])
            .wrapping_add(self.0[k + 192])
    }

    /// Every count at once, the four banks summed: `16 c + code` pattern codes, `32 + 16 c +
    /// code` combined codes (the layout above).
    #[inline]
    pub(super) fn totals(&self) -> [u16; 64] {
        std::array::from_fn(|k| {
            let n = self.0[k].wrapping_add(self.0[k + 64]);
            n.wrapping_add(self.0[k + 128])
                .wrapping_add(self.0[k + 192])
        })
    }
}

const _: () = assert!(N_CODES <= 16 && N_CODES4 <= 16);

/// The codes of one empty cell before a move changed them: its packed codes (bits 0..48,
/// see [`CellInfo::codes`]) and, in place of its value (empty, 0) and the zero byte, its
/// padded index (bits 48..64; a padded board has at most 37 × 43 cells).
#[derive(Clone, Copy, Default)]
pub(super) struct Change(u64);

impl Change {
    /// Writes the recorded codes back.
    #[inline(always)]
    fn restore(self, info: &mut [CellInfo]) {
        let q = (self.0 >> 48) as usize;
        // Records are only made by `Hot::visit` for an index q < info.len(), and the cell
        // array never changes length.
        debug_assert!(q < info.len());
        // SAFETY: q < info.len(), shown above.
        let cell = unsafe { info.get_unchecked_mut(q) };
        // The cell was empty when recorded and is empty again now.
        cell.codes = self.0 & 0xFFFF_FFFF_FFFF;
    }
}

const _: () = assert!((super::MAX_SIZE + 2 * PAD) * (super::MAX_SIZE + PAD) < 1 << 16);

/// One played stone: point, colour, the side to move before it, where its change records
/// start, and whether undo may restore them (false after a wall was put on the board).
#[derive(Clone, Copy)]
pub(super) struct Played {
    pub(super) pos: crate::core::Pos,
    pub(super) color: crate::core::Color,
    pub(super) prev_side: crate::core::Color,
    changes: u32,
    fast: bool,
}

/// Key slot of the cell at offset `o` (±1..±5) from the centre.
#[inline(always)]
pub(super) const fn slot(o: isize) -> usize {
    if o < 0 {
        (o + 5) as usize
    } else {
        (o + 4) as usize
    }
}

/// Change records reserved per move (a move changes at most 40 cells).
const CHANGE_WINDOW: usize = 64;

/// Borrowed hot state for one move's propagation; `V`: keep the cell-value sum (off while
/// the board carries the all-zero table, so the sum costs nothing until values are used).
struct Hot<'a, const V: bool> {
    info: &'a mut [CellInfo],
    table: &'a [u8],
    comb: &'a pattern::CombTable,
    counts: &'a mut Counts,
    buf: &'a mut [Change; CHANGE_WINDOW],
    n: usize,
    /// The board's per-cell value table, and the change of the value sum so far.
    values: &'a [i16; TABLE_LEN],
    value_delta: i32,
}

impl<const V: bool> Hot<'_, V> {
    /// Visits the cells at distance 1..=R from `i` along direction `D` (offset `off`).
    #[inline(always)]
    fn line<const R: isize, const D: usize>(&mut self, i: usize, off: isize, dk: &[u64; 10]) {
        let i = i as isize;
        self.visit::<D, 0>((i - off) as usize, dk[slot(1)]);
        self.visit::<D, 64>((i + off) as usize, dk[slot(-1)]);
        self.visit::<D, 128>((i - 2 * off) as usize, dk[slot(2)]);
        self.visit::<D, 192>((i + 2 * off) as usize, dk[slot(-2)]);
        self.visit::<D, 0>((i - 3 * off) as usize, dk[slot(3)]);
        self.visit::<D, 64>((i + 3 * off) as usize, dk[slot(-3)]);
        self.visit::<D, 128>((i - 4 * off) as usize, dk[slot(4)]);
        self.visit::<D, 192>((i + 4 * off) as usize, dk[slot(-4)]);
        if R >= 5 {
            self.visit::<D, 0>((i - 5 * off) as usize, dk[slot(5)]);
            self.visit::<D, 64>((i + 5 * off) as usize, dk[slot(-5)]);
        }
    }

    /// Adds `delta` to cell `q`'s key in direction `D`; if `q` is empty and its codes in
    /// `D` changed, records the old codes and updates its combined codes and the counts.
    #[inline(always)]
    fn visit<const D: usize, const BANK: usize>(&mut self, q: usize, delta: u64) {
        let len = self.info.len();
        // Every cell within 5 (along a line) of an on-board cell lies in the padded array:
        // 5 padding columns/rows around the board, plus one row.
        debug_assert!(q < len);
        // SAFETY: q < len = info.len(), shown above.
        let cell = unsafe { self.info.get_unchecked_mut(q) };
        let key = cell.keys[D].wrapping_add(delta);
        cell.keys[D] = key;
        let codes = cell.codes;
        // Value and the zero byte: nonzero exactly for a non-empty cell.
        if codes >> 48 != EMPTY as u64 {
            return;
        }
        let kb = key as u32 as usize;
        let kw = (key >> 32) as usize;
        // On-board cells hold valid keys: each half is below base^10, the length of its
        // table (padding cells are walls, skipped above).
        debug_assert!(kb < self.table.len() && kw < self.table.len());
        // SAFETY: kb, kw < table.len(), shown above.
        let (pb, pw) = unsafe { (*self.table.get_unchecked(kb), *self.table.get_unchecked(kw)) };
        let new = pb as u32 | (pw as u32) << 16;
        let sh = 4 * D as u32;
        let old = (codes as u32 >> sh) & 0x000F_000F;
        if new == old {
            return;
        }
        debug_assert!(q < 1 << 16);
        self.buf[self.n & (CHANGE_WINDOW - 1)] = Change(codes | (q as u64) << 48);
        self.n += 1;
        let pats = codes as u32 ^ ((old ^ new) << sh);
        if V {
            let v = self.values;
            self.value_delta += i32::from(v[(pats & 0xFFFF) as usize])
                - i32::from(v[(codes & 0xFFFF) as usize])
                - i32::from(v[(pats >> 16 | 1 << 16) as usize])
                + i32::from(v[(codes as u32 >> 16 | 1 << 16) as usize]);
        }
        let Ok(c) = <&mut [u16; 64]>::try_from(&mut self.counts.0[BANK..BANK + 64]) else {
            unreachable!("a bank has 64 counters");
        };
        c[(old & 15) as usize] = c[(old & 15) as usize].wrapping_sub(1);
        c[(pb & 15) as usize] = c[(pb & 15) as usize].wrapping_add(1);
        c[16 + ((old >> 16) as usize & 15)] = c[16 + ((old >> 16) as usize & 15)].wrapping_sub(1);
        c[16 + (pw & 15) as usize] = c[16 + (pw & 15) as usize].wrapping_add(1);
        let n4 = [
            self.comb[(pats & 0xFFFF) as usize],
            self.comb[(pats >> 16 | 1 << 16) as usize],
        ];
        let o4 = [(codes >> 32) as u8, (codes >> 40) as u8];
        cell.codes = u64::from(pats) | u64::from(n4[0]) << 32 | u64::from(n4[1]) << 40;
        c[32 + (o4[0] & 15) as usize] = c[32 + (o4[0] & 15) as usize].wrapping_sub(1);
        c[32 + (n4[0] & 15) as usize] = c[32 + (n4[0] & 15) as usize].wrapping_add(1);
        c[48 + (o4[1] & 15) as usize] = c[48 + (o4[1] & 15) as usize].wrapping_sub(1);
        c[48 + (n4[1] & 15) as usize] = c[48 + (n4[1] & 15) as usize].wrapping_add(1);
    }
}

/// Cells in one row of the candidate square.
const NEAR_SPAN: usize = 2 * CANDIDATE_RADIUS as usize + 1;
/// `NEAR_SPAN` bytes of one: adds 1 to that many consecutive `near` counts at once.
const NEAR_ROW: u64 = u64::MAX >> (8 * (8 - NEAR_SPAN)) & 0x0101_0101_0101_0101;
// A row of the square fits one 8-byte word, and the padding leaves room to read it.
const _: () = assert!(NEAR_SPAN <= 8 && CANDIDATE_RADIUS as usize <= PAD);

impl Board {
    /// Recomputes every incremental structure from the cells (setup, walls, reference use).
    pub(super) fn rebuild(&mut self) {
        for i in 0..self.grid.len() {
            let v = self.grid[i];
            self.info[i].set_value(v);
            self.info[i].keys = if self.on_board_index(i) {
                self.scratch_keys(i)
            } else {
                [0; 4]
            };
        }
        self.counts = Counts::ZERO;
        self.value = 0;
        for i in 0..self.grid.len() {
            if self.grid[i] == EMPTY {
                self.refresh_cell(i);
                self.add_counts(i, 1);
                self.value += self.values.cell_value(self.info[i].pats());
            }
        }
        for i in 0..self.grid.len() {
            self.near[i] = if self.on_board_index(i) {
                self.scratch_near(i)
            } else {
                0
            };
        }
        // Recorded changes no longer describe this state: undo recomputes instead.
        for h in &mut self.history {
            h.fast = false;
        }
        self.features.get_mut().invalidate();
        self.nchanges = 0;
    }

    /// Line keys of padded index `i` computed from the cells.
    pub(super) fn scratch_keys(&self, i: usize) -> [u64; 4] {
        let mut k = [self.key_base; 4];
        for (d, &off) in self.dirs.iter().enumerate() {
            for o in (-5..=5isize).filter(|&o| o != 0) {
                let v = self.grid[(i as isize + o * off) as usize] as usize;
                k[d] = k[d].wrapping_add(self.delta[v][slot(o)]);
            }
        }
        k
    }

    /// Stones within [`CANDIDATE_RADIUS`] of padded index `i`, counted from the cells.
    pub(super) fn scratch_near(&self, i: usize) -> u8 {
        let mut n = 0;
        let r = CANDIDATE_RADIUS as isize;
        let s = self.stride as isize;
        for dy in -r..=r {
            for dx in -r..=r {
                let j = (i as isize + dy * s + dx) as usize;
                if matches!(self.grid[j], 1 | 2) {
                    n += 1;
                }
            }
        }
        n
    }

    /// The internal combined code colour index `ci` would have at empty point `f` once a
    /// stone of value `v` stood at `q` (another point): only the line through both changes,
    /// and only when `q` lies within the key reach of `f`; otherwise `f`'s present code.
    pub(super) fn code4_with_stone(
        &self,
        f: crate::core::Pos,
        q: crate::core::Pos,
        v: u8,
        ci: usize,
    ) -> u8 {
        let cell = &self.info[self.idx(f)];
        let (dx, dy) = (q.x() as i32 - f.x() as i32, q.y() as i32 - f.y() as i32);
        let (d, o) = match (dx, dy) {
            (_, 0) => (0, dx),
            (0, _) => (1, dy),
            _ if dx == dy => (2, dx),
            _ if dx == -dy => (3, dx),
            _ => return cell.pat4()[ci],
        };
        if o == 0 || o.abs() > self.reach as i32 {
            return cell.pat4()[ci];
        }
        let key = cell.keys[d].wrapping_add(self.place[v as usize & 3][slot(o as isize)]);
        let sh = 4 * d as u32;
        let pats = (cell.pats() >> (16 * ci)) & 0xFFFF;
        let pats = pats & !(0xF << sh) | u32::from(self.code(ci, key)) << sh;
        self.comb[(pats | (ci as u32) << 16) as usize]
    }

    /// Internal pattern code of colour index `c` for a key (both colours' keys packed).
    #[inline]
    pub(super) fn code(&self, c: usize, key: u64) -> u8 {
        self.table[(key >> (32 * c)) as u32 as usize]
    }

    /// Packed pattern codes (see [`CellInfo::pats`]) for four keys.
    pub(super) fn pats_of(&self, keys: &[u64; 4]) -> u32 {
        let mut pats = 0;
        for (d, &k) in keys.iter().enumerate() {
            pats |= (self.code(0, k) as u32) << (4 * d);
            pats |= (self.code(1, k) as u32) << (16 + 4 * d);
        }
        pats
    }

    /// Combined codes for packed pattern codes.
    #[inline]
    pub(super) fn pat4_of(&self, pats: u32) -> [u8; 2] {
        [
            self.comb[(pats & 0xFFFF) as usize],
            self.comb[(pats >> 16 | 1 << 16) as usize],
        ]
    }

    /// Recomputes the pattern and combined codes of cell `i` from its keys.
    fn refresh_cell(&mut self, i: usize) {
        let pats = self.pats_of(&self.info[i].keys);
        let pat4 = self.pat4_of(pats);
        self.info[i].set_codes(pats, pat4);
    }

    /// Adds (`sign` = 1) or removes (`sign` = u16::MAX, i.e. −1) cell `i`'s counts.
    #[inline]
    fn add_counts(&mut self, i: usize, sign: u16) {
        let cell = self.info[i];
        for c in 0..2 {
            for d in 0..4 {
                let code = ((cell.pats() >> (16 * c + 4 * d)) & 15) as usize;
                let n = &mut self.counts.0[16 * c + code];
                *n = n.wrapping_add(sign);
            }
            let code4 = (cell.pat4()[c] & 15) as usize;
            let n = &mut self.counts.0[32 + 16 * c + code4];
            *n = n.wrapping_add(sign);
        }
    }

    /// Adds (`up`) or removes one stone at padded index `i` in the candidate-area counts.
    #[inline]
    fn update_near(&mut self, i: usize, up: bool) {
        let (s, r) = (self.stride, CANDIDATE_RADIUS as usize);
        for dy in 0..NEAR_SPAN {
            // Rows i−r·s..=i+r·s, columns −r..=+r, read as 8 bytes (the padding leaves room).
            let a = i + dy * s - r * s - r;
            let Some(bytes) = self.near.get_mut(a..a + 8) else {
                debug_assert!(false, "near row out of range");
                continue;
            };
            let mut w = [0u8; 8];
            w.copy_from_slice(bytes);
            let v = u64::from_le_bytes(w);
            // No byte carries: a count never exceeds NEAR_SPAN², and a removed stone was counted.
            let v = if up {
                v.wrapping_add(NEAR_ROW)
            } else {
                v.wrapping_sub(NEAR_ROW)
            };
            bytes.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Puts a wall on empty padded index `i` and recomputes everything (setup only).
    pub(super) fn place_wall(&mut self, i: usize) {
        self.grid[i] = WALL;
        self.epoch += 1;
        self.rebuild();
    }

    /// Places stone value `v` (1 black, 2 white) on empty padded index `i`, recording what
    /// undo needs. The caller pushes the history entry via the returned record.
    pub(super) fn place_stone(&mut self, i: usize, v: u8) -> (u32, bool) {
        debug_assert!(self.grid[i] == EMPTY && (v == 1 || v == 2));
        self.count_stack.push(self.counts);
        self.value_stack.push(self.value);
        self.epoch += 1;
        let start = self.nchanges as u32;
        self.add_counts(i, u16::MAX);
        if self.values_on {
            self.value -= self.values.cell_value(self.info[i].pats());
        }
        self.grid[i] = v;
        self.info[i].set_value(v);
        match (self.reach == 4, self.values_on) {
            (true, false) => self.propagate::<4, false>(i, v),
            (true, true) => self.propagate::<4, true>(i, v),
            (false, false) => self.propagate::<5, false>(i, v),
            (false, true) => self.propagate::<5, true>(i, v),
        }
        self.update_near(i, true);
        (start, true)
    }

    /// Makes a history record for a placed stone.
    pub(super) fn played(
        pos: crate::core::Pos,
        color: crate::core::Color,
        prev_side: crate::core::Color,
        rec: (u32, bool),
    ) -> Played {
        Played {
            pos,
            color,
            prev_side,
            changes: rec.0,
            fast: rec.1,
        }
    }

    /// Takes stone value `v` back from padded index `i` (the last one placed, record `h`).
    pub(super) fn remove_stone_at(&mut self, i: usize, v: u8, h: &Played) {
        debug_assert!(self.grid[i] == v);
        self.grid[i] = EMPTY;
        self.epoch += 1;
        self.info[i].set_value(EMPTY);
        if self.reach == 4 {
            self.unpropagate::<4>(i, v);
        } else {
            self.unpropagate::<5>(i, v);
        }
        self.update_near(i, false);
        let top = self.count_stack.len().wrapping_sub(1);
        if let Some(value) = self.value_stack.pop() {
            self.value = value;
        }
        match self.count_stack.get(top) {
            Some(counts) if h.fast => {
                // Copied straight from the stack slot (no temporary).
                self.counts = *counts;
                self.count_stack.truncate(top);
                let start = h.changes as usize;
                let end = self.nchanges;
                for &ch in self.changes.get(start..end).unwrap_or(&[]) {
                    ch.restore(&mut self.info);
                }
                self.nchanges = start.min(end);
            }
            _ => {
                // A wall was put on the board since this stone: recompute everything.
                self.count_stack.truncate(top);
                self.rebuild();
            }
        }
    }

    /// Adds the key deltas of stone value `v` appearing at `i` to the cells within reach
    /// and refreshes the codes and counts of the empty ones whose codes changed.
    #[inline(always)]
    fn propagate<const R: isize, const V: bool>(&mut self, i: usize, v: u8) {
        let dk = self.place[v as usize & 3];
        let top = self.nchanges;
        // Room for this move's records (at most 8 R ≤ 40 cells change); `changes` only
        // grows, its live part is `..nchanges`.
        if self.changes.len() < top + CHANGE_WINDOW {
            self.changes.resize(top + CHANGE_WINDOW, Change::default());
        }
        let window = &mut self.changes[top..top + CHANGE_WINDOW];
        let Ok(buf) = <&mut [Change; CHANGE_WINDOW]>::try_from(window) else {
            unreachable!("window has CHANGE_WINDOW entries");
        };
        let mut hot = Hot::<V> {
            info: &mut self.info,
            table: self.table,
            comb: self.comb,
            counts: &mut self.counts,
            buf,
            n: 0,
            values: self.values.table(),
            value_delta: 0,
        };
        let [d0, d1, d2, d3] = self.dirs;
        hot.line::<R, 0>(i, d0, &dk);
        hot.line::<R, 1>(i, d1, &dk);
        hot.line::<R, 2>(i, d2, &dk);
        hot.line::<R, 3>(i, d3, &dk);
        self.nchanges = top + hot.n;
        self.value += hot.value_delta;
    }

    /// Subtracts the key deltas of stone value `v` at `i` from the cells within reach.
    #[inline(always)]
    fn unpropagate<const R: isize>(&mut self, i: usize, v: u8) {
        let dk = self.place[v as usize & 3];
        let len = self.info.len();
        let info = &mut self.info[..];
        for d in 0..4 {
            let off = self.dirs[d];
            for k in 1..=R {
                for (q, sl) in [
                    (i as isize - k * off, slot(k)),
                    (i as isize + k * off, slot(-k)),
                ] {
                    let q = q as usize;
                    debug_assert!(q < len);
                    // SAFETY: q < len = info.len(), as in `propagate`.
                    let cell = unsafe { info.get_unchecked_mut(q) };
                    cell.keys[d] = cell.keys[d].wrapping_sub(dk[sl]);
                }
            }
        }
    }

    /// Is padded index `i` an on-board cell?
    #[inline]
    pub(super) fn on_board_index(&self, i: usize) -> bool {
        let r = i / self.stride;
        let x = i % self.stride;
        r >= PAD && r < PAD + self.height && x >= PAD && x < PAD + self.width
    }
}
