#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Checks the GPU validation's single call (scripts/gpu_test.sh, the command of docs/gpu.md)
where no GPU is at hand, so that it cannot rot between the rare leases of a GPU machine:

    python3 tests/scripts/check_gpu_validation.py SOURCE_DIR WORK_DIR

1. The call itself (without a bundle) on this machine: it ends within its deadline with exit
   status 77, every phase reported skipped with the reason, at most 8 files in its output
   folder (what comes back from a GPU machine), a summary in the committed form.
   Not checked where a GPU is visible: the call would then validate it for real.
2. Its dry run with the deadline of docs/gpu.md: every phase skipped, the plan of those that
   would start fits the deadline, and the phases keep their order of value.
3. A dry run with a deadline too short for the later phases: those are skipped as not fitting,
   the earlier ones still planned.
"""
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

PHASES = ["probe", "build", "tests-np1", "bench", "tests-np2", "peer", "sanitizer", "tests-np34"]
DEADLINE = 510  # docs/gpu.md's --deadline
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAILED: {message}")


def run(source, work, name, *arguments):
    """Runs the call with its output in WORK/name; returns (exit status, seconds, out folder)."""
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    environment = dict(os.environ, DISTLOPS_GPU_BUILD_DIR=os.path.join(work, f"build-{name}"))
    started = time.monotonic()
    result = subprocess.run(["bash", os.path.join(source, "scripts", "gpu_test.sh"), "--out", out,
                             *arguments], cwd=source, env=environment, capture_output=True,
                            text=True, timeout=DEADLINE)
    seconds = time.monotonic() - started
    print(f"--- {name}: exit status {result.returncode} after {seconds:.1f} s")
    print(result.stdout[-4000:], result.stderr[-2000:], sep="")
    return result.returncode, seconds, out


def phase_rows(out):
    """{phase: (outcome, note)} from the summary's table of phases."""
    rows = {}
    with open(os.path.join(out, "summary.md"), encoding="utf-8") as handle:
        for line in handle:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 5 and cells[0] in PHASES:
                rows[cells[0]] = (cells[2], cells[4])
    return rows


def check_output_folder(out, name):
    files = [os.path.join(d, f) for d, _, names in os.walk(out) for f in names]
    check(len(files) <= 8, f"{name}: {len(files)} files in the output folder, at most 8 come back")
    for expected in ("summary.md", "results.tsv", "logs.tar.gz", "progress.log"):
        check(os.path.exists(os.path.join(out, expected)), f"{name}: no {expected}")
    if os.path.exists(os.path.join(out, "logs.tar.gz")):
        with tarfile.open(os.path.join(out, "logs.tar.gz")) as archive:
            check(all(m.name.startswith("logs") for m in archive.getmembers()),
                  f"{name}: logs.tar.gz holds more than the logs")
    summary = open(os.path.join(out, "summary.md"), encoding="utf-8").read()
    for section in ("## The run", "## Phases, in the order they run", "## GPU tests",
                    "## compute-sanitizer", "## Benchmarks", "PyLops-MPI on CuPy"):
        check(section in summary, f"{name}: the summary has no section '{section}'")
    check(re.search(r"\| commit \| \S+", summary) is not None, f"{name}: no commit in the summary")
    check(re.search(r"docs/gpu-runs/\d{4}-\d\d-\d\d-[a-z0-9-]+-\S+\.md", summary) is not None,
          f"{name}: the summary does not name its file under docs/gpu-runs/")
    return summary


def main():
    source, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)

    if shutil.which("nvidia-smi"):
        print("1. not checked: nvidia-smi is here, the call would run on its GPU")
    else:
        status, seconds, out = run(source, work, "call", "--deadline", str(DEADLINE))
        check(status == 77, f"call: exit status {status}, expected 77 (no GPU, all skipped)")
        check(seconds < DEADLINE, f"call: {seconds:.0f} s, more than its deadline")
        check_output_folder(out, "call")
        rows = phase_rows(out)
        check(list(rows) == PHASES, f"call: phases {list(rows)}, expected {PHASES}")
        for phase, (outcome, note) in rows.items():
            check(outcome == "skipped", f"call: {phase} is '{outcome}', expected skipped")
            check("no GPU visible" in note, f"call: {phase} gives no reason: '{note}'")

    status, seconds, out = run(source, work, "dry-run", "--dry-run", "--deadline", str(DEADLINE))
    check(status == 0, f"dry run: exit status {status}")
    check_output_folder(out, "dry-run")
    rows = phase_rows(out)
    check(list(rows) == PHASES, f"dry run: phases {list(rows)}, expected {PHASES}")
    clock = 0
    for phase, (outcome, note) in rows.items():
        check(outcome == "skipped", f"dry run: {phase} is '{outcome}', expected skipped")
        planned = re.search(r"would start at about (\d+) s and take about (\d+) s", note)
        if planned:
            start, length = int(planned.group(1)), int(planned.group(2))
            check(start == clock, f"dry run: {phase} planned at {start} s, after {clock} s of work")
            clock = start + length
        else:
            check("would not start" in note, f"dry run: {phase}: '{note}'")
    check(clock <= DEADLINE, f"dry run: the plan takes {clock} s, more than {DEADLINE} s")
    for phase in ("probe", "build", "tests-np1", "bench", "tests-np2"):
        check("would start" in rows.get(phase, ("", ""))[1],
              f"dry run: {phase} does not fit the deadline of docs/gpu.md")

    status, _, out = run(source, work, "short", "--dry-run", "--deadline", "200")
    rows = phase_rows(out)
    check("would start" in rows.get("build", ("", ""))[1], "short deadline: the build is not planned")
    for phase in ("tests-np1", "bench", "tests-np2", "peer", "sanitizer", "tests-np34"):
        check("would not start" in rows.get(phase, ("", ""))[1],
              f"short deadline: {phase} is planned although it cannot fit")

    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
