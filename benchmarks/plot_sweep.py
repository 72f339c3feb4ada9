# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Plots the JSON lines of `distlops_bench --sweep` (one file per rank count): the time per
unknown and the fraction of the reference bandwidth against the problem size, one line per
case and rank count, so that the end of the caches shows as the fraction falling.

    /usr/bin/python3 benchmarks/plot_sweep.py sweep.np1.json [sweep.np2.json ...] -o sweep.png
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def size_of(record):
    """The size axis: unknowns over all ranks for the stencils, n for the dense blocks."""
    parameters = record["parameters"]
    if "n" in parameters and "nx" not in parameters:
        return int(parameters["n"])
    return int(parameters["nx"]) * int(parameters["ny"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+")
    parser.add_argument("-o", "--output", default="sweep.png")
    arguments = parser.parse_args()
    series = {}
    for path in arguments.reports:
        with open(path, encoding="utf-8") as report:
            for line in report:
                if not line.strip():
                    continue
                record = json.loads(line)
                if "seconds_per_unknown" not in record:
                    continue
                key = (record["case"], record["ranks"])
                series.setdefault(key, []).append(
                    (size_of(record), record["seconds_per_unknown"],
                     100.0 * record["fraction_of_reference"]))
    if not series:
        raise SystemExit("no sweep records (run distlops_bench --sweep --json FILE)")
    cases = sorted({case for case, _ in series})
    figure, axes = plt.subplots(2, len(cases), figsize=(4.2 * len(cases), 6.5), squeeze=False)
    for column, case in enumerate(cases):
        for (name, ranks), points in sorted(series.items()):
            if name != case:
                continue
            points.sort()
            sizes = [p[0] for p in points]
            label = f"{ranks} rank{'s' if ranks > 1 else ''}"
            axes[0][column].plot(sizes, [p[1] * 1e9 for p in points], "o-", label=label)
            axes[1][column].plot(sizes, [p[2] for p in points], "o-", label=label)
        dense = case == "blockdiag-cgls"
        axes[0][column].set_title(case)
        axes[0][column].set_ylabel("ns per unknown" + (" (n per rank)" if dense else ""))
        axes[1][column].set_ylabel("% of triad")
        axes[1][column].set_xlabel("block size n" if dense else "unknowns (nx ny)")
        for row in (0, 1):
            axes[row][column].set_xscale("log", base=2)
            axes[row][column].grid(True, which="both", alpha=0.3)
            axes[row][column].legend()
        axes[1][column].axhline(100, color="grey", linewidth=0.8)
    figure.tight_layout()
    figure.savefig(arguments.output, dpi=90)
    print(f"wrote {arguments.output}")


if __name__ == "__main__":
    main()
