//! `--psl FILE` decides `strip-www`'s guard too (issue 29): `www.` stays
//! when what is left is a public suffix of the list the user gave, not of
//! the bundled one. Through the library's builder and the built binary.

mod common;

use common::bin::run;
use normurl::canon::{Canonicalizer, ConfigError, Profile, Scratch};
use normurl::component::PublicSuffixList;
use normurl::Url;

/// A list newer than the bundled one: a made-up suffix, a wildcard with
/// an exception; and without `co.uk`.
const LIST: &str = "\
// a newer list
com
uk
newsuffix.example
*.wild.example
!www.wild.example
";

/// The lines, one for each way through the canonicalizer: the straight
/// line, a query (the parameter rules), userinfo (the careful line), two
/// `www.` labels (label by label), a percent escape to decode (the
/// general path), a wildcard and its exception.
const INPUT: &str = "\
https://www.newsuffix.example/
https://www.newsuffix.example/a/?b=1&a=2&utm_source=x
https://user@www.newsuffix.example/a
https://www.www.newsuffix.example/
https://www.newsuffix.example/%7Ea
https://www.x.wild.example/
https://www.www.wild.example/
https://www.co.uk/
";

#[test]
fn psl_file_decides_what_strip_www_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let list = common::bin::file(&dir, "new.dat", LIST.as_bytes());
    let with_list = run(&["-p", "aggressive", "--psl", &list], INPUT.as_bytes())
        .ok()
        .out();
    assert_eq!(
        with_list,
        "https://www.newsuffix.example/\n\
         https://www.newsuffix.example/a?a=2&b=1\n\
         https://www.newsuffix.example/a\n\
         https://www.newsuffix.example/\n\
         https://www.newsuffix.example/~a\n\
         https://www.x.wild.example/\n\
         https://wild.example/\n\
         https://co.uk/\n"
    );
    // The bundled list has none of the three, and has `co.uk`.
    let bundled = run(&["-p", "aggressive"], INPUT.as_bytes()).ok().out();
    assert_eq!(
        bundled,
        "https://newsuffix.example/\n\
         https://newsuffix.example/a?a=2&b=1\n\
         https://newsuffix.example/a\n\
         https://newsuffix.example/\n\
         https://newsuffix.example/~a\n\
         https://x.wild.example/\n\
         https://wild.example/\n\
         https://www.co.uk/\n"
    );
}

/// The components and the guard read the one list: the host left is the
/// one whose registered domain is what the list says.
#[test]
fn psl_file_serves_the_components_and_the_guard() {
    let dir = tempfile::tempdir().unwrap();
    let list = common::bin::file(&dir, "new.dat", LIST.as_bytes());
    let args = [
        "-p",
        "aggressive",
        "--psl",
        &list,
        "--get",
        r"{host}\t{public_suffix}",
    ];
    assert_eq!(
        run(
            &args,
            b"https://www.newsuffix.example/\nhttps://www.a.newsuffix.example/\n"
        )
        .ok()
        .out(),
        "www.newsuffix.example\tnewsuffix.example\na.newsuffix.example\tnewsuffix.example\n"
    );
}

#[track_caller]
fn canonical(canon: &Canonicalizer, input: &str) -> String {
    // The three ways in must agree: `parse_apply` (the fused path),
    // `apply` (the fast paths on a stored URL) and the general path.
    let url = Url::parse(input).unwrap();
    let (mut scratch, mut out) = (Scratch::new(), Vec::new());
    canon.apply_without_fast_path(&url, &mut scratch, &mut out);
    let general = String::from_utf8(out).unwrap();
    assert_eq!(canon.canonicalize_url(&url), general, "{input}");
    let (mut stored, mut out) = (Url::parse("about:blank").unwrap(), Vec::new());
    canon
        .parse_apply(input, &mut stored, &mut scratch, &mut out)
        .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), general, "{input}");
    general
}

#[test]
fn builder_takes_a_list_for_the_guard() {
    let bundled = Canonicalizer::new(Profile::Aggressive);
    let from_text = Canonicalizer::builder(Profile::Aggressive)
        .public_suffix_list(LIST)
        .unwrap()
        .build();
    let parsed = PublicSuffixList::parse(LIST).unwrap();
    let from_list = Canonicalizer::builder(Profile::Aggressive)
        .public_suffixes(&parsed)
        .build();
    for line in INPUT.lines() {
        let want = canonical(&from_text, line);
        assert_eq!(canonical(&from_list, line), want, "{line}");
        // A clone shares the list.
        assert_eq!(canonical(&from_text.clone(), line), want, "{line}");
    }
    let go = |canon: &Canonicalizer, url: &str| canonical(canon, url);
    assert_eq!(
        go(&from_text, "https://www.newsuffix.example/"),
        "https://www.newsuffix.example/"
    );
    assert_eq!(
        go(&bundled, "https://www.newsuffix.example/"),
        "https://newsuffix.example/"
    );
    assert_eq!(go(&from_text, "https://www.co.uk/"), "https://co.uk/");
    assert_eq!(go(&bundled, "https://www.co.uk/"), "https://www.co.uk/");
    // The bundled list, given as a parsed value, is the default.
    let explicit = Canonicalizer::builder(Profile::Aggressive)
        .public_suffixes(PublicSuffixList::bundled())
        .build();
    for host in [
        "www.co.uk",
        "www.github.io",
        "www.example.com",
        "www.www.ck",
    ] {
        let url = format!("https://{host}/a");
        assert_eq!(go(&explicit, &url), go(&bundled, &url), "{url}");
    }
    // `strip-www-digits` has no guard, whatever the list.
    let cdx = Canonicalizer::builder(Profile::Aggressive)
        .rules("+strip-www-digits")
        .unwrap()
        .public_suffix_list(LIST)
        .unwrap()
        .build();
    assert_eq!(
        go(&cdx, "https://www.newsuffix.example/"),
        "https://newsuffix.example/"
    );
}

#[test]
fn builder_rejects_a_line_that_is_no_rule() {
    let err = Canonicalizer::builder(Profile::Aggressive)
        .public_suffix_list("com\nfoo.*.uk\n")
        .unwrap_err();
    assert!(
        matches!(err, ConfigError::BadPublicSuffixList(2, _)),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("line 2: "), "{err}");
}
