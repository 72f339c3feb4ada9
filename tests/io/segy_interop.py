#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Post-stack SEG-Y files written by segyio, read by distlops.

Usage: segy_interop.py COMMAND...  (COMMAND runs test_segy's hidden "[.segy]" test case)

Writes ibm.sgy and ieee.sgy (13 traces of 17 samples at 4 ms, trace t sample s holding
0.5 t - 0.25 s) and truncated.sgy (ieee.sgy less 10 bytes), then runs COMMAND with
DISTLOPS_SEGY_DIR pointing at them. Exits with 77 (skipped) where segyio is missing.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import segyio
except ImportError as missing:
    print(f"segy_interop: {missing}, skipped")
    sys.exit(77)


def write(path, format_code):
    spec = segyio.spec()
    spec.format = format_code
    spec.samples = list(range(17))
    spec.tracecount = 13
    with segyio.create(path, spec) as f:
        f.bin.update({segyio.BinField.Interval: 4000, segyio.BinField.Samples: 17})
        for t in range(13):
            f.header[t] = {segyio.TraceField.TRACE_SAMPLE_INTERVAL: 4000,
                           segyio.TraceField.TRACE_SAMPLE_COUNT: 17}
            f.trace[t] = (0.5 * t - 0.25 * np.arange(17)).astype(np.float32)


def main():
    with tempfile.TemporaryDirectory(prefix="distlops-segy-") as directory:
        write(os.path.join(directory, "ibm.sgy"), 1)
        write(os.path.join(directory, "ieee.sgy"), 5)
        with open(os.path.join(directory, "ieee.sgy"), "rb") as f:
            data = f.read()
        with open(os.path.join(directory, "truncated.sgy"), "wb") as f:
            f.write(data[:-10])
        env = dict(os.environ, DISTLOPS_SEGY_DIR=directory)
        return subprocess.run(sys.argv[1:], env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
