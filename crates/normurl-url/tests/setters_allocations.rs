//! The setters write into buffers reused on each thread, and a URL's old
//! serialization goes back for the next call: once warm, parsing a line
//! and calling a setter on it (what `normurl --set` does on every line)
//! allocates exactly what parsing the line alone allocates (nothing in
//! release builds for ASCII hosts). One test in this binary, so that the
//! counting allocator sees only it.

#[path = "common/counting.rs"]
mod counting;

use normurl_url::{SearchParams, Url};

use counting::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

type Setter = fn(&mut Url, &str) -> bool;

const LINES: [&str; 6] = [
    "https://example.com/a/b?q=1&utm_source=x#f",
    "http://user:pw@www.example.org:8080/~x/y.html",
    "https://example.net/",
    "file:///tmp/a.txt",
    "web+demo://h/p?x#y",
    "http://[::1]/?a=b+c",
];

/// After two warm-up rounds over the lines, the allocations of parsing
/// each line, and of parsing it and then calling `edit` on it.
fn allocations_of(url: &mut Url, mut edit: impl FnMut(&mut Url)) -> (usize, usize) {
    let mut counts = (0, 0);
    for _ in 0..3 {
        counts = (0, 0);
        for line in LINES {
            counts.0 += allocations(|| url.parse_into(line, None).unwrap());
            counts.1 += allocations(|| {
                url.parse_into(line, None).unwrap();
                edit(url);
            });
        }
    }
    counts
}

#[test]
fn a_warm_setter_allocates_nothing_beyond_the_parse() {
    let setters: [(&str, Setter, &str); 11] = [
        ("protocol", Url::set_protocol, "https"),
        ("protocol", Url::set_protocol, "HTTP"),
        ("username", Url::set_username, "me@home"),
        ("password", Url::set_password, "secret"),
        ("host", Url::set_host, "Example.ORG:81"),
        ("hostname", Url::set_hostname, "example.org"),
        ("port", Url::set_port, "8443"),
        ("pathname", Url::set_pathname, "/a b/../c"),
        ("search", Url::set_search, "?q=a b"),
        ("hash", Url::set_hash, "#top <1>"),
        ("hash", Url::set_hash, ""),
    ];
    let mut url = Url::parse("about:blank").unwrap();
    for (name, setter, value) in setters {
        let (parse_only, with_setter) = allocations_of(&mut url, |url| {
            setter(url, value);
        });
        assert_eq!(with_setter, parse_only, "{name} = {value:?}");
        if !cfg!(debug_assertions) {
            assert_eq!(with_setter, 0, "{name} = {value:?}");
        }
    }
    // URLSearchParams written back: its serialization is reused too.
    let mut params = SearchParams::new("b=2&a=1");
    params.sort();
    let (parse_only, with_params) = allocations_of(&mut url, |url| url.set_search_params(&params));
    assert_eq!(with_params, parse_only, "set_search_params");
    // `--append path`: a segment spliced in place, and one that goes
    // through the pathname setter.
    for segment in ["x", "a b/c"] {
        let (parse_only, pushed) = allocations_of(&mut url, |url| {
            url.push_path_segment(segment);
        });
        assert_eq!(pushed, parse_only, "push_path_segment({segment:?})");
    }
}
