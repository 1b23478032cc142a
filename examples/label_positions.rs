//! Adds search scores to recorded games (temporary home; moves to pentad-tools): every
//! position after the opening is searched to a node limit and its score (side to move,
//! mates clamped) stored in a `scores` array beside `moves` (null where not searched).
//!
//! Usage: label_positions NODES IN.jsonl OUT.jsonl

use std::sync::atomic::AtomicBool;

use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::search::{SearchLimits, Searcher, MATE_BOUND};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args[0].parse().unwrap();
    let text = std::fs::read_to_string(&args[1]).expect("read");
    let mut out = String::new();
    let mut searcher = Searcher::new(16 << 20);
    let stop = AtomicBool::new(false);
    for (g, line) in text.lines().enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(line).expect("json");
        let rule = match v["rule"].as_str().unwrap_or("") {
            "renju" => Rule::RENJU,
            "freestyle" => Rule::FREESTYLE,
            "standard" => Rule::STANDARD,
            "caro" => Rule::CARO,
            _ => continue,
        };
        let (w, h) = (v["width"].as_u64().unwrap() as usize, v["height"].as_u64().unwrap() as usize);
        let opening = v["opening_plies"].as_u64().unwrap_or(0) as usize;
        let moves: Vec<Pos> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| Pos::from_human(m.as_str()?))
            .collect();
        let mut b = Board::new(w, h, rule).unwrap();
        let mut scores = Vec::new();
        for (k, &m) in moves.iter().enumerate() {
            if k >= opening {
                let limits = SearchLimits {
                    max_nodes: Some(nodes),
                    ..Default::default()
                };
                let r = searcher.search(&b, &limits, &stop, &mut |_| {});
                let s = r.score.clamp(-MATE_BOUND, MATE_BOUND);
                scores.push(serde_json::json!(s));
            } else {
                scores.push(serde_json::Value::Null);
            }
            if !b.is_empty(m) {
                break;
            }
            b.make_move(m);
        }
        v["scores"] = serde_json::Value::Array(scores);
        out += &v.to_string();
        out.push('\n');
        if g % 50 == 0 {
            eprintln!("{g} games");
        }
    }
    std::fs::write(&args[2], out).expect("write");
}
