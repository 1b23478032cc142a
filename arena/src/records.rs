//! Game records: one JSON object per game (`--results`, JSON lines) and SGF (`--sgf`). This
//! module owns the record format: it writes it, and [`read_results`] reads it back for the
//! tools.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::game::{GameResult, Reason};
use pentad::core::{Pos, Rule};

/// One finished game, as written to the `--results` JSON-lines file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based game number in schedule order.
    pub game: usize,
    /// Engine names.
    pub black: String,
    pub white: String,
    /// Rule name (`freestyle`, `renju`, ...) and board size.
    pub rule: String,
    pub width: usize,
    pub height: usize,
    /// The opening in pos format (`h8h7f6`), empty for an empty board.
    pub opening: String,
    /// All moves in `h8` notation, opening stones included.
    pub moves: Vec<String>,
    /// How many of `moves` are opening stones.
    pub opening_plies: usize,
    /// `1-0` (Black won), `0-1` (White won) or `1/2-1/2`.
    pub result: String,
    /// `five`, `foul`, `illegal`, `time`, `crash` or `draw`.
    pub reason: Reason,
    /// Human-readable explanation (`Black wins by five`, `White wins: illegal move by Black (occupied h8)`).
    pub detail: String,
    /// Number of moves (`moves.len()`).
    pub plies: usize,
    /// Thinking time of each engine move (`moves[opening_plies..]`), ms.
    pub times_ms: Vec<u64>,
}

impl GameRecord {
    /// Builds the record of a finished game.
    pub fn new(
        game: usize,
        black: &str,
        white: &str,
        rule: Rule,
        width: usize,
        height: usize,
        result: &GameResult,
    ) -> GameRecord {
        let opening: String = result.moves[..result.opening_plies]
            .iter()
            .map(|p| p.to_human())
            .collect();
        GameRecord {
            game,
            black: black.to_string(),
            white: white.to_string(),
            rule: rule.name().to_string(),
            width,
            height,
            opening,
            moves: result.moves.iter().map(|p| p.to_human()).collect(),
            opening_plies: result.opening_plies,
            result: result.result_str().to_string(),
            reason: result.reason,
            detail: result.detail.clone(),
            plies: result.moves.len(),
            times_ms: result.times_ms.clone(),
        }
    }

    /// One JSON line (no trailing newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string())
    }

    /// Parses one line written by [`GameRecord::to_json_line`].
    pub fn from_json_line(line: &str) -> serde_json::Result<GameRecord> {
        serde_json::from_str(line)
    }

    /// The result for Black: 1 (won), 0.5 (drawn), 0 (lost); `None` for an unknown result.
    pub fn black_score(&self) -> Option<f64> {
        match self.result.as_str() {
            "1-0" => Some(1.0),
            "1/2-1/2" => Some(0.5),
            "0-1" => Some(0.0),
            _ => None,
        }
    }

    /// The moves as points, `None` when one is not in `h8` notation.
    pub fn points(&self) -> Option<Vec<Pos>> {
        self.moves.iter().map(|m| Pos::from_human(m)).collect()
    }

    /// The game as one SGF game tree (`GM[4]`, Gomoku/Renju), ending with a newline.
    pub fn to_sgf(&self) -> String {
        let mut s = String::from("(;FF[4]GM[4]CA[UTF-8]");
        s.push_str(&format!("AP[pentad-arena:{}]", env!("CARGO_PKG_VERSION")));
        if self.width == self.height {
            s.push_str(&format!("SZ[{}]", self.width));
        } else {
            s.push_str(&format!("SZ[{}:{}]", self.width, self.height));
        }
        s.push_str(&format!("RU[{}]", sgf_escape(&self.rule)));
        if let Some(d) = today() {
            s.push_str(&format!("DT[{d}]"));
        }
        s.push_str(&format!("GN[game {}]", self.game));
        s.push_str(&format!(
            "PB[{}]PW[{}]",
            sgf_escape(&self.black),
            sgf_escape(&self.white)
        ));
        s.push_str(&format!("RE[{}]", sgf_result(&self.result, self.reason)));
        s.push_str(&format!("C[{}]", sgf_escape(&self.detail)));
        for (i, m) in self.moves.iter().enumerate() {
            let color = if i % 2 == 0 { 'B' } else { 'W' };
            let coord = Pos::from_human(m).map(sgf_point).unwrap_or_default();
            if i % 8 == 0 {
                s.push('\n');
            }
            s.push_str(&format!(";{color}[{coord}]"));
            if i + 1 == self.opening_plies {
                s.push_str("C[end of opening]");
            }
        }
        s.push_str(")\n");
        s
    }
}

/// The games of a `--results` file (JSON lines; blank lines skipped). The error names the
/// file and the line that does not parse.
pub fn read_results(path: impl AsRef<Path>) -> Result<Vec<GameRecord>> {
    let path = path.as_ref();
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            GameRecord::from_json_line(l)
                .with_context(|| format!("{}:{}: not a game record", path.display(), i + 1))
        })
        .collect()
}

/// SGF `RE` value: `B+`/`W+` for a five, `+T` for time, `+F` (forfeit) for a foul, an illegal
/// move or a crash, `0` for a draw.
pub fn sgf_result(result: &str, reason: Reason) -> String {
    let side = match result {
        "1-0" => "B",
        "0-1" => "W",
        _ => return "0".to_string(),
    };
    let suffix = match reason {
        Reason::Five | Reason::Draw => "",
        Reason::Time => "T",
        Reason::Foul | Reason::Illegal | Reason::Crash => "F",
    };
    format!("{side}+{suffix}")
}

/// SGF letter for a coordinate: `a`..`z`, then `A`..`Z`.
fn sgf_letter(v: usize) -> char {
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

/// SGF point (column letter, then row letter, both from the top-left).
pub fn sgf_point(p: Pos) -> String {
    format!("{}{}", sgf_letter(p.x()), sgf_letter(p.y()))
}

/// Inverse of [`sgf_point`].
pub fn sgf_parse_point(s: &str) -> Option<Pos> {
    let v = |c: u8| -> Option<usize> {
        match c {
            b'a'..=b'z' => Some((c - b'a') as usize),
            b'A'..=b'F' => Some((c - b'A') as usize + 26),
            _ => None,
        }
    };
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    Some(Pos::new(v(b[0])?, v(b[1])?))
}

/// Escapes `]` and `\` in an SGF property value.
pub fn sgf_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> Option<String> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs() as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pentad::core::Color;

    fn sample() -> GameRecord {
        let r = GameResult {
            winner: Some(Color::Black),
            reason: Reason::Five,
            detail: "Black wins by five".into(),
            moves: vec![Pos::new(7, 7), Pos::new(7, 6), Pos::new(8, 7)],
            opening_plies: 2,
            times_ms: vec![12],
        };
        GameRecord::new(3, "A]x", "B", Rule::RENJU, 15, 15, &r)
    }

    #[test]
    fn json_round_trip() {
        let rec = sample();
        let line = rec.to_json_line();
        assert!(line.contains(r#""result":"1-0""#), "{line}");
        assert!(line.contains(r#""reason":"five""#), "{line}");
        assert!(line.contains(r#""moves":["h8","h7","i8"]"#), "{line}");
        assert!(line.contains(r#""opening":"h8h7""#), "{line}");
        let back = GameRecord::from_json_line(&line).unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.black_score(), Some(1.0));
        assert_eq!(back.points().unwrap()[2], Pos::new(8, 7));
    }

    #[test]
    fn results_files_are_read_back_and_bad_lines_named() {
        let dir = tempfile::Builder::new()
            .prefix("pentad-records-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("results.jsonl");
        let line = sample().to_json_line();
        std::fs::write(&path, format!("{line}\n\n{line}\n")).unwrap();
        assert_eq!(read_results(&path).unwrap(), vec![sample(), sample()]);
        std::fs::write(&path, format!("{line}\n{{\"game\": 1}}\n")).unwrap();
        let err = format!("{:#}", read_results(&path).unwrap_err());
        assert!(err.contains("results.jsonl:2"), "{err}");
    }

    #[test]
    fn sgf_contents() {
        let s = sample().to_sgf();
        assert!(s.starts_with("(;FF[4]GM[4]"), "{s}");
        assert!(s.contains("SZ[15]") && s.contains("RE[B+]") && s.contains("PB[A\\]x]"));
        assert!(s.contains(";B[hh];W[hg]C[end of opening];B[ih])"), "{s}");
        assert_eq!(sgf_parse_point("hg"), Some(Pos::new(7, 6)));
        assert_eq!(
            sgf_parse_point(&sgf_point(Pos::new(31, 27))),
            Some(Pos::new(31, 27))
        );
        assert_eq!(sgf_result("0-1", Reason::Time), "W+T");
        assert_eq!(sgf_result("1/2-1/2", Reason::Draw), "0");
        assert_eq!(sgf_result("1-0", Reason::Illegal), "B+F");
        let d = today().unwrap();
        assert_eq!(d.len(), 10);
        assert!(d.as_str() > "2024-01-01");
    }
}
