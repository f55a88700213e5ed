//! Property tests of canonicalization on generated URLs: for every profile
//! (and every rule at once), the output parses as a URL, canonicalizing it
//! again changes nothing, and no rule fires on it.
//!
//! The generator builds URLs from the pieces the rules look at (`www`
//! labels, dots, slashes, dot segments, percent-encodings of every kind,
//! session ids, tracking parameters, empty pieces) so that rules fire often.

use normurl::canon::{Canonicalizer, IdnForm, OutputForm, Profile, Rule, Scratch};
use normurl::Url;
use proptest::prelude::*;

fn canonicalizers() -> Vec<Canonicalizer> {
    let mut all: Vec<Canonicalizer> = Profile::ALL
        .iter()
        .map(|&p| Canonicalizer::new(p))
        .collect();
    let every: Vec<String> = Rule::ALL.iter().map(|r| format!("+{}", r.name())).collect();
    all.push(
        Canonicalizer::builder(Profile::Whatwg)
            .rules(&every.join(","))
            .unwrap()
            .build(),
    );
    all.push(
        Canonicalizer::builder(Profile::Aggressive)
            .idn(IdnForm::Unicode)
            .build(),
    );
    all
}

fn scheme() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "http", "https", "HTTPS", "ftp", "file", "ws", "foo", "web+x",
    ])
}

fn host() -> impl Strategy<Value = String> {
    let label = prop::sample::select(vec![
        "www",
        "www2",
        "WWW",
        "example",
        "co",
        "uk",
        "com",
        "xn--bcher-kva",
        "a%62c",
        "09",
        "0x1f",
        "",
    ]);
    prop::collection::vec(label, 1..5).prop_map(|labels| labels.join("."))
}

fn path() -> impl Strategy<Value = String> {
    let segment = prop::sample::select(vec![
        "",
        "a",
        "B",
        ".",
        "..",
        "%2e",
        "%2E%2e",
        "%41",
        "%7e",
        "%2f",
        "%25",
        "%2525",
        "%3f",
        "%5C",
        "%c3%a9",
        "x;jsessionid=0123456789abcdef0123456789ABCDEF",
        "(S(4hqa0555fwsecu455xqckv45))",
        "p.aspx",
        "%",
        "~",
        "%2",
        "%E2%9A",
    ]);
    prop::collection::vec(segment, 0..6)
        .prop_map(|segments| segments.iter().map(|s| format!("/{s}")).collect::<String>())
}

fn query() -> impl Strategy<Value = Option<String>> {
    let piece = prop::sample::select(vec![
        "",
        "a=1",
        "b=2",
        "A=3",
        "utm_source=x",
        "fbclid",
        "gclid=1",
        "sid=0123456789abcdef0123456789abcdef",
        "CFID=1",
        "cftoken=2",
        "a%3D=%26",
        "%61=%62",
        "q=a+b",
        "x=%2B",
        "z",
        "=",
        "%FF=1",
        "\u{e9}=2",
    ]);
    prop::option::of(prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.join("&")))
}

fn url() -> impl Strategy<Value = String> {
    (
        scheme(),
        prop::option::of(prop::sample::select(vec!["u", "u:p", ":p", "%41:%62"])),
        prop::option::of(host()),
        prop::option::of(prop::sample::select(vec!["80", "443", "8080", ""])),
        path(),
        query(),
        prop::option::of(prop::sample::select(vec!["", "f", "%7e", "a#b"])),
    )
        .prop_map(|(scheme, userinfo, host, port, path, query, fragment)| {
            let mut s = format!("{scheme}:");
            if let Some(host) = host {
                s.push_str("//");
                if let Some(userinfo) = userinfo {
                    s.push_str(userinfo);
                    s.push('@');
                }
                s.push_str(&host);
                if let Some(port) = port {
                    s.push(':');
                    s.push_str(port);
                }
            }
            s.push_str(&path);
            if let Some(query) = query {
                s.push('?');
                s.push_str(&query);
            }
            if let Some(fragment) = fragment {
                s.push('#');
                s.push_str(fragment);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn outputs_parse_and_are_idempotent(input in url()) {
        let Ok(url) = Url::parse(&input) else { return Ok(()) };
        let mut scratch = Scratch::new();
        for canon in canonicalizers() {
            let mut out = Vec::new();
            canon.apply(&url, &mut scratch, &mut out);
            let text = String::from_utf8(out).unwrap();
            let reparsed = Url::parse(&text);
            prop_assert!(reparsed.is_ok(), "{:?}: {input:?} -> {text:?} does not parse", canon.rules());
            let reparsed = reparsed.unwrap();
            let mut again = Vec::new();
            let fired = canon.apply(&reparsed, &mut scratch, &mut again);
            prop_assert_eq!(String::from_utf8(again).unwrap(), text.clone(), "{:?}: {:?}", canon.rules(), input);
            if canon.output() == OutputForm::Url && text.is_ascii() {
                prop_assert!(fired.is_empty(), "{:?}: {} fired on canonical {:?}", canon.rules(), fired, text);
            }
        }
    }

    #[test]
    fn surt_and_ssurt_never_panic(input in url()) {
        let Ok(url) = Url::parse(&input) else { return Ok(()) };
        for output in ["surt", "ssurt"] {
            let canon = Canonicalizer::builder(Profile::Wayback).output(output.parse().unwrap()).build();
            let key = canon.canonicalize_url(&url);
            prop_assert!(!key.is_empty());
        }
    }
}
