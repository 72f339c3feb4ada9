# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Checks a distlops_bench JSON-lines report: every line strict JSON (no NaN or Infinity
literals), with the fields tools read, and the strings given on the command line intact; the
communication counted for fft2d and tiny-cgls at 2 ranks is what their geometry implies.

    python3 check_report.py [--interrupt-after N] report.json [key=expected-parameter-value]...
                            [-- command...]

With a command after `--`, runs it first (it must succeed and write report.json): the lines of
a finished run are the merged ones ("partial": false). With --interrupt-after N, the command is
interrupted (SIGINT, as ctrl-C) once report.json holds N lines: the lines of the rounds it
finished must be there, "partial" and numbered by round.
"""
import json
import os
import signal
import subprocess
import sys
import time


def reject_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def event(record, name):
    for e in record["communication"]["events"]:
        if e["name"] == name:
            return e
    return None


def check_communication(record):
    """The messages, bytes and collectives per unit that the case's geometry implies at 2
    ranks, or None when they match (other cases and rank counts are not checked)."""
    c = record["communication"]
    if record["ranks"] != 2:
        return None
    if record["case"] == "fft2d":
        # Each apply moves one block of complex128 between the two ranks: rank 0's rows (the
        # first ceil(nx / 2)) in rank 1's columns (the last floor(ny / 2)), or the reverse.
        nx, ny = int(record["parameters"]["nx"]), int(record["parameters"]["ny"])
        largest = max(-(-nx // 2) * (ny // 2), (nx // 2) * -(-ny // 2)) * 16
        sends = event(record, "MPI_Isend")
        if sends is None or sends["calls_max"] != 1 or c["messages_max"] != 1:
            return f"fft2d: expected one message per apply and rank, got {c}"
        if c["bytes_max"] != largest:
            return f"fft2d: expected {largest} bytes per apply, got {c['bytes_max']}"
    if record["case"] == "tiny-cgls":
        # BlockDiag: no message between ranks; CGLS reduces twice per iteration at least.
        sums = event(record, "MPI_Allreduce")
        if c["messages_max"] != 0 or sums is None or sums["calls_max"] < 2:
            return f"tiny-cgls: expected no message and 2 allreduces per iteration, got {c}"
    return None


def count_lines(path):
    try:
        with open(path, encoding="utf-8") as report:
            return sum(1 for line in report if line.endswith("\n"))
    except FileNotFoundError:
        return 0


def run_and_interrupt(command, path, lines, timeout=40):
    """Starts `command`, sends it SIGINT once `path` holds `lines` lines, and waits for it."""
    if os.path.exists(path):
        os.remove(path)
    process = subprocess.Popen(command)
    deadline = time.monotonic() + timeout
    while count_lines(path) < lines:
        if process.poll() is not None:
            sys.exit(f"the command ended (status {process.returncode}) before {lines} lines")
        if time.monotonic() > deadline:
            process.kill()
            sys.exit(f"{path}: fewer than {lines} lines after {timeout} s")
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=timeout)


def main():
    arguments = sys.argv[1:]
    command = []
    if "--" in arguments:
        split = arguments.index("--")
        arguments, command = arguments[:split], arguments[split + 1:]
    interrupt_after = 0
    if arguments[:1] == ["--interrupt-after"]:
        interrupt_after, arguments = int(arguments[1]), arguments[2:]
    path, expectations = arguments[0], [a.split("=", 1) for a in arguments[1:]]
    if command and interrupt_after:
        run_and_interrupt(command, path, interrupt_after)
    elif command:
        subprocess.run(command, check=True)
    required = ["case", "ranks", "parameters", "settings", "seconds", "median_seconds", "min_seconds",
                "seconds_per_unit", "min_seconds_per_unit", "round_medians", "spread",
                "spread_warning", "load_average_before", "load_average_after",
                "instructions_per_unit", "bytes_per_unit", "fraction_of_reference", "checks",
                "communication"]
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
        problem = check_communication(record)
        if problem:
            sys.exit(f"{path}:{number}: {problem}")
        # An interrupted run leaves the lines of its finished rounds; a finished one, merged lines.
        if record.get("partial") is not bool(interrupt_after) or \
                (interrupt_after and not record.get("round", 0) >= 1):
            sys.exit(f"{path}:{number}: 'partial' is {record.get('partial')!r}, round "
                     f"{record.get('round')!r}, in a run {'' if interrupt_after else 'not '}"
                     "interrupted")
    print(f"{path}: {len(lines)} valid lines")


if __name__ == "__main__":
    main()
