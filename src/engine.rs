//! The engine facade: owns the searcher and runs every search on it (a move, or a Swap2
//! decision) on its own thread, with a stop flag and a watchdog; turns protocol settings into
//! search limits and a hash size. It never prints: answers are typed values.
//!
//! Submodules: `slot` (the searcher behind its lock, table changes waiting for a late
//! search), `watchdog` (the backstop of the time limit), `swap2` (Swap2 opening decisions).

mod slot;
pub mod soosorv;
pub mod swap2;
mod watchdog;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;

use crate::board::Board;
use crate::search::memory::{hash_plan, turn_table_cap, HashPlan, MachineMemory};
use crate::search::time::{ObservedLatency, TimeControl, TimeManager};
use crate::search::{
    RootEvent, SearchLimits, SearchReport, SearchResult, Searcher, SEARCH_STACK_BYTES,
};
use slot::SearcherSlot;
use soosorv::{SoosorvQuestion, SoosorvReply};
use swap2::{Swap2Budget, Swap2Reply};
use watchdog::Answering;

/// The INFO settings that matter to the engine (the protocol layer fills them in).
#[derive(Clone, Debug)]
pub struct Settings {
    /// `timeout_turn` in ms; `None` until sent (then 30 s).
    pub timeout_turn_ms: Option<i64>,
    /// `timeout_match` in ms; 0 = unlimited.
    pub timeout_match_ms: i64,
    /// `time_left` in ms as last sent (may be negative).
    pub time_left_ms: Option<i64>,
    /// `max_memory` in bytes; 0 = no limit (then 350 MB).
    pub max_memory: u64,
    /// `hash_size` in KiB (Yixin-Board); 0 = not set.
    pub hash_size_kib: u64,
    /// `thread_num` (at least 1).
    pub threads: usize,
    /// `max_depth`; 0 = none.
    pub max_depth: u32,
    /// `max_node`; 0 = none.
    pub max_nodes: u64,
    /// `strength` 0..=100.
    pub strength: u8,
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament).
    pub game_type: i64,
    /// `pondering` (Yixin-Board): think on the opponent's time after our move.
    pub pondering: bool,
    /// Not an INFO value: the latency the manager's game clock showed so far (the protocol
    /// layer measures it), for the game-clock reserves.
    pub latency: ObservedLatency,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            timeout_turn_ms: None,
            timeout_match_ms: 0,
            time_left_ms: None,
            max_memory: 0,
            hash_size_kib: 0,
            threads: 1,
            max_depth: 0,
            max_nodes: 0,
            strength: 100,
            game_type: 1,
            pondering: false,
            latency: ObservedLatency::default(),
        }
    }
}

/// The clock the INFO settings describe.
pub fn time_control_for(s: &Settings) -> TimeControl {
    TimeControl {
        timeout_turn_ms: s.timeout_turn_ms,
        timeout_match_ms: s.timeout_match_ms,
        time_left_ms: s.time_left_ms,
    }
}

/// Search limits for one move: the time budget from [`TimeManager`] (turn limit, match clock,
/// `time_left` trusted over the wall clock, safety margin), plus the INFO stop limits.
// The struct update keeps this compiling when the search adds fields to `SearchLimits`.
#[allow(clippy::needless_update)]
pub fn limits_for(s: &Settings, board: &Board) -> SearchLimits {
    let tc = time_control_for(s);
    SearchLimits {
        time: TimeManager::with_latency(&tc, board.empty_count(), board.stone_count(), s.latency),
        max_depth: (s.max_depth > 0).then_some(s.max_depth),
        max_nodes: (s.max_nodes > 0).then_some(s.max_nodes),
        strength: s.strength.min(100),
        multipv: 1,
        threads: s.threads.max(1),
        randomize_seed: (s.game_type == 0).then(random_seed),
        ..SearchLimits::default()
    }
}

fn random_seed() -> u64 {
    rand::random::<u64>()
}

/// Transposition-table size for the settings: what keeps the whole process under
/// `max_memory` (default 350 MB) with `thread_num` threads; `hash_size` (KiB) when given,
/// still capped by the memory limit. See [`crate::search::memory::hash_bytes_for`].
/// Capped at half the machine's memory ([`hash_plan`]).
pub fn hash_bytes_for_settings(s: &Settings) -> usize {
    hash_plan_for_settings(s).bytes
}

/// [`hash_bytes_for_settings`] with what the settings alone asked for (for the MESSAGE that
/// tells the machine's memory capped the table).
/// Without an explicit `hash_size`, a short `timeout_turn` caps the table
/// ([`turn_table_cap`]).
pub fn hash_plan_for_settings(s: &Settings) -> HashPlan {
    let mut plan = hash_plan(
        s.max_memory,
        (s.hash_size_kib > 0).then_some(s.hash_size_kib),
        s.threads,
        MachineMemory::read(),
    );
    if let Some(turn_ms) = s.timeout_turn_ms.filter(|&t| t > 0 && s.hash_size_kib == 0) {
        let cap = turn_table_cap(turn_ms as u64, s.threads);
        plan.bytes = plan.bytes.min(cap);
        plan.asked = plan.asked.min(cap);
    }
    plan
}

/// The answer of a finished search.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The move search's result.
    Move(SearchResult),
    /// The Swap2 decision; `None` when the position has no legal Swap2 answer.
    Swap2(Option<Swap2Reply>),
    /// A Soosõrv-N step's decision; `None` when the position does not fit the step.
    Soosorv(Option<SoosorvReply>),
}

/// What the search thread sends back.
#[derive(Debug)]
pub enum EngineEvent {
    /// One completed iteration (or one line of a multi-PV set) of a move search.
    Report(SearchReport),
    /// What happens to a root move during an iteration (only from [`Engine::go_live`], and
    /// only once the search has run [`LIVE_EVENTS_AFTER_MS`]).
    Root(RootEvent),
    /// The search ended: its answer, or why there is none (a panic, or an overrun before
    /// any answer; the protocol layer then falls back to a simple choice).
    Done(Result<Answer, String>),
}

/// Root-move events are passed on only after a search has run this long (ms): the first
/// iterations take microseconds per move, too fast to show and too many to send.
pub const LIVE_EVENTS_AFTER_MS: u64 = 200;

/// Where engine events go (a channel sender wrapped in a closure, or a test collector).
pub type Notify = Arc<dyn Fn(EngineEvent) + Send + Sync>;

/// One search to run on the search thread.
enum Job {
    /// Find the move to play (or the lines of a multi-PV search); `live` passes root-move
    /// events on.
    Move {
        board: Board,
        limits: SearchLimits,
        live: bool,
    },
    /// Make the Swap2 decision for a board of 0, 3 or 5 stones.
    Swap2 { board: Board, budget: Swap2Budget },
    /// Answer one step of a Soosõrv-N opening.
    Soosorv {
        question: SoosorvQuestion,
        budget: Swap2Budget,
    },
}

impl Job {
    /// The hard time limit the watchdog enforces, ms.
    fn maximum_ms(&self) -> Option<u64> {
        match self {
            Job::Move { limits, .. } => limits.time.maximum_ms(),
            Job::Swap2 { budget, .. } | Job::Soosorv { budget, .. } => Some(budget.max_ms),
        }
    }

    /// Runs the job on the shared searcher (waiting for it while a late search holds it),
    /// keeping `answering`'s best answer so far up to date for the watchdog.
    fn run(self, slot: &SearcherSlot, stop: &AtomicBool, answering: &Answering) -> Answer {
        match self {
            Job::Move {
                board,
                limits,
                live,
            } => slot.with_searcher(|s| {
                let mut report = |r: &SearchReport| {
                    if r.multipv <= 1 {
                        if let Some(result) = result_of_report(r) {
                            answering.set_best_so_far(Answer::Move(result));
                        }
                    }
                    answering.report(EngineEvent::Report(r.clone()));
                };
                let root_event = |ev: RootEvent| {
                    if live && answering.ms_since_start() >= u128::from(LIVE_EVENTS_AFTER_MS) {
                        answering.report(EngineEvent::Root(ev));
                    }
                };
                Answer::Move(s.search_observed(&board, &limits, stop, &mut report, &root_event))
            }),
            Job::Swap2 { board, budget } => {
                // The static choice needs no searcher: the watchdog has it even while a
                // late search keeps the searcher.
                answering.set_best_so_far(Answer::Swap2(swap2::static_reply(&board)));
                let reply = slot.with_searcher(|s| swap2::decide(s, &board, &budget, stop));
                Answer::Swap2(reply)
            }
            Job::Soosorv { question, budget } => {
                answering.set_best_so_far(Answer::Soosorv(soosorv::static_reply(&question)));
                let reply = slot.with_searcher(|s| soosorv::decide(s, &question, &budget, stop));
                Answer::Soosorv(reply)
            }
        }
    }
}

/// The move a completed iteration's report stands for (`None` for an empty line).
fn result_of_report(r: &SearchReport) -> Option<SearchResult> {
    let best = *r.pv.first()?;
    Some(SearchResult {
        best,
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        pv: r.pv.clone(),
    })
}

/// The text of a caught panic.
fn panic_text(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// The search thread: runs `job`, then answers unless the watchdog already did. Dropping
/// `search_done` tells the watchdog the search returned.
fn search_thread(
    job: Job,
    slot: &SearcherSlot,
    stop: &AtomicBool,
    answering: &Answering,
    search_done: mpsc::Sender<()>,
) {
    let maximum = job.maximum_ms();
    let run = std::panic::AssertUnwindSafe(|| job.run(slot, stop, answering));
    let outcome = std::panic::catch_unwind(run).map_err(|e| {
        let why = panic_text(&*e);
        // The searcher's state is suspect after a panic: start afresh.
        slot.reset();
        log::error!("search panicked: {why}");
        format!("search panicked: {why}")
    });
    drop(search_done);
    let ms = answering.ms_since_start();
    if answering.answer(outcome) {
        log::debug!("time: search returned {ms} ms after go (maximum {maximum:?} ms)");
    } else {
        log::debug!("time: late search returned {ms} ms after go; result dropped");
    }
}

/// Owns the [`Searcher`] and at most one running search.
pub struct Engine {
    slot: Arc<SearcherSlot>,
    /// Table size as last asked for (a late search may still delay the change).
    hash_bytes: usize,
    stop: Arc<AtomicBool>,
    notify: Notify,
    worker: Option<thread::JoinHandle<()>>,
    /// The answer state of the running (or last) search.
    answering: Option<Arc<Answering>>,
}

impl Engine {
    /// An idle engine with a hash table of about `hash_bytes`; events go to `notify`.
    pub fn new(hash_bytes: usize, notify: Notify) -> Engine {
        Engine {
            slot: Arc::new(SearcherSlot::new(Searcher::new(hash_bytes))),
            hash_bytes,
            stop: Arc::new(AtomicBool::new(false)),
            notify,
            worker: None,
            answering: None,
        }
    }

    /// True from [`Engine::go`] or [`Engine::go_swap2`] until [`Engine::finished`].
    pub fn is_thinking(&self) -> bool {
        self.worker.is_some()
    }

    /// Starts searching `board` for a move. Reports and the final [`EngineEvent::Done`]
    /// (with [`Answer::Move`]) arrive through the notify callback. Errors if a search is
    /// already running or the thread cannot be started.
    ///
    /// With a hard limit (`limits.time`'s maximum) a watchdog backs the search's own clock
    /// checks: at the maximum it sets the stop flag, and if the search still has not
    /// returned at [`watchdog_ms`](crate::search::time::watchdog_ms) it sends `Done` itself
    /// with the best move of the latest completed iteration (or an error, and the protocol
    /// layer plays its fallback move). The late search's events are then dropped; its thread
    /// finishes on its own.
    pub fn go(&mut self, board: Board, limits: SearchLimits) -> Result<(), String> {
        self.start(Job::Move {
            board,
            limits,
            live: false,
        })
    }

    /// [`Engine::go`], also sending [`EngineEvent::Root`] events while the search runs.
    pub fn go_live(&mut self, board: Board, limits: SearchLimits) -> Result<(), String> {
        self.start(Job::Move {
            board,
            limits,
            live: true,
        })
    }

    /// Permille of the transposition table used by the latest search (call while idle).
    pub fn hash_usage_permille(&self) -> u32 {
        self.slot.with_searcher(|s| s.hash_usage_permille())
    }

    /// Runs `f` on the searcher (call while idle): table files, one-off questions.
    pub fn with_searcher<T>(&self, f: impl FnOnce(&mut Searcher) -> T) -> T {
        self.slot.with_searcher(f)
    }

    /// Starts the Swap2 decision for `board` (0, 3 or 5 stones in Swap2 order) within
    /// `budget`. No reports; [`EngineEvent::Done`] brings [`Answer::Swap2`]. The stop flag
    /// ends the decision early with the best one so far; the watchdog enforces
    /// `budget.max_ms` as for a move and, for a decision that overruns, answers with the
    /// static choice.
    pub fn go_swap2(&mut self, board: Board, budget: Swap2Budget) -> Result<(), String> {
        self.start(Job::Swap2 { board, budget })
    }

    /// Starts answering one Soosõrv-N step within `budget` (as [`Engine::go_swap2`]);
    /// [`EngineEvent::Done`] brings [`Answer::Soosorv`].
    pub fn go_soosorv(
        &mut self,
        question: SoosorvQuestion,
        budget: Swap2Budget,
    ) -> Result<(), String> {
        self.start(Job::Soosorv { question, budget })
    }

    fn start(&mut self, job: Job) -> Result<(), String> {
        if self.worker.is_some() {
            return Err("a search is already running".into());
        }
        // Fresh flags per search: a late watchdog or STOP can only touch its own search.
        let stop = Arc::new(AtomicBool::new(false));
        let answering = Arc::new(Answering::new(Arc::clone(&self.notify)));
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let maximum = job.maximum_ms();
        let handle = {
            let (slot, stop, answering) = (
                Arc::clone(&self.slot),
                Arc::clone(&stop),
                Arc::clone(&answering),
            );
            thread::Builder::new()
                .name("pentad-search".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn(move || search_thread(job, &slot, &stop, &answering, done_tx))
                .map_err(|e| format!("cannot start the search thread: {e}"))?
        };
        if let Some(max) = maximum {
            watchdog::spawn(max, Arc::clone(&stop), Arc::clone(&answering), done_rx);
        }
        self.stop = stop;
        self.answering = Some(answering);
        self.worker = Some(handle);
        Ok(())
    }

    /// Asks the running search (if any) to stop now; its answer arrives as usual.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Marks the search as over after its [`EngineEvent::Done`] has been received. A search
    /// the watchdog answered for is left to finish on its own: nothing waits for it here,
    /// the next search waits for the searcher on its own thread (inside its own watchdog's
    /// time), and table changes wait until the late search lets go of the searcher.
    pub fn finished(&mut self) {
        let abandoned = self.answering.as_ref().is_some_and(|a| {
            if log::log_enabled!(log::Level::Debug) {
                a.log_delivery();
            }
            a.is_abandoned()
        });
        if let Some(h) = self.worker.take() {
            if abandoned && !h.is_finished() {
                log::debug!("time: leaving the overrunning search thread to finish");
            } else {
                let _ = h.join();
            }
        }
    }

    /// Bytes of the transposition table as last asked for (does not wait for a search).
    pub fn hash_bytes(&self) -> usize {
        self.hash_bytes
    }

    /// Resizes the transposition table (call while idle). Never waits for a search: while
    /// a late search still holds the searcher, the change waits until it lets go.
    pub fn resize(&mut self, bytes: usize) {
        self.hash_bytes = bytes;
        self.slot.resize(bytes);
    }

    /// Bytes of the table as allocated now, or `None` while a late search holds it (never
    /// waits). Smaller than asked when the allocation had to fall back to a smaller table.
    pub fn table_bytes_now(&self) -> Option<usize> {
        self.slot.table_bytes_now()
    }

    /// Clears the transposition table (call while idle). Never waits for a search, as
    /// [`Engine::resize`].
    pub fn clear_hash(&self) {
        self.slot.clear();
    }

    /// Makes the next search hold the searcher `stall` longer, ignoring the stop flag: a
    /// search that overruns its time (tests of what follows a watchdog's answer).
    #[cfg(test)]
    pub(crate) fn stall_next_search(&self, stall: std::time::Duration) {
        self.slot.stall_next_job(stall);
    }

    /// Bytes of the table as it is now; waits for a running search (tests only).
    #[cfg(test)]
    pub(crate) fn table_bytes(&self) -> usize {
        self.slot.table_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use crate::search::time::{DEFAULT_TURN_MS, UNLIMITED_MS};
    use std::time::{Duration, Instant};

    #[test]
    fn limits_follow_the_clock() {
        let b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        let mut s = Settings::default();
        let l = limits_for(&s, &b);
        let never_sent = l.time.maximum_ms().unwrap();
        assert!(
            never_sent < DEFAULT_TURN_MS as u64 && never_sent > 20_000,
            "{never_sent}"
        );
        assert!(l.time.optimum_ms().unwrap() <= never_sent);
        s.timeout_turn_ms = Some(5000);
        s.timeout_match_ms = 120_000;
        s.time_left_ms = Some(10_000);
        let l = limits_for(&s, &b);
        assert!(l.time.maximum_ms().unwrap() < 2_000);
        assert!(l.time.optimum_ms().unwrap() < 1_000);
        s.time_left_ms = Some(-500);
        assert!(limits_for(&s, &b).time.maximum_ms().unwrap() <= 20);
        s.timeout_turn_ms = Some(0);
        s.time_left_ms = Some(UNLIMITED_MS);
        assert!(limits_for(&s, &b).time.maximum_ms().unwrap() <= 20);
        s.timeout_turn_ms = Some(1 << 40);
        s.timeout_match_ms = 0;
        assert_eq!(
            limits_for(&s, &b).time.maximum_ms(),
            None,
            "analysis thinks until STOP"
        );
    }

    #[test]
    fn watchdog_answer_is_the_latest_report() {
        use crate::core::Pos;
        let r = SearchReport {
            depth: 5,
            score: 42,
            pv: vec![Pos::new(7, 8), Pos::new(8, 8)],
            ..SearchReport::default()
        };
        let m = result_of_report(&r).unwrap();
        assert_eq!((m.best, m.score, m.depth), (Pos::new(7, 8), 42, 5));
        assert_eq!(m.pv, r.pv);
        assert!(
            result_of_report(&SearchReport::default()).is_none(),
            "an empty PV is no move"
        );
    }

    /// An engine whose events arrive on the returned channel.
    fn engine() -> (Engine, mpsc::Receiver<EngineEvent>) {
        let (tx, rx) = mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        let notify: Notify = Arc::new(move |ev| {
            if let Ok(t) = tx.lock() {
                let _ = t.send(ev);
            }
        });
        (Engine::new(1 << 20, notify), rx)
    }

    /// The Swap2 answer of the next `Done` within `within`, and when it came.
    fn swap2_done(
        rx: &mpsc::Receiver<EngineEvent>,
        within: Duration,
    ) -> (Result<Option<Swap2Reply>, String>, Instant) {
        let t = Instant::now();
        loop {
            let left = within.saturating_sub(t.elapsed());
            match rx.recv_timeout(left).expect("Done in time") {
                EngineEvent::Done(Ok(Answer::Swap2(r))) => return (Ok(r), Instant::now()),
                EngineEvent::Done(other) => return (Err(format!("{other:?}")), Instant::now()),
                EngineEvent::Report(_) | EngineEvent::Root(_) => {}
            }
        }
    }

    /// Probes so large that one takes seconds: only the stop flag ends the decision soon.
    const HUGE: Swap2Budget = Swap2Budget {
        probe_nodes: 50_000_000,
        max_ms: 60_000,
    };

    #[test]
    fn stop_ends_a_swap2_decision_with_the_best_so_far() {
        let (mut e, rx) = engine();
        let empty = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        for board in [
            empty.clone(),
            swap2::tests::board_of(&[(7, 7), (8, 8), (8, 7)]),
        ] {
            e.go_swap2(board.clone(), HUGE).unwrap();
            assert!(e.is_thinking());
            std::thread::sleep(Duration::from_millis(50));
            let stopped = Instant::now();
            e.stop();
            let (reply, at) = swap2_done(&rx, Duration::from_secs(5));
            e.finished();
            assert!(
                at - stopped < Duration::from_millis(500),
                "{:?}",
                at - stopped
            );
            let reply = reply.unwrap().expect("a decision");
            let n = match &reply {
                Swap2Reply::Swap => 0,
                Swap2Reply::Moves(ms) => ms.len(),
            };
            let allowed: &[usize] = if board.stone_count() == 0 {
                &[3]
            } else {
                &[0, 1, 2]
            };
            assert!(allowed.contains(&n), "{reply:?}");
        }
    }

    #[test]
    fn swap2_time_cap_is_the_watchdogs() {
        let (mut e, rx) = engine();
        let budget = Swap2Budget {
            max_ms: 150,
            ..HUGE
        };
        let board = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        let go = Instant::now();
        e.go_swap2(board, budget).unwrap();
        let (reply, at) = swap2_done(&rx, Duration::from_secs(5));
        e.finished();
        assert!(at - go < Duration::from_millis(700), "{:?}", at - go);
        assert!(matches!(reply, Ok(Some(Swap2Reply::Moves(ms))) if ms.len() == 3));
    }

    #[test]
    fn an_overrunning_swap2_decision_gets_the_static_choice() {
        let (mut e, rx) = engine();
        let board = swap2::tests::board_of(&[(7, 7), (8, 8), (8, 7)]);
        let budget = Swap2Budget {
            probe_nodes: 200,
            max_ms: 100,
        };
        e.stall_next_search(Duration::from_secs(2));
        let go = Instant::now();
        e.go_swap2(board.clone(), budget).unwrap();
        let (reply, at) = swap2_done(&rx, Duration::from_secs(5));
        e.finished();
        assert!(at - go < Duration::from_millis(700), "{:?}", at - go);
        assert_eq!(reply, Ok(swap2::static_reply(&board)));
    }

    #[test]
    fn hash_fits_the_budget() {
        let mut s = Settings::default();
        let default = hash_bytes_for_settings(&s);
        assert!(default >= 128 << 20 && (default as u64) + (20 << 20) < 350_000_000);
        s.max_memory = 64 << 20;
        assert!(hash_bytes_for_settings(&s) <= 32 << 20);
        s.hash_size_kib = 1024;
        assert_eq!(hash_bytes_for_settings(&s), 1 << 20);
        s.hash_size_kib = u64::MAX;
        assert!(hash_bytes_for_settings(&s) <= 32 << 20);
    }

    #[test]
    fn a_short_turn_takes_a_smaller_table_unless_a_size_is_given() {
        let mut s = Settings::default();
        let default = hash_bytes_for_settings(&s);
        s.timeout_turn_ms = Some(500);
        assert_eq!(hash_bytes_for_settings(&s), 32 << 20);
        assert!(!hash_plan_for_settings(&s).capped_by_machine());
        s.threads = 2;
        assert_eq!(hash_bytes_for_settings(&s), 64 << 20);
        s.timeout_turn_ms = Some(30_000);
        assert_eq!(hash_bytes_for_settings(&s), default);
        s.timeout_turn_ms = Some(0);
        assert_eq!(hash_bytes_for_settings(&s), default, "0 is no limit");
        s.timeout_turn_ms = Some(500);
        s.hash_size_kib = 128 << 10;
        assert_eq!(hash_bytes_for_settings(&s), 128 << 20, "hash_size says");
    }
}
