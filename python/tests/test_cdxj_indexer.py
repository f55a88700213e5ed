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
