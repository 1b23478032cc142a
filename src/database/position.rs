//! Database positions: a stone set on a board of a given size and rule, and its canonical key
//! (the smallest image over the board's symmetries), so symmetric positions share one record.

use crate::core::{Pos, Rule, Symmetry, MAX_SIZE, MIN_SIZE};

/// What a cell of a [`DbPosition`] holds.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// The database key of a position: rule, board size and the canonical cell string (one byte
/// per cell, row-major, 0 empty / 1 Black / 2 White).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The rule as its `INFO rule` number.
    pub rule: i64,
    pub width: usize,
    pub height: usize,
    pub cells: Vec<u8>,
}

/// A position as the database sees it: which stones stand where. Black moves first, so the
/// side to move follows from the stone counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbPosition {
    rule: Rule,
    width: usize,
    height: usize,
    cells: Vec<u8>,
    stones: usize,
}

impl DbPosition {
    /// An empty `width`×`height` board; `None` when the size is not supported.
    pub fn empty(rule: Rule, width: usize, height: usize) -> Option<DbPosition> {
        let ok = |v: usize| (MIN_SIZE..=MAX_SIZE).contains(&v);
        (ok(width) && ok(height)).then(|| DbPosition {
            rule,
            width,
            height,
            cells: vec![EMPTY; width * height],
            stones: 0,
        })
    }

    /// The position after `moves`, played alternately from Black. Errors name the bad move.
    pub fn from_moves(
        rule: Rule,
        width: usize,
        height: usize,
        moves: &[(i64, i64)],
    ) -> Result<DbPosition, String> {
        let mut pos = DbPosition::empty(rule, width, height)
            .ok_or_else(|| format!("unsupported board size {width}x{height}"))?;
        for &(x, y) in moves {
            let p = pos
                .point(x, y)
                .ok_or_else(|| format!("{x},{y} is outside the {width}x{height} board"))?;
            if !pos.is_empty(p) {
                return Err(format!("{x},{y} appears twice"));
            }
            pos.play(p);
        }
        Ok(pos)
    }

    /// The position of `key` (stones as stored, in canonical orientation).
    pub fn from_key(key: &Key) -> Option<DbPosition> {
        let rule = Rule::from_info(key.rule)?;
        let mut pos = DbPosition::empty(rule, key.width, key.height)?;
        if key.cells.len() != pos.cells.len() || key.cells.iter().any(|&c| c > WHITE) {
            return None;
        }
        pos.cells.clone_from(&key.cells);
        pos.stones = key.cells.iter().filter(|&&c| c != EMPTY).count();
        Some(pos)
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// The point `x,y` if it lies on the board.
    pub fn point(&self, x: i64, y: i64) -> Option<Pos> {
        let on = |v: i64, n: usize| v >= 0 && (v as u64) < n as u64;
        (on(x, self.width) && on(y, self.height)).then(|| Pos::new(x as usize, y as usize))
    }

    fn cell_index(&self, p: Pos) -> usize {
        p.y() * self.width + p.x()
    }

    /// True when `p` (on the board) holds no stone.
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[self.cell_index(p)] == EMPTY
    }

    /// True when Black and White have as many stones as in a game: Black to move when equal,
    /// White when Black has one more. Positions from move lists always are.
    pub fn counts_are_game_like(&self) -> bool {
        let black = self.cells.iter().filter(|&&c| c == BLACK).count();
        let white = self.stones - black;
        black == white || black == white + 1
    }

    /// Puts the side to move's stone on the empty point `p`.
    pub fn play(&mut self, p: Pos) {
        let i = self.cell_index(p);
        debug_assert_eq!(self.cells[i], EMPTY);
        let black = self.cells.iter().filter(|&&c| c == BLACK).count();
        let white = self.stones - black;
        self.cells[i] = if black <= white { BLACK } else { WHITE };
        self.stones += 1;
    }

    /// The empty points, row by row.
    pub fn empty_points(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
            .filter(|&p| self.is_empty(p))
    }

    /// Black's and White's points, row by row.
    pub fn stones_by_color(&self) -> (Vec<Pos>, Vec<Pos>) {
        let mut black = Vec::new();
        let mut white = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Pos::new(x, y);
                match self.cells[self.cell_index(p)] {
                    BLACK => black.push(p),
                    WHITE => white.push(p),
                    _ => {}
                }
            }
        }
        (black, white)
    }

    /// The cell string of the image of this position under `sym`.
    fn image(&self, sym: Symmetry) -> Vec<u8> {
        let mut out = vec![EMPTY; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Pos::new(x, y);
                let q = sym.apply(p, self.width, self.height);
                out[self.cell_index(q)] = self.cells[self.cell_index(p)];
            }
        }
        out
    }

    /// The canonical key and the symmetry that maps this position onto it (the first of the
    /// board's symmetries giving the smallest cell string).
    pub fn canonical(&self) -> (Key, Symmetry) {
        let mut best: Option<(Vec<u8>, Symmetry)> = None;
        for &sym in Symmetry::of_board(self.width, self.height) {
            let img = self.image(sym);
            if best.as_ref().is_none_or(|(b, _)| img < *b) {
                best = Some((img, sym));
            }
        }
        let (cells, sym) = best.unwrap_or((self.cells.clone(), Symmetry::IDENTITY));
        let key = Key {
            rule: self.rule.to_info(),
            width: self.width,
            height: self.height,
            cells,
        };
        (key, sym)
    }

    /// The canonical key of the position after playing `p`.
    pub fn child_key(&self, p: Pos) -> Key {
        let mut child = self.clone();
        child.play(p);
        child.canonical().0
    }

    /// Maps a point of this position to the canonical orientation (`sym` from
    /// [`DbPosition::canonical`]).
    pub fn to_canonical(&self, sym: Symmetry, p: Pos) -> Pos {
        sym.apply(p, self.width, self.height)
    }

    /// Maps a point of the canonical orientation back to this position's.
    pub fn from_canonical(&self, sym: Symmetry, p: Pos) -> Pos {
        sym.inverse().apply(p, self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &[(i64, i64)]) -> DbPosition {
        DbPosition::from_moves(Rule::FREESTYLE, 15, 15, moves).unwrap()
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let a = pos(&[(7, 7), (8, 7), (3, 4)]);
        let b = pos(&[(7, 7), (7, 8), (4, 3)]); // transposed
        let c = pos(&[(7, 7), (6, 7), (11, 4)]); // mirrored in x
        let d = pos(&[(3, 4), (8, 7), (7, 7)]); // same stones, other order
        let k = a.canonical().0;
        assert_eq!(b.canonical().0, k);
        assert_eq!(c.canonical().0, k);
        assert_eq!(d.canonical().0, k);
        let other = pos(&[(7, 7), (8, 8), (3, 4)]);
        assert_ne!(other.canonical().0, k);
    }

    #[test]
    fn colours_size_and_rule_are_part_of_the_key() {
        let a = pos(&[(7, 7), (8, 7)]);
        let swapped = pos(&[(8, 7), (7, 7)]);
        assert_ne!(a.canonical().0, swapped.canonical().0);
        let renju = DbPosition::from_moves(Rule::RENJU, 15, 15, &[(7, 7), (8, 7)]).unwrap();
        assert_ne!(a.canonical().0, renju.canonical().0);
        let big = DbPosition::from_moves(Rule::FREESTYLE, 20, 20, &[(7, 7), (8, 7)]).unwrap();
        assert_ne!(a.canonical().0, big.canonical().0);
    }

    #[test]
    fn rectangular_boards_use_four_symmetries() {
        let a = DbPosition::from_moves(Rule::FREESTYLE, 15, 10, &[(1, 2)]).unwrap();
        let mirrored = DbPosition::from_moves(Rule::FREESTYLE, 15, 10, &[(13, 7)]).unwrap();
        assert_eq!(a.canonical().0, mirrored.canonical().0);
        let transposed = DbPosition::from_moves(Rule::FREESTYLE, 15, 10, &[(2, 1)]).unwrap();
        assert_ne!(a.canonical().0, transposed.canonical().0);
    }

    #[test]
    fn points_map_to_canonical_and_back() {
        let a = pos(&[(2, 3), (9, 4)]);
        let (key, sym) = a.canonical();
        let canon = DbPosition::from_key(&key).unwrap();
        for p in a.empty_points() {
            let q = a.to_canonical(sym, p);
            assert!(canon.is_empty(q));
            assert_eq!(a.from_canonical(sym, q), p);
        }
        assert_eq!(a.child_key(Pos::new(5, 5)), {
            let mut c = a.clone();
            c.play(Pos::new(5, 5));
            c.canonical().0
        });
    }

    #[test]
    fn bad_moves_are_reported() {
        let e = DbPosition::from_moves(Rule::FREESTYLE, 15, 15, &[(7, 7), (7, 7)]);
        assert!(e.unwrap_err().contains("twice"));
        let e = DbPosition::from_moves(Rule::FREESTYLE, 15, 15, &[(15, 0)]);
        assert!(e.unwrap_err().contains("outside"));
        assert!(DbPosition::from_moves(Rule::FREESTYLE, 15, 15, &[(-1, 0)]).is_err());
    }
}
