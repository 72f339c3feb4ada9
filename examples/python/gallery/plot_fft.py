# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""
Distributed FFTs
================

The 2-d Fourier transform of an image split over the ranks (``MPIFFT2D``: a transform along
the rows each rank holds, an all-to-all, a transform along the other axis), checked against
NumPy's, and used to split the image into its low and high frequencies (forward transform,
a mask on the spectrum, inverse transform through the adjoint). The 3-d ``MPIFFTND`` works the
same way on pencils; docs/fft.md describes the layouts and the all-to-alls.
"""
import matplotlib.pyplot as plt
import numpy as np
from mpi4py import MPI

import distlops as dl

comm = MPI.COMM_WORLD
say = print if comm.rank == 0 else (lambda *args: None)  # every rank computes, rank 0 speaks

# %%
# A test image, and its transform with the orthonormal scaling (``norm="ortho"``: the adjoint
# is then the inverse). ``output="same_as_input"`` keeps the spectrum split like the image.
n = 64
rows, cols = np.mgrid[:n, :n]
image = ((rows // 8 + cols // 8) % 2).astype(float) * np.exp(-((rows - 32) ** 2 +
                                                               (cols - 32) ** 2) / 600.0)
F = dl.MPIFFT2D((n, n), norm="ortho", output="same_as_input", base_comm=comm)
x = dl.DistributedArray.to_dist(image.astype(np.complex128), base_comm=comm)
spectrum = F @ x
say("MPIFFT2D agrees with numpy.fft.fft2:",
    np.allclose(spectrum.asarray(), np.fft.fft2(image, norm="ortho")))
say("the adjoint inverts it:", np.allclose((F.H @ spectrum).asarray(), image))
say("dot test:", dl.dottest(F))

# %%
# Low-pass filtering: the coefficients of frequencies below a quarter of Nyquist kept.
frequencies = np.fft.fftfreq(n)
keep = (np.abs(frequencies)[:, None] < 0.125) & (np.abs(frequencies)[None, :] < 0.125)
mask = dl.DistributedArray.to_dist(keep.astype(np.complex128), base_comm=comm)
smooth = F.H @ (spectrum * mask)

# %%
# The orthonormal transform keeps norms (Parseval): the norms of distributed arrays are
# reductions over the ranks, the same value on every rank.
say(f"||x|| = {x.norm():.6f}, ||F x|| = {spectrum.norm():.6f}")
edges = x - smooth
say(f"energy below a quarter of Nyquist: {smooth.norm() ** 2 / x.norm() ** 2:.1%}")

# %%
# ``asarray`` gathers the global array on every rank (a collective): all ranks call it, rank 0
# draws.
shown = [(image, "image"), (np.log10(1e-3 + np.abs(np.fft.fftshift(spectrum.asarray()))),
                            "log10 |spectrum| (centred)"),
         (smooth.asarray().real, "low-pass"), (edges.asarray().real, "high-pass")]
if comm.rank == 0:
    fig, axes = plt.subplots(1, 4, figsize=(14, 3.4))
    for ax, (picture, title) in zip(axes, shown):
        ax.imshow(picture, cmap="gray")
        ax.set_title(title)
        ax.axis("off")
    fig.tight_layout()
    plt.show()
