//! `pentad-tools analyse`: searches one position, and the reply to each of some candidate
//! moves, with a node budget. For a line of `tests/data/tactics.txt`, pass its `rule`,
//! `moves` and `expect` fields to see how the search treats each expected move.

use std::sync::atomic::AtomicBool;

use anyhow::{anyhow, bail, Result};
use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::search::{format_score, SearchLimits, SearchResult, Searcher};

/// Hash table of the searches.
const HASH_BYTES: usize = 64 << 20;

/// Options of `pentad-tools analyse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Rule name (`freestyle`, `standard`, `renju`, `caro`, `caro5`) or protocol number.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board size.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// The moves that lead to the position, Black first, in `h8` notation.
    #[arg(long)]
    pub moves: String,
    /// Candidate moves of the side to move: the reply to each is searched too.
    #[arg(long, default_value = "")]
    pub replies: String,
    /// Node budget of each search.
    #[arg(long, default_value_t = 2_000_000)]
    pub nodes: u64,
    #[command(flatten)]
    pub tune: crate::tune::TuneArgs,
}

/// `h8`-notation points separated by spaces.
fn points(text: &str) -> Result<Vec<Pos>> {
    text.split_whitespace()
        .map(|m| Pos::from_human(m).ok_or_else(|| anyhow!("bad point {m:?}")))
        .collect()
}

fn describe(r: &SearchResult) -> String {
    let pv: Vec<String> = r.pv.iter().map(|p| p.to_human()).collect();
    format!(
        "{} score {} depth {} nodes {} pv {}",
        r.best.to_human(),
        format_score(r.score),
        r.depth,
        r.nodes,
        pv.join(" ")
    )
}

/// Runs `pentad-tools analyse`.
pub fn run(args: &Args) -> Result<()> {
    args.tune.apply()?;
    let rule = Rule::from_name(&args.rule).ok_or_else(|| anyhow!("unknown rule {}", args.rule))?;
    let mut board = Board::new(args.size, args.size, rule).map_err(|e| anyhow!("{e}"))?;
    for p in points(&args.moves)? {
        if p.x() >= args.size || p.y() >= args.size || !board.is_empty(p) {
            bail!("{} is off the board or occupied", p.to_human());
        }
        board.make_move(p);
    }
    let mut searcher = Searcher::new(HASH_BYTES);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        max_nodes: Some(args.nodes),
        ..Default::default()
    };
    let r = searcher.search(&board, &limits, &stop, &mut |_| {});
    println!("root: best {}", describe(&r));
    for m in points(&args.replies)? {
        if !board.is_legal(m) {
            println!("after {}: not a legal move", m.to_human());
            continue;
        }
        let mut b = board.clone();
        b.make_move(m);
        searcher.clear_hash();
        let r = searcher.search(&b, &limits, &stop, &mut |_| {});
        println!("after {}: reply {}", m.to_human(), describe(&r));
    }
    Ok(())
}
