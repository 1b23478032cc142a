//! Property test: random games (random sizes 5..=32 incl. rectangular, every rule, walls
//! before and during the game) of moves, undos and takebacks; after each step the incremental
//! patterns, combined classes, counts, hash and candidate area equal a from-scratch
//! recomputation. Built on proptest, so a failing game is shrunk to a short one before it is
//! reported.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use pentad::board::{debug, Board, Pattern, Pattern4};
use pentad::core::{Color, Pos, Rule, RuleKind};
use pentad::net::{self, Family, Network, CHANNELS, HIDDEN, MAGIC};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rand::{Rng, SeedableRng};

/// Random games played.
const GAMES: u32 = 1500;
/// Most steps in one game.
const MAX_STEPS: usize = 90;

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
    // The network's incremental features (brought up to date lazily, so over several steps
    // at once) equal the sum recomputed from the cells.
    if b.network().is_some() {
        assert_eq!(
            b.net_pool(),
            b.net_pool_from_scratch(),
            "{what}: network features"
        );
    }
    // Spot-check the public accessors against the slow reference.
    for _ in 0..4 {
        let p = Pos::new(rng.gen_range(0..b.width()), rng.gen_range(0..b.height()));
        if !b.is_empty(p) {
            continue;
        }
        // A cell's activation from its keys on the spot equals the incremental state's
        // (the board's network orders moves too, unless it has linear cells and no policy).
        if b.policy_network().is_some() {
            assert_eq!(
                b.net_activation_direct(p),
                b.net_activation(p),
                "{what}: activation at {p:?}"
            );
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

/// One step of a random game. The indices pick from the list that exists at that moment
/// (modulo its length), so they stay meaningful while the game is shrunk.
#[derive(Clone, Debug)]
enum Step {
    /// A candidate point (near the stones).
    Near(usize),
    /// Any empty point.
    Anywhere(usize),
    /// Undo the last move.
    Undo,
    /// Take back one of the stones on the board (`TAKEBACK`), not necessarily the last.
    TakeBack(usize),
    /// A wall mid-game (continuous rules only): later undos must still restore exact state.
    Wall(usize, usize),
}

/// A random game: board, rule, walls placed first, steps, and the seed of the spot checks.
#[derive(Clone, Debug)]
struct Game {
    width: usize,
    height: usize,
    rule: Rule,
    walls: Vec<(usize, usize)>,
    steps: Vec<Step>,
    check_seed: u64,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => any::<usize>().prop_map(Step::Near),
        3 => any::<usize>().prop_map(Step::Anywhere),
        1 => Just(Step::Undo),
        1 => any::<usize>().prop_map(Step::TakeBack),
        1 => (0..32usize, 0..32usize).prop_map(|(x, y)| Step::Wall(x, y)),
    ]
}

fn game() -> impl Strategy<Value = Game> {
    let size = prop_oneof![
        1 => Just((32usize, 32usize)),
        1 => (5..=8usize, 5..=8usize),
        1 => (5..=32usize, 5..=32usize),
        7 => prop::sample::select(vec![15usize, 19, 20]).prop_map(|s| (s, s)),
    ];
    let rule = (0..RULES.len(), prop::bool::weighted(1.0 / 7.0)).prop_map(|(k, continuous)| Rule {
        kind: RULES[k],
        continuous,
    });
    (
        size,
        rule,
        prop::collection::vec((0..32usize, 0..32usize), 0..6),
        prop::collection::vec(step(), 1..MAX_STEPS),
        any::<u64>(),
    )
        .prop_map(|((width, height), rule, walls, steps, check_seed)| Game {
            width,
            height,
            rule,
            walls,
            steps,
            check_seed,
        })
}

/// Counts over all games, so the test can tell that it exercised what it claims to.
#[derive(Default)]
struct Tally {
    moves: AtomicU64,
    walls_mid_game: AtomicU64,
    with_network: AtomicU64,
}

/// One random network per family, window and kind of cells (clipped, linear), made once for
/// all games; `pick` chooses among a family's.
fn shared_network(family: Family, pick: usize) -> Arc<Network> {
    static NETS: OnceLock<Vec<Vec<Arc<Network>>>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        Family::ALL
            .iter()
            .map(|&f| {
                f.windows()
                    .iter()
                    .flat_map(|&w| [false, true].map(|linear| random_network(f, w, linear, 11)))
                    .collect()
            })
            .collect()
    });
    let of_family = &nets[family.code() as usize];
    of_family[pick % of_family.len()].clone()
}

/// A network of random weights for `family` reading `window` slots, made through the file
/// format (seeded); with `linear` cells, a value network (its policy heads zero).
fn random_network(family: Family, window: u32, linear: bool, seed: u64) -> Arc<Network> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut bytes = MAGIC.to_vec();
    bytes.extend([family.code(), window as u8]);
    for v in [CHANNELS as u16, HIDDEN as u16, u16::from(linear)] {
        bytes.extend(v.to_le_bytes());
    }
    let mut i16s = |bytes: &mut Vec<u8>, n: usize, m: i16| {
        for _ in 0..n {
            bytes.extend(rng.gen_range(-m..=m).to_le_bytes());
        }
    };
    bytes.extend(vec![0u8; 2 * CHANNELS]);
    i16s(&mut bytes, (3usize.pow(window) - 1) * CHANNELS, 150);
    for _side in 0..2 {
        let ints = |n: usize| vec![0u8; 4 * n];
        i16s(&mut bytes, HIDDEN * CHANNELS, 40);
        bytes.extend(ints(HIDDEN));
        i16s(&mut bytes, HIDDEN * HIDDEN, 40);
        bytes.extend(ints(HIDDEN));
        i16s(&mut bytes, HIDDEN, 40);
        bytes.extend(ints(1));
        match linear {
            true => bytes.extend(vec![0u8; 2 * (CHANNELS + CHANNELS * HIDDEN)]),
            false => i16s(&mut bytes, CHANNELS + CHANNELS * HIDDEN, 40),
        }
    }
    Arc::new(net::parse(&bytes).expect("a well-formed random network"))
}

/// Plays `g`, checking the board against the reference after the steps; panics on a
/// mismatch.
fn play(g: &Game, tally: &Tally) {
    let (w, h) = (g.width, g.height);
    let mut rng = rand::rngs::StdRng::seed_from_u64(g.check_seed);
    let mut b = Board::new(w, h, g.rule).unwrap();
    if let Some(family) = Family::of(g.rule.kind) {
        let net = shared_network(family, g.check_seed as usize);
        b.set_network(Some(net.clone()));
        // The same network orders moves too, so its direct activations are comparable.
        b.set_policy_network(Some(net));
        tally.with_network.fetch_add(1, Relaxed);
    }
    if g.rule.continuous {
        for &(x, y) in &g.walls {
            let p = Pos::new(x % w, y % h);
            if b.is_empty(p) {
                b.put_wall(p);
            }
        }
    }
    let what = format!("{w}x{h} {:?}", g.rule);
    check(&b, &mut rng, &what);
    let h0 = b.hash();
    for (i, s) in g.steps.iter().enumerate() {
        match *s {
            Step::Undo if b.stone_count() > 0 => b.undo(),
            Step::TakeBack(k) if b.stone_count() > 2 => {
                let hist: Vec<Pos> = b.history().map(|(p, _)| p).collect();
                assert!(b.remove_stone(hist[k % hist.len()]));
            }
            Step::Wall(x, y) if g.rule.continuous => {
                let p = Pos::new(x % w, y % h);
                if b.is_empty(p) {
                    b.put_wall(p);
                    tally.walls_mid_game.fetch_add(1, Relaxed);
                }
            }
            Step::Undo | Step::TakeBack(_) | Step::Wall(..) => {}
            Step::Near(k) | Step::Anywhere(k) => {
                let cands: Vec<Pos> = if matches!(s, Step::Near(_)) {
                    b.candidates().collect()
                } else {
                    b.empty_points().collect()
                };
                if cands.is_empty() {
                    break;
                }
                b.make_move(cands[k % cands.len()]);
                tally.moves.fetch_add(1, Relaxed);
            }
        }
        if i % 4 == 0 || w * h < 100 {
            check(&b, &mut rng, &format!("{what} after step {i} {s:?}"));
        }
    }
    check(&b, &mut rng, &what);
    while b.stone_count() > 0 {
        b.undo();
    }
    check(&b, &mut rng, &what);
    assert_eq!(b.hash(), h0, "{what}: hash after undoing everything");
}

#[test]
fn random_games_stay_consistent() {
    let config = Config {
        cases: GAMES,
        failure_persistence: None,
        ..Config::default()
    };
    // A fixed generator: the same games on every run, like any other test.
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let tally = Tally::default();
    let result = runner.run(&game(), |g| {
        play(&g, &tally);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let moves = tally.moves.load(Relaxed);
    let walls = tally.walls_mid_game.load(Relaxed);
    assert!(moves > 30_000, "only {moves} moves");
    assert!(walls > 20, "only {walls} mid-game walls");
    let with_network = tally.with_network.load(Relaxed);
    assert!(
        with_network > 300,
        "only {with_network} games with a network"
    );
}
