#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Interchange with the NumPy installed here, both ways.

Usage: numpy_interop.py COMMAND...  (COMMAND runs test_npy's hidden "[.numpy-live]" test case)

Writes in_<dtype>_<shape>.npy files with NumPy (random shapes, every format version, the values
of reference_value in test_npy.cpp), runs COMMAND with DISTLOPS_NPY_EXCHANGE_DIR pointing at
them (it checks every file's values and writes each back as out_<...>.npy from a distributed
array), then loads every out_ file with NumPy and compares it with its in_ file.
"""
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import numpy.lib.format as fmt

DTYPES = {"f4": np.float32, "f8": np.float64, "c8": np.complex64, "c16": np.complex128}


def values(shape, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    real = (i % 61) * 0.25 - 7.5
    data = real + 1j * (((i % 13) - 6) * 0.125) if np.dtype(dtype).kind == "c" else real
    return data.astype(dtype).reshape(shape)


def main():
    rng = np.random.default_rng(2024)
    with tempfile.TemporaryDirectory(prefix="distlops-numpy-") as directory:
        names = []
        for case in range(24):
            code = list(DTYPES)[case % 4]
            ndim = 1 + case % 3
            shape = tuple(int(x) for x in rng.integers(0 if case == 5 else 1, 9, size=ndim))
            name = f"{code}_{'x'.join(map(str, shape))}_{case}.npy"
            with open(os.path.join(directory, "in_" + name), "wb") as f:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # versions 2.0 and 3.0 warn
                    fmt.write_array(f, values(shape, DTYPES[code]), version=[None, (2, 0), (3, 0)][case % 3])
            names.append(name)
        env = dict(os.environ, DISTLOPS_NPY_EXCHANGE_DIR=directory)
        result = subprocess.run(sys.argv[1:], env=env)
        if result.returncode != 0:
            print(f"numpy_interop: the test program failed with status {result.returncode}")
            return 1
        failures = 0
        for name in names:
            expected = np.load(os.path.join(directory, "in_" + name))
            try:
                actual = np.load(os.path.join(directory, "out_" + name))
            except Exception as error:  # any failure to load is a finding
                print(f"numpy_interop: NumPy cannot load out_{name}: {error}")
                failures += 1
                continue
            if actual.dtype != expected.dtype or actual.shape != expected.shape or not np.array_equal(actual, expected):
                print(f"numpy_interop: out_{name} differs: {actual.dtype} {actual.shape}")
                failures += 1
        print(f"numpy_interop: {len(names) - failures} of {len(names)} files read back by NumPy")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
