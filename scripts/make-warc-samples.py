#!/usr/bin/env python3
"""Writes the small WARC and ARC files of tests/data/warc, written by hand
(no library) so that every byte is chosen: every record type, chunked and
gzip-encoded HTTP bodies, revisits with and without an HTTP head, records
with and without WARC-Payload-Digest, and odd headers (a `<...>` target
URI, a space in it, no Content-Type, a status line without a reason, a
head without the blank line that ends it, ISO-8859-1 bytes, duplicate
fields, a dns: record). Each file is written plain and gzipped (one
member per record, mtime 0, so the bytes are the same on every run).

With pywb's cdxj-indexer importable (pip install cdxj-indexer==1.5.0, as
python/requirements-test.txt pins it), it also writes what that tool
makes of each file (not hand-v2.arc*: warcio reads only version 1
header lines) as NAME.cdxj and NAME.cdx (its -11), which
tests/cli_warc_index.rs compares `normurl warc --cdxj`/`--cdx` with, so
that the comparison runs without Python; python/tests/test_cdxj_indexer.py
runs the tool itself.

    python3 scripts/make-warc-samples.py [DIR]     # default tests/data/warc
"""

import base64
import gzip
import hashlib
import io
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def gz(data):
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, compresslevel=6) as f:
        f.write(data)
    return out.getvalue()


def warc_record(headers, block, version=b"WARC/1.0"):
    head = version + b"\r\n"
    for name, value in headers:
        head += name.encode() + b": " + (value if isinstance(value, bytes) else value.encode()) + b"\r\n"
    head += b"Content-Length: %d\r\n\r\n" % len(block)
    return head + block + b"\r\n\r\n"


def http_response(status, headers, body):
    head = status + b"\r\n"
    for h in headers:
        head += h + b"\r\n"
    return head + b"\r\n" + body


def chunked(body, size=7):
    out = b""
    for i in range(0, len(body), size):
        piece = body[i : i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def rid(n):
    return "<urn:uuid:00000000-0000-4000-8000-%012d>" % n


DATE = "2024-05-18T10:11:12Z"


def warc_records(for_cdx11=False):
    """The records of records.warc; `for_cdx11` leaves out the revisit
    without a payload digest, on which cdxj-indexer -11 stops (it splits
    the digest it does not have)."""
    html = b"<html><body>hello</body></html>"
    gzipped = zlib.compress(html)
    records = []

    def add(kind, uri, block, extra=(), n=None, date=DATE):
        headers = [("WARC-Type", kind), ("WARC-Record-ID", rid(len(records) + 1))]
        if date is not None:
            headers.append(("WARC-Date", date))
        if uri is not None:
            headers.append(("WARC-Target-URI", uri))
        headers.extend(extra)
        records.append(warc_record(headers, block))

    add("warcinfo", None, b"software: hand\r\nformat: WARC File Format 1.0\r\n",
        [("Content-Type", "application/warc-fields")])
    ok = http_response(b"HTTP/1.1 200 OK", [b"Content-Type: text/html; charset=utf-8"], html)
    add("response", "http://www.Example.com/a?b=2&a=1", ok,
        [("Content-Type", "application/http; msgtype=response"),
         ("WARC-Payload-Digest", "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")])
    add("request", "http://www.Example.com/a?b=2&a=1",
        b"GET /a?b=2&a=1 HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: x\r\n\r\n",
        [("Content-Type", "application/http; msgtype=request"),
         ("WARC-Concurrent-To", rid(2))])
    # No payload digest: the tools hash the payload as it is in the record.
    add("response", "https://example.com/chunked",
        http_response(b"HTTP/1.1 200 OK",
                      [b"Content-Type: text/plain", b"Transfer-Encoding: chunked"],
                      chunked(html)))
    add("response", "https://example.com/gzip",
        http_response(b"HTTP/1.1 200 OK",
                      [b"content-type:application/octet-stream", b"Content-Encoding: deflate"],
                      gzipped))
    add("revisit", "http://www.example.com/a?a=1&b=2",
        http_response(b"HTTP/1.1 304 Not Modified", [b"Content-Type: text/html"], b""),
        [("WARC-Profile", "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"),
         ("WARC-Refers-To", rid(2)),
         ("WARC-Payload-Digest", "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")])
    add("revisit", "http://example.com/empty-revisit", b"",
        [("WARC-Profile", "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"),
         ("WARC-Payload-Digest", "sha1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB")])
    if not for_cdx11:
        add("revisit", "http://example.com/revisit-no-digest",
            http_response(b"HTTP/1.0 200 OK", [], b""))
    add("resource", "http://example.com/note.txt", b"plain text\n",
        [("Content-Type", "text/plain;charset=us-ascii")])
    add("resource", "urn:x-test:thing", b"no http here",
        [("Content-Type", "text/plain")])
    add("metadata", "http://www.Example.com/a?b=2&a=1", b"outlink: http://x.example/\r\n",
        [("Content-Type", "application/warc-fields"), ("WARC-Concurrent-To", rid(2))])
    add("metadata", "http://example.com/meta.json", b'{"a": 1}',
        [("Content-Type", "application/json")])
    add("conversion", "http://example.com/doc.pdf", b"converted text",
        [("Content-Type", "text/plain")])
    # Odd headers.
    add("response", "<http://example.com/bracketed>",
        http_response(b"HTTP/1.1 301", [b"Location: /x", b"Content-type: text/html"], b"moved"))
    add("response", "http://example.com/a space/é",
        http_response(b"HTTP/1.1 200 OK", [b"Content-Type: text/plain"], b"x"))
    add("response", "http://example.com/no-type",
        http_response(b"HTTP/1.1 404 Not Found", [b"Server: hand"], b"missing"))
    add("response", "http://example.com/no-blank-line",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
    add("response", "http://example.com/latin1",
        http_response(b"HTTP/1.1 200 \xc9t\xe9", [b"Content-Type: text/html; charset=\xe9"], b"\xe9"))
    add("response", "http://example.com/folded",
        http_response(b"HTTP/1.1 200 OK",
                      [b"Content-Type:", b"  text/css", b"Content-Type: text/html"], b"a{}"))
    add("response", "http://example.com/empty", b"",
        [("Content-Type", "application/http; msgtype=response")])
    add("response", "dns:example.com", b"20240518101112\nexample.com. 300 IN A 192.0.2.1\n",
        [("Content-Type", "text/dns")])
    add("response", "http://example.com/blank-status",
        b"\r\nContent-Type: text/html\r\n\r\nbody")
    add("response", "HTTP://EXAMPLE.COM:80/Upper/../Case/?%7Ex=%41",
        http_response(b"HTTP/1.1 200 OK", [b"CONTENT-TYPE: Text/HTML"], b"up"),
        [("warc-payload-digest", "sha1:CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"),
         ("WARC-Payload-Digest", "sha1:DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD")])
    add("response", "http://example.com/fraction",
        http_response(b"HTTP/1.1 200 OK", [b"Content-Type: text/html"], b"f"),
        date="2024-05-18T10:11:12.123456Z")
    return records


def post_records():
    """Requests with bodies and their responses, for --post-append (pywb's
    `cdxj-indexer -p`): a body of each kind pywb reads (form-encoded,
    JSON, JSON lines, text/plain, multipart with a file, binary), empty,
    large, chunked, without or with a bad Content-Length, PUT, GET, a
    lowercase method, a URL with a query, the request before or after its
    response, and a request not next to its response."""
    records = []
    html = http_response(b"HTTP/1.1 200 OK", [b"Content-Type: text/html"], b"<p>ok</p>")

    def rec(kind, uri, block, extra=(), digest=True):
        n = len(records) + 1
        headers = [("WARC-Type", kind), ("WARC-Record-ID", rid(100 + n)),
                   ("WARC-Date", "2024-06-0%dT00:00:00Z" % (1 + n % 9)),
                   ("WARC-Target-URI", uri)]
        if digest:
            # The payload's digest, as crawlers write it: with -p,
            # cdxj-indexer hashes nothing for a record without one (it has
            # read the record's content before), where normurl hashes the
            # payload (docs/warc.md), so the file has them all.
            payload = block.split(b"\r\n\r\n", 1)[-1] if kind != "metadata" else block
            digest = base64.b32encode(hashlib.sha1(payload).digest()).decode()
            headers.append(("WARC-Payload-Digest", "sha1:" + digest))
        headers.extend(extra)
        records.append(warc_record(headers, block))
        return rid(100 + n)

    def request(method, uri, headers, body, length=True):
        path = uri.split("/", 3)[3] if uri.count("/") >= 3 else ""
        head = [b"Host: example.com"] + headers
        if length:
            head.append(b"Content-Length: %d" % len(body))
        return http_response(method + b" /" + path.encode() + b" HTTP/1.1", head, body)

    def pair(uri, method, headers, body, request_first=False, length=True):
        req = request(method, uri, headers, body, length)
        app = [("Content-Type", "application/http; msgtype=request")]
        if request_first:
            first = rec("request", uri, req, app)
            rec("response", uri, html, [("WARC-Concurrent-To", first)])
        else:
            first = rec("response", uri, html)
            rec("request", uri, req, app + [("WARC-Concurrent-To", first)])

    form = [b"Content-Type: application/x-www-form-urlencoded"]
    json_type = [b"Content-Type: application/json"]
    pair("http://example.com/form", b"POST", form, b"user=jo+ann&pass=%C3%A9t%C3%A9&x=%zz")
    pair("http://example.com/form2", b"POST", form, b"a=1&b=2", request_first=True)
    pair("http://example.com/search?q=x", b"POST", form, b"page=2")
    pair("http://example.com/json", b"POST", json_type,
         b'{"a": 1, "b": [true, null, 1.5e20, 0.00001, "x y"], "c": {"a": "z"}, "d": -0, "": 3}')
    pair("http://example.com/jsonl", b"POST", [b"Content-Type: application/json; charset=utf-8"],
         b'{"k": "v1"}\n{"k": "v2", "n": 12345678901234567890}')
    pair("http://example.com/badjson", b"POST", json_type, b"{not json")
    pair("http://example.com/text-json", b"POST", [b"Content-Type: text/plain"], b'["a", {"t": 2.50}]')
    pair("http://example.com/text", b"POST", [b"Content-Type: text/plain;charset=UTF-8"], b"just words")
    multipart = (b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nmy file\r\n"
                 b"--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\n"
                 b"Content-Type: application/octet-stream\r\n\r\n\x00\x01\xff\r\n--XyZ--\r\n")
    pair("http://example.com/upload", b"POST", [b"Content-Type: multipart/form-data; boundary=XyZ"],
         multipart)
    pair("http://example.com/multipart-no-boundary", b"POST",
         [b"Content-Type: multipart/form-data"], multipart)
    pair("http://example.com/bin", b"POST", [b"Content-Type: application/octet-stream"],
         bytes(range(256)))
    pair("http://example.com/no-type", b"POST", [], b"raw body")
    pair("http://example.com/empty", b"POST", form, b"")
    pair("http://example.com/large", b"POST", form,
         b"&".join(b"field%d=value%d" % (i, i) for i in range(1500)))
    pair("http://example.com/chunked", b"POST", form + [b"Transfer-Encoding: chunked"],
         chunked(b"a=1&b=two+words"), length=False)
    pair("http://example.com/no-length", b"POST", [b"Content-Type: application/octet-stream"],
         b"x" * 10000, length=False)
    pair("http://example.com/bad-length", b"POST", form + [b"Content-Length: many"], b"a=1",
         length=False)
    pair("http://example.com/put", b"PUT", json_type, b'{"id": 7, "tags": ["a", "b"]}')
    pair("http://example.com/get", b"GET", [], b"")
    pair("http://example.com/lower", b"post", form, b"a=1")
    # A request whose response is not the record next to it: no pair.
    first = rec("response", "http://example.com/apart", html)
    rec("metadata", "http://example.com/apart", b"via: x\r\n", [("Content-Type", "text/plain")])
    rec("request", "http://example.com/apart",
        request(b"POST", "http://example.com/apart", form, b"a=1"),
        [("WARC-Concurrent-To", first)])
    return records


def arc_file(version):
    """An ARC file of `version` (1 or 2): its version block and three
    records (a page, a URL with a space, a dns: record)."""
    name = b"IAH-20060519043512-00000-hand.arc"
    if version == 1:
        spec = b"1 0 Internet Archive\nURL IP-address Archive-date Content-type Archive-length\n"
    else:
        spec = (b"2 0 Internet Archive\nURL IP-address Archive-date Content-type "
                b"Result-code Checksum Location Offset Filename Archive-length\n")
    meta = b'<?xml version="1.0" encoding="UTF-8"?>\n<arcmetadata/>\n'
    desc_block = spec + b"\n" + meta
    desc = b"filedesc://%s 0.0.0.0 20060519043512 text/plain %d\n" % (name, len(desc_block))
    records = [desc + desc_block + b"\n"]
    pages = [
        (b"http://www.example.com/", b"192.0.2.1", b"20060519043513", b"text/html",
         http_response(b"HTTP/1.1 200 OK", [b"Content-Type: text/html; charset=iso-8859-1"],
                       b"<html>arc</html>")),
        (b"http://example.com/a b", b"192.0.2.2", b"20060519043514", b"text/plain",
         http_response(b"HTTP/1.0 404 Not Found", [b"Content-Type: text/plain"], b"no")),
        (b"dns:example.com", b"192.0.2.3", b"20060519043515", b"text/dns",
         b"20060519043515\nexample.com. 300 IN A 192.0.2.1\n"),
    ]
    for url, ip, date, mime, block in pages:
        if version == 1:
            line = b" ".join([url, ip, date, mime, b"%d" % len(block)])
        else:
            line = b" ".join([url, ip, date, mime, b"200", b"-", b"-", b"0", name,
                              b"%d" % len(block)])
        records.append(line + b"\n" + block + b"\n")
    return records


def write(directory, name, records):
    (directory / name).write_bytes(b"".join(records))
    (directory / (name + ".gz")).write_bytes(b"".join(gz(r) for r in records))


def main():
    directory = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests/data/warc"
    directory.mkdir(parents=True, exist_ok=True)
    write(directory, "records.warc", warc_records())
    write(directory, "records-11.warc", warc_records(for_cdx11=True))
    write(directory, "hand-v1.arc", arc_file(1))
    write(directory, "hand-v2.arc", arc_file(2))
    write(directory, "post.warc", post_records())
    try:
        import cdxj_indexer  # noqa: F401
    except ImportError:
        print("cdxj-indexer is not installed: no expected indexes written", file=sys.stderr)
        return
    for name, forms in [
        ("records.warc", [".cdxj"]),
        ("records.warc.gz", [".cdxj"]),
        ("records-11.warc", [".cdx"]),
        ("records-11.warc.gz", [".cdx"]),
        ("hand-v1.arc", [".cdxj", ".cdx"]),
        ("hand-v1.arc.gz", [".cdxj", ".cdx"]),
        ("post.warc", [".cdxj", ".p.cdxj", ".p.all.cdxj", ".p.cdx"]),
        ("post.warc.gz", [".p.cdxj"]),
        # Common Crawl's sample (see tests/data/formats/PROVENANCE.txt).
        (str(ROOT / "tests/data/formats/whirlwind.warc.gz"), [".cdxj", ".cdx"]),
    ]:
        for ext in forms:
            args = {
                ".cdx": ["-11"],
                ".p.cdxj": ["-p"],
                ".p.all.cdxj": ["-p", "--records", "all"],
                ".p.cdx": ["-p", "-11"],
            }.get(ext, [])
            out = subprocess.run(
                [sys.executable, "-m", "cdxj_indexer.main", *args, name],
                cwd=directory, check=True, capture_output=True,
            ).stdout
            (directory / (Path(name).name + ext)).write_bytes(out)


if __name__ == "__main__":
    main()
