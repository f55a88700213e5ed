//! web-platform-tests' `setters_tests.json`: every case of every setter,
//! through the public API, plus `URL.canParse` against `urltestdata.json`.

mod common;

use normurl_url::Url;
use serde_json::Value;

fn wpt(name: &str) -> Value {
    let path = format!("{}/../../tests/data/wpt/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn getter(url: &Url, name: &str) -> String {
    match name {
        "href" => url.href().to_owned(),
        "protocol" => url.protocol().to_owned(),
        "username" => url.username().to_owned(),
        "password" => url.password().to_owned(),
        "host" => url.host().to_owned(),
        "hostname" => url.hostname().to_owned(),
        "port" => url.port().to_owned(),
        "pathname" => url.pathname().to_owned(),
        "search" => url.search().to_owned(),
        "hash" => url.hash().to_owned(),
        "origin" => url.origin(),
        other => panic!("unknown getter {other}"),
    }
}

#[test]
fn wpt_setters_tests() {
    let data = wpt("setters_tests.json");
    let mut cases = 0;
    let mut failures = Vec::new();
    for (setter, list) in data.as_object().expect("an object") {
        if setter == "comment" {
            continue;
        }
        for case in list.as_array().expect("an array of cases") {
            cases += 1;
            let href = case["href"].as_str().expect("href");
            let new_value = case["new_value"].as_str().expect("new_value");
            let mut url = Url::parse(href).unwrap_or_else(|e| panic!("{href}: {e}"));
            let changed = common::set(&mut url, setter, new_value);
            let mut wrong = Vec::new();
            for (key, expected) in case["expected"].as_object().expect("expected") {
                let got = getter(&url, key);
                if got != expected.as_str().expect("a string") {
                    wrong.push(format!("{key}: got {got:?}, expected {expected}"));
                }
            }
            // False means "unchanged": the href is the original one then.
            if changed == Some(false) && url.href() != Url::parse(href).unwrap().href() {
                wrong.push(format!("returned false but changed to {:?}", url.href()));
            }
            if let Err(e) = url.check_invariants() {
                wrong.push(e);
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "{setter} = {new_value:?} on {href:?}: {}",
                    wrong.join("; ")
                ));
            }
        }
    }
    assert_eq!(cases, 278, "the number of cases in setters_tests.json");
    assert!(
        failures.is_empty(),
        "{} of {cases} cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The setters return false exactly where the standard returns early or
/// fails; a few such cases, and ones that change the URL.
#[test]
fn setters_report_unchanged() {
    let cases: &[(&str, &str, &str, bool, &str)] = &[
        ("http://h/", "protocol", "", false, "http://h/"),
        ("http://h/", "protocol", "1http", false, "http://h/"),
        ("http://h/", "protocol", "ht tp", false, "http://h/"),
        ("http://h/", "protocol", "sc", false, "http://h/"),
        ("sc://h/", "protocol", "http", false, "sc://h/"),
        ("http://u@h/", "protocol", "file", false, "http://u@h/"),
        ("file:///x", "protocol", "http", false, "file:///x"),
        ("http://h:443/", "protocol", "https", true, "https://h/"),
        ("http://h/", "protocol", "\thttps\n", true, "https://h/"),
        (
            "http://localhost/x",
            "protocol",
            "file",
            true,
            "file://localhost/x",
        ),
        ("file:///x", "username", "u", false, "file:///x"),
        ("sc:/x", "password", "p", false, "sc:/x"),
        ("sc:///x", "port", "1", false, "sc:///x"),
        ("http://h/", "port", "x1", false, "http://h/"),
        ("http://h/", "port", "\t", false, "http://h/"),
        ("http://h:1/", "port", "", true, "http://h/"),
        ("http://h/", "port", "08\t080x", true, "http://h:8080/"),
        ("http://h/", "host", "", false, "http://h/"),
        ("http://h/", "host", ":1", false, "http://h/"),
        ("http://h/", "host", "a b", false, "http://h/"),
        ("http://h/", "host", "g:99999", true, "http://g/"),
        ("http://h:2/", "host", "g:x", true, "http://g:2/"),
        ("http://h/", "hostname", "g:1", false, "http://h/"),
        ("sc://u@h/", "host", "", false, "sc://u@h/"),
        ("sc://h/", "host", "", true, "sc:///"),
        ("sc:/p", "host", "", true, "sc:///p"),
        ("sc:/.//p", "host", "h", true, "sc://h//p"),
        ("file://h/x", "host", "LOCALHOST", true, "file:///x"),
        ("file://h/x", "host", "a:1", false, "file://h/x"),
        ("mailto:a@b", "host", "h", false, "mailto:a@b"),
        ("mailto:a@b", "pathname", "/x", false, "mailto:a@b"),
        ("sc:/x", "pathname", "", true, "sc:/"),
        ("sc://h/x", "pathname", "", true, "sc://h"),
        ("sc://h/x", "pathname", "//a/../?#", true, "sc://h//%3F%23"),
        ("sc:/x", "pathname", "//a", true, "sc:/.//a"),
        ("sc:/.//x", "pathname", "/a", true, "sc:/a"),
        ("file:///x", "pathname", "C|\\..\\..", true, "file:///C:/"),
        // `?` and `#` are path code points in the setter, after dot-like
        // segments too (answers of Node 20, checked by hand).
        (
            "http://h/a/b",
            "pathname",
            "%2e?x",
            true,
            "http://h/%2e%3Fx",
        ),
        ("http://h/a/b", "pathname", ".#/c", true, "http://h/.%23/c"),
        ("sc://h/a", "pathname", "..?/../x#", true, "sc://h/x%23"),
        ("file:///x", "pathname", "C|?/y", true, "file:///C|%3F/y"),
        ("mailto:a@b", "search", "?\t#", true, "mailto:a@b?%23"),
        ("mailto:a@b?q", "search", "", true, "mailto:a@b"),
        ("mailto:a@b#f", "hash", "##", true, "mailto:a@b##"),
        ("http://h/#f", "hash", "", true, "http://h/"),
    ];
    let mut failures = Vec::new();
    for &(href, setter, value, expected_changed, expected_href) in cases {
        let mut url = Url::parse(href).unwrap_or_else(|e| panic!("{href}: {e}"));
        let changed = common::set(&mut url, setter, value);
        if changed != Some(expected_changed) || url.href() != expected_href {
            failures.push(format!(
                "{setter} = {value:?} on {href:?}: got {changed:?} {:?}, expected {expected_changed} {expected_href:?}",
                url.href()
            ));
        }
        assert_eq!(url.check_invariants(), Ok(()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn set_href_error_leaves_url() {
    let mut url = Url::parse("https://example.com/a").unwrap();
    assert_eq!(
        url.set_href("https://exa mple.com/"),
        Err(normurl_url::ParseError::ForbiddenHostCodePoint)
    );
    assert_eq!(url.href(), "https://example.com/a");
    assert_eq!(url.set_href("  HTTP://h/b  "), Ok(()));
    assert_eq!(url.href(), "http://h/b");
}

/// `URL.canParse(input, base)` answers as the parser does on every case of
/// `urltestdata.json`, including an invalid base (the input's failure as a
/// base for `about:blank`).
#[test]
fn can_parse_agrees_with_urltestdata() {
    let data = wpt("urltestdata.json");
    let mut cases = 0;
    for case in data.as_array().expect("an array") {
        let Some(input) = case.get("input").and_then(Value::as_str) else {
            continue;
        };
        cases += 1;
        let base = case["base"].as_str();
        let expected = case.get("failure").is_none();
        assert_eq!(
            Url::can_parse(input, base),
            expected,
            "canParse({input:?}, {base:?})"
        );
        let with_base = match base {
            Some(base) => Url::parse(base).and_then(|b| Url::parse_with_base(input, &b)),
            None => Url::parse(input),
        };
        assert_eq!(with_base.is_ok(), expected, "parse({input:?}, {base:?})");
        if !expected {
            assert!(
                !Url::can_parse("about:blank", Some(input)),
                "{input:?} as a base"
            );
        }
    }
    assert!(cases > 800, "{cases} cases");
}

/// `can_parse` without a base must agree with `parse` on every
/// input of `urltestdata.json` taken without its base and on every line
/// of the four URL corpora (samples/corpora); and on every WPT input and
/// every 50th corpus line cut at each char boundary of its first 40 bytes
/// (schemes, slashes, hosts and ports cut short), with a tail of each
/// kind that matters appended.
#[test]
fn can_parse_without_base_agrees_with_parse() {
    let mut inputs: Vec<String> = Vec::new();
    let data = wpt("urltestdata.json");
    for case in data.as_array().expect("an array") {
        if let Some(input) = case.get("input").and_then(Value::as_str) {
            inputs.push(input.to_owned());
        }
    }
    let corpora = format!("{}/../../samples/corpora", env!("CARGO_MANIFEST_DIR"));
    for name in [
        "weburls.txt",
        "kasztp.txt",
        "node_files.txt",
        "isaacs_files.txt",
    ] {
        let path = format!("{corpora}/{name}");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let text = String::from_utf8_lossy(&bytes);
        inputs.extend(text.lines().map(str::to_owned));
    }
    let lines = inputs.len();
    assert!(lines > 150_000, "{lines} inputs");
    let wpt_inputs = data.as_array().map_or(0, Vec::len);
    let mut checked = 0;
    let mut accepted = 0;
    for (n, input) in inputs.iter().enumerate() {
        let mut cuts: Vec<String> = vec![input.clone()];
        let ends = if n < wpt_inputs || n % 50 == 0 {
            input.len().min(40)
        } else {
            0
        };
        for end in (0..ends).filter(|&i| input.is_char_boundary(i)) {
            for tail in [
                "", ":", ":99999", "@", "/", "\\", "?", "#", ".", "..", "-", " ", "%41",
            ] {
                cuts.push(format!("{}{tail}", &input[..end]));
            }
        }
        for s in &cuts {
            let expected = Url::parse(s).is_ok();
            let got = Url::can_parse(s, None);
            assert_eq!(got, expected, "canParse({s:?})");
            checked += 1;
            accepted += usize::from(got);
        }
    }
    assert!(
        accepted > 100_000 && accepted < checked,
        "{accepted} of {checked}"
    );
}
