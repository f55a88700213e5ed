"""normalize() and key_hash() give the command's answers, byte for byte,
for every profile and output form, on the samples and on mixed lines."""

import pyarrow as pa
import pytest

import normurl
from conftest import (
    CORPORA,
    FORMS,
    PROFILES,
    SAMPLES,
    command_lines,
    read_lines,
    run_command,
)


def command_output(binary, args, path):
    """The command's output lines, invalid lines as None (they are the
    empty lines of --on-invalid=empty: no valid URL's output is empty)."""
    out = run_command(binary, ["--on-invalid=empty", *args, str(path)]).stdout
    return [l.decode("utf-8") or None for l in command_lines(out)]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("form", FORMS)
def test_every_profile_and_form_on_mixed_lines(normurl_bin, mixed_file, profile, form):
    lines = read_lines(mixed_file)
    expected = command_output(normurl_bin, ["--profile", profile, "--get", form], mixed_file)
    got = pa.array(normurl.normalize(pa.array(lines), profile=profile, get=form))
    assert got.to_pylist() == expected
    # Invalid lines are there to be found, not only valid ones.
    assert 0 < got.null_count < len(lines)


@pytest.mark.parametrize("profile", ["whatwg", "aggressive"])
def test_corpora(normurl_bin, profile):
    for path in CORPORA + [SAMPLES / "urls.txt"]:
        expected = command_output(normurl_bin, ["--profile", profile], path)
        got = normurl.normalize(pa.array(read_lines(path)), profile=profile)
        assert pa.array(got).to_pylist() == expected, path.name


@pytest.mark.parametrize("form", ["url", "surt"])
def test_default_profile_follows_the_form(normurl_bin, mixed_file, form):
    # Without --profile the command uses wayback for SURT keys.
    expected = command_output(normurl_bin, ["--get", form], mixed_file)
    got = normurl.normalize(read_lines(mixed_file), get=form)
    assert got == expected


def test_rules_and_strip_params(normurl_bin, mixed_file, tmp_path):
    params = tmp_path / "params.txt"
    params.write_text("# newsletter\nref\n  src_*  \n")
    args = ["--profile", "aggressive", "--rules", "-strip-www,+lowercase-path"]
    lines = read_lines(mixed_file)
    for cli, py in [("ref,src_*", "ref,src_*"), (f"@{params}", f"@{params}")]:
        expected = command_output(normurl_bin, [*args, "--strip-params", cli], mixed_file)
        got = normurl.normalize(
            lines, profile="aggressive", rules="-strip-www,+lowercase-path", strip_params=py
        )
        assert got == expected
    got = normurl.normalize(
        lines,
        profile="aggressive",
        rules="-strip-www,+lowercase-path",
        strip_params=["ref", "src_*"],
    )
    assert got == expected
    # The parameters do something here: without them the answers differ.
    assert got != normurl.normalize(lines, profile="aggressive", rules="-strip-www,+lowercase-path")


def test_base(normurl_bin, tmp_path):
    lines = ["../img/a.png", "b?c#d", "//other.example/x", "http://abs.example/", "", "?q", "#f", "http://[::1"]
    path = tmp_path / "relative.txt"
    path.write_text("".join(l + "\n" for l in lines))
    base = "https://Example.com/dir/sub/page.html"
    for profile in ["whatwg", "aggressive"]:
        expected = command_output(normurl_bin, ["--base", base, "--profile", profile], path)
        got = normurl.normalize(pa.array(lines), base=base, profile=profile)
        assert pa.array(got).to_pylist() == expected
    assert expected[0] == "https://example.com/dir/img/a.png"
    # An empty line is blank for the command, even with a base.
    assert expected[4] is None


def test_line_length_limit_is_the_commands(normurl_bin):
    # The command's default --max-line-bytes is 1 MiB: a longer line is
    # invalid (line-too-long).
    limit = 1 << 20
    lines = ["http://a/" + "x" * (n - 9) for n in (limit, limit + 1)]
    data = "".join(l + "\n" for l in lines).encode()
    expected = [l.decode() or None for l in command_lines(run_command(normurl_bin, ["--on-invalid=empty"], data).stdout)]
    assert normurl.normalize(lines) == expected
    assert expected[0] is not None and expected[1] is None


def python_dedup(keys, values):
    """The first value for each distinct non-null key, in order: what
    `--dedup --on-invalid=skip` writes."""
    seen, out = set(), []
    for key, value in zip(keys, values):
        if key is not None and key not in seen:
            seen.add(key)
            out.append(value)
    return out


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"profile": "aggressive"},
        {"get": "surt"},
        {"profile": "semantic", "get": "ssurt"},
    ],
)
def test_key_hash_dedups_as_the_command(normurl_bin, mixed_file, args):
    cli = []
    if "profile" in args:
        cli += ["--profile", args["profile"]]
    if "get" in args:
        cli += ["--get", args["get"]]
    lines = read_lines(mixed_file)
    keys = normurl.key_hash(pa.array(lines), **args)
    assert pa.array(keys).type == pa.binary(16)
    out = run_command(normurl_bin, ["--dedup", "--on-invalid=skip", *cli, str(mixed_file)]).stdout
    expected = [l.decode() for l in command_lines(out)]
    got = python_dedup(pa.array(keys).to_pylist(), normurl.normalize(lines, **args))
    assert got == expected
    assert len(expected) < len(lines) - pa.array(keys).null_count, "the file has duplicates"
    out = run_command(normurl_bin, ["--dedup", "--on-invalid=skip", "--original", *cli, str(mixed_file)]).stdout
    assert python_dedup(pa.array(keys).to_pylist(), lines) == [l.decode() for l in command_lines(out)]


def murmur3_x64_128(data: bytes) -> bytes:
    """MurmurHash3 x64_128, seed 0: the reference algorithm, as the
    16-byte digest (h1 then h2, little-endian), which mmh3.hash_bytes
    gives."""
    mask = (1 << 64) - 1
    c1, c2 = 0x87C37B91114253D5, 0x4CF5AD432745937F

    def rotl(x, r):
        return ((x << r) | (x >> (64 - r))) & mask

    def fmix(k):
        k ^= k >> 33
        k = (k * 0xFF51AFD7ED558CCD) & mask
        k ^= k >> 33
        k = (k * 0xC4CEB9FE1A85EC53) & mask
        return k ^ (k >> 33)

    h1 = h2 = 0
    n = len(data) // 16
    for i in range(n):
        k1 = int.from_bytes(data[16 * i : 16 * i + 8], "little")
        k2 = int.from_bytes(data[16 * i + 8 : 16 * i + 16], "little")
        h1 ^= (rotl((k1 * c1) & mask, 31) * c2) & mask
        h1 = (rotl(h1, 27) + h2) & mask
        h1 = (h1 * 5 + 0x52DCE729) & mask
        h2 ^= (rotl((k2 * c2) & mask, 33) * c1) & mask
        h2 = (rotl(h2, 31) + h1) & mask
        h2 = (h2 * 5 + 0x38495AB5) & mask
    tail = data[16 * n :]
    k1 = int.from_bytes(tail[:8], "little")
    k2 = int.from_bytes(tail[8:], "little")
    if len(tail) > 8:
        h2 ^= (rotl((k2 * c2) & mask, 33) * c1) & mask
    if tail:
        h1 ^= (rotl((k1 * c1) & mask, 31) * c2) & mask
    h1 ^= len(data)
    h2 ^= len(data)
    h1 = (h1 + h2) & mask
    h2 = (h2 + h1) & mask
    h1, h2 = fmix(h1), fmix(h2)
    h1 = (h1 + h2) & mask
    h2 = (h2 + h1) & mask
    return h1.to_bytes(8, "little") + h2.to_bytes(8, "little")


def test_murmur_reference_known_answer():
    # The library's documented value (crates/normurl-canon/src/hash.rs).
    digest = murmur3_x64_128(b"The quick brown fox jumps over the lazy dog")
    assert int.from_bytes(digest, "little") == 0x7A433CA9C49A9347_E34BBC7BBC071B6C


def test_key_is_the_hash_of_the_normalized_form(mixed_file):
    lines = read_lines(mixed_file)[:2000]
    for args in [{}, {"profile": "aggressive", "get": "surt"}, {"get": "hostname"}]:
        keys = normurl.key_hash(lines, **args)
        values = normurl.normalize(lines, **args)
        assert [k is None for k in keys] == [v is None for v in values]
        assert [k for k in keys if k] == [murmur3_x64_128(v.encode()) for v in values if v is not None]


# Lines the rule options of issue 29 change: a redirector, index files,
# `;` separators, per-domain parameters, a mobile host to rewrite, and one
# the rewrite makes no URL.
RULE_LINES = [
    "https://t.example.com/out?u=https%3A%2F%2Fshop.example%2Fx%2Fhome.php%3Fid%3D1%3Bpage_n%3D2%26ref%3Dy",
    "https://m.shop.example/a/home.php?id=7;sid=3&page_2=x&ref=z",
    "https://www.news.example/story?id=1&utm_source=x&ref=3&keep=1",
    "https://friend.example/?ref=1&x=2",
    "https://m.example.org/index.php?a=1;b=2",
    "http://m.bad.example/",
]


def rule_files(tmp_path):
    """The files of --redirects, --param-rules, --rewrite, and a list."""
    files = {
        "redirects": "# our shortener\nt.example.com /out u\n",
        "param_rules": "* strip ref\nshop.example keep id,page_*\nfriend.example strip\n",
        "rewrite": "# mobile hosts are the same site\n"
        "s|^(https?)://m\\.|$1://|\n"
        "test https://m.a.com/x https://a.com/x\n"
        "s|^http://bad\\.example/$|nope|\n",
        "keep": "# ids\nid\nkeep\n",
    }
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text(text)
    return paths


def rule_lines(mixed_file, tmp_path):
    lines = read_lines(mixed_file)[:1500] + RULE_LINES
    path = tmp_path / "rule-lines.txt"
    path.write_text("".join(l + "\n" for l in lines))
    return lines, path


def single_options(f):
    """(package keyword arguments, command arguments), one option each."""
    return [
        ({"keep_params": "id,page_*"}, ["--keep-params", "id,page_*"]),
        ({"keep_params": ["id", "page_*"]}, ["--keep-params", "id,page_*"]),
        ({"keep_params": f"@{f['keep']}"}, ["--keep-params", f"@{f['keep']}"]),
        ({"index_files": "home.php"}, ["--index-files", "home.php"]),
        ({"index_files": ["home.php"]}, ["--index-files=home.php"]),
        ({"query_separators": "&;"}, ["--query-separators", "&;"]),
        ({"redirects": f["redirects"]}, ["--redirects", str(f["redirects"])]),
        ({"redirects": [str(f["redirects"])]}, ["--redirects", str(f["redirects"])]),
        ({"param_rules": f["param_rules"]}, ["--param-rules", str(f["param_rules"])]),
        ({"rewrite": str(f["rewrite"])}, ["--rewrite", str(f["rewrite"])]),
    ]


def test_each_rule_option_as_the_command(normurl_bin, mixed_file, tmp_path):
    f = rule_files(tmp_path)
    lines, path = rule_lines(mixed_file, tmp_path)
    baseline = normurl.normalize(lines)
    for kwargs, args in single_options(f):
        expected = command_output(normurl_bin, args, path)
        got = normurl.normalize(pa.array(lines), **kwargs)
        assert pa.array(got).to_pylist() == expected, kwargs
        # The option does something on these lines.
        assert expected != baseline, kwargs


# href: a component (of the rewritten URL), never empty (command_output
# reads an empty line as invalid).
@pytest.mark.parametrize("get", ["url", "href", "surt"])
def test_rule_options_together_as_the_command(normurl_bin, mixed_file, tmp_path, get):
    f = rule_files(tmp_path)
    lines, path = rule_lines(mixed_file, tmp_path)
    kwargs = {
        "profile": "aggressive",
        "get": get,
        "rules": "-strip-www",
        "keep_params": ["id", "page_*", "q"],
        "index_files": "home.php",
        "query_separators": "&;",
        "redirects": [f["redirects"]],
        "param_rules": f["param_rules"],
    }
    args = [
        "--profile", "aggressive", "--get", get, "--rules", "-strip-www",
        "--keep-params", "id,page_*,q", "--index-files", "home.php",
        "--query-separators", "&;", "--redirects", str(f["redirects"]),
        "--param-rules", str(f["param_rules"]),
    ]
    if get != "surt":
        # Its tests are URLs: a SURT key is not.
        kwargs["rewrite"] = f["rewrite"]
        args += ["--rewrite", str(f["rewrite"])]
    expected = command_output(normurl_bin, args, path)
    assert normurl.normalize(lines, **kwargs) == expected
    n = normurl.Normalizer(**kwargs)
    assert [n.normalize_one(l) for l in lines] == expected
    # key_hash hashes the same answers; --dedup keeps the same lines.
    keys = normurl.key_hash(pa.array(lines), **kwargs).to_pylist()
    out = run_command(normurl_bin, ["--dedup", "--on-invalid=skip", *args, str(path)]).stdout
    assert python_dedup(keys, expected) == [l.decode() for l in command_lines(out)]


def test_components_of_the_rewritten_url(tmp_path):
    f = rule_files(tmp_path)
    lines = RULE_LINES
    rows = normurl.components(lines, rewrite=f["rewrite"], profile="semantic")
    urls = normurl.normalize(lines, rewrite=f["rewrite"], profile="semantic")
    assert [r and r["href"] for r in rows] == urls
    assert rows[1]["hostname"] == "shop.example"
    assert rows[-1] is None  # rewritten to no URL


def test_duckduckgo_privacy_config(normurl_bin, tmp_path):
    ddg = SAMPLES.parent / "tests" / "data" / "ddg_url_parameters"
    config = ddg / "config_reference.json"
    import json

    tests = json.loads((ddg / "tests.json").read_text())["trackingParameters"]["tests"]
    lines = [t["testURL"] for t in tests]
    path = tmp_path / "ddg.txt"
    path.write_text("".join(l + "\n" for l in lines))
    expected = command_output(normurl_bin, ["--param-rules", str(config)], path)
    assert normurl.normalize(lines, param_rules=config) == expected
    assert expected != lines


# psl=: the command's --psl FILE. A list newer than the bundled one (a
# made-up suffix, a wildcard with an exception) and without `co.uk`, as
# tests/cli_psl.rs's.
PSL = "// a newer list\ncom\nuk\nnewsuffix.example\n*.wild.example\n!www.wild.example\n"
PSL_LINES = [
    "https://www.newsuffix.example/a/?b=1&a=2&utm_source=x",
    "https://user@www.newsuffix.example/a",
    "https://a.b.newsuffix.example/",
    "https://www.www.newsuffix.example/",
    "https://www.x.wild.example/",
    "https://www.www.wild.example/",
    "https://www.co.uk/",
    "https://a.b.co.uk/x",
    "http://a.b.example/",
]


@pytest.mark.parametrize(
    "profile, get",
    [
        ("aggressive", "url"),
        ("aggressive", "surt"),
        ("whatwg", "registered_domain"),
        ("aggressive", "public_suffix"),
        ("semantic", "subdomain"),
    ],
)
def test_psl_as_the_command(normurl_bin, mixed_file, tmp_path, profile, get):
    psl = tmp_path / "new.dat"
    psl.write_text(PSL)
    lines = PSL_LINES + read_lines(mixed_file)[:2000]
    path = tmp_path / "lines.txt"
    path.write_text("".join(l + "\n" for l in lines))
    args = ["--profile", profile, "--get", get, "--psl", str(psl)]
    expected = command_output(normurl_bin, args, path)
    kwargs = {"profile": profile, "get": get, "psl": psl}
    # A component the URL does not have is null, where the command writes
    # an empty line (command_output reads it as None).
    got = normurl.normalize(pa.array(lines), **kwargs).to_pylist()
    assert got == expected
    n = normurl.Normalizer(**kwargs)
    assert [n.normalize_one(l) for l in lines] == expected
    # The list changes these lines' answers.
    bundled = command_output(normurl_bin, ["--profile", profile, "--get", get], path)
    assert expected[: len(PSL_LINES)] != bundled[: len(PSL_LINES)]


def test_psl_components_as_the_command(normurl_bin, tmp_path):
    psl = tmp_path / "new.dat"
    psl.write_text(PSL)
    path = tmp_path / "lines.txt"
    path.write_text("".join(l + "\n" for l in PSL_LINES))
    got = normurl.components(PSL_LINES, profile="aggressive", psl=psl)
    assert got != normurl.components(PSL_LINES, profile="aggressive")
    for name in normurl.COMPONENTS:
        if name in ("surt", "ssurt"):
            # The command's --get surt/ssurt are the canonicalizer's forms,
            # not these components; url_surtkey is the surt component.
            continue
        args = ["--profile", "aggressive", "--get", name, "--psl", str(psl)]
        expected = command_output(normurl_bin, args, path)
        assert [c[name] or None for c in got] == expected, name
