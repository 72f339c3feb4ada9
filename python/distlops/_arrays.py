# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""DistributedArray and StackedDistributedArray with PyLops-MPI's names and semantics.

Each wraps the C++ array of its dtype (``_distlops.DistributedArray_float64``, ...): the data
live in the library's memory and ``local_array`` is a writable NumPy view of this rank's
block, without copy.
"""
from numbers import Integral, Number

import numpy as np
from mpi4py import MPI

from . import _distlops as _ext
from ._distlops import Partition

DTYPES = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64",
          np.dtype(np.complex64): "complex64", np.dtype(np.complex128): "complex128"}


def dtype_suffix(dtype):
    """The suffix of the extension's names for a NumPy dtype (ValueError for other dtypes)."""
    try:
        return DTYPES[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise ValueError(f"distlops supports float32, float64, complex64 and complex128, "
                         f"got {dtype!r}") from None


def ext_class(base, dtype):
    return getattr(_ext, f"{base}_{dtype_suffix(dtype)}")


def communicator(comm):
    """The extension's Communicator of an mpi4py communicator (borrowed, never freed here)."""
    if not isinstance(comm, MPI.Comm):
        raise TypeError(f"expected an mpi4py communicator, got {type(comm).__name__}")
    return _ext.Communicator.from_handle(MPI._handleof(comm))


def make_layout(global_shape, base_comm=MPI.COMM_WORLD, partition=Partition.SCATTER, axis=0,
                local_shapes=None, mask=None, grid=None):
    """A Layout (collective over base_comm), with PyLops-MPI's argument conventions; ``grid``
    (distlops' extension) cuts the array over a process grid, one entry per axis."""
    if isinstance(global_shape, Number):
        global_shape = (int(global_shape),)
    shapes = [] if local_shapes is None else [
        [int(local_shape)] if isinstance(local_shape, Number) else [int(n) for n in local_shape]
        for local_shape in local_shapes]
    return _ext.Layout(communicator(base_comm), [int(n) for n in global_shape], partition,
                       int(axis), shapes, [] if mask is None else [int(c) for c in mask],
                       [] if grid is None else [int(p) for p in grid])


def default_grid(global_shape, size, axes=None):
    """A balanced process grid for ``size`` ranks over an array of ``global_shape`` (the largest
    prime factors cut the axes with the longest parts; only ``axes`` when given)."""
    return tuple(_ext.default_grid([int(n) for n in global_shape], int(size),
                                   [] if axes is None else [int(a) for a in axes]))


def cast_problem(given, taken):
    """Why an array of dtype ``given`` is not cast to ``taken``, or None where it is. PyLops-MPI
    casts by NumPy's assignment, which drops the imaginary part of a complex array put into a
    real one (with a ComplexWarning); distlops casts between precisions and from real to complex
    (NumPy's "same_kind") and refuses the rest."""
    if np.can_cast(given, taken, "same_kind"):
        return None
    return (f"a cast would drop the imaginary part (PyLops-MPI drops it with a ComplexWarning); "
            f"give a {np.dtype(taken)} array, or use {np.result_type(given, taken)} throughout")


def _mpi4py_comm(ext_comm, fallback):
    if fallback is not None and MPI._handleof(fallback) == ext_comm.handle:
        return fallback
    return MPI.Comm.fromhandle(ext_comm.handle)


class DistributedArray:
    """An N-d array split (SCATTER) or replicated (BROADCAST) over the ranks of ``base_comm``.

    Same constructor as PyLops-MPI's; the array starts filled with zeros. ``engine`` must be
    "numpy" and ``base_comm_nccl`` None (the device arrays are not bound yet).
    """

    __slots__ = ("_a", "_comm", "_engine")

    def __init__(self, global_shape, base_comm=MPI.COMM_WORLD, base_comm_nccl=None,
                 partition=Partition.SCATTER, axis=0, local_shapes=None, mask=None,
                 engine="numpy", dtype=np.float64, grid=None):
        if engine != "numpy" or base_comm_nccl is not None:
            raise ValueError("distlops' Python package holds host arrays only: engine must be "
                             "'numpy' and base_comm_nccl None")
        cls = ext_class("DistributedArray", dtype)
        layout = make_layout(global_shape, base_comm, partition, axis, local_shapes, mask, grid)
        self._a = cls(layout)
        self._comm = base_comm

    @classmethod
    def _wrap(cls, array, comm=None):
        self = cls.__new__(cls)
        self._a = array
        self._comm = comm
        return self

    # ---- properties ----------------------------------------------------------------------------
    @property
    def local_array(self):
        """This rank's block as a writable NumPy array sharing the library's memory."""
        return self._a.local_array

    @property
    def layout(self):
        """The library's Layout of the array: global shape, partition, cut and every rank's box."""
        return self._a.layout

    @property
    def global_shape(self):
        """The shape of the whole array, the same on every rank."""
        return tuple(self._a.layout.global_shape)

    @property
    def local_shape(self):
        """The shape of this rank's block (the global shape for replicated arrays)."""
        return tuple(self._a.layout.local_shape)

    @property
    def local_shapes(self):
        """Every rank's local shape, in rank order."""
        return [tuple(s) for s in self._a.layout.local_shapes]

    @property
    def partition(self):
        """How the array is held: Partition.SCATTER, BROADCAST or UNSAFE_BROADCAST."""
        return self._a.layout.partition

    @property
    def axis(self):
        """The distribution axis (an error for arrays cut along several axes)."""
        return self._a.layout.axis

    @property
    def grid(self):
        """The process grid, one entry per axis (a slab's is 1 but along its axis); None for
        boxes that form no grid."""
        grid = self._a.layout.grid
        return None if grid is None else tuple(grid)

    @property
    def local_box(self):
        """This rank's box of the global array: (lower corner, upper corner), upper excluded."""
        lower, upper = self._a.layout.local_box
        return tuple(lower), tuple(upper)

    @property
    def mask(self):
        """The colour of every rank (ranks of one colour hold one replica), or None."""
        mask = self._a.layout.mask
        return list(mask) if mask else None

    @property
    def ndim(self):
        """The number of axes of the global array."""
        return len(self._a.layout.global_shape)

    @property
    def dtype(self):
        """The NumPy dtype of the elements (float32, float64, complex64 or complex128)."""
        return self._a.local_array.dtype

    @property
    def engine(self):
        """"numpy": the Python package holds host arrays (PyLops-MPI's attribute)."""
        # Host arrays: "numpy", unless a caller set PyLops-MPI's _engine attribute.
        return getattr(self, "_engine", "numpy")

    @property
    def base_comm(self):
        """The mpi4py communicator of all the ranks that share the array."""
        self._comm = _mpi4py_comm(self._a.layout.communicator, self._comm)
        return self._comm

    @property
    def sub_comm(self):
        """The mpi4py communicator of this rank's mask group (reductions run in it)."""
        return _mpi4py_comm(self._a.layout.sub_communicator, None)

    @property
    def rank(self):
        """This rank's number in ``base_comm``."""
        return self._a.layout.communicator.rank

    @property
    def size(self):
        """The number of ranks of ``base_comm``."""
        return self._a.layout.communicator.size

    # ---- data in and out -----------------------------------------------------------------------
    def __getitem__(self, index):
        return self.local_array[index]

    def __setitem__(self, index, value):
        """As PyLops-MPI: SCATTER and UNSAFE_BROADCAST write this rank's block; BROADCAST
        writes rank 0's value on every rank."""
        local = self.local_array
        if self.partition == Partition.BROADCAST:
            view = local[index]
            buffer = np.empty(np.shape(view), dtype=local.dtype)
            if self.rank == 0:
                buffer[...] = value
            self.base_comm.Bcast(buffer, root=0)
            local[index] = buffer
        else:
            local[index] = value

    @classmethod
    def to_dist(cls, x, base_comm=MPI.COMM_WORLD, base_comm_nccl=None,
                partition=Partition.SCATTER, axis=0, local_shapes=None, mask=None, grid=None):
        """Every rank passes the global array ``x`` and keeps its block of it."""
        x = np.ascontiguousarray(x)
        layout = make_layout(x.shape, base_comm, partition, axis, local_shapes, mask, grid)
        return cls._wrap(ext_class("DistributedArray", x.dtype).from_global(layout, x), base_comm)

    def asarray(self, masked=False):
        """The global array on every rank (of this rank's mask group when ``masked``)."""
        return self._a.asarray(masked)

    # ---- copies and reductions -----------------------------------------------------------------
    def copy(self):
        """A deep copy with the same layout."""
        return DistributedArray._wrap(self._a.copy(), self._comm)

    def conj(self):
        """The element-wise complex conjugate (a copy; real arrays are copied unchanged)."""
        return DistributedArray._wrap(self._a.conj(), self._comm)

    def zeros_like(self):
        """A new array of zeros with this array's layout and dtype."""
        return DistributedArray._wrap(self._a.zeros_like(), self._comm)

    def empty_like(self):
        """A new array with this array's layout and dtype, its values not set."""
        return DistributedArray._wrap(self._a.empty_like(), self._comm)

    def dot(self, dist_array, vdot=False):
        """Bilinear dot product (conjugating this array when ``vdot``); same value on every rank.
        Arrays of different dtypes are multiplied in the dtype of both (NumPy's, as
        PyLops-MPI's)."""
        a, b = _promoted(self, dist_array)
        return a._a.vdot(b._a) if vdot else a._a.dot(b._a)

    def norm(self, ord=None, axis=None):
        """numpy.linalg.norm's vector norms: ord None or 2, 1, 0, p, np.inf, -np.inf; along
        ``axis`` an array of norms (the global array's axes but that one)."""
        order = 2.0 if ord is None else float(ord)
        if axis is None:
            return self._a.norm(order)
        return self._a.norm_along(order, int(axis))

    def redistribute(self, axis=None, grid=None):
        """The same global array split along another ``axis``, cut over a process ``grid`` (one
        entry per axis), or in another Layout (given as ``axis``): one all-to-all."""
        if (axis is None) == (grid is None):
            raise ValueError("redistribute: give either an axis (or a Layout) or a grid")
        if grid is not None:
            target = make_layout(self.global_shape, self.base_comm, Partition.SCATTER,
                                 mask=self.mask, grid=grid)
            return DistributedArray._wrap(self._a.redistribute(target), self._comm)
        return DistributedArray._wrap(self._a.redistribute(axis), self._comm)

    def add_ghost_cells(self, cells_front=None, cells_back=None):
        """This rank's block extended by its neighbours' planes along the split axis (a copy)."""
        return self._a.add_ghost_cells(int(cells_front or 0), int(cells_back or 0))

    def check_replicas(self):
        """Raises ReplicaMismatch on every rank unless the replicas of a replicated array agree (a
        debug check; a collective)."""
        self._a.check_replicas()

    def astype(self, dtype):
        """A copy in ``dtype``, with the same layout (NumPy's casting of every element)."""
        copy = DistributedArray._wrap(ext_class("DistributedArray", dtype)(self._a.layout),
                                      self._comm)
        copy.local_array[...] = self.local_array
        return copy

    def ravel(self):
        """A flat array with this rank's block (a copy; the split must be along axis 0)."""
        return DistributedArray.to_dist(self.asarray().ravel(), base_comm=self.base_comm,
                                        local_shapes=[int(np.prod(s)) for s in self.local_shapes])

    # ---- arithmetic ----------------------------------------------------------------------------
    def _operand(self, x):
        """x as the right operand of this array: an array in this array's dtype (PyLops-MPI's
        result dtype is the left operand's), cast where NumPy's same_kind allows."""
        if isinstance(x, DistributedArray):
            return _conformed(x, self.dtype, "arithmetic on a " + str(self.dtype) + " array")._a
        return x

    def __neg__(self):
        return DistributedArray._wrap(-self._a, self._comm)

    def __add__(self, x):
        return DistributedArray._wrap(self._a + self._operand(x), self._comm)

    def __radd__(self, x):
        return DistributedArray._wrap(self._a.__radd__(x), self._comm)

    def __sub__(self, x):
        return DistributedArray._wrap(self._a - self._operand(x), self._comm)

    def __rsub__(self, x):
        return DistributedArray._wrap(self._a.__rsub__(x), self._comm)

    def __mul__(self, x):
        return DistributedArray._wrap(self._a * self._operand(x), self._comm)

    def __rmul__(self, x):
        return DistributedArray._wrap(self._a.__rmul__(x), self._comm)

    def __truediv__(self, x):
        return DistributedArray._wrap(self._a / self._operand(x), self._comm)

    def __iadd__(self, x):
        self._a += self._operand(x)
        return self

    def __isub__(self, x):
        self._a -= self._operand(x)
        return self

    def __imul__(self, x):
        self._a *= self._operand(x)
        return self

    def __itruediv__(self, x):
        self._a /= self._operand(x)
        return self

    def add(self, dist_array):
        """``self + dist_array`` (PyLops-MPI's method)."""
        return self + dist_array

    def iadd(self, dist_array):
        """``self += dist_array``, in place; returns self (PyLops-MPI's method)."""
        self += dist_array
        return self

    def multiply(self, x):
        """``self * x``, element-wise with an array of the same layout or a scalar (PyLops-MPI's
        method)."""
        return self * x

    def __repr__(self):
        return (f"<DistributedArray with global shape={self.global_shape}, local shape="
                f"{self.local_shape}, dtype={self.dtype}, processes={self.size}>")


class StackedDistributedArray:
    """A sequence of DistributedArrays and nested StackedDistributedArrays seen as one vector
    (PyLops-MPI's class): the concatenation of the flattened items, nested to any depth. The
    stack holds copies of the arrays it is built from; ``s[i]`` is the stack's own item i without
    copy (a DistributedArray, or a StackedDistributedArray for a nested item)."""

    __slots__ = ("_a", "_comm")

    def __init__(self, distarrays, base_comm=MPI.COMM_WORLD):
        distarrays = list(distarrays)
        if not distarrays:
            raise ValueError("StackedDistributedArray: no arrays given")
        dtype = distarrays[0].dtype
        for i, item in enumerate(distarrays):
            if not isinstance(item, (DistributedArray, StackedDistributedArray)):
                raise TypeError(f"StackedDistributedArray: item {i} is a {type(item).__name__}, "
                                f"expected a DistributedArray or StackedDistributedArray")
            if item.dtype != dtype:
                raise ValueError(f"StackedDistributedArray: item {i} has dtype {item.dtype}, "
                                 f"item 0 has {dtype}")
        self._a = ext_class("StackedDistributedArray", dtype)()
        for item in distarrays:
            self._a.append(item._a)
        self._comm = base_comm

    @classmethod
    def _wrap(cls, array, comm=None):
        self = cls.__new__(cls)
        self._a = array
        self._comm = comm
        return self

    @property
    def narrays(self):
        """The number of items of the stack."""
        return len(self._a)

    @property
    def distarrays(self):
        """The items, without copy: DistributedArrays and nested stacks."""
        return [self[i] for i in range(len(self._a))]

    @property
    def global_shape(self):
        """The global shape of every item, in order."""
        return tuple(d.global_shape for d in self.distarrays)

    @property
    def dtype(self):
        """The dtype the items share."""
        return self[0].dtype

    def __len__(self):
        return len(self._a)

    def _index(self, index):
        count = len(self._a)
        if not isinstance(index, Integral):
            raise TypeError(f"StackedDistributedArray indices are integers, got "
                            f"{type(index).__name__}")
        if not -count <= index < count:
            raise IndexError(f"StackedDistributedArray: index {index} out of range for "
                             f"{count} items")
        return int(index) % count

    def __getitem__(self, index):
        index = self._index(index)
        if self._a.is_nested(index):
            return type(self)._wrap(self._a.get_nested(index), self._comm)
        return DistributedArray._wrap(self._a.get(index), self._comm)

    def __setitem__(self, index, value):
        """Copies ``value`` into item i: a DistributedArray of the same layout for a plain item,
        a StackedDistributedArray of the same nesting and layouts for a nested one; a plain item
        also takes a scalar or a NumPy array of its local shape."""
        target = self[index]
        if isinstance(target, DistributedArray) and not isinstance(
                value, (DistributedArray, StackedDistributedArray)):
            target[:] = value
            return
        if not isinstance(value, type(target)):
            raise ValueError(f"StackedDistributedArray: item {index} is a "
                             f"{type(target).__name__}, got a {type(value).__name__}")
        target._a.copy_from(value._a)

    def asarray(self):
        """The whole stack as one flat NumPy array on every rank (the items flattened and
        concatenated)."""
        return self._a.asarray()

    def copy(self):
        """A deep copy with the same nesting and layouts."""
        return type(self)._wrap(self._a.copy(), self._comm)

    def conj(self):
        """The element-wise complex conjugate of every item (a copy)."""
        return type(self)._wrap(self._a.conj(), self._comm)

    def zeros_like(self):
        """A stack of zeros with the same nesting, layouts and dtype."""
        return type(self)._wrap(self._a.zeros_like(), self._comm)

    def dot(self, stacked_array, vdot=False):
        """The bilinear dot product with a stack of the same structure, summed over the items
        (conjugating this stack when ``vdot``); same value on every rank."""
        a, b = _promoted(self, stacked_array)
        return a._a.vdot(b._a) if vdot else a._a.dot(b._a)

    def norm(self, ord=None):
        """The ``ord`` norm of the stack seen as one vector (ord None: 2); same value on every
        rank."""
        return self._a.norm(2.0 if ord is None else float(ord))

    def _operand(self, x):
        """As DistributedArray._operand: in this stack's dtype, cast where same_kind allows."""
        if isinstance(x, StackedDistributedArray):
            return _conformed(x, self.dtype, "arithmetic on a " + str(self.dtype) + " stack")._a
        return x

    def __neg__(self):
        return type(self)._wrap(-self._a, self._comm)

    def __add__(self, x):
        return type(self)._wrap(self._a + self._operand(x), self._comm)

    def __sub__(self, x):
        return type(self)._wrap(self._a - self._operand(x), self._comm)

    def __mul__(self, x):
        return type(self)._wrap(self._a * self._operand(x), self._comm)

    def __rmul__(self, x):
        return type(self)._wrap(self._a.__rmul__(x), self._comm)

    def __iadd__(self, x):
        self._a += self._operand(x)
        return self

    def __isub__(self, x):
        self._a -= self._operand(x)
        return self

    def __imul__(self, x):
        self._a *= self._operand(x)
        return self

    def astype(self, dtype):
        """A copy in ``dtype`` (each array cast, the nesting kept)."""
        return StackedDistributedArray([item.astype(dtype) for item in self.distarrays])

    def __repr__(self):
        return f"<StackedDistributedArray of {len(self)} arrays, dtype={self.dtype}>"


def wrap_vector(vector, comm=None):
    """The Python array of an extension array (plain or stacked)."""
    if type(vector).__name__.startswith("Stacked"):
        return StackedDistributedArray._wrap(vector, comm)
    return DistributedArray._wrap(vector, comm)


def _conformed(x, dtype, what):
    """x, or a copy cast to ``dtype`` where cast_problem allows; TypeError naming both dtypes and
    ``what`` (the operator and the call) otherwise."""
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x
    problem = cast_problem(x.dtype, dtype)
    if problem is not None:
        raise TypeError(f"{what}: a {x.dtype} array where {dtype} is taken: {problem}")
    return x.astype(dtype)


def _promoted(a, b):
    """a and b in the dtype of both (NumPy's result_type), copying the one that differs."""
    dtype = np.result_type(a.dtype, b.dtype)
    return a.astype(dtype) if a.dtype != dtype else a, b.astype(dtype) if b.dtype != dtype else b


def unwrap_vector(x, dtype=None, what=None):
    """The extension array of x; with ``dtype``, of x cast to it where PyLops-MPI casts, and a
    TypeError naming both dtypes and ``what`` where a cast would lose the imaginary part."""
    if isinstance(x, (DistributedArray, StackedDistributedArray)):
        return x._a if dtype is None else _conformed(x, dtype, what)._a
    raise TypeError(f"expected a DistributedArray or StackedDistributedArray, got "
                    f"{type(x).__name__}")
