# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The exit statuses of exit_statuses.txt (beside this file) for the Python examples and the
plotting scripts, as exit_status.hpp holds them for the C++ programs: the same numbers, and the
same table after the options of every --help. Standard library only, so that a plotting script
can report a missing NumPy or matplotlib with it."""
import os
import pathlib

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
