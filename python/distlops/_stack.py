# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The operators of the stack group (``include/distlops/operators/stack/``): PyLops-MPI's
MPIBlockDiag, MPIVStack and MPIHStack of each rank's local operators, its stacked operators on
StackedDistributedArray, and asmpilinearoperator (a local operator on replicated arrays). Each
runs in the memory space of its blocks: local operators made with ``engine="cupy"`` give an
operator on CuPy-engine arrays."""
from mpi4py import MPI

from . import _distlops as _ext
from ._arrays import Partition, communicator, make_layout
from ._factories import export, wraps
from ._operators import LinearOperator, _distributed, _ext_function, _locals, aslocal

@wraps("distributed", "BlockDiag")
def MPIBlockDiag(ops, base_comm=MPI.COMM_WORLD, mask=None, dtype=None):
    """The block-diagonal operator of each rank's local operators ``ops`` (collective).

    As in PyLops-MPI it maps flat arrays. When every rank has one block whose model and data
    shapes are N-d with the same trailing dimensions everywhere (PyLops' ``dims``/``dimsd``),
    it maps the N-d arrays split along their first axis instead, so that it adds and stacks
    with the derivatives; flat arrays with the same split are still accepted."""
    handles, dtype, engine = _locals(ops, dtype, "MPIBlockDiag")
    op = _ext_function("BlockDiag", dtype, engine, base_comm)(handles, communicator(base_comm),
                                                             list(mask or []))
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


@wraps("distributed", "VStack")
def MPIVStack(ops, base_comm=MPI.COMM_WORLD, dtype=None):
    """[A_1 x; ...; A_n x] of each rank's local operators (PyLops-MPI's MPIVStack): every rank holds
    the whole x (BROADCAST) and its blocks write its part of the data; ``ops`` are this rank's
    blocks."""
    handles, dtype, engine = _locals(ops, dtype, "MPIVStack")
    return LinearOperator(_ext_function("VStack", dtype, engine, base_comm)(
        handles, communicator(base_comm)), dtype, base_comm)


@wraps("distributed", "HStack")
def MPIHStack(ops, base_comm=MPI.COMM_WORLD, dtype=None):
    """A_1 x_1 + ... + A_n x_n of each rank's local operators (PyLops-MPI's MPIHStack, the adjoint
    of MPIVStack of the adjoints): each rank applies its blocks to its part of x and the sum is
    replicated (BROADCAST)."""
    handles, dtype, engine = _locals(ops, dtype, "MPIHStack")
    return LinearOperator(_ext_function("HStack", dtype, engine, base_comm)(
        handles, communicator(base_comm)), dtype, base_comm)


@wraps("distributed", "StackedVStack")
def MPIStackedVStack(ops):
    """[A_1 x; ...; A_n x]. A block with a stacked range (MPIGradient, a stacked operator)
    makes that item of the data a nested StackedDistributedArray; blocks with a stacked domain
    make x a StackedDistributedArray. The blocks must share their domain."""
    handles, dtype, comm, engine = _distributed(ops, "MPIStackedVStack")
    return LinearOperator(_ext_function("StackedVStack", dtype, engine)(handles), dtype, comm)


@wraps("distributed", "StackedHStack")
def MPIStackedHStack(ops):
    """sum_i A_i x_i on [x_1; ...; x_n], x_i nested where A_i's domain is stacked; the blocks
    must share their range."""
    handles, dtype, comm, engine = _distributed(ops, "MPIStackedHStack")
    return LinearOperator(_ext_function("StackedHStack", dtype, engine)(handles), dtype, comm)


@wraps("distributed", "StackedBlockDiag")
def MPIStackedBlockDiag(ops):
    """[A_1 x_1; ...; A_n x_n], each x_i and y_i nested where A_i's side is stacked."""
    handles, dtype, comm, engine = _distributed(ops, "MPIStackedBlockDiag")
    return LinearOperator(_ext_function("StackedBlockDiag", dtype, engine)(handles), dtype, comm)


@wraps("distributed", "Replicated")
def asmpilinearoperator(Op, base_comm=MPI.COMM_WORLD, partition=Partition.BROADCAST,
                        dtype=None):
    """PyLops-MPI's asmpilinearoperator: a local operator (or a serial PyLops one) on
    replicated arrays (BROADCAST or UNSAFE_BROADCAST), every rank computing the whole result
    without communication. Collective."""
    op = aslocal(Op, dtype)
    return LinearOperator(_ext_function("Replicated", op.dtype, op.engine, base_comm)(
        op._op, communicator(base_comm), partition), op.dtype, base_comm)


Replicated = asmpilinearoperator


# PyLops-MPI's short names.
BlockDiag = MPIBlockDiag
VStack = MPIVStack
HStack = MPIHStack

export(globals(), "stack")
