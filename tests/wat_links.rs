//! `normurl warc --links` on a generated WAT: the head's metas (`og:url`,
//! a refresh's URL), scripts and links, with the body's links, resolved
//! against the page's <base href> and normalized (issue 33).

mod common;

use common::bin::{file, run};
use common::warc::wat_record;
use serde_json::json;

#[test]
fn head_metas_scripts_and_links() {
    let wat = wat_record(
        "http://Site.example/dir/page.html",
        json!({
            "Head": {
                "Base": "/base/",
                "Title": "t",
                "Metas": [
                    {"name": "generator", "content": "http://not.a.link/"},
                    {"property": "og:url", "content": "HTTP://Site.example/dir/page.html?x#y"},
                    {"property": "og:image", "content": "/not/counted.png"},
                    {"http-equiv": "Refresh", "content": "5; URL='../Next Page'"},
                    {"http-equiv": "refresh", "content": "30"},
                    {"http-equiv": "content-type", "content": "text/html"},
                ],
                "Link": [{"path": "LINK@/href", "url": "style.css", "rel": "stylesheet"}],
                "Scripts": [
                    {"path": "SCRIPT@/src", "url": "//CDN.example/a.js", "type": "text/javascript"},
                    {"url": "b.js"},
                    {"path": "SCRIPT@/src"},
                ],
            },
            "Links": [{"path": "A@/href", "url": "../Other.html", "text": "other"}],
        }),
        json!({"Content-Type": "text/html"}),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "head.wat.gz", &wat);
    let ran = run(&["warc", "--links", &path], b"").ok();
    let page = "http://site.example/dir/page.html";
    let expected: String = [
        ("http://site.example/base/style.css", "LINK@/href"),
        ("http://site.example/dir/page.html?x#y", "META@/content"),
        ("http://site.example/Next%20Page", "META@/content"),
        ("http://cdn.example/a.js", "SCRIPT@/src"),
        ("http://site.example/base/b.js", "SCRIPT@/src"),
        ("http://site.example/Other.html", "A@/href"),
    ]
    .iter()
    .map(|(link, path)| format!("{page}\t{link}\t{path}\n"))
    .collect();
    assert_eq!(ran.out(), expected);
}

/// The HTML Standard's frozen base URL: a `<base href>` that does not
/// parse against the page, or parses to a `data:` or `javascript:` URL,
/// leaves the page's URL as the base (the links stay valid and resolve
/// against the page).
#[test]
fn a_javascript_data_or_broken_base_falls_back_to_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let page = "http://site.example/dir/page.html";
    for base in [
        "javascript:void(0)",
        "JavaScript:void(0)",
        "data:text/html,x",
        "http://[::1",
    ] {
        let wat = wat_record(
            page,
            json!({
                "Head": {"Base": base},
                "Links": [
                    {"path": "A@/href", "url": "other.html"},
                    {"path": "A@/href", "url": "/top?q"},
                ],
            }),
            json!({"Content-Type": "text/html"}),
        );
        let path = file(&dir, "base.wat.gz", &wat);
        let ran = run(&["warc", "--links", "--stats", &path], b"").ok();
        let expected = format!(
            "{page}\thttp://site.example/dir/other.html\tA@/href\n\
             {page}\thttp://site.example/top?q\tA@/href\n"
        );
        assert_eq!(ran.out(), expected, "<base href={base:?}>: {}", ran.stderr);
    }
}
