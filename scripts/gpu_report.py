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

FIELDS = ("kind", "phase", "name", "ranks", "outcome", "seconds", "detail")


def clean(text):
    return " ".join(str(text).split())


def tsv_line(*values):
    return "\t".join(clean(v) for v in values)


def read_records(out):
    records = []
    path = os.path.join(out, "results.tsv")
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == len(FIELDS):
                    records.append(dict(zip(FIELDS, parts)))
    return records


def read_bench(out):
    entries = []
    path = os.path.join(out, "bench.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                line = line.strip()
                if line:
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
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds:.3f} s"


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


def render(out, *more):
    """Writes OUT/summary.md from the records of OUT and, for a lease whose work took several
    calls, those of the other calls' folders after them."""
    records = [r for folder in (out,) + more for r in read_records(folder)]
    bench = [b for folder in (out,) + more for b in read_bench(folder)]
    facts = collections.OrderedDict()
    for record in (r for r in records if r["kind"] == "fact"):
        name, value = record["name"], record["detail"]
        # Each call of a lease says how it went; the other facts, the latest holds.
        if name == "call" and name in facts and not facts[name].endswith(value):
            value = f"{facts[name]}; then {value}" if value.startswith("deadline") else value
        facts[name] = value
    phases = collections.OrderedDict()
    for record in (r for r in records if r["kind"] == "phase"):
        left_out = record["outcome"] == "skipped" and record["detail"].startswith("not in --phases")
        if not (left_out and record["name"] in phases):  # a later call that left it out
            phases[record["name"]] = record
    lines = []
    add = lines.append
    title_device = facts.get("gpu", "no GPU")
    add(f"# GPU validation: {facts.get('date', '?')}, {title_device}")
    add("")
    add(f"Written by scripts/gpu_test.sh; committed as docs/gpu-runs/{facts.get('file', '?')} "
        "(docs/gpu-runs/README.md says what each part holds).")
    add("")
    add("## The run")
    add("")
    add("| what | value |")
    add("|---|---|")
    for key, label in (("date", "date"), ("commit", "commit"), ("gpu", "device"),
                       ("driver", "driver"), ("cuda", "CUDA toolkit"), ("nccl", "NCCL"),
                       ("nccl-image", "NCCL of the machine's image"),
                       ("nccl-carried", "NCCL carried with the bundle"),
                       ("nccl-multi-rank", "NCCL between ranks on one GPU"), ("mpi", "MPI"),
                       ("python", "Python, CuPy, mpi4py"), ("sanitizer", "compute-sanitizer"),
                       ("host", "host"), ("call", "the call")):
        if key in facts:
            add(f"| {label} | {facts[key]} |")
    add("")
    add("## Phases, in the order they run")
    add("")
    add("| phase | what | outcome | time | note |")
    add("|---|---|---|---|---|")
    for name, title in PHASE_TITLES.items():
        record = phases.get(name)
        if record is None:
            add(f"| {name} | {title} | not reached | - | the call ended before it |")
            continue
        outcome = record["outcome"]
        if outcome == "running":
            outcome = "**interrupted** (the call stopped during it)"
        elif outcome not in ("passed", "skipped"):
            outcome = f"**{outcome}**"
        add(f"| {name} | {title} | {outcome} | {seconds_text(record['seconds'])} | "
            f"{record['detail']} |")

    tests = [r for r in records if r["kind"] == "test"]
    add("")
    add("## GPU tests (ctest -L gpu), per program and rank count")
    add("")
    if not tests:
        add("None ran.")
    else:
        columns = []
        for record in tests:
            column = (record["phase"], record["ranks"])
            if column not in columns:
                columns.append(column)
        table = collections.OrderedDict()
        for record in tests:
            table.setdefault(record["name"], {})[(record["phase"], record["ranks"])] = record
        headings = [f"np{ranks} ({phase})" for phase, ranks in columns]
        add("| program | " + " | ".join(headings) + " |")
        add("|---|" + "---|" * len(columns))
        for program, runs in table.items():
            add(f"| {program} | " + " | ".join(
                cell(runs[c]["outcome"]) if c in runs else "-" for c in columns) + " |")
        add("")
        counts = collections.Counter(r["outcome"] for r in tests)
        add("Totals: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items())) +
            f" of {len(tests)} runs. Collectives per column: " +
            "; ".join(sorted({f"{r['phase']} np{r['ranks']}: {r['detail']}" for r in tests})) +
            ".")

    sanitizer = [r for r in records if r["kind"] == "sanitizer"]
    add("")
    add("## compute-sanitizer, 1 rank")
    add("")
    if not sanitizer:
        add("None ran.")
    else:
        add("| program | tool | finding | time |")
        add("|---|---|---|---|")
        for record in sanitizer:
            tool, _, finding = record["detail"].partition(": ")
            add(f"| {record['name']} | {tool} | {cell(record['outcome'])}"
                f"{': ' + finding if finding else ''} | {seconds_text(record['seconds'])} |")

    ours = [b for b in bench if b.get("source", "distlops") == "distlops" and b.get("phase") != "peer"]
    add("")
    add("## Benchmarks, distlops_bench --space cuda")
    add("")
    if not ours:
        add("None ran.")
    else:
        add("| case | ranks | collectives | time per unit | bandwidth | % of the copy bandwidth "
            "| checks |")
        add("|---|---|---|---|---|---|---|")
        copies = collections.OrderedDict()
        for entry in ours:
            reference = entry.get("reference_bytes_per_second") or 0
            if reference:
                copies[(entry.get("phase"), entry.get("ranks"))] = reference
            checks = checks_text(entry.get("checks"))
            bandwidth = entry.get("bandwidth_bytes_per_second") or 0
            fraction = entry.get("fraction_of_reference") or 0
            add(f"| {entry.get('case')} | {entry.get('ranks')} | {entry.get('collectives')} | "
                f"{time_text(entry.get('seconds_per_unit', 0))} per {entry.get('unit', 'unit')} | "
                f"{bandwidth / 1e9:.1f} GB/s | "
                f"{100 * fraction:.1f} % | {checks} |" if bandwidth else
                f"| {entry.get('case')} | {entry.get('ranks')} | {entry.get('collectives')} | "
                f"{time_text(entry.get('seconds_per_unit', 0))} per {entry.get('unit', 'unit')} | "
                f"- | - | {checks} |")
        add("")
        for (phase, ranks), reference in copies.items():
            add(f"Device-to-device copy bandwidth measured in the same run ({phase}, {ranks} "
                f"rank{'s' if str(ranks) != '1' else ''}): {reference / 1e9:.1f} GB/s.")

    peer = [b for b in bench if b.get("phase") == "peer"]
    add("")
    add("## distlops --space cuda against PyLops-MPI on CuPy, side by side")
    add("")
    if not peer:
        add("None ran.")
    else:
        by_case = collections.OrderedDict()
        for entry in peer:
            by_case.setdefault((entry.get("case"), entry.get("ranks")), {})[entry.get("source")] = entry
        add("| case | ranks | distlops | PyLops-MPI on CuPy | PyLops-MPI / distlops | checks "
            "(distlops; PyLops-MPI) |")
        add("|---|---|---|---|---|---|")
        for (case, ranks), sides in by_case.items():
            ours_entry, theirs = sides.get("distlops"), sides.get("pylops-mpi")
            mine = ours_entry.get("seconds_per_unit") if ours_entry else None
            other = theirs.get("seconds_per_unit") if theirs else None
            ratio = f"{other / mine:.2f}" if mine and other else "-"
            add(f"| {case} | {ranks} | {time_text(mine) if mine else '-'} | "
                f"{time_text(other) if other else '-'} | {ratio} | "
                f"{describe(ours_entry)}; {describe(theirs)} |")

    runs = [r for r in records if r["kind"] == "run"]
    if runs:
        add("")
        add("## Other runs")
        add("")
        add("| run | ranks | outcome | time | note |")
        add("|---|---|---|---|---|")
        for record in runs:
            add(f"| {record['name']} | {record['ranks']} | {cell(record['outcome'])} | "
                f"{seconds_text(record['seconds'])} | {record['detail']} |")
    notes = [r for r in records if r["kind"] == "note"]
    if notes:
        add("")
        add("## Notes")
        add("")
        for record in notes:
            add(f"- {record['phase']}: {record['detail']}")
    add("")
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
