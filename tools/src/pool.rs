//! `pentad-tools pool`: one engine's result over several pentad-arena `--results` files
//! (the runs of one comparison, or of several sittings), each file and all of them pooled:
//! wins, losses, draws, the pentanomial counts of its opening pairs and the Elo estimate
//! with its 95 % interval, the mean answer time of both sides, and every game that ended
//! by time, crash, illegal move or foul.

use std::collections::HashMap;

use anyhow::{bail, Result};
use pentad_arena::stats::{
    elo_pentanomial, elo_trinomial, pentanomial_index, EloEstimate, Pentanomial,
};
use pentad_arena::{read_results, GameRecord, Reason, Wld};

/// Options of `pentad-tools pool`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The pentad-arena JSON-lines records, one per run.
    #[arg(required = true)]
    pub results: Vec<String>,
    /// The engine whose result is reported (default: Black of the first file's first game,
    /// the first engine of an arena match).
    #[arg(long)]
    pub engine: Option<String>,
}

/// One engine's result over a set of games.
#[derive(Clone, Debug, Default, PartialEq)]
struct Tally {
    wld: Wld,
    /// Complete opening pairs (both colours of one opening) by the engine's pair score.
    penta: Pentanomial,
    /// Games of the engine that no other game of its file pairs with.
    unpaired: u32,
    /// Answer time (ms) and answers of the engine, then of its opponents.
    own_ms: (u64, u64),
    other_ms: (u64, u64),
    /// The games that ended by time, crash, illegal move or foul, described.
    abnormal: Vec<String>,
}

impl Tally {
    /// Counts the games of one file that `engine` played.
    fn add_file(&mut self, name: &str, records: &[GameRecord], engine: &str) {
        // With `--repeat` the arena plays an opening's two games as numbers 2k + 1 and 2k + 2.
        let mut halves: HashMap<usize, (&GameRecord, f64)> = HashMap::new();
        for g in records {
            let Some(score) = engine_score(g, engine) else {
                continue;
            };
            self.wld.add(score);
            self.add_times(g, engine);
            if g.reason.is_abnormal() || g.reason == Reason::Foul {
                self.abnormal.push(format!(
                    "{name} game {}: {} ({} vs {}) {}",
                    g.game,
                    g.reason.name(),
                    g.black,
                    g.white,
                    g.detail
                ));
            }
            let key = (g.game.max(1) - 1) / 2;
            match halves.remove(&key) {
                Some((other, other_score)) if pairs_with(other, g) => {
                    self.penta[pentanomial_index(other_score + score)] += 1;
                }
                Some(_) => {
                    self.unpaired += 1;
                    halves.insert(key, (g, score));
                }
                None => {
                    halves.insert(key, (g, score));
                }
            }
        }
        self.unpaired += halves.len() as u32;
    }

    /// Adds the answer times of game `g`, the engine's and its opponent's apart.
    fn add_times(&mut self, g: &GameRecord, engine: &str) {
        for (i, &t) in g.times_ms.iter().enumerate() {
            let black_moved = (g.opening_plies + i).is_multiple_of(2);
            let mover = if black_moved { &g.black } else { &g.white };
            let side = if mover == engine {
                &mut self.own_ms
            } else {
                &mut self.other_ms
            };
            side.0 += t;
            side.1 += 1;
        }
    }

    /// Adds another tally (pooling).
    fn absorb(&mut self, other: &Tally) {
        self.wld.wins += other.wld.wins;
        self.wld.losses += other.wld.losses;
        self.wld.draws += other.wld.draws;
        for (a, b) in self.penta.iter_mut().zip(other.penta) {
            *a += b;
        }
        self.unpaired += other.unpaired;
        self.own_ms.0 += other.own_ms.0;
        self.own_ms.1 += other.own_ms.1;
        self.other_ms.0 += other.other_ms.0;
        self.other_ms.1 += other.other_ms.1;
        self.abnormal.extend(other.abnormal.iter().cloned());
    }

    /// The Elo estimate: by opening pairs when most games are in one (a stopped run's last
    /// unpaired games are left out of it), else game by game.
    fn elo(&self) -> Option<(EloEstimate, &'static str)> {
        let paired_games = 2 * self.penta.iter().sum::<u32>();
        if paired_games > 0 && paired_games >= self.unpaired {
            elo_pentanomial(&self.penta, &self.wld).map(|e| (e, "pentanomial"))
        } else {
            elo_trinomial(&self.wld).map(|e| (e, "trinomial"))
        }
    }

    /// `label: W-L-D (score), Elo [lo, hi] (model), pairs a-b-c-d-e, ms a move x against y`.
    fn line(&self, label: &str) -> String {
        let mut line = format!(
            "{label}: {} games, {}-{}-{} ({:.1} %)",
            self.wld.games(),
            self.wld.wins,
            self.wld.losses,
            self.wld.draws,
            100.0 * self.wld.score()
        );
        if let Some((e, model)) = self.elo() {
            line += &format!(
                ", {} [{}, {}] ({model})",
                signed(e.elo),
                signed(e.lo),
                signed(e.hi)
            );
        }
        let p = self.penta;
        if p.iter().sum::<u32>() > 0 {
            line += &format!(", pairs {}-{}-{}-{}-{}", p[0], p[1], p[2], p[3], p[4]);
        }
        if self.unpaired > 0 {
            line += &format!(", unpaired games {}", self.unpaired);
        }
        line += &format!(
            ", ms a move {} against {}",
            mean_ms(self.own_ms),
            mean_ms(self.other_ms)
        );
        line
    }
}

/// The engine's score in game `g` (1, 0.5, 0), `None` when it did not play it.
fn engine_score(g: &GameRecord, engine: &str) -> Option<f64> {
    let black = g.black_score()?;
    if g.black == engine {
        Some(black)
    } else if g.white == engine {
        Some(1.0 - black)
    } else {
        None
    }
}

/// Whether two games are one opening played with the colours swapped.
fn pairs_with(a: &GameRecord, b: &GameRecord) -> bool {
    a.opening == b.opening && a.black == b.white && a.white == b.black
}

/// An Elo figure with its sign, one decimal; `inf` where the score is 0 or 1.
fn signed(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.1}")
    } else if elo > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// Mean of (total ms, answers), rounded; `-` without answers.
fn mean_ms((total, n): (u64, u64)) -> String {
    if n == 0 {
        "-".to_string()
    } else {
        format!("{:.0}", total as f64 / n as f64)
    }
}

/// The report's lines: one per file, the pooled line when there are several, then the
/// abnormal games.
fn report(files: &[(String, Vec<GameRecord>)], engine: &str) -> Result<Vec<String>> {
    let mut lines = vec![format!("{engine} against its opponents:")];
    let mut pooled = Tally::default();
    for (name, records) in files {
        let mut tally = Tally::default();
        tally.add_file(name, records, engine);
        if tally.wld.games() == 0 {
            bail!("{name}: no game of `{engine}`");
        }
        lines.push(tally.line(name));
        pooled.absorb(&tally);
    }
    if files.len() > 1 {
        lines.push(pooled.line("pooled"));
    }
    if pooled.abnormal.is_empty() {
        lines.push("none lost on time, by a crash, by an illegal move or by a foul".to_string());
    } else {
        lines.push(format!(
            "{} games ended by time, crash, illegal move or foul:",
            pooled.abnormal.len()
        ));
        lines.extend(pooled.abnormal.iter().map(|a| format!("  {a}")));
    }
    Ok(lines)
}

/// Runs `pentad-tools pool`.
pub fn run(args: &Args) -> Result<()> {
    let mut files = Vec::new();
    for path in &args.results {
        files.push((path.clone(), read_results(path)?));
    }
    let engine = match &args.engine {
        Some(e) => e.clone(),
        None => match files.first().and_then(|(_, r)| r.first()) {
            Some(g) => g.black.clone(),
            None => bail!("{}: no games", args.results[0]),
        },
    };
    for line in report(&files, &engine)? {
        println!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game record of `black` against `white` from `opening`, with its result and ending.
    fn game(n: usize, black: &str, white: &str, opening: &str, result: &str) -> GameRecord {
        let reason = if result == "1/2-1/2" { "draw" } else { "five" };
        let line = format!(
            r#"{{"game":{n},"black":"{black}","white":"{white}","rule":"renju","width":15,"height":15,"opening":"{opening}","moves":[],"opening_plies":3,"result":"{result}","reason":"{reason}","detail":"","plies":9,"times_ms":[100,300,100,300,100,300]}}"#
        );
        GameRecord::from_json_line(&line).expect("a valid record")
    }

    #[test]
    fn pairs_are_counted_by_opening_and_pooled_across_files() {
        // new wins both games of h8i9j10, wins one of h8h9h10 (1.5), loses both of k10.
        let a = vec![
            game(1, "new", "base", "h8i9j10", "1-0"),
            game(2, "base", "new", "h8i9j10", "0-1"),
            game(3, "new", "base", "h8h9h10", "1-0"),
            game(4, "base", "new", "h8h9h10", "1/2-1/2"),
        ];
        let b = vec![
            game(2, "base", "new", "k10k11k12", "1-0"),
            game(1, "new", "base", "k10k11k12", "0-1"),
        ];
        let mut ta = Tally::default();
        ta.add_file("a", &a, "new");
        assert_eq!((ta.wld.wins, ta.wld.losses, ta.wld.draws), (3, 0, 1));
        assert_eq!(ta.penta, [0, 0, 0, 1, 1]);
        assert_eq!(ta.unpaired, 0);
        let mut tb = Tally::default();
        tb.add_file("b", &b, "new");
        assert_eq!(tb.penta, [1, 0, 0, 0, 0]);
        let mut pooled = ta.clone();
        pooled.absorb(&tb);
        assert_eq!(pooled.penta, [1, 0, 0, 1, 1]);
        assert_eq!(pooled.wld.games(), 6);
        // Black answered at plies 3, 5, 7 (100 ms), White at 4, 6, 8 (300 ms).
        assert_eq!(mean_ms(ta.own_ms), "200");
        let (e, model) = pooled.elo().expect("an estimate");
        assert_eq!(model, "pentanomial");
        assert!(e.lo < e.elo && e.elo < e.hi);
    }

    #[test]
    fn games_that_are_not_an_opening_pair_fall_back_to_single_games() {
        let records = vec![
            game(1, "new", "base", "h8i9j10", "1-0"),
            game(2, "base", "new", "h8h9h10", "1-0"),
            game(3, "new", "other", "h8i9j10", "1-0"),
        ];
        let mut t = Tally::default();
        t.add_file("x", &records, "new");
        assert_eq!(t.penta, [0; 5]);
        assert_eq!(t.unpaired, 3);
        assert_eq!(t.elo().map(|(_, m)| m), Some("trinomial"));
        // A stopped run: two complete pairs and one game of a third opening.
        let stopped = vec![
            game(1, "new", "base", "h8i9j10", "1-0"),
            game(2, "base", "new", "h8i9j10", "0-1"),
            game(3, "new", "base", "h8h9h10", "1-0"),
            game(4, "base", "new", "h8h9h10", "0-1"),
            game(5, "new", "base", "k10k11k12", "1-0"),
        ];
        let mut t = Tally::default();
        t.add_file("s", &stopped, "new");
        assert_eq!((t.penta, t.unpaired), ([0, 0, 0, 0, 2], 1));
        assert_eq!(t.elo().map(|(_, m)| m), Some("pentanomial"));
    }

    #[test]
    fn a_file_without_the_engine_is_an_error_and_abnormal_games_are_listed() {
        let files = vec![("x".to_string(), vec![game(1, "a", "b", "h8", "1-0")])];
        assert!(report(&files, "new").is_err());
        let mut timed = game(1, "new", "base", "h8", "0-1");
        timed.reason = Reason::Time;
        timed.detail = "Black lost on time".to_string();
        let files = vec![("x".to_string(), vec![timed])];
        let lines = report(&files, "new").expect("a report");
        assert!(lines
            .iter()
            .any(|l| l.contains("x game 1: time (new vs base)")));
    }
}
