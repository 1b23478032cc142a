//! Compares the board's renju forbidden points with an independent naive checker written
//! straight from rules.md, on thousands of random renju positions.

use pentad::board::{debug, Board, Pattern4};
use pentad::core::{Color, Pos, Rule};
use rand::{Rng, SeedableRng};

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain 2-D grid: 0 empty, 1 black, 2 white.
struct Naive {
    n: i32,
    g: Vec<Vec<u8>>,
}

impl Naive {
    fn get(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && x < self.n && y < self.n).then(|| self.g[y as usize][x as usize])
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

    fn forbidden(&mut self, x: i32, y: i32) -> bool {
        self.set(x, y, 1);
        let r = self.forbidden_placed(x, y);
        self.set(x, y, 0);
        r
    }

    fn forbidden_placed(&mut self, x: i32, y: i32) -> bool {
        // 1. Five.
        if self.exact_five_any(x, y) {
            return false;
        }
        // 2. Overline.
        if DIRS
            .iter()
            .any(|&(dx, dy)| self.line_len(x, y, dx, dy) >= 6)
        {
            return true;
        }
        // 3. Fours: distinct sets of four stones (including p) one stone from exactly five.
        let mut fours = 0;
        for &(dx, dy) in &DIRS {
            let mut sets: Vec<Vec<i32>> = Vec::new();
            // Every window of 5 cells containing p.
            for start in -4..=0 {
                let cells: Vec<i32> = (start..start + 5).collect();
                let blacks: Vec<i32> = cells
                    .iter()
                    .copied()
                    .filter(|&t| self.black(x + dx * t, y + dy * t))
                    .collect();
                let empties: Vec<i32> = cells
                    .iter()
                    .copied()
                    .filter(|&t| self.empty(x + dx * t, y + dy * t))
                    .collect();
                if blacks.len() == 4 && empties.len() == 1 {
                    let e = empties[0];
                    // Filling e must make exactly five (not six).
                    let before = start - 1;
                    let after = start + 5;
                    if !self.black(x + dx * before, y + dy * before)
                        && !self.black(x + dx * after, y + dy * after)
                        && !sets.contains(&blacks)
                    {
                        let _ = e;
                        sets.push(blacks);
                    }
                }
            }
            fours += sets.len();
        }
        if fours >= 2 {
            return true;
        }
        // 4. Threes.
        let mut threes = 0;
        for &(dx, dy) in &DIRS {
            let mut three = false;
            for t in -4..=4 {
                if t == 0 || !self.empty(x + dx * t, y + dy * t) {
                    continue;
                }
                let (ex, ey) = (x + dx * t, y + dy * t);
                self.set(ex, ey, 1);
                // Straight four containing p and e: 4 consecutive blacks, both ends empty
                // and each end giving exactly five.
                let mut straight = false;
                for s in -3..=0 {
                    let run: Vec<i32> = (s..s + 4).collect();
                    if !run.contains(&t) {
                        continue;
                    }
                    if run.iter().all(|&u| self.black(x + dx * u, y + dy * u))
                        && self.empty(x + dx * (s - 1), y + dy * (s - 1))
                        && self.empty(x + dx * (s + 4), y + dy * (s + 4))
                        && !self.black(x + dx * (s - 2), y + dy * (s - 2))
                        && !self.black(x + dx * (s + 5), y + dy * (s + 5))
                    {
                        straight = true;
                    }
                }
                let ok = straight && !self.exact_five_any(ex, ey);
                self.set(ex, ey, 0);
                if ok && !self.forbidden(ex, ey) {
                    three = true;
                    break;
                }
            }
            if three {
                threes += 1;
            }
        }
        threes >= 2
    }
}

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

fn naive_of(b: &Board) -> Naive {
    let n = b.width() as i32;
    let mut g = vec![vec![0u8; n as usize]; n as usize];
    for (p, c) in b.history() {
        g[p.y()][p.x()] = if c == Color::Black { 1 } else { 2 };
    }
    Naive { n, g }
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
        let mut naive = naive_of(&b);
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
