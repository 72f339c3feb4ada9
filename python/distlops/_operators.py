# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Operators: the handle class with PyLops-MPI's interface (shape, dtype, matvec, rmatvec, H,
T, composition with ``*`` and ``@``, sums, scaling), the local operators and the distributed
ones under PyLops-MPI's names."""
from numbers import Number

import numpy as np
from mpi4py import MPI

from . import _distlops as _ext
from ._arrays import (DistributedArray, Partition, StackedDistributedArray, cast_problem,
                      communicator, dtype_suffix, make_layout, unwrap_vector, wrap_vector)


class LinearOperator:
    """A distributed operator: MPILinearOperator's interface over the library's handle.

    ``matvec`` and ``rmatvec`` take and return DistributedArray (StackedDistributedArray for
    stacked domains or ranges); N-d arrays of the operator's layout and flat arrays with the
    same split are both accepted."""

    __slots__ = ("_op", "dtype", "_comm")

    def __init__(self, op, dtype, base_comm=None):
        self._op = op
        self.dtype = np.dtype(dtype)
        self._comm = base_comm

    @property
    def shape(self):
        return (self._op.rows, self._op.cols)

    @property
    def name(self):
        return self._op.name

    @property
    def base_comm(self):
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
        return unwrap_vector(x, dtype, f"{self.name}.{what} ({model} models, {data} data)")

    def matvec(self, x):
        return wrap_vector(self._op.apply(self._side(x, False, "matvec")), self._comm)

    def rmatvec(self, y):
        return wrap_vector(self._op.apply_adjoint(self._side(y, True, "rmatvec")), self._comm)

    def matvec_into(self, x, y):
        """y = A x into an existing array: no allocation after the first call."""
        self._op.apply_into(self._side(x, False, "matvec_into"),
                            self._side(y, False, "matvec_into", output=True))
        return y

    def rmatvec_into(self, y, x):
        self._op.apply_adjoint_into(self._side(y, True, "rmatvec_into"),
                                    self._side(x, True, "rmatvec_into", output=True))
        return x

    def domain_zeros(self):
        return wrap_vector(self._op.domain_zeros(), self._comm)

    def range_zeros(self):
        return wrap_vector(self._op.range_zeros(), self._comm)

    def _new(self, op):
        return LinearOperator(op, self.dtype, self._comm)

    @property
    def H(self):
        return self._new(self._op.adjoint())

    def adjoint(self):
        return self.H

    @property
    def T(self):
        return self._new(self._op.transpose())

    def transpose(self):
        return self.T

    def conj(self):
        return self._new(self._op.conj())

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return self._new(_ext.compose(self._op, x._op))
        if isinstance(x, Number):
            return self._new(self._op.scaled(x))
        return self.matvec(x)

    __matmul__ = dot
    __mul__ = dot

    def __rmul__(self, x):
        if isinstance(x, Number):
            return self._new(self._op.scaled(x))
        return NotImplemented

    def __truediv__(self, x):
        return self._new(self._op.scaled(1 / x))

    def __add__(self, other):
        return self._new(self._op + other._op)

    def __sub__(self, other):
        return self._new(self._op - other._op)

    def __neg__(self):
        return self._new(-self._op)

    def __repr__(self):
        return f"<{self.shape[0]}x{self.shape[1]} distlops {self.name} with dtype={self.dtype}>"


def _complex_of(dtype):
    return np.result_type(np.dtype(dtype), np.complex64)


def _sides(handle):
    """The model and data dtypes of an extension operator handle, from its class name
    (LocalOperator_float64, LocalRealToComplexOperator_float32, ...)."""
    kind, suffix = type(handle).__name__.rsplit("_", 1)
    dtype = np.dtype(suffix)
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
        return (self._op.rows, self._op.cols)

    @property
    def dims(self):
        return tuple(self._op.dims)

    @property
    def dimsd(self):
        return tuple(self._op.dimsd)

    def _wrap(self, handle):
        """A LocalOperator for a new handle (an adjoint, product, sum or scaling)."""
        return LocalOperator(handle)

    def _numpy(self, x, dtype, what):
        """x as a contiguous array of ``dtype``, cast as the distributed operators cast."""
        problem = cast_problem(x.dtype, dtype)
        if problem is not None:
            raise TypeError(f"{self._op.name}.{what} ({self.model_dtype} models, "
                            f"{self.data_dtype} data): a {x.dtype} array where {dtype} is taken: "
                            f"{problem}")
        return np.ascontiguousarray(x, dtype=dtype)

    def matvec(self, x):
        x = np.asarray(x)
        y = self._op.apply_numpy(self._numpy(x, self.model_dtype, "matvec"))
        return y if x.ndim > 1 else y.ravel()

    def rmatvec(self, y):
        y = np.asarray(y)
        x = self._op.apply_adjoint_numpy(self._numpy(y, self.data_dtype, "rmatvec"))
        return x if y.ndim > 1 else x.ravel()

    @property
    def H(self):
        return self._wrap(self._op.adjoint())

    def adjoint(self):
        return self.H

    def __mul__(self, other):
        if isinstance(other, LocalOperator):
            return self._wrap(_ext.compose(self._op, other._op))
        if isinstance(other, Number):
            return self._wrap(self._op.scaled(other))
        if isinstance(other, np.ndarray):
            return self.matvec(other)
        return NotImplemented

    __matmul__ = __mul__
    dot = __mul__

    def __rmul__(self, x):
        if isinstance(x, Number):
            return self._wrap(self._op.scaled(x))
        return NotImplemented

    def __add__(self, other):
        return self._wrap(self._op + other._op)

    def __sub__(self, other):
        return self._wrap(self._op - other._op)

    def __neg__(self):
        return self._wrap(-self._op)

    def __repr__(self):
        return f"<{self.shape[0]}x{self.shape[1]} distlops local {self._op.name}>"


def _ext_function(name, dtype):
    return getattr(_ext, f"{name}_{dtype_suffix(dtype)}")


# ---- local operators --------------------------------------------------------------------------
def MatrixMult(A, otherdims=None, dtype=None):
    """y = A x for a dense NumPy matrix A (copied), on x of shape (A.shape[1], *otherdims)."""
    dtype = np.dtype(dtype or np.asarray(A).dtype)
    A = np.ascontiguousarray(A, dtype=dtype)
    return LocalOperator(_ext_function("local_MatrixMult", dtype)(A, list(otherdims or [])), dtype)


def Diagonal(diag, dims=None, axis=-1, dtype=None):
    dtype = np.dtype(dtype or np.asarray(diag).dtype)
    diag = np.ascontiguousarray(diag, dtype=dtype).ravel()
    return LocalOperator(_ext_function("local_Diagonal", dtype)(diag, list(dims or []), axis), dtype)


def Identity(N, M=None, dtype=np.float64):
    """PyLops' Identity(N, M): from arrays of M elements to arrays of N (M = N by default)."""
    M = N if M is None else M
    return LocalOperator(_ext_function("local_Identity", dtype)([int(N)], [int(M)]), dtype)


def _as_dims(dims):
    return [int(dims)] if isinstance(dims, Number) else [int(n) for n in dims]


def Zero(N, M=None, dtype=np.float64):
    """PyLops' Zero(N, M): from arrays of M elements to N zeros (M = N by default)."""
    M = N if M is None else M
    return LocalOperator(_ext_function("local_Zero", dtype)(_as_dims(N), _as_dims(M)), dtype)


def Scaling(dims, scale, dtype=np.float64):
    """y = scale x on arrays of shape ``dims``."""
    return LocalOperator(_ext_function("local_Scaling", dtype)(_as_dims(dims), scale), dtype)


def Transpose(dims, axes, dtype=np.float64):
    """PyLops' Transpose: arrays of shape ``dims`` with their axes permuted by ``axes``."""
    return LocalOperator(_ext_function("local_Transpose", dtype)(
        _as_dims(dims), [int(a) for a in axes]), dtype)


def Pad(dims, pad, dtype=np.float64):
    """PyLops' Pad: zero padding of arrays of shape ``dims`` by ``pad`` = ((before, after), ...)
    per axis (a single pair for 1-d arrays)."""
    dims = _as_dims(dims)
    pad = [pad] if len(dims) == 1 and isinstance(pad[0], Number) else pad
    return LocalOperator(_ext_function("local_Pad", dtype)(
        dims, [(int(b), int(a)) for b, a in pad]), dtype)


def Convolve1D(dims, h, offset=0, axis=-1, dtype=None):
    """PyLops' Convolve1D: convolution with the 1-d filter ``h`` (centre ``offset``) along
    ``axis`` of arrays of shape ``dims``."""
    dtype = np.dtype(dtype or np.asarray(h).dtype)
    h = np.ascontiguousarray(h, dtype=dtype).ravel()
    return LocalOperator(_ext_function("local_Convolve1D", dtype)(
        _as_dims(dims), h, int(offset), int(axis)), dtype)


def Restriction(dims, iava, axis=-1, dtype=np.float64):
    """PyLops' Restriction: the samples ``iava`` along ``axis`` (non-negative indices)."""
    iava = np.ascontiguousarray(iava, dtype=np.int64).ravel()
    return LocalOperator(_ext_function("local_Restriction", dtype)(_as_dims(dims), iava, axis),
                         dtype)


def LocalFirstDerivative(dims, axis=-1, sampling=1.0, kind="centered", edge=False,
                         dtype=np.float64):
    return LocalOperator(_ext_function("local_FirstDerivative", dtype)(
        _as_dims(dims), axis, sampling, kind, edge), dtype)


def LocalSecondDerivative(dims, axis=-1, sampling=1.0, kind="centered", edge=False,
                          dtype=np.float64):
    return LocalOperator(_ext_function("local_SecondDerivative", dtype)(
        _as_dims(dims), axis, sampling, kind, edge), dtype)


def FunctionOperator(f, fc, model_shape, data_shape=None, dtype=np.float64,
                     name="FunctionOperator"):
    """A local operator from two Python functions: y = f(x) and x = fc(y) (the adjoint), on
    NumPy arrays of ``model_shape`` and ``data_shape``. The input is a read-only view valid
    during the call; the result may be any array-like of the output's size."""
    dtype = np.dtype(dtype)
    model = _as_dims(model_shape)
    data = model if data_shape is None else _as_dims(data_shape)

    def forward(x):
        return np.ascontiguousarray(f(x), dtype=dtype)

    def adjoint(y):
        return np.ascontiguousarray(fc(y), dtype=dtype)

    return LocalOperator(_ext_function("local_FunctionOperator", dtype)(
        forward, adjoint, model, data, name), dtype)


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
    return FunctionOperator(lambda x: op.matvec(x.ravel()), lambda y: op.rmatvec(y.ravel()),
                            model, data, dtype=dtype, name=type(op).__name__)


def _locals(ops, dtype):
    ops = list(ops)
    if dtype is None:
        dtype = getattr(ops[0], "dtype", np.float64) if ops else np.float64
    return [aslocal(op, dtype)._op for op in ops], np.dtype(dtype)


# ---- distributed operators --------------------------------------------------------------------
def MPIBlockDiag(ops, base_comm=MPI.COMM_WORLD, mask=None, dtype=None):
    """The block-diagonal operator of each rank's local operators ``ops`` (collective).

    As in PyLops-MPI it maps flat arrays. When every rank has one block whose model and data
    shapes are N-d with the same trailing dimensions everywhere (PyLops' ``dims``/``dimsd``),
    it maps the N-d arrays split along their first axis instead, so that it adds and stacks
    with the derivatives; flat arrays with the same split are still accepted."""
    handles, dtype = _locals(ops, dtype)
    op = _ext_function("BlockDiag", dtype)(handles, communicator(base_comm), list(mask or []))
    shapes = [_ext.local_shapes(h) for h in handles]
    grids = base_comm.allgather(shapes[0] if len(shapes) == 1 else None)
    if mask is None and all(g is not None and len(g[0]) > 1 and len(g[1]) > 1 for g in grids):
        model_tails = {tuple(g[0][1:]) for g in grids}
        data_tails = {tuple(g[1][1:]) for g in grids}
        if len(model_tails) == 1 and len(data_tails) == 1:
            model_tail, data_tail = list(model_tails.pop()), list(data_tails.pop())
            model = make_layout([sum(g[0][0] for g in grids)] + model_tail, base_comm,
                                local_shapes=[g[0] for g in grids])
            data = make_layout([sum(g[1][0] for g in grids)] + data_tail, base_comm,
                               local_shapes=[g[1] for g in grids])
            op = _ext.reshape(op, model, data)
    return LinearOperator(op, dtype, base_comm)


def MPIVStack(ops, base_comm=MPI.COMM_WORLD, dtype=None):
    handles, dtype = _locals(ops, dtype)
    return LinearOperator(_ext_function("VStack", dtype)(handles, communicator(base_comm)), dtype,
                          base_comm)


def MPIHStack(ops, base_comm=MPI.COMM_WORLD, dtype=None):
    handles, dtype = _locals(ops, dtype)
    return LinearOperator(_ext_function("HStack", dtype)(handles, communicator(base_comm)), dtype,
                          base_comm)


def _layout(dims, base_comm):
    return make_layout(_as_dims(dims), base_comm, Partition.SCATTER, 0)


def MPIFirstDerivative(dims, sampling=1.0, kind="centered", edge=False, order=3,
                       base_comm=MPI.COMM_WORLD, dtype=np.float64, axis=0):
    """d/d(axis) on arrays of shape ``dims`` split along axis 0 (PyLops-MPI differentiates
    along axis 0; ``axis`` chooses another)."""
    return LinearOperator(_ext_function("FirstDerivative", dtype)(
        _layout(dims, base_comm), axis, sampling, kind, edge, order), dtype, base_comm)


def MPISecondDerivative(dims, sampling=1.0, kind="centered", edge=False,
                        base_comm=MPI.COMM_WORLD, dtype=np.float64, axis=0):
    return LinearOperator(_ext_function("SecondDerivative", dtype)(
        _layout(dims, base_comm), axis, sampling, kind, edge), dtype, base_comm)


def MPILaplacian(dims, axes=(-2, -1), weights=(1, 1), sampling=(1, 1), edge=False,
                 kind="centered", base_comm=MPI.COMM_WORLD, dtype=np.float64):
    return LinearOperator(_ext_function("Laplacian", dtype)(
        _layout(dims, base_comm), list(axes), [float(w) for w in weights],
        [float(s) for s in sampling], edge, kind), dtype, base_comm)


_KINDS = {"centered": _ext.DerivativeKind.centered, "forward": _ext.DerivativeKind.forward,
          "backward": _ext.DerivativeKind.backward}


def MPIGradient(dims, sampling=1, edge=False, kind="centered", base_comm=MPI.COMM_WORLD,
                dtype=np.float64):
    """The gradient: a StackedDistributedArray with one first derivative per axis."""
    if kind not in _KINDS:
        raise ValueError(f"kind must be 'centered', 'forward' or 'backward', got {kind!r}")
    dims = _as_dims(dims)
    sampling = [float(sampling)] * len(dims) if isinstance(sampling, Number) else \
        [float(s) for s in sampling]
    return LinearOperator(_ext_function("Gradient", dtype)(
        _layout(dims, base_comm), sampling, edge, _KINDS[kind]), dtype, base_comm)


def _distributed(ops):
    ops = list(ops)
    if not ops or not all(isinstance(op, LinearOperator) for op in ops):
        raise TypeError("expected a non-empty list of distlops LinearOperators")
    return [op._op for op in ops], ops[0].dtype, ops[0]._comm


def MPIStackedVStack(ops):
    """[A_1 x; ...; A_n x]. A block with a stacked range (MPIGradient, a stacked operator)
    makes that item of the data a nested StackedDistributedArray; blocks with a stacked domain
    make x a StackedDistributedArray. The blocks must share their domain."""
    handles, dtype, comm = _distributed(ops)
    return LinearOperator(_ext_function("StackedVStack", dtype)(handles), dtype, comm)


def MPIStackedHStack(ops):
    """sum_i A_i x_i on [x_1; ...; x_n], x_i nested where A_i's domain is stacked; the blocks
    must share their range."""
    handles, dtype, comm = _distributed(ops)
    return LinearOperator(_ext_function("StackedHStack", dtype)(handles), dtype, comm)


def MPIStackedBlockDiag(ops):
    """[A_1 x_1; ...; A_n x_n], each x_i and y_i nested where A_i's side is stacked."""
    handles, dtype, comm = _distributed(ops)
    return LinearOperator(_ext_function("StackedBlockDiag", dtype)(handles), dtype, comm)


# ---- signal processing ------------------------------------------------------------------------
def PoststackLinearModelling(wav, nt0, spatdims=None, explicit=False, kind="centered",
                             dtype=None):
    """PyLops' post-stack modelling d = W D m on one rank's (nt0, *spatdims) models."""
    dtype = np.dtype(dtype or np.asarray(wav).dtype)
    wav = np.ascontiguousarray(wav, dtype=dtype).ravel()
    return LocalOperator(_ext_function("local_PoststackLinearModelling", dtype)(
        wav, int(nt0), [] if spatdims is None else _as_dims(spatdims), kind, bool(explicit)),
        dtype)


def MPIPoststackLinearModelling(wav, dims, explicit=False, kind="centered", axis=1,
                                base_comm=MPI.COMM_WORLD, dtype=None):
    """Post-stack modelling of models of shape ``dims`` = (nt0, spatial...) split along
    ``axis`` (a spatial axis): each rank models its own traces."""
    dtype = np.dtype(dtype or np.asarray(wav).dtype)
    wav = np.ascontiguousarray(wav, dtype=dtype).ravel()
    layout = make_layout(_as_dims(dims), base_comm, Partition.SCATTER, axis)
    return LinearOperator(_ext_function("PoststackLinearModelling", dtype)(
        wav, layout, kind, bool(explicit), 0), dtype, base_comm)


def MPIConvolve2D(dims, h, offset=(0, 0), axes=(-2, -1), base_comm=MPI.COMM_WORLD, dtype=None):
    """PyLops' Convolve2D (same-size output, filter centred at ``offset``) on arrays of shape
    ``dims`` split along axis 0; the ranks exchange the ghost rows the filter needs."""
    dtype = np.dtype(dtype or np.asarray(h).dtype)
    h = np.ascontiguousarray(h, dtype=dtype)
    return LinearOperator(_ext_function("Convolve2D", dtype)(
        _layout(dims, base_comm), h, [int(o) for o in offset], [int(a) for a in axes]), dtype,
        base_comm)


def MPIConvolve1D(dims, h, offset=0, axis=-1, base_comm=MPI.COMM_WORLD, dtype=None):
    """PyLops' Convolve1D along ``axis`` of arrays of shape ``dims`` split along axis 0 (the
    split axis included: the ranks exchange the ghost rows the filter needs); the N-d
    convolution with a 1-d filter."""
    h = np.asarray(h)
    if h.ndim != 1:
        raise ValueError(f"MPIConvolve1D: h must be 1-d, got shape {h.shape}")
    return MPIConvolveND(dims, h, offset=[offset], axes=[axis], base_comm=base_comm,
                         dtype=dtype)


def MPIConvolveND(dims, h, offset=None, axes=None, base_comm=MPI.COMM_WORLD, dtype=None):
    """PyLops' ConvolveND on arrays of shape ``dims`` split along axis 0."""
    dtype = np.dtype(dtype or np.asarray(h).dtype)
    h = np.ascontiguousarray(h, dtype=dtype)
    return LinearOperator(_ext_function("ConvolveND", dtype)(
        _layout(dims, base_comm), h, [] if offset is None else [int(o) for o in offset],
        [] if axes is None else [int(a) for a in axes]), dtype, base_comm)


def MPIFredholm1(G, nz=1, saveGt=False, usematmul=True, base_comm=MPI.COMM_WORLD,
                 dtype="float64", partition=Partition.BROADCAST):
    """PyLops-MPI's Fredholm1: ``G`` holds this rank's slices (nsl_r, nx, ny); models of shape
    (nsl, ny, nz) and data (nsl, nx, nz), replicated (BROADCAST, as PyLops-MPI) or split along
    axis 0 like G (SCATTER). ``usematmul`` has no effect (always a batched product)."""
    dtype = np.dtype(dtype)
    G = np.ascontiguousarray(G, dtype=dtype)
    if G.ndim != 3:
        raise ValueError(f"MPIFredholm1: G must be 3-d (nsl, nx, ny), got shape {G.shape}")
    return LinearOperator(_ext_function("Fredholm1", dtype)(
        G, int(nz), partition, bool(saveGt), communicator(base_comm)), dtype, base_comm)


def _fft(name, dims, axes, nffts, norm, real, ifftshift_before, fftshift_after, dtype,
         base_comm, output):
    dtype = np.dtype(dtype)
    if not np.issubdtype(dtype, np.complexfloating):
        raise ValueError(f"MPI{name}: dtype is the data's (complex) dtype, got {dtype}")
    model_dtype = np.empty(0, dtype).real.dtype if real else dtype
    axes = [int(a) for a in axes]

    def per_axis(flag):
        return [bool(flag)] * len(axes) if isinstance(flag, (bool, np.bool_)) else \
            [bool(f) for f in flag]

    if output not in ("transposed", "same_as_input"):
        raise ValueError(f"MPI{name}: output must be 'transposed' or 'same_as_input', got "
                         f"{output!r}")
    op = _ext_function(name, model_dtype)(
        _layout(dims, base_comm), axes, [] if nffts is None else [int(n) for n in nffts], norm,
        bool(real), per_axis(ifftshift_before), per_axis(fftshift_after),
        output == "same_as_input")
    return LinearOperator(op, dtype, base_comm)


def MPIFFT2D(dims, axes=(0, 1), nffts=None, sampling=1.0, norm="none", real=False,
             ifftshift_before=False, fftshift_after=False, dtype="complex128",
             base_comm=MPI.COMM_WORLD, output="transposed"):
    """PyLops-MPI's FFT2D of arrays of shape ``dims`` split along axis 0 (norm "none" by
    default, as PyLops-MPI). ``dtype`` is the data's complex dtype; with ``real`` the model is
    real (half spectrum along the last axis, PyLops' weights). The data are split along the
    axis of the last all-to-all (``output="transposed"``) or like the model
    (``"same_as_input"``, one more all-to-all). ``sampling`` only sets PyLops' frequency axes
    there and is not used here."""
    return _fft("FFT2D", dims, axes, nffts, norm, real, ifftshift_before, fftshift_after, dtype,
                base_comm, output)


def MPIFFTND(dims, axes=(0, 1, 2), nffts=None, sampling=1.0, norm="none", real=False,
             ifftshift_before=False, fftshift_after=False, dtype="complex128",
             base_comm=MPI.COMM_WORLD, output="transposed"):
    """PyLops-MPI's FFTND; as MPIFFT2D over any number of axes."""
    return _fft("FFTND", dims, axes, nffts, norm, real, ifftshift_before, fftshift_after, dtype,
                base_comm, output)


_FFT_ENGINES = ("numpy", "fftw", "scipy", "mkl_fft")
_FFTW_FLAGS = {"FFTW_ESTIMATE": "estimate", "FFTW_MEASURE": "measure",
               "FFTW_PATIENT": "patient"}


def _local_fft(name, dims, axes, nffts, sampling, norm, real, ifftshift_before, fftshift_after,
               engine, dtype, kwargs_fftw):
    """PyLops' FFT, FFT2D and FFTND on one rank's arrays, computed with FFTW whatever the
    engine."""
    if engine not in _FFT_ENGINES:
        raise ValueError(f"{name}: engine must be one of {', '.join(_FFT_ENGINES)}, got "
                         f"{engine!r} (the transform is computed with FFTW for all of them)")
    unknown = set(kwargs_fftw) - {"flags"}
    if unknown:
        raise ValueError(f"{name}: of PyLops' FFTW keyword arguments only flags is taken, got "
                         f"{sorted(unknown)}")
    flags = [f for f in kwargs_fftw.get("flags", ()) if f in _FFTW_FLAGS]
    planning = _FFTW_FLAGS[flags[-1]] if flags else "estimate"
    dtype = np.dtype(dtype)
    # PyLops' rdtype: the model is real for real=True or a real dtype.
    model_dtype = np.empty(0, dtype).real.dtype if real else dtype
    dims = _as_dims(dims)
    axes = [int(a) for a in axes]
    nffts = [] if nffts is None else [0 if n is None else int(n) for n in nffts]

    def per_axis(flag):
        return [bool(flag)] * len(axes) if isinstance(flag, (bool, np.bool_)) else \
            [bool(f) for f in flag]

    op = LocalOperator(_ext_function("local_" + name, model_dtype)(
        dims, axes, nffts, norm, bool(real), per_axis(ifftshift_before),
        per_axis(fftshift_after), planning), _complex_of(dtype))
    # PyLops' sample frequencies (f for FFT, f1 and f2 for FFT2D, fs for all).
    nfft_of = nffts or [0] * len(axes)
    nfft_of = nfft_of * len(axes) if len(nfft_of) == 1 else nfft_of
    sampling = [float(sampling)] * len(axes) if isinstance(sampling, Number) else \
        [float(d) for d in sampling]
    shifts = per_axis(fftshift_after)
    fs = []
    for i, (axis, n, d) in enumerate(zip(axes, nfft_of, sampling)):
        n = n or dims[axis]
        last = i == len(axes) - 1
        f = np.fft.rfftfreq(n, d) if real and last else np.fft.fftfreq(n, d)
        fs.append(np.fft.fftshift(f) if shifts[i] else f)
    return _FFTOperator(op._op, op.dtype, fs)


class _FFTOperator(LocalOperator):
    """A local FFT with PyLops' frequency attributes."""

    __slots__ = ("fs",)

    def __init__(self, op, dtype, fs):
        super().__init__(op, dtype)
        self.fs = fs

    @property
    def f(self):
        return self.fs[0]

    @property
    def f1(self):
        return self.fs[0]

    @property
    def f2(self):
        return self.fs[1]


def FFT(dims, axis=-1, nfft=None, sampling=1.0, norm="ortho", real=False,
        ifftshift_before=False, fftshift_after=False, engine="numpy", dtype="complex128",
        name="F", **kwargs_fftw):
    """PyLops' FFT along ``axis`` of one rank's arrays of shape ``dims``: a local operator
    (FFTW for every ``engine``; ``kwargs_fftw``: only ``flags``, FFTW's planning effort).
    The model is real for ``real=True`` or a real ``dtype`` (PyLops' rdtype), the data complex;
    such an operator applies to NumPy arrays and composes with local operators, and
    BlockDiag, VStack, HStack and asmpilinearoperator take the complex ones."""
    return _local_fft("FFT", dims, [axis], None if nfft is None else [nfft], sampling, norm,
                      real, ifftshift_before, fftshift_after, engine, dtype, kwargs_fftw)


def FFT2D(dims, axes=(-2, -1), nffts=None, sampling=1.0, norm="ortho", real=False,
          ifftshift_before=False, fftshift_after=False, engine="numpy", dtype="complex128",
          name="F", **kwargs_fftw):
    """PyLops' FFT2D of one rank's arrays (see FFT)."""
    return _local_fft("FFT2D", dims, axes, nffts, sampling, norm, real, ifftshift_before,
                      fftshift_after, engine, dtype, kwargs_fftw)


def FFTND(dims, axes=(-3, -2, -1), nffts=None, sampling=1.0, norm="ortho", real=False,
          ifftshift_before=False, fftshift_after=False, engine="numpy", dtype="complex128",
          name="F", **kwargs_fftw):
    """PyLops' FFTND of one rank's arrays (see FFT)."""
    return _local_fft("FFTND", dims, axes, nffts, sampling, norm, real, ifftshift_before,
                      fftshift_after, engine, dtype, kwargs_fftw)


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


def MPIMDC(G, nt, nv, nfreq, dt=1.0, dr=1.0, twosided=True, fftengine="numpy", saveGt=True,
           conj=False, usematmul=False, prescaled=False, base_comm=MPI.COMM_WORLD,
           partition=Partition.BROADCAST):
    """PyLops-MPI's MDC: ``G`` holds this rank's frequencies (nf_r, ns, nr), complex; real
    models (nt, nr, nv) and data (nt, ns, nv), replicated (BROADCAST, as PyLops-MPI) or split
    along their spatial axis (SCATTER). ``nfreq`` must be the sum of the ranks' nf_r;
    ``fftengine`` and ``usematmul`` have no effect (FFTW and a batched product)."""
    G = np.asarray(G)
    if G.ndim != 3 or not np.issubdtype(G.dtype, np.complexfloating):
        raise ValueError(f"MPIMDC: G must be a complex 3-d array (nf, ns, nr), got {G.dtype} "
                         f"of shape {G.shape}")
    total = sum(base_comm.allgather(G.shape[0]))
    if total != int(nfreq):
        raise ValueError(f"MPIMDC: the ranks hold {total} frequencies of G, nfreq is {nfreq}")
    real = np.empty(0, G.dtype).real.dtype
    G = np.ascontiguousarray(G)
    return LinearOperator(_ext_function("MDC", real)(
        G, int(nt), int(nv), float(dt), float(dr), bool(twosided), bool(conj), bool(prescaled),
        bool(saveGt), partition, communicator(base_comm)), real, base_comm)


def MPIHalo(dims, halo, proc_grid_shape=None, comm=MPI.COMM_WORLD, dtype=np.float64):
    """PyLops-MPI's MPIHalo: each rank's block of the array of shape ``dims`` (on the process
    grid ``proc_grid_shape``; by default every rank along the last axis) extended by ghost
    cells from its neighbours; ``halo`` is one width (no ghosts at the array's ends), one per
    axis or one per side. The model is the concatenation of the flattened blocks, the data that of the
    extended blocks; the adjoint adds the ghost cells back to their owners (exact)."""
    widths = [int(halo)] if isinstance(halo, Number) else [int(h) for h in halo]
    grid = [] if proc_grid_shape is None else [int(n) for n in proc_grid_shape]
    return LinearOperator(_ext_function("Halo", dtype)(
        communicator(comm), _as_dims(dims), widths, grid), dtype, comm)


def MPIMatrixMult(A, M, saveAt=False, base_comm=MPI.COMM_WORLD, dtype="float64",
                  base_comm_nccl=None, kind="summa"):
    """PyLops-MPI's MPIMatrixMult, Y = A X on a square grid of ranks: ``A`` is this rank's
    tile (kind "summa") or row block (kind "block") of the global matrix, ``M`` the number of
    columns of X. Model and data as in the library (docs/operators.md). ``saveAt`` has no
    effect (A^H is applied from A's tiles)."""
    if base_comm_nccl is not None:
        raise ValueError("MPIMatrixMult: base_comm_nccl is not bound (host arrays only)")
    dtype = np.dtype(dtype)
    A = np.ascontiguousarray(A, dtype=dtype)
    return LinearOperator(_ext_function("MatrixMult", dtype)(
        A, int(M), kind, communicator(base_comm)), dtype, base_comm)


def _taper(tapertype):
    return "none" if tapertype is None else str(tapertype)


def _windows(windows_per_rank):
    return [] if windows_per_rank is None else [int(n) for n in windows_per_rank]


def MPISliding1D(Op, dim, dimd, nwin, nover, tapertype="hanning", base_comm=MPI.COMM_WORLD,
                 windows_per_rank=None, dtype=None):
    """PyLops' Sliding1D with the windows split over the ranks: ``Op`` is the local operator
    of ONE window (PyLops takes the operator of all windows), from nop model samples to nwin
    data samples; model (nwins, nop), data (dimd,). Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Sliding1D", op.dtype)(
        op._op, communicator(base_comm), int(np.prod(_as_dims(dim))), int(dimd), int(nwin),
        int(nover), _taper(tapertype), _windows(windows_per_rank)), op.dtype, base_comm)


def MPISliding2D(Op, dims, dimsd, nwin, nover, tapertype="hanning", base_comm=MPI.COMM_WORLD,
                 windows_per_rank=None, dtype=None):
    """PyLops' Sliding2D (windows of nwin rows of full width) with the windows split over the
    ranks; ``Op`` maps one window. Model (nwins, nop0, nop1), data ``dimsd``. Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Sliding2D", op.dtype)(
        op._op, communicator(base_comm), _as_dims(dims), _as_dims(dimsd), int(nwin), int(nover),
        _taper(tapertype), _windows(windows_per_rank)), op.dtype, base_comm)


def MPIPatch2D(Op, dims, dimsd, nwin, nover, nop, tapertype="hanning",
               base_comm=MPI.COMM_WORLD, windows_per_rank=None, dtype=None):
    """PyLops' Patch2D with the rows of patches split over the ranks; ``Op`` maps one patch.
    Model (nwins0, nwins1, nop0, nop1), data ``dimsd``. Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Patch2D", op.dtype)(
        op._op, communicator(base_comm), _as_dims(dims), _as_dims(dimsd), _as_dims(nwin),
        _as_dims(nover), _as_dims(nop), _taper(tapertype), _windows(windows_per_rank)),
        op.dtype, base_comm)


def asmpilinearoperator(Op, base_comm=MPI.COMM_WORLD, partition=Partition.BROADCAST,
                        dtype=None):
    """PyLops-MPI's asmpilinearoperator: a local operator (or a serial PyLops one) on
    replicated arrays (BROADCAST or UNSAFE_BROADCAST), every rank computing the whole result
    without communication. Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Replicated", op.dtype)(
        op._op, communicator(base_comm), partition), op.dtype, base_comm)


Replicated = asmpilinearoperator
