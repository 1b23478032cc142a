//! `--tune NAME=VALUE`: sets search and evaluation tunables for the subcommands that search
//! in-process (`analyse`, `agree`, `leaves`, `selfplay`), as `INFO tune_<name>` does for an
//! engine process, so that a screen of a parameter runs from the repository as it stands.
//! Only a build with the `tune` feature (`cargo build --release -p pentad-tools --features
//! tune`) can change a value; any other build refuses the option with that advice.

use anyhow::{anyhow, bail, Result};
use pentad::search::params::set_tunable;

/// The `--tune` options of a subcommand.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct TuneArgs {
    /// Sets a tunable (`docs/tuning.md` lists them) before searching, as `NAME=VALUE`;
    /// repeatable. Needs a build with `--features tune`.
    #[arg(long = "tune", value_name = "NAME=VALUE")]
    pub tune: Vec<String>,
}

impl TuneArgs {
    /// Sets every tunable given; the first bad one stops with an error naming it. The
    /// values stay set for the rest of the process.
    pub fn apply(&self) -> Result<()> {
        for setting in &self.tune {
            let (name, value) = split_setting(setting)?;
            set_tunable(name, value).map_err(|e| anyhow!("--tune {setting}: {e}"))?;
        }
        Ok(())
    }
}

/// `NAME=VALUE` into its two parts, both non-empty and trimmed.
fn split_setting(setting: &str) -> Result<(&str, &str)> {
    match setting.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim(), value.trim()))
        }
        _ => bail!("--tune {setting:?}: expected NAME=VALUE"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_splits_at_its_first_equals_sign() {
        assert_eq!(split_setting("qvcf_depth=8").unwrap(), ("qvcf_depth", "8"));
        assert_eq!(split_setting(" a = -1 ").unwrap(), ("a", "-1"));
        for bad in ["qvcf_depth", "=8", "qvcf_depth=", " = "] {
            assert!(split_setting(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn an_unknown_name_or_a_bad_value_is_refused_in_any_build() {
        let unknown = TuneArgs {
            tune: vec!["no_such_knob=1".into()],
        };
        let err = unknown.apply().unwrap_err().to_string();
        assert!(err.contains("no such tunable"), "{err}");
        let bad_value = TuneArgs {
            tune: vec!["qvcf_depth=deep".into()],
        };
        let err = bad_value.apply().unwrap_err().to_string();
        assert!(err.contains("not a whole number"), "{err}");
    }
}
