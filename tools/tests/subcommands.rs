//! Smoke tests of the `pentad-tools` subcommands: each one runs the built binary on a tiny
//! input (a few games, a few hundred nodes) and checks that it succeeds and writes what it
//! should. Not run here, being far from cheap: `openings` (it searches hundreds of candidate
//! openings for any count; its unit test checks the committed files) and the subcommands
//! that play timed matches with engine processes (`time-harness`, `stress`, `peak-memory`,
//! `spsa`: minutes); `time-report`, which summarises their results files, is.

use std::path::{Path, PathBuf};
use std::process::Command;

use pentad::board::Board;
use pentad::core::{Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tempfile::TempDir;

const TOOLS: &str = env!("CARGO_BIN_EXE_pentad-tools");

/// A fresh scratch directory for one test, removed when the test ends (the binaries it runs
/// have exited by then: `Command::output` waits for them).
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("pentad-tools-{name}-"))
        .tempdir()
        .unwrap()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `pentad-tools args...`; panics with its stderr unless it succeeds. Returns stdout.
fn tools(args: &[&str]) -> String {
    let out = Command::new(TOOLS).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "pentad-tools {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `pentad-tools args... --out FILE --threads T` with T = 1 and T = 2, checks that both
/// write the same file, and returns it.
fn output_on_one_and_two_threads(dir: &Path, args: &[&str]) -> String {
    let outputs: Vec<String> = ["1", "2"]
        .iter()
        .map(|threads| {
            let out = dir.join(format!("{}-{threads}.out", args[0]));
            let mut full = args.to_vec();
            full.extend(["--out", path(&out), "--threads", threads]);
            tools(&full);
            std::fs::read_to_string(out).unwrap()
        })
        .collect();
    assert_eq!(
        outputs[0], outputs[1],
        "{args:?}: the thread count changed the output"
    );
    outputs[0].clone()
}

/// A pentad-arena `--results` line: a renju game Black wins by a five on row 8.
const RESULT_LINE: &str = r#"{"game":1,"black":"a","white":"b","rule":"renju","width":15,"height":15,"opening":"h8h7","moves":["h8","h7","i8","i7","j8","j7","k8","k7","l8"],"opening_plies":2,"result":"1-0","reason":"five","detail":"Black wins by five","plies":9,"times_ms":[10,12,9,11,10,13,8]}"#;

/// A `pentad-tools selfplay` games file of `games` random games per rule (renju and
/// freestyle), each up to 60 plies and ended before a five, with made-up scores: enough
/// positions for the fitters' 1000-position minimum.
fn random_games_file(dir: &Path, games: usize) -> PathBuf {
    let mut rng = StdRng::seed_from_u64(7);
    let mut text = String::new();
    for (k, rule) in [Rule::RENJU, Rule::FREESTYLE].into_iter().enumerate() {
        for g in 0..games {
            let mut b = Board::new(15, 15, rule).unwrap();
            b.make_move(Pos::new(7, 7));
            let mut moves = vec![Pos::new(7, 7)];
            while moves.len() < 60 {
                let me = b.side_to_move();
                let cands: Vec<Pos> = b.candidates().filter(|&p| b.can_play(p, me)).collect();
                if cands.is_empty() {
                    break;
                }
                let p = cands[rng.gen_range(0..cands.len())];
                b.make_move(p);
                if b.last_move_won().is_some() {
                    break;
                }
                moves.push(p);
            }
            let moves: Vec<String> = moves.iter().map(|p| p.to_human()).collect();
            let scores: Vec<String> = (1..moves.len())
                .map(|_| rng.gen_range(-300..300).to_string())
                .collect();
            let result = ["1-0", "0-1", "1/2-1/2"][g % 3];
            text.push_str(&format!(
                "{} {} 15x15 {result} 1 {} {}\n",
                k * games + g,
                rule.name(),
                moves.join(","),
                scores.join(",")
            ));
        }
    }
    let file = dir.join("games.txt");
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn tactics_prints_the_forbidden_point_cases() {
    let out = tools(&["tactics", "--part", "forbidden"]);
    assert!(out.lines().count() > 8, "{out}");
    assert!(out.lines().all(|l| l.starts_with("rule=renju;")), "{out}");
}

/// The committed lines of `tests/data/tactics.txt` that `--part chains` makes, in order.
fn committed_chain_lines() -> Vec<String> {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/tactics.txt");
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| l.contains("(constructed chain"))
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 14, "nine VCF chains and five defences");
    lines
}

#[test]
fn chain_cases_rebuild_their_committed_lines() {
    // Two of the quick cases (well under a second each): a standard and a renju chain.
    let out = tools(&["tactics", "--part", "chains", "--chain-cases", "3,7"]);
    let committed = committed_chain_lines();
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [&committed[3], &committed[7]]
    );
}

#[test]
fn chain_cases_out_of_range_or_without_chains_are_refused() {
    for args in [
        &["tactics", "--part", "chains", "--chain-cases", "14"][..],
        &["tactics", "--chain-cases", "3"][..],
    ] {
        let out = Command::new(TOOLS).args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(out.stdout.is_empty(), "{args:?} printed a line");
    }
}

#[test]
fn selfplay_writes_one_line_a_game() {
    let tmp = scratch("selfplay");
    let dir = tmp.path();
    let games = dir.join("g.txt");
    let args = [
        "selfplay",
        "--out",
        path(&games),
        "--games",
        "2",
        "--nodes",
        "200",
        "--threads",
        "1",
        "--hash-mb",
        "1",
        "--max-plies",
        "30",
    ];
    tools(&args);
    let text = std::fs::read_to_string(&games).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    // A second run finds both games played and plays none.
    tools(&args);
    assert_eq!(std::fs::read_to_string(&games).unwrap(), text);
}

#[test]
fn a_wider_random_margin_makes_more_distinct_games() {
    let tmp = scratch("margin");
    let dir = tmp.path();
    let book = dir.join("one.txt");
    std::fs::write(&book, "0,0, 0,-1, -2,-2\n").unwrap();
    let openings = format!("renju={}", path(&book));
    // Distinct move sequences among 12 games from the one opening with `margin`.
    let distinct = |margin: &str| {
        let games = dir.join(format!("m{margin}.txt"));
        tools(&[
            "selfplay",
            "--out",
            path(&games),
            "--games",
            "12",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--hash-mb",
            "1",
            "--max-plies",
            "14",
            "--rules",
            "renju",
            "--openings",
            &openings,
            "--random-share",
            "0",
            "--random-plies",
            "3",
            "--random-margin",
            margin,
        ]);
        let text = std::fs::read_to_string(&games).unwrap();
        // The 3 random plies are written as opening: 6 plies of it, no score for them.
        for line in text.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields[4], "6", "{line}");
            let moves = fields[5].split(',').count();
            let scores = match fields[6] {
                "-" => 0,
                s => s.split(',').count(),
            };
            assert_eq!(moves, 6 + scores, "{line}");
        }
        let mut lines: Vec<&str> = text.lines().map(|l| l.split(' ').nth(5).unwrap()).collect();
        lines.sort_unstable();
        lines.dedup();
        lines.len()
    };
    let (narrow, wide) = (distinct("0"), distinct("400"));
    assert!(
        wide > narrow,
        "{wide} distinct games with margin 400, {narrow} with 0"
    );
}

#[test]
fn shards_merged_equal_the_unsharded_run() {
    let tmp = scratch("shards");
    let dir = tmp.path();
    // A short selfplay run: `games` games of `seed`, shard `shard`, into `out`.
    let run = |out: &Path, games: &str, seed: &str, shard: &str| {
        let fixed = [
            "--nodes",
            "150",
            "--threads",
            "1",
            "--hash-mb",
            "1",
            "--max-plies",
            "24",
        ];
        let mut args = vec![
            "selfplay",
            "--out",
            path(out),
            "--games",
            games,
            "--seed",
            seed,
        ];
        args.extend(fixed);
        args.extend(["--shard", shard]);
        tools(&args);
    };
    let (whole, s0, s1) = (dir.join("all.txt"), dir.join("s0.txt"), dir.join("s1.txt"));
    run(&whole, "5", "3", "0/1");
    run(&s0, "5", "3", "0/2");
    run(&s1, "5", "3", "1/2");
    assert_eq!(std::fs::read_to_string(&s0).unwrap().lines().count(), 3);
    let merged = dir.join("merged.txt");
    // Inputs in any order, one of them twice (a resumed shard given again).
    tools(&[
        "merge-games",
        "--out",
        path(&merged),
        path(&s1),
        path(&s0),
        path(&s1),
    ]);
    let mut lines: Vec<String> = std::fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    lines.sort_by_key(|l| l.split(' ').next().unwrap().parse::<usize>().unwrap());
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        lines.join("\n") + "\n"
    );
    // A shard of another run (another seed) clashes on game numbers: refused.
    let other = dir.join("other.txt");
    run(&other, "2", "4", "0/1");
    let out = Command::new(TOOLS)
        .args([
            "merge-games",
            "--out",
            path(&merged),
            path(&s0),
            path(&other),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("differs between inputs"));
    let bad = Command::new(TOOLS)
        .args(["selfplay", "--out", path(&other), "--shard", "2/2"])
        .output()
        .unwrap();
    assert!(!bad.status.success(), "shard 2/2 accepted");
}

#[test]
fn label_writes_the_searched_positions_of_a_results_file() {
    let tmp = scratch("label");
    let dir = tmp.path();
    let results = dir.join("r.jsonl");
    std::fs::write(&results, format!("{RESULT_LINE}\n")).unwrap();
    let positions = dir.join("p.txt");
    tools(&[
        "label",
        "--games",
        path(&results),
        "--nodes",
        "200",
        "--out",
        path(&positions),
    ]);
    let text = std::fs::read_to_string(&positions).unwrap();
    // The seven positions after the two opening stones.
    assert_eq!(text.lines().count(), 7, "{text}");
    assert!(
        text.lines().all(|l| l.starts_with("renju 15x15 ")),
        "{text}"
    );
}

#[test]
fn time_report_summarises_a_results_file() {
    let tmp = scratch("time-report");
    let dir = tmp.path();
    let results = dir.join("r.jsonl");
    std::fs::write(&results, format!("{RESULT_LINE}\n")).unwrap();
    let out = tools(&["time-report", path(&results), "--turn-ms", "100"]);
    assert!(out.contains("slowest answer    : 13 ms"), "{out}");
    assert!(!out.contains("game clock spent"), "{out}");
    // With a 100 ms game clock: Black (a) spent 10 + 9 + 10 + 8 = 37 ms, White 36 ms.
    let out = tools(&["time-report", path(&results), "--match-ms", "100"]);
    assert!(
        out.contains("  a: mean 37.0 %, median 37.0 %, largest 37.0 %; 0+ 9"),
        "{out}"
    );
    assert!(
        out.contains("  b: mean 36.0 %, median 36.0 %, largest 36.0 %; 0+ 12"),
        "{out}"
    );
}

#[test]
fn the_fitters_run_on_a_small_games_file() {
    let tmp = scratch("fitters");
    let dir = tmp.path();
    let games = random_games_file(dir, 100);
    let tables = dir.join("tables.txt");
    tools(&[
        "train",
        "--positions",
        path(&games),
        "--out",
        path(&tables),
        "--iters",
        "2",
        "--threads",
        "1",
    ]);
    assert!(std::fs::metadata(&tables).unwrap().len() > 0);
    let out = tools(&["eval-tune", "--games", path(&games), "--steps", "2"]);
    assert!(out.contains("RENJU") && out.contains("GOMOKU"), "{out}");
}

/// `pentad-tools leaves` options for a run of a second or so on a few random games.
const SMALL_LEAVES: [&str; 10] = [
    "--nodes",
    "2000",
    "--every",
    "16",
    "--per-position",
    "2",
    "--score-nodes",
    "200",
    "--stride",
    "8",
];

#[test]
fn leaves_writes_scored_search_leaves_as_games() {
    let tmp = scratch("leaves");
    let dir = tmp.path();
    let games = random_games_file(dir, 2);
    let one = output_on_one_and_two_threads(
        dir,
        &[&["leaves", "--games", path(&games)][..], &SMALL_LEAVES].concat(),
    );
    let leaves: Vec<&str> = one.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(leaves.len() > 4, "{one}");
    assert_eq!(one.lines().count() - leaves.len(), 4, "a mark per game");
    for line in &leaves {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (opening, moves): (usize, usize) = (f[4].parse().unwrap(), f[5].split(',').count());
        assert_eq!(
            (f[3], moves, f[6].split(',').count()),
            ("1/2-1/2", opening + 1, 1),
            "{line}"
        );
    }
    // The leaves file is a games file: static-eval reads it.
    let evals = dir.join("leaves.evals");
    tools(&[
        "static-eval",
        "--games",
        path(&dir.join("leaves-1.out")),
        "--out",
        path(&evals),
    ]);
    assert_eq!(
        std::fs::read_to_string(evals).unwrap().lines().count(),
        leaves.len()
    );
}

#[test]
fn leaves_with_a_network_follow_that_networks_searches() {
    let tmp = scratch("leaves-net");
    let dir = tmp.path();
    let games = random_games_file(dir, 2);
    let net = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/net/renju-sample.pnet"
    );
    let run = |extra: &[&str], name: &str| {
        let out = dir.join(name);
        let head = ["leaves", "--games", path(&games), "--out", path(&out)];
        tools(&[&head[..], &SMALL_LEAVES, extra].concat());
        std::fs::read_to_string(out).unwrap()
    };
    let classical = run(&[], "classical.out");
    let with_net = run(&["--net", net], "net.out");
    assert!(with_net.lines().any(|l| !l.starts_with('#')), "{with_net}");
    assert_ne!(classical, with_net, "the network changed no search");
    let missing = Command::new(TOOLS)
        .args([
            "leaves",
            "--games",
            path(&games),
            "--out",
            path(&dir.join("x.out")),
        ])
        .args(["--net", path(&dir.join("no-such.pnet"))])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such.pnet"));
}

#[test]
fn static_eval_writes_a_value_per_searched_move() {
    let tmp = scratch("static-eval");
    let dir = tmp.path();
    let games = random_games_file(dir, 3);
    let out = dir.join("games.evals");
    tools(&["static-eval", "--games", path(&games), "--out", path(&out)]);
    let games_text = std::fs::read_to_string(&games).unwrap();
    let evals_text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(games_text.lines().count(), evals_text.lines().count());
    for (g, e) in games_text.lines().zip(evals_text.lines()) {
        let g: Vec<&str> = g.split_whitespace().collect();
        let e: Vec<&str> = e.split_whitespace().collect();
        assert_eq!(g[0], e[0], "game ids in order");
        let values: Vec<i32> = e[1].split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(values.len(), g[6].split(',').count(), "{e:?}");
    }
    // Siblings with searched scores: the same file on one thread and on two.
    let one = output_on_one_and_two_threads(
        dir,
        &[
            "static-eval",
            "--games",
            path(&games),
            "--best-siblings",
            "1",
            "--siblings",
            "1",
            "--sibling-nodes",
            "100",
        ],
    );
    let first = one.lines().next().unwrap();
    let children = first.split_whitespace().nth(2).unwrap();
    // `e:s/m:e:s/m:e:s` per searched position.
    let child = children.split(',').next().unwrap();
    assert_eq!(child.split('/').count(), 3, "{child}");
    assert!(
        child.split('/').skip(1).all(|c| c.split(':').count() == 3),
        "{child}"
    );
}

#[test]
fn prove_runs_both_solvers_on_a_position_file() {
    let tmp = scratch("prove");
    let dir = tmp.path();
    let file = dir.join("wins.txt");
    // The first position of tests/data/threat-wins.txt (pns proves it in under 20,000 nodes).
    std::fs::write(
        &file,
        "renju walkin 11 h8 h7 f10 i7 g7 i9 h6 f8 i8 j7 k7 j9 i6\n",
    )
    .unwrap();
    let out = tools(&["prove", path(&file), "--nodes", "20000"]);
    assert!(out.contains("pns: proved 1 of 1"), "{out}");
    assert!(out.contains("vct: proved"), "{out}");
}

#[test]
fn analyse_searches_a_position_and_replies() {
    let out = tools(&[
        "analyse",
        "--moves",
        "h8 i9 h9",
        "--replies",
        "h10 h7",
        "--nodes",
        "2000",
    ]);
    assert!(out.contains("root: best"), "{out}");
    assert_eq!(out.matches("after ").count(), 2, "{out}");
}

/// Runs `pentad-tools args...`, which must fail; returns its stderr.
fn tools_failing(args: &[&str]) -> String {
    let out = Command::new(TOOLS).args(args).output().unwrap();
    assert!(!out.status.success(), "pentad-tools {args:?} succeeded");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_tune_option_is_checked_before_anything_is_searched() {
    let unknown = tools_failing(&["analyse", "--moves", "h8", "--tune", "no_such_knob=1"]);
    assert!(unknown.contains("no such tunable"), "{unknown}");
    let malformed = tools_failing(&["analyse", "--moves", "h8", "--tune", "qvcf_depth"]);
    assert!(malformed.contains("NAME=VALUE"), "{malformed}");
    let out_of_range = tools_failing(&["analyse", "--moves", "h8", "--tune", "qvcf_depth=99"]);
    assert!(out_of_range.contains("outside"), "{out_of_range}");
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_normal_build_refuses_to_tune() {
    let err = tools_failing(&["analyse", "--moves", "h8", "--tune", "qvcf_depth=8"]);
    assert!(err.contains("--features tune"), "{err}");
}

/// In a `tune` build (CI's checked-profile step) `--tune` changes the search: a tighter
/// extension cap searches a different tree from the same position, and setting a value
/// to its default changes nothing.
#[cfg(feature = "tune")]
#[test]
fn a_tune_build_searches_with_the_values_given() {
    let run = |extra: &[&str]| {
        let mut args = vec!["analyse", "--rule", "renju", "--nodes", "20000"];
        args.extend(["--moves", "h8 i9 h9 h10 g8 i8 g9"]);
        args.extend(extra);
        tools(&args)
    };
    let default = run(&[]);
    assert_eq!(run(&["--tune", "extension_cap_pct_renju=200"]), default);
    let capped = run(&[
        "--tune",
        "extension_cap_pct_renju=50",
        "--tune",
        "qvcf_depth=2",
    ]);
    assert_ne!(capped, default, "the tunables changed nothing:\n{default}");
}

#[test]
fn board_speed_runs_a_fixed_workload() {
    let out = tools(&["board-speed", "--rounds", "1"]);
    assert!(!out.is_empty());
}

/// `pbrain-pentad`, built beside `pentad-tools` by a workspace build.
fn engine_beside_tools() -> PathBuf {
    let exe = format!("pbrain-pentad{}", std::env::consts::EXE_SUFFIX);
    let engine = Path::new(TOOLS).with_file_name(exe);
    assert!(
        engine.exists(),
        "{} is missing: build the workspace (cargo test --release at its root)",
        engine.display()
    );
    engine
}

#[test]
fn agree_compares_with_a_reference_engine_and_keeps_its_moves() {
    let tmp = scratch("agree");
    let dir = tmp.path();
    let games = random_games_file(dir, 2);
    let moves = dir.join("reference.games");
    let engine = engine_beside_tools();
    let head = [
        "agree",
        "--games",
        path(&games),
        "--moves",
        path(&moves),
        "--threads",
        "2",
    ];
    fn with<'a>(head: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [head, extra].concat()
    }
    let reference = ["--reference", path(&engine), "--reference-nodes", "1500"];
    let first = tools(&with(
        &head,
        &[&reference[..], &["--positions", "16", "--nodes", "1500"]].concat(),
    ));
    // Pentad against itself at equal nodes: the same move nearly always (the two searches'
    // tables differ in size). A board sent with its colours swapped would agree far less.
    let hits: usize = first
        .strip_prefix("agree ")
        .and_then(|s| s.split('/').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    assert!(hits >= 13 && first.contains("/16 = "), "{first}");
    let text = std::fs::read_to_string(&moves).unwrap();
    assert_eq!(text.lines().count(), 16, "{text}");
    // The moves file answers a second run without the reference, and is a games file. The
    // record has a line per position, whose two moves agree as often as the summary says.
    let record = dir.join("record.txt");
    let again = [
        "--positions",
        "16",
        "--nodes",
        "1500",
        "--record",
        path(&record),
    ];
    assert_eq!(tools(&with(&head, &again)), first);
    let record = std::fs::read_to_string(&record).unwrap();
    let same = record.lines().filter(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        f.len() == 3 && f[1] == f[2]
    });
    assert_eq!(
        (record.lines().count(), same.count()),
        (16, hits),
        "{record}"
    );
    tools(&[
        "static-eval",
        "--games",
        path(&moves),
        "--out",
        path(&dir.join("e")),
    ]);
    // A larger draw needs the reference for the positions the file lacks.
    let more = Command::new(TOOLS)
        .args(with(&head, &["--positions", "18", "--nodes", "1500"]))
        .output()
        .unwrap();
    assert!(!more.status.success());
    assert!(String::from_utf8_lossy(&more.stderr).contains("lacks 2 of the positions"));
    // --nodes 0 only extends the file.
    let only = tools(&with(
        &head,
        &[&reference[..], &["--positions", "18", "--nodes", "0"]].concat(),
    ));
    assert!(only.is_empty(), "{only}");
    assert_eq!(std::fs::read_to_string(&moves).unwrap().lines().count(), 18);
}
