//! `session-ids-anywhere`: the query half of `strip-session-ids` as the
//! CDX keys of the world's web archives have it. webarchive-commons'
//! `URLRegexTransformer.stripQuerySessionID` (Java, OpenWayback's
//! `WaybackURLKeyMaker`) and its port in the Python `surt` package (pywb,
//! Common Crawl) apply five case-insensitive regexes to the whole query,
//! once each, in this order:
//!
//! ```text
//! ^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$
//! ^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$
//! ^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$
//! ^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$
//! ^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$
//! ```
//!
//! and keep group 1 followed by group 2. So an id is found wherever it
//! starts (`id=7;jsessionid=<32>` keeps `id=7;`, `xsid=<32>` keeps `x`),
//! only where it ends a `&`-separated piece, and, `(.*)` being greedy, only
//! the last one of each kind goes; a `&` before it stays (`a=1&sid=<32>`
//! leaves `a=1&`, which the sort then puts first). Without a regex engine:
//! an id ends a piece, so each pattern is a test of a piece's end (or, for
//! ColdFusion's pair, of two pieces), tried from the last piece back.

use crate::rule::{Rule, RuleSet};

/// Whether `rules` strip the query's session ids here, not by parameter.
#[inline]
pub(crate) fn on(rules: RuleSet) -> bool {
    rules.contains(Rule::StripSessionIds) && rules.contains(Rule::SessionIdsAnywhere)
}

/// The rules the parameter rules (`query::apply`) run with: without
/// `strip-session-ids` when [`on`], as the regexes have done its part.
#[inline]
pub(crate) fn param_rules(rules: RuleSet) -> RuleSet {
    if on(rules) {
        rules.without(Rule::StripSessionIds)
    } else {
        rules
    }
}

/// The byte ranges of the query's `&`-separated pieces, last first.
fn pieces_rev(query: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut end = Some(query.len());
    std::iter::from_fn(move || {
        let e = end?;
        let start = memchr::memrchr(b'&', &query[..e]).map_or(0, |amp| amp + 1);
        end = start.checked_sub(1);
        Some((start, e))
    })
}

/// One of the five patterns, in the order they are applied.
#[derive(Clone, Copy, Debug)]
enum Pattern {
    /// `NAME=` and 32 ASCII letters or digits (`NAME=` lowercase here).
    Alnum32(&'static [u8]),
    /// `ASPSESSIONID` and 8 letters, `=`, 24 letters.
    Asp,
    /// `cfid=[^&]+&cftoken=[^&]+`: over two pieces.
    ColdFusion,
}

const PATTERNS: [Pattern; 5] = [
    Pattern::Alnum32(b"jsessionid="),
    Pattern::Alnum32(b"phpsessid="),
    Pattern::Alnum32(b"sid="),
    Pattern::Asp,
    Pattern::ColdFusion,
];

impl Pattern {
    /// Where the id starts when it ends the piece `query[start..end]` (for
    /// [`Pattern::ColdFusion`], a `cftoken=` piece whose `cfid=` is in the
    /// piece before): the last such start, as the greedy `(.*)` finds.
    fn start_in(self, query: &[u8], start: usize, end: usize) -> Option<usize> {
        let piece = &query[start..end];
        match self {
            Pattern::Alnum32(name) => {
                let at = piece.len().checked_sub(name.len() + 32)?;
                let (head, id) = piece[at..].split_at(name.len());
                (head.eq_ignore_ascii_case(name) && id.iter().all(u8::is_ascii_alphanumeric))
                    .then_some(start + at)
            }
            Pattern::Asp => {
                let at = piece.len().checked_sub(45)?;
                let id = &piece[at..];
                (id[..12].eq_ignore_ascii_case(b"aspsessionid")
                    && id[12..20].iter().all(u8::is_ascii_alphabetic)
                    && id[20] == b'='
                    && id[21..].iter().all(u8::is_ascii_alphabetic))
                .then_some(start + at)
            }
            Pattern::ColdFusion => {
                let token = piece.get(..8)?;
                if piece.len() == 8 || !token.eq_ignore_ascii_case(b"cftoken=") || start == 0 {
                    return None;
                }
                // The piece before, between the `&` at `start - 1` and the
                // one before it (or the start of the query).
                let amp = start - 1;
                let from = memchr::memrchr(b'&', &query[..amp]).map_or(0, |a| a + 1);
                last_cfid(&query[from..amp]).map(|at| from + at)
            }
        }
    }

    /// The last match in `query`: the id's start and end (the end of a
    /// piece, so the end of the query or a `&`).
    fn last_match(self, query: &[u8]) -> Option<(usize, usize)> {
        pieces_rev(query).find_map(|(start, end)| Some((self.start_in(query, start, end)?, end)))
    }
}

/// Where the last `cfid=` of `piece` that has a byte after it starts
/// (`cfid=[^&]+` ending the piece).
fn last_cfid(piece: &[u8]) -> Option<usize> {
    // `cfid=` cannot overlap itself: the last one but one always has the
    // last one after it.
    piece
        .windows(5)
        .enumerate()
        .rev()
        .filter(|(_, w)| w.eq_ignore_ascii_case(b"cfid="))
        .map(|(at, _)| at)
        .find(|&at| at + 5 < piece.len())
}

/// Whether one of the patterns matches `query`: whether [`strip`] would
/// change it.
#[inline]
pub(crate) fn found(query: &[u8]) -> bool {
    scan(query, |start| {
        // The `cftoken=` piece ends at the next `&`, or the end.
        let end = memchr::memchr(b'&', &query[start..]).map_or(query.len(), |n| start + n);
        start > 0 && Pattern::ColdFusion.start_in(query, start, end).is_some()
    })
}

/// Whether [`strip`] may change `query`, or the query the parameter rules
/// make of it: [`found`], or a `cftoken=` piece and another one, which a
/// sort or a removed parameter may put after a `cfid=` piece. (The other
/// patterns lie within one piece, which those rules never change.) The
/// fast paths decline these queries.
#[inline]
pub(crate) fn may_strip(query: &[u8]) -> bool {
    scan(query, |start| start > 0 || query.contains(&b'&'))
}

/// [`may_strip`] for a query of one parameter (no `&`): two bytes tell
/// most queries apart. (Of a query with `&`, it tells of the last piece
/// only: `copy::bare_query` asks before it looks for a `&`, and keeps
/// no such query.)
#[inline(always)]
pub(crate) fn may_strip_single(query: &[u8]) -> bool {
    id_ends_at(query, query.len())
}

/// Whether the piece that ends at `end` ends with an id of the first four
/// patterns. (Their ids have no `&`: one that ends at `end` lies in the
/// piece, whichever start it is given.) Most pieces fail the first test:
/// no `=` 33 (or 25) bytes before the end.
#[inline(always)]
fn id_ends_at(query: &[u8], end: usize) -> bool {
    ((end >= 36 && query[end - 33] == b'=') || (end >= 45 && query[end - 25] == b'='))
        && PATTERNS[..4]
            .iter()
            .any(|p| p.start_in(query, 0, end).is_some())
}

/// Whether the piece at `start` is `cftoken=` and a value.
#[inline(always)]
fn is_cftoken(query: &[u8], start: usize) -> bool {
    // Its first byte rules out most pieces, before the compare of 8.
    query.get(start).is_some_and(|&b| b | 0x20 == b'c')
        && query
            .get(start..start + 9)
            .is_some_and(|p| p[..8].eq_ignore_ascii_case(b"cftoken=") && p[8] != b'&')
}

/// The shortest query a pattern matches: `cfid=1&cftoken=2`.
const SHORTEST: usize = 16;

/// Whether a piece ends with an id of the first four patterns, or is a
/// `cftoken=` piece for whose start `cftoken` says yes. The `&`s come from
/// one vector pass (most queries are too short for any id, and most
/// pieces fail [`id_ends_at`]'s first test): no call per piece.
#[inline]
fn scan(query: &[u8], cftoken: impl Fn(usize) -> bool) -> bool {
    if query.len() < SHORTEST {
        return false;
    }
    let mut start = 0;
    let found = normurl_url::simd::find_in_windows(query, 0, [b'&'], |base, [mut amps]| {
        while amps != 0 {
            let end = base + amps.trailing_zeros() as usize;
            amps &= amps - 1;
            if piece_at(query, start, end, &cftoken) {
                return Some(());
            }
            start = end + 1;
        }
        None
    });
    found.is_some() || piece_at(query, start, query.len(), &cftoken)
}

/// [`scan`]'s test of the piece `query[start..end]`.
#[inline(always)]
fn piece_at(query: &[u8], start: usize, end: usize, cftoken: &impl Fn(usize) -> bool) -> bool {
    id_ends_at(query, end) || (is_cftoken(query, start) && cftoken(start))
}

/// Applies the five patterns to `query` in order, each once, writing the
/// result into `out` when one matched; returns whether one did.
pub(crate) fn strip(query: &[u8], out: &mut Vec<u8>) -> bool {
    let mut changed = false;
    let base = out.len();
    for pattern in PATTERNS {
        let current = if changed { &out[base..] } else { query };
        let Some((start, end)) = pattern.last_match(current) else {
            continue;
        };
        if !changed {
            out.extend_from_slice(query);
            changed = true;
        }
        // Group 1, then group 2 (what follows the `&` after the id), if
        // any.
        let len = out.len() - base;
        let cut_end = if end < len { end + 1 } else { end };
        out.drain(base + start..base + cut_end);
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789ABCDEF0123456789abcdef";

    fn stripped(query: &str) -> String {
        let mut out = Vec::new();
        let changed = strip(query.as_bytes(), &mut out);
        let bytes = query.as_bytes();
        assert_eq!(changed, found(bytes), "{query}");
        assert!(!changed || may_strip(bytes), "{query}");
        if !query.contains('&') {
            assert_eq!(may_strip_single(bytes), may_strip(bytes), "{query}");
        }
        if changed {
            String::from_utf8(out).unwrap()
        } else {
            query.to_owned()
        }
    }

    #[test]
    fn strips_wherever_an_id_starts() {
        assert_eq!(stripped(&format!("id=7;jsessionid={ID}")), "id=7;");
        assert_eq!(stripped(&format!("xsid={ID}&b=2")), "xb=2");
        assert_eq!(stripped(&format!("a=1&SID={ID}")), "a=1&");
        assert_eq!(stripped(&format!("a=1&PhpSessId={ID}&b=2")), "a=1&b=2");
        assert_eq!(stripped(&format!("jsessionid={ID}&")), "");
        assert_eq!(stripped(&format!("q=a&sid={ID}&")), "q=a&");
    }

    #[test]
    fn strips_the_last_of_each_kind_once() {
        assert_eq!(
            stripped(&format!("sid={ID}&sid={ID}")),
            format!("sid={ID}&")
        );
        assert_eq!(
            stripped(&format!("sid={ID}&a=1&sid={ID}&b=2")),
            format!("sid={ID}&a=1&b=2")
        );
        // One of each kind: jsessionid's first, then sid's.
        assert_eq!(stripped(&format!("sid={ID}&jsessionid={ID}&x")), "x");
    }

    #[test]
    fn needs_the_exact_length_at_the_end_of_a_piece() {
        for query in [
            format!("jsessionid={ID}0"),
            format!("jsessionid={ID}=x"),
            format!("jsessionid={}", &ID[1..]),
            format!("sid={ID};a"),
            "jsessionid=0123456789ABCDEF0123456789abcde!".to_owned(),
        ] {
            assert_eq!(stripped(&query), query);
        }
    }

    #[test]
    fn asp_and_coldfusion() {
        assert_eq!(
            stripped("ASPSESSIONIDAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM&x"),
            "x"
        );
        assert_eq!(
            stripped("x=1&aspsessionidaqbsdsrt=eohblbddpfclhkpggklilna1"),
            "x=1&aspsessionidaqbsdsrt=eohblbddpfclhkpggklilna1"
        );
        assert_eq!(stripped("CFID=1&CFTOKEN=2&a=b"), "a=b");
        assert_eq!(stripped("a=1&xcfid=1&cftoken=2"), "a=1&x");
        assert_eq!(stripped("cfid=a=b&cftoken=c=d"), "");
        // Not adjacent, in the other order, or without a value: kept.
        for query in [
            "cfid=1&x=2&cftoken=3",
            "cftoken=1&cfid=2",
            "cfid=&cftoken=1",
            "cfid=1&cftoken=",
        ] {
            assert_eq!(stripped(query), query);
        }
        // The last `cfid=` that has a value.
        assert_eq!(stripped("cfid=1cfid=&cftoken=2"), "");
        assert_eq!(stripped("a=cfid=1cfid=2&cftoken=2"), "a=cfid=1");
    }

    /// The surt package's regexes on 2,000 queries of random pieces
    /// (tests/data/surt/session-ids.tsv, see its README.md).
    #[test]
    fn strips_what_the_surt_package_strips() {
        let cases = include_str!("../../../../tests/data/surt/session-ids.tsv");
        let mut changed = 0;
        for line in cases.lines() {
            let (query, expected) = line.split_once('\t').expect("QUERY<TAB>STRIPPED");
            assert_eq!(stripped(query), expected, "{query}");
            changed += usize::from(query != expected);
        }
        assert!(cases.lines().count() == 2000 && changed > 1000, "{changed}");
    }

    #[test]
    fn pieces_run_backwards() {
        let all: Vec<_> = pieces_rev(b"a&&bc&").collect();
        assert_eq!(all, [(6, 6), (3, 5), (2, 2), (0, 1)]);
        assert_eq!(pieces_rev(b"").collect::<Vec<_>>(), [(0, 0)]);
    }
}
