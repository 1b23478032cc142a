//! Runs every transcript in `protocol-tests/` against the real `pbrain-pentad` binary
//! (format: `protocol-tests/README.md`) and reports which transcripts failed and where.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// How long an expected line may take unless `@ within` says otherwise.
const DEFAULT_WAIT: Duration = Duration::from_secs(10);
/// Transcripts run at the same time.
const PARALLEL: usize = 4;

// ---------------------------------------------------------------- patterns

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Lit(char),
    Move,
    Int,
    Any,
    Nodes,
    Score,
}

fn tokenize(p: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut rest = p;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest
                .find('}')
                .ok_or_else(|| format!("unclosed {{ in {p:?}"))?;
            out.push(match &rest[1..end] {
                "move" => Tok::Move,
                "int" => Tok::Int,
                "any" => Tok::Any,
                "nodes" => Tok::Nodes,
                "score" => Tok::Score,
                other => return Err(format!("unknown placeholder {{{other}}}")),
            });
            rest = &rest[end + 1..];
        } else {
            out.push(Tok::Lit(c));
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(out)
}

fn digits(s: &[u8], i: usize) -> usize {
    s[i..].iter().take_while(|b| b.is_ascii_digit()).count()
}

/// Possible end offsets of `t` matched at `i` in `s`.
fn ends(t: &Tok, s: &str, i: usize) -> Vec<usize> {
    let b = s.as_bytes();
    match t {
        Tok::Lit(c) => {
            if s[i..].starts_with(*c) {
                vec![i + c.len_utf8()]
            } else {
                vec![]
            }
        }
        Tok::Any => (i..=s.len()).filter(|&j| s.is_char_boundary(j)).collect(),
        Tok::Int => {
            let j = if b.get(i) == Some(&b'-') { i + 1 } else { i };
            let d = digits(b, j);
            if d > 0 {
                vec![j + d]
            } else {
                vec![]
            }
        }
        Tok::Move => {
            let d = digits(b, i);
            if d == 0 || b.get(i + d) != Some(&b',') {
                return vec![];
            }
            let e = digits(b, i + d + 1);
            if e == 0 {
                vec![]
            } else {
                vec![i + d + 1 + e]
            }
        }
        Tok::Nodes => {
            let d = digits(b, i);
            if d == 0 {
                return vec![];
            }
            let mut j = i + d;
            if b.get(j) == Some(&b'.') && digits(b, j + 1) == 1 {
                j += 2;
            }
            if matches!(b.get(j), Some(b'K' | b'M' | b'G')) {
                j += 1;
            }
            vec![j]
        }
        Tok::Score => {
            let j = if matches!(b.get(i), Some(b'+' | b'-')) && b.get(i + 1) == Some(&b'M') {
                i + 2
            } else if b.get(i) == Some(&b'-') {
                i + 1
            } else {
                i
            };
            let d = digits(b, j);
            if d > 0 {
                vec![j + d]
            } else {
                vec![]
            }
        }
    }
}

fn match_from(toks: &[Tok], s: &str, i: usize, moves: &mut Vec<String>) -> bool {
    let Some(t) = toks.first() else {
        return i == s.len();
    };
    for j in ends(t, s, i) {
        let mark = moves.len();
        if *t == Tok::Move {
            moves.push(s[i..j].to_string());
        }
        if match_from(&toks[1..], s, j, moves) {
            return true;
        }
        moves.truncate(mark);
    }
    false
}

/// Matches `line` against a pattern with `|`-separated alternatives; returns captured moves.
fn pattern_match(pattern: &str, line: &str) -> Result<Option<Vec<String>>, String> {
    for alt in pattern.split('|') {
        let toks = tokenize(alt)?;
        let mut moves = Vec::new();
        if match_from(&toks, line, 0, &mut moves) {
            return Ok(Some(moves));
        }
    }
    Ok(None)
}

// ---------------------------------------------------------------- the engine process

/// The engine to run: this build's `pbrain-pentad`, or the command line in
/// `PENTAD_TRANSCRIPT_ENGINE` (words split on spaces), which replays the transcripts against
/// another build, such as the Windows one under Wine:
/// `PENTAD_TRANSCRIPT_ENGINE="wine64 /path/pbrain-pentad.exe" cargo test --release --test
/// protocol_transcripts`.
fn engine_command() -> Command {
    let custom = std::env::var("PENTAD_TRANSCRIPT_ENGINE").unwrap_or_default();
    let mut words = custom.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(words);
            command
        }
        None => Command::new(env!("CARGO_BIN_EXE_pbrain-pentad")),
    }
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(String, Instant)>,
    stderr: std::sync::Arc<Mutex<Vec<u8>>>,
    last_send: Instant,
    last_move: Option<String>,
    pushed_back: Option<(String, Instant)>,
}

impl Engine {
    fn spawn(tmp: &Path) -> Result<Engine, String> {
        // The run's scratch folder as working folder: a transcript may open the default
        // database file, which must not land in the source tree.
        let mut child = engine_command()
            .current_dir(tmp)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG")
            .spawn()
            .map_err(|e| format!("cannot start the engine: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut stderr = child.stderr.take().ok_or("no stderr")?;
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        while matches!(buf.last(), Some(b'\n' | b'\r')) {
                            buf.pop();
                        }
                        let s = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send((s, Instant::now())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let err_buf = std::sync::Arc::new(Mutex::new(Vec::new()));
        let eb = std::sync::Arc::clone(&err_buf);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                if let Ok(mut v) = eb.lock() {
                    if v.len() < 1 << 16 {
                        v.extend_from_slice(&chunk[..n]);
                    }
                }
            }
        });
        Ok(Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr: err_buf,
            last_send: Instant::now(),
            last_move: None,
            pushed_back: None,
        })
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))?;
        self.last_send = Instant::now();
        Ok(())
    }

    /// The next line that is not MESSAGE/DEBUG (unless `want_messages`), within `wait`.
    fn next_line(
        &mut self,
        wait: Duration,
        want_messages: bool,
    ) -> Result<Option<(String, Instant)>, String> {
        let deadline = Instant::now() + wait;
        if let Some(l) = self.pushed_back.take() {
            return Ok(Some(l));
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((l, t)) => {
                    let info = l.starts_with("MESSAGE") || l.starts_with("DEBUG");
                    if !info || want_messages {
                        return Ok(Some((l, t)));
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the engine closed its output".into())
                }
            }
        }
    }

    fn stderr_tail(&self) -> String {
        let v = self.stderr.lock().map(|v| v.clone()).unwrap_or_default();
        let s = String::from_utf8_lossy(&v).into_owned();
        let tail: Vec<&str> = s.lines().rev().take(5).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------- transcripts

/// The bytes a sent line stands for: escapes decoded, `$tmp` replaced by `tmp` (the folder
/// of this test run for the files transcripts make, and the engine's working folder), `$root`
/// by the crate's folder and `$m` by the last move matched.
fn unescape(s: &str, last_move: Option<&str>, tmp: &Path) -> Result<Vec<u8>, String> {
    let s = s
        .replace("$tmp", &tmp.to_string_lossy())
        .replace("$root", env!("CARGO_MANIFEST_DIR"));
    let s = match last_move {
        Some(m) => s.replace("$m", m),
        None if s.contains("$m") => return Err("$m used before any {move} was matched".into()),
        None => s.to_string(),
    };
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'r' => out.push(b'\r'),
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'\\' => out.push(b'\\'),
                b'x' if i + 3 < b.len() + 1 => {
                    let hex = s.get(i + 2..i + 4).ok_or("bad \\x escape")?;
                    out.push(u8::from_str_radix(hex, 16).map_err(|_| "bad \\x escape")?);
                    i += 4;
                    continue;
                }
                other => return Err(format!("unknown escape \\{}", other as char)),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn ms(arg: &str) -> Result<Duration, String> {
    arg.trim()
        .parse::<u64>()
        .map(Duration::from_millis)
        .map_err(|_| format!("bad milliseconds {arg:?}"))
}

/// Runs one transcript with `tmp` as its `$tmp`; `Err` names the failing line.
fn run_transcript(text: &str, tmp: &Path) -> Result<(), String> {
    let mut eng = Engine::spawn(tmp)?;
    let mut within: Option<Duration> = None;
    let mut exited = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (op, arg) = line.split_at(line.find(' ').unwrap_or(line.len()));
        let arg = arg.strip_prefix(' ').unwrap_or(arg);
        let done = match op {
            ">" | ">|" => send_line(&mut eng, op == ">", arg, tmp).map(|_| false),
            "<" | "~" | "?" => expect_line(&mut eng, op, arg, within.take()).map(|_| false),
            "@" => directive(&mut eng, arg, tmp, &mut within),
            _ => Err("unknown line kind (use >, >|, <, ~, ?, @, #)".into()),
        };
        match done {
            Ok(exit) => exited |= exit,
            Err(what) => {
                let lineno = n + 1;
                let stderr = eng.stderr_tail();
                return Err(format!(
                    "line {lineno} `{line}`: {what}\n  engine stderr: {stderr}"
                ));
            }
        }
    }
    if !exited {
        // Whatever remains must be nothing but MESSAGE/DEBUG lines; then END must end it.
        if let Ok(Some((l, _))) = eng.next_line(Duration::from_millis(100), false) {
            return Err(format!("at the end: unexpected output {l:?}"));
        }
        let _ = eng.send(b"END\n");
        if !exits_by(&mut eng, Instant::now() + Duration::from_secs(2)) {
            return Err("at the end: the engine did not exit after END".into());
        }
    }
    while let Ok((l, _)) = eng.lines.recv_timeout(Duration::from_millis(200)) {
        if !(l.starts_with("MESSAGE") || l.starts_with("DEBUG")) {
            return Err(format!("at the end: unexpected output {l:?}"));
        }
    }
    Ok(())
}

/// `>` and `>|`: sends the line, unescaped, with a newline when `newline`.
fn send_line(eng: &mut Engine, newline: bool, arg: &str, tmp: &Path) -> Result<(), String> {
    let mut bytes = unescape(arg, eng.last_move.as_deref(), tmp)?;
    if newline {
        bytes.push(b'\n');
    }
    eng.send(&bytes)
}

/// `<` (this exact line), `~` (a line matching the pattern) and `?` (such a line if it comes;
/// otherwise the line is kept for the next check): the engine's next line, within `limit` of
/// the last send when `@within` set one.
fn expect_line(
    eng: &mut Engine,
    op: &str,
    arg: &str,
    limit: Option<Duration>,
) -> Result<(), String> {
    let wait = match limit {
        Some(d) => (eng.last_send + d).saturating_duration_since(Instant::now()),
        None => DEFAULT_WAIT,
    };
    let got = match (op, eng.next_line(wait, arg.starts_with("MESSAGE"))) {
        ("?", Ok(None)) | ("?", Err(_)) => return Ok(()),
        (_, got) => got?,
    };
    let Some((got, at)) = got else {
        return Err(format!("no line within {} ms", wait.as_millis()));
    };
    if let Some(d) = limit {
        if at > eng.last_send + d {
            return Err(format!("{got:?} came after more than {} ms", d.as_millis()));
        }
    }
    let ok = if op == "<" {
        let want = match eng.last_move.as_deref() {
            Some(m) => arg.replace("$m", m),
            None => arg.to_string(),
        };
        got == want
    } else {
        match pattern_match(arg, &got)? {
            Some(moves) => {
                if let Some(m) = moves.last() {
                    eng.last_move = Some(m.clone());
                }
                true
            }
            None => false,
        }
    };
    match (ok, op) {
        (true, _) => Ok(()),
        (false, "?") => {
            eng.pushed_back = Some((got, at));
            Ok(())
        }
        (false, _) => Err(format!("got {got:?}")),
    }
}

/// `@` directives: `within`, `sleep`, `quiet`, `eof`, `exit`, `bigline`, `xfail`. True when the
/// engine has exited (`@exit`).
fn directive(
    eng: &mut Engine,
    arg: &str,
    tmp: &Path,
    within: &mut Option<Duration>,
) -> Result<bool, String> {
    let (cmd, rest) = arg.split_at(arg.find(' ').unwrap_or(arg.len()));
    let rest = rest.trim();
    match cmd {
        "within" => *within = Some(ms(rest)?),
        "sleep" => thread::sleep(ms(rest)?),
        "quiet" => {
            if let Ok(Some((l, _))) = eng.next_line(ms(rest)?, false) {
                return Err(format!("expected no output, got {l:?}"));
            }
        }
        "eof" => {
            eng.stdin = None;
            eng.last_send = Instant::now();
        }
        "exit" => {
            let d = ms(rest)?;
            let deadline = eng.last_send + d;
            if !exits_by(eng, deadline) {
                return Err(format!(
                    "the engine did not exit within {} ms",
                    d.as_millis()
                ));
            }
            return Ok(true);
        }
        "bigline" => {
            let (n, prefix) = rest.split_at(rest.find(' ').unwrap_or(rest.len()));
            let n: usize = n.parse().map_err(|_| "bad size".to_string())?;
            let mut bytes = unescape(prefix.trim(), None, tmp)?;
            bytes.resize(n.max(bytes.len()), b'x');
            bytes.push(b'\n');
            eng.send(&bytes)?;
        }
        "xfail" => {}
        other => return Err(format!("unknown directive @{other}")),
    }
    Ok(false)
}

/// Waits until the engine's process exits (true) or `deadline` passes (false).
fn exits_by(eng: &mut Engine, deadline: Instant) -> bool {
    loop {
        match eng.child.try_wait() {
            Ok(Some(_)) => return true,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
            _ => return false,
        }
    }
}

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("protocol-tests/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    v.sort();
    v
}

#[test]
fn pattern_language() {
    let m = |p: &str, s: &str| pattern_match(p, s).unwrap().is_some();
    assert!(m("{move}", "7,7"));
    assert!(!m("{move}", "7,7 "));
    assert!(!m("{move}", "-1,7"));
    assert!(m("{move} {move} {move}", "1,2 3,4 5,6"));
    assert!(m("SWAP|{move}|{move} {move}", "SWAP"));
    assert!(m("SWAP|{move}|{move} {move}", "3,4 5,6"));
    assert!(m("ERROR {any}", "ERROR TURN: 8,8 is occupied"));
    assert!(!m("ERROR {any}", "UNKNOWN x"));
    assert!(m(
        "MESSAGE depth {int}-{int} ev {score} n {nodes} n/ms {int} tm {int} pv{any}",
        "MESSAGE depth 12-19 ev +M3 n 1.2M n/ms 850 tm 1400 pv h8 i9"
    ));
    assert_eq!(
        pattern_match("{move}", "12,3").unwrap(),
        Some(vec!["12,3".to_string()])
    );
    assert_eq!(
        unescape("a\\r\\xff$m", Some("1,2"), Path::new("/t")).unwrap(),
        b"a\r\xff1,2".to_vec()
    );
    assert_eq!(
        unescape("$tmp/a.db", None, Path::new("/t")).unwrap(),
        b"/t/a.db".to_vec()
    );
}

#[test]
fn protocol_transcripts() {
    let files = transcripts();
    assert!(
        files.len() >= 30,
        "expected at least 30 transcripts, found {}",
        files.len()
    );
    // One folder for the whole run, as `$tmp` promises; removed when the test ends, after
    // every transcript's engine has been killed and waited for (the scope below).
    let tmp = tempfile::Builder::new()
        .prefix("pentad-transcripts-")
        .tempdir()
        .expect("a temporary directory");
    let queue = Mutex::new(files.clone());
    let results = Mutex::new(Vec::new());
    thread::scope(|s| {
        for _ in 0..PARALLEL {
            s.spawn(|| loop {
                let Some(path) = queue.lock().unwrap().pop() else {
                    return;
                };
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let xfail = text
                    .lines()
                    .find_map(|l| l.strip_prefix("@ xfail").map(|r| r.trim().to_string()));
                let started = Instant::now();
                let r = run_transcript(&text, tmp.path());
                results
                    .lock()
                    .unwrap()
                    .push((path, xfail, r, started.elapsed()));
            });
        }
    });
    let mut failures = Vec::new();
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, xfail, r, took) in results {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match (r, xfail) {
            (Ok(()), None) => eprintln!("ok     {name} ({} ms)", took.as_millis()),
            (Err(e), None) => {
                eprintln!("FAILED {name}: {e}");
                failures.push(format!("{name}: {e}"));
            }
            (Err(e), Some(why)) => eprintln!("xfail  {name} (expected until: {why}): {e}"),
            (Ok(()), Some(why)) => {
                let msg =
                    format!("{name}: passes now although marked `@ xfail {why}`: delete that line");
                eprintln!("XPASS  {msg}");
                failures.push(msg);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} transcript(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
