/*!
The checks behind normurl's fuzz targets.

Each fuzz target in `fuzz_targets/` is a one-line wrapper around the
`check` function of the module of the same name here. Keeping the checks in
a library lets the main crate's tests run exactly the same code:
`tests/fuzz_regressions.rs` replays every input that once failed (kept in
`tests/data/fuzz-regressions/<target>/`) and a list of hand-picked nasty
inputs, and `tests/robustness.rs` runs the checks on proptest-generated
URLs. Those tests include this file as a module with `#[path]`, so the
modules refer to each other through `super::`, never `crate::`, and this
crate depends on nothing the main crate's tests lack (`normurl`, and `url`
for the differential check).

# Input format

A fuzz input is arbitrary bytes. For the URL targets (all but `pipeline`
and `command`), up to the first `0xFF` byte they are the input string;
after it, the base URL string (see [`Case::from_bytes`]).
`0xFF` never occurs in UTF-8, so the split costs the fuzzer no string it
could otherwise write. Invalid UTF-8 is replaced by U+FFFD, as a caller
decoding bytes lossily would.

For `pipeline` and `command`, the first bytes choose a configuration and
the rest is a file for the pipeline (see their modules): `pipeline` runs the
`normurl` command's transform with the default options, `command` with any
options (field selection, base, canonicalizer, explain, original, rejects,
dedup), both comparing the parallel run with the sequential one.

`warc` reads the bytes as a WARC file (see its module).

Run the targets with `fuzz/run.sh` (see there for the corpus and the
dictionary).
*/

pub mod canon;
pub mod command;
pub mod differential;
pub mod idempotence;
pub mod parse;
pub mod pipeline;
pub mod warc;

use std::fmt::Write as _;

use normurl::Url;

/// The byte that separates the input from the base in a fuzz input.
pub const BASE_SEPARATOR: u8 = 0xFF;

/// One fuzz case: an input string and, optionally, a base URL string.
#[derive(Clone, Debug)]
pub struct Case {
    /// The string to parse.
    pub input: Box<str>,
    /// The string to parse first and use as the base, if any.
    pub base: Option<Box<str>>,
}

impl Case {
    /// Splits `data` at the first [`BASE_SEPARATOR`] into input and base.
    ///
    /// Each string gets an allocation of exactly its length (a `Box<str>`),
    /// so that AddressSanitizer reports any read past its end (the parser
    /// has SSE2 code that loads 16 bytes at a time).
    pub fn from_bytes(data: &[u8]) -> Case {
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned().into_boxed_str();
        match data.iter().position(|&b| b == BASE_SEPARATOR) {
            None => Case {
                input: lossy(data),
                base: None,
            },
            Some(i) => Case {
                input: lossy(&data[..i]),
                base: Some(lossy(&data[i + 1..])),
            },
        }
    }
}

/// Everything a caller can observe of a parsed URL, as one string: the
/// `Debug` form (the href and every component offset) and every getter.
/// Two URLs are interchangeable exactly when their `Components` are equal.
///
/// Computing it also calls every getter, so a getter that panics on some
/// URL is found too.
#[derive(Debug, PartialEq, Eq)]
pub struct Components(pub String);

impl Components {
    /// Records `url`'s offsets and getters.
    pub fn of(url: &Url) -> Components {
        let mut s = format!("{url:?}\n");
        let getters: [(&str, &str); 11] = [
            ("href", url.href()),
            ("protocol", url.protocol()),
            ("username", url.username()),
            ("password", url.password()),
            ("host", url.host()),
            ("hostname", url.hostname()),
            ("port", url.port()),
            ("pathname", url.pathname()),
            ("search", url.search()),
            ("hash", url.hash()),
            ("href_without_fragment", url.href_without_fragment()),
        ];
        for (name, value) in getters {
            let _ = writeln!(s, "{name}: {value:?}");
        }
        let _ = writeln!(s, "origin: {:?}", url.origin());
        let _ = writeln!(s, "scheme: {:?} {:?}", url.scheme(), url.scheme_type());
        let _ = writeln!(s, "host_kind: {:?}", url.host_kind());
        let _ = writeln!(s, "port_number: {:?}", url.port_number());
        let _ = writeln!(s, "query: {:?}", url.query());
        let _ = writeln!(s, "fragment: {:?}", url.fragment());
        let _ = writeln!(s, "has_opaque_path: {:?}", url.has_opaque_path());
        Components(s)
    }
}

/// A temporary file holding a fuzz input, for the targets that run the
/// pipeline on a file; removed on drop. Named by target, process and a
/// counter, so tests running in parallel threads do not share one.
pub struct TempFile(pub std::path::PathBuf);

impl TempFile {
    pub fn new(target: &str, content: &[u8]) -> TempFile {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("normurl-fuzz-{target}-{}-{n}", std::process::id());
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
