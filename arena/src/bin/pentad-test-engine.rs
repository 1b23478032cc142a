//! pentad-test-engine: a tiny scripted Gomocup engine for the arena's tests, sane or
//! misbehaving on purpose (`--mode`).
//!
//! `pentad-test-engine --help` lists the modes. Misbehaviour happens at the engine's
//! `--after`-th move of a game (1-based, default 3). `--log FILE` appends every received line
//! to FILE.

use std::io::{BufRead, Write};

use clap::{Parser, ValueEnum};
use pentad::board::Board;
use pentad::core::{Color, Pos, Rule};

/// How the engine behaves; misbehaviour happens at its `--after`-th move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Wins when it can, blocks fives, else a seeded move next to the stones.
    Sane,
    /// Answers an occupied point.
    Occupied,
    /// Answers `99,99`.
    Offboard,
    /// Sleeps `--delay-ms` before answering.
    Late,
    /// Exits without answering.
    Crash,
    /// Prints a line that is not a move.
    Garbage,
    /// Sane, with MESSAGE, DEBUG, blank, ERROR and UNKNOWN lines before every move.
    Messages,
    /// Answers `ERROR` to START.
    Refuse,
    /// Answers `ERROR` to every other START (the first, the third, ...), as an engine still
    /// busy with its last search may.
    Flaky,
    /// Sane, with a stray line after each move.
    Chatty,
    /// Plays `--play` (e.g. a renju foul).
    Play,
}

/// A tiny scripted Gomocup engine for the arena's tests.
#[derive(Parser, Debug)]
#[command(name = "pentad-test-engine")]
struct Opts {
    /// Behaviour.
    #[arg(long, value_enum, default_value_t = Mode::Sane)]
    mode: Mode,
    /// The engine's move (1-based, per game) at which it misbehaves.
    #[arg(long, default_value_t = 3)]
    after: usize,
    /// Delay of `--mode late`, in ms.
    #[arg(long, default_value_t = 5000)]
    delay_ms: u64,
    /// Seed of the sane moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Name in the ABOUT reply (default `Test-<mode>`).
    #[arg(long)]
    name: Option<String>,
    /// The point `--mode play` plays, in `h8` notation.
    #[arg(long, value_parser = parse_point)]
    play: Option<Pos>,
    /// Append every received line to this file.
    #[arg(long)]
    log: Option<std::path::PathBuf>,
}

fn parse_point(s: &str) -> Result<Pos, String> {
    Pos::from_human(s).ok_or_else(|| format!("not a point in h8 notation: {s:?}"))
}

impl Opts {
    fn name(&self) -> String {
        let mode = self
            .mode
            .to_possible_value()
            .map(|v| v.get_name().to_string());
        self.name
            .clone()
            .unwrap_or_else(|| format!("Test-{}", mode.unwrap_or_default()))
    }
}

fn say(line: &str) {
    let out = std::io::stdout();
    let mut l = out.lock();
    // One write call per answer (writeln! would split it at the inner newlines).
    let _ = l.write_all(format!("{line}\n").as_bytes());
    let _ = l.flush();
}

struct State {
    board: Option<Board>,
    width: usize,
    height: usize,
    rule: Rule,
    my_moves: usize,
    rng: u64,
    /// `START`s received (`--mode flaky` refuses every other one).
    starts: u64,
    /// Where received lines go (`--log`).
    log: Option<std::fs::File>,
}

impl State {
    fn next_rand(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn fresh_board(&mut self) {
        self.board = Board::new(self.width, self.height, self.rule).ok();
    }
}

fn sane_move(st: &mut State) -> Option<Pos> {
    let b = st.board.as_ref()?;
    let me = b.side_to_move();
    let empties: Vec<Pos> = b.empty_points().collect();
    if let Some(&p) = empties.iter().find(|&&p| b.is_win_move(p, me)) {
        return Some(p);
    }
    let ok = |p: Pos| !(me == Color::Black && b.is_forbidden(p));
    if let Some(&p) = empties
        .iter()
        .find(|&&p| b.is_win_move(p, me.opp()) && ok(p))
    {
        return Some(p);
    }
    let near: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| b.is_candidate(p, 1) && ok(p))
        .collect();
    if near.is_empty() {
        let centre = Pos::new(b.width() / 2, b.height() / 2);
        if b.is_empty(centre) && ok(centre) {
            return Some(centre);
        }
        return empties.into_iter().find(|&p| ok(p));
    }
    let i = (st.next_rand() % near.len() as u64) as usize;
    Some(near[i])
}

fn think(st: &mut State, o: &Opts) {
    st.my_moves += 1;
    let trigger = st.my_moves == o.after;
    if o.mode == Mode::Messages {
        say("MESSAGE thinking about it");
        say("DEBUG some debug text");
        say("");
        say("ERROR Unknown command: TIME_LEFT");
        say("UNKNOWN something it did not understand");
    }
    if trigger {
        match o.mode {
            Mode::Crash => std::process::exit(3),
            Mode::Garbage => {
                say("hello, world!");
                return;
            }
            Mode::Offboard => {
                say("99,99");
                return;
            }
            Mode::Occupied => {
                if let Some(p) = st.board.as_ref().and_then(|b| b.last_move()) {
                    say(&p.to_string());
                    return;
                }
            }
            Mode::Late => std::thread::sleep(std::time::Duration::from_millis(o.delay_ms)),
            Mode::Play => {
                if let (Some(p), Some(b)) = (o.play, st.board.as_mut()) {
                    if b.is_empty(p) {
                        b.make_move(p);
                        say(&p.to_string());
                        return;
                    }
                }
            }
            _ => {}
        }
    }
    match sane_move(st) {
        Some(p) => {
            if let Some(b) = st.board.as_mut() {
                b.make_move(p);
            }
            if o.mode == Mode::Chatty {
                // One write, so the stray line is in the arena's pipe together with the move.
                say(&format!("{p}\na stray line after the move"));
            } else {
                say(&p.to_string());
            }
        }
        None => say("ERROR no move"),
    }
}

fn parse_xy(s: &str) -> Option<(usize, usize, Option<u32>)> {
    let v: Vec<&str> = s.trim().split(',').collect();
    let x = v.first()?.trim().parse().ok()?;
    let y = v.get(1)?.trim().parse().ok()?;
    let f = v.get(2).and_then(|f| f.trim().parse().ok());
    Some((x, y, f))
}

impl State {
    /// Appends a received line to the log, if any.
    fn log_line(&mut self, line: &str) {
        if let Some(f) = self.log.as_mut() {
            let _ = writeln!(f, "{line}");
            let _ = f.flush();
        }
    }

    /// `START n` or `RECTSTART w,h`.
    fn start(&mut self, rest: &str, o: &Opts) {
        self.starts += 1;
        if o.mode == Mode::Refuse || (o.mode == Mode::Flaky && self.starts % 2 == 1) {
            say("ERROR not today");
            return;
        }
        let (w, h) = match rest.split_once(',') {
            Some((w, h)) => (w.trim().parse().unwrap_or(0), h.trim().parse().unwrap_or(0)),
            None => {
                let n = rest.trim().parse().unwrap_or(0);
                (n, n)
            }
        };
        self.width = w;
        self.height = h;
        self.my_moves = 0;
        self.fresh_board();
        if self.board.is_some() {
            say("OK");
        } else {
            say("ERROR bad size");
        }
    }

    /// `INFO key value`: only `rule` matters (it renews an empty board).
    fn info(&mut self, rest: &str) {
        let (k, v) = rest.split_once(' ').unwrap_or((rest, ""));
        if !k.eq_ignore_ascii_case("rule") {
            return;
        }
        if let Some(r) = v.trim().parse().ok().and_then(Rule::from_info) {
            self.rule = r;
            if self.board.as_ref().is_some_and(|b| b.stone_count() == 0) {
                self.fresh_board();
            }
        }
    }

    /// `TURN x,y`: the opponent's stone, if it lands on an empty point.
    fn opponent_move(&mut self, rest: &str) {
        if let (Some((x, y, _)), Some(b)) = (parse_xy(rest), self.board.as_mut()) {
            if let Some(p) = b.pos(x as i32, y as i32) {
                if b.is_empty(p) {
                    let c = b.side_to_move();
                    b.make_move_as(p, c);
                }
            }
        }
    }

    /// `BOARD`: reads the lines up to `DONE` and sets the position they give.
    fn board_block(&mut self, lines: &mut impl Iterator<Item = std::io::Result<String>>) {
        self.fresh_board();
        let mut stones = Vec::new();
        for l in lines.by_ref() {
            let Ok(l) = l else { break };
            self.log_line(&l);
            if l.trim().eq_ignore_ascii_case("DONE") {
                break;
            }
            if let Some((x, y, Some(f))) = parse_xy(&l) {
                stones.push((x, y, f));
            }
        }
        // Field 1 is the side to move; Black moves when the counts are equal.
        let me = if stones.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let Some(b) = self.board.as_mut() else {
            return;
        };
        for (x, y, f) in stones {
            if let Some(p) = b.pos(x as i32, y as i32) {
                if b.is_empty(p) {
                    b.make_move_as(p, if f == 1 { me } else { me.opp() });
                }
            }
        }
        b.set_side_to_move(me);
    }
}

fn main() {
    let o = Opts::parse();
    let name = o.name();
    let mut st = State {
        board: None,
        width: 15,
        height: 15,
        rule: Rule::FREESTYLE,
        my_moves: 0,
        rng: o.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        starts: 0,
        log: o.log.as_ref().and_then(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .ok()
        }),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(Ok(line)) = lines.next() {
        st.log_line(&line);
        let t = line.trim();
        let (cmd, rest) = t.split_once(' ').unwrap_or((t, ""));
        match cmd.to_ascii_uppercase().as_str() {
            "START" | "RECTSTART" => st.start(rest, &o),
            "INFO" => st.info(rest),
            "BEGIN" => think(&mut st, &o),
            "TURN" => {
                st.opponent_move(rest);
                think(&mut st, &o);
            }
            "BOARD" => {
                st.board_block(&mut lines);
                think(&mut st, &o);
            }
            "ABOUT" => say(&format!(
                "name=\"{}\", version=\"1\", author=\"pentad tests\"",
                name
            )),
            "END" => return,
            "" => {}
            _ => say(&format!("UNKNOWN {t}")),
        }
    }
}
