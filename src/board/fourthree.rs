//! Answers to the opponent's four-three points: the moves that keep a point where the
//! opponent would make a four and an open three at once from winning by force.
//!
//! A four-three point `f` of the opponent wins unless something changes: the opponent plays
//! `f`, the defender must take the four's five point `b`, and the three becomes an open four.
//! It does not win when `b` is a four for the defender (the block gains the tempo back), and
//! for renju Black only when the three really becomes an open four (the exact forbidden test
//! decides). The defences are the moves after which no such winning point is left; every one
//! of them lies on a line through some `f` or its `b`, so only those lines are tried.

use super::{Board, Pattern, Pattern4, DIRECTIONS};
use crate::core::{Color, Pos, RuleKind};

/// Most opponent four-three points looked at.
const MAX_FOUR_THREE_POINTS: usize = 16;
/// Longest list of points tried as defences.
const MAX_TRIED_POINTS: usize = 192;
/// Plies of a [`Board::quick_win`]: the threat, its answer, the open four, its block, the five.
pub const QUICK_WIN_PLIES: u32 = 5;

impl Board {
    /// Does the opponent's four-three point `f` (colour `opp`) win by force against the side
    /// `opp.opp()`? Plays the four and its block and looks at what is left; the board is
    /// unchanged afterwards.
    pub fn four_three_wins(&mut self, f: Pos, opp: Color) -> bool {
        let c = opp.opp();
        if self.four_class(f, opp) != Pattern4::Block4Flex3 {
            return false;
        }
        self.make_move_as(f, opp);
        let wins = match self.five_point_near(f, opp) {
            None => false,
            Some(b) if !self.can_play(b, c) => true,
            Some(b) => {
                self.make_move_as(b, c);
                let open_four = self.pattern4_count(opp, Pattern4::Flex4) > 0;
                let counter = self.pattern4_count(c, Pattern4::Five) > 0;
                self.undo();
                open_four && !counter
            }
        };
        self.undo();
        wins
    }

    /// Fills `out` with `opp`'s four-three points that win by force (as many as fit);
    /// returns how many.
    pub fn winning_four_threes(&mut self, opp: Color, out: &mut [Pos]) -> usize {
        let mut left = self.pattern4_count(opp, Pattern4::Block4Flex3) as usize;
        let mut points = [Pos::NONE; MAX_FOUR_THREE_POINTS];
        let mut n_points = 0;
        for p in self.candidates() {
            if left == 0 || n_points == points.len() {
                break;
            }
            if self.four_class(p, opp) == Pattern4::Block4Flex3 {
                points[n_points] = p;
                n_points += 1;
                left -= 1;
            }
        }
        let mut n = 0;
        for &f in &points[..n_points] {
            if n < out.len() && self.four_three_wins(f, opp) {
                out[n] = f;
                n += 1;
            }
        }
        n
    }

    /// A forced win of the side to move that the pattern counts show without a search, in
    /// plies (always 5: the threat, its answer, the open four, its block, the five): a
    /// four-three point that wins ([`Board::four_three_wins`]), or a double open three when
    /// the opponent can make neither a four nor an open four (one answer cannot stop both
    /// threes, and no answer gains a tempo). `None` while either side has a five or an open
    /// four to make (the threat classification covers those) or when nothing is found.
    pub fn quick_win(&mut self) -> Option<u32> {
        let me = self.side_to_move();
        let opp = me.opp();
        let direct = [Pattern4::Five, Pattern4::Flex4];
        if direct.iter().any(|&p| self.pattern4_count(me, p) > 0)
            || self.pattern4_count(opp, Pattern4::Five) > 0
        {
            return None;
        }
        if self.pattern4_count(me, Pattern4::Block4Flex3) > 0 {
            let mut out = [Pos::NONE; 1];
            if self.winning_four_threes(me, &mut out) > 0 {
                return Some(QUICK_WIN_PLIES);
            }
        }
        // Renju Black's double threes are forbidden: no count needed (it may cost the exact
        // forbidden test of every possible 3-3 point).
        let renju_black = me == Color::Black && self.rule().kind == RuleKind::Renju;
        let double_three = !renju_black && self.pattern4_count(me, Pattern4::Flex3x2) > 0;
        if double_three
            && self.four_point_count(opp) == 0
            && self.pattern4_count(opp, Pattern4::Flex4) == 0
        {
            return Some(QUICK_WIN_PLIES);
        }
        None
    }

    /// Calls `emit(board, point, class)` for each move of `c` that leaves the opponent no
    /// winning four-three point (own fours excluded: the caller adds them), given the
    /// opponent's winning points `wins`. Forbidden points are left out.
    pub(super) fn four_three_defences<F: FnMut(&Board, Pos, Pattern4)>(
        &mut self,
        c: Color,
        wins: &[Pos],
        mut emit: F,
    ) {
        let opp = c.opp();
        let mut tried = [Pos::NONE; MAX_TRIED_POINTS];
        let n_tried = self.four_three_lines(opp, wins, &mut tried);
        for &q in &tried[..n_tried] {
            let a = self.pattern4(q, c);
            if a == Pattern4::Forbid || a >= Pattern4::Block4 {
                continue;
            }
            self.make_move_as(q, c);
            let holds = !self.any_four_three_wins(opp, wins);
            self.undo();
            if holds {
                emit(self, q, a);
            }
        }
    }

    /// After a defender's move: does some four-three point of `opp` still win? The points in
    /// `before` are checked first; a full scan follows only when the count says a new one
    /// appeared (a stone can turn a renju 4-3-3 point into a plain four-three).
    fn any_four_three_wins(&mut self, opp: Color, before: &[Pos]) -> bool {
        let total = self.pattern4_count(opp, Pattern4::Block4Flex3) as usize;
        if total == 0 {
            return false;
        }
        let mut still = 0;
        for &f in before {
            if self.four_class(f, opp) == Pattern4::Block4Flex3 {
                still += 1;
                if self.four_three_wins(f, opp) {
                    return true;
                }
            }
        }
        if total <= still {
            return false;
        }
        let mut out = [Pos::NONE; 1];
        self.winning_four_threes(opp, &mut out) > 0
    }

    /// Fills `out` with the points that may stop the winning points `wins` of `opp`, each
    /// once; returns how many. For each `f`: `f` itself and the empty points on its four
    /// and three lines within the line reach (a stone elsewhere leaves both shapes as they
    /// are); on the lines through its five point `b`, the points where the defender makes at
    /// least a three towards `b` (only they can make the block at `b` a four).
    fn four_three_lines(&mut self, opp: Color, wins: &[Pos], out: &mut [Pos]) -> usize {
        let c = opp.opp();
        let reach = self.line_reach();
        let mut n = 0;
        let mut push = |q: Pos, out: &mut [Pos]| {
            if n < out.len() && !out[..n].contains(&q) {
                out[n] = q;
                n += 1;
            }
        };
        for &f in wins {
            push(f, out);
            self.make_move_as(f, opp);
            let b = self.five_point_near(f, opp);
            self.undo();
            for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                let shape_line = self.pattern(f, opp, dir) >= Pattern::Flex3;
                for k in (-reach..=reach).filter(|&k| k != 0) {
                    let on_f = self.pos(f.x() as i32 + dx * k, f.y() as i32 + dy * k);
                    if let Some(q) = on_f.filter(|&q| shape_line && self.is_empty(q)) {
                        push(q, out);
                    }
                    let Some(b) = b else { continue };
                    let on_b = self.pos(b.x() as i32 + dx * k, b.y() as i32 + dy * k);
                    if let Some(q) = on_b.filter(|&q| self.pattern(q, c, dir) >= Pattern::Block3) {
                        push(q, out);
                    }
                }
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use crate::board::testutil::{at, random_games, setup};
    use crate::board::{GenKind, Pattern4};
    use crate::core::{Color, Pos, Rule};

    fn moves(b: &mut crate::board::Board, c: Color) -> Vec<Pos> {
        let hash = b.hash();
        let mut v = Vec::new();
        b.generate(c, GenKind::FourThreeDefences, |_, p, _| v.push(p));
        assert_eq!(b.hash(), hash, "the generator leaves the board as it was");
        v
    }

    /// Every point of `c` that is no own four and leaves no winning four-three, by trying
    /// all empty points.
    fn brute(b: &mut crate::board::Board, c: Color) -> Vec<Pos> {
        let opp = c.opp();
        let mut v = Vec::new();
        for q in b.empty_points().collect::<Vec<_>>() {
            let a = b.pattern4(q, c);
            if a == Pattern4::Forbid || a >= Pattern4::Block4 {
                continue;
            }
            b.make_move_as(q, c);
            let mut out = [Pos::NONE; 1];
            if b.winning_four_threes(opp, &mut out) == 0 {
                v.push(q);
            }
            b.undo();
        }
        v
    }

    #[test]
    fn a_four_three_point_is_met_on_its_lines_or_by_own_fours() {
        // Black h8 i8 j8 (blocked by k8) and g10 g11: g8 makes a four (five point f8) and
        // the open three g8 _ g10 g11. White's a1 b1 c1 give it fours at d1 and e1.
        let mut b = setup(
            Rule::FREESTYLE,
            "h8 i8 j8 g10 g11",
            "k8 a1 b1 c1",
            Color::White,
        );
        assert_eq!(b.pattern4(at("g8"), Color::Black), Pattern4::Block4Flex3);
        assert!(b.four_three_wins(at("g8"), Color::Black));
        let got = moves(&mut b, Color::White);
        // White's own fours come after the defences.
        let fours: Vec<Pos> = got
            .iter()
            .copied()
            .filter(|&p| b.pattern4(p, Color::White) >= Pattern4::Block4)
            .collect();
        assert_eq!(fours, vec![at("d1"), at("e1")]);
        let mut defences: Vec<Pos> = got
            .iter()
            .copied()
            .filter(|&p| b.pattern4(p, Color::White) < Pattern4::Block4)
            .collect();
        defences.sort_by_key(|p| p.index());
        let mut want = brute(&mut b, Color::White);
        want.sort_by_key(|p| p.index());
        assert_eq!(defences, want);
        let mut named: Vec<Pos> = ["g8", "f8", "g7", "g9", "g12"].map(at).to_vec();
        named.sort_by_key(|p| p.index());
        assert_eq!(defences, named);
    }

    #[test]
    fn a_block_that_makes_a_four_answers_the_four_three() {
        // Black's four at g8 has its five point at k8 (f8 is White's), and White's k9 k10
        // k11 make k8 a four for White: the block gains the tempo back.
        let mut b = setup(
            Rule::FREESTYLE,
            "h8 i8 j8 g10 g11 a15",
            "f8 k9 k10 k11 o1",
            Color::White,
        );
        assert_eq!(b.pattern4(at("g8"), Color::Black), Pattern4::Block4Flex3);
        assert!(b.pattern4(at("k8"), Color::White) >= Pattern4::Block4);
        assert!(!b.four_three_wins(at("g8"), Color::Black));
        let mut out = [Pos::NONE; 4];
        assert_eq!(b.winning_four_threes(Color::Black, &mut out), 0);
    }

    #[test]
    fn quick_wins_are_winning_four_threes_and_unanswerable_double_threes() {
        // Black to move with the four-three point g8 of the first test: a win in 5 plies,
        // White's fours on row 1 notwithstanding (its block at f8 makes none).
        let mut b = setup(
            Rule::FREESTYLE,
            "h8 i8 j8 g10 g11",
            "k8 a1 b1 c1 o15",
            Color::Black,
        );
        let hash = b.hash();
        assert_eq!(b.quick_win(), Some(super::QUICK_WIN_PLIES));
        assert_eq!(b.hash(), hash);
        // A double three at i8 (g8 h8 and i9 i10) wins when White has no four to make…
        let mut b = setup(
            Rule::FREESTYLE,
            "g8 h8 i9 i10",
            "a15 o15 o1 a1",
            Color::Black,
        );
        assert_eq!(b.pattern4(at("i8"), Color::Black), Pattern4::Flex3x2);
        assert_eq!(b.quick_win(), Some(super::QUICK_WIN_PLIES));
        // …but not when White can answer with fours.
        let mut b = setup(
            Rule::FREESTYLE,
            "g8 h8 i9 i10 o15",
            "a1 b1 c1 a15 o1",
            Color::Black,
        );
        assert_eq!(b.quick_win(), None);
        // In renju that double three is forbidden to Black: no quick win.
        let mut b = setup(Rule::RENJU, "g8 h8 i9 i10", "a15 o15 o1 a1", Color::Black);
        assert_eq!(b.pattern4(at("i8"), Color::Black), Pattern4::Forbid);
        assert_eq!(b.quick_win(), None);
        // Nothing to threaten: none.
        let mut b = setup(Rule::FREESTYLE, "h8 a15", "i9 o1", Color::Black);
        assert_eq!(b.quick_win(), None);
    }

    /// Random games in freestyle and renju: wherever the side to move faces a winning
    /// four-three point, the generator's defences are exactly the brute-force list (every
    /// empty point tried). The walk must meet such positions, or the test proves nothing.
    #[test]
    fn defences_match_the_brute_force_in_random_games() {
        let mut checked = [0u32; 2];
        for (k, rule) in [Rule::FREESTYLE, Rule::RENJU].into_iter().enumerate() {
            random_games(rule, 43, 150, 70, |b| {
                let (c, opp) = (b.side_to_move(), b.side_to_move().opp());
                let quiet = [Pattern4::Five, Pattern4::Flex4]
                    .iter()
                    .all(|&p| b.pattern4_count(opp, p) == 0 && b.pattern4_count(c, p) == 0);
                let mut wins = [Pos::NONE; 4];
                if !quiet || b.winning_four_threes(opp, &mut wins) == 0 {
                    return true;
                }
                let mut got: Vec<Pos> = moves(b, c)
                    .into_iter()
                    .filter(|&p| b.pattern4(p, c) < Pattern4::Block4)
                    .collect();
                got.sort_by_key(|p| p.index());
                let mut want = brute(b, c);
                want.sort_by_key(|p| p.index());
                assert_eq!(
                    got,
                    want,
                    "{rule:?} after {:?}",
                    b.history().collect::<Vec<_>>()
                );
                checked[k] += 1;
                true
            });
        }
        assert!(
            checked.iter().all(|&n| n >= 20),
            "too few positions met: {checked:?}"
        );
    }
}
