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
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/test_psl.txt");
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

/// The list's algorithm as published, slowly: every rule is matched
/// against the domain's labels; an exception wins, else the longest
/// match. `None` when no rule of `sections` matches.
fn reference_suffix(rules: &[(String, bool)], domain: &str, icann_only: bool) -> Option<String> {
    let labels: Vec<&str> = domain.split('.').collect();
    let matches = |rule: &str| {
        let rule_labels: Vec<&str> = rule.split('.').collect();
        rule_labels.len() <= labels.len()
            && rule_labels
                .iter()
                .rev()
                .zip(labels.iter().rev())
                .all(|(r, l)| *r == "*" || r == l)
    };
    let mut best: Option<usize> = None;
    for (rule, private) in rules {
        if icann_only && *private {
            continue;
        }
        if let Some(exception) = rule.strip_prefix('!') {
            if matches(exception) {
                let n = exception.split('.').count() - 1;
                return Some(labels[labels.len() - n..].join("."));
            }
        } else if matches(rule) {
            best = best.max(Some(rule.split('.').count()));
        }
    }
    best.map(|n| labels[labels.len() - n..].join("."))
}

/// The rules of `text` as the reference reads them: each with whether it
/// is in the private section, names as the URL parser writes them.
fn reference_rules(text: &str) -> Vec<(String, bool)> {
    let mut private = false;
    let mut rules = Vec::new();
    for line in text.lines() {
        if line.contains("===BEGIN PRIVATE DOMAINS===") {
            private = true;
        }
        let Some(rule) = line.split_whitespace().next() else {
            continue;
        };
        if rule.starts_with("//") {
            continue;
        }
        let (bang, rest) = rule.strip_prefix('!').map_or(("", rule), |r| ("!", r));
        let (star, name) = rest.strip_prefix("*.").map_or(("", rest), |r| ("*.", r));
        let name = ascii_name(name).expect("a rule");
        rules.push((format!("{bang}{star}{name}"), private));
    }
    rules
}

/// The domains of the differential test: every rule of the bundled list
/// as it is, under a label, its parent, and with one label of a few more.
fn rule_domains(rules: &[(String, bool)]) -> Vec<String> {
    let mut domains = Vec::new();
    for (rule, _) in rules {
        let name = rule.trim_start_matches('!').trim_start_matches("*.");
        domains.push(name.to_owned());
        domains.push(format!("x.{name}"));
        domains.push(format!("www.x.{name}"));
        if let Some((_, parent)) = name.split_once('.') {
            domains.push(format!("y.{parent}"));
        }
    }
    domains
}

fn assert_matches_reference(list: &PublicSuffixList, rules: &[(String, bool)], domain: &str) {
    let split = list.split(domain);
    let listed = reference_suffix(rules, domain, false);
    let implicit = domain.rsplit('.').next().unwrap_or("").to_owned();
    assert_eq!(
        split.public_suffix(domain),
        listed.clone().unwrap_or(implicit),
        "{domain}"
    );
    assert_eq!(split.listed_suffix(domain), listed.as_deref(), "{domain}");
    // The registered domain: the suffix and one non-empty label more.
    let d = domain.trim_end_matches('.');
    let suffix = split.public_suffix(domain);
    let domain_of = |suffix: &str| {
        let before = d[..d.len() - suffix.len()].strip_suffix('.')?;
        let label = before.rsplit('.').next()?;
        (!label.is_empty()).then(|| &d[before.len() - label.len()..])
    };
    assert_eq!(
        split.registered_domain(domain),
        domain_of(suffix),
        "{domain}"
    );
    assert_eq!(
        split.icann_domain(domain),
        split.icann_suffix(domain).and_then(domain_of),
        "{domain}"
    );
    assert_eq!(
        split.icann_suffix(domain),
        reference_suffix(rules, domain, true).as_deref(),
        "{domain}"
    );
}

/// The hash walk against the reference, for every rule of the bundled
/// list (a few seconds in a debug build).
#[test]
fn bundled_list_matches_the_reference() {
    let rules = reference_rules(BUNDLED);
    let list = PublicSuffixList::bundled();
    let domains = rule_domains(&rules);
    assert!(domains.len() > 35_000, "{}", domains.len());
    for domain in domains.iter().step_by(7) {
        assert_matches_reference(list, &rules, domain);
    }
}

proptest::proptest! {
    /// Domains made of the labels of rules with wildcards and exceptions,
    /// of both sections, and of others: the walk agrees with the reference.
    #[test]
    fn walk_matches_the_reference(
        labels in proptest::collection::vec(
            proptest::sample::select(vec![
                "ck", "www", "kawasaki", "city", "jp", "uk", "co", "blogspot",
                "com", "github", "io", "x", "foo", "bar", "ok", "svc", "nope",
                "", "cloudfunctions-east", "a-label-of-twenty-six-bytes",
            ]),
            1..6,
        ),
    ) {
        static RULES: OnceLock<Vec<(String, bool)>> = OnceLock::new();
        let text = "ck\n*.ck\n!www.ck\njp\nkawasaki.jp\n*.kawasaki.jp\n!city.kawasaki.jp\n\
            uk\nco.uk\ncom\nio\n*.foo\n!ok.bar.foo\n\
            // ===BEGIN PRIVATE DOMAINS===\nblogspot.com\ngithub.io\n*.svc.io\nco.com\n\
            *.cloudfunctions-east.com\n!x.cloudfunctions-east.com\n\
            a-label-of-twenty-six-bytes.cloudfunctions-east.io\n";
        let rules = RULES.get_or_init(|| reference_rules(text));
        let list = PublicSuffixList::parse(text).unwrap();
        let domain = labels.join(".");
        // Trailing dots are ignored (the reference has no notion of them).
        let domain = domain.trim_end_matches('.');
        assert_matches_reference(&list, rules, domain);
        assert_eq!(list.split(&format!("{domain}..")), list.split(domain));
    }
}
