//! The game position: stones, side to move, history, hash, incremental line patterns,
//! candidate area, win detection and exact renju forbidden points; the questions the
//! searches ask about it (`queries.rs`) and its move generator (`movegen.rs`).
//!
//! Internals: a padded 1-D cell array (5 wall cells around the board, rows of stride
//! `width + 5` sharing their padding); per cell and direction one `u64` holding both
//! colours' keys of the 10 cells at offsets ±1..±5 (a move adds precomputed deltas to the 40
//! cells within reach); per cell both colours' pattern codes (read from the tables in
//! `pattern.rs`), combined codes and the cell value packed in one `u64`; per-colour counts;
//! a per-cell count of stones within the candidate radius; a Zobrist hash. A move records
//! the codes it changed and the counts before it, so undo restores instead of recomputing
//! (see `incr.rs`).

mod bench;
mod candidates;
pub mod debug;
mod features;
mod forbid;
mod fourthree;
mod incr;
mod movegen;
mod pattern;
mod queries;
mod random;
#[cfg(test)]
pub(crate) mod testutil;
mod values;

pub use bench::{bench_fixed_rounds, bench_move_undo};
pub use candidates::Candidates;
pub use movegen::GenKind;
pub(crate) use pattern::DOUBLE_FOUR as LINE_DOUBLE_FOUR;
pub use pattern::{Pattern, Pattern4};
pub use queries::{Threat, UNDEFENDED_THREAT_LOSS_PLIES};
pub use random::random_games;
pub use values::{
    pcode, pcode_class, pcode_codes, pcode_of_packed, pcode_patterns, CellValues, N_PCODES,
};

use crate::core::{Cell, Color, Pos, Rule, RuleKind, MAX_SIZE, MIN_SIZE};
use incr::{CellInfo, Counts, Played};
use pattern::{is_maybe33, LineRule, MAYBE33, MAYBE433, N_CODES4};
use std::cell::RefCell;
use std::sync::Arc;

/// The four line directions as (dx, dy): horizontal, vertical, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Chebyshev radius of the candidate area kept by the board.
pub const CANDIDATE_RADIUS: i32 = 2;

/// Padding cells around the board in the internal array.
const PAD: usize = 5;

/// Internal cell values.
const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// Why a point is forbidden to Black in renju.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more in a row.
    Overline,
    /// Two or more fours (in one line or several).
    DoubleFour,
    /// Two or more threes, by the recursive definition.
    DoubleThree,
}

/// Why a board could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// A side outside 5..=32.
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
    stride: usize,
    /// Direction offsets in the padded array, in [`DIRECTIONS`] order.
    dirs: [isize; 4],
    /// Padded cells: 0 empty, 1 black, 2 white, 3 wall/off-board.
    grid: Vec<u8>,
    /// Per padded cell: line keys, pattern codes and combined codes.
    info: Vec<CellInfo>,
    /// Per-colour pattern and combined-code counts over the empty cells.
    counts: Counts,
    /// Per padded cell: stones within [`CANDIDATE_RADIUS`].
    near: Vec<u8>,
    /// Pattern table of both colours, indexed by a colour's own-perspective key (White's
    /// keys carry the offset of its part, see [`pattern::rule_line_table`]).
    table: &'static [u8],
    /// Cells within this distance along a line are refreshed on a change (4 when the outer
    /// window cells never matter, i.e. both colours play freestyle fives).
    reach: isize,
    /// Packed key contribution `[cell value][slot]` (Black's | White's << 32).
    delta: [[u64; 10]; 4],
    /// Key change `[cell value][slot]` when an empty cell takes that value.
    place: [[u64; 10]; 4],
    /// Combination tables of both colours (see [`pattern::CombTable`]).
    comb: &'static pattern::CombTable,
    /// White's key offset into `table`, in the high half of every key.
    key_base: u64,
    side: Color,
    history: Vec<Played>,
    /// Codes changed by the moves in `history` (old values), for undo; live part
    /// `..nchanges`, the rest is spare room.
    changes: Vec<incr::Change>,
    nchanges: usize,
    /// Counts before each move in `history`, for undo.
    count_stack: Vec<Counts>,
    /// Per-cell value table (see [`values`]), summed over the empty cells into `value`.
    values: Arc<CellValues>,
    /// Whether `values` is other than the all-zero table (only then is `value` maintained).
    values_on: bool,
    /// Black's minus White's cell values over the empty cells.
    value: i32,
    /// `value` before each move in `history`, for undo and for the previous ply's value.
    value_stack: Vec<i32>,
    hash: u64,
    stones: usize,
    walls: usize,
    /// Bumped by every change of the grid; names the position the memo below describes.
    epoch: u64,
    /// The exact renju verdicts on Black's possible 3-3 cells for position `epoch`.
    memo: RefCell<Maybe33Memo>,
    /// The network whose features `features` keeps, if any.
    net: Option<Arc<crate::net::Network>>,
    /// The network's per-cell features, brought up to date when read (`features.rs`).
    features: RefCell<features::Features>,
    /// The network whose policy orders moves, if any: `net` itself when its policy reads the
    /// position's context, else any network, read straight from the line keys.
    policy_net: Option<Arc<crate::net::Network>>,
}

/// Per-position memo of the exact renju test: every empty cell whose Black class is
/// [`MAYBE33`], its resolved class, and the class counts they add. Built on first demand
/// after a change, so a search node runs the recursive test at most once per such cell.
#[derive(Clone, Default)]
struct Maybe33Memo {
    /// The board epoch this memo is valid for (`u64::MAX`: none).
    epoch: u64,
    /// (padded index, resolved `Pattern4` code) of each possible 3-3 cell.
    cells: Vec<(u32, u8)>,
    /// Resolved class counts of those cells.
    counts: [u16; N_CODES4],
    /// Reused scratch grid for the recursive test.
    scratch: Vec<u8>,
}

fn zobrist(p: Pos, c: Color) -> u64 {
    // SplitMix64 of (index, colour): fixed keys, identical on every machine.
    let mut z = (p.index() as u64 * 2 + c.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const SIDE_KEY: u64 = 0x5851_F42D_4C95_7F2D;

#[inline]
fn color_value(c: Color) -> u8 {
    c.index() as u8 + 1
}

impl Board {
    /// An empty board. Each side must be within 5..=32.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize { width, height });
        }
        let stride = width + PAD;
        let len = stride * (height + 2 * PAD + 1);
        let s = stride as isize;
        let grid = padded_grid(width, height);
        let (table, white_offset) = pattern::rule_line_table(rule.kind);
        let free = rule.kind == RuleKind::Freestyle;
        let (delta, place) = key_deltas(rule.kind);
        let comb = pattern::comb_tables();
        let renju = rule.kind == RuleKind::Renju;
        let mut b = Board {
            width,
            height,
            rule,
            stride,
            dirs: [1, s, s + 1, 1 - s],
            grid,
            info: vec![CellInfo::default(); len],
            counts: Counts::ZERO,
            near: vec![0; len],
            table,
            reach: if free { 4 } else { 5 },
            delta,
            place,
            comb: if renju { &comb[1] } else { &comb[0] },
            key_base: u64::from(white_offset) << 32,
            side: Color::Black,
            history: Vec::with_capacity(width * height),
            changes: Vec::new(),
            nchanges: 0,
            count_stack: Vec::with_capacity((width * height).min(128)),
            values: CellValues::zero(),
            values_on: false,
            value: 0,
            value_stack: Vec::with_capacity((width * height).min(128)),
            hash: 0,
            stones: 0,
            walls: 0,
            epoch: 0,
            memo: RefCell::new(Maybe33Memo {
                epoch: u64::MAX,
                ..Default::default()
            }),
            net: None,
            features: RefCell::default(),
            policy_net: None,
        };
        b.rebuild();
        Ok(b)
    }

    /// Padded index of an on-board point.
    #[inline]
    fn idx(&self, p: Pos) -> usize {
        (p.y() + PAD) * self.stride + p.x() + PAD
    }

    /// The point of an on-board padded index.
    #[inline]
    fn pos_of(&self, i: usize) -> Pos {
        Pos::new(i % self.stride - PAD, i / self.stride - PAD)
    }

    #[inline]
    fn on_board(&self, p: Pos) -> bool {
        !p.is_none() && p.x() < self.width && p.y() < self.height
    }

    /// Board width (columns).
    pub fn width(&self) -> usize {
        self.width
    }
    /// Board height (rows).
    pub fn height(&self) -> usize {
        self.height
    }
    /// The rule in force.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// How far along a line a stone can change an empty cell's per-direction pattern codes
    /// (4 when both colours play freestyle fives, else 5). A stone farther away, or off the
    /// cell's lines, leaves its codes as they were.
    pub fn line_reach(&self) -> i32 {
        self.reach as i32
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

    /// Contents of a point; off-board points read as [`Cell::Wall`].
    #[inline]
    pub fn cell(&self, p: Pos) -> Cell {
        if !self.on_board(p) {
            return Cell::Wall;
        }
        match self.grid[self.idx(p)] {
            0 => Cell::Empty,
            1 => Cell::Stone(Color::Black),
            2 => Cell::Stone(Color::White),
            _ => Cell::Wall,
        }
    }

    /// True for an empty on-board point.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.on_board(p) && self.grid[self.idx(p)] == EMPTY
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
        self.history.iter().map(|h| (h.pos, h.color))
    }

    /// The last stone played, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|h| h.pos)
    }

    /// Zobrist hash of stones and side to move (walls are not hashed).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash the board would have after the side to move plays `p` (no move is made).
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash ^ zobrist(p, self.side) ^ SIDE_KEY
    }

    /// Puts a wall on an empty cell (continuous games' field 3). Not undoable. Ignored on a
    /// non-empty or off-board point.
    pub fn put_wall(&mut self, p: Pos) {
        if !self.is_empty(p) {
            log::warn!("put_wall on a non-empty or off-board point {p:?}");
            return;
        }
        let i = self.idx(p);
        self.place_wall(i);
        self.walls += 1;
    }

    /// Plays the side to move at empty point `p`.
    pub fn make_move(&mut self, p: Pos) {
        let c = self.side;
        self.make_move_as(p, c);
    }

    /// Plays a stone of colour `c` at empty point `p`; the other colour moves next.
    /// Ignored (with a warning) if `p` is not an empty on-board point.
    pub fn make_move_as(&mut self, p: Pos, c: Color) {
        if !self.is_empty(p) {
            debug_assert!(false, "make_move on non-empty {p:?}");
            log::warn!("make_move on a non-empty or off-board point {p:?}");
            return;
        }
        let prev_side = self.side;
        let i = self.idx(p);
        let rec = self.place_stone(i, color_value(c));
        self.history.push(Board::played(p, c, prev_side, rec));
        self.stones += 1;
        self.hash ^= zobrist(p, c);
        self.set_side_to_move(c.opp());
    }

    /// Takes back the last stone; the side to move is restored. No-op on an empty history.
    pub fn undo(&mut self) {
        let Some(h) = self.history.pop() else {
            return;
        };
        let (p, c, prev_side) = (h.pos, h.color, h.prev_side);
        let i = self.idx(p);
        self.remove_stone_at(i, color_value(c), &h);
        self.stones -= 1;
        self.hash ^= zobrist(p, c);
        self.set_side_to_move(prev_side);
    }

    /// Removes the stone at `p` wherever it is in the history (the protocol's TAKEBACK).
    /// Returns false if there is no stone there.
    pub fn remove_stone(&mut self, p: Pos) -> bool {
        let Some(i) = self.history.iter().rposition(|h| h.pos == p) else {
            return false;
        };
        let mut replay = Vec::new();
        while self.history.len() > i + 1 {
            if let Some(h) = self.history.last() {
                replay.push((h.pos, h.color));
            }
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
        let b = self
            .history
            .iter()
            .filter(|h| h.color == Color::Black)
            .count();
        (b, self.history.len() - b)
    }

    /// Would colour `c` playing point `p` make a winning five under the rule? (The stone at
    /// `p`, if any, is ignored: this also judges the last move played.) False off the board.
    pub fn is_win_move(&self, p: Pos, c: Color) -> bool {
        if !self.on_board(p) {
            return false;
        }
        let k = self.info[self.idx(p)].keys;
        k.iter()
            .any(|&key| self.code(c.index(), key) == Pattern::Five as u8)
    }

    /// Did the last stone played make a winning five? Returns its colour if so.
    pub fn last_move_won(&self) -> Option<Color> {
        let h = self.history.last()?;
        let (p, c) = (h.pos, h.color);
        self.is_win_move(p, c).then_some(c)
    }

    /// Is empty point `p` forbidden to Black under the current rule (overline, 4-4, or 3-3
    /// with the exact recursive test of docs/rules.md)? Always false outside renju and for
    /// non-empty or off-board points. Whoever is to move, this judges Black.
    pub fn is_forbidden(&self, p: Pos) -> bool {
        if !self.rule.is_renju() || !self.is_empty(p) {
            return false;
        }
        let i = self.idx(p);
        match self.info[i].pat4()[0] {
            c if c == Pattern4::Forbid as u8 => true,
            c if is_maybe33(c) => self.resolved_maybe33(i) == Pattern4::Forbid,
            _ => false,
        }
    }

    /// Why empty point `p` is forbidden to Black, or `None` when it is not (see
    /// [`Board::is_forbidden`]). Overline takes precedence over 4-4, 4-4 over 3-3.
    pub fn forbidden_kind(&self, p: Pos) -> Option<Forbidden> {
        if !self.is_forbidden(p) {
            return None;
        }
        let codes = self.info[self.idx(p)].codes(0);
        let fours: u32 = codes
            .iter()
            .map(|&c| match c {
                pattern::DOUBLE_FOUR => 2,
                c if c == Pattern::Block4 as u8 || c == Pattern::Flex4 as u8 => 1,
                _ => 0,
            })
            .sum();
        Some(if codes.contains(&(Pattern::Overline as u8)) {
            Forbidden::Overline
        } else if fours >= 2 {
            Forbidden::DoubleFour
        } else {
            Forbidden::DoubleThree
        })
    }

    /// The exact recursive procedure on a scratch copy of the cells (no fast path).
    fn forbidden_exact_index(&self, i: usize) -> bool {
        let mut grid = self.grid.clone();
        let mut s = forbid::Scratch {
            grid: &mut grid,
            dirs: self.dirs,
        };
        s.forbidden(i)
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
        self.is_empty(p) && !(self.side == Color::Black && self.is_forbidden(p))
    }

    /// Legal moves for the side to move, row-major.
    pub fn legal_moves(&self) -> Vec<Pos> {
        self.empty_points().filter(|&p| self.is_legal(p)).collect()
    }

    /// True when some stone lies within `radius` (Chebyshev) of `p`.
    pub fn is_candidate(&self, p: Pos, radius: i32) -> bool {
        let (x, y) = (p.x() as i32, p.y() as i32);
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                if let Some(q) = self.pos(x + dx, y + dy) {
                    if matches!(self.cell(q), Cell::Stone(_)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The empty point nearest the centre (the candidate area of a board without stones).
    fn central_empty(&self) -> Option<Pos> {
        let (cx, cy) = ((self.width as i32 - 1) / 2, (self.height as i32 - 1) / 2);
        self.empty_points().min_by_key(|p| {
            let (dx, dy) = (p.x() as i32 - cx, p.y() as i32 - cy);
            (dx * dx + dy * dy, p.y(), p.x())
        })
    }

    /// Is `p` an empty cell of the candidate area: within [`CANDIDATE_RADIUS`] (Chebyshev)
    /// of a stone, or, on a board without stones, the empty point nearest the centre?
    pub fn in_candidate_area(&self, p: Pos) -> bool {
        if !self.is_empty(p) {
            return false;
        }
        if self.stones == 0 {
            return self.central_empty() == Some(p);
        }
        self.near[self.idx(p)] > 0
    }

    /// Is `p` an empty on-board point within the candidate radius of a stone? (False on an
    /// empty board, unlike [`Board::in_candidate_area`].)
    #[inline]
    pub fn is_candidate_point(&self, p: Pos) -> bool {
        if !self.contains(p.x() as i32, p.y() as i32) {
            return false;
        }
        let i = self.idx(p);
        self.stones > 0 && self.grid[i] == EMPTY && self.near[i] > 0
    }

    /// The pattern colour `c` would make in direction `dir` (index into [`DIRECTIONS`]) by
    /// playing empty point `p`. [`Pattern::Dead`] for non-empty points or `dir > 3`.
    #[inline]
    pub fn pattern(&self, p: Pos, c: Color, dir: usize) -> Pattern {
        if !self.is_empty(p) || dir > 3 {
            return Pattern::Dead;
        }
        Pattern::from_code(self.info[self.idx(p)].codes(c.index())[dir])
    }

    /// The four directions of empty point `p` combined for colour `c` (see [`Pattern4`]).
    /// For renju Black, `Forbid` exactly when [`Board::is_forbidden`]. `None` for non-empty.
    #[inline]
    pub fn pattern4(&self, p: Pos, c: Color) -> Pattern4 {
        if !self.is_empty(p) {
            return Pattern4::None;
        }
        self.resolve4(self.idx(p), c.index())
    }

    /// [`Board::pattern4`] of both colours at once, indexed by colour index (one lookup).
    #[inline]
    pub fn pattern4_pair(&self, p: Pos) -> [Pattern4; 2] {
        if !self.on_board(p) {
            return [Pattern4::None; 2];
        }
        let i = self.idx(p);
        if self.grid[i] != EMPTY {
            return [Pattern4::None; 2];
        }
        [self.resolve4(i, 0), self.resolve4(i, 1)]
    }

    /// As [`Board::pattern4`] when the class is a four or five (`Block4` and above); otherwise
    /// some class below `Block4`, not necessarily the exact one: a renju 3-3 candidate that
    /// holds no four is not put through the exact test. For threat searches over fours.
    #[inline]
    pub fn four_class(&self, p: Pos, c: Color) -> Pattern4 {
        if !self.is_empty(p) {
            return Pattern4::None;
        }
        let i = self.idx(p);
        if self.info[i].pat4()[c.index()] == MAYBE33 {
            return Pattern4::None;
        }
        self.resolve4(i, c.index())
    }

    /// Resolves the internal combined code of empty cell `i` for colour index `c`.
    #[inline]
    fn resolve4(&self, i: usize, c: usize) -> Pattern4 {
        let code = self.info[i].pat4()[c];
        if is_maybe33(code) {
            self.resolved_maybe33(i)
        } else {
            Pattern4::from_code(code)
        }
    }

    /// The exact class of possible 3-3 cell `i` (memoized per position).
    #[cold]
    fn resolved_maybe33(&self, i: usize) -> Pattern4 {
        self.refresh_memo();
        let memo = self.memo.borrow();
        match memo.cells.iter().find(|&&(j, _)| j as usize == i) {
            Some(&(_, code)) => Pattern4::from_code(code),
            None => self.resolve_exact(i, &mut self.grid.clone()),
        }
    }

    /// Runs the exact renju test on possible 3-3 cell `i` using `scratch` (a copy of the grid).
    fn resolve_exact(&self, i: usize, scratch: &mut [u8]) -> Pattern4 {
        let mut s = forbid::Scratch {
            grid: scratch,
            dirs: self.dirs,
        };
        // A 3-3 candidate's code already rules out a five, an overline and two fours, and
        // a three can only lie in a direction whose line code is an open three or better.
        let codes = self.info[i].codes(0);
        let three_dirs = (0..4).fold(0u8, |m, d| {
            m | u8::from(Pattern::from_code(codes[d]) >= Pattern::Flex3) << d
        });
        if s.forbidden_33(i, three_dirs) {
            Pattern4::Forbid
        } else {
            pattern::combine_legal(self.info[i].codes(0))
        }
    }

    /// Rebuilds the possible 3-3 memo if the position changed since it was built.
    fn refresh_memo(&self) {
        if self.memo.borrow().epoch == self.epoch {
            return;
        }
        let mut memo = self.memo.borrow_mut();
        let memo = &mut *memo;
        memo.epoch = self.epoch;
        memo.cells.clear();
        memo.counts = [0; N_CODES4];
        let mut left =
            self.counts.pat4(0, MAYBE33 as usize) + self.counts.pat4(0, MAYBE433 as usize);
        if left == 0 {
            return;
        }
        memo.scratch.clear();
        memo.scratch.extend_from_slice(&self.grid);
        // A three through a cell has a black stone within two cells on its line, so every
        // 3-3 candidate lies in the candidate area. The count says how many cells to find:
        // stop at the last one.
        for p in self.candidates() {
            let i = self.idx(p);
            let code = self.info[i].pat4()[0];
            if is_maybe33(code) {
                let p4 = self.resolve_exact(i, &mut memo.scratch);
                debug_assert!(pattern::maybe33_outcomes(code) >> p4 as u16 & 1 != 0);
                memo.cells.push((i as u32, p4 as u8));
                memo.counts[p4 as usize] += 1;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        debug_assert_eq!(left, 0, "a 3-3 candidate outside the candidate area");
    }

    /// Number of (empty cell, direction) pairs where colour `c` has pattern `pat`.
    pub fn pattern_count(&self, c: Color, pat: Pattern) -> u32 {
        let n = |code: usize| u32::from(self.counts.pat(c.index(), code));
        match pat {
            Pattern::Flex4 => n(Pattern::Flex4 as usize) + n(pattern::DOUBLE_FOUR as usize),
            p => n(p as usize),
        }
    }

    /// Number of empty cells where colour `c` has combined class `pat`. Exact for renju
    /// Black (cells needing the recursive 3-3 test are resolved on demand).
    pub fn pattern4_count(&self, c: Color, pat: Pattern4) -> u32 {
        let mut total = u32::from(self.counts.pat4(c.index(), pat as usize));
        // Only the 3-3 candidates that may resolve to `pat` need the exact test; most
        // questions (fives, plain fours) need none.
        let sources = pattern::MAYBE33_SOURCES[pat as usize];
        if (sources & 1 != 0 && self.counts.pat4(c.index(), MAYBE33 as usize) > 0)
            || (sources & 2 != 0 && self.counts.pat4(c.index(), MAYBE433 as usize) > 0)
        {
            self.refresh_memo();
            total += u32::from(self.memo.borrow().counts[pat as usize]);
        }
        total
    }

    /// Every count at once, as [`Board::pattern_count`] and [`Board::pattern4_count`] start
    /// from: index `16 c + code` counts the (empty cell, direction) pairs of colour index `c`
    /// with per-direction code `code` (a [`Pattern`], or the internal double-four code, which
    /// `pattern_count` counts as an open four), and `32 + 16 c + code` the empty cells with
    /// combined code `code` (a [`Pattern4`], or one of Black's renju 3-3 candidates, which
    /// [`Board::resolved_33_counts`] resolves). The evaluation reads them in one pass.
    #[inline]
    pub fn raw_counts(&self) -> [u16; 64] {
        self.counts.totals()
    }

    /// Black's renju 3-3 candidates resolved by the exact test, counted by [`Pattern4`]; `None`
    /// when Black has none (always outside renju). [`Board::pattern4_count`] of Black is the
    /// raw count plus these. `raw` is this board's [`Board::raw_counts`], which the caller
    /// already holds: the candidates' counts are read from it instead of summed again.
    pub fn resolved_33_counts(&self, raw: &[u16; 64]) -> Option<[u16; N_CODES4]> {
        debug_assert_eq!(*raw, self.raw_counts());
        let combined = |c: usize, code: u8| raw[32 + 16 * c + code as usize];
        debug_assert!(combined(1, MAYBE33) == 0 && combined(1, MAYBE433) == 0);
        if combined(0, MAYBE33) == 0 && combined(0, MAYBE433) == 0 {
            return None;
        }
        self.refresh_memo();
        Some(self.memo.borrow().counts)
    }

    /// Installs a per-cell value table (see [`CellValues`]): the value sum and the sums kept
    /// for earlier plies are recomputed (by taking the moves back and replaying them).
    pub fn set_cell_values(&mut self, values: Arc<CellValues>) {
        if Arc::ptr_eq(&self.values, &values) {
            return;
        }
        let moves: Vec<(Pos, Color)> = self.history().collect();
        let side = self.side;
        for _ in 0..moves.len() {
            self.undo();
        }
        self.values_on = !Arc::ptr_eq(&values, &CellValues::zero());
        self.values = values;
        self.rebuild();
        for &(p, c) in &moves {
            self.make_move_as(p, c);
        }
        self.set_side_to_move(side);
    }

    /// The installed per-cell value table.
    pub fn cell_values(&self) -> &Arc<CellValues> {
        &self.values
    }

    /// Black's minus White's cell values summed over the empty cells.
    #[inline]
    pub fn value_black(&self) -> i32 {
        self.value
    }

    /// [`Board::value_black`] before the last move (the current value on an empty history).
    #[inline]
    pub fn value_black_before_last(&self) -> i32 {
        self.value_stack.last().copied().unwrap_or(self.value)
    }

    /// The pattern codes of empty point `p` for Black and White.
    #[inline]
    pub fn cell_pcodes(&self, p: Pos) -> [usize; 2] {
        let pats = self.info[self.idx(p)].pats();
        [
            pcode_of_packed(pats as u16),
            pcode_of_packed((pats >> 16) as u16),
        ]
    }

    /// Calls `f(colour, pcode)` for both colours of every empty on-board cell (a scan, for
    /// training and checks).
    pub fn for_each_empty_pcode(&self, mut f: impl FnMut(Color, usize)) {
        for i in 0..self.grid.len() {
            if self.grid[i] == EMPTY && self.on_board_index(i) {
                let pats = self.info[i].pats();
                f(Color::Black, pcode_of_packed(pats as u16));
                f(Color::White, pcode_of_packed((pats >> 16) as u16));
            }
        }
    }

    /// Does colour `c` have any cell of class at least `pat`? (Cheap: reads the counts;
    /// `Forbid` and the classes of unresolved renju 3-3 candidates count as present.)
    pub fn has_pattern4_at_least(&self, c: Color, pat: Pattern4) -> bool {
        (pat as usize..N_CODES4).any(|k| self.counts.pat4(c.index(), k) > 0)
    }
}

/// The padded cell grid of an empty `width` × `height` board: [`EMPTY`] on the board,
/// [`WALL`] in the padding round it.
fn padded_grid(width: usize, height: usize) -> Vec<u8> {
    let stride = width + PAD;
    let mut grid = vec![WALL; stride * (height + 2 * PAD + 1)];
    for y in 0..height {
        for x in 0..width {
            grid[(y + PAD) * stride + x + PAD] = EMPTY;
        }
    }
    grid
}

/// The line keys' terms for a rule: `delta[v][j]` is what a cell of value `v` (0 empty,
/// 1 Black, 2 White, 3 wall) adds at window slot `j` to both colours' keys (Black's in the
/// low 32 bits, White's in the high), and `place[v][j]` what turning an empty cell into `v`
/// adds.
fn key_deltas(kind: RuleKind) -> ([[u64; 10]; 4], [[u64; 10]; 4]) {
    let base = pattern::line_tables(LineRule::of(kind, Color::Black)).base;
    let free = kind == RuleKind::Freestyle;
    let mut delta = [[0u64; 10]; 4];
    for (v, dv) in delta.iter_mut().enumerate() {
        for (j, d) in dv.iter_mut().enumerate() {
            // Freestyle keys leave out the outer cells, which never matter there.
            if free && (j == 0 || j == 9) {
                continue;
            }
            for c in 0..2 {
                // The cell's state for colour c: 0 empty, 1 own, 2 opponent's, base - 1 wall.
                let state = match v {
                    0 => 0,
                    1 | 2 if v - 1 == c => 1,
                    1 | 2 => 2,
                    _ => base - 1,
                };
                *d += ((state * base.pow(j as u32)) as u64) << (32 * c);
            }
        }
    }
    let place = delta.map(|dv| {
        let mut out = [0u64; 10];
        for (j, o) in out.iter_mut().enumerate() {
            *o = dv[j].wrapping_sub(delta[EMPTY as usize][j]);
        }
        out
    });
    (delta, place)
}

#[cfg(test)]
mod tests;
