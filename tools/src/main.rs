//! pentad-tools: the generators, tuners and measurement tools around the engine, one
//! subcommand each (`pentad-tools --help` lists them). Each subcommand is a module with an
//! `Args` (its options) and a `run`; a new one is a new module, one line in [`Command`], and
//! a smoke test in `tools/tests/subcommands.rs`.

mod agree;
mod analyse;
mod board_speed;
mod cuts;
mod eval_tune;
mod fit;
mod games_file;
mod label;
mod leaves;
mod openings;
mod parallel;
mod pool;
mod positions;
mod progress;
mod prove;
mod records;
mod rescore;
mod selfplay;
mod spsa;
mod static_eval;
mod tactics;
mod timing;
mod train_eval;
mod tune;
mod vct;

use clap::{Parser, Subcommand};

/// Generators, tuners and measurement tools around the Pentad engine.
#[derive(Parser, Debug)]
#[command(name = "pentad-tools", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Generate the tactical suite tests/data/tactics.txt (to stdout).
    Tactics(tactics::Args),
    /// Generate the balanced opening files of tests/data/openings/ (to stdout).
    Openings(openings::Args),
    /// Fit the evaluation weights to recorded game results (Texel method).
    EvalTune(eval_tune::Args),
    /// Positions cut from recorded games at random plies, as an openings file (for a
    /// stronger engine to play on, labelling them for `eval-tune`).
    Cuts(cuts::Args),
    /// Play training games in this process (resumable), with search scores.
    Selfplay(selfplay::Args),
    /// Join the games files of a sharded selfplay run into one.
    MergeGames(games_file::MergeArgs),
    /// Turn recorded games into training positions with search scores.
    Label(label::Args),
    /// Fit the learned evaluation tables to training positions or self-play games.
    #[command(alias = "train-eval")]
    Train(train_eval::Args),
    /// The classical evaluation of every searched position of a games file (the base of a
    /// residual network).
    StaticEval(static_eval::Args),
    /// Training positions where a search evaluates: sampled leaves of searches from a games
    /// file's positions, each scored by a search of its own.
    Leaves(leaves::Args),
    /// The searched positions of a games file scored again by searches of another size (a
    /// deeper held-out set that judges networks trained on different labels).
    Rescore(rescore::Args),
    /// How often Pentad's move is a reference engine's move, on positions of a games file
    /// (the reference's moves are kept in a file, which is also training data).
    Agree(agree::Args),
    /// Tune the search's tunables by SPSA through arena games (a `--features tune` build).
    Spsa(spsa::Args),
    /// Run the threat solvers on positions known to be won by threats.
    Prove(prove::Args),
    /// Search a position and the replies to some candidate moves.
    Analyse(analyse::Args),
    /// Measure the incremental board's move/undo speed.
    BoardSpeed(board_speed::Args),
    /// Self-play in the arena, then forfeits on time and the slowest answers.
    TimeHarness(timing::time_harness::Args),
    /// Summarise the answer times of a pentad-arena --results file.
    TimeReport(timing::report::Args),
    /// One engine's result over several pentad-arena --results files, each and pooled:
    /// W-L-D, opening pairs, Elo with its 95 % interval, answer times, abnormal endings.
    Pool(pool::Args),
    /// Peak resident memory under INFO max_memory limits, and START latency (Linux).
    PeakMemory(timing::peak_memory::Args),
    /// Matches under CPU load with c-gomoku-cli's clock rules: forfeits, answer time minus
    /// limit, clock reserve at game end, memory per game.
    Stress(timing::stress::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Tactics(a) => tactics::run(a),
        Command::Openings(a) => openings::run(a),
        Command::EvalTune(a) => eval_tune::run(a),
        Command::Cuts(a) => cuts::run(a),
        Command::Selfplay(a) => selfplay::run(a),
        Command::MergeGames(a) => games_file::merge(a),
        Command::Label(a) => label::run(a),
        Command::Train(a) => train_eval::run(a),
        Command::StaticEval(a) => static_eval::run(a),
        Command::Leaves(a) => leaves::run(a),
        Command::Rescore(a) => rescore::run(a),
        Command::Agree(a) => agree::run(a),
        Command::Spsa(a) => spsa::run(a),
        Command::Prove(a) => prove::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::BoardSpeed(a) => board_speed::run(a),
        Command::TimeHarness(a) => timing::time_harness::run(a),
        Command::TimeReport(a) => timing::report::run(a),
        Command::Pool(a) => pool::run(a),
        Command::PeakMemory(a) => timing::peak_memory::run(a),
        Command::Stress(a) => timing::stress::run(a),
    };
    if let Err(e) = result {
        eprintln!("pentad-tools: error: {e:#}");
        std::process::exit(1);
    }
}
