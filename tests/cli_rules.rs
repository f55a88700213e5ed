//! The rules of issue 29 from the command line: `--rules +name`,
//! `--keep-params`, `--strip-params` globs, `--index-files`, `--explain`
//! and `normurl rules`, running the built binary.

mod common;

use common::bin::Ran;

fn run(args: &[&str], stdin: &str) -> Ran {
    common::bin::run(args, stdin.as_bytes())
}

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    run(args, stdin).ok().out()
}

#[test]
fn keep_params_keeps_listed_names_and_globs() {
    let input = "https://a.com/p?id=1&utm_source=x&page_n=2&sid=3\nhttps://a.com/p?x=1\n";
    assert_eq!(
        ok(&["--keep-params", "id,page_*"], input),
        "https://a.com/p?id=1&page_n=2\nhttps://a.com/p\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let list = common::bin::file(&dir, "keep.txt", b"# kept\nsid\n");
    assert_eq!(
        ok(&["--keep-params", &format!("@{list}"), "--explain"], input),
        "https://a.com/p?sid=3\tkeep-params\nhttps://a.com/p\tkeep-params\n"
    );
    run(&["--keep-params", "**"], input).failed(&["--keep-params", "empty parameter name"]);
    run(&["--keep-params", "@/nonexistent/list"], input).failed(&["/nonexistent/list"]);
}

#[test]
fn strip_params_takes_globs() {
    assert_eq!(
        ok(
            &["-p", "aggressive", "--strip-params", "*_ga"],
            "https://a.com/?x_ga=1&a=2&_gax=3\n"
        ),
        "https://a.com/?_gax=3&a=2\n"
    );
}

#[test]
fn rules_on_the_command_line() {
    let cases: [(&str, &str, &str); 8] = [
        (
            "+unwrap-redirects",
            "https://www.google.com/url?q=https://a.com/x&sa=D",
            "https://a.com/x",
        ),
        (
            "+semicolon-separators",
            "https://a.com/?a=1;b=2",
            "https://a.com/?a=1&b=2",
        ),
        (
            "+drop-blank-params",
            "https://a.com/?a=&b=1",
            "https://a.com/?b=1",
        ),
        (
            "+strip-directory-index",
            "https://a.com/d/index.php",
            "https://a.com/d/",
        ),
        (
            "+strip-text-fragment",
            "https://a.com/#s:~:text=x",
            "https://a.com/#s",
        ),
        (
            "+drop-fragment,+keep-spa-fragments",
            "https://a.com/#!/a",
            "https://a.com/#!/a",
        ),
        ("+force-https", "http://a.com/", "https://a.com/"),
        ("+strip-scheme", "https://a.com/x", "a.com/x"),
    ];
    for (rules, input, expected) in cases {
        assert_eq!(
            ok(&["--rules", rules], &format!("{input}\n")),
            format!("{expected}\n"),
            "{rules}"
        );
    }
}

#[test]
fn index_files_adds_names() {
    assert_eq!(
        ok(
            &["--index-files", "home.jsp"],
            "https://a.com/d/home.jsp\nhttps://a.com/index.html\n"
        ),
        "https://a.com/d/\nhttps://a.com/\n"
    );
    run(&["--index-files", "a/b"], "x\n").failed(&["--index-files", "\"a/b\""]);
}

#[test]
fn rules_lists_the_new_rules() {
    let text = ok(&["rules"], "");
    for name in [
        "unwrap-redirects",
        "force-https",
        "strip-directory-index",
        "keep-params",
        "drop-blank-params",
        "semicolon-separators",
        "strip-text-fragment",
        "keep-spa-fragments",
        "strip-scheme",
    ] {
        assert!(text.contains(&format!("  {name} ")), "{name} not in {text}");
    }
}

#[test]
fn redirects_file_adds_redirectors() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::bin::file(&dir, "redirects.txt", b"# ours\nt.example.com /out to\n");
    let input = "https://t.example.com/out?to=https%3A%2F%2Fa.com%2F\nhttps://google.com/url?q=http://b.com/\n";
    assert_eq!(
        ok(&["--redirects", &file, "--explain"], input),
        "https://a.com/\tunwrap-redirects\nhttp://b.com/\tunwrap-redirects\n"
    );
    let bad = common::bin::file(&dir, "bad.txt", b"t.example.com out\n");
    run(&["--redirects", &bad], input).failed(&["--redirects", "line 1"]);
}

/// A redirector's path may be a glob (`/*`: every path of the host), and
/// the bundled list unwraps YouTube's, Reddit's and Google AMP's links.
#[test]
fn redirectors_match_path_globs() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::bin::file(
        &dir,
        "redirects.txt",
        b"out.example.com /* url\nt.example.com /r/*/go u\n",
    );
    let input = concat!(
        "https://out.example.com/t3_x?url=https%3A%2F%2Fa.com%2F\n",
        "https://t.example.com/r/1/go?u=https://b.com/\n",
        "https://t.example.com/r/1/stay?u=https://b.com/\n",
    );
    assert_eq!(
        ok(&["--redirects", &file], input),
        "https://a.com/\nhttps://b.com/\nhttps://t.example.com/r/1/stay?u=https://b.com/\n"
    );
    let bundled = concat!(
        "https://www.youtube.com/redirect?event=video_description&q=https%3A%2F%2Fa.com%2Fv\n",
        "https://out.reddit.com/t3_abc?url=https%3A%2F%2Fb.com%2F&token=AQ\n",
        "https://www.google.com/amp/s/c.com/p\n",
    );
    assert_eq!(
        ok(&["--rules", "+unwrap-redirects"], bundled),
        "https://a.com/v\nhttps://b.com/\nhttps://c.com/p\n"
    );
}

/// `--strip-params` turns strip-tracking on, as `--keep-params` turns its
/// rule on: under the default profile it strips what it names.
#[test]
fn strip_params_turns_its_rule_on() {
    let input = "https://a.com/p?sid=1&x=2\n";
    assert_eq!(
        ok(&["--strip-params", "sid", "--explain"], input),
        "https://a.com/p?x=2\tstrip-tracking\n"
    );
    assert_eq!(
        ok(
            &["-p", "wayback", "--strip-params", "sid", "-g", "url"],
            input
        ),
        ok(
            &[
                "-p",
                "wayback",
                "--rules",
                "+strip-tracking",
                "--strip-params",
                "sid",
                "-g",
                "url"
            ],
            input
        )
    );
    // A rule edit after it still turns it off.
    assert_eq!(
        ok(
            &["--strip-params", "sid", "--rules", "-strip-tracking"],
            input
        ),
        "https://a.com/p?sid=1&x=2\n"
    );
}

#[test]
fn query_separators() {
    let input = "https://a.com/?b=1;a=2\n";
    let args = ["-p", "aggressive", "--query-separators"];
    assert_eq!(
        ok(&[&args[..], &["&;"]].concat(), input),
        "https://a.com/?a=2&b=1\n"
    );
    assert_eq!(
        ok(&[&args[..], &["&"]].concat(), input),
        "https://a.com/?b=1;a=2\n"
    );
    run(&[&args[..], &[","]].concat(), input).failed(&["--query-separators", "&, &; or ;"]);
}

/// `--query-separators ';'` is w3lib's `query_separator=";"`: `;` alone
/// separates and joins the sorted parameters, an `&` is data.
#[test]
fn query_separators_semicolon_alone() {
    let input = "http://www.example.com/do?c=1;b=2;a=3\nhttps://a.com/?b=1&x;a=2\n";
    let args = ["-p", "w3lib", "--query-separators", ";", "--explain"];
    assert_eq!(
        ok(&args, input),
        "http://www.example.com/do?a=3;b=2;c=1\tsort-query\n\
         https://a.com/?a=2;b=1%26x\tsemicolon-only-separators,sort-query\n"
    );
}

/// The profiles named after w3lib, urlcanon and the Wayback apply those
/// tools' rules (w3lib's query re-encoding and path decoding, urlcanon's
/// bare `%`, the CDX keys' path `;jsessionid=`), and `normurl rules` lists
/// them.
#[test]
fn tool_profiles_apply_their_tools_rules() {
    let input = "http://www.example.com/do?q=a%20space&a=1&c\nhttps://a.com/x%2cy\nfoo:%zz\n";
    assert_eq!(
        ok(&["-p", "w3lib"], input),
        "http://www.example.com/do?a=1&c=&q=a+space\nhttps://a.com/x,y\nfoo:%zz\n"
    );
    assert_eq!(
        ok(&["-p", "urlcanon-semantic"], input),
        "http://www.example.com/do?a=1&c&q=a%20space\nhttps://a.com/x,y\nfoo:%25zz\n"
    );
    // CDX keys keep a path's `;jsessionid=` (webarchive-commons, surt).
    let id = "0123456789abcdef0123456789abcdef";
    assert_eq!(
        ok(
            &["-p", "wayback", "--get", "surt"],
            &format!("http://example.com/;jsessionid={id}\n")
        ),
        format!("com,example)/;jsessionid={id}\n")
    );
    let rules = ok(&["rules"], "");
    for name in [
        "decode-path-reserved",
        "form-encode-query",
        "encode-bare-percent",
        "keep-path-jsessionid",
    ] {
        assert!(rules.contains(name), "{name} missing from:\n{rules}");
    }
}

/// The urlcanon profiles write `=` in query values, `#` in fragments and
/// spaces in opaque paths encoded, as urlcanon's encode sets do, and
/// collapse slashes in special URLs only; `normurl rules` lists the rules.
#[test]
fn urlcanon_profiles_encode_and_collapse_as_urlcanon() {
    let input = "http://evil.com/foo#bar#baz\nlolscheme:x x#x x\nhttp://example.com/?%3d=%3d&%3d\nfoo:/%///\nhttp://a.com//b//\n";
    assert_eq!(
        ok(&["-p", "urlcanon-semantic-precise"], input),
        "http://evil.com/foo#bar%23baz\nlolscheme:x%20x#x%20x\nhttp://example.com/?%3D&%3D=%3D\nfoo:/%25///\nhttp://a.com/b/\n"
    );
    assert_eq!(
        ok(
            &["-p", "urlcanon-aggressive"],
            "lolscheme:x x\nhttp://a.com/?b=c=d\nfoo://h//a//b\n"
        ),
        "lolscheme:x%20x\nhttp://a.com/?b=c%3dd\nfoo://h//a//b\n"
    );
    let rules = ok(&["rules"], "");
    for name in [
        "encode-hash-space",
        "encode-value-equals",
        "keep-nonspecial-slashes",
    ] {
        assert!(rules.contains(name), "{name} missing from:\n{rules}");
    }
}

/// The normalize-url profile decodes the path as its `decodeURI` does.
#[test]
fn normalize_url_profile_decodes_the_path_as_decode_uri() {
    let input =
        "https://foo.com/some%5Bthing%5Celse/that-is%40great@coding\nhttps://foo.com/%5B/100%\n";
    assert_eq!(
        ok(&["-p", "normalize-url"], input),
        "https://foo.com/some[thing%5Celse/that-is%40great@coding\nhttps://foo.com/%5B/100%\n"
    );
    assert!(ok(&["rules"], "").contains("decode-uri-path"));
}

/// `--rules` edits come after the options that turn rules on, so `-rule`
/// turns off what `--keep-params` or `--param-rules` turned on.
#[test]
fn rules_edits_win_over_list_options() {
    let input = "https://a.com/?id=1&x=2\n";
    let kept = run(&["--keep-params", "id"], input).ok().out();
    assert_eq!(kept, "https://a.com/?id=1\n");
    let off = run(&["--keep-params", "id", "--rules", "-keep-params"], input)
        .ok()
        .out();
    assert_eq!(off, "https://a.com/?id=1&x=2\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("params.txt");
    std::fs::write(&file, "a.com strip x\n").unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(
        run(&["--param-rules", path], input).ok().out(),
        "https://a.com/?id=1\n"
    );
    assert_eq!(
        run(&["--param-rules", path, "--rules", "-domain-params"], input)
            .ok()
            .out(),
        "https://a.com/?id=1&x=2\n"
    );
}

/// A bad rule name is reported before any list file is read, whatever the
/// order of the options (the Python package checks in the same order).
#[test]
fn a_bad_rule_is_reported_before_a_missing_list() {
    let input = "https://a.com/\n";
    for args in [
        ["--rules", "+nope", "--strip-params", "@/nonexistent/list"],
        ["--strip-params", "@/nonexistent/list", "--rules", "+nope"],
        ["--keep-params", "@/nonexistent/list", "--rules", "+nope"],
    ] {
        let ran = run(&args, input).failed(&["--rules: unknown rule \"nope\""]);
        assert!(!ran.stderr.contains("/nonexistent/list"), "{args:?}");
    }
}

/// `session-ids-anywhere` (issue 29): `--profile wayback --get surt` strips
/// the query's session ids where the CDX keys of webarchive-commons and the
/// surt package do (`id=7;jsessionid=<32>` keeps `id=7;`, a `&` before an
/// id stays and sorts first), and `-session-ids-anywhere` brings back the
/// whole-parameter stripping.
#[test]
fn wayback_strips_query_session_ids_as_cdx_keys_do() {
    let id = "0123456789ABCDEF0123456789ABCDEF";
    let input = format!(
        "http://EXAMPLE.com//a///c?id=7;jsessionid={id}\nhttp://e.com/?a=1&sid={id}\nhttp://e.com/?xsid={id}&b=2\n"
    );
    assert_eq!(
        ok(&["-p", "wayback", "--get", "surt", "--explain"], &input),
        "com,example)/a/c?id=7;\tstrip-session-ids,collapse-slashes,lowercase-query\n\
         com,e)/?&a=1\tstrip-session-ids,lowercase-query,sort-query\n\
         com,e)/?xb=2\tstrip-session-ids,lowercase-query\n"
    );
    let lower = id.to_ascii_lowercase();
    assert_eq!(
        ok(
            &[
                "-p",
                "wayback",
                "--get",
                "surt",
                "--rules",
                "-session-ids-anywhere"
            ],
            &input
        ),
        format!(
            "com,example)/a/c?id=7;jsessionid={lower}\ncom,e)/?a=1\ncom,e)/?b=2&xsid={lower}\n"
        )
    );
    let rules = ok(&["rules"], "");
    assert!(
        rules.contains("session-ids-anywhere")
            && rules.contains("id=7;jsessionid=<32> keeps id=7;"),
        "{rules}"
    );
}

/// `--query-separators ';'` with `wayback`'s session ids: the regexes run
/// on the `;`-separated pieces as they do on `&`-separated ones (an `&` is
/// data there, as a `;` is in an `&`-separated query), the separator after
/// an id goes with it, an empty piece sorts first, and a second run changes
/// nothing.
#[test]
fn wayback_session_ids_with_semicolon_separators() {
    let id = "0123456789ABCDEF0123456789ABCDEF";
    let input = format!(
        "http://e.com/?b=2;sid={id};a=1\nhttp://e.com/?a=1&sid={id};c=3\nhttp://e.com/?x=1;jsessionid={id}\n"
    );
    let args = ["-p", "wayback", "--query-separators", ";"];
    let once = ok(&args, &input);
    assert_eq!(
        once,
        "http://e.com/?a=1;b=2\nhttp://e.com/?a=1%26c=3\nhttp://e.com/?;x=1\n"
    );
    assert_eq!(ok(&args, &once), once);
    // The same queries with the separators swapped, without the option.
    let swapped = format!(
        "http://e.com/?b=2&sid={id}&a=1\nhttp://e.com/?a=1;sid={id}&c=3\nhttp://e.com/?x=1&jsessionid={id}\n"
    );
    assert_eq!(
        ok(&["-p", "wayback"], &swapped),
        "http://e.com/?a=1&b=2\nhttp://e.com/?a=1;c=3\nhttp://e.com/?&x=1\n"
    );
}

/// `urlcanon-session-ids` (in `urlcanon-aggressive`): urlcanon's session
/// id patterns, `$` and 10 bytes in a `jsessionid` (urlcanon's own suite).
#[test]
fn urlcanon_aggressive_strips_urlcanons_session_ids() {
    let input = "http://example.com/?a=1&CFID=3304324&CFTOKEN=57491900&jsessionid=a63098d96360$B0$D9$A&foo=bar\nhttp://example.com/?sessionid=0123456789abcdef&b\n";
    assert_eq!(
        ok(&["-p", "urlcanon-aggressive"], input),
        "http://example.com/?a=1&foo=bar\nhttp://example.com/?b\n"
    );
    assert_eq!(
        ok(&["-p", "urlcanon-aggressive", "--rules", "-urlcanon-session-ids"], input),
        "http://example.com/?a=1&foo=bar&jsessionid=a63098d96360$b0$d9$a\nhttp://example.com/?b&sessionid=0123456789abcdef\n"
    );
    let rules = ok(&["rules"], "");
    assert!(rules.contains("  urlcanon-session-ids "), "{rules}");
}

/// `--help`'s `--profile` and the error for a wrong name list every
/// profile, from the one list `normurl rules` prints.
#[test]
fn help_names_every_profile() {
    let help = ok(&["--help"], "");
    let wrong = run(&["-p", "nonesuch"], "");
    assert_eq!(wrong.code, Some(2));
    for p in normurl::canon::Profile::ALL {
        assert!(help.contains(p.name()), "{} not in --help", p.name());
        assert!(
            wrong.stderr.contains(p.name()),
            "{}: {}",
            p.name(),
            wrong.stderr
        );
    }
    assert_eq!(
        ok(&["-p", "safe-browsing", "-g", "url"], "http://a.com/x\n"),
        ok(&["-p", "google", "-g", "url"], "http://a.com/x\n")
    );
}
