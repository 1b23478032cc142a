//! Board symmetries: the 8 of a square board (4 of a rectangular one), applied to points and
//! to offsets from the centre. The one copy every layer and tool uses.

use super::Pos;

/// One symmetry of the board, as three independent steps applied in this order: mirror the
/// columns (x → width−1−x), mirror the rows (y → height−1−y), then transpose (swap x and y).
/// Index bits: 1 mirrors x, 2 mirrors y, 4 transposes; index 0 is the identity. Transposing
/// maps a board onto itself only when it is square, so a rectangular board has the 4
/// symmetries without bit 4 ([`Symmetry::of_board`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(u8);

impl Symmetry {
    /// Leaves every point where it is.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// All eight, by index.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    const MIRROR_X: u8 = 1;
    const MIRROR_Y: u8 = 2;
    const TRANSPOSE: u8 = 4;

    /// The symmetry with index `index & 7` (see the type's bit layout).
    pub fn from_index(index: u8) -> Symmetry {
        Symmetry(index & 7)
    }

    /// Its index, 0..8.
    pub fn index(self) -> u8 {
        self.0
    }

    /// True when it swaps x and y (only a symmetry of square boards).
    pub fn transposes(self) -> bool {
        self.0 & Self::TRANSPOSE != 0
    }

    /// The symmetries of a `width`×`height` board: all 8 when it is square, else the 4 that
    /// do not transpose.
    pub fn of_board(width: usize, height: usize) -> &'static [Symmetry] {
        if width == height {
            &Self::ALL
        } else {
            &Self::ALL[..4]
        }
    }

    /// True when it maps a `width`×`height` board onto itself.
    pub fn fits(self, width: usize, height: usize) -> bool {
        !self.transposes() || width == height
    }

    /// The image of `p` on a `width`×`height` board. The symmetry must fit the board
    /// ([`Symmetry::fits`]); `p` must be on it.
    pub fn apply(self, p: Pos, width: usize, height: usize) -> Pos {
        debug_assert!(self.fits(width, height) && p.x() < width && p.y() < height);
        let mut x = p.x();
        let mut y = p.y();
        if self.0 & Self::MIRROR_X != 0 {
            x = width - 1 - x;
        }
        if self.0 & Self::MIRROR_Y != 0 {
            y = height - 1 - y;
        }
        if self.transposes() {
            std::mem::swap(&mut x, &mut y);
        }
        Pos::new(x, y)
    }

    /// The image of an offset `(dx, dy)` from a fixed centre point: the same steps with the
    /// mirrors negating each coordinate. On a board with odd sides and the centre at
    /// `(width/2, height/2)`, `apply` equals centre + `apply_offset`(p − centre).
    pub fn apply_offset(self, (dx, dy): (i32, i32)) -> (i32, i32) {
        let x = if self.0 & Self::MIRROR_X != 0 {
            -dx
        } else {
            dx
        };
        let y = if self.0 & Self::MIRROR_Y != 0 {
            -dy
        } else {
            dy
        };
        if self.transposes() {
            (y, x)
        } else {
            (x, y)
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        if !self.transposes() {
            return self;
        }
        // Transposing after mirroring x equals mirroring y after transposing, and so on:
        // the inverse mirrors the other axes.
        let mx = self.0 & Self::MIRROR_X;
        let my = self.0 & Self::MIRROR_Y;
        Symmetry(Self::TRANSPOSE | (mx << 1) | (my >> 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn square_board_has_eight_distinct_images() {
        let p = Pos::new(1, 3);
        let images: HashSet<Pos> = Symmetry::ALL.iter().map(|s| s.apply(p, 15, 15)).collect();
        assert_eq!(images.len(), 8);
        assert_eq!(Symmetry::IDENTITY.apply(p, 15, 15), p);
        assert_eq!(Symmetry::from_index(1).apply(p, 15, 15), Pos::new(13, 3));
        assert_eq!(Symmetry::from_index(2).apply(p, 15, 15), Pos::new(1, 11));
        assert_eq!(Symmetry::from_index(4).apply(p, 15, 15), Pos::new(3, 1));
        // Mirror x first, then transpose.
        assert_eq!(Symmetry::from_index(5).apply(p, 15, 15), Pos::new(3, 13));
    }

    #[test]
    fn rectangular_board_has_four() {
        assert_eq!(Symmetry::of_board(20, 15).len(), 4);
        assert_eq!(Symmetry::of_board(15, 15).len(), 8);
        assert!(Symmetry::of_board(20, 15).iter().all(|s| s.fits(20, 15)));
        assert!(!Symmetry::from_index(4).fits(20, 15));
        let p = Pos::new(0, 0);
        let images: HashSet<Pos> = Symmetry::of_board(20, 15)
            .iter()
            .map(|s| s.apply(p, 20, 15))
            .collect();
        let corners = [(0, 0), (19, 0), (0, 14), (19, 14)].map(|(x, y)| Pos::new(x, y));
        assert_eq!(images, corners.into_iter().collect());
    }

    #[test]
    fn every_symmetry_is_a_bijection_with_an_inverse() {
        for (w, h) in [(15, 15), (16, 16), (5, 5), (20, 15), (7, 32)] {
            for &s in Symmetry::of_board(w, h) {
                let mut seen = HashSet::new();
                for y in 0..h {
                    for x in 0..w {
                        let p = Pos::new(x, y);
                        let q = s.apply(p, w, h);
                        assert!(q.x() < w && q.y() < h);
                        assert!(seen.insert(q), "{s:?} on {w}x{h} maps twice to {q:?}");
                        assert_eq!(s.inverse().apply(q, w, h), p, "{s:?} on {w}x{h}");
                    }
                }
            }
        }
    }

    #[test]
    fn offsets_agree_with_points_around_an_odd_centre() {
        let (n, c) = (15, 7);
        for s in Symmetry::ALL {
            for (x, y) in [(7, 7), (0, 0), (3, 12), (14, 5)] {
                let (dx, dy) = s.apply_offset((x - c, y - c));
                let p = s.apply(Pos::new(x as usize, y as usize), n, n);
                assert_eq!((p.x() as i32, p.y() as i32), (c + dx, c + dy), "{s:?}");
            }
        }
        // The eight offset images of a shape are distinct unless the shape is symmetric.
        let images: HashSet<(i32, i32)> = Symmetry::ALL
            .iter()
            .map(|s| s.apply_offset((1, 2)))
            .collect();
        assert_eq!(images.len(), 8);
    }
}
