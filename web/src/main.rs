//! pentad-web: serves the web board on 127.0.0.1 and prints its address.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Parser;
use pentad_arena::EngineSpec;
use pentad_web::levels::{DEFAULT_MAX_ENGINES, DEFAULT_PORT};
use pentad_web::server::{serve, App};

/// A local web board: play Pentad (or any Gomocup engine) in the browser, and view
/// pentad-arena results.
#[derive(Parser, Debug)]
#[command(name = "pentad-web", version)]
struct Opts {
    /// Address to listen on; 127.0.0.1 keeps the board private to this computer (use
    /// 0.0.0.0 to expose it on purpose).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The engine command line (`[name=NAME] PROGRAM [ARGS...]`), the same for every tab;
    /// default: the pbrain-pentad next to this program.
    #[arg(long)]
    engine: Option<String>,
    /// Most engines (tabs) running at once.
    #[arg(long, default_value_t = DEFAULT_MAX_ENGINES)]
    max_engines: usize,
}

/// The pbrain-pentad built with this program (in the same directory).
fn default_engine() -> Result<EngineSpec> {
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    let name = format!("pbrain-pentad{}", std::env::consts::EXE_SUFFIX);
    let program: PathBuf = exe.with_file_name(name);
    if !program.exists() {
        eprintln!(
            "pentad-web: warning: {} is missing (build the workspace, or pass --engine)",
            program.display()
        );
    }
    Ok(EngineSpec {
        program: program.to_string_lossy().into_owned(),
        ..Default::default()
    })
}

#[tokio::main]
async fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let opts = Opts::parse();
    if opts.max_engines == 0 {
        bail!("--max-engines must be at least 1");
    }
    let spec = match &opts.engine {
        Some(cmd) => EngineSpec::parse(cmd).map_err(anyhow::Error::msg)?,
        None => default_engine()?,
    };
    let listener = tokio::net::TcpListener::bind((opts.host.as_str(), opts.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", opts.host, opts.port))?;
    let addr = listener.local_addr()?;
    println!("pentad-web: open http://{addr}/ (engine: {})", spec.program);
    std::io::stdout().flush()?;
    serve(listener, App::new(spec, opts.max_engines)).await?;
    Ok(())
}
