//! Line pattern classes, their per-cell combination, and the lookup tables that map an
//! encoded line window to a class (built once, lazily, per rule family).
//!
//! A *window* is the 11 cells of one line centred on an empty cell (offsets −5..=5), the
//! centre excluded from the key. Each cell is 2 bits: 0 empty, 1 black, 2 white, 3 wall or
//! off-board. Slot `j` of the key (bits `2j..2j+2`) holds offset `j − 5` for `j < 5` and
//! offset `j − 4` for `j ≥ 5`. The class is what the colour would have in that line if it
//! played the centre.

use crate::core::{Color, RuleKind};
use std::sync::OnceLock;

/// The shape colour `c` would have in one direction if it played an empty cell, weakest first.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pattern {
    /// Nothing can become a five through this cell in this line.
    Dead = 0,
    /// Playing here makes six or more in a row that does not win for this colour.
    Overline,
    /// One more stone can make a `Block2`.
    Block1,
    /// One more stone can make a `Flex2`.
    Flex1,
    /// One more stone can make a `Block3`.
    Block2,
    /// One more stone can make a `Flex3`.
    Flex2,
    /// One more stone can make a `Block4`.
    Block3,
    /// One more stone can make a `Flex4` (an open three after playing here).
    Flex3,
    /// Playing here makes a four: exactly one point then completes a winning five.
    Block4,
    /// Playing here makes two or more five points in this line (open four, or a one-line
    /// double four such as `X.XXX.X`).
    Flex4,
    /// Playing here makes a winning five.
    Five,
}

/// The four directions of one cell combined, for one colour, weakest first.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pattern4 {
    /// Nothing of note.
    None = 0,
    /// A renju forbidden point for Black (exactly [`super::Board::is_forbidden`]); never for
    /// White or outside renju.
    Forbid,
    /// One open two.
    Flex2,
    /// One blocked three.
    Block3,
    /// Two open twos.
    Flex2x2,
    /// A blocked three plus another blocked three or open two.
    Block3Plus,
    /// One open three.
    Flex3,
    /// An open three plus a blocked three or open two.
    Flex3Plus,
    /// Two or more open threes (where legal).
    Flex3x2,
    /// One four.
    Block4,
    /// One four plus a blocked three or open two.
    Block4Plus,
    /// One four plus an open three.
    Block4Flex3,
    /// An open four, or two fours where that is legal.
    Flex4,
    /// Playing here wins.
    Five,
}

/// Internal per-direction code beyond [`Pattern`]: a `Flex4` made of two distinct fours in
/// one line (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`), which counts as two fours for renju.
pub(crate) const DOUBLE_FOUR: u8 = 11;
/// Number of internal per-direction codes.
pub(crate) const N_CODES: usize = 12;
/// Internal per-cell code beyond [`Pattern4`]: renju Black with two or more open threes, no
/// four and nothing else deciding; the exact recursive 3-3 test resolves it on demand, to
/// `Forbid` or `Flex3Plus`.
pub(crate) const MAYBE33: u8 = 14;
/// As [`MAYBE33`] with one four besides the threes: resolves to `Forbid`, `Block4Flex3` or
/// `Flex4`. Kept apart so that questions about fours rarely need the exact test.
pub(crate) const MAYBE433: u8 = 15;
/// Number of internal per-cell codes.
pub(crate) const N_CODES4: usize = 16;

/// Is internal per-cell code `c` a renju 3-3 candidate ([`MAYBE33`] or [`MAYBE433`])?
#[inline(always)]
pub(crate) fn is_maybe33(c: u8) -> bool {
    c >= MAYBE33
}

/// The classes a 3-3 candidate of internal code `c` may resolve to, as a bit set over
/// `Pattern4` discriminants (the one place these outcome sets are written).
#[inline(always)]
pub(crate) const fn maybe33_outcomes(c: u8) -> u16 {
    const fn bit(p: Pattern4) -> u16 {
        1 << p as u16
    }
    if c == MAYBE433 {
        bit(Pattern4::Forbid) | bit(Pattern4::Block4Flex3) | bit(Pattern4::Flex4)
    } else {
        bit(Pattern4::Forbid) | bit(Pattern4::Flex3Plus)
    }
}

/// Per `Pattern4` discriminant, the 3-3 candidate codes that may resolve to that class:
/// bit 0 [`MAYBE33`], bit 1 [`MAYBE433`] (from [`maybe33_outcomes`], at compile time).
pub(crate) const MAYBE33_SOURCES: [u8; 14] = {
    let mut t = [0u8; 14];
    let mut p = 0;
    while p < 14 {
        if maybe33_outcomes(MAYBE33) >> p & 1 != 0 {
            t[p] |= 1;
        }
        if maybe33_outcomes(MAYBE433) >> p & 1 != 0 {
            t[p] |= 2;
        }
        p += 1;
    }
    t
};

const PATTERNS: [Pattern; 11] = [
    Pattern::Dead,
    Pattern::Overline,
    Pattern::Block1,
    Pattern::Flex1,
    Pattern::Block2,
    Pattern::Flex2,
    Pattern::Block3,
    Pattern::Flex3,
    Pattern::Block4,
    Pattern::Flex4,
    Pattern::Five,
];

const PATTERN4S: [Pattern4; 14] = [
    Pattern4::None,
    Pattern4::Forbid,
    Pattern4::Flex2,
    Pattern4::Block3,
    Pattern4::Flex2x2,
    Pattern4::Block3Plus,
    Pattern4::Flex3,
    Pattern4::Flex3Plus,
    Pattern4::Flex3x2,
    Pattern4::Block4,
    Pattern4::Block4Plus,
    Pattern4::Block4Flex3,
    Pattern4::Flex4,
    Pattern4::Five,
];

impl Pattern {
    /// All patterns, weakest first.
    pub const ALL: [Pattern; 11] = PATTERNS;

    /// The public pattern for an internal code.
    #[inline]
    pub(crate) fn from_code(c: u8) -> Pattern {
        if c == DOUBLE_FOUR {
            Pattern::Flex4
        } else {
            PATTERNS[c as usize]
        }
    }
}

impl Pattern4 {
    /// All combined classes, weakest first.
    pub const ALL: [Pattern4; 14] = PATTERN4S;

    /// The public class for an internal code other than `MAYBE33`/`MAYBE433`.
    #[inline]
    pub(crate) fn from_code(c: u8) -> Pattern4 {
        PATTERN4S[(c as usize).min(13)]
    }
}

/// How a line's fives are judged, from the point of view of the colour to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineRule {
    /// Five or more wins (freestyle; renju White).
    Free,
    /// Only exactly five wins (standard; renju Black).
    Exact,
    /// Exactly five wins unless both ends are opponent stones; six or more wins.
    Caro,
    /// Exactly five wins unless both ends are opponent stones; six or more does not.
    Caro5,
}

impl LineRule {
    /// The line rule colour `c` plays under in rule family `kind`.
    pub(crate) fn of(kind: RuleKind, c: Color) -> LineRule {
        match kind {
            RuleKind::Freestyle => LineRule::Free,
            RuleKind::Standard => LineRule::Exact,
            RuleKind::Renju => {
                if c == Color::Black {
                    LineRule::Exact
                } else {
                    LineRule::Free
                }
            }
            RuleKind::Caro => LineRule::Caro,
            RuleKind::Caro5 => LineRule::Caro5,
        }
    }
}

const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPP: u8 = 2;
const WALL: u8 = 3;

/// Does a run of `len` own stones with end cells `lo`, `hi` win under `r`?
#[inline]
fn wins(r: LineRule, len: usize, lo: u8, hi: u8) -> bool {
    let blocked = lo == OPP && hi == OPP;
    match r {
        LineRule::Free => len >= 5,
        LineRule::Exact => len == 5,
        LineRule::Caro => len >= 6 || (len == 5 && !blocked),
        LineRule::Caro5 => len == 5 && !blocked,
    }
}

/// The run of own stones through index `i` of `line` (which must hold own): (lo, hi).
#[inline]
fn run(line: &[u8; 11], i: usize) -> (usize, usize) {
    let mut lo = i;
    while lo > 0 && line[lo - 1] == OWN {
        lo -= 1;
    }
    let mut hi = i;
    while hi < 10 && line[hi + 1] == OWN {
        hi += 1;
    }
    (lo, hi)
}

#[inline]
fn end_cell(line: &[u8; 11], lo: usize, hi: usize) -> (u8, u8) {
    let a = if lo == 0 { WALL } else { line[lo - 1] };
    let b = if hi == 10 { WALL } else { line[hi + 1] };
    (a, b)
}

fn decode(key: u32) -> [u8; 11] {
    let mut line = [0u8; 11];
    for j in 0..10 {
        let v = ((key >> (2 * j)) & 3) as u8;
        let i = if j < 5 { j } else { j + 1 };
        line[i] = v;
    }
    line[5] = OWN;
    line
}

#[inline]
fn slot_of(i: usize) -> usize {
    if i < 5 {
        i
    } else {
        i - 1
    }
}

/// Classifies a 20-bit own-perspective key (own = 1, opp = 2, wall = 3), memoised in `memo`
/// (0xFF = unknown). Returns an internal code (a [`Pattern`] value or [`DOUBLE_FOUR`]).
fn classify(r: LineRule, key: u32, memo: &mut [u8]) -> u8 {
    let m = memo[key as usize];
    if m != 0xFF {
        return m;
    }
    let v = classify_uncached(r, key, memo);
    memo[key as usize] = v;
    v
}

fn classify_uncached(r: LineRule, key: u32, memo: &mut [u8]) -> u8 {
    let mut line = decode(key);
    let (lo, hi) = run(&line, 5);
    let len = hi - lo + 1;
    let (a, b) = end_cell(&line, lo, hi);
    if wins(r, len, a, b) {
        return Pattern::Five as u8;
    }
    if len >= 6 {
        return Pattern::Overline as u8;
    }
    if len == 5 {
        // A five that does not win (caro, blocked at both ends): nothing more can come of it.
        return Pattern::Dead as u8;
    }
    match five_points(r, &mut line) {
        (0, _) => best_after_one_more(r, key, &line, memo),
        (1, _) => Pattern::Block4 as u8,
        (_, 1) => Pattern::Flex4 as u8,
        _ => DOUBLE_FOUR,
    }
}

/// The empty cells of `line` that complete a winning five through the centre, and how many
/// distinct fours (sets of four stones) they complete, at most 4.
fn five_points(r: LineRule, line: &mut [u8; 11]) -> (usize, usize) {
    let mut n = 0;
    let mut fours: [u16; 4] = [0; 4];
    let mut distinct = 0;
    for e in 1..10 {
        if e == 5 || line[e] != EMPTY {
            continue;
        }
        line[e] = OWN;
        let (lo, hi) = run(line, e);
        let (a, b) = end_cell(line, lo, hi);
        if lo <= 5 && 5 <= hi && wins(r, hi - lo + 1, a, b) {
            n += 1;
            let mask = (((1u32 << (hi + 1)) - (1u32 << lo)) & !(1u32 << e)) as u16;
            if !fours[..distinct].contains(&mask) && distinct < 4 {
                fours[distinct] = mask;
                distinct += 1;
            }
        }
        line[e] = EMPTY;
    }
    (n, distinct)
}

/// A line with no five point: one step below the best that one more own stone on an empty
/// cell makes of it (a four's line is a three, a three's a two, ...).
fn best_after_one_more(r: LineRule, key: u32, line: &[u8; 11], memo: &mut [u8]) -> u8 {
    let mut best = Pattern::Dead as u8;
    #[allow(clippy::needless_range_loop)]
    for e in 1..10 {
        if e == 5 || line[e] != EMPTY {
            continue;
        }
        let sub = classify(r, key | (1 << (2 * slot_of(e))), memo);
        let down = match sub {
            DOUBLE_FOUR => Pattern::Flex3,
            s if s == Pattern::Flex4 as u8 => Pattern::Flex3,
            s if s == Pattern::Block4 as u8 => Pattern::Block3,
            s if s == Pattern::Flex3 as u8 => Pattern::Flex2,
            s if s == Pattern::Block3 as u8 => Pattern::Block2,
            s if s == Pattern::Flex2 as u8 => Pattern::Flex1,
            s if s == Pattern::Block2 as u8 => Pattern::Block1,
            _ => Pattern::Dead,
        } as u8;
        best = best.max(down);
    }
    best
}

/// The per-direction table of one line rule, indexed by an own-perspective key: the sum
/// over the 10 window cells of `state × base^slot`, where state is 0 empty, 1 own, 2 opponent
/// and, for the caro rules only (base 4), 3 wall/off-board (elsewhere walls count as 2).
pub(crate) struct LineTables {
    pub(crate) tab: Vec<u8>,
    /// 3, or 4 for the caro rules.
    pub(crate) base: u32,
}

impl LineRule {
    /// Key base: the caro rules tell walls from opponent stones.
    pub(crate) fn base(self) -> u32 {
        match self {
            LineRule::Free | LineRule::Exact => 3,
            LineRule::Caro | LineRule::Caro5 => 4,
        }
    }
}

/// The 2-bit key of a key in base `base`.
fn to_bits(mut key: u32, base: u32) -> u32 {
    let mut k = 0;
    for j in 0..10 {
        k |= (key % base) << (2 * j);
        key /= base;
    }
    k
}

/// Makes every cell beyond the first opponent stone or wall on each side a wall: fives
/// through the centre cannot cross a blocker, so those cells never change the class. This
/// leaves under 9,000 distinct windows to classify.
fn canonical(bits: u32) -> u32 {
    let mut out = bits;
    for side in [[4u32, 3, 2, 1, 0], [5, 6, 7, 8, 9]] {
        let mut blocked = false;
        for j in side {
            let v = (bits >> (2 * j)) & 3;
            if blocked {
                out |= 3 << (2 * j);
            } else if v >= 2 {
                blocked = true;
            }
        }
    }
    out
}

fn build(r: LineRule) -> LineTables {
    let base = r.base();
    let n = base.pow(10);
    let mut memo = vec![0xFFu8; 1 << 20];
    let tab = (0..n)
        .map(|k| {
            let bits = if base == 4 { k } else { to_bits(k, base) };
            classify(r, canonical(bits), &mut memo)
        })
        .collect();
    LineTables { tab, base }
}

static TABLES: [OnceLock<LineTables>; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The (lazily built, shared) tables of a line rule.
pub(crate) fn line_tables(r: LineRule) -> &'static LineTables {
    let i = match r {
        LineRule::Free => 0,
        LineRule::Exact => 1,
        LineRule::Caro => 2,
        LineRule::Caro5 => 3,
    };
    TABLES[i].get_or_init(|| build(r))
}

/// Combines four internal per-direction codes for one colour into an internal per-cell code.
/// `renju_black` applies Black's renju restrictions (Forbid / [`MAYBE33`] / [`MAYBE433`]).
pub(crate) fn combine(codes: [u8; 4], renju_black: bool) -> u8 {
    let mut n = [0u32; N_CODES];
    for c in codes {
        n[c as usize] += 1;
    }
    if n[Pattern::Five as usize] > 0 {
        return Pattern4::Five as u8;
    }
    if renju_black {
        let fours =
            n[Pattern::Block4 as usize] + n[Pattern::Flex4 as usize] + 2 * n[DOUBLE_FOUR as usize];
        if n[Pattern::Overline as usize] > 0 || fours >= 2 {
            return Pattern4::Forbid as u8;
        }
        if n[Pattern::Flex3 as usize] >= 2 {
            return if fours == 1 { MAYBE433 } else { MAYBE33 };
        }
    }
    combine_plain(&n) as u8
}

/// The class of a renju Black cell marked [`MAYBE33`] once the exact test found it legal.
pub(crate) fn combine_legal(codes: [u8; 4]) -> Pattern4 {
    let mut n = [0u32; N_CODES];
    for c in codes {
        n[c as usize] += 1;
    }
    match combine_plain(&n) {
        Pattern4::Flex3x2 => Pattern4::Flex3Plus,
        p => p,
    }
}

fn combine_plain(n: &[u32; N_CODES]) -> Pattern4 {
    let f4 = n[Pattern::Flex4 as usize] + n[DOUBLE_FOUR as usize];
    let b4 = n[Pattern::Block4 as usize];
    let f3 = n[Pattern::Flex3 as usize];
    let b3 = n[Pattern::Block3 as usize];
    let f2 = n[Pattern::Flex2 as usize];
    if f4 >= 1 || b4 >= 2 {
        Pattern4::Flex4
    } else if b4 >= 1 {
        if f3 >= 1 {
            Pattern4::Block4Flex3
        } else if b3 + f2 >= 1 {
            Pattern4::Block4Plus
        } else {
            Pattern4::Block4
        }
    } else if f3 >= 2 {
        Pattern4::Flex3x2
    } else if f3 == 1 {
        if b3 + f2 >= 1 {
            Pattern4::Flex3Plus
        } else {
            Pattern4::Flex3
        }
    } else if b3 >= 2 || (b3 >= 1 && f2 >= 1) {
        Pattern4::Block3Plus
    } else if f2 >= 2 {
        Pattern4::Flex2x2
    } else if b3 >= 1 {
        Pattern4::Block3
    } else if f2 >= 1 {
        Pattern4::Flex2
    } else {
        Pattern4::None
    }
}

/// Both colours' combination tables back to back: Black's (indexed by its four packed
/// codes) then White's (the same index + 2^16).
pub(crate) type CombTable = [u8; 1 << 17];

/// Combination tables for `[plain rules, renju]` (renju differs in Black's half only).
pub(crate) fn comb_tables() -> &'static [Box<CombTable>; 2] {
    static COMB: OnceLock<[Box<CombTable>; 2]> = OnceLock::new();
    COMB.get_or_init(|| {
        let make = |rb: bool| -> Box<CombTable> {
            let mut t = Box::new([0u8; 1 << 17]);
            for (i, e) in t.iter_mut().enumerate() {
                let codes = [0, 4, 8, 12].map(|s| ((i >> s) & 15) as u8);
                if codes.iter().all(|&c| (c as usize) < N_CODES) {
                    *e = combine(codes, rb && i < 1 << 16);
                }
            }
            t
        };
        [make(false), make(true)]
    })
}

/// A line table for both colours of a rule: Black's table, and the offset of White's table
/// in the same slice (0 when both colours play the same line rule; renju appends White's
/// freestyle table to Black's exact-five table).
pub(crate) fn rule_line_table(kind: RuleKind) -> (&'static [u8], u32) {
    let b = LineRule::of(kind, Color::Black);
    let w = LineRule::of(kind, Color::White);
    if b == w {
        return (&line_tables(b).tab, 0);
    }
    static RENJU: OnceLock<Vec<u8>> = OnceLock::new();
    debug_assert!(b == LineRule::Exact && w == LineRule::Free);
    let tb = &line_tables(b).tab;
    let t = RENJU.get_or_init(|| {
        let mut t = tb.clone();
        t.extend_from_slice(&line_tables(w).tab);
        t
    });
    (t, tb.len() as u32)
}

/// Index into a combination table.
#[inline]
pub(crate) fn comb_index(codes: [u8; 4]) -> usize {
    codes[0] as usize
        | (codes[1] as usize) << 4
        | (codes[2] as usize) << 8
        | (codes[3] as usize) << 12
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Key from a string over the 11 cells (centre `*`): `.` empty, `x` black, `o` white, `#` wall.
    fn key(s: &str) -> u32 {
        let b: Vec<u8> = s.bytes().collect();
        assert_eq!(b.len(), 11);
        let mut k = 0;
        for (i, &c) in b.iter().enumerate() {
            if i == 5 {
                assert_eq!(c, b'*');
                continue;
            }
            let v = match c {
                b'.' => 0,
                b'x' => 1,
                b'o' => 2,
                _ => 3,
            };
            k |= v << (2 * slot_of(i));
        }
        k
    }

    fn pat(r: LineRule, c: Color, s: &str) -> u8 {
        let t = line_tables(r);
        let bits = key(s);
        let mut k = 0;
        for j in (0..10).rev() {
            let mut v = (bits >> (2 * j)) & 3;
            if c == Color::White && (v == 1 || v == 2) {
                v = 3 - v;
            }
            if t.base == 3 && v == 3 {
                v = 2;
            }
            k = k * t.base + v;
        }
        t.tab[k as usize]
    }

    #[test]
    fn classifies_basic_shapes() {
        use Pattern as P;
        let b = Color::Black;
        let ex = LineRule::Exact;
        assert_eq!(pat(ex, b, "...xx*xx..."), P::Five as u8);
        assert_eq!(pat(ex, b, "..xxx*xx..."), P::Overline as u8);
        assert_eq!(pat(LineRule::Free, b, "..xxx*xx..."), P::Five as u8);
        assert_eq!(pat(ex, b, "....x*xx..."), P::Flex4 as u8);
        assert_eq!(pat(ex, b, "...ox*xx..."), P::Block4 as u8);
        assert_eq!(pat(ex, b, ".x.xx*.x..."), DOUBLE_FOUR);
        assert_eq!(pat(ex, b, ".....*xx..."), P::Flex3 as u8);
        assert_eq!(pat(ex, b, "....o*xx..."), P::Block3 as u8);
        assert_eq!(pat(ex, b, "..oxx*....."), P::Block3 as u8);
        assert_eq!(pat(ex, b, "...x.*....."), P::Flex2 as u8);
        assert_eq!(pat(ex, b, "...#x*xx#.."), P::Dead as u8);
        // White sees the same shapes with colours swapped.
        assert_eq!(pat(ex, Color::White, "....o*oo..."), P::Flex4 as u8);
        assert_eq!(pat(ex, Color::White, "....x*oo..."), P::Block3 as u8);
        // Caro: blocked both ends by the opponent is no five; the edge is no block.
        assert_eq!(pat(LineRule::Caro, b, "...ox*xxxo."), P::Dead as u8);
        assert_eq!(pat(LineRule::Caro, b, "...#x*xxxo."), P::Five as u8);
        assert_eq!(pat(LineRule::Caro, b, "..xxx*xxxo."), P::Five as u8);
        assert_eq!(pat(LineRule::Caro5, b, "..xxx*xxxo."), P::Overline as u8);
    }
}
