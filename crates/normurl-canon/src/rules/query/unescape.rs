//! `unescape-query` and `encode-value-equals`: decode each parameter's
//! escapes and re-encode only what keeps its boundaries.

use super::QueryScratch;
use crate::form;
use crate::rules::escapes;
use crate::rules::percent::{self, QUERY_NAME_MINIMAL, QUERY_VALUE_MINIMAL};

/// `unescape-query`: percent-decodes each piece's name and value repeatedly
/// and re-encodes only Safe Browsing's set, what the query percent-encode
/// set needs, and the delimiters (`&` always, `=` in names) so every
/// parameter keeps its boundaries. (`%2B` does become `+`, as in urlcanon.)
/// With `equals` (`encode-value-equals`), `=` is re-encoded in values too.
/// Writes into `out` only when that changes the query.
pub(crate) fn unescape(
    query: &[u8],
    lower: bool,
    equals: bool,
    scratch: &mut QueryScratch,
    out: &mut Vec<u8>,
) -> bool {
    if memchr::memchr(b'%', query).is_none() && !(equals && escapes::value_has_equals(query)) {
        // Without `%` nothing decodes, and the parser has already encoded
        // every byte of the minimal sets except the delimiters.
        return false;
    }
    let value_set = if equals {
        &QUERY_NAME_MINIMAL
    } else {
        &QUERY_VALUE_MINIMAL
    };
    let start = out.len();
    for (i, piece) in form::pieces(query).enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        percent::unescape_repeatedly(piece.name(query), &mut scratch.tmp);
        percent::encode(&scratch.tmp, &QUERY_NAME_MINIMAL, lower, out);
        if let Some(value) = piece.value(query) {
            out.push(b'=');
            percent::unescape_repeatedly(value, &mut scratch.tmp);
            percent::encode(&scratch.tmp, value_set, lower, out);
        }
    }
    if out[start..] == *query {
        out.truncate(start);
        return false;
    }
    true
}
