//! `strip-directory-index`: `/a/index.html` names what `/a/` does on most
//! servers (Apache's `DirectoryIndex`, IIS's default documents).

/// The index files every server setup the rule knows serves for a
/// directory: Apache's and nginx's defaults and IIS's default documents.
pub(crate) const DEFAULT_INDEX_FILES: [&str; 5] = [
    "index.html",
    "index.htm",
    "index.php",
    "default.asp",
    "default.aspx",
];

/// The path without a last segment that is one of the defaults or of
/// `extra` (ASCII case-insensitively: the servers that use `default.aspx`
/// ignore case): `/a/index.html` becomes `/a/`. Only whole segments, and
/// the `/` before stays. Returns a subslice, `path` itself when nothing
/// is stripped.
pub(crate) fn strip<'p>(path: &'p [u8], extra: &[Box<[u8]>]) -> &'p [u8] {
    let Some(slash) = memchr::memrchr(b'/', path) else {
        return path;
    };
    let last = &path[slash + 1..];
    let listed = DEFAULT_INDEX_FILES
        .iter()
        .map(|f| f.as_bytes())
        .chain(extra.iter().map(|f| &f[..]))
        .any(|f| !f.is_empty() && f.eq_ignore_ascii_case(last));
    if listed {
        &path[..=slash]
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<'p>(path: &'p str, extra: &[&str]) -> &'p str {
        let extra: Vec<Box<[u8]>> = extra.iter().map(|e| e.as_bytes().into()).collect();
        std::str::from_utf8(strip(path.as_bytes(), &extra)).unwrap()
    }

    #[test]
    fn strips_last_index_segments_only() {
        assert_eq!(run("/a/index.html", &[]), "/a/");
        assert_eq!(run("/index.php", &[]), "/");
        assert_eq!(run("/a/Default.ASPX", &[]), "/a/");
        assert_eq!(run("/index.html/a", &[]), "/index.html/a");
        assert_eq!(run("/a/myindex.html", &[]), "/a/myindex.html");
        assert_eq!(run("/a/index.html/", &[]), "/a/index.html/");
        assert_eq!(run("/a/home.jsp", &["home.jsp"]), "/a/");
        assert_eq!(run("/a/", &[""]), "/a/");
        assert_eq!(run("", &[]), "");
    }
}
