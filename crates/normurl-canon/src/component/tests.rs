use super::*;

fn get(url: &str, c: Component) -> String {
    let url = Url::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    let mut out = Vec::new();
    Fields::new(&url, PublicSuffixList::bundled()).write(c, &mut Scratch::new(), &mut out);
    String::from_utf8(out).unwrap()
}

fn all(url: &str) -> Vec<(&'static str, String)> {
    Component::ALL
        .iter()
        .map(|&c| (c.name(), get(url, c)))
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

#[test]
fn names_round_trip() {
    for &c in Component::ALL {
        assert_eq!(c.name().parse::<Component>(), Ok(c));
    }
    assert_eq!("url".parse::<Component>(), Ok(Component::Href));
    assert!("URL".parse::<Component>().is_err());
}

/// The table of the module documentation.
#[test]
fn documented_example() {
    let url = "https://user:pw@www.example.co.uk:8443/a/b?q=1#top";
    let expected = [
        ("href", url),
        ("protocol", "https:"),
        ("scheme", "https"),
        ("username", "user"),
        ("password", "pw"),
        ("host", "www.example.co.uk:8443"),
        ("hostname", "www.example.co.uk"),
        ("port", "8443"),
        ("pathname", "/a/b"),
        ("search", "?q=1"),
        ("hash", "#top"),
        ("origin", "https://www.example.co.uk:8443"),
        ("host_type", "domain"),
        ("public_suffix", "co.uk"),
        ("registered_domain", "example.co.uk"),
        ("subdomain", "www"),
        ("reversed_host", "uk,co,example,www"),
        ("surt", "uk,co,example:8443)/a/b?q=1"),
        (
            "ssurt",
            "uk,co,example,www,//8443:https@user:pw:/a/b?q=1#top",
        ),
        ("url_surtkey", "uk,co,example:8443)/a/b?q=1"),
        ("url_host_name", "www.example.co.uk"),
        ("url_host_tld", "uk"),
        ("url_host_2nd_last_part", "co"),
        ("url_host_3rd_last_part", "example"),
        ("url_host_4th_last_part", "www"),
        ("url_host_registry_suffix", "co.uk"),
        ("url_host_registered_domain", "example.co.uk"),
        ("url_host_private_suffix", "co.uk"),
        ("url_host_private_domain", "example.co.uk"),
        ("url_host_name_reversed", "uk.co.example.www"),
        ("url_protocol", "https"),
        ("url_port", "8443"),
        ("url_path", "/a/b"),
        ("url_query", "q=1"),
    ];
    let got = all(url);
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(got, expected);
}

/// Common Crawl's columns tell the list's sections apart.
#[test]
fn common_crawl_sections() {
    let url = "http://x.myblog.blogspot.com./";
    assert_eq!(get(url, Component::UrlHostName), "x.myblog.blogspot.com");
    assert_eq!(get(url, Component::Hostname), "x.myblog.blogspot.com.");
    assert_eq!(get(url, Component::UrlHostRegistrySuffix), "com");
    assert_eq!(get(url, Component::UrlHostRegisteredDomain), "blogspot.com");
    assert_eq!(get(url, Component::UrlHostPrivateSuffix), "blogspot.com");
    assert_eq!(
        get(url, Component::UrlHostPrivateDomain),
        "myblog.blogspot.com"
    );
    assert_eq!(get(url, Component::RegisteredDomain), "myblog.blogspot.com");
    assert_eq!(
        get(url, Component::UrlHostNameReversed),
        "com.blogspot.myblog.x"
    );
    assert_eq!(get(url, Component::UrlHost5thLastPart), "");
    // An unlisted TLD: null suffixes there, the implicit rule here.
    let url = "http://www.example.zzzz/";
    assert_eq!(get(url, Component::UrlHostPrivateSuffix), "");
    assert_eq!(get(url, Component::UrlHostRegistrySuffix), "");
    assert_eq!(get(url, Component::UrlHostRegisteredDomain), "");
    assert_eq!(get(url, Component::PublicSuffix), "zzzz");
    assert_eq!(get(url, Component::RegisteredDomain), "example.zzzz");
    // A host that is a suffix has no domain.
    assert_eq!(get("http://co.uk/", Component::UrlHostRegisteredDomain), "");
    assert_eq!(
        get("http://co.uk/", Component::UrlHostRegistrySuffix),
        "co.uk"
    );
}

#[test]
fn hosts_that_are_not_domains() {
    assert_eq!(
        all("http://192.168.0.1:81/x"),
        all("http://192.168.0.1:81/x")
            .into_iter()
            .filter(|(n, _)| !n.starts_with("url_host_") || *n == "url_host_name")
            .collect::<Vec<_>>()
    );
    let ip = all("http://192.168.0.1:81/x");
    assert!(ip.contains(&("host_type", "ipv4".into())));
    assert!(ip.contains(&("url_host_name", "192.168.0.1".into())));
    assert!(ip.contains(&("surt", "1,0,168,192:81)/x".into())));
    for name in [
        "public_suffix",
        "registered_domain",
        "reversed_host",
        "url_host_tld",
    ] {
        assert!(!ip.iter().any(|(n, _)| *n == name), "{name} in {ip:?}");
    }
    assert_eq!(get("http://[::1]/", Component::UrlHostName), "[::1]");
    assert_eq!(get("foo://Ex.com/", Component::HostType), "opaque");
    assert_eq!(get("foo://Ex.com/", Component::RegisteredDomain), "");
    assert_eq!(get("file:///etc", Component::HostType), "empty");
    assert_eq!(get("mailto:a@b.com", Component::HostType), "");
    assert_eq!(get("mailto:a@b.com", Component::Surt), "mailto:a@b.com");
    assert_eq!(get("mailto:a@b.com", Component::Origin), "null");
    assert_eq!(get("http://a.com/?", Component::UrlQuery), "");
    assert_eq!(get("http://a.com/?", Component::Search), "");
}

/// The list's suffixes agree with the label columns: the registered
/// domain ends with the public suffix, and both are whole labels of the
/// host; on every host of the corpora.
#[test]
fn corpora_hosts_are_consistent() {
    let mut domains = 0;
    for (name, text) in crate::test_corpora() {
        for line in text.lines() {
            let Ok(url) = Url::parse(line) else { continue };
            if url.host_kind() != HostKind::Domain {
                continue;
            }
            domains += 1;
            let host = url.hostname().trim_end_matches('.');
            let g = |c| get(url.href(), c);
            let suffix = g(Component::PublicSuffix);
            let domain = g(Component::RegisteredDomain);
            let sub = g(Component::Subdomain);
            assert!(
                host == suffix || host.ends_with(&format!(".{suffix}")),
                "{name}: {line}"
            );
            if !domain.is_empty() {
                assert!(domain.ends_with(&format!(".{suffix}")), "{name}: {line}");
                // A host's leading empty label is in no component.
                let rebuilt = format!("{sub}.{domain}");
                let rebuilt = if sub.is_empty() && host == domain {
                    &domain
                } else {
                    &rebuilt
                };
                assert_eq!(rebuilt, host, "{name}: {line}");
            }
            let icann = g(Component::UrlHostRegistrySuffix);
            assert!(
                icann.is_empty() || suffix.ends_with(&icann),
                "{name}: {line}"
            );
        }
    }
    assert!(domains > 1000, "{domains}");
}

#[test]
fn split_cache_answers_for_each_host_its_own_split() {
    let psl = PublicSuffixList::bundled();
    let cache = RefCell::new(SplitCache::default());
    let mut out = Vec::new();
    for (url, domain) in [
        ("http://a.example.co.uk/", "example.co.uk"),
        ("http://a.example.co.uk/x", "example.co.uk"),
        ("http://b.github.io/", "b.github.io"),
        ("http://a.example.co.uk/", "example.co.uk"),
        ("http://1.2.3.4/", ""),
        ("http://a.example.co.uk./", "example.co.uk"),
    ] {
        let url = Url::parse(url).unwrap();
        out.clear();
        Fields::with_cache(&url, psl, &cache).write(
            Component::RegisteredDomain,
            &mut Scratch::new(),
            &mut out,
        );
        assert_eq!(String::from_utf8_lossy(&out), domain, "{url}");
    }
}

/// The cache's split of each host is the list's, twice over.
fn assert_splits_twice(cache: &mut SplitCache, psl: &PublicSuffixList, hosts: &[String]) {
    for round in 0..2 {
        for host in hosts {
            assert_eq!(
                cache.split(psl, host),
                psl.split(host),
                "{host} round {round}"
            );
        }
    }
}

/// The cache gives the list's answer for every host, whatever came
/// before: hosts that share a slot, hosts of every length around the
/// longest it holds, and the same hosts again.
#[test]
fn split_cache_gives_the_lists_answers() {
    let psl = PublicSuffixList::bundled();
    let mut cache = SplitCache::default();
    let mut hosts: Vec<String> = Vec::new();
    for i in 0..2000 {
        let label = "x".repeat(i % 60);
        hosts.push(format!("{label}{i}.example.co.uk"));
        hosts.push(format!("h{i}.github.io"));
        hosts.push(format!("{i}.ck"));
    }
    hosts.extend(["a", "co.uk", "www.ck", "com", "a.b"].map(String::from));
    assert_splits_twice(&mut cache, psl, &hosts);
}

/// Hosts of the same length and the same first and last 8 bytes share a
/// slot and differ only in their middle bytes, which must be compared at
/// every length the cache holds (and a little beyond).
#[test]
fn split_cache_tells_hosts_apart_by_their_middle() {
    let psl = PublicSuffixList::bundled();
    let mut cache = SplitCache::default();
    for middle in 1..=HOST_MAX - 8 {
        for at in 0..middle {
            let mut dotted = vec![b'a'; middle];
            dotted[at] = b'.';
            let dotted = String::from_utf8(dotted).unwrap();
            let plain = "a".repeat(middle);
            for host in [&plain, &dotted, &plain] {
                let host = format!("wwwwwwww{host}xx.co.uk");
                assert_eq!(cache.split(psl, &host), psl.split(&host), "{host}");
            }
        }
    }
}

/// The cache's ranges are the list's split's, for every part, at every
/// host length around the longest the cache holds, the second time too.
#[test]
fn split_cache_ranges_are_the_lists() {
    use psl::Part::*;
    let psl = PublicSuffixList::bundled();
    let mut cache = SplitCache::default();
    let mut hosts: Vec<String> = Vec::new();
    for n in 0..=HOST_MAX + 4 {
        let label = "a".repeat(n);
        for suffix in ["com", "co.uk", "github.io", "ck", "www.ck", "x.bd", "zz"] {
            hosts.push(format!("{label}.{suffix}"));
            hosts.push(format!("www.{label}.{suffix}."));
        }
    }
    for round in 0..2 {
        for host in &hosts {
            for part in [
                PublicSuffix,
                ListedSuffix,
                IcannSuffix,
                RegisteredDomain,
                ListedDomain,
                IcannDomain,
                Subdomain,
            ] {
                let expected = psl.split(host).range(host.as_bytes(), part);
                assert_eq!(
                    cache.range(|| psl, host, cache.key(host.as_bytes()), part),
                    expected,
                    "{host} {part:?} round {round}"
                );
            }
        }
    }
}

/// Hosts of one bucket: the first `2 * PROBES` are kept (each is found
/// again after the others), more make the first slot of the bucket give
/// way, and every answer is the list's.
#[test]
fn split_cache_keeps_hosts_of_one_bucket() {
    let psl = PublicSuffixList::bundled();
    let bucket = |h: &str| {
        let (head, tail) = psl::hash::words(h.as_bytes());
        bucket_index(head, tail, h.len())
    };
    let target = bucket("h0.example.com");
    let hosts: Vec<String> = (0..)
        .map(|i| format!("h{i}.example.com"))
        .filter(|h| bucket(h) == target)
        .take(2 * PROBES + 3)
        .collect();
    let mut cache = SplitCache::default();
    // The first lookup allocates the table.
    cache.split(psl, "a.example.org");
    for (i, host) in hosts.iter().enumerate() {
        assert!(
            cache.lookup(cache.key(host.as_bytes())).is_err(),
            "{host} before it was split"
        );
        assert_eq!(cache.split(psl, host), psl.split(host), "{host}");
        if i < 2 * PROBES {
            for kept in &hosts[..=i] {
                assert!(
                    cache.lookup(cache.key(kept.as_bytes())).is_ok(),
                    "{kept} after {host}"
                );
            }
        }
    }
    assert_splits_twice(&mut cache, psl, &hosts);
}

/// `extend_short` appends what `extend_from_slice` does, at every length
/// its copies handle and past them, into buffers with and without room.
#[test]
fn extend_short_appends_the_bytes() {
    let source: Vec<u8> = (0..40u8).map(|b| b'a' + b % 26).collect();
    for n in 0..=source.len() {
        for (before, capacity) in [(0, 0), (3, 3), (5, 64), (31, 32)] {
            let mut out = Vec::with_capacity(capacity);
            out.extend(std::iter::repeat_n(b'-', before));
            let mut expected = out.clone();
            expected.extend_from_slice(&source[..n]);
            extend_short(&mut out, &source[..n]);
            assert_eq!(out, expected, "n {n} before {before} capacity {capacity}");
        }
    }
}
