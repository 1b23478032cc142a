//! The instruction set this binary was compiled for, and whether the processor running it
//! has every extension that build relies on.
//!
//! Release builds come in two levels (`cargo xtask dist`): the generic x86-64 baseline, and
//! x86-64-v3 (AVX2, BMI2, FMA, …) for Gomocup's machines and any processor since about
//! 2015. A v3 binary started on an older processor would die on its first AVX2 instruction;
//! `main` asks [`runs_here`] before anything else and refuses with a clear message instead.
//!
//! The check is compiled for the same level as the rest, so it must not give the compiler a
//! reason to use vector registers: it works on two `u32` bit masks (an array of tuples was
//! copied with AVX moves, and the first version died under `qemu-x86_64 -cpu Nehalem` inside
//! the check itself).

/// The extensions, one bit each, in the order they are reported.
const NAMES: [&str; 8] = [
    "sse4.2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "fma", "lzcnt",
];

/// The extensions this binary was compiled to use (bit `i` is `NAMES[i]`).
const fn compiled_mask() -> u32 {
    (cfg!(target_feature = "sse4.2") as u32)
        | (cfg!(target_feature = "popcnt") as u32) << 1
        | (cfg!(target_feature = "avx") as u32) << 2
        | (cfg!(target_feature = "avx2") as u32) << 3
        | (cfg!(target_feature = "bmi1") as u32) << 4
        | (cfg!(target_feature = "bmi2") as u32) << 5
        | (cfg!(target_feature = "fma") as u32) << 6
        | (cfg!(target_feature = "lzcnt") as u32) << 7
}

/// The extensions this processor has (bit `i` is `NAMES[i]`), read from CPUID itself:
/// `is_x86_feature_detected!` answers `true` at compile time for an extension the build
/// enables, which is exactly the case to check here.
#[cfg(target_arch = "x86_64")]
fn present_mask() -> u32 {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // Leaves 1, 7 and 0x8000_0001 are read only when the highest leaves (leaf 0, leaf
    // 0x8000_0000) say they exist.
    let max_leaf = __cpuid(0).eax;
    let max_ext = __cpuid(0x8000_0000).eax;
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
    let bit = |word: u32, n: u32| (word >> n) & 1;
    // AVX is usable only when the operating system saves the YMM registers (OSXSAVE).
    let avx = bit(leaf1, 28) & bit(leaf1, 27);
    bit(leaf1, 20)
        | bit(leaf1, 23) << 1
        | avx << 2
        | (avx & bit(leaf7, 5)) << 3
        | bit(leaf7, 3) << 4
        | bit(leaf7, 8) << 5
        | (avx & bit(leaf1, 12)) << 6
        | bit(ext1, 5) << 7
}

#[cfg(not(target_arch = "x86_64"))]
fn present_mask() -> u32 {
    0
}

/// Whether this processor has every extension the binary was compiled with.
pub fn runs_here() -> bool {
    compiled_mask() & !present_mask() == 0
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
/// run here). Only for a processor that passes [`runs_here`] or for reports: building the
/// list may itself use the build's extensions.
pub fn missing_features() -> Vec<&'static str> {
    let missing = compiled_mask() & !present_mask();
    (0..NAMES.len())
        .filter(|&i| missing >> i & 1 == 1)
        .map(|i| NAMES[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_built_here_runs_here() {
        // The test binary was compiled for this machine's target settings and is running,
        // so nothing it was compiled with can be missing.
        assert!(runs_here());
        assert_eq!(missing_features(), Vec::<&str>::new());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn cpuid_agrees_with_std_detection() {
        // Compared only for extensions not compiled in: for those std really asks the
        // processor rather than answering from the build's settings.
        let detected = [
            std::arch::is_x86_feature_detected!("sse4.2"),
            std::arch::is_x86_feature_detected!("popcnt"),
            std::arch::is_x86_feature_detected!("avx"),
            std::arch::is_x86_feature_detected!("avx2"),
            std::arch::is_x86_feature_detected!("bmi1"),
            std::arch::is_x86_feature_detected!("bmi2"),
            std::arch::is_x86_feature_detected!("fma"),
            std::arch::is_x86_feature_detected!("lzcnt"),
        ];
        let (compiled, present) = (compiled_mask(), present_mask());
        for (i, name) in NAMES.iter().enumerate() {
            if compiled >> i & 1 == 0 {
                assert_eq!(present >> i & 1 == 1, detected[i], "{name}");
            }
        }
    }

    #[test]
    fn the_level_matches_the_compiled_extensions() {
        let level = build_level();
        if cfg!(target_feature = "avx2") {
            assert_eq!(level, "x86-64-v3");
            assert_ne!(compiled_mask() & 1 << 3, 0);
        } else if cfg!(target_arch = "x86_64") {
            assert_eq!(level, "x86-64");
        }
    }
}
