//! Questions about the position that the searches ask: may a colour play a point, where are
//! its fives and fours, what does the side to move face, and a legal move without search.

use super::{Board, Pattern4, EMPTY};
use crate::core::{Color, Pos, RuleKind};

/// The classes of a point that makes a four (but not a five).
const FOUR_CLASSES: [Pattern4; 4] = [
    Pattern4::Block4,
    Pattern4::Block4Plus,
    Pattern4::Block4Flex3,
    Pattern4::Flex4,
];

/// Plies to the loss of a side that has no defence against an open-three threat: its move,
/// the opponent's open four, its block, the opponent's five.
pub const UNDEFENDED_THREAT_LOSS_PLIES: u32 = 4;

/// What the side to move faces (see [`Board::threat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threat {
    /// Nothing urgent.
    None,
    /// The side to move wins with its n-th move from here (n plies: 1 = five now, 3 = open four).
    Win(u32),
    /// The side to move loses in n plies whatever it does.
    Loss(u32),
    /// The opponent has one five point: the only move is to take it.
    Block(Pos),
    /// The opponent threatens an open four (or a double four): defend or make fours.
    Defend,
}

impl Board {
    /// True when `c` may play empty `p` (Black avoids forbidden points in renju).
    #[inline]
    pub fn can_play(&self, p: Pos, c: Color) -> bool {
        !(c == Color::Black && self.rule().kind == RuleKind::Renju && self.is_forbidden(p))
    }

    /// The first empty point where `c` has the combined class `p4` (candidate area first).
    pub fn first_point_with(&self, c: Color, p4: Pattern4) -> Option<Pos> {
        self.candidates()
            .find(|&p| self.pattern4(p, c) == p4)
            .or_else(|| self.empty_points().find(|&p| self.pattern4(p, c) == p4))
    }

    /// How many points make a four (not a five) for `c`. Read off the pattern counts.
    #[inline]
    pub fn four_point_count(&self, c: Color) -> usize {
        FOUR_CLASSES
            .iter()
            .map(|&p4| self.pattern4_count(c, p4) as usize)
            .sum()
    }

    /// The first empty point within four steps of `m` on its lines where `c` has a five.
    pub fn five_point_near(&self, m: Pos, c: Color) -> Option<Pos> {
        if !self.on_board(m) {
            return None;
        }
        // Straight on the padded cells: four steps from an on-board point stay inside the
        // padding, whose walls are never empty. A five's code is never a 3-3 candidate.
        let i = self.idx(m) as isize;
        let five = Pattern4::Five as u8;
        for &d in &self.dirs {
            for k in [-4, -3, -2, -1, 1, 2, 3, 4] {
                let cell = &self.info[(i + d * k) as usize];
                if cell.value() == EMPTY && cell.pat4()[c.index()] == five {
                    return Some(self.pos_of((i + d * k) as usize));
                }
            }
        }
        None
    }

    /// Classifies the position for the side to move: a five to play, the opponent's fives
    /// to block, an open four to make, an opponent's open three to answer.
    pub fn threat(&self) -> Threat {
        let me = self.side_to_move();
        let opp = me.opp();
        if self.pattern4_count(me, Pattern4::Five) > 0 {
            return Threat::Win(1);
        }
        let opp_fives = self.pattern4_count(opp, Pattern4::Five);
        if opp_fives >= 2 {
            return Threat::Loss(2);
        }
        if opp_fives == 1 {
            // The one five point is almost always on a line of the last stone: look there
            // first (the same point either way, as there is only one).
            let near = self
                .last_move()
                .and_then(|m| self.five_point_near(m, opp))
                .filter(|&q| self.pattern4(q, opp) == Pattern4::Five);
            return match near.or_else(|| self.first_point_with(opp, Pattern4::Five)) {
                Some(q) if self.can_play(q, me) => Threat::Block(q),
                Some(_) => Threat::Loss(2),
                None => Threat::None,
            };
        }
        if self.pattern4_count(me, Pattern4::Flex4) > 0 {
            return Threat::Win(3);
        }
        if self.pattern4_count(opp, Pattern4::Flex4) > 0 {
            return Threat::Defend;
        }
        Threat::None
    }

    /// A legal move without search: a win in one, else the block of the opponent's five,
    /// else the legal point nearest the centre among those next to stones. `Pos::NONE` on a
    /// full board.
    pub fn simple_move(&self) -> Pos {
        let me = self.side_to_move();
        let legal = self.legal_moves();
        if let Some(&p) = legal.iter().find(|&&p| self.is_win_move(p, me)) {
            return p;
        }
        if let Some(&p) = legal.iter().find(|&&p| self.is_win_move(p, me.opp())) {
            return p;
        }
        let (cx, cy) = (
            (self.width() as i32 - 1) / 2,
            (self.height() as i32 - 1) / 2,
        );
        let dist = |p: &Pos| {
            let (dx, dy) = (p.x() as i32 - cx, p.y() as i32 - cy);
            dx * dx + dy * dy
        };
        let near = legal
            .iter()
            .filter(|&&p| self.is_candidate(p, 1))
            .min_by_key(|p| dist(p));
        near.or_else(|| legal.iter().min_by_key(|p| dist(p)))
            .copied()
            .unwrap_or(Pos::NONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testutil::{at, setup};
    use crate::core::Rule;

    #[test]
    fn threat_classifies_fives_and_open_fours() {
        let four = "h8 i8 j8 k8";
        assert_eq!(
            setup(Rule::FREESTYLE, four, "a1", Color::Black).threat(),
            Threat::Win(1)
        );
        assert_eq!(
            setup(Rule::FREESTYLE, four, "a1", Color::White).threat(),
            Threat::Loss(2)
        );
        let blocked = setup(Rule::FREESTYLE, four, "g8", Color::White);
        assert_eq!(blocked.threat(), Threat::Block(at("l8")));
        let three = "h8 i8 j8";
        assert_eq!(
            setup(Rule::FREESTYLE, three, "a1", Color::Black).threat(),
            Threat::Win(3)
        );
        assert_eq!(
            setup(Rule::FREESTYLE, three, "a1", Color::White).threat(),
            Threat::Defend
        );
        assert_eq!(
            setup(Rule::FREESTYLE, "h8 i8", "a1", Color::White).threat(),
            Threat::None
        );
    }

    #[test]
    fn a_five_blocked_only_by_a_forbidden_point_is_lost() {
        // White's only five point f8 would give Black an overline (c8..h8).
        let b = setup(
            Rule::RENJU,
            "c8 d8 e8 g8 h8 f3",
            "f4 f5 f6 f7 a1 a15",
            Color::Black,
        );
        assert!(!b.can_play(at("f8"), Color::Black));
        assert!(b.can_play(at("f8"), Color::White));
        assert_eq!(b.threat(), Threat::Loss(2));
        // The same stones in freestyle: Black takes the point (and wins with it).
        let f = setup(
            Rule::FREESTYLE,
            "c8 d8 e8 g8 h8 f3",
            "f4 f5 f6 f7 a1 a15",
            Color::Black,
        );
        assert!(f.can_play(at("f8"), Color::Black));
    }

    #[test]
    fn four_points_are_counted_and_found() {
        let b = setup(Rule::FREESTYLE, "h8 i8 j8", "a1", Color::White);
        assert_eq!(b.four_point_count(Color::Black), 4, "f8 g8 k8 l8");
        let brute = b
            .empty_points()
            .filter(|&p| FOUR_CLASSES.contains(&b.pattern4(p, Color::Black)))
            .count();
        assert_eq!(brute, 4);
        assert_eq!(
            b.first_point_with(Color::Black, Pattern4::Flex4),
            Some(at("g8"))
        );
        assert_eq!(b.first_point_with(Color::Black, Pattern4::Five), None);
        let four = setup(Rule::FREESTYLE, "h8 i8 j8 k8", "a1", Color::White);
        assert_eq!(four.five_point_near(at("k8"), Color::Black), Some(at("g8")));
        assert_eq!(four.five_point_near(at("h8"), Color::White), None);
    }

    #[test]
    fn simple_move_wins_then_blocks_then_stays_central() {
        let win = setup(Rule::FREESTYLE, "h8 i8 j8 k8", "a1 b1 c1 d1", Color::Black);
        assert!(win.is_win_move(win.simple_move(), Color::Black));
        let block = setup(Rule::FREESTYLE, "h8 i8 j8 k8", "g8 a1 b1", Color::White);
        assert_eq!(block.simple_move(), at("l8"));
        let empty = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        assert_eq!(empty.simple_move(), at("h8"));
    }
}
