//! Move generation, parameterised by what to generate ([`GenKind`]): one generator shared by
//! the tree search (which scores its moves for ordering) and the VCF/VCT solvers.
//!
//! Every generated point is empty and playable by the colour it is generated for: renju
//! Black never gets a forbidden point. Points come in candidate-area order (row-major), the
//! defences of [`GenKind::Defences`] first and the own fours after them.

use super::pattern::is_maybe33;
use super::{Board, Pattern, Pattern4, DIRECTIONS, EMPTY, MAYBE33, MAYBE433, PAD};
use crate::core::{Color, Pos, RuleKind};

/// What [`Board::generate`] yields for a colour `c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Every candidate point `c` may play.
    All,
    /// Points where `c` makes an open three or more: a VCT attacker's moves.
    Threats,
    /// Points where `c` makes a four or a five: a VCF attacker's moves.
    Fours,
    /// Against the opponent's open-four threats: every point on the threat lines that leaves
    /// the opponent no open four and no five (class below `Block4` for `c`), then `c`'s own
    /// fours (class `Block4` and above), which keep the initiative.
    Defences,
    /// Against the opponent's winning four-three points (see `fourthree.rs`): every point
    /// that leaves the opponent none, then `c`'s own fours. Empty when the opponent has no
    /// winning four-three point.
    FourThreeDefences,
}

/// Offsets of the points on the four lines through a point within four cells of it.
const LINE_OFFSETS: [(i8, i8); 32] = {
    let mut t = [(0i8, 0i8); 32];
    let mut n = 0;
    let mut d = 0;
    while d < 4 {
        let (dx, dy) = DIRECTIONS[d];
        let mut k = -4;
        while k <= 4 {
            if k != 0 {
                t[n] = ((dx * k) as i8, (dy * k) as i8);
                n += 1;
            }
            k += 1;
        }
        d += 1;
    }
    t
};

/// Longest list of points the defence generator considers (bounds what real positions need).
const MAX_DEFENCE_POINTS: usize = 256;
/// Most opponent open-four points the defence generator looks at.
const MAX_THREAT_POINTS: usize = 32;
/// How far along a threat line (either way) the defence generator looks for blocks.
const THREAT_LINE_REACH: i32 = 5;

impl Board {
    /// Calls `emit(board, point, class)` for each point of kind `kind` for colour `c`, where
    /// `class` is the point's exact [`Pattern4`] for `c`. The board is unchanged afterwards
    /// (`Defences` tries each defence and takes it back).
    #[inline]
    pub fn generate<F: FnMut(&Board, Pos, Pattern4)>(&mut self, c: Color, kind: GenKind, emit: F) {
        match kind {
            GenKind::All => self.generate_playable(c, Pattern4::None, emit),
            GenKind::Threats => self.generate_playable(c, Pattern4::Flex3, emit),
            GenKind::Fours => self.generate_fours(c, emit),
            GenKind::Defences => self.generate_defences(c, emit),
            GenKind::FourThreeDefences => self.generate_four_three_defences(c, emit),
        }
    }

    /// The candidates of class at least `min` for `c`, forbidden points left out.
    #[inline]
    fn generate_playable<F: FnMut(&Board, Pos, Pattern4)>(
        &self,
        c: Color,
        min: Pattern4,
        mut emit: F,
    ) {
        for p in self.candidates() {
            let a = self.pattern4(p, c);
            if a >= min && a != Pattern4::Forbid {
                emit(self, p, a);
            }
        }
    }

    /// The points where `c` makes a four or a five. Every such point lies beside a stone, so
    /// in the candidate area, and the pattern counts say how many there are: the walk stops
    /// at the last one.
    #[inline]
    fn generate_fours<F: FnMut(&Board, Pos, Pattern4)>(&self, c: Color, mut emit: F) {
        let mut left = self.four_point_count(c) + self.pattern4_count(c, Pattern4::Five) as usize;
        for p in self.candidates() {
            if left == 0 {
                break;
            }
            let a = self.four_class(p, c);
            if a >= Pattern4::Block4 {
                left -= 1;
                emit(self, p, a);
            }
        }
    }

    /// Calls `emit(point, class)` for each point at the offsets `(dx, dy)` from the on-board
    /// point `centre`, in the order given, where `c` makes a four or a five. Offsets reach at
    /// most [`PAD`] cells, so every cell read lies in the padded array (off-board cells are
    /// walls, never empty).
    pub fn fours_at_offsets<F: FnMut(Pos, Pattern4)>(
        &self,
        centre: Pos,
        c: Color,
        offsets: &[(i8, i8)],
        mut emit: F,
    ) {
        if !self.on_board(centre) {
            return;
        }
        let base = self.idx(centre) as isize;
        let (cx, cy) = (centre.x() as isize, centre.y() as isize);
        for &(dx, dy) in offsets {
            let (dx, dy) = (isize::from(dx), isize::from(dy));
            debug_assert!(dx.unsigned_abs() <= PAD && dy.unsigned_abs() <= PAD);
            let i = (base + dy * self.stride as isize + dx) as usize;
            let cell = &self.info[i];
            if cell.value() != EMPTY {
                continue;
            }
            // A 3-3 candidate without a four is no four; one with a four needs the exact test.
            let code = cell.pat4()[c.index()];
            let class = match code {
                MAYBE33 => continue,
                MAYBE433 => self.resolve4(i, c.index()),
                _ => Pattern4::from_code(code),
            };
            if class >= Pattern4::Block4 {
                emit(Pos::new((cx + dx) as usize, (cy + dy) as usize), class);
            }
        }
    }

    /// See [`GenKind::FourThreeDefences`]; `c` is the defending colour.
    fn generate_four_three_defences<F: FnMut(&Board, Pos, Pattern4)>(
        &mut self,
        c: Color,
        mut emit: F,
    ) {
        let mut wins = [Pos::NONE; MAX_THREAT_POINTS];
        let n = self.winning_four_threes(c.opp(), &mut wins);
        if n > 0 {
            self.four_three_defences(c, &wins[..n], &mut emit);
            self.generate_fours(c, emit);
        }
    }

    /// See [`GenKind::Defences`]; `c` is the defending colour.
    fn generate_defences<F: FnMut(&Board, Pos, Pattern4)>(&mut self, c: Color, mut emit: F) {
        let opp = c.opp();
        let mut threats = [Pos::NONE; MAX_THREAT_POINTS];
        let n_threats = self.open_four_points(opp, &mut threats);
        let threats = &threats[..n_threats];
        let mut points = [Pos::NONE; MAX_DEFENCE_POINTS];
        let n_points = self.threat_line_points(opp, threats, &mut points);
        // A point that cannot touch some threat point's codes leaves that point an open four.
        // Not applied against renju Black, whose classes also depend on the exact 3-3 test of
        // cells farther away.
        let reach = self.line_reach();
        let renju_black = opp == Color::Black && self.rule().kind == RuleKind::Renju;
        let prefilter = !renju_black;
        // A stone only weakens the opponent's lines, so no new open four or five can appear
        // where classes follow from the lines alone: a point that takes every threat point's
        // open four is a defence, and the line test settles it without playing the move.
        // Against renju Black with a forbidden point or a 3-3 candidate on the board, a
        // blocked line may lift a forbidden mark (a 4-4 or 3-3 point becomes an open four),
        // so there the move is played to confirm.
        let exact_by_lines = (!renju_black || !self.has_forbid_marks(opp))
            && n_threats == self.pattern4_count(opp, Pattern4::Flex4) as usize;
        for &q in &points[..n_points] {
            if prefilter
                && !threats
                    .iter()
                    .all(|&f| f == q || on_line_within(f, q, reach))
            {
                continue;
            }
            let a = self.pattern4(q, c);
            if a == Pattern4::Forbid || a >= Pattern4::Block4 {
                continue; // own fours come below
            }
            if self.keeps_open_four(c, q, threats) {
                continue;
            }
            let defends = exact_by_lines || {
                self.make_move_as(q, c);
                let defends = self.pattern4_count(opp, Pattern4::Flex4) == 0
                    && self.pattern4_count(opp, Pattern4::Five) == 0;
                self.undo();
                defends
            };
            if defends {
                emit(self, q, a);
            }
        }
        self.generate_fours(c, emit);
    }

    /// Whether some empty cell is forbidden to `c` by its lines (4-4, overline) or is a 3-3
    /// candidate: false means every class of `c` follows from the lines through the cell, so
    /// `generate_defences` may settle a defence by the line test alone.
    fn has_forbid_marks(&self, c: Color) -> bool {
        let n = |code: u8| self.counts.pat4(c.index(), code as usize);
        n(Pattern4::Forbid as u8) + n(MAYBE33) + n(MAYBE433) > 0
    }

    /// True when, after `c` plays `q`, some threat point other than `q` surely still gives
    /// the opponent an open four: its combined code, recomputed for the one line through `q`,
    /// is a definite open four (not a renju 3-3 candidate, whose class depends on cells
    /// farther away).
    fn keeps_open_four(&self, c: Color, q: Pos, threats: &[Pos]) -> bool {
        let (opp, v) = (c.opp().index(), super::color_value(c));
        threats.iter().filter(|&&f| f != q).any(|&f| {
            let code = self.code4_with_stone(f, q, v, opp);
            !is_maybe33(code) && Pattern4::from_code(code) == Pattern4::Flex4
        })
    }

    /// Fills `out` with the points where `c` makes an open four (as many as fit); returns
    /// how many. Four points lie beside stones, so in the candidate area: the walk stops at
    /// the last one the counts announce.
    fn open_four_points(&self, c: Color, out: &mut [Pos]) -> usize {
        let total = self.pattern4_count(c, Pattern4::Flex4) as usize;
        // Most often the last stone of `c` made the three: when the lines through it hold
        // every open-four point, they are all, sorted into the walk's order.
        if let Some((last, _)) = self.history().rev().find(|&(_, col)| col == c) {
            if total <= out.len() {
                let mut n = 0;
                self.fours_at_offsets(last, c, &LINE_OFFSETS, |p, class| {
                    if class == Pattern4::Flex4 && n < out.len() {
                        out[n] = p;
                        n += 1;
                    }
                });
                if n == total {
                    out[..n].sort_unstable_by_key(|p| (p.y(), p.x()));
                    return n;
                }
            }
        }
        let want = total.min(out.len());
        let mut n = 0;
        for p in self.candidates() {
            if n == want {
                break;
            }
            if self.four_class(p, c) == Pattern4::Flex4 {
                out[n] = p;
                n += 1;
            }
        }
        n
    }

    /// Fills `out` (as far as it fits) with the threat points `threats` of colour `c` and the
    /// empty points on their lines where `c` has a four, each once, in that order; returns
    /// how many.
    fn threat_line_points(&self, c: Color, threats: &[Pos], out: &mut [Pos]) -> usize {
        let mut seen = PosSet::default();
        let mut n = 0;
        let mut push = |q: Pos, out: &mut [Pos]| {
            if seen.insert(q) && n < out.len() {
                out[n] = q;
                n += 1;
            }
        };
        for &f in threats {
            push(f, out);
            for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                if self.pattern(f, c, dir) < Pattern::Block4 {
                    continue;
                }
                for k in (-THREAT_LINE_REACH..=THREAT_LINE_REACH).filter(|&k| k != 0) {
                    let (x, y) = (f.x() as i32 + dx * k, f.y() as i32 + dy * k);
                    if let Some(q) = self.pos(x, y) {
                        if self.is_empty(q) {
                            push(q, out);
                        }
                    }
                }
            }
        }
        n
    }
}

/// A set of points as a bit set over dense point indices.
struct PosSet([u64; Pos::COUNT / 64]);

impl Default for PosSet {
    fn default() -> Self {
        PosSet([0; Pos::COUNT / 64])
    }
}

impl PosSet {
    /// Adds `p`; true when it was not in the set yet.
    fn insert(&mut self, p: Pos) -> bool {
        let (w, b) = (p.index() / 64, p.index() % 64);
        let new = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        new
    }
}

/// Do `a` and `b` share a line (row, column or diagonal) at most `reach` steps apart?
fn on_line_within(a: Pos, b: Pos, reach: i32) -> bool {
    let dx = (b.x() as i32 - a.x() as i32).abs();
    let dy = (b.y() as i32 - a.y() as i32).abs();
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testutil::{at, random_games, setup};
    use crate::core::Rule;

    fn generated(b: &mut Board, c: Color, kind: GenKind) -> Vec<(Pos, Pattern4)> {
        let hash = b.hash();
        let mut v = Vec::new();
        b.generate(c, kind, |_, p, a| v.push((p, a)));
        assert_eq!(b.hash(), hash, "the generator leaves the board as it was");
        v
    }

    /// The candidates whose class for `c` passes `keep`, with that class, in walk order.
    fn brute(b: &Board, c: Color, keep: impl Fn(Pattern4) -> bool) -> Vec<(Pos, Pattern4)> {
        b.candidates()
            .map(|p| (p, b.pattern4(p, c)))
            .filter(|&(_, a)| keep(a))
            .collect()
    }

    #[test]
    fn kinds_select_by_class_and_skip_forbidden_points() {
        // Renju: h8 is forbidden to Black (3-3), and Black has threes to extend.
        let mut b = setup(
            Rule::RENJU,
            "f8 g8 h6 h7 c3 d3 e3",
            "a15 o15 o1",
            Color::Black,
        );
        assert_eq!(b.pattern4(at("h8"), Color::Black), Pattern4::Forbid);
        for c in [Color::Black, Color::White] {
            let all = generated(&mut b, c, GenKind::All);
            assert_eq!(all, brute(&b, c, |a| a != Pattern4::Forbid));
            let threats = generated(&mut b, c, GenKind::Threats);
            assert_eq!(threats, brute(&b, c, |a| a >= Pattern4::Flex3));
            let fours = generated(&mut b, c, GenKind::Fours);
            assert_eq!(fours, brute(&b, c, |a| a >= Pattern4::Block4));
        }
        assert!(!generated(&mut b, Color::Black, GenKind::Fours).is_empty());
        assert!(generated(&mut b, Color::White, GenKind::Fours).is_empty());
    }

    #[test]
    fn defences_block_the_open_three_then_add_own_fours() {
        // Black's open three h8 i8 j8; White's a1 b1 c1 can become fours at d1 and e1.
        let mut b = setup(Rule::FREESTYLE, "h8 i8 j8 o15", "a1 b1 c1", Color::White);
        let moves: Vec<Pos> = generated(&mut b, Color::White, GenKind::Defences)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(moves, vec![at("g8"), at("k8"), at("d1"), at("e1")]);
        // Every defence leaves Black without an open four or a five.
        for p in [at("g8"), at("k8")] {
            b.make_move_as(p, Color::White);
            assert_eq!(b.pattern4_count(Color::Black, Pattern4::Flex4), 0);
            assert_eq!(b.pattern4_count(Color::Black, Pattern4::Five), 0);
            b.undo();
        }
        // f8 stops nothing: k8 still makes an open four.
        b.make_move_as(at("f8"), Color::White);
        assert!(b.pattern4_count(Color::Black, Pattern4::Flex4) > 0);
    }

    /// Random games of every rule family: wherever the side to move faces an open three
    /// (the opponent has an open-four point and no five), the generator's defences are
    /// exactly the points that, played and taken back, leave the opponent no open four and
    /// no five (every empty point tried). This checks the line test against real moves; the
    /// walk must meet enough such positions, or the test proves nothing.
    #[test]
    fn open_three_defences_match_playing_every_point() {
        let rules = [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU];
        let mut checked = [[0u32; 2]; 3];
        for (k, rule) in rules.into_iter().enumerate() {
            random_games(rule, 17, 200, 60, |b| {
                let (c, opp) = (b.side_to_move(), b.side_to_move().opp());
                if b.pattern4_count(opp, Pattern4::Flex4) == 0
                    || b.pattern4_count(opp, Pattern4::Five) > 0
                    || b.pattern4_count(c, Pattern4::Five) > 0
                {
                    return true;
                }
                let mut got: Vec<Pos> = generated(b, c, GenKind::Defences)
                    .into_iter()
                    .filter(|&(_, a)| a < Pattern4::Block4)
                    .map(|(p, _)| p)
                    .collect();
                got.sort_by_key(|p| p.index());
                let mut want = Vec::new();
                for p in (0..15 * 15).map(|i| Pos::new(i % 15, i / 15)) {
                    let a = b.pattern4(p, c);
                    if !b.is_empty(p) || a == Pattern4::Forbid || a >= Pattern4::Block4 {
                        continue;
                    }
                    b.make_move_as(p, c);
                    if b.pattern4_count(opp, Pattern4::Flex4) == 0
                        && b.pattern4_count(opp, Pattern4::Five) == 0
                    {
                        want.push(p);
                    }
                    b.undo();
                }
                want.sort_by_key(|p| p.index());
                let moves: Vec<Pos> = b.history().map(|(p, _)| p).collect();
                assert_eq!(got, want, "{rule:?} after {moves:?}");
                checked[k][opp.index()] += 1;
                true
            });
        }
        assert!(
            checked.iter().flatten().all(|&n| n >= 30),
            "too few positions met: {checked:?}"
        );
    }

    /// The open-four points, whether found on the lines through the last stone or by the
    /// walk, are the walk's list in its order.
    #[test]
    fn open_four_points_are_the_walks_list() {
        let mut met = 0;
        for rule in [Rule::FREESTYLE, Rule::RENJU] {
            random_games(rule, 23, 150, 60, |b| {
                for c in [Color::Black, Color::White] {
                    let want: Vec<Pos> = b
                        .candidates()
                        .filter(|&p| b.four_class(p, c) == Pattern4::Flex4)
                        .collect();
                    let mut out = [Pos::NONE; MAX_THREAT_POINTS];
                    let n = b.open_four_points(c, &mut out);
                    assert_eq!(out[..n], want[..]);
                    met += usize::from(n > 0);
                }
                true
            });
        }
        assert!(met >= 100, "too few positions with open-four points: {met}");
    }

    #[test]
    fn on_line_within_needs_a_shared_line_and_the_reach() {
        let c = Pos::new(7, 7);
        assert!(on_line_within(c, Pos::new(11, 7), 4));
        assert!(!on_line_within(c, Pos::new(12, 7), 4));
        assert!(on_line_within(c, Pos::new(12, 7), 5));
        assert!(on_line_within(c, Pos::new(3, 11), 4));
        assert!(on_line_within(c, Pos::new(2, 2), 5));
        assert!(!on_line_within(c, Pos::new(8, 9), 5));
        assert!(!on_line_within(c, Pos::new(9, 8), 5));
    }
}
