# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The exit statuses of exit_statuses.txt (beside this file) for the Python examples and the
plotting scripts, as exit_status.hpp holds them for the C++ programs: the same numbers, and the
same table after the options of every --help. Standard library only, so that a plotting script
can report a missing NumPy or matplotlib with it."""
import os
import pathlib
import sys

SUCCESS = 0
FAILURE = 1
USAGE = 2
INPUT = 3
OUTPUT = 4
UNAVAILABLE = 77

TABLE_PATH = pathlib.Path(__file__).with_name("exit_statuses.txt")


def table():
    """The table, as every --help prints it after the options."""
    return TABLE_PATH.read_text()


def unwritable_directory(directory):
    """Why `directory` cannot hold the outputs (made when missing), or None when it can."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as error:
        return f"{directory}: cannot create this directory: {error.strerror}"
    probe = os.path.join(directory, f".distlops-write-probe.{os.getpid()}")
    try:
        with open(probe, "w"):
            pass
        os.remove(probe)
    except OSError as error:
        return f"{directory}: cannot write in this directory: {error.strerror}"
    return None


def check_before_the_work(program, output, plot, comm):
    """Rank 0 of the mpi4py communicator `comm` makes OUTPUT and writes a probe file there, and
    imports matplotlib when `plot`; every rank exits alike, before the work, when it cannot (with
    OUTPUT or UNAVAILABLE), `program` naming the example in the message."""
    problem, status = None, SUCCESS
    if comm.Get_rank() == 0:
        problem = unwritable_directory(output)
        if problem is not None:
            status = OUTPUT
        elif plot:
            try:
                import matplotlib  # noqa: F401
            except ImportError:
                problem, status = "--plot needs matplotlib (pip install matplotlib)", UNAVAILABLE
    problem, status = comm.bcast((problem, status), root=0)
    if problem is not None:
        if comm.Get_rank() == 0:
            print(f"{program}: {problem}", file=sys.stderr)
        sys.exit(status)
