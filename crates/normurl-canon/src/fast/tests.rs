//! The fast paths against the general path, its reference: whenever the
//! fast path takes a URL, both must write the same bytes and report
//! the same rules.

use super::{fused, Setup};
use crate::canonicalizer::Canonicalizer;
use crate::config::IdnForm;
use crate::profile::Profile;
use crate::rule::Rule;
use crate::scratch::Scratch;
use normurl_url::Url;
use proptest::prelude::*;

/// The profiles, every rule at once, and each output form.
fn canonicalizers() -> Vec<Canonicalizer> {
    let mut all: Vec<Canonicalizer> = Profile::ALL
        .iter()
        .map(|&p| Canonicalizer::new(p))
        .collect();
    all.push(
        Canonicalizer::builder(Profile::Whatwg)
            .rule_set(Rule::ALL.into_iter().collect())
            .build(),
    );
    // Every rule the fast path applies (with one of the others, it
    // declines every URL).
    let general_only = crate::rules::lists::GENERAL_ONLY;
    all.push(
        Canonicalizer::builder(Profile::Whatwg)
            .rule_set(
                Rule::ALL
                    .into_iter()
                    .filter(|&r| !general_only.contains(r))
                    .collect(),
            )
            .build(),
    );
    for output in ["surt", "ssurt"] {
        for profile in [Profile::Aggressive, Profile::Wayback] {
            all.push(
                Canonicalizer::builder(profile)
                    .output(output.parse().unwrap())
                    .build(),
            );
        }
    }
    all.push(
        Canonicalizer::builder(Profile::Aggressive)
            .rules("+force-http,+drop-port,+strip-www-digits,-strip-userinfo")
            .unwrap()
            .build(),
    );
    // Where the fast path scans with AVX2, the SSE2 instances too.
    let narrow: Vec<Canonicalizer> = all
        .iter()
        .filter_map(|canon| {
            let plan = canon.setup.plan.narrow()?;
            let (fused, fused_inner) = fused::pick(
                canon.setup.config.rules,
                canon.setup.config.output,
                canon.setup.config.idn,
                plan.path(),
                false,
            );
            Some(Canonicalizer {
                setup: Setup {
                    plan,
                    config: canon.setup.config.clone(),
                    fused_inner,
                },
                fused,
            })
        })
        .collect();
    all.extend(narrow);
    all
}

/// [`canonicalizers`], and some that write hosts in Unicode (which
/// the fast path never takes: `parse_apply`'s tests only).
fn parse_apply_canonicalizers() -> Vec<Canonicalizer> {
    let mut all = canonicalizers();
    for profile in [Profile::Whatwg, Profile::Aggressive, Profile::Semantic] {
        all.push(
            Canonicalizer::builder(profile)
                .idn(IdnForm::Unicode)
                .build(),
        );
    }
    all
}

/// Runs both paths; returns whether the fast path took the URL.
fn compare(canon: &Canonicalizer, url: &Url, scratch: &mut Scratch) -> Result<bool, String> {
    let mut fast_out = Vec::new();
    let fast = super::apply(
        &canon.setup,
        url,
        &mut scratch.params,
        &mut scratch.fast,
        &mut fast_out,
    );
    let Some(fast_fired) = fast else {
        return if fast_out.is_empty() {
            Ok(false)
        } else {
            Err(format!("{}: declined after writing", url.href()))
        };
    };
    let mut general_out = Vec::new();
    let general_fired = canon.apply_general(url, scratch, &mut general_out);
    if (&fast_out, fast_fired) != (&general_out, general_fired) {
        return Err(format!(
            "{:?} on {}: fast {:?} {}, general {:?} {}",
            canon.rules(),
            url.href(),
            String::from_utf8_lossy(&fast_out),
            fast_fired,
            String::from_utf8_lossy(&general_out),
            general_fired,
        ));
    }
    Ok(true)
}

#[test]
fn fast_path_strips_one_slash_of_a_path_ending_in_two() {
    // As the general path does when collapse-slashes is off (so the
    // output is not idempotent: that is the rules' own doing).
    let canon = Canonicalizer::builder(Profile::Whatwg)
        .rules("+strip-trailing-slash")
        .unwrap()
        .build();
    let mut scratch = Scratch::new();
    for input in [
        "http://h/a//",
        "http://h//",
        "http://h/a//?q",
        "http://h/a//#f",
    ] {
        let url = Url::parse(input).unwrap();
        assert_eq!(compare(&canon, &url, &mut scratch), Ok(true), "{input}");
    }
    let mut out = Vec::new();
    canon.apply(&Url::parse("http://h/a//").unwrap(), &mut scratch, &mut out);
    assert_eq!(out, b"http://h/a/");
}

#[test]
fn fast_path_drops_a_fragment_with_the_cuts_of_host_port_and_slash() {
    // `parse_apply` cuts a fragment off before `Bare` (`Bare::kept`);
    // where `Bare` gives up (a port to drop, a `www` host of several
    // labels), the stored URL's fast path must drop it too.
    let canon = Canonicalizer::builder(Profile::Whatwg)
        .rules("+drop-fragment,+drop-port,+strip-www,+strip-trailing-slash")
        .unwrap()
        .build();
    let mut scratch = Scratch::new();
    for (input, expected) in [
        ("http://www.example.com/a/#f", "http://example.com/a"),
        ("http://example.com:8080/a/#f", "http://example.com/a"),
        ("http://www.www.example.com/#", "http://example.com/"),
        ("http://example.com/a?q#f", "http://example.com/a?q"),
    ] {
        let url = Url::parse(input).unwrap();
        assert_eq!(compare(&canon, &url, &mut scratch), Ok(true), "{input}");
        let mut out = Vec::new();
        canon.apply(&url, &mut scratch, &mut out);
        assert_eq!(String::from_utf8_lossy(&out), expected, "{input}");
    }
}

#[test]
fn parse_apply_keeps_a_query_of_one_parameter_with_the_cuts() {
    // `Bare` on the input may end in a query: its last byte is no
    // trailing slash, and a slash before it is left to the stored
    // URL's way.
    let canon = Canonicalizer::builder(Profile::Aggressive).build();
    let mut url = Url::parse("about:blank").unwrap();
    let mut scratch = Scratch::new();
    for (input, expected) in [
        (
            "https://www.example.com/a?q=1/",
            "https://example.com/a?q=1/",
        ),
        ("https://www.example.com/a/?q", "https://example.com/a?q"),
        ("https://example.com/a?q#f", "https://example.com/a?q"),
        ("https://example.com/?utm_source=x", "https://example.com/"),
        ("https://example.com/a?b&a", "https://example.com/a?a&b"),
        ("https://www.co.uk/a?q", "https://www.co.uk/a?q"),
    ] {
        let mut out = Vec::new();
        let fired = canon.parse_apply(input, &mut url, &mut scratch, &mut out);
        assert!(fired.is_ok(), "{input}");
        assert_eq!(String::from_utf8_lossy(&out), expected, "{input}");
    }
}

#[test]
fn fast_paths_leave_session_ids_anywhere_to_the_general_path() {
    // Ids inside parameters, and queries where the sort (or a removed
    // parameter) brings `cfid` before `cftoken`, which the regexes then
    // take: the fast paths must decline all of them.
    let id = "0123456789abcdef0123456789ABCDEF";
    let mut canons = vec![
        Canonicalizer::new(Profile::Wayback),
        Canonicalizer::builder(Profile::Wayback)
            .output("surt".parse().unwrap())
            .build(),
    ];
    for edits in [
        "+strip-session-ids,+session-ids-anywhere",
        "+strip-session-ids,+session-ids-anywhere,+sort-query",
        "+strip-session-ids,+session-ids-anywhere,+strip-tracking,+drop-fragment",
    ] {
        canons.push(
            Canonicalizer::builder(Profile::Whatwg)
                .rules(edits)
                .unwrap()
                .build(),
        );
    }
    let mut scratch = Scratch::new();
    let mut url = Url::parse("about:blank").unwrap();
    for input in [
        format!("http://a.com/?id=7;jsessionid={id}"),
        format!("http://a.com/?q=xsid={id}"),
        format!("http://a.com/p?b=1&xsid={id}"),
        "http://a.com/?cftoken=3&cfid=2".to_owned(),
        "http://a.com/?cfid=2&utm_source=x&cftoken=3".to_owned(),
        "http://a.com/?cfid=2&b&cftoken=3#f".to_owned(),
        "http://a.com/?aspsessionidAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM".to_owned(),
    ] {
        url.parse_into(&input, None).unwrap();
        for canon in &canons {
            assert_eq!(compare(canon, &url, &mut scratch), Ok(false), "{input}");
            compare_parse_apply(canon, &input, &mut url, &mut scratch).unwrap();
        }
    }
}

#[test]
fn fast_path_matches_general_path_on_the_corpora() {
    let mut scratch = Scratch::new();
    let mut url = Url::parse("about:blank").unwrap();
    let canons = canonicalizers();
    let (mut lines, mut taken) = (0, 0);
    for (_, text) in crate::test_corpora() {
        for line in text.lines() {
            if url.parse_into(line, None).is_err() {
                continue;
            }
            lines += 1;
            for canon in &canons {
                taken += usize::from(compare(canon, &url, &mut scratch).unwrap());
            }
        }
    }
    assert!(lines > 100_000, "corpora missing? {lines} lines");
    assert!(
        taken > lines * canons.len() * 3 / 4,
        "the fast path took only {taken} of {}",
        lines * canons.len()
    );
}

/// [`Canonicalizer::parse_apply`] against [`Url::parse_into`] and
/// [`Canonicalizer::apply`]: the same result, appended to what `out`
/// had. `url` comes in holding some other URL. Returns whether the
/// input took the way that never stores the URL (`url` unchanged).
fn compare_parse_apply(
    canon: &Canonicalizer,
    input: &str,
    url: &mut Url,
    scratch: &mut Scratch,
) -> Result<bool, String> {
    url.parse_into("http://stale.example/", None).unwrap();
    let mut out = b"kept".to_vec();
    let fused = canon.parse_apply(input, url, scratch, &mut out);
    let untouched = url.href() == "http://stale.example/";
    let mut two_step = Url::parse("about:blank").unwrap();
    let mut expected = b"kept".to_vec();
    let reference = two_step
        .parse_into(input, None)
        .map(|()| canon.apply(&two_step, scratch, &mut expected));
    if (&fused, &out) != (&reference, &expected) {
        return Err(format!(
            "{:?} on {input:?}: parse_apply {fused:?} {:?}, two steps {reference:?} {:?}",
            canon.rules(),
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&expected),
        ));
    }
    Ok(fused.is_ok() && untouched)
}

#[test]
fn parse_apply_matches_two_steps() {
    let mut scratch = Scratch::new();
    let mut url = Url::parse("about:blank").unwrap();
    let canons = parse_apply_canonicalizers();
    let aggressive = Canonicalizer::new(Profile::Aggressive);
    for input in [
        "https://example.com",
        "  https://www.example.com/a/ \n",
        "\thttps://example.com/a/",
        "https://www.example.com/a/",
        "https://www.co.uk/",
        "https://www.github.io/x/",
        "https://www./",
        "https://www",
        "https://.example.com./",
        "https://example.com:8080/a/",
        "http://example.com:80/a/",
        "file:///a/",
        "file://host/a/",
        "https://example.com/a/?",
        "https://example.com/a/#",
        "https://www.example.com/a/#top",
        "https://www.co.uk/#x%7e",
        "https://example.com:8080/a/#f",
        "https://example.com//a/#f",
        "https://example.com/#",
        "https://example.com/a;jsessionid=0123456789abcdef0123456789ABCDEF/",
        "https://example.com//a/",
        "https://example.com/%7e/",
        "http://EXAMPLE.com/",
        "https://ex ample.com/",
        "https://user@example.com/",
        "http://xn--bcher-kva.example/a",
        "http://www.xn--bcher-kva.example/a/?b=1&a#f",
        "http://xn--bcher-kva.example/a?b",
        "mailto:a@b",
        "no scheme",
        "",
    ] {
        for canon in &canons {
            compare_parse_apply(canon, input, &mut url, &mut scratch).unwrap();
        }
    }
    // Hosts in Unicode, whatever the rules.
    for profile in [Profile::Whatwg, Profile::Aggressive] {
        let unicode = Canonicalizer::builder(profile)
            .idn(IdnForm::Unicode)
            .build();
        let mut out = Vec::new();
        unicode
            .parse_apply(
                "http://xn--bcher-kva.example/a",
                &mut url,
                &mut scratch,
                &mut out,
            )
            .unwrap();
        assert_eq!(out, "http://bücher.example/a".as_bytes(), "{profile:?}");
    }
    // The way that never stores the URL is taken where it should be,
    // and only there.
    for (input, taken) in [
        ("https://www.example.com/a/", true),
        ("https://example.com:8080/a/", true),
        ("file:///a/", true),
        ("https://example.com", false),
        // A query of one parameter that no rule touches.
        ("https://example.com/a?q", true),
        ("https://example.com/a?q#f", true),
        ("https://www.example.com/a?q=1/", true),
        // A parameter a rule may remove, two parameters, an empty
        // query, a trailing slash before the query: the parameter
        // rules run on the input's query too, and on percent-encoding
        // that the percent rules keep; the general path decodes and
        // uppercases.
        ("https://example.com/a?utm_source=x", true),
        ("https://example.com/a?q&r", true),
        ("https://www.example.com/a/?z=1&utm_source=x&a#f", true),
        ("https://example.com/a?", true),
        ("https://example.com/a?q=%2F&r", true),
        ("https://example.com/a?x%2F=1&utm_source=x", true),
        ("https://example.com/a?%75tm_source=1&r", false),
        ("https://example.com/a?%7e", false),
        ("https://example.com/a?q&%7e", false),
        ("https://example.com/a?q=%2f&r", false),
        ("https://example.com/a/?q", true),
        ("https://example.com/a%7e?q&r", false),
        ("https://example.com/?q", true),
        ("https://www.example.com/a/#top", true),
        ("https://example.com/#", true),
        ("https://example.com//a/#f", false),
        ("https://example.com/%7e/", false),
        ("https://www.co.uk/", true),
        ("http://EXAMPLE.com/", false),
    ] {
        assert_eq!(
            compare_parse_apply(&aggressive, input, &mut url, &mut scratch),
            Ok(taken),
            "{input}"
        );
    }
}

#[test]
fn parse_apply_matches_two_steps_on_the_corpora() {
    let mut scratch = Scratch::new();
    let mut url = Url::parse("about:blank").unwrap();
    let canons = parse_apply_canonicalizers();
    let (mut lines, mut taken) = (0, 0);
    for (_, text) in crate::test_corpora() {
        // A sixth of the lines keeps the debug build's time down (each
        // call is checked against the two steps there too).
        for line in text.lines().step_by(6) {
            lines += 1;
            for canon in &canons {
                let fused = compare_parse_apply(canon, line, &mut url, &mut scratch);
                taken += usize::from(fused.unwrap());
            }
        }
    }
    assert!(lines > 20_000, "corpora missing? {lines} lines");
    // Most lines have no query, and most canonicalizers output URLs.
    assert!(
        taken > lines * canons.len() / 3,
        "parse_apply wrote only {taken} of {} from the input",
        lines * canons.len()
    );
}

/// The property tests' URL generator, shared with tests/canon_props.rs.
#[path = "../../../../tests/common/urlgen.rs"]
mod urlgen;

use urlgen::canon_url as url;

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fast_path_matches_general_path(input in url(), rules in prop::sample::subsequence(Rule::ALL.to_vec(), 0..=Rule::ALL.len())) {
        let Ok(url) = Url::parse(&input) else { return Ok(()) };
        let mut scratch = Scratch::new();
        let mut canons = canonicalizers();
        canons.push(Canonicalizer::builder(Profile::Whatwg).rule_set(rules.into_iter().collect()).build());
        for canon in &canons {
            if let Err(e) = compare(canon, &url, &mut scratch) {
                return Err(TestCaseError::fail(e));
            }
        }
    }

    #[test]
    fn parse_apply_matches(input in url(), pad in prop::sample::select(vec!["", " ", "\t", "\n", "\u{1}"]), rules in prop::sample::subsequence(Rule::ALL.to_vec(), 0..=Rule::ALL.len())) {
        let input = format!("{pad}{input}{pad}");
        let mut scratch = Scratch::new();
        let mut url = Url::parse("about:blank").unwrap();
        let mut canons = parse_apply_canonicalizers();
        canons.push(Canonicalizer::builder(Profile::Whatwg).rule_set(rules.into_iter().collect()).build());
        for canon in &canons {
            if let Err(e) = compare_parse_apply(canon, &input, &mut url, &mut scratch) {
                return Err(TestCaseError::fail(e));
            }
        }
    }

    #[test]
    fn session_id_queries_match(
        pieces in prop::collection::vec(prop::sample::select(vec![
            "", "a=1", "B=2", "x", "id=7;", "utm_source=x", "%73id=0123456789abcdef0123456789abcdef",
            "jsessionid=0123456789abcdef0123456789ABCDEF", "xsid=0123456789abcdef0123456789ABCDEF",
            "q=SID=0123456789abcdef0123456789abcdef", "sid=0123456789abcdef0123456789abcde",
            "b;aspsessionidAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM", "CFID=1", "xcfid=2", "cftoken=3", "CFTOKEN=a=b",
        ]), 1..5),
        glue in prop::collection::vec(any::<bool>(), 5),
        rules in prop::sample::subsequence(vec!["+sort-query", "+strip-tracking", "+drop-empty-params", "+lowercase-query", "+drop-empty-query"], 0..=5),
    ) {
        // Pieces glued with `&` or nothing (an id inside a parameter).
        let mut query = String::new();
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 && !glue[i] {
                query.push('&');
            }
            query.push_str(piece);
        }
        let input = format!("http://a.com/p?{query}#f");
        let Ok(url) = Url::parse(&input) else { return Ok(()) };
        let mut edits = vec!["+strip-session-ids", "+session-ids-anywhere"];
        edits.extend(rules);
        let canons = [
            Canonicalizer::builder(Profile::Whatwg).rules(&edits.join(",")).unwrap().build(),
            Canonicalizer::new(Profile::Wayback),
        ];
        let mut scratch = Scratch::new();
        let mut stale = Url::parse("about:blank").unwrap();
        for canon in &canons {
            compare(canon, &url, &mut scratch).map_err(TestCaseError::fail)?;
            compare_parse_apply(canon, &input, &mut stale, &mut scratch).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn opaque_paths_match(path in "[a-zA-Z%0-9/.;:@?# =]{0,12}", rules in prop::sample::subsequence(Rule::ALL.to_vec(), 0..=Rule::ALL.len())) {
        for scheme in ["mailto:", "javascript:", "foo:", "foo:/", "web+x://"] {
            let Ok(url) = Url::parse(&format!("{scheme}{path}")) else { continue };
            let mut scratch = Scratch::new();
            let canon = Canonicalizer::builder(Profile::Whatwg).rule_set(rules.iter().copied().collect()).build();
            if let Err(e) = compare(&canon, &url, &mut scratch) {
                return Err(TestCaseError::fail(e));
            }
        }
    }
}
