//! pbrain-pentad: the engine executable (Gomocup protocol on stdin/stdout; `bench` and
//! `tunables` subcommands).

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    // First of all: anything else may already use the build's instruction set.
    if let Err(refusal) = check_processor() {
        return refusal;
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(|s| s.as_str()) {
        Some("bench") => {
            let mut out = std::io::stdout();
            match pentad::search::bench::run(&mut out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("bench failed: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("tunables") => {
            print_tunables();
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            println!(
                "pbrain-pentad {} {}",
                env!("CARGO_PKG_VERSION"),
                pentad::core::cpu::build_level()
            );
            ExitCode::SUCCESS
        }
        Some("--help" | "-h") => {
            eprintln!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            // Managers add options of their own (Yixin-Board on Windows starts its engine
            // as `engine.exe --force-utf8`): note them and play anyway.
            for other in &args {
                eprintln!("pbrain-pentad: ignoring unknown argument {other:?} (see --help)");
            }
            let stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
            let stdout = std::io::stdout();
            pentad::protocol::run(stdin, stdout.lock());
            let _ = std::io::stdout().flush();
            // Exit at once, also while a search thread is still running.
            std::process::exit(0);
        }
    }
}

/// An x86-64-v3 build started on a processor without AVX2 (or another extension it was
/// compiled with) would crash on its first such instruction: it says so instead, on stdout as
/// a protocol `ERROR` line (a manager shows it) and on stderr, and exits. Fixed text only, so
/// that the refusal itself needs no formatting code built for the missing extensions.
fn check_processor() -> Result<(), ExitCode> {
    if pentad::core::cpu::runs_here() {
        return Ok(());
    }
    const WHY: &str = "this pbrain-pentad is the x86-64-v3 (AVX2) build and this processor \
                       lacks AVX2 or another extension it needs: use the generic x86-64 build\n";
    let _ = std::io::stdout().write_all(b"ERROR ");
    let _ = std::io::stdout().write_all(WHY.as_bytes());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(WHY.as_bytes());
    Err(ExitCode::FAILURE)
}

/// What `--help` prints.
const USAGE: &str = "usage: pbrain-pentad          (Gomocup protocol on stdin/stdout; other \
                     arguments are ignored)\n       \
                     pbrain-pentad bench    (deterministic speed test)\n       \
                     pbrain-pentad tunables (the search's tunables, as an SPSA tuner reads them)";

/// Prints one line per search tunable in the format an SPSA tuner reads (`name, int, default,
/// min, max, step, r_end`); a note on stderr when this build cannot set them.
fn print_tunables() {
    for t in pentad::search::tunables() {
        println!("{}", t.spsa_line());
    }
    if !pentad::search::TUNING {
        eprintln!(
            "note: this build cannot set tunables (INFO tune_<name>); build with --features tune"
        );
    }
}
