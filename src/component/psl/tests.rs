use super::*;

/// The host the URL parser makes of `name` (lowercase, punycode).
fn host(name: &str) -> String {
    Url::parse(&format!("http://{name}/"))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .hostname()
        .to_owned()
}

/// The expected value of a `checkPublicSuffix` argument: `null` or a
/// quoted name.
fn arg(s: &str) -> Option<&str> {
    let s = s.trim();
    (s != "null").then(|| s.trim_matches('\''))
}

/// The list maintainers' own test cases (tests/data/test_psl.txt, from
/// github.com/publicsuffix/list, public domain): the registrable domain of
/// every input. Inputs with a leading dot are invalid input to their
/// checker (null), but a URL host `.example.com` has the registered domain
/// `example.com`: those four are checked apart.
#[test]
fn maintainers_test_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/test_psl.txt");
    let text = std::fs::read_to_string(path).expect("test_psl.txt");
    let list = PublicSuffixList::bundled();
    let mut checked = 0;
    for line in text.lines() {
        let Some(call) = line
            .strip_prefix("checkPublicSuffix(")
            .and_then(|l| l.strip_suffix(");"))
        else {
            continue;
        };
        let (input, expected) = call.split_once(',').expect("two arguments");
        let (Some(input), expected) = (arg(input), arg(expected)) else {
            continue;
        };
        if input.starts_with('.') {
            continue;
        }
        let h = host(input);
        let got = list.split(&h).registered_domain(&h).map(str::to_owned);
        assert_eq!(got, expected.map(host), "{input}");
        checked += 1;
    }
    assert!(checked > 60, "only {checked} cases");
}

#[test]
fn leading_dots_and_empty_labels() {
    let list = PublicSuffixList::bundled();
    let d = ".example.com";
    assert_eq!(list.split(d).registered_domain(d), Some("example.com"));
    for d in [".com", "..com", "com", ""] {
        assert_eq!(list.split(d).registered_domain(d), None, "{d:?}");
    }
    let d = "a..example.com";
    assert_eq!(list.split(d).registered_domain(d), Some("example.com"));
    assert_eq!(list.split(d).subdomain(d), "a.");
}

#[test]
fn trailing_dots_are_ignored() {
    let list = PublicSuffixList::bundled();
    let d = "www.example.co.uk..";
    let s = list.split(d);
    assert_eq!(s.public_suffix(d), "co.uk");
    assert_eq!(s.registered_domain(d), Some("example.co.uk"));
    assert_eq!(s.subdomain(d), "www");
}

#[test]
fn sections() {
    let list = PublicSuffixList::bundled();
    // blogspot.com is a private rule, co.uk an ICANN one.
    let d = "x.myblog.blogspot.com";
    let s = list.split(d);
    assert_eq!(s.public_suffix(d), "blogspot.com");
    assert_eq!(s.registered_domain(d), Some("myblog.blogspot.com"));
    assert_eq!(s.subdomain(d), "x");
    assert_eq!(s.icann_suffix(d), Some("com"));
    assert_eq!(s.icann_domain(d), Some("blogspot.com"));
    assert_eq!(s.listed_suffix(d), Some("blogspot.com"));
    assert_eq!(s.listed_domain(d), Some("myblog.blogspot.com"));
    // An unlisted TLD: a suffix by the implicit rule, but not a listed one.
    let d = "www.example.invalid-tld";
    let s = list.split(d);
    assert_eq!(s.public_suffix(d), "invalid-tld");
    assert_eq!(s.registered_domain(d), Some("example.invalid-tld"));
    assert_eq!((s.listed_suffix(d), s.listed_domain(d)), (None, None));
    assert_eq!((s.icann_suffix(d), s.icann_domain(d)), (None, None));
}

#[test]
fn user_lists() {
    let list = PublicSuffixList::parse(
        "// a comment\nfoo\n*.bar.foo\n!ok.bar.foo\n// ===BEGIN PRIVATE DOMAINS===\nsvc.foo  trailing words\n",
    )
    .unwrap();
    assert_eq!(list.len(), 4);
    let d = "a.b.bar.foo";
    assert_eq!(list.split(d).public_suffix(d), "b.bar.foo");
    let d = "x.ok.bar.foo";
    assert_eq!(list.split(d).registered_domain(d), Some("ok.bar.foo"));
    let d = "me.svc.foo";
    let s = list.split(d);
    assert_eq!(
        (s.public_suffix(d), s.icann_suffix(d)),
        ("svc.foo", Some("foo"))
    );
    // com is not in this list.
    let d = "example.com";
    assert_eq!(list.split(d).listed_suffix(d), None);
    // Unicode rules are stored as punycode.
    let list = PublicSuffixList::parse("公司.cn\n").unwrap();
    let d = "xn--85x722f.xn--55qx5d.cn";
    assert_eq!(list.split(d).public_suffix(d), "xn--55qx5d.cn");
}

#[test]
fn bad_rules_name_their_line() {
    let e = PublicSuffixList::parse("com\n\nfoo.*.bar\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.to_string().starts_with("line 3: \"foo.*.bar\""), "{e}");
    assert_eq!(PublicSuffixList::parse("!com\n").unwrap_err().line, 1);
    assert_eq!(PublicSuffixList::parse("a b:c\nx:y\n").unwrap_err().line, 2);
}

#[test]
fn bundled_list_has_both_sections() {
    let list = PublicSuffixList::bundled();
    assert!(list.len() > 9000, "{}", list.len());
    let d = "github.io";
    assert_eq!(list.split(d).icann_suffix(d), Some("io"));
    assert_eq!(list.split(d).public_suffix(d), "github.io");
}
