//! The value parsers of the options: counts, field numbers, sizes and
//! profile names, each as clap calls it, with one-line errors.

use std::num::NonZeroUsize;

use normurl::canon::Profile;

/// The parser of a profile's name: [`Profile`]'s own `FromStr` (whose
/// error lists every profile, as the Python package's does), with every
/// profile of [`Profile::ALL`] as the possible values that `--help` lists,
/// so that the help and the error name them from the one list
/// (`safe-browsing` is `google`'s other name).
pub fn profile_parser() -> ProfileParser {
    ProfileParser
}

/// See [`profile_parser`].
#[derive(Clone, Copy, Debug)]
pub struct ProfileParser;

impl clap::builder::TypedValueParser for ProfileParser {
    type Value = Profile;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Profile, clap::Error> {
        clap::builder::StringValueParser::new()
            .try_map(|name| name.parse::<Profile>())
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        use clap::builder::PossibleValue;
        Some(Box::new(Profile::ALL.into_iter().map(|p| match p {
            Profile::SafeBrowsing => PossibleValue::new(p.name()).alias("safe-browsing"),
            _ => PossibleValue::new(p.name()),
        })))
    }
}

/// Parses a count such as `-j`'s: any decimal number, however large (it
/// is clamped where it is used, never overflows).
pub fn parse_count(s: &str) -> Result<usize, String> {
    let digits = s.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("invalid number {s:?} (expected 0, 1, 2, ...)"));
    }
    Ok(digits.parse::<usize>().unwrap_or(usize::MAX))
}

/// Parses a field number: counted from 1, as `cut` and `sort` count.
pub fn parse_field(s: &str) -> Result<NonZeroUsize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("fields count from 1".to_string()),
        Ok(n) => Ok(NonZeroUsize::MIN.saturating_add(n - 1)),
        Err(_) => Err(format!("{s:?} is not a field number (1, 2, ...)")),
    }
}

/// Parses `1048576`, `64K`, `1M`, `1MiB`, `2G` (powers of 1024).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.as_bytes().last() {
        Some(b'K' | b'k') => (&t[..t.len() - 1], 10),
        Some(b'M' | b'm') => (&t[..t.len() - 1], 20),
        Some(b'G' | b'g') => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("invalid size {s:?} (examples: 4096, 64K, 1M)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("0"), Ok(0));
        assert_eq!(parse_count("2000"), Ok(2000));
        assert_eq!(parse_count("9223372036854775807"), Ok(9223372036854775807));
        assert_eq!(parse_count("99999999999999999999999"), Ok(usize::MAX));
        assert!(parse_count("-1").is_err());
        assert!(parse_count("").is_err());
        assert!(parse_count("2x").is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("1M"), Ok(1 << 20));
        assert_eq!(parse_size("1MiB"), Ok(1 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert!(parse_size("1.5M").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("M").is_err());
    }
}
