"""The domain components against tldextract on the corpora's hosts
(docs/python.md has the table): `registered_domain` is tldextract's
`include_psl_private_domains=True`, but for the PSL's `*` rule (a host
under no listed suffix); `url_host_registered_domain` is its default.

tldextract never fetches the list here: `suffix_list_urls=()` makes it
read the snapshot it ships (`tldextract/.tld_set_snapshot`, whose
VERSION line dates it). normurl is compared twice: with that same file
(`psl=`), where only the semantics can differ, and with its own bundled
list (crates/normurl-canon/src/psl/public_suffix_list.dat, `BUNDLED_DATE`), where every
difference must come from a rule that one list has and the other lacks.
"""

import encodings.idna
from pathlib import Path

import pyarrow as pa
import pytest
import tldextract

import normurl
from conftest import CORPORA, ROOT, read_lines

SNAPSHOT = Path(tldextract.__file__).parent / ".tld_set_snapshot"
BUNDLED = ROOT / "crates" / "normurl-canon" / "src" / "psl" / "public_suffix_list.dat"


@pytest.fixture(scope="module")
def hosts():
    """The distinct domain hosts of the corpora's URLs."""
    lines = [l for path in CORPORA for l in read_lines(path)]
    parts = normurl.components(pa.array(lines))
    pairs = zip(parts.field("hostname").to_pylist(), parts.field("host_type").to_pylist())
    found = sorted({h for h, kind in pairs if kind == "domain"})
    assert len(found) > 10000
    return found


def extractor(private):
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=private)


def tldextract_domains(hosts, private):
    extract = extractor(private)
    return [extract(h).top_domain_under_public_suffix or None for h in hosts]


def normurl_domains(hosts, get, psl=None):
    return normurl.normalize(pa.array(["http://" + h + "/" for h in hosts]), get=get, psl=psl).to_pylist()


def unlisted(host):
    """Whether tldextract finds no listed suffix for `host`: the PSL's
    `*` rule then makes its last label the public suffix."""
    return extractor(True)(host).suffix == ""


def last_two_labels(host):
    return ".".join(host.rstrip(".").split(".")[-2:])


def test_snapshot_is_the_one_used():
    version = [l for l in SNAPSHOT.read_text().splitlines() if l.startswith("// VERSION:")]
    assert version, "tldextract's snapshot names its PSL version"


def test_default_equals_url_host_registered_domain(hosts):
    # The ICANN section only: the same on the same list, and with each
    # side's own list.
    expected = tldextract_domains(hosts, private=False)
    assert normurl_domains(hosts, "url_host_registered_domain", psl=SNAPSHOT) == expected
    assert normurl_domains(hosts, "url_host_registered_domain") == expected


def test_private_domains_equal_url_host_private_domain(hosts):
    expected = tldextract_domains(hosts, private=True)
    assert normurl_domains(hosts, "url_host_private_domain", psl=SNAPSHOT) == expected


def test_private_domains_equal_registered_domain_but_the_star_rule(hosts):
    expected = tldextract_domains(hosts, private=True)
    got = normurl_domains(hosts, "registered_domain", psl=SNAPSHOT)
    differ = [(h, g, e) for h, g, e in zip(hosts, got, expected) if g != e]
    # Hosts under no listed suffix (`a.example`, `.eslintrc.js`): the
    # PSL's `*` rule gives them a registered domain, tldextract none.
    assert differ, "the corpora have hosts under unlisted suffixes"
    for host, mine, theirs in differ:
        assert unlisted(host) and theirs is None and mine == last_two_labels(host), host


def rules(path):
    """The rules of a list in the PSL format, their labels in ASCII."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        try:
            found.add(".".join(encodings.idna.ToASCII(l).decode() if l not in ("*",) and not l.startswith("!") else l for l in line.split(".")))
        except UnicodeError:
            found.add(line)
    return found


def test_bundled_lists_differ_only_by_their_rules(hosts):
    theirs, mine = rules(SNAPSHOT), rules(BUNDLED)
    changed = theirs ^ mine
    expected = tldextract_domains(hosts, private=True)
    got = normurl_domains(hosts, "registered_domain")
    skew = []
    for host, g, e in zip(hosts, got, expected):
        if g == e or (unlisted(host) and e is None and g == last_two_labels(host)):
            continue
        labels = host.split(".")
        suffixes = {".".join(labels[i:]) for i in range(len(labels))}
        candidates = suffixes | {"!" + s for s in suffixes} | {"*." + s for s in suffixes}
        # A difference that no rule change explains would be a bug.
        assert candidates & changed, (host, g, e)
        skew.append(host)
    # The lists' dates differ: the skew is listed in docs/python.md.
    assert len(skew) < 20, skew
