//! `Url::can_parse` answers most inputs without writing a URL and parses
//! the others into a per-thread scratch pair of URLs: after warm-up it
//! allocates exactly what `Url::parse_into` on warm URLs allocates (nothing
//! in release builds for ASCII hosts; debug builds add the fast paths'
//! cross-checks, which parse), never a fresh URL per call. One test in
//! this binary, so that the counting allocator sees only it.

#[path = "common/counting.rs"]
mod counting;

use normurl_url::Url;

use counting::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn can_parse_allocates_no_more_than_parse_into() {
    let cases: [(&str, Option<&str>); 8] = [
        ("https://example.com/a/b?q#f", None),
        ("../c?d", Some("https://example.com/a/b")),
        ("not a url", None),
        ("/x", Some("invalid base")),
        ("HTTP://u:p@Example.COM:8080/a b", None),
        ("file:///tmp/x", None),
        ("wss://h/", Some("https://b/")),
        ("http://h:65536/", None),
    ];
    let mut url = Url::parse("about:blank").unwrap();
    let mut base_url = Url::parse("about:blank").unwrap();
    let mut parse_into = |input: &str, base: Option<&str>| match base {
        None => url.parse_into(input, None).is_ok(),
        Some(base) => {
            base_url.parse_into(base, None).is_ok()
                && url.parse_into(input, Some(&base_url)).is_ok()
        }
    };
    // Warm up both: buffers grow to the longest URL.
    for &(input, base) in &cases {
        assert_eq!(Url::can_parse(input, base), parse_into(input, base));
    }
    for &(input, base) in &cases {
        let mut expected = false;
        let reference = allocations(|| expected = parse_into(input, base));
        let mut answer = false;
        let used = allocations(|| answer = Url::can_parse(input, base));
        assert_eq!(answer, expected, "{input:?} against {base:?}");
        assert_eq!(
            used, reference,
            "allocations for {input:?} against {base:?}"
        );
        if !cfg!(debug_assertions) {
            assert_eq!(used, 0, "{input:?} against {base:?}");
        }
    }
}
