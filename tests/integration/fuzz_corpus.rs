//! The fuzz targets' corpus (`fuzz/corpus/<target>/`, minimised by cargo-fuzz) replayed
//! through the same check functions on the stable compiler: every input that once reached new
//! coverage, and every input that once failed (`fuzz/regressions/<target>/`), must pass.

#[path = "../../fuzz/src/lib.rs"]
mod targets;

use std::path::{Path, PathBuf};

/// Feeds every file of `fuzz/<dir>/<target>/` to `check`; returns how many there were.
fn replay(dir: &str, target: &str, check: fn(&[u8])) -> usize {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(dir)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return 0;
    };
    let mut files: Vec<_> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    files.sort();
    for f in &files {
        let data = std::fs::read(f).expect("readable corpus file");
        let run = std::panic::catch_unwind(|| check(&data));
        assert!(run.is_ok(), "{} failed", f.display());
    }
    files.len()
}

#[test]
fn parser_corpus() {
    assert!(
        replay("corpus", "parser", targets::parser) > 0,
        "empty corpus"
    );
    replay("regressions", "parser", targets::parser);
}

/// The test process's working folder moved into a scratch folder of its own while this is
/// held: session inputs may open the default database file (`INFO usedatabase 1`), which must
/// not land in the source tree. Dropping it moves back, then removes the folder.
struct ScratchCwd {
    previous: PathBuf,
    _dir: tempfile::TempDir,
}

impl ScratchCwd {
    fn enter() -> ScratchCwd {
        let dir = tempfile::Builder::new()
            .prefix("pentad-fuzz-corpus-")
            .tempdir()
            .expect("scratch folder");
        let previous = std::env::current_dir().expect("a working folder");
        std::env::set_current_dir(dir.path()).expect("scratch folder is enterable");
        ScratchCwd {
            previous,
            _dir: dir,
        }
    }
}

impl Drop for ScratchCwd {
    fn drop(&mut self) {
        // Before `_dir` goes: the process must not be left in a removed folder.
        let _ = std::env::set_current_dir(&self.previous);
    }
}

#[test]
fn session_corpus() {
    let _cwd = ScratchCwd::enter();
    assert!(
        replay("corpus", "session", targets::session) > 0,
        "empty corpus"
    );
    replay("regressions", "session", targets::session);
}

#[test]
fn board_corpus() {
    assert!(
        replay("corpus", "board", targets::board) > 0,
        "empty corpus"
    );
    replay("regressions", "board", targets::board);
}
