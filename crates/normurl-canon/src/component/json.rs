//! `--json`: one JSON object per line, with every component. Whatever the
//! bytes, the output is valid JSON: strings are escaped, and bytes that
//! are not UTF-8 become U+FFFD (URL components are always ASCII; only an
//! invalid line's input can hold such bytes).

use super::json_string::escape_in_place;
pub use super::json_string::write_string;
use super::{Component, Fields};
use crate::scratch::Scratch;

/// Appends `{"href":"…",…}` with every component of [`Component::ALL`],
/// then `"params"`: the query's parameters as `[name, value]` pairs,
/// decoded as `URLSearchParams` decodes them
/// ([`params::write_json`](super::params::write_json)).
///
/// # Example
///
/// ```
/// use normurl_canon::component::{json, Fields, PublicSuffixList};
/// use normurl_canon::Scratch;
/// use normurl_url::Url;
///
/// let url = Url::parse("https://a.example.org/x")?;
/// let mut out = Vec::new();
/// json::write_object(&Fields::new(&url, PublicSuffixList::bundled()), &mut Scratch::new(), &mut out);
/// let text = String::from_utf8(out)?;
/// assert!(text.starts_with(r#"{"href":"https://a.example.org/x","protocol":"https:","#));
/// assert!(text.contains(r#","registered_domain":"example.org","#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_object(fields: &Fields<'_>, scratch: &mut Scratch, out: &mut Vec<u8>) {
    out.push(b'{');
    for (i, &c) in Component::ALL.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(c.name().as_bytes());
        out.extend_from_slice(b"\":");
        let start = out.len();
        fields.write(c, scratch, out);
        escape_in_place(out, start);
    }
    // The query's parameters, decoded, as URLSearchParams holds them.
    out.extend_from_slice(b",\"params\":");
    super::params::write_json(fields.url().and_then(|u| u.query()), out);
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::PublicSuffixList;
    use normurl_url::Url;

    #[test]
    fn every_component_once_in_order() {
        let url = Url::parse("http://u:p@[::1]:8080/p?q#f").unwrap();
        let mut out = Vec::new();
        write_object(
            &Fields::new(&url, PublicSuffixList::bundled()),
            &mut Scratch::new(),
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        let mut at = 0;
        for c in Component::ALL {
            let key = format!("\"{}\":", c.name());
            let found = text[at..]
                .find(&key)
                .unwrap_or_else(|| panic!("{key} in {text}"));
            at += found + key.len();
        }
        assert!(text.contains(r#""hostname":"[::1]","#), "{text}");
        assert!(text.contains(r#""host_type":"ipv6","#), "{text}");
        assert!(text.contains(r#""registered_domain":"","#), "{text}");
        assert!(
            text.ends_with(r#""url_query":"q","params":[["q",""]]}"#),
            "{text}"
        );
    }

    #[test]
    fn quotes_in_components_are_escaped() {
        // An opaque path keeps `"` as it is.
        let url = Url::parse("x:a\"b\\").unwrap();
        let mut out = Vec::new();
        write_object(
            &Fields::new(&url, PublicSuffixList::bundled()),
            &mut Scratch::new(),
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with(r#"{"href":"x:a\"b\\","#), "{text}");
    }

    #[test]
    fn controls_and_bad_bytes() {
        let mut out = Vec::new();
        write_string(b"\x7f\r\n\xe9", &mut out);
        assert_eq!(out, "\"\\u007f\\r\\n\u{fffd}\"".as_bytes());
    }
}
