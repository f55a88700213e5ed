"""Calls of every function, method and argument of the stubs
(normurl/__init__.pyi), checked with `mypy --strict` by test_typing.py,
which also runs them."""

import os
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow as pa

import normurl


def calls(tmp: Path) -> None:
    params = tmp / "params.txt"
    params.write_text("ref\n")
    urls: list[str | None] = ["HTTP://www.Example.com/a?ref=1&b=2", None, "nope"]
    strings: list[str | None] = normurl.normalize(
        urls,
        "aggressive",
        "url",
        "+sort-query",
        None,
        None,
        ["utm_*"],
        -1,
        keep_params=None,
        index_files=["index.html"],
        query_separators="&;",
        redirects=None,
        param_rules=None,
        rewrite=None,
        psl=None,
        invalid_utf8="replace",
    )
    assert strings[0] == "http://example.com/a?b=2&ref=1"
    keys: list[bytes | None] = normurl.key_hash(urls, profile="wayback", get="surt", strip_params=f"@{params}")
    assert keys[1] is None
    parts: list[normurl.Components | None] = normurl.components(urls, profile="normalize-url", threads=0)
    first = parts[0]
    assert first is not None and first["hostname"] == "example.com"
    domain: normurl.Get = "registered_domain"
    for name in normurl.COMPONENTS:
        assert len(normurl.normalize(urls, get=name)) == 3
    arrow = normurl.normalize(pa.array(urls), get=domain)
    assert arrow.to_pylist()[0] == "example.com"
    series: pl.Series = normurl.normalize(pl.Series("u", urls))
    assert series.name == "u"
    frame: pd.DataFrame = normurl.components(pd.Series(urls))
    assert len(frame) == 3
    n = normurl.Normalizer(
        profile="safe-browsing",
        get="url",
        rules=None,
        base="http://base.example/",
        default_scheme=None,
        strip_params="a,b",
        keep_params=None,
        index_files=None,
        query_separators=None,
        redirects=None,
        param_rules=None,
        rewrite=None,
        psl=os.fspath(tmp / "missing.dat") if False else None,
        invalid_utf8="percent",
    )
    one: str | None = n.normalize_one("x")
    assert one == "http://base.example/x"
    assert n.normalize_one(None) is None and n.normalize_one(b"/y") == "http://base.example/y"
    key: bytes | None = n.key_hash_one("x")
    assert key is not None and len(key) == 16
    comps: normurl.Components | None = n.components_one("x")
    assert comps is not None and comps["pathname"] == "/x"
    listed: list[str | None] = n.normalize(urls, threads=2)
    assert len(listed) == 3 and len(n.key_hash(urls)) == 3 and len(n.components(urls)) == 3
    assert n == normurl.Normalizer(profile="safe-browsing", base="http://base.example/", strip_params=["a", "b"])
    assert len({n, normurl.Normalizer()}) == 2
    # The command's per-line options: base and charset per row, resolve,
    # explain.
    bases: list[str | None] = ["http://a.example/p/q", None, "-"]
    resolved: list[str | None] = normurl.normalize(
        ["../x", "http://b.example/", "y"], base=bases, resolve="legacy", charset=["shift_jis", None, "bogus"]
    )
    assert resolved == ["http://a.example/x", "http://b.example/", None]
    explained: list[normurl.Explained] = normurl.normalize(urls, profile="aggressive", explain=True)
    assert explained[1] == (None, None)
    mode: normurl.Resolve = "generic"
    m = normurl.Normalizer(base="http://a.example/b/c", resolve=mode)
    assert m.normalize(["http:g"]) == ["http://g/"]
    rows: list[normurl.Explained] = m.normalize(["x"], base=["http://c.example/"], charset=[None], explain=True)
    assert rows == [("http://c.example/x", [])]
    assert len(m.key_hash(["x"], base=pa.array(["http://c.example/"]), charset=None)) == 1
    assert len(m.components(pl.Series(["x"]), base=pl.Series(["http://c.example/"]))) == 1
    policy: normurl.InvalidUtf8 = "reject"
    profile: normurl.Profile = "w3lib"
    assert normurl.normalize(pa.array([b"\xff"]), invalid_utf8=policy, profile=profile).to_pylist() == [None]
    edited: list[str | None] = normurl.normalize(
        urls,
        get="{query:b}",
        set={"scheme": "https", "hash": None, "port": 8080},
        append=[("query", "c=3"), ("path", "x")],
        set_params={"b": "4", "page": 2},
        delete_params=["ref", "utm_*"],
    )
    assert edited[0] == "4"
    setters: dict[str, str | int | None] = {"search": ""}
    e = normurl.Normalizer(set=setters, append={"path": "y"}, set_params=[("a", "1")], delete_params="a")
    assert e.normalize_one("http://a.example/?q") == "http://a.example/y"
    assert normurl.key_hash(urls, set=[("port", "")])[1] is None
    assert normurl.components(urls, delete_params="ref")[1] is None
    # Both: per-row bases, resolve and explain with the edits.
    both: list[normurl.Explained] = normurl.normalize(
        ["../x"], base=["http://a.example/p/q"], resolve="generic", explain=True, set={"hash": "h"}
    )
    assert both == [("http://a.example/x#h", ["edit"])]
    f = normurl.Normalizer(resolve="legacy", set_params={"a": "1"})
    assert f.normalize(["b"], base=["http://a.example/"]) == ["http://a.example/b?a=1"]
