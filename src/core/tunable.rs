//! The machinery of run-time tunable parameters, shared by the evaluation (`eval::tuning`)
//! and the search (`search::params`, which also lists both tables together).
//!
//! `tunables!` turns one line per parameter (name, type, default, range, step) into:
//! - a getter `fn name() -> T`: in a normal build a `const fn` returning the default, so the
//!   search pays nothing; in a build with the `tune` feature a read of the current value;
//! - an entry of a [`TunableTable`], which lists the parameters for an SPSA tuner and, in a
//!   `tune` build, sets them at run time from text (checked against the range);
//! - a compile-time check that the default lies in the range and the step is positive.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// True in a build whose tunables can be set at run time (the `tune` cargo feature).
pub const TUNING: bool = cfg!(feature = "tune");

/// The learning rate at the end of an SPSA run that the listing suggests (OpenBench's `R_END`).
const SPSA_R_END: f64 = 0.002;

/// How a tunable's values are written and read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TunableKind {
    /// Whole numbers (`int` in the SPSA listing).
    Int,
    /// Real numbers (`float` in the SPSA listing).
    Float,
}

/// The types a tunable may have.
pub trait TunableValue: Copy {
    /// Whole or real numbers.
    const KIND: TunableKind;
}

macro_rules! int_tunable_value {
    ($($t:ty),*) => {
        $(impl TunableValue for $t {
            const KIND: TunableKind = TunableKind::Int;
        })*
    };
}
int_tunable_value!(i32, i64, u32, u64, usize);

impl TunableValue for f64 {
    const KIND: TunableKind = TunableKind::Float;
}

/// One tunable: its name (as `INFO tune_<name>` and the SPSA listing spell it), kind,
/// default, inclusive range and SPSA step. Whole numbers are held exactly as `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TunableSpec {
    /// Lower-case name (protocol keys arrive lower-cased).
    pub name: &'static str,
    /// Whole or real numbers.
    pub kind: TunableKind,
    /// The value of a normal build.
    pub default: f64,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// The perturbation an SPSA tuner applies at the end of its run (`C_END`).
    pub step: f64,
}

impl TunableSpec {
    /// The line an SPSA tuner reads (OpenBench's input format):
    /// `name, int, default, min, max, step, r_end`, e.g.
    /// `futility_margin, int, 90, 10, 400, 10, 0.002`.
    pub fn spsa_line(&self) -> String {
        let kind = match self.kind {
            TunableKind::Int => "int",
            TunableKind::Float => "float",
        };
        format!(
            "{}, {kind}, {}, {}, {}, {}, {SPSA_R_END}",
            self.name, self.default, self.min, self.max, self.step
        )
    }

    /// Reads `text` as a value of this tunable: a whole number for `Int`, a finite number
    /// for `Float`, within the range either way.
    pub fn parse(&self, text: &str) -> Result<f64, TuneError> {
        let text = text.trim();
        let value = match self.kind {
            TunableKind::Int => text.parse::<i64>().ok().map(|v| v as f64),
            TunableKind::Float => text.parse::<f64>().ok().filter(|v| v.is_finite()),
        };
        let Some(value) = value else {
            return Err(TuneError::NotANumber {
                name: self.name,
                kind: self.kind,
                text: text.to_string(),
            });
        };
        if value < self.min || value > self.max {
            return Err(TuneError::OutOfRange {
                name: self.name,
                value,
                min: self.min,
                max: self.max,
            });
        }
        Ok(value)
    }
}

/// Why a tunable was not set. The messages leave out the name, which the caller has.
#[derive(Clone, Debug, PartialEq)]
pub enum TuneError {
    /// No tunable has this name.
    UnknownName(String),
    /// The text is not a value of the tunable's kind.
    NotANumber {
        /// The tunable.
        name: &'static str,
        /// Its kind.
        kind: TunableKind,
        /// The text given.
        text: String,
    },
    /// The value lies outside the tunable's range.
    OutOfRange {
        /// The tunable.
        name: &'static str,
        /// The value given.
        value: f64,
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// This build has no `tune` feature: its tunables are constants.
    NotTuningBuild,
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::UnknownName(_) => write!(f, "no such tunable"),
            TuneError::NotANumber { kind, text, .. } => match kind {
                TunableKind::Int => write!(f, "{text:?} is not a whole number"),
                TunableKind::Float => write!(f, "{text:?} is not a finite number"),
            },
            TuneError::OutOfRange {
                value, min, max, ..
            } => write!(f, "{value} is outside {min}..={max}"),
            TuneError::NotTuningBuild => {
                write!(
                    f,
                    "this build has no run-time tunables (build with --features tune)"
                )
            }
        }
    }
}

impl std::error::Error for TuneError {}

/// The tunables of one table: their specs and, for a `tune` build, their current values.
pub struct TunableTable<const N: usize> {
    specs: [TunableSpec; N],
    /// Current values as `f64` bits; read only in a `tune` build.
    values: [AtomicU64; N],
}

impl<const N: usize> TunableTable<N> {
    /// A table of `specs` holding their defaults (`values` must be the defaults' bits).
    #[doc(hidden)]
    pub const fn new(specs: [TunableSpec; N], values: [AtomicU64; N]) -> Self {
        TunableTable { specs, values }
    }

    /// Every tunable, in table order.
    pub fn specs(&self) -> &[TunableSpec] {
        &self.specs
    }

    /// The current value of the `i`-th tunable (the default in a normal build).
    #[inline]
    pub fn value_at(&self, i: usize) -> f64 {
        if TUNING {
            f64::from_bits(self.values[i].load(Relaxed))
        } else {
            self.specs[i].default
        }
    }

    /// The current value of the tunable `name`.
    pub fn value(&self, name: &str) -> Option<f64> {
        let i = self.specs.iter().position(|s| s.name == name)?;
        Some(self.value_at(i))
    }

    /// Sets tunable `name` from `text` (see [`TunableSpec::parse`]); on an error nothing
    /// changes. Only a `tune` build can set anything.
    pub fn set(&self, name: &str, text: &str) -> Result<(), TuneError> {
        let i = self
            .specs
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| TuneError::UnknownName(name.to_string()))?;
        let value = self.specs[i].parse(text)?;
        if !TUNING {
            return Err(TuneError::NotTuningBuild);
        }
        self.values[i].store(value.to_bits(), Relaxed);
        Ok(())
    }
}

/// Declares a table of tunables, one per line:
///
/// ```text
/// /// Doc of the getter.
/// name: type = default, min..=max, step step;
/// ```
///
/// and defines `TUNABLES` (a [`TunableTable`]) and one getter `name()` per line. Types: the
/// integer types and `f64`; the values are literals.
macro_rules! tunables {
    ($(
        $(#[$attr:meta])*
        $name:ident: $t:ty = $default:literal, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        /// Each tunable's index in [`TUNABLES`] (read by the getters of a `tune` build).
        #[allow(non_camel_case_types)]
        #[cfg_attr(not(feature = "tune"), allow(dead_code))]
        #[derive(Clone, Copy)]
        enum TunableId {
            $($name,)*
        }

        /// How many tunables there are.
        const TUNABLE_COUNT: usize = [$(stringify!($name)),*].len();

        /// Every tunable with its spec and (in a `tune` build) current value.
        pub static TUNABLES: $crate::core::tunable::TunableTable<TUNABLE_COUNT> =
            $crate::core::tunable::TunableTable::new(
                [$($crate::core::tunable::TunableSpec {
                    name: stringify!($name),
                    kind: <$t as $crate::core::tunable::TunableValue>::KIND,
                    default: $default as f64,
                    min: $min as f64,
                    max: $max as f64,
                    step: $step as f64,
                },)*],
                [$(std::sync::atomic::AtomicU64::new(f64::to_bits($default as f64)),)*],
            );

        $(
            const _: () = {
                let (default, min, max, step): ($t, $t, $t, $t) = ($default, $min, $max, $step);
                assert!(
                    min <= default && default <= max && step > (0 as $t),
                    concat!(
                        "tunable ",
                        stringify!($name),
                        ": default outside the range or step not positive"
                    )
                );
            };

            $(#[$attr])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> $t {
                $default
            }

            $(#[$attr])*
            #[cfg(feature = "tune")]
            #[inline]
            pub fn $name() -> $t {
                TUNABLES.value_at(TunableId::$name as usize) as $t
            }
        )*
    };
}

pub(crate) use tunables;

#[cfg(test)]
mod tests {
    use super::*;

    tunables! {
        /// A whole number with a negative range.
        whole: i32 = -3, -10..=10, step 1;
        /// A real number.
        real: f64 = 0.5, 0.0..=1.0, step 0.05;
    }

    #[test]
    fn a_table_lists_its_entries_in_the_tuner_format() {
        let lines: Vec<String> = TUNABLES.specs().iter().map(|s| s.spsa_line()).collect();
        assert_eq!(
            lines,
            [
                "whole, int, -3, -10, 10, 1, 0.002",
                "real, float, 0.5, 0, 1, 0.05, 0.002"
            ]
        );
        assert_eq!(TUNABLES.value("nothing"), None);
    }

    #[test]
    fn values_are_checked_and_set_only_in_a_tuning_build() {
        assert!(matches!(
            TUNABLES.set("whole", "11"),
            Err(TuneError::OutOfRange { .. })
        ));
        assert!(matches!(
            TUNABLES.set("whole", "0.5"),
            Err(TuneError::NotANumber { .. })
        ));
        assert!(matches!(
            TUNABLES.set("real", "NaN"),
            Err(TuneError::NotANumber { .. })
        ));
        assert_eq!((whole(), real()), (-3, 0.5));
        let set = (TUNABLES.set("whole", " -10 "), TUNABLES.set("real", "0.25"));
        if TUNING {
            assert_eq!(set, (Ok(()), Ok(())));
            assert_eq!((whole(), real()), (-10, 0.25));
            assert_eq!(TUNABLES.value("real"), Some(0.25));
        } else {
            let refused = Err(TuneError::NotTuningBuild);
            assert_eq!(set, (refused.clone(), refused));
            assert_eq!((whole(), real()), (-3, 0.5));
        }
    }
}
