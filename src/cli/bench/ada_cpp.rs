//! ada's own C++ entry points, through src/cli/bench/ada_shim.cpp (built
//! by build.rs when a C++ compiler is found): one foreign call per pass
//! over the lines, the loop in C++ as in ada's benchmarks.

use std::ffi::c_char;

use super::{Corpus, Parser, Tally};

/// One line for C++: `normurl_span` in ada_shim.cpp.
#[repr(C)]
pub(super) struct Span {
    ptr: *const c_char,
    len: usize,
}

extern "C" {
    fn normurl_ada_parse_hrefs(lines: *const Span, n: usize, valid: *mut usize) -> usize;
    fn normurl_ada_can_parse(lines: *const Span, n: usize) -> usize;
}

pub(super) fn parsers() -> [Parser; 2] {
    [
        ("ada C++ url_aggregator", parse_hrefs),
        ("ada C++ can_parse", can_parse),
    ]
}

/// The lines as spans; they borrow from `lines`, which outlive them in
/// [`Corpus`].
pub(super) fn spans(lines: &[&str]) -> Vec<Span> {
    lines
        .iter()
        .map(|l| Span {
            ptr: l.as_ptr().cast(),
            len: l.len(),
        })
        .collect()
}

fn parse_hrefs(corpus: &Corpus) -> Tally {
    let mut valid = 0;
    // SAFETY: the spans point into the corpus's text, alive for the call;
    // the shim only reads `n` of them and writes `valid`.
    let href_bytes =
        unsafe { normurl_ada_parse_hrefs(corpus.spans.as_ptr(), corpus.spans.len(), &mut valid) };
    Tally {
        valid: valid as u64,
        href_bytes: Some(href_bytes as u64),
    }
}

fn can_parse(corpus: &Corpus) -> Tally {
    // SAFETY: as in `parse_hrefs`.
    let valid = unsafe { normurl_ada_can_parse(corpus.spans.as_ptr(), corpus.spans.len()) };
    Tally {
        valid: valid as u64,
        href_bytes: None,
    }
}
