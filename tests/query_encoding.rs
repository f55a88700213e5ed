//! The query encoding override (`Url::parse_with_encoding`): WPT's
//! percent-encoding.json, and a differential against the `url` crate's
//! `encoding_override` with encoding_rs on the corpora and WPT inputs, for
//! queries the encoding can represent. (decomps-charsets.dat runs in
//! tests/web_url_parser.rs.)

mod common;

use common::{all_corpus_lines, load};
use normurl::{QueryEncoding, Url};
use serde_json::Value;

#[test]
fn wpt_percent_encoding_json() {
    let mut n = 0;
    for case in load("tests/data/wpt/percent-encoding.json")
        .iter()
        .filter(|c| c.is_object())
    {
        let input = case["input"].as_str().unwrap();
        let Value::Object(outputs) = &case["output"] else {
            panic!("output")
        };
        for (label, want) in outputs {
            let encoding = QueryEncoding::for_label(label).unwrap();
            let url = Url::parse_with_encoding(
                &format!("https://doesnotmatter.invalid/?{input}"),
                None,
                encoding,
            )
            .unwrap();
            assert_eq!(
                Some(url.search()),
                want.as_str().map(|w| format!("?{w}")).as_deref(),
                "{label} {input:?}"
            );
            n += 1;
        }
    }
    assert_eq!(n, 16, "(encoding, input) pairs");
}

#[test]
fn only_special_non_websocket_queries_are_encoded() {
    let sjis = QueryEncoding::for_label("shift_jis").unwrap();
    let q = |s: &str| {
        Url::parse_with_encoding(s, None, sjis)
            .unwrap()
            .into_string()
    };
    assert_eq!(
        q("https://h/日?日#日"),
        "https://h/%E6%97%A5?%93%FA#%E6%97%A5"
    );
    assert_eq!(q("file:///日?日"), "file:///%E6%97%A5?%93%FA");
    assert_eq!(q("ws://h/?日"), "ws://h/?%E6%97%A5");
    assert_eq!(q("wss://h/?日"), "wss://h/?%E6%97%A5");
    assert_eq!(q("sch://h/?日"), "sch://h/?%E6%97%A5");
    // ASCII, percent signs and the special-query set are as in UTF-8.
    assert_eq!(q("http://h/?a b'%41\"<>"), "http://h/?a%20b%27%41%22%3C%3E");
}

/// The `url` crate with encoding_rs as its encoding override.
fn url_crate(
    input: &str,
    base: &url::Url,
    encoding: &'static encoding_rs::Encoding,
) -> Option<String> {
    fn encoder(
        encoding: &'static encoding_rs::Encoding,
    ) -> impl Fn(&str) -> std::borrow::Cow<'_, [u8]> {
        move |s| encoding.encode(s).0
    }
    let encode = encoder(encoding);
    url::Url::options()
        .base_url(Some(base))
        .encoding_override(Some(&encode))
        .parse(input)
        .ok()
        .map(String::from)
}

#[test]
fn differential_against_the_url_crate_encoding_override() {
    // Stateless encodings only: the url crate encodes the query in pieces.
    let labels = [
        "shift_jis",
        "euc-jp",
        "gbk",
        "gb18030",
        "big5",
        "euc-kr",
        "windows-1252",
        "koi8-r",
    ];
    let base_text = "http://example.com/dir/page?q";
    let base = Url::parse(base_text).unwrap();
    let url_base = url::Url::parse(base_text).unwrap();
    let mut inputs: Vec<String> = all_corpus_lines().into_iter().map(|(_, l)| l).collect();
    inputs.extend(
        load("tests/data/wpt/urltestdata.json")
            .iter()
            .filter_map(|c| c.get("input").and_then(Value::as_str).map(str::to_owned)),
    );
    // Non-ASCII queries in every script the encodings cover, also added to
    // the query of corpus lines.
    let words = [
        "日本語",
        "ｶﾀｶﾅ",
        "中文",
        "한국어",
        "café",
        "Привет",
        "€",
        "~\\¥",
    ];
    let spliced: Vec<String> = inputs
        .iter()
        .step_by(20)
        .flat_map(|line| {
            let (head, tail) = line
                .split_once('#')
                .map_or((line.as_str(), None), |(h, t)| (h, Some(t)));
            let joint = if head.contains('?') { '&' } else { '?' };
            words.iter().map(move |w| match tail {
                Some(t) => format!("{head}{joint}k={w}#{t}"),
                None => format!("{head}{joint}k={w}"),
            })
        })
        .collect();
    for w in words {
        inputs.push(format!("http://example.com/s?q={w}&x=1#{w}"));
        inputs.push(format!("?q={w}"));
    }
    inputs.extend(spliced);
    use rayon::prelude::*;
    let results: Vec<(usize, Vec<String>)> = labels
        .par_iter()
        .map(|label| {
            let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
            let ours = QueryEncoding::for_label(label).unwrap();
            let (mut compared, mut diffs) = (0, Vec::new());
            for input in &inputs {
                // Only where the whole input is mappable (no &#NNNN;
                // fallback), and where the two parsers agree in UTF-8 (see
                // tests/data/known-differences.txt); ASCII inputs with one
                // encoding only, for time.
                if (input.is_ascii() && *label != "shift_jis") || encoding.encode(input).2 {
                    continue;
                }
                let utf8 = Url::parse_with_base(input, &base)
                    .ok()
                    .map(Url::into_string);
                if utf8 != url_crate(input, &url_base, encoding_rs::UTF_8) {
                    continue;
                }
                compared += 1;
                let got = Url::parse_with_encoding(input, Some(&base), ours)
                    .ok()
                    .map(Url::into_string);
                let want = url_crate(input, &url_base, encoding);
                if got != want {
                    diffs.push(format!("{label} {input:?}: normurl {got:?}, url {want:?}"));
                }
            }
            (compared, diffs)
        })
        .collect();
    let compared: usize = results.iter().map(|r| r.0).sum();
    let diffs: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    eprintln!("compared {compared} (encoding, input) pairs");
    assert!(compared > 200_000, "{compared}");
    assert!(
        diffs.is_empty(),
        "{} differ:\n{}",
        diffs.len(),
        diffs[..diffs.len().min(30)].join("\n")
    );
}
