//! Data-driven renju forbidden-point cases from `tests/data/renju-cases.txt`.
//!
//! Format, one case a line: `size=15; black=h8,i9; white=...; point=j10; expect=forbidden-33`
//! (`-44`, `-overline`, `legal`), optional `side=white` (then the point is judged for White
//! to move: it must be legal). `#` starts a comment. Columns `a..` from the left, rows from 1;
//! here row 1 is y = 0 (mirrored boards give the same verdicts).

use pentad::board::{debug, Board, Forbidden, Pattern4};
use pentad::core::{Color, Pos, Rule};

struct Case {
    line: usize,
    text: String,
    board: Board,
    point: Pos,
    expect: String,
    white_side: bool,
}

fn parse(line_no: usize, line: &str) -> Option<Case> {
    let body = line.split('#').next()?.trim();
    if body.is_empty() {
        return None;
    }
    let mut size = 15;
    let mut black = Vec::new();
    let mut white = Vec::new();
    let mut point = None;
    let mut expect = String::new();
    let mut white_side = false;
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
            other => panic!("unknown field {other}"),
        }
    }
    let mut board = Board::new(size, size, Rule::RENJU).expect("bad size");
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
        board,
        point: point.expect("no point"),
        expect,
        white_side,
    })
}

fn load() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/renju-cases.txt");
    let text = std::fs::read_to_string(path).expect("cases file");
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| parse(i + 1, l))
        .collect()
}

#[test]
fn renju_cases_file() {
    let cases = load();
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let b = &c.board;
        let p = c.point;
        assert!(b.is_empty(p), "line {}: point occupied", c.line);
        let got = if c.white_side {
            if b.is_legal(p) {
                "legal".to_string()
            } else {
                "illegal".to_string()
            }
        } else {
            match b.forbidden_kind(p) {
                None => "legal".to_string(),
                Some(Forbidden::Overline) => "forbidden-overline".to_string(),
                Some(Forbidden::DoubleFour) => "forbidden-44".to_string(),
                Some(Forbidden::DoubleThree) => "forbidden-33".to_string(),
            }
        };
        // The fast path, the exact procedure and Pattern4 must agree.
        let exact = debug::forbidden_exact(b, p);
        let forbid4 = b.pattern4(p, Color::Black) == Pattern4::Forbid;
        if got != c.expect || exact != b.is_forbidden(p) || forbid4 != exact {
            failures.push(format!(
                "line {}: got {got} (exact {exact}, pattern4 forbid {forbid4}): {}",
                c.line, c.text
            ));
        }
        debug::check_consistency(b).unwrap();
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
