//! Packaging the built binaries: ZIP archives (executables keep their Unix mode), the Gomocup
//! ZIP (the engine alone at the archive's root, under the size limit) and `SHA256SUMS`.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// One file of an archive: its name inside it, where it is read from, its Unix mode.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub source: PathBuf,
    mode: u32,
}

impl Entry {
    pub fn executable(name: &str, source: &Path) -> Entry {
        Entry {
            name: name.to_string(),
            source: source.to_path_buf(),
            mode: 0o755,
        }
    }

    pub fn file(name: &str, source: &Path) -> Entry {
        Entry {
            name: name.to_string(),
            source: source.to_path_buf(),
            mode: 0o644,
        }
    }
}

/// A ZIP archive to write: its entries, under one folder or at the root.
pub struct Archive {
    folder: Option<String>,
    entries: Vec<Entry>,
}

impl Archive {
    pub fn new(folder: Option<&str>, entries: Vec<Entry>) -> Archive {
        Archive {
            folder: folder.map(str::to_string),
            entries,
        }
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        let file = File::create(path).with_context(|| format!("create {}", path.display()))?;
        let mut zip = ZipWriter::new(file);
        for entry in &self.entries {
            let name = match &self.folder {
                Some(folder) => format!("{folder}/{}", entry.name),
                None => entry.name.clone(),
            };
            let options = SimpleFileOptions::default()
                .compression_method(CompressionMethod::Deflated)
                .unix_permissions(entry.mode);
            let bytes = std::fs::read(&entry.source)
                .with_context(|| format!("read {}", entry.source.display()))?;
            zip.start_file(name, options)?;
            zip.write_all(&bytes)?;
        }
        zip.finish()?;
        Ok(())
    }
}

/// Gomocup's entry: the engine alone at the ZIP's root (no folder), at most `max_bytes`.
pub fn gomocup_zip(engine: &Path, path: &Path, max_bytes: u64) -> Result<()> {
    let name = engine
        .file_name()
        .and_then(|n| n.to_str())
        .context("engine file name")?;
    if !name.starts_with("pbrain-") {
        bail!("Gomocup engines are named pbrain-*: {name}");
    }
    // The build's name for the AVX2 engine is pbrain-pentad.exe in its own target folder;
    // inside the Gomocup ZIP it keeps that name.
    Archive::new(None, vec![Entry::executable(name, engine)]).write(path)?;
    let size = std::fs::metadata(path)?.len();
    if size > max_bytes {
        std::fs::remove_file(path)?;
        bail!("the Gomocup ZIP is {size} bytes, over its limit of {max_bytes}");
    }
    Ok(())
}

/// `SHA256SUMS` text: `<hex digest>  <file name>` per file, as `sha256sum` writes it.
pub fn sha256sums(files: &[PathBuf]) -> Result<String> {
    let mut text = String::new();
    for path in files {
        let mut hasher = Sha256::new();
        let mut file = File::open(path).with_context(|| format!("open {}", path.display()))?;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let digest: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        text.push_str(&format!("{digest}  {name}\n"));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test, removed when the test ends.
    fn scratch(tag: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("xtask-{tag}-"))
            .tempdir()
            .unwrap()
    }

    fn names(zip: &Path) -> Vec<(String, Option<u32>)> {
        let mut archive = zip::ZipArchive::new(File::open(zip).unwrap()).unwrap();
        (0..archive.len())
            .map(|i| {
                let f = archive.by_index(i).unwrap();
                (f.name().to_string(), f.unix_mode().map(|m| m & 0o777))
            })
            .collect()
    }

    #[test]
    fn sums_are_sha256_in_sha256sum_format() {
        let tmp = scratch("sums");
        let dir = tmp.path();
        let file = dir.join("abc.txt");
        std::fs::write(&file, b"abc").unwrap();
        let text = sha256sums(&[file]).unwrap();
        assert_eq!(
            text,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc.txt\n"
        );
    }

    #[test]
    fn the_gomocup_zip_holds_the_engine_alone_at_its_root() {
        let tmp = scratch("gomocup");
        let dir = tmp.path();
        let exe = dir.join("pbrain-pentad.exe");
        std::fs::write(&exe, vec![7u8; 4096]).unwrap();
        let zip = dir.join("entry.zip");
        gomocup_zip(&exe, &zip, 8 << 20).unwrap();
        assert_eq!(
            names(&zip),
            vec![("pbrain-pentad.exe".to_string(), Some(0o755))]
        );
    }

    #[test]
    fn an_oversized_or_misnamed_gomocup_entry_is_refused() {
        let tmp = scratch("refused");
        let dir = tmp.path();
        let exe = dir.join("pbrain-pentad.exe");
        // Random-looking bytes do not compress below the limit.
        let bytes: Vec<u8> = (0..20_000u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        std::fs::write(&exe, &bytes).unwrap();
        let zip = dir.join("entry.zip");
        assert!(gomocup_zip(&exe, &zip, 1_000).is_err());
        assert!(!zip.exists(), "no oversized ZIP is left behind");
        let other = dir.join("pentad.exe");
        std::fs::write(&other, b"x").unwrap();
        assert!(gomocup_zip(&other, &zip, 8 << 20).is_err());
    }

    #[test]
    fn a_platform_archive_keeps_its_folder_and_modes() {
        let tmp = scratch("platform");
        let dir = tmp.path();
        let exe = dir.join("engine");
        let text = dir.join("README.md");
        std::fs::write(&exe, b"binary").unwrap();
        std::fs::write(&text, b"# hello").unwrap();
        let zip = dir.join("p.zip");
        let entries = vec![
            Entry::executable("pbrain-pentad", &exe),
            Entry::file("README.md", &text),
        ];
        Archive::new(Some("pentad-0.1.0-linux-x86_64"), entries)
            .write(&zip)
            .unwrap();
        assert_eq!(
            names(&zip),
            vec![
                (
                    "pentad-0.1.0-linux-x86_64/pbrain-pentad".to_string(),
                    Some(0o755)
                ),
                (
                    "pentad-0.1.0-linux-x86_64/README.md".to_string(),
                    Some(0o644)
                ),
            ]
        );
    }
}
