# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""
Post-stack inversion
====================

The acoustic impedance of a 2-d section recovered from its post-stack seismic data, with the
section's traces split over the ranks: ``MPIPoststackLinearModelling`` convolves each trace's
reflectivity (the derivative of the log-impedance along time) with a Ricker wavelet, and two
inversions start from a smooth background, one without regularisation (CGLS on the modelling
alone) and one with a Laplacian that smooths across traces (CGLS on the stacked operator
[G; sqrt(eps) L]), of data with seeded noise. The C++ program examples/poststack_inversion.cpp
solves the 3-d problem.
"""
import matplotlib.pyplot as plt
import numpy as np
from mpi4py import MPI

import distlops as dl

comm = MPI.COMM_WORLD
say = print if comm.rank == 0 else (lambda *args: None)  # every rank computes, rank 0 speaks

# %%
# The model: layers of constant impedance whose interfaces dip across the section, and the
# smooth background the inversions start from. Arrays are (traces, time samples); the traces
# are split over the ranks.
nx, nt = 60, 120
t, x = np.arange(nt), np.arange(nx)[:, None]
layers = (t[None, :] > 30 + 0.15 * x) + (t[None, :] > 70 - 0.1 * x) + (t[None, :] > 95)
m_true = np.log(2000.0 + 600.0 * layers + 50.0 * np.sin(t[None, :] / 9.0))
m_back = np.stack([np.convolve(trace, np.ones(15) / 15, mode="same") for trace in
                   np.pad(m_true, ((0, 0), (7, 7)), mode="edge")])[:, 7:-7]

# %%
# The modelling: a 20 Hz Ricker wavelet sampled every 4 ms. Each rank models its own traces
# with the local operator ``PoststackLinearModelling`` (time first, hence the transposes), and
# ``MPIBlockDiag`` puts the ranks' operators together: no communication.
dt, f0 = 0.004, 20.0
tw = np.arange(-20, 21) * dt
wav = (1 - 2 * (np.pi * f0 * tw) ** 2) * np.exp(-(np.pi * f0 * tw) ** 2)
m_dist = dl.DistributedArray.to_dist(m_true, base_comm=comm)
back_dist = dl.DistributedArray.to_dist(m_back, base_comm=comm)
nx_local = m_dist.local_shape[0]
T = dl.Transpose((nx_local, nt), axes=(1, 0))
G = dl.MPIBlockDiag([T.H @ dl.PoststackLinearModelling(wav, nt0=nt, spatdims=nx_local) @ T],
                    base_comm=comm)
d_dist = G @ m_dist
# Seeded noise, the same whatever the rank count: each rank adds its traces' share.
noise = np.random.default_rng(3).normal(0.0, 0.1 * d_dist.asarray().std(), (nx, nt))
d_dist += dl.DistributedArray.to_dist(noise, base_comm=comm)
say(f"G: {G.shape[0]} data from {G.shape[1]} model values on {comm.size} rank(s); "
      f"dot test passed: {dl.dottest(G)}")

# %%
# Two inversions of the noisy data, 30 iterations each; the errors are relative to the
# background's.
niter, eps = 30, 0.5
x_plain = dl.cgls(G, d_dist, x0=back_dist, niter=niter, tol=0.0)[0]
L = dl.MPILaplacian((nx, nt), axes=(0, 1), weights=(1.0, 0.2), base_comm=comm)
A = dl.MPIStackedVStack([G, np.sqrt(eps) * L])
rhs = dl.StackedDistributedArray([d_dist, d_dist.zeros_like()])
x_reg, _, _, _, _, cost = dl.cgls(A, rhs, x0=back_dist, niter=niter, tol=0.0)
for name, result in (("background", back_dist), ("CGLS", x_plain), ("regularised", x_reg)):
    error = np.linalg.norm(result.asarray() - m_true) / np.linalg.norm(m_back - m_true)
    say(f"{name:12s} relative error {error:.3f}")

# %%
# The pictures (rank 0): the true model, the data, the background and the two inversions.
# ``asarray`` gathers the global array on every rank (a collective): all ranks call it, rank 0
# draws.
shown = [(m_true, "true log-impedance"), (d_dist.asarray(), "data"),
         (m_back, "background"), (x_plain.asarray(), "CGLS"),
         (x_reg.asarray(), "CGLS, regularised")]
if comm.rank == 0:
    fig, axes = plt.subplots(1, 5, figsize=(14, 4), sharey=True)
    for ax, (image, title) in zip(axes, shown):
        scale = dict(cmap="gray") if title == "data" else \
            dict(cmap="terrain", vmin=m_true.min(), vmax=m_true.max())
        ax.imshow(image.T, aspect="auto", **scale)
        ax.set_title(title)
        ax.set_xlabel("trace")
    axes[0].set_ylabel("time sample")
    fig.tight_layout()

    fig, ax = plt.subplots(figsize=(6, 3))
    ax.semilogy(cost, "k")
    ax.set_xlabel("iteration")
    ax.set_title("regularised CGLS: cost")
    fig.tight_layout()
    plt.show()
