#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Archives written by the NumPy installed here, read by distlops.

Usage: npz_numpy.py COMMAND...  (COMMAND runs test_npz's hidden "[.npz-numpy]" test case)

Writes savez.npz (numpy.savez: stored members) and savez_compressed.npz
(numpy.savez_compressed: deflated members) holding f4, f8, c8 and c16 arrays of shape (6, 5)
and a float64 array "big" of shape (600, 70), all with the reference values of
io_test_support.hpp, then runs COMMAND with DISTLOPS_NPZ_NUMPY_DIR pointing at them.

Exits with 77 (reported as skipped by CTest) when NumPy cannot be imported, so that a machine
without NumPy never counts this check as passed.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("npz_numpy: NumPy is not installed, the archives written by NumPy are not tested (skipped)")
    sys.exit(77)

DTYPES = {"f4": np.float32, "f8": np.float64, "c8": np.complex64, "c16": np.complex128}


def values(shape, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    real = (i % 61) * 0.25 - 7.5
    data = real + 1j * (((i % 13) - 6) * 0.125) if np.dtype(dtype).kind == "c" else real
    return data.astype(dtype).reshape(shape)


def main():
    arrays = {code: values((6, 5), dtype) for code, dtype in DTYPES.items()}
    arrays["big"] = values((600, 70), np.float64)
    with tempfile.TemporaryDirectory(prefix="distlops-npz-") as directory:
        np.savez(os.path.join(directory, "savez.npz"), **arrays)
        np.savez_compressed(os.path.join(directory, "savez_compressed.npz"), **arrays)
        env = dict(os.environ, DISTLOPS_NPZ_NUMPY_DIR=directory)
        result = subprocess.run(sys.argv[1:], env=env)
        if result.returncode != 0:
            print(f"npz_numpy: the test program failed with status {result.returncode}")
            return 1
        print("npz_numpy: the archives of numpy.savez and numpy.savez_compressed were read")
        return 0


if __name__ == "__main__":
    sys.exit(main())
