# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""What the compatibility package adds to the native one: PyLops-MPI's flat-vector conventions.

PyLops-MPI keeps every vector flat: an operator takes a 1-D DistributedArray of its global
size, in any split, SCATTER or BROADCAST, and returns a flat one. The native operators declare
N-d layouts and take arrays of their split. Here an operator is the native handle seen on flat
layouts with the native split (``reshape``, no copy), and an input in another split or partition
is moved to that split first (a planned redistribution, or each rank's slice of a replicated
array); results are the native flat arrays. Everything else is the native package's.
"""
from numbers import Number

import numpy as np
from mpi4py import MPI

import distlops as _dl
from distlops import _distlops as _ext
from distlops._arrays import (DistributedArray, StackedDistributedArray, engine_of, ext_class,
                              is_cupy_array, unwrap_vector, wrap_vector)
from distlops._operators import _algebra, _compose

Partition = _dl.Partition
_REPLICATED = (Partition.BROADCAST, Partition.UNSAFE_BROADCAST)


def native_dtype(dtype):
    """The library's scalar type for a dtype PyLops-MPI takes: one of its four as it is, the
    double-precision one of the kind for longer floats (float128) and for integers and
    booleans (the values agree where PyLops-MPI's integer arithmetic is exact), float32 for
    float16. Anything else is passed on for the library to refuse."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c" and dtype.itemsize > 16:
        return np.dtype(np.complex128)
    if dtype.kind == "f" and dtype.itemsize > 8 or dtype.kind in "biu":
        return np.dtype(np.float64)
    if dtype.kind == "f" and dtype.itemsize < 4:
        return np.dtype(np.float32)
    return dtype


def flat_layout(layout):
    """The 1-D layout with the global size of ``layout`` and its per-rank element counts."""
    sizes = [[int(np.prod(shape))] for shape in layout.local_shapes]
    size = int(np.prod(layout.global_shape))
    return _ext.Layout(layout.communicator, [size], layout.partition, 0, sizes,
                       list(layout.mask))


def _counts(layout):
    return [int(np.prod(shape)) for shape in layout.local_shapes]


def as_flat(a, dtype):
    """The native array ``a`` as a flat one with the same elements in C order: a view of its
    memory when it is split along its first axis (or replicated), after a redistribution to
    the first axis otherwise."""
    layout = a.layout
    if len(layout.global_shape) == 1:
        return a
    if layout.partition not in _REPLICATED and layout.axis != 0:
        a = a.redistribute(0)
    return ext_class("DistributedArray", dtype, engine_of(a)).wrap(flat_layout(a.layout),
                                                                   a.local_array.reshape(-1))


def _viewable(layout):
    """Whether a flat vector with this layout's per-rank counts holds its blocks in C order
    (split along the first axis, or replicated)."""
    return layout.partition in _REPLICATED or layout.axis == 0 or len(layout.global_shape) == 1


def to_nd(x, layout):
    """The native array of the flat DistributedArray ``x`` in the N-d ``layout`` (split along
    any axis): its elements in C order, moved to that layout (collective)."""
    shape = list(layout.global_shape)
    first = layout if _viewable(layout) else _ext.Layout(
        layout.communicator, shape, layout.partition, 0, [], list(layout.mask))
    flat = to_layout(x, flat_layout(first))
    nd = ext_class("DistributedArray", x.dtype, x.engine).wrap(
        first, flat.local_array.reshape(first.local_shape))
    return nd if first is layout else nd.redistribute(layout)


def _host(values):
    """A NumPy array of NumPy or CuPy values (a CuPy array copied to the host)."""
    return values.get() if is_cupy_array(values) else values


def to_layout(x, layout):
    """The native array of the DistributedArray ``x`` in ``layout`` (flat here): ``x`` itself
    where the split agrees, a redistribution where it does not (collective)."""
    a = x._a
    given = a.layout
    cls = ext_class("DistributedArray", x.dtype, x.engine)
    if given.partition == layout.partition and _counts(given) == _counts(layout):
        if given.mask == layout.mask:
            return a
        # Other mask groups, the same blocks: PyLops-MPI's operators take the local arrays
        # as they are, so the operator sees this rank's block as its own (a view).
        return cls.wrap(layout, a.local_array)
    if given.partition in _REPLICATED:
        # Every rank holds the whole vector: it keeps its block of the target split (from_global
        # reads host memory).
        return cls.from_global(layout, np.ascontiguousarray(_host(x.local_array)).ravel())
    if layout.partition in _REPLICATED:
        return cls.from_global(layout, np.ascontiguousarray(_host(x.asarray())).ravel())
    a = as_flat(a, x.dtype)
    if _counts(a.layout) == _counts(layout):
        return a
    return a.redistribute(layout)


def side_layout(vector):
    """The flat layout of a native side (a vector of the operator's domain or range); for a
    stacked side, the list of its items' (nested lists for nested items)."""
    if type(vector).__name__.startswith("Stacked"):
        return [side_layout(vector.get_nested(i)) if vector.is_nested(i)
                else side_layout(vector.get(i)) for i in range(len(vector))]
    return flat_layout(vector.layout)


def to_side(x, layout):
    """``x`` in the split of an operator's side: a DistributedArray moved to the flat
    ``layout``, a StackedDistributedArray item by item (a new stack where an item moves)."""
    if isinstance(layout, list):
        if not isinstance(x, StackedDistributedArray) or x.narrays != len(layout):
            return x
        items = x.distarrays
        moved = [to_side(item, item_layout) for item, item_layout in zip(items, layout)]
        if all(m is i for m, i in zip(moved, items)):
            return x
        return type(x)(moved, x._comm or MPI.COMM_WORLD)
    if not isinstance(x, DistributedArray):
        return x
    if len(layout.global_shape) != 1:
        if x.ndim != 1 and x._a.layout == layout:
            return x
        return DistributedArray._wrap(to_nd(x, layout), x._comm)
    moved = to_layout(x, layout)
    return x if moved is x._a else DistributedArray._wrap(moved, x._comm)


class MPILinearOperator(_dl.LinearOperator):
    """PyLops-MPI's MPILinearOperator over a native operator seen on flat vectors.

    ``MPILinearOperator(Op)`` with a serial PyLops operator (or any object with ``shape``,
    ``matvec``, ``rmatvec``) applies it on every rank to replicated vectors, as PyLops-MPI's;
    a subclass may define ``_matvec`` and ``_rmatvec`` on DistributedArrays instead."""

    def __init__(self, Op=None, shape=None, dims=None, dimsd=None, dtype=None,
                 base_comm=MPI.COMM_WORLD):
        self._layouts = None
        self._dims = None if dims is None else _tuple(dims)
        self._dimsd = None if dimsd is None else _tuple(dimsd)
        self._shape = None if shape is None else _tuple(shape)
        if Op is not None:
            if isinstance(Op, _dl.LinearOperator):
                handle, op_dtype = Op._op, Op.dtype
            else:
                native = _dl.asmpilinearoperator(Op, base_comm=base_comm,
                                                 partition=Partition.BROADCAST,
                                                 dtype=dtype or Op.dtype)
                handle, op_dtype = native._op, native.dtype
                self._dims = self._dims or _tuple(getattr(Op, "dims", (Op.shape[1],)))
                self._dimsd = self._dimsd or _tuple(getattr(Op, "dimsd", (Op.shape[0],)))
            super().__init__(handle, dtype or op_dtype, base_comm)
            self._flatten()
        else:
            # A Python subclass: its _matvec and _rmatvec do the work.
            self._op = None
            self.dtype = np.dtype(dtype if dtype is not None else np.float64)
            self._comm = base_comm

    @classmethod
    def adopt(cls, native):
        """The compatibility operator of a native one (the same handle, flat vectors)."""
        op = cls.__new__(cls)
        _dl.LinearOperator.__init__(op, native._op, native.dtype, native._comm)
        op._dims, op._dimsd, op._shape, op._layouts = None, None, None, None
        if hasattr(native, "_dims") and isinstance(native, MPILinearOperator):
            op._dims, op._dimsd = native._dims, native._dimsd
        op._flatten()
        return op

    def _flatten(self):
        domain, range_ = self._op.domain_zeros(), self._op.range_zeros()
        if self._dims is None:
            self._dims = _side_shape(domain)
        if self._dimsd is None:
            self._dimsd = _side_shape(range_)
        flat_domain, flat_range = side_layout(domain), side_layout(range_)
        # A stacked operator (MPIGradient) keeps the N-d layout of its plain side: its results
        # there are made flat.
        self._flat_results = isinstance(flat_domain, list) != isinstance(flat_range, list)
        if not isinstance(flat_domain, list) and not isinstance(flat_range, list):
            if (domain.layout != flat_domain) or (range_.layout != flat_range):
                try:
                    if not (_viewable(domain.layout) and _viewable(range_.layout)):
                        raise TypeError("split along another axis than the first")
                    self._op = _ext.reshape(self._op, flat_domain, flat_range)
                except TypeError:
                    # An operator split along another axis, or between two dtypes (a
                    # real-to-complex FFT), keeps its N-d layouts: flat inputs are moved to
                    # them and its results are made flat.
                    self._flat_results = True
                    flat_domain, flat_range = domain.layout, range_.layout
        self._layouts = (flat_domain, flat_range)

    # ---- PyLops-MPI's attributes -----------------------------------------------------------
    @property
    def shape(self):
        if self._op is None:
            return self._shape
        return (self._op.rows, self._op.cols)

    @shape.setter
    def shape(self, value):
        self._shape = _tuple(value)

    def _side_shape(attribute, shape_index):
        """PyLops-MPI's dims (dimsd): as set, or the flat length of the side."""
        def get(self):
            value = getattr(self, attribute)
            return value if value is not None else (self.shape[shape_index],)

        def set(self, value):
            setattr(self, attribute, _tuple(value))

        return property(get, set)

    dims = _side_shape("_dims", 1)
    dimsd = _side_shape("_dimsd", 0)

    @property
    def size(self):
        return self.base_comm.Get_size()

    @property
    def rank(self):
        return self.base_comm.Get_rank()

    @property
    def base_comm(self):
        return self._comm if self._comm is not None else MPI.COMM_WORLD

    @base_comm.setter
    def base_comm(self, comm):
        self._comm = comm

    @property
    def name(self):
        return self._op.name if self._op is not None else type(self).__name__

    # ---- application ------------------------------------------------------------------------
    def _input(self, x, adjoint):
        n = self.shape[0 if adjoint else 1]
        if isinstance(x, DistributedArray) and x.global_shape != (n,):
            raise ValueError("dimension mismatch")
        if (isinstance(x, (DistributedArray, StackedDistributedArray))
                and np.issubdtype(x.dtype, np.complexfloating)
                and not np.issubdtype(self.dtype, np.complexfloating)):
            # PyLops-MPI puts a real operator's complex result into an array of the operator's
            # dtype, which drops its imaginary part (NumPy's ComplexWarning): for a real
            # operator, the result of the input's real part, which is computed instead.
            x = x.astype(self.dtype)
        return to_side(x, self._layouts[1 if adjoint else 0])

    def matvec(self, x):
        if self._op is None:
            return self._matvec(x)
        return self._output(super().matvec(self._input(x, False)))

    def rmatvec(self, y):
        if self._op is None:
            return self._rmatvec(y)
        return self._output(super().rmatvec(self._input(y, True)))

    def _output(self, y):
        # PyLops-MPI's results are flat: an N-d side (a split along another axis, or the model
        # of an operator whose data are stacked, MPIGradient's) is viewed flat.
        if isinstance(y, DistributedArray) and y.ndim != 1:
            return DistributedArray._wrap(as_flat(y._a, y.dtype), y._comm)
        return stacked_as_theirs(y)

    def _new(self, op, dims=None, dimsd=None):
        """The compatibility operator of the handle ``op``, with PyLops-MPI's ``dims`` and
        ``dimsd`` (this operator's unless given)."""
        result = type(self).adopt(_dl.LinearOperator(op, self.dtype, self._comm))
        result._dims = self._dims if dims is None else dims
        result._dimsd = self._dimsd if dimsd is None else dimsd
        return result

    def dot(self, x):
        if isinstance(x, _dl.LinearOperator):
            if self._op is None or x._op is None or np.dtype(self.dtype) != np.dtype(x.dtype):
                # PyLops-MPI composes operators of any two dtypes (the product has their
                # result type); the native algebra composes one dtype only.
                return CallableOperator.product(self, x)
            other = x if isinstance(x, MPILinearOperator) else MPILinearOperator.adopt(x)
            try:
                composed = _compose(self._op, other._op)
            except _dl.ShapeMismatch:
                # The right operator's range is split otherwise than this one's domain (a
                # mask, or other local sizes); PyLops-MPI passes the vector on, whose flat
                # split the left operator then takes as any input (to_side).
                return CallableOperator.product(self, x)
            return self._new(composed, dims=other.dims)
        if isinstance(x, Number):
            return self._new(_algebra(self._op, "*").scaled(x))
        if isinstance(x, DistributedArray) and x.ndim != 1:
            raise ValueError(f"expected 1-d DistributedArray, got {x.global_shape!r}")
        return self.matvec(x)

    __matmul__ = dot
    __mul__ = dot
    __rmatmul__ = _dl.LinearOperator.__rmul__

    def __pow__(self, p):
        if not isinstance(p, int) or p < 1:
            raise ValueError("power can only be a positive integer")
        result = self
        for _ in range(p - 1):
            result = result.dot(self)
        return result

    def __add__(self, other):
        return self._new(_algebra(self._op, "+") + MPILinearOperator.adopt(other)._op)

    def __sub__(self, other):
        return self._new(_algebra(self._op, "-") - MPILinearOperator.adopt(other)._op)

    @property
    def H(self):
        return self._new(self._op.adjoint(), dims=self.dimsd, dimsd=self.dims)

    @property
    def T(self):
        return self._new(_algebra(self._op, "T").transpose(), dims=self.dimsd,
                         dimsd=self.dims)

    def conj(self):
        return self._new(_algebra(self._op, "conj").conj())

    def __repr__(self):
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with dtype={self.dtype}>"


class CallableOperator(MPILinearOperator):
    """An operator of two Python functions on DistributedArrays, ``matvec`` and ``rmatvec``,
    which need not be each other's adjoint (PyLops-MPI's MPIHalo, whose adjoint drops the ghost
    cells): its adjoint swaps them, and a product with any operator calls the factors in turn,
    as PyLops-MPI's operators written in Python compose."""

    def __init__(self, matvec, rmatvec, shape, dtype, base_comm, dims=None, dimsd=None):
        super().__init__(None, shape=shape, dims=dims, dimsd=dimsd, dtype=dtype,
                         base_comm=base_comm)
        self._forward, self._backward = matvec, rmatvec

    def _matvec(self, x):
        return self._forward(x)

    def _rmatvec(self, y):
        return self._backward(y)

    @classmethod
    def product(cls, left, right):
        """left @ right, either of them a Python operator."""
        if left.shape[1] != right.shape[0]:
            raise ValueError(f"cannot compose operators of shapes {tuple(left.shape)} and "
                             f"{tuple(right.shape)}")
        return cls(lambda x: left.matvec(right.matvec(x)),
                   lambda y: right.rmatvec(left.rmatvec(y)),
                   (left.shape[0], right.shape[1]), np.result_type(left.dtype, right.dtype),
                   left.base_comm, dims=getattr(right, "dims", None),
                   dimsd=getattr(left, "dimsd", None))

    @property
    def H(self):
        return CallableOperator(self._backward, self._forward, (self.shape[1], self.shape[0]),
                                self.dtype, self.base_comm, dims=self.dimsd, dimsd=self.dims)

    def dot(self, x):
        if isinstance(x, _dl.LinearOperator):
            return CallableOperator.product(self, x)
        if isinstance(x, Number):
            return CallableOperator(lambda v: self.matvec(v) * x, lambda w: self.rmatvec(w) * np.conj(x),
                                    self.shape, self.dtype, self.base_comm, self.dims,
                                    self.dimsd)
        return self.matvec(x)

    __matmul__ = dot
    __mul__ = dot


class MPIStackedLinearOperator(MPILinearOperator):
    """PyLops-MPI's MPIStackedLinearOperator: an operator whose domain or range is a
    StackedDistributedArray (the native stacked operators); a subclass may define ``_matvec``
    and ``_rmatvec`` instead."""

    def __init__(self, shape=None, dims=None, dimsd=None, dtype=None, base_comm=MPI.COMM_WORLD):
        super().__init__(None, shape, dims, dimsd, dtype, base_comm)


def stacked_as_theirs(vector):
    """A native stack as the compatibility package's (PyLops-MPI's global_shape); a plain
    array as it is."""
    if isinstance(vector, StackedDistributedArray):
        from .DistributedArray import StackedDistributedArray as Theirs
        return Theirs._wrap(vector._a, vector._comm)
    return vector


def _tuple(value):
    if isinstance(value, Number):
        return (int(value),)
    return tuple(int(v) for v in value)


def _side_shape(vector):
    if type(vector).__name__.startswith("Stacked"):
        return (sum(int(np.prod(vector.get(i).layout.global_shape))
                    for i in range(len(vector))),)
    return tuple(vector.layout.global_shape)


def compat(function):
    """A compatibility factory of a native one: its operator seen on flat vectors."""
    def factory(*args, **kwargs):
        if kwargs.get("dtype") is not None:
            kwargs["dtype"] = native_dtype(kwargs["dtype"])
        return MPILinearOperator.adopt(function(*args, **kwargs))
    factory.__name__ = factory.__qualname__ = function.__name__
    factory.__doc__ = function.__doc__
    factory.__wrapped__ = function
    return factory


def asmpilinearoperator(Op):
    """``Op`` as an MPILinearOperator: itself when it is one, otherwise a serial PyLops
    operator applied on every rank to replicated vectors."""
    if isinstance(Op, MPILinearOperator):
        return Op
    if isinstance(Op, _dl.LinearOperator):
        return MPILinearOperator.adopt(Op)
    return MPILinearOperator(Op=Op, base_comm=MPI.COMM_WORLD)


def operand(Op, x, adjoint=False):
    """``x`` in the split the compatibility operator ``Op`` takes on that side."""
    if isinstance(Op, MPILinearOperator) and Op._layouts is not None and x is not None:
        return to_side(x, Op._layouts[1 if adjoint else 0])
    return x


__all__ = ["MPILinearOperator", "MPIStackedLinearOperator", "CallableOperator", "asmpilinearoperator", "compat", "operand", "to_layout",
           "native_dtype",
           "flat_layout", "stacked_as_theirs", "to_side", "DistributedArray", "StackedDistributedArray", "Partition",
           "unwrap_vector", "wrap_vector"]
