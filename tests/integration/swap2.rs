//! Swap2 decisions (SWAP2BOARD): balanced proposals, swap / play / balance choices that agree
//! with the search, legal replies on every rule and size, and the time budget.

use std::time::{Duration, Instant};

use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};
use pentad::engine::swap2::{
    probe, respond, respond_with, Swap2Budget, Swap2Reply, DECISION_FACTOR, DEFAULT_PROBE_NODES,
    PLAY_MARGIN, REFINE_FACTOR, SWAP_MARGIN,
};

/// The largest |score| (White to move) a proposal may have to count as balanced on 15×15
/// freestyle.
const BALANCED: i32 = 100;
/// The same bound in renju and on 20×20. Renju's evaluation (with the tables fitted to
/// Rapfi's scores) finds no three-stone shape near the centre within 100 of even: in renju
/// those openings all lean to one side (the most even one scores 103 at the probe's nodes);
/// nor, on 20×20, does the freestyle evaluation fitted to the model's results (session 65:
/// the most even scores 117, Black's side).
const BALANCED_WIDE: i32 = 150;

/// A board with `stones` (human notation) alternately Black and White, White to move after
/// an odd count, as the session builds it from SWAP2BOARD.
fn swap2_board(rule: Rule, size: usize, stones: &[&str]) -> Board {
    let mut b = Board::new(size, size, rule).unwrap();
    for (i, s) in stones.iter().enumerate() {
        let p = Pos::from_human(s).unwrap();
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        b.make_move_as(p, c);
    }
    b
}

/// Places `moves` in Swap2 order after the board's stones, asserting each is legal: on the
/// board, empty, not forbidden to Black, not a five. Returns the board with White to move.
fn place_checked(board: &Board, moves: &[Pos]) -> Board {
    let mut b = board.clone();
    for &p in moves {
        let c = if b.stone_count().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        assert!(b.contains(p.x() as i32, p.y() as i32), "{p} off the board");
        assert!(b.is_empty(p), "{p} occupied");
        if c == Color::Black {
            assert!(!b.is_forbidden(p), "{p} forbidden to Black");
        }
        assert!(!b.is_win_move(p, c), "{p} makes a five");
        b.make_move_as(p, c);
    }
    b.set_side_to_move(Color::White);
    b
}

/// White's best-move score with the nodes the decision itself uses.
fn decision_score(b: &Board) -> i32 {
    probe(b, DEFAULT_PROBE_NODES * DECISION_FACTOR)
}

fn moves(r: &Swap2Reply) -> &[Pos] {
    match r {
        Swap2Reply::Swap => &[],
        Swap2Reply::Moves(ms) => ms,
    }
}

#[test]
fn proposal_is_legal_balanced_and_deterministic() {
    for (rule, size) in [
        (Rule::FREESTYLE, 15),
        (Rule::RENJU, 15),
        (Rule::FREESTYLE, 20),
    ] {
        let empty = Board::new(size, size, rule).unwrap();
        let r = respond(&empty).expect("a proposal");
        let ms = moves(&r).to_vec();
        assert_eq!(ms.len(), 3, "{rule:?} {size}: {r:?}");
        assert!(ms[0] != ms[1] && ms[1] != ms[2] && ms[0] != ms[2]);
        let b = place_checked(&empty, &ms);
        // Near the centre.
        let c = (size as i32 - 1) / 2;
        for p in &ms {
            assert!((p.x() as i32 - c).abs() <= 2 && (p.y() as i32 - c).abs() <= 2);
        }
        let s = probe(&b, DEFAULT_PROBE_NODES * REFINE_FACTOR);
        let bound = if rule == Rule::RENJU || size == 20 {
            BALANCED_WIDE
        } else {
            BALANCED
        };
        assert!(
            s.abs() <= bound,
            "{rule:?} {size}: {r:?} scores {s} for White"
        );
        if size == 15 && rule == Rule::FREESTYLE {
            assert_eq!(respond(&empty), Some(r.clone()), "not deterministic");
        }
    }
}

#[test]
fn black_clearly_better_after_three_is_swapped() {
    // Two connected Black stones in the centre, White's stone far away in a corner.
    for stones in [["h8", "a1", "i8"], ["h8", "o15", "i9"]] {
        let b = swap2_board(Rule::FREESTYLE, 15, &stones);
        assert!(decision_score(&b) <= -SWAP_MARGIN);
        assert_eq!(respond(&b), Some(Swap2Reply::Swap), "{stones:?}");
    }
}

#[test]
fn black_clearly_worse_after_three_is_not_swapped() {
    // Black's stones in two corners, White's in the centre: White plays on.
    for (rule, stones) in [
        (Rule::FREESTYLE, ["a1", "h8", "o15"]),
        (Rule::RENJU, ["a1", "h8", "a15"]),
    ] {
        let b = swap2_board(rule, 15, &stones);
        let r = respond(&b).expect("a reply");
        let ms = moves(&r);
        assert_eq!(ms.len(), 1, "{stones:?}: {r:?}");
        let after = place_checked(&b, ms);
        assert_eq!(after.stone_count(), 4);
        assert!(decision_score(&b) >= -PLAY_MARGIN);
    }
}

#[test]
fn three_stone_choice_agrees_with_the_search() {
    for stones in [["h8", "i9", "i8"], ["h8", "i8", "j8"], ["h8", "i9", "j10"]] {
        let b = swap2_board(Rule::FREESTYLE, 15, &stones);
        let s = decision_score(&b);
        let r = respond(&b).expect("a reply");
        let ms = moves(&r);
        match ms.len() {
            0 => assert!(s < -PLAY_MARGIN, "{stones:?}: SWAP at {s}"),
            1 => assert!(s >= -PLAY_MARGIN, "{stones:?}: play at {s}"),
            2 => {
                assert!(
                    s > -SWAP_MARGIN && s < -PLAY_MARGIN,
                    "{stones:?}: balance at {s}"
                );
                // The two stones (White, then Black) even the game out better than it was.
                let after = place_checked(&b, ms);
                let e = probe(&after, DEFAULT_PROBE_NODES * REFINE_FACTOR);
                assert!(e.abs() < s.abs(), "{stones:?}: {r:?} scores {e}, was {s}");
            }
            n => panic!("{stones:?}: {n} moves"),
        }
    }
}

#[test]
fn five_stones_take_the_better_colour() {
    // Black's open three h8-i8-j8 (White to move can only block one end): take Black.
    let b = swap2_board(Rule::FREESTYLE, 15, &["h8", "i9", "i8", "a1", "j8"]);
    assert!(decision_score(&b) < 0);
    assert_eq!(respond(&b), Some(Swap2Reply::Swap));
    // White's connected pair in the centre, Black's stones in three corners: stay White.
    for stones in [
        ["a1", "h8", "o15", "i8", "a15"],
        ["h8", "i8", "a1", "j8", "o15"],
    ] {
        let b = swap2_board(Rule::FREESTYLE, 15, &stones);
        let r = respond(&b).expect("a reply");
        assert_eq!(moves(&r).len(), 1, "{stones:?}: {r:?}");
        place_checked(&b, moves(&r));
        assert!(decision_score(&b) >= 0);
    }
}

#[test]
fn every_rule_and_size_gets_legal_replies() {
    // A smaller budget: this is about legality, not strength.
    let budget = Swap2Budget {
        probe_nodes: 300,
        max_ms: 3_000,
    };
    let threes = [["h8", "i9", "i8"], ["h8", "a1", "i8"], ["a1", "h8", "o15"]];
    let fives = [
        ["h8", "i9", "i8", "g8", "j8"],
        ["h8", "i9", "i8", "j9", "h7"],
        ["a1", "h8", "o15", "i8", "a15"],
    ];
    for rule in [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO] {
        for size in [15usize, 20] {
            let empty = Board::new(size, size, rule).unwrap();
            let r = respond_with(&empty, &budget).expect("a proposal");
            assert_eq!(moves(&r).len(), 3);
            place_checked(&empty, moves(&r));
            for stones in threes
                .iter()
                .map(|s| &s[..])
                .chain(fives.iter().map(|s| &s[..]))
            {
                let b = swap2_board(rule, size, stones);
                let r = respond_with(&b, &budget).expect("a reply");
                let n = moves(&r).len();
                let allowed: &[usize] = if stones.len() == 3 {
                    &[0, 1, 2]
                } else {
                    &[0, 1]
                };
                assert!(allowed.contains(&n), "{rule:?} {size} {stones:?}: {r:?}");
                place_checked(&b, moves(&r));
            }
        }
    }
    // Other stone counts have no Swap2 answer.
    let two = swap2_board(Rule::FREESTYLE, 15, &["h8", "i9"]);
    assert_eq!(respond_with(&two, &budget), None);
}

#[test]
fn renju_balancing_never_places_a_forbidden_black_stone() {
    // Black h8 i9 with White j10 blocking the diagonal: whatever the reply, the Black stones
    // it places must pass the renju test (checked by place_checked).
    let budget = Swap2Budget {
        probe_nodes: 1_500,
        max_ms: 3_000,
    };
    for stones in [["h8", "j10", "i9"], ["h8", "i8", "h9"], ["h8", "i8", "j8"]] {
        let b = swap2_board(Rule::RENJU, 15, &stones);
        let r = respond_with(&b, &budget).expect("a reply");
        place_checked(&b, moves(&r));
    }
}

#[test]
fn short_and_zero_budgets_answer_quickly() {
    let short = Swap2Budget::for_time(Some(300), None);
    assert_eq!(short.max_ms, 100);
    let zero = Swap2Budget::for_time(Some(0), None);
    for (budget, limit) in [(short, 100 + 400), (zero, 200)] {
        for stones in [
            &[][..],
            &["h8", "i9", "i8"][..],
            &["h8", "i9", "i8", "g8", "j8"][..],
        ] {
            let b = swap2_board(Rule::RENJU, 15, stones);
            let t = Instant::now();
            let r = respond_with(&b, &budget).expect("a reply");
            let took = t.elapsed();
            assert!(
                took < Duration::from_millis(limit),
                "{stones:?} with {budget:?} took {took:?}"
            );
            place_checked(&b, moves(&r));
        }
    }
    // The default budget (no timeout_turn sent) stays within a few seconds.
    assert!(Swap2Budget::for_time(None, None).max_ms <= 3_000);
    assert!(Swap2Budget::for_time(Some(5_000), Some(1_000)).max_ms <= 250);
}
