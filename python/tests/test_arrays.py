# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""DistributedArray and StackedDistributedArray against NumPy on the global arrays."""
import numpy as np
import pytest
from conftest import DTYPES, random_array, tolerance, uneven_local_shapes

import distlops as dl
from distlops import Partition


def default_counts(n, size):
    return [n // size + (1 if r < n % size else 0) for r in range(size)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_default_split_and_zero_copy_local_array(comm, dtype):
    x = dl.DistributedArray(11, dtype=dtype)
    counts = default_counts(11, comm.size)
    assert x.local_shape == (counts[comm.rank],)
    assert x.local_shapes == [(c,) for c in counts]
    assert x.dtype == np.dtype(dtype)
    assert np.all(x.local_array == 0)
    # Writing through the view changes the array: the view is the library's memory.
    x.local_array[:] = comm.rank + 1
    expected = np.repeat(np.arange(1, comm.size + 1), counts).astype(dtype)
    np.testing.assert_array_equal(x.asarray(), expected)
    view = x.local_array
    x *= 2
    np.testing.assert_array_equal(view, 2 * (comm.rank + 1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, 1])
def test_to_dist_asarray_round_trip(comm, dtype, axis):
    g = random_array((5, 7), dtype, seed=1)
    x = dl.DistributedArray.to_dist(g, axis=axis)
    np.testing.assert_array_equal(x.asarray(), g)
    start = sum(s[axis] for s in x.local_shapes[:comm.rank])
    np.testing.assert_array_equal(x.local_array,
                                  np.take(g, range(start, start + x.local_shape[axis]), axis))


@pytest.mark.parametrize("dtype", DTYPES)
def test_arithmetic_and_reductions_uneven_split(comm, dtype):
    n = 13
    shapes = uneven_local_shapes(n, comm.size)
    a, b = random_array(n, dtype, 2), random_array(n, dtype, 3)
    x = dl.DistributedArray.to_dist(a, local_shapes=shapes)
    y = dl.DistributedArray.to_dist(b, local_shapes=shapes)
    assert x.local_shapes == shapes
    rtol = tolerance(dtype)
    for got, want in [(x + y, a + b), (x - y, a - b), (x * y, a * b), (x * 2, a * 2),
                      (3 * x, 3 * a), (-x, -a), (x.conj(), np.conj(a)), (x / 2, a / 2)]:
        np.testing.assert_allclose(got.asarray(), want, rtol=rtol)
    np.testing.assert_allclose(x.dot(y), np.dot(a, b), rtol=rtol * 10)
    np.testing.assert_allclose(x.dot(y, vdot=True), np.vdot(a, b), rtol=rtol * 10)
    for order in [None, 1, 2, 3, np.inf, -np.inf]:
        np.testing.assert_allclose(x.norm(order), np.linalg.norm(a, order), rtol=rtol * 10)
    assert x.norm(0) == np.count_nonzero(a)
    z = x.copy()
    z += y
    z -= x
    np.testing.assert_allclose(z.asarray(), b, rtol=rtol, atol=rtol * 10)
    np.testing.assert_array_equal(x.asarray(), a)  # copy() did not share memory
    assert np.all(x.zeros_like().asarray() == 0)


@pytest.mark.parametrize("axis", [0, 1])
def test_norm_along_axis(comm, axis):
    g = random_array((6, 5), np.float64, 4)
    x = dl.DistributedArray.to_dist(g, axis=0)
    for order in [1, 2, np.inf]:
        np.testing.assert_allclose(x.norm(order, axis=axis), np.linalg.norm(g, order, axis=axis),
                                   rtol=1e-12)


def test_redistribute_and_ghost_cells(comm):
    g = random_array((8, 6), np.float64, 5)
    x = dl.DistributedArray.to_dist(g, axis=1)
    y = x.redistribute(0)
    assert y.axis == 0
    np.testing.assert_array_equal(y.asarray(), g)
    start = sum(s[0] for s in y.local_shapes[:comm.rank])
    stop = start + y.local_shape[0]
    front = 1 if comm.rank > 0 else 0
    back = 1 if comm.rank < comm.size - 1 else 0
    ghosted = y.add_ghost_cells(cells_front=front, cells_back=back)
    np.testing.assert_array_equal(ghosted, g[start - front:stop + back])


def test_broadcast_setitem_takes_rank_zero(comm):
    x = dl.DistributedArray(4, partition=Partition.BROADCAST)
    x[:] = np.full(4, 10.0 + comm.rank)
    np.testing.assert_array_equal(x.local_array, np.full(4, 10.0))
    x.check_replicas()
    assert x.norm() == pytest.approx(20.0)  # one replica counted, not one per rank


def test_mask_groups_reduce_inside_the_group(comm):
    mask = [r // 2 for r in range(comm.size)]
    x = dl.DistributedArray(8, mask=mask)
    x.local_array[:] = 1.0
    # The 8 items are split over all ranks; the ranks of one colour hold one replica between
    # them, and reductions add up that group's items only.
    group_items = sum(s[0] for r, s in enumerate(x.local_shapes) if mask[r] == mask[comm.rank])
    assert x.mask == mask
    assert x.dot(x) == pytest.approx(group_items)
    assert x.norm(1) == pytest.approx(group_items)
    np.testing.assert_array_equal(x.asarray(masked=True), np.ones(group_items))


def test_stacked_array(comm):
    a, b = random_array(7, np.float64, 6), random_array((3, 4), np.float64, 7)
    s = dl.StackedDistributedArray([dl.DistributedArray.to_dist(a), dl.DistributedArray.to_dist(b)])
    both = np.concatenate([a, b.ravel()])
    assert len(s) == 2
    np.testing.assert_array_equal(s.asarray(), both)
    np.testing.assert_allclose(s.norm(), np.linalg.norm(both), rtol=1e-12)
    np.testing.assert_allclose(s.dot(s * 2), 2 * both @ both, rtol=1e-12)
    s[1].local_array[...] = 0  # s[i] is the stack's own block
    np.testing.assert_array_equal(s.asarray()[7:], 0)
    np.testing.assert_array_equal((s + s).asarray(), 2 * s.asarray())


NESTED_SHAPES = [7, (3, 4), 5, 2, 4]


def nested_globals(dtype, seed):
    return [random_array(shape, dtype, seed + i) for i, shape in enumerate(NESTED_SHAPES)]


def nested_stack(module, globals_, comm):
    """[a, [b, [c, d]], e] from the global arrays, c split unevenly (the last rank owns none of
    it), with the DistributedArray and StackedDistributedArray classes of ``module``."""
    a, b, c, d, e = globals_
    dist, stacked = module.DistributedArray.to_dist, module.StackedDistributedArray
    inner = stacked([dist(c, local_shapes=uneven_local_shapes(5, comm.size)), dist(d)])
    return stacked([dist(a), stacked([dist(b), inner]), dist(e)])


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_nested_stack_items_and_views(comm, dtype):
    g = nested_globals(dtype, 40)
    s = nested_stack(dl, g, comm)
    assert s.narrays == 3 and len(s.distarrays) == 3
    assert isinstance(s[0], dl.DistributedArray) and isinstance(s[-1], dl.DistributedArray)
    assert isinstance(s[1], dl.StackedDistributedArray) and s[1].narrays == 2
    assert isinstance(s[1][1], dl.StackedDistributedArray) and s[1][1].narrays == 2
    assert s.dtype == np.dtype(dtype)
    flat = np.concatenate([x.ravel() for x in g])
    np.testing.assert_array_equal(s.asarray(), flat)
    np.testing.assert_array_equal(s[1].asarray(), np.concatenate([x.ravel() for x in g[1:4]]))
    # A nested item is the stack's own block: writing through it changes the stack.
    s[1][1][0].local_array[...] = 3
    flat[19:24] = 3
    np.testing.assert_array_equal(s.asarray(), flat)
    # Assigning a nested item copies a stack of the same nesting into it.
    s[1] = s[1] * 2
    flat[7:26] *= 2
    np.testing.assert_array_equal(s.asarray(), flat)
    s[0] = 1
    flat[:7] = 1
    np.testing.assert_array_equal(s.asarray(), flat)
    with pytest.raises(ValueError, match="item 1 is a StackedDistributedArray"):
        s[1] = dl.DistributedArray.to_dist(g[1])
    with pytest.raises(IndexError):
        s[3]
    with pytest.raises(ValueError, match="dtype"):
        dl.StackedDistributedArray([s, dl.DistributedArray(3, dtype=np.float32)])


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_nested_stack_matches_pylops_mpi(comm, dtype):
    pylops_mpi = pytest.importorskip("pylops_mpi")
    g, h = nested_globals(dtype, 50), nested_globals(dtype, 60)
    s, t = nested_stack(dl, g, comm), nested_stack(dl, h, comm)
    ps, pt = nested_stack(pylops_mpi, g, comm), nested_stack(pylops_mpi, h, comm)
    rtol = tolerance(dtype)

    def same(ours, theirs):
        np.testing.assert_allclose(ours.asarray(), theirs.asarray(), rtol=rtol, atol=rtol)

    same(s, ps)
    same(s + t, ps + pt)
    same(s - t, ps - pt)
    same(s * t, ps * pt)
    same(2.5 * s, 2.5 * ps)
    same(s * 2.5, ps * 2.5)
    same(-s, -ps)
    same(s.conj(), ps.conj())
    for vdot in (False, True):
        np.testing.assert_allclose(s.dot(t, vdot=vdot), ps.dot(pt, vdot=vdot), rtol=rtol)
    for order in (None, 1, 3, 0):
        np.testing.assert_allclose(s.norm(order), ps.norm(order), rtol=rtol)
    # PyLops-MPI's max and min norms fail on a rank that owns no element of an array.
    for order in (np.inf, -np.inf):
        expected = np.linalg.norm(np.concatenate([x.ravel() for x in g]), order)
        np.testing.assert_allclose(s.norm(order), expected, rtol=rtol)
    u, pu = s.copy(), ps.copy()
    u += t
    pu += pt
    same(u, pu)
    u -= s
    pu -= ps
    same(u, pu)
    u *= t
    pu = pu * pt
    same(u, pu)
    same(s, ps)  # the in-place updates left the originals alone


def test_nested_stack_copies_and_mismatches(comm):
    g = nested_globals(np.float64, 70)
    s = nested_stack(dl, g, comm)
    flat = s.asarray()
    c = s.copy()
    c[1][1][1].local_array[...] = -1
    np.testing.assert_array_equal(s.asarray(), flat)  # a copy owns its blocks
    z = s.zeros_like()
    assert isinstance(z[1][1], dl.StackedDistributedArray)
    np.testing.assert_array_equal(z.asarray(), np.zeros_like(flat))
    np.testing.assert_array_equal((z + s).asarray(), flat)
    # The same elements stacked without nesting are another vector: every rank raises.
    dist = dl.DistributedArray.to_dist
    flat_stack = dl.StackedDistributedArray([dist(g[0]), dist(g[1]), dist(g[2]), dist(g[3]),
                                             dist(g[4])])
    with pytest.raises(ValueError):
        s + flat_stack
    with pytest.raises(ValueError):
        s.dot(flat_stack)


def test_errors_are_raised_on_every_rank(comm):
    with pytest.raises(ValueError, match="supports float32"):
        dl.DistributedArray(4, dtype=np.int32)
    x = dl.DistributedArray(5)
    y = dl.DistributedArray(6)
    with pytest.raises(dl.ShapeMismatch):
        x + y
    with pytest.raises(ValueError):
        # The local shapes do not add up to the global shape: every rank raises.
        dl.DistributedArray(5, local_shapes=[(6,)] * comm.size)


def test_sub_communicators_from_mpi4py_and_back(comm):
    from mpi4py import MPI
    sub = comm.Split(color=comm.rank % 2, key=comm.rank)
    x = y = None
    try:
        x = dl.DistributedArray(7, base_comm=sub)
        assert x.size == sub.size and x.rank == sub.rank
        assert x.base_comm is sub
        x.local_array[:] = 1.0
        assert x.dot(x) == pytest.approx(7.0)  # reduced over the sub-communicator only
        y = x + x  # results keep the communicator
        assert MPI.Comm.Compare(y.base_comm, sub) == MPI.IDENT
        mask = [0] * comm.size
        z = dl.DistributedArray(4, mask=mask)
        assert MPI.Comm.Compare(z.sub_comm, comm) in (MPI.CONGRUENT, MPI.IDENT)
    finally:
        del x, y  # distlops borrows the communicator: drop its arrays before freeing it
        sub.Free()


@pytest.mark.parametrize("dtype", DTYPES)
def test_arrays_cut_over_a_process_grid(comm, dtype):
    """distlops' extension: a grid of one entry per axis, and reshapes between layouts."""
    shape = (6, 5, 4)
    g = random_array(shape, dtype, seed=7)
    grid = dl.default_grid(shape, comm.size)
    assert int(np.prod(grid)) == comm.size
    x = dl.DistributedArray.to_dist(g, grid=grid)
    assert x.grid == grid
    lower, upper = x.local_box
    np.testing.assert_array_equal(
        x.local_array, g[tuple(slice(lo, hi) for lo, hi in zip(lower, upper))])
    np.testing.assert_array_equal(x.asarray(), g)
    rtol = tolerance(dtype)
    np.testing.assert_allclose(x.norm(), np.linalg.norm(g.ravel()), rtol=rtol * 10)
    np.testing.assert_allclose(x.norm(1, axis=1), np.linalg.norm(g, 1, axis=1), rtol=rtol * 10)
    np.testing.assert_allclose((2 * x + x).asarray(), 3 * g, rtol=rtol)
    # Slabs to pencils along axis 0 and back.
    pencils = x.redistribute(grid=dl.default_grid(shape, comm.size, axes=[1, 2]))
    assert pencils.grid[0] == 1
    np.testing.assert_array_equal(pencils.asarray(), g)
    back = pencils.redistribute(axis=0)
    assert back.axis == 0
    np.testing.assert_array_equal(back.local_array, dl.DistributedArray.to_dist(g).local_array)
    zeros = dl.DistributedArray(shape, dtype=dtype, grid=grid)
    assert zeros.local_shape == x.local_shape
    with pytest.raises(dl.InvalidArgument):
        dl.DistributedArray(shape, dtype=dtype, grid=(comm.size + 1, 1, 1))
    with pytest.raises(ValueError):
        x.redistribute()
