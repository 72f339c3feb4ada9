# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Runs an example and checks its summary.json: strict JSON (no NaN or Infinity literals, which
Python's json would otherwise accept) with the values expected.

    python3 check_summary.py OUTPUT/summary.json key=null key=2 ... -- command...

An expected value is read as JSON (null, numbers, strings in quotes).
"""
import json
import subprocess
import sys


def reject_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def main():
    arguments = sys.argv[1:]
    split = arguments.index("--")
    (path, *expectations), command = arguments[:split], arguments[split + 1:]
    subprocess.run(command, check=True)
    with open(path, encoding="utf-8") as summary:
        document = json.load(summary, parse_constant=reject_constant)
    for expectation in expectations:
        key, value = expectation.split("=", 1)
        if key not in document or document[key] != json.loads(value):
            sys.exit(f"{path}: {key} is {document.get(key, 'missing')!r}, expected {value}")
    print(f"{path}: strict JSON with {', '.join(expectations)}")


if __name__ == "__main__":
    main()
