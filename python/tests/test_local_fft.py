# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The local FFTs (PyLops' FFT, FFT2D, FFTND on one rank's arrays) against numpy.fft and
PyLops, their dot tests (the real-linear form for real models), their algebra, and the complex
ones as blocks of MPIBlockDiag at any rank count (the last of several ranks holds no block)."""
import numpy as np
import pylops
import pytest
from conftest import DTYPES, random_array, tolerance

import distlops as dl

# (operator, keyword arguments, the numpy.fft function and its arguments for real=False).
CASES = [
    ("FFT", dict(dims=(5, 6), axis=0, nfft=8, norm="ortho"),
     lambda x: np.fft.fft(x, n=8, axis=0, norm="ortho")),
    ("FFT", dict(dims=(7,), nfft=5, norm="none", ifftshift_before=True, fftshift_after=True),
     lambda x: np.fft.fftshift(np.fft.fft(np.fft.ifftshift(x), n=5))),
    ("FFT2D", dict(dims=(4, 5, 3), axes=(0, 2), nffts=(6, 2), norm="1/n",
                   fftshift_after=(True, False)),
     lambda x: np.fft.fftshift(np.fft.fftn(x, s=(6, 2), axes=(0, 2), norm="forward"), axes=0)),
    ("FFTND", dict(dims=(3, 4, 5), nffts=(3, 6, 4), ifftshift_before=(False, True, False)),
     lambda x: np.fft.fftn(np.fft.ifftshift(x, axes=1), s=(3, 6, 4), axes=(0, 1, 2),
                           norm="ortho")),
]
IDS = ["fft-pad", "fft-shifts", "fft2d-truncate", "fftnd"]


def complex_of(dtype):
    return np.result_type(dtype, np.complex64)


def close(actual, expected, dtype):
    rtol = tolerance(dtype) * 100
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * np.abs(expected).max())


def model_of(F, seed):
    return random_array(F.dims, F.model_dtype, seed)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_local_fft_matches_pylops_and_numpy(comm, dtype, real, case):
    name, kwargs, numpy_fft = case
    F = getattr(dl, name)(**kwargs, real=real, dtype=dtype)
    theirs = getattr(pylops.signalprocessing, name)(**kwargs, real=real, dtype=dtype)
    assert F.shape == theirs.shape and F.dims == tuple(theirs.dims)
    assert F.dimsd == tuple(theirs.dimsd) and F.dtype == theirs.dtype
    # PyLops' rdtype: a real model for real=True or a real dtype.
    assert F.model_dtype == theirs.rdtype and F.data_dtype == complex_of(dtype)
    x = model_of(F, 7 + comm.rank)
    y = F @ x
    assert y.shape == F.dimsd and y.dtype == complex_of(dtype)
    close(y, theirs @ x, dtype)
    close(F.matvec(x.ravel()), (theirs @ x).ravel(), dtype)
    if not real:
        close(y, numpy_fft(x.astype(np.complex128)), dtype)
    v = random_array(F.dimsd, complex_of(dtype), 9 + comm.rank)
    adjoint = F.rmatvec(v)
    assert adjoint.shape == F.dims and adjoint.dtype == F.model_dtype
    close(adjoint, theirs.H @ v, dtype)
    # Dot test: <F x, v> = <x, F^H v>, its real part when the model is real (PyLops' form for
    # operators that are not complex-linear).
    forward, backward = np.vdot(v, F @ x), np.vdot(adjoint, x)
    if F.model_dtype != F.data_dtype:
        forward, backward = forward.real, backward.real
    assert forward == pytest.approx(backward, rel=tolerance(dtype) * 100)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_local_fft_algebra(comm, dtype):
    # Ortho without padding: F^H F is the identity, for real models too.
    F = dl.FFT2D((6, 5), real=True, dtype=dtype)
    x = model_of(F, 20)
    close((F.H * F) @ x, x, dtype)
    close(((2.0 * F).H @ (F @ x)), 2 * x, dtype)
    # A local FFT after another local operator, and a sum of complex ones.
    D = dl.LocalFirstDerivative((6, 5), axis=0, dtype=F.model_dtype)
    dx = np.gradient(x, axis=0)
    dx[0], dx[-1] = 0, 0  # PyLops' centered derivative without edges
    close((F * D) @ x, F @ dx, dtype)
    G = dl.FFT((6, 5), axis=0, dtype=complex_of(dtype))
    z = random_array((6, 5), complex_of(dtype), 21)
    close((G + 3.0 * G) @ z, 4 * np.fft.fft(z, axis=0, norm="ortho"), dtype)
    # PyLops' frequency axes.
    H = dl.FFT2D((8, 6), nffts=(8, 10), sampling=(0.5, 2.0), real=True,
                 fftshift_after=(True, False), dtype=dtype)
    np.testing.assert_allclose(H.f1, np.fft.fftshift(np.fft.fftfreq(8, 0.5)))
    np.testing.assert_allclose(H.f2, np.fft.rfftfreq(10, 2.0))
    assert dl.FFT(7, sampling=0.1, dtype=dtype).f == pytest.approx(np.fft.fftfreq(7, 0.1))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_local_ffts_as_blocks_of_block_diag(comm, dtype):
    # Rank r transforms (3, 4 + r) arrays along axis 1; the last of several ranks has no block.
    last = comm.size - 1 if comm.size > 1 else None
    shapes = [(3, 4 + r) for r in range(comm.size) if r != last]
    mine = [] if comm.rank == last else [dl.FFT((3, 4 + comm.rank), axis=1, nfft=6,
                                                dtype=dtype)]
    B = dl.MPIBlockDiag(mine, dtype=dtype)
    blocks = [random_array(s, dtype, 30 + i) for i, s in enumerate(shapes)]
    x = dl.DistributedArray.to_dist(np.concatenate([b.ravel() for b in blocks]),
                                    local_shapes=[(int(np.prod(s)),) for s in shapes] +
                                    ([(0,)] if last is not None else []))
    expected = np.concatenate([np.fft.fft(b, n=6, axis=1, norm="ortho").ravel() for b in blocks])
    close(B.matvec(x).asarray().ravel(), expected, dtype)
    assert B.shape == (sum(3 * 6 for _ in shapes), sum(int(np.prod(s)) for s in shapes))
    assert dl.dottest(B)
    # A replicated FFT: every rank transforms the whole array.
    R = dl.asmpilinearoperator(dl.FFT2D((4, 6), dtype=dtype))
    z = random_array((4, 6), dtype, 40)
    y = R.matvec(dl.DistributedArray.to_dist(z.ravel(), partition=dl.Partition.BROADCAST))
    close(y.asarray().ravel(), np.fft.fft2(z, norm="ortho").ravel(), dtype)


def test_bad_fft_parameters_raise(comm):
    with pytest.raises(ValueError, match="norm"):
        dl.FFT((4, 5), norm="backward")
    with pytest.raises(ValueError, match="engine"):
        dl.FFT((4, 5), engine="cufft")
    with pytest.raises(ValueError, match="flags"):
        dl.FFT2D((4, 5), threads=4)
    with pytest.raises(ValueError, match="axis"):
        dl.FFT((4, 5), axis=2)
    with pytest.raises(ValueError, match="one dtype"):
        dl.MPIBlockDiag([dl.FFT((4, 5), real=True)])
    F = dl.FFT((4, 5), dtype=np.complex64)
    with pytest.raises(ValueError, match="elements"):
        F.matvec(np.ones(7, np.complex64))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_distributed_real_fft_adjoint_and_normal_operator(comm, dtype):
    # The adjoint of a real-model MPIFFT2D is an operator of its own (complex to real data).
    dims = (6, 5)
    F = dl.MPIFFT2D(dims, real=True, norm="ortho", dtype=dtype, output="same_as_input")
    m = random_array(dims, np.empty(0, dtype).real.dtype, 50)
    x = dl.DistributedArray.to_dist(m)
    y = F.matvec(x)
    close(F.H.matvec(y).asarray(), F.rmatvec(y).asarray(), dtype)
    close((F.H @ F).matvec(x).asarray(), m, dtype)  # ortho without padding: F^H F = I
    assert dl.dottest(F)  # Re <v, F u> = <u, F^H v>
