//! The query session ids of `strip-session-ids` (Heritrix's and
//! webarchive-commons') and `urlcanon-session-ids` (urlcanon's), by the
//! name and value of one parameter.

/// The query session id names [`session_id`] knows, lowercase, by their
/// first two bytes (`aspsessionid` names a family).
pub(super) const SESSION_NAMES: [&[u8]; 5] = [
    b"jsessionid",
    b"phpsessid",
    b"sid",
    b"aspsessionid",
    b"cfid",
];

/// `urlcanon-session-ids`: the parameters urlcanon's
/// `QUERY_SESSIONID_RE` (canon.py) matches, a whole `&`-separated piece
/// each: `jsessionid=[0-9a-z$]{10,}`, `(sessionid|phpsessid|sid)=[0-9a-z]{16,}`,
/// `aspsessionid[a-z]{8}=[0-9a-z]{16,}` and `cfid=[0-9]+&cftoken=[0-9a-z-]+`,
/// case-insensitively.
fn urlcanon_session_id(name: &[u8], value: &[u8]) -> Session {
    // At least `n` letters or digits, or `extra` bytes.
    let at_least = |n: usize, extra: Option<u8>| {
        value.len() >= n
            && value
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || Some(b) == extra)
    };
    let id = |is: bool| if is { Session::Id } else { Session::No };
    let some = !value.is_empty();
    match name.len() {
        3 if name.eq_ignore_ascii_case(b"sid") => id(at_least(16, None)),
        9 if name.eq_ignore_ascii_case(b"phpsessid") || name.eq_ignore_ascii_case(b"sessionid") => {
            id(at_least(16, None))
        }
        10 if name.eq_ignore_ascii_case(b"jsessionid") => id(at_least(10, Some(b'$'))),
        20 if name[..12].eq_ignore_ascii_case(b"aspsessionid")
            && name[12..].iter().all(u8::is_ascii_alphabetic) =>
        {
            id(at_least(16, None))
        }
        4 if some && name.eq_ignore_ascii_case(b"cfid") && value.iter().all(u8::is_ascii_digit) => {
            Session::Cfid
        }
        7 if some && name.eq_ignore_ascii_case(b"cftoken") && at_least(1, Some(b'-')) => {
            Session::Cftoken
        }
        _ => Session::No,
    }
}

pub(super) enum Session {
    No,
    /// A session id to strip on its own.
    Id,
    /// ColdFusion's pair, stripped when both are present.
    Cfid,
    Cftoken,
}

/// The query session ids of Heritrix's `StripSessionIDs` and
/// `StripSessionCFIDs` and webarchive-commons' `URLRegexTransformer`:
/// `jsessionid`, `phpsessid` or `sid` with 32 letters or digits,
/// `aspsessionid` plus 8 letters with 24 letters, and `cfid` + `cftoken`;
/// or, when `urlcanon`, urlcanon's ([`urlcanon_session_id`]). Names match
/// case-insensitively.
pub(super) fn session_id(name: &[u8], value: &[u8], urlcanon: bool) -> Session {
    if urlcanon {
        return urlcanon_session_id(name, value);
    }
    let alnum = |n: usize| value.len() == n && value.iter().all(u8::is_ascii_alphanumeric);
    let id = |is: bool| if is { Session::Id } else { Session::No };
    // By length first: most names have none of these lengths, and the
    // others fail the first compare.
    match name.len() {
        3 if name.eq_ignore_ascii_case(b"sid") => id(alnum(32)),
        9 if name.eq_ignore_ascii_case(b"phpsessid") => id(alnum(32)),
        10 if name.eq_ignore_ascii_case(b"jsessionid") => id(alnum(32)),
        20 if name[..12].eq_ignore_ascii_case(b"aspsessionid")
            && name[12..].iter().all(u8::is_ascii_alphabetic) =>
        {
            id(value.len() == 24 && value.iter().all(u8::is_ascii_alphabetic))
        }
        4 if !value.is_empty() && name.eq_ignore_ascii_case(b"cfid") => Session::Cfid,
        7 if !value.is_empty() && name.eq_ignore_ascii_case(b"cftoken") => Session::Cftoken,
        _ => Session::No,
    }
}
