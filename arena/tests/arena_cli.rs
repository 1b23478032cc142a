//! End-to-end tests of the `pentad-arena` binary: output format, records, SPRT early stop,
//! and errors for bad arguments.

use std::process::Command;

use tempfile::TempDir;

const ARENA: &str = env!("CARGO_BIN_EXE_pentad-arena");
const TE: &str = env!("CARGO_BIN_EXE_pentad-test-engine");

/// A fresh folder for one test's files, removed when the test ends.
fn scratch_dir() -> TempDir {
    tempfile::Builder::new()
        .prefix("pentad-arena-cli-")
        .tempdir()
        .unwrap()
}

fn arena(args: &[String]) -> (i32, String, String) {
    let out = Command::new(ARENA).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn quick_match_output_and_records() {
    let dir = scratch_dir();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "0,0, 0,-1, -2,-2\nh8i9j10\n").unwrap();
    let sgf = dir.path().join("cli.sgf");
    let json = dir.path().join("cli.jsonl");
    let mut args = s(&[
        "--engine",
        &format!("name=Alpha \"{TE}\" --mode sane --seed 1"),
        "--engine",
        &format!("\"{TE}\" --mode sane --seed 2 --name Beta"),
        "--tc",
        "0/0.5",
        "--games",
        "4",
        "--repeat",
        "--concurrency",
        "2",
        "--seed",
        "3",
        "--rule",
        "standard",
        "--size",
        "15",
    ]);
    args.extend(s(&["--openings", openings.to_str().unwrap()]));
    args.extend(s(&["--sgf", sgf.to_str().unwrap()]));
    args.extend(s(&["--results", json.to_str().unwrap()]));
    let (code, out, err) = arena(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    let finished: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(finished.len(), 4, "{out}");
    for l in &finished {
        // Finished game N (A vs B): R {text}
        let (head, rest) = l.split_once("): ").unwrap();
        assert!(
            head.contains(" (Alpha vs Beta") || head.contains(" (Beta vs Alpha"),
            "{l}"
        );
        let (res, text) = rest.split_once(' ').unwrap();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&res), "{l}");
        assert!(text.starts_with('{') && text.ends_with('}'), "{l}");
    }
    let score = out
        .lines()
        .find(|l| l.starts_with("Score of Alpha vs Beta: "))
        .unwrap_or_else(|| panic!("{out}"));
    let nums: Vec<&str> = score["Score of Alpha vs Beta: ".len()..]
        .split(' ')
        .collect();
    // W - L - D [x.xxx] N
    let (w, l, d): (u32, u32, u32) = (
        nums[0].parse().unwrap(),
        nums[2].parse().unwrap(),
        nums[4].parse().unwrap(),
    );
    assert_eq!(w + l + d, 4);
    assert_eq!(nums[6], "4");
    let frac: f64 = nums[5].trim_matches(['[', ']']).parse().unwrap();
    assert!((frac - (w as f64 + d as f64 / 2.0) / 4.0).abs() < 1e-3);
    assert!(out.contains("Elo difference: "), "{out}");
    assert!(out.contains("Ptnml(0-2): ["), "{out}");
    // Records: 4 JSON lines and 4 SGF trees.
    let j = std::fs::read_to_string(&json).unwrap();
    assert_eq!(j.lines().count(), 4);
    for line in j.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["rule"], "standard");
        assert!(v["moves"].as_array().unwrap().len() == v["plies"].as_u64().unwrap() as usize);
    }
    let sg = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(sg.matches("(;FF[4]GM[4]").count(), 4);
}

#[test]
fn sprt_stops_early() {
    let args = s(&[
        "-e",
        &format!("name=good {TE} --mode sane"),
        "-e",
        &format!("name=bad {TE} --mode crash --after 1"),
        "--tc",
        "0/1",
        "--sprt",
        "0,50",
        "--games",
        "500",
        "--no-progress",
        "--quiet",
    ]);
    let (code, out, err) = arena(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("SPRT decided: stopping early"), "{out}");
    assert!(out.contains("H1 was accepted"), "{out}");
    assert!(!out.contains("Finished game"), "--quiet: {out}");
    let score = out
        .lines()
        .find(|l| l.starts_with("Score of good vs bad: "))
        .unwrap();
    let n: u32 = score.rsplit(' ').next().unwrap().parse().unwrap();
    // No decision before 10 games; all wins decide soon after.
    assert!((10..100).contains(&n), "{score}");
    assert!(score.starts_with(&format!("Score of good vs bad: {n} - 0 - 0 [1.000]")));
}

#[test]
fn bad_arguments_fail_cleanly() {
    let (code, _, err) = arena(&s(&["-e", TE, "-e", TE, "--rule", "chess"]));
    assert_eq!(code, 1);
    assert!(err.contains("unknown rule"), "{err}");
    let (code, _, err) = arena(&s(&["-e", TE, "-e", "/nonexistent/pbrain-x"]));
    assert_eq!(code, 1);
    assert!(err.contains("cannot start"), "{err}");
    let (code, _, err) = arena(&s(&["-e", TE]));
    assert_eq!(code, 1);
    assert!(err.contains("at least two engines"), "{err}");
    let (code, _, err) = arena(&s(&["-e", TE, "-e", TE, "--sprt", "5,1"]));
    assert_eq!(code, 1);
    assert!(err.contains("ELO0 < ELO1"), "{err}");
    let dir = scratch_dir();
    let bad = dir.path().join("bad-openings.txt");
    std::fs::write(&bad, "0,0, 0,0\n").unwrap();
    let (code, _, err) = arena(&s(&[
        "-e",
        TE,
        "-e",
        TE,
        "--openings",
        bad.to_str().unwrap(),
    ]));
    assert_eq!(code, 1);
    assert!(err.contains("placed twice"), "{err}");
    // clap itself rejects a missing --engine.
    let (code, _, _) = arena(&[]);
    assert_ne!(code, 0);
}
