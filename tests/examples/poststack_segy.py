#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The post-stack demo reads its data from SEG-Y (--segy) as from .npy (--data).

Usage: poststack_segy.py RUN_DIR WORK_DIR COMMAND...  (COMMAND: the demo under mpiexec)

Takes data.npy of the demo's run in RUN_DIR, rounds it to float32, writes it once as a
post-stack SEG-Y file with segyio (IEEE floats, 4 ms) and once as .npy, runs the demo on
each with a fixed number of iterations, and checks that the inverted models are equal bit for
bit (the same float32 values reach the solver either way), that the SEG-Y run took its grid
and sampling from the file, and that a --dt that disagrees with the file is refused. Exits
with 77 (skipped) where segyio or NumPy is missing.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
    import segyio
except ImportError as missing:
    print(f"poststack_segy: {missing}, skipped")
    sys.exit(77)


def main():
    run_dir, work, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    data = np.load(os.path.join(run_dir, "data.npy")).astype(np.float32)
    nx, nz = data.shape
    np.save(os.path.join(work, "data32.npy"), data.astype(np.float64))
    spec = segyio.spec()
    spec.format = 5
    spec.samples = list(range(nz))
    spec.tracecount = nx
    segy = os.path.join(work, "data.sgy")
    with segyio.create(segy, spec) as f:
        f.bin.update({segyio.BinField.Interval: 4000, segyio.BinField.Samples: nz})
        for t in range(nx):
            f.header[t] = {segyio.TraceField.TRACE_SAMPLE_INTERVAL: 4000}
            f.trace[t] = data[t]
    common = ["--niter", "10"]
    runs = {"npy": ["--data", os.path.join(work, "data32.npy")], "segy": ["--segy", segy]}
    for name, arguments in runs.items():
        out = os.path.join(work, name)
        result = subprocess.run(command + common + arguments + ["--output", out])
        if result.returncode != 0:
            print(f"poststack_segy: the {name} run failed with status {result.returncode}")
            return 1
    a = np.load(os.path.join(work, "npy", "inverted_log_impedance.npy"))
    b = np.load(os.path.join(work, "segy", "inverted_log_impedance.npy"))
    with open(os.path.join(work, "segy", "summary.json")) as f:
        summary = json.load(f)
    checks = {
        "the inverted models are equal bit for bit": np.array_equal(a, b),
        "the grid is the file's": (summary["nx"], summary["nz"]) == (nx, nz),
        "dt is the file's": abs(summary["dt"] - 0.004) < 1e-12,
        "the data were not modelled": summary["modelled_data"] is False,
    }
    refused = subprocess.run(command + ["--segy", segy, "--dt", "0.002", "--output",
                                        os.path.join(work, "refused")],
                             capture_output=True, text=True)
    checks["a disagreeing --dt is refused"] = (
        refused.returncode != 0 and "disagrees with the sample interval" in refused.stdout + refused.stderr)
    failures = [name for name, ok in checks.items() if not ok]
    for name in failures:
        print(f"poststack_segy: failed: {name}")
    print(f"{len(checks) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
