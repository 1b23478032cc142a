//! pbrain-pentad: the engine executable (Gomocup protocol on stdin/stdout; `bench` subcommand).

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    eprintln!("pbrain-pentad: protocol loop not built yet");
}
