//! Protocol output text: ABOUT, MESSAGE search lines, FORBID lists, Swap2 replies, node
//! counts.

use crate::core::Pos;
use crate::engine::swap2::Swap2Reply;
use crate::search::{format_score, SearchReport};

/// The one-line ABOUT reply; the version names the instruction-set level of the build
/// (`0.1.0 x86-64-v3`), so a person can tell the release builds apart.
pub fn about_line() -> String {
    format!(
        "name=\"Pentad\", version=\"{} {}\", author=\"Pentad team\", country=\"Unknown\", www=\"\"",
        env!("CARGO_PKG_VERSION"),
        crate::core::cpu::build_level()
    )
}

/// Node counts as Rapfi prints them: plain below 10 000, then `35K`, `1.2M`, `35M`, `1.2G`…
pub fn format_nodes(n: u64) -> String {
    const K: u64 = 1_000;
    const M: u64 = 1_000_000;
    const G: u64 = 1_000_000_000;
    if n < 10 * K {
        n.to_string()
    } else if n < M {
        format!("{}K", n / K)
    } else if n < 10 * M {
        format!("{}.{}M", n / M, (n % M) / (100 * K))
    } else if n < G {
        format!("{}M", n / M)
    } else if n < 10 * G {
        format!("{}.{}G", n / G, (n % G) / (100 * M))
    } else {
        format!("{}G", n / G)
    }
}

/// One search report as `MESSAGE depth D-SD ev E n N n/ms S tm T pv h8 i9 …`. With
/// `multipv` the line index goes first: `MESSAGE (2) depth …`.
pub fn report_line(r: &SearchReport, multipv: bool) -> String {
    let speed = r.nodes / r.elapsed_ms.max(1);
    let pv: Vec<String> = r.pv.iter().map(|p| p.to_human()).collect();
    let prefix = if multipv {
        format!("({}) ", r.multipv)
    } else {
        String::new()
    };
    format!(
        "MESSAGE {prefix}depth {}-{} ev {} n {} n/ms {} tm {} pv {}",
        r.depth,
        r.seldepth,
        format_score(r.score),
        format_nodes(r.nodes),
        speed,
        r.elapsed_ms,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// `FORBID xxyyxxyy….` (two digits each of x and y, row-major as given), `FORBID .` if none.
pub fn forbid_line(points: &[Pos]) -> String {
    let mut s = String::from("FORBID ");
    for p in points {
        s.push_str(&format!("{:02}{:02}", p.x(), p.y()));
    }
    s.push('.');
    s
}

/// The SWAP2BOARD reply: `SWAP`, or the stones to place as `x,y x,y …`.
pub fn swap2_line(reply: &Swap2Reply) -> String {
    match reply {
        Swap2Reply::Swap => "SWAP".into(),
        Swap2Reply::Moves(ms) => {
            let v: Vec<String> = ms.iter().map(|p| p.to_string()).collect();
            v.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_nodes_and_reports() {
        assert_eq!(format_nodes(9_999), "9999");
        assert_eq!(format_nodes(35_400), "35K");
        assert_eq!(format_nodes(1_234_567), "1.2M");
        assert_eq!(format_nodes(35_000_000), "35M");
        assert_eq!(format_nodes(1_500_000_000), "1.5G");
        let r = SearchReport {
            depth: 12,
            seldepth: 19,
            score: 35,
            nodes: 1_200_000,
            elapsed_ms: 1400,
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
            multipv: 1,
        };
        assert_eq!(
            report_line(&r, false),
            "MESSAGE depth 12-19 ev 35 n 1.2M n/ms 857 tm 1400 pv h8 i9"
        );
        assert!(report_line(&r, true).starts_with("MESSAGE (1) depth 12-19"));
        assert_eq!(forbid_line(&[]), "FORBID .");
        assert_eq!(
            forbid_line(&[Pos::new(6, 8), Pos::new(7, 9)]),
            "FORBID 06080709."
        );
        assert!(about_line().starts_with("name=\"Pentad\", version=\""));
        assert_eq!(swap2_line(&Swap2Reply::Swap), "SWAP");
        let two = Swap2Reply::Moves(vec![Pos::new(7, 8), Pos::new(10, 0)]);
        assert_eq!(swap2_line(&two), "7,8 10,0");
    }
}
