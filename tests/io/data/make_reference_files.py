#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Writes the reference .npy files of tests/io/test_npy.cpp with NumPy.

Run from this directory: python3 make_reference_files.py. The element at flat (C order) index i
of every array is value(i) below, which the C++ tests compute independently; all values are
exact in float32.
"""
import warnings

import numpy as np
import numpy.lib.format as fmt


def values(shape, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    real = (i % 61) * 0.25 - 7.5
    if np.dtype(dtype).kind == "c":
        imag = ((i % 13) - 6) * 0.125
        data = real + 1j * imag
    else:
        data = real
    return data.astype(dtype).reshape(shape)


def save(name, array):
    np.save(name, array)


def write(name, array, version):
    with open(name, "wb") as f:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fmt.write_array(f, array, version=version)


def raw(name, header_text, array, version=(1, 0)):
    """A file with a hand-written header dictionary (padded to 16 bytes, as NumPy < 1.21 did)."""
    text = header_text.encode("latin1")
    size_bytes = 2 if version == (1, 0) else 4
    prefix = 6 + 2 + size_bytes
    total = prefix + len(text) + 1
    padding = (16 - total % 16) % 16
    body = text + b" " * padding + b"\n"
    with open(name, "wb") as f:
        f.write(b"\x93NUMPY" + bytes(version))
        f.write(len(body).to_bytes(size_bytes, "little"))
        f.write(body)
        f.write(np.ascontiguousarray(array).tobytes())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy warns about Python 2 headers
        np.testing.assert_array_equal(np.load(name), array)  # NumPy itself accepts the file


# Written by numpy.save: version 1.0, C order; our writer must produce the same bytes.
save("f4_7.npy", values((7,), np.float32))
save("f8_5x3.npy", values((5, 3), np.float64))
save("f8_3x4x5.npy", values((3, 4, 5), np.float64))
save("c8_3x4x2.npy", values((3, 4, 2), np.complex64))
save("c16_4x3.npy", values((4, 3), np.complex128))
save("f8_0x3.npy", values((0, 3), np.float64))
# Other format versions.
write("f8_5x3_v2.npy", values((5, 3), np.float64), (2, 0))
write("c16_4x3_v3.npy", values((4, 3), np.complex128), (3, 0))
# Hand-written headers NumPy accepts: keys in another order, double quotes, odd whitespace, no
# trailing comma in the dictionary, a trailing comma in the tuple, '|' and '=' byte orders,
# Python 2 long integers.
raw("f8_5x3_handmade.npy",
    "{ \"shape\" :(5,3,) ,\t'fortran_order':False,'descr':  '|f8'}", values((5, 3), np.float64))
raw("c8_3x4x2_handmade.npy",
    "{'fortran_order': False,\n 'descr': '=c8', 'shape': ( 3 , 4 , 2 ), }",
    values((3, 4, 2), np.complex64))
raw("f4_7_python2.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (7L,), }",
    values((7,), np.float32))
# Files NumPy writes that distlops rejects.
save("f8_3x4_fortran.npy", np.asfortranarray(values((3, 4), np.float64)))
save("f8_5_big_endian.npy", values((5,), ">f8"))
save("i8_5.npy", np.arange(5, dtype="<i8"))
save("f8_scalar.npy", np.array(2.5))
