# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Runs PyLops-MPI gallery scripts one after the other in one interpreter per rank (under
mpiexec) and writes the numbers each leaves behind, for run_gallery.py.

    gallery_session.py --target compat|pylops_mpi --journal PREFIX --timeout S SCRIPT...

With --target compat the scripts' `import pylops_mpi` and `from pylops_mpi... import` lines
become imports of distlops.pylops_mpi (as pylops_mpi), and nothing else changes; with
--target pylops_mpi they run as written, against the real PyLops-MPI. Matplotlib draws on Agg,
`plt.show()` and `time.sleep` (the scripts' pauses between printouts) do nothing.

Every value a script assigns at its top level is summarised under "<name>#<k>" (its k-th
assignment) when the name is bound again, and at the end (arrays are filled after they are
made; a name bound more than LOOP times, a loop's variable, keeps its last value only): NumPy
arrays, numbers and lists of numbers as they are, a DistributedArray by this rank's block, a
StackedDistributedArray by its items' blocks. After the
script, the DistributedArrays (and stacks) that every rank holds in its globals on
communicators congruent with MPI.COMM_WORLD are gathered (asarray) and summarised under
"<name>@global". A summary holds the shape, the dtype and [2-norm, largest magnitude, sum,
a fixed cosine projection, four samples] (a number: [its value]) with complex values as
(real, imaginary) pairs.

Each rank appends one JSON line per finished script to PREFIX.rank<r>.jsonl: the script, its
status ("ok", or the exception's type and message) and the summaries, so that a session ended
by a script's time limit (faulthandler, which dumps the stacks and exits) still tells which
scripts finished.
"""
import argparse
import faulthandler
import json
import os
import re
import sys
import time
import traceback
from numbers import Number

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402

IMPORT = re.compile(r"^(\s*)import pylops_mpi\s*$", re.MULTILINE)
FROM_IMPORT = re.compile(r"^(\s*)from pylops_mpi(\.[\w.]+)? import ", re.MULTILINE)
LOOP = 10
ANY_IMPORT = re.compile(r"^\s*(import|from)\s+pylops_mpi\b", re.MULTILINE)


def rewrite_imports(source):
    """The script with its PyLops-MPI imports changed to distlops.pylops_mpi's, and nothing
    else; a form of import this does not know stops the run."""
    source = IMPORT.sub(r"\1import distlops.pylops_mpi as pylops_mpi", source)
    source = FROM_IMPORT.sub(lambda m: f"{m.group(1)}from distlops.pylops_mpi{m.group(2) or ''} "
                             "import ", source)
    left = ANY_IMPORT.findall(source)
    if left:
        raise RuntimeError(f"an import of pylops_mpi that is not rewritten: {left}")
    return source


def _leaves(value):
    """The DistributedArrays of a StackedDistributedArray, nested ones included, in order."""
    if hasattr(value, "distarrays"):
        return [leaf for item in value.distarrays for leaf in _leaves(item)]
    return [value]


def is_distributed(value):
    return hasattr(value, "local_array") or hasattr(value, "distarrays")


def local_values(value):
    """This rank's elements of a DistributedArray (of every item of a stack)."""
    blocks = [np.asarray(leaf.local_array).ravel() for leaf in _leaves(value)]
    return np.concatenate(blocks) if blocks else np.zeros(0)


def as_numbers(value):
    """The NumPy array of a value worth comparing (an array, a number, a list of numbers), or
    None."""
    if isinstance(value, (bool, np.bool_)):
        return np.asarray(value, dtype=np.int64)
    if isinstance(value, (Number, np.number)):
        return np.asarray(value)
    if isinstance(value, np.ndarray):
        return value if value.dtype.kind in "biufc" else None
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, (Number, np.number)) and not isinstance(v, bool) for v in value):
        return np.asarray(value)
    return None


def _pair(z):
    z = complex(z)
    return [float(f"{z.real:.12g}"), float(f"{z.imag:.12g}")]


def summary(array, shape=None):
    """Shape, dtype and a few numbers that tell two arrays apart (see the module's text)."""
    flat = np.asarray(array).ravel()
    if flat.dtype.kind in "biu":
        flat = flat.astype(np.int64)
    data = flat.astype(np.complex128)
    n = data.size
    if n == 1:
        numbers = [data[0]]  # a number: its value alone
    elif n:
        weights = np.cos(1.3 * np.arange(n))
        picks = sorted({0, n // 3, (2 * n) // 3, n - 1})
        numbers = [np.linalg.norm(data), np.max(np.abs(data)), np.sum(data),
                   np.sum(weights * data)] + [data[i] for i in picks]
    else:
        numbers = []
    return {"shape": list(shape if shape is not None else np.shape(array)),
            "dtype": str(np.asarray(array).dtype),
            "values": [x for v in numbers for x in _pair(v)]}


class Recorder(dict):
    """The locals of a script run at top level, stored in its globals too (so that its
    functions see the names). A value is summarised when its name is bound to another value
    or deleted, and at the end (finish): arrays are filled in place after they are made."""

    def __init__(self, namespace, records):
        super().__init__()
        self.namespace = namespace
        self.records = records
        self.counts = {}

    def _summarise(self, name):
        key = f"{name}#{self.counts[name]}"
        value = dict.__getitem__(self, name)
        try:
            if is_distributed(value):
                self.records[key] = summary(local_values(value))
            else:
                numbers = as_numbers(value)
                if numbers is not None:
                    self.records[key] = summary(numbers)
        except Exception as error:  # a value that cannot be read is a difference to show
            self.records[key] = {"error": f"{type(error).__name__}: {error}"}

    def __setitem__(self, name, value):
        if name in self:
            self._summarise(name)
        dict.__setitem__(self, name, value)
        self.namespace[name] = value
        self.counts[name] = self.counts.get(name, 0) + 1

    def __delitem__(self, name):
        self._summarise(name)
        dict.__delitem__(self, name)
        self.namespace.pop(name, None)

    def finish(self):
        for name in list(self):
            self._summarise(name)
        # A loop variable (a name bound more than LOOP times) keeps its last value only.
        for name, count in self.counts.items():
            if count > LOOP:
                for k in range(1, count):
                    self.records.pop(f"{name}#{k}", None)


def _congruent(value):
    comm = getattr(value, "base_comm", None)
    if comm is None:
        return all(_congruent(leaf) for leaf in _leaves(value)) if hasattr(value, "distarrays") \
            else False
    return MPI.Comm.Compare(comm, MPI.COMM_WORLD) in (MPI.IDENT, MPI.CONGRUENT)


def gather_globals(namespace, records):
    """Summaries of the distributed arrays that every rank keeps, gathered (collective on
    MPI.COMM_WORLD: every rank calls it once after each script)."""
    comm = MPI.COMM_WORLD
    mine = {}
    for name, value in list(namespace.items()):
        if not name.startswith("__") and is_distributed(value):
            try:
                mine[name] = (type(value).__name__, str(getattr(value, "global_shape", "")),
                              _congruent(value))
            except Exception:
                pass
    everyone = comm.allgather(mine)
    common = sorted(name for name in mine
                    if all(other.get(name) == mine[name] for other in everyone) and mine[name][2])
    for name in common:
        try:
            records[f"{name}@global"] = summary(namespace[name].asarray())
        except Exception as error:
            records[f"{name}@global"] = {"error": f"{type(error).__name__}: {error}"}


def run_script(path, target, timeout):
    with open(path) as f:
        source = f.read()
    if target == "compat":
        source = rewrite_imports(source)
    records = {}
    namespace = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
    recorder = Recorder(namespace, records)
    status = "ok"
    np.random.seed(0)
    faulthandler.dump_traceback_later(timeout, exit=True)
    start = time.monotonic()
    try:
        exec(compile(source, path, "exec"), namespace, recorder)
    except SystemExit as ended:
        if ended.code not in (None, 0):
            status = f"SystemExit: {ended.code}"
    except BaseException as error:
        message = str(error).strip().splitlines()
        status = f"{type(error).__name__}: {message[0][:300] if message else ''}"
        traceback.print_exc()
    seconds = time.monotonic() - start
    recorder.finish()
    gather_globals(namespace, records)
    faulthandler.cancel_dump_traceback_later()
    plt.close("all")
    return status, records, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", choices=("compat", "pylops_mpi"), required=True)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("scripts", nargs="+")
    args = parser.parse_args()
    plt.show = lambda *a, **k: None
    time.sleep = lambda *a, **k: None
    rank = MPI.COMM_WORLD.rank
    with open(f"{args.journal}.rank{rank}.jsonl", "a") as journal:
        for path in map(os.path.abspath, args.scripts):
            name = os.path.basename(path)
            print(f"gallery: {name} starts on rank {rank}", flush=True)
            os.chdir(os.path.dirname(os.path.abspath(path)))
            status, records, seconds = run_script(path, args.target, args.timeout)
            print(f"gallery: {name} on rank {rank}: {status} ({seconds:.1f} s)", flush=True)
            journal.write(json.dumps({"script": name, "status": status, "seconds": seconds,
                                      "records": records}) + "\n")
            journal.flush()
            sys.stdout.flush()
            # A script that left its ranks in different states ends here for all of them.
            MPI.COMM_WORLD.Barrier()


if __name__ == "__main__":
    main()
