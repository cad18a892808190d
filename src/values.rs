//! Parsers of flag values: whole numbers in a range (clap's own ranged
//! parsers print Rust's ranges), worker counts, durations, memory sizes,
//! cycle lengths and `--replay S:I`. Each returns the message clap prints
//! after `invalid value '...' for '--flag'` (exit code 2).

use std::time::Duration;

/// The most worker threads `--jobs` accepts. More threads than cores only
/// cost start-up time (spawning ten thousand took half a minute), and no
/// machine relaxlab targets has more cores than this.
pub const MAX_JOBS: usize = 512;

/// The most loop unrollings `--unroll` accepts: the unrolled program grows
/// as K to the power of the loop nesting depth.
pub const MAX_UNROLL: u32 = 64;

/// The most seconds `--timeout` accepts (about 31 years).
const MAX_TIMEOUT_SECS: f64 = 1e9;

/// The longest cycle `predict`/`confirm --length` accepts: 2k statements
/// over k threads.
pub const MAX_LENGTH: usize = 32;

/// `--jobs N`: 1 to [`MAX_JOBS`].
pub fn jobs(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("expected a number of worker threads from 1 to {MAX_JOBS}"))?;
    if (1..=MAX_JOBS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("must be {}", range(1, MAX_JOBS as u64)))
    }
}

/// A whole number from `MIN` to `MAX`, as a `T`: the value parser of every
/// counting flag. clap's own ranged parsers say `0 is not in
/// 1..18446744073709551615`; this one says `must be at least 1`.
pub fn whole<T, const MIN: u64, const MAX: u64>(s: &str) -> Result<T, String>
where
    T: TryFrom<u64>,
{
    let n: i128 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number {}", of_range(MIN, MAX)))?;
    u64::try_from(n)
        .ok()
        .filter(|n| (MIN..=MAX).contains(n))
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("must be {}", range(MIN, MAX)))
}

/// The values from `min` to `max` in words: `at least 1` when `max` is the
/// largest `u64` (no bound a person would type), else `from 0 to 64`.
pub fn range(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("at least {min}")
    } else {
        format!("from {min} to {max}")
    }
}

/// [`range`] after a noun: `of at least 1`, `from 0 to 64`.
pub fn of_range(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("of at least {min}")
    } else {
        range(min, max)
    }
}

/// `--timeout SECONDS`: a positive decimal number of seconds (`90`,
/// `2.5`), at most about 31 years.
pub fn timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds, such as 60 or 2.5".to_string())?;
    if !(secs > 0.0 && secs <= MAX_TIMEOUT_SECS) {
        return Err(format!(
            "the timeout must be more than 0 and at most {MAX_TIMEOUT_SECS:e} seconds"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
}

/// `--max-memory SIZE`: bytes, or a number (decimals allowed) with a
/// binary suffix `K`, `M`, `G` or `T` (also written `KiB`, `KB`, `k`...:
/// all mean powers of 1024, as `ulimit` and container runtimes count).
pub fn memory_size(s: &str) -> Result<u64, String> {
    const HELP: &str = "expected a size such as 4G, 512M or 1048576 (bytes)";
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: f64 = number.parse().map_err(|_| HELP.to_string())?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(HELP.to_string()),
    };
    let bytes = number * (1u64 << shift) as f64;
    if !(bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err("the size must be at least 1 byte and less than 16 EiB".to_string());
    }
    Ok(bytes as u64)
}

/// `--length 2k`: an even number from 4 to [`MAX_LENGTH`] (RELAXER's
/// cycles alternate a thread's two statements, two per thread, over at
/// least two threads).
pub fn cycle_length(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("expected an even number from 4 to {MAX_LENGTH}"))?;
    if !(4..=MAX_LENGTH).contains(&n) || n % 2 == 1 {
        Err(format!(
            "{n} is not a cycle length: 2k statements over k threads, an even number from 4 to {MAX_LENGTH}"
        ))
    } else {
        Ok(n)
    }
}

/// `--replay S:I`: sampled run `I` of seed `S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    pub seed: u64,
    pub index: u64,
}

/// Parses `S:I`; the index is below `u64::MAX` (the runs of a seed are
/// numbered from 0 up to `u64::MAX - 1`).
pub fn replay(s: &str) -> Result<Replay, String> {
    const HELP: &str = "expected SEED:INDEX, for example `7:42` (run 42 of seed 7)";
    let (seed, index) = s.split_once(':').ok_or(HELP)?;
    let seed = seed.trim().parse().map_err(|_| HELP.to_string())?;
    let index: u64 = index.trim().parse().map_err(|_| HELP.to_string())?;
    if index == u64::MAX {
        return Err(format!("run indices go up to {}", u64::MAX - 1));
    }
    Ok(Replay { seed, index })
}

/// `--partition K/N`: part K (1-based) of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub part: usize,
    pub parts: usize,
}

impl Partition {
    /// The whole corpus: part 1 of 1.
    pub const WHOLE: Partition = Partition { part: 1, parts: 1 };

    /// Does the file at `index` (0-based, in the order the command
    /// expands its arguments) belong to this part? Files are dealt out in
    /// turn, so every part gets files from every directory.
    pub fn holds(self, index: usize) -> bool {
        index % self.parts == self.part - 1
    }
}

/// The most parts `--partition` accepts.
pub const MAX_PARTS: usize = 1_000_000;

/// `--partition K/N`: 1 <= K <= N <= [`MAX_PARTS`].
pub fn partition(s: &str) -> Result<Partition, String> {
    const HELP: &str = "expected K/N, part K of N, for example `2/4`";
    let (k, n) = s.split_once('/').ok_or(HELP)?;
    let part: usize = k.trim().parse().map_err(|_| HELP.to_string())?;
    let parts: usize = n.trim().parse().map_err(|_| HELP.to_string())?;
    if !(1..=MAX_PARTS).contains(&parts) {
        return Err(format!(
            "the number of parts must be {}",
            range(1, MAX_PARTS as u64)
        ));
    }
    if !(1..=parts).contains(&part) {
        return Err(format!("the part must be from 1 to {parts}"));
    }
    Ok(Partition { part, parts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_deal_files_in_turn() {
        let p = partition("2/3").unwrap();
        assert_eq!((p.part, p.parts), (2, 3));
        let held: Vec<usize> = (0..7).filter(|&i| p.holds(i)).collect();
        assert_eq!(held, [1, 4]);
        assert!((0..5).all(|i| Partition::WHOLE.holds(i)));
        for bad in ["", "2", "0/3", "4/3", "1/0", "a/b", "1/1000001", "-1/2"] {
            assert!(partition(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_are_powers_of_1024() {
        assert_eq!(memory_size("512"), Ok(512));
        assert_eq!(memory_size("1K"), Ok(1024));
        assert_eq!(memory_size("1.5kib"), Ok(1536));
        assert_eq!(memory_size("2G"), Ok(2 << 30));
        assert_eq!(memory_size("2 GB"), Ok(2 << 30));
        assert_eq!(memory_size("1T"), Ok(1 << 40));
        for bad in ["", "0", "0.2", "G", "1X", "-1G", "99999999999T", "1e3"] {
            assert!(memory_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(timeout("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(timeout("60"), Ok(Duration::from_secs(60)));
        for bad in ["0", "-1", "nan", "inf", "1e300", "soon", ""] {
            assert!(timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lengths_are_even_from_4() {
        assert_eq!(cycle_length("4"), Ok(4));
        assert_eq!(cycle_length("6"), Ok(6));
        for bad in ["0", "2", "3", "5", "34", "x"] {
            assert!(cycle_length(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn replay_specs() {
        assert_eq!(replay("7:42"), Ok(Replay { seed: 7, index: 42 }));
        for bad in ["7", "7:", ":3", "a:b", "1:18446744073709551615"] {
            assert!(replay(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn whole_numbers_say_their_range_in_words() {
        assert_eq!(whole::<u64, 1, { u64::MAX }>("7"), Ok(7));
        assert_eq!(whole::<u32, 0, 64>("0"), Ok(0));
        for bad in ["0", "-3", "18446744073709551616"] {
            assert_eq!(
                whole::<u64, 1, { u64::MAX }>(bad),
                Err("must be at least 1".to_string()),
                "{bad}"
            );
        }
        assert_eq!(
            whole::<u32, 0, 64>("65"),
            Err("must be from 0 to 64".to_string())
        );
        assert_eq!(
            whole::<u64, 1, { u64::MAX }>("many"),
            Err("expected a whole number of at least 1".to_string())
        );
        assert_eq!(jobs("0"), Err("must be from 1 to 512".to_string()));
    }

    #[test]
    fn job_counts() {
        assert_eq!(jobs("1"), Ok(1));
        assert_eq!(jobs("512"), Ok(512));
        for bad in ["0", "513", "-1", "x"] {
            assert!(jobs(bad).is_err(), "{bad}");
        }
    }
}
