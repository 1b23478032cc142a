//! Board points: a compact (x, y) pair with protocol and human notations.

use std::fmt;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Largest supported board side.
pub const MAX_SIZE: usize = 32;

/// A point on a board of at most 32×32: x is the column, y the row, both from 0 with the
/// origin top-left (the protocol's `x,y`). Stored as `y * 32 + x`, so it is also a dense
/// index into 32×32 arrays. `Pos::NONE` means "no point".
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(u16);

impl Pos {
    /// No point (a pass, an empty slot in a table).
    pub const NONE: Pos = Pos(u16::MAX);
    /// Number of distinct dense indices (32 × 32).
    pub const COUNT: usize = MAX_SIZE * MAX_SIZE;

    /// The point (x, y). Both must be below 32.
    #[inline]
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos((y * MAX_SIZE + x) as u16)
    }

    /// The point with dense index `i` (as returned by [`Pos::index`]).
    #[inline]
    pub fn from_index(i: usize) -> Pos {
        debug_assert!(i < Self::COUNT);
        Pos(i as u16)
    }

    /// Column, from 0 at the left.
    #[inline]
    pub fn x(self) -> usize {
        (self.0 as usize) % MAX_SIZE
    }

    /// Row, from 0 at the top.
    #[inline]
    pub fn y(self) -> usize {
        (self.0 as usize) / MAX_SIZE
    }

    /// Dense index `y * 32 + x`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// King-move (Chebyshev) distance to `other`; `None` when either is [`Pos::NONE`].
    #[inline]
    pub fn distance(self, other: Pos) -> Option<usize> {
        if self.is_none() || other.is_none() {
            return None;
        }
        Some(
            self.x()
                .abs_diff(other.x())
                .max(self.y().abs_diff(other.y())),
        )
    }

    /// True for [`Pos::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }

    /// Human notation: column letter from `a`, row number from 1 (`x=7,y=7` is `h8`).
    pub fn to_human(self) -> String {
        if self.is_none() {
            return "none".to_string();
        }
        format!("{}{}", (b'a' + self.x() as u8) as char, self.y() + 1)
    }

    /// Parses human notation (`h8`, case-insensitive); `None` if malformed.
    pub fn from_human(s: &str) -> Option<Pos> {
        let s = s.trim();
        let mut chars = s.chars();
        let c = chars.next()?.to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        let x = (c as u8 - b'a') as usize;
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 2 {
            return None;
        }
        let row: usize = rest.parse().ok()?;
        if row == 0 || x >= MAX_SIZE || row > MAX_SIZE {
            return None;
        }
        Some(Pos::new(x, row - 1))
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "Pos(NONE)")
        } else {
            write!(f, "Pos({},{})", self.x(), self.y())
        }
    }
}

/// Protocol notation `x,y`.
impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_the_king_move_count() {
        let h8 = Pos::new(7, 7);
        assert_eq!(h8.distance(h8), Some(0));
        assert_eq!(h8.distance(Pos::new(9, 3)), Some(4));
        assert_eq!(Pos::new(9, 3).distance(h8), Some(4));
        assert_eq!(h8.distance(Pos::new(2, 8)), Some(5));
        assert_eq!(h8.distance(Pos::NONE), None);
        assert_eq!(Pos::NONE.distance(h8), None);
    }

    #[test]
    fn round_trips() {
        let p = Pos::new(7, 7);
        assert_eq!((p.x(), p.y()), (7, 7));
        assert_eq!(p.to_string(), "7,7");
        assert_eq!(p.to_human(), "h8");
        assert_eq!(Pos::from_human("h8"), Some(p));
        assert_eq!(Pos::from_human("A1"), Some(Pos::new(0, 0)));
        assert_eq!(Pos::from_human("f32"), Some(Pos::new(5, 31)));
        assert_eq!(Pos::from_human("h0"), None);
        assert_eq!(Pos::from_human("h33"), None);
        assert_eq!(Pos::from_human("8h"), None);
        assert_eq!(Pos::from_index(Pos::new(31, 31).index()), Pos::new(31, 31));
    }
}
