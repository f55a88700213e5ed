//! Edits of each URL (`--set`, `--append`, `--set-param`, `--delete-param`;
//! Python's `set=`, `append=`, `set_params=`, `delete_params=`): the URL
//! Standard's API setters and `URLSearchParams` methods, applied in the
//! order given to the parsed URL, before the profile's rules, so that a
//! key or a component is that of the edited URL.
//!
//! A setter the standard refuses (it returns without changing the URL:
//! `--set scheme=ftp:` on an `http:` URL crossing from a special to a
//! non-special scheme, `--set host=` on a URL that needs one, `--set
//! port=x`) leaves the URL as it was; the line stays valid, the later
//! edits still apply, and [`Edited::refused`] says so (`--explain` names
//! it `edit-refused`, `--stats` counts such lines).

use std::fmt;
use std::ops::ControlFlow;

use normurl_url::form_urlencoded::{
    append_pair, append_pair_as_written, for_each_pair, for_each_pair_as_written,
};
use normurl_url::scratch::Text;

use crate::canon::form;
use crate::canon::TrackingParams;
use crate::Url;

/// One edit of a URL; [`Edit::apply`] applies it.
///
/// # Example
///
/// ```
/// use normurl::normalize::Edit;
/// use normurl::Url;
///
/// let mut url = Url::parse("http://example.com/a?utm_source=x&id=1")?;
/// for edit in [
///     Edit::set("scheme=https")?,
///     Edit::append("path=b c")?,
///     Edit::delete_param("utm_*")?,
///     Edit::set_param("page=2")?,
/// ] {
///     assert!(edit.apply(&mut url));
/// }
/// assert_eq!(url.href(), "https://example.com/a/b%20c?id=1&page=2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub enum Edit {
    /// A setter of the URL API and its value (`--set COMPONENT=VALUE`).
    Set(Setter, String),
    /// `--append query=NAME=VALUE`: the query with `NAME=VALUE` (or
    /// `NAME` alone, without `=VALUE`) added at its end, after `&` when
    /// it is not empty. Name and value are written as `URLSearchParams`
    /// writes them (the urlencoded serializer: a space as `+`, `&`, `=`,
    /// `+` and `%` percent-encoded), so that the pair reads back as
    /// given; the other parameters keep their bytes. Held encoded.
    AppendQuery(String),
    /// `--append path=SEGMENT`: one more path segment, after a `/` unless
    /// the path ends with one ([`Url::push_path_segment`]). The segment's
    /// `/` (and `\` in a special URL, where it is a separator) is written
    /// `%2F` (`%5C`); the rest is written as the `pathname` setter writes
    /// it (a `%` is kept, so `%20` stays an escape; `.` and `..` are dot
    /// segments, as in any path).
    AppendPath(String),
    /// `--set-param NAME=VALUE`: `URLSearchParams.set` (the first
    /// parameter named NAME gets VALUE and the others go, or it is added
    /// at the end), then the query is written as the standard's update
    /// steps write it (the urlencoded serializer, as a browser's
    /// `url.searchParams.set()` does: `%20` becomes `+`, `a` becomes `a=`).
    SetParam {
        /// NAME, as given (compared with each pair's decoded name).
        name: String,
        /// `NAME=VALUE` as the urlencoded serializer writes it (VALUE is
        /// read back from it, decoded, by `for_each_pair`).
        pair: String,
    },
    /// `--delete-param LIST`: every parameter whose name (decoded as
    /// `URLSearchParams` decodes it) matches a pattern of the list (as
    /// `--keep-params` and `--strip-params` take them: `*` matches any
    /// run of bytes, names are case-sensitive) goes, and the query is
    /// written as the update steps write it (no parameter left: no
    /// query). A URL with no such parameter is left untouched (a
    /// browser's `searchParams.delete()` would rewrite its query anyway).
    DeleteParams(Box<TrackingParams>),
}

/// The URL API's setters (`url.protocol = …`), by the names `--set`
/// takes: the API's own and the usual names of the components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setter {
    /// `scheme`, `protocol`: [`Url::set_protocol`] (`https` or `https:`).
    Protocol,
    /// `username`: [`Url::set_username`].
    Username,
    /// `password`: [`Url::set_password`].
    Password,
    /// `host` (host and port): [`Url::set_host`].
    Host,
    /// `hostname`: [`Url::set_hostname`].
    Hostname,
    /// `port`: [`Url::set_port`]; empty clears it.
    Port,
    /// `path`, `pathname`: [`Url::set_pathname`].
    Pathname,
    /// `query`, `search`: [`Url::set_search`]; empty removes the query.
    Search,
    /// `fragment`, `hash`: [`Url::set_hash`]; empty removes the fragment.
    Hash,
}

impl Setter {
    /// Every setter.
    pub const ALL: [Setter; 9] = [
        Setter::Protocol,
        Setter::Username,
        Setter::Password,
        Setter::Host,
        Setter::Hostname,
        Setter::Port,
        Setter::Pathname,
        Setter::Search,
        Setter::Hash,
    ];

    /// The names `--set` takes for the setter: the URL API's first.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Setter::Protocol => &["protocol", "scheme"],
            Setter::Username => &["username"],
            Setter::Password => &["password"],
            Setter::Host => &["host"],
            Setter::Hostname => &["hostname"],
            Setter::Port => &["port"],
            Setter::Pathname => &["pathname", "path"],
            Setter::Search => &["search", "query"],
            Setter::Hash => &["hash", "fragment"],
        }
    }

    /// The setter of a name of [`Setter::names`].
    pub fn from_name(name: &str) -> Option<Setter> {
        Setter::ALL.into_iter().find(|s| s.names().contains(&name))
    }

    /// Runs the setter on `url`: false when the standard leaves the URL
    /// unchanged.
    pub fn apply(self, url: &mut Url, value: &str) -> bool {
        match self {
            Setter::Protocol => url.set_protocol(value),
            Setter::Username => url.set_username(value),
            Setter::Password => url.set_password(value),
            Setter::Host => url.set_host(value),
            Setter::Hostname => url.set_hostname(value),
            Setter::Port => url.set_port(value),
            Setter::Pathname => url.set_pathname(value),
            Setter::Search => url.set_search(value),
            Setter::Hash => url.set_hash(value),
        }
    }
}

/// An edit that could not be read: one line, naming the option's form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError(pub String);

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EditError {}

/// The names `--set` takes, for messages.
fn setter_names() -> String {
    let names: Vec<&str> = Setter::ALL
        .iter()
        .flat_map(|s| s.names())
        .copied()
        .collect();
    names.join(", ")
}

impl Edit {
    /// `--set COMPONENT=VALUE` (`scheme=https`, `port=`).
    pub fn set(spec: &str) -> Result<Edit, EditError> {
        let Some((name, value)) = spec.split_once('=') else {
            return Err(EditError(format!(
                "--set {spec:?}: expected COMPONENT=VALUE (COMPONENT one of {})",
                setter_names()
            )));
        };
        Edit::set_component(name, value)
    }

    /// `--set` of one component by name (Python's `set={name: value}`).
    pub fn set_component(name: &str, value: &str) -> Result<Edit, EditError> {
        match Setter::from_name(name) {
            Some(setter) => Ok(Edit::Set(setter, value.to_owned())),
            None => Err(EditError(format!(
                "--set: unknown component {name:?} (expected one of {})",
                setter_names()
            ))),
        }
    }

    /// `--append query=NAME=VALUE`, `--append query=NAME` or `--append
    /// path=SEGMENT`.
    pub fn append(spec: &str) -> Result<Edit, EditError> {
        match spec.split_once('=') {
            Some((what, value)) => Edit::append_component(what, value),
            None => Err(EditError(format!(
                "--append {spec:?}: expected query=NAME=VALUE or path=SEGMENT"
            ))),
        }
    }

    /// `--append` of `what` (`query` or `path`) and its value
    /// (`NAME=VALUE` or `NAME` for a query, a segment for a path).
    pub fn append_component(what: &str, value: &str) -> Result<Edit, EditError> {
        match what {
            "query" | "search" => {
                if value.is_empty() {
                    return Err(EditError(
                        "--append query=: expected query=NAME=VALUE (a name)".to_owned(),
                    ));
                }
                let (name, value) = match value.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (value, None),
                };
                let mut pair = Vec::new();
                form::serialize_component(name.as_bytes(), &mut pair);
                if let Some(v) = value {
                    pair.push(b'=');
                    form::serialize_component(v.as_bytes(), &mut pair);
                }
                // The serializer writes ASCII.
                Ok(Edit::AppendQuery(
                    String::from_utf8_lossy(&pair).into_owned(),
                ))
            }
            "path" | "pathname" => Ok(Edit::AppendPath(value.to_owned())),
            _ => Err(EditError(format!(
                "--append: unknown component {what:?} (expected query=NAME=VALUE or path=SEGMENT)"
            ))),
        }
    }

    /// `--set-param NAME=VALUE`.
    pub fn set_param(spec: &str) -> Result<Edit, EditError> {
        match spec.split_once('=') {
            Some((name, value)) => Ok(Edit::set_param_to(name, value)),
            None => Err(EditError(format!(
                "--set-param {spec:?}: expected NAME=VALUE"
            ))),
        }
    }

    /// `--set-param` of `name` to `value` (Python's `set_params={name:
    /// value}`).
    pub fn set_param_to(name: &str, value: &str) -> Edit {
        let mut pair = String::new();
        append_pair(&mut pair, name, value);
        Edit::SetParam {
            name: name.to_owned(),
            pair,
        }
    }

    /// `--delete-param LIST`: names and patterns separated by commas or
    /// whitespace (`utm_*,ref`), as `--keep-params` takes them.
    pub fn delete_param(list: &str) -> Result<Edit, EditError> {
        let mut names = TrackingParams::empty();
        names
            .add_list(list)
            .map_err(|e| EditError(format!("--delete-param {list:?}: {e}")))?;
        if names.is_empty() {
            return Err(EditError(format!(
                "--delete-param {list:?}: expected a name"
            )));
        }
        Ok(Edit::DeleteParams(Box::new(names)))
    }

    /// Applies the edit to `url`: false when a setter refused the value
    /// and left the URL unchanged (the edits of parameters never refuse).
    pub fn apply(&self, url: &mut Url) -> bool {
        match self {
            Edit::Set(setter, value) => setter.apply(url, value),
            Edit::AppendQuery(pair) => {
                let Some(current) = url.query().filter(|q| !q.is_empty()) else {
                    return url.set_search(pair);
                };
                let mut query = Text::new();
                query.push_str(current);
                query.push('&');
                query.push_str(pair);
                url.set_search(&query)
            }
            Edit::AppendPath(segment) => url.push_path_segment(segment),
            Edit::SetParam { name, pair, .. } => {
                // `URLSearchParams.set` and the update steps, pair by pair:
                // every pair written as the urlencoded serializer writes
                // it, the first named NAME given VALUE and the others
                // dropped, or the pair added at the end.
                let Some(current) = url.query().filter(|q| !q.is_empty()) else {
                    set_serialized_query(url, pair);
                    return true;
                };
                let mut query = Text::new();
                let mut found = false;
                for_each_pair_as_written(current, |written, n, v| {
                    if n != name {
                        append_pair_as_written(&mut query, written, n, v);
                    } else if !found {
                        found = true;
                        append_serialized_pair(&mut query, pair);
                    }
                    ControlFlow::Continue(())
                });
                if !found {
                    append_serialized_pair(&mut query, pair);
                }
                set_serialized_query(url, &query);
                true
            }
            Edit::DeleteParams(names) => {
                let Some(current) = url.query() else {
                    return true;
                };
                let mut any = false;
                for_each_pair(current, |n, _| {
                    any = names.matches(n.as_bytes());
                    if any {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                if !any {
                    return true;
                }
                let mut query = Text::new();
                for_each_pair_as_written(url.query().unwrap_or(""), |written, n, v| {
                    if !names.matches(n.as_bytes()) {
                        append_pair_as_written(&mut query, written, n, v);
                    }
                    ControlFlow::Continue(())
                });
                set_serialized_query(url, &query);
                true
            }
        }
    }

    /// What `--explain` and `normurl rules` call the edit's option.
    pub fn option(&self) -> &'static str {
        match self {
            Edit::Set(..) => "--set",
            Edit::AppendQuery(_) | Edit::AppendPath(_) => "--append",
            Edit::SetParam { .. } => "--set-param",
            Edit::DeleteParams(_) => "--delete-param",
        }
    }
}

/// The query written by the urlencoded serializer, stored as the
/// [URLSearchParams update steps](https://url.spec.whatwg.org/#concept-urlsearchparams-update)
/// store it: empty is a null query. Through the `search` setter, which
/// changes nothing else in such a string: it cannot start with `?` (the
/// serializer writes `%3F`) and holds no tab, newline or byte of the query
/// percent-encode sets.
fn set_serialized_query(url: &mut Url, query: &str) {
    url.set_search(query);
}

/// `pair`, as the urlencoded serializer writes it, at the end of `query`.
fn append_serialized_pair(query: &mut String, pair: &str) {
    if !query.is_empty() {
        query.push('&');
    }
    query.push_str(pair);
}

/// What applying the edits did to a URL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Edited {
    /// The edits changed the URL's serialization.
    pub changed: bool,
    /// A setter refused its value and left the URL as it was.
    pub refused: bool,
}

/// Applies `edits` to `url` in order. With `before`, a scratch buffer
/// (for the URL's serialization before them), [`Edited::changed`] tells
/// whether they changed the URL; without it, it is false (the copy and
/// the comparison cost as much as a cheap setter, and only `--explain`
/// reads the answer).
pub fn apply(edits: &[Edit], url: &mut Url, before: Option<&mut String>) -> Edited {
    let mut refused = false;
    let Some(before) = before else {
        for edit in edits {
            refused |= !edit.apply(url);
        }
        return Edited {
            changed: false,
            refused,
        };
    };
    before.clear();
    before.push_str(url.href());
    for edit in edits {
        refused |= !edit.apply(url);
    }
    Edited {
        changed: url.href() != before.as_str(),
        refused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(url: &str, edits: &[Edit]) -> (String, Edited) {
        let mut url = Url::parse(url).unwrap();
        let done = apply(edits, &mut url, Some(&mut String::new()));
        (url.href().to_owned(), done)
    }

    #[test]
    fn setters_by_every_name() {
        for (spec, expected) in [
            ("scheme=https", "https://u:p@a.example:8080/p?q#f"),
            ("protocol=https:", "https://u:p@a.example:8080/p?q#f"),
            ("username=x y", "http://x%20y:p@a.example:8080/p?q#f"),
            ("password=", "http://u@a.example:8080/p?q#f"),
            ("host=b.example:9", "http://u:p@b.example:9/p?q#f"),
            ("hostname=B.Example", "http://u:p@b.example:8080/p?q#f"),
            ("port=", "http://u:p@a.example/p?q#f"),
            ("port=80", "http://u:p@a.example/p?q#f"),
            ("path=/a b", "http://u:p@a.example:8080/a%20b?q#f"),
            ("pathname=x", "http://u:p@a.example:8080/x?q#f"),
            ("query=a b", "http://u:p@a.example:8080/p?a%20b#f"),
            ("search=", "http://u:p@a.example:8080/p#f"),
            ("fragment=", "http://u:p@a.example:8080/p?q"),
            ("hash=#g h", "http://u:p@a.example:8080/p?q#g%20h"),
        ] {
            let edit = Edit::set(spec).unwrap();
            let (href, done) = edited("http://u:p@a.example:8080/p?q#f", &[edit]);
            assert_eq!(href, expected, "{spec}");
            assert_eq!(
                done,
                Edited {
                    changed: true,
                    refused: false
                },
                "{spec}"
            );
        }
    }

    #[test]
    fn refused_setters_leave_the_url_and_say_so() {
        for (url, spec) in [
            ("http://a.example/", "scheme=foo"),
            ("http://a.example/", "port=x"),
            ("http://a.example/", "host="),
            ("mailto:x@y", "path=/z"),
            ("mailto:x@y", "hostname=a"),
        ] {
            let (href, done) = edited(url, &[Edit::set(spec).unwrap()]);
            assert_eq!(href, url, "{spec}");
            assert!(done.refused && !done.changed, "{spec}");
        }
        // Later edits still apply.
        let edits = [Edit::set("port=x").unwrap(), Edit::set("port=81").unwrap()];
        let (href, done) = edited("http://a.example/", &edits);
        assert_eq!(href, "http://a.example:81/");
        assert_eq!(
            done,
            Edited {
                changed: true,
                refused: true
            }
        );
    }

    #[test]
    fn appends_keep_the_other_bytes() {
        let append = |spec| Edit::append(spec).unwrap();
        for (url, spec, expected) in [
            (
                "http://a/?x=%7e",
                "query=n=a b&c",
                "http://a/?x=%7e&n=a+b%26c",
            ),
            ("http://a/", "query=flag", "http://a/?flag"),
            ("http://a/?", "query=k=", "http://a/?k="),
            ("http://a/", "query=a=b=c", "http://a/?a=b%3Dc"),
            ("http://a/b", "path=c d", "http://a/b/c%20d"),
            ("http://a/b/", "path=c/d?e", "http://a/b/c%2Fd%3Fe"),
            ("http://a", "path=c", "http://a/c"),
            ("http://a/b", "path=x\\y", "http://a/b/x%5Cy"),
            ("http://a/b", "path=%41", "http://a/b/%41"),
            ("foo://a/b", "path=x\\y", "foo://a/b/x\\y"),
        ] {
            let (href, _) = edited(url, &[append(spec)]);
            assert_eq!(href, expected, "{url} {spec}");
        }
        let (href, done) = edited("mailto:x", &[append("path=y")]);
        assert_eq!((href.as_str(), done.refused), ("mailto:x", true));
    }

    #[test]
    fn params_as_url_search_params() {
        let set = |spec| Edit::set_param(spec).unwrap();
        let (href, _) = edited("http://a/?a=1&b=%20&a=2#f", &[set("a=x y")]);
        assert_eq!(href, "http://a/?a=x+y&b=+#f");
        let (href, _) = edited("http://a/", &[set("n=v")]);
        assert_eq!(href, "http://a/?n=v");
        let del = |spec| Edit::delete_param(spec).unwrap();
        let (href, done) = edited(
            "http://a/?utm_source=1&id=2&utm_x&%75tm_y=3",
            &[del("utm_*")],
        );
        assert_eq!((href.as_str(), done.changed), ("http://a/?id=2", true));
        let (href, _) = edited("http://a/?a=1#f", &[del("a")]);
        assert_eq!(href, "http://a/#f");
        // Nothing matched: the query keeps its bytes.
        let (href, done) = edited("http://a/?b=%20", &[del("a,c*")]);
        assert_eq!((href.as_str(), done.changed), ("http://a/?b=%20", false));
    }

    #[test]
    fn bad_specs_are_one_line_errors() {
        for e in [
            Edit::set("scheme").unwrap_err(),
            Edit::set("schema=x").unwrap_err(),
            Edit::append("query").unwrap_err(),
            Edit::append("host=x").unwrap_err(),
            Edit::append("query=").unwrap_err(),
            Edit::set_param("a").unwrap_err(),
            Edit::delete_param("").unwrap_err(),
            Edit::delete_param("*").unwrap_err(),
        ] {
            assert!(!e.0.contains('\n') && e.0.starts_with("--"), "{e}");
        }
    }
}
