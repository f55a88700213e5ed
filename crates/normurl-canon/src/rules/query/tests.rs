use super::plain::PLAIN_LEN;
use super::*;
use proptest::prelude::*;

fn run(query: &str, rules: &[Rule]) -> (String, Outcome) {
    let tracking = TrackingParams::default();
    let params = Params {
        rules: RuleSet::from_rules(rules),
        tracking: &tracking,
        host: b"example.com",
        starts: None,
    };
    let mut out = Vec::new();
    let outcome = apply(
        query.as_bytes(),
        &params,
        &mut QueryScratch::default(),
        &mut out,
    );
    let result = if outcome.changed {
        String::from_utf8(out).unwrap()
    } else {
        query.to_owned()
    };
    (result, outcome)
}

fn sorted(query: &str) -> String {
    run(query, &[Rule::SortQuery]).0
}

/// Naive reference for `sort-query`: parse every piece with the
/// spec's parser and stable-sort by the decoded name's UTF-16 code units.
fn naive_sort(query: &str) -> String {
    let mut pieces: Vec<(Vec<u16>, &str)> = query
        .split('&')
        .map(|p| {
            let name = form::parse(p.split('=').next().unwrap_or("").as_bytes());
            let name = name
                .first()
                .map(|(n, _)| n.encode_utf16().collect())
                .unwrap_or_default();
            (name, p)
        })
        .collect();
    pieces.sort_by(|a, b| a.0.cmp(&b.0));
    pieces.iter().map(|p| p.1).collect::<Vec<_>>().join("&")
}

#[test]
fn sorts_stably_by_decoded_name() {
    assert_eq!(sorted("b=1&a=2&a=1"), "a=2&a=1&b=1");
    assert_eq!(sorted("a%62=1&ab=0&a=3"), "a=3&a%62=1&ab=0");
    assert_eq!(sorted("a=1&"), "&a=1");
    assert_eq!(run("c=1&a=2", &[]).0, "c=1&a=2");
}

#[test]
fn sorts_by_value_like_webarchive_commons() {
    // IAURLCanonicalizerTest.testAlphaReorderQuery
    let rules = [Rule::SortQuery, Rule::SortQueryValues];
    assert_eq!(run("b=b&a=b&b=a&a=a", &rules).0, "a=a&a=b&b=a&b=b");
    assert_eq!(run("a=b&a=a", &rules).0, "a=a&a=b");
    assert_eq!(run("a=2&b&a=1", &rules).0, "a=1&a=2&b");
    assert_eq!(run("b&a", &rules).0, "a&b");
}

#[test]
fn sorts_whole_pieces_by_bytes() {
    // urlcanon's `b'&'.join(sorted(query.split(b'&')))`: `0` (0x30) is
    // below `=` (0x3D), and a piece without `=` before one with it.
    let rules = [Rule::SortQuery, Rule::SortQueryBytes];
    assert_eq!(run("amp;L=1&amp;L0=Home", &rules).0, "amp;L0=Home&amp;L=1");
    assert_eq!(run("b=2&a=1&a&a=0", &rules).0, "a&a=0&a=1&b=2");
    assert_eq!(run("a%3D=1&a=2", &rules).0, "a%3D=1&a=2");
    let (q, o) = run("a=1&b", &rules);
    assert_eq!((q.as_str(), o.changed), ("a=1&b", false));
    // `apply_plain` leaves the order to `apply`.
    let tracking = TrackingParams::default();
    let rules = RuleSet::from_rules(&rules);
    let starts = removable_starts(rules, &tracking);
    let params = Params {
        rules,
        tracking: &tracking,
        host: b"example.com",
        starts: Some(&starts),
    };
    let mut out = Vec::new();
    let o = apply_plain(
        b"x.y=1&x=2",
        &params,
        &mut QueryScratch::default(),
        &mut out,
    );
    assert!(
        !o.changed && out.is_empty(),
        "in byte order (by name, x comes first)"
    );
    out.clear();
    apply_plain(
        b"x=2&x.y=1",
        &params,
        &mut QueryScratch::default(),
        &mut out,
    );
    assert_eq!(out, b"x.y=1&x=2");
}

#[test]
fn strips_tracking_and_keeps_other_bytes() {
    let (q, o) = run("a=%7B%7D&utm_source=x&&fbclid&b=1", &[Rule::StripTracking]);
    assert_eq!(q, "a=%7B%7D&&b=1");
    assert_eq!(o.fired, RuleSet::from_rules(&[Rule::StripTracking]));
    let (q, o) = run("gclid=1&fbclid=2", &[Rule::StripTracking]);
    assert_eq!((q.as_str(), o.stripped_all), ("", true));
    let (q, o) = run("&&", &[Rule::DropEmptyParams]);
    assert_eq!((q.as_str(), o.stripped_all), ("", false));
}

#[test]
fn session_ids() {
    let rules = [Rule::StripSessionIds];
    let strip = |q: &str| run(q, &rules).0;
    assert_eq!(
        strip("a=1&jsessionid=0123456789abcdefghijklemopqrstuv&b=2"),
        "a=1&b=2"
    );
    assert_eq!(strip("PHPSESSID=9682993c8daa2c5497996114facdc805"), "");
    assert_eq!(
        strip("ASPSESSIONIDAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM&x"),
        "x"
    );
    assert_eq!(strip("CFID=1&x=2&CFTOKEN=3"), "x=2");
    assert_eq!(strip("CFID=1&x=2"), "CFID=1&x=2");
    assert_eq!(strip("sid=short"), "sid=short");
    let jsession = "jsessionid=f030eacc7e49c4ca0b077922347418418766";
    assert_eq!(
        strip(jsession),
        jsession,
        "36 characters are not a Heritrix session id"
    );
}

#[test]
fn urlcanon_session_ids() {
    // What urlcanon 0.3.1's QUERY_SESSIONID_RE.sub leaves of each
    // (before its removal of redundant `&`s, which drop-empty-params
    // does here).
    let rules = [
        Rule::StripSessionIds,
        Rule::UrlcanonSessionIds,
        Rule::DropEmptyParams,
    ];
    let strip = |q: &str| run(q, &rules).0;
    for (query, expected) in [
        ("a=1&jsessionid=a63098d96360$b0$d9$a&foo=bar", "a=1&foo=bar"),
        ("jsessionid=a63098d963", ""),
        ("jsessionid=a63098d96", "jsessionid=a63098d96"),
        ("sessionid=0123456789abcdef", ""),
        ("sessionid=0123456789abcde", "sessionid=0123456789abcde"),
        ("sid=0123456789abcdefxyz", ""),
        ("phpsessid=0123456789abcdef0", ""),
        ("aspsessionidaqbsdsrt=0123456789abcdef", ""),
        (
            "aspsessionidaqbsdsr1=0123456789abcdef",
            "aspsessionidaqbsdsr1=0123456789abcdef",
        ),
        ("cfid=123&cftoken=ab-12", ""),
        ("cfid=12a&cftoken=ab", "cfid=12a&cftoken=ab"),
        ("x=1&sid=0123456789abcdef$", "x=1&sid=0123456789abcdef$"),
    ] {
        assert_eq!(strip(query), expected, "{query}");
    }
    // Heritrix's 32 are not urlcanon's only: without the rule, none
    // of these go.
    let heritrix = |q: &str| run(q, &[Rule::StripSessionIds]).0;
    assert_eq!(heritrix("jsessionid=a63098d963"), "jsessionid=a63098d963");
    assert_eq!(
        heritrix("sessionid=0123456789abcdef"),
        "sessionid=0123456789abcdef"
    );
}

#[test]
fn unescapes_but_keeps_boundaries() {
    let un = |q: &str| {
        let mut out = Vec::new();
        if unescape(
            q.as_bytes(),
            false,
            false,
            &mut QueryScratch::default(),
            &mut out,
        ) {
            String::from_utf8(out).unwrap()
        } else {
            q.to_owned()
        }
    };
    assert_eq!(un("%2561=%2562"), "a=b");
    assert_eq!(un("a%26b=c%3Dd%26e"), "a%26b=c=d%26e");
    assert_eq!(un("%3d=%3d"), "%3D==");
    assert_eq!(un("x=%E4%EE"), "x=%E4%EE");
    assert_eq!(un("x=%e4"), "x=%E4");
    assert_eq!(un("p%61th"), "path");
}

#[test]
fn decoded_starts_cover_every_removed_parameter() {
    // Every pairing of these parameters, lists and rules: escaped and
    // Latin-1 names, names that decode to U+FFFD, lists with
    // non-ASCII names.
    let params = [
        "%D8lejr=1",
        "%C3%A9t%C3%A9=1",
        "%C3%A9",
        "%E9t%E9=1",
        "+%75tm_source=1",
        "%75tm_x=1",
        "u%74m_source=x",
        "f%62clid=1",
        "%2B",
        "%3D=1",
        "+x=1",
        "s+d=1",
        "%FF",
        "%73%69%64=0123456789abcdef0123456789abcdef",
        "%53ID=0123456789abcdef0123456789abcdef",
        "%43FID=1",
        "%75",
        "%75=1",
        "utm_source=1",
        "%2",
        "%zz=1",
        "x%FFy=1",
        "x%C3%A9",
        "sessionid=0123456789abcdef",
        "%53essionid=0123456789abcdef",
        "jsessionid=a63098d96360$B0$D9$A",
    ];
    let extras = [
        None,
        Some("été"),
        Some("é*"),
        Some("\u{fffd}*"),
        Some(" x"),
        Some("u"),
        Some("%x"),
        Some("x\u{fffd}*"),
        Some("xé"),
    ];
    let rule_sets = [
        RuleSet::from_rules(&[Rule::StripTracking]),
        RuleSet::from_rules(&[Rule::StripSessionIds]),
        RuleSet::from_rules(&[Rule::StripTracking, Rule::StripSessionIds]),
        RuleSet::from_rules(&[Rule::StripSessionIds, Rule::UrlcanonSessionIds]),
    ];
    for extra in extras {
        let mut tracking = TrackingParams::default();
        if let Some(extra) = extra {
            tracking.add(extra).unwrap();
        }
        for rules in rule_sets {
            let starts = removable_starts(rules, &tracking);
            for param in params {
                let params = Params {
                    rules,
                    tracking: &tracking,
                    host: b"example.com",
                    starts: None,
                };
                let outcome = apply_single(param.as_bytes(), &params, &mut QueryScratch::default());
                assert!(
                    !outcome.changed || starts.may_remove_decoded(param.as_bytes()),
                    "{param} with {extra:?} under {rules}"
                );
                assert!(
                    !outcome.changed || starts.may_remove(param.as_bytes()),
                    "{param} with {extra:?} under {rules}"
                );
            }
        }
    }
}

proptest! {
    #[test]
    fn sort_matches_naive(query in "[abAB%1-2+=&]{0,20}") {
        prop_assert_eq!(sorted(&query), naive_sort(&query));
    }

    #[test]
    fn sort_prefixes_match_naive(query in "(a{0,9}(%00|%EE%80%80|%F0%90%80%80|%EF%BF%BD|%FF|b|a|%61|\\+){0,3}a{0,9}(=a{0,2})?&){0,5}") {
        // Names that share their first 8 bytes, have a 0 byte where
        // the prefix has padding, or bytes from 0xEE on (where UTF-16
        // order is not byte order, so the 8-byte prefixes step aside).
        prop_assert_eq!(sorted(&query), naive_sort(&query));
    }

    #[test]
    fn single_parameter_matches_apply(
        query in prop_oneof![
            "[a-z_%5F2B+=]{0,12}",
            proptest::sample::select(vec![
                "utm_source=x", "utm%5Fsource=x", "utm+x=1", "fbclid", "FBCLID=1", "gclid=",
                "sid=0123456789abcdef0123456789abcdef", "jsessionid=0123456789abcdef0123456789abcdef",
                "ASPSESSIONIDAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM", "CFID=1", "cftoken=2", "=", "a=1",
            ]).prop_map(str::to_owned),
        ],
        host in proptest::sample::select(vec!["example.com", "axs.com", "a.axs.com"]),
        rules in proptest::sample::subsequence(
            vec![Rule::StripTracking, Rule::StripSessionIds, Rule::UrlcanonSessionIds, Rule::DropEmptyParams, Rule::SortQuery, Rule::SortQueryValues], 0..6),
    ) {
        let tracking = TrackingParams::default();
        let params = Params {
            rules: RuleSet::from_rules(&rules),
            tracking: &tracking,
            host: host.as_bytes(),
            starts: None,
        };
        let mut out = Vec::new();
        let general = apply(query.as_bytes(), &params, &mut QueryScratch::default(), &mut out);
        let single = apply_single(query.as_bytes(), &params, &mut QueryScratch::default());
        prop_assert_eq!(
            (single.fired, single.changed, single.stripped_all),
            (general.fired, general.changed, general.stripped_all)
        );
        prop_assert!(!general.changed || out.is_empty());
    }

    #[test]
    fn removable_starts_covers_every_removed_parameter(
        query in prop_oneof![
            "[a-zA-Z_%5F2B+=]{1,12}",
            proptest::sample::select(vec![
                "utm_source=x", "utm%5Fsource=x", "%75tm_x=1", "+x=1", "fbclid", "gclid=", "ref=1",
                "mc_eid=1", "sid=0123456789abcdef0123456789abcdef", "SID=0123456789abcdef0123456789abcdef",
                "JSESSIONID=0123456789abcdef0123456789abcdef", "PhpSessId=0123456789abcdef0123456789abcdef",
                "ASPSESSIONIDAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM", "CFID=1", "cftoken=2",
                "u%74m_source=x", "f%62clid=1", "s+d=1", "Q", "Q=1", "x", "xy=1", "gs_l",
                "Sid=0123456789abcdef0123456789abcdef", "cFtOkEn=2",
                "%D8lejr=1", "%C3%A9t%C3%A9=1", "%C3%A9", "%E9t%E9=1", "+%75tm_source=1",
                "%2B", "%3D=1", "%73%69%64=0123456789abcdef0123456789abcdef",
                "sessionid=0123456789abcdef", "SessionId=0123456789ABCDEF0", "jsessionid=a63098d96360$B0$D9$A",
                "cfid=12&cftoken=ab-1",
            ]).prop_map(str::to_owned),
        ],
        extra in proptest::option::of(proptest::sample::select(vec!["ref", "mc_*", "Q", "%x", "x*", "y", "été", "é*", "\u{fffd}*", " x"])),
        rules in proptest::sample::subsequence(
            vec![Rule::StripTracking, Rule::StripSessionIds, Rule::UrlcanonSessionIds, Rule::DropEmptyParams, Rule::SortQuery], 0..5),
    ) {
        let mut tracking = TrackingParams::default();
        if let Some(extra) = extra {
            tracking.add(extra).unwrap();
        }
        let rules = RuleSet::from_rules(&rules);
        let starts = removable_starts(rules, &tracking);
        let params = Params { rules, tracking: &tracking, host: b"example.com", starts: None };
        // No `&`, as the fast path asks only for those.
        let query = query.replace('&', "");
        prop_assume!(!query.is_empty());
        let outcome = apply_single(query.as_bytes(), &params, &mut QueryScratch::default());
        prop_assert!(!outcome.changed || starts.may_remove(query.as_bytes()), "{query}");
        prop_assert!(!outcome.changed || starts.may_remove_decoded(query.as_bytes()), "{query}");
    }

    #[test]
    fn removable_starts_change_nothing(
        query in "(utm_[a-z]{0,2}|[a-zA-Z_%5F2B+]{0,6}|sid|SID|cfid|cftoken|fbclid|gs_l)(=[a-z0-9]{0,3})?(&(utm_[a-z]{0,2}|[a-zA-Z_%5F2B+]{0,6}|sid|cfid|CFTOKEN|fbclid|gclid)(=[a-z0-9]{0,3})?){0,4}",
        extra in proptest::option::of(proptest::sample::select(vec!["ref", "mc_*", "Q", "%x", "x*", "y"])),
        rules in proptest::sample::subsequence(
            vec![Rule::StripTracking, Rule::StripSessionIds, Rule::UrlcanonSessionIds, Rule::DropEmptyParams, Rule::SortQuery, Rule::SortQueryValues], 0..6),
    ) {
        // `apply` with the table that keeps parameters without a
        // lookup writes and reports what it does without it.
        let mut tracking = TrackingParams::default();
        if let Some(extra) = extra {
            tracking.add(extra).unwrap();
        }
        let rules = RuleSet::from_rules(&rules);
        let starts = removable_starts(rules, &tracking);
        let run = |starts| {
            let params = Params { rules, tracking: &tracking, host: b"example.com", starts };
            let mut out = Vec::new();
            let outcome = apply(query.as_bytes(), &params, &mut QueryScratch::default(), &mut out);
            (out, outcome.fired, outcome.changed, outcome.stripped_all)
        };
        prop_assert_eq!(run(Some(&starts)), run(None));
    }

    #[test]
    fn apply_plain_matches_apply(
        // Names whose decoding changes how they compare or what they
        // are (`+` is a space, below `%`), and 8-byte prefixes that
        // tie.
        query in "(utm_[a-z]{0,2}|[a-zA-Z_%5F2B+]{0,9}|sid|SID|cfid|cftoken|fbclid|gs_l|aaaaaaaa[ab]?|utm%5Fsource|%2|\\+a?|%41|a%2B)(=[a-z0-9%+=]{0,3})?(&(utm_[a-z]{0,2}|[a-zA-Z_%5F2B+]{0,9}|sid|cfid|CFTOKEN|fbclid|gclid|aaaaaaaa[ab]?|utm%5Fsource|%2|\\+a?|%41|a%2B)(=[a-z0-9+=]{0,3})?){0,6}",
        long in 0usize..3,
        extra in proptest::option::of(proptest::sample::select(vec!["ref", "mc_*", "Q", "%x", "x*", "y"])),
        host in proptest::sample::select(vec!["example.com", "axs.com"]),
        rules in proptest::sample::subsequence(
            vec![Rule::StripTracking, Rule::StripSessionIds, Rule::UrlcanonSessionIds, Rule::DropEmptyParams, Rule::SortQuery, Rule::SortQueryValues], 0..6),
    ) {
        // Long queries cross the 64-bit words of the masks, and past
        // `PLAIN_LEN` bytes go to `apply`.
        let query = match long {
            0 => query,
            1 => format!("{}&{query}", "z=1".repeat(25)),
            _ => format!("{query}&{}", "b".repeat(PLAIN_LEN)),
        };
        let mut tracking = TrackingParams::default();
        if let Some(extra) = extra {
            tracking.add(extra).unwrap();
        }
        let rules = RuleSet::from_rules(&rules);
        let starts = removable_starts(rules, &tracking);
        let params = Params { rules, tracking: &tracking, host: host.as_bytes(), starts: Some(&starts) };
        let run = |f: fn(&[u8], &Params<'_>, &mut QueryScratch, &mut Vec<u8>) -> Outcome| {
            let mut out = b"kept".to_vec();
            let outcome = f(query.as_bytes(), &params, &mut QueryScratch::default(), &mut out);
            (out, outcome.fired, outcome.changed, outcome.stripped_all)
        };
        prop_assert_eq!(run(apply_plain), run(apply), "{}", query);
    }

    #[test]
    fn rules_are_idempotent(query in "[ab%2B36=&]{0,20}", rules in proptest::sample::subsequence(
        vec![Rule::StripTracking, Rule::StripSessionIds, Rule::UrlcanonSessionIds, Rule::DropEmptyParams, Rule::SortQuery, Rule::SortQueryValues], 0..6)) {
        let (once, _) = run(&query, &rules);
        let (twice, outcome) = run(&once, &rules);
        prop_assert_eq!(&twice, &once);
        prop_assert!(!outcome.changed);
    }
}
