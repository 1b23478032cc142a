//! The instruction set this binary was compiled for, and whether the processor running it
//! has every extension that build relies on.
//!
//! Release builds come in two levels (`cargo xtask dist`): the generic x86-64 baseline, and
//! x86-64-v3 (AVX2, BMI2, FMA, …) for Gomocup's machines and any processor since about
//! 2015. A v3 binary started on an older processor would die on its first AVX2 instruction;
//! `main` asks [`missing_features`] first and refuses with a clear message instead.

/// The x86-64 extensions a build may be compiled with, in the order they are reported:
/// `(name, compiled in, present on this processor)`.
#[cfg(target_arch = "x86_64")]
fn extensions() -> [(&'static str, bool, bool); 8] {
    use std::arch::is_x86_feature_detected as has;
    [
        ("sse4.2", cfg!(target_feature = "sse4.2"), has!("sse4.2")),
        ("popcnt", cfg!(target_feature = "popcnt"), has!("popcnt")),
        ("avx", cfg!(target_feature = "avx"), has!("avx")),
        ("avx2", cfg!(target_feature = "avx2"), has!("avx2")),
        ("bmi1", cfg!(target_feature = "bmi1"), has!("bmi1")),
        ("bmi2", cfg!(target_feature = "bmi2"), has!("bmi2")),
        ("fma", cfg!(target_feature = "fma"), has!("fma")),
        ("lzcnt", cfg!(target_feature = "lzcnt"), has!("lzcnt")),
    ]
}

/// The name of the instruction-set level this binary was compiled for: `x86-64-v3` when
/// AVX2 is compiled in, `x86-64` for the generic baseline, the architecture elsewhere.
pub fn build_level() -> &'static str {
    if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
        "x86-64-v3"
    } else if cfg!(target_arch = "x86_64") {
        "x86-64"
    } else {
        std::env::consts::ARCH
    }
}

/// Extensions this binary was compiled to use that the processor lacks (empty when it can
/// run here).
pub fn missing_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        extensions()
            .into_iter()
            .filter(|&(_, compiled, present)| compiled && !present)
            .map(|(name, _, _)| name)
            .collect()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_built_here_runs_here() {
        // The test binary was compiled for this machine's target settings and is running,
        // so nothing it was compiled with can be missing.
        assert_eq!(missing_features(), Vec::<&str>::new());
    }

    #[test]
    fn the_level_matches_the_compiled_extensions() {
        let level = build_level();
        if cfg!(target_feature = "avx2") {
            assert_eq!(level, "x86-64-v3");
        } else if cfg!(target_arch = "x86_64") {
            assert_eq!(level, "x86-64");
        }
    }
}
