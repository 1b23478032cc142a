//! Nothing the engine keeps grows with the number of games: one session plays many short
//! games (START or RESTART, BEGIN, TURN) and the heap bytes still allocated between games,
//! counted by a wrapping global allocator, stay flat (GomocupJudge checks memory after
//! every move, and a tournament runs hundreds of games in one process).

use pentad::core::Pos;
use pentad::protocol::SyncSession;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes currently allocated.
struct Counting;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new_size, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Games played before the first measurement (buffers reach their working size).
const WARM_UP_GAMES: usize = 10;
/// Games played between the two measurements.
const MEASURED_GAMES: usize = 100;
/// Games whose idle heap sizes give one measurement (their minimum: a leak raises the
/// floor, while a thread still letting go of its buffers only raises single readings).
const SAMPLE_GAMES: usize = 5;
/// Our moves per game at most (a game also ends when the board has a five).
const MOVES_PER_GAME: usize = 20;
/// The game clock each move is given (`INFO time_left`, varied a little so that the clock
/// watch sees latencies; searches stay node-limited).
const GAME_CLOCK_MS: i64 = 60_000;
/// Heap growth allowed over [`MEASURED_GAMES`] (far below a record kept per game or move).
const ALLOWED_GROWTH_BYTES: usize = 2048;

/// Plays one game: a new game (START on even games, RESTART on odd ones), BEGIN, then the
/// opponent's moves on pseudo-random empty cells, each after a `time_left`; drops the
/// output.
fn play_game(s: &mut SyncSession<Vec<u8>>, game: usize) {
    let new_game: &[u8] = if game.is_multiple_of(2) {
        b"START 15"
    } else {
        b"RESTART"
    };
    s.feed(new_game);
    s.feed(b"BEGIN");
    let mut seed = game as u64 * 7919 + 13;
    for _ in 0..MOVES_PER_GAME {
        let Some(b) = s.session().board() else { break };
        if b.last_move_won().is_some() {
            break;
        }
        let empty: Vec<Pos> = (0..225)
            .map(|i| Pos::new(i % 15, i / 15))
            .filter(|&p| b.is_empty(p))
            .collect();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let p = empty[(seed >> 33) as usize % empty.len()];
        let left = GAME_CLOCK_MS - 100 * (seed >> 60) as i64;
        s.feed(format!("INFO time_left {left}").as_bytes());
        s.feed(format!("TURN {},{}", p.x(), p.y()).as_bytes());
    }
    s.session().output().clear();
}

/// Plays games `games` and returns the least heap in use between two of them.
fn least_heap_over(s: &mut SyncSession<Vec<u8>>, games: std::ops::Range<usize>) -> usize {
    let mut least = usize::MAX;
    for game in games {
        play_game(s, game);
        std::thread::sleep(std::time::Duration::from_millis(20));
        least = least.min(LIVE_BYTES.load(Ordering::Relaxed));
    }
    least
}

#[test]
fn heap_stays_flat_over_many_games() {
    let mut s = SyncSession::new(Vec::new());
    for line in [
        "INFO hash_size 1024",
        "INFO max_node 300",
        "INFO thread_num 2",
    ] {
        s.feed(line.as_bytes());
    }
    least_heap_over(&mut s, 0..WARM_UP_GAMES);
    let before = least_heap_over(&mut s, WARM_UP_GAMES..WARM_UP_GAMES + SAMPLE_GAMES);
    let end = WARM_UP_GAMES + SAMPLE_GAMES + MEASURED_GAMES;
    for game in WARM_UP_GAMES + SAMPLE_GAMES..end {
        play_game(&mut s, game);
    }
    let after = least_heap_over(&mut s, end..end + SAMPLE_GAMES);
    assert!(
        after <= before + ALLOWED_GROWTH_BYTES,
        "heap grew from {before} to {after} bytes over {MEASURED_GAMES} games"
    );
}
