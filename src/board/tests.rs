//! Unit tests of the board: wins, hash, patterns, forbidden points, candidates.

use super::testutil::at;
use super::*;

#[test]
fn five_wins_per_rule() {
    let mut b = Board::new(15, 15, Rule::STANDARD).unwrap();
    for x in [2, 3, 4, 6, 7] {
        b.make_move_as(Pos::new(x, 7), Color::Black);
    }
    assert!(!b.is_win_move(Pos::new(5, 7), Color::Black));
    let mut f = Board::new(15, 15, Rule::FREESTYLE).unwrap();
    for x in [2, 3, 4, 6, 7] {
        f.make_move_as(Pos::new(x, 7), Color::Black);
    }
    assert!(f.is_win_move(Pos::new(5, 7), Color::Black));
    f.make_move_as(Pos::new(5, 7), Color::Black);
    assert_eq!(f.last_move_won(), Some(Color::Black));
}

#[test]
fn undo_restores_hash() {
    let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
    let h0 = b.hash();
    b.make_move(Pos::new(7, 7));
    b.make_move(Pos::new(8, 8));
    b.undo();
    b.undo();
    assert_eq!(b.hash(), h0);
    assert_eq!(b.side_to_move(), Color::Black);
    debug::check_consistency(&b).unwrap();
}

#[test]
fn patterns_and_counts() {
    let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
    for s in ["f8", "g8"] {
        b.make_move_as(at(s), Color::Black);
    }
    assert_eq!(b.pattern(at("h8"), Color::Black, 0), Pattern::Flex3);
    assert_eq!(
        b.pattern(at("h8"), Color::White, 0),
        Pattern::Block1.max(b.pattern(at("h8"), Color::White, 0))
    );
    assert_eq!(b.pattern4(at("h8"), Color::Black), Pattern4::Flex3);
    b.make_move_as(at("h8"), Color::Black);
    assert_eq!(b.pattern4(at("i8"), Color::Black), Pattern4::Flex4);
    assert_eq!(b.pattern4(at("e8"), Color::Black), Pattern4::Flex4);
    assert_eq!(b.pattern4_count(Color::Black, Pattern4::Flex4), 2);
    assert_eq!(b.pattern_count(Color::Black, Pattern::Flex4), 2);
    debug::check_consistency(&b).unwrap();
}

#[test]
fn forbidden_fast_path_matches_exact() {
    let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
    for s in ["f8", "g8", "h6", "h7"] {
        b.make_move_as(at(s), Color::Black);
    }
    assert!(b.is_forbidden(at("h8")));
    assert_eq!(b.pattern4(at("h8"), Color::Black), Pattern4::Forbid);
    assert!(debug::forbidden_exact(&b, at("h8")));
    assert_eq!(b.forbidden_points(), vec![at("h8")]);
    assert_eq!(b.pattern4_count(Color::Black, Pattern4::Forbid), 1);
    // White is never forbidden.
    assert_ne!(b.pattern4(at("h8"), Color::White), Pattern4::Forbid);
    b.set_side_to_move(Color::White);
    assert!(b.is_legal(at("h8")));
    b.set_side_to_move(Color::Black);
    assert!(!b.is_legal(at("h8")));
}

#[test]
fn candidates_follow_stones() {
    let mut b = Board::new(9, 7, Rule::FREESTYLE).unwrap();
    assert_eq!(b.candidates().collect::<Vec<_>>(), vec![Pos::new(4, 3)]);
    b.make_move(Pos::new(0, 0));
    let c: Vec<Pos> = b.candidates().collect();
    assert_eq!(c.len(), 8);
    assert!(b.in_candidate_area(Pos::new(2, 2)));
    assert!(!b.in_candidate_area(Pos::new(3, 0)));
    b.undo();
    debug::check_consistency(&b).unwrap();
}

#[test]
fn walls_block_lines() {
    let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
    b.put_wall(at("e8"));
    for s in ["f8", "g8", "h8"] {
        b.make_move_as(at(s), Color::Black);
    }
    assert_eq!(b.pattern(at("i8"), Color::Black, 0), Pattern::Block4);
    assert_eq!(b.empty_count(), 225 - 4);
    debug::check_consistency(&b).unwrap();
}

/// Random renju positions dense in Black threes: every 3-3 candidate holding a four resolves
/// to a class its code allows, and the class queries agree (`debug::check_consistency`).
/// The walk must meet such candidates both forbidden and legal, or the test proves nothing.
#[test]
fn four_three_three_candidates_resolve_within_their_outcomes() {
    use rand::{rngs::StdRng, Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(433);
    let mut seen = [0u32; N_CODES4];
    for _ in 0..400 {
        let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
        for _ in 0..60 {
            if b.last_move_won().is_some() {
                break;
            }
            // Black plays beside its own stones more often, so threes and fours pile up.
            let cands: Vec<Pos> = b
                .candidates()
                .filter(|&p| !b.is_forbidden(p) || b.side_to_move() == Color::White)
                .collect();
            if cands.is_empty() {
                break;
            }
            let p = cands[rng.gen_range(0..cands.len())];
            b.make_move(p);
            if b.counts.pat4(0, MAYBE433 as usize) > 0 {
                debug::check_consistency(&b).unwrap();
                for q in b.empty_points() {
                    if b.info[b.idx(q)].pat4()[0] == MAYBE433 {
                        seen[b.pattern4(q, Color::Black) as usize] += 1;
                    }
                }
            }
        }
    }
    let legal = seen[Pattern4::Block4Flex3 as usize] + seen[Pattern4::Flex4 as usize];
    assert!(
        seen[Pattern4::Forbid as usize] > 0 && legal > 0,
        "too few 4-3-3 candidates met: {seen:?}"
    );
}

/// A value table with distinct pseudo-random entries per colour and pattern code.
fn random_values(seed: u64) -> Arc<CellValues> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut v = [[0i16; N_PCODES]; 2];
    for row in v.iter_mut() {
        for x in row.iter_mut() {
            *x = rng.gen_range(-500..500);
        }
    }
    Arc::new(CellValues::from_pcode_values(&v, Vec::new()))
}

#[test]
fn cell_value_sum_follows_moves_undo_and_walls() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for (game, kind) in [RuleKind::Freestyle, RuleKind::Renju, RuleKind::Caro]
        .into_iter()
        .cycle()
        .take(12)
        .enumerate()
    {
        let size = rng.gen_range(7..=20);
        let mut b = Board::new(size, size, Rule::plain(kind)).unwrap();
        b.set_cell_values(random_values(game as u64));
        if game % 4 == 3 {
            b.put_wall(Pos::new(0, 0));
        }
        for step in 0..60 {
            let empties: Vec<Pos> = (0..size * size)
                .map(|i| Pos::new(i % size, i / size))
                .filter(|&p| b.is_empty(p))
                .collect();
            if empties.is_empty() {
                break;
            }
            let before = b.value_black();
            b.make_move(empties[rng.gen_range(0..empties.len())]);
            assert_eq!(b.value_black_before_last(), before);
            if let Err(e) = debug::check_consistency(&b) {
                panic!("game {game} step {step}: {e}");
            }
            if rng.gen_bool(0.3) {
                b.undo();
                assert_eq!(b.value_black(), before);
            }
        }
        // Installing another table mid-game recomputes the sums of earlier plies too.
        let last = b.history().last();
        b.set_cell_values(random_values(99));
        debug::check_consistency(&b).unwrap();
        if last.is_some() {
            let now = b.value_black_before_last();
            b.undo();
            assert_eq!(b.value_black(), now);
        }
    }
}

/// `debug::check_change` (the fuzz target's check after every operation) passes on correct
/// moves, undos and takebacks, agreeing with the full check, and finds a corruption out of
/// reach of the change, in reach of it, and in the counts.
#[test]
fn check_change_passes_correct_play_and_finds_corruption() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut snap = debug::Snapshot::default();
    let mut b = Board::new(19, 17, Rule::RENJU).unwrap();
    b.set_cell_values(random_values(3));
    for step in 0..300 {
        snap.take(&b);
        let p = Pos::new(rng.gen_range(0..19), rng.gen_range(0..17));
        let changed = match rng.gen_range(0..6) {
            0 => b.last_move().inspect(|_| b.undo()),
            1 => b.remove_stone(p).then_some(p),
            _ => b.is_empty(p).then(|| b.make_move(p)).map(|()| p),
        };
        let changed = changed.unwrap_or(p);
        if let Err(e) = debug::check_change(&snap, &b, changed) {
            panic!("step {step}: {e}");
        }
        debug::check_consistency(&b).unwrap();
    }
    assert!(b.stone_count() > 10, "too few stones to test");
    let (p, far) = (Pos::new(9, 8), Pos::new(1, 1));
    let corrupt: [fn(&mut Board, usize); 3] = [
        |b, i| b.info[i].keys[2] ^= 1,
        |b, i| b.near[i] += 1,
        |b, _| b.counts.0[3] = b.counts.0[3].wrapping_add(1),
    ];
    for (k, f) in corrupt.iter().enumerate() {
        for q in [p, far] {
            let mut c = b.clone();
            let _ = c.remove_stone(p);
            snap.take(&c);
            if c.is_empty(p) {
                c.make_move(p);
            }
            let i = c.idx(q);
            f(&mut c, i);
            assert!(
                debug::check_change(&snap, &c, p).is_err(),
                "corruption {k} at {q:?}"
            );
        }
    }
}

#[test]
fn network_features_follow_a_stone_put_back_in_the_other_colour() {
    // After a takeback the colours need not alternate, so the same points in the same order
    // can hold other colours: the features must notice the colour, not just the points.
    let net = Arc::new(crate::net::random_value_network(
        crate::net::Family::Renju,
        9,
    ));
    let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
    b.set_network(Some(net));
    for (s, c) in [
        ("h8", Color::Black),
        ("i9", Color::White),
        ("j10", Color::Black),
    ] {
        b.make_move_as(at(s), c);
    }
    b.sync_network();
    b.undo();
    b.make_move_as(at("j10"), Color::White);
    assert_eq!(b.net_pool(), b.net_pool_from_scratch());
}
