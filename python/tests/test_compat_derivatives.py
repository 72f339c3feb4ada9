# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""distlops.pylops_mpi's derivatives give PyLops-MPI's numbers to the bit: the same operations in
the same order as its formulas, here evaluated serially in NumPy on the whole array. The inputs
come in uneven flat splits (a rank without data, where there are 2 or more), and the Laplacian
along axes other than the split one runs where a rank holds no rows (which PyLops-MPI allows
there). Equality is exact (assert_array_equal), not within a tolerance."""
import numpy as np
import pytest
from conftest import random_array, uneven_local_shapes

import distlops.pylops_mpi as compat

# ---- the serial reference: PyLops-MPI's formulas along axis 0 of a view moved to the front ----


def _along(a, axis):
    return np.moveaxis(a, axis, 0)


def first_reference(x, axis, h, kind, edge, order, adjoint):
    y = np.zeros_like(x)
    v, u = _along(y, axis), _along(x, axis)
    if kind == "forward" and not adjoint:
        v[:-1] = u[1:] - u[:-1]
    elif kind == "forward":
        v[:-1] -= u[:-1]
        v[1:] += u[:-1]
    elif kind == "backward" and not adjoint:
        v[1:] = u[1:] - u[:-1]
    elif kind == "backward":
        v[:-1] -= u[1:]
        v[1:] += u[1:]
    elif order == 3 and not adjoint:
        v[1:-1] = 0.5 * (u[2:] - u[:-2])
        if edge:
            v[0], v[-1] = u[1] - u[0], u[-1] - u[-2]
    elif order == 3:
        v[:-2] -= 0.5 * u[1:-1]
        v[2:] += 0.5 * u[1:-1]
        if edge:
            v[0] -= u[0]
            v[1] += u[0]
            v[-2] -= u[-1]
            v[-1] += u[-1]
    elif not adjoint:
        v[2:-2] = u[:-4] / 12.0 - 2 * u[1:-3] / 3.0 + 2 * u[3:-1] / 3.0 - u[4:] / 12.0
        if edge:
            v[0], v[1] = u[1] - u[0], 0.5 * (u[2] - u[0])
            v[-1], v[-2] = u[-1] - u[-2], 0.5 * (u[-1] - u[-3])
    else:
        inner = u[2:-2]
        v[:-4] += inner / 12.0
        v[1:-3] -= 2.0 * inner / 3.0
        v[3:-1] += 2.0 * inner / 3.0
        v[4:] -= inner / 12.0
        if edge:
            v[0] -= u[0] + 0.5 * u[1]
            v[1] += u[0]
            v[2] += 0.5 * u[1]
            v[-3] -= 0.5 * u[-2]
            v[-2] -= u[-1]
            v[-1] += 0.5 * u[-2] + u[-1]
    y /= h
    return y


def second_reference(x, axis, h, kind, edge, adjoint):
    y = np.zeros_like(x)
    v, u = _along(y, axis), _along(x, axis)
    # The three-point difference lands on rows [first, last) of y (forward) or is read from
    # there (adjoint).
    first, last = {"forward": (0, -2), "backward": (2, None), "centered": (1, -1)}[kind]
    if not adjoint:
        v[first:last] = u[2:] - 2 * u[1:-1] + u[:-2]
        if edge and kind == "centered":
            v[0] = u[0] - 2 * u[1] + u[2]
            v[-1] = u[-3] - 2 * u[-2] + u[-1]
    else:
        source = u[first:last]
        v[:-2] += source
        v[1:-1] -= 2 * source
        v[2:] += source
        if edge and kind == "centered":
            for rows, end in (((0, 1, 2), 0), ((-3, -2, -1), -1)):
                v[rows[0]] += u[end]
                v[rows[1]] -= 2 * u[end]
                v[rows[2]] += u[end]
    y /= h ** 2
    return y


# ---- the compatibility operators on uneven flat splits ----------------------------------------


def flat_input(comm, values):
    """``values`` (a global array) as a flat compatibility array in an uneven split."""
    return compat.DistributedArray.to_dist(
        values.ravel(), local_shapes=uneven_local_shapes(values.size, comm.size))


def applied(op, values, adjoint):
    x = flat_input(op.base_comm, values)
    return ((op.H if adjoint else op) @ x).asarray()


def assert_theirs(op, x, y, forward, adjoint):
    """``op`` applied to ``x`` and its adjoint to ``y`` are exactly ``forward`` and ``adjoint``
    (global arrays), and they are each other's adjoints."""
    np.testing.assert_array_equal(applied(op, x, False), forward.ravel())
    np.testing.assert_array_equal(applied(op, y, True), adjoint.ravel())
    assert np.vdot(forward, y) == pytest.approx(np.vdot(x, adjoint), rel=1e-12)


FIRST_KINDS = [("forward", 3), ("backward", 3), ("centered", 3), ("centered", 5)]


@pytest.mark.parametrize("kind,order", FIRST_KINDS)
@pytest.mark.parametrize("edge", [False, True])
def test_first_derivative_is_theirs(comm, kind, order, edge):
    for dims, dtype in [((40 * comm.size + 9,), np.float64),
                        ((3 * comm.size + 40, 15), np.complex128),
                        ((2 * comm.size + 9, 8, 10), np.float64)]:
        x, y = random_array(dims, dtype, 1), random_array(dims, dtype, 2)
        op = compat.MPIFirstDerivative(dims, sampling=0.4, kind=kind, edge=edge, order=order,
                                       dtype=dtype)
        assert_theirs(op, x, y, first_reference(x, 0, 0.4, kind, edge, order, False),
                      first_reference(y, 0, 0.4, kind, edge, order, True))


@pytest.mark.parametrize("kind", ["forward", "backward", "centered"])
@pytest.mark.parametrize("edge", [False, True])
def test_second_derivative_is_theirs(comm, kind, edge):
    for dims in [(40 * comm.size + 9,), (3 * comm.size + 9, 10, 8)]:
        x, y = random_array(dims, np.float64, 3), random_array(dims, np.float64, 4)
        op = compat.MPISecondDerivative(dims, sampling=0.4, kind=kind, edge=edge)
        assert_theirs(op, x, y, second_reference(x, 0, 0.4, kind, edge, False),
                      second_reference(y, 0, 0.4, kind, edge, True))


def laplacian_reference(x, axes, weights, sampling, kind, edge, adjoint):
    total = None
    for axis, weight, h in zip(axes, weights, sampling):
        term = second_reference(x, axis, h, kind, edge, adjoint)
        term *= np.conj(weight) if adjoint else weight
        total = term if total is None else total + term
    return total


@pytest.mark.parametrize("kind", ["forward", "backward", "centered"])
@pytest.mark.parametrize("edge", [False, True])
def test_laplacian_is_theirs(comm, kind, edge):
    # Along the split axis and another, and along two others with fewer rows than ranks (some
    # rank holds none).
    for dims, axes, weights, sampling in [
            ((2 * comm.size + 9, 10, 8), (2, 0), (0.7, 3), (1.5, 0.4)),
            ((max(comm.size - 1, 1), 30, 20), (-1, 1), (0.7, 0.7), (0.4, 1))]:
        x, y = random_array(dims, np.float64, 5), random_array(dims, np.float64, 6)
        op = compat.MPILaplacian(dims, axes=axes, weights=weights, sampling=sampling, kind=kind,
                                 edge=edge)
        axes = [a % len(dims) for a in axes]
        assert_theirs(op, x, y,
                      laplacian_reference(x, axes, weights, sampling, kind, edge, False),
                      laplacian_reference(y, axes, weights, sampling, kind, edge, True))


@pytest.mark.parametrize("kind", ["forward", "backward", "centered"])
@pytest.mark.parametrize("edge", [False, True])
def test_gradient_is_theirs(comm, kind, edge):
    dims, sampling = (2 * comm.size + 9, 10, 8), (0.4, 2.0, 1.5)
    x = random_array(dims, np.float64, 7)
    items = [random_array(dims, np.float64, 8 + axis) for axis in range(len(dims))]
    op = compat.MPIGradient(dims, sampling=sampling, kind=kind, edge=edge)
    forward = np.concatenate([first_reference(x, axis, h, kind, edge, 3, False).ravel()
                              for axis, h in enumerate(sampling)])
    adjoint = None
    for axis, (item, h) in enumerate(zip(items, sampling)):
        term = first_reference(item, axis, h, kind, edge, 3, True)
        adjoint = term if adjoint is None else adjoint + term
    np.testing.assert_array_equal(applied(op, x, False), forward)
    stack = compat.StackedDistributedArray([flat_input(comm, item) for item in items])
    np.testing.assert_array_equal((op.H @ stack).asarray(), adjoint.ravel())


def test_derivative_arguments_as_theirs(comm):
    with pytest.raises(NotImplementedError):
        compat.MPIFirstDerivative((10,), kind="upwind")
    with pytest.raises(NotImplementedError):
        compat.MPIFirstDerivative((10,), order=4)
    with pytest.raises(NotImplementedError):
        compat.MPISecondDerivative((10,), kind="upwind")
    with pytest.raises(ValueError):
        compat.MPILaplacian((10, 4), axes=(0, 1), weights=(1,), sampling=(1, 1))
