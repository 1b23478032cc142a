//! Reading the engine's search reports (`MESSAGE depth ... ev ... n ... pv ...`, Yixin-style
//! `MESSAGE REALTIME ...` and `INFO PV ...` lines) into what the analysis panel shows.
//! Tolerant: unknown words are skipped, and a line with nothing useful gives `None`.

use pentad::core::Pos;
use serde::Serialize;

/// What one report line said; absent fields were not in the line.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    pub depth: Option<String>,
    /// Evaluation from the side to move, in the engine's units, or `+M9` / `-M9`.
    pub eval: Option<String>,
    /// Estimated win rate of the side to move, percent.
    pub winrate: Option<f64>,
    pub nodes: Option<String>,
    /// The best move first, `[x, y]` pairs.
    pub pv: Vec<[usize; 2]>,
}

/// Logistic scale turning an evaluation into a win rate (Pentad's eval units: a few hundred
/// is a clear advantage).
const WINRATE_SCALE: f64 = 200.0;

/// Parses one engine line; `None` unless it carries a depth, an evaluation or a best move.
pub fn parse(line: &str, size: usize) -> Option<Report> {
    let mut words = line.split_whitespace().peekable();
    let first = words.next()?.to_ascii_uppercase();
    if first != "MESSAGE" && first != "INFO" {
        return None;
    }
    let mut r = Report::default();
    let point = |w: &str| parse_point(w, size);
    while let Some(w) = words.next() {
        match w.to_ascii_lowercase().as_str() {
            "depth" => r.depth = words.next().map(str::to_string),
            "ev" | "eval" | "score" => r.eval = words.next().map(str::to_string),
            "winrate" | "wr" => {
                r.winrate = words
                    .next()
                    .and_then(|v| v.trim_end_matches('%').parse::<f64>().ok())
                    .map(|v| if v <= 1.0 { v * 100.0 } else { v });
            }
            "n" | "nodes" => r.nodes = words.next().map(str::to_string),
            "pv" => {
                r.pv.clear();
                while let Some(p) = words.peek().and_then(|w| point(w)) {
                    r.pv.push(p);
                    words.next();
                }
            }
            "best" | "bestmove" => {
                if let Some(p) = words.next().and_then(point) {
                    if r.pv.first() != Some(&p) {
                        r.pv.insert(0, p);
                    }
                }
            }
            _ => {}
        }
    }
    if r.winrate.is_none() {
        r.winrate = r.eval.as_deref().and_then(winrate);
    }
    (r.depth.is_some() || r.eval.is_some() || !r.pv.is_empty()).then_some(r)
}

/// A point in human (`h8`) or protocol (`7,7`) notation, on a `size` board.
fn parse_point(w: &str, size: usize) -> Option<[usize; 2]> {
    let (x, y) = if let Some((x, y)) = w.split_once(',') {
        (x.trim().parse().ok()?, y.trim().parse().ok()?)
    } else {
        let p = Pos::from_human(w)?;
        (p.x(), p.y())
    };
    (x < size && y < size).then_some([x, y])
}

/// The win rate (percent) an evaluation stands for: mates are 100 / 0.
fn winrate(eval: &str) -> Option<f64> {
    if eval.starts_with("+M") || eval.starts_with('M') {
        return Some(100.0);
    }
    if eval.starts_with("-M") {
        return Some(0.0);
    }
    let v: f64 = eval.parse().ok()?;
    Some(100.0 / (1.0 + (-v / WINRATE_SCALE).exp()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pentad_reports() {
        let r = parse(
            "MESSAGE depth 12-19 ev 35 n 1.2M n/ms 857 tm 1400 pv h8 i9",
            15,
        )
        .unwrap();
        assert_eq!(r.depth.as_deref(), Some("12-19"));
        assert_eq!(r.eval.as_deref(), Some("35"));
        assert_eq!(r.nodes.as_deref(), Some("1.2M"));
        assert_eq!(r.pv, vec![[7, 7], [8, 8]]);
        assert!(r.winrate.unwrap() > 50.0 && r.winrate.unwrap() < 60.0);
        let m = parse("MESSAGE (2) depth 5-9 ev -M7 n 300 pv a1", 15).unwrap();
        assert_eq!(m.winrate, Some(0.0));
    }

    #[test]
    fn reads_realtime_lines_and_skips_noise() {
        let r = parse("MESSAGE REALTIME BEST 7,7", 15).unwrap();
        assert_eq!(r.pv, vec![[7, 7]]);
        let r = parse("INFO PV h8 i9 winrate 0.62", 15).unwrap();
        assert_eq!(r.pv, vec![[7, 7], [8, 8]]);
        assert_eq!(r.winrate, Some(62.0));
        assert!(parse("MESSAGE hash table cleared", 15).is_none());
        assert!(parse("7,7", 15).is_none());
        // Off-board points end the PV.
        assert_eq!(
            parse("MESSAGE depth 3 pv h8 z99", 15).unwrap().pv,
            vec![[7, 7]]
        );
    }
}
