# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""PyLops-MPI's plots of a DistributedArray (matplotlib, imported when called)."""
import numpy as np
from mpi4py import MPI


def plot_distributed_array(arr):
    """On rank 0, a figure of ``arr``'s global shape coloured by the rank holding each element
    (a 1-D array is drawn as a single row)."""
    import matplotlib.pyplot as plt
    blocks = [np.full(shape, rank) for rank, shape in enumerate(arr.local_shapes)]
    owners = np.concatenate(blocks, axis=arr.axis) if arr.partition == arr.partition.SCATTER \
        else np.zeros(arr.global_shape, dtype=int)
    if arr.rank == 0:
        plt.figure()
        plt.imshow(np.atleast_2d(owners.reshape(owners.shape[0], -1) if owners.ndim > 1
                                 else owners), aspect="auto", cmap="tab10")
        plt.title("ranks holding each element")
        plt.colorbar()


def plot_local_arrays(arr, title=None, vmin=None, vmax=None):
    """This rank's block of ``arr`` in a figure of its own."""
    import matplotlib.pyplot as plt
    local = np.asarray(arr.local_array)
    plt.figure()
    plt.imshow(np.atleast_2d(local), aspect="auto", vmin=vmin, vmax=vmax)
    plt.title(f"{title or 'local array'} on rank {MPI.COMM_WORLD.Get_rank()}")
    plt.colorbar()
