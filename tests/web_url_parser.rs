//! The Web::URL::Parser (manakai) canonicalization suite, decomps*.dat of
//! wakaba/tests-web `url/parsing/` (copied into tests/data/web-url-parser,
//! HTCT format), run through the WHATWG parser.
//!
//! The suite dates from 2011 and was only partly updated to the WHATWG URL
//! Standard, so some of its expectations are the old module's behaviour.
//! Those cases are listed, classified, in
//! tests/data/web-url-parser/known-differences.tsv: the test fails when a
//! listed case passes or an unlisted one fails, so that any change that
//! moves a case shows up. `NORMURL_BLESS=1` rewrites the list's cases
//! (keeping the classes of cases already listed; new ones get `unclassified`).

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use normurl::canon::{Canonicalizer, Profile};
use normurl::{Mode, QueryEncoding, Reference, Url};

const DIR: &str = "tests/data/web-url-parser";
const KNOWN: &str = "tests/data/web-url-parser/known-differences.tsv";

/// One test: its fields, by name, and the line it starts on.
struct Test {
    line: usize,
    fields: BTreeMap<String, String>,
}

/// Splits an HTCT file into tests (see ../shared FORMAT.md): a test starts
/// at a `#` line after a blank line; `#NAME OPTS` starts a field whose
/// value is the lines up to the next `#` line, or else its first option.
fn parse_htct(text: &str) -> Vec<Test> {
    let mut tests: Vec<Test> = Vec::new();
    // The current field: name, options, value lines.
    let mut field: Option<(String, Vec<String>, Vec<String>)> = None;
    let mut prev_blank = true;
    let finish = |tests: &mut Vec<Test>, field: Option<(String, Vec<String>, Vec<String>)>| {
        if let (Some(t), Some((name, opts, mut lines))) = (tests.last_mut(), field) {
            while lines.last().is_some_and(String::is_empty) {
                lines.pop();
            }
            let mut value = lines.join("\n");
            if value.is_empty() {
                value = opts.first().cloned().unwrap_or_default();
            }
            if opts.last().map(String::as_str) == Some("escaped") {
                value = unescape(&value);
            }
            t.fields.entry(name).or_insert(value);
        }
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(header) = line.strip_prefix('#') {
            finish(&mut tests, field.take());
            if prev_blank {
                tests.push(Test {
                    line: i + 1,
                    fields: BTreeMap::new(),
                });
            }
            let mut words = header.split_whitespace().map(str::to_owned);
            let name = words.next().unwrap_or_default();
            field = Some((name, words.collect(), Vec::new()));
        } else if let Some((name, _, lines)) = &mut field {
            let line = match name.as_str() {
                "data" | "path" => line.strip_prefix("| ").unwrap_or(line),
                _ => line,
            };
            lines.push(line.to_owned());
        }
        prev_blank = line.is_empty();
    }
    finish(&mut tests, field.take());
    tests
}

/// Decodes `\uXXXX` and `\UXXXXXXXX`; lone surrogates and values beyond
/// Unicode become U+FFFD (a Rust string cannot hold them).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let digits = match tail.as_bytes().get(1) {
            Some(b'u') => 4,
            Some(b'U') => 8,
            _ => 0,
        };
        let code = tail
            .get(2..2 + digits)
            .filter(|_| digits > 0)
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match code {
            Some(c) => {
                out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                rest = &tail[2 + digits..];
            }
            None => {
                out.push('\\');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// What the WHATWG parser makes of a test, or `None` for failure.
/// Without `#base` the data is resolved against itself, as the suite's
/// harness does.
fn parse(t: &Test) -> Option<Url> {
    let data = t.fields.get("data")?;
    let base = t
        .fields
        .get("base")
        .filter(|b| !b.is_empty())
        .unwrap_or(data);
    // `#charset`: the document's encoding, the query encoding override.
    // Labels that are no Encoding Standard encoding (ibm037, utf-7) mean
    // UTF-8, as Web::URL::Parser's description says of encodings that are
    // not ASCII-compatible.
    let encoding = t
        .fields
        .get("charset")
        .and_then(|label| QueryEncoding::for_label(label))
        .unwrap_or(QueryEncoding::UTF_8);
    let base = Url::parse_with_encoding(base, None, encoding).ok()?;
    Url::parse_with_encoding(data, Some(&base), encoding).ok()
}

/// What reproduces the suite's expectation for a case the WHATWG
/// serialization does not pass: a canonicalization profile applied to the
/// URL, or a `--resolve` mode other than WHATWG's for the data against its
/// base (`profile:NAME`, `resolve:MODE`), or `-`.
fn reproduced_by(t: &Test, url: Option<&Url>, want: Option<&str>) -> String {
    let Some(want) = want else {
        return "-".into();
    };
    if let Some(p) = url.and_then(|url| {
        Profile::ALL
            .into_iter()
            .filter(|&p| p != Profile::Whatwg)
            .find(|&p| Canonicalizer::new(p).canonicalize_url(url) == want)
    }) {
        return format!("profile:{}", p.name());
    }
    let data = &t.fields["data"];
    let base = t
        .fields
        .get("base")
        .filter(|b| !b.is_empty())
        .unwrap_or(data);
    let Ok(base) = Url::parse(base) else {
        return "-".into();
    };
    [Mode::Legacy, Mode::Generic]
        .into_iter()
        .find(|&m| {
            Reference::resolve_url(data, &base, m).is_ok_and(|u| u.href() == want)
                || Reference::parse_against(data, &Reference::from_url(&base))
                    .and_then(|r| r.resolve(&Reference::from_url(&base), m))
                    .is_ok_and(|r| r.normalize().to_string() == want)
        })
        .map_or("-".into(), |m| format!("resolve:{}", m.name()))
}

/// The suite's expectation: `None` for invalid.
fn expected(t: &Test) -> Option<String> {
    if t.fields.get("invalid").map(String::as_str) == Some("1") {
        return None;
    }
    t.fields.get("canon").or(t.fields.get("data")).cloned()
}

/// One case's outcome.
struct Outcome {
    key: (String, usize),
    data: String,
    want: Option<String>,
    got: Option<String>,
    /// What gives `want`, when the WHATWG serialization does not: see
    /// [`reproduced_by`].
    profile: String,
}

impl Outcome {
    fn passed(&self) -> bool {
        self.got == self.want
    }
}

/// Every test of every file.
fn outcomes() -> Vec<Outcome> {
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("decomps") && n.ends_with(".dat"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for name in files {
        let text = std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
        for t in parse_htct(&text) {
            if !t.fields.contains_key("data") {
                continue;
            }
            let url = parse(&t);
            let want = expected(&t);
            let got = url.as_ref().map(|u| u.href().to_owned());
            let profile = if got == want {
                "-".into()
            } else {
                reproduced_by(&t, url.as_ref(), want.as_deref())
            };
            all.push(Outcome {
                key: (name.clone(), t.line),
                data: t.fields["data"].clone(),
                want,
                got,
                profile,
            });
        }
    }
    all
}

#[test]
fn decomps_suite_matches_its_known_differences() {
    let all = outcomes();
    let known = known_differences();
    let failing: Vec<&Outcome> = all.iter().filter(|o| !o.passed()).collect();
    eprintln!(
        "web-url-parser decomps: {} of {} pass",
        all.len() - failing.len(),
        all.len()
    );
    if std::env::var_os("NORMURL_BLESS").is_some() {
        bless(&failing, &known);
    }
    let describe = |o: &&Outcome| {
        format!(
            "{}:{} {:?}: want {:?}, got {:?}",
            o.key.0, o.key.1, o.data, o.want, o.got
        )
    };
    let newly_failing: Vec<String> = failing
        .iter()
        .filter(|o| !known.contains_key(&o.key))
        .map(describe)
        .collect();
    let newly_passing: Vec<String> = all
        .iter()
        .filter(|o| o.passed() && known.contains_key(&o.key))
        .map(|o| describe(&o))
        .collect();
    assert!(
        newly_failing.is_empty() && newly_passing.is_empty(),
        "{} cases fail that are not in {KNOWN}:\n{}\n{} listed cases now pass:\n{}\n\
         (NORMURL_BLESS=1 rewrites the list)",
        newly_failing.len(),
        newly_failing.join("\n"),
        newly_passing.len(),
        newly_passing.join("\n")
    );
    // The classes, and the profiles said to give the suite's answer.
    for o in &failing {
        let k = &known[&o.key];
        assert!(
            CLASSES.contains(&k.class.as_str()),
            "{}:{}: class {:?}",
            o.key.0,
            o.key.1,
            k.class
        );
        assert_eq!(
            o.profile, k.profile,
            "{}:{}: reproduced by",
            o.key.0, o.key.1
        );
    }
    assert_eq!(all.len(), 9003, "cases in the 40 files");
}

/// A listed case's classification.
#[derive(Clone)]
struct Known {
    class: String,
    step: String,
    profile: String,
}

/// The list: (file, line) -> classification.
fn known_differences() -> BTreeMap<(String, usize), Known> {
    let text = std::fs::read_to_string(KNOWN).unwrap_or_default();
    let mut known = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 5, "{KNOWN}: short line {line:?}");
        let key = (cols[0].to_owned(), cols[1].parse().expect("line number"));
        let (class, step, profile) = (cols[2].into(), cols[3].into(), cols[4].into());
        known.insert(
            key,
            Known {
                class,
                step,
                profile,
            },
        );
    }
    known
}

/// Rewrites the list from `failing`, keeping the classes already given.
fn bless(failing: &[&Outcome], known: &BTreeMap<(String, usize), Known>) {
    let mut out = String::from(KNOWN_HEADER);
    for o in failing {
        let k = known.get(&o.key).cloned().unwrap_or(Known {
            class: "unclassified".into(),
            step: "-".into(),
            profile: String::new(),
        });
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{:?}\t{:?}\t{:?}",
            o.key.0, o.key.1, k.class, k.step, o.profile, o.data, o.want, o.got
        );
    }
    std::fs::write(KNOWN, out).expect("write the list");
}

/// The classes of tests/data/web-url-parser/README.md.
const CLASSES: [&str; 14] = [
    "host-percent-encoded",
    "idna2003",
    "dns-length",
    "ipv4-legacy",
    "ipv6-legacy",
    "file-legacy",
    "unreserved-decoded",
    "non-hierarchical-scheme",
    "legacy-resolution",
    "scheme-rules",
    "percent-encode-set",
    "noncharacter-replaced",
    "surrogates",
    "query-encoding",
];

const KNOWN_HEADER: &str = "\
# Web::URL::Parser decomps*.dat cases whose expectation is not what the
# WHATWG URL Standard gives (tests/web_url_parser.rs). Columns: file, line
# of the test, class, the url.bs step that decides, what in normurl gives
# the suite's expectation (profile:NAME, resolve:MODE, or -), data, expected
# (None: invalid), normurl's WHATWG parse (None: failure). Classes: see
# tests/data/web-url-parser/README.md.
";
