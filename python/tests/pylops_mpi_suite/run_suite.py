#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI 0.8.0's own test suite against distlops.pylops_mpi (CTest pylops_mpi.suite.np<N>).

    run_suite.py --venv DIR --work DIR --ranks N --expected FILE [--target compat|pylops_mpi]
                 [--record] -- COMMAND...

Takes PyLops-MPI's source distribution from the package index into WORK (once; later runs and
the other rank counts reuse it), then runs its tests/, unedited, in one pytest session under
COMMAND (the environment's Python under mpiexec at N ranks, from distlops_mpi_command), with
suite_plugin.py serving `import pylops_mpi` as distlops.pylops_mpi. It prints, per test file,
the tests collected, passed, skipped (with their reasons) and failed, and the run's wall and CPU
time, and fails when a test listed in FILE for N ranks (the tests the package passes, recorded
with --record) does not pass. Exit status 77 (Skipped) when the comparison environment is
missing (python.install skipped) or the package index cannot be reached.
"""
import argparse
import collections
import fcntl
import glob
import json
import os
import resource
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from run_python_tests import extract_filter, installed_python  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "porting"))
from compare_poststack import NETWORK_ERRORS, SKIP  # noqa: E402

PACKAGE = "pylops-mpi==0.8.0"
SOURCE = "pylops_mpi-0.8.0"


def log(message):
    print(f"pylops_mpi.suite: {message}", flush=True)


def fetch(python, work):
    """PyLops-MPI's unpacked sources in WORK (made once, under a lock), or None after saying
    why when the index cannot be reached."""
    os.makedirs(work, exist_ok=True)
    tests = os.path.join(work, SOURCE, "tests")
    with open(os.path.join(work, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.isdir(tests):
            return tests
        download = subprocess.run(
            [python, "-m", "pip", "download", "--disable-pip-version-check", "--no-input",
             "--no-binary", ":all:", "--no-deps", "--dest", work, PACKAGE],
            capture_output=True, text=True)
        if download.returncode != 0:
            output = download.stdout + download.stderr
            if any(marker in output.lower() for marker in NETWORK_ERRORS):
                log(f"SKIPPED: the package index cannot be reached to fetch {PACKAGE}'s "
                    f"sources:\n{output[-2000:]}")
                return None
            raise RuntimeError(f"pip download {PACKAGE} failed:\n{output}")
        with tarfile.open(glob.glob(os.path.join(work, f"{SOURCE}.tar.gz"))[0]) as archive:
            archive.extractall(work, **extract_filter)
        return tests


def outcomes(report):
    """Each test's outcome over all ranks (failed beats skipped beats passed), with a reason."""
    merged = {}
    for path in glob.glob(report + ".rank*.jsonl"):
        with open(path) as journal:
            for line in journal:
                test, outcome, reason = json.loads(line)
                order = {"passed": 0, "skipped": 1, "failed": 2}
                if test not in merged or order[outcome] > order[merged[test][0]]:
                    merged[test] = (outcome, reason)
    return merged


def summarise(results, ranks):
    per_file = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    for test, (outcome, reason) in results.items():
        name = test.split("::")[0]
        per_file[name]["collected"] += 1
        per_file[name][outcome] += 1
        if outcome != "passed":
            reasons[name][f"{outcome}: {reason}"] += 1
    log(f"PyLops-MPI's tests at {ranks} rank(s): file, collected, passed, skipped, failed")
    total = collections.Counter()
    for name in sorted(per_file):
        counts = per_file[name]
        total.update(counts)
        log(f"  {name:28s} {counts['collected']:4d} {counts['passed']:4d} "
            f"{counts['skipped']:4d} {counts['failed']:4d}")
        for reason, count in reasons[name].most_common():
            log(f"      {count:4d} x {reason[:160]}")
    log(f"  {'total':28s} {total['collected']:4d} {total['passed']:4d} {total['skipped']:4d} "
        f"{total['failed']:4d}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--venv", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--expected", required=True)
    parser.add_argument("--target", default="compat", choices=("compat", "pylops_mpi"))
    parser.add_argument("--record", action="store_true",
                        help="write the tests that pass into --expected instead of checking")
    parser.add_argument("--timeout", type=float, default=840)
    parser.add_argument("--files", default="",
                        help="the test files to run, separated by ';' (all of tests/ if empty)")
    parser.add_argument("launcher", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    launcher = args.launcher[1:] if args.launcher[:1] == ["--"] else args.launcher

    python = installed_python(args.venv, "the Python package")
    if python is None:
        return SKIP
    tests = fetch(python, args.work)
    if tests is None:
        return SKIP

    report = os.path.join(args.work, f"{args.target}.np{args.ranks}.json")
    for stale in glob.glob(report + "*"):
        os.remove(stale)
    env = dict(os.environ, DISTLOPS_SUITE_TARGET=args.target, DISTLOPS_SUITE_REPORT=report,
               TEST_CUPY_PYLOPS="0",
               PYTHONPATH=os.pathsep.join([HERE] + [p for p in [os.environ.get("PYTHONPATH")]
                                                    if p]))
    # One session for all files: the interpreters, NumPy, PyLops and the package start once.
    command = launcher + ["-m", "pytest", "-q", "-p", "suite_plugin", "-p", "no:cacheprovider",
                          "-W", "ignore", "--tb=no", "--no-header", "-o", "addopts="] + \
        ([f for f in args.files.split(";") if f] or ["."])
    start, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        run = subprocess.run(command, cwd=tests, env=env, capture_output=True, text=True,
                             timeout=args.timeout)
        status, output = run.returncode, run.stdout + run.stderr
    except subprocess.TimeoutExpired as expired:
        status = "timeout"
        output = (expired.stdout or b"").decode(errors="replace") + \
            (expired.stderr or b"").decode(errors="replace")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    log(f"pytest under mpiexec at {args.ranks} rank(s): exit {status}, wall "
        f"{time.monotonic() - start:.1f} s, CPU {after.ru_utime - before.ru_utime:.1f} s user + "
        f"{after.ru_stime - before.ru_stime:.1f} s system")

    results = outcomes(report)
    summarise(results, args.ranks)
    passed = sorted(test for test, (outcome, _) in results.items() if outcome == "passed")
    if args.record:
        with open(args.expected, "w") as out:
            out.write("\n".join(passed) + "\n")
        log(f"recorded {len(passed)} passing tests in {args.expected}")
        return 0
    with open(args.expected) as expected_file:
        expected = [line.strip() for line in expected_file if line.strip()]
    chosen = [f for f in args.files.split(";") if f]
    if chosen:
        # Only the chosen files' tests are expected (a build directory may keep an older or a
        # narrower DISTLOPS_PYLOPS_MPI_SUITE_FILES): say how many are left out.
        run_files = {"tests/" + os.path.basename(f) for f in chosen}
        kept = [test for test in expected if test.split("::")[0] in run_files]
        if len(kept) != len(expected):
            log(f"{len(expected) - len(kept)} expected tests are in files not chosen "
                f"(--files): not checked")
        expected = kept
    missing = [test for test in expected if results.get(test, ("not run",))[0] != "passed"]
    extra = sorted(set(passed) - set(expected))
    if extra:
        log(f"{len(extra)} tests pass that {os.path.basename(args.expected)} does not list yet "
            f"(record them with --record): {extra[:10]}")
    if missing:
        log(f"FAILED: {len(missing)} of the {len(expected)} tests that passed before do not "
            f"pass now:")
        for test in missing:
            log(f"  {test}: {results.get(test, ('not run', ''))}")
        log(f"pytest's output (end):\n{output[-6000:]}")
        return 1
    log(f"all {len(expected)} tests expected to pass at {args.ranks} rank(s) pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
