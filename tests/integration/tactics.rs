//! Tactical suite: every position of `tests/data/tactics.txt` must be solved by
//! `Searcher::search` within its node budget.
//!
//! Line format: `rule=renju; size=15; moves=h8 i9 ...; kind=vcf; expect=j10 k11; # comment`.
//! Kinds: `win1` (a five now: best in expect, a mate score), `block5` (the only block:
//! best in expect), `vcf` (a forced win: a mate score, best in expect (the first moves of
//! the shortest VCFs) or a longer VCF whose line checks out independently), `defend` (the
//! opponent threatens a VCF: best among the moves that stop every VCF), `noforbid` (Black's
//! only VCF runs through a forbidden point: the move is legal and not one of expect, the
//! forbidden points; Black may still win by threats there, so a mate may be claimed), `vct`
//! (no VCF, but a three or four after which every defence loses to a VCF: a mate score and
//! best among the threat moves an independent naive check proved winning).

use std::sync::atomic::AtomicBool;

use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::search::{format_score, SearchLimits, Searcher, MATE_BOUND};

const NODE_BUDGET: u64 = 300_000;

struct Case {
    line_no: usize,
    rule: Rule,
    size: usize,
    moves: String,
    kind: String,
    expect: Vec<Pos>,
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut rule = None;
        let mut size = 15;
        let mut moves = String::new();
        let mut kind = String::new();
        let mut expect = Vec::new();
        for field in line.split(';') {
            let Some((k, v)) = field.split_once('=') else {
                continue;
            };
            let v = v.trim();
            match k.trim() {
                "rule" => rule = Rule::from_name(v),
                "size" => size = v.parse().expect("bad size"),
                "moves" => moves = v.to_string(),
                "kind" => kind = v.to_string(),
                "expect" => {
                    expect = v
                        .split_whitespace()
                        .map(|m| Pos::from_human(m).expect("bad expect move"))
                        .collect()
                }
                other => panic!("line {}: unknown key {other}", i + 1),
            }
        }
        cases.push(Case {
            line_no: i + 1,
            rule: rule.unwrap_or_else(|| panic!("line {}: bad rule", i + 1)),
            size,
            moves,
            kind,
            expect,
        });
    }
    cases
}

fn board_of(c: &Case) -> Board {
    let mut b = Board::new(c.size, c.size, c.rule).expect("board");
    for m in c.moves.split_whitespace() {
        let p = Pos::from_human(m).expect("bad move");
        assert!(b.is_empty(p), "line {}: {m} occupied", c.line_no);
        b.make_move(p);
    }
    b
}

/// Checks independently (with `is_win_move` only) that `line` is a won VCF for the side to
/// move: attacker moves each leave a five point, defender moves take the only one, and the
/// attacker ends with a five, an unstoppable double five, or a five point Black may not take.
fn verify_vcf_line(board: &Board, line: &[Pos]) -> bool {
    let mut b = board.clone();
    let att = b.side_to_move();
    let renju = b.rule().is_renju();
    let fives =
        |b: &Board, c| -> Vec<Pos> { b.empty_points().filter(|&p| b.is_win_move(p, c)).collect() };
    for (i, &m) in line.iter().enumerate() {
        if !b.is_legal(m) {
            return false;
        }
        if i % 2 == 1 {
            // Defender: must take the attacker's only five point, with no five of its own.
            let f = fives(&b, att);
            if f != vec![m] || !fives(&b, att.opp()).is_empty() {
                return false;
            }
            b.make_move(m);
            continue;
        }
        if b.is_win_move(m, att) {
            return true;
        }
        if !fives(&b, att.opp()).iter().all(|&q| q == m) {
            return false;
        }
        b.make_move(m);
        let f = fives(&b, att);
        if f.is_empty() {
            return false;
        }
        let unstoppable = f.len() >= 2
            || (renju && att.opp() == pentad::core::Color::Black && b.is_forbidden(f[0]));
        if unstoppable && i + 1 == line.len() {
            return true;
        }
    }
    false
}

#[test]
fn tactical_suite() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tactics.txt"
    ))
    .expect("tactics.txt");
    let cases = parse(&text);
    assert!(cases.len() >= 50, "only {} positions", cases.len());
    let mut searcher = Searcher::new(16 << 20);
    let stop = AtomicBool::new(false);
    let mut failures = Vec::new();
    let mut total_nodes = 0;
    for c in &cases {
        let board = board_of(c);
        searcher.clear_hash();
        // Only the forbidden point is checked there: a smaller budget is enough.
        let budget = if c.kind == "noforbid" {
            NODE_BUDGET / 3
        } else {
            NODE_BUDGET
        };
        let limits = SearchLimits {
            max_nodes: Some(budget),
            ..Default::default()
        };
        let r = searcher.search(&board, &limits, &stop, &mut |_| {});
        total_nodes += r.nodes;
        let legal = board.is_legal(r.best);
        let in_expect = c.expect.contains(&r.best);
        let mate = r.score >= MATE_BOUND;
        let ok = legal
            && match c.kind.as_str() {
                "win1" => in_expect && mate,
                "vcf" => mate && (in_expect || verify_vcf_line(&board, &r.pv)),
                "vct" => mate && in_expect,
                "block5" | "defend" => in_expect,
                "noforbid" => !in_expect && !board.is_forbidden(r.best),
                k => panic!("line {}: unknown kind {k}", c.line_no),
            };
        if !ok {
            failures.push(format!(
                "line {} ({} {}): best {} score {} depth {} nodes {}; expect {:?}",
                c.line_no,
                c.rule.name(),
                c.kind,
                r.best.to_human(),
                format_score(r.score),
                r.depth,
                r.nodes,
                c.expect.iter().map(|p| p.to_human()).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!(
        "tactics: {}/{} solved, {} nodes",
        cases.len() - failures.len(),
        cases.len(),
        total_nodes
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}
