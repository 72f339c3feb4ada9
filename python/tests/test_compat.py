# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""distlops.pylops_mpi against PyLops-MPI itself (installed in the comparison environment), on
the same problems in the same run: the split helpers give PyLops-MPI's splits, operators take
PyLops-MPI's flat vectors (any split, BROADCAST) and return flat ones with its values, and cg /
cgls stop where PyLops-MPI's stop. Where PyLops-MPI is not installed the tests report Skipped."""
import importlib
import inspect

import numpy as np
import pytest
from conftest import random_array
from mpi4py import MPI

import distlops.pylops_mpi as compat

pylops = pytest.importorskip("pylops")
pylops_mpi = pytest.importorskip("pylops_mpi")
from pylops_mpi.basicoperators import MatrixMult as their_matrixmult  # noqa: E402

RTOL = 1e-12

MODULES = ["DistributedArray", "LinearOperator", "StackedLinearOperator", "basicoperators",
           "signalprocessing", "waveeqprocessing", "optimization", "optimization.basic",
           "optimization.sparsity", "optimization.cls_basic", "optimization.cls_sparsity",
           "optimization.eigs", "proximal", "proximal.proximal",
           "proximal.optimization", "proximal.optimization.primal",
           "proximal.optimization.primaldual", "proximal.ProxOperator", "utils",
           "utils.dottest", "plotting", "plotting.plotting"]


@pytest.mark.parametrize("module", MODULES)
def test_module_tree_has_their_public_names(module):
    theirs = importlib.import_module(f"pylops_mpi.{module}")
    ours = importlib.import_module(f"distlops.pylops_mpi.{module}")
    names = getattr(theirs, "__all__", None) or [
        n for n, v in vars(theirs).items()
        if not n.startswith("_") and (inspect.isfunction(v) or inspect.isclass(v))
        and v.__module__ == theirs.__name__]
    missing = [n for n in names if not hasattr(ours, n)]
    assert not missing, f"distlops.pylops_mpi.{module} lacks {missing}"


@pytest.mark.parametrize("shape,axis", [((7,), 0), ((5, 3), 0), ((4, 9), 1), ((2, 3, 4), 2)])
@pytest.mark.parametrize("partition", ["SCATTER", "BROADCAST"])
def test_local_split_is_theirs(comm, shape, axis, partition):
    from pylops_mpi.DistributedArray import local_split as theirs
    assert compat.DistributedArray.__module__  # the native class, re-exported
    from distlops.pylops_mpi.DistributedArray import local_split as ours
    assert ours(shape, comm, getattr(compat.Partition, partition), axis) == \
        theirs(shape, comm, getattr(pylops_mpi.Partition, partition), axis)


@pytest.mark.parametrize("shape", [(10,), (9, 7), (5, 6, 11)])
def test_halo_block_split_is_theirs(comm, shape):
    from pylops_mpi.basicoperators import halo_block_split as theirs
    grids = [None] + ([(comm.size,) + (1,) * (len(shape) - 1)] if len(shape) > 1 else [])
    for grid in grids:
        assert compat.basicoperators.halo_block_split(shape, comm, grid) == \
            theirs(shape, comm, grid)
    with pytest.raises(ValueError):
        compat.basicoperators.halo_block_split(shape, comm, (comm.size + 1,) + shape[1:])


def test_matrix_mult_helpers_are_theirs(comm):
    ours = compat.basicoperators.MatrixMult
    side = int(np.sqrt(comm.size))
    for shape in [(7, 5), (1, 9), (4, 4)]:
        if side * side == comm.size:
            for rank in range(comm.size):
                assert ours.local_block_split(shape, rank, comm) == \
                    their_matrixmult.local_block_split(shape, rank, comm)
            rows, cols = ours.local_block_split(shape, comm.rank, comm)
            matrix = random_array(shape, np.float64, 5)
            x = compat.DistributedArray(global_shape=comm.allreduce(matrix[rows, cols].size),
                                        local_shapes=comm.allgather(matrix[rows, cols].size))
            x[:] = matrix[rows, cols].ravel()
            np.testing.assert_array_equal(ours.block_gather(x, shape, comm), matrix)
        else:
            with pytest.raises(RuntimeError):
                ours.local_block_split(shape, comm.rank, comm)
    for n, m in [(1, 5), (3, 3), (5, 1)]:
        mine, theirs = ours.active_grid_comm(comm, n, m), \
            their_matrixmult.active_grid_comm(comm, n, m)
        assert mine[1:] == theirs[1:]
        assert (mine[0] is None) == (theirs[0] is None)
        if mine[0] is not None:
            assert mine[0].Get_size() == theirs[0].Get_size()


def flat_pair(values, local_sizes=None, partition="SCATTER"):
    """The same flat vector as a PyLops-MPI array and as a compatibility one."""
    comm = MPI.COMM_WORLD
    arrays = []
    for package in (pylops_mpi, compat):
        x = package.DistributedArray(global_shape=values.size,
                                     partition=getattr(package.Partition, partition),
                                     local_shapes=None if local_sizes is None else
                                     [(n,) for n in local_sizes], dtype=values.dtype)
        start = sum(s[0] for s in x.local_shapes[:comm.rank]) if partition == "SCATTER" else 0
        x[:] = values[start:start + x.local_shape[0]]
        arrays.append(x)
    return arrays


def uneven_sizes(n, comm):
    """A split of n elements unlike the default one (rank 0 holds most)."""
    sizes = [1] * comm.size
    sizes[0] = n - (comm.size - 1)
    return sizes


@pytest.mark.parametrize("dims,kind", [((13,), "forward"), ((9, 4), "centered"),
                                       ((6, 5, 3), "backward")])
@pytest.mark.parametrize("partition", ["SCATTER", "BROADCAST"])
def test_derivative_on_flat_vectors_of_any_split(comm, dims, kind, partition):
    # PyLops-MPI's derivatives take their own split; ours take any, here a skewed one.
    values = random_array((int(np.prod(dims)),), np.float64, 21)
    theirs_x, _ = flat_pair(values, None, partition)
    sizes = uneven_sizes(values.size, comm) if partition == "SCATTER" else None
    _, ours_x = flat_pair(values, sizes, partition)
    theirs_op = pylops_mpi.MPIFirstDerivative(dims, kind=kind)
    ours_op = compat.MPIFirstDerivative(dims, kind=kind)
    assert ours_op.dims == tuple(theirs_op.dims) and ours_op.dimsd == tuple(theirs_op.dimsd)
    y_theirs, y_ours = theirs_op @ theirs_x, ours_op @ ours_x
    assert y_ours.global_shape == y_theirs.global_shape == (values.size,)
    np.testing.assert_allclose(y_ours.asarray(), y_theirs.asarray(), rtol=RTOL, atol=1e-13)
    np.testing.assert_allclose((ours_op.H @ ours_x).asarray(),
                               (theirs_op.H @ theirs_x).asarray(), rtol=RTOL, atol=1e-13)
    assert compat.utils.dottest(ours_op, ours_x, y_ours)


def test_block_diag_and_power(comm):
    matrix = random_array((4, 4), np.float64, 40 + comm.rank) + 4 * np.eye(4)
    theirs_op = pylops_mpi.MPIBlockDiag([pylops.MatrixMult(matrix)])
    ours_op = compat.MPIBlockDiag([pylops.MatrixMult(matrix)])
    values = random_array((4 * comm.size,), np.float64, 41)
    theirs_x, ours_x = flat_pair(values)
    np.testing.assert_allclose(((ours_op ** 3) @ ours_x).asarray(),
                               ((theirs_op ** 3) @ theirs_x).asarray(), rtol=RTOL)
    with pytest.raises(ValueError):
        ours_op ** 0


def test_products_of_two_dtypes_and_across_mask_groups_as_theirs(comm):
    # PyLops-MPI composes operators of any two dtypes, and passes a masked range on to an
    # unmasked domain; a real operator given a complex vector keeps the real part of its
    # result (NumPy's ComplexWarning), which is its result of the real part.
    matrix = random_array((4, 4), np.float64, 60 + comm.rank)
    mask = [rank % 2 for rank in range(comm.size)]
    ops = {}
    for name, package in (("theirs", pylops_mpi), ("ours", compat)):
        real = package.MPIBlockDiag([pylops.MatrixMult(matrix)], mask=mask)
        conj = package.MPIBlockDiag([pylops.Conj(dims=(4,))])
        ops[name] = (conj @ real, package.MPIBlockDiag([pylops.MatrixMult(matrix.T)]) @ real)
    assert np.dtype(ops["ours"][0].dtype) == np.dtype(ops["theirs"][0].dtype)
    theirs_x, ours_x = flat_pair(random_array((4 * comm.size,), np.float64, 61))
    for theirs_op, ours_op in zip(ops["theirs"], ops["ours"]):
        theirs_y, ours_y = theirs_op @ theirs_x, ours_op @ ours_x
        np.testing.assert_allclose(ours_y.asarray(), theirs_y.asarray(), rtol=RTOL)
        np.testing.assert_allclose((ours_op.H @ ours_y).asarray(),
                                   (theirs_op.H @ theirs_y).asarray(), rtol=RTOL)
    with pytest.warns(np.exceptions.ComplexWarning):
        ops["ours"][0].H @ (ops["ours"][0] @ ours_x)


@pytest.mark.parametrize("partition", ["BROADCAST", "UNSAFE_BROADCAST"])
def test_masked_replicated_dot_is_theirs(comm, partition):
    # PyLops-MPI cuts each replica over all the ranks and sums the pieces' products within
    # the mask group; the native dot of a replicated array is the whole array's.
    mask = [rank % 2 for rank in range(comm.size)]
    a = random_array((7, 3), np.float64, 70)
    b = random_array((7, 3), np.float64, 71)
    dots = []
    for package in (pylops_mpi, compat):
        x, y = (package.DistributedArray.to_dist(values, partition=getattr(
            package.Partition, partition), mask=mask) for values in (a, b))
        dots.append((x.dot(y), x.dot(y, vdot=True)))
    np.testing.assert_allclose(dots[1], dots[0], rtol=RTOL)
    unmasked = compat.DistributedArray.to_dist(a, partition=compat.Partition.BROADCAST)
    np.testing.assert_allclose(unmasked.dot(unmasked), np.dot(a.ravel(), a.ravel()), rtol=RTOL)


@pytest.mark.parametrize("solver", ["cgls", "cg"])
def test_l2_prox_with_an_operator_is_theirs(comm, solver):
    # niter warm-started iterations of PyLops-MPI's inner solver from x0, call after call.
    from pylops_mpi.proximal import MPIL2 as TheirL2

    matrix = random_array((5, 5), np.float64, 80 + comm.rank) + 3 * np.eye(5)
    proxes = []
    for package, l2 in ((pylops_mpi, TheirL2), (compat, compat.proximal.MPIL2)):
        op = package.MPIBlockDiag([pylops.MatrixMult(matrix)])
        b, x0, v = (package.DistributedArray.to_dist(random_array((5 * comm.size,), np.float64,
                                                                  seed)) for seed in (81, 82, 83))
        f = l2(Op=op, b=b, x0=x0, solver=solver, niter=4)
        proxes.append([f.prox(v, 0.7).asarray() for _ in range(3)] + [f(v), f.grad(v).asarray()])
    for ours, theirs in zip(proxes[1], proxes[0]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10)


def test_cgls_logs_when_one_rank_asks(comm):
    # PyLops-MPI's scripts pass show=True on rank 0 only.
    matrix = random_array((4, 4), np.float64, 90 + comm.rank) + 4 * np.eye(4)
    op = compat.MPIBlockDiag([pylops.MatrixMult(matrix)])
    y = compat.DistributedArray.to_dist(random_array((4 * comm.size,), np.float64, 91))
    for solve in (compat.optimization.basic.cg, compat.optimization.basic.cgls):
        x = solve(op, y, x0=y.zeros_like(), niter=3, show=comm.rank == 0)[0]
        assert x.global_shape == y.global_shape


def test_mpilinearoperator_wraps_a_serial_operator(comm):
    matrix = random_array((6, 4), np.float64, 50)
    theirs_op = pylops_mpi.MPILinearOperator(pylops.MatrixMult(matrix))
    ours_op = compat.MPILinearOperator(pylops.MatrixMult(matrix))
    assert ours_op.shape == theirs_op.shape and ours_op.dims == (4,) and ours_op.dimsd == (6,)
    theirs_x, ours_x = flat_pair(random_array((4,), np.float64, 51), partition="BROADCAST")
    np.testing.assert_allclose((ours_op @ ours_x).asarray(), (theirs_op @ theirs_x).asarray(),
                               rtol=RTOL)


def test_cg_and_cgls_stop_where_theirs_stop(comm):
    # tol on the squared residual norm: a tolerance between the squared norms of two
    # iterations stops both packages after the same iteration.
    n = 6 * comm.size
    matrix = random_array((6, 6), np.float64, 60 + comm.rank)
    spd = matrix @ matrix.T + 6 * np.eye(6)
    values = random_array((n,), np.float64, 61)
    for tol in (1e-2, 1e-6):
        results = []
        for package in (pylops_mpi, compat):
            op = package.MPIBlockDiag([pylops.MatrixMult(spd)])
            y = package.DistributedArray(global_shape=n, dtype=np.float64)
            y[:] = values[6 * comm.rank:6 * comm.rank + 6]
            x0 = y.zeros_like() if package is pylops_mpi else y.copy() * 0.0
            results.append((package.cg(op, y, x0, niter=50, tol=tol),
                            package.cgls(op, y, x0, niter=50, tol=tol)))
        (cg_theirs, cgls_theirs), (cg_ours, cgls_ours) = results
        assert cg_ours[1] == cg_theirs[1]
        assert cgls_ours[2] == cgls_theirs[2]
        np.testing.assert_allclose(cg_ours[0].asarray(), cg_theirs[0].asarray(), rtol=1e-8)


def test_cgls_r1norm_is_theirs(comm):
    # PyLops-MPI's r1norm is the squared norm of the normal equations' residual, r2norm the
    # residual's norm; 4 iterations stop before convergence, so both are far from rounding.
    n = 6 * comm.size
    matrix = random_array((8, 6), np.float64, 62 + comm.rank) + 3 * np.eye(8, 6)
    values = random_array((8 * comm.size,), np.float64, 63)
    results = []
    for package in (pylops_mpi, compat):
        op = package.MPIBlockDiag([pylops.MatrixMult(matrix)])
        y = package.DistributedArray(global_shape=8 * comm.size, dtype=np.float64)
        y[:] = values[8 * comm.rank:8 * comm.rank + 8]
        x0 = package.DistributedArray(global_shape=n, dtype=np.float64)
        x0[:] = 0.0
        results.append(package.cgls(op, y, x0, niter=4, damp=0.3, tol=0.0))
    theirs, ours = results
    assert ours[1:3] == theirs[1:3]
    assert ours[3] == pytest.approx(theirs[3], rel=1e-8)
    assert ours[4] == pytest.approx(theirs[4], rel=1e-8)
    np.testing.assert_allclose(ours[0].asarray(), theirs[0].asarray(), rtol=1e-10)


def test_gradient_adjoint_gives_flat_vectors(comm):
    # MPIGradient maps a flat model to a stack of flat items; its adjoint back to a flat model.
    dims = (2 * comm.size + 3, 5)
    values = random_array((int(np.prod(dims)),), np.float64, 64)
    theirs_x, ours_x = flat_pair(values)
    theirs_op, ours_op = pylops_mpi.MPIGradient(dims), compat.MPIGradient(dims)
    theirs_y, ours_y = theirs_op @ theirs_x, ours_op @ ours_x
    np.testing.assert_allclose(ours_y.asarray(), theirs_y.asarray(), rtol=RTOL, atol=1e-13)
    theirs_back, ours_back = theirs_op.H @ theirs_y, ours_op.H @ ours_y
    assert ours_back.global_shape == theirs_back.global_shape == (values.size,)
    np.testing.assert_allclose(ours_back.asarray(), theirs_back.asarray(), rtol=RTOL, atol=1e-13)


def test_admml2_with_a_gradient_as_theirs(comm):
    # TV denoising with PyLops-MPI's operators: MPIBlockDiag of flat blocks and MPIGradient.
    pyproximal = pytest.importorskip("pyproximal")
    rows, cols = 3, 7
    dims = (rows * comm.size, cols)
    values = random_array((int(np.prod(dims)),), np.float64, 65)
    mine = values[rows * cols * comm.rank:rows * cols * (comm.rank + 1)]
    results = []
    for package in (pylops_mpi, compat):
        x = package.DistributedArray(global_shape=values.size, dtype=np.float64)
        x[:] = mine
        op = package.MPIBlockDiag([pylops.Diagonal(np.ones(rows * cols))])
        gradient = package.MPIGradient(dims, edge=False, kind="forward")
        l1 = package.proximal.MPIProxOperator(pyproximal.L1(sigma=0.5))
        results.append(package.proximal.optimization.primal.ADMML2(
            l1, op, op @ x, gradient, x0=x.zeros_like() if package is pylops_mpi
            else x.copy() * 0.0, tau=0.12, niter=5, kwargs_solver=dict(niter=5))[0])
    theirs, ours = results
    assert ours.global_shape == theirs.global_shape == (values.size,)
    np.testing.assert_allclose(ours.asarray(), theirs.asarray(), rtol=1e-8, atol=1e-10)


def test_dtypes_without_a_scalar_type_of_their_own(comm):
    # float128 and integers are held in float64, float16 in float32; the values stay theirs.
    assert compat.DistributedArray(4 * comm.size, dtype=np.longdouble).dtype == np.float64
    assert compat.DistributedArray(4 * comm.size, dtype=np.float16).dtype == np.float32
    assert compat.DistributedArray(4, dtype=np.clongdouble,
                                   partition=compat.Partition.BROADCAST).dtype == np.complex128
    counts = np.arange(3 * comm.size)
    ours = compat.DistributedArray.to_dist(counts)
    assert isinstance(ours, compat.DistributedArray) and ours.dtype == np.float64
    np.testing.assert_array_equal(ours.asarray(), counts)
    assert isinstance(compat.DistributedArray(3), compat.DistributedArray)
    block = random_array((3, 3), np.float64, 66)
    op = compat.MPIBlockDiag([pylops.MatrixMult(block)], dtype=np.longdouble)
    theirs = pylops_mpi.MPIBlockDiag([pylops.MatrixMult(block)], dtype=np.float64)
    assert op.dtype == np.float64
    np.testing.assert_allclose((op @ ours).asarray(),
                               (theirs @ pylops_mpi.DistributedArray.to_dist(
                                   counts.astype(np.float64))).asarray(), rtol=RTOL)
    with pytest.raises(ValueError):
        compat.DistributedArray(3, dtype=np.dtype("U3"))


def test_matrix_mult_of_integers_is_theirs(comm):
    side = int(np.sqrt(comm.size))
    if side * side != comm.size:
        pytest.skip("MPIMatrixMult needs a square number of ranks")
    from pylops_mpi.basicoperators.MatrixMult import MPIMatrixMult as Theirs
    from distlops.pylops_mpi.basicoperators.MatrixMult import MPIMatrixMult as Ours
    from distlops.pylops_mpi.basicoperators.MatrixMult import local_block_split
    shape = (4, 4)
    a = np.arange(16).reshape(shape)
    x = np.arange(16).reshape(shape) % 5
    a_local, x_local = a[local_block_split(shape, comm.rank, comm)], \
        x[local_block_split(shape, comm.rank, comm)]
    results = []
    for package, op in ((pylops_mpi, Theirs(a_local, 4, base_comm=comm, dtype=a.dtype)),
                        (compat, Ours(a_local, 4, base_comm=comm, dtype=a.dtype))):
        v = package.DistributedArray(global_shape=16, local_shapes=comm.allgather(x_local.size),
                                     base_comm=comm, dtype=x.dtype)
        v[:] = x_local.ravel()
        results.append((op @ v).asarray())
    np.testing.assert_array_equal(results[1], results[0])


def test_matrix_mult_block_gives_their_flat_blocks(comm):
    # kind="block": every rank's flat model and data are its blocks in C order, one after the
    # other (the columns of X and Y of its grid row), replicated over a grid row by the mask.
    side = int(np.sqrt(comm.size))
    if side * side != comm.size:
        pytest.skip("MPIMatrixMult needs a square number of ranks")
    from pylops_mpi.basicoperators.MatrixMult import MPIMatrixMult as Theirs
    from distlops.pylops_mpi.basicoperators.MatrixMult import MPIMatrixMult as Ours
    n, k, m = 4, 3, 6
    a, x = random_array((n, k), np.float64, 67), random_array((k, m), np.float64, 68)
    row, col = divmod(comm.rank, side)
    rows, cols = -(-n // side), -(-m // side)
    a_block = a[col * rows:min(n, (col + 1) * rows)]
    x_block = x[:, row * cols:min(m, (row + 1) * cols)]
    widths = comm.allgather(x_block.shape[1])
    results = []
    for package, make in ((pylops_mpi, Theirs), (compat, Ours)):
        op = make(a_block, m, base_comm=comm, kind="block", dtype="float64")
        v = package.DistributedArray(global_shape=k * sum(widths),
                                     local_shapes=[k * w for w in widths],
                                     mask=[r % side for r in range(comm.size)], base_comm=comm)
        v[:] = x_block.ravel()
        y = op @ v
        results.append((y.local_array.copy(), (op.H @ y).local_array.copy()))
    (y_theirs, back_theirs), (y_ours, back_ours) = results
    np.testing.assert_allclose(y_ours, y_theirs, rtol=RTOL)
    np.testing.assert_allclose(back_ours, back_theirs, rtol=RTOL)


def test_prox_operator_of_a_separable_pyproximal_one(comm):
    pyproximal = pytest.importorskip("pyproximal")
    values = random_array((5 * comm.size,), np.float64, 70)
    theirs_x, ours_x = flat_pair(values)
    from pylops_mpi.proximal import MPIProxOperator as Theirs
    for prox in (pyproximal.L1(sigma=0.7), pyproximal.Box(-0.2, 0.3)):
        theirs, ours = Theirs(prox), compat.MPIProxOperator(prox)
        assert ours(ours_x) == pytest.approx(theirs(theirs_x), rel=RTOL)
        np.testing.assert_allclose(ours.prox(ours_x, 0.5).asarray(),
                                   theirs.prox(theirs_x, 0.5).asarray(), rtol=RTOL)
        shifted_ours, shifted_theirs = ours.precomposition(2.0, 0.1), \
            theirs.precomposition(2.0, 0.1)
        np.testing.assert_allclose(shifted_ours.prox(ours_x, 0.5).asarray(),
                                   shifted_theirs.prox(theirs_x, 0.5).asarray(), rtol=RTOL)
    with pytest.raises(NotImplementedError):
        compat.MPIProxOperator(pyproximal.L2())


@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("norm", ["none", "1/n"])
def test_fft_division_is_the_exact_inverse(comm, real, norm):
    # PyLops-MPI's FFTs need mpi4py-fft (not in the comparison environment): the inverse is
    # checked against the model itself, the scaling against NumPy's transform.
    dims = (2 * comm.size + 1, 6)
    op = compat.signalprocessing.MPIFFT2D(dims, real=real, norm=norm)
    values = random_array(dims, np.float64, 80)
    x = compat.DistributedArray.to_dist(values.ravel() if real else
                                        values.ravel().astype(np.complex128))
    y = op @ x
    np.testing.assert_allclose((op / y).asarray(), x.asarray(), atol=1e-12)
    spectrum = np.fft.fft2(values)
    energy = np.sum(np.abs(spectrum) ** 2) * (1.0 if norm == "none" else 1.0 / values.size ** 2)
    if not real:
        assert np.sum(np.abs(y.asarray()) ** 2) == pytest.approx(energy, rel=1e-12)
        scale = 1.0 if norm == "none" else 1.0 / values.size
        np.testing.assert_allclose(y.asarray(), scale * spectrum.ravel(), rtol=1e-10,
                                   atol=1e-12)
    with pytest.raises(ValueError):
        compat.signalprocessing.MPIFFT2D(dims, norm="ortho")


def lsq_problem(package, comm, rows=8, cols=5, seed=70):
    """A block-diagonal least-squares problem of one package: Op, y and a zero x0."""
    matrix = random_array((rows, cols), np.float64, seed + comm.rank) + 2 * np.eye(rows, cols)
    op = package.MPIBlockDiag([pylops.MatrixMult(matrix)])
    values = random_array((rows * comm.size,), np.float64, seed - 1)
    y = package.DistributedArray(global_shape=rows * comm.size, dtype=np.float64)
    y[:] = values[rows * comm.rank:rows * (comm.rank + 1)]
    x0 = package.DistributedArray(global_shape=cols * comm.size, dtype=np.float64)
    x0[:] = 0.0
    return op, y, x0


def stepped(package, name, op, y, x0, niter, **options):
    """A class solver's iterates, stepped by hand as a PyLops-MPI script does, then run to
    niter and finalized: (iterates, final x, solver)."""
    module = package.optimization.cls_basic if name in ("CG", "CGLS") else \
        package.optimization.cls_sparsity
    solver = getattr(module, name)(op)
    x = solver.setup(y, x0, niter=niter, **options)
    iterates = []
    z = x.copy() if name == "FISTA" else None
    for _ in range(2):
        out = solver.step(x, z) if name == "FISTA" else solver.step(x)
        if name == "FISTA":
            x, z, _ = out
        elif name == "ISTA":
            x, _ = out
        else:
            x = out
        iterates.append(x.asarray().copy())
    x = solver.run(x, niter)
    solver.finalize()
    return iterates, x.asarray(), solver


@pytest.mark.parametrize("name", ["CG", "CGLS", "ISTA", "FISTA"])
def test_class_solvers_iterate_as_theirs(comm, name):
    runs = []
    for package in (pylops_mpi, compat):
        op, y, x0 = lsq_problem(package, comm)
        if name == "CG":
            op, y, x0 = op.H @ op, op.H @ y, x0
        # A given step: PyLops-MPI estimates it from a random start.
        options = {"tol": 0.0} if name in ("CG", "CGLS") else \
            {"eps": 0.3, "alpha": 0.01, "tol": 0.0}
        if name == "CGLS":
            options["damp"] = 0.0
        calls = []
        iterates, x, solver = stepped(package, name, op, y, x0, 6, **options)
        solver2 = type(solver)(op)
        solver2.callback = lambda x: calls.append(x.asarray().copy())
        solved = solver2.solve(y, x0, niter=6, **options)
        runs.append((iterates, x, solver.iiter, solved, calls))
    theirs, ours = runs
    for mine, reference in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(mine, reference, rtol=1e-10, atol=1e-12)
    if name != "FISTA":
        # PyLops-MPI's FISTA.run restarts its extrapolation from x (z = x) at every call, so
        # that steps by hand followed by run differ from the native FISTA, which keeps z.
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10, atol=1e-12)
    assert ours[2] == theirs[2] == 6
    np.testing.assert_allclose(ours[3][0].asarray(), theirs[3][0].asarray(), rtol=1e-10,
                               atol=1e-12)
    assert len(ours[4]) == len(theirs[4]) == 6
    np.testing.assert_allclose(ours[4], theirs[4], rtol=1e-10, atol=1e-12)
    if name == "CG":
        np.testing.assert_allclose(ours[3][2], theirs[3][2], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", ["ista", "fista"])
def test_sparsity_solvers_with_sop_and_monitorres_as_theirs(comm, name):
    results = []
    for package in (pylops_mpi, compat):
        op, y, x0 = lsq_problem(package, comm)
        q, _ = np.linalg.qr(random_array((5, 5), np.float64, 80 + comm.rank))
        sop = package.MPIBlockDiag([pylops.MatrixMult(q)])
        solver = getattr(package, name)
        # The step estimated by PyLops-MPI's power iteration from the same random start.
        np.random.seed(3)
        x, iiter, _ = solver(op, y, x0, niter=8, SOp=sop, eps=0.5, tol=0.0)
        # A step far beyond 2 / lambda_max: the residual grows at once and the second step
        # raises.
        with pytest.raises(ValueError, match="stopped at iteration 1 due to residual") as error:
            solver(op, y, x0, niter=8, eps=0.1, alpha=50.0, tol=0.0, monitorres=True)
        results.append((x.asarray(), iiter, str(error.value)))
    (x_theirs, n_theirs, e_theirs), (x_ours, n_ours, e_ours) = results
    np.testing.assert_allclose(x_ours, x_theirs, rtol=1e-8, atol=1e-10)
    assert n_ours == n_theirs == 8 and e_ours == e_theirs
