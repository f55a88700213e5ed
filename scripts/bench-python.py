"""Speed of the Python package against the command and the Python
libraries people use today, on the corpora in samples/ (run by
scripts/bench-python.sh, which sets up the environment).

Prints ns/URL, best of RUNS rounds (each round runs every contender
once, in turn), for:
  - the normurl command (release build, -j 1, output to /dev/null), the
    corpora repeated to about a million lines;
  - normurl.normalize over a pyarrow string array of the same lines (and
    string_view, threads=2, a list, normalize_one in a loop);
  - the caller's types (issue 46): pandas Series of object, string
    (python and pyarrow storage) and ArrowDtype in and out, and a Polars
    Series, each as a ratio to the pyarrow path (--types-only runs just
    these, without the command);
  - w3lib.url.canonicalize_url and surt.surt on every SAMPLE-th line;
then the wall time of the Spark dedup recipe (docs/python.md) in local[2]
on a 1M-line file, next to `normurl --dedup` on it.
"""

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

import normurl

ROOT = Path(__file__).resolve().parents[1]
CORPORA = sorted((ROOT / "samples" / "corpora").glob("*.txt"))


def lines_of(path):
    text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    return text.splitlines()


def best(runs, f):
    """The fastest of `runs` calls of f, in seconds."""
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def ns(seconds, n):
    return seconds / n * 1e9


def bench_profile(binary, path, lines, profile, runs):
    """ns/URL of the command and of each way of calling the package, the
    best of `runs` rounds; each round runs every contender once, so that
    the load of a shared machine falls on all of them alike."""
    n = normurl.Normalizer(profile=profile)
    array = pa.array(lines)
    view = pa.array(lines, type=pa.string_view())
    some = lines[::10]
    one = n.normalize_one
    contenders = {
        "normurl command -j 1": (
            len(lines),
            lambda: subprocess.run(
                [binary, "-j", "1", "--profile", profile, str(path)],
                stdout=subprocess.DEVNULL,
                check=True,
            ),
        ),
        "normalize, pyarrow string": (len(lines), lambda: n.normalize(array)),
        "normalize, string_view": (len(lines), lambda: n.normalize(view)),
        "normalize, threads=2": (len(lines), lambda: n.normalize(array, threads=2)),
        "normalize, list of str": (len(lines), lambda: n.normalize(lines)),
        "normalize_one, Python loop": (len(some), lambda: [one(u) for u in some]),
    }
    fastest = {name: float("inf") for name in contenders}
    for _ in range(runs):
        for name, (count, f) in contenders.items():
            fastest[name] = min(fastest[name], ns(best(1, f), count))
    return fastest


def bench_python_libraries(lines, runs):
    from surt import surt
    from w3lib.url import canonicalize_url

    def each(f):
        def run():
            for u in lines:
                try:
                    f(u)
                except Exception:  # their errors count as answers
                    pass

        return ns(best(runs, run), len(lines))

    return {
        "w3lib.url.canonicalize_url": each(canonicalize_url),
        "surt.surt": each(surt),
    }


def spark_dedup(binary, lines, runs):
    """Wall time of the Spark dedup recipe and of `normurl --dedup` on a
    file of `lines`."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    text = (ROOT / "docs" / "python.md").read_text()
    code = re.search(r"<!-- recipe: spark_dedup -->\n```python\n(.*?)```", text, re.S).group(1)
    namespace = {}
    exec(code, namespace)
    dedup_first = namespace["dedup_first"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "crawl.txt"
        path.write_text("".join(l + "\n" for l in lines))
        args = [binary, "--profile", "aggressive", "--dedup", "--on-invalid=skip", str(path)]
        command = best(runs, lambda: subprocess.run(args, stdout=subprocess.DEVNULL, check=True))
        spark = (
            SparkSession.builder.master("local[2]")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        out = str(Path(tmp) / "out")

        def run():
            df = spark.read.text(str(path), lineSep="\n")
            dedup_first(df).write.mode("overwrite").text(out)

        run()  # the first run starts the Python workers
        wall = best(runs, run)
        kept = sum(1 for p in Path(out).glob("part-*") for _ in open(p))
        spark.stop()
    return command, wall, kept


def bench_types(lines, profile, runs):
    """ns/URL of normalize on the caller's column types, in and out; the
    pyarrow path first, which the others are compared with."""
    import pandas as pd
    import polars as pl

    n = normurl.Normalizer(profile=profile)
    columns = {
        "pyarrow string Array": pa.array(lines),
        "pandas object": pd.Series(lines, dtype=object),
        "pandas string[python]": pd.Series(lines, dtype="string[python]"),
        "pandas string[pyarrow]": pd.Series(lines, dtype="string[pyarrow]"),
        "pandas ArrowDtype(string)": pd.Series(lines, dtype=pd.ArrowDtype(pa.string())),
        "Polars Series": pl.Series("url", lines),
    }
    fastest = {name: float("inf") for name in columns}
    for _ in range(runs):
        for name, column in columns.items():
            fastest[name] = min(fastest[name], ns(best(1, lambda: n.normalize(column)), len(lines)))
    return fastest


def print_types(lines, runs):
    for profile in ["whatwg", "aggressive"]:
        results = bench_types(lines, profile, runs)
        base = results["pyarrow string Array"]
        print()
        for name, value in results.items():
            print(f"{profile}: normalize({name}): {value:.1f} ns/URL ({value / base:.2f}x pyarrow)")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", help="a release build of normurl (required but with --types-only)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--sample", type=int, default=10, help="w3lib and surt run on every SAMPLE-th line")
    p.add_argument("--repeat", type=int, default=6, help="the corpora repeated, for about a million lines")
    p.add_argument("--spark-lines", type=int, default=1_000_000)
    p.add_argument("--no-spark", action="store_true")
    p.add_argument("--types-only", action="store_true", help="only the caller's types against pyarrow")
    a = p.parse_args()

    lines = [l for path in CORPORA for l in lines_of(path)] * a.repeat
    n = len(lines)
    print(f"normurl {normurl.__version__}, {n:,} lines (samples/corpora x{a.repeat}), best of {a.runs}")
    print_types(lines, a.runs)
    if a.types_only:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpora.txt"
        path.write_text("".join(l + "\n" for l in lines))
        for profile in ["whatwg", "aggressive"]:
            results = bench_profile(a.binary, path, lines, profile, a.runs)
            command = results["normurl command -j 1"]
            print()
            for name, value in results.items():
                print(f"{profile}: {name}: {value:.1f} ns/URL ({value / command:.2f}x the command)")
    sample = lines[: n // a.repeat : a.sample]
    print(f"\nPython libraries, on {len(sample):,} lines (every {a.sample}th of the corpora):")
    # Each against the normurl call that does the same job: canonical
    # URLs for dedup (aggressive), CDX SURT keys (wayback, get="surt").
    mine = {
        "w3lib.url.canonicalize_url": ("aggressive", normurl.Normalizer(profile="aggressive")),
        "surt.surt": ('get="surt"', normurl.Normalizer(get="surt")),
    }
    array = pa.array(sample)
    for name, value in bench_python_libraries(sample, max(1, a.runs // 2)).items():
        label, normalizer = mine[name]
        ours = ns(best(a.runs, lambda: normalizer.normalize(array)), len(sample))
        print(f"{name}: {value:.0f} ns/URL; normurl.normalize ({label}): {ours:.1f} ns/URL, {value / ours:.0f}x faster")
    if not a.no_spark:
        spark_lines = (lines * (a.spark_lines // n + 1))[: a.spark_lines]
        command, wall, kept = spark_dedup(a.binary, spark_lines, max(1, a.runs // 2))
        print(f"\ndedup of {len(spark_lines):,} lines ({kept:,} kept), aggressive:")
        print(f"normurl --dedup --on-invalid=skip (-j 0, all cores): {command:.2f} s")
        print(f"Spark local[2], the docs/python.md recipe, written to text: {wall:.2f} s")


if __name__ == "__main__":
    main()
