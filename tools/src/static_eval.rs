//! `pentad-tools static-eval`: the classical evaluation of every searched position of a
//! games file, the base a residual network is trained on top of (`trainer/`,
//! docs/network.md).
//!
//! Output: one line per game, `<id> <evals>`, where `evals` has one value per searched move
//! (the static evaluation, in evaluation units, for the side to move before that move), in
//! the games file's order, comma-separated (`-` when the game has none).
//!
//! With `--siblings K` or `--best-siblings B` a third field follows: per searched move, the
//! classical evaluation after the move played and after other legal moves of the candidate
//! area, each for the side to move then: first the B moves whose children the classical
//! evaluation rates best for the mover (the search's likeliest alternatives), then K of
//! the rest drawn with a seeded generator per game:
//! `<played eval>/<move>:<eval>/…`, comma-separated. With `--sibling-nodes N` every child
//! (the played move's too) also gets the score of an N-node search for its side to move,
//! `<eval>:<score>` and `<move>:<eval>:<score>`: value targets for positions off the game's
//! path, like those a search meets. The trainer fits the network's value to those scores
//! and teaches it to rank the searched move's position above its siblings.
//!
//! With `--counts FILE` a second file gets, per game, `<id> <counts>`: per searched move the
//! board's 64 pattern counts before it (`Board::raw_counts`, the input of a network's count
//! rows), colon-separated, the moves comma-separated (`-` when none).

use std::io::Write;

use anyhow::{Context, Result};
use pentad::board::Board;
use pentad::core::{Pos, Rule};
use pentad::eval;
use pentad::search::{SearchLimits, Searcher, MATE_BOUND};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::games_file::{self, GameLine};
use crate::parallel;
use crate::progress::Progress;

/// Options of `pentad-tools static-eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The games file (`pentad-tools selfplay`).
    #[arg(long)]
    pub games: String,
    /// The file to write.
    #[arg(long)]
    pub out: String,
    /// Other legal moves, drawn at random, evaluated after each searched move.
    #[arg(long, default_value_t = 0)]
    pub siblings: usize,
    /// Other legal moves evaluated after each searched move, the best by the classical
    /// evaluation of their children (before the random ones; 0 and `--siblings 0`: no third
    /// field).
    #[arg(long, default_value_t = 0)]
    pub best_siblings: usize,
    /// Nodes of the search that scores every child (0: no search, no scores).
    #[arg(long, default_value_t = 0)]
    pub sibling_nodes: u64,
    /// Worker threads (games are split among them; the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the siblings' draw (each game's generator is seeded with it and the game id).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write each searched position's pattern counts to this file.
    #[arg(long)]
    pub counts: Option<String>,
}

/// Which siblings of each searched move to write, and how to score them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Siblings {
    /// The best other moves by the classical evaluation of their children.
    pub best: usize,
    /// Other moves drawn at random from the rest.
    pub random: usize,
    /// Nodes of each child's search (0: none).
    pub nodes: u64,
}

impl Siblings {
    /// No siblings at all.
    #[cfg(test)]
    pub const NONE: Siblings = Siblings {
        best: 0,
        random: 0,
        nodes: 0,
    };

    fn any(self) -> bool {
        self.best + self.random > 0
    }
}

/// Transposition-table bytes of a child's search (a fresh table per game, so that the
/// scores do not depend on how games are split among threads).
const CHILD_HASH_BYTES: usize = 4 << 20;

/// The child's text after `mover` plays `p` on `board`: its classical evaluation and, with
/// a searcher, `:` and the search score (both for the child's side to move; a five by the
/// mover is a lost child, unsearched).
fn child_text(board: &mut Board, p: Pos, search: Option<(&mut Searcher, u64)>) -> String {
    let wins = board.is_win_move(p, board.side_to_move());
    board.make_move(p);
    let mut text = eval::evaluate_classical(board).to_string();
    if let Some((searcher, nodes)) = search {
        let score = if wins {
            -MATE_BOUND
        } else {
            let limits = SearchLimits {
                max_nodes: Some(nodes),
                ..Default::default()
            };
            let stop = std::sync::atomic::AtomicBool::new(false);
            let r = searcher.search(board, &limits, &stop, &mut |_| {});
            r.score.clamp(-MATE_BOUND, MATE_BOUND)
        };
        text += &format!(":{score}");
    }
    board.undo();
    text
}

/// After the searched move `played`: its child's text ([`child_text`]), then the chosen
/// other legal candidate moves with theirs, as `e/m:e/…`.
fn siblings_text(
    board: &mut Board,
    played: Pos,
    counts: Siblings,
    rng: &mut StdRng,
    searcher: &mut Option<Searcher>,
) -> String {
    let me = board.side_to_move();
    let mut others: Vec<Pos> = board
        .candidates()
        .filter(|&p| p != played && board.can_play(p, me))
        .collect();
    if counts.best > 0 {
        // Best for the mover first: the lowest evaluations for the opponent to move.
        others.sort_by_cached_key(|&p| {
            board.make_move(p);
            let e = eval::evaluate_classical(board);
            board.undo();
            (e, p.index())
        });
    }
    let best = counts.best.min(others.len());
    others[best..].shuffle(rng);
    let nodes = counts.nodes;
    let mut text = child_text(board, played, searcher.as_mut().map(|s| (s, nodes)));
    for &p in others.iter().take(best + counts.random) {
        let child = child_text(board, p, searcher.as_mut().map(|s| (s, nodes)));
        text += &format!("/{}:{child}", p.to_human());
    }
    text
}

/// The classical evaluation before each of `game`'s searched moves, for the side to move,
/// and with siblings each move's siblings text ([`siblings_text`]).
pub fn game_evals(
    game: &GameLine,
    siblings: Siblings,
    seed: u64,
) -> Result<(Vec<i32>, Vec<String>)> {
    let rule = Rule::from_name(&game.rule).context("rule checked by parse")?;
    let mut board = Board::new(game.width, game.height, rule)?;
    eval::prepare(&mut board);
    let mut rng =
        StdRng::seed_from_u64(seed ^ (game.id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut evals = Vec::with_capacity(game.scores.len());
    let mut sibling_texts = Vec::new();
    let mut searcher = (siblings.nodes > 0).then(|| Searcher::new(CHILD_HASH_BYTES));
    for (ply, &m) in game.moves.iter().enumerate() {
        if ply >= game.opening_plies {
            evals.push(eval::evaluate_classical(&board));
            if siblings.any() {
                sibling_texts.push(siblings_text(
                    &mut board,
                    m,
                    siblings,
                    &mut rng,
                    &mut searcher,
                ));
            }
        }
        board.make_move(m);
    }
    Ok((evals, sibling_texts))
}

/// The board's pattern counts before each of `game`'s searched moves.
pub fn game_counts(game: &GameLine) -> Result<Vec<[u16; 64]>> {
    let rule = Rule::from_name(&game.rule).context("rule checked by parse")?;
    let mut board = Board::new(game.width, game.height, rule)?;
    let mut counts = Vec::with_capacity(game.scores.len());
    for (ply, &m) in game.moves.iter().enumerate() {
        if ply >= game.opening_plies {
            counts.push(board.raw_counts());
        }
        board.make_move(m);
    }
    Ok(counts)
}

/// One line of the counts file for `game`.
fn counts_line(game: &GameLine) -> Result<String> {
    let moves: Vec<String> = game_counts(game)?
        .iter()
        .map(|c| c.map(|n| n.to_string()).join(":"))
        .collect();
    Ok(format!("{} {}\n", game.id, list(&moves)))
}

/// A comma-separated list, `-` when empty.
fn list<T: ToString>(items: &[T]) -> String {
    if items.is_empty() {
        return "-".to_string();
    }
    items.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

/// One output line for `game`.
fn eval_line(game: &GameLine, siblings: Siblings, seed: u64) -> Result<String> {
    let (evals, sibling_texts) = game_evals(game, siblings, seed)?;
    Ok(if siblings.any() {
        format!("{} {} {}\n", game.id, list(&evals), list(&sibling_texts))
    } else {
        format!("{} {}\n", game.id, list(&evals))
    })
}

pub fn run(args: &Args) -> Result<()> {
    let games = games_file::read(&args.games)?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&args.out).with_context(|| format!("cannot create {}", args.out))?,
    );
    let siblings = Siblings {
        best: args.best_siblings,
        random: args.siblings,
        nodes: args.sibling_nodes,
    };
    for line in eval_lines(&games, siblings, args.seed, args.threads.max(1))? {
        out.write_all(line.as_bytes())?;
    }
    out.flush()?;
    eprintln!("{} games, static evaluations in {}", games.len(), args.out);
    if let Some(path) = &args.counts {
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {path}"))?,
        );
        let progress = Progress::new(games.len() as u64, "counts");
        let lines = parallel::map_in_order(&games, args.threads.max(1), &progress, counts_line);
        progress.finish();
        for line in lines {
            out.write_all(line?.as_bytes())?;
        }
        out.flush()?;
        eprintln!("{} games, pattern counts in {path}", games.len());
    }
    Ok(())
}

/// The output lines of `games` in order, computed on `threads` threads (game `i` on thread
/// `i % threads`; each game's line depends on the game alone).
fn eval_lines(
    games: &[GameLine],
    siblings: Siblings,
    seed: u64,
    threads: usize,
) -> Result<Vec<String>> {
    let progress = Progress::new(games.len() as u64, "static-eval");
    let lines = parallel::map_in_order(games, threads, &progress, |g| eval_line(g, siblings, seed));
    progress.finish();
    lines.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_per_searched_move_for_the_side_to_move() {
        let game = GameLine::parse("17 renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35,-20").unwrap();
        let (evals, none) = game_evals(&game, Siblings::NONE, 1).unwrap();
        assert_eq!(evals.len(), 2);
        assert!(none.is_empty());
        // The second position is the first plus Black's h9, seen from White.
        let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
        eval::prepare(&mut b);
        for &m in &game.moves[..5] {
            b.make_move(m);
        }
        assert_eq!(evals[1], eval::evaluate_classical(&b));
        assert_eq!(
            eval_line(&game, Siblings::NONE, 1).unwrap(),
            format!("17 {},{}\n", evals[0], evals[1])
        );
    }

    #[test]
    fn the_counts_file_has_the_pattern_counts_of_each_searched_position() {
        let game = GameLine::parse("17 freestyle 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35,-20").unwrap();
        let counts = game_counts(&game).unwrap();
        assert_eq!(counts.len(), 2);
        let mut b = Board::new(15, 15, Rule::FREESTYLE).unwrap();
        for &m in &game.moves[..5] {
            b.make_move(m);
        }
        assert_eq!(counts[1], b.raw_counts(), "before the second searched move");
        assert_ne!(counts[0], counts[1]);
        let line = counts_line(&game).unwrap();
        let fields: Vec<&str> = line.trim_end().split(' ').collect();
        assert_eq!(fields[0], "17");
        let second: Vec<u16> = fields[1]
            .split(',')
            .nth(1)
            .unwrap()
            .split(':')
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(second, counts[1]);
        let none = GameLine::parse("18 freestyle 15x15 1-0 2 h8,i9 -").unwrap();
        assert_eq!(counts_line(&none).unwrap(), "18 -\n");
    }

    #[test]
    fn siblings_are_legal_other_moves_with_their_childrens_evaluations() {
        let game = GameLine::parse("17 renju 15x15 1-0 4 h8,i9,j10,k11,h9,h10 35,-20").unwrap();
        let counts = Siblings {
            best: 2,
            random: 3,
            nodes: 0,
        };
        let (evals, texts) = game_evals(&game, counts, 1).unwrap();
        assert_eq!(texts.len(), 2);
        let mut b = Board::new(15, 15, Rule::RENJU).unwrap();
        eval::prepare(&mut b);
        for &m in &game.moves[..4] {
            b.make_move(m);
        }
        let parts: Vec<&str> = texts[0].split('/').collect();
        assert_eq!(parts.len(), 6);
        // The played move's child is the game's next position.
        assert_eq!(parts[0].parse::<i32>().unwrap(), evals[1]);
        let mut seen = vec![game.moves[4]];
        let mut values = Vec::new();
        for part in &parts[1..] {
            let (m, e) = part.split_once(':').unwrap();
            let p = Pos::from_human(m).unwrap();
            assert!(b.is_empty(p) && !seen.contains(&p), "{m}");
            seen.push(p);
            b.make_move(p);
            assert_eq!(e.parse::<i32>().unwrap(), eval::evaluate_classical(&b));
            b.undo();
            values.push(e.parse::<i32>().unwrap());
        }
        // The best two come first: no other legal move leaves the opponent less.
        let me = b.side_to_move();
        let rest: Vec<Pos> = b
            .candidates()
            .filter(|&p| p != game.moves[4] && !seen[1..3].contains(&p))
            .filter(|&p| b.can_play(p, me))
            .collect();
        let best_rest = rest
            .into_iter()
            .map(|p| {
                b.make_move(p);
                let e = eval::evaluate_classical(&b);
                b.undo();
                e
            })
            .min()
            .unwrap();
        assert!(
            values[0] <= values[1] && values[1] <= best_rest,
            "{values:?} {best_rest}"
        );
        // Seeded: the same draw again, another with another seed.
        assert_eq!(game_evals(&game, counts, 1).unwrap().1, texts);
        assert_ne!(game_evals(&game, counts, 2).unwrap().1, texts);
    }

    #[test]
    fn searched_children_carry_a_score_for_their_side_to_move() {
        // Black's fourth stone on row 8 would make five: that child is lost for White.
        let game = GameLine::parse("3 renju 15x15 1-0 6 h8,a1,i8,a3,j8,a5,k8,a7 10,-10").unwrap();
        let counts = Siblings {
            best: 1,
            random: 1,
            nodes: 300,
        };
        let (_, texts) = game_evals(&game, counts, 1).unwrap();
        let played: Vec<&str> = texts[0].split('/').collect();
        assert_eq!(played.len(), 3);
        let (_, score) = played[0].split_once(':').unwrap();
        // After k8 White faces an open four: lost.
        assert!(score.parse::<i32>().unwrap() <= -20_000, "{}", texts[0]);
        for sibling in &played[1..] {
            assert_eq!(sibling.split(':').count(), 3, "{sibling}");
        }
        // After White's a7 Black has an open four: won for Black, the child's side to move.
        let (_, next) = texts[1].split('/').next().unwrap().split_once(':').unwrap();
        assert!(next.parse::<i32>().unwrap() >= 20_000, "{}", texts[1]);
        // A five played: the child is lost, without a search.
        let five = GameLine::parse("4 renju 15x15 1-0 8 h8,a1,i8,a3,j8,a5,k8,a7,l8 29000").unwrap();
        let (_, texts) = game_evals(&five, counts, 1).unwrap();
        let (_, lost) = texts[0].split('/').next().unwrap().split_once(':').unwrap();
        assert_eq!(lost.parse::<i32>().unwrap(), -MATE_BOUND);
    }
}
