//! The fuzz targets' checks, shared by the libFuzzer entry points (`fuzz_targets/`) and the
//! stable corpus replay (`tests/integration/fuzz_corpus.rs`, which includes this file as a module): each
//! function takes arbitrary bytes and panics on a bug (a panic, a mismatch with a from-scratch
//! recomputation, or output that is not a protocol line).

use pentad::board::{debug, Board};
use pentad::core::{Color, Pos, Rule};
use pentad::protocol::{command_word, line_text, Command, SyncSession, PV_INFO_KEYS};

/// Lines of a session input: at most this many are fed (keeps every input short in time).
const MAX_SESSION_LINES: usize = 64;
/// Searches (thinking commands) a session input may start; later ones are dropped.
const MAX_SEARCHES: usize = 4;
/// `INFO max_node` the session target forces: every search stays tiny.
const FUZZ_MAX_NODES: i64 = 200;
/// `INFO max_node` the session target sets before an opening decision (Swap2, Soosorv),
/// whose probes (about 70 searches) each honour it: the decision costs about as much as
/// a few move searches.
const FUZZ_OPENING_MAX_NODES: i64 = 16;
/// `INFO max_memory` the session target forces at most (bytes): the smallest table.
const FUZZ_MAX_MEMORY: i64 = 20_000_000;
/// `INFO hash_size` (KiB) the session target allows at most.
const FUZZ_MAX_HASH_KIB: i64 = 1024;
/// `INFO thread_num` the session target allows at most.
const FUZZ_MAX_THREADS: i64 = 2;

/// (a) The command parser: any line parses to a command or an error, never a panic, and the
/// result does not depend on a trailing line end or surrounding blanks.
pub fn parser(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        let parsed = line.parse::<Command>();
        let _ = command_word(line);
        let trimmed = line.trim();
        let again = trimmed.parse::<Command>();
        assert_eq!(
            format!("{parsed:?}"),
            format!("{again:?}"),
            "blanks around {line:?} changed the parse"
        );
    }
}

/// `line` with the INFO values that would make an input slow (node limit, memory, threads)
/// brought into bounds; every other line, including extreme time values, unchanged.
fn tame(line: &[u8]) -> Vec<u8> {
    let text = line_text(line); // as the session reads it (NUL padding trimmed)
    let mut words = text.split_whitespace();
    let (Some(cmd), Some(key), Some(value)) = (words.next(), words.next(), words.next()) else {
        return line.to_vec();
    };
    if !cmd.eq_ignore_ascii_case("INFO") {
        return line.to_vec();
    }
    let Ok(v) = value.parse::<i64>() else {
        return line.to_vec();
    };
    let v = match key.to_ascii_lowercase().as_str() {
        "max_node" => v.clamp(1, FUZZ_MAX_NODES),
        "max_memory" => v.clamp(1, FUZZ_MAX_MEMORY),
        "hash_size" => v.clamp(0, FUZZ_MAX_HASH_KIB),
        "thread_num" => v.clamp(1, FUZZ_MAX_THREADS),
        _ => return line.to_vec(),
    };
    format!("INFO {key} {v}").into_bytes()
}

/// Whether `word` (a line's command word, upper case) asks for a search: a move, a
/// suggestion, n-best, a defence or balance search, or an opening decision.
fn starts_search(word: &str, in_block: bool) -> bool {
    matches!(
        word,
        "BEGIN" | "TURN" | "SUGGEST" | "YXNBEST" | "YXSEARCHDEFEND"
    ) || word.starts_with("YXBALANCE")
        || (in_block && word == "DONE")
        || is_opening_decision(word)
}

/// Whether `word` asks for an opening decision (Swap2 or Soosorv; many probe searches).
fn is_opening_decision(word: &str) -> bool {
    word == "SWAP2BOARD" || word.starts_with("YXSWAP2STEP") || word.starts_with("YXSOOSORVSTEP")
}

/// Whether `line` is a protocol line the engine may print.
fn is_protocol_line(line: &str) -> bool {
    let starts = |p: &str| line.starts_with(p);
    let coords = |s: &str| {
        s.split(' ').all(|m| {
            m.split_once(',')
                .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
        })
    };
    !line.is_empty()
        && !line.contains(['\r', '\0'])
        && ([
            "OK", "ERROR", "UNKNOWN", "MESSAGE", "DEBUG", "FORBID", "SUGGEST ", "SWAP",
        ]
        .iter()
        .any(|p| starts(p))
            || is_live_info_line(line)
            || line.contains("name=")
            || coords(line))
}

/// A line of the `INFO PV` block that `INFO show_detail` asks for (Yixin-Board's live
/// analysis: `protocol::live::pv_info_lines`).
fn is_live_info_line(line: &str) -> bool {
    line.strip_prefix("INFO ")
        .and_then(|rest| rest.split(' ').next())
        .is_some_and(|key| key == "PV" || PV_INFO_KEYS.contains(&key))
}

/// (b) The whole session state machine fed an arbitrary byte stream, one line per `\n`
/// (searches node-limited, at most [`MAX_SEARCHES`]; time values pass through unchanged,
/// extremes included): no panic, never left thinking, only protocol lines printed, and the
/// board consistent with a from-scratch recomputation at the end.
pub fn session(data: &[u8]) {
    let mut s = SyncSession::new(Vec::<u8>::new());
    s.feed(format!("INFO max_memory {FUZZ_MAX_MEMORY}").as_bytes());
    s.feed(format!("INFO max_node {FUZZ_MAX_NODES}").as_bytes());
    let mut searches = 0;
    let mut in_block = false;
    for line in data.split(|&b| b == b'\n').take(MAX_SESSION_LINES) {
        // The session's own reading of the line: NUL padding does not hide a command.
        let word = command_word(&line_text(line));
        if starts_search(&word, in_block) {
            searches += 1;
            if searches > MAX_SEARCHES {
                continue;
            }
        }
        if is_opening_decision(&word) {
            s.feed(format!("INFO max_node {FUZZ_OPENING_MAX_NODES}").as_bytes());
        }
        match word.as_str() {
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => in_block = true,
            "DONE" => in_block = false,
            _ => {}
        }
        if word == "END" {
            break; // the session would quit; nothing after it is read
        }
        s.feed(&tame(line));
        assert!(!s.session().is_thinking(), "left thinking after {line:?}");
    }
    let out = std::mem::take(s.session().output());
    let out = String::from_utf8(out).expect("output is UTF-8");
    for l in out.lines() {
        assert!(is_protocol_line(l), "not a protocol line: {l:?}");
    }
    if let Some(b) = s.session().board() {
        debug::check_consistency(b).expect("session board consistent");
    }
}

/// The board a byte picks: size 5..=32 each side (rectangular too) and a rule.
fn board_for(header: &[u8]) -> Option<Board> {
    let (&w, &h, &r) = (header.first()?, header.get(1)?, header.get(2)?);
    let width = 5 + w as usize % 28;
    let height = if h & 0x80 != 0 {
        width
    } else {
        5 + h as usize % 28
    };
    let rule = Rule::from_info((r % 16) as i64).unwrap_or(Rule::FREESTYLE);
    Board::new(width, height, rule).ok()
}

/// A fresh board with the same walls and the same stones played in the same order.
fn replayed(b: &Board, walls: &[Pos]) -> Board {
    let mut fresh = Board::new(b.width(), b.height(), b.rule()).expect("same size");
    for &p in walls {
        fresh.put_wall(p);
    }
    for (p, c) in b.history() {
        fresh.make_move_as(p, c);
    }
    fresh.set_side_to_move(b.side_to_move());
    fresh
}

/// (c) Board move/undo sequences: 3 header bytes (size, rule), then 2-byte operations (a
/// move of the side to move or of a given colour, an undo, a takeback of any stone, a wall).
/// After every operation the cells it can reach are recomputed from scratch and every other
/// cell is unchanged (`debug::check_change`); at the end the whole board equals a
/// from-scratch recomputation (`debug::check_consistency`, which also covers the new board's
/// state at cells no operation reached) and a board replayed from the history has the same
/// hash, cells and patterns.
pub fn board(data: &[u8]) {
    let Some(mut b) = board_for(data) else {
        return;
    };
    let mut walls = Vec::new();
    let mut before = debug::Snapshot::default();
    for (n, op) in data[3..].chunks_exact(2).enumerate() {
        before.take(&b);
        let (kind, at) = (op[0] % 8, op[1] as usize);
        let p = Pos::new(
            at % b.width(),
            (at / b.width() + kind as usize) % b.height(),
        );
        let mut changed = p;
        match kind {
            0..=3 if b.is_empty(p) => b.make_move(p),
            4 if b.is_empty(p) => b.make_move_as(p, Color::BOTH[at % 2]),
            5 => {
                changed = b.last_move().unwrap_or(p);
                b.undo();
            }
            6 => {
                let _ = b.remove_stone(p);
            }
            7 if b.is_empty(p) && b.stone_count() == 0 => {
                b.put_wall(p);
                walls.push(p);
            }
            _ => {}
        }
        if let Err(e) = debug::check_change(&before, &b, changed) {
            panic!("after operation {n} {op:?}: {e}");
        }
    }
    if let Err(e) = debug::check_consistency(&b) {
        panic!("at the end: {e}");
    }
    let fresh = replayed(&b, &walls);
    assert_eq!(b.hash(), fresh.hash(), "hash differs from a replay");
    for y in 0..b.height() {
        for x in 0..b.width() {
            let p = Pos::new(x, y);
            assert_eq!(b.cell(p), fresh.cell(p), "cell {x},{y}");
            if b.is_empty(p) {
                for c in Color::BOTH {
                    assert_eq!(b.pattern4(p, c), fresh.pattern4(p, c), "pattern4 {x},{y}");
                }
            }
        }
    }
}
