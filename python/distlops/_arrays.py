# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""DistributedArray and StackedDistributedArray with PyLops-MPI's names and semantics.

Each wraps the C++ array of its dtype and memory space (``_distlops.DistributedArray_float64``,
``DistributedArray_float64_cuda``, ...): the data live in the library's memory and
``local_array`` is a writable view of this rank's block, without copy: a NumPy array of host
memory (``engine="numpy"``) or a CuPy array of device memory (``engine="cupy"``, builds of the
library with the CUDA backend).
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


# PyLops-MPI's engines and the suffix of the extension's names of their memory space.
ENGINES = {"numpy": "", "cupy": "_cuda"}


def engine_suffix(engine):
    """The suffix of the extension's names for an engine (ValueError for other engines)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be 'numpy' or 'cupy', got {engine!r}")
    return ENGINES[engine]


def ext_class(base, dtype, engine="numpy"):
    return getattr(_ext, f"{base}_{dtype_suffix(dtype)}{engine_suffix(engine)}")


def engine_of(ext_object):
    """The engine of an extension array or operator, from its class name."""
    return "cupy" if type(ext_object).__name__.endswith(ENGINES["cupy"]) else "numpy"


def dtype_of(ext_object):
    """The dtype of an extension array or operator (the model side's for operators that map
    real to complex values), from its class name."""
    name = type(ext_object).__name__
    if name.endswith(ENGINES["cupy"]):
        name = name[:-len(ENGINES["cupy"])]
    return np.dtype(name.rsplit("_", 1)[1])


def _engine_problem(engine):
    """Why this rank cannot hold arrays of ``engine``: (invalid, message), invalid for an
    unknown engine; None where it can."""
    if engine not in ENGINES:
        return True, f"engine must be 'numpy' or 'cupy', got {engine!r}"
    if engine == "numpy":
        return None
    if not _ext.cuda_bound:
        return False, ("engine='cupy' needs distlops built with the CUDA backend (CMake option "
                       "DISTLOPS_ENABLE_CUDA); this build holds host arrays only")
    try:
        import cupy  # noqa: F401
    except ImportError:
        return False, "engine='cupy' needs CuPy, which is not installed (pip install cupy-cuda12x)"
    if _ext.cuda_device_count() == 0:
        return False, "engine='cupy' needs a CUDA device, and this rank sees none"
    return None


def agree_on_engine(engine, comm):
    """Checks, where ``engine`` is not "numpy", that every rank of ``comm`` asks for it and can
    hold its arrays, with the library's collective check (one small allreduce; the NumPy engine
    needs none, its arrays' own checks meet a rank that asks for another engine). Otherwise
    every rank raises alike, so that none goes on alone into the array's collectives:
    InvalidArgument (a ValueError) for an unknown engine or ranks that ask for different ones,
    DeviceError where CuPy, the CUDA backend or a device is missing (naming the first such
    rank)."""
    if engine == "numpy":
        return
    invalid, problem = _engine_problem(engine) or (False, "")
    _ext.agree_on_engine(communicator(comm), str(engine), problem, invalid)


def array_module(engine):
    """numpy or cupy: the module of an engine's arrays."""
    if engine == "cupy":
        import cupy

        return cupy
    return np


def is_cupy_array(x):
    """Whether x is a CuPy array (without importing CuPy)."""
    return type(x).__module__.split(".")[0] == "cupy"


def same_engine(what, *engines):
    """ValueError naming both engines when ``engines`` differ: the arrays and operators of one
    operation must all be of one engine. Every rank holds the same engines (agree_on_engine), so
    every rank raises alike."""
    for engine in engines[1:]:
        if engine != engines[0]:
            raise ValueError(f"{what}: mixes engine {engines[0]!r} with engine {engine!r}; "
                             f"convert one side first (DistributedArray.to_dist of its asarray())")


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


def layout_comm(layout):
    """The mpi4py communicator of a Layout's ranks."""
    return _mpi4py_comm(layout.communicator, None)


class DistributedArray:
    """An N-d array split (SCATTER) or replicated (BROADCAST) over the ranks of ``base_comm``.

    Same constructor as PyLops-MPI's; the array starts filled with zeros. ``engine="numpy"``
    holds it in host memory, ``engine="cupy"`` in the memory of each rank's CUDA device (the
    library's device, its local array a CuPy view). ``base_comm_nccl`` (PyLops-MPI's
    ``cupy.cuda.nccl.NcclCommunicator``) is taken with ``engine="cupy"`` only, as PyLops-MPI's
    request for device collectives: distlops always decides itself how device data cross ranks
    (NCCL, or staging through host memory where NCCL cannot run), so the communicator is not
    used.
    """

    __slots__ = ("_a", "_comm", "_engine")

    def __init__(self, global_shape, base_comm=MPI.COMM_WORLD, base_comm_nccl=None,
                 partition=Partition.SCATTER, axis=0, local_shapes=None, mask=None,
                 engine="numpy", dtype=np.float64, grid=None):
        if base_comm_nccl is not None and engine != "cupy":
            raise ValueError(f"base_comm_nccl is for engine='cupy' arrays, got engine {engine!r}")
        agree_on_engine(engine, base_comm)
        cls = ext_class("DistributedArray", dtype, engine)
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
        """This rank's block as a writable array sharing the library's memory: NumPy for
        ``engine="numpy"``, CuPy (on the library's device) for ``engine="cupy"``."""
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
        return dtype_of(self._a)

    @property
    def engine(self):
        """"numpy" for host arrays, "cupy" for device arrays (PyLops-MPI's attribute)."""
        # The memory space's, unless a caller set PyLops-MPI's _engine attribute.
        return getattr(self, "_engine", None) or engine_of(self._a)

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
                # A CuPy value crosses to the host here (the broadcast is over MPI).
                buffer[...] = value.get() if is_cupy_array(value) else value
            self.base_comm.Bcast(buffer, root=0)
            local[index] = array_module(engine_of(self._a)).asarray(buffer)
        else:
            local[index] = value

    @classmethod
    def to_dist(cls, x, base_comm=MPI.COMM_WORLD, base_comm_nccl=None,
                partition=Partition.SCATTER, axis=0, local_shapes=None, mask=None, grid=None):
        """Every rank passes the global array ``x`` and keeps its block of it: a NumPy array gives
        a NumPy-engine array, a CuPy array a CuPy-engine one (each rank copies its block to its
        device)."""
        engine = "cupy" if is_cupy_array(x) else "numpy"
        if base_comm_nccl is not None and engine != "cupy":
            raise ValueError("base_comm_nccl is for CuPy arrays, got a NumPy array")
        agree_on_engine(engine, base_comm)
        # The global array is read from host memory (from_global): a CuPy one is copied there.
        x = np.ascontiguousarray(x.get() if engine == "cupy" else x)
        layout = make_layout(x.shape, base_comm, partition, axis, local_shapes, mask, grid)
        return cls._wrap(ext_class("DistributedArray", x.dtype, engine).from_global(layout, x),
                         base_comm)

    @classmethod
    def from_local(cls, local, global_shape=None, base_comm=MPI.COMM_WORLD,
                   partition=Partition.SCATTER, axis=0, mask=None):
        """An array over the memory of each rank's C-contiguous block ``local`` (a NumPy array, or
        a CuPy array on the library's device), without copy: the array keeps ``local`` alive and
        both see each other's writes. The local shapes are the blocks' (gathered over
        ``base_comm``); ``global_shape`` defaults to their concatenation along ``axis``."""
        engine = "cupy" if is_cupy_array(local) else "numpy"
        agree_on_engine(engine, base_comm)
        shapes = base_comm.allgather(tuple(local.shape))
        if global_shape is None:
            global_shape = list(shapes[0])
            if partition == Partition.SCATTER:
                global_shape[axis] = sum(shape[axis] for shape in shapes)
        layout = make_layout(global_shape, base_comm, partition, axis,
                             shapes if partition == Partition.SCATTER else None, mask)
        return cls._wrap(ext_class("DistributedArray", local.dtype, engine).wrap(layout, local),
                         base_comm)

    def asarray(self, masked=False):
        """The global array on every rank (of this rank's mask group when ``masked``): NumPy or
        CuPy as the engine."""
        return _in_engine(self._a.asarray(masked), engine_of(self._a))

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
        return _in_engine(self._a.norm_along(order, int(axis)), engine_of(self._a))

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
        """This rank's block extended by its neighbours' planes along the split axis (a copy, of
        the array's engine)."""
        return self._a.add_ghost_cells(int(cells_front or 0), int(cells_back or 0))

    def check_replicas(self):
        """Raises ReplicaMismatch on every rank unless the replicas of a replicated array agree (a
        debug check; a collective)."""
        self._a.check_replicas()

    def astype(self, dtype):
        """A copy in ``dtype``, with the same layout (NumPy's casting of every element)."""
        copy = DistributedArray._wrap(
            ext_class("DistributedArray", dtype, engine_of(self._a))(self._a.layout), self._comm)
        copy.local_array[...] = self.local_array
        return copy

    def ravel(self):
        """A flat array with this rank's block (a copy; the split must be along axis 0)."""
        return DistributedArray.to_dist(self.asarray().ravel(), base_comm=self.base_comm,
                                        local_shapes=[int(np.prod(s)) for s in self.local_shapes])

    # ---- arithmetic ----------------------------------------------------------------------------
    def _operand(self, x):
        """x as the right operand of this array: an array of this array's engine in its dtype
        (PyLops-MPI's result dtype is the left operand's), cast where NumPy's same_kind
        allows."""
        if isinstance(x, DistributedArray):
            what = "arithmetic on a " + str(self.dtype) + " array"
            same_engine(what, self.engine, x.engine)
            return _conformed(x, self.dtype, what)._a
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
            same_engine(f"StackedDistributedArray (item {i} against item 0)",
                        distarrays[0].engine, item.engine)
        self._a = ext_class("StackedDistributedArray", dtype, engine_of(distarrays[0]._a))()
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
        return dtype_of(self._a)

    @property
    def engine(self):
        """The engine the items share: "numpy" or "cupy"."""
        return engine_of(self._a)

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
        """The whole stack as one flat array on every rank (the items flattened and concatenated),
        NumPy or CuPy as the engine."""
        return _in_engine(self._a.asarray(), engine_of(self._a))

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
        """As DistributedArray._operand: of this stack's engine, in its dtype, cast where
        same_kind allows."""
        if isinstance(x, StackedDistributedArray):
            what = "arithmetic on a " + str(self.dtype) + " stack"
            same_engine(what, self.engine, x.engine)
            return _conformed(x, self.dtype, what)._a
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


def _in_engine(values, engine):
    """A NumPy array of the extension's (gathered on the host) as an array of ``engine``."""
    return array_module(engine).asarray(values) if engine != "numpy" else values


def _promoted(a, b):
    """a and b of one engine, in the dtype of both (NumPy's result_type), copying the one that
    differs."""
    same_engine(f"{type(a).__name__}.dot", a.engine, b.engine)
    dtype = np.result_type(a.dtype, b.dtype)
    return a.astype(dtype) if a.dtype != dtype else a, b.astype(dtype) if b.dtype != dtype else b


def unwrap_vector(x, dtype=None, what=None, engine=None):
    """The extension array of x; with ``dtype``, of x cast to it where PyLops-MPI casts, and a
    TypeError naming both dtypes and ``what`` where a cast would lose the imaginary part; with
    ``engine``, a ValueError naming both engines and ``what`` where x is of another one."""
    if isinstance(x, (DistributedArray, StackedDistributedArray)):
        if engine is not None:
            same_engine(what, engine, x.engine)
        return x._a if dtype is None else _conformed(x, dtype, what)._a
    raise TypeError(f"expected a DistributedArray or StackedDistributedArray, got "
                    f"{type(x).__name__}")
