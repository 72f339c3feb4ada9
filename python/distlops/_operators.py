# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Operators: the handle classes with PyLops-MPI's interface (shape, dtype, matvec, rmatvec, H,
T, composition with ``*`` and ``@``, sums, scaling), local operators from other objects
(``aslocal``), and the operators at the top of the library's operators: Reshape and MPIHalo. The
operators of each group are in the module of its name (``_local``, ``_signal``, ...), as
``include/distlops/operators/<group>/`` and ``python/src/<group>.cpp``."""
from numbers import Number

import numpy as np
from mpi4py import MPI

from . import _distlops as _ext
from ._arrays import (DistributedArray, Partition, StackedDistributedArray, cast_problem,
                      communicator, dtype_of, engine_of, layout_comm, make_layout, same_engine,
                      unwrap_vector, wrap_vector)
from ._factories import export, wraps
from ._factories import ext_function as _ext_function


class LinearOperator:
    """A distributed operator: MPILinearOperator's interface over the library's handle.

    ``matvec`` and ``rmatvec`` take and return DistributedArray (StackedDistributedArray for
    stacked domains or ranges); N-d arrays of the operator's layout and flat arrays with the
    same split are both accepted. An operator runs in one memory space, its ``engine``: it takes
    the arrays of that engine ("numpy", or "cupy" for an operator made with ``engine="cupy"``)
    and raises ValueError naming both engines for others."""

    __slots__ = ("_op", "dtype", "_comm")

    def __init__(self, op, dtype, base_comm=None):
        self._op = op
        self.dtype = np.dtype(dtype)
        self._comm = base_comm

    @property
    def shape(self):
        """(rows, columns) of the global operator: the sizes of its range and domain."""
        return (self._op.rows, self._op.cols)

    @property
    def name(self):
        """The library's name of the operator (that of the outermost one for compositions)."""
        return self._op.name

    @property
    def engine(self):
        """"numpy" for an operator on host arrays, "cupy" for one on device arrays."""
        return engine_of(self._op)

    @property
    def base_comm(self):
        """The mpi4py communicator of the operator's ranks (COMM_WORLD when none was given)."""
        return self._comm if self._comm is not None else MPI.COMM_WORLD

    # An input of another dtype is cast to the operator's side where PyLops-MPI casts (between
    # precisions, real to complex); a complex one for a real side raises TypeError naming both
    # dtypes and the operator. An output array must have the side's dtype.
    def _side(self, x, adjoint, what, output=False):
        model, data = _sides(self._op)
        dtype = data if adjoint != output else model
        if output and isinstance(x, (DistributedArray, StackedDistributedArray)) and \
                x.dtype != dtype:
            raise TypeError(f"{self.name}.{what}: the output array is {x.dtype}, the operator "
                            f"writes {dtype}")
        return unwrap_vector(x, dtype, f"{self.name}.{what} ({model} models, {data} data)",
                             self.engine)

    def matvec(self, x):
        """A x for a DistributedArray (or StackedDistributedArray) x of the domain; a new array of
        the range."""
        return wrap_vector(self._op.apply(self._side(x, False, "matvec")), self._comm)

    def rmatvec(self, y):
        """A^H y for an array y of the range; a new array of the domain."""
        return wrap_vector(self._op.apply_adjoint(self._side(y, True, "rmatvec")), self._comm)

    def matvec_into(self, x, y):
        """y = A x into an existing array: no allocation after the first call."""
        self._op.apply_into(self._side(x, False, "matvec_into"),
                            self._side(y, False, "matvec_into", output=True))
        return y

    def rmatvec_into(self, y, x):
        """x = A^H y into an existing array: no allocation after the first call."""
        self._op.apply_adjoint_into(self._side(y, True, "rmatvec_into"),
                                    self._side(x, True, "rmatvec_into", output=True))
        return x

    def domain_zeros(self):
        """A new array of zeros in the operator's domain layout (a stack for stacked domains)."""
        return wrap_vector(self._op.domain_zeros(), self._comm)

    def range_zeros(self):
        """A new array of zeros in the operator's range layout (a stack for stacked ranges)."""
        return wrap_vector(self._op.range_zeros(), self._comm)

    def _new(self, op):
        return LinearOperator(op, self.dtype, self._comm)

    @property
    def H(self):
        """The adjoint operator A^H (no copy: a handle to the same operator)."""
        return self._new(self._op.adjoint())

    def adjoint(self):
        """The adjoint operator A^H, as ``A.H``."""
        return self.H

    @property
    def T(self):
        """The transpose A^T (the adjoint of the conjugate)."""
        return self._new(_algebra(self._op, "T").transpose())

    def transpose(self):
        """The transpose A^T, as ``A.T``."""
        return self.T

    def conj(self):
        """The element-wise conjugate operator, conj(A)."""
        return self._new(_algebra(self._op, "conj").conj())

    def dot(self, x):
        """``A @ B`` for an operator B (the composition), ``A * c`` for a number (the scaling), ``A
        @ x`` for an array (``matvec``)."""
        if isinstance(x, LinearOperator):
            same_engine(f"{self.name} @ {x.name}", self.engine, x.engine)
            return self._new(_compose(self._op, x._op))
        if isinstance(x, Number):
            return self._new(_algebra(self._op, "*").scaled(x))
        return self.matvec(x)

    __matmul__ = dot
    __mul__ = dot

    def __rmul__(self, x):
        if isinstance(x, Number):
            return self._new(_algebra(self._op, "*").scaled(x))
        return NotImplemented

    def __truediv__(self, x):
        return self._new(_algebra(self._op, "/").scaled(1 / x))

    def __add__(self, other):
        same_engine(f"{self.name} + {other.name}", self.engine, other.engine)
        return self._new(_algebra(self._op, "+") + other._op)

    def __sub__(self, other):
        same_engine(f"{self.name} - {other.name}", self.engine, other.engine)
        return self._new(_algebra(self._op, "-") - other._op)

    def __neg__(self):
        return self._new(-_algebra(self._op, "-"))

    def __repr__(self):
        return (f"<{self.shape[0]}x{self.shape[1]} distlops {self.name} with dtype={self.dtype}, "
                f"engine={self.engine}>")


def _algebra(handle, what):
    """The extension handle ``handle``, where its space binds the operator algebra (sums,
    scaling, transpose, conjugate): the host for every operator, the CUDA space for distributed
    operators on plain arrays; ValueError naming the engine otherwise."""
    if not hasattr(handle, "scaled"):
        kind = type(handle).__name__.rsplit("_", 2)[0]
        raise ValueError(f"{handle.name} {what}: the {engine_of(handle)!r} engine has no sums, "
                         f"scaling, transpose or conjugate of a {kind} (docs/python.md)")
    return handle


def _compose(a, b):
    """The extension's composition a * b; in the CUDA space, which composes the operators from
    plain models only (of distributed arrays), ValueError for the others."""
    try:
        return _ext.compose(a, b)
    except TypeError:
        if engine_of(a) == "numpy" and engine_of(b) == "numpy":
            raise
        raise ValueError(f"{a.name} @ {b.name}: the 'cupy' engine composes the distributed "
                         f"operators whose models are plain arrays (DistributedArray) only "
                         f"(docs/python.md)") from None


def _complex_of(dtype):
    return np.result_type(np.dtype(dtype), np.complex64)


def _sides(handle):
    """The model and data dtypes of an extension operator handle, from its class name
    (LocalOperator_float64, LocalRealToComplexOperator_float32, ...)."""
    kind = type(handle).__name__
    dtype = dtype_of(handle)
    if "RealToComplex" in kind:
        return dtype, _complex_of(dtype)
    if "ComplexToReal" in kind:
        return _complex_of(dtype), dtype
    return dtype, dtype


class LocalOperator:
    """An operator on one rank's NumPy arrays (the blocks of BlockDiag, VStack, HStack).

    ``matvec``, ``rmatvec`` and ``@`` apply it to NumPy arrays, as a serial PyLops operator:
    flat arrays give flat results, arrays of shape ``dims`` give arrays of shape ``dimsd``.
    ``dtype`` is PyLops': complex when either side is (the FFTs of real models);
    ``model_dtype`` and ``data_dtype`` are those of each side."""

    __slots__ = ("_op", "dtype", "model_dtype", "data_dtype")

    def __init__(self, op, dtype=None):
        self._op = op
        self.model_dtype, self.data_dtype = _sides(op)
        self.dtype = np.dtype(dtype) if dtype is not None else \
            np.result_type(self.model_dtype, self.data_dtype)

    @property
    def shape(self):
        """(rows, columns) of the operator on this rank's data."""
        return (self._op.rows, self._op.cols)

    @property
    def engine(self):
        """"numpy", or "cupy" for a block of the distributed operators on CuPy-engine arrays."""
        return engine_of(self._op)

    @property
    def dims(self):
        """The model's N-d shape (the shape ``matvec`` takes)."""
        return tuple(self._op.dims)

    @property
    def dimsd(self):
        """The data's N-d shape (the shape ``matvec`` returns)."""
        return tuple(self._op.dimsd)

    def _wrap(self, handle):
        """A LocalOperator for a new handle (an adjoint, product, sum or scaling)."""
        return LocalOperator(handle)

    def _numpy(self, x, dtype, what):
        """x as a contiguous array of ``dtype``, cast as the distributed operators cast."""
        if self.engine != "numpy":
            raise ValueError(f"{self._op.name}.{what}: a local operator of engine "
                             f"{self.engine!r} applies inside the distributed operators made of "
                             f"it (MPIBlockDiag, ...), not to NumPy arrays of engine 'numpy'")
        problem = cast_problem(x.dtype, dtype)
        if problem is not None:
            raise TypeError(f"{self._op.name}.{what} ({self.model_dtype} models, "
                            f"{self.data_dtype} data): a {x.dtype} array where {dtype} is taken: "
                            f"{problem}")
        return np.ascontiguousarray(x, dtype=dtype)

    def matvec(self, x):
        """A x for a NumPy array x: flat for a flat x, of shape ``dimsd`` for x of shape
        ``dims``."""
        x = np.asarray(x)
        y = self._op.apply_numpy(self._numpy(x, self.model_dtype, "matvec"))
        return y if x.ndim > 1 else y.ravel()

    def rmatvec(self, y):
        """A^H y for a NumPy array y: flat for a flat y, of shape ``dims`` for y of shape
        ``dimsd``."""
        y = np.asarray(y)
        x = self._op.apply_adjoint_numpy(self._numpy(y, self.data_dtype, "rmatvec"))
        return x if y.ndim > 1 else x.ravel()

    @property
    def H(self):
        """The adjoint operator A^H."""
        return self._wrap(self._op.adjoint())

    def adjoint(self):
        """The adjoint operator A^H, as ``A.H``."""
        return self.H

    def __mul__(self, other):
        """``A @ B`` for a LocalOperator B (the composition), ``A * c`` for a number (the
        scaling), ``A @ x`` for a NumPy array (``matvec``)."""
        if isinstance(other, LocalOperator):
            same_engine(f"{self._op.name} @ {other._op.name}", self.engine, other.engine)
            return self._wrap(_compose(self._op, other._op))
        if isinstance(other, Number):
            return self._wrap(_algebra(self._op, "*").scaled(other))
        if isinstance(other, np.ndarray):
            return self.matvec(other)
        return NotImplemented

    __matmul__ = __mul__
    dot = __mul__

    def __rmul__(self, x):
        if isinstance(x, Number):
            return self._wrap(_algebra(self._op, "*").scaled(x))
        return NotImplemented

    def __add__(self, other):
        same_engine(f"{self._op.name} + {other._op.name}", self.engine, other.engine)
        return self._wrap(_algebra(self._op, "+") + other._op)

    def __sub__(self, other):
        same_engine(f"{self._op.name} - {other._op.name}", self.engine, other.engine)
        return self._wrap(_algebra(self._op, "-") - other._op)

    def __neg__(self):
        return self._wrap(-_algebra(self._op, "-"))

    def __repr__(self):
        return f"<{self.shape[0]}x{self.shape[1]} distlops local {self._op.name}>"


def _as_dims(dims):
    return [int(dims)] if isinstance(dims, Number) else [int(n) for n in dims]


def aslocal(op, dtype=None):
    """A local operator from a distlops LocalOperator (itself) or any object with ``shape``,
    ``matvec`` and ``rmatvec`` on flat vectors (a serial pylops.LinearOperator, a SciPy one).
    PyLops' ``dims`` and ``dimsd`` become its model and data shapes, so that a stack of such
    operators acts on N-d arrays split along their first axis."""
    if isinstance(op, LocalOperator):
        if op.model_dtype != op.data_dtype:
            raise ValueError(f"{op._op.name} maps {op.model_dtype} models to {op.data_dtype} data; "
                             f"the operators built from local ones take one dtype (for an FFT: "
                             f"real=False and a complex dtype)")
        return op
    if not all(hasattr(op, name) for name in ("shape", "matvec", "rmatvec")):
        raise TypeError(f"expected a distlops LocalOperator or an operator with shape, matvec "
                        f"and rmatvec, got {type(op).__name__}")
    dtype = np.dtype(dtype or getattr(op, "dtype", np.float64))
    rows, cols = op.shape
    model = _as_dims(getattr(op, "dims", cols))
    data = _as_dims(getattr(op, "dimsd", rows))
    if int(np.prod(model)) != cols or int(np.prod(data)) != rows:
        model, data = [cols], [rows]
    from ._local import FunctionOperator  # the local group's module imports this one

    return FunctionOperator(lambda x: op.matvec(x.ravel()), lambda y: op.rmatvec(y.ravel()),
                            model, data, dtype=dtype, name=type(op).__name__)


def _locals(ops, dtype, what):
    """The handles of local operators ``ops``, their dtype and their engine (which they must
    share: ValueError naming both otherwise)."""
    ops = list(ops)
    if dtype is None:
        dtype = getattr(ops[0], "dtype", np.float64) if ops else np.float64
    handles = [aslocal(op, dtype)._op for op in ops]
    return handles, np.dtype(dtype), _shared_engine(what, handles)


def _shared_engine(what, handles):
    """The engine of the extension handles ``handles`` (all of one, or ValueError naming both;
    "numpy" for none)."""
    engines = [engine_of(h) for h in handles] or ["numpy"]
    same_engine(what, *engines)
    return engines[0]


def _layout(dims, base_comm):
    return make_layout(_as_dims(dims), base_comm, Partition.SCATTER, 0)


def _distributed(ops, what):
    """The handles of distributed operators ``ops``, their dtype, communicator and engine."""
    ops = list(ops)
    if not ops or not all(isinstance(op, LinearOperator) for op in ops):
        raise TypeError("expected a non-empty list of distlops LinearOperators")
    handles = [op._op for op in ops]
    return handles, ops[0].dtype, ops[0]._comm, _shared_engine(what, handles)


def _regrid(op_side_zeros, dims, base_comm, what):
    """The layout of shape ``dims`` split along axis 0 in which every rank holds as many
    elements as it holds in ``op_side_zeros`` (an array of the operator's current layout)."""
    dims = _as_dims(dims)
    size = op_side_zeros.local_array.size
    trailing = int(np.prod(dims[1:])) if len(dims) > 1 else 1
    sizes = base_comm.allgather(size)
    if any(s % trailing for s in sizes) or sum(sizes) != int(np.prod(dims)):
        raise ValueError(f"Reshape: the {what} {tuple(dims)} cannot be split along axis 0 into "
                         f"the ranks' blocks of {sizes} elements")
    return make_layout(dims, base_comm,
                       local_shapes=[[s // trailing] + dims[1:] for s in sizes])


def Reshape(Op, dims, dimsd, base_comm=None):
    """The distributed operator ``Op`` seen on arrays of shape ``dims`` (model) and ``dimsd``
    (data), split along axis 0 with every rank keeping the elements it holds in Op's layouts
    (no data move): e.g. a flat MPIBlockDiag on the N-d grid of a derivative, so that they add.
    Collective."""
    comm = base_comm or Op.base_comm
    domain = _regrid(Op.domain_zeros(), dims, comm, "model shape")
    range_ = _regrid(Op.range_zeros(), dimsd, comm, "data shape")
    return LinearOperator(_ext.reshape(Op._op, domain, range_), Op.dtype, Op._comm)


@wraps("distributed", "Halo")
def MPIHalo(dims, halo, proc_grid_shape=None, comm=MPI.COMM_WORLD, dtype=np.float64,
            engine="numpy"):
    """PyLops-MPI's MPIHalo: each rank's block of the array of shape ``dims`` (on the process
    grid ``proc_grid_shape``; by default every rank along the last axis) extended by ghost
    cells from its neighbours; ``halo`` is one width (no ghosts at the array's ends), one per
    axis or one per side. The model is the concatenation of the flattened blocks, the data that of the
    extended blocks; the adjoint adds the ghost cells back to their owners (exact)."""
    widths = [int(halo)] if isinstance(halo, Number) else [int(h) for h in halo]
    grid = [] if proc_grid_shape is None else [int(n) for n in proc_grid_shape]
    return LinearOperator(_ext_function("Halo", dtype, engine, comm)(
        communicator(comm), _as_dims(dims), widths, grid), dtype, comm)


@wraps("distributed", "HaloOfLayout")
def MPIHaloOfLayout(layout, halo, dtype=np.float64, engine="numpy"):
    """Halo of the blocks of ``layout``, a SCATTER layout cut over a process grid (uneven parts,
    ``grid_extents``, included), which is its domain: each block extended by ghost cells from its
    neighbours, ``halo`` one width per side (minus_0, plus_0, minus_1, ...), the same on every
    rank; ghost cells beyond the array's ends are kept and hold zeros. The data are the flattened
    extended blocks; the adjoint adds the ghost cells back to their owners (exact)."""
    return LinearOperator(
        _ext_function("HaloOfLayout", dtype, engine, layout_comm(layout))(
            layout, [int(h) for h in halo]), dtype, None)


# PyLops-MPI's name of the distributed operator class.
MPILinearOperator = LinearOperator

export(globals(), "operators")
