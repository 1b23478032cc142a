//! pbrain-pentad: the engine executable (Gomocup protocol on stdin/stdout; `bench` subcommand).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::search::pick_simple_move;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(|s| s.as_str()) {
        None => {
            let stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
            let stdout = std::io::stdout();
            pentad::protocol::run(stdin, stdout.lock());
            let _ = std::io::stdout().flush();
            // Exit at once, also while a search thread is still running.
            std::process::exit(0);
        }
        Some("bench") => {
            let mut out = std::io::stdout();
            match bench_fallback(&mut out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("bench failed: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("--version" | "-V") => {
            println!("pbrain-pentad {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!(
                "usage: pbrain-pentad          (Gomocup protocol on stdin/stdout)\n       \
                 pbrain-pentad bench    (deterministic speed test)\n\
                 unknown argument: {other}"
            );
            ExitCode::from(2)
        }
    }
}

/// Stand-in for `pentad::search::bench::run` until the search module provides it: times
/// `pick_simple_move` over fixed positions of each rule and prints `<N> nodes <NPS> nps`
/// (a "node" here is one move choice).
fn bench_fallback(out: &mut dyn Write) -> anyhow::Result<()> {
    let moves: [(usize, usize); 8] = [
        (7, 7),
        (8, 8),
        (8, 6),
        (6, 8),
        (9, 7),
        (7, 9),
        (6, 6),
        (9, 9),
    ];
    let rules = [Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO];
    let mut positions = Vec::new();
    for rule in rules {
        let mut b = Board::new(15, 15, rule)?;
        for &(x, y) in &moves {
            b.make_move(Pos::new(x, y));
            positions.push(b.clone());
        }
    }
    let start = Instant::now();
    let mut nodes = 0u64;
    for _ in 0..50 {
        for b in &positions {
            std::hint::black_box(pick_simple_move(b));
            nodes += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    writeln!(out, "{} nodes {} nps", nodes, (nodes as f64 / secs) as u64)?;
    out.flush()?;
    Ok(())
}
