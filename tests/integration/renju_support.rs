//! Shared by the renju tests: an independent naive forbidden-point checker written straight
//! from docs/rules.md (plain 2-D grid, no tables, no fast path), and the parser of
//! `tests/data/renju-cases.txt`. Used by the other renju tests; its own tests check the naive checker on a few textbook
//! shapes.
#![allow(dead_code)]

use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain 2-D grid: 0 empty, 1 black, 2 white; off-board reads as neither black nor empty.
pub struct Naive {
    w: i32,
    h: i32,
    g: Vec<Vec<u8>>,
}

/// Why the naive checker forbids a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NaiveVerdict {
    Legal,
    Overline,
    DoubleFour,
    DoubleThree,
}

impl NaiveVerdict {
    /// The cases-file spelling (`legal`, `forbidden-overline`, `forbidden-44`, `forbidden-33`).
    pub fn name(self) -> &'static str {
        match self {
            NaiveVerdict::Legal => "legal",
            NaiveVerdict::Overline => "forbidden-overline",
            NaiveVerdict::DoubleFour => "forbidden-44",
            NaiveVerdict::DoubleThree => "forbidden-33",
        }
    }
}

impl Naive {
    /// The stones of a board (walls are not supported: renju has none).
    pub fn of(b: &Board) -> Naive {
        let (w, h) = (b.width(), b.height());
        let mut g = vec![vec![0u8; w]; h];
        for (p, c) in b.history() {
            g[p.y()][p.x()] = if c == Color::Black { 1 } else { 2 };
        }
        Naive {
            w: w as i32,
            h: h as i32,
            g,
        }
    }

    fn get(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && x < self.w && y < self.h).then(|| self.g[y as usize][x as usize])
    }
    fn set(&mut self, x: i32, y: i32, v: u8) {
        self.g[y as usize][x as usize] = v;
    }
    fn black(&self, x: i32, y: i32) -> bool {
        self.get(x, y) == Some(1)
    }
    fn empty(&self, x: i32, y: i32) -> bool {
        self.get(x, y) == Some(0)
    }
    /// Length of the black run through (x, y) along (dx, dy).
    fn line_len(&self, x: i32, y: i32, dx: i32, dy: i32) -> i32 {
        let mut n = 1;
        let mut t = 1;
        while self.black(x + dx * t, y + dy * t) {
            n += 1;
            t += 1;
        }
        t = 1;
        while self.black(x - dx * t, y - dy * t) {
            n += 1;
            t += 1;
        }
        n
    }
    fn exact_five_any(&self, x: i32, y: i32) -> bool {
        DIRS.iter()
            .any(|&(dx, dy)| self.line_len(x, y, dx, dy) == 5)
    }

    /// Is empty (x, y) forbidden to Black?
    pub fn forbidden(&mut self, x: i32, y: i32) -> bool {
        self.verdict(x, y) != NaiveVerdict::Legal
    }

    /// The verdict for Black at empty (x, y).
    pub fn verdict(&mut self, x: i32, y: i32) -> NaiveVerdict {
        self.set(x, y, 1);
        let r = self.verdict_placed(x, y);
        self.set(x, y, 0);
        r
    }

    fn verdict_placed(&mut self, x: i32, y: i32) -> NaiveVerdict {
        // 1. Five.
        if self.exact_five_any(x, y) {
            return NaiveVerdict::Legal;
        }
        // 2. Overline.
        if DIRS
            .iter()
            .any(|&(dx, dy)| self.line_len(x, y, dx, dy) >= 6)
        {
            return NaiveVerdict::Overline;
        }
        // 3. Fours: distinct sets of four stones (including p) one stone from exactly five.
        let fours: usize = DIRS
            .iter()
            .map(|&(dx, dy)| self.fours_along(x, y, dx, dy))
            .sum();
        if fours >= 2 {
            return NaiveVerdict::DoubleFour;
        }
        // 4. Threes.
        let threes = DIRS
            .iter()
            .filter(|&&(dx, dy)| self.three_along(x, y, dx, dy))
            .count();
        if threes >= 2 {
            NaiveVerdict::DoubleThree
        } else {
            NaiveVerdict::Legal
        }
    }

    /// The distinct fours through the black stone at (x, y) along (dx, dy): sets of four
    /// black stones in a window of five whose empty cell makes exactly five.
    fn fours_along(&self, x: i32, y: i32, dx: i32, dy: i32) -> usize {
        let mut sets: Vec<Vec<i32>> = Vec::new();
        // Every window of 5 cells containing p.
        for start in -4..=0 {
            let cells: Vec<i32> = (start..start + 5).collect();
            let blacks: Vec<i32> = cells
                .iter()
                .copied()
                .filter(|&t| self.black(x + dx * t, y + dy * t))
                .collect();
            let empties = cells
                .iter()
                .filter(|&&t| self.empty(x + dx * t, y + dy * t))
                .count();
            if blacks.len() == 4 && empties == 1 {
                // Filling the gap must make exactly five (not six).
                let before = start - 1;
                let after = start + 5;
                if !self.black(x + dx * before, y + dy * before)
                    && !self.black(x + dx * after, y + dy * after)
                    && !sets.contains(&blacks)
                {
                    sets.push(blacks);
                }
            }
        }
        sets.len()
    }

    /// Whether the black stone at (x, y) makes a three along (dx, dy): some empty point e on
    /// the line makes a straight four with it, e itself making no five and not forbidden.
    fn three_along(&mut self, x: i32, y: i32, dx: i32, dy: i32) -> bool {
        for t in -4..=4 {
            if t == 0 || !self.empty(x + dx * t, y + dy * t) {
                continue;
            }
            let (ex, ey) = (x + dx * t, y + dy * t);
            self.set(ex, ey, 1);
            let ok = self.straight_four_along(x, y, dx, dy, t) && !self.exact_five_any(ex, ey);
            self.set(ex, ey, 0);
            if ok && !self.forbidden(ex, ey) {
                return true;
            }
        }
        false
    }

    /// A straight four containing (x, y) and the cell `t` steps along (dx, dy): 4 consecutive
    /// blacks, both ends empty and each end giving exactly five.
    fn straight_four_along(&self, x: i32, y: i32, dx: i32, dy: i32, t: i32) -> bool {
        (-3..=0).any(|s| {
            (s..s + 4).contains(&t)
                && (s..s + 4).all(|u| self.black(x + dx * u, y + dy * u))
                && self.empty(x + dx * (s - 1), y + dy * (s - 1))
                && self.empty(x + dx * (s + 4), y + dy * (s + 4))
                && !self.black(x + dx * (s - 2), y + dy * (s - 2))
                && !self.black(x + dx * (s + 5), y + dy * (s + 5))
        })
    }
}

/// One line of the cases file.
pub struct Case {
    pub line: usize,
    pub text: String,
    /// The case's id, the first word of its comment (`C7`, `P3b`, `Q12`).
    pub id: String,
    pub board: Board,
    pub point: Pos,
    pub expect: String,
    /// Judged with White to move (`side=white`).
    pub white_side: bool,
}

impl Case {
    /// The verdict of the independent naive checker (always `legal` with White to move or
    /// outside renju).
    pub fn naive_verdict(&self) -> &'static str {
        if self.white_side || !self.board.rule().is_renju() {
            return "legal";
        }
        let mut n = Naive::of(&self.board);
        n.verdict(self.point.x() as i32, self.point.y() as i32)
            .name()
    }
}

/// Parses one line; `None` for blank and comment lines. Panics on malformed lines (the file
/// is ours).
pub fn parse(line_no: usize, line: &str) -> Option<Case> {
    let (body, comment) = line.split_once('#').unwrap_or((line, ""));
    let body = body.trim();
    if body.is_empty() {
        return None;
    }
    let mut size = 15;
    let mut black = Vec::new();
    let mut white = Vec::new();
    let mut point = None;
    let mut expect = String::new();
    let mut white_side = false;
    let mut rule = Rule::RENJU;
    for field in body.split(';') {
        let field = field.trim();
        if field.is_empty() {
            continue;
        }
        let (k, v) = field.split_once('=').expect("field without '='");
        let pts = |v: &str| -> Vec<Pos> {
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Pos::from_human(s).unwrap_or_else(|| panic!("bad point {s}")))
                .collect()
        };
        match k.trim() {
            "size" => size = v.trim().parse().expect("bad size"),
            "black" => black = pts(v),
            "white" => white = pts(v),
            "point" => point = Pos::from_human(v),
            "expect" => expect = v.trim().to_string(),
            "side" => white_side = v.trim() == "white",
            "rule" => rule = Rule::from_name(v.trim()).expect("bad rule"),
            other => panic!("unknown field {other}"),
        }
    }
    let mut board = Board::new(size, size, rule).expect("bad size");
    for p in black {
        assert!(board.is_empty(p), "line {line_no}: duplicate stone {p:?}");
        board.make_move_as(p, Color::Black);
    }
    for p in white {
        assert!(board.is_empty(p), "line {line_no}: duplicate stone {p:?}");
        board.make_move_as(p, Color::White);
    }
    board.set_side_to_move(if white_side {
        Color::White
    } else {
        Color::Black
    });
    Some(Case {
        line: line_no,
        text: line.to_string(),
        id: comment
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string(),
        board,
        point: point.expect("no point"),
        expect,
        white_side,
    })
}

/// Every case of `tests/data/renju-cases.txt`.
pub fn load_cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/renju-cases.txt");
    let text = std::fs::read_to_string(path).expect("cases file");
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| parse(i + 1, l))
        .collect()
}

#[test]
fn naive_checker_textbook_shapes() {
    let verdict = |black: &[&str], white: &[&str], p: &str| {
        let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
        for s in black {
            b.make_move_as(Pos::from_human(s).unwrap(), Color::Black);
        }
        for s in white {
            b.make_move_as(Pos::from_human(s).unwrap(), Color::White);
        }
        let p = Pos::from_human(p).unwrap();
        Naive::of(&b).verdict(p.x() as i32, p.y() as i32)
    };
    use NaiveVerdict::*;
    assert_eq!(verdict(&["f8", "g8", "h6", "h7"], &[], "h8"), DoubleThree);
    assert_eq!(verdict(&["f8", "g8", "h6", "h7"], &["e8"], "h8"), Legal);
    assert_eq!(verdict(&["e8", "g8", "i8", "k8"], &[], "h8"), DoubleFour);
    assert_eq!(
        verdict(&["c8", "d8", "e8", "g8", "h8"], &[], "f8"),
        Overline
    );
    assert_eq!(
        verdict(&["d8", "e8", "f8", "g8", "h6", "h7"], &[], "h8"),
        Legal
    );
}
