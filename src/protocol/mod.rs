//! The Gomocup protocol: typed command parsing and the session state machine (the only text I/O).
//!
//! [`run`] is the engine's main loop: a reader thread turns input into lines, the search thread
//! sends reports and results, and one [`Session`] handles both in arrival order.
//! [`SyncSession`] runs the same session without threads (searches are awaited), for tests.

mod command;
mod dbcommand;
mod format;
mod live;
mod parse;
mod session;
mod yxcommand;

pub use command::Command;
pub use dbcommand::{DbCommand, DeleteFilter, PathCommand, PositionCommand, Select};
pub use format::{about_line, forbid_line, format_nodes, report_line, swap2_line};
pub use live::PV_INFO_KEYS;
pub use parse::{command_word, line_text, parse_fields, parse_i64, shorten, Coord, ParseError};
pub use session::Session;

/// `INFO time_left` (or `timeout_match`) meaning the game has no clock; what a manager sends
/// for an untimed game.
pub use crate::core::UNLIMITED_TIME_MS;

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use crate::engine::EngineEvent;

/// Longest input line kept (bytes); the rest of a longer line is read and thrown away, and the
/// line is answered with `ERROR line too long`.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Reads one line (up to `\n`, which is not kept; a `\r` before it is removed later) into
/// `buf`, keeping at most `cap` bytes. Returns `Ok(None)` at end of input, otherwise
/// `Ok(Some(truncated))`. Memory stays bounded by `cap` whatever the line length.
pub fn read_line_capped<R: BufRead>(
    r: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut truncated = false;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if any { Some(truncated) } else { None });
        }
        any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        if part.len() > room {
            truncated = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        r.consume(used);
        if done {
            return Ok(Some(truncated));
        }
    }
}

/// How long the session gets to act on `END` itself before the process exits regardless (ms).
pub const END_GRACE_MS: u64 = 80;

/// True for an `END` command line (any case, surrounding blanks and CR allowed).
fn is_end_line(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.trim_matches(|c: char| c.is_whitespace() || c == '\0')
        .eq_ignore_ascii_case("END")
}

/// The backstop behind END's "exit at once": whatever the session is busy with (a slow
/// write, a table allocation), the process ends [`END_GRACE_MS`] after END was read.
fn exit_soon_after_end() {
    let spawned = std::thread::Builder::new()
        .name("pentad-end".into())
        .spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(END_GRACE_MS));
            log::debug!("END: exiting from the input thread");
            std::process::exit(0);
        });
    if let Err(e) = spawned {
        log::error!("cannot start the END backstop: {e}");
    }
}

/// Everything the main loop reacts to.
enum Event {
    Line(Vec<u8>, bool),
    Eof,
    Engine(EngineEvent),
}

/// Runs the protocol on `input` / `out` until END or end of input. Returns when the session
/// wants to exit (the caller should then exit the process, which also ends a running search).
/// Reading `END` also arms a backstop that exits the process [`END_GRACE_MS`] later, so END
/// is honoured even while the session is busy: call this only from the engine's `main`.
pub fn run<R, W>(input: R, out: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel::<Event>();
    let engine_tx = Mutex::new(tx.clone());
    let notify: crate::engine::Notify = Arc::new(move |ev| {
        if let Ok(t) = engine_tx.lock() {
            let _ = t.send(Event::Engine(ev));
        }
    });
    let reader = std::thread::Builder::new()
        .name("pentad-stdin".into())
        .spawn(move || {
            let mut input = input;
            let mut buf = Vec::new();
            loop {
                match read_line_capped(&mut input, &mut buf, MAX_LINE_BYTES) {
                    Ok(Some(truncated)) => {
                        if !truncated && is_end_line(&buf) {
                            exit_soon_after_end();
                        }
                        if tx.send(Event::Line(buf.clone(), truncated)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        log::error!("input error: {e}");
                        break;
                    }
                }
            }
            let _ = tx.send(Event::Eof);
        });
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let mut session = Session::new(out, notify);
    while let Ok(ev) = rx.recv() {
        match ev {
            Event::Line(bytes, truncated) => session.handle_input(&bytes, truncated),
            Event::Eof => session.end_of_input(),
            Event::Engine(e) => session.handle_event(e),
        }
        if session.quit_requested() {
            break;
        }
    }
    let _ = session.output().flush();
}

/// A session driven synchronously: each input line is handled, and any search it starts is
/// awaited (reports and the answer printed) before `feed` returns. For tests and tools.
pub struct SyncSession<W: Write> {
    session: Session<W>,
    events: mpsc::Receiver<EngineEvent>,
}

impl<W: Write> SyncSession<W> {
    /// A session writing to `out`.
    pub fn new(out: W) -> SyncSession<W> {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let notify: crate::engine::Notify = Arc::new(move |ev| {
            if let Ok(t) = tx.lock() {
                let _ = t.send(ev);
            }
        });
        SyncSession {
            session: Session::new(out, notify),
            events: rx,
        }
    }

    /// Handles one raw line (a trailing `\r` is allowed) and waits for any search it starts.
    pub fn feed(&mut self, line: &[u8]) {
        let truncated = line.len() > MAX_LINE_BYTES;
        self.session
            .handle_input(&line[..line.len().min(MAX_LINE_BYTES)], truncated);
        // Wait for the answer, and for a ponder search the line stopped to end (the line
        // runs then).
        while self.session.is_thinking()
            || (self.session.is_pondering() && self.session.queued() > 0)
        {
            match self.events.recv() {
                Ok(ev) => self.session.handle_event(ev),
                Err(_) => break,
            }
        }
    }

    /// The session inside.
    pub fn session(&mut self) -> &mut Session<W> {
        &mut self.session
    }
}
