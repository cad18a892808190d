//! Counts and sizes in words: `1 outcome`, `2 outcomes`, `4 GiB`.

/// `n` and `noun`, plural unless `n` is 1 (`noun` is regular: "state",
/// "run", "candidate execution").
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A byte count in the largest binary unit that keeps it at least 1:
/// `512 bytes`, `1.5 KiB`, `4 GiB`.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return plural(bytes, "byte");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.1}");
    format!("{} {}", text.trim_end_matches(".0"), UNITS[unit])
}

/// `a`, `a or b`, `a, b or c` (with `and` as `conjunction`, `a, b and c`).
pub fn listed<S: AsRef<str>>(items: &[S], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} {conjunction} {}", rest.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(plural(1, "location"), "1 location");
        assert_eq!(plural(0, "location"), "0 locations");
        assert_eq!(plural(2, "candidate execution"), "2 candidate executions");
        assert_eq!(size(1), "1 byte");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(4 << 30), "4 GiB");
        assert_eq!(listed(&["tso", "pso", "pslo"], "or"), "tso, pso or pslo");
        assert_eq!(listed(&["c11r"], "and"), "c11r");
    }
}
