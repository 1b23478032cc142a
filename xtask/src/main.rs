//! `cargo xtask`: the project's release builds, as a workspace member that cargo itself runs
//! (the cargo-xtask convention: no tool to install, nothing but Rust and cargo).
//!
//! `cargo xtask dist` builds the engine for Linux and Windows (cross-built with MinGW-w64) at
//! two instruction-set levels, the arena and the web board at the generic one, all linked
//! statically, and writes one ZIP per platform, the Gomocup ZIP and `SHA256SUMS`.

mod package;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use package::{Archive, Entry};

/// Release tasks for Pentad.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand, Debug)]
enum Task {
    /// Build the release archives, the Gomocup ZIP and SHA256SUMS.
    Dist(DistArgs),
}

#[derive(clap::Args, Debug)]
struct DistArgs {
    /// Where the archives go.
    #[arg(long, default_value = "target/dist")]
    out: PathBuf,
    /// Platforms to build (comma-separated).
    #[arg(long, value_delimiter = ',', default_values = ["linux", "windows"])]
    platforms: Vec<Platform>,
}

/// An operating system the release is built for (x86-64 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Platform {
    Linux,
    Windows,
}

impl Platform {
    fn triple(self) -> &'static str {
        match self {
            Platform::Linux => "x86_64-unknown-linux-gnu",
            Platform::Windows => "x86_64-pc-windows-gnu",
        }
    }

    fn exe(self, name: &str) -> String {
        match self {
            Platform::Linux => name.to_string(),
            Platform::Windows => format!("{name}.exe"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Platform::Linux => "linux",
            Platform::Windows => "windows",
        }
    }
}

/// An instruction-set level: the `-C target-cpu` it is compiled with and the suffix its
/// engine file carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Level {
    target_cpu: &'static str,
    suffix: &'static str,
}

/// Runs on every x86-64 processor.
const GENERIC: Level = Level {
    target_cpu: "x86-64",
    suffix: "",
};
/// AVX2, BMI2, FMA, POPCNT: every Gomocup machine, and most processors since about 2015.
const V3: Level = Level {
    target_cpu: "x86-64-v3",
    suffix: "-avx2",
};

/// The binaries of the release beside the engine (built at the generic level only: their
/// speed does not matter).
const COMPANIONS: [&str; 2] = ["pentad-arena", "pentad-web"];
const ENGINE: &str = "pbrain-pentad";
/// Gomocup's size limit for an entry's ZIP.
const GOMOCUP_MAX_BYTES: u64 = 8 * 1024 * 1024;
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn main() -> Result<()> {
    match Cli::parse().task {
        Task::Dist(args) => dist(&args),
    }
}

/// The workspace root (this crate's parent folder).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn dist(args: &DistArgs) -> Result<()> {
    let root = workspace_root();
    let out = root.join(&args.out);
    std::fs::create_dir_all(&out).with_context(|| format!("create {}", out.display()))?;
    let mut written = Vec::new();
    for &platform in &args.platforms {
        let mut entries = Vec::new();
        for level in [GENERIC, V3] {
            let bins: &[&str] = if level == GENERIC {
                &[ENGINE, COMPANIONS[0], COMPANIONS[1]]
            } else {
                &[ENGINE]
            };
            let dir = build(&root, platform, level, bins)?;
            for bin in bins {
                let file = platform.exe(bin);
                let name = if *bin == ENGINE {
                    platform.exe(&format!("{ENGINE}{}", level.suffix))
                } else {
                    file.clone()
                };
                entries.push(Entry::executable(&name, &dir.join(&file)));
            }
        }
        let gomocup_exe = entries
            .iter()
            .find(|e| e.name == platform.exe(&format!("{ENGINE}{}", V3.suffix)))
            .map(|e| e.source.clone());
        entries.push(Entry::file("README.md", &root.join("README.md")));
        entries.push(Entry::file("LICENSE", &root.join("LICENSE")));
        let folder = format!("pentad-{VERSION}-{}-x86_64", platform.name());
        let zip = out.join(format!("{folder}.zip"));
        Archive::new(Some(&folder), entries).write(&zip)?;
        written.push(zip);
        if let (Platform::Windows, Some(exe)) = (platform, gomocup_exe) {
            let zip = out.join(format!("pbrain-pentad-{VERSION}-gomocup.zip"));
            package::gomocup_zip(&exe, &zip, GOMOCUP_MAX_BYTES)?;
            written.push(zip);
        }
    }
    let sums = package::sha256sums(&written)?;
    std::fs::write(out.join("SHA256SUMS"), &sums)?;
    print!("{sums}");
    println!("written to {}", out.display());
    Ok(())
}

/// Builds `bins` for `platform` at `level` in a target folder of the level's own (so the two
/// levels never rebuild each other), statically linked; returns the folder of the binaries.
fn build(root: &Path, platform: Platform, level: Level, bins: &[&str]) -> Result<PathBuf> {
    let target_dir = root.join("target/xtask").join(level.target_cpu);
    let rustflags = format!(
        "-C target-cpu={} -C target-feature=+crt-static",
        level.target_cpu
    );
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root)
        .args([
            "build",
            "--release",
            "--workspace",
            "--target",
            platform.triple(),
        ])
        .env("CARGO_TARGET_DIR", &target_dir)
        // RUSTFLAGS replaces the target's flags in .cargo/config.toml, so this repeats
        // +crt-static; with --target they do not reach build scripts.
        .env("RUSTFLAGS", &rustflags);
    for bin in bins {
        cmd.args(["--bin", bin]);
    }
    eprintln!(
        "xtask: building {} for {} ({})",
        bins.join(", "),
        platform.triple(),
        level.target_cpu
    );
    let status = cmd.status().context("run cargo")?;
    if !status.success() {
        bail!(
            "cargo build for {} {} failed",
            platform.triple(),
            level.target_cpu
        );
    }
    Ok(target_dir.join(platform.triple()).join("release"))
}
