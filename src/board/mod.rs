//! The game position: stones, side to move, history, hash, incremental line patterns,
//! candidate area, win detection and exact renju forbidden points.
//!
//! Internals: a padded 1-D cell array (5 wall cells around the board, rows of stride
//! `width + 5` sharing their padding), per cell and direction a 20-bit key of the 10 cells
//! at offsets ±1..±5 (updated on every move/undo for the 40 cells within reach), per-colour
//! pattern codes read from the tables in [`pattern`], a per-cell combination, per-colour
//! counts, a per-cell count of stones within the candidate radius, and a Zobrist hash.

mod bench;
pub mod debug;
mod forbid;
mod pattern;

pub use bench::bench_move_undo;
pub use pattern::{Pattern, Pattern4};

use crate::core::{Cell, Color, Pos, Rule, RuleKind, MAX_SIZE, MIN_SIZE};
use pattern::{LineRule, MAYBE33, N_CODES, N_CODES4};

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
    /// Per colour: (empty cell, direction) pairs per internal pattern code.
    pcount: [[u32; N_CODES]; 2],
    /// Per colour: empty cells per internal combined code.
    p4count: [[u32; N_CODES4]; 2],
    /// Per padded cell: stones within [`CANDIDATE_RADIUS`].
    near: Vec<u8>,
    /// Pattern table per colour, indexed by that colour's own-perspective key.
    tables: [&'static [u8]; 2],
    /// Cells within this distance along a line are refreshed on a change (4 when the outer
    /// window cells never matter, i.e. both colours play freestyle fives).
    reach: isize,
    /// Key change `[perspective colour][cell value][slot]` for a cell value appearing.
    delta: [[[u32; 10]; 4]; 2],
    /// Combination table per colour.
    comb: [&'static [u8]; 2],
    side: Color,
    history: Vec<(Pos, Color, Color)>,
    hash: u64,
    stones: usize,
    walls: usize,
}

/// The incremental state of one padded cell.
#[derive(Clone, Copy, Default)]
struct CellInfo {
    /// `[colour][direction]`: the own-perspective line key (centre excluded), see
    /// [`pattern::LineTables`].
    keys: [[u32; 4]; 2],
    /// `[colour][direction]`: internal pattern codes (valid for empty cells).
    pats: [[u8; 4]; 2],
    /// Per colour: internal combined code (valid for empty cells).
    pat4: [u8; 2],
}

fn zobrist(p: Pos, c: Color) -> u64 {
    // SplitMix64 of (index, colour): fixed keys, identical on every machine.
    let mut z = (p.index() as u64 * 2 + c.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const SIDE_KEY: u64 = 0x5851_F42D_4C95_7F2D;

/// Key slot of the cell at offset `o` (±1..±5) from the centre.
#[inline]
const fn slot(o: isize) -> u32 {
    if o < 0 {
        (o + 5) as u32
    } else {
        (o + 4) as u32
    }
}

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
        let mut grid = vec![WALL; len];
        for y in 0..height {
            for x in 0..width {
                grid[(y + PAD) * stride + x + PAD] = EMPTY;
            }
        }
        let lt = [
            pattern::line_tables(LineRule::of(rule.kind, Color::Black)),
            pattern::line_tables(LineRule::of(rule.kind, Color::White)),
        ];
        let base = lt[0].base;
        let free = rule.kind == RuleKind::Freestyle;
        let mut delta = [[[0u32; 10]; 4]; 2];
        for (c, dc) in delta.iter_mut().enumerate() {
            for (v, dv) in dc.iter_mut().enumerate() {
                // State of cell value v (0 empty, 1 black, 2 white, 3 wall) for colour c.
                let state = match v {
                    0 => 0,
                    1 | 2 if v - 1 == c => 1,
                    1 | 2 => 2,
                    _ => base - 1,
                };
                for (j, d) in dv.iter_mut().enumerate() {
                    // Freestyle keys leave out the outer cells, which never matter there.
                    let outer = j == 0 || j == 9;
                    *d = if free && outer {
                        0
                    } else {
                        state * base.pow(j as u32)
                    };
                }
            }
        }
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
            pcount: [[0; N_CODES]; 2],
            p4count: [[0; N_CODES4]; 2],
            near: vec![0; len],
            tables: [&lt[0].tab, &lt[1].tab],
            reach: if free { 4 } else { 5 },
            delta,
            comb: [if renju { &comb[1] } else { &comb[0] }, &comb[0]],
            side: Color::Black,
            history: Vec::with_capacity(width * height),
            hash: 0,
            stones: 0,
            walls: 0,
        };
        b.rebuild();
        Ok(b)
    }

    /// Recomputes every incremental structure from the cells (setup and reference use).
    fn rebuild(&mut self) {
        for i in 0..self.grid.len() {
            self.info[i].keys = if self.on_board_index(i) {
                self.scratch_keys(i)
            } else {
                [[0; 4]; 2]
            };
        }
        self.pcount = [[0; N_CODES]; 2];
        self.p4count = [[0; N_CODES4]; 2];
        for i in 0..self.grid.len() {
            if self.grid[i] == EMPTY {
                self.refresh_cell(i);
                self.add_counts(i, 1);
            }
        }
        for i in 0..self.grid.len() {
            self.near[i] = if self.on_board_index(i) {
                self.scratch_near(i)
            } else {
                0
            };
        }
    }

    /// Is padded index `i` an on-board cell?
    #[inline]
    fn on_board_index(&self, i: usize) -> bool {
        let r = i / self.stride;
        let x = i % self.stride;
        r >= PAD && r < PAD + self.height && x >= PAD && x < PAD + self.width
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

    /// Line keys of padded index `i` computed from the cells.
    fn scratch_keys(&self, i: usize) -> [[u32; 4]; 2] {
        let mut k = [[0u32; 4]; 2];
        for (d, &off) in self.dirs.iter().enumerate() {
            for o in (-5..=5isize).filter(|&o| o != 0) {
                let v = self.grid[(i as isize + o * off) as usize] as usize;
                for (c, kc) in k.iter_mut().enumerate() {
                    kc[d] += self.delta[c][v][slot(o) as usize];
                }
            }
        }
        k
    }

    fn scratch_near(&self, i: usize) -> u8 {
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

    /// Internal pattern code of colour `c` for key `key`.
    #[inline]
    fn code(&self, c: usize, key: u32) -> u8 {
        self.tables[c][key as usize]
    }

    /// Recomputes the pattern and combined codes of cell `i` from its keys.
    #[inline]
    fn refresh_cell(&mut self, i: usize) {
        let keys = self.info[i].keys;
        for (c, k) in keys.iter().enumerate() {
            let codes = [
                self.code(c, k[0]),
                self.code(c, k[1]),
                self.code(c, k[2]),
                self.code(c, k[3]),
            ];
            self.info[i].pats[c] = codes;
            self.info[i].pat4[c] = self.comb[c][pattern::comb_index(codes)];
        }
    }

    /// Adds (`sign` = 1) or removes (`sign` = u32::MAX, i.e. −1) cell `i`'s counts.
    #[inline]
    fn add_counts(&mut self, i: usize, sign: u32) {
        for c in 0..2 {
            for d in 0..4 {
                let code = self.info[i].pats[c][d] as usize;
                self.pcount[c][code] = self.pcount[c][code].wrapping_add(sign);
            }
            let code4 = self.info[i].pat4[c] as usize;
            self.p4count[c][code4] = self.p4count[c][code4].wrapping_add(sign);
        }
    }

    /// Changes cell `i` from `old` to `new` and refreshes everything within reach.
    fn set_cell(&mut self, i: usize, old: u8, new: u8) {
        if old == EMPTY {
            self.add_counts(i, u32::MAX);
        }
        self.grid[i] = new;
        // Key change per colour and slot.
        let mut dk = [[0u32; 10]; 2];
        for (c, dkc) in dk.iter_mut().enumerate() {
            for (sl, v) in dkc.iter_mut().enumerate() {
                *v = self.delta[c][new as usize][sl].wrapping_sub(self.delta[c][old as usize][sl]);
            }
        }
        let reach = self.reach;
        let len = self.grid.len();
        assert!(self.info.len() == len);
        let grid = &self.grid[..];
        let info = &mut self.info[..];
        let tables = self.tables;
        let comb = self.comb;
        let pcount = &mut self.pcount;
        let p4count = &mut self.p4count;
        for d in 0..4 {
            let off = self.dirs[d];
            for k in 1..=reach {
                for (q, sl) in [
                    (i as isize - k * off, slot(k) as usize),
                    (i as isize + k * off, slot(-k) as usize),
                ] {
                    let q = q as usize;
                    // Every cell within 5 of an on-board cell lies in the padded array.
                    debug_assert!(q < len);
                    // SAFETY: q < len (padding of 5 around the board, reach ≤ 5).
                    let cell = unsafe { info.get_unchecked_mut(q) };
                    cell.keys[0][d] = cell.keys[0][d].wrapping_add(dk[0][sl]);
                    cell.keys[1][d] = cell.keys[1][d].wrapping_add(dk[1][sl]);
                    // SAFETY: as above.
                    if unsafe { *grid.get_unchecked(q) } != EMPTY {
                        continue;
                    }
                    for c in 0..2 {
                        let key = cell.keys[c][d] as usize;
                        debug_assert!(key < tables[c].len());
                        // SAFETY: keys of on-board cells stay below base^10 = table length.
                        let new = unsafe { *tables[c].get_unchecked(key) };
                        let old = cell.pats[c][d];
                        if new != old {
                            pcount[c][old as usize] -= 1;
                            pcount[c][new as usize] += 1;
                            cell.pats[c][d] = new;
                            let ix = pattern::comb_index(cell.pats[c]);
                            // SAFETY: four 4-bit codes index a 65536-entry table.
                            let new4 = unsafe { *comb[c].get_unchecked(ix) };
                            let old4 = cell.pat4[c];
                            if new4 != old4 {
                                cell.pat4[c] = new4;
                                p4count[c][old4 as usize] -= 1;
                                p4count[c][new4 as usize] += 1;
                            }
                        }
                    }
                }
            }
        }
        if new == EMPTY {
            self.refresh_cell(i);
            self.add_counts(i, 1);
        }
        let is_stone = |v: u8| v == 1 || v == 2;
        if is_stone(old) != is_stone(new) {
            let r = CANDIDATE_RADIUS as isize;
            let s = self.stride as isize;
            let inc: u8 = if is_stone(new) { 1 } else { u8::MAX };
            for dy in -r..=r {
                let row = (i as isize + dy * s) as usize;
                for n in &mut self.near[row - r as usize..=row + r as usize] {
                    *n = n.wrapping_add(inc);
                }
            }
        }
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
        self.history.iter().map(|&(p, c, _)| (p, c))
    }

    /// The last stone played, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|h| h.0)
    }

    /// Zobrist hash of stones and side to move (walls are not hashed).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Puts a wall on an empty cell (continuous games' field 3). Not undoable. Ignored on a
    /// non-empty or off-board point.
    pub fn put_wall(&mut self, p: Pos) {
        if !self.is_empty(p) {
            log::warn!("put_wall on a non-empty or off-board point {p:?}");
            return;
        }
        let i = self.idx(p);
        self.set_cell(i, EMPTY, WALL);
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
        self.set_cell(i, EMPTY, color_value(c));
        self.history.push((p, c, prev_side));
        self.stones += 1;
        self.hash ^= zobrist(p, c);
        self.set_side_to_move(c.opp());
    }

    /// Takes back the last stone; the side to move is restored. No-op on an empty history.
    pub fn undo(&mut self) {
        let Some((p, c, prev_side)) = self.history.pop() else {
            return;
        };
        let i = self.idx(p);
        self.set_cell(i, color_value(c), EMPTY);
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
            if let Some(&(q, c, _)) = self.history.last() {
                replay.push((q, c));
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
        let b = self.history.iter().filter(|h| h.1 == Color::Black).count();
        (b, self.history.len() - b)
    }

    /// Would colour `c` playing point `p` make a winning five under the rule? (The stone at
    /// `p`, if any, is ignored: this also judges the last move played.) False off the board.
    pub fn is_win_move(&self, p: Pos, c: Color) -> bool {
        if !self.on_board(p) {
            return false;
        }
        let k = self.info[self.idx(p)].keys[c.index()];
        k.iter()
            .any(|&key| self.code(c.index(), key) == Pattern::Five as u8)
    }

    /// Did the last stone played make a winning five? Returns its colour if so.
    pub fn last_move_won(&self) -> Option<Color> {
        let &(p, c, _) = self.history.last()?;
        self.is_win_move(p, c).then_some(c)
    }

    /// Is empty point `p` forbidden to Black under the current rule (overline, 4-4, or 3-3
    /// with the exact recursive test of rules.md)? Always false outside renju and for
    /// non-empty or off-board points. Whoever is to move, this judges Black.
    pub fn is_forbidden(&self, p: Pos) -> bool {
        if !self.rule.is_renju() || !self.is_empty(p) {
            return false;
        }
        let i = self.idx(p);
        match self.info[i].pat4[0] {
            c if c == Pattern4::Forbid as u8 => true,
            MAYBE33 => self.forbidden_exact_index(i),
            _ => false,
        }
    }

    /// Why empty point `p` is forbidden to Black, or `None` when it is not (see
    /// [`Board::is_forbidden`]). Overline takes precedence over 4-4, 4-4 over 3-3.
    pub fn forbidden_kind(&self, p: Pos) -> Option<Forbidden> {
        if !self.is_forbidden(p) {
            return None;
        }
        let codes = self.info[self.idx(p)].pats[0];
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

    /// The empty cells of the candidate area (see [`Board::in_candidate_area`]), row-major.
    pub fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        let first = if self.stones == 0 {
            self.central_empty()
        } else {
            None
        };
        let start = PAD * self.stride + PAD;
        let end = (PAD + self.height) * self.stride;
        first.into_iter().chain(
            (start..end)
                .filter(move |&i| self.grid[i] == EMPTY && self.near[i] > 0)
                .map(move |i| self.pos_of(i)),
        )
    }

    /// The pattern colour `c` would make in direction `dir` (index into [`DIRECTIONS`]) by
    /// playing empty point `p`. [`Pattern::Dead`] for non-empty points or `dir > 3`.
    #[inline]
    pub fn pattern(&self, p: Pos, c: Color, dir: usize) -> Pattern {
        if !self.is_empty(p) || dir > 3 {
            return Pattern::Dead;
        }
        Pattern::from_code(self.info[self.idx(p)].pats[c.index()][dir])
    }

    /// The four directions of empty point `p` combined for colour `c` (see [`Pattern4`]).
    /// For renju Black, `Forbid` exactly when [`Board::is_forbidden`]. `None` for non-empty.
    pub fn pattern4(&self, p: Pos, c: Color) -> Pattern4 {
        if !self.is_empty(p) {
            return Pattern4::None;
        }
        self.resolve4(self.idx(p), c.index())
    }

    /// Resolves the internal combined code of empty cell `i` for colour index `c`.
    #[inline]
    fn resolve4(&self, i: usize, c: usize) -> Pattern4 {
        let code = self.info[i].pat4[c];
        if code == MAYBE33 {
            if self.forbidden_exact_index(i) {
                Pattern4::Forbid
            } else {
                pattern::combine_legal(self.info[i].pats[c])
            }
        } else {
            Pattern4::from_code(code)
        }
    }

    /// Number of (empty cell, direction) pairs where colour `c` has pattern `pat`.
    pub fn pattern_count(&self, c: Color, pat: Pattern) -> u32 {
        let n = &self.pcount[c.index()];
        match pat {
            Pattern::Flex4 => n[Pattern::Flex4 as usize] + n[pattern::DOUBLE_FOUR as usize],
            p => n[p as usize],
        }
    }

    /// Number of empty cells where colour `c` has combined class `pat`. Exact for renju
    /// Black (cells needing the recursive 3-3 test are resolved on demand).
    pub fn pattern4_count(&self, c: Color, pat: Pattern4) -> u32 {
        let n = &self.p4count[c.index()];
        let mut total = n[pat as usize];
        if n[MAYBE33 as usize] > 0 {
            for i in 0..self.grid.len() {
                if self.grid[i] == EMPTY
                    && self.info[i].pat4[c.index()] == MAYBE33
                    && self.resolve4(i, c.index()) == pat
                {
                    total += 1;
                }
            }
        }
        total
    }

    /// Does colour `c` have any cell of class at least `pat`? (Cheap: reads the counts;
    /// `Forbid` and the classes of unresolved renju 3-3 candidates count as present.)
    pub fn has_pattern4_at_least(&self, c: Color, pat: Pattern4) -> bool {
        let n = &self.p4count[c.index()];
        (pat as usize..N_CODES4).any(|k| n[k] > 0)
    }
}

#[cfg(test)]
mod tests;
