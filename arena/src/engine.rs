//! Engine processes: command-line parsing of `--engine`, spawning, line I/O with deadlines.
//!
//! Each engine runs as a child process. A reader thread forwards its stdout lines into a
//! channel, so the referee can wait for an answer with `recv_timeout` and kill an engine
//! that runs past its deadline. Only portable `std::process` APIs are used.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// How to start one engine: its display name (if given) and its command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// `name=` from the command line, if given (else ABOUT's name, else the file name).
    pub name: Option<String>,
    /// `threads=` from the command line: this engine's `INFO thread_num` (over `--threads`).
    pub threads: Option<u32>,
    /// `option.KEY=VALUE` words from the command line (as c-gomoku-cli's): each is sent as
    /// `INFO KEY VALUE` after the match's own INFO lines at every game's start.
    pub options: Vec<(String, String)>,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Whether `option.KEY=VALUE` makes one well-formed `INFO KEY VALUE` line.
fn valid_option(key: &str, value: &str) -> bool {
    let word = |w: &str| !w.is_empty() && !w.chars().any(|c| c.is_whitespace() || c.is_control());
    word(key) && word(value)
}

/// Splits a command line into words as a POSIX shell does (`"..."` and `'...'` group
/// words, a backslash outside single quotes escapes the next character): quote Windows
/// paths, which hold backslashes, in single quotes.
pub fn split_command_line(s: &str) -> Result<Vec<String>, String> {
    shlex::split(s).ok_or_else(|| format!("unbalanced quote or trailing backslash in {s:?}"))
}

impl EngineSpec {
    /// Parses `[name=NAME] [threads=N] [option.KEY=VALUE]... PROGRAM [ARGS...]`.
    pub fn parse(s: &str) -> Result<EngineSpec, String> {
        let mut words = split_command_line(s)?;
        let mut name = None;
        let mut threads = None;
        let mut options = Vec::new();
        while let Some(first) = words.first() {
            if let Some(n) = first.strip_prefix("name=") {
                if n.is_empty() {
                    return Err("empty name= in --engine".into());
                }
                name = Some(n.to_string());
                words.remove(0);
            } else if let Some(t) = first.strip_prefix("threads=") {
                match t.parse::<u32>() {
                    Ok(n) if (1..=1024).contains(&n) => threads = Some(n),
                    _ => return Err(format!("threads= wants 1..=1024, got {t:?}")),
                }
                words.remove(0);
            } else if let Some(o) = first.strip_prefix("option.") {
                match o.split_once('=') {
                    Some((k, v)) if valid_option(k, v) => options.push((k.into(), v.into())),
                    _ => return Err(format!("option. wants KEY=VALUE (no spaces), got {o:?}")),
                }
                words.remove(0);
            } else {
                break;
            }
        }
        if words.is_empty() {
            return Err(format!("no program in engine command {s:?}"));
        }
        let program = words.remove(0);
        Ok(EngineSpec {
            name,
            threads,
            options,
            program,
            args: words,
        })
    }

    /// The program's file name without directory and extension (the last-resort name).
    pub fn file_name(&self) -> String {
        std::path::Path::new(&self.program)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.program.clone())
    }
}

/// Extracts `name="..."` from an ABOUT reply.
pub fn parse_about_name(line: &str) -> Option<String> {
    let i = line.find("name=\"")?;
    // Make sure this is the key `name`, not e.g. `nickname`.
    if i > 0 {
        let prev = line[..i].chars().next_back()?;
        if prev.is_alphanumeric() || prev == '_' {
            return None;
        }
    }
    let rest = &line[i + 6..];
    let end = rest.find('"')?;
    let name = rest[..end].trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// No answer before the deadline; `waited` is how long we waited.
    Timeout { waited: Duration },
    /// The process exited or closed its pipes.
    Closed(String),
    /// The process could not be started.
    Spawn(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Timeout { waited } => {
                write!(f, "no answer within {:.3} s", waited.as_secs_f64())
            }
            EngineError::Closed(s) => write!(f, "{s}"),
            EngineError::Spawn(s) => write!(f, "cannot start: {s}"),
        }
    }
}

enum Event {
    /// Complete lines that arrived together (one read from the pipe).
    Lines(Vec<String>),
    Eof,
}

/// Lines managers skip: `MESSAGE ...`, `DEBUG ...` and blank lines.
fn is_noise(line: &str) -> bool {
    let t = line.trim();
    let upper = t.get(..7).unwrap_or(t).to_ascii_uppercase();
    t.is_empty() || upper.starts_with("MESSAGE") || upper.starts_with("DEBUG")
}

/// An engine's `ERROR …` or `UNKNOWN …` line.
fn is_complaint(line: &str) -> bool {
    let upper = line
        .trim_start()
        .get(..7)
        .unwrap_or(line)
        .to_ascii_uppercase();
    upper.starts_with("ERROR") || upper.starts_with("UNKNOWN")
}

/// A running engine process.
pub struct Engine {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    /// Lines received but not consumed yet.
    pending: VecDeque<String>,
    closed: bool,
    debug: bool,
}

/// Sends the engine's output lines to `tx` until it closes its stdout, then `Eof`. One
/// batch per read: the first line, plus every complete line already buffered with it, so
/// that lines written together are seen together.
fn forward_lines(stdout: ChildStdout, tx: Sender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        let mut batch = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    if !batch.is_empty() {
                        let _ = tx.send(Event::Lines(batch));
                    }
                    let _ = tx.send(Event::Eof);
                    return;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    batch.push(line.trim_end_matches(['\n', '\r']).to_string());
                }
            }
            if !reader.buffer().contains(&b'\n') {
                break;
            }
        }
        if tx.send(Event::Lines(batch)).is_err() {
            return;
        }
    }
}

impl Engine {
    /// Starts the engine. `label` names it in logs. With `debug`, the engine's stderr is
    /// passed through and all I/O is logged at `debug` level; otherwise its stderr is discarded.
    pub fn spawn(spec: &EngineSpec, label: &str, debug: bool) -> Result<Engine, EngineError> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if debug {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.program)))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineError::Spawn("no stdout pipe".into()))?;
        let (tx, rx) = channel();
        thread::Builder::new()
            .name(format!("read-{label}"))
            .spawn(move || forward_lines(stdout, tx))
            .map_err(|e| EngineError::Spawn(format!("reader thread: {e}")))?;
        Ok(Engine {
            label: label.to_string(),
            child,
            stdin,
            rx,
            pending: VecDeque::new(),
            closed: false,
            debug,
        })
    }

    /// Sends one line (a newline is appended) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.debug {
            log::debug!("{} < {}", self.label, line);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| EngineError::Closed("stdin closed".into()))?;
        let r = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        r.map_err(|e| {
            self.closed = true;
            EngineError::Closed(format!("pipe closed ({e})"))
        })
    }

    /// Waits for the next line that is not `MESSAGE`/`DEBUG` and not blank, until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let start = Instant::now();
        loop {
            match self.recv_line(deadline) {
                Ok(line) if is_noise(&line) => continue,
                Ok(line) => return Ok(line.trim().to_string()),
                Err(EngineError::Timeout { .. }) => {
                    return Err(EngineError::Timeout {
                        waited: start.elapsed(),
                    })
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Waits for a move's answer until `deadline`: as [`Engine::recv`], but `ERROR` and
    /// `UNKNOWN` lines are logged and skipped as well, as c-gomoku-cli and Piskvork do while
    /// waiting for a move (an engine that meant its ERROR as the answer then loses on time).
    /// Rapfi, for one, can print `ERROR Unknown command: TIME_LEFT` when an `INFO time_left`
    /// reaches it while it is still finishing its previous search, and then answers the TURN
    /// normally.
    pub fn recv_move(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            let line = self.recv(deadline)?;
            if is_complaint(&line) {
                log::warn!(
                    "{}: {:?} while a move was awaited, ignored",
                    self.label,
                    line
                );
                continue;
            }
            return Ok(line);
        }
    }

    /// Waits for the next line of any kind (`MESSAGE` lines included), until `deadline`.
    pub fn recv_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let start = Instant::now();
        loop {
            if let Some(line) = self.pending.pop_front() {
                if self.debug {
                    log::debug!("{} > {}", self.label, line);
                }
                return Ok(line);
            }
            if self.closed {
                return Err(self.closed_error());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(Event::Lines(v)) => self.pending.extend(v),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        waited: start.elapsed(),
                    })
                }
            }
        }
    }

    /// Discards lines the engine printed unasked since its last answer (logging them), so a
    /// stray line is not taken as the answer to the next request.
    pub fn drain(&mut self) {
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Lines(v) => self.pending.extend(v),
                Event::Eof => self.closed = true,
            }
        }
        for line in self.pending.drain(..) {
            if !is_noise(&line) {
                log::warn!(
                    "{}: unexpected output {:?} ignored",
                    self.label,
                    line.trim()
                );
            }
        }
    }

    fn closed_error(&mut self) -> EngineError {
        // Give the OS a moment to reap the process so we can report its exit status.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return EngineError::Closed(format!("process exited ({status})"));
            }
            thread::sleep(Duration::from_millis(5));
        }
        EngineError::Closed("output closed".into())
    }

    /// The operating system's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Asks `ABOUT` and returns the `name="..."` value, if any, within `timeout`.
    pub fn about_name(&mut self, timeout: Duration) -> Option<String> {
        self.send("ABOUT").ok()?;
        let line = self.recv(Instant::now() + timeout).ok()?;
        parse_about_name(&line)
    }

    /// Sends `END` and waits up to `grace` for the process to exit; kills it otherwise.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("END");
        self.stdin = None; // close the pipe: end of input also means exit
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }

    /// Kills the process at once (after a timeout or misbehaviour).
    pub fn kill(mut self) {
        self.terminate();
    }

    fn terminate(&mut self) {
        self.stdin = None;
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.terminate();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_with_quotes() {
        assert_eq!(
            split_command_line(r#"a  "b c" 'd "e"' f\ g"#).unwrap(),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(split_command_line(r#"x """#).unwrap(), vec!["x", ""]);
        assert!(split_command_line("x \"open").is_err());
        assert!(split_command_line("x 'open").is_err());
        assert_eq!(
            split_command_line(r#"'C:\Program Files\pbrain-x.exe' 'C:\e\a.txt'"#).unwrap(),
            vec![r"C:\Program Files\pbrain-x.exe", r"C:\e\a.txt"]
        );
        assert!(split_command_line("   ").unwrap().is_empty());
    }

    #[test]
    fn parses_engine_specs() {
        let s = EngineSpec::parse("name=new target/release/pbrain-pentad --flag 3").unwrap();
        assert_eq!(s.name.as_deref(), Some("new"));
        assert_eq!(s.program, "target/release/pbrain-pentad");
        assert_eq!(s.args, vec!["--flag", "3"]);
        assert_eq!(s.file_name(), "pbrain-pentad");
        let s = EngineSpec::parse(r#""name=My Engine" /opt/x/pbrain-y.exe"#).unwrap();
        assert_eq!(s.name.as_deref(), Some("My Engine"));
        assert_eq!(s.file_name(), "pbrain-y");
        let s = EngineSpec::parse(r#"name="Two Words" prog"#).unwrap();
        assert_eq!(s.name.as_deref(), Some("Two Words"));
        assert!(EngineSpec::parse("name=x").is_err());
        let s = EngineSpec::parse("threads=2 name=t2 prog --x").unwrap();
        assert_eq!((s.threads, s.name.as_deref()), (Some(2), Some("t2")));
        assert_eq!(s.program, "prog");
        assert_eq!(EngineSpec::parse("prog").unwrap().threads, None);
        let s = EngineSpec::parse("option.max_node=500 name=n prog option.x=1").unwrap();
        assert_eq!(s.options, [("max_node".to_string(), "500".to_string())]);
        assert_eq!(s.args, ["option.x=1"]);
        for bad in [
            "option.max_node prog",
            "option.=3 prog",
            "option.k= prog",
            "'option.k=a b' prog",
            "threads=0 prog",
            "threads=x prog",
            "threads= prog",
            "threads=2",
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
        assert!(EngineSpec::parse("").is_err());
    }

    #[test]
    fn parses_about() {
        assert_eq!(
            parse_about_name(r#"name="Pentad", version="0.1", author="x""#).as_deref(),
            Some("Pentad")
        );
        assert_eq!(
            parse_about_name(r#"version="1", name="Rapfi 2""#).as_deref(),
            Some("Rapfi 2")
        );
        assert_eq!(parse_about_name(r#"nickname="x""#), None);
        assert_eq!(parse_about_name("garbage"), None);
        assert_eq!(parse_about_name(r#"name="""#), None);
    }
}
