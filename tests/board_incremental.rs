//! Property test: over thousands of random games (random sizes 5..=32 incl. rectangular,
//! every rule, walls before and during the game), after every move, undo and takeback the incremental patterns,
//! combined classes, counts, hash and candidate area equal a from-scratch recomputation.

use pentad::board::{debug, Board, Pattern, Pattern4};
use pentad::core::{Color, Pos, Rule, RuleKind};
use rand::{Rng, SeedableRng};

const RULES: [RuleKind; 5] = [
    RuleKind::Freestyle,
    RuleKind::Standard,
    RuleKind::Renju,
    RuleKind::Caro,
    RuleKind::Caro5,
];

fn check(b: &Board, rng: &mut impl Rng, what: &str) {
    if let Err(e) = debug::check_consistency(b) {
        panic!("{what}: {e}");
    }
    // Spot-check the public accessors against the slow reference.
    for _ in 0..4 {
        let p = Pos::new(rng.gen_range(0..b.width()), rng.gen_range(0..b.height()));
        if !b.is_empty(p) {
            continue;
        }
        for c in Color::BOTH {
            for d in 0..4 {
                assert_eq!(
                    b.pattern(p, c, d),
                    debug::recompute_pattern(b, p, c, d),
                    "{what}"
                );
            }
            assert_eq!(
                b.pattern4(p, c),
                debug::recompute_pattern4(b, p, c),
                "{what}"
            );
        }
    }
    // Counts through the public API add up.
    for c in Color::BOTH {
        let total: u32 = Pattern::ALL.iter().map(|&p| b.pattern_count(c, p)).sum();
        assert_eq!(total as usize, 4 * b.empty_count(), "{what}");
        let total4: u32 = Pattern4::ALL.iter().map(|&p| b.pattern4_count(c, p)).sum();
        assert_eq!(total4 as usize, b.empty_count(), "{what}");
    }
    // Renju: the per-class counts (with the memoized exact 3-3 verdicts) match a histogram of
    // the from-scratch classes of every empty cell, and so does every cell's class.
    if b.rule().kind == RuleKind::Renju && rng.gen_range(0..8) == 0 {
        let mut hist = [0u32; 14];
        for p in b.empty_points() {
            let reference = debug::recompute_pattern4(b, p, Color::Black);
            assert_eq!(b.pattern4(p, Color::Black), reference, "{what} at {p}");
            hist[reference as usize] += 1;
        }
        for p4 in Pattern4::ALL {
            assert_eq!(
                b.pattern4_count(Color::Black, p4),
                hist[p4 as usize],
                "{what}: count of {p4:?}"
            );
        }
    }
}

#[test]
fn random_games_stay_consistent() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xB0A2_D003);
    let mut moves = 0u64;
    let mut walls_mid_game = 0u64;
    for game in 0..1500 {
        let (w, h) = match game % 10 {
            0 => (32, 32),
            1 => (rng.gen_range(5..=8), rng.gen_range(5..=8)),
            2 => (rng.gen_range(5..=32), rng.gen_range(5..=32)),
            _ => {
                let s = [15, 19, 20][game % 3];
                (s, s)
            }
        };
        let kind = RULES[game % 5];
        let rule = Rule {
            kind,
            continuous: game % 7 == 0,
        };
        let mut b = Board::new(w, h, rule).unwrap();
        if rule.continuous {
            for _ in 0..rng.gen_range(0..6) {
                let p = Pos::new(rng.gen_range(0..w), rng.gen_range(0..h));
                if b.is_empty(p) {
                    b.put_wall(p);
                }
            }
        }
        let what = format!("game {game} {w}x{h} {rule:?}");
        check(&b, &mut rng, &what);
        let h0 = b.hash();
        let len = rng.gen_range(1..(w * h).min(90));
        for step in 0..len {
            // Mostly play near the action, sometimes anywhere; sometimes undo.
            let r = rng.gen_range(0..10);
            if r == 0 && b.stone_count() > 0 {
                b.undo();
            } else if r == 2 && rule.continuous && step % 5 == 0 {
                // A wall mid-game (setup normally): later undos of earlier stones must
                // still restore exact state.
                let p = Pos::new(rng.gen_range(0..w), rng.gen_range(0..h));
                if b.is_empty(p) {
                    b.put_wall(p);
                    walls_mid_game += 1;
                }
            } else if r == 1 && b.stone_count() > 2 {
                let hist: Vec<Pos> = b.history().map(|(p, _)| p).collect();
                let p = hist[rng.gen_range(0..hist.len())];
                assert!(b.remove_stone(p));
            } else {
                let cands: Vec<Pos> = if r < 7 {
                    b.candidates().collect()
                } else {
                    b.empty_points().collect()
                };
                if cands.is_empty() {
                    break;
                }
                let p = cands[rng.gen_range(0..cands.len())];
                b.make_move(p);
                moves += 1;
            }
            if step % 4 == 0 || w * h < 100 {
                check(&b, &mut rng, &what);
            }
        }
        check(&b, &mut rng, &what);
        while b.stone_count() > 0 {
            b.undo();
        }
        check(&b, &mut rng, &what);
        assert_eq!(b.hash(), h0, "{what}: hash after undoing everything");
    }
    assert!(moves > 30_000);
    assert!(walls_mid_game > 20, "only {walls_mid_game} mid-game walls");
}

#[test]
fn table_build_is_fast() {
    use std::time::Instant;
    let t = Instant::now();
    for kind in RULES {
        let _ = Board::new(15, 15, Rule::plain(kind)).unwrap();
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    eprintln!("all tables built in {ms:.1} ms");
    // Generous bound: the machine is shared; the figure is reported above.
    assert!(ms < 2000.0);
}
