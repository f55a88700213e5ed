//! `SearchParams` (URLSearchParams) against web-platform-tests:
//! `urlencoded-parser-data.json` and the cases of the
//! `urlsearchparams-*.any.js` files, as data in `urlsearchparams.json`.

use normurl_url::{SearchParams, Url};
use serde_json::Value;

fn wpt(name: &str) -> Value {
    let path = format!("{}/../../tests/data/wpt/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn pairs(value: &Value) -> Vec<(String, String)> {
    value
        .as_array()
        .expect("an array of pairs")
        .iter()
        .map(|pair| {
            (
                pair[0].as_str().expect("a name").to_owned(),
                pair[1].as_str().expect("a value").to_owned(),
            )
        })
        .collect()
}

fn entries(params: &SearchParams) -> Vec<(String, String)> {
    params
        .iter()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect()
}

#[test]
fn wpt_urlencoded_parser_data() {
    let data = wpt("urlencoded-parser-data.json");
    let cases = data.as_array().expect("an array");
    assert_eq!(cases.len(), 35);
    for case in cases {
        let input = case["input"].as_str().expect("input");
        let params = SearchParams::new(input);
        assert_eq!(entries(&params), pairs(&case["output"]), "input {input:?}");
        assert_eq!(params.len(), case["output"].as_array().unwrap().len());
    }
}

fn str_arg(step: &[Value], i: usize) -> &str {
    step[i]
        .as_str()
        .unwrap_or_else(|| panic!("argument {i} of {step:?}"))
}

#[test]
fn wpt_urlsearchparams() {
    let data = wpt("urlsearchparams.json");
    let cases = data["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 105);
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let mut url = match &case["url"] {
            Value::Null => None,
            Value::String(href) => Some(Url::parse(href).expect("url")),
            Value::Array(pair) => {
                let base = Url::parse(pair[1].as_str().unwrap()).expect("base");
                Some(Url::parse_with_base(pair[0].as_str().unwrap(), &base).expect("url"))
            }
            other => panic!("url {other}"),
        };
        let mut params = match &url {
            Some(url) => url.search_params(),
            None => SearchParams::new(case["init"].as_str().unwrap_or("")),
        };
        for step in case["steps"].as_array().expect("steps") {
            let step = step.as_array().expect("a step");
            let mut fail = |got: String| failures.push(format!("{name}: {step:?}: got {got}"));
            let mut changed = false;
            match str_arg(step, 0) {
                "append" => {
                    params.append(str_arg(step, 1), str_arg(step, 2));
                    changed = true;
                }
                "set" => {
                    params.set(str_arg(step, 1), str_arg(step, 2));
                    changed = true;
                }
                "delete" => {
                    params.delete(str_arg(step, 1), step.get(2).and_then(Value::as_str));
                    changed = true;
                }
                "sort" => {
                    params.sort();
                    changed = true;
                }
                "reparse" => params = SearchParams::new(&params.to_string()),
                "setSearch" => {
                    let url = url.as_mut().expect("a URL");
                    assert!(url.set_search(str_arg(step, 1)));
                    params = url.search_params();
                }
                "get" => {
                    let got = params.get(str_arg(step, 1));
                    if got != step[2].as_str() {
                        fail(format!("{got:?}"));
                    }
                }
                "getAll" => {
                    let got = params.get_all(str_arg(step, 1));
                    let expected: Vec<&str> = step[2]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_str().unwrap())
                        .collect();
                    if got != expected {
                        fail(format!("{got:?}"));
                    }
                }
                "has" => {
                    let (value, expected) = match step.len() {
                        3 => (None, &step[2]),
                        _ => (step[2].as_str(), &step[3]),
                    };
                    let got = params.has(str_arg(step, 1), value);
                    if Some(got) != expected.as_bool() {
                        fail(format!("{got}"));
                    }
                }
                "size" => {
                    let expected = step[1].as_u64();
                    if Some(params.len() as u64) != expected
                        || params.is_empty() != (expected == Some(0))
                    {
                        fail(format!("{}", params.len()));
                    }
                }
                "toString" => {
                    let got = params.to_string();
                    if got != str_arg(step, 1) {
                        fail(format!("{got:?}"));
                    }
                }
                "entries" => {
                    let got = entries(&params);
                    if got != pairs(&step[1]) {
                        fail(format!("{got:?}"));
                    }
                }
                "searchEntries" => {
                    let search = url.as_ref().expect("a URL").search();
                    let got = entries(&SearchParams::new(search));
                    if got != pairs(&step[1]) {
                        fail(format!("{got:?}"));
                    }
                }
                "href" => {
                    let got = url.as_ref().expect("a URL").href();
                    if got != str_arg(step, 1) {
                        fail(format!("{got:?}"));
                    }
                }
                "search" => {
                    let got = url.as_ref().expect("a URL").search();
                    if got != str_arg(step, 1) {
                        fail(format!("{got:?}"));
                    }
                }
                other => panic!("unknown step {other}"),
            }
            // The URLSearchParams update steps, for a list tied to a URL.
            if let (true, Some(url)) = (changed, url.as_mut()) {
                url.set_search_params(&params);
                assert_eq!(url.check_invariants(), Ok(()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The list of `url.searchParams` is the query as it is: a second `?` is
/// part of the first name, unlike in the constructor, which drops one.
#[test]
fn search_params_of_a_url_keep_a_leading_question_mark() {
    let url = Url::parse("http://h/??a=1").unwrap();
    assert_eq!(url.search_params().get("?a"), Some("1"));
    assert_eq!(SearchParams::new(url.search()).get("?a"), Some("1"));
    assert_eq!(SearchParams::new("?a=1").get("a"), Some("1"));
    assert!(Url::parse("http://h/").unwrap().search_params().is_empty());
}

/// Values go back into the query serialized as
/// application/x-www-form-urlencoded; a non-special URL too.
#[test]
fn set_search_params_serializes() {
    let mut url = Url::parse("sc://h/p?x#f").unwrap();
    let mut params = SearchParams::new("");
    params.append("a b", "c#d&é");
    url.set_search_params(&params);
    assert_eq!(url.href(), "sc://h/p?a+b=c%23d%26%C3%A9#f");
    assert_eq!(url.check_invariants(), Ok(()));
    url.set_search_params(&SearchParams::default());
    assert_eq!(url.href(), "sc://h/p#f");
}
