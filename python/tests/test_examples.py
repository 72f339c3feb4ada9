# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""examples/python/poststack_inversion.py checks its output before the work, on every rank
alike, with the examples' exit status for an output that cannot be written (4), and prints the
examples' table of exit statuses after its options."""
import os
import sys

import pytest

pytest.importorskip("pylops")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "examples", "python"))
import poststack_inversion  # noqa: E402


def test_output_that_cannot_be_written_exits_with_4_before_the_work(comm):
    with pytest.raises(SystemExit) as raised:
        poststack_inversion.check_before_the_work("/sys", False, comm)
    assert raised.value.code == poststack_inversion.EXIT_OUTPUT == 4


def test_missing_output_directory_is_made(comm, tmp_path):
    directory = comm.bcast(str(tmp_path / "made" / "here") if comm.rank == 0 else None, root=0)
    poststack_inversion.check_before_the_work(directory, False, comm)
    comm.barrier()
    assert os.path.isdir(directory)


def test_help_prints_the_table_of_exit_statuses(comm):
    text = poststack_inversion.command_line().format_help()
    table = poststack_inversion.exit_statuses.table()
    assert "--plot" in text and table.strip() in text
    assert "  4  an output path cannot be written" in table
