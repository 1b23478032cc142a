//! pentad-arena: plays Gomocup engines against each other from the command line.
//!
//! Per-game lines and the summary go to stdout, the progress bar and logs to stderr.
//! Exit status: 0 when the match ran, 1 on a setup error (bad arguments, unstartable engine).

use clap::Parser;
use pentad_arena::cli::{run, Args};

fn main() {
    let args = Args::parse();
    let level = if args.debug { "debug" } else { "warn" };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .target(env_logger::Target::Stderr)
        .init();
    if let Err(e) = run(&args) {
        eprintln!("pentad-arena: error: {e:#}");
        std::process::exit(1);
    }
}
