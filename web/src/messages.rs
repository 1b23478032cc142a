//! The JSON messages between the page and the server over the tab's WebSocket. The page only
//! ever sends these requests: nothing it sends is run as a command.

use serde::{Deserialize, Serialize};

use crate::analysis::Report;
use crate::game::Outcome;
use crate::results::Results;

/// A request from the page.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Start a new game.
    New {
        size: usize,
        rule: String,
        /// `black` or `white`; with `swap2`, `black` means the person opens.
        color: String,
        level: String,
        #[serde(default)]
        swap2: bool,
    },
    /// The person plays the point (x, y).
    Play {
        x: usize,
        y: usize,
    },
    Undo,
    Redo,
    Hint,
    Resign,
    /// Analysis on or off.
    Analyze {
        on: bool,
    },
    /// A Swap2 choice: `black`, `white`, or `more` (place two more stones).
    Swap2 {
        choice: String,
    },
    /// Start a fresh engine process (after a crash), keeping the game.
    Restart,
    /// Send the game as SGF.
    Save,
    /// Load a game from SGF text.
    Load {
        text: String,
    },
    /// Read an arena results file (JSON lines or SGF) for the viewer.
    Results {
        text: String,
    },
}

/// The clocks: thinking time used by each side, and whose clock runs.
#[derive(Clone, Debug, Serialize)]
pub struct Clock {
    pub black_ms: u64,
    pub white_ms: u64,
    /// `black`, `white`, or `null` when stopped.
    pub running: Option<&'static str>,
}

/// Everything the page draws, sent after every change.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub size: usize,
    pub rule: &'static str,
    pub level: &'static str,
    /// The person's colour (`black` / `white`).
    pub human: &'static str,
    pub engine: String,
    /// `[x, y]` in play order, Black first.
    pub moves: Vec<[usize; 2]>,
    pub to_move: &'static str,
    pub outcome: Option<Outcome>,
    /// Black's forbidden points now (renju, Black to move).
    pub forbidden: Vec<[usize; 2]>,
    /// The engine is working on a move or a Swap2 decision.
    pub thinking: bool,
    pub analyzing: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    /// Why the engine is down (it failed to start, crashed or played an illegal move).
    pub engine_down: Option<String>,
    /// The Swap2 step, when the opening is under way: `place3`, `place2`, `choose3`,
    /// `choose5` (the person chooses), or `engine` (the engine decides).
    pub swap2: Option<&'static str>,
    /// A sentence for the status line.
    pub status: String,
    pub clock: Clock,
}

/// A message to the page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    State(Box<State>),
    /// The engine's suggestion.
    Hint {
        x: usize,
        y: usize,
    },
    /// A search report while the engine thinks.
    Analysis {
        #[serde(flatten)]
        report: Report,
    },
    /// A problem to show; the game stays as it was.
    Error {
        message: String,
    },
    /// The game as SGF for download.
    Sgf {
        name: String,
        text: String,
    },
    /// An arena results file, read.
    Results {
        data: Box<Results>,
    },
    /// The named difficulty levels (sent once, on connect).
    Levels {
        names: Vec<&'static str>,
        default: &'static str,
    },
}
