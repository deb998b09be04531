"""A whole-space analysis checked layer by layer against published counts (OEIS test vectors).

Reads an expectation file (``benchmarks/data/a346736.txt``: the 7x2 puzzle, 43.6 billion
positions; ``a090167.txt``: the 6x2, 240 million), runs :func:`slidelab.analyze` on its goal in
this process, and prints a Markdown table with one row per layer as it is found: the count,
the published count where there is one, seconds so far, the rate and an estimate of the time
left.  Then the totals, the diameter and the hardest position against the file's, and the
exit status says whether everything matched.

Run: ``python benchmarks/layer_counts.py benchmarks/data/a090167.txt`` (about 5 s on the
2-core development machine) or ``... a346736.txt`` (the 7x2: 13.7 minutes and 10.4 GiB there;
an hour before the sideways sweep and the suffix-block walk of :mod:`slidelab.tables.layers`).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path


def read_expectation(path: Path) -> tuple[dict[str, str], dict[int, int]]:
    """``(fields, counts)``: the file's named lines and its ``depth count`` pairs."""
    fields: dict[str, str] = {}
    counts: dict[int, int] = {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        if key.isdigit():
            counts[int(key)] = int(value)
        else:
            fields[key] = value.strip()
    return fields, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("expectation", type=Path, help="a file like benchmarks/data/a346736.txt")
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=4 * 3600,
        help="refuse a search estimated to take longer (default 4 hours)",
    )
    args = parser.parse_args()
    fields, expected = read_expectation(args.expectation)

    import numba

    from slidelab.analysis import analyze

    blank_first = fields.get("blank-first", "no") == "yes"
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python"
        f" {platform.python_version()}, numba {numba.__version__},"
        f" {numba.config.NUMBA_NUM_THREADS} threads; goal {fields['goal']}"
        f"{' blank first' if blank_first else ''}\n"
    )
    print("| depth | positions | published | seconds | M positions/s | left (estimate) |")
    print("|---:|---:|---:|---:|---:|---:|")
    wrong: list[str] = []

    def on_layer(info: dict) -> None:
        depth, layer = info["depth"], info["layer"]
        want = expected.get(depth)
        if want is not None and want != layer:
            wrong.append(f"depth {depth}: {layer:,} found, {want:,} published")
        rate = info["rate"]
        # the rate settles once the layers are large: no estimate before 1% is found
        left = (info["total"] - info["states"]) / rate if info["fraction"] >= 0.01 else None
        print(
            f"| {depth} | {layer:,} | {'' if want is None else f'{want:,}'} |"
            f" {info['seconds']:.1f} | {rate / 1e6:.1f} | {'' if left is None else f'{left:.0f} s'} |",
            flush=True,
        )

    began = time.perf_counter()
    stats = analyze(
        fields["goal"],
        on_layer,
        blank_first=blank_first,
        hardest=1,
        max_seconds=args.max_seconds,
    )
    wall = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    checks = [
        ("positions", stats.states, int(fields["states"])),
        ("diameter", stats.diameter, int(fields["diameter"])),
    ]
    if "hardest" in fields:
        checks.append(("hardest", stats.hardest[0].format(), fields["hardest"]))
    if expected.get(0, 1) != stats.counts[0]:  # the goal's layer is not reported above
        wrong.append(f"depth 0: {stats.counts[0]:,} found, {expected[0]:,} published")
    print()
    for name, found, want in checks:
        print(f"- {name}: {found} ({'as published' if found == want else f'published: {want}'})")
        if found != want:
            wrong.append(name)
    layers_checked = sum(1 for depth in expected if depth <= stats.diameter)
    print(
        f"- {wall:.1f} s in all, peak memory {peak / 1e9:.2f} GB;"
        f" {layers_checked} published layer counts compared"
    )
    if wrong:
        print("MISMATCH: " + "; ".join(wrong))
        return 1
    print("every compared count matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
