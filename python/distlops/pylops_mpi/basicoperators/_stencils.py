# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's derivative stencils with its arithmetic, for the compatibility derivatives.

The native derivatives fold the step into their weights (x[i+1] * (1/h) - x[i] * (1/h)) and
sum all taps of a Laplacian in one pass; PyLops-MPI subtracts first and divides after, divides by
12 and 3 instead of multiplying by their rounded inverses, and adds weighted second derivatives
axis by axis, so that the two differ in the last bits wherever the terms nearly cancel. Here
each stencil is NumPy's evaluation of PyLops-MPI's formula, term by term in its order, on this
rank's block; along the split axis the neighbouring samples are ghost cells from the native
exchange (``DistributedArray.add_ghost_cells``), along the other axes the block's own samples.
PyLops' serial derivatives, which PyLops-MPI applies along the other axes, perform the same
operations, so one set of stencils serves both.

Each operator is native: a block-diagonal operator whose block on every rank is a function of
its block (``FunctionOperator``), so that it composes, stacks and solves like the native ones;
its adjoint is PyLops-MPI's own adjoint stencil, not the transpose of the forward one
evaluated otherwise.
"""
import atexit
import weakref

import numpy as np

import distlops as _dl
from distlops._arrays import ext_class, make_layout

from .._layer import Partition
from ..DistributedArray import local_split


class _Samples:
    """The samples x[i + k] along one axis of this rank's block, i running over the block's
    positions, numbered along the whole axis (``extent`` samples, the block's first is number
    ``start``): zero beyond the array's ends, and in ``at``, zero where i + k falls outside the
    samples a term reads. ``padded`` is the block extended by ``front`` samples before and
    ``back`` after (ghost cells, or zeros beyond the array's ends)."""

    def __init__(self, padded, axis, start, extent, front, back, ends=(False, False)):
        self.padded, self.axis, self.start, self.extent = padded, axis, start, extent
        self.front, self.back = front, back
        self.size = padded.shape[axis] - front - back
        # Whether this is the first (last) rank along PyLops-MPI's split axis, where its
        # one-sided differences append float64 zeros to the block before dividing it.
        self.first_rank, self.last_rank = ends

    def index(self, lo, hi=None):
        """The block's positions whose global index lies in [lo, hi) (Python's negative
        indices count from the end of the axis) as an index of the block."""
        lo = lo + self.extent if lo < 0 else lo
        hi = self.extent if hi is None else (hi + self.extent if hi < 0 else hi)
        first = min(max(lo - self.start, 0), self.size)
        last = min(max(hi - self.start, first), self.size)
        return (slice(None),) * self.axis + (slice(first, last),)

    def at(self, k, lo=0, hi=None):
        """x[i + k] for the block's positions i, zero where i + k is outside [lo, hi) (the whole
        axis by default): a view, copied where samples must be zeroed."""
        assert -self.front <= k <= self.back
        values = self.padded[(slice(None),) * self.axis +
                             (slice(self.front + k, self.front + k + self.size),)]
        hi = self.extent if hi is None else (hi + self.extent if hi < 0 else hi)
        # Beyond the array's ends the padding holds zeros already: only samples inside it but
        # outside [lo, hi) are zeroed.
        below = self.index(max(-k, 0), max(lo - k, 0))
        above = self.index(max(hi - k, 0), max(self.extent - k, 0))
        if any(part[self.axis].start < part[self.axis].stop for part in (below, above)):
            values = values.copy()
            values[below] = 0
            values[above] = 0
        return values

    def zeros(self):
        return np.zeros(self.padded.shape[:self.axis] + (self.size,) +
                        self.padded.shape[self.axis + 1:], self.padded.dtype)


# ---- the stencils: (forward, adjoint) of every kind, each with the samples it reaches --------
# Every function takes the samples s of its axis and the step h (as given: PyLops-MPI's Python
# scalar, whose NumPy promotion is kept) and returns the block of the result.

def _divided(y, divisor, widened):
    """y / divisor; in double precision where PyLops-MPI's block was widened by the float64
    zeros it appends (a float32 block is then divided in float64 and rounded back)."""
    if widened:
        y = y.astype(np.promote_types(y.dtype, np.float64), copy=False)
    return y / divisor


def _first_forward(s, h, edge):
    y = s.at(1) - s.at(0)
    y[s.index(-1)] = 0
    return _divided(y, h, s.last_rank)


def _first_forward_adjoint(s, h, edge):
    y = s.zeros()
    y -= s.at(0, 0, -1)
    y += s.at(-1)
    y /= h
    return y


def _first_backward(s, h, edge):
    y = s.at(0) - s.at(-1)
    y[s.index(0, 1)] = 0
    return _divided(y, h, s.first_rank)


def _first_backward_adjoint(s, h, edge):
    y = s.zeros()
    y -= s.at(1)
    rows = s.index(1)
    y[rows] += s.at(0)[rows]
    y /= h
    return y


def _first_centered3(s, h, edge):
    y = 0.5 * (s.at(1) - s.at(-1))
    y[s.index(0, 1)] = 0
    y[s.index(-1)] = 0
    if edge:
        first, last = s.index(0, 1), s.index(-1)
        y[first] = s.at(1)[first] - s.at(0)[first]
        y[last] = s.at(0)[last] - s.at(-1)[last]
    y /= h
    return y


def _first_centered3_adjoint(s, h, edge):
    y = s.zeros()
    y -= 0.5 * s.at(1, 1, -1)
    y += 0.5 * s.at(-1, 1, -1)
    if edge:
        _accumulate(s, y, [(0, -1, 0), (1, 1, -1), (-2, -1, 1), (-1, 1, 0)])
    y /= h
    return y


def _first_centered5(s, h, edge):
    y = s.at(-2) / 12.0 - 2 * s.at(-1) / 3.0 + 2 * s.at(1) / 3.0 - s.at(2) / 12.0
    y[s.index(0, 2)] = 0
    y[s.index(-2)] = 0
    if edge:
        first, second = s.index(0, 1), s.index(1, 2)
        last, before_last = s.index(-1), s.index(-2, -1)
        y[first] = s.at(1)[first] - s.at(0)[first]
        y[second] = 0.5 * (s.at(1)[second] - s.at(-1)[second])
        y[last] = s.at(0)[last] - s.at(-1)[last]
        y[before_last] = 0.5 * (s.at(1)[before_last] - s.at(-1)[before_last])
    y /= h
    return y


def _first_centered5_adjoint(s, h, edge):
    y = s.zeros()
    y += s.at(2, 2, -2) / 12.0
    y -= 2.0 * s.at(1, 2, -2) / 3.0
    y += 2.0 * s.at(-1, 2, -2) / 3.0
    y -= s.at(-2, 2, -2) / 12.0
    if edge:
        first, last = s.index(0, 1), s.index(-1)
        y[first] -= s.at(0)[first] + 0.5 * s.at(1)[first]
        _accumulate(s, y, [(1, 1, -1), (2, 0.5, -1), (-3, -0.5, 1), (-2, -1, 1)])
        y[last] += 0.5 * s.at(-1)[last] + s.at(0)[last]
    y /= h
    return y


def _second_forward(s, h, edge):
    y = s.at(2) - 2 * s.at(1) + s.at(0)
    y[s.index(-2)] = 0
    return _divided(y, h ** 2, s.last_rank)


def _second_forward_adjoint(s, h, edge):
    y = s.zeros()
    y += s.at(0, 0, -2)
    y -= 2 * s.at(-1, 0, -2)
    y += s.at(-2, 0, -2)
    y /= h ** 2
    return y


def _second_backward(s, h, edge):
    y = s.at(0) - 2 * s.at(-1) + s.at(-2)
    y[s.index(0, 2)] = 0
    return _divided(y, h ** 2, s.first_rank)


def _second_backward_adjoint(s, h, edge):
    y = s.zeros()
    y += s.at(2, 2)
    y -= 2 * s.at(1, 2)
    rows = s.index(2)
    y[rows] += s.at(0)[rows]
    y /= h ** 2
    return y


def _second_centered(s, h, edge):
    y = s.at(1) - 2 * s.at(0) + s.at(-1)
    y[s.index(0, 1)] = 0
    y[s.index(-1)] = 0
    if edge:
        first, last = s.index(0, 1), s.index(-1)
        y[first] = s.at(0)[first] - 2 * s.at(1)[first] + s.at(2)[first]
        y[last] = s.at(-2)[last] - 2 * s.at(-1)[last] + s.at(0)[last]
    y /= h ** 2
    return y


def _second_centered_adjoint(s, h, edge):
    y = s.zeros()
    y += s.at(1, 1, -1)
    y -= 2 * s.at(0, 1, -1)
    y += s.at(-1, 1, -1)
    if edge:
        _accumulate(s, y, [(0, 1, 0), (1, -2, -1), (2, 1, -2), (-3, 1, 2), (-2, -2, 1),
                           (-1, 1, 0)])
    y /= h ** 2
    return y


def _accumulate(s, y, terms):
    """PyLops-MPI's end corrections y[row] += weight * x[row + k], one (row, weight, k) after
    the other; a weight of +-1 adds or subtracts the sample itself."""
    for row, weight, k in terms:
        rows = s.index(row, row + 1 or None)
        sample = s.at(k)[rows]
        if weight == 1:
            y[rows] += sample
        elif weight == -1:
            y[rows] -= sample
        elif weight > 0:
            y[rows] += weight * sample
        else:
            y[rows] -= -weight * sample


# kind -> (forward, adjoint, (samples before, after) that the forward reads, those the adjoint
# reads)
_FIRST = {
    ("forward", 3): (_first_forward, _first_forward_adjoint, (0, 1), (1, 0)),
    ("backward", 3): (_first_backward, _first_backward_adjoint, (1, 0), (0, 1)),
    ("centered", 3): (_first_centered3, _first_centered3_adjoint, (1, 1), (1, 1)),
    ("centered", 5): (_first_centered5, _first_centered5_adjoint, (2, 2), (2, 2)),
}
_SECOND = {
    "forward": (_second_forward, _second_forward_adjoint, (0, 2), (2, 0)),
    "backward": (_second_backward, _second_backward_adjoint, (2, 0), (0, 2)),
    "centered": (_second_centered, _second_centered_adjoint, (1, 1), (1, 1)),
}


def first_stencil(kind, order=3):
    """PyLops-MPI's first derivative of ``kind`` and ``order`` (the order applies to centered
    differences): (forward, adjoint, reach of forward, reach of adjoint). NotImplementedError
    for another kind or order, as PyLops-MPI."""
    if kind not in ("forward", "centered", "backward"):
        raise NotImplementedError("'kind' must be 'forward', 'centered', or 'backward'")
    if kind == "centered" and order not in (3, 5):
        raise NotImplementedError("'order' must be '3, or '5'")
    return _FIRST[(kind, order if kind == "centered" else 3)]


def second_stencil(kind, edge):
    """PyLops-MPI's second derivative of ``kind`` (forward, adjoint, reaches); the centered
    one's end corrections reach two samples. NotImplementedError for another kind."""
    if kind not in _SECOND:
        raise NotImplementedError("'kind' must be 'forward', 'centered' or 'backward'")
    forward, adjoint, reach, adjoint_reach = _SECOND[kind]
    if edge and kind == "centered":
        reach = adjoint_reach = (2, 2)
    return forward, adjoint, reach, adjoint_reach


# The operators' functions live in native objects, which the interpreter may free at exit after
# the extension has counted its objects still alive: the layouts they hold are dropped first.
_LIVE = weakref.WeakSet()
atexit.register(lambda: [setattr(blocks, "_layout", None) for blocks in list(_LIVE)])


class Blocks:
    """The rows of an array of shape ``dims`` that every rank of ``comm`` holds (PyLops-MPI's
    split along axis 0), and the samples of this rank's block along any axis. Collective."""

    def __init__(self, dims, comm, dtype):
        self.dims, self.comm, self.dtype = tuple(dims), comm, np.dtype(dtype)
        shapes = comm.allgather(tuple(local_split(self.dims, comm, Partition.SCATTER, 0)))
        self.shape = shapes[comm.Get_rank()]
        self.start = sum(shape[0] for shape in shapes[:comm.Get_rank()])
        self._layout = make_layout(self.dims, comm, local_shapes=shapes)
        _LIVE.add(self)

    def samples(self, block, axis, reach):
        """The samples of ``block`` along ``axis`` that a stencil of ``reach`` (samples before,
        after) reads: along axis 0 the neighbours' rows (the native ghost exchange, a
        collective), along the others zeros beyond the block's ends."""
        front, back = reach
        if axis != 0:
            widths = [(0, 0)] * block.ndim
            widths[axis] = (front, back)
            return _Samples(np.pad(block, widths), axis, 0, block.shape[axis], front, back)
        native = ext_class("DistributedArray", self.dtype).wrap(self._layout,
                                                                np.array(block, order="C"))
        ghosted = native.add_ghost_cells(front, back)
        # The first rank gets no rows before its block, the last none after: zeros there.
        got_front = front if self.start > 0 else 0
        got_back = ghosted.shape[0] - got_front - block.shape[0]
        if (got_front, got_back) != (front, back):
            ghosted = np.pad(ghosted, [(front - got_front, back - got_back)] +
                             [(0, 0)] * (block.ndim - 1))
        rank = self.comm.Get_rank()
        return _Samples(ghosted, 0, self.start, self.dims[0], front, back,
                        (rank == 0, rank == self.comm.Get_size() - 1))

    def derivative(self, stencil, axis, sampling, edge, name):
        """The native operator of ``stencil`` (first_stencil's, second_stencil's) along
        ``axis`` with step ``sampling``."""
        forward, adjoint, reach, adjoint_reach = stencil
        return self.operator(
            lambda x: forward(self.samples(x, axis, reach), sampling, edge),
            lambda y: adjoint(self.samples(y, axis, adjoint_reach), sampling, edge), name)

    def operator(self, forward, adjoint, name):
        """The native operator on arrays of shape ``dims`` split in PyLops-MPI's rows whose
        block on this rank is ``forward`` (``adjoint``), functions of this rank's block."""
        block = _dl.FunctionOperator(forward, adjoint, self.shape, dtype=self.dtype, name=name)
        return _dl.MPIBlockDiag([block], base_comm=self.comm, dtype=self.dtype)

