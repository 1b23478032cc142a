//! The arena results viewer's data: `pentad-arena`'s `--results` JSON lines (its
//! [`GameRecord`]s) or `--sgf` files, read into a table of games with the score, Elo and
//! running score of the first game's Black player, computed with the arena's statistics.

use pentad::core::Pos;
use pentad_arena::records::GameRecord;
use pentad_arena::stats::{elo_trinomial, Wld};
use serde::Serialize;

use crate::sgf;

/// One game of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub game: usize,
    pub black: String,
    pub white: String,
    pub rule: String,
    pub size: usize,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub reason: String,
    pub detail: String,
    pub plies: usize,
    pub moves: Vec<[usize; 2]>,
}

/// The whole file: its games and the summary for `player`.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    pub games: Vec<Row>,
    /// The player the summary is about (Black of the first game).
    pub player: String,
    /// The other players' names, joined.
    pub opponents: String,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Score fraction, 0..1.
    pub score: f64,
    /// Elo difference with its 95 % interval (absent with no decisive information).
    pub elo: Option<[f64; 3]>,
    /// `player`'s total score after each game.
    pub running: Vec<f64>,
}

/// Reads a results file: JSON lines when its first non-blank character is `{`, else SGF.
pub fn read(text: &str) -> Result<Results, String> {
    let rows = if text.trim_start().starts_with('{') {
        read_json_lines(text)?
    } else if text.trim_start().starts_with('(') {
        read_sgf(text)?
    } else {
        return Err("not an arena results file: expected JSON lines or SGF".into());
    };
    Ok(summarize(rows))
}

fn points(moves: &[Pos]) -> Vec<[usize; 2]> {
    moves.iter().map(|p| [p.x(), p.y()]).collect()
}

fn read_json_lines(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: GameRecord =
            serde_json::from_str(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let mut moves = Vec::with_capacity(r.moves.len());
        for m in &r.moves {
            let p = Pos::from_human(m).ok_or_else(|| format!("line {}: bad move {m:?}", n + 1))?;
            moves.push(p);
        }
        rows.push(Row {
            game: r.game,
            black: r.black,
            white: r.white,
            rule: r.rule,
            size: r.width,
            result: r.result,
            reason: r.reason.name().to_string(),
            detail: r.detail,
            plies: moves.len(),
            moves: points(&moves),
        });
    }
    if rows.is_empty() {
        return Err("the file holds no games".into());
    }
    Ok(rows)
}

fn read_sgf(text: &str) -> Result<Vec<Row>, String> {
    let games = sgf::parse_all(text)?;
    Ok(games
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let (result, reason) = sgf_result(&g.result);
            Row {
                game: i + 1,
                black: g.black,
                white: g.white,
                rule: g.rule,
                size: g.size,
                result: result.to_string(),
                reason: reason.to_string(),
                detail: g.comment,
                plies: g.moves.len(),
                moves: points(&g.moves),
            }
        })
        .collect())
}

/// SGF `RE` to (result, reason): `B+` five, `W+T` time, `B+F` forfeit, `0` draw.
fn sgf_result(re: &str) -> (&'static str, &'static str) {
    let re = re.trim();
    let result = match re.chars().next() {
        Some('B') => "1-0",
        Some('W') => "0-1",
        _ => "1/2-1/2",
    };
    let reason = match re.split_once('+').map(|(_, r)| r) {
        _ if result == "1/2-1/2" => "draw",
        Some(r) if r.starts_with('T') => "time",
        Some(r) if r.starts_with('F') => "forfeit",
        Some(r) if r.starts_with('R') => "resign",
        _ => "five",
    };
    (result, reason)
}

fn summarize(games: Vec<Row>) -> Results {
    let player = games[0].black.clone();
    let mut opponents: Vec<String> = Vec::new();
    let mut wld = Wld::default();
    let mut running = Vec::new();
    let mut total = 0.0;
    for g in &games {
        let black_score = match g.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        let (score, other) = if g.black == player {
            (black_score, &g.white)
        } else if g.white == player {
            (1.0 - black_score, &g.black)
        } else {
            // A game without the player (a gauntlet's other pairs) counts for nobody.
            running.push(total);
            continue;
        };
        if !opponents.contains(other) {
            opponents.push(other.clone());
        }
        wld.add(score);
        total += score;
        running.push(total);
    }
    Results {
        player,
        opponents: opponents.join(", "),
        wins: wld.wins,
        losses: wld.losses,
        draws: wld.draws,
        score: wld.score(),
        elo: elo_trinomial(&wld)
            .filter(|e| e.elo.is_finite() && e.lo.is_finite() && e.hi.is_finite())
            .map(|e| [e.elo, e.lo, e.hi]),
        running,
        games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str = r#"{"game":1,"black":"A","white":"B","rule":"freestyle","width":15,"height":15,"opening":"","moves":["h8","h9"],"opening_plies":0,"result":"1-0","reason":"five","detail":"Black wins by five","plies":2,"times_ms":[1,1]}
{"game":2,"black":"B","white":"A","rule":"freestyle","width":15,"height":15,"opening":"","moves":["h8"],"opening_plies":0,"result":"1-0","reason":"time","detail":"x","plies":1,"times_ms":[1]}
{"game":3,"black":"A","white":"B","rule":"freestyle","width":15,"height":15,"opening":"","moves":["h8"],"opening_plies":0,"result":"1/2-1/2","reason":"draw","detail":"x","plies":1,"times_ms":[1]}
"#;

    #[test]
    fn reads_json_lines_and_scores_the_first_black() {
        let r = read(LINES).unwrap();
        assert_eq!(r.games.len(), 3);
        assert_eq!((r.player.as_str(), r.opponents.as_str()), ("A", "B"));
        assert_eq!((r.wins, r.losses, r.draws), (1, 1, 1));
        assert_eq!(r.running, vec![1.0, 1.0, 1.5]);
        assert_eq!(r.games[0].moves, vec![[7, 7], [7, 8]]);
        let e = r.elo.unwrap();
        assert!(e[1] < e[0] && e[0] < e[2], "{e:?}");
    }

    #[test]
    fn reads_arena_sgf() {
        let r =
            read("(;GM[4]SZ[15]PB[A]PW[B]RE[W+T];B[hh])\n(;GM[4]SZ[15]PB[B]PW[A]RE[0])").unwrap();
        assert_eq!(r.games[0].result, "0-1");
        assert_eq!(r.games[0].reason, "time");
        assert_eq!(r.games[1].reason, "draw");
        assert_eq!((r.wins, r.losses, r.draws), (0, 1, 1));
    }

    #[test]
    fn malformed_files_are_explained() {
        let e = read("{\"game\":1}\n").unwrap_err();
        assert!(e.starts_with("line 1:"), "{e}");
        assert!(read("hello")
            .unwrap_err()
            .contains("not an arena results file"));
        let bad_move = LINES.replacen("\"h9\"", "\"zz\"", 1);
        assert!(read(&bad_move).unwrap_err().contains("bad move"));
    }
}
