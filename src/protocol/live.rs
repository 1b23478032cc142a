//! Live analysis output for GUIs (Yixin-Board): `MESSAGE REALTIME …` marks and `INFO PV …`
//! blocks, and the win rate shown for a score. Printed only when the GUI asked for them with
//! `INFO show_detail` (bit [`SHOW_REALTIME`] and bit [`SHOW_PV_INFO`]).

use crate::core::Pos;
use crate::search::{format_score, RootEvent, SearchReport, MATE_BOUND};

/// `INFO show_detail` bit: `MESSAGE REALTIME …` lines while thinking.
pub const SHOW_REALTIME: i64 = 1;
/// `INFO show_detail` bit: an `INFO PV …` block per reported line.
pub const SHOW_PV_INFO: i64 = 2;
/// Scale of the logistic curve from score to win rate: a score of this many points wins
/// about 73 % (1 / (1 + e^-1)).
pub const WIN_RATE_SCALE: f64 = 200.0;

/// The chance to win for the side a score belongs to: 1 or 0 for proven results, a
/// logistic curve of the score otherwise.
pub fn win_rate(score: i32) -> f64 {
    if score >= MATE_BOUND {
        1.0
    } else if score <= -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-f64::from(score) / WIN_RATE_SCALE).exp())
    }
}

/// `MESSAGE REALTIME <what> x,y`.
fn realtime(what: &str, p: Pos) -> String {
    format!("MESSAGE REALTIME {what} {p}")
}

/// The REALTIME line for a root event: `POS` (being searched), `DONE` (searched), `BEST`
/// (new best move), `LOSE` (proven lost).
pub fn root_event_lines(ev: RootEvent) -> Vec<String> {
    match ev {
        RootEvent::Searching { mv, .. } => vec![realtime("POS", mv)],
        RootEvent::Searched {
            mv, new_best, lost, ..
        } => {
            let mut v = vec![realtime("DONE", mv)];
            if lost {
                v.push(realtime("LOSE", mv));
            } else if new_best {
                v.push(realtime("BEST", mv));
            }
            v
        }
    }
}

/// After a completed iteration: clear the "searched" marks, mark the best move, and give
/// the best line and its value (`REFRESH`, `BEST`, `PV`, `VAL`).
pub fn iteration_lines(r: &SearchReport) -> Vec<String> {
    let Some(&best) = r.pv.first() else {
        return Vec::new();
    };
    let pv: Vec<String> = r.pv.iter().map(|p| p.to_human().to_uppercase()).collect();
    vec![
        "MESSAGE REALTIME REFRESH".into(),
        realtime("BEST", best),
        format!("MESSAGE REALTIME PV {}", pv.join(" ")),
        format!("MESSAGE REALTIME VAL {}", r.score),
    ]
}

/// The keys of an `INFO PV` block's lines, in order, between its `INFO PV <n>` and
/// `INFO PV DONE` lines.
pub const PV_INFO_KEYS: [&str; 10] = [
    "NUMPV",
    "DEPTH",
    "SELDEPTH",
    "NODES",
    "TOTALNODES",
    "TOTALTIME",
    "SPEED",
    "EVAL",
    "WINRATE",
    "BESTLINE",
];

/// The `INFO PV` block of one line (`PV` is 0-based, `NUMPV` the lines of the set).
pub fn pv_info_lines(r: &SearchReport, numpv: usize) -> Vec<String> {
    let speed = r.nodes * 1000 / r.elapsed_ms.max(1);
    let line: Vec<String> = r.pv.iter().map(|p| p.to_string()).collect();
    let values: [String; PV_INFO_KEYS.len()] = [
        numpv.to_string(),
        r.depth.to_string(),
        r.seldepth.to_string(),
        r.nodes.to_string(),
        r.nodes.to_string(),
        r.elapsed_ms.to_string(),
        speed.to_string(),
        format_score(r.score),
        format!("{:.4}", win_rate(r.score)),
        line.join(" "),
    ];
    let mut out = vec![format!("INFO PV {}", r.multipv.saturating_sub(1))];
    out.extend(
        PV_INFO_KEYS
            .iter()
            .zip(values)
            .map(|(key, value)| format!("INFO {key} {value}")),
    );
    out.push("INFO PV DONE".into());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mate_in;

    #[test]
    fn live_lines() {
        assert_eq!(win_rate(0), 0.5);
        assert!(win_rate(200) > 0.73 && win_rate(200) < 0.74);
        assert_eq!(win_rate(mate_in(3)), 1.0);
        assert_eq!(win_rate(-mate_in(3)), 0.0);
        let r = SearchReport {
            depth: 6,
            seldepth: 9,
            score: mate_in(5),
            nodes: 5000,
            elapsed_ms: 100,
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
            multipv: 2,
        };
        let b = pv_info_lines(&r, 3);
        assert_eq!(b[0], "INFO PV 1");
        assert_eq!(b[7], "INFO SPEED 50000");
        assert_eq!(b[8], "INFO EVAL +M5");
        assert_eq!(b[9], "INFO WINRATE 1.0000");
        assert_eq!(b[10], "INFO BESTLINE 7,7 8,8");
        assert_eq!(b[11], "INFO PV DONE");
        let it = iteration_lines(&r);
        assert_eq!(it[1], "MESSAGE REALTIME BEST 7,7");
        assert_eq!(it[2], "MESSAGE REALTIME PV H8 I9");
        let ev = RootEvent::Searched {
            mv: Pos::new(3, 4),
            depth: 5,
            new_best: false,
            lost: true,
        };
        assert_eq!(
            root_event_lines(ev),
            vec!["MESSAGE REALTIME DONE 3,4", "MESSAGE REALTIME LOSE 3,4"]
        );
    }
}
