#!/usr/bin/env python3
"""Writes queries made of random pieces and what the Python `surt`
package's (0.3.1) port of webarchive-commons' URLRegexTransformer
`stripQuerySessionID` leaves of each, one per line as QUERY<TAB>STRIPPED,
for the unit test of `session-ids-anywhere` (crates/normurl-canon/src/rules/query_session.rs):

    python3 -m venv /tmp/surtenv && /tmp/surtenv/bin/pip install surt==0.3.1
    /tmp/surtenv/bin/python scripts/make-session-id-cases.py > tests/data/surt/session-ids.tsv

The pieces are session ids of every kind, whole and cut short or long,
in both cases, with names and values around them (inside a parameter,
after `;`, in a value), ColdFusion's pair in both orders, empty pieces.
The seed is fixed: the output is the same on every run.
"""
import random
import sys

from surt.URLRegexTransformer import stripQuerySessionID

ID = "0123456789abcdefABCDEF0123456789"
ASP = "EOHBLBDDPFCLHKPGGKLILNAM"
PIECES = [
    "", "a=1", "b", "x", "id=7;", "q=", "z=2;", ";", "=", "x=a%20b",
    "jsessionid=" + ID, "JSESSIONID=" + ID, "jsessionid=" + ID + "0",
    "jsessionid=" + ID[1:], "phpsessid=" + ID, "PhpSessId=" + ID,
    "sid=" + ID, "SID=" + ID, "xsid=" + ID, "sid=" + ID[:31] + "!",
    "aspsessionidAQBSDSRT=" + ASP, "ASPSESSIONIDaqbsdsrt=" + ASP.lower(),
    "aspsessionidAQBSDSR1=" + ASP, "aspsessionidAQBSDSRT=" + ASP[1:] + "1",
    "cfid=1", "CFID=3304324", "xcfid=2", "cfid=", "cfid=a=b", "cftoken=2",
    "CFTOKEN=57491900", "cftoken=", "cftoken=c=d",
]


def query(rng):
    parts = []
    for _ in range(rng.randint(1, 6)):
        piece = rng.choice(PIECES)
        # Glue some pieces to the one before with no `&`, as inside a
        # parameter.
        if parts and rng.random() < 0.25:
            parts[-1] += piece
        else:
            parts.append(piece)
    return "&".join(parts)


def main():
    rng = random.Random(29)
    out = sys.stdout
    seen = set()
    while len(seen) < 2000:
        q = query(rng)
        if q in seen:
            continue
        seen.add(q)
        stripped = stripQuerySessionID(q.encode("ascii")).decode("ascii")
        out.write(f"{q}\t{stripped}\n")


if __name__ == "__main__":
    main()
