#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Kills a job at each commit point of the checkpoint and .npy writers, then resumes.

Usage: checkpoint_crash.py RANKS COMMAND...  (COMMAND runs test_checkpoint_crash; the hidden
test case to run is appended)

For every commit point, a fresh directory, a saving run with DISTLOPS_CRASH_AT set (it must
die), then a resuming run (it must pass) told which checkpoint iteration and which .npy content
the killed job must have left. The saving run checkpoints at iterations 3, 6 and 9 and writes
x.npy before (seed 1) and after (seed 2); the crash hits the second save (iteration 6) or the
second .npy write.
"""
import os
import subprocess
import sys
import tempfile


def scenarios(ranks):
    last = ranks - 1
    # (DISTLOPS_CRASH_AT, checkpoint iteration left, .npy seed left)
    yield "checkpoint.file_renamed:2:0", 3, 1          # rank 0's new file in place, not all
    yield f"checkpoint.file_renamed:2:{last}", 3, 1    # the last rank's, maybe not rank 0's
    yield "checkpoint.before_commit:2", 3, 1           # every file written, manifest not yet
    yield "checkpoint.committed:2", 6, 1               # manifest renamed, old files still there
    # The first removal of a previous generation is that of the second save.
    yield f"checkpoint.removed_previous:1:{last}", 6, 1  # some old files removed, not all
    yield "npy.before_rename:2", 9, 1                  # new .npy data written, not renamed
    yield "npy.renamed:2", 9, 2                        # renamed


def main():
    ranks = int(sys.argv[1])
    command = sys.argv[2:]
    failures = 0
    for crash_at, iteration, seed in scenarios(ranks):
        with tempfile.TemporaryDirectory(prefix="distlops-crash-") as directory:
            env = dict(os.environ, DISTLOPS_CRASH_DIR=directory, DISTLOPS_CRASH_AT=crash_at)
            saved = subprocess.run(command + ["[.crash-save]"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if saved.returncode == 0:
                print(f"checkpoint_crash: {crash_at}: the saving job was not killed")
                failures += 1
                continue
            env = dict(os.environ, DISTLOPS_CRASH_DIR=directory,
                       DISTLOPS_CRASH_EXPECT_ITERATION=str(iteration),
                       DISTLOPS_CRASH_EXPECT_NPY_SEED=str(seed))
            env.pop("DISTLOPS_CRASH_AT", None)
            resumed = subprocess.run(command + ["[.crash-resume]"], env=env)
            status = "ok" if resumed.returncode == 0 else f"FAILED ({resumed.returncode})"
            print(f"checkpoint_crash: killed at {crash_at}: resume from {iteration}, "
                  f".npy seed {seed}: {status}")
            failures += resumed.returncode != 0
    print(f"{7 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
