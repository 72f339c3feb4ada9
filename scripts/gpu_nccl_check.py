#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Says which NCCL a shared library is and, with --two-ranks-on-one-gpu, whether it sums over
two ranks that share device 0 (NCCL's multi-rank mode, NCCL 2.30 and newer), before anything is
built against it:

    python3 scripts/gpu_nccl_check.py LIBNCCL [--two-ranks-on-one-gpu]

Prints one line, `version <code> <major.minor.patch>`, then with the option `sum ok` or
`sum failed: <why>`; exits 0 when the library loads (and the sum, when asked for, is right). The
two ranks live in this process (ncclCommInitAll over devices [0, 0], NCCL_MULTI_RANK_GPU_ENABLE=1,
each rank on a stream of its own) and sum 4096 doubles; CuPy provides the device memory and the
streams. The check exercises what a cut-down library could have lost: its kernels for this
device load and run.
"""
import ctypes
import os
import sys

NCCL_FLOAT64, NCCL_SUM = 8, 0  # nccl.h's ncclFloat64 and ncclSum


def version_of(library):
    code = ctypes.c_int(0)
    if library.ncclGetVersion(ctypes.byref(code)) != 0:
        raise RuntimeError("ncclGetVersion failed")
    value = code.value
    return value, f"{value // 10000}.{value // 100 % 100}.{value % 100}"


def two_ranks_sum(library):
    """None when two ranks on device 0 sum correctly, else what went wrong."""
    os.environ["NCCL_MULTI_RANK_GPU_ENABLE"] = "1"
    import cupy  # noqa: PLC0415 (only this check needs the device)

    library.ncclGetErrorString.restype = ctypes.c_char_p

    def check(code, call):
        if code != 0:
            raise RuntimeError(f"{call}: {library.ncclGetErrorString(code).decode()}")

    comms = (ctypes.c_void_p * 2)()
    check(library.ncclCommInitAll(comms, 2, (ctypes.c_int * 2)(0, 0)), "ncclCommInitAll")
    try:
        count = 4096
        buffers = [cupy.full(count, rank + 1.0, dtype=cupy.float64) for rank in range(2)]
        streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(2)]
        check(library.ncclGroupStart(), "ncclGroupStart")
        for rank in range(2):
            pointer = ctypes.c_void_p(buffers[rank].data.ptr)
            check(library.ncclAllReduce(pointer, pointer, ctypes.c_size_t(count), NCCL_FLOAT64,
                                        NCCL_SUM, ctypes.c_void_p(comms[rank]),
                                        ctypes.c_void_p(streams[rank].ptr)), "ncclAllReduce")
        check(library.ncclGroupEnd(), "ncclGroupEnd")
        for stream in streams:
            stream.synchronize()
        for rank, buffer in enumerate(buffers):
            if not bool((buffer == 3.0).all()):
                return f"rank {rank} holds {float(buffer[0])} and more, expected 3.0 everywhere"
    finally:
        for rank in range(2):
            if comms[rank]:
                library.ncclCommDestroy(ctypes.c_void_p(comms[rank]))
    return None


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(arguments) != 1 or any(a not in ("--two-ranks-on-one-gpu",)
                                  for a in sys.argv[1:] if a.startswith("--")):
        print(__doc__)
        return 2
    try:
        library = ctypes.CDLL(arguments[0])
        code, text = version_of(library)
    except (OSError, RuntimeError, AttributeError) as error:
        print(f"unloadable: {error}")
        return 1
    print(f"version {code} {text}", flush=True)
    if "--two-ranks-on-one-gpu" in sys.argv:
        try:
            failure = two_ranks_sum(library)
        except Exception as error:  # noqa: BLE001 (any failure is the answer)
            failure = f"{type(error).__name__}: {error}"
        print("sum ok" if failure is None else f"sum failed: {failure}", flush=True)
        return 0 if failure is None else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
