#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Reads the SEG-Y images kirchhoff_lsm --segy wrote with segyio's Python module and compares
them with the .npy arrays of the same run (float32 samples: equal to float32 rounding).

    kirchhoff_segy.py OUTPUT_DIR

Exit status 0 when they agree, 1 when they do not, 77 (Skipped) without segyio or NumPy."""
import pathlib
import sys

try:
    import numpy as np
    import segyio
except ImportError as error:
    print(f"kirchhoff_segy: {error.name} is missing, skipped")
    sys.exit(77)


def main():
    output = pathlib.Path(sys.argv[1])
    failed = False
    for name in ("migrated", "lsm"):
        expected = np.load(output / f"{name}.npy").astype(np.float32)
        with segyio.open(output / f"{name}.sgy", ignore_geometry=True) as f:
            traces = f.trace.raw[:]
            interval = segyio.tools.dt(f)
            crosslines = [f.header[k][segyio.TraceField.CROSSLINE_3D] for k in range(f.tracecount)]
        same = traces.shape == expected.shape and np.array_equal(traces, expected)
        numbered = crosslines == list(range(1, expected.shape[0] + 1))
        print(f"{name}.sgy: {traces.shape} traces, interval {interval} us, "
              f"{'equal to' if same else 'DIFFERENT FROM'} {name}.npy, crosslines "
              f"{'1..n' if numbered else crosslines}")
        failed |= not (same and numbered)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
