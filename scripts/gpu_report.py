#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The bookkeeping of scripts/gpu_test.sh: reads what the GPU validation's phases leave in its
output folder and writes the run's summary in the form committed under docs/gpu-runs/.

    python3 scripts/gpu_report.py render OUT [MORE...]  # OUT/summary.md from the records of
                                                        # OUT and of more calls of one lease
    python3 scripts/gpu_report.py tests BUILD LABELREGEX # name, executable, arguments per test
    python3 scripts/gpu_report.py ctest PHASE DETAIL LOG NAMES  # result lines of a ctest run
    python3 scripts/gpu_report.py bench PHASE DETAIL JSON OUT   # bench lines into OUT/bench.json

The records (OUT/results.tsv) are tab-separated lines, appended as the phases go:

    kind  phase  name  ranks  outcome  seconds  detail

kind is `fact` (name = what, detail = its value), `phase` (outcome passed, failed, partial,
skipped or running; the last line of a phase counts), `test` (one ctest run of a program at a
rank count; detail = the path of device collectives), `sanitizer` (detail = the tool and its
finding) or `run` (another program, such as the demo). OUT/bench.json holds one JSON object per
line: the benchmark driver's records and those of the PyLops-MPI peer, each with the phase and
the path of device collectives it ran under.
"""
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks"))
from compare_pylops_mpi import readable  # noqa: E402 (the same readable times as the peer's table)

FIELDS = ("kind", "phase", "name", "ranks", "outcome", "seconds", "detail")


def clean(text):
    return " ".join(str(text).split())


def tsv_line(*values):
    return "\t".join(clean(v) for v in values)


def lines_of(out, name):
    """The lines of OUT/name (none where it does not exist)."""
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read().splitlines()


def read_records(out):
    rows = (line.split("\t") for line in lines_of(out, "results.tsv"))
    return [dict(zip(FIELDS, parts)) for parts in rows if len(parts) == len(FIELDS)]


def read_bench(out):
    entries = []
    for line in filter(str.strip, lines_of(out, "bench.json")):
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # a line cut by a stop: the others stand
    return entries


# ---- tests: what ctest would run ----------------------------------------------------------------

def tests(build, label_regex):
    """name, executable and arguments (after the mpiexec launch) of every test of label gpu whose
    name matches the expression, from ctest's JSON description."""
    listed = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1", "-L", "gpu"],
                            capture_output=True, text=True, check=True).stdout
    build = os.path.realpath(build)
    pattern = re.compile(label_regex)
    for test in json.loads(listed).get("tests", []):
        name, command = test.get("name", ""), test.get("command", [])
        if not pattern.search(name):
            continue
        # The executable: the first word inside the build folder that is not the device gate.
        for index, word in enumerate(command):
            if os.path.realpath(word).startswith(build + os.sep) and \
                    os.path.basename(word) != "distlops_device_gate":
                print("\t".join([name, word] + command[index + 1:]))
                break


# ---- ctest results --------------------------------------------------------------------------------

CTEST_LINE = re.compile(r"Test +#\d+: (\S+) [ .*]*(Passed|Failed|Not Run|Timeout|Skipped|"
                        r"Exception|\*\*\*\w+|\w+)[^0-9]*([0-9.]+) sec")


def ctest_lines(phase, detail, log, names_file):
    """One record per test of the phase: its outcome in the log, `not run` when it never
    started (the deadline came first)."""
    seen = {}
    stopped = False
    if os.path.exists(log):
        with open(log, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                stopped = stopped or "stop time has been passed" in line
                match = CTEST_LINE.search(line)
                if match:
                    outcome = match.group(2).strip("*").lower()
                    seen[match.group(1)] = (outcome, match.group(3))
    if stopped:  # ctest's stop time (the deadline) ended the runs it reports as timeouts
        seen = {name: ("deadline" if outcome == "timeout" else outcome, seconds)
                for name, (outcome, seconds) in seen.items()}
    with open(names_file) as handle:
        names = [line.strip() for line in handle if line.strip()]
    for name in names:
        program, ranks = split_test_name(name)
        outcome, seconds = seen.get(name, ("not run", ""))
        print(tsv_line("test", phase, program, ranks, outcome, seconds, detail))


def split_test_name(name):
    match = re.match(r"(.*)\.cuda\.np(\d+)$", name)
    return (match.group(1), match.group(2)) if match else (name, "")


# ---- benchmark records ------------------------------------------------------------------------------

def bench_lines(phase, detail, json_path, out):
    """Appends the driver's JSON lines to OUT/bench.json with the phase and the collectives
    path, and prints one record per case for results.tsv."""
    if not os.path.exists(json_path):
        return
    with open(json_path) as handle, open(os.path.join(out, "bench.json"), "a") as merged:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            entry = json.loads(line)
            entry.setdefault("source", "distlops")
            entry["phase"], entry["collectives"] = phase, detail
            merged.write(json.dumps(entry, sort_keys=True) + "\n")
            label = entry.get("case", "?") if entry["source"] == "distlops" else \
                f"{entry.get('case', '?')} ({entry['source']})"
            outcome = f"failed: {entry['error']}" if "error" in entry else "measured"
            print(tsv_line("bench", phase, label, entry.get("ranks", ""), outcome,
                           entry.get("seconds_per_unit", ""), detail))


# ---- the summary ----------------------------------------------------------------------------------

PHASE_TITLES = collections.OrderedDict([
    ("probe", "the machine, its software, the NCCL versions and a sum over two ranks on the GPU"),
    ("build", "configure and build (library, GPU test programs, benchmark driver, demo)"),
    ("tests-np1", "every GPU test program at 1 rank, and the demo's problem"),
    ("bench", "distlops_bench --space cuda at 1 rank, with the device copy bandwidth"),
    ("tests-np2", "the distributed GPU tests at 2 ranks sharing the GPU (NCCL's multi-rank mode "
                  "where possible), small-allreduce"),
    ("peer", "firstderivative, laplacian-cg, blockdiag-cgls through distlops and PyLops-MPI on "
             "CuPy, interleaved"),
    ("sanitizer", "compute-sanitizer on the programs in order of value, sized to the time left"),
    ("tests-np34", "the distributed GPU tests at 3 and 4 ranks (the library's fallback: staged)"),
])


def cell(outcome):
    return {"passed": "pass", "clean": "clean"}.get(outcome, f"**{outcome}**")


def seconds_text(value):
    try:
        return f"{float(value):.0f} s"
    except ValueError:
        return "-"


def time_text(seconds):
    return readable(seconds) if seconds else "-"


def checks_text(checks):
    return ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                     for k, v in (checks or {}).items())


def describe(entry):
    """A side's check values, or why it has none."""
    if not entry:
        return "-"
    if "error" in entry:
        return f"failed: {entry['error']}"
    return checks_text(entry.get("checks"))


def section(lines, title, header, rows, after=()):
    """A titled table of the summary, or a line saying that nothing of the kind ran."""
    lines += ["", f"## {title}", ""]
    if not rows:
        lines.append("None ran.")
        return
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(str(value) for value in row) + " |" for row in rows]
    if after:
        lines += [""] + list(after)


def lease_facts(records):
    """The facts; where a lease took several calls, the latest holds, and each call's own
    account of itself is kept."""
    facts = collections.OrderedDict()
    for record in (r for r in records if r["kind"] == "fact"):
        name, value = record["name"], record["detail"]
        if name == "call" and name in facts and value.startswith("deadline"):
            value = f"{facts[name]}; then {value}"
        facts[name] = value
    return facts


def lease_phases(records):
    """The last word on each phase, where a later call that left a phase out does not count."""
    phases = collections.OrderedDict()
    for record in (r for r in records if r["kind"] == "phase"):
        left_out = record["outcome"] == "skipped" and record["detail"].startswith("not in --phases")
        if not (left_out and record["name"] in phases):
            phases[record["name"]] = record
    return phases


FACT_LABELS = (("date", "date"), ("commit", "commit"), ("gpu", "device"), ("driver", "driver"),
               ("cuda", "CUDA toolkit"), ("nccl", "NCCL"),
               ("nccl-image", "NCCL of the machine's image"),
               ("nccl-carried", "NCCL carried with the bundle"),
               ("nccl-multi-rank", "NCCL between ranks on one GPU"), ("mpi", "MPI"),
               ("python", "Python, CuPy, mpi4py"), ("sanitizer", "compute-sanitizer"),
               ("host", "host"), ("call", "the call"))


def phase_row(name, title, record):
    if record is None:
        return [name, title, "not reached", "-", "the call ended before it"]
    outcome = record["outcome"]
    if outcome == "running":
        outcome = "**interrupted** (the call stopped during it)"
    elif outcome not in ("passed", "skipped"):
        outcome = f"**{outcome}**"
    return [name, title, outcome, seconds_text(record["seconds"]), record["detail"]]


def test_table(tests):
    """Programs by (phase, rank count), and the lines after the table."""
    columns = list(collections.OrderedDict.fromkeys((r["phase"], r["ranks"]) for r in tests))
    table = collections.OrderedDict()
    for record in tests:
        table.setdefault(record["name"], {})[(record["phase"], record["ranks"])] = record
    header = ["program"] + [f"np{ranks} ({phase})" for phase, ranks in columns]
    rows = [[program] + [cell(runs[c]["outcome"]) if c in runs else "-" for c in columns]
            for program, runs in table.items()]
    counts = collections.Counter(r["outcome"] for r in tests)
    after = ["Totals: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items())) +
             f" of {len(tests)} runs. Collectives per column: " +
             "; ".join(sorted({f"{r['phase']} np{r['ranks']}: {r['detail']}" for r in tests})) +
             "."]
    return header, rows, after


def bench_row(entry):
    bandwidth = entry.get("bandwidth_bytes_per_second") or 0
    fraction = entry.get("fraction_of_reference") or 0
    return [entry.get("case"), entry.get("ranks"), entry.get("collectives"),
            f"{time_text(entry.get('seconds_per_unit', 0))} per {entry.get('unit', 'unit')}",
            f"{bandwidth / 1e9:.1f} GB/s" if bandwidth else "-",
            f"{100 * fraction:.1f} %" if bandwidth else "-", checks_text(entry.get("checks"))]


def peer_rows(peer):
    by_case = collections.OrderedDict()
    for entry in peer:
        by_case.setdefault((entry.get("case"), entry.get("ranks")), {})[entry.get("source")] = entry
    rows = []
    for (case, ranks), sides in by_case.items():
        ours, theirs = sides.get("distlops"), sides.get("pylops-mpi")
        mine = ours.get("seconds_per_unit") if ours else None
        other = theirs.get("seconds_per_unit") if theirs else None
        rows.append([case, ranks, time_text(mine), time_text(other),
                     f"{other / mine:.2f}" if mine and other else "-",
                     f"{describe(ours)}; {describe(theirs)}"])
    return rows


def render(out, *more):
    """Writes OUT/summary.md from the records of OUT and, for a lease whose work took several
    calls, those of the other calls' folders after them."""
    records = [r for folder in (out,) + more for r in read_records(folder)]
    bench = [b for folder in (out,) + more for b in read_bench(folder)]
    facts, phases = lease_facts(records), lease_phases(records)
    lines = [f"# GPU validation: {facts.get('date', '?')}, {facts.get('gpu', 'no GPU')}", "",
             f"Written by scripts/gpu_test.sh; committed as docs/gpu-runs/{facts.get('file', '?')} "
             "(docs/gpu-runs/README.md says what each part holds)."]
    section(lines, "The run", ["what", "value"],
            [[label, facts[key]] for key, label in FACT_LABELS if key in facts])
    section(lines, "Phases, in the order they run", ["phase", "what", "outcome", "time", "note"],
            [phase_row(name, title, phases.get(name)) for name, title in PHASE_TITLES.items()])

    tests = [r for r in records if r["kind"] == "test"]
    header, rows, after = test_table(tests) if tests else ([], [], [])
    section(lines, "GPU tests (ctest -L gpu), per program and rank count", header, rows, after)

    section(lines, "compute-sanitizer, 1 rank", ["program", "tool", "finding", "time"],
            [[r["name"], r["detail"].partition(": ")[0],
              cell(r["outcome"]) + (": " + r["detail"].partition(": ")[2]
                                    if r["detail"].partition(": ")[2] else ""),
              seconds_text(r["seconds"])] for r in records if r["kind"] == "sanitizer"])

    ours = [b for b in bench if b.get("source", "distlops") == "distlops" and b.get("phase") != "peer"]
    copies = collections.OrderedDict(((b.get("phase"), b.get("ranks")),
                                      b["reference_bytes_per_second"])
                                     for b in ours if b.get("reference_bytes_per_second"))
    section(lines, "Benchmarks, distlops_bench --space cuda",
            ["case", "ranks", "collectives", "time per unit", "bandwidth",
             "% of the copy bandwidth", "checks"], [bench_row(b) for b in ours],
            [f"Device-to-device copy bandwidth measured in the same run ({phase}, {ranks} "
             f"rank{'s' if str(ranks) != '1' else ''}): {reference / 1e9:.1f} GB/s."
             for (phase, ranks), reference in copies.items()])

    section(lines, "distlops --space cuda against PyLops-MPI on CuPy, side by side",
            ["case", "ranks", "distlops", "PyLops-MPI on CuPy", "PyLops-MPI / distlops",
             "checks (distlops; PyLops-MPI)"],
            peer_rows([b for b in bench if b.get("phase") == "peer"]))

    runs = [[r["name"], r["ranks"], cell(r["outcome"]), seconds_text(r["seconds"]), r["detail"]]
            for r in records if r["kind"] == "run"]
    if runs:
        section(lines, "Other runs", ["run", "ranks", "outcome", "time", "note"], runs)
    notes = [f"- {r['phase']}: {r['detail']}" for r in records if r["kind"] == "note"]
    if notes:
        lines += ["", "## Notes", ""] + notes
    lines.append("")
    temporary = os.path.join(out, ".summary.md.partial")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    os.replace(temporary, os.path.join(out, "summary.md"))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "render" and arguments:
        render(*arguments)
    elif command == "tests" and len(arguments) == 2:
        tests(*arguments)
    elif command == "ctest" and len(arguments) == 4:
        ctest_lines(*arguments)
    elif command == "bench" and len(arguments) == 4:
        bench_lines(*arguments)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
