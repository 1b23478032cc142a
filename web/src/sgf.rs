//! SGF for gomoku (`GM[4]`): reading a game's main line (size, rule, players, result, moves)
//! from an upload, and writing the game being played for download. Points use the arena's
//! coordinates ([`pentad_arena::records::sgf_point`]).

use pentad::core::{Pos, Rule};
use pentad_arena::records::{sgf_escape, sgf_parse_point, sgf_point};

/// What a game record file says about one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfGame {
    pub size: usize,
    /// `RU`, as written (a rule name, or empty).
    pub rule: String,
    pub black: String,
    pub white: String,
    pub result: String,
    pub comment: String,
    /// Main-line stones in play order.
    pub moves: Vec<Pos>,
}

/// Default board size when `SZ` is missing.
const DEFAULT_SIZE: usize = 15;

/// Reads every game tree in `text` (an arena `--sgf` file holds one per game).
pub fn parse_all(text: &str) -> Result<Vec<SgfGame>, String> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('(') {
        let (game, used) =
            parse_tree(&rest[i..]).map_err(|e| format!("SGF game {}: {e}", games.len() + 1))?;
        games.push(game);
        rest = &rest[i + used..];
    }
    if games.is_empty() {
        return Err("not an SGF file: no game tree '(' found".into());
    }
    Ok(games)
}

/// Reads one game tree starting at `(`: its main line (the first branch at each fork).
/// Returns the game and the bytes used.
fn parse_tree(s: &str) -> Result<(SgfGame, usize), String> {
    let bytes = s.as_bytes();
    let mut g = SgfGame {
        size: DEFAULT_SIZE,
        ..SgfGame::default()
    };
    let mut props: Vec<(String, String)> = Vec::new();
    let (mut depth, mut i) = (0usize, 0usize);
    // Depth of the branch we follow; deeper siblings after the first are skipped.
    let mut skip_from: Option<usize> = None;
    let mut branch_done = vec![false];
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'(' => {
                depth += 1;
                if branch_done.len() <= depth {
                    branch_done.push(false);
                }
                if skip_from.is_none() && branch_done[depth] {
                    skip_from = Some(depth);
                }
                i += 1;
            }
            b')' => {
                if skip_from == Some(depth) {
                    skip_from = None;
                }
                branch_done[depth] = true;
                if branch_done.len() > depth + 1 {
                    branch_done.truncate(depth + 1);
                }
                depth = depth.checked_sub(1).ok_or("unbalanced ')'")?;
                i += 1;
                if depth == 0 {
                    apply(&mut g, &props)?;
                    return Ok((g, i));
                }
            }
            b'A'..=b'Z' => {
                let (prop, used) = read_property(&s[i..])?;
                i += used;
                if skip_from.is_none() {
                    props.extend(prop);
                }
            }
            b';' | b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            _ => {
                return Err(format!(
                    "unexpected character {:?} at byte {i}",
                    s[i..].chars().next().unwrap_or('?')
                ))
            }
        }
    }
    Err("unterminated game tree (missing ')')".into())
}

/// Reads one property at the start of `s`, its identifier and each of its values (at least
/// one); returns (identifier, value) for each value and the bytes used.
fn read_property(s: &str) -> Result<(Vec<(String, String)>, usize), String> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() && bytes[i].is_ascii_uppercase() {
        i += 1;
    }
    let ident = &s[..i];
    let mut values = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'[' {
            break;
        }
        let (value, used) = read_value(&s[i..])?;
        i += used;
        values.push((ident.to_string(), value));
    }
    if values.is_empty() {
        return Err(format!("property {ident} has no value"));
    }
    Ok((values, i))
}

/// Reads `[value]` (with `\]` and `\\` escapes); returns the value and the bytes used.
fn read_value(s: &str) -> Result<(String, usize), String> {
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    out.push(n);
                }
            }
            ']' => return Ok((out, i + 1)),
            _ => out.push(c),
        }
    }
    Err("unterminated property value (missing ']')".into())
}

/// Fills `g` from the properties of its main line.
fn apply(g: &mut SgfGame, props: &[(String, String)]) -> Result<(), String> {
    for (id, v) in props {
        match id.as_str() {
            "GM" if v.trim() != "4" => {
                return Err(format!("GM[{v}] is not a gomoku game (GM[4])"));
            }
            "SZ" => {
                let side = v.split(':').next().unwrap_or("").trim();
                g.size = side
                    .parse()
                    .map_err(|_| format!("bad board size SZ[{v}]"))?;
                if !(5..=32).contains(&g.size) {
                    return Err(format!("board size {} is outside 5..32", g.size));
                }
            }
            "RU" => g.rule = v.trim().to_string(),
            "PB" => g.black = v.clone(),
            "PW" => g.white = v.clone(),
            "RE" => g.result = v.clone(),
            "C" if g.comment.is_empty() => g.comment = v.clone(),
            "B" | "W" => {
                let expected = if g.moves.len().is_multiple_of(2) {
                    "B"
                } else {
                    "W"
                };
                if id != expected {
                    return Err(format!(
                        "move {} is {id}, expected {expected} (colours must alternate)",
                        g.moves.len() + 1
                    ));
                }
                let p = sgf_parse_point(v.trim())
                    .ok_or_else(|| format!("bad point {id}[{v}] at move {}", g.moves.len() + 1))?;
                g.moves.push(p);
            }
            _ => {}
        }
    }
    Ok(())
}

/// The rule an SGF `RU` names (freestyle when missing or unknown).
pub fn rule_of(ru: &str) -> Rule {
    Rule::from_name(ru).unwrap_or(Rule::FREESTYLE)
}

/// The game as SGF, for download.
pub fn write(
    size: usize,
    rule: Rule,
    black: &str,
    white: &str,
    result: &str,
    moves: &[Pos],
) -> String {
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[pentad-web:{}]SZ[{size}]RU[{}]PB[{}]PW[{}]",
        env!("CARGO_PKG_VERSION"),
        rule.name(),
        sgf_escape(black),
        sgf_escape(white)
    );
    if !result.is_empty() {
        s.push_str(&format!("RE[{}]", sgf_escape(result)));
    }
    for (i, &p) in moves.iter().enumerate() {
        if i % 8 == 0 {
            s.push('\n');
        }
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(";{c}[{}]", sgf_point(p)));
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let moves = vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(7, 8)];
        let text = write(15, Rule::RENJU, "You", "Pentad]x", "", &moves);
        let g = &parse_all(&text).unwrap()[0];
        assert_eq!((g.size, g.rule.as_str()), (15, "renju"));
        assert_eq!(g.white, "Pentad]x");
        assert_eq!(g.moves, moves);
        assert_eq!(rule_of(&g.rule), Rule::RENJU);
    }

    #[test]
    fn reads_arena_files_and_follows_the_main_line() {
        let text = "(;GM[4]SZ[9]RE[B+];B[ee];W[ef](;B[fe]C[main])(;B[aa]))\n\
                    (;GM[4]SZ[9]RE[0];B[ee])";
        let gs = parse_all(text).unwrap();
        assert_eq!(gs.len(), 2);
        assert_eq!(gs[0].moves.len(), 3);
        assert_eq!(gs[0].moves[2], Pos::new(5, 4));
        assert_eq!(gs[1].result, "0");
    }

    #[test]
    fn malformed_files_are_explained() {
        for (bad, says) in [
            ("hello", "no game tree"),
            ("(;GM[4]SZ[15];B[hh]", "unterminated"),
            ("(;GM[1]SZ[19])", "not a gomoku"),
            ("(;SZ[40])", "outside"),
            ("(;SZ[15];B[hh];B[ii])", "colours must alternate"),
            ("(;SZ[15];B[h])", "bad point"),
            ("(;SZ[15];B[hh", "missing ']'"),
        ] {
            let e = parse_all(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
