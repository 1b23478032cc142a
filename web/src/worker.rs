//! One tab's engine: a thread that owns the engine process (the arena's [`Engine`]) and runs
//! one job at a time (a move, a hint, an analysis, a Swap2 decision), reporting the engine's
//! search lines while it thinks and the answer (or why there is none) at the end.
//!
//! The session talks to it through [`Worker`]: jobs go in a channel; a job is stopped by
//! raising the shared stop mark to its id (the worker then sends `YXSTOP` and, if the engine
//! does not answer within [`STOP_GRACE_MS`], kills it).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use pentad_arena::{Engine, EngineError, EngineSpec};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::OwnedSemaphorePermit;

use crate::levels::{
    Level, ANALYSIS_TURN_MS, ANSWER_TOLERANCE_MS, ENGINE_MEMORY, EXIT_WAIT_MS, POLL_MS, STARTUP_MS,
    STOP_GRACE_MS,
};

/// What a job asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move, to be played.
    Move,
    /// The engine's suggestion for the person, not played.
    Hint,
    /// Think until stopped, reporting as it goes.
    Analyze,
    /// `SWAP2BOARD`: the engine's opening decision.
    Swap2,
}

/// One request to the engine.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: u64,
    pub purpose: Purpose,
    pub size: usize,
    /// `INFO rule` value.
    pub rule: i64,
    pub level: Level,
    /// Stones in play order (Black first).
    pub moves: Vec<(usize, usize)>,
}

/// What the worker reports.
#[derive(Debug)]
pub enum Event {
    /// The engine's name from `ABOUT`, once per process.
    Name(String),
    /// A line the engine printed while working on job `id` (MESSAGE, INFO, ...).
    Line { id: u64, line: String },
    /// The answer line to job `id`, or why there is none (the process is gone then).
    Answer {
        id: u64,
        purpose: Purpose,
        result: Result<String, String>,
    },
}

/// The session's handle on its worker thread.
pub struct Worker {
    jobs: mpsc::Sender<Command>,
    stop_upto: Arc<AtomicU64>,
}

enum Command {
    Run(Job),
    /// Kill the process; the next job starts a fresh one.
    Restart,
}

impl Worker {
    /// Starts the thread; the process itself starts with the first job. `place` is this
    /// tab's place under the cap on engines: held until the thread has ended its process.
    pub fn start(
        spec: EngineSpec,
        events: UnboundedSender<Event>,
        place: OwnedSemaphorePermit,
    ) -> Worker {
        let (tx, rx) = mpsc::channel();
        let stop_upto = Arc::new(AtomicU64::new(0));
        let stop = stop_upto.clone();
        let spawned = thread::Builder::new()
            .name("engine-worker".into())
            .spawn(move || {
                run(spec, rx, stop, events);
                drop(place);
            });
        if let Err(e) = spawned {
            log::error!("cannot start an engine worker thread: {e}");
        }
        Worker {
            jobs: tx,
            stop_upto,
        }
    }

    /// Queues a job (after the current one, which should be stopped first if it may run long).
    pub fn run(&self, job: Job) {
        let _ = self.jobs.send(Command::Run(job));
    }

    /// Stops every job with an id up to `id`.
    pub fn stop_upto(&self, id: u64) {
        self.stop_upto.fetch_max(id, Ordering::SeqCst);
    }

    /// Ends the process; the next job starts a new one.
    pub fn restart(&self) {
        let _ = self.jobs.send(Command::Restart);
    }
}

/// The engine process and what it was last told.
struct Process {
    engine: Engine,
    size: usize,
}

fn run(
    spec: EngineSpec,
    jobs: mpsc::Receiver<Command>,
    stop_upto: Arc<AtomicU64>,
    events: UnboundedSender<Event>,
) {
    let mut process: Option<Process> = None;
    // Ends when the session drops its Worker (the tab closed); dropping the Engine kills it.
    while let Ok(cmd) = jobs.recv() {
        let job = match cmd {
            Command::Run(job) => job,
            Command::Restart => {
                if let Some(p) = process.take() {
                    p.engine.kill();
                }
                continue;
            }
        };
        if job.id <= stop_upto.load(Ordering::SeqCst) {
            continue;
        }
        let result = think(&spec, &mut process, &job, &stop_upto, &events);
        if result.is_err() {
            if let Some(p) = process.take() {
                p.engine.kill();
            }
        }
        let answer = Event::Answer {
            id: job.id,
            purpose: job.purpose,
            result,
        };
        if events.send(answer).is_err() {
            break;
        }
    }
    if let Some(p) = process.take() {
        p.engine.quit(Duration::from_millis(500));
    }
}

/// Starts the process if needed (START, ABOUT), then sends the job and waits for its answer.
fn think(
    spec: &EngineSpec,
    process: &mut Option<Process>,
    job: &Job,
    stop_upto: &AtomicU64,
    events: &UnboundedSender<Event>,
) -> Result<String, String> {
    let fresh = process.is_none();
    if fresh {
        let engine = Engine::spawn(spec, "web", false)
            .map_err(|e| format!("the engine failed to start ({e})"))?;
        *process = Some(Process { engine, size: 0 });
    }
    let p = process.as_mut().expect("just set");
    if fresh {
        if let Some(name) = p.engine.about_name(Duration::from_millis(STARTUP_MS)) {
            let _ = events.send(Event::Name(name));
        }
    }
    if p.size != job.size {
        start(&mut p.engine, job.size)?;
        p.size = job.size;
    }
    p.engine.drain();
    for line in request(job) {
        if let Err(e) = p.engine.send(&line) {
            return Err(exit_reason(&mut p.engine, e));
        }
    }
    wait_answer(&mut p.engine, job, stop_upto, events)
}

/// Why the engine stopped taking input: its exit status when it has exited.
fn exit_reason(engine: &mut Engine, send_error: EngineError) -> String {
    let until = Instant::now() + Duration::from_millis(EXIT_WAIT_MS);
    loop {
        match engine.recv_line(until) {
            Ok(_) => continue,
            Err(EngineError::Closed(status)) => return format!("the engine crashed: {status}"),
            Err(_) => return format!("the engine stopped listening ({send_error})"),
        }
    }
}

fn start(engine: &mut Engine, size: usize) -> Result<(), String> {
    let crashed = |e: EngineError| format!("the engine did not start a game ({e})");
    engine.send(&format!("START {size}")).map_err(crashed)?;
    let answer = engine
        .recv(Instant::now() + Duration::from_millis(STARTUP_MS))
        .map_err(crashed)?;
    if !answer.to_ascii_uppercase().starts_with("OK") {
        return Err(format!("the engine refused START {size}: {answer}"));
    }
    Ok(())
}

/// The lines that set the engine up for `job` and ask for its answer.
fn request(job: &Job) -> Vec<String> {
    let turn_ms = match job.purpose {
        Purpose::Analyze => ANALYSIS_TURN_MS,
        _ => job.level.turn_ms,
    };
    let nodes = match job.purpose {
        Purpose::Analyze => 0,
        _ => job.level.max_nodes,
    };
    let strength = match job.purpose {
        Purpose::Move => job.level.strength,
        _ => 100,
    };
    let mut lines = vec![
        format!("INFO max_memory {ENGINE_MEMORY}"),
        format!("INFO rule {}", job.rule),
        format!("INFO timeout_turn {turn_ms}"),
        "INFO timeout_match 0".to_string(),
        format!("INFO time_left {}", pentad::protocol::UNLIMITED_TIME_MS),
        format!("INFO max_node {nodes}"),
        format!("INFO strength {strength}"),
        "INFO game_type 1".to_string(),
    ];
    if job.purpose == Purpose::Swap2 {
        lines.push("SWAP2BOARD".into());
        lines.extend(job.moves.iter().map(|(x, y)| format!("{x},{y}")));
    } else {
        let side = job.moves.len() % 2;
        lines.push("BOARD".into());
        for (i, (x, y)) in job.moves.iter().enumerate() {
            let own = if i % 2 == side { 1 } else { 2 };
            lines.push(format!("{x},{y},{own}"));
        }
    }
    lines.push("DONE".into());
    lines
}

/// True for lines that report on the search rather than answer.
fn is_report(line: &str) -> bool {
    let t = line.trim();
    let head = t
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    t.is_empty() || matches!(head.as_str(), "MESSAGE" | "DEBUG" | "INFO")
}

/// Waits for the answer, forwarding report lines, stopping the search when asked.
fn wait_answer(
    engine: &mut Engine,
    job: &Job,
    stop_upto: &AtomicU64,
    events: &UnboundedSender<Event>,
) -> Result<String, String> {
    let limit = match job.purpose {
        Purpose::Analyze => ANALYSIS_TURN_MS,
        _ => job.level.turn_ms,
    } + ANSWER_TOLERANCE_MS;
    let mut deadline = Instant::now() + Duration::from_millis(limit);
    let mut stopped = false;
    loop {
        if !stopped && stop_upto.load(Ordering::SeqCst) >= job.id {
            stopped = true;
            let _ = engine.send("YXSTOP");
            deadline = Instant::now() + Duration::from_millis(STOP_GRACE_MS);
        }
        let poll = (Instant::now() + Duration::from_millis(POLL_MS)).min(deadline);
        match engine.recv_line(poll) {
            Ok(line) if is_report(&line) => {
                let _ = events.send(Event::Line { id: job.id, line });
            }
            Ok(line) => return Ok(line.trim().to_string()),
            Err(EngineError::Timeout { .. }) if Instant::now() < deadline => {}
            Err(EngineError::Timeout { .. }) if stopped => {
                return Err("the engine did not stop when asked (YXSTOP)".into())
            }
            Err(EngineError::Timeout { .. }) => {
                return Err(format!(
                    "the engine did not answer within {:.1} s",
                    limit as f64 / 1000.0
                ))
            }
            Err(e) => return Err(format!("the engine crashed: {e}")),
        }
    }
}
