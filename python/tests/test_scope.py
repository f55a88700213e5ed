"""normurl.in_scope: the command's --keep-if/--drop-if as a boolean mask,
with the command's decisions (docs/scope.md)."""

import pyarrow as pa
import pytest

import normurl
from conftest import run_command

URLS = [
    "http://www.example.org/robots.txt",
    "HTTPS://WWW.Example.ORG/docs/a.PDF",
    "http://media.example.org:8080/x",
    "http://notexample.org/",
    "ftp://files.example.org/f",
    "http://[::1/",
    None,
    "https://example.net/private/a",
]

CASES = [
    (["--keep-if", "domain:example.org"], {"keep_if": ["domain:example.org"]}),
    (["--keep-if", "host:www.example.org"], {"keep_if": ["host:www.example.org"]}),
    (["--drop-if", "scheme:ftp"], {"drop_if": ["scheme:ftp"]}),
    (["--keep-if", r"regex:\.pdf$"], {"keep_if": [r"regex:\.pdf$"]}),
    (["--keep-if", "surt:http://(org,example,"], {"keep_if": ["surt:http://(org,example,"]}),
    (["--keep-if", "surt:http://example.org/"], {"keep_if": ["surt:http://example.org/"]}),
    (["--keep-if", "surt:org,example,www)/docs"], {"keep_if": ["surt:org,example,www)/docs"]}),
    (
        ["-p", "aggressive", "--keep-if", "host:example.org"],
        {"keep_if": ["host:example.org"], "profile": "aggressive"},
    ),
    (
        ["--drop-if", "host:www.example.org", "--keep-if", "regex:/docs/"],
        {"scope": [("drop", "host:www.example.org"), ("keep", "regex:/docs/")]},
    ),
    (
        ["--keep-if", "domain:example.org", "--drop-if", "scheme:ftp"],
        {"keep_if": ["domain:example.org"], "drop_if": ["scheme:ftp"]},
    ),
]


def command_mask(normurl_bin, args, urls):
    """The mask the command gives: True for a line it writes, False for
    one it drops, None for a line it keeps without a URL (invalid)."""
    lines = [u for u in urls if u is not None]
    text = "".join(u + "\n" for u in lines).encode()
    written = run_command(normurl_bin, ["--explain", *args], text).stdout.decode()
    out = iter(written.splitlines())
    mask = {}
    row = next(out, None)
    for url in lines:
        # --explain marks a line kept without a URL; a dropped line is
        # missing, the next written line then belongs to a later input.
        canonical = normurl.normalize([url], **normurl_args(args))[0]
        if canonical is None:
            assert row is not None and "\tinvalid:" in row, (url, row)
            mask[url] = None
            row = next(out, None)
        elif row is not None and row.split("\t")[0] == canonical:
            mask[url] = True
            row = next(out, None)
        else:
            mask[url] = False
    assert row is None, row
    return [None if u is None else mask[u] for u in urls]


def normurl_args(args):
    """The profile of the command's arguments, for normurl.normalize."""
    return {"profile": args[args.index("-p") + 1]} if "-p" in args else {}


@pytest.mark.parametrize("args,kwargs", CASES)
def test_mask_is_the_commands_decision(normurl_bin, args, kwargs):
    expected = command_mask(normurl_bin, args, URLS)
    assert normurl.in_scope(URLS, **kwargs) == expected
    # Arrow in, a boolean Arrow array out, the same decisions.
    for kind in [pa.string(), pa.large_string(), pa.string_view()]:
        got = pa.array(normurl.in_scope(pa.array(URLS, type=kind), **kwargs))
        assert got.type == pa.bool_()
        assert got.to_pylist() == expected


def test_defaults_and_order():
    urls = ["http://a.example/", "http://b.example/"]
    assert normurl.in_scope(urls) == [True, True]
    assert normurl.in_scope(urls, keep_if=["host:nowhere.example"]) == [False, False]
    assert normurl.in_scope(urls, drop_if=["host:a.example"]) == [False, True]
    assert normurl.in_scope(
        urls, scope=[("drop", "host:a.example"), ("keep", "scheme:http")]
    ) == [True, True]
    assert normurl.in_scope(
        urls, scope=[("keep", "scheme:http"), ("drop", "host:a.example")]
    ) == [False, True]
    assert normurl.in_scope(pa.array([None, None], type=pa.null())).to_pylist() == [None, None]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"keep_if": ["nope:x"]}, "unknown kind"),
        ({"drop_if": ["regex:("]}, "regex:("),
        ({"keep_if": ["domain:"]}, "needs a value"),
        ({"scope": [("maybe", "host:a")]}, "unknown action"),
        ({"profile": "nope"}, "profile"),
    ],
)
def test_bad_rules_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        normurl.in_scope(["http://a.example/"], **kwargs)
