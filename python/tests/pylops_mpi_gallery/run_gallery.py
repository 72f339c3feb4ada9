#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI 0.8.0's gallery (examples/plot_*.py) against distlops.pylops_mpi, compared with
the numbers the real PyLops-MPI gives on the same scripts (CTest pylops_mpi.gallery.np2).

    run_gallery.py --venv DIR --work DIR --numbers FILE --expected FILE [--reference]
                   [--scripts A;B] -- COMMAND...

Takes PyLops-MPI's source distribution from the package index into WORK as
pylops_mpi.suite.np<N> does (the same copy: run_suite.py's fetch), then runs the gallery's
scripts, one interpreter per rank under COMMAND (the environment's Python under mpiexec, from
distlops_mpi_command), with gallery_session.py: the scripts' pylops_mpi imports become
imports of distlops.pylops_mpi and nothing else changes. Every number a script assigns at its
top level is summarised per rank (2-norm, largest magnitude, sum, a cosine projection and four
samples; distributed arrays by this rank's block, and gathered at the end), then compared with
FILE, the same summaries made by the real PyLops-MPI 0.8.0 with --reference.

A script fails the entry when it raises, or when a number differs from PyLops-MPI's by more
than the tolerance (TOLERANCE: relative to the array's norm, largest magnitude or its own
value, see relative_difference), unless FILE names it in the expected file (one line per
entry: `script[:name-pattern]  reason`; a script alone may fail or differ, a pattern lets the
names it matches differ). The log tabulates, per script: whether it runs, the largest relative
difference and where, the expected-file reason, and the run's wall and CPU time.

The reference (python/tests/pylops_mpi_gallery/reference.np2.json) is made with, from the
build directory after python.install:

    porting-venv/bin/python -m pip install --no-deps --target mpi4py-fft mpi4py-fft==2.0.6
    PYTHONPATH=$PWD/mpi4py-fft python3 ../python/tests/pylops_mpi_gallery/run_gallery.py \\
        --venv porting-venv --work pylops-mpi-suite \\
        --numbers ../python/tests/pylops_mpi_gallery/reference.np2.json \\
        --expected ../python/tests/pylops_mpi_gallery/expected.np2.txt --reference \\
        -- mpiexec -n 2 -x PYTHONPATH porting-venv/bin/python

(mpi4py-fft, which PyLops-MPI's FFTs import, is not in the comparison environment; the
mpiexec line is the entry's, distlops_mpi_command's, with -x PYTHONPATH.)
Exit status 77 (Skipped) when the comparison environment is missing or the index cannot be
reached.
"""
import argparse
import fnmatch
import glob
import json
import math
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pylops_mpi_suite"))
sys.path.insert(0, os.path.join(HERE, ".."))
from run_python_tests import installed_python  # noqa: E402
from run_suite import PACKAGE, fetch  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "porting"))
from compare_poststack import SKIP  # noqa: E402

SESSION = os.path.join(HERE, "gallery_session.py")
# Largest relative difference accepted: single-precision data, and everything else.
TOLERANCE = {"single": 1e-5, "double": 1e-10}
SINGLE = ("float32", "complex64")
# The scripts of MPIMatrixMult need a square number of ranks: at 2 ranks the second is out of
# the 1 x 1 grid, and PyLops-MPI's own run stops there (plot_matrixmult.py waits in
# MPIBlockDiag's collective on MPI.COMM_WORLD after the other rank's exit(0),
# plot_summamatrixmult.py raises on the rank without a grid communicator and waits on the
# other). They run at 4 ranks, a 2 x 2 grid.
RANKS = {"plot_matrixmult.py": 4, "plot_summamatrixmult.py": 4}
NUMPROC_FLAGS = ("-n", "-np", "--n", "--np", "-c")


def launcher_at(launcher, ranks, wanted):
    """The launcher with its rank count changed from ranks to wanted (None when it has no
    recognisable rank-count flag)."""
    for i, word in enumerate(launcher[:-1]):
        if word in NUMPROC_FLAGS and launcher[i + 1] == str(ranks):
            return launcher[:i + 1] + [str(wanted)] + launcher[i + 2:]
    return None if wanted != ranks else launcher


def log(message):
    print(f"pylops_mpi.gallery: {message}", flush=True)


def run_sessions(launcher, scripts, target, journals, timeout, deadline):
    """Each script's status and summaries per rank. A session ended by a script (its time
    limit, a crash) is started again after that script, so that one script cannot hide the
    others."""
    results, remaining, attempt = {}, list(scripts), 0
    while remaining and time.monotonic() < deadline:
        attempt += 1
        journal = f"{journals}.{attempt}"
        for stale in glob.glob(journal + ".rank*.jsonl"):
            os.remove(stale)
        output_path = journal + ".log"
        with open(output_path, "w") as output:
            try:
                subprocess.run(launcher + [SESSION, "--target", target, "--journal", journal,
                                           "--timeout", str(timeout)] + remaining,
                               stdout=output, stderr=subprocess.STDOUT,
                               timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        per_rank = {}
        for path in sorted(glob.glob(journal + ".rank*.jsonl")):
            rank = int(path.rsplit(".rank", 1)[1].split(".")[0])
            with open(path) as lines:
                per_rank[rank] = {entry["script"]: entry for entry in map(json.loads, lines)}
        finished = [path for path in remaining
                    if per_rank and all(os.path.basename(path) in entries
                                        for entries in per_rank.values())]
        for path in finished:
            name = os.path.basename(path)
            results[name] = {rank: entries[name] for rank, entries in per_rank.items()}
        done = {os.path.basename(path) for path in finished}
        rest = [path for path in remaining if os.path.basename(path) not in done]
        if rest:
            stopped = rest[0]
            with open(output_path) as output:
                tail = output.read()[-3000:]
            results[os.path.basename(stopped)] = {
                "stopped": f"the session ended during the script (time limit {timeout:.0f} s "
                           f"or a crash); its output ends with:\n{tail}"}
            rest = rest[1:]
        remaining = rest
    for path in remaining:
        results[os.path.basename(path)] = {"stopped": "not run: the entry's time was spent"}
    return results


def merge(result):
    """One script's status (the first rank's that did not end well, or "ok") and its
    summaries keyed "rank<r>/<name>" (the gathered ones once, "<name>@global")."""
    if "stopped" in result:
        return {"status": "stopped: " + result["stopped"].splitlines()[0], "records": {},
                "seconds": None}
    status, records = "ok", {}
    for rank in sorted(result):
        entry = result[rank]
        if entry["status"] != "ok" and status == "ok":
            status = f"rank {rank}: {entry['status']}"
        for key, value in entry["records"].items():
            if key.endswith("@global"):
                if rank == min(result):
                    records[key] = value
            else:
                records[f"rank{rank}/{key}"] = value
    seconds = max(entry["seconds"] for entry in result.values())
    return {"status": status, "records": condensed(records, len(result)),
            "seconds": round(seconds, 2)}


def condensed(records, ranks):
    """The summaries with those equal on every rank kept once, as "all/<name>"."""
    out, by_name = {}, {}
    for key, value in records.items():
        if key.startswith("rank"):
            by_name.setdefault(key.split("/", 1)[1], {})[key] = value
        else:
            out[key] = value
    for name, per_rank in by_name.items():
        values = list(per_rank.values())
        if len(values) == ranks and all(v == values[0] for v in values[1:]):
            out[f"all/{name}"] = values[0]
        else:
            out.update(per_rank)
    return out


def expanded(records, ranks):
    """The summaries per rank again ("all/<name>" as "rank<r>/<name>" for every rank)."""
    out = {}
    for key, value in records.items():
        if key.startswith("all/"):
            out.update({f"rank{r}/{key[4:]}": value for r in range(ranks)})
        else:
            out[key] = value
    return out


def _complex(values):
    return [complex(re, im) for re, im in zip(values[0::2], values[1::2])]


def relative_difference(ours, theirs):
    """How far a summary is from the reference's: the 2-norm and the largest magnitude
    relative to their values, the sum and the cosine projection relative to their largest
    possible value (sqrt(n) times the 2-norm), the samples relative to the largest magnitude,
    a number relative to its value; infinite for another shape or a value that could not be read."""
    if "error" in ours or "error" in theirs or ours["shape"] != theirs["shape"] or \
            len(ours["values"]) != len(theirs["values"]):
        return float("inf")
    a, b = _complex(ours["values"]), _complex(theirs["values"])
    if not b:
        return 0.0
    if len(b) == 1:
        return abs(a[0] - b[0]) / max(abs(b[0]), 1e-300)
    n = max(1, math.prod(theirs["shape"]))
    norm, largest = abs(b[0]), abs(b[1])
    scales = [norm, largest, math.sqrt(n) * norm, math.sqrt(n) * norm] + [largest] * (len(b) - 4)
    return max(abs(x - y) / max(scale, 1e-300) for x, y, scale in zip(a, b, scales))


def tolerance(summary):
    return TOLERANCE["single" if summary.get("dtype") in SINGLE else "double"]


def read_expected(path):
    """{script: [(pattern or None, reason)]} of the expected file."""
    expected = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            what, _, reason = line.partition(" ")
            script, _, pattern = what.partition(":")
            expected.setdefault(script, []).append((pattern or None, reason.strip()))
    return expected


def compare(name, ours, theirs, expected):
    """The verdict of one script: (ok, line for the table, details)."""
    entries = expected.get(name, [])
    ranks = theirs.get("ranks", 0)
    ours = dict(ours, records=expanded(ours["records"], ours.get("ranks", ranks)))
    theirs = dict(theirs, records=expanded(theirs["records"], ranks))
    whole = [reason for pattern, reason in entries if pattern is None]
    details, worst, worst_key, differing = [], 0.0, "", []
    if theirs["status"] != "ok":
        details.append(f"PyLops-MPI itself does not run it: {theirs['status']}")
    for key, reference in theirs["records"].items():
        mine = ours["records"].get(key)
        difference = float("inf") if mine is None else relative_difference(mine, reference)
        if difference > worst or not worst_key:
            worst, worst_key = difference, key
        if difference > tolerance(reference):
            differing.append((key, difference, mine, reference))
    extra = sorted(set(ours["records"]) - set(theirs["records"]))
    if extra:
        differing += [(key, float("inf"), ours["records"][key], None) for key in extra]
        worst, worst_key = float("inf"), extra[0]
    allowed = []
    for key, difference, mine, reference in differing:
        short = key.split("/")[-1]
        reasons = [reason for pattern, reason in entries
                   if pattern is not None and fnmatch.fnmatchcase(short, pattern)]
        if reasons:
            allowed.append(key)
        what = "missing" if mine is None else "not in PyLops-MPI's" if reference is None else \
            mine.get("error") or f"{mine['dtype']}{mine['shape']} vs " \
            f"{reference['dtype']}{reference['shape']}"
        details.append(f"{key}: relative difference {difference:.3g} ({what})"
                       f"{' - expected: ' + reasons[0] if reasons else ''}")
    runs = ours["status"] == "ok"
    unexplained = [key for key, *_ in differing if key not in allowed]
    if whole:
        verdict = "expected: " + whole[0]
        ok = True
        if runs and not differing and theirs["status"] == "ok":
            details.append("it now runs and matches: its expected-file entry can go")
    elif not runs:
        verdict, ok = f"FAILED: {ours['status']}", False
    elif unexplained:
        verdict, ok = f"FAILED: {len(unexplained)} numbers differ", False
    else:
        verdict, ok = "matches" if not differing else "differs where expected", True
        unused = [pattern for pattern, _ in entries
                  if pattern is not None and not any(
                      fnmatch.fnmatchcase(key.split("/")[-1], pattern) for key in allowed)]
        if unused:
            details.append(f"expected-file patterns that no difference needs: {unused}")
    return ok, (name, "yes" if runs else "no", worst, worst_key, verdict), details


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--venv", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--numbers", required=True, help="the reference numbers (JSON)")
    parser.add_argument("--expected", required=True)
    parser.add_argument("--reference", action="store_true",
                        help="run the real PyLops-MPI and write its numbers into --numbers")
    parser.add_argument("--ranks", type=int, default=2, help="the ranks COMMAND starts")
    parser.add_argument("--scripts", default="", help="';'-separated names (all if empty)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per script")
    parser.add_argument("--total-timeout", type=float, default=560)
    parser.add_argument("launcher", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    launcher = args.launcher[1:] if args.launcher[:1] == ["--"] else args.launcher

    if installed_python(args.venv, "the Python package") is None:
        return SKIP
    tests = fetch(os.path.join(args.venv, "bin", "python"), args.work)
    if tests is None:
        return SKIP
    examples = os.path.join(os.path.dirname(os.path.abspath(tests)), "examples")
    chosen = [s for s in args.scripts.split(";") if s]
    scripts = sorted(glob.glob(os.path.join(examples, "plot_*.py")))
    if chosen:
        scripts = [s for s in scripts if os.path.basename(s) in chosen]
    target = "pylops_mpi" if args.reference else "compat"

    start, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    results, ranks_of = {}, {}
    for ranks in sorted({RANKS.get(os.path.basename(s), args.ranks) for s in scripts}):
        group = [s for s in scripts if RANKS.get(os.path.basename(s), args.ranks) == ranks]
        ranks_of.update({os.path.basename(s): ranks for s in group})
        command = launcher_at(launcher, args.ranks, ranks)
        if command is None:
            results.update({os.path.basename(s): {"stopped": f"not run: no rank-count flag "
                                                  f"in the launcher to start {ranks} ranks"}
                            for s in group})
            continue
        journals = os.path.abspath(os.path.join(args.work, f"gallery.{target}.np{ranks}"))
        results.update(run_sessions(command, group, target, journals, args.timeout,
                                    start + args.total_timeout))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    merged = {name: dict(merge(result), ranks=ranks_of[name])
              for name, result in sorted(results.items())}
    log(f"{len(scripts)} scripts at {args.ranks} ranks against {target}: wall "
        f"{time.monotonic() - start:.1f} s, CPU {after.ru_utime - before.ru_utime:.1f} s user + "
        f"{after.ru_stime - before.ru_stime:.1f} s system")

    if args.reference:
        document = {
            "about": f"the numbers of {PACKAGE}'s gallery scripts (examples/plot_*.py) at 2 "
                     "ranks, made by python/tests/pylops_mpi_gallery/run_gallery.py "
                     "--reference (its docstring gives the command); pylops_mpi.gallery.np2 "
                     "compares distlops.pylops_mpi's with them",
            "scripts": {name: value for name, value in merged.items()}}
        with open(args.numbers, "w") as out:
            # One line per script, so that a change shows which scripts it touches.
            out.write('{"about": ' + json.dumps(document["about"]) + ',\n "scripts": {\n')
            out.write(",\n".join(f"  {json.dumps(name)}: "
                                  f"{json.dumps(value, sort_keys=True, separators=(',', ':'))}"
                                  for name, value in document["scripts"].items()))
            out.write("\n }\n}\n")
        for name, value in merged.items():
            log(f"  {name:28s} {value['status'][:100]}  ({len(value['records'])} numbers)")
        log(f"wrote {args.numbers}")
        return 0

    with open(args.numbers) as f:
        reference = json.load(f)["scripts"]
    expected = read_expected(args.expected)
    failed, rows, all_details = [], [], {}
    for name, theirs in sorted(reference.items()):
        if chosen and name not in chosen:
            continue
        ours = merged.get(name, {"status": "not run", "records": {}, "seconds": None})
        ok, row, details = compare(name, ours, theirs, expected)
        rows.append(row + (ours["seconds"], theirs.get("ranks", args.ranks)))
        all_details[name] = details
        if not ok:
            failed.append(name)
    log("script, ranks, runs, largest relative difference from PyLops-MPI (where), seconds, "
        "verdict")
    for name, runs, worst, where, verdict, seconds, ranks in rows:
        log(f"  {name:28s} {ranks} {runs:3s} {worst:9.2e} {where[:34]:34s} "
            f"{'' if seconds is None else f'{seconds:6.1f}'} {verdict[:140]}")
        for line in all_details[name][:12]:
            log(f"      {line[:220]}")
    if failed:
        log(f"FAILED: {', '.join(failed)}")
        for name in failed:
            log_path = sorted(glob.glob(os.path.join(args.work, "gallery.compat.*.log")),
                              key=os.path.getmtime)
            if log_path:
                with open(log_path[-1]) as output:
                    log(f"the last session's output (end):\n{output.read()[-4000:]}")
                break
        return 1
    log(f"of {len(rows)} scripts, {sum(row[1] == 'yes' for row in rows)} run; every one "
        f"gives PyLops-MPI's numbers or differs (or stops) where "
        f"{os.path.basename(args.expected)} says why")
    return 0


if __name__ == "__main__":
    sys.exit(main())
