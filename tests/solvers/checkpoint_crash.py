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
second .npy write. Two more scenarios kill one rank (the first, then the last) with SIGKILL in
the middle of the solve (DISTLOPS_KILL_AT_ITERATION), while the others wait in a collective.
Every killed job must end, launcher included, within 30 s (docs/solvers.md names the launcher
settings this relies on).
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

# How long a job with a killed rank may take to end: the launcher must notice and stop the rest.
END_WITHIN_SECONDS = 30


def scenarios(ranks):
    last = ranks - 1
    # (what kills the job, checkpoint iteration left, .npy seed left)
    def at(point):
        return {"DISTLOPS_CRASH_AT": point}
    yield at("checkpoint.file_renamed:2:0"), 3, 1        # rank 0's new file in place, not all
    yield at(f"checkpoint.file_renamed:2:{last}"), 3, 1  # the last rank's, maybe not rank 0's
    yield at("checkpoint.before_commit:2"), 3, 1         # every file written, manifest not yet
    yield at("checkpoint.committed:2"), 6, 1             # manifest renamed, old files still there
    # The first removal of a previous generation is that of the second save.
    yield at(f"checkpoint.removed_previous:1:{last}"), 6, 1  # some old files removed, not all
    yield at("npy.before_rename:2"), 9, 1                # new .npy data written, not renamed
    yield at("npy.renamed:2"), 9, 2                      # renamed
    # Mid-solve, after the save of iteration 6: the other ranks are in a collective.
    for rank in (0, last):
        yield {"DISTLOPS_KILL_AT_ITERATION": "7", "DISTLOPS_KILL_RANK": str(rank)}, 6, 1


def run_killed(command, env):
    """Runs the saving job; returns (exit status, seconds), status None when it outlived the
    limit (then its whole process group is killed)."""
    start = time.monotonic()
    job = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        status = job.wait(timeout=END_WITHIN_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        job.wait()
        status = None
    return status, time.monotonic() - start


def main():
    ranks = int(sys.argv[1])
    command = sys.argv[2:]
    failures = 0
    count = 0
    for kill, iteration, seed in scenarios(ranks):
        count += 1
        label = " ".join(f"{key}={value}" for key, value in kill.items())
        with tempfile.TemporaryDirectory(prefix="distlops-crash-") as directory:
            clean = {key: value for key, value in os.environ.items()
                     if key not in ("DISTLOPS_CRASH_AT", "DISTLOPS_KILL_AT_ITERATION")}
            env = dict(clean, DISTLOPS_CRASH_DIR=directory, **kill)
            status, seconds = run_killed(command + ["[.crash-save]"], env)
            if status is None:
                print(f"checkpoint_crash: {label}: the job did not end within "
                      f"{END_WITHIN_SECONDS} s of the kill")
                failures += 1
                continue
            if status == 0:
                print(f"checkpoint_crash: {label}: the saving job was not killed")
                failures += 1
                continue
            env = dict(clean, DISTLOPS_CRASH_DIR=directory,
                       DISTLOPS_CRASH_EXPECT_ITERATION=str(iteration),
                       DISTLOPS_CRASH_EXPECT_NPY_SEED=str(seed))
            resumed = subprocess.run(command + ["[.crash-resume]"], env=env)
            verdict = "ok" if resumed.returncode == 0 else f"FAILED ({resumed.returncode})"
            print(f"checkpoint_crash: {label}: job ended in {seconds:.1f} s (status {status}), "
                  f"resume from {iteration}, .npy seed {seed}: {verdict}")
            failures += resumed.returncode != 0
    print(f"{count - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
