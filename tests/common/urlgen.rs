//! The URL generator of the property tests, in one place: a hostile
//! grammar for the parser ([`url_like`], [`relative_like`]: case, percent
//! signs, dot segments, backslashes, C0 controls, non-ASCII, IPv4 and IPv6
//! forms, ports) and well-formed URLs for the canonicalizer
//! ([`canon_url`]). tests/properties.rs and tests/canon_props.rs use it,
//! and the crate's own unit tests include this file with `#[path]`.

#![allow(dead_code)]

use proptest::prelude::*;

/// Pieces of URLs that exercise the parser's branches: case, percent
/// signs, dot segments, backslashes, tabs and newlines, C0 controls and
/// spaces, non-ASCII, brackets, IPv4 and IPv6 forms, ports.
pub fn scheme() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "http",
        "https",
        "HTTP",
        "hTTps",
        "ws",
        "wss",
        "ftp",
        "file",
        "FILE",
        "foo",
        "web+demo",
        "mailto",
        "data",
        "javascript",
        "blob",
        "about",
        "a1+-.",
        "h\tttp",
        "ht\ntp",
        "1http",
        "",
        "-x",
        "é",
    ])
    .prop_map(str::to_owned)
}

pub fn separator() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        ":", "://", ":/", ":///", "://///", ":\\\\", ":/\\", ":\\/", ": //", ":\t//", "//", "",
    ])
    .prop_map(str::to_owned)
}

pub fn userinfo() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "",
        "",
        "user@",
        "user:pass@",
        ":@",
        "@",
        "u:p:q@",
        "%40@",
        "ü:ß@",
        "a b@",
        "@@",
        "u@p@",
        ":pass@",
    ])
    .prop_map(str::to_owned)
}

pub fn host() -> impl Strategy<Value = String> {
    let label = prop::sample::select(vec![
        "example",
        "EXAMPLE",
        "com",
        "www",
        "xn--nxasmq6b",
        "xn--",
        "XN--PokXncvks",
        "münchen",
        "MÜNCHEN",
        "ß",
        "faß",
        "☕",
        "\u{FFFD}",
        "\u{200D}",
        "%41",
        "%e2%98%95",
        "%zz",
        "%",
        "a-",
        "-a",
        "_",
        "0",
        "1",
        "255",
        "256",
        "09",
        "0x7f",
        "0X",
        "4294967295",
        "4294967296",
        "999999999999999999999",
        "a b",
        "a<b",
        "a^b",
        "",
        "localhost",
        "LOCALHOST",
        "\u{3002}",
        "C:",
        "c|",
    ]);
    let domain = prop::collection::vec(label, 1..5).prop_map(|labels| labels.join("."));
    let bracketed = prop::sample::select(vec![
        "[::1]",
        "[::]",
        "[1:2:3:4:5:6:7:8]",
        "[1:0:0:2::3:0]",
        "[0:0:0:0:0:ffff:1.2.3.4]",
        "[::ffff:192.168.0.1]",
        "[1::2::3]",
        "[1:2:3:4:5:6:7:8:9]",
        "[::1.2.3]",
        "[::1",
        "[]",
        "[fe80::1%25eth0]",
        "[v1.x]",
        "]",
        "[",
        "[::1]x",
        "[A:B:C:D:E:F:0:1]",
    ])
    .prop_map(str::to_owned);
    prop_oneof![4 => domain, 1 => bracketed]
}

pub fn port() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "",
        "",
        ":",
        ":80",
        ":443",
        ":21",
        ":0",
        ":8080",
        ":65535",
        ":65536",
        ":00080",
        ":99999999999",
        ":abc",
        ":8a",
        ":-1",
        ": 80",
    ])
    .prop_map(str::to_owned)
}

pub fn segment() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "a",
        "B",
        ".",
        "..",
        "%2e",
        "%2E%2e",
        ".%2E",
        "...",
        "a b",
        "é",
        "\u{1F600}",
        "%",
        "%zz",
        "%41",
        "%7e",
        "\\",
        "a\\b",
        "C:",
        "c|",
        "C|",
        "\t",
        "\n",
        "\r",
        "a\tb",
        "?",
        "#",
        "^",
        "`",
        "{}",
        "<>",
        "\"",
        "'",
        "|",
        "~",
        "@",
        "[",
        "]",
        ";=",
        "\u{0}",
        "\u{7f}",
    ])
    .prop_map(str::to_owned)
}

pub fn path() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["/", "\\", "", "//"]),
        prop::collection::vec(segment(), 0..5),
    )
        .prop_map(|(lead, segs)| format!("{lead}{}", segs.join("/")))
}

pub fn query_or_fragment(mark: char) -> impl Strategy<Value = String> {
    let body = prop::collection::vec(segment(), 0..3).prop_map(|v| v.join("&"));
    prop::option::weighted(0.4, body).prop_map(move |b| match b {
        Some(b) => format!("{mark}{b}"),
        None => String::new(),
    })
}

/// Leading or trailing junk the parser must trim: C0 controls and spaces.
pub fn padding() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "", "", "", " ", "\t", "\u{0}", "\u{1f} ", "\n", "\u{c}",
    ])
    .prop_map(str::to_owned)
}

/// An absolute-ish URL from the grammar above.
pub fn url_like() -> impl Strategy<Value = String> {
    (
        padding(),
        scheme(),
        separator(),
        userinfo(),
        host(),
        port(),
        path(),
        query_or_fragment('?'),
        query_or_fragment('#'),
        padding(),
    )
        .prop_map(|(p1, s, sep, ui, h, port, path, q, f, p2)| {
            format!("{p1}{s}{sep}{ui}{h}{port}{path}{q}{f}{p2}")
        })
}

/// A relative reference: a path, or `//host...`, or a query or fragment only.
pub fn relative_like() -> impl Strategy<Value = String> {
    prop_oneof![
        (path(), query_or_fragment('?'), query_or_fragment('#'))
            .prop_map(|(p, q, f)| format!("{p}{q}{f}")),
        (separator(), host(), port(), path()).prop_map(|(s, h, po, pa)| format!("{s}{h}{po}{pa}")),
        (query_or_fragment('?'), query_or_fragment('#')).prop_map(|(q, f)| format!("{q}{f}")),
        url_like(),
    ]
}

/// The rules of issue 29, which the tests also run one by one on top of
/// `aggressive`; [`canon_url`] has pieces that make them fire.
pub const NEW_RULES: [&str; 25] = [
    "unwrap-redirects",
    "decode-path-reserved",
    "decode-uri-path",
    "encode-bare-percent",
    "encode-hash-space",
    "encode-value-equals",
    "keep-nonspecial-slashes",
    "keep-path-jsessionid",
    "form-encode-query",
    "force-https",
    "strip-directory-index",
    "keep-params",
    "drop-blank-params",
    "semicolon-separators",
    "semicolon-only-separators",
    "strip-text-fragment",
    "keep-spa-fragments",
    "strip-scheme",
    "strip-one-www",
    "keep-scheme-slashes",
    "normalize-data-urls",
    "drop-empty-fragment",
    "strip-root-slash",
    "session-ids-anywhere",
    "urlcanon-session-ids",
];

/// A well-formed URL built from the pieces canonicalization rules look at
/// (`www` labels, public suffixes, dots, slashes, dot segments,
/// percent-encodings of every kind, session ids, tracking parameters,
/// empty pieces), so that rules fire often; most of them parse.
pub fn canon_url() -> impl Strategy<Value = String> {
    let scheme = prop::sample::select(vec![
        "http", "https", "HTTPS", "ftp", "file", "ws", "foo", "web+x",
    ]);
    let userinfo = prop::option::weighted(
        0.2,
        prop::sample::select(vec!["u", "u:p", ":p", "%41:%62", "a%7e", "A"]),
    );
    let label = prop::sample::select(vec![
        "www",
        "www2",
        "WWW",
        "example",
        "co",
        "uk",
        "com",
        "github",
        "io",
        "a%62c",
        "09",
        "0x1f",
        "",
        "xn--bcher-kva",
        "google",
        "a;b",
        "a(b",
    ]);
    let host = prop::option::weighted(
        0.9,
        prop::collection::vec(label, 1..5).prop_map(|labels| labels.join(".")),
    );
    let port = prop::option::weighted(0.2, prop::sample::select(vec!["80", "443", "8080", ""]));
    let segment = prop::sample::select(vec![
        "",
        "a",
        "B",
        ".",
        "..",
        "%2e",
        "%2E%2e",
        "%41",
        "%7e",
        "%7E",
        "%2f",
        "%25",
        "%2525",
        "%3f",
        "%5C",
        "%20",
        "%c3%a9",
        "%",
        "%2",
        "%E2%9A",
        "~",
        "a..b",
        "a;b",
        "index.html",
        "url",
        "Default.ASPX",
        "home.jsp",
        "p.aspx",
        "x;jsessionid=0123456789abcdef0123456789ABCDEF",
        "(S(4hqa0555fwsecu455xqckv45))",
        "https:",
        "s3:",
        "2x:",
    ]);
    let path = prop::collection::vec(segment, 0..6);
    // Without a host: an opaque path (`foo:x y/a`), with its spaces.
    let opaque = prop::option::weighted(0.1, prop::sample::select(vec!["x y", "a%20b c", "x"]));
    let param = prop::sample::select(vec![
        "",
        "a=1",
        "b=2",
        "A=3",
        "A=B",
        "utm_source=x",
        "fbclid",
        "gclid=1",
        "sid=0123456789abcdef0123456789abcdef",
        "CFID=1",
        "cftoken=2",
        // Session ids where `session-ids-anywhere` finds them: inside a
        // parameter, after `;`, in a value; of each kind, and ColdFusion's
        // pair in either order and inside names.
        "id=7;jsessionid=0123456789ABCDEF0123456789abcdef",
        "xsid=0123456789abcdef0123456789ABCDEF",
        "q=SID=0123456789abcdef0123456789abcdef",
        "PHPSESSID=0123456789abcdef0123456789abcdef",
        "b;aspsessionidAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM",
        "xcfid=1",
        "CFTOKEN=a=b",
        "jsessionid=0123456789abcdef0123456789abcdef0",
        // urlcanon's: `$`, 10 or 16 bytes and more.
        "jsessionid=a63098d96360$B0$D9$A",
        "sessionid=0123456789abcdef",
        "SID=0123456789abcdefXYZ",
        "CFTOKEN=ab-12",
        "a%3D=%26",
        "%61=%62",
        "%61=1",
        "q=a+b",
        "x=%2B",
        "u=http://x//y",
        "z",
        "=",
        "%FF=1",
        "\u{e9}=2",
        "a=",
        "b",
        "x_id=",
        "bb=%20",
        "c=1;utm_x=2",
        "q=http://www.x.com/index.html%3Fa=%26b=#c",
        "url=https://google.com/url?q=HTTP://Y/%2e%2e/",
        "d=%3B;",
        "e=f=g",
    ]);
    let query = prop::option::weighted(0.4, prop::collection::vec(param, 0..5));
    let fragment = prop::option::weighted(
        0.3,
        prop::sample::select(vec![
            "",
            "f",
            "%7e",
            "%7E",
            "a#b",
            "a b#c",
            "A",
            "x//y",
            "!/route",
            "/r/%7e",
            ":~:text=a",
            "s:~:text=a&note=b",
            "!:%7E:text=x",
            ":~:",
        ]),
    );
    (
        scheme,
        userinfo,
        host,
        port,
        (path, opaque),
        any::<bool>(),
        query,
        fragment,
    )
        .prop_map(
            |(scheme, userinfo, host, port, (path, opaque), slash, query, fragment)| {
                let mut s = format!("{scheme}:");
                if let (None, Some(opaque)) = (&host, opaque) {
                    s.push_str(opaque);
                }
                if let Some(host) = host {
                    s.push_str("//");
                    if let Some(userinfo) = userinfo {
                        s.push_str(userinfo);
                        s.push('@');
                    }
                    s.push_str(&host);
                    if let Some(port) = port {
                        s.push(':');
                        s.push_str(port);
                    }
                }
                for segment in path {
                    s.push('/');
                    s.push_str(segment);
                }
                if slash {
                    s.push('/');
                }
                if let Some(query) = query {
                    s.push('?');
                    s.push_str(&query.join("&"));
                }
                if let Some(fragment) = fragment {
                    s.push('#');
                    s.push_str(fragment);
                }
                s
            },
        )
}
