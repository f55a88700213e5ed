"""`normurl warc --cdxj` and `--cdx` write what pywb's cdxj-indexer
(pinned in requirements-test.txt) writes, byte for byte: on the hand-made
WARC and ARC files of tests/data/warc (scripts/make-warc-samples.py),
Common Crawl's sample WARC, and WARCs that warcio's own writer makes here
(every record type, gzip and plain, digests as warcio computes them).
docs/warc.md lists where the two differ on purpose (ARC version 2, and
records on which the tool stops).
"""

import io
import subprocess
import sys

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from conftest import ROOT

DATA = ROOT / "tests" / "data"
SAMPLES = [
    DATA / "warc" / "records.warc",
    DATA / "warc" / "records.warc.gz",
    DATA / "warc" / "hand-v1.arc",
    DATA / "warc" / "hand-v1.arc.gz",
    DATA / "formats" / "whirlwind.warc.gz",
]
# Without the revisit that has no digest, on which `cdxj-indexer -11` stops.
CDX11_SAMPLES = [
    DATA / "warc" / "records-11.warc",
    DATA / "warc" / "records-11.warc.gz",
    DATA / "warc" / "hand-v1.arc",
    DATA / "warc" / "hand-v1.arc.gz",
    DATA / "formats" / "whirlwind.warc.gz",
]


def cdxj_indexer(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "cdxj_indexer.main", *map(str, args)],
        check=True,
        capture_output=True,
        cwd=cwd,
    ).stdout


def normurl(binary, *args):
    ran = subprocess.run(
        [str(binary), "warc", *map(str, args)], capture_output=True
    )
    assert ran.returncode == 0, ran.stderr.decode()
    return ran.stdout


def warcio_warc(path, gzip):
    """A WARC that warcio writes: a warcinfo, a response and its request, a
    revisit, a resource, a metadata record, a 404 with a chunked body."""
    with open(path, "wb") as out:
        w = WARCWriter(out, gzip=gzip)
        w.write_record(w.create_warcinfo_record(path.name, {"software": "warcio"}))
        pages = [
            ("http://www.example.com/page?z=1&a=2", "200 OK", b"<html>one</html>", []),
            ("https://example.org/%7Euser/", "404 Not Found", b"nope", []),
            (
                "http://example.net/chunked",
                "200 OK",
                b"5\r\nhello\r\n0\r\n\r\n",
                [("Transfer-Encoding", "chunked")],
            ),
        ]
        for i, (url, status, body, extra) in enumerate(pages):
            date = "2024-03-0%dT01:02:03Z" % (i + 1)
            head = StatusAndHeaders(
                status,
                [("Content-Type", "text/html; charset=utf-8"), *extra],
                protocol="HTTP/1.1",
            )
            resp = w.create_warc_record(
                url,
                "response",
                payload=io.BytesIO(body),
                http_headers=head,
                warc_headers_dict={"WARC-Date": date},
            )
            req_head = StatusAndHeaders(
                "GET / HTTP/1.1", [("Host", "example")], is_http_request=True
            )
            req = w.create_warc_record(
                url,
                "request",
                payload=io.BytesIO(b""),
                http_headers=req_head,
                warc_headers_dict={"WARC-Date": date},
            )
            w.write_request_response_pair(req, resp)
            revisit = w.create_revisit_record(
                url,
                resp.rec_headers.get_header("WARC-Payload-Digest"),
                url,
                date,
                http_headers=head,
            )
            w.write_record(revisit)
        w.write_record(
            w.create_warc_record(
                "http://example.com/res.txt",
                "resource",
                payload=io.BytesIO(b"resource text"),
                warc_content_type="text/plain",
            )
        )
        w.write_record(
            w.create_warc_record(
                "http://example.com/res.txt",
                "metadata",
                payload=io.BytesIO(b'{"k": "v"}'),
                warc_content_type="application/json",
            )
        )


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_cdxj_as_cdxj_indexer(sample, normurl_bin):
    assert normurl(normurl_bin, "--cdxj", sample) == cdxj_indexer(sample)


@pytest.mark.parametrize("sample", CDX11_SAMPLES, ids=lambda p: p.name)
def test_cdx_as_cdxj_indexer_11(sample, normurl_bin):
    assert normurl(normurl_bin, "--cdx", sample) == cdxj_indexer("-11", sample)


def test_several_files_and_record_types(normurl_bin):
    files = [DATA / "warc" / "records.warc.gz", DATA / "warc" / "hand-v1.arc"]
    assert normurl(normurl_bin, "--cdxj", *files) == cdxj_indexer(*files)
    for records in ["request", "response,request,conversion", "metadata"]:
        ours = normurl(normurl_bin, "--cdxj", "--records", records, *files)
        assert ours == cdxj_indexer("--records", records, *files), records


@pytest.mark.parametrize("gzip", [True, False], ids=["gzip", "plain"])
def test_warcio_written(gzip, normurl_bin, tmp_path):
    path = tmp_path / ("w.warc.gz" if gzip else "w.warc")
    warcio_warc(path, gzip)
    expected = cdxj_indexer(path)
    assert expected.count(b"\n") == 8
    assert normurl(normurl_bin, "--cdxj", path) == expected
    assert normurl(normurl_bin, "--cdx", path) == cdxj_indexer("-11", path)
    all_records = ["--records", "response,revisit,request,resource,metadata"]
    assert normurl(normurl_bin, "--cdxj", *all_records, path) == cdxj_indexer(
        *all_records, path
    )


def test_sample_script_output_is_the_tools(normurl_bin, tmp_path):
    """The samples made afresh (and the tool's output for them, which the
    script writes next to them) match the committed ones."""
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make-warc-samples.py"), str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for made in sorted(tmp_path.iterdir()):
        assert made.read_bytes() == (DATA / "warc" / made.name).read_bytes(), made.name


# --sort (cdxj-indexer -s): one sorted index of all the files, a line the
# same as the one before it written once.


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sort_as_cdxj_indexer(sample, normurl_bin):
    assert normurl(normurl_bin, "--cdxj", "--sort", sample) == cdxj_indexer("-s", sample)


@pytest.mark.parametrize("sample", CDX11_SAMPLES, ids=lambda p: p.name)
def test_sort_cdx_as_cdxj_indexer(sample, normurl_bin):
    ours = normurl(normurl_bin, "--cdx", "--sort", sample)
    assert ours == cdxj_indexer("-11", "-s", sample)


def test_sort_several_files(normurl_bin):
    files = [*SAMPLES, SAMPLES[0]]
    assert normurl(normurl_bin, "--cdxj", "--sort", *files) == cdxj_indexer("-s", *files)
    files = CDX11_SAMPLES
    ours = normurl(normurl_bin, "--cdx", "--sort", *files)
    assert ours == cdxj_indexer("-11", "-s", *files)


def many_records_warc(path, n):
    """A gzip WARC of `n` responses that warcio writes, in an order far
    from sorted, with URLs that give keys of many shapes."""
    words = ["a", "%C3%A9t%C3%A9", "Z", "%E6%97%A5", "b-c", "_x", "~y", "0"]
    with open(path, "wb") as out:
        w = WARCWriter(out, gzip=True)
        for i in range(n):
            k = (i * 7919) % 997
            url = "http://www.site%d.example/%s/%s?q=%d&a=%s" % (
                k % 13,
                words[k % len(words)],
                words[(k // 7) % len(words)],
                k,
                words[(k // 3) % len(words)],
            )
            head = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            w.write_record(
                w.create_warc_record(
                    url,
                    "response",
                    payload=io.BytesIO(b"body %d" % k),
                    http_headers=head,
                    warc_headers_dict={"WARC-Date": "2024-01-%02dT00:00:%02dZ" % (1 + i % 28, i % 60)},
                )
            )


def test_sort_many_records_and_spilled(normurl_bin, tmp_path):
    path = tmp_path / "many.warc.gz"
    many_records_warc(path, 3000)
    expected = cdxj_indexer("-s", path)
    assert expected.count(b"\n") > 2000
    assert normurl(normurl_bin, "--cdxj", "--sort", path) == expected
    # Sorted in runs on disk and merged: the same bytes.
    spill = tmp_path / "spill"
    spill.mkdir()
    ours = normurl(normurl_bin, "--cdxj", "--sort", "--sort-memory", "4K", "-T", spill, path)
    assert ours == expected
    assert list(spill.iterdir()) == []
    assert normurl(normurl_bin, "--cdx", "--sort", path) == cdxj_indexer("-11", "-s", path)


def test_sort_order_is_pythons_on_non_ascii(normurl_bin, tmp_path):
    """Non-ASCII in the lines (a CDX url field, the key of a URI that does
    not parse): cdxj-indexer sorts by code point, normurl by UTF-8 bytes,
    the same order."""
    path = tmp_path / "non-ascii.warc"
    urls = [
        "http://example.com/\u00e9",
        "http://example.com/\u65e5\u672c",
        "http://example.com/\U0001f600",
        "http://example.com/\uff21",
        "http://example.com/Z",
        "http://exa mple.com/\u00fc",
        "http://exa mple.com/\U0001f600",
        "http://exa mple.com/\u65e5",
    ]
    with open(path, "wb") as out:
        w = WARCWriter(out, gzip=False)
        for url in urls:
            head = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")], protocol="HTTP/1.1")
            w.write_record(
                w.create_warc_record(url, "response", payload=io.BytesIO(b"x"), http_headers=head)
            )
    tool_unsorted = cdxj_indexer("-11", path).decode().splitlines(keepends=True)
    tool_sorted = cdxj_indexer("-11", "-s", path).decode()
    assert tool_sorted == "".join(sorted(set(tool_unsorted)))
    ours_unsorted = normurl(normurl_bin, "--cdx", path)
    ours_sorted = normurl(normurl_bin, "--cdx", "--sort", path)
    lines = ours_unsorted.splitlines(keepends=True)
    assert ours_sorted == b"".join(sorted(set(lines)))
    # Where the two tools write the same lines, the same sorted file.
    if sorted(tool_unsorted) == sorted(l.decode() for l in lines):
        assert ours_sorted.decode() == tool_sorted


# --post-append (cdxj-indexer -p): POST and PUT bodies in the urlkey.

POST = [DATA / "warc" / "post.warc", DATA / "warc" / "post.warc.gz"]


@pytest.mark.parametrize("sample", POST, ids=lambda p: p.name)
def test_post_append_as_cdxj_indexer(sample, normurl_bin):
    assert normurl(normurl_bin, "--cdxj", "--post-append", sample) == cdxj_indexer("-p", sample)
    args = ["--records", "all"]
    ours = normurl(normurl_bin, "--cdxj", "--post-append", *args, sample)
    assert ours == cdxj_indexer("-p", *args, sample)
    ours = normurl(normurl_bin, "--cdx", "--post-append", sample)
    assert ours == cdxj_indexer("-p", "-11", sample)
    ours = normurl(normurl_bin, "--cdxj", "--post-append", "--sort", sample)
    assert ours == cdxj_indexer("-p", "-s", sample)


def post_warc(path, bodies):
    """A WARC that warcio writes: for each (method, content type, body), a
    response and its request as warcio pairs them (the request after, its
    WARC-Concurrent-To the response's id)."""
    with open(path, "wb") as out:
        w = WARCWriter(out, gzip=True)
        for i, (method, ctype, body) in enumerate(bodies):
            url = "http://example.com/p%d" % (i % 5) + ("?x=%d" % i if i % 3 == 0 else "")
            head = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            resp = w.create_warc_record(
                url, "response", payload=io.BytesIO(b"ok %d" % i), http_headers=head
            )
            headers = [("Host", "example.com"), ("Content-Length", str(len(body)))]
            if ctype is not None:
                headers.append(("Content-Type", ctype))
            req_head = StatusAndHeaders(
                "%s /p HTTP/1.1" % method, headers, is_http_request=True
            )
            req = w.create_warc_record(
                url, "request", payload=io.BytesIO(body), http_headers=req_head
            )
            w.write_request_response_pair(req, resp)


def test_post_append_generated(normurl_bin, tmp_path):
    import json as json_module
    import random

    rng = random.Random(47)
    form_chars = "abcXYZ019-_.~=&+%"
    bodies = []
    for i in range(120):
        kind = i % 6
        if kind == 0:
            text = "".join(rng.choice(form_chars) for _ in range(rng.randrange(0, 40)))
            bodies.append(("POST", "application/x-www-form-urlencoded", text.encode()))
        elif kind == 1:
            doc = {
                "id": rng.randrange(-5, 10**6),
                "score": rng.choice([0.5, 1e21, 3.25e-7, 12.0, -0.0]),
                "ok": rng.choice([True, False, None]),
                "tags": ["t%d" % rng.randrange(9) for _ in range(rng.randrange(4))],
                "nested": {"id": "n%d" % i, "list": [{"id": j} for j in range(2)]},
            }
            bodies.append(("POST", "application/json", json_module.dumps(doc).encode()))
        elif kind == 2:
            parts = b""
            for j in range(rng.randrange(1, 4)):
                parts += b"--BOUNDARY\r\nContent-Disposition: form-data; name=\"f%d\"\r\n\r\nv%d w\r\n" % (j, rng.randrange(99))
            parts += b"--BOUNDARY--\r\n"
            bodies.append(("POST", "multipart/form-data; boundary=BOUNDARY", parts))
        elif kind == 3:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
            bodies.append(("PUT", "application/octet-stream", data))
        elif kind == 4:
            bodies.append(("POST", None, b""))
        else:
            bodies.append(("POST", "text/plain", rng.choice([b"plain words", b'{"k": [1, 2]}', b""])))
    path = tmp_path / "post.warc.gz"
    post_warc(path, bodies)
    expected = cdxj_indexer("-p", path)
    assert expected.count(b"__wb_method=") >= 120
    assert normurl(normurl_bin, "--cdxj", "--post-append", path) == expected
    args = ["--records", "response,request"]
    assert normurl(normurl_bin, "--cdxj", "--post-append", *args, path) == cdxj_indexer(
        "-p", *args, path
    )


def test_dir_root(normurl_bin, tmp_path):
    sub = tmp_path / "crawl" / "2024"
    sub.mkdir(parents=True)
    (tmp_path / "other").mkdir()
    files = []
    for sample in SAMPLES[:2]:
        target = sub / sample.name
        target.write_bytes(sample.read_bytes())
        files.append(target)
    for root in [tmp_path, tmp_path / "other", sub]:
        ours = normurl(normurl_bin, "--cdxj", "--dir-root", root, *files)
        assert ours == cdxj_indexer("--dir-root", root, *files), root
    # Relative to the working directory.
    ran = subprocess.run(
        [str(normurl_bin), "warc", "--cdxj", "--dir-root", ".", "2024/" + files[0].name],
        capture_output=True,
        cwd=tmp_path / "crawl",
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == cdxj_indexer(
        "--dir-root", ".", "2024/" + files[0].name, cwd=tmp_path / "crawl"
    )
