//! Deterministic benchmark: fixed positions of each rule searched to a fixed depth on one
//! thread with a fixed hash; the node count is identical on every run and machine.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::board::Board;
use crate::core::{Pos, Rule};

use super::limits::SearchLimits;
use super::score::format_score;
use super::Searcher;

/// Nominal depth of every bench search.
pub const BENCH_DEPTH: u32 = 8;
/// Hash size of the bench searcher.
pub const BENCH_HASH_BYTES: usize = 16 << 20;

/// (rule, board size, moves in human notation).
const POSITIONS: &[(Rule, usize, &str)] = &[
    (Rule::FREESTYLE, 15, "h8"),
    (Rule::FREESTYLE, 15, "h8 i9 i7 g9 j8"),
    (Rule::FREESTYLE, 15, "h8 h9 i8 g8 j9 i10 g7 f6 j7"),
    (
        Rule::FREESTYLE,
        15,
        "h8 i8 h9 h10 g10 f11 i9 j9 g9 f9 g8 g7",
    ),
    (Rule::FREESTYLE, 20, "j10 k11 k10 l10 i11"),
    (Rule::FREESTYLE, 20, "j10 j11 k10 i10 k12 k11 l11 i9 h8"),
    (Rule::STANDARD, 15, "h8 i9 j8 i8 i7"),
    (Rule::STANDARD, 15, "h8 g9 h10 h9 i9 g8 g10 f10"),
    (Rule::RENJU, 15, "h8 i9 j10"),
    (Rule::RENJU, 15, "h8 h9 j8 i8 i7 g9"),
    (Rule::RENJU, 15, "h8 i7 j6 i8 i9 h9 g10 j8"),
    (Rule::RENJU, 15, "h8 g7 i9 j10 g9 f9 h10 h9 i10 i11"),
];

/// Plays `moves` (human notation, space separated) on a new board.
pub fn board_from_moves(rule: Rule, size: usize, moves: &str) -> anyhow::Result<Board> {
    let mut b = Board::new(size, size, rule).map_err(|e| anyhow::anyhow!("{e}"))?;
    for m in moves.split_whitespace() {
        let p = Pos::from_human(m).ok_or_else(|| anyhow::anyhow!("bad move {m}"))?;
        if !b.contains(p.x() as i32, p.y() as i32) || !b.is_empty(p) {
            anyhow::bail!("illegal move {m}");
        }
        b.make_move(p);
    }
    Ok(b)
}

/// Runs the bench, printing one line per position, the board's move/undo speed and finally
/// `<nodes> nodes <nps> nps`. The speed counts search time only: the table clear and the
/// board setup between positions are left out (as in `time` per position).
pub fn run(out: &mut dyn Write) -> anyhow::Result<()> {
    let mut searcher = Searcher::new(BENCH_HASH_BYTES);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        max_depth: Some(BENCH_DEPTH),
        threads: 1,
        ..Default::default()
    };
    let mut total_nodes = 0u64;
    let mut search_time = std::time::Duration::ZERO;
    for (i, &(rule, size, moves)) in POSITIONS.iter().enumerate() {
        let board = board_from_moves(rule, size, moves)?;
        searcher.clear_hash();
        searcher.wait_hash_ready();
        let t = Instant::now();
        let r = searcher.search(&board, &limits, &stop, &mut |_| {});
        let elapsed = t.elapsed();
        search_time += elapsed;
        let ms = elapsed.as_millis();
        total_nodes += r.nodes;
        writeln!(
            out,
            "position {:2} {:9} {}x{}: best {} score {} depth {} nodes {} time {} ms",
            i + 1,
            rule.name(),
            size,
            size,
            r.best.to_human(),
            format_score(r.score),
            r.depth,
            r.nodes,
            ms
        )?;
    }
    let secs = search_time.as_secs_f64().max(1e-9);
    let (pairs, s) = crate::board::bench_move_undo();
    writeln!(
        out,
        "{} move/undo pairs/s",
        (pairs as f64 / s.max(1e-9)) as u64
    )?;
    writeln!(
        out,
        "{} nodes {} nps",
        total_nodes,
        (total_nodes as f64 / secs) as u64
    )?;
    Ok(())
}
