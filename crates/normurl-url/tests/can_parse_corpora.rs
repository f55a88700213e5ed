//! `Url::can_parse` against `Url::parse` on every line of the four URL
//! corpora (samples/corpora, whose sources and licences samples/README.md
//! gives) and on mutations of every line that move what `can_parse`'s
//! validate-only path reads: the scheme, the slashes, the userinfo, the
//! host's bytes and last label, the port, tabs and newlines, and a base.

use normurl_url::Url;

fn corpus(name: &str) -> String {
    let path = format!(
        "{}/../../samples/corpora/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let text = String::from_utf8(bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned()
}

/// What `can_parse(input, base)` must say: what parsing says.
fn parses(input: &str, base: Option<&str>) -> bool {
    match base {
        None => Url::parse(input).is_ok(),
        Some(base) => Url::parse(base).is_ok_and(|b| Url::parse_with_base(input, &b).is_ok()),
    }
}

/// Bytes put into a host, one per line in turn: each class the host
/// parser and the validate-only path tell apart.
const HOST_BYTES: [&str; 24] = [
    "A", "z", "0", "9", "-", ".", "_", "~", "!", "%", "%41", "[", "]", " ", "\t", "\n", "<", "^",
    "|", "\u{1}", "\u{7f}", "é", ":", "@",
];

/// Replacements for a whole host.
const HOSTS: [&str; 14] = [
    "",
    "1.2.3.4",
    "1.2.3.256",
    "0x7f.1",
    "a.0x",
    "a.0xg",
    "a.09",
    "a.1b",
    "4294967296",
    "xn--nxasmq6b",
    "C:",
    "c|",
    "localhost",
    "[::1]",
];

/// Ports appended to the host.
const PORTS: [&str; 12] = [
    ":", ":0", ":80", ":443", ":00080", ":65535", ":065535", ":65536", ":123456", ":8o", ":8\t0",
    ": 1",
];

/// Userinfo put before the host.
const USERINFO: [&str; 6] = ["u@", "u:p@", "@", "a@b@", "u\t@", "é:%@"];

/// The mutations of one line: `n` picks which bytes, hosts, ports and
/// userinfo this line gets, so that over the corpus each is tried at many
/// positions and on many shapes of URL.
fn mutations(line: &str, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let Some(colon) = line.find(':') else {
        out.push(format!("http://{line}"));
        return out;
    };
    let (scheme, rest) = (&line[..colon], &line[colon + 1..]);
    out.push(format!("{}:{rest}", scheme.to_ascii_uppercase()));
    if let Some((i, _)) = scheme.char_indices().last() {
        out.push(format!("{}\t{}:{rest}", &scheme[..i], &scheme[i..]));
    }
    out.push(format!("{scheme}:{}", rest.trim_start_matches('/')));
    out.push(format!("{scheme}:\\\\{}", rest.trim_start_matches('/')));
    out.push(format!("{scheme}:/\t{}", rest.trim_start_matches('/')));
    // The authority: after the slashes, up to `/`, `\`, `?`, `#`.
    let slashes = rest.len() - rest.trim_start_matches(['/', '\\']).len();
    let start = colon + 1 + slashes;
    let end = line[start..]
        .find(['/', '\\', '?', '#'])
        .map_or(line.len(), |i| start + i);
    let (head, host, tail) = (&line[..start], &line[start..end], &line[end..]);
    let pick = |list: &[&'static str], k: usize| list[(n + k) % list.len()];
    let byte = pick(&HOST_BYTES, 0);
    let at = host
        .char_indices()
        .map(|(i, _)| i)
        .chain([host.len()])
        .nth(n / HOST_BYTES.len() % (host.len() + 1))
        .unwrap_or(host.len());
    out.push(format!("{head}{}{byte}{}{tail}", &host[..at], &host[at..]));
    out.push(format!("{head}{host}{byte}{tail}"));
    out.push(format!("{head}{byte}{host}{tail}"));
    // The last label.
    let last = host.rfind('.').map_or(0, |i| i + 1);
    out.push(format!("{head}{}{}{tail}", &host[..last], pick(&HOSTS, 1)));
    out.push(format!("{head}{}{tail}", pick(&HOSTS, 2)));
    out.push(format!("{head}{host}{}{tail}", pick(&PORTS, 3)));
    out.push(format!("{head}{}{host}{tail}", pick(&USERINFO, 4)));
    out.push(format!(
        "{head}{}{host}{}{tail}",
        pick(&USERINFO, 5),
        pick(&PORTS, 6)
    ));
    out.push(format!(" {line}\u{1}"));
    out
}

#[test]
fn can_parse_agrees_with_parse_on_the_corpora_and_their_mutations() {
    let mut checked = 0;
    let mut valid = 0;
    let mut lines = 0;
    for name in [
        "weburls.txt",
        "kasztp.txt",
        "node_files.txt",
        "isaacs_files.txt",
    ] {
        let text = corpus(name);
        for (n, line) in text.lines().enumerate() {
            lines += 1;
            let expected = parses(line, None);
            assert_eq!(Url::can_parse(line, None), expected, "canParse({line:?})");
            // The line as a base, and a base for the line.
            assert_eq!(
                Url::can_parse("x", Some(line)),
                parses("x", Some(line)),
                "canParse(\"x\", {line:?})"
            );
            let base = ["http://b/", "file:///b", "sc:b"][n % 3];
            assert_eq!(
                Url::can_parse(line, Some(base)),
                parses(line, Some(base)),
                "canParse({line:?}, {base:?})"
            );
            for input in mutations(line, n) {
                let expected = parses(&input, None);
                assert_eq!(
                    Url::can_parse(&input, None),
                    expected,
                    "canParse({input:?}), a mutation of {line:?}"
                );
                checked += 1;
                valid += usize::from(expected);
            }
        }
    }
    assert!(lines > 150_000, "{lines} lines");
    // The mutations make valid and invalid URLs both.
    assert!(
        valid > checked / 4 && valid < checked * 9 / 10,
        "{valid} of {checked} valid"
    );
}
