# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Checks a distlops_bench JSON-lines report: every line strict JSON (no NaN or Infinity
literals), with the fields tools read, and the strings given on the command line intact.

    python3 check_report.py report.json [key=expected-parameter-value]... [-- command...]

With a command after `--`, runs it first (it must succeed and write report.json).
"""
import json
import subprocess
import sys


def reject_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def main():
    arguments = sys.argv[1:]
    command = []
    if "--" in arguments:
        split = arguments.index("--")
        arguments, command = arguments[:split], arguments[split + 1:]
    path, expectations = arguments[0], [a.split("=", 1) for a in arguments[1:]]
    if command:
        subprocess.run(command, check=True)
    required = ["case", "ranks", "parameters", "settings", "seconds", "median_seconds", "min_seconds",
                "seconds_per_unit", "min_seconds_per_unit", "round_medians", "spread",
                "spread_warning", "load_average_before", "load_average_after",
                "instructions_per_unit", "bytes_per_unit", "fraction_of_reference", "checks"]
    lines = [line for line in open(path, encoding="utf-8") if line.strip()]
    if not lines:
        sys.exit(f"{path}: no JSON lines")
    for number, line in enumerate(lines, 1):
        record = json.loads(line, parse_constant=reject_constant)
        missing = [key for key in required if key not in record]
        if missing:
            sys.exit(f"{path}:{number}: missing {missing}")
        for key, value in expectations:
            if record["settings"].get(key) != value:
                sys.exit(f"{path}:{number}: setting {key} is "
                         f"{record['settings'].get(key)!r}, expected {value!r}")
        if len(record["round_medians"]) < 1 or record["min_seconds"] > record["median_seconds"]:
            sys.exit(f"{path}:{number}: inconsistent round figures")
    print(f"{path}: {len(lines)} valid lines")


if __name__ == "__main__":
    main()
