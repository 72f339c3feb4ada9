#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Interchange with h5py, both ways.

Usage: h5py_interop.py COMMAND...  (COMMAND runs test_hdf5's hidden "[.h5py]" test case)

Writes in_<dtype>.h5 with h5py (dataset "data", shape (7, 5), the values of the test case),
runs COMMAND with DISTLOPS_H5PY_DIR pointing at them (it checks the values at every layout and
writes each back from an array split along axis 1), then reads every out_ file with h5py and
compares it with its in_ file. Exits with 77 (skipped) where h5py is missing.
"""
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as missing:
    print(f"h5py_interop: {missing}, skipped")
    sys.exit(77)

DTYPES = {"f4": np.float32, "f8": np.float64, "c8": np.complex64, "c16": np.complex128}


def values(dtype):
    i = np.arange(35)
    data = (i % 11) * 0.5 - 2.0
    if np.dtype(dtype).kind == "c":
        data = data + 1j * ((i % 3) - 1.0)
    return data.astype(dtype).reshape(7, 5)


def main():
    with tempfile.TemporaryDirectory(prefix="distlops-h5py-") as directory:
        for code, dtype in DTYPES.items():
            with h5py.File(os.path.join(directory, f"in_{code}.h5"), "w") as f:
                f.create_dataset("data", data=values(dtype), chunks=(3, 5))
        env = dict(os.environ, DISTLOPS_H5PY_DIR=directory)
        result = subprocess.run(sys.argv[1:], env=env)
        if result.returncode != 0:
            print(f"h5py_interop: the test program failed with status {result.returncode}")
            return 1
        failures = 0
        for code, dtype in DTYPES.items():
            with h5py.File(os.path.join(directory, f"out_{code}.h5"), "r") as f:
                data = f["data"]
                ok = (data.dtype == np.dtype(dtype) and data.shape == (7, 5)
                      and np.array_equal(data[...], values(dtype))
                      and data.attrs["distlops_axis"] == 1
                      and data.attrs["distlops_partition"] == b"SCATTER")
            if not ok:
                print(f"h5py_interop: out_{code}.h5 differs from what was written")
                failures += 1
        print(f"{4 - failures} passed, {failures} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
