//! `--resolve MODE` and `--relative`, run as a user runs them.

mod common;

use common::bin::run;

const RFC_BASE: &str = "http://a/b/c/d;p?q";

#[test]
fn resolve_modes_differ_on_a_scheme_equal_to_the_base() {
    let input = b"http:g\n../../../g\ng;x=1/../y\n";
    let out = |mode: &str| {
        run(&["--resolve", mode, "--base", RFC_BASE], input)
            .ok()
            .out()
    };
    assert_eq!(
        out("whatwg"),
        "http://a/b/c/g\nhttp://a/g\nhttp://a/b/c/y\n"
    );
    assert_eq!(
        out("legacy"),
        "http://a/b/c/g\nhttp://a/g\nhttp://a/b/c/y\n"
    );
    // RFC 3986 strict: `http:g` stays `http:g`, which a URL parser reads as host g.
    assert_eq!(out("generic"), "http://g/\nhttp://a/g\nhttp://a/b/c/y\n");
}

#[test]
fn legacy_mode_drops_an_equal_non_special_scheme() {
    // Browsers keep `sch:g` (an opaque path); RFC 3986 non-strict resolves it.
    let input = b"sch:g\n";
    let base = "sch://h/a/b";
    assert_eq!(run(&["--base", base], input).ok().out(), "sch:g\n");
    assert_eq!(
        run(&["--resolve", "legacy", "--base", base], input)
            .ok()
            .out(),
        "sch://h/a/g\n"
    );
}

#[test]
fn resolve_mode_applies_to_the_base_field() {
    let input = b"http://a/b/c/d\thttp:g\n";
    let args = |mode: &'static str| {
        [
            "--resolve",
            mode,
            "--field",
            "2",
            "--base-field",
            "1",
            "-d",
            "\\t",
        ]
    };
    assert_eq!(
        run(&args("legacy"), input).ok().out(),
        "http://a/b/c/d\thttp://a/b/c/g\n"
    );
    assert_eq!(
        run(&args("generic"), input).ok().out(),
        "http://a/b/c/d\thttp://g/\n"
    );
}

#[test]
fn relative_writes_normalized_references() {
    let input = b"a/../../b\n./a/./b\n../x/%2e%2E/y\nHTTP://H/a/../b\n#f\n";
    assert_eq!(
        run(&["--relative"], input).ok().out(),
        "../b\na/b\n../y\nhttp://h/b\n#f\n"
    );
}

#[test]
fn relative_rebases_onto_a_relative_base() {
    let input = b"../img/a.png\n?q\n//cdn.example/x\n";
    let out = run(&["--relative", "--base", "/docs/guide/page.html"], input)
        .ok()
        .out();
    assert_eq!(
        out,
        "/docs/img/a.png\n/docs/guide/page.html?q\n//cdn.example/x\n"
    );
    // Generic mode keeps a reference's scheme.
    let out = run(
        &["--relative", "--resolve", "generic", "--base", RFC_BASE],
        b"http:g\n",
    )
    .ok()
    .out();
    assert_eq!(out, "http:g\n");
}

#[test]
fn a_relative_base_needs_relative() {
    run(&["--base", "/docs/"], b"a\n").failed(&["--base \"/docs/\"", "--relative"]);
    let bad = run(&["--resolve", "sideways"], b"a\n");
    assert_eq!(bad.code, Some(2));
    assert!(
        bad.stderr.contains("whatwg, legacy, generic"),
        "{}",
        bad.stderr
    );
}

#[test]
fn whatwg_resolution_fails_where_legacy_does_not() {
    // A base with an opaque path takes only a fragment in WHATWG resolution.
    let input = b"x\n";
    let base = "mailto:a@b";
    assert_eq!(
        run(&["--base", base, "--on-invalid", "empty"], input)
            .ok()
            .out(),
        "\n"
    );
    assert_eq!(
        run(&["--resolve", "generic", "--base", base], input)
            .ok()
            .out(),
        "mailto:x\n"
    );
}

#[test]
fn query_encoding_encodes_the_queries_of_special_urls() {
    let input = "http://example.jp/東京?q=東京&e=€\nws://h/?q=東京\nsch://h/?q=東京\n";
    let out = run(&["--query-encoding", "Shift_JIS"], input.as_bytes())
        .ok()
        .out();
    assert_eq!(
        out,
        "http://example.jp/%E6%9D%B1%E4%BA%AC?q=%93%8C%8B%9E&e=%26%238364%3B\n\
         ws://h/?q=%E6%9D%B1%E4%BA%AC\n\
         sch://h/?q=%E6%9D%B1%E4%BA%AC\n"
    );
    // Relative links of a Shift_JIS page, resolved in each mode.
    for mode in ["whatwg", "legacy", "generic"] {
        let args = [
            "--query-encoding",
            "sjis",
            "--resolve",
            mode,
            "--base",
            "http://example.jp/a/b",
        ];
        assert_eq!(
            run(&args, "c?q=東京\n".as_bytes()).ok().out(),
            "http://example.jp/a/c?q=%93%8C%8B%9E\n",
            "{mode}"
        );
    }
}

#[test]
fn charset_field_gives_each_line_its_encoding() {
    let input = "http://a.jp/p\t?q=東京\tEUC-JP\n\
                 http://a.jp/p\t?q=東京\tgbk\n\
                 http://a.jp/p\t?q=東京\t-\n\
                 http://a.jp/p\t?q=東京\tno-such-label\n";
    let args = [
        "--field",
        "2",
        "--base-field",
        "1",
        "--charset-field",
        "3",
        "-d",
        "\\t",
        "--only-field",
    ];
    let out = run(&args, input.as_bytes()).ok().out();
    assert_eq!(
        out,
        "http://a.jp/p?q=%C5%EC%B5%FE\n\
         http://a.jp/p?q=%96|%BE%A9\n\
         http://a.jp/p?q=%E6%9D%B1%E4%BA%AC\n\
         http://a.jp/p?q=%E6%9D%B1%E4%BA%AC\n"
    );
}

#[test]
fn an_unknown_query_encoding_is_a_usage_error() {
    let bad = run(&["--query-encoding", "klingon"], b"http://h/\n");
    assert_eq!(bad.code, Some(2));
    assert!(
        bad.stderr.contains("unknown encoding label \"klingon\""),
        "{}",
        bad.stderr
    );
}
