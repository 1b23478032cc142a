//! Data-driven renju forbidden-point cases from `tests/data/renju-cases.txt`.
//!
//! Format, one case a line: `size=15; black=h8,i9; white=...; point=j10; expect=forbidden-33`
//! (`-44`, `-overline`, `legal`), optional `side=white` (then the point is judged for White
//! to move: it must be legal) and `rule=standard|caro|caro5|freestyle` (never forbidden).
//! `#` starts the comment, whose first word is the case id (`C1`.. shared, `P1a`.. and
//! `Q1`.. ours; a trailing lowercase letter marks a rotation of the same shape). Columns
//! `a..` from the left, rows from 1; here row 1 is y = 0 (mirrored boards give the same
//! verdicts). Every case is checked against the board (fast path, exact procedure,
//! `Pattern4`) and against the independent naive checker.

use super::renju_support as support;

use pentad::board::{debug, Forbidden, Pattern4};
use pentad::core::Color;
use std::collections::BTreeSet;

#[test]
fn renju_cases_file() {
    let cases = support::load_cases();
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
        // The fast path, the exact procedure and Pattern4 must agree (the exact procedure
        // judges the renju rule whatever the board's rule, so only under renju).
        let forbid4 = b.pattern4(p, Color::Black) == Pattern4::Forbid;
        let exact = b.rule().is_renju() && debug::forbidden_exact(b, p);
        if got != c.expect || exact != b.is_forbidden(p) || forbid4 != exact {
            failures.push(format!(
                "line {}: got {got} (exact {exact}, pattern4 forbid {forbid4}): {}",
                c.line, c.text
            ));
        }
        // White is never forbidden, whatever the side to move.
        if b.pattern4(p, Color::White) == Pattern4::Forbid {
            failures.push(format!("line {}: White Forbid: {}", c.line, c.text));
        }
        debug::check_consistency(b).unwrap();
    }
    assert_none_failed(&failures);
}

/// The expected verdicts are not just what the board says: the independent naive checker
/// (straight from docs/rules.md) agrees with every line of the file.
#[test]
fn renju_cases_match_naive_checker() {
    let cases = support::load_cases();
    let mut failures = Vec::new();
    for c in &cases {
        let naive = c.naive_verdict();
        if naive != c.expect {
            failures.push(format!("line {}: naive {naive}: {}", c.line, c.text));
        }
    }
    assert_none_failed(&failures);
}

/// The file holds the 20 shared cases and at least 60 distinct shapes of our own (rotations,
/// ids with a trailing lowercase letter, count once), every line with an id and a comment.
#[test]
fn renju_cases_coverage() {
    let cases = support::load_cases();
    let mut shared = BTreeSet::new();
    let mut own = BTreeSet::new();
    for c in &cases {
        let id = c.id.trim_end_matches(|ch: char| ch.is_ascii_lowercase());
        assert!(
            id.len() >= 2
                && c.text
                    .split('#')
                    .nth(1)
                    .is_some_and(|t| t.len() > id.len() + 5),
            "line {}: no id or description: {}",
            c.line,
            c.text
        );
        if id.starts_with('C') {
            assert!(
                shared.insert(id.to_string()),
                "line {}: duplicate id",
                c.line
            );
        } else if !own.insert(id.to_string()) {
            // Rotations share their shape's id; plain ids must be unique.
            assert!(c.id != id, "line {}: duplicate id {}", c.line, c.id);
        }
    }
    assert_eq!(shared.len(), 20, "shared cases");
    assert!(own.len() >= 60, "only {} distinct own cases", own.len());
    // Each kind of verdict is represented, including the other rules and White to move.
    for want in [
        "legal",
        "forbidden-33",
        "forbidden-44",
        "forbidden-overline",
    ] {
        assert!(cases.iter().any(|c| c.expect == want), "no {want} case");
    }
    assert!(cases.iter().any(|c| c.white_side));
    assert!(cases.iter().any(|c| !c.board.rule().is_renju()));
}

/// Fails with every case's line when any case failed.
fn assert_none_failed(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
