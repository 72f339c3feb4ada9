# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""engine="cupy": device arrays, operators and solvers of the library's CUDA space.

The checks of the engine's logic (its names, the errors without CuPy or a device, arrays and
operators of two engines in one operation) run everywhere. Those on a device compare the CuPy
engine's results with the NumPy engine's and report Skipped, with the reason, where the
extension sees no CUDA device or CuPy is not installed."""
import numpy as np
import pytest
from conftest import DTYPES, random_array, tolerance, uneven_local_shapes

import distlops as dl
from distlops import _distlops as ext
from distlops._arrays import ext_class
from distlops._factories import ext_function


def _cupy():
    """CuPy, or the test skipped on every rank: the reason the device checks cannot run."""
    if ext.cuda_device_count() == 0:
        pytest.skip("no CUDA device")
    try:
        import cupy
    except ImportError:
        pytest.skip("CuPy is not installed")
    return cupy


def _cupy_installed():
    try:
        import cupy  # noqa: F401
    except ImportError:
        return False
    return True


def _reported_as(x, engine):
    """x reporting ``engine`` as its engine: PyLops-MPI's ``_engine`` attribute, which its own
    tests set the same way; distlops' checks read the engine an array reports."""
    x._engine = engine
    return x


# ---- what runs without a device ----------------------------------------------------------------

def test_unknown_engine_raises_on_every_rank(comm):
    with pytest.raises(ValueError, match="engine must be 'numpy' or 'cupy', got 'torch'"):
        dl.DistributedArray(10, engine="torch")
    with pytest.raises(ValueError, match="engine must be 'numpy' or 'cupy', got 'jax'"):
        dl.MPIFirstDerivative((6, 3), engine="jax")
    with pytest.raises(ValueError, match="engine must be 'numpy' or 'cupy', got 'torch'"):
        dl.Diagonal(np.ones(3), engine="torch")


def test_cupy_engine_where_it_cannot_run_raises_a_clear_error(comm):
    # Every rank raises the same error, in this order of what is missing.
    if not ext.cuda_bound:
        expected, message = dl.DeviceError, "needs distlops built with the CUDA backend"
    elif not _cupy_installed():
        expected, message = dl.DeviceError, "needs CuPy, which is not installed"
    elif ext.cuda_device_count() == 0:
        expected, message = dl.DeviceError, "needs a CUDA device, and this rank sees none"
    else:
        pytest.skip("CuPy and a CUDA device are here: the engine runs")
    with pytest.raises(expected, match=message):
        dl.DistributedArray((5, 4), engine="cupy", dtype=np.float32)
    with pytest.raises(expected, match=message):
        dl.MPILaplacian((6, 4), engine="cupy")
    with pytest.raises(expected, match=message):
        dl.MPIMatrixMult(np.ones((2, 2)), 3, engine="cupy")


def test_ranks_that_ask_for_different_engines_all_raise(comm):
    if comm.size == 1:
        pytest.skip("needs 2 or more ranks")
    # Rank 0 agrees on its engine while the others build a host array's layout: every rank
    # raises (rank 0's problem with the engine here, or that the engines differ), none waits.
    engine = "cupy" if comm.rank == 0 else "numpy"
    with pytest.raises((ValueError, dl.DeviceError), match="engine"):
        dl.DistributedArray(12, engine=engine)
    # The lowest failing rank's error everywhere: rank 0's unknown engine.
    with pytest.raises(ValueError, match="engine must be 'numpy' or 'cupy', got 'torch'"):
        dl.MPIFirstDerivative((4, 2), engine="torch" if comm.rank == 0 else "cupy")
    assert comm.allreduce(1) == comm.size


def test_base_comm_nccl_is_for_the_cupy_engine(comm):
    with pytest.raises(ValueError, match="base_comm_nccl is for engine='cupy' arrays, got "
                                         "engine 'numpy'"):
        dl.DistributedArray(8, base_comm_nccl=object())
    with pytest.raises(ValueError, match="base_comm_nccl is for CuPy arrays"):
        dl.DistributedArray.to_dist(np.ones(8), base_comm_nccl=object())


def test_host_arrays_and_operators_report_the_numpy_engine(comm):
    x = dl.DistributedArray.to_dist(random_array((7, 3), np.float64, 1))
    Op = dl.MPIFirstDerivative((7, 3))
    assert x.engine == "numpy" and isinstance(x.local_array, np.ndarray)
    assert Op.engine == "numpy" and Op.matvec(x).engine == "numpy"
    assert dl.StackedDistributedArray([x, x.copy()]).engine == "numpy"
    assert dl.MatrixMult(np.eye(3)).engine == "numpy"


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_cuda_space_is_bound_under_the_cupy_engine_names(comm, dtype):
    if not ext.cuda_bound:
        pytest.skip("distlops was built without the CUDA backend")
    for base in ("DistributedArray", "StackedDistributedArray", "LinearOperator",
                 "LocalOperator", "StackedLinearOperator"):
        assert ext_class(base, dtype, "cupy").__name__.endswith("_cuda")
    for factory in ("FirstDerivative", "Laplacian", "BlockDiag", "MatrixMult", "Halo",
                    "local_Diagonal", "local_MatrixMult"):
        assert ext_function(factory, dtype, "cupy").__name__.endswith("_cuda")
    # Python functions compute on NumPy arrays: FunctionOperator has the NumPy engine only.
    with pytest.raises(ValueError, match="local_FunctionOperator: no 'cupy' engine in this "
                                         "build \\(it has 'numpy'\\)"):
        ext_function("local_FunctionOperator", dtype, "cupy")


def test_mixing_engines_raises_naming_both(comm):
    shapes = uneven_local_shapes(9, comm.size)
    x = dl.DistributedArray.to_dist(random_array(9, np.float64, 2), local_shapes=shapes)
    other = _reported_as(x.copy(), "cupy")
    with pytest.raises(ValueError, match="mixes engine 'numpy' with engine 'cupy'"):
        x + other
    with pytest.raises(ValueError, match="mixes engine 'cupy' with engine 'numpy'"):
        other.dot(x)
    with pytest.raises(ValueError, match="mixes engine 'numpy' with engine 'cupy'"):
        x += other
    with pytest.raises(ValueError, match="item 1 against item 0.*mixes engine 'numpy' with "
                                         "engine 'cupy'"):
        dl.StackedDistributedArray([x, other])
    Op = dl.MPIBlockDiag([dl.MatrixMult(np.eye(shapes[comm.rank][0]) * 2.0)])
    with pytest.raises(ValueError, match="matvec.*mixes engine 'numpy' with engine 'cupy'"):
        Op.matvec(other)
    with pytest.raises(ValueError, match="rmatvec.*mixes engine 'numpy' with engine 'cupy'"):
        Op.rmatvec(other)
    with pytest.raises(ValueError, match="cg\\(y\\).*mixes engine 'numpy' with engine 'cupy'"):
        dl.cg(Op, other, niter=2)
    with pytest.raises(ValueError, match="cgls\\(x0\\).*mixes engine 'numpy' with engine "
                                         "'cupy'"):
        dl.cgls(Op, x, x0=other, niter=2)
    with pytest.raises(ValueError, match="proximal operators and solvers \\(bound for "
                                         "NumPy-engine arrays\\): mixes engine 'numpy' with "
                                         "engine 'cupy'"):
        dl.L1(sigma=0.5).prox(other, 1.0)


def test_from_local_wraps_numpy_blocks_without_copy(comm):
    shapes = uneven_local_shapes(11, comm.size)
    global_array = random_array((11, 2), np.complex64, 3)
    start = sum(s[0] for s in shapes[:comm.rank])
    block = global_array[start:start + shapes[comm.rank][0]].copy()
    x = dl.DistributedArray.from_local(block)
    assert x.engine == "numpy" and x.global_shape == (11, 2)
    np.testing.assert_array_equal(x.asarray(), global_array)
    block[...] = 7.0  # the array is a view of the block, both ways
    x.local_array[:1] = 1.0
    assert np.all(x.local_array[1:] == 7.0) and np.all(block[:1] == 1.0)


# ---- on a device: the CuPy engine against the NumPy engine -------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_cupy_arrays_match_numpy_arrays(comm, dtype):
    cupy = _cupy()
    shapes = uneven_local_shapes(13, comm.size)
    values = random_array((13, 4), dtype, 4)
    host = dl.DistributedArray.to_dist(values, local_shapes=[(s[0], 4) for s in shapes])
    device = dl.DistributedArray.to_dist(cupy.asarray(values),
                                         local_shapes=[(s[0], 4) for s in shapes])
    assert device.engine == "cupy" and device.dtype == np.dtype(dtype)
    assert isinstance(device.local_array, cupy.ndarray)
    assert isinstance(device.asarray(), cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(device.asarray()), values)
    rtol = tolerance(dtype)
    np.testing.assert_allclose(device.norm(), host.norm(), rtol=rtol)
    np.testing.assert_allclose(device.dot(device, vdot=True), host.dot(host, vdot=True),
                               rtol=rtol)
    total = device + device * 2.0
    np.testing.assert_allclose(cupy.asnumpy(total.asarray()), 3 * values, rtol=rtol)
    # local_array is a view of the library's device memory.
    device.local_array[...] = 1.0
    np.testing.assert_array_equal(cupy.asnumpy(device.asarray()), np.ones((13, 4)))
    with pytest.raises(ValueError, match="mixes engine 'cupy' with engine 'numpy'"):
        device + host


def test_from_local_wraps_cupy_blocks_without_copy(comm):
    cupy = _cupy()
    block = cupy.full((comm.rank + 1, 3), float(comm.rank))
    x = dl.DistributedArray.from_local(block)
    assert x.engine == "cupy"
    block[...] = 5.0
    cupy.cuda.runtime.deviceSynchronize()
    assert float(x.norm(np.inf)) == 5.0
    assert int(x.local_array.data.ptr) == int(block.data.ptr)


def test_cupy_operators_match_numpy_operators(comm):
    cupy = _cupy()
    dims = (9, 5)
    shapes = uneven_local_shapes(9, comm.size)
    values = random_array(dims, np.float64, 5)
    for make in (lambda engine: dl.MPIFirstDerivative(dims, engine=engine),
                 lambda engine: dl.MPILaplacian(dims, engine=engine),
                 lambda engine: dl.MPIGradient(dims, engine=engine)):
        host_op, device_op = make("numpy"), make("cupy")
        assert device_op.engine == "cupy"
        x = dl.DistributedArray.to_dist(values)
        y = dl.DistributedArray.to_dist(cupy.asarray(values))
        np.testing.assert_allclose(cupy.asnumpy(device_op.matvec(y).asarray()),
                                   host_op.matvec(x).asarray(), rtol=1e-12, atol=1e-12)
        assert dl.dottest(device_op)
    blocks = [random_array((s[0], s[0]), np.float64, 6 + r) for r, s in enumerate(shapes)]
    host_op = dl.MPIBlockDiag([dl.MatrixMult(blocks[comm.rank])])
    device_op = dl.MPIBlockDiag([dl.MatrixMult(cupy.asarray(blocks[comm.rank]))])
    x = dl.DistributedArray.to_dist(values[:, 0], local_shapes=shapes)
    y = dl.DistributedArray.to_dist(cupy.asarray(values[:, 0]), local_shapes=shapes)
    np.testing.assert_allclose(cupy.asnumpy((device_op.H @ y).asarray()),
                               (host_op.H @ x).asarray(), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="mixes engine 'cupy' with engine 'numpy'"):
        device_op.matvec(x)
    with pytest.raises(ValueError, match="mixes engine 'numpy' with engine 'cupy'"):
        host_op + device_op
    # The CUDA space's algebra: that of distributed operators on plain arrays.
    with pytest.raises(ValueError, match="the 'cupy' engine has no sums, scaling, transpose or "
                                         "conjugate of a ToStackedLinearOperator"):
        2.0 * dl.MPIGradient(dims, engine="cupy")
    with pytest.raises(ValueError, match="the 'cupy' engine composes the distributed operators "
                                         "whose models are plain arrays"):
        dl.MatrixMult(cupy.eye(2)) @ dl.MatrixMult(cupy.eye(2))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_cupy_solvers_match_numpy_solvers(comm, dtype):
    cupy = _cupy()
    Op, dense, b, bg, x0, x0g = _blockdiag(comm, dtype, cupy)
    host = dl.cgls(Op["numpy"], b["numpy"], x0=x0["numpy"], niter=6, tol=0)
    device = dl.cgls(Op["cupy"], b["cupy"], x0=x0["cupy"], niter=6, tol=0)
    assert device[0].engine == "cupy"
    np.testing.assert_allclose(cupy.asnumpy(device[0].asarray()), host[0].asarray(), rtol=1e-10)
    assert device[2] == host[2]
    host = dl.cg(Op["numpy"].H @ Op["numpy"], Op["numpy"].H @ b["numpy"], niter=5, tol=0)
    device = dl.cg(Op["cupy"].H @ Op["cupy"], Op["cupy"].H @ b["cupy"], niter=5, tol=0)
    np.testing.assert_allclose(cupy.asnumpy(device[0].asarray()), host[0].asarray(), rtol=1e-10)


def _blockdiag(comm, dtype, cupy):
    """The block-diagonal problem of conftest.blockdiag_problem in both engines: dictionaries of
    the operator, b and x0 by engine."""
    from conftest import blockdiag_problem

    Op, dense, b, bg, x0, x0g = blockdiag_problem(comm, dtype)
    block = random_array((3, 3), dtype, 30 + comm.rank) + 4 * np.eye(3, dtype=dtype)
    shapes = [(3,)] * comm.size
    device_op = dl.MPIBlockDiag([dl.MatrixMult(cupy.asarray(block))])

    def on_device(values):
        return dl.DistributedArray.to_dist(cupy.asarray(values), local_shapes=shapes)

    return ({"numpy": Op, "cupy": device_op}, dense, {"numpy": b, "cupy": on_device(bg)}, bg,
            {"numpy": x0, "cupy": on_device(x0g)}, x0g)
