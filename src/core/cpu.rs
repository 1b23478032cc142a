//! The instruction set this binary was compiled for, and whether the processor running it
//! has every extension that build relies on.
//!
//! Release builds come in two levels (`cargo xtask dist`): the generic x86-64 baseline, and
//! x86-64-v3 (AVX2, BMI2, FMA, …) for Gomocup's machines and any processor since about
//! 2015. A v3 binary started on an older processor would die on its first AVX2 instruction;
//! `main` asks [`missing_features`] before anything else and refuses with a clear message
//! instead. (The check itself is compiled for the same level, so it stays small: CPUID, bit
//! tests, a write of fixed text.)

/// The x86-64 extensions a build may be compiled with, in the order they are reported:
/// `(name, compiled in, present on this processor)`.
///
/// Presence is read from CPUID itself: `is_x86_feature_detected!` answers `true` at compile
/// time for an extension the build enables, which is exactly the case to check here.
#[cfg(target_arch = "x86_64")]
fn extensions() -> [(&'static str, bool, bool); 8] {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // Leaves 1, 7 and 0x8000_0001 are read only when the highest leaves (leaf 0, leaf
    // 0x8000_0000) say they exist.
    let (max_leaf, max_ext) = (__cpuid(0).eax, __cpuid(0x8000_0000).eax);
    let leaf1 = if max_leaf >= 1 { __cpuid(1).ecx } else { 0 };
    let leaf7 = if max_leaf >= 7 {
        __cpuid_count(7, 0).ebx
    } else {
        0
    };
    let ext1 = if max_ext >= 0x8000_0001 {
        __cpuid(0x8000_0001).ecx
    } else {
        0
    };
    let bit = |word: u32, n: u32| word >> n & 1 == 1;
    // AVX is usable only when the operating system saves the YMM registers (OSXSAVE).
    let avx = bit(leaf1, 28) && bit(leaf1, 27);
    [
        ("sse4.2", cfg!(target_feature = "sse4.2"), bit(leaf1, 20)),
        ("popcnt", cfg!(target_feature = "popcnt"), bit(leaf1, 23)),
        ("avx", cfg!(target_feature = "avx"), avx),
        ("avx2", cfg!(target_feature = "avx2"), avx && bit(leaf7, 5)),
        ("bmi1", cfg!(target_feature = "bmi1"), bit(leaf7, 3)),
        ("bmi2", cfg!(target_feature = "bmi2"), bit(leaf7, 8)),
        ("fma", cfg!(target_feature = "fma"), avx && bit(leaf1, 12)),
        ("lzcnt", cfg!(target_feature = "lzcnt"), bit(ext1, 5)),
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
    fn this_processor_reports_what_the_build_was_compiled_with() {
        // Read from CPUID, not from the compile-time answer: the generic build compiles in
        // SSE2 only, so nothing is "missing"; the CPUID reading agrees with std's detection
        // for the extensions std does not fold away.
        for (name, compiled, present) in extensions() {
            if !compiled {
                let detected = match name {
                    "sse4.2" => std::arch::is_x86_feature_detected!("sse4.2"),
                    "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
                    "avx" => std::arch::is_x86_feature_detected!("avx"),
                    "avx2" => std::arch::is_x86_feature_detected!("avx2"),
                    "bmi1" => std::arch::is_x86_feature_detected!("bmi1"),
                    "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
                    "fma" => std::arch::is_x86_feature_detected!("fma"),
                    "lzcnt" => std::arch::is_x86_feature_detected!("lzcnt"),
                    _ => unreachable!("unknown extension {name}"),
                };
                assert_eq!(present, detected, "{name}");
            }
        }
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
