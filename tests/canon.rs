//! The canonicalization suites of other canonicalizers (copied into
//! tests/data/canon/, see its README.md), run against normurl's rules.
//!
//! Each suite runs with the configuration that corresponds to the
//! canonicalizer it was written for (documented at each suite). A case that
//! fails must be listed, with its reason, in exactly one of:
//!
//! - `tests/data/canon/spec-conflicts.txt`: the expected output contradicts
//!   the URL Standard (the other canonicalizer parses differently);
//! - `tests/data/canon/rule-differences.txt`: the other canonicalizer's
//!   rule does something normurl's corresponding rule deliberately does not.
//!
//! The lists are ratchets: a listed case that passes fails the test too, so
//! entries are removed as soon as they stop being needed.
//!
//! Every output in URL form is also checked to be a valid URL that
//! canonicalizes to itself.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use normurl::canon::{
    self, form, parse_with_default_scheme, Canonicalizer, OutputForm, Profile, RuleSet, Scratch,
    SurtOptions, TrackingParams,
};
use normurl::{HostKind, QueryEncoding, Url};
use serde_json::Value;

const DATA: &str = "tests/data/canon";

fn load(path: &str) -> Value {
    let path = format!("{DATA}/{path}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn object(value: &Value) -> Vec<(String, String)> {
    value
        .as_object()
        .expect("an object")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a string").to_owned()))
        .collect()
}

/// urlcanon's Python tests hand the JSON keys to the canonicalizer as bytes
/// (each character one byte), so `"\u00e2\u0098\u0083"` is the UTF-8 of
/// U+2603. Undo that; bytes that are not UTF-8 become U+FFFD (the URL
/// Standard parses strings, so such inputs are spec conflicts).
///
/// Some cases in the same files are plain strings (`"Bücher.ch"`), so a
/// string whose characters do not spell UTF-8 bytes is kept as it is.
fn latin1_bytes(s: &str) -> String {
    if s.chars().all(|c| (c as u32) < 0x100) {
        let bytes: Vec<u8> = s.chars().map(|c| c as u8).collect();
        if let Ok(text) = String::from_utf8(bytes) {
            return text;
        }
    }
    s.to_owned()
}

/// What one case gave.
struct Outcome {
    input: String,
    expected: String,
    actual: String,
}

/// A suite's outcomes, checked against the two lists.
struct Suite {
    name: &'static str,
    outcomes: Vec<Outcome>,
}

impl Suite {
    fn new(name: &'static str) -> Suite {
        Suite {
            name,
            outcomes: Vec::new(),
        }
    }

    fn push(&mut self, input: &str, expected: &str, actual: String) {
        self.outcomes.push(Outcome {
            input: input.to_owned(),
            expected: expected.to_owned(),
            actual,
        });
    }

    /// Fails on unlisted failures and on listed cases that pass.
    fn check(self) {
        let lists = lists();
        let mut problems = Vec::new();
        let (mut passed, mut conflicts, mut differences) = (0, 0, 0);
        let mut seen = Vec::new();
        for o in &self.outcomes {
            let key = (self.name.to_owned(), o.input.clone());
            seen.push(key.clone());
            let listed = lists.get(&key);
            let pass = o.actual == o.expected;
            match (pass, listed) {
                (true, None) => passed += 1,
                (true, Some(entry)) => problems.push(format!(
                    "now passes, remove it from {}: {} {:?}",
                    entry.file, self.name, o.input
                )),
                (false, Some(entry)) if entry.file == CONFLICTS => conflicts += 1,
                (false, Some(_)) => differences += 1,
                (false, None) => problems.push(format!(
                    "{}\t{}\t[category] reason\n    expected {:?}\n    actual   {:?}",
                    self.name,
                    serde_json::to_string(&o.input).unwrap(),
                    o.expected,
                    o.actual
                )),
            }
        }
        for (key, entry) in lists.iter().filter(|(k, _)| k.0 == self.name) {
            if !seen.contains(key) {
                problems.push(format!("stale entry in {}: {:?}", entry.file, key));
            }
        }
        eprintln!(
            "{}: {} cases, {passed} pass, {conflicts} spec conflicts, {differences} rule differences",
            self.name,
            self.outcomes.len()
        );
        assert!(
            problems.is_empty(),
            "{}:\n{}",
            self.name,
            problems.join("\n")
        );
    }
}

const CONFLICTS: &str = "spec-conflicts.txt";
const DIFFERENCES: &str = "rule-differences.txt";

struct Entry {
    file: &'static str,
}

/// Both lists, keyed by (suite, input). Lines are `suite<TAB>"json
/// input"<TAB>[category] reason`; `#` starts a comment line.
fn lists() -> &'static HashMap<(String, String), Entry> {
    static LISTS: OnceLock<HashMap<(String, String), Entry>> = OnceLock::new();
    LISTS.get_or_init(|| {
        let mut map = HashMap::new();
        for file in [CONFLICTS, DIFFERENCES] {
            let path = format!("{DATA}/{file}");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            for (n, line) in text.lines().enumerate() {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let fields: Vec<&str> = line.splitn(3, '\t').collect();
                assert_eq!(
                    fields.len(),
                    3,
                    "{path}:{}: want suite, input, reason",
                    n + 1
                );
                let input: String = serde_json::from_str(fields[1])
                    .unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1));
                assert!(
                    fields[2].starts_with('['),
                    "{path}:{}: reason needs a [category]",
                    n + 1
                );
                let old = map.insert((fields[0].to_owned(), input), Entry { file });
                assert!(old.is_none(), "{path}:{}: listed twice", n + 1);
            }
        }
        map
    })
}

/// Canonicalizes `input` (with urlcanon's and Safe Browsing's default
/// scheme when `default_http`), checking that a URL-form output is valid and
/// canonicalizes to itself. A parse failure gives `"<parse error: ...>"`.
fn run(canon: &Canonicalizer, input: &str, default_http: bool) -> String {
    let mut url = Url::parse("about:blank").unwrap();
    let parsed = if default_http {
        parse_with_default_scheme(&mut url, input, "http", &mut String::new())
    } else {
        url.parse_into(input, None)
    };
    if let Err(e) = parsed {
        return format!("<parse error: {}>", e.name());
    }
    let out = canon.canonicalize_url(&url);
    if canon.output() == OutputForm::Url {
        assert_idempotent(canon, &out);
    }
    out
}

fn assert_idempotent(canon: &Canonicalizer, out: &str) {
    let reparsed = Url::parse(out).unwrap_or_else(|e| panic!("output {out:?} does not parse: {e}"));
    let again = canon.canonicalize_url(&reparsed);
    assert_eq!(
        again, out,
        "not idempotent: {out:?} canonicalizes to {again:?}"
    );
}

fn with_rules(profile: Profile, edits: &str) -> Canonicalizer {
    Canonicalizer::builder(profile)
        .rules(edits)
        .unwrap()
        .build()
}

fn surt(profile: Profile, edits: &str, options: SurtOptions) -> Canonicalizer {
    Canonicalizer::builder(profile)
        .rules(edits)
        .unwrap()
        .output(OutputForm::Surt(options))
        .build()
}

/// urlcanon's `semantic_precise`, in normurl's rules: `semantic` plus what
/// urlcanon adds on top of WHATWG (userinfo removed, host dots fixed,
/// percent-encodings unescaped and minimally re-escaped with its encode
/// sets' `=` in values, `#` in fragments and spaces in opaque paths,
/// slashes collapsed in special URLs, query sorted by the bytes of each
/// piece), with missing schemes defaulting to http. `urlcanon-semantic` is
/// this plus `drop-fragment`, as urlcanon's `semantic` is.
fn urlcanon_semantic_precise() -> Canonicalizer {
    let canon = Canonicalizer::new(Profile::UrlcanonSemanticPrecise);
    let edits = "+encode-bare-percent,+encode-hash-space,+strip-userinfo,+trim-host-dots,+unescape-path,+unescape-query,+encode-value-equals,+collapse-slashes,+keep-nonspecial-slashes,+sort-query,+sort-query-bytes";
    assert_eq!(canon.rules(), with_rules(Profile::Semantic, edits).rules());
    assert_eq!(
        Profile::UrlcanonSemantic.rules(),
        canon.rules().with(normurl::canon::Rule::DropFragment)
    );
    canon
}

#[test]
fn urlcanon_semantic_precise_suite() {
    let canon = urlcanon_semantic_precise();
    let mut suite = Suite::new("urlcanon/semantic_precise");
    for (input, expected) in object(&load("urlcanon/semantic_precise.json")) {
        let actual = run(&canon, &latin1_bytes(&input), true);
        suite.push(&input, &latin1_bytes(&expected), actual);
    }
    suite.check();
}

/// urlcanon's `aggressive`: normurl's `aggressive` plus what urlcanon does
/// beyond it (https becomes http, `www\d*.`, lowercase path and query,
/// unescaping with `=` in values, spaces of opaque paths encoded, slashes
/// collapsed in special URLs only, sort by value too).
fn urlcanon_aggressive() -> Canonicalizer {
    let canon = Canonicalizer::new(Profile::UrlcanonAggressive);
    let edits = "-strip-tracking,+force-http,+strip-www-digits,+lowercase-path,+lowercase-query,+unescape-path,+unescape-query,+encode-value-equals,+encode-hash-space,+keep-nonspecial-slashes,+sort-query-bytes,+urlcanon-session-ids";
    assert_eq!(
        canon.rules(),
        with_rules(Profile::Aggressive, edits).rules()
    );
    canon
}

#[test]
fn urlcanon_aggressive_suite() {
    let canon = urlcanon_aggressive();
    let mut suite = Suite::new("urlcanon/aggressive");
    for (input, expected) in object(&load("urlcanon/aggressive.json")) {
        let actual = run(&canon, &input, true);
        suite.push(&input, &expected, actual);
    }
    suite.check();
}

/// Runs `http://h/` + `input` through `unescape-path` and returns the
/// decoded path without its leading `/`: the "unescape repeatedly" of the
/// other canonicalizers, seen through normurl's rule (decoding the minimal
/// re-encoding once gives back exactly the unescaped bytes).
fn unescaped(input: &str) -> String {
    let canon = with_rules(Profile::Whatwg, "+unescape-path");
    match Url::parse(&format!("http://h/{input}")) {
        Ok(url) => {
            let out = Url::parse(&canon.canonicalize_url(&url)).unwrap();
            let mut bytes = Vec::new();
            normurl::percent_decode(&out.pathname().as_bytes()[1..], &mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Err(e) => format!("<parse error: {}>", e.name()),
    }
}

/// The same comparison for an expectation: decode it once too, so
/// undecodable `%E2%9A` that Java leaves escaped compares equal to the raw
/// bytes normurl decodes it to.
fn decoded_once(expected: &str) -> String {
    let mut bytes = Vec::new();
    normurl::percent_decode(expected.as_bytes(), &mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

fn query_of(canon: &Canonicalizer, query: &str) -> String {
    let url = Url::parse(&format!("http://h/?{query}")).unwrap();
    let out = canon.canonicalize_url(&url);
    out.split_once('?')
        .map_or(String::new(), |(_, q)| q.to_owned())
}

fn host_of(canon: &Canonicalizer, host: &str) -> String {
    match Url::parse(&format!("http://{host}/")) {
        Ok(url) => Url::parse(&canon.canonicalize_url(&url))
            .unwrap()
            .hostname()
            .to_owned(),
        Err(e) => format!("<parse error: {}>", e.name()),
    }
}

fn path_of(canon: &Canonicalizer, path: &str) -> String {
    let url = Url::parse(&format!("http://h{path}")).unwrap();
    let out = canon.canonicalize_url(&url);
    out["http://h".len()..].to_owned()
}

#[test]
fn urlcanon_surt_suite() {
    let data = load("urlcanon/surt.json");
    // urlcanon's `google` is Safe Browsing v2: the port is kept and the
    // query unescaped and re-escaped too.
    let google = with_rules(Profile::SafeBrowsing, "-drop-port,+unescape-query");
    let wayback = Canonicalizer::new(Profile::Wayback);
    let wayback_surt = surt(Profile::Wayback, "", SurtOptions::CDX);
    let sort = with_rules(Profile::Whatwg, "+sort-query,+sort-query-values");
    let www = with_rules(Profile::Whatwg, "+strip-www-digits");
    let sessions = with_rules(Profile::Whatwg, "+strip-session-ids");
    let mut suite = Suite::new("urlcanon/surt");
    for (section, cases) in data.as_object().unwrap() {
        for (input, expected) in object(cases) {
            let (actual, expected) = match section.as_str() {
                "google" | "googleSupplementalFromSurt" => {
                    (run(&google, &latin1_bytes(&input), true), expected.clone())
                }
                "unescapeRepeatedly" => (unescaped(&input), decoded_once(&expected)),
                "Canonicalizer.IA" | "Canonicalizer.DefaultIA" => {
                    (run(&wayback, &input, false), expected.clone())
                }
                "alphaRorderQuery" => (query_of(&sort, &input), expected.clone()),
                "massageHost" => (host_of(&www, &input), expected.clone()),
                "stripPathSessionId" => (path_of(&sessions, &input), expected.clone()),
                "defaultIASurt" => (run(&wayback_surt, &input, false), expected.clone()),
                other => panic!("unknown section {other}"),
            };
            suite.push(&format!("{section}: {input}"), &expected, actual);
        }
    }
    suite.check();
}

#[test]
fn urlcanon_ssurt_suite() {
    let data = load("urlcanon/ssurt.json");
    let whatwg = |output| {
        Canonicalizer::builder(Profile::Whatwg)
            .output(output)
            .build()
    };
    let mut suite = Suite::new("urlcanon/ssurt");
    for (section, cases) in data.as_object().unwrap() {
        for (input, expected) in object(cases) {
            let actual = match section.as_str() {
                "ssurtHost" => {
                    // The host kind comes from parsing it; the host is
                    // written as given (urlcanon works on raw hosts).
                    let kind = Url::parse(&format!("http://{input}/"))
                        .map_or(HostKind::Domain, |u| u.host_kind());
                    let mut out = Vec::new();
                    canon::ssurt_host(input.as_bytes(), kind, &mut out);
                    String::from_utf8(out).unwrap()
                }
                "reverseHost" => {
                    let mut out = Vec::new();
                    canon::reverse_host(input.as_bytes(), true, &mut out);
                    String::from_utf8(out).unwrap()
                }
                "ssurt" => run(&whatwg(OutputForm::Ssurt), &input, false),
                "surt" => run(
                    &whatwg(OutputForm::Surt(SurtOptions::URLCANON)),
                    &input,
                    false,
                ),
                "surtWithoutScheme" => {
                    let options = SurtOptions {
                        scheme: false,
                        ..SurtOptions::URLCANON
                    };
                    run(&whatwg(OutputForm::Surt(options)), &input, false)
                }
                "surtWithoutTrailingComma" => {
                    let options = SurtOptions {
                        trailing_comma: false,
                        ..SurtOptions::URLCANON
                    };
                    run(&whatwg(OutputForm::Surt(options)), &input, false)
                }
                other => panic!("unknown section {other}"),
            };
            suite.push(&format!("{section}: {input}"), &expected, actual);
        }
    }
    suite.check();
}

#[test]
fn webarchive_commons_suite() {
    let data = load("webarchive-commons/url_canonicalizer_cases.json");
    let keymaker = surt(Profile::Wayback, "", SurtOptions::CDX);
    let wayback = Canonicalizer::new(Profile::Wayback);
    // BasicURLCanonicalizer is Safe Browsing v2: port kept, query
    // unescaped and re-escaped (`minimalEscape`).
    let basic = with_rules(Profile::SafeBrowsing, "-drop-port,+unescape-query");
    // OrdinaryIA: Basic plus IA's ordinary rules (empty query dropped).
    let ordinary = with_rules(
        Profile::SafeBrowsing,
        "-drop-port,+unescape-query,+drop-empty-query",
    );
    let sort = with_rules(Profile::Whatwg, "+sort-query,+sort-query-values");
    let www = with_rules(Profile::Whatwg, "+strip-www-digits");
    let sessions = with_rules(Profile::Whatwg, "+strip-session-ids");
    let whatwg = Canonicalizer::new(Profile::Whatwg);
    let mut suite = Suite::new("webarchive-commons");
    for (class, group) in data.as_object().unwrap() {
        if class == "_meta" {
            continue;
        }
        for case in group["cases"].as_array().unwrap() {
            let call = case["call"].as_str().unwrap();
            let input = case["input"].as_str().unwrap();
            let expected = case["expected"].as_str().unwrap().to_owned();
            let (actual, expected) = match call {
                "km.makeKey" => (run(&keymaker, input, false), expected),
                "guc.decode" | "guc.unescapeRepeatedly" => {
                    (unescaped(input), decoded_once(&expected))
                }
                "guc.attemptIPFormats" => (host_of(&whatwg, input), expected),
                "checkCanonicalization" if class == "OrdinaryIAURLCanonicalizerTest" => {
                    (run(&ordinary, input, true), expected)
                }
                "checkCanonicalization" => (run(&basic, input, true), expected),
                "compCan" | "check" => (run(&wayback, input, false), expected),
                "IAURLCanonicalizer.alphaReorderQuery" => (query_of(&sort, input), expected),
                "IAURLCanonicalizer.massageHost" => (host_of(&www, input), expected),
                "checkStripPathSessionID" => (path_of(&sessions, input), expected),
                "URLRegexTransformer.hostToSURT" => {
                    let mut out = Vec::new();
                    canon::reverse_host(input.as_bytes(), false, &mut out);
                    (String::from_utf8(out).unwrap(), expected)
                }
                other => panic!("unmapped call {other}"),
            };
            let class = class.trim_end_matches("Test");
            suite.push(&format!("{class}.{call}: {input}"), &expected, actual);
        }
    }
    suite.check();
}

#[test]
fn safe_browsing_doc_suite() {
    let canon = Canonicalizer::new(Profile::SafeBrowsing);
    let data = load("google_safe_browsing/gsb_doc_canonicalization.json");
    let mut suite = Suite::new("safe-browsing/doc");
    for case in data["cases"].as_array().unwrap() {
        let input = case["input"].as_str().unwrap();
        let actual = run(&canon, input, true);
        suite.push(input, case["expected"].as_str().unwrap(), actual);
    }
    suite.check();
}

#[test]
fn safe_browsing_chromium_suite() {
    let canon = Canonicalizer::new(Profile::SafeBrowsing);
    let data = load("google_safe_browsing/chromium_v4_canonicalize_url.json");
    let mut suite = Suite::new("safe-browsing/chromium");
    for case in data["cases"].as_array().unwrap() {
        let input = case["input"].as_str().unwrap();
        let field = |k: &str| case[k].as_str().unwrap().to_owned();
        let expected = format!("{} {} {}", field("host"), field("path"), field("query"));
        let actual = match Url::parse(input) {
            Ok(url) if !matches!(url.scheme(), "http" | "https" | "ftp") => {
                // Chromium returns nothing for these; normurl leaves them as
                // WHATWG serializes them. Compare that instead.
                let out = canon.canonicalize_url(&url);
                assert_eq!(
                    out,
                    url.href(),
                    "safe-browsing changed a {} URL",
                    url.scheme()
                );
                "  ".to_owned()
            }
            Ok(_) => {
                let out = Url::parse(&run(&canon, input, false)).unwrap();
                format!(
                    "{} {} {}",
                    out.hostname(),
                    out.pathname(),
                    out.query().unwrap_or("")
                )
            }
            Err(e) => format!("<parse error: {}>", e.name()),
        };
        suite.push(input, &expected, actual);
    }
    suite.check();
}

#[test]
fn safe_browsing_go_suite() {
    let canon = Canonicalizer::new(Profile::SafeBrowsing);
    let data = load("google_safe_browsing/google_safebrowsing_go_canonicalURL.json");
    let mut suite = Suite::new("safe-browsing/go");
    for case in data["cases"].as_array().unwrap() {
        let input = case["input"].as_str().unwrap();
        let (expected, actual) = if case["fail"].as_bool().unwrap() {
            let fails = match Url::parse(input) {
                Err(_) => true,
                // The Go client rejects schemes it does not hash.
                Ok(url) => !matches!(url.scheme(), "http" | "https" | "ftp"),
            };
            (
                "<rejected>".to_owned(),
                if fails {
                    "<rejected>".to_owned()
                } else {
                    run(&canon, input, false)
                },
            )
        } else {
            // The Go client's canonical URL is its hashing form, without
            // the query: drop ours before comparing.
            let out = run(&canon, input, true);
            let without_query = out
                .split_once('?')
                .map_or(out.clone(), |(a, _)| a.to_owned());
            (case["expected"].as_str().unwrap().to_owned(), without_query)
        };
        suite.push(input, &expected, actual);
    }
    suite.check();
}

/// DuckDuckGo's reference tests, with their reference configuration: only
/// `strip-tracking`, with the configuration's list and exception.
#[test]
fn duckduckgo_tracking_suite() {
    let config = load("duckduckgo/config_reference.json");
    let feature = &config["features"]["trackingParameters"];
    let mut params = TrackingParams::empty();
    for name in feature["settings"]["parameters"].as_array().unwrap() {
        params.add(name.as_str().unwrap()).unwrap();
    }
    for exception in feature["exceptions"].as_array().unwrap() {
        params.exempt_domain(exception["domain"].as_str().unwrap());
    }
    let canon = Canonicalizer::builder(Profile::Whatwg)
        .rules("+strip-tracking")
        .unwrap()
        .tracking_params(params)
        .build();
    let tests = load("duckduckgo/tests.json");
    let mut suite = Suite::new("duckduckgo");
    for case in tests["trackingParameters"]["tests"].as_array().unwrap() {
        let input = case["testURL"].as_str().unwrap();
        let name = case["name"].as_str().unwrap();
        let actual = run(&canon, input, false);
        suite.push(
            &format!("{name}: {input}"),
            case["expectURL"].as_str().unwrap(),
            actual,
        );
    }
    suite.check();
}

/// The built-in list is DuckDuckGo's (plus `utm_*`): compare with the file.
#[test]
fn default_tracking_list_is_duckduckgos() {
    let config = load("duckduckgo/tracking-parameters.json");
    let defaults = TrackingParams::default();
    let mut from_file = TrackingParams::empty();
    for name in config["settings"]["parameters"].as_array().unwrap() {
        from_file.add(name.as_str().unwrap()).unwrap();
        assert!(defaults.matches(name.as_str().unwrap().as_bytes()));
    }
    from_file.add("utm_*").unwrap();
    for exception in config["exceptions"].as_array().unwrap() {
        let domain = exception["domain"].as_str().unwrap();
        from_file.exempt_domain(domain);
        assert!(defaults.is_exempt(domain.as_bytes()));
    }
    assert_eq!(defaults, from_file);
}

/// w3lib's `canonicalize_url` in normurl's rules: decode what a path may
/// hold raw, uppercase percent-encoding, re-encode the query as `urlencode`
/// does, drop empty parameters (`parse_qsl` skips them), sort the query by
/// name then value, drop a `?` left with no query, drop the fragment
/// unless `keep_fragments`, drop blank
/// parameters when `keep_blank_values=False`, `;` alone separating with
/// `query_separator=";"` (`--query-separators ';'`); with `encoding`, the
/// query parsed in that encoding, as `--query-encoding` does.
#[test]
fn w3lib_suite() {
    let data = load("w3lib/canonicalize_url_cases.json");
    let base = "+decode-path-reserved,+decode-unreserved,+uppercase-percent,+form-encode-query,+drop-empty-params,+sort-query,+sort-query-values,+drop-empty-query";
    let mut suite = Suite::new("w3lib");
    for case in data["cases"].as_array().unwrap() {
        let kwargs = case["kwargs"].as_object().unwrap();
        let mut edits = base.to_owned();
        if kwargs.get("keep_fragments") != Some(&Value::Bool(true)) {
            edits.push_str(",+drop-fragment");
        }
        if kwargs.get("keep_blank_values") == Some(&Value::Bool(false)) {
            edits.push_str(",+drop-blank-params");
        }
        match kwargs.get("query_separator").and_then(Value::as_str) {
            Some(";") => edits.push_str(",+semicolon-only-separators"),
            Some(other) => panic!("no rule for query_separator {other:?}"),
            None => {}
        }
        let canon = with_rules(Profile::Whatwg, &edits);
        let defaults = ["keep_fragments", "keep_blank_values", "query_separator"];
        if !defaults.iter().any(|k| kwargs.contains_key(*k)) {
            // canonicalize_url's defaults are the `w3lib` profile.
            assert_eq!(canon.rules(), Profile::W3lib.rules());
        }
        let arg = &case["args"][0];
        let input = match arg {
            Value::String(s) => s.clone(),
            Value::Object(o) => latin1_bytes(o["bytes"].as_str().unwrap()),
            Value::Array(parts) => {
                // urlunparse((scheme, netloc, path, params, query, fragment))
                let p: Vec<&str> = parts.iter().map(|v| v.as_str().unwrap()).collect();
                let mut s = format!("{}://{}{}", p[0], p[1], p[2]);
                if !p[3].is_empty() {
                    s.push(';');
                    s.push_str(p[3]);
                }
                if !p[4].is_empty() {
                    s.push('?');
                    s.push_str(p[4]);
                }
                if !p[5].is_empty() {
                    s.push('#');
                    s.push_str(p[5]);
                }
                s
            }
            other => panic!("unexpected argument {other}"),
        };
        let key = format!("{input} {}", Value::Object(kwargs.clone()));
        let actual = match kwargs.get("encoding") {
            Some(label) => run_encoded(&canon, &input, w3lib_encoding(label)),
            None => run(&canon, &input, false),
        };
        suite.push(&key, case["result"].as_str().unwrap(), actual);
    }
    suite.check();
}

/// The encoding w3lib's `encoding` names (a Python codec name): Python
/// spells ISO-2022-JP `iso2022jp`, which is not one of the Encoding
/// Standard's labels; the others are.
fn w3lib_encoding(label: &Value) -> QueryEncoding {
    let label = label.as_str().expect("an encoding name");
    let label = if label == "iso2022jp" {
        "iso-2022-jp"
    } else {
        label
    };
    QueryEncoding::for_label(label).unwrap_or_else(|| panic!("no encoding {label:?}"))
}

/// [`run`] with the query in `encoding`, as `--query-encoding` parses
/// (the URL Standard's encoding override): the idempotence check
/// reparses the output as UTF-8, where its query is all ASCII.
fn run_encoded(canon: &Canonicalizer, input: &str, encoding: QueryEncoding) -> String {
    match Url::parse_with_encoding(input, None, encoding) {
        Ok(url) => {
            let out = canon.canonicalize_url(&url);
            assert_idempotent(canon, &out);
            out
        }
        Err(e) => format!("<parse error: {}>", e.name()),
    }
}

/// normalize-url's own tests (its test.js, harvested with the package's
/// outputs) without options: the `normalize-url` profile, with `http` for
/// inputs without a scheme, as normalize-url's `defaultProtocol`.
#[test]
fn normalize_url_suite() {
    let data = load("normalize-url/cases.json");
    let canon = Canonicalizer::new(Profile::NormalizeUrl);
    let mut suite = Suite::new("normalize-url");
    for case in data.as_array().unwrap() {
        if !case["options"].is_null() {
            continue;
        }
        let input = case["input"].as_str().unwrap();
        let expected = case["expected"].as_str().unwrap();
        assert_eq!(case["output"].as_str(), Some(expected), "harvest: {input}");
        suite.push(input, expected, run(&canon, input, true));
    }
    suite.check();
}

/// purell's flags in normurl's rules. Flags for what the WHATWG parser
/// always does (lowercase scheme and host, default port, dot segments,
/// IPv4 forms, empty port, necessary escapes) map to nothing.
fn purell_rules(flags: &[&str]) -> String {
    let mut rules: Vec<&str> = Vec::new();
    for flag in flags {
        let add: &[&str] = match *flag {
            "FlagUppercaseEscapes" => &["uppercase-percent"],
            "FlagDecodeUnnecessaryEscapes" => &["decode-unreserved"],
            "FlagRemoveTrailingSlash" => &["strip-trailing-slash"],
            "FlagRemoveFragment" => &["drop-fragment"],
            "FlagForceHTTP" => &["force-http"],
            "FlagRemoveDuplicateSlashes" => &["collapse-slashes"],
            "FlagRemoveWWW" => &["strip-www"],
            "FlagSortQuery" => &["sort-query", "sort-query-values"],
            "FlagRemoveEmptyQuerySeparator" => &["drop-empty-query"],
            "FlagRemoveUnnecessaryHostDots" => &["trim-host-dots"],
            "FlagsSafe" => &["uppercase-percent", "decode-unreserved", "drop-empty-query"],
            "FlagsUsuallySafeGreedy" => &[
                "uppercase-percent",
                "decode-unreserved",
                "drop-empty-query",
                "strip-trailing-slash",
            ],
            "FlagsUsuallySafeNonGreedy" => {
                &["uppercase-percent", "decode-unreserved", "drop-empty-query"]
            }
            "FlagsUnsafeGreedy" | "FlagsAllGreedy" => &[
                "uppercase-percent",
                "decode-unreserved",
                "drop-empty-query",
                "strip-trailing-slash",
                "drop-fragment",
                "force-http",
                "collapse-slashes",
                "strip-www",
                "sort-query",
                "sort-query-values",
                "trim-host-dots",
            ],
            "FlagsUnsafeNonGreedy" | "FlagsAllNonGreedy" => &[
                "uppercase-percent",
                "decode-unreserved",
                "drop-empty-query",
                "drop-fragment",
                "force-http",
                "collapse-slashes",
                "strip-www",
                "sort-query",
                "sort-query-values",
                "trim-host-dots",
            ],
            // What the WHATWG parser always does, or what normurl has no
            // rule for (add slash, add www, directory index): nothing.
            _ => &[],
        };
        rules.extend_from_slice(add);
    }
    rules.join(",")
}

#[test]
fn purell_suite() {
    let data = load("purell/purell_cases.json");
    let mut suite = Suite::new("purell");
    for group in ["cases", "urlnorm_cases"] {
        for case in data[group].as_array().unwrap() {
            let input = case["input"].as_str().unwrap();
            let flags: Vec<&str> = case["flags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .collect();
            let canon = with_rules(Profile::Whatwg, &purell_rules(&flags));
            let actual = run(&canon, input, false);
            let key = format!("{} {input}", flags.join("|"));
            suite.push(&key, case["expected"].as_str().unwrap(), actual);
        }
    }
    suite.check();
}

/// The URL Standard's urlencoded parser, against web-platform-tests.
#[test]
fn wpt_urlencoded_parser() {
    let text = std::fs::read_to_string("tests/data/wpt/urlencoded-parser-data.json").unwrap();
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() > 30);
    for case in &cases {
        let input = case["input"].as_str().unwrap();
        let expected: Vec<(String, String)> = case["output"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                (
                    pair[0].as_str().unwrap().to_owned(),
                    pair[1].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(form::parse(input.as_bytes()), expected, "input {input:?}");
    }
}

fn all_canonicalizers() -> Vec<(String, Canonicalizer)> {
    let mut all: Vec<(String, Canonicalizer)> = Profile::ALL
        .iter()
        .map(|&p| (p.name().to_owned(), Canonicalizer::new(p)))
        .collect();
    // Every rule but strip-scheme, whose keys are not URLs (see
    // `strip_scheme_keys_are_canonical_urls_without_scheme`).
    let everything: String = canon::Rule::ALL
        .iter()
        .filter(|&&r| r != canon::Rule::StripScheme)
        .map(|r| format!("+{}", r.name()))
        .collect::<Vec<_>>()
        .join(",");
    let every_rule = Canonicalizer::builder(Profile::Whatwg)
        .rules(&everything)
        .unwrap()
        .keep_params("q,id,page,*_id,s*")
        .unwrap()
        .index_files("home.jsp")
        .unwrap()
        .build();
    all.push(("every rule".to_owned(), every_rule));
    for rule in common::urlgen::NEW_RULES
        .iter()
        .filter(|&&r| r != "strip-scheme")
    {
        let edits = format!("+{rule}");
        all.push((
            format!("aggressive {edits}"),
            with_rules(Profile::Aggressive, &edits),
        ));
    }
    all.push((
        "urlcanon semantic_precise".to_owned(),
        urlcanon_semantic_precise(),
    ));
    all.push(("urlcanon aggressive".to_owned(), urlcanon_aggressive()));
    let unicode = Canonicalizer::builder(Profile::Aggressive)
        .idn(canon::IdnForm::Unicode)
        .build();
    all.push(("aggressive, unicode hosts".to_owned(), unicode));
    all
}

/// urlcanon's idempotence cases and every line of the sample corpora:
/// canonicalizing the parse of an output changes nothing, for every profile.
#[test]
fn idempotent_on_corpora() {
    let mut inputs: Vec<String> = load("urlcanon/idempotence.json")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let mut lines = 0;
    for file in [
        "weburls.txt",
        "kasztp.txt",
        "node_files.txt",
        "isaacs_files.txt",
    ] {
        let path = format!("samples/corpora/{file}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            inputs.push(line.trim_start_matches('\u{feff}').to_owned());
            lines += 1;
        }
    }
    assert!(lines > 100_000, "corpora missing? {lines} lines");
    let mut url = Url::parse("about:blank").unwrap();
    let mut again = Url::parse("about:blank").unwrap();
    let mut scratch = Scratch::new();
    let (mut out, mut out2) = (Vec::new(), Vec::new());
    let canonicalizers = all_canonicalizers();
    let mut changed: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, input) in inputs.iter().enumerate() {
        if url.parse_into(input, None).is_err() {
            continue;
        }
        // The profiles see every line; the extra configurations every
        // seventh, to keep the test quick in debug builds.
        let take = if i % 7 == 0 {
            canonicalizers.len()
        } else {
            Profile::ALL.len()
        };
        for (name, canon) in &canonicalizers[..take] {
            out.clear();
            let fired = canon.apply(&url, &mut scratch, &mut out);
            let unicode = name.contains("unicode");
            *changed.entry(name).or_default() += usize::from(out != url.href().as_bytes());
            if !unicode {
                assert_eq!(
                    fired.is_empty(),
                    out == url.href().as_bytes(),
                    "{name}: fired {fired:?}, output {:?} for {input:?}",
                    String::from_utf8_lossy(&out)
                );
            }
            let text = std::str::from_utf8(&out).unwrap();
            again.parse_into(text, None).unwrap_or_else(|e| {
                panic!("{name}: output {text:?} of {input:?} does not parse: {e}")
            });
            out2.clear();
            let fired2 = canon.apply(&again, &mut scratch, &mut out2);
            assert!(
                out2 == out,
                "{name}: {input:?} -> {text:?} -> {:?}",
                String::from_utf8_lossy(&out2)
            );
            // With ASCII hosts the output is its own parse, so nothing may
            // fire, except the rules whose output is a key, not a URL
            // serialization: its parse is the URL again.
            if !unicode {
                assert!(
                    fired2.intersection(RuleSet::KEYS) == fired2,
                    "{name}: {fired2} fired on canonical {text:?}"
                );
            }
        }
    }
    eprintln!("URLs changed per canonicalizer: {changed:?}");
}
