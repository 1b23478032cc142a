//! The game position: stones, side to move, history, hash, win and legality checks.
//!
//! The public API here is the contract the protocol, search and arena code against.
//! The internals are a first, simple version; the incremental pattern board replaces them.

use crate::core::{Cell, Color, Pos, Rule, RuleKind, MAX_SIZE, MIN_SIZE};

/// The four line directions as (dx, dy): horizontal, vertical, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Why a board could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    BadSize { width: usize, height: usize },
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::BadSize { width, height } => write!(
                f,
                "unsupported board size {width}x{height} (each side must be {MIN_SIZE}..={MAX_SIZE})"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// A position on a `width × height` board under one rule.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    cells: Vec<Cell>,
    side: Color,
    history: Vec<(Pos, Color, Color)>,
    hash: u64,
    stones: usize,
    walls: usize,
}

fn zobrist(p: Pos, c: Color) -> u64 {
    // SplitMix64 of (index, colour): fixed keys, identical on every machine.
    let mut z = (p.index() as u64 * 2 + c.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const SIDE_KEY: u64 = 0x5851_F42D_4C95_7F2D;

impl Board {
    /// An empty board. Each side must be within 5..=32.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize { width, height });
        }
        Ok(Board {
            width,
            height,
            rule,
            cells: vec![Cell::Empty; Pos::COUNT],
            side: Color::Black,
            history: Vec::with_capacity(width * height),
            hash: 0,
            stones: 0,
            walls: 0,
        })
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// True when (x, y) lies on the board.
    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    /// The point (x, y) if it is on the board.
    pub fn pos(&self, x: i32, y: i32) -> Option<Pos> {
        self.contains(x, y)
            .then(|| Pos::new(x as usize, y as usize))
    }

    /// Contents of an on-board point.
    #[inline]
    pub fn cell(&self, p: Pos) -> Cell {
        self.cells[p.index()]
    }

    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == Cell::Empty
    }

    /// The colour to move next.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets the colour to move (after setting up a position stone by stone).
    pub fn set_side_to_move(&mut self, c: Color) {
        if c != self.side {
            self.hash ^= SIDE_KEY;
            self.side = c;
        }
    }

    /// Number of stones on the board (walls not counted).
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> usize {
        self.width * self.height - self.stones - self.walls
    }

    /// Stones in the order they were played, with their colours.
    pub fn history(&self) -> impl DoubleEndedIterator<Item = (Pos, Color)> + '_ {
        self.history.iter().map(|&(p, c, _)| (p, c))
    }

    /// The last stone played, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|h| h.0)
    }

    /// Zobrist hash of stones and side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Puts a wall on an empty cell (continuous games' field 3). Not undoable.
    pub fn put_wall(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p));
        self.cells[p.index()] = Cell::Wall;
        self.walls += 1;
    }

    /// Plays the side to move at empty point `p`.
    pub fn make_move(&mut self, p: Pos) {
        let c = self.side;
        self.make_move_as(p, c);
    }

    /// Plays a stone of colour `c` at empty point `p`; the other colour moves next.
    pub fn make_move_as(&mut self, p: Pos, c: Color) {
        debug_assert!(self.is_empty(p), "make_move on non-empty {p:?}");
        let prev_side = self.side;
        self.cells[p.index()] = Cell::Stone(c);
        self.history.push((p, c, prev_side));
        self.stones += 1;
        self.hash ^= zobrist(p, c);
        self.set_side_to_move(c.opp());
    }

    /// Takes back the last stone; the side to move is restored.
    pub fn undo(&mut self) {
        let (p, c, prev_side) = self.history.pop().expect("undo on empty history");
        self.cells[p.index()] = Cell::Empty;
        self.stones -= 1;
        self.hash ^= zobrist(p, c);
        self.set_side_to_move(prev_side);
    }

    /// Removes the stone at `p` wherever it is in the history (the protocol's TAKEBACK).
    /// Returns false if there is no stone there.
    pub fn remove_stone(&mut self, p: Pos) -> bool {
        let Some(i) = self.history.iter().rposition(|h| h.0 == p) else {
            return false;
        };
        let mut replay = Vec::new();
        while self.history.len() > i + 1 {
            let &(q, c, _) = self.history.last().unwrap();
            replay.push((q, c));
            self.undo();
        }
        self.undo();
        for &(q, c) in replay.iter().rev() {
            let side = self.side;
            self.make_move_as(q, c);
            self.set_side_to_move(side);
        }
        // After a takeback the side to move follows the stone counts.
        let (b, w) = self.count_colors();
        self.set_side_to_move(if b > w { Color::White } else { Color::Black });
        true
    }

    fn count_colors(&self) -> (usize, usize) {
        let b = self.history.iter().filter(|h| h.1 == Color::Black).count();
        (b, self.history.len() - b)
    }

    /// Length of the run of `c` through `p` in direction `d` if `c` stood at `p`.
    fn run_len(&self, p: Pos, c: Color, (dx, dy): (i32, i32)) -> (usize, i32, i32) {
        let (x, y) = (p.x() as i32, p.y() as i32);
        let mut n = 1;
        let mut fwd = 0;
        while self.contains(x + dx * (fwd + 1), y + dy * (fwd + 1))
            && self.cells
                [Pos::new((x + dx * (fwd + 1)) as usize, (y + dy * (fwd + 1)) as usize).index()]
                == Cell::Stone(c)
        {
            fwd += 1;
            n += 1;
        }
        let mut back = 0;
        while self.contains(x - dx * (back + 1), y - dy * (back + 1))
            && self.cells[Pos::new(
                (x - dx * (back + 1)) as usize,
                (y - dy * (back + 1)) as usize,
            )
            .index()]
                == Cell::Stone(c)
        {
            back += 1;
            n += 1;
        }
        (n, fwd, back)
    }

    /// True when the cell beyond a run end is an opponent stone (caro's block; edges do not block).
    fn blocked_by_opponent(&self, p: Pos, c: Color, (dx, dy): (i32, i32), steps: i32) -> bool {
        let (x, y) = (p.x() as i32 + dx * steps, p.y() as i32 + dy * steps);
        self.contains(x, y)
            && self.cells[Pos::new(x as usize, y as usize).index()] == Cell::Stone(c.opp())
    }

    /// Would colour `c` playing empty point `p` make a winning five under the rule?
    pub fn is_win_move(&self, p: Pos, c: Color) -> bool {
        for d in DIRECTIONS {
            let (n, fwd, back) = self.run_len(p, c, d);
            if n < 5 {
                continue;
            }
            let exact_only = match self.rule.kind {
                RuleKind::Freestyle | RuleKind::Caro => false,
                RuleKind::Standard | RuleKind::Caro5 => true,
                RuleKind::Renju => c == Color::Black,
            };
            if n > 5 && exact_only {
                continue;
            }
            if matches!(self.rule.kind, RuleKind::Caro | RuleKind::Caro5)
                && self.blocked_by_opponent(p, c, d, fwd + 1)
                && self.blocked_by_opponent(p, c, (-d.0, -d.1), back + 1)
            {
                continue;
            }
            return true;
        }
        false
    }

    /// Did the last stone played make a winning five? Returns its colour if so.
    pub fn last_move_won(&self) -> Option<Color> {
        let &(p, c, _) = self.history.last()?;
        // Check as if the stone were not there yet: run_len counts p itself.
        self.is_win_move(p, c).then_some(c)
    }

    /// Is empty point `p` forbidden to Black under the current rule? Always false outside renju.
    /// (First version: no forbidden points; the pattern board implements the exact renju test.)
    pub fn is_forbidden(&self, _p: Pos) -> bool {
        false
    }

    /// All points forbidden to Black now, in row-major order (empty outside renju).
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if !self.rule.is_renju() {
            return Vec::new();
        }
        self.empty_points()
            .filter(|&p| self.is_forbidden(p))
            .collect()
    }

    /// Every empty on-board point, row-major.
    pub fn empty_points(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
            .filter(move |&p| self.is_empty(p))
    }

    /// True when `p` is empty and the side to move may play it (not a forbidden point).
    pub fn is_legal(&self, p: Pos) -> bool {
        self.contains(p.x() as i32, p.y() as i32)
            && self.is_empty(p)
            && !(self.side == Color::Black && self.is_forbidden(p))
    }

    /// Legal moves for the side to move, row-major.
    pub fn legal_moves(&self) -> Vec<Pos> {
        self.empty_points().filter(|&p| self.is_legal(p)).collect()
    }

    /// Empty points within `radius` (Chebyshev) of any stone: the candidate area.
    pub fn is_candidate(&self, p: Pos, radius: i32) -> bool {
        let (x, y) = (p.x() as i32, p.y() as i32);
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                if self.contains(x + dx, y + dy)
                    && matches!(
                        self.cells[Pos::new((x + dx) as usize, (y + dy) as usize).index()],
                        Cell::Stone(_)
                    )
                {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_wins_per_rule() {
        let mut b = Board::new(15, 15, Rule::STANDARD).unwrap();
        for x in [2, 3, 4, 6, 7] {
            b.make_move_as(Pos::new(x, 7), Color::Black);
        }
        assert!(
            !b.is_win_move(Pos::new(5, 7), Color::Black),
            "overline is no win in standard"
        );
        let mut f = b.clone();
        f.rule = Rule::FREESTYLE;
        assert!(f.is_win_move(Pos::new(5, 7), Color::Black));
    }

    #[test]
    fn undo_restores_hash() {
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        let h0 = b.hash();
        b.make_move(Pos::new(7, 7));
        b.make_move(Pos::new(8, 8));
        b.undo();
        b.undo();
        assert_eq!(b.hash(), h0);
        assert_eq!(b.side_to_move(), Color::Black);
    }
}
