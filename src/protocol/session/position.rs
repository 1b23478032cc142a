//! Building boards from protocol input: coordinates to points, a BOARD block's entries to a
//! position or a Swap2 opening, and a board replayed under another rule.

use super::*;

pub(super) fn to_pos(b: &Board, c: Coord) -> Option<Pos> {
    let x = i32::try_from(c.x).ok()?;
    let y = i32::try_from(c.y).ok()?;
    b.pos(x, y)
}

/// The same position on a board of another rule (walls and stones in play order).
pub(super) fn rebuild(old: &Board, rule: Rule) -> Option<Board> {
    let mut b = Board::new(old.width(), old.height(), rule).ok()?;
    for y in 0..old.height() {
        for x in 0..old.width() {
            let p = Pos::new(x, y);
            if old.cell(p) == Cell::Wall {
                b.put_wall(p);
            }
        }
    }
    for (p, c) in old.history() {
        b.make_move_as(p, c);
    }
    b.set_side_to_move(old.side_to_move());
    Some(b)
}

/// Checks `x,y` entries: on board, no duplicates. Returns the points.
pub(super) fn check_points(cur: &Board, entries: &[Vec<i64>]) -> Result<Vec<Pos>, String> {
    let mut seen = HashSet::new();
    let mut pts = Vec::with_capacity(entries.len());
    for e in entries {
        let c = Coord { x: e[0], y: e[1] };
        let Some(p) = to_pos(cur, c) else {
            return Err(format!(
                "{c} is outside the {}x{} board",
                cur.width(),
                cur.height()
            ));
        };
        if !seen.insert(p) {
            return Err(format!("{c} appears twice"));
        }
        pts.push(p);
    }
    Ok(pts)
}

/// The position of a BOARD/YXBOARD block: field 1 own, 2 opponent, 3 wall. The side to move
/// ("own") is White when it has fewer stones than the opponent, otherwise Black.
pub(super) fn build_position(cur: &Board, entries: &[Vec<i64>]) -> Result<Board, String> {
    let pts = check_points(cur, entries)?;
    let mut own = 0;
    let mut opp = 0;
    for e in entries {
        match e[2] {
            1 => own += 1,
            2 => opp += 1,
            3 => {}
            f => {
                return Err(format!(
                    "{},{}: field must be 1, 2 or 3, got {f}",
                    e[0], e[1]
                ))
            }
        }
    }
    let me = if own < opp {
        Color::White
    } else {
        Color::Black
    };
    let mut b = Board::new(cur.width(), cur.height(), cur.rule()).map_err(|e| e.to_string())?;
    for (p, e) in pts.iter().zip(entries) {
        if e[2] == 3 {
            b.put_wall(*p);
        }
    }
    for (p, e) in pts.iter().zip(entries) {
        match e[2] {
            1 => b.make_move_as(*p, me),
            2 => b.make_move_as(*p, me.opp()),
            _ => {}
        }
    }
    b.set_side_to_move(me);
    Ok(b)
}

/// The position of a SWAP2BOARD block: stones alternate Black, White, Black, …
pub(super) fn build_swap2(cur: &Board, entries: &[Vec<i64>]) -> Result<Board, String> {
    let pts = check_points(cur, entries)?;
    if !matches!(pts.len(), 0 | 3 | 5) {
        return Err(format!("expected 0, 3 or 5 stones, got {}", pts.len()));
    }
    let mut b = Board::new(cur.width(), cur.height(), cur.rule()).map_err(|e| e.to_string())?;
    for (i, p) in pts.iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        b.make_move_as(*p, c);
    }
    Ok(b)
}
