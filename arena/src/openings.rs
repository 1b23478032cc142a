//! Opening files: c-gomoku-cli's offset format (`x,y, x,y, ...` relative to the centre) and
//! pos format (`h8i9j10`), detected per line; validation against a board.

use pentad::board::Board;
use pentad::core::{Color, Pos, Rule, Symmetry};

/// The 26 canonical renju openings in offset format (x right, y down from the centre): the
/// direct ones (second stone beside the first) and the indirect ones (diagonal).
pub const CANONICAL_RENJU_OPENINGS: &str = "\
0,0, 0,-1, -2,-2\n\
0,0, 0,-1, -2,-1\n\
0,0, 0,-1, -2,0\n\
0,0, 0,-1, -2,1\n\
0,0, 0,-1, -2,2\n\
0,0, 0,-1, -1,-2\n\
0,0, 0,-1, -1,-1\n\
0,0, 0,-1, -1,0\n\
0,0, 0,-1, -1,1\n\
0,0, 0,-1, -1,2\n\
0,0, 0,-1, 0,-2\n\
0,0, 0,-1, 0,1\n\
0,0, 0,-1, 0,2\n\
0,0, 1,-1, -2,-2\n\
0,0, 1,-1, -2,-1\n\
0,0, 1,-1, -2,0\n\
0,0, 1,-1, -2,1\n\
0,0, 1,-1, -2,2\n\
0,0, 1,-1, -1,-2\n\
0,0, 1,-1, -1,-1\n\
0,0, 1,-1, -1,0\n\
0,0, 1,-1, -1,1\n\
0,0, 1,-1, 0,-2\n\
0,0, 1,-1, 0,-1\n\
0,0, 1,-1, 1,-2\n\
0,0, 1,-1, 2,-2\n";

/// One opening: stones relative to the board centre, Black first, colours alternating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The line as written in the file (trimmed), for messages.
    pub text: String,
    /// The stones in play order.
    pub stones: Vec<OpeningStone>,
}

/// An opening stone: an offset from the centre, or an absolute point (pos format).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningStone {
    /// (dx, dy) from the centre `(width / 2, height / 2)`; y grows downwards like the protocol.
    Offset(i32, i32),
    /// An absolute point (x, y), as in `h8` notation.
    Abs(i32, i32),
}

impl Opening {
    /// The empty opening (games start from an empty board).
    pub fn empty() -> Opening {
        Opening {
            text: String::new(),
            stones: Vec::new(),
        }
    }

    /// Parses one line, detecting the format: a line containing a letter is pos format.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let text = line.trim();
        let stones = if text.chars().any(|c| c.is_ascii_alphabetic()) {
            parse_pos(text)?
        } else {
            parse_offset(text)?
        };
        if stones.is_empty() {
            return Err("no stones".into());
        }
        Ok(Opening {
            text: text.to_string(),
            stones,
        })
    }

    /// The absolute points on a `width × height` board, or an error if a stone is off the
    /// board or repeated.
    pub fn points(&self, width: usize, height: usize) -> Result<Vec<Pos>, String> {
        let (cx, cy) = ((width / 2) as i32, (height / 2) as i32);
        let mut out: Vec<Pos> = Vec::with_capacity(self.stones.len());
        for s in &self.stones {
            let (x, y) = match *s {
                OpeningStone::Offset(dx, dy) => (cx + dx, cy + dy),
                OpeningStone::Abs(x, y) => (x, y),
            };
            if x < 0 || y < 0 || x as usize >= width || y as usize >= height {
                return Err(format!("stone ({x},{y}) is off the {width}x{height} board"));
            }
            let p = Pos::new(x as usize, y as usize);
            if out.contains(&p) {
                return Err(format!("stone {} placed twice", p.to_human()));
            }
            out.push(p);
        }
        Ok(out)
    }

    /// The points after applying board symmetry `t` (index of a [`Symmetry`]; on a
    /// rectangular board the transposing ones act as their non-transposing part, `t & 3`).
    pub fn points_transformed(
        &self,
        width: usize,
        height: usize,
        t: u8,
    ) -> Result<Vec<Pos>, String> {
        let mut sym = Symmetry::from_index(t);
        if !sym.fits(width, height) {
            sym = Symmetry::from_index(t & 3);
        }
        let base = self.points(width, height)?;
        Ok(base.iter().map(|&p| sym.apply(p, width, height)).collect())
    }

    /// The position after the opening: stones alternate Black, White, ...; rejects an opening
    /// that already contains a win.
    pub fn board(&self, width: usize, height: usize, rule: Rule) -> Result<Board, String> {
        let mut b = Board::new(width, height, rule).map_err(|e| e.to_string())?;
        for p in self.points(width, height)? {
            b.make_move(p);
            if b.last_move_won().is_some() {
                return Err(format!("opening already has a five at {}", p.to_human()));
            }
        }
        Ok(b)
    }

    /// The opening as pos-format text on a given board (`h8i9j10`), empty for no stones.
    pub fn to_pos_text(&self, width: usize, height: usize) -> String {
        match self.points(width, height) {
            Ok(ps) => ps.iter().map(|p| p.to_human()).collect(),
            Err(_) => self.text.clone(),
        }
    }
}

/// Colour of the i-th opening stone.
pub fn stone_color(i: usize) -> Color {
    if i.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

fn parse_offset(text: &str) -> Result<Vec<OpeningStone>, String> {
    let nums: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    if !nums.len().is_multiple_of(2) {
        return Err(format!("odd number of coordinates in {text:?}"));
    }
    nums.chunks(2)
        .map(|c| {
            let x = c[0]
                .parse::<i32>()
                .map_err(|_| format!("bad number {:?}", c[0]))?;
            let y = c[1]
                .parse::<i32>()
                .map_err(|_| format!("bad number {:?}", c[1]))?;
            if x.abs() > 32 || y.abs() > 32 {
                return Err(format!("offset {x},{y} too large"));
            }
            Ok(OpeningStone::Offset(x, y))
        })
        .collect()
}

fn parse_pos(text: &str) -> Result<Vec<OpeningStone>, String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b',' || c == b';' {
            i += 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(format!("unexpected {:?} in {text:?}", c as char));
        }
        let mut j = i + 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let tok = &text[i..j];
        let p = Pos::from_human(tok).ok_or_else(|| format!("bad point {tok:?}"))?;
        out.push(OpeningStone::Abs(p.x() as i32, p.y() as i32));
        i = j;
    }
    Ok(out)
}

/// Parses an openings file: one opening per line; blank lines and lines starting with `#`
/// are skipped. Errors name the line number.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(Opening::parse(t).map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    Ok(out)
}

/// Reads and parses an openings file, then checks every opening fits the board.
pub fn load_openings(
    path: &std::path::Path,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let ops = parse_openings(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if ops.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    for o in &ops {
        o.board(width, height, rule)
            .map_err(|e| format!("{}: opening {:?}: {e}", path.display(), o.text))?;
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_offset_format() {
        let o = Opening::parse("0,0, 0,-1, -2,-2").unwrap();
        assert_eq!(
            o.stones,
            vec![
                OpeningStone::Offset(0, 0),
                OpeningStone::Offset(0, -1),
                OpeningStone::Offset(-2, -2)
            ]
        );
        let ps = o.points(15, 15).unwrap();
        assert_eq!(ps, vec![Pos::new(7, 7), Pos::new(7, 6), Pos::new(5, 5)]);
        assert_eq!(o.to_pos_text(15, 15), "h8h7f6");
        // 20x20 centre is (10,10); rectangular boards use each side's centre.
        assert_eq!(o.points(20, 20).unwrap()[0], Pos::new(10, 10));
        assert_eq!(o.points(15, 9).unwrap()[1], Pos::new(7, 3));
    }

    #[test]
    fn parses_pos_format() {
        let o = Opening::parse("h8i9j10").unwrap();
        assert_eq!(
            o.points(15, 15).unwrap(),
            vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(9, 9)]
        );
        let o2 = Opening::parse("H8 I9, j10").unwrap();
        assert_eq!(o2.points(15, 15).unwrap(), o.points(15, 15).unwrap());
        assert!(Opening::parse("h8i0").is_err());
        assert!(Opening::parse("h8-i9").is_err());
    }

    #[test]
    fn symmetries() {
        let o = Opening::parse("0,0, 1,-1, 2,-3").unwrap();
        let id = o.points_transformed(15, 15, 0).unwrap();
        assert_eq!(id, o.points(15, 15).unwrap());
        let mx = o.points_transformed(15, 15, 1).unwrap();
        assert_eq!(mx, vec![Pos::new(7, 7), Pos::new(6, 6), Pos::new(5, 4)]);
        let sw = o.points_transformed(15, 15, 4).unwrap();
        assert_eq!(sw, vec![Pos::new(7, 7), Pos::new(6, 8), Pos::new(4, 9)]);
        let all: std::collections::HashSet<Vec<Pos>> = (0..8)
            .map(|t| o.points_transformed(15, 15, t).unwrap())
            .collect();
        assert_eq!(all.len(), 8);
        // On an even board the images are mirror images of the whole board: the first
        // column goes to the last.
        let e = Opening::parse("-8,0").unwrap();
        assert_eq!(
            e.points_transformed(16, 16, 1).unwrap(),
            vec![Pos::new(15, 8)]
        );
        // Rectangular boards: no transposition, 4 distinct images.
        let rect: std::collections::HashSet<Vec<Pos>> = (0..8)
            .map(|t| o.points_transformed(20, 15, t).unwrap())
            .collect();
        assert_eq!(rect.len(), 4);
    }

    #[test]
    fn rejects_bad_openings() {
        assert!(Opening::parse("0,0, 1").is_err());
        assert!(Opening::parse("0,x").is_err());
        assert!(Opening::parse("").is_err());
        let o = Opening::parse("0,0, 0,0").unwrap();
        assert!(o.points(15, 15).is_err());
        let o = Opening::parse("8,0").unwrap();
        assert!(o.points(15, 15).is_err());
        assert!(o.points(20, 20).is_ok());
        // A finished game is no opening.
        let o = Opening::parse("a1 a15 b1 b15 c1 c15 d1 d15 e1").unwrap();
        assert!(o.board(15, 15, Rule::FREESTYLE).is_err());
    }

    #[test]
    fn parses_file_with_comments_and_mixed_formats() {
        let text = "# test\n0,0, 1,1\n\n  h8i9  \n";
        let ops = parse_openings(text).unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(
            ops[0].points(15, 15).unwrap(),
            ops[1].points(15, 15).unwrap()
        );
        let err = parse_openings("0,0\n1,2,3\n").unwrap_err();
        assert!(err.starts_with("line 2"), "{err}");
    }

    #[test]
    fn canonical_renju_openings_are_26_distinct_shapes() {
        let ops = parse_openings(CANONICAL_RENJU_OPENINGS).unwrap();
        assert_eq!(ops.len(), 26);
        let mut shapes = std::collections::HashSet::new();
        for o in &ops {
            let b = o.board(15, 15, Rule::RENJU).unwrap();
            assert_eq!(b.stone_count(), 3);
            assert_eq!(b.side_to_move(), Color::White);
            // No opening is a symmetric image of another.
            let images: Vec<Vec<Pos>> = (0..8)
                .map(|t| o.points_transformed(15, 15, t).unwrap())
                .collect();
            assert!(images.iter().all(|im| !shapes.contains(im)), "{o:?}");
            shapes.insert(images[0].clone());
        }
        // The same list as the project's shared openings file, where it is at hand.
        let shared = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/openings/offset-26-renju-openings.txt"
        );
        if let Ok(text) = std::fs::read_to_string(shared) {
            assert_eq!(parse_openings(&text).unwrap(), ops);
        }
    }
}
