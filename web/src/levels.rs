//! Difficulty levels and the other fixed numbers of the web board, in one place.

use serde::Serialize;

/// One named difficulty: what the engine is told before each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    /// The name the page shows and sends back.
    pub name: &'static str,
    /// `INFO timeout_turn`, ms.
    pub turn_ms: u64,
    /// `INFO max_node` (0 = no cap).
    pub max_nodes: u64,
    /// `INFO strength`, 0..=100.
    pub strength: u8,
}

/// The levels, weakest first. `instant` is a few thousand nodes: quick and repeatable (the
/// browser tests use it).
pub const LEVELS: [Level; 6] = [
    Level {
        name: "instant",
        turn_ms: 1000,
        max_nodes: 3000,
        strength: 100,
    },
    Level {
        name: "beginner",
        turn_ms: 500,
        max_nodes: 20_000,
        strength: 30,
    },
    Level {
        name: "easy",
        turn_ms: 1000,
        max_nodes: 100_000,
        strength: 60,
    },
    Level {
        name: "medium",
        turn_ms: 2000,
        max_nodes: 1_000_000,
        strength: 85,
    },
    Level {
        name: "hard",
        turn_ms: 5000,
        max_nodes: 0,
        strength: 100,
    },
    Level {
        name: "master",
        turn_ms: 15_000,
        max_nodes: 0,
        strength: 100,
    },
];

/// The level a new game starts with.
pub const DEFAULT_LEVEL: &str = "easy";

/// The level named `name`.
pub fn level(name: &str) -> Option<Level> {
    LEVELS.iter().copied().find(|l| l.name == name)
}

/// Time per move of an analysis (it runs until stopped; this only bounds a runaway).
pub const ANALYSIS_TURN_MS: u64 = 3_600_000;
/// Extra time over `timeout_turn` before an engine that has not answered is given up on, ms.
pub const ANSWER_TOLERANCE_MS: u64 = 5000;
/// How long an engine may take to start and answer `START`, ms.
pub const STARTUP_MS: u64 = 10_000;
/// How long to wait for the move after `YXSTOP` before killing the engine, ms.
pub const STOP_GRACE_MS: u64 = 3000;
/// How long to wait for an engine that closed its input to exit (for its exit status), ms.
pub const EXIT_WAIT_MS: u64 = 500;
/// How often the engine worker looks at its stop flag while waiting for output, ms.
pub const POLL_MS: u64 = 40;
/// `INFO max_memory` for each engine (several tabs may each run one), bytes.
pub const ENGINE_MEMORY: u64 = 128 << 20;
/// Default cap on engines running at once (one per open tab).
pub const DEFAULT_MAX_ENGINES: usize = 4;
/// Largest upload (SGF or results file) the server accepts, bytes.
pub const MAX_UPLOAD: usize = 8 << 20;
/// The default port.
pub const DEFAULT_PORT: u16 = 8080;
