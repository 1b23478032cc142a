//! The arena against the real engine `pbrain-pentad`: games against the scripted test
//! engine and self-play must all end normally (five, foul or draw; never illegal, time or
//! crash). Needs the protocol layer of `pbrain-pentad` (a stub exits at once and fails here), built
//! in the same target directory and profile as this test.

use pentad::core::Rule;
use pentad_arena::{run_match, EngineSpec, GameConfig, MatchConfig, Opening, Reason, TimeControl};

const TE: &str = env!("CARGO_BIN_EXE_pentad-test-engine");

/// The engine binary of the same build: `pbrain-pentad` belongs to the root package, so
/// Cargo gives this crate no `CARGO_BIN_EXE_` for it; it sits beside the test engine.
fn pentad_program() -> String {
    let te = std::path::Path::new(TE);
    let name = format!("pbrain-pentad{}", std::env::consts::EXE_SUFFIX);
    let path = te.with_file_name(name);
    assert!(
        path.exists(),
        "{} is missing: build the workspace (`cargo test --release` at the root builds it)",
        path.display()
    );
    path.to_string_lossy().into_owned()
}

fn pentad(name: Option<&str>) -> EngineSpec {
    EngineSpec {
        name: name.map(str::to_string),
        threads: None,
        infos: Vec::new(),
        program: pentad_program(),
        args: vec![],
    }
}

fn config(engines: Vec<EngineSpec>, games: usize, rule: Rule) -> MatchConfig {
    MatchConfig {
        engines,
        game: GameConfig {
            rule,
            tc: TimeControl {
                match_ms: 0,
                turn_ms: 100,
            },
            tolerance_ms: 1000,
            draw_after: Some(120),
            max_memory: 64 * 1024 * 1024,
            ..GameConfig::default()
        },
        games,
        openings: pentad_arena::openings::parse_openings(
            "0,0, 0,-1, -2,-2\n0,0, 1,-1, 2,-2\n0,0, 0,-1, -1,1\n",
        )
        .unwrap(),
        repeat: true,
        seed: Some(1),
        report_games: false,
        ..MatchConfig::default()
    }
}

#[test]
fn real_engine_against_test_engine() {
    let cfg = config(
        vec![
            pentad(None),
            EngineSpec {
                name: None,
                threads: None,
                infos: Vec::new(),
                program: TE.to_string(),
                args: vec!["--mode".into(), "sane".into()],
            },
        ],
        2,
        Rule::FREESTYLE,
    );
    let mut out = Vec::new();
    let sum = run_match(&cfg, &mut out).unwrap();
    // The name comes from pbrain-pentad's ABOUT.
    assert_eq!(sum.names[0], "Pentad");
    for r in &sum.records {
        assert!(!r.reason.is_abnormal(), "{r:?}");
        assert_ne!(r.reason, Reason::Foul);
    }
    assert_eq!(sum.records.len(), 2, "{}", String::from_utf8_lossy(&out));
}

#[test]
fn real_engine_self_play_renju() {
    let mut cfg = config(vec![pentad(None), pentad(None)], 4, Rule::RENJU);
    cfg.concurrency = 2;
    cfg.openings = vec![Opening::parse("h8h7f6").unwrap()];
    let mut out = Vec::new();
    let sum = run_match(&cfg, &mut out).unwrap();
    assert_eq!(sum.names, vec!["Pentad", "Pentad-2"]);
    assert_eq!(sum.records.len(), 4);
    for r in &sum.records {
        assert!(!r.reason.is_abnormal(), "{r:?}");
        // Pentad must never play a renju foul itself.
        assert_ne!(r.reason, Reason::Foul, "{r:?}");
    }
}
