#!/usr/bin/env python3
"""Writes a WARC for scripts/bench-cdxj.sh: gzip, one member per record, a
crawl's mix of request, response (HTML pages of 2 to 40 KB, with and
without WARC-Payload-Digest) and revisit records, seeded so that every
run writes the same bytes. Not committed: it is made where it is timed.

    python3 scripts/make-bench-warc.py OUT.warc.gz [MEGABYTES]   # default 100
"""

import base64
import gzip
import hashlib
import random
import sys

WORDS = ("archive crawl index page link text web data record payload " * 4).split()


def member(data):
    return gzip.compress(data, compresslevel=6, mtime=0)


def record(kind, uri, date, block, extra=b""):
    head = (
        b"WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: %s\r\n"
        b"WARC-Record-ID: <urn:uuid:%032x>\r\n%sContent-Length: %d\r\n\r\n"
        % (kind, uri, date, random.getrandbits(128), extra, len(block))
    )
    return member(head + block + b"\r\n\r\n")


def main():
    out, megabytes = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100
    random.seed(47)
    written, n = 0, 0
    with open(out, "wb") as f:
        while written < megabytes << 20:
            n += 1
            host = b"site%d.example.com" % random.randrange(2000)
            uri = b"https://%s/p/%d?q=%d" % (host, random.randrange(10**6), n)
            date = b"2024-%02d-%02dT%02d:%02d:%02dZ" % (
                1 + n % 12, 1 + n % 28, n % 24, n % 60, (n * 7) % 60)
            words = random.choices(WORDS, k=random.randrange(300, 6000))
            body = b"<html><body><p>" + " ".join(words).encode() + b"</p></body></html>"
            http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(body)) + body
            digest = b"sha1:" + base64.b32encode(hashlib.sha1(body).digest())
            request = b"GET /p HTTP/1.1\r\nHost: %s\r\nUser-Agent: bench\r\n\r\n" % host
            chunk = record(b"request", uri, date, request,
                           b"Content-Type: application/http; msgtype=request\r\n")
            extra = b"Content-Type: application/http; msgtype=response\r\n"
            if n % 2:
                extra += b"WARC-Payload-Digest: %s\r\n" % digest
            chunk += record(b"response", uri, date, http, extra)
            if n % 5 == 0:
                chunk += record(b"revisit", uri, date,
                                b"HTTP/1.1 304 Not Modified\r\n\r\n",
                                b"WARC-Payload-Digest: %s\r\n" % digest)
            f.write(chunk)
            written += len(chunk)
    print(f"{out}: {written} bytes, {n} pages", file=sys.stderr)


if __name__ == "__main__":
    main()
