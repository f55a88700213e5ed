#!/usr/bin/env python3
"""Writes the SURT keys the Python `surt` package (0.3.1, the keys of
pywb and Common Crawl's CDX indexes) gives for URLs, one per line as
INPUT<TAB>KEY, for the differential test tests/surt_compat.rs.

    python3 -m venv /tmp/surtenv && /tmp/surtenv/bin/pip install surt==0.3.1
    /tmp/surtenv/bin/python scripts/make-surt-keys.py > tests/data/surt/keys.tsv

Inputs: every 4th line of samples/corpora/kasztp.txt (MIT) and
samples/messy.txt, then tests/data/surt/cases.txt (hand-written cases of
the known rule differences). Lines with a tab or that surt fails on are
left out (the test cannot express them).
"""
import sys

import surt


def lines(path, step=1):
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            line = line.rstrip("\n").lstrip("\ufeff")
            if i % step == 0 and line and "\t" not in line:
                yield line


def main():
    assert surt.__name__ == "surt"
    out = sys.stdout
    for path, step in [
        ("samples/corpora/kasztp.txt", 4),
        ("samples/messy.txt", 1),
        ("tests/data/surt/cases.txt", 1),
    ]:
        for url in lines(path, step):
            if url.startswith("#"):
                continue
            try:
                key = surt.surt(url)
            except Exception:  # surt raises on some inputs; skip them
                continue
            out.write(f"{url}\t{key}\n")


if __name__ == "__main__":
    main()
