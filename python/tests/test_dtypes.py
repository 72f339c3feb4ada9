# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Arrays of another dtype than an operator's or another array's: cast where PyLops-MPI casts
(between precisions, real to complex: NumPy's same_kind), a TypeError naming both dtypes and the
operator where a cast would drop an imaginary part (PyLops-MPI drops it with a ComplexWarning).
The references are NumPy's products of the global matrices."""
import numpy as np
import pytest
import scipy.linalg
from conftest import blockdiag_problem, random_array

import distlops as dl


def distributed(values, shapes):
    return dl.DistributedArray.to_dist(values, local_shapes=shapes)


@pytest.mark.parametrize("op_dtype, x_dtype", [(np.complex128, np.float64),
                                               (np.complex64, np.float32),
                                               (np.float64, np.float32),
                                               (np.float32, np.float64),
                                               (np.complex128, np.complex64)])
def test_matvec_casts_as_pylops_mpi(comm, op_dtype, x_dtype):
    Op, dense, _, _, _, _ = blockdiag_problem(comm, op_dtype)
    shapes = [(3,)] * comm.size
    xg = random_array(dense.shape[1], x_dtype, 5)
    y = Op.matvec(distributed(xg, shapes))
    # PyLops-MPI's result has the operator's dtype, whatever the input's.
    assert y.dtype == np.dtype(op_dtype)
    rtol = 1e-5 if np.dtype(np.float32) in (np.dtype(op_dtype), np.dtype(x_dtype)) or \
        np.dtype(np.complex64) in (np.dtype(op_dtype), np.dtype(x_dtype)) else 1e-12
    np.testing.assert_allclose(y.asarray(), dense @ xg.astype(np.complex128), rtol=rtol)
    x = Op.rmatvec(distributed(xg, shapes))
    assert x.dtype == np.dtype(op_dtype)
    np.testing.assert_allclose(x.asarray(), dense.conj().T @ xg, rtol=rtol)


@pytest.mark.parametrize("call", ["matvec", "rmatvec", "matvec_into"])
def test_complex_array_into_real_operator_names_both_dtypes(comm, call):
    Op, dense, _, _, _, _ = blockdiag_problem(comm, np.float64)
    shapes = [(3,)] * comm.size
    x = distributed(random_array(dense.shape[1], np.complex128, 6), shapes)
    with pytest.raises(TypeError) as raised:
        if call == "matvec_into":
            Op.matvec_into(x, distributed(np.zeros(dense.shape[0]), shapes))
        else:
            getattr(Op, call)(x)
    message = str(raised.value)
    assert "complex128" in message and "float64" in message
    assert Op.name in message and call in message and "imaginary part" in message


def test_output_of_another_dtype_raises(comm):
    Op, dense, _, _, _, _ = blockdiag_problem(comm, np.float64)
    shapes = [(3,)] * comm.size
    x = distributed(random_array(dense.shape[1], np.float64, 7), shapes)
    y = distributed(np.zeros(dense.shape[0], np.float32), shapes)
    with pytest.raises(TypeError, match="output array is float32, the operator writes float64"):
        Op.matvec_into(x, y)


def test_local_operator_casts_alike(comm):
    a = random_array((4, 3), np.complex128, 8)
    A = dl.MatrixMult(a)
    x = random_array(3, np.float64, 9)
    np.testing.assert_allclose(A.matvec(x), a @ x, rtol=1e-12)
    R = dl.MatrixMult(a.real.copy())
    with pytest.raises(TypeError, match="complex128 array where float64 is taken"):
        R.matvec(x + 1j)


def test_array_arithmetic_takes_the_left_dtype(comm):
    shapes = [(3,)] * comm.size
    n = 3 * comm.size
    ag, bg = random_array(n, np.complex128, 10), random_array(n, np.float64, 11)
    a, b = distributed(ag, shapes), distributed(bg, shapes)
    s = a + b
    assert s.dtype == np.complex128
    np.testing.assert_allclose(s.asarray(), ag + bg, rtol=1e-14)
    lower = distributed(bg.astype(np.float32), shapes)
    t = lower * b
    assert t.dtype == np.float32
    np.testing.assert_allclose(t.asarray(), bg.astype(np.float32) * bg, rtol=1e-6)
    with pytest.raises(TypeError, match="complex128 array where float64 is taken"):
        b + a
    with pytest.raises(TypeError, match="complex128 array where float64 is taken"):
        b += a
    # dot and vdot multiply in the dtype of both, as NumPy's.
    np.testing.assert_allclose(b.dot(a), np.dot(bg, ag), rtol=1e-12)
    np.testing.assert_allclose(b.dot(a, vdot=True), np.vdot(bg, ag), rtol=1e-12)


def test_stacked_arrays_cast_alike(comm):
    shapes = [(3,)] * comm.size
    n = 3 * comm.size
    parts = [random_array(n, np.complex128, 12), random_array(n, np.complex128, 13)]
    s = dl.StackedDistributedArray([distributed(p, shapes) for p in parts])
    r = dl.StackedDistributedArray([distributed(p.real.copy(), shapes) for p in parts])
    total = s + r
    assert total.dtype == np.complex128
    np.testing.assert_allclose(total.asarray(), np.concatenate(parts) +
                               np.concatenate([p.real for p in parts]), rtol=1e-14)
    with pytest.raises(TypeError, match="complex128 array where float64 is taken"):
        r + s
    assert r.astype(np.complex64).dtype == np.complex64


def test_solvers_cast_data_and_start(comm):
    Op, dense, _, bg, _, _ = blockdiag_problem(comm, np.float64)
    shapes = [(3,)] * comm.size
    # float32 data and start for a float64 operator: cast, solved in float64.
    b = distributed(bg.astype(np.float32), shapes)
    x0 = distributed(np.zeros(dense.shape[1], np.float32), shapes)
    x, _, _, _, _, _ = dl.cgls(Op, b, x0=x0, niter=40, tol=0.0)
    assert x.dtype == np.float64
    expected = scipy.linalg.solve(dense, bg.astype(np.float32).astype(np.float64))
    np.testing.assert_allclose(x.asarray(), expected, rtol=1e-8, atol=1e-10)
    with pytest.raises(TypeError, match=r"cgls\(y\).*complex128 array where float64"):
        dl.cgls(Op, distributed(bg.astype(np.complex128), shapes), niter=2)
    with pytest.raises(TypeError, match=r"cg\(x0\).*complex128 array where float64"):
        dl.cg(Op, b, x0=distributed(np.zeros(dense.shape[1], np.complex128), shapes), niter=2)
