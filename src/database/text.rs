//! The text form of the position database (`yxdbtotxt`, `yxdbtotxtall`, `yxtxttodb`): one
//! tab-separated line per record or board text, described in docs/database.md.

use anyhow::{bail, Context, Result};

use super::position::{DbPosition, Key};
use super::record::{clean_board_text, clean_comment, Record, DEPTH_LIMIT, VALUE_LIMIT};
use crate::core::{Pos, Rule};

/// The first line of every export.
pub const HEADER: &str = "# Pentad position database, text form 1";
const FIELD_HELP: &str = "# pos<TAB>rule<TAB>WxH<TAB>black<TAB>white<TAB>label<TAB>value<TAB>depth<TAB>bound<TAB>best<TAB>\"comment\"\n# text<TAB>rule<TAB>WxH<TAB>black<TAB>white<TAB>point<TAB>\"text\"";

/// Which records an export holds: all, or those of one rule and board size.
pub type Filter = Option<(Rule, usize, usize)>;

fn matches(filter: Filter, key: &Key) -> bool {
    filter.is_none_or(|(r, w, h)| key.rule == r.to_info() && key.width == w && key.height == h)
}

fn points_text(points: &[Pos]) -> String {
    if points.is_empty() {
        return "-".into();
    }
    let v: Vec<String> = points
        .iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect();
    v.join(" ")
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

fn unquote(s: &str) -> Result<String> {
    let inner = s
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .context("text must be in double quotes")?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            other => bail!(
                "unknown escape \\{}",
                other.map(String::from).unwrap_or_default()
            ),
        }
    }
    Ok(out)
}

fn position_fields(key: &Key) -> Option<(String, DbPosition)> {
    let pos = DbPosition::from_key(key)?;
    let (black, white) = pos.stones_by_color();
    let text = format!(
        "{}\t{}x{}\t{}\t{}",
        key.rule,
        key.width,
        key.height,
        points_text(&black),
        points_text(&white)
    );
    Some((text, pos))
}

/// The text form of `records` and `texts` (as [`super::Store::all_records`] and
/// [`super::Store::all_board_texts`] give them) that pass `filter`.
pub fn export(records: &[(Key, Record)], texts: &[(Key, i64, String)], filter: Filter) -> String {
    let mut out = format!("{HEADER}\n{FIELD_HELP}\n");
    for (key, rec) in records.iter().filter(|(k, _)| matches(filter, k)) {
        let Some((head, _)) = position_fields(key) else {
            continue;
        };
        let label = if rec.label > 0 {
            (rec.label as u8 as char).to_string()
        } else {
            "-".into()
        };
        let best = rec
            .best_move
            .map_or("-".into(), |p| format!("{},{}", p.x(), p.y()));
        out.push_str(&format!(
            "pos\t{head}\t{label}\t{}\t{}\t{}\t{best}\t{}\n",
            rec.value,
            rec.depth,
            rec.bound,
            quote(&rec.comment)
        ));
    }
    for (key, point, text) in texts.iter().filter(|(k, _, _)| matches(filter, k)) {
        let Some((head, _)) = position_fields(key) else {
            continue;
        };
        let (x, y) = (*point as usize % key.width, *point as usize / key.width);
        out.push_str(&format!("text\t{head}\t{x},{y}\t{}\n", quote(text)));
    }
    out
}

/// What an import adds: canonical records and board texts (point numbers canonical).
#[derive(Debug, Default)]
pub struct Imported {
    pub records: Vec<(Key, Record)>,
    pub texts: Vec<(Key, i64, String)>,
}

/// Parses a text form. Points may be in any orientation; each position is stored under its
/// canonical key. The first bad line stops the import (`line N: why`).
pub fn import(text: &str) -> Result<Imported> {
    let mut out = Imported::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        import_line(line, &mut out).with_context(|| format!("line {}", i + 1))?;
    }
    Ok(out)
}

fn import_line(line: &str, out: &mut Imported) -> Result<()> {
    let f: Vec<&str> = line.split('\t').collect();
    match f[0] {
        "pos" if f.len() == 11 => {
            let pos = parse_position(&f[1..5])?;
            let (key, sym) = pos.canonical();
            let label = match f[5] {
                "-" => super::record::LABEL_NONE,
                l if l.len() == 1 && l.as_bytes()[0].is_ascii_graphic() => l.as_bytes()[0] as i32,
                l => bail!("bad label {l:?} (one printable character or -)"),
            };
            let best = match f[9] {
                "-" => None,
                t => Some(pos.to_canonical(sym, parse_empty_point(&pos, t)?)),
            };
            let rec = Record {
                label,
                value: parse_ranged(f[6], VALUE_LIMIT, "value")?,
                depth: parse_ranged(f[7], DEPTH_LIMIT, "depth")?,
                bound: parse_ranged(f[8], 3, "bound").and_then(|b| {
                    if b < 0 {
                        bail!("bound must be 0..=3")
                    }
                    Ok(b)
                })?,
                best_move: best,
                comment: clean_comment(&unquote(f[10])?),
            };
            out.records.push((key, rec));
        }
        "text" if f.len() == 7 => {
            let pos = parse_position(&f[1..5])?;
            let (key, sym) = pos.canonical();
            let p = pos.to_canonical(sym, parse_empty_point(&pos, f[5])?);
            let text = clean_board_text(&unquote(f[6])?);
            if !text.is_empty() {
                let n = (p.y() * key.width + p.x()) as i64;
                out.texts.push((key, n, text));
            }
        }
        "pos" | "text" => bail!("wrong number of tab-separated fields ({})", f.len()),
        other => bail!("unknown line kind {:?} (pos or text)", other),
    }
    Ok(())
}

fn parse_ranged(s: &str, limit: i64, what: &str) -> Result<i32> {
    let v: i64 = s
        .parse()
        .with_context(|| format!("{what} is not a number: {s:?}"))?;
    if v.abs() > limit {
        bail!("{what} {v} is out of range (at most {limit} in size)");
    }
    Ok(v as i32)
}

fn parse_point(s: &str) -> Result<(i64, i64)> {
    let (x, y) = s.split_once(',').context("a point is x,y")?;
    let x = x
        .trim()
        .parse()
        .with_context(|| format!("bad point {s:?}"))?;
    let y = y
        .trim()
        .parse()
        .with_context(|| format!("bad point {s:?}"))?;
    Ok((x, y))
}

fn parse_empty_point(pos: &DbPosition, s: &str) -> Result<Pos> {
    let (x, y) = parse_point(s)?;
    let p = pos
        .point(x, y)
        .with_context(|| format!("{s} is off the board"))?;
    if !pos.is_empty(p) {
        bail!("{s} is occupied");
    }
    Ok(p)
}

/// Rule, size, Black's and White's stones.
fn parse_position(f: &[&str]) -> Result<DbPosition> {
    let rule_num: i64 = f[0].parse().context("rule is not a number")?;
    let rule = Rule::from_info(rule_num).with_context(|| format!("unknown rule {rule_num}"))?;
    let (w, h) = f[1].split_once('x').context("size is WxH")?;
    let w: usize = w.parse().context("bad board width")?;
    let h: usize = h.parse().context("bad board height")?;
    let mut pos =
        DbPosition::empty(rule, w, h).with_context(|| format!("unsupported size {w}x{h}"))?;
    let list = |s: &str| -> Result<Vec<(i64, i64)>> {
        if s == "-" {
            return Ok(Vec::new());
        }
        s.split(' ').map(parse_point).collect()
    };
    let black = list(f[2])?;
    let white = list(f[3])?;
    if black.len() != white.len() && black.len() != white.len() + 1 {
        bail!(
            "{} black and {} white stones: no game has these counts",
            black.len(),
            white.len()
        );
    }
    for (i, b) in black.iter().enumerate() {
        for &(x, y) in std::iter::once(b).chain(white.get(i)) {
            let p = pos
                .point(x, y)
                .with_context(|| format!("{x},{y} is off the board"))?;
            if !pos.is_empty(p) {
                bail!("{x},{y} appears twice");
            }
            pos.play(p);
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(moves: &[(i64, i64)]) -> (Key, DbPosition) {
        let pos = DbPosition::from_moves(Rule::RENJU, 15, 15, moves).unwrap();
        (pos.canonical().0, pos)
    }

    #[test]
    fn round_trip() {
        let (k1, _) = key_of(&[(7, 7), (8, 8), (9, 7)]);
        let (k2, _) = key_of(&[(7, 7)]);
        let rec = Record {
            label: b'w' as i32,
            value: -29_990,
            depth: 12,
            bound: 3,
            best_move: Some(Pos::new(0, 1)),
            comment: "two\nlines \"quoted\" \\ tab\there".into(),
        };
        let records = vec![(k1.clone(), rec.clone()), (k2.clone(), Record::empty())];
        let texts = vec![(k2.clone(), 3, "A1".to_string())];
        let txt = export(&records, &texts, None);
        assert!(txt.starts_with(HEADER));
        let back = import(&txt).unwrap();
        assert_eq!(back.records, records);
        assert_eq!(back.texts, texts);
        let none = export(&records, &texts, Some((Rule::FREESTYLE, 15, 15)));
        assert_eq!(import(&none).unwrap().records.len(), 0);
    }

    #[test]
    fn import_canonicalises() {
        let line = "pos\t4\t15x15\t7,7\t8,7\t-\t5\t0\t0\t-\t\"\"";
        let mirrored = "pos\t4\t15x15\t7,7\t6,7\t-\t5\t0\t0\t-\t\"\"";
        assert_eq!(
            import(line).unwrap().records[0].0,
            import(mirrored).unwrap().records[0].0
        );
    }

    #[test]
    fn bad_lines_name_their_number() {
        let bad = [
            "pos\t4\t15x15\t7,7\t-\t-\t5\t0\t0\t-",
            "pos\t99\t15x15\t7,7\t-\t-\t5\t0\t0\t-\t\"\"",
            "pos\t4\t15x15\t7,7 8,8 9,9\t-\t-\t5\t0\t0\t-\t\"\"",
            "pos\t4\t15x15\t7,7\t7,7\t-\t5\t0\t0\t-\t\"\"",
            "pos\t4\t15x15\t7,7\t-\tww\t5\t0\t0\t-\t\"\"",
            "pos\t4\t15x15\t7,7\t-\t-\t99999\t0\t0\t-\t\"\"",
            "pos\t4\t15x15\t7,7\t-\t-\t5\t0\t7\t-\t\"\"",
            "pos\t4\t15x15\t7,7\t-\t-\t5\t0\t0\t7,7\t\"\"",
            "pos\t4\t15x15\t7,7\t-\t-\t5\t0\t0\t-\tnoquote",
            "text\t4\t15x15\t7,7\t-\t16,0\t\"a\"",
            "what\tever",
        ];
        for b in bad {
            let txt = format!("{HEADER}\n\n{b}\n");
            let e = import(&txt).unwrap_err();
            assert!(format!("{e:#}").starts_with("line 3"), "{b}: {e:#}");
        }
    }
}
