//! Compares the board's renju forbidden points with an independent naive checker written
//! straight from docs/rules.md (tests/integration/renju_support.rs), on thousands of random renju positions.

use pentad::board::{debug, Board, Pattern4};
use pentad::core::{Color, Pos, Rule};
use rand::{Rng, SeedableRng};

use super::renju_support as support;

use support::Naive;

/// A random renju position of `n` stones clustered near the centre, Black-heavy so that
/// threes and fours abound. No five on the board.
fn random_position(rng: &mut impl Rng, size: usize, n: usize) -> Board {
    let mut b = Board::new(size, size, Rule::RENJU).unwrap();
    let spread = (size as i32 / 2).min(2 + n as i32 / 6);
    let c = size as i32 / 2;
    let mut placed = 0;
    let mut tries = 0;
    while placed < n && tries < 10 * n + 100 {
        tries += 1;
        let x = (c + rng.gen_range(-spread..=spread)).clamp(0, size as i32 - 1);
        let y = (c + rng.gen_range(-spread..=spread)).clamp(0, size as i32 - 1);
        let p = Pos::new(x as usize, y as usize);
        let color = if rng.gen_bool(0.6) {
            Color::Black
        } else {
            Color::White
        };
        if !b.is_empty(p) || b.is_win_move(p, color) {
            continue;
        }
        b.make_move_as(p, color);
        placed += 1;
    }
    b
}

#[test]
fn random_positions_match_naive_checker() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5EED_0001);
    let mut forbidden_seen = [0usize; 2];
    let mut checked = 0;
    for round in 0..3000 {
        let size = if round % 5 == 0 { 9 + round % 7 } else { 15 };
        let n = rng.gen_range(6..60);
        let b = random_position(&mut rng, size, n);
        let mut naive = Naive::of(&b);
        for p in b.empty_points().collect::<Vec<_>>() {
            let want = naive.forbidden(p.x() as i32, p.y() as i32);
            let got = b.is_forbidden(p);
            let exact = debug::forbidden_exact(&b, p);
            let p4 = b.pattern4(p, Color::Black) == Pattern4::Forbid;
            assert!(
                want == got && got == exact && got == p4,
                "round {round} point {} naive {want} board {got} exact {exact} pattern4 {p4}; stones {:?}",
                p.to_human(),
                b.history().map(|(q, c)| format!("{}{}", if c == Color::Black { "x" } else { "o" }, q.to_human())).collect::<Vec<_>>()
            );
            forbidden_seen[got as usize] += 1;
            checked += 1;
        }
        let listed = b.forbidden_points();
        let count = b.pattern4_count(Color::Black, Pattern4::Forbid) as usize;
        assert_eq!(listed.len(), count, "round {round}: Forbid count");
    }
    eprintln!("checked {checked} points, {} forbidden", forbidden_seen[1]);
    assert!(
        forbidden_seen[1] > 1000,
        "too few forbidden points to be a useful test"
    );
}
