#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Draws the pictures of the Kirchhoff LSM example from the arrays kirchhoff_lsm writes.

    /usr/bin/python3 examples/kirchhoff/plot_kirchhoff_lsm.py kirchhoff-lsm-output

reads OUTPUT/summary.json and velocity.npy, reflectivity.npy, migrated.npy, lsm.npy (images
(nx, nz)), data.npy (shots, receivers, time) and cost.npy beside it, and writes velocity.png,
reflectivity.png, migrated.png, lsm.png, shot.png (the middle shot gather) and convergence.png
(the CGLS cost) into OUTPUT (or --images DIR). Needs NumPy and matplotlib (Debian:
python3-matplotlib, for /usr/bin/python3); exits with status 77 when they are missing, 3 when
an input is missing, 4 when the pictures cannot be written (examples/support/exit_statuses.txt).
"""
import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import exit_statuses  # noqa: E402  the examples' table of exit statuses (standard library only)

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt
except ImportError as error:
    print(f"plot_kirchhoff_lsm: {error.name} is missing: install python3-matplotlib "
          f"(scripts/setup.sh) and run this script with /usr/bin/python3 (running "
          f"{sys.executable})", file=sys.stderr)
    sys.exit(exit_statuses.UNAVAILABLE)

INPUTS = ("summary.json", "velocity.npy", "reflectivity.npy", "migrated.npy", "lsm.npy",
          "data.npy", "cost.npy")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     epilog=exit_statuses.table(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=pathlib.Path, help="output directory of kirchhoff_lsm")
    parser.add_argument("--images", type=pathlib.Path, help="where to write (default: OUTPUT)")
    args = parser.parse_args()
    images = args.images or args.output
    for name in INPUTS:
        if not (args.output / name).is_file():
            print(f"plot_kirchhoff_lsm: {args.output / name} is missing (run kirchhoff_lsm first)",
                  file=sys.stderr)
            return exit_statuses.INPUT
    problem = exit_statuses.unwritable_directory(images)
    if problem is not None:
        print(f"plot_kirchhoff_lsm: {problem}", file=sys.stderr)
        return exit_statuses.OUTPUT
    s = json.loads((args.output / "summary.json").read_text())
    extent = (0, (s["nx"] - 1) * s["dx"], (s["nz"] - 1) * s["dz"], 0)
    written = []

    def image(name, title, cmap, symmetric):
        a = np.load(args.output / f"{name}.npy").T  # depth down, x across
        fig, ax = plt.subplots(figsize=(6, 4))
        limit = np.abs(a).max() if symmetric else None
        shown = ax.imshow(a, cmap=cmap, extent=extent, aspect="auto",
                          vmin=-limit if symmetric else None, vmax=limit)
        ax.set(title=title, xlabel="x (m)", ylabel="depth (m)")
        fig.colorbar(shown, ax=ax)
        fig.savefig(images / f"{name}.png", dpi=110, bbox_inches="tight")
        plt.close(fig)
        written.append(f"{name}.png")

    image("velocity", "Layered velocity (m/s)", "jet", False)
    image("reflectivity", "True reflectivity", "gray", True)
    image("migrated", f"Migrated image (error {s['error_migration']:.3f} at its best scale)",
          "gray", True)
    image("lsm", f"LSM image, {s['iterations']} CGLS iterations (error {s['error_lsm']:.3f})",
          "gray", True)
    data = np.load(args.output / "data.npy")
    shot = data[data.shape[0] // 2]
    fig, ax = plt.subplots(figsize=(5, 5))
    limit = np.abs(shot).max()
    ax.imshow(shot.T, cmap="gray", vmin=-limit, vmax=limit, aspect="auto",
              extent=(0, shot.shape[0] - 1, (shot.shape[1] - 1) * s["dt"], 0))
    ax.set(title=f"Shot {data.shape[0] // 2}", xlabel="receiver", ylabel="time (s)")
    fig.savefig(images / "shot.png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    written.append("shot.png")
    cost = np.load(args.output / "cost.npy")
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.semilogy(cost, "k.-")
    ax.set(title="CGLS convergence", xlabel="iteration", ylabel="||d - K m||")
    fig.savefig(images / "convergence.png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    written.append("convergence.png")
    print("plot_kirchhoff_lsm: wrote " + " ".join(written))
    return exit_statuses.SUCCESS


if __name__ == "__main__":
    sys.exit(main())
