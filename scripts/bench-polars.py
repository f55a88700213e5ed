#!/usr/bin/env python3
"""Time per URL of the Polars expression (normurl.polars) against the
pyarrow path (`normurl.normalize(pa_array)`) and the `map_batches` recipe,
in one process and one run, on the corpora of samples/corpora.

    target/python-venv/bin/python scripts/bench-polars.py [--repeat N] [--rounds R]

Each round runs every contender once, in turn, on the same lines (the
corpora repeated N times); the best of R rounds is printed, in CPU time per URL
(the process's, all threads) and as a multiple of the pyarrow path. The package must be installed (the
release wheel, as scripts/test.sh builds it). Small by design: a few
seconds of CPU.
"""

import argparse
import time
from pathlib import Path

import polars as pl
import pyarrow as pa

import normurl
import normurl.polars  # noqa: F401  (registers Expr.normurl)

ROOT = Path(__file__).resolve().parents[1]


def lines(repeat):
    out = []
    for path in sorted((ROOT / "samples" / "corpora").glob("*.txt")):
        out += path.read_text("utf-8").splitlines()
    return out * repeat


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--clock",
        choices=["cpu", "wall"],
        default="cpu",
        help="cpu: the process's CPU time, all threads (for a shared machine); "
        "wall: elapsed time (on an idle machine, what a user waits for)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    urls = lines(args.repeat)
    n = len(urls)
    array = pa.array(urls, pa.string())
    df = pl.DataFrame({"url": urls})
    lf = df.lazy()
    results = {}
    for profile in ["whatwg", "aggressive"]:
        normalizer = normurl.Normalizer(profile=profile)
        expr = pl.col("url").normurl.normalize(profile=profile)
        recipe = pl.col("url").map_batches(
            lambda s: pl.Series(normalizer.normalize(s)), return_dtype=pl.String, is_elementwise=True
        )
        contenders = {
            "normalize(pyarrow string array)": lambda: normalizer.normalize(array),
            "Polars expression, eager select": lambda: df.select(expr),
            "Polars expression, lazy": lambda: lf.select(expr).collect(),
            "Polars expression, streaming": lambda: lf.select(expr).collect(engine="streaming"),
            "Polars map_batches recipe": lambda: df.select(recipe),
        }
        best = {name: float("inf") for name in contenders}
        for _ in range(args.rounds):
            for name, run in contenders.items():
                # CPU time of the process (every thread's) by default: on
                # a shared machine wall time mostly measures the other
                # tenants.
                start = clock()
                run()
                best[name] = min(best[name], clock() - start)
        results[profile] = best
    print(f"{n} URLs (the corpora x{args.repeat}), best of {args.rounds} rounds, {args.clock} ns/URL (x the pyarrow path)")
    names = list(results["whatwg"])
    print(f"| {'':40} | {'whatwg':>18} | {'aggressive':>18} |")
    for name in names:
        cells = []
        for profile in results:
            base = results[profile]["normalize(pyarrow string array)"]
            t = results[profile][name]
            cells.append(f"{t / n * 1e9:7.1f} ({t / base:4.2f}x)")
        print(f"| {name:40} | {cells[0]:>18} | {cells[1]:>18} |")


if __name__ == "__main__":
    main()
