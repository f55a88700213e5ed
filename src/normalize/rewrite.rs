//! `--rewrite FILE`: the user's regex substitutions, applied to what the
//! canonicalizer wrote, as webarchive-commons' `RewriteRule` and Norconex's
//! replacements do.
//!
//! It is a step of the normalizer on the output bytes, not a rule of the
//! canonicalizer, because its result can fail: a rewritten URL that no
//! longer parses makes the line invalid (`rewrite-invalid`), which the
//! canonicalizer's `apply` (infallible, and the reference its fast paths
//! are tested against) cannot say. Components (`--get`) are those of the
//! rewritten URL.
//!
//! The file has one item a line; a line whose first non-blank byte is `#`
//! is a comment (a regex may hold `#`):
//!
//! ```text
//! s|^https://m\.(.*)$|https://$1|     # s, a delimiter, REGEX, REPLACEMENT
//! ^http://old\.example/<TAB>https://new.example/
//! test https://m.a.com/x https://a.com/x
//! ```
//!
//! (`<TAB>` is a tab: REGEX TAB REPLACEMENT, the replacement running to
//! the end of the line, so such a line has no trailing comment.)
//!
//! Every rule replaces every match, in file order; replacements take the
//! regex crate's `$1`, `${name}`, `$$`. A `test INPUT EXPECTED` line runs
//! INPUT through the profile and every rule of the file, and fails the
//! load if the output is not EXPECTED, is no URL, or changes when run
//! through again (not idempotent).

use std::borrow::Cow;
use std::fmt;

use regex::bytes::Regex;

use crate::canon::{Canonicalizer, OutputForm, Rule, Scratch};
use crate::Url;

/// The rules of a `--rewrite` file: `s|REGEX|REPLACEMENT|` lines (any
/// delimiter that is not alphanumeric), `REGEX<TAB>REPLACEMENT` lines,
/// `test INPUT EXPECTED` lines checked at load, `#` comment lines
/// (docs/rules.md has the details).
///
/// # Example
///
/// ```
/// use normurl::canon::{Canonicalizer, Profile};
/// use normurl::normalize::Rewrites;
///
/// let canon = Canonicalizer::new(Profile::Semantic);
/// let text = "s|^https://m\\.|https://|\ntest HTTPS://M.A.com/x https://a.com/x\n";
/// let rewrites = Rewrites::parse(text, &canon)?;
/// assert_eq!(&*rewrites.apply(b"https://m.b.com/"), b"https://b.com/");
/// assert!(Rewrites::parse("test https://a.com/ https://b.com/", &canon).is_err());
/// # Ok::<(), normurl::normalize::RewriteError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Rewrites {
    rules: Vec<(Regex, Box<[u8]>)>,
    /// Whether the canonicalizer writes URLs (else keys: SURT, SSURT,
    /// `strip-scheme`), which a rewrite must leave valid.
    urls: bool,
}

/// A `--rewrite` file that could not be loaded: the 1-based line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RewriteError {
    /// The line.
    pub line: usize,
    /// What is wrong with it, in one line.
    pub message: String,
}

impl fmt::Display for RewriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RewriteError {}

/// A test line, kept until every rule is read.
struct Test<'t> {
    line: usize,
    input: &'t str,
    expected: &'t str,
}

impl Rewrites {
    /// Reads a file's text and runs its tests through `canon` and the
    /// rules.
    pub fn parse(text: &str, canon: &Canonicalizer) -> Result<Rewrites, RewriteError> {
        let mut rewrites = Rewrites {
            rules: Vec::new(),
            urls: canon.output() == OutputForm::Url && !canon.rules().contains(Rule::StripScheme),
        };
        let mut tests = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let fail = |message: String| RewriteError {
                line: i + 1,
                message,
            };
            let item = line.trim_start();
            if item.is_empty() || item.starts_with('#') {
                continue;
            }
            if let Some(rest) = item.strip_prefix("test ") {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let [input, expected] = words[..] else {
                    return Err(fail(format!("{item:?} is not test INPUT EXPECTED")));
                };
                tests.push(Test {
                    line: i + 1,
                    input,
                    expected,
                });
                continue;
            }
            let (regex, replacement) = split_rule(line).map_err(fail)?;
            let regex = Regex::new(regex).map_err(|e| fail(one_line(&e.to_string())))?;
            check_groups(&regex, replacement).map_err(fail)?;
            rewrites.rules.push((regex, replacement.as_bytes().into()));
        }
        for test in &tests {
            rewrites.check(canon, test)?;
        }
        Ok(rewrites)
    }

    /// `input` with every rule applied in turn; borrowed when no rule
    /// matched.
    pub fn apply<'a>(&self, input: &'a [u8]) -> Cow<'a, [u8]> {
        let mut current = Cow::Borrowed(input);
        for (regex, replacement) in &self.rules {
            if let Cow::Owned(changed) = regex.replace_all(&current, &**replacement) {
                current = Cow::Owned(changed);
            }
        }
        current
    }

    /// Rewrites the output the canonicalizer appended to `data` after
    /// `start`, in place; `url` is scratch space. Returns whether a rule
    /// changed it. A rewritten URL is parsed and written as its
    /// serialization; when it does not parse, the line is invalid and
    /// `data` holds a part of it, which the caller drops.
    pub(super) fn rewrite(
        &self,
        data: &mut Vec<u8>,
        start: usize,
        url: &mut Option<Url>,
    ) -> Result<bool, RewriteInvalid> {
        let Cow::Owned(changed) = self.apply(&data[start..]) else {
            return Ok(false);
        };
        data.truncate(start);
        if !self.urls {
            data.extend_from_slice(&changed);
            return Ok(true);
        }
        let text = std::str::from_utf8(&changed).map_err(|_| RewriteInvalid)?;
        let parsed = match url {
            Some(url) => url.parse_into(text, None).map(|()| &*url),
            None => Url::parse(text).map(|u| &*url.insert(u)),
        };
        data.extend_from_slice(parsed.map_err(|_| RewriteInvalid)?.href().as_bytes());
        Ok(true)
    }

    /// Rewrites what a canonicalizer appended to `data` after `start`, in
    /// place, as the command does each line's (a rewritten URL is written
    /// as its serialization; `url` is scratch space to parse it in).
    /// Returns whether a rule changed it, or `None` when the result is no
    /// URL (the command's `rewrite-invalid`: `data` then holds a part of
    /// it, for the caller to drop).
    ///
    /// # Example
    ///
    /// ```
    /// use normurl::canon::{Canonicalizer, Profile};
    /// use normurl::normalize::Rewrites;
    ///
    /// let rewrites = Rewrites::parse("s|^https://m\\.|https://|\ns|^https://x\\.|no|", &Canonicalizer::new(Profile::Whatwg))?;
    /// let mut data = b"line: https://m.a.com/".to_vec();
    /// assert_eq!(rewrites.rewrite_output(&mut data, 6, &mut None), Some(true));
    /// assert_eq!(data, b"line: https://a.com/");
    /// let mut data = b"https://x.a.com/".to_vec();
    /// assert_eq!(rewrites.rewrite_output(&mut data, 0, &mut None), None);
    /// # Ok::<(), normurl::normalize::RewriteError>(())
    /// ```
    pub fn rewrite_output(
        &self,
        data: &mut Vec<u8>,
        start: usize,
        url: &mut Option<Url>,
    ) -> Option<bool> {
        self.rewrite(data, start, url).ok()
    }

    /// `input` through `canon` and the rules, as a line is.
    fn run(&self, canon: &Canonicalizer, input: &str) -> Result<String, String> {
        let url = Url::parse(input).map_err(|e| format!("{input} is no URL: {}", e.message()))?;
        let mut data = Vec::new();
        canon.apply(&url, &mut Scratch::new(), &mut data);
        let before = String::from_utf8_lossy(&data).into_owned();
        self.rewrite(&mut data, 0, &mut None)
            .map_err(|_| format!("{input} becomes {before}, rewritten to no URL"))?;
        Ok(String::from_utf8_lossy(&data).into_owned())
    }

    /// Runs one test line: the output must be the expected one, and the
    /// same when it is run through again.
    fn check(&self, canon: &Canonicalizer, test: &Test<'_>) -> Result<(), RewriteError> {
        let fail = |message: String| RewriteError {
            line: test.line,
            message,
        };
        let once = self.run(canon, test.input).map_err(fail)?;
        if once != test.expected {
            return Err(fail(format!(
                "{} gives {once}, not {}",
                test.input, test.expected
            )));
        }
        if !self.urls {
            return Ok(());
        }
        let twice = self.run(canon, &once).map_err(fail)?;
        if twice != once {
            return Err(fail(format!(
                "{} gives {once}, which gives {twice}: the rules are not idempotent",
                test.input
            )));
        }
        Ok(())
    }
}

/// A rewritten URL that does not parse: the line is invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RewriteInvalid;

/// The regex and the replacement of a rule line: `sDREGEXDREPLACEMENTD`
/// for a delimiter D that is not alphanumeric, or else `REGEX TAB
/// REPLACEMENT`.
fn split_rule(line: &str) -> Result<(&str, &str), String> {
    let item = line.trim_start();
    let sed = item
        .strip_prefix('s')
        .and_then(|rest| rest.chars().next().map(|d| (d, rest)))
        .filter(|(d, _)| !d.is_alphanumeric() && !d.is_whitespace() && *d != '\\');
    if let Some((delimiter, rest)) = sed {
        let parts: Vec<&str> = rest.split(delimiter).collect();
        if let ["", regex, replacement, end] = parts[..] {
            let end = end.trim();
            if end.is_empty() || end.starts_with('#') {
                return Ok((regex, replacement));
            }
        }
    }
    match line.split_once('\t') {
        Some((regex, replacement)) if !regex.is_empty() && !replacement.contains('\t') => {
            Ok((regex, replacement))
        }
        _ => Err(format!(
            "{:?} is not s|REGEX|REPLACEMENT| (any delimiter not in them), REGEX<TAB>REPLACEMENT or test INPUT EXPECTED",
            item.trim_end()
        )),
    }
}

/// Checks that every `$group` of `replacement` names a group of `regex`:
/// the regex crate would replace a missing one by nothing, silently.
fn check_groups(regex: &Regex, replacement: &str) -> Result<(), String> {
    let mut rest = replacement;
    while let Some(at) = rest.find('$') {
        rest = &rest[at + 1..];
        let (name, after) = if let Some(braced) = rest.strip_prefix('{') {
            match braced.split_once('}') {
                Some((name, after)) => (name, after),
                None => return Err(format!("${{ without }} in {replacement:?}")),
            }
        } else {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        };
        rest = after;
        if name.is_empty() {
            // `$$` is a `$`; a `$` before anything else is itself.
            rest = rest.strip_prefix('$').unwrap_or(rest);
            continue;
        }
        let exists = match name.parse::<usize>() {
            Ok(i) => i < regex.captures_len(),
            Err(_) => regex.capture_names().flatten().any(|n| n == name),
        };
        if !exists {
            return Err(format!(
                "the replacement {replacement:?} names ${name}, which the regex has no group for (${{1}}x for group 1 then x)"
            ));
        }
    }
    Ok(())
}

/// A multi-line message (the regex crate's errors draw a caret) on one
/// line.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::Profile;

    fn load(text: &str) -> Result<Rewrites, RewriteError> {
        Rewrites::parse(text, &Canonicalizer::new(Profile::Whatwg))
    }

    fn apply(rewrites: &Rewrites, input: &str) -> String {
        String::from_utf8(rewrites.apply(input.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn both_forms_in_order_every_match() {
        let r = load("# comment\ns|a|b|\n  s,b+,[$0],  # trailing comment\nx(?P<n>\\d)\t${n}y\n")
            .unwrap();
        assert_eq!(apply(&r, "aabx1"), "[bbb]1y");
        assert!(matches!(r.apply(b"zzz"), Cow::Borrowed(_)));
    }

    #[test]
    fn tests_check_the_output_and_idempotence() {
        load("s|/old/|/new/|\ntest https://a.com/old/x https://a.com/new/x").unwrap();
        let err = load("s|/old/|/new/|\n\ntest https://a.com/old/x https://a.com/x").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(
            err.message
                .contains("gives https://a.com/new/x, not https://a.com/x"),
            "{err}"
        );
        // Each run adds a segment: the output changes when run again.
        let err = load("s|/x$|/x/x|\ntest https://a.com/x https://a.com/x/x").unwrap_err();
        assert!(err.message.contains("not idempotent"), "{err}");
        assert!(err.message.contains("https://a.com/x/x/x"), "{err}");
        let err = load("s|^https:|nope|\ntest https://a.com/ x").unwrap_err();
        assert!(err.message.contains("rewritten to no URL"), "{err}");
        assert!(load("test a b c").is_err() && load("test nourl x").is_err());
    }

    #[test]
    fn bad_rules_name_their_line() {
        for (text, line, needle) in [
            ("s|a|b", 1, "is not s|REGEX"),
            ("\ns|a|b|c|", 2, "is not s|REGEX"),
            ("just text", 1, "is not s|REGEX|REPLACEMENT|"),
            ("s|(|x|", 1, "unclosed group"),
            ("s|(a)|$2|", 1, "$2"),
            ("s|(a)|$1x|", 1, "$1x"),
            ("s|(?P<n>a)|${m}|", 1, "$m"),
            ("s|a|${1|", 1, "without }"),
        ] {
            let err = load(text).unwrap_err();
            assert_eq!(err.line, line, "{text}: {err}");
            assert!(err.to_string().contains(needle), "{text}: {err}");
            assert!(!err.to_string().contains('\n'), "{err}");
        }
        load("s|(a)|${1}x $$ $ $0|").unwrap();
    }

    #[test]
    fn rewrite_parses_what_it_writes() {
        let r = load("s|A|%41|\ns|^x:|nope|").unwrap();
        let mut data = b"line https://a.com/A".to_vec();
        assert_eq!(r.rewrite(&mut data, 5, &mut None), Ok(true));
        assert_eq!(data, b"line https://a.com/%41");
        let mut data = b"x://y".to_vec();
        assert_eq!(r.rewrite(&mut data, 0, &mut None), Err(RewriteInvalid));
        let mut data = b"https://b.com/".to_vec();
        assert_eq!(r.rewrite(&mut data, 0, &mut None), Ok(false));
    }
}
