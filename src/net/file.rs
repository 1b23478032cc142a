//! The network file format (`.pnet`, written by `trainer/train.py`), little-endian:
//!
//! ```text
//! magic     8 bytes  "PNTDNET1"
//! family    u8       0 renju, 1 freestyle
//! window    u8       one of the family's windows (renju 10 or 8, freestyle 8)
//! channels  u16      32
//! hidden    u16      32
//! kind      u16      bit 0: linear cells (f itself, not clamp(f, 0, 1)); bit 1: count rows
//!                    (both for value networks only); other bits zero
//! E         3^window × channels i16, [key][channel]; row 0 zero
//! R         with count rows only: 64 × channels i16, [count][channel], row k weighing
//!           `Board::raw_counts()[k]`; entries within ±2,047
//! then for Black to move, White to move:
//!   w1 hidden × channels i16 [h][c]; b1 hidden i32; w2 hidden × hidden i16 [out][in];
//!   b2 hidden i32; w3 hidden i16; b3 i32; p channels i16; u channels × hidden i16 [c][h]
//! ```
//!
//! The file must end exactly there. Scales are those of [`super`].

use std::path::Path;
use std::sync::Arc;

use anyhow::{bail, ensure, Context, Result};

use super::infer::Heads;
use super::{CountRows, Family, Network, CHANNELS, COUNTS, HIDDEN};

/// First eight bytes of a network file.
pub const MAGIC: &[u8; 8] = b"PNTDNET1";

/// Largest magnitude of a feature row entry: four rows summed stay inside `i16`.
const MAX_FEATURE: i16 = i16::MAX / 4;
/// Largest magnitude of a count row entry: 64 counts of up to 4,096 (a 32 × 32 board's
/// cells and lines) times their rows stay far inside `i32`.
const MAX_COUNT_WEIGHT: i16 = i16::MAX / 16;

/// The header's kind bits: linear cells, and count rows.
const KIND_LINEAR: u16 = 1;
const KIND_COUNT_ROWS: u16 = 2;

/// A little-endian reader over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            bail!("file ends inside {what} (at byte {})", self.at);
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn i16s<const N: usize>(&mut self, what: &str) -> Result<[i16; N]> {
        let b = self.take(2 * N, what)?;
        Ok(std::array::from_fn(|i| {
            i16::from_le_bytes([b[2 * i], b[2 * i + 1]])
        }))
    }

    fn i32s<const N: usize>(&mut self, what: &str) -> Result<[i32; N]> {
        let b = self.take(4 * N, what)?;
        Ok(std::array::from_fn(|i| {
            i32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
        }))
    }
}

/// Parses a network file's bytes.
pub fn parse(bytes: &[u8]) -> Result<Network> {
    let mut r = Reader { bytes, at: 0 };
    ensure!(
        r.take(8, "the magic")? == MAGIC,
        "not a Pentad network file (no PNTDNET1 magic)"
    );
    let code = r.u8("the header")?;
    let family = Family::from_code(code).with_context(|| format!("unknown family code {code}"))?;
    let window = r.u8("the header")?;
    ensure!(
        family.windows().contains(&u32::from(window)),
        "{} networks read a window of {:?} cells, not {window}",
        family.name(),
        family.windows()
    );
    let (channels, hidden) = (r.u16("the header")?, r.u16("the header")?);
    ensure!(
        usize::from(channels) == CHANNELS && usize::from(hidden) == HIDDEN,
        "this build reads {CHANNELS} channels and {HIDDEN} hidden units, not {channels} and {hidden}"
    );
    let kind = r.u16("the header")?;
    ensure!(
        kind & !(KIND_LINEAR | KIND_COUNT_ROWS) == 0,
        "unknown network kind {kind} (bit 0 linear cells, bit 1 count rows)"
    );
    let keys = 3usize.pow(u32::from(window));
    let mut embedding = Vec::with_capacity(keys);
    for key in 0..keys {
        let row: [i16; CHANNELS] = r.i16s("the feature table")?;
        ensure!(
            row.iter().all(|v| v.abs() <= MAX_FEATURE),
            "feature row {key} has an entry beyond ±{MAX_FEATURE}"
        );
        ensure!(
            key != 0 || row == [0; CHANNELS],
            "feature row 0 is not zero"
        );
        embedding.push(row);
    }
    let count_rows = match kind & KIND_COUNT_ROWS != 0 {
        true => Some(read_count_rows(&mut r)?),
        false => None,
    };
    let heads = [read_heads(&mut r)?, read_heads(&mut r)?];
    ensure!(
        r.at == bytes.len(),
        "{} bytes after the end of the network",
        bytes.len() - r.at
    );
    let mut net = Network::new(family, embedding.into_boxed_slice(), heads);
    for (bit, what) in [
        (KIND_LINEAR, "linear cells"),
        (KIND_COUNT_ROWS, "count rows"),
    ] {
        ensure!(
            kind & bit == 0 || !net.has_policy(),
            "a network with {what} has no policy"
        );
    }
    net.linear = kind & KIND_LINEAR != 0;
    net.set_count_rows(count_rows.as_deref());
    Ok(net)
}

fn read_count_rows(r: &mut Reader) -> Result<Box<CountRows>> {
    let mut rows = Box::new([[0i16; CHANNELS]; COUNTS]);
    for (k, row) in rows.iter_mut().enumerate() {
        *row = r.i16s("the count rows")?;
        ensure!(
            row.iter().all(|v| v.abs() <= MAX_COUNT_WEIGHT),
            "count row {k} has an entry beyond ±{MAX_COUNT_WEIGHT}"
        );
    }
    Ok(rows)
}

fn read_heads(r: &mut Reader) -> Result<Heads> {
    let mut w1 = [[0i16; CHANNELS]; HIDDEN];
    for row in &mut w1 {
        *row = r.i16s("w1")?;
    }
    let b1 = r.i32s("b1")?;
    let mut w2 = [[0i16; HIDDEN]; HIDDEN];
    for row in &mut w2 {
        *row = r.i16s("w2")?;
    }
    let b2 = r.i32s("b2")?;
    let w3 = r.i16s("w3")?;
    let [b3] = r.i32s::<1>("b3")?;
    let p = r.i16s("p")?;
    let mut u = [[0i16; HIDDEN]; CHANNELS];
    for row in &mut u {
        *row = r.i16s("u")?;
    }
    Ok(Heads {
        w1,
        b1,
        w2,
        b2,
        w3,
        b3,
        p,
        u,
    })
}

/// Reads a network file and puts it in its family's place among the current networks; on
/// error nothing changes. Returns the family.
pub fn load_file(path: &Path) -> Result<Family> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let net = parse(&bytes).with_context(|| format!("in {}", path.display()))?;
    let family = net.family();
    super::set_current(super::current().with(Arc::new(net)));
    Ok(family)
}

/// The bytes of a network file (the trainer writes real ones; this serves the round-trip test).
#[cfg(test)]
fn to_bytes(net: &Network) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.push(net.family.code());
    out.push(net.window as u8);
    let count_rows = net.count_rows();
    let kind =
        u16::from(net.linear) * KIND_LINEAR + u16::from(count_rows.is_some()) * KIND_COUNT_ROWS;
    for v in [CHANNELS as u16, HIDDEN as u16, kind] {
        out.extend(v.to_le_bytes());
    }
    let i16s = |out: &mut Vec<u8>, vs: &[i16]| vs.iter().for_each(|v| out.extend(v.to_le_bytes()));
    let i32s = |out: &mut Vec<u8>, vs: &[i32]| vs.iter().for_each(|v| out.extend(v.to_le_bytes()));
    for row in net.embedding.iter().chain(count_rows.iter().flatten()) {
        i16s(&mut out, row);
    }
    for h in &net.heads {
        h.w1.iter().for_each(|row| i16s(&mut out, row));
        i32s(&mut out, &h.b1);
        h.w2.iter().for_each(|row| i16s(&mut out, row));
        i32s(&mut out, &h.b2);
        i16s(&mut out, &h.w3);
        i32s(&mut out, &[h.b3]);
        i16s(&mut out, &h.p);
        h.u.iter().for_each(|row| i16s(&mut out, row));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A network of small random weights (a fixed seed), for tests of the machinery.
    pub(crate) fn random_network(family: Family, seed: u64) -> Network {
        random_network_of_window(family, family.window(), seed)
    }

    /// [`random_network`] reading `window` slots.
    pub(crate) fn random_network_of_window(family: Family, window: u32, seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut small = |m: i16| rng.gen_range(-m..=m);
        let mut embedding = vec![[0i16; CHANNELS]; 3usize.pow(window)];
        for row in embedding.iter_mut().skip(1) {
            *row = std::array::from_fn(|_| small(120));
        }
        let mut head = || Heads {
            w1: std::array::from_fn(|_| std::array::from_fn(|_| small(40))),
            b1: std::array::from_fn(|_| i32::from(small(100)) * 64),
            w2: std::array::from_fn(|_| std::array::from_fn(|_| small(40))),
            b2: std::array::from_fn(|_| i32::from(small(100)) * 64),
            w3: std::array::from_fn(|_| small(60)),
            b3: i32::from(small(100)),
            p: std::array::from_fn(|_| small(60)),
            u: std::array::from_fn(|_| std::array::from_fn(|_| small(30))),
        };
        let heads = [head(), head()];
        Network::new(family, embedding.into_boxed_slice(), heads)
    }

    /// [`random_network`] with its value heads zeroed: a policy network.
    pub(crate) fn random_policy_network(family: Family, seed: u64) -> Network {
        let net = random_network(family, seed);
        let heads = net.heads.map(|h| Heads {
            w3: [0; crate::net::HIDDEN],
            b3: 0,
            ..h
        });
        Network::new(family, net.embedding, heads)
    }

    /// [`random_network`] with its policy heads zeroed: a value network.
    pub(crate) fn random_value_network(family: Family, seed: u64) -> Network {
        let net = random_network(family, seed);
        let heads = net.heads.map(|h| Heads {
            p: [0; CHANNELS],
            u: [[0; crate::net::HIDDEN]; CHANNELS],
            ..h
        });
        Network::new(family, net.embedding, heads)
    }

    /// [`random_policy_network`] with no context (`U` zero), read straight from line keys.
    pub(crate) fn random_plain_policy_network(family: Family, seed: u64) -> Network {
        let net = random_policy_network(family, seed);
        let heads = net.heads.map(|h| Heads {
            u: [[0; crate::net::HIDDEN]; CHANNELS],
            ..h
        });
        Network::new(family, net.embedding, heads)
    }

    #[test]
    fn a_network_without_value_heads_is_a_policy_network() {
        assert!(random_network(Family::Renju, 1).has_value());
        let policy = random_policy_network(Family::Renju, 1);
        assert!(!policy.has_value() && policy.has_policy());
        let back = parse(&to_bytes(&policy)).unwrap();
        assert!(!back.has_value(), "the file keeps it a policy network");
    }

    #[test]
    fn a_network_without_policy_heads_has_no_policy() {
        let net = random_network(Family::Freestyle, 2);
        assert!(net.has_policy());
        let heads = net.heads.map(|h| Heads {
            p: [0; CHANNELS],
            u: [[0; crate::net::HIDDEN]; CHANNELS],
            ..h
        });
        let value_only = Network::new(Family::Freestyle, net.embedding, heads);
        assert!(value_only.has_value() && !value_only.has_policy());
    }

    #[test]
    fn a_network_survives_writing_and_reading() {
        for family in Family::ALL {
            for &window in family.windows() {
                let net = random_network_of_window(family, window, 7);
                let bytes = to_bytes(&net);
                let back = parse(&bytes).unwrap();
                assert_eq!((back.family(), back.window()), (family, window));
                assert_eq!(to_bytes(&back), bytes);
            }
        }
    }

    #[test]
    fn a_value_network_may_have_linear_cells_and_a_policy_may_not() {
        let mut value = random_value_network(Family::Freestyle, 4);
        value.linear = true;
        let back = parse(&to_bytes(&value)).unwrap();
        assert!(back.linear_cells() && back.has_value());
        assert_eq!(to_bytes(&back), to_bytes(&value));
        // The header's kind: bit 0 linear cells, bit 1 count rows, no other bit.
        let mut bytes = to_bytes(&value);
        assert_eq!(bytes[14..16], [1, 0]);
        bytes[14] = 5;
        let err = |bytes: &[u8]| format!("{:#}", parse(bytes).unwrap_err());
        assert!(err(&bytes).contains("unknown network kind 5"));
        let mut policy = random_network(Family::Freestyle, 5);
        policy.linear = true;
        assert!(err(&to_bytes(&policy)).contains("linear cells has no policy"));
        // A linear cell's activation is its rows' sum, past the clip at either end.
        let keys = [1, 2, 3, 4];
        let sum: [i16; CHANNELS] =
            std::array::from_fn(|c| keys.iter().map(|&k| back.row(k)[c]).sum());
        assert_eq!(back.cell_activation(keys), sum);
        assert!(sum.iter().any(|&a| !(0..=256).contains(&a)));
    }

    #[test]
    fn a_value_network_may_weigh_the_pattern_counts_and_a_policy_may_not() {
        let mut value = random_value_network(Family::Freestyle, 6);
        value.linear = true;
        let mut rng = StdRng::seed_from_u64(6);
        let rows: Box<CountRows> = Box::new(std::array::from_fn(|_| {
            std::array::from_fn(|_| rng.gen_range(-50..=50))
        }));
        value.set_count_rows(Some(&rows));
        let bytes = to_bytes(&value);
        assert_eq!(bytes[14..16], [3, 0], "linear cells and count rows");
        let back = parse(&bytes).unwrap();
        assert!(back.has_count_rows() && back.linear_cells() && back.has_value());
        assert_eq!(to_bytes(&back), bytes);
        // The pool gains each count times its row; the counts are read only when needed.
        let counts: [u16; COUNTS] = std::array::from_fn(|k| (k as u16 * 7) % 5);
        let pool = std::array::from_fn(|c| 1000 * c as i32);
        let expected: [i32; CHANNELS] = std::array::from_fn(|c| {
            pool[c]
                + (0..COUNTS)
                    .map(|k| i32::from(counts[k]) * i32::from(rows[k][c]))
                    .sum::<i32>()
        });
        assert_eq!(back.value_pool(pool, || counts), expected);
        let plain = random_value_network(Family::Freestyle, 6);
        assert_eq!(plain.value_pool(pool, || panic!("counts read")), pool);
        // Refused: with a policy, beyond the bound, cut short.
        let err = |bytes: &[u8]| format!("{:#}", parse(bytes).unwrap_err());
        let mut policy = random_network(Family::Freestyle, 7);
        policy.set_count_rows(Some(&rows));
        assert!(err(&to_bytes(&policy)).contains("count rows has no policy"));
        let first = 16 + 2 * CHANNELS * 3usize.pow(8);
        let mut big = bytes.clone();
        big[first..first + 2].copy_from_slice(&2048i16.to_le_bytes());
        assert!(err(&big).contains("count row 0 has an entry beyond ±2047"));
        let mut flag_only = to_bytes(&random_value_network(Family::Freestyle, 6));
        flag_only[14] = 2;
        assert!(
            parse(&flag_only).is_err(),
            "a count-rows kind without the rows"
        );
    }

    #[test]
    fn malformed_files_are_refused_with_a_reason() {
        let good = to_bytes(&random_network(Family::Freestyle, 3));
        let err = |bytes: &[u8]| format!("{:#}", parse(bytes).unwrap_err());
        assert!(err(&good[..good.len() - 1]).contains("file ends inside"));
        let mut long = good.clone();
        long.push(0);
        assert!(err(&long).contains("1 bytes after the end"));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(err(&magic).contains("magic"));
        let mut family = good.clone();
        family[8] = 9;
        assert!(err(&family).contains("unknown family code 9"));
        let mut window = good.clone();
        window[9] = 10;
        assert!(err(&window).contains("freestyle networks read a window of [8] cells, not 10"));
        let mut row0 = good.clone();
        row0[16] = 1;
        assert!(err(&row0).contains("row 0"));
        let mut big = good;
        big[16 + 2 * CHANNELS..16 + 2 * CHANNELS + 2].copy_from_slice(&i16::MAX.to_le_bytes());
        assert!(err(&big).contains("beyond"));
    }
}
