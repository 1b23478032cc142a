//! One engine process driven over the Gomocup protocol for the measurement subcommands:
//! start it, ask for moves and time each answer as a manager does (from the line that asks
//! for a move to the move).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use pentad::core::Pos;
use pentad_arena::{Engine, EngineSpec};

/// How long START may take.
const START_TIMEOUT: Duration = Duration::from_secs(5);
/// How long END may take before the process is killed.
const END_GRACE: Duration = Duration::from_secs(2);

/// The default engine: `pbrain-pentad` beside the running `pentad-tools` (both are built
/// into the same target directory).
pub fn default_engine() -> String {
    let name = format!("pbrain-pentad{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)));
    beside
        .unwrap_or_else(|| PathBuf::from(name))
        .to_string_lossy()
        .into_owned()
}

/// An engine's answer to a move request.
pub struct Answer {
    /// The move line, `x,y`.
    pub mv: String,
    /// Wall time from the request to the move, ms.
    pub wall_ms: f64,
}

/// A running engine.
pub struct Driver {
    engine: Engine,
    started: Instant,
}

impl Driver {
    /// Starts `program` and sends `START` (or `RECTSTART`); fails without an `OK`. With
    /// `show_stderr` the engine's stderr goes to ours, else it is discarded.
    pub fn start(program: &str, width: usize, height: usize, show_stderr: bool) -> Result<Driver> {
        let spec = EngineSpec {
            program: program.to_string(),
            ..Default::default()
        };
        Driver::start_spec(&spec, width, height, show_stderr)
    }

    /// [`Driver::start`] for an engine command line with arguments (its `spec`).
    pub fn start_spec(
        spec: &EngineSpec,
        width: usize,
        height: usize,
        show_stderr: bool,
    ) -> Result<Driver> {
        let started = Instant::now();
        let engine = Engine::spawn(spec, "engine", show_stderr).map_err(|e| anyhow!("{e}"))?;
        let mut d = Driver { engine, started };
        if width == height {
            d.send(&format!("START {width}"))?;
        } else {
            d.send(&format!("RECTSTART {width},{height}"))?;
        }
        let line = d
            .engine
            .recv(Instant::now() + START_TIMEOUT)
            .map_err(|e| anyhow!("START: {e}"))?;
        if !line.starts_with("OK") {
            bail!("START answered {line:?}");
        }
        Ok(d)
    }

    /// Time from the process start to now.
    pub fn since_start(&self) -> Duration {
        self.started.elapsed()
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.engine.id()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<()> {
        self.engine.send(line).map_err(|e| anyhow!("{e}"))
    }

    /// Sends `INFO key value` for each pair.
    pub fn infos(&mut self, infos: &[(&str, String)]) -> Result<()> {
        for (key, value) in infos {
            self.send(&format!("INFO {key} {value}"))?;
        }
        Ok(())
    }

    /// Sends `command` (BEGIN, TURN x,y, DONE) and waits up to `timeout` for the move.
    pub fn request(&mut self, command: &str, timeout: Duration) -> Result<Answer> {
        let t0 = Instant::now();
        self.send(command)?;
        let deadline = t0 + timeout;
        loop {
            let line = self
                .engine
                .recv_line(deadline)
                .map_err(|e| anyhow!("{e}"))?;
            let line = line.trim();
            if is_move(line) {
                return Ok(Answer {
                    mv: line.to_string(),
                    wall_ms: t0.elapsed().as_secs_f64() * 1e3,
                });
            } else if line.starts_with("ERROR") || line.starts_with("UNKNOWN") {
                bail!("{command}: {line}");
            }
        }
    }

    /// Waits until the engine reads commands again. Some engines (Rapfi) drop a command
    /// that arrives while they finish a search, so `ABOUT` is asked every 10 ms until one is
    /// answered. A late answer of an earlier ask is no move, so [`Driver::request`] skips it.
    pub fn await_ready(&mut self) -> Result<()> {
        for _ in 0..2000 {
            self.engine.drain();
            self.send("ABOUT")?;
            let deadline = Instant::now() + Duration::from_millis(10);
            while let Ok(line) = self.engine.recv(deadline) {
                if line.starts_with("name=") {
                    return Ok(());
                }
            }
        }
        bail!("the engine does not answer ABOUT")
    }

    /// Sends END and measures how long the process takes to exit (None: it was killed).
    pub fn end(self) -> Option<Duration> {
        let t0 = Instant::now();
        self.engine.quit(END_GRACE);
        let waited = t0.elapsed();
        (waited < END_GRACE).then_some(waited)
    }
}

/// `x,y` with two numbers.
fn is_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        !x.is_empty()
            && !y.is_empty()
            && x.bytes().all(|b| b.is_ascii_digit())
            && y.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Parses `x,y` into a point.
pub fn parse_move(line: &str) -> Option<Pos> {
    let (x, y) = line.split_once(',')?;
    let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < pentad::core::MAX_SIZE && y < pentad::core::MAX_SIZE).then(|| Pos::new(x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_moves() {
        assert!(is_move("7,8"));
        assert!(!is_move("7,"));
        assert!(!is_move("MESSAGE 7,8"));
        assert_eq!(parse_move("3,4"), Some(Pos::new(3, 4)));
        assert_eq!(parse_move("40,4"), None);
    }
}
