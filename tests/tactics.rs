//! Tactical suite: every position of `tests/data/tactics.txt` must be solved by
//! `Searcher::search` within its node budget.
//!
//! Line format: `rule=renju; size=15; moves=h8 i9 ...; kind=vcf; expect=j10 k11; # comment`.
//! Kinds: `win1` (a five now: best in expect, a mate score), `block5` (the only block:
//! best in expect), `vcf` (a forced win: best in expect, a mate score), `defend` (the
//! opponent threatens a VCF: best among the moves that stop every VCF), `noforbid` (Black's
//! only VCF runs through a forbidden point: the move is legal and not one of expect, the
//! forbidden points, and no mate is claimed).

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
        let limits = SearchLimits {
            max_nodes: Some(NODE_BUDGET),
            ..Default::default()
        };
        let r = searcher.search(&board, &limits, &stop, &mut |_| {});
        total_nodes += r.nodes;
        let legal = board.is_legal(r.best);
        let in_expect = c.expect.contains(&r.best);
        let mate = r.score >= MATE_BOUND;
        let ok = legal
            && match c.kind.as_str() {
                "win1" | "vcf" => in_expect && mate,
                "block5" | "defend" => in_expect,
                "noforbid" => !in_expect && !board.is_forbidden(r.best) && !mate,
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
