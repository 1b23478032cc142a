//! The candidate area walk: the empty cells with a stone within the candidate radius,
//! row-major, read off the board's per-cell `near` counts.

use super::{Board, EMPTY, PAD};
use crate::core::Pos;

impl Board {
    /// The empty cells of the candidate area (see [`Board::in_candidate_area`]), row-major.
    pub fn candidates(&self) -> Candidates<'_> {
        let first = if self.stones == 0 {
            self.central_empty()
        } else {
            None
        };
        Candidates {
            board: self,
            first,
            x: 0,
            y: 0,
        }
    }
}

/// Iterator over [`Board::candidates`]: walks the rows, skipping eight cells at a time where
/// no stone is near, and keeps the coordinates as it goes (no division per cell).
pub struct Candidates<'a> {
    board: &'a Board,
    /// The central point of an empty board, given first.
    first: Option<Pos>,
    x: usize,
    y: usize,
}

impl Iterator for Candidates<'_> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        if let Some(p) = self.first.take() {
            return Some(p);
        }
        let b = self.board;
        while self.y < b.height {
            let row = (self.y + PAD) * b.stride + PAD;
            while self.x < b.width {
                let i = row + self.x;
                if let Some(chunk) = b.near.get(i..i + 8) {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(chunk);
                    let w = u64::from_le_bytes(w);
                    if w == 0 {
                        self.x += 8;
                        continue;
                    }
                    // Straight to the first cell with a stone near (maybe past the row).
                    let skip = (w.trailing_zeros() / 8) as usize;
                    if skip > 0 {
                        self.x += skip;
                        continue;
                    }
                }
                self.x += 1;
                if b.grid[i] == EMPTY && b.near[i] > 0 {
                    return Some(Pos::new(self.x - 1, self.y));
                }
            }
            self.x = 0;
            self.y += 1;
        }
        None
    }
}
