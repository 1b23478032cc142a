//! Win outcomes for every rule: exactly five, overline per rule and colour, caro's fives
//! blocked at both ends by opponent stones (edges and walls do not block), continuous walls.

use pentad::board::Board;
use pentad::core::{Color, Pos, Rule, RuleKind};

const B: Color = Color::Black;
const W: Color = Color::White;

/// A 15×15 board of `rule` with `stones` on row 8 given as a string over columns a..o:
/// `x` black, `o` white, `#` wall, `.` empty. Returns the board.
fn row(rule: Rule, s: &str) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for (x, ch) in s.bytes().enumerate() {
        let p = Pos::new(x, 7);
        match ch {
            b'x' => b.make_move_as(p, B),
            b'o' => b.make_move_as(p, W),
            b'#' => b.put_wall(p),
            _ => {}
        }
    }
    b
}

fn wins(rule: Rule, s: &str, col: usize, c: Color) -> bool {
    let b = row(rule, s);
    let p = Pos::new(col, 7);
    let w = b.is_win_move(p, c);
    // Playing it must agree with last_move_won.
    let mut b2 = b.clone();
    b2.make_move_as(p, c);
    assert_eq!(b2.last_move_won() == Some(c), w, "{s} at {col}");
    w
}

fn plain(kind: RuleKind) -> Rule {
    Rule::plain(kind)
}

#[test]
fn exactly_five_wins_everywhere() {
    for kind in [
        RuleKind::Freestyle,
        RuleKind::Standard,
        RuleKind::Renju,
        RuleKind::Caro,
        RuleKind::Caro5,
    ] {
        assert!(wins(plain(kind), "...xxxx........", 7, B), "{kind:?}");
        assert!(wins(plain(kind), "...oooo........", 7, W), "{kind:?}");
        assert!(wins(plain(kind), "...xx.xx.......", 5, B), "{kind:?}");
        assert!(!wins(plain(kind), "...xxx.........", 6, B), "{kind:?}");
        // The other colour's stones do not help.
        assert!(!wins(plain(kind), "...xxxx........", 7, W), "{kind:?}");
    }
}

#[test]
fn overline_per_rule() {
    let s = "..xxx.xx.......";
    assert!(wins(plain(RuleKind::Freestyle), s, 5, B));
    assert!(!wins(plain(RuleKind::Standard), s, 5, B));
    assert!(!wins(plain(RuleKind::Renju), s, 5, B));
    assert!(wins(plain(RuleKind::Caro), s, 5, B));
    assert!(!wins(plain(RuleKind::Caro5), s, 5, B));
    let s = "..ooo.oo.......";
    assert!(wins(plain(RuleKind::Freestyle), s, 5, W));
    assert!(!wins(plain(RuleKind::Standard), s, 5, W));
    assert!(
        wins(plain(RuleKind::Renju), s, 5, W),
        "renju White wins with an overline"
    );
    assert!(wins(plain(RuleKind::Caro), s, 5, W));
    assert!(!wins(plain(RuleKind::Caro5), s, 5, W));
    // Long overline across most of the row.
    let s = "xxxxx.xxxxx....";
    assert!(wins(plain(RuleKind::Freestyle), s, 5, B));
    assert!(!wins(plain(RuleKind::Standard), s, 5, B));
}

#[test]
fn renju_black_five_beats_forbidden() {
    // Five in row 8 while also making an overline in a column.
    let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
    for s in ["d8", "e8", "f8", "g8", "h4", "h5", "h6", "h7", "h9", "h10"] {
        b.make_move_as(Pos::from_human(s).unwrap(), B);
    }
    let p = Pos::from_human("h8").unwrap();
    assert!(b.is_win_move(p, B));
    assert!(!b.is_forbidden(p));
}

#[test]
fn caro_blocked_fives() {
    for kind in [RuleKind::Caro, RuleKind::Caro5] {
        let r = plain(kind);
        // Both ends white: no win for Black.
        assert!(!wins(r, "..oxxxx.o......", 7, B), "{kind:?}");
        // One end open: a win.
        assert!(wins(r, "..oxxxx........", 7, B), "{kind:?}");
        // The edge is no block: edge + opponent still wins.
        assert!(wins(r, "xxxx.o.........", 4, B), "{kind:?}");
        assert!(wins(r, "xxxx...........", 4, B), "{kind:?}");
        assert!(wins(r, ".........o.xxxx", 10, B), "{kind:?}");
        // Walls are no block either (only opponent stones are).
        assert!(wins(r, "..#xxxx.o......", 7, B), "{kind:?}");
        // Same for White.
        assert!(!wins(r, "..xoooo.x......", 7, W), "{kind:?}");
        assert!(wins(r, "..xoooo........", 7, W), "{kind:?}");
    }
    // Caro: overline wins even when blocked at both ends; caro5: never.
    assert!(wins(plain(RuleKind::Caro), ".oxxx.xxo......", 5, B));
    assert!(!wins(plain(RuleKind::Caro5), ".oxxx.xxo......", 5, B));
    // Other rules ignore blocks.
    assert!(wins(plain(RuleKind::Freestyle), "..oxxxx.o......", 7, B));
    assert!(wins(plain(RuleKind::Standard), "..oxxxx.o......", 7, B));
}

#[test]
fn caro_patterns_know_blocked_fours() {
    use pentad::board::Pattern;
    let r = plain(RuleKind::Caro);
    // o x x x . . o : Black at f8 (col 5) gives oxxxx.o -> the only five point g8 is blocked
    // by o at both ends, so it is no four.
    let b = row(r, "..oxxx..o......");
    assert_ne!(b.pattern(Pos::new(6, 7), B, 0), Pattern::Block4);
    assert_ne!(b.pattern(Pos::new(6, 7), B, 0), Pattern::Flex4);
    // In freestyle it is a four.
    let b = row(plain(RuleKind::Freestyle), "..oxxx..o......");
    assert_eq!(b.pattern(Pos::new(6, 7), B, 0), Pattern::Block4);
}

#[test]
fn continuous_walls_block_lines() {
    let r = Rule {
        kind: RuleKind::Freestyle,
        continuous: true,
    };
    assert!(!wins(r, "xx#x.xx........", 4, B));
    assert!(wins(r, "#xxx.x.........", 4, B));
    // A wall in the middle of a would-be five.
    let b = row(r, "xxx#x.x........");
    assert!(!b.is_win_move(Pos::new(5, 7), B));
    // Walls are not stones: counts and candidates ignore them.
    let b = row(r, "....#..........");
    assert_eq!(b.stone_count(), 0);
    assert_eq!(b.empty_count(), 224);
    // The game goes on after a five: further moves and undos work.
    let mut b = row(r, "xxxx...........");
    b.make_move_as(Pos::new(4, 7), B);
    assert_eq!(b.last_move_won(), Some(B));
    b.make_move_as(Pos::new(4, 8), W);
    assert_eq!(b.last_move_won(), None);
    b.undo();
    assert_eq!(b.last_move_won(), Some(B));
}

#[test]
fn vertical_and_diagonal_fives_on_rectangular_boards() {
    let mut b = Board::new(7, 20, Rule::STANDARD).unwrap();
    for y in 10..14 {
        b.make_move_as(Pos::new(6, y), B);
    }
    assert!(b.is_win_move(Pos::new(6, 14), B));
    assert!(b.is_win_move(Pos::new(6, 9), B));
    let mut b = Board::new(20, 6, Rule::FREESTYLE).unwrap();
    for i in 0..4 {
        b.make_move_as(Pos::new(15 + i, 4 - i), W);
    }
    assert!(b.is_win_move(Pos::new(19, 0), W));
    assert!(b.is_win_move(Pos::new(14, 5), W));
    assert!(!b.is_win_move(Pos::new(14, 5), B));
}
