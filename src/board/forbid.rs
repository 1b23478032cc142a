//! The exact renju forbidden-point procedure (docs/rules.md, "Renju forbidden points"),
//! run on a scratch copy of the padded cell array. Recursive for 3-3: each three's
//! straight-four point must itself be legal with the chain's stones on the board.

const EMPTY: u8 = 0;
const BLACK: u8 = 1;

/// A scratch padded grid (0 empty, 1 black, 2 white, 3 wall/off-board) and its four
/// direction offsets. Every on-board cell has at least 5 padding cells around it.
pub(crate) struct Scratch<'a> {
    pub(crate) grid: &'a mut [u8],
    pub(crate) dirs: [isize; 4],
}

impl Scratch<'_> {
    #[inline]
    fn at(&self, i: usize, d: isize, k: isize) -> usize {
        (i as isize + d * k) as usize
    }

    /// Run of black through `i` (black) along `d`: offsets (lo ≤ 0, hi ≥ 0).
    fn run(&self, i: usize, d: isize) -> (isize, isize) {
        let mut lo = 0;
        while self.grid[self.at(i, d, lo - 1)] == BLACK {
            lo -= 1;
        }
        let mut hi = 0;
        while self.grid[self.at(i, d, hi + 1)] == BLACK {
            hi += 1;
        }
        (lo, hi)
    }

    fn makes_five_any(&self, i: usize) -> bool {
        self.dirs.iter().any(|&d| {
            let (lo, hi) = self.run(i, d);
            hi - lo + 1 == 5
        })
    }

    /// Number of distinct fours through black stone `p` in direction `d`.
    fn count_fours(&mut self, p: usize, d: isize) -> u32 {
        let mut seen: [(isize, isize, isize); 8] = [(0, 0, 0); 8];
        let mut n = 0;
        for k in -4..=4isize {
            let e = self.at(p, d, k);
            if k == 0 || self.grid[e] != EMPTY {
                continue;
            }
            self.grid[e] = BLACK;
            let (lo, hi) = self.run(p, d);
            self.grid[e] = EMPTY;
            if hi - lo + 1 == 5 {
                // The four is the run minus e; identify it by (lo, hi, k).
                let four = (lo, hi, k);
                // Two five points give the same four only for a straight four, where the
                // remaining stones coincide: compare stone sets.
                let same = seen[..n]
                    .iter()
                    .any(|&(l2, h2, k2)| four_stones(lo, hi, k) == four_stones(l2, h2, k2));
                if !same && n < 8 {
                    seen[n] = four;
                    n += 1;
                }
            }
        }
        n as u32
    }

    /// Does direction `d` hold a three through black stone `p` (docs/rules.md, step 4)?
    fn has_three(&mut self, p: usize, d: isize) -> bool {
        for k in -4..=4isize {
            let e = self.at(p, d, k);
            if k == 0 || self.grid[e] != EMPTY {
                continue;
            }
            self.grid[e] = BLACK;
            let (lo, hi) = self.run(p, d);
            let mut straight = false;
            if hi - lo + 1 == 4 && lo <= k && k <= hi {
                let a = self.at(p, d, lo - 1);
                let b = self.at(p, d, hi + 1);
                let a2 = self.at(p, d, lo - 2);
                let b2 = self.at(p, d, hi + 2);
                straight = self.grid[a] == EMPTY
                    && self.grid[b] == EMPTY
                    && self.grid[a2] != BLACK
                    && self.grid[b2] != BLACK;
            }
            let five = straight && self.makes_five_any(e);
            self.grid[e] = EMPTY;
            if straight && !five && !self.forbidden(e) {
                return true;
            }
        }
        false
    }

    /// Black stones besides `p` within four cells of it on each line: how many lines hold
    /// at least two, and the most any line holds.
    fn stones_near(&self, p: usize) -> (u32, u32) {
        let (mut lines, mut most) = (0, 0);
        for &d in &self.dirs {
            let stones = (1..=4isize)
                .map(|k| {
                    u32::from(self.grid[self.at(p, d, k)] == BLACK)
                        + u32::from(self.grid[self.at(p, d, -k)] == BLACK)
                })
                .sum::<u32>();
            lines += u32::from(stones >= 2);
            most = most.max(stones);
        }
        (lines, most)
    }

    /// Is empty cell `p` forbidden to Black (with the current stones)? The grid is restored.
    pub(crate) fn forbidden(&mut self, p: usize) -> bool {
        debug_assert_eq!(self.grid[p], EMPTY);
        self.grid[p] = BLACK;
        let r = self.forbidden_placed(p);
        self.grid[p] = EMPTY;
        r
    }

    /// As [`Scratch::forbidden`] for a 3-3 candidate: a cell whose lines already show no
    /// five, no overline and at most one four, and whose threes can only lie in the
    /// directions of `three_dirs` (bit d for direction d). Only those directions are tested.
    pub(crate) fn forbidden_33(&mut self, p: usize, three_dirs: u8) -> bool {
        debug_assert_eq!(self.grid[p], EMPTY);
        self.grid[p] = BLACK;
        let dirs = self.dirs;
        let mut threes = 0;
        for (k, &d) in dirs.iter().enumerate() {
            if three_dirs >> k & 1 != 0 && self.has_three(p, d) {
                threes += 1;
                if threes >= 2 {
                    break;
                }
            }
        }
        self.grid[p] = EMPTY;
        threes >= 2
    }

    fn forbidden_placed(&mut self, p: usize) -> bool {
        let mut over = false;
        for &d in &self.dirs {
            let (lo, hi) = self.run(p, d);
            let len = hi - lo + 1;
            if len == 5 {
                return false;
            }
            if len > 5 {
                over = true;
            }
        }
        if over {
            return true;
        }
        // A four or a three through `p` needs two more black stones within four cells on its
        // line, and two fours in one line four more: short of both there is neither a double
        // four nor a double three, and the tests below can only say no.
        let (lines, most) = self.stones_near(p);
        if lines < 2 && most < 4 {
            return false;
        }
        let dirs = self.dirs;
        let mut fours = 0;
        for &d in &dirs {
            fours += self.count_fours(p, d);
        }
        if fours >= 2 {
            return true;
        }
        let mut threes = 0;
        for &d in &dirs {
            if self.has_three(p, d) {
                threes += 1;
                if threes >= 2 {
                    return true;
                }
            }
        }
        false
    }
}

/// The four stone offsets of a four: the five-cell run `lo..=hi` without its five point `k`.
fn four_stones(lo: isize, hi: isize, k: isize) -> [isize; 4] {
    let mut out = [0; 4];
    let mut i = 0;
    for x in lo..=hi {
        if x != k && i < 4 {
            out[i] = x;
            i += 1;
        }
    }
    out
}
