//! The rules of issue 29 on examples: each one alone (on `whatwg`), with
//! the rules it works with, and `strip-scheme`'s keys on the corpora.

use normurl::canon::{Canonicalizer, Profile, Rule, RuleSet, Scratch};
use normurl::Url;

fn canon(profile: Profile, edits: &str) -> Canonicalizer {
    Canonicalizer::builder(profile)
        .rules(edits)
        .unwrap()
        .build()
}

/// Checks each `(input, expected)` and that the output canonicalizes to
/// itself with nothing fired.
fn check(canon: &Canonicalizer, cases: &[(&str, &str)]) {
    for &(input, expected) in cases {
        let out = canon.canonicalize(input).unwrap();
        assert_eq!(out, expected, "{:?} on {input}", canon.rules());
        // Keys are not URL serializations: their parse is the URL again.
        let keys = canon.rules().intersection(RuleSet::KEYS);
        let key = keys.contains(Rule::StripScheme)
            || (keys.contains(Rule::StripRootSlash)
                && Url::parse(&out).is_ok_and(|url| url.href() != out));
        if !key {
            let url = Url::parse(&out).unwrap();
            let mut again = Vec::new();
            let fired = canon.apply(&url, &mut Scratch::new(), &mut again);
            assert_eq!(
                (again.as_slice(), fired.is_empty()),
                (out.as_bytes(), true),
                "{out}"
            );
        }
    }
}

#[test]
fn keep_params_keeps_only_listed_names() {
    let c = Canonicalizer::builder(Profile::Whatwg)
        .keep_params("id, page_*, *_ref")
        .unwrap()
        .build();
    assert!(c.rules().contains(Rule::KeepParams));
    check(
        &c,
        &[
            (
                "https://a.com/?id=1&x=2&page_n=3&utm_source=4",
                "https://a.com/?id=1&page_n=3",
            ),
            ("https://a.com/?b_ref=1&ref=2", "https://a.com/?b_ref=1"),
            ("https://a.com/?x=1&y=2#f", "https://a.com/#f"),
            ("https://a.com/?id=1", "https://a.com/?id=1"),
            ("https://a.com/?", "https://a.com/?"),
        ],
    );
    // Without a list, nothing is kept.
    check(
        &canon(Profile::Whatwg, "+keep-params"),
        &[("https://a.com/?a=1", "https://a.com/")],
    );
    // With aggressive: kept parameters are sorted, empty pieces dropped.
    let c = Canonicalizer::builder(Profile::Aggressive)
        .keep_params("b,a")
        .unwrap()
        .build();
    check(
        &c,
        &[("https://a.com/?b=1&&z=0&a=2", "https://a.com/?a=2&b=1")],
    );
}

#[test]
fn strip_params_takes_globs() {
    let c = Canonicalizer::builder(Profile::Aggressive)
        .strip_params("*_ga,x*y")
        .unwrap()
        .build();
    check(
        &c,
        &[
            (
                "https://a.com/?a=1&c_ga=2&_ga=3&xzy=4&xy=5",
                "https://a.com/?a=1",
            ),
            (
                "https://a.com/?c_gax=2&xyz=1",
                "https://a.com/?c_gax=2&xyz=1",
            ),
        ],
    );
}

#[test]
fn drop_blank_params() {
    check(
        &canon(Profile::Whatwg, "+drop-blank-params"),
        &[
            ("https://a.com/?a=&b=1", "https://a.com/?b=1"),
            ("https://a.com/?a&b=", "https://a.com/"),
            ("https://a.com/?a=%20&&b=0", "https://a.com/?a=%20&&b=0"),
        ],
    );
}

#[test]
fn unwrap_redirects() {
    check(
        &canon(Profile::Aggressive, "+unwrap-redirects"),
        &[
            (
                "https://www.google.com/url?sa=t&url=https%3A%2F%2Fwww.a.com%2Fx%2F%3Futm_source%3Dg",
                "https://a.com/x",
            ),
            ("https://l.facebook.com/l.php?u=http%3A%2F%2Fa.com%2F&h=AT1", "http://a.com/"),
            // A redirector's URL only once the other rules ran.
            ("https://www.google.com/url/?q=https://a.com/b", "https://a.com/b"),
            ("https://www.google.com/search?q=https://a.com/", "https://google.com/search?q=https://a.com/"),
        ],
    );
}

#[test]
fn semicolon_separators() {
    check(
        &canon(Profile::Aggressive, "+semicolon-separators"),
        &[
            (
                "https://a.com/?b=1;utm_source=2;a=3",
                "https://a.com/?a=3&b=1",
            ),
            ("https://a.com/?b=%3b", "https://a.com/?b=%3B"),
        ],
    );
    // A %3B that unescape-query decodes stays data.
    check(
        &canon(Profile::Whatwg, "+unescape-query,+semicolon-separators"),
        &[("https://a.com/?a=%3B%41;b", "https://a.com/?a=%3BA&b")],
    );
    check(
        &canon(Profile::Wayback, "+semicolon-separators"),
        &[("https://a.com/?b=%3B%41;a", "https://a.com/?a&b=%3ba")],
    );
}

#[test]
fn semicolon_only_separators() {
    check(
        &canon(Profile::Aggressive, "+semicolon-only-separators"),
        &[
            (
                "https://a.com/?b=1&c;utm_source=2;a=3",
                "https://a.com/?a=3;b=1%26c",
            ),
            ("https://a.com/?b=%3b;;a", "https://a.com/?a;b=%3B"),
        ],
    );
    // It wins over semicolon-separators; a %3B that unescape-query decodes
    // stays data, an %26 stays encoded.
    check(
        &canon(
            Profile::Whatwg,
            "+unescape-query,+semicolon-separators,+semicolon-only-separators",
        ),
        &[(
            "https://a.com/?a=%3B%41;b=%26&c",
            "https://a.com/?a=%3BA;b=%26%26c",
        )],
    );
}

/// The urlcanon rules: its encode sets' `#`, space and `=`, and slashes
/// collapsed in special URLs only.
#[test]
fn urlcanon_rules() {
    check(
        &canon(Profile::Whatwg, "+encode-hash-space"),
        &[
            ("http://a.com/x#bar#baz", "http://a.com/x#bar%23baz"),
            ("lolscheme:x x#x x", "lolscheme:x%20x#x%20x"),
            ("http://a.com/x y#%23", "http://a.com/x%20y#%23"),
        ],
    );
    check(
        &canon(Profile::Whatwg, "+unescape-query,+encode-value-equals"),
        &[
            ("http://a.com/?%3d=%3d&%3d", "http://a.com/?%3D=%3D&%3D"),
            ("http://a.com/?a=b=c&d==", "http://a.com/?a=b%3Dc&d=%3D"),
            ("foo://a.com/?a=b=c", "foo://a.com/?a=b=c"),
        ],
    );
    check(
        &canon(Profile::Aggressive, "+keep-nonspecial-slashes"),
        &[
            ("foo://h//a//", "foo://h//a"),
            ("foo:/%///", "foo:/%"),
            ("http://h//a//b//", "http://h/a/b"),
        ],
    );
    check(
        &canon(
            Profile::Whatwg,
            "+collapse-slashes,+keep-nonspecial-slashes",
        ),
        &[
            ("foo://h//a//", "foo://h//a//"),
            ("file:///a//b", "file:///a/b"),
        ],
    );
}

/// normalize-url's `decodeURI` of the path: not of its reserved set or
/// `%25`, nothing when an escape is malformed, not for file URLs.
#[test]
fn decode_uri_path() {
    check(
        &canon(Profile::Whatwg, "+decode-uri-path"),
        &[
            (
                "https://foo.com/some%5Bthing%5celse/that-is%40great@coding",
                "https://foo.com/some[thing%5Celse/that-is%40great@coding",
            ),
            (
                "https://a.com/%3c%2f%25%c3%a9?%5B",
                "https://a.com/%3C%2f%25%C3%A9?%5B",
            ),
            ("https://a.com/%5B/%zz", "https://a.com/%5B/%zz"),
            ("foo://h/%5B", "foo://h/["),
            ("file:///C%7C/%5B", "file:///C%7C/%5B"),
        ],
    );
}

#[test]
fn strip_directory_index() {
    check(
        &canon(Profile::Whatwg, "+strip-directory-index"),
        &[
            ("https://a.com/index.html", "https://a.com/"),
            ("https://a.com/a/Default.aspx?x=1", "https://a.com/a/?x=1"),
            ("https://a.com/index.html/x", "https://a.com/index.html/x"),
            ("https://a.com/a/index.php/", "https://a.com/a/index.php/"),
        ],
    );
    // With strip-trailing-slash, until neither changes anything.
    check(
        &canon(Profile::Aggressive, "+strip-directory-index"),
        &[
            ("https://a.com/a/index.htm", "https://a.com/a"),
            ("https://a.com/a/index.html/index.htm/", "https://a.com/a"),
        ],
    );
    let c = Canonicalizer::builder(Profile::Whatwg)
        .index_files("home.jsp")
        .unwrap()
        .build();
    check(
        &c,
        &[
            ("http://a.com/b/HOME.JSP", "http://a.com/b/"),
            ("http://a.com/index.htm", "http://a.com/"),
        ],
    );
    assert!(Canonicalizer::builder(Profile::Whatwg)
        .index_files("a/b.html")
        .is_err());
    assert!(!Profile::Wayback.rules().contains(Rule::StripDirectoryIndex));
}

#[test]
fn fragment_rules() {
    check(
        &canon(Profile::Aggressive, "+keep-spa-fragments"),
        &[
            ("https://a.com/#!/inbox", "https://a.com/#!/inbox"),
            ("https://a.com/app#/users/1", "https://a.com/app#/users/1"),
            ("https://a.com/#top", "https://a.com/"),
        ],
    );
    check(
        &canon(Profile::Whatwg, "+strip-text-fragment"),
        &[
            ("https://a.com/#:~:text=hello", "https://a.com/"),
            ("https://a.com/#sec:~:text=a,b", "https://a.com/#sec"),
            (
                "https://a.com/#sec:~:note=1&text=x",
                "https://a.com/#sec:~:note=1",
            ),
            ("https://a.com/#sec", "https://a.com/#sec"),
        ],
    );
    // Without drop-fragment, keep-spa-fragments changes nothing.
    check(
        &canon(Profile::Whatwg, "+keep-spa-fragments"),
        &[("https://a.com/#x", "https://a.com/#x")],
    );
}

#[test]
fn scheme_rules() {
    check(
        &canon(Profile::Whatwg, "+force-https"),
        &[
            ("http://a.com/", "https://a.com/"),
            ("http://a.com:443/", "https://a.com/"),
            ("http://a.com:8080/", "https://a.com:8080/"),
            ("ws://a.com/", "ws://a.com/"),
        ],
    );
    // force-https wins over force-http.
    let both = canon(Profile::Whatwg, "+force-http,+force-https");
    check(
        &both,
        &[
            ("https://a.com/", "https://a.com/"),
            ("http://a.com/", "https://a.com/"),
        ],
    );
    check(
        &canon(Profile::Aggressive, "+strip-scheme"),
        &[
            ("https://www.a.com/x/?b=1&a=2", "a.com/x?a=2&b=1"),
            ("http://a.com/x", "a.com/x"),
            ("mailto:a@b.c", "a@b.c"),
        ],
    );
}

/// On every line of a corpus, `strip-scheme`'s key is the canonical URL
/// without `scheme:` and `//`, and `http` and `https` give one key.
#[test]
fn strip_scheme_keys_on_a_corpus() {
    let text = std::fs::read_to_string("samples/corpora/weburls.txt").unwrap();
    let keyed = canon(Profile::Aggressive, "+strip-scheme");
    let plain = Canonicalizer::new(Profile::Aggressive);
    let mut lines = 0;
    for line in text.lines() {
        let Ok(url) = Url::parse(line) else { continue };
        let canonical = plain.canonicalize_url(&url);
        let rest = &canonical[canonical.find(':').unwrap() + 1..];
        let key = keyed.canonicalize_url(&url);
        assert_eq!(key, rest.strip_prefix("//").unwrap_or(rest), "{line}");
        // (Except with a port: `https://a:443` has none, `http://a:443` has.)
        let http = line
            .strip_prefix("https:")
            .map(|rest| format!("http:{rest}"));
        let no_port =
            |h: &String| url.port().is_empty() && Url::parse(h).is_ok_and(|u| u.port().is_empty());
        if let Some(http) = http.filter(no_port) {
            assert_eq!(keyed.canonicalize(&http).unwrap(), key, "{line}");
        }
        lines += 1;
    }
    assert!(lines > 1000, "{lines}");
}

/// The rules of the `normalize-url` profile, each alone on `whatwg`.
#[test]
fn normalize_url_rules() {
    check(
        &canon(Profile::Whatwg, "+drop-empty-fragment"),
        &[
            ("https://a.com/x#", "https://a.com/x"),
            ("https://a.com/x#y", "https://a.com/x#y"),
            ("https://a.com/x?#", "https://a.com/x?"),
        ],
    );
    check(
        &canon(Profile::Whatwg, "+strip-root-slash"),
        &[
            ("https://a.com/", "https://a.com"),
            ("https://a.com:8080", "https://a.com:8080"),
            ("https://a.com/?", "https://a.com/?"),
            ("https://a.com/#", "https://a.com/#"),
            ("https://a.com/?q", "https://a.com/?q"),
            ("https://a.com/x/", "https://a.com/x/"),
            ("foo:/", "foo:/"),
            ("mailto:a@b.c", "mailto:a@b.c"),
        ],
    );
    // The key parses back to the URL it came from.
    let key = canon(Profile::Whatwg, "+strip-root-slash")
        .canonicalize("HTTP://A.com:80/")
        .unwrap();
    assert_eq!(key, "http://a.com");
    assert_eq!(Url::parse(&key).unwrap().href(), "http://a.com/");
    check(
        &canon(Profile::Whatwg, "+collapse-slashes,+keep-scheme-slashes"),
        &[
            (
                "https://a.com//x//https://b.com//y",
                "https://a.com/x/https://b.com/y",
            ),
            ("https://a.com/2x://b", "https://a.com/2x:/b"),
        ],
    );
    // Alone, keep-scheme-slashes has nothing to keep.
    check(
        &canon(Profile::Whatwg, "+keep-scheme-slashes"),
        &[("https://a.com//x", "https://a.com//x")],
    );
    check(
        &canon(Profile::Whatwg, "+normalize-data-urls"),
        &[
            (
                "data:TEXT/HTML;Charset=UTF-8,<p>",
                "data:text/html;Charset=UTF-8,<p>",
            ),
            ("data:text/plain;charset=US-ASCII,x", "data:,x"),
            (
                "data:;charset=UTF-8;base64, Zm9v",
                "data:;charset=utf-8;base64,Zm9v",
            ),
            ("https://a.com/text/plain,x", "https://a.com/text/plain,x"),
        ],
    );
    check(
        &canon(Profile::Whatwg, "+strip-www,+strip-one-www"),
        &[
            ("https://www.a.com/", "https://a.com/"),
            ("https://www.www.a.com/", "https://www.www.a.com/"),
            ("https://www.com/", "https://www.com/"),
        ],
    );
    // Without strip-www, strip-one-www does nothing.
    check(
        &canon(Profile::Whatwg, "+strip-one-www"),
        &[("https://www.a.com/", "https://www.a.com/")],
    );
}

/// normalize-url removes `utm_*` parameters, not the other tracking
/// parameters of normurl's list.
#[test]
fn normalize_url_strips_utm_only() {
    let c = Canonicalizer::new(Profile::NormalizeUrl);
    check(
        &c,
        &[
            (
                "https://www.a.com/x/?utm_source=1&b=2&fbclid=3&a=1",
                "https://a.com/x?a=1&b=2&fbclid=3",
            ),
            ("https://a.com/?utm_medium=x", "https://a.com"),
            ("https://a.com/p/?#", "https://a.com/p"),
        ],
    );
}

#[test]
fn domain_params_strip_keep_and_exceptions() {
    let canon = Canonicalizer::builder(Profile::Aggressive)
        .param_rules("* strip ref\nshop.example keep id,p_*\nfriend.example strip")
        .unwrap()
        .build();
    check(
        &canon,
        &[
            ("https://www.a.example/?ref=1&x=2", "https://a.example/?x=2"),
            (
                "https://www.shop.example/x/?z=1&p_2=2&id=3&ref=4",
                "https://shop.example/x?id=3&p_2=2",
            ),
            ("https://shop.example/?z=1", "https://shop.example/"),
            (
                "https://friend.example/?ref=1&utm_source=x",
                "https://friend.example/?ref=1",
            ),
        ],
    );
}

/// The rules that reproduce other tools: `decode-path-reserved` and
/// `form-encode-query` (w3lib), `encode-bare-percent` (urlcanon), alone
/// and in their profiles, on URLs the fast paths take (no `%`, no query)
/// and on URLs they must decline.
#[test]
fn tool_rules() {
    check(
        &canon(Profile::Whatwg, "+decode-path-reserved"),
        &[
            ("https://a.com/a%23b%2cc%3A%7C", "https://a.com/a%23b,c:|"),
            ("https://a.com/%2F%3F%25%20", "https://a.com/%2F%3F%25%20"),
            ("mailto:a%40b.com?x=%2C", "mailto:a@b.com?x=%2C"),
            ("https://a.com/a,b", "https://a.com/a,b"),
        ],
    );
    check(
        &canon(Profile::Whatwg, "+form-encode-query"),
        &[
            (
                "https://a.com/?q=a b&c&price(£)=5",
                "https://a.com/?q=a+b&c=&price%28%C2%A3%29=5",
            ),
            ("https://a.com/?q=a+b%2b", "https://a.com/?q=a+b%2B"),
            ("https://a.com/p#x y", "https://a.com/p#x%20y"),
        ],
    );
    check(
        &canon(Profile::Whatwg, "+encode-bare-percent"),
        &[
            ("wow:%NBD", "wow:%25NBD"),
            ("foo://u%:p@%/%a?%zz#%", "foo://u%25:p@%25/%25a?%25zz#%25"),
            ("https://a.com/%41%", "https://a.com/%41%25"),
            ("https://a.com/a?b#c", "https://a.com/a?b#c"),
        ],
    );
    check(
        &Canonicalizer::new(Profile::W3lib),
        &[
            (
                "http://www.example.com/do?q=a%20space&a=1&c#f",
                "http://www.example.com/do?a=1&c=&q=a+space",
            ),
            ("http://a.com/x%2cy/z", "http://a.com/x,y/z"),
            ("http://a.com/x/y#f", "http://a.com/x/y"),
        ],
    );
    check(
        &Canonicalizer::new(Profile::UrlcanonSemanticPrecise),
        &[
            ("file:///%", "file:///%25"),
            ("http://a.com/b?%zz", "http://a.com/b?%25zz"),
            ("http://u@a.com//b?y=1&x=2", "http://a.com/b?x=2&y=1"),
        ],
    );
    // The other profiles do not change.
    for profile in [
        Profile::Whatwg,
        Profile::Semantic,
        Profile::Aggressive,
        Profile::Wayback,
    ] {
        let rules = profile.rules();
        for rule in [
            Rule::DecodePathReserved,
            Rule::FormEncodeQuery,
            Rule::EncodeBarePercent,
        ] {
            assert!(!rules.contains(rule), "{profile} has {rule}");
        }
    }
}

/// `keep-path-jsessionid` (in `wayback`): the path's `;jsessionid=` stays,
/// as in the CDX keys of webarchive-commons and the surt package; the
/// query's session ids and ASP.NET path segments still go.
#[test]
fn keep_path_jsessionid() {
    let id = "0123456789ABCDEF0123456789abcdef";
    let input = format!("http://a.com/x;jsessionid={id}?jsessionid={id}&b=1");
    check(
        &canon(Profile::Whatwg, "+strip-session-ids,+keep-path-jsessionid"),
        &[
            (&input, &format!("http://a.com/x;jsessionid={id}?b=1")),
            (
                "http://a.com/(S(0123456789abcdef01234567))/p.aspx",
                "http://a.com/p.aspx",
            ),
        ],
    );
    check(
        &canon(Profile::Whatwg, "+strip-session-ids"),
        &[(&input, "http://a.com/x?b=1")],
    );
    check(
        &canon(Profile::Whatwg, "+keep-path-jsessionid"),
        &[(&input, &input)],
    );
    assert!(Profile::Wayback.rules().contains(Rule::KeepPathJsessionid));
    assert!(!Profile::Aggressive
        .rules()
        .contains(Rule::KeepPathJsessionid));
}

/// `session-ids-anywhere` (in `wayback`): the query's session ids as the
/// regexes of webarchive-commons and the surt package find them, wherever
/// they start in a piece, the last of each kind; then, unlike them, again
/// after the sort until none is left, so that the output is idempotent.
#[test]
fn session_ids_anywhere() {
    let id = "0123456789ABCDEF0123456789abcdef";
    let lower = id.to_ascii_lowercase();
    let anywhere = canon(Profile::Whatwg, "+strip-session-ids,+session-ids-anywhere");
    check(
        &anywhere,
        &[
            (
                &format!("http://a.com/?id=7;jsessionid={id}"),
                "http://a.com/?id=7;",
            ),
            (
                &format!("http://a.com/?xsid={id}&b=2"),
                "http://a.com/?xb=2",
            ),
            (&format!("http://a.com/?a=1&SID={id}"), "http://a.com/?a=1&"),
            (&format!("http://a.com/?SID={id}"), "http://a.com/"),
            (
                "http://a.com/?a=1&CFID=2&CFTOKEN=3&b",
                "http://a.com/?a=1&b",
            ),
            (
                "http://a.com/?cftoken=3&cfid=2",
                "http://a.com/?cftoken=3&cfid=2",
            ),
            // Once each, and again until none is left.
            (&format!("http://a.com/?sid={id}&sid={id}"), "http://a.com/"),
        ],
    );
    let wayback = canon(Profile::Wayback, "");
    check(
        &wayback,
        &[
            (&format!("http://a.com/?a=1&sid={id}"), "http://a.com/?&a=1"),
            // The sort brings what the regexes left to them again.
            (
                &format!("http://a.com/?sid={id}&sid={id}"),
                "http://a.com/?&",
            ),
            ("http://a.com/?cftoken=3&cfid=2", "http://a.com/"),
            (&format!("http://a.com/?b=1;SID={id}"), "http://a.com/?b=1;"),
            // What the regexes join is a piece for the query rules again:
            // `a%3D` was a name, is a value, and unescapes.
            (
                &format!("http://a.com/?q=SID={id}&a%3D=%26"),
                "http://a.com/?q=a==%26",
            ),
        ],
    );
    // Whole parameters without it (`aggressive`'s, Heritrix's).
    check(
        &canon(Profile::Whatwg, "+strip-session-ids"),
        &[
            (
                &format!("http://a.com/?id=7;jsessionid={id}"),
                &format!("http://a.com/?id=7;jsessionid={id}"),
            ),
            (&format!("http://a.com/?a=1&SID={id}"), "http://a.com/?a=1"),
        ],
    );
    // Alone it does nothing: it says how strip-session-ids works.
    let input = format!("http://a.com/?x;sid={lower}");
    check(
        &canon(Profile::Whatwg, "+session-ids-anywhere"),
        &[(&input, &input)],
    );
    assert!(Profile::Wayback.rules().contains(Rule::SessionIdsAnywhere));
    assert!(!Profile::Aggressive
        .rules()
        .contains(Rule::SessionIdsAnywhere));
}
