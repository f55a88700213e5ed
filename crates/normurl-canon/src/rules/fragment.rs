//! The fragment rules besides `drop-fragment`: `keep-spa-fragments` and
//! `strip-text-fragment`.

/// `keep-spa-fragments`: whether `fragment` (after the `#`) is a route of a
/// single-page application, which names a page: `#!/a` (Google's old
/// AJAX crawling "hashbang") or `#/a`. Percent rules never change the first
/// byte of these (`!` and `/` are not unreserved), so the answer is the
/// same before and after them.
pub(crate) fn is_spa_route(fragment: &[u8]) -> bool {
    matches!(fragment.first(), Some(b'!' | b'/'))
}

/// The fragment directive delimiter (URL Fragment Text Directives, "The
/// fragment directive"): what follows the first one is for the browser
/// and never reaches the page.
const DELIMITER: &[u8] = b":~:";

/// `strip-text-fragment`: writes `fragment` without its `text=` directives
/// into `out` and returns true, or returns false when it has none. Other
/// directives stay, `&`-separated as the spec has them; with none left the
/// delimiter goes too (`a:~:text=b` becomes `a`, `:~:text=b` becomes empty,
/// which the caller drops with its `#`).
pub(crate) fn strip_text_directives(fragment: &[u8], out: &mut Vec<u8>) -> bool {
    let Some(at) = memchr::memmem::find(fragment, DELIMITER) else {
        return false;
    };
    let directives = &fragment[at + DELIMITER.len()..];
    let is_text = |d: &&[u8]| d.starts_with(b"text=");
    if !directives.split(|&b| b == b'&').any(|d| is_text(&d)) {
        return false;
    }
    out.extend_from_slice(&fragment[..at]);
    let mut first = true;
    for directive in directives.split(|&b| b == b'&').filter(|d| !is_text(d)) {
        out.extend_from_slice(if first { DELIMITER } else { b"&" });
        out.extend_from_slice(directive);
        first = false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(fragment: &str) -> Option<String> {
        let mut out = Vec::new();
        strip_text_directives(fragment.as_bytes(), &mut out)
            .then(|| String::from_utf8(out).unwrap())
    }

    #[test]
    fn text_directives_go_and_others_stay() {
        assert_eq!(strip(":~:text=hello").as_deref(), Some(""));
        assert_eq!(strip("sec:~:text=a,b").as_deref(), Some("sec"));
        assert_eq!(
            strip("sec:~:text=a&note=x&text=b").as_deref(),
            Some("sec:~:note=x")
        );
        assert_eq!(strip("sec:~:note=x"), None);
        assert_eq!(strip("sec"), None);
        assert_eq!(strip("a:~:text=x:~:text=y").as_deref(), Some("a"));
        // The result has no text directive left.
        for f in ["a:~:&text=1&b&text=2", ":~:text=", "x:~:b&text=c"] {
            let once = strip(f).unwrap();
            assert_eq!(strip(&once), None, "{f} -> {once}");
        }
    }

    #[test]
    fn routes() {
        assert!(is_spa_route(b"!/a") && is_spa_route(b"/a") && is_spa_route(b"!"));
        assert!(!is_spa_route(b"top") && !is_spa_route(b"") && !is_spa_route(b"%21"));
    }
}
