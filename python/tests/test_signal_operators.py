# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Post-stack modelling, the 2-d and N-d convolutions, Fredholm1, MDC and the FFTs against
PyLops' serial operators on the global arrays, with dot tests, at any rank count (some ranks
own no rows)."""
import numpy as np
import pylops
import pytest
from conftest import DTYPES, random_array, tolerance

import distlops as dl


def close(actual, expected, dtype):
    rtol = tolerance(dtype) * 100
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * np.abs(expected).max())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.filterwarnings("ignore:A new implementation of convmtx:FutureWarning")
def test_poststack_matches_pylops(comm, dtype, explicit):
    nt0, ntraces = 17, 3
    wav = random_array(7, dtype, 40)
    m = random_array((nt0, ntraces), dtype, 41)
    expected = pylops.avo.poststack.PoststackLinearModelling(
        wav, nt0, spatdims=ntraces, explicit=explicit) @ m.ravel()
    P = dl.MPIPoststackLinearModelling(wav, (nt0, ntraces), explicit=explicit)
    x = dl.DistributedArray.to_dist(m, axis=1)
    close(P.matvec(x).asarray().ravel(), expected, dtype)
    assert dl.dottest(P)
    local = dl.PoststackLinearModelling(wav, nt0, spatdims=ntraces, explicit=explicit)
    assert local.shape == (nt0 * ntraces, nt0 * ntraces)


@pytest.mark.parametrize("dtype", DTYPES)
def test_convolve2d_matches_pylops(comm, dtype):
    dims, offset = (6, 7), (1, 2)
    h = random_array((3, 5), dtype, 50)
    m = random_array(dims, dtype, 51)
    expected = pylops.signalprocessing.Convolve2D(dims, h, offset=offset, dtype=dtype) @ m.ravel()
    C = dl.MPIConvolve2D(dims, h, offset=offset)
    close(C.matvec(dl.DistributedArray.to_dist(m)).asarray().ravel(), expected, dtype)
    assert dl.dottest(C)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, -1])
def test_convolve1d_matches_pylops(comm, dtype, axis):
    dims = (7, 5)
    h = random_array(4, dtype, 55)
    m = random_array(dims, dtype, 56)
    expected = pylops.signalprocessing.Convolve1D(dims, h, offset=2, axis=axis,
                                                  dtype=dtype) @ m.ravel()
    C = dl.MPIConvolve1D(dims, h, offset=2, axis=axis)
    close(C.matvec(dl.DistributedArray.to_dist(m)).asarray().ravel(), expected, dtype)
    assert dl.dottest(C)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_convolvend_matches_pylops(comm, dtype):
    dims, offset = (5, 4, 3), (1, 1, 0)
    h = random_array((3, 3, 2), dtype, 60)
    m = random_array(dims, dtype, 61)
    expected = pylops.signalprocessing.ConvolveND(dims, h, offset=offset, axes=(0, 1, 2),
                                                  dtype=dtype) @ m.ravel()
    C = dl.MPIConvolveND(dims, h, offset=offset, axes=(0, 1, 2))
    close(C.matvec(dl.DistributedArray.to_dist(m)).asarray().ravel(), expected, dtype)
    assert dl.dottest(C)


def test_bad_parameters_raise_on_every_rank(comm):
    with pytest.raises(ValueError, match="kind"):
        dl.MPIPoststackLinearModelling(np.ones(3), (9, 2), kind="backward")
    with pytest.raises(ValueError, match="Convolve2D"):
        dl.MPIConvolve2D((6, 7), np.ones((3, 3, 3)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("partition", [dl.Partition.BROADCAST, dl.Partition.SCATTER])
def test_fredholm1_matches_pylops(comm, dtype, partition):
    nx, ny, nz = 4, 3, 2
    counts = [[2, 1, 0, 3][r % 4] for r in range(comm.size)]  # rank 2 holds no slice
    G = random_array((sum(counts), nx, ny), dtype, 80)
    start = sum(counts[: comm.rank])
    F = dl.MPIFredholm1(G[start:start + counts[comm.rank]], nz=nz, dtype=dtype,
                        partition=partition)
    m = random_array((sum(counts), ny, nz), dtype, 81)
    expected = pylops.signalprocessing.Fredholm1(G, nz=nz, dtype=dtype) @ m.ravel()
    shapes = None if partition == dl.Partition.BROADCAST else [(c, ny, nz) for c in counts]
    x = dl.DistributedArray.to_dist(m, partition=partition, local_shapes=shapes)
    close(F.matvec(x).asarray().ravel(), expected, dtype)
    assert dl.dottest(F)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("output", ["transposed", "same_as_input"])
@pytest.mark.filterwarnings("ignore:numpy backend always returns complex128:UserWarning")
def test_fft2d_and_fftnd_match_pylops(comm, dtype, real, output):
    model_dtype = np.empty(0, dtype).real.dtype if real else dtype
    dims = (6, 5, 3)  # 4 ranks: the transposed output leaves a rank without data
    m = random_array(dims, model_dtype, 90)
    x = dl.DistributedArray.to_dist(m)
    for ours, theirs in [
        (dl.MPIFFT2D(dims, axes=(0, 1), real=real, fftshift_after=(True, False), dtype=dtype,
                     output=output),
         pylops.signalprocessing.FFT2D(dims, axes=(0, 1), real=real, norm="none",
                                       fftshift_after=(True, False), dtype=dtype)),
        (dl.MPIFFTND(dims, axes=(0, 1, 2), real=real, dtype=dtype, output=output),
         pylops.signalprocessing.FFTND(dims, axes=(0, 1, 2), real=real, norm="none",
                                       dtype=dtype)),
    ]:
        close(ours.matvec(x).asarray().ravel(), theirs @ m.ravel(), dtype)
        if not real:
            assert dl.dottest(ours)
            continue
        # A real model space: the adjoint is that of the real-linear map, Re <v, Op u>.
        v = ours.range_zeros()
        v.local_array[...] = random_array(v.local_shape, dtype, 91 + comm.rank)
        forward = np.real(np.vdot(v.asarray(), ours.matvec(x).asarray()))
        adjoint = np.vdot(ours.rmatvec(v).asarray(), m)
        assert forward == pytest.approx(np.real(adjoint), rel=tolerance(dtype) * 100)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("output", ["transposed", "same_as_input"])
@pytest.mark.filterwarnings("ignore:numpy backend always returns complex128:UserWarning")
def test_fftnd_on_pencils_matches_pylops(comm, dtype, real, output):
    model_dtype = np.empty(0, dtype).real.dtype if real else dtype
    dims = (6, 5, 4)
    grid = dl.default_grid(dims, comm.size, axes=[0, 1])  # (2, 2, 1) at 4 ranks
    m = random_array(dims, model_dtype, 92)
    x = dl.DistributedArray.to_dist(m, grid=grid)
    F = dl.MPIFFTND(dims, axes=(0, 1, 2), real=real, dtype=dtype, output=output, grid=grid)
    y = F.matvec(x)
    theirs = pylops.signalprocessing.FFTND(dims, axes=(0, 1, 2), real=real, norm="none",
                                           dtype=dtype)
    close(y.asarray().ravel(), theirs @ m.ravel(), dtype)
    back = F.rmatvec(y)
    close(back.asarray().ravel(), np.real(theirs.H @ (theirs @ m.ravel())) if real
          else theirs.H @ (theirs @ m.ravel()), dtype)
    if not real:
        assert dl.dottest(F)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("partition", [dl.Partition.BROADCAST, dl.Partition.SCATTER])
@pytest.mark.filterwarnings("ignore:numpy backend always returns complex128:UserWarning")
def test_mdc_matches_pylops(comm, dtype, partition):
    nt, ns, nr, nv = 9, 3, 4, 2  # two-sided: nt odd
    counts = [[2, 1, 0, 2][r % 4] for r in range(comm.size)]  # rank 2 holds no frequency
    cdtype = np.complex64 if dtype == np.float32 else np.complex128
    G = random_array((sum(counts), ns, nr), cdtype, 130)
    start = sum(counts[: comm.rank])
    M = dl.MPIMDC(G[start:start + counts[comm.rank]], nt=nt, nv=nv, nfreq=sum(counts),
                  dt=0.5, dr=2.0, partition=partition)
    m = random_array((nt, nr, nv), dtype, 131)
    expected = pylops.waveeqprocessing.MDC(G, nt=nt, nv=nv, dt=0.5, dr=2.0) @ m.ravel()
    axis = 1 if partition == dl.Partition.SCATTER else 0
    x = dl.DistributedArray.to_dist(m, partition=partition, axis=axis)
    close(M.matvec(x).asarray().ravel(), expected, dtype)
    assert dl.dottest(M)
    with pytest.raises(ValueError, match="nfreq"):
        dl.MPIMDC(G[start:start + counts[comm.rank]], nt=nt, nv=nv, nfreq=sum(counts) + 1)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_sliding1d_matches_pylops(comm, dtype):
    dimd, nwin, nover, nop = 20, 6, 2, 4
    nwins, dim, _, _ = pylops.signalprocessing.sliding1d_design(dimd, nwin, nover, nop)
    W = random_array((nwin, nop), dtype, 160)
    S = dl.MPISliding1D(dl.MatrixMult(W), dim, dimd, nwin, nover)
    m = random_array((nwins, nop), dtype, 161)
    theirs = pylops.signalprocessing.Sliding1D(
        pylops.BlockDiag([pylops.MatrixMult(W, dtype=dtype)] * nwins), dim, dimd, nwin, nover,
        tapertype="hanning")
    close(S.matvec(dl.DistributedArray.to_dist(m)).asarray().ravel(), theirs @ m.ravel(), dtype)
    assert dl.dottest(S)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_sliding2d_and_patch2d_pass_the_dot_test(comm, dtype):
    # 5 windows of 4 rows (overlap 1) over 16 rows; patches of 4 x 5 (overlap 1, 2).
    W = dl.MatrixMult(random_array((4 * 6, 3 * 6), dtype, 170))
    S = dl.MPISliding2D(W, (5 * 3, 6), (16, 6), nwin=4, nover=1, tapertype="cosine")
    assert dl.dottest(S)
    P = dl.MPIPatch2D(dl.MatrixMult(random_array((4 * 5, 2 * 2), dtype, 171)), (5 * 2, 3 * 2),
                      (16, 11), nwin=(4, 5), nover=(1, 2), nop=(2, 2))
    assert dl.dottest(P)
    with pytest.raises(ValueError, match="tapertype"):
        dl.MPISliding1D(W, 18, 16, 4, 1, tapertype="triangle")


def _kirchhoff_problem(ns, dimension=2):
    """A small Kirchhoff geometry (PyLops' arguments): sources and receivers on the surface."""
    x, z, t = np.arange(11) * 8.0, np.arange(9) * 6.0, np.arange(60) * 0.004
    y = None if dimension == 2 else np.arange(3) * 10.0
    rng = np.random.default_rng(180)
    srcs = np.vstack([rng.uniform(0, 80, ns), np.zeros(ns)])
    recs = np.vstack([np.linspace(0, 80, 5), np.zeros(5)])
    if dimension == 3:
        srcs = np.vstack([rng.uniform(0, 20, ns), srcs])
        recs = np.vstack([np.linspace(0, 20, 5), recs])
    wav = np.exp(-0.5 * ((np.arange(9) - 4) / 1.5) ** 2)
    return dict(z=z, x=x, t=t, srcs=srcs, recs=recs, vel=1500.0, wav=wav, wavcenter=4, y=y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize("dimension", [2, 3])
def test_kirchhoff_matches_pylops(comm, dtype, dynamic, dimension):
    problem = _kirchhoff_problem(4, dimension)
    shape = (len(problem["x"]), len(problem["z"]))
    if dimension == 3:
        shape = (len(problem["y"]),) + shape
    m = random_array(shape, np.float64, 181)
    theirs = pylops.waveeqprocessing.Kirchhoff(mode="analytic", dynamic=dynamic, dtype=dtype,
                                               **problem)
    K = dl.Kirchhoff(mode="analytic", dynamic=dynamic, dtype=dtype, **problem)
    close(K @ m.astype(dtype).ravel(), theirs @ m.ravel(), dtype)
    d = random_array(K.shape[0], np.float64, 182)
    close(K.H @ d.astype(dtype), theirs.H @ d, dtype)


def test_kirchhoff_tables_match_pylops(comm):
    # Equal spacings: distlops takes the tables' gradients with the grid's spacings, PyLops with
    # unit ones (a documented difference), which agree in the angles when dx = dz.
    problem = dict(_kirchhoff_problem(3), x=np.arange(11) * 6.0)
    X, Z = np.meshgrid(problem["x"], problem["z"], indexing="ij")
    points = np.stack([X.ravel(), Z.ravel()])

    def table(sensors):
        return np.hypot(points[0][:, None] - sensors[0], points[1][:, None] - sensors[1]) / 1500.0

    trav = (table(problem["srcs"]), table(problem["recs"]))
    amp = (1.0 / np.sqrt(trav[0] * 1500.0 + 1.0), 1.0 / np.sqrt(trav[1] * 1500.0 + 1.0))
    m = random_array((11, 9), np.float64, 183)
    for dynamic in (False, True):
        theirs = pylops.waveeqprocessing.Kirchhoff(
            mode="byot", trav=trav, amp=amp if dynamic else None, dynamic=dynamic, **problem)
        K = dl.Kirchhoff(mode="byot", trav=trav, amp=amp if dynamic else None, dynamic=dynamic,
                         **problem)
        close(K @ m.ravel(), theirs @ m.ravel(), np.float64)


@pytest.mark.parametrize("partition", [dl.Partition.BROADCAST, dl.Partition.SCATTER])
def test_mpi_kirchhoff_splits_the_sources(comm, partition):
    # 5 sources over the ranks unevenly: rank 1 holds none where there are 2 ranks or more.
    counts = [[3, 0, 2, 1][r % 4] for r in range(comm.size)]
    problem = _kirchhoff_problem(sum(counts))
    start = sum(counts[: comm.rank])
    mine = dict(problem, srcs=problem["srcs"][:, start:start + counts[comm.rank]])
    K = dl.MPIKirchhoff(model_partition=partition, dynamic=True, **mine)
    m = random_array((11, 9), np.float64, 184)
    expected = pylops.waveeqprocessing.Kirchhoff(mode="analytic", dynamic=True, **problem) @ \
        m.ravel()
    x = dl.DistributedArray.to_dist(m, partition=partition)
    close(K.matvec(x).asarray().ravel(), expected, np.float64)
    assert dl.dottest(K)


def test_kirchhoff_refuses_what_it_does_not_offer(comm):
    problem = _kirchhoff_problem(2)
    with pytest.raises(ValueError, match="analytic' or 'byot"):
        dl.Kirchhoff(mode="eikonal", **problem)
    with pytest.raises(ValueError, match="regularly spaced"):
        dl.Kirchhoff(**dict(problem, x=np.array([0.0, 1.0, 3.0])))
    with pytest.raises(ValueError, match="pair"):
        dl.Kirchhoff(mode="byot", trav=np.zeros((99, 2)), **problem)
    with pytest.raises(dl.InvalidArgument):
        dl.MPIKirchhoff(**dict(problem, vel=-1.0))
