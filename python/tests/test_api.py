"""The Python API: input types, nulls, results, components, Normalizer,
threads, and the errors (with the command's messages)."""

import pyarrow as pa
import pytest

import normurl
from conftest import mixed_lines, run_command

URLS = [
    "HTTP://Example.COM/a/../b",
    None,
    "not a url",
    "",
    "https://www.example.com/a/?utm_source=x&b=2&a=1#top",
    "http://line\nbreak.example/",
    "https://xn--bcher-kva.de/ü",
]
WHATWG = [
    "http://example.com/b",
    None,
    None,
    None,
    "https://www.example.com/a/?utm_source=x&b=2&a=1#top",
    None,
    "https://xn--bcher-kva.de/%C3%BC",
]


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string(), pa.string_view()])
def test_string_types_give_the_same_type_back(kind):
    # pyarrow in, pyarrow out, of the input's string type.
    result = normurl.normalize(pa.array(URLS, type=kind))
    assert isinstance(result, pa.Array)
    assert result.type == kind
    assert result.to_pylist() == WHATWG
    assert (len(result), result.null_count) == (7, 4)
    # The native module gives its Array, which pyarrow takes.
    native = normurl._native.normalize(pa.array(URLS, type=kind))
    assert isinstance(native, normurl.Array)
    assert pa.array(native).type == kind and native.to_pylist() == WHATWG
    assert (len(native), native.null_count) == (7, 4)


def test_chunked_and_sliced_inputs():
    chunked = pa.chunked_array([URLS[:3], URLS[3:], []], type=pa.string())
    assert normurl.normalize(chunked).to_pylist() == WHATWG
    sliced = pa.array(["x"] + URLS)[1:]
    assert normurl.normalize(sliced).to_pylist() == WHATWG
    assert isinstance(normurl.normalize(chunked), pa.ChunkedArray)
    empty = normurl.normalize(pa.chunked_array([], type=pa.string_view()))
    assert isinstance(empty, pa.ChunkedArray)
    assert (len(empty), empty.type) == (0, pa.string_view())


def test_all_null_column():
    # pyarrow gives a list of None the null type.
    result = normurl.normalize(pa.array([None, None]))
    assert result.to_pylist() == [None, None] and result.type == pa.string()


def test_lists_give_lists():
    assert normurl.normalize(URLS) == WHATWG
    assert normurl.normalize(tuple(URLS)) == WHATWG
    assert normurl.normalize([]) == []
    # A lone surrogate cannot be UTF-8: no line of the command holds one.
    assert normurl.normalize(["http://a.example/\ud800"]) == [None]


def test_long_strings_in_views():
    # string_view keeps strings of up to 12 bytes in the view itself.
    urls = ["http://a.b/", "http://a.bc/", "http://a.example/" + "x" * 100] * 3
    result = pa.array(normurl.normalize(pa.array(urls, type=pa.string_view())))
    assert result.to_pylist() == urls


def test_results_are_shared_not_copied():
    result = normurl.normalize(pa.array(["http://a.example/x"] * 3))
    first, second = pa.array(result), pa.array(result)
    # Both imports point at the one buffer normurl built.
    assert first.buffers()[2].address == second.buffers()[2].address


def test_threads_give_the_same_answer():
    lines = mixed_lines(count=40_000)
    array = pa.array(lines)
    one = normurl.normalize(array, profile="aggressive").to_pylist()
    assert normurl.normalize(array, profile="aggressive", threads=2).to_pylist() == one
    assert normurl.normalize(array, profile="aggressive", threads=0).to_pylist() == one
    assert normurl.normalize(lines, profile="aggressive", threads=3) == one
    keys = normurl.key_hash(array).to_pylist()
    assert normurl.key_hash(array, threads=2).to_pylist() == keys
    comps = normurl.components(array).to_pylist()
    assert normurl.components(array, threads=2).to_pylist() == comps


def test_components_exact():
    [c] = normurl.components(["HTTPS://u:p@WWW.Example.com:8443/a/../b?q=1#f"])
    expected = {
        "href": "https://u:p@www.example.com:8443/b?q=1#f",
        "protocol": "https:",
        "scheme": "https",
        "username": "u",
        "password": "p",
        "host": "www.example.com:8443",
        "hostname": "www.example.com",
        "port": "8443",
        "pathname": "/b",
        "search": "?q=1",
        "hash": "#f",
        "origin": "https://www.example.com:8443",
        "host_type": "domain",
        "public_suffix": "com",
        "registered_domain": "example.com",
        "subdomain": "www",
        "reversed_host": "com,example,www",
        # The SURT is the CDX key (the wayback rules on top of the
        # profile's), as the command's --get surt without a profile.
        "surt": "com,example:8443)/b?q=1",
        "url_surtkey": "com,example:8443)/b?q=1",
        "url_host_tld": "com",
        "url_host_registered_domain": "example.com",
        "url_host_name_reversed": "com.example.www",
        "url_port": "8443",
        "url_query": "q=1",
    }
    assert {k: c[k] for k in expected} == expected
    assert list(c) == list(normurl.COMPONENTS)
    [ip, opaque, bad, null] = normurl.components(["http://1.2.3.4/", "mailto:a@b", "nope", None])
    # A component the URL does not have is None (the command writes an
    # empty line).
    assert (ip["host_type"], ip["registered_domain"], ip["surt"]) == ("ipv4", None, "4,3,2,1)/")
    assert (opaque["hostname"], opaque["pathname"], opaque["origin"]) == (None, "a@b", "null")
    assert bad is None and null is None


@pytest.mark.parametrize("profile", [None, "aggressive", "wayback"])
def test_components_equal_normalize_get(profile):
    lines = mixed_lines(count=3000)
    table = pa.array(normurl.components(pa.array(lines), profile=profile))
    assert table.type.num_fields == len(normurl.COMPONENTS)
    canonical = normurl.normalize(lines, profile=profile)
    for name in normurl.COMPONENTS:
        column = table.field(name).to_pylist()
        if name in ("surt", "ssurt"):
            # get="surt" and "ssurt" are the canonicalizer's forms; the
            # components are those keys of the canonical URL (the SURT
            # the CDX key: the wayback rules on top of the profile's).
            assert column == normurl.normalize(canonical, get=name), name
        else:
            assert column == normurl.normalize(lines, profile=profile, get=name), name
    assert table.null_count == normurl.normalize(pa.array(lines), profile=profile).null_count


def test_components_of_the_canonical_url():
    [c] = normurl.components(["https://www.Example.com/a/?utm_source=x#top"], profile="aggressive")
    assert (c["hostname"], c["pathname"], c["search"], c["hash"]) == ("example.com", "/a", None, None)
    assert c["surt"] == "com,example)/a"


def test_normalizer():
    n = normurl.Normalizer(profile="aggressive", get="url")
    lines = mixed_lines(count=500)
    batch = n.normalize(lines)
    assert [n.normalize_one(l) for l in lines] == batch
    assert n.normalize_one("nope") is None
    assert n.key_hash(lines) == normurl.key_hash(lines, profile="aggressive")
    assert n.components(lines) == normurl.components(lines, profile="aggressive")
    assert repr(n) == 'normurl.Normalizer(profile="aggressive", get="url", rules=None, base=None, default_scheme=None)'
    assert normurl.Normalizer(get="hostname").normalize_one("http://WWW.A.example:81/") == "www.a.example"


def test_default_scheme():
    n = normurl.Normalizer(default_scheme="http")
    assert n.normalize_one("www.Example.com/a b") == "http://www.example.com/a%20b"
    assert n.normalize_one("  example.com") == "http://example.com/"
    assert n.normalize_one("mailto:x@y") == "mailto:x@y"
    assert normurl.normalize(["example.com/x"], default_scheme="HTTPS", profile="aggressive") == ["https://example.com/x"]
    assert normurl.normalize(["example.com/x"]) == [None]
    with pytest.raises(ValueError, match="not a URL scheme"):
        normurl.Normalizer(default_scheme="1http")
    with pytest.raises(ValueError, match="cannot be used with base"):
        normurl.Normalizer(default_scheme="http", base="http://a/")


def command_error(binary, args):
    """The command's message for a usage error, without `normurl: `."""
    done = run_command(binary, args, check=False)
    assert done.returncode == 2
    message = done.stderr.decode().strip()
    assert message.startswith("normurl: ")
    return message[len("normurl: ") :]


@pytest.mark.parametrize(
    "kwargs, args",
    [
        ({"profile": "agressive"}, ["--profile", "agressive"]),
        ({"rules": "+strip-www,-nope"}, ["--rules=+strip-www,-nope"]),
        ({"strip_params": "a,*"}, ["--strip-params", "a,*"]),
        ({"base": "not a base"}, ["--base", "not a base"]),
        ({"base": "http://[::1"}, ["--base", "http://[::1"]),
    ],
)
def test_errors_carry_the_commands_message(normurl_bin, kwargs, args):
    # The command's hint for a relative --base names its --relative, which
    # the package does not have.
    expected = command_error(normurl_bin, args).split(" (it is a relative reference")[0]
    for call in (
        lambda: normurl.normalize([], **kwargs),
        lambda: normurl.key_hash(pa.array([], pa.string()), **kwargs),
        lambda: normurl.Normalizer(**kwargs),
    ):
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == expected


def test_strip_params_file_errors(normurl_bin, tmp_path):
    missing = tmp_path / "missing.txt"
    expected = command_error(normurl_bin, ["--strip-params", f"@{missing}"])
    with pytest.raises(OSError) as e:
        normurl.normalize([], strip_params=f"@{missing}")
    assert str(e.value) == expected
    with pytest.raises(TypeError, match="strip_params"):
        normurl.normalize([], strip_params=3)


def test_get_errors():
    with pytest.raises(ValueError) as e:
        normurl.normalize([], get="nope")
    assert str(e.value).startswith('--get: unknown output form "nope"; the forms are: url, surt, ssurt, href')
    # Names are the command's, lowercase.
    with pytest.raises(ValueError, match="unknown output form"):
        normurl.Normalizer(get="URL")


@pytest.mark.parametrize(
    "urls, needle",
    [
        (pa.array([1, 2]), "got int64"),
        (pa.array([1.5]), "got double"),
        (pa.array([1, 2]).dictionary_encode(), "got dictionary<values=int64, indices=int32, ordered=0>"),
        (pa.record_batch({"url": ["http://a/"]}), "got struct<url: string>"),
        (pa.array([[1]]), "got list<item: int64>"),
        ("http://a/", "got one str"),
        ({"http://a/"}, "got set"),
        (42, "got int"),
    ],
)
def test_non_string_input_is_a_type_error(urls, needle):
    with pytest.raises(TypeError) as e:
        normurl.normalize(urls)
    assert needle in str(e.value)
    assert str(e.value).startswith("urls: expected strings")


def test_list_items_must_be_str_or_none():
    with pytest.raises(TypeError, match=r"urls\[1\]: expected str or None, got bytes"):
        normurl.normalize(["http://a/", b"http://b/"])


def test_array_repr_and_type():
    keys = normurl._native.key_hash(pa.array(["http://a/", None]))
    assert keys.type == "fixed_size_binary[16]"
    assert repr(keys) == "<normurl.Array of 2 fixed_size_binary[16] (1 null)>"
    assert keys.to_pylist()[1] is None and len(keys.to_pylist()[0]) == 16


def view(data: bytes, buffer=0, offset=0):
    """A string_view view: inline up to 12 bytes, else a prefix and where."""
    n = len(data)
    if n <= 12:
        return n.to_bytes(4, "little") + data.ljust(12, b"\0")
    return n.to_bytes(4, "little") + data[:4] + buffer.to_bytes(4, "little") + offset.to_bytes(4, "little")


def view_array(views, data):
    return pa.Array.from_buffers(pa.string_view(), len(views), [None, pa.py_buffer(b"".join(views)), pa.py_buffer(data)])


def test_views_checked_before_they_are_read():
    url = b"http://views.example/path"
    # Bytes no view points at need not be UTF-8.
    data = b"\xff\xfe" + url + b"\xff"
    ok = view_array([view(url, 0, 2), view(b"http://a.b/")], data)
    assert normurl.normalize(ok).to_pylist() == [url.decode(), "http://a.b/"]
    for views, data in [
        ([view(url, 0, 2)], b"\xff\xfe" + url[:-1]),  # past the end
        ([view(url, 1, 0)], url),  # no such buffer
        ([view(b"http://\xe9/")], b"ok"),  # not UTF-8, inline
        ([view(b"http://\xff.example/x")], b"http://\xff.example/x"),  # not UTF-8
        ([view(b"\xa9.example/x/yz", 0, 1)], b"\xc3\xa9.example/x/yz"),  # starts inside a character
    ]:
        with pytest.raises(ValueError, match="urls: invalid Arrow data"):
            normurl.normalize(view_array(views, data))


def test_invalid_utf8_string_array():
    bad = pa.Array.from_buffers(pa.string(), 1, [None, pa.py_buffer(b"\0\0\0\0\x03\0\0\0"), pa.py_buffer(b"a\xffb")])
    with pytest.raises(ValueError, match="urls: invalid Arrow data"):
        normurl.normalize(bad)


def test_normalizer_pickles(tmp_path):
    import pickle

    params = tmp_path / "params.txt"
    params.write_text("ref\n")
    n = normurl.Normalizer(profile="aggressive", get="surt", rules="-strip-www", strip_params=f"@{params}")
    urls = ["https://www.example.com/a/?ref=1&b=2#x", "nope"]
    expected = n.normalize(urls)
    assert expected == ["com,example,www)/a?b=2", None]
    params.unlink()  # the copy holds the names, not the file's name
    copy = pickle.loads(pickle.dumps(n))
    assert copy.normalize(urls) == expected
    assert repr(copy) == repr(n)
    base = normurl.Normalizer(base="http://a.example/dir/", default_scheme=None)
    assert pickle.loads(pickle.dumps(base)).normalize_one("x") == "http://a.example/dir/x"


def test_errors_in_the_commands_order(normurl_bin, tmp_path):
    # A bad rule and a missing list file: the command names the rule.
    missing = f"@{tmp_path / 'missing.txt'}"
    expected = command_error(normurl_bin, ["--rules", "+nope", "--strip-params", missing])
    with pytest.raises(ValueError) as e:
        normurl.Normalizer(rules="+nope", strip_params=missing)
    assert str(e.value) == expected


def test_batches_release_the_gil():
    # A Python thread counts while normalize works on a large Arrow array.
    # It gives the GIL back after every step (sleep(0)), so it counts
    # exactly when the main thread does not hold the GIL: with the GIL held
    # for the whole call, it could not count at all during it.
    import threading
    import time

    urls = pa.array([f"HTTP://Example.COM/{i}/../a?b={i}&a=1#x" for i in range(300_000)])
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0)

    thread = threading.Thread(target=count)
    thread.start()
    try:
        before = counter[0]
        out = normurl.normalize(urls, profile="aggressive", threads=1)
        during = counter[0] - before
    finally:
        stop.set()
        thread.join()
    assert len(out) == len(urls)
    # Held for the whole call, it would count a handful of steps at most
    # (at the call's two ends); how many more it counts when the GIL is
    # free depends on the machine's load, so the bar is low.
    assert during > 100, f"the counting thread ran {during} steps during the call"


def bad_rule_files(tmp_path):
    files = {
        "redirects": "t.example.com /out\n",
        "param_rules": "a.com strip x\na.com frob y\n",
        "rewrite": "s|a|b|\ntest https://a.com/ https://a.com/\n",
    }
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / f"bad-{name}.txt"
        paths[name].write_text(text)
    return paths


def test_rule_option_errors_are_the_commands(normurl_bin, tmp_path):
    bad = bad_rule_files(tmp_path)
    missing = tmp_path / "missing.txt"
    for kwargs, args, error in [
        ({"keep_params": "a,*"}, ["--keep-params", "a,*"], ValueError),
        ({"keep_params": ["a", "*"]}, ["--keep-params", "a,*"], ValueError),
        ({"index_files": "a/b.html"}, ["--index-files", "a/b.html"], ValueError),
        ({"redirects": bad["redirects"]}, ["--redirects", str(bad["redirects"])], ValueError),
        ({"param_rules": str(bad["param_rules"])}, ["--param-rules", str(bad["param_rules"])], ValueError),
        ({"rewrite": bad["rewrite"]}, ["--rewrite", str(bad["rewrite"])], ValueError),
        ({"keep_params": f"@{missing}"}, ["--keep-params", f"@{missing}"], OSError),
        ({"index_files": f"@{missing}"}, ["--index-files", f"@{missing}"], OSError),
        ({"redirects": [missing]}, ["--redirects", str(missing)], OSError),
        ({"param_rules": missing}, ["--param-rules", str(missing)], OSError),
        ({"rewrite": missing}, ["--rewrite", str(missing)], OSError),
        # The command's order: a bad rule before any file is read ...
        ({"rules": "+nope", "param_rules": missing}, ["--param-rules", str(missing), "--rules", "+nope"], ValueError),
        # ... the lists before the files, the canonicalizer's before --rewrite.
        ({"keep_params": "*", "redirects": missing}, ["--redirects", str(missing), "--keep-params", "*"], ValueError),
        ({"param_rules": bad["param_rules"], "rewrite": missing}, ["--rewrite", str(missing), "--param-rules", str(bad["param_rules"])], ValueError),
    ]:
        expected = command_error(normurl_bin, args)
        for call in (
            lambda: normurl.normalize([], **kwargs),
            lambda: normurl.components([], **kwargs),
            lambda: normurl.Normalizer(**kwargs),
        ):
            with pytest.raises(error) as e:
                call()
            assert type(e.value) is error, kwargs
            assert str(e.value) == expected


def test_query_separators_errors():
    with pytest.raises(ValueError) as e:
        normurl.Normalizer(query_separators=",")
    # The command's message, which its argument parser words differently.
    assert str(e.value) == '--query-separators: ",": the separators are &, &; or ;'


def test_rule_option_type_errors(tmp_path):
    for kwargs, needle in [
        ({"keep_params": 3}, "keep_params: expected a str"),
        ({"index_files": [1]}, "index_files: expected a str"),
        ({"redirects": 3}, "redirects: expected a path (str or os.PathLike), got int"),
        ({"param_rules": [tmp_path, 3]}, "param_rules: expected a path"),
        ({"rewrite": [str(tmp_path)]}, "rewrite: expected a path (str or os.PathLike), got list"),
    ]:
        with pytest.raises(TypeError) as e:
            normurl.Normalizer(**kwargs)
        assert str(e.value).startswith(needle), str(e.value)


def test_rule_options_pickle_without_their_files(tmp_path):
    import pickle

    keep = tmp_path / "keep.txt"
    keep.write_text("# ids\nid\n")
    redirects = tmp_path / "redirects.txt"
    redirects.write_text("t.example.com /out u\n")
    params = tmp_path / "params.txt"
    params.write_text("* strip ref\n")
    rewrite = tmp_path / "rewrite.txt"
    rewrite.write_text("s|^https://m\\.|https://|\ntest https://m.a.com/ https://a.com/\n")
    strip = tmp_path / "strip.txt"
    strip.write_text("x\n")
    n = normurl.Normalizer(
        profile="aggressive",
        strip_params=f"@{strip}",
        keep_params=f"@{keep}",
        index_files=["home.php"],
        query_separators="&;",
        redirects=[redirects],
        param_rules=str(params),
        rewrite=rewrite,
    )
    urls = [
        "https://t.example.com/out?u=https%3A%2F%2Fm.a.com%2Fhome.php%3Fid%3D1%3Bz%3D2%26ref%3D3",
        "https://m.b.com/x/?ref=1&id=2&x=3",
        "http://m.c.com/",
    ]
    expected = n.normalize(urls)
    assert expected == ["https://a.com/?id=1", "https://b.com/x?id=2", "http://m.c.com/"]
    for f in (keep, redirects, params, rewrite, strip):
        f.unlink()
    copy = pickle.loads(pickle.dumps(n))
    assert copy.normalize(urls) == expected
    assert repr(copy) == repr(n)
    assert repr(n) == (
        'normurl.Normalizer(profile="aggressive", get="url", rules=None, base=None, default_scheme=None, '
        f"strip_params={str(f'@{strip}')!r}, keep_params={str(f'@{keep}')!r}, index_files=['home.php'], "
        f'query_separators="&;", redirects=[{redirects!r}], param_rules={str(params)!r}, rewrite={rewrite!r})'
    )
    # Errors keep naming the file after a round trip.
    bad = normurl.Normalizer(get="surt", profile="wayback", rewrite=_surt_rewrite(tmp_path))
    copy = pickle.loads(pickle.dumps(bad))
    with pytest.raises(ValueError, match=r"^components: --rewrite .*surt-rewrite.txt:2: "):
        copy.components(["https://a.com/"])


def _surt_rewrite(tmp_path):
    path = tmp_path / "surt-rewrite.txt"
    path.write_text("s|,m\\)|)|\ntest https://m.a.com/x com,a)/x\n")
    return path


def test_surt_rewrites_and_components(tmp_path):
    # A rewrite of SURT keys: its tests are keys, which components() (URLs)
    # cannot pass; normalize() and key_hash() work.
    n = normurl.Normalizer(get="surt", rewrite=_surt_rewrite(tmp_path))
    assert n.normalize_one("https://m.b.com/y") == "com,b)/y"
    assert len(n.key_hash(["https://m.b.com/y"])[0]) == 16
    with pytest.raises(ValueError) as e:
        n.components(["https://m.b.com/y"])
    assert "surt-rewrite.txt:2: https://m.a.com/x gives" in str(e.value)


# psl=: a list where `b.example` is a public suffix (the bundled list has
# no `example`, whose implicit `*` rule makes `b.example` a registrable
# domain).
PSL = "// a test list\ncom\nb.example\n"


def _psl(tmp_path, text=PSL, name="test.dat"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_psl_gives_the_lists_components(tmp_path):
    path = _psl(tmp_path)
    urls = ["http://a.b.example/x", "http://www.example.com/"]
    assert normurl.normalize(urls, get="registered_domain") == ["b.example", "example.com"]
    # A str or an os.PathLike; each function and the Normalizer.
    for psl in (path, str(path)):
        assert normurl.normalize(urls, get="registered_domain", psl=psl) == ["a.b.example", "example.com"]
        assert normurl.normalize(urls, get="public_suffix", psl=psl) == ["b.example", "com"]
        assert [c["registered_domain"] for c in normurl.components(urls, psl=psl)] == ["a.b.example", "example.com"]
        n = normurl.Normalizer(get="subdomain", psl=psl)
        assert n.normalize_one("http://x.a.b.example/") == "x"
        assert n.normalize(urls) == [None, "www"]
    # key_hash hashes what normalize gives with the list.
    keys = normurl.key_hash(urls, get="registered_domain", psl=path)
    assert keys[0] == normurl.key_hash(["http://q.a.b.example/"], get="registered_domain", psl=path)[0]
    assert keys[0] != normurl.key_hash(urls, get="registered_domain")[0]


def test_psl_is_the_strip_www_guard(tmp_path):
    path = _psl(tmp_path)
    urls = ["https://www.b.example/a", "https://www.c.example/a"]
    assert normurl.normalize(urls, profile="aggressive") == ["https://b.example/a", "https://c.example/a"]
    # www.b.example stays: b.example is a public suffix of the list.
    expected = ["https://www.b.example/a", "https://c.example/a"]
    assert normurl.normalize(urls, profile="aggressive", psl=path) == expected
    n = normurl.Normalizer(profile="aggressive", psl=path)
    assert [n.normalize_one(u) for u in urls] == expected
    # The SURT forms' canonicalizer and components()' too.
    assert normurl.normalize(urls[:1], get="surt", profile="aggressive", psl=path) == ["example,b,www)/a"]
    assert normurl.components(urls, profile="aggressive", psl=path)[0]["hostname"] == "www.b.example"
    assert normurl.normalize(urls, get="hostname", profile="aggressive", psl=path) == ["www.b.example", "c.example"]
    k = normurl.key_hash(urls, profile="aggressive", psl=path)
    assert k == normurl.key_hash(expected, profile="aggressive", psl=path)
    assert k[0] != normurl.key_hash(urls, profile="aggressive")[0]


def test_psl_errors_are_the_commands(normurl_bin, tmp_path):
    bad = _psl(tmp_path, "com\n*x\n", "bad.dat")
    missing = tmp_path / "missing.dat"
    for psl, error in [(bad, ValueError), (missing, OSError)]:
        expected = command_error(normurl_bin, ["--psl", str(psl)])
        for call in (
            lambda: normurl.normalize([], psl=psl),
            lambda: normurl.key_hash([], psl=str(psl)),
            lambda: normurl.components([], psl=psl),
            lambda: normurl.Normalizer(psl=psl),
        ):
            with pytest.raises(error) as e:
                call()
            assert type(e.value) is error
            assert str(e.value) == expected
    assert str(e.value).endswith("missing.dat: No such file or directory (os error 2)")
    with pytest.raises(ValueError) as e:
        normurl.Normalizer(psl=bad)
    assert str(e.value) == f'--psl {bad}: line 2: "*x" is not a rule (a domain name, *.NAME or !NAME)'
    with pytest.raises(TypeError) as e:
        normurl.Normalizer(psl=3)
    assert str(e.value) == "psl: expected a path (str or os.PathLike), got int"


def test_psl_pickles_without_its_file(tmp_path):
    import pickle

    path = _psl(tmp_path)
    n = normurl.Normalizer(profile="aggressive", keep_params=["id"], psl=path)
    urls = ["https://www.b.example/?id=1&x=2", "https://www.c.example/"]
    expected = n.normalize(urls)
    assert expected == ["https://www.b.example/?id=1", "https://c.example/"]
    assert repr(n) == (
        'normurl.Normalizer(profile="aggressive", get="url", rules=None, base=None, '
        f"default_scheme=None, keep_params=['id'], psl={path!r})"
    )
    path.unlink()
    copy = pickle.loads(pickle.dumps(n))
    assert copy.normalize(urls) == expected
    assert copy.components(urls)[0]["public_suffix"] == "b.example"
    assert repr(copy) == repr(n)
    # Without psl= a copy has the bundled list.
    plain = pickle.loads(pickle.dumps(normurl.Normalizer(profile="aggressive")))
    assert plain.normalize(urls) == ["https://b.example/?id=1&x=2", "https://c.example/"]
