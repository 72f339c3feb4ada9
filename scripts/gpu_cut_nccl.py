#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""Cuts NCCL's shared library down to the device code of one GPU architecture, so that a recent
NCCL fits into the few MiB that travel to a GPU machine:

    python3 scripts/gpu_cut_nccl.py --arch 90 SOURCE/libnccl.so.2 DESTINATION/libnccl.so.2

NCCL's wheels hold machine code (cubins) for every architecture from sm_75 to sm_120, and the
relocatable copies of it that a device link reads, in two sections of fat binaries: .nv_fatbin
(the device-linked code the CUDA runtime loads) and __nv_relfatbin. A fat binary is a container
of entries, each a header (kind, architecture, sizes) and a payload, mostly compressed. On a
device only the entries of its own architecture are ever loaded, so this script rewrites every
container that has such entries to hold those entries alone: the entries move up, byte for byte,
to the start of the container, its header gets the new size, and the bytes it no longer uses
become zeros. Containers keep their place (the runtime finds them by address), so the library
links and loads as before; the zeros compress to nothing. A container without an entry for the
architecture (code of another architecture only) stays as it is.

It prints what it kept and cleared, and checks the result by reading it again: every container
where it was, holding the kept entries with their original bytes.
"""
import argparse
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50  # a fat binary container (the CUDA runtime's format)
ELF_KIND, PTX_KIND = 2, 1
SECTIONS = (".nv_fatbin", "__nv_relfatbin")


def sections(data):
    """{name: (offset, size)} of an ELF64 little-endian file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("gpu_cut_nccl.py: not a 64-bit little-endian ELF file")
    table, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)

    def header(i):
        return struct.unpack_from("<IIQQQQ", data, table + i * entry_size)

    names = header(names_index)[4]
    found = {}
    for i in range(count):
        name_offset, _, _, _, offset, size = header(i)
        start = names + name_offset
        found[data[start:data.index(b"\0", start)].decode()] = (offset, size)
    return found


def containers(data, offset, size):
    """The fat binary containers of a section: (offset, header size, [(entry offset, kind,
    architecture, entry size with its header)])."""
    position, end = offset, offset + size
    while position + 16 <= end:
        magic, _, header_size, body_size = struct.unpack_from("<IHHQ", data, position)
        if magic != FATBIN_MAGIC:
            position += 8  # containers start 8-byte aligned, with padding between them
            continue
        entry, body_end = position + header_size, position + header_size + body_size
        found = []
        while entry < body_end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            arch, = struct.unpack_from("<I", data, entry + 28)
            found.append((entry, kind, arch, entry_header + payload))
            entry += entry_header + payload
        if entry != body_end:
            raise SystemExit(f"gpu_cut_nccl.py: the container at {position:#x} does not end where "
                             "its header says")
        yield position, header_size, found
        position = body_end


def wanted(kind, arch, target):
    """Machine code of the target, or PTX that its driver can compile."""
    return (kind == ELF_KIND and arch == target) or (kind == PTX_KIND and arch <= target)


def cut(data, found, target):
    """Rewrites the containers of the sections in place; returns {section: (kept bytes, cleared
    bytes)} and the kept entries' original bytes per container offset, for the check."""
    report, kept_entries = {}, {}
    for name in SECTIONS:
        if name not in found:
            continue
        kept = cleared = 0
        for position, header_size, listed in list(containers(data, *found[name])):
            keep = [(offset, size) for offset, kind, arch, size in listed
                    if wanted(kind, arch, target)]
            body = sum(size for _, _, _, size in listed)
            if not keep:
                continue  # another architecture's code only: left as it is
            pieces = [bytes(data[offset:offset + size]) for offset, size in keep]
            new_body = b"".join(pieces)
            start = position + header_size
            data[start:start + body] = new_body + bytes(body - len(new_body))
            struct.pack_into("<Q", data, position + 8, len(new_body))
            kept_entries[position] = pieces
            kept += len(new_body)
            cleared += body - len(new_body)
        report[name] = (kept, cleared)
    return report, kept_entries


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arch", type=int, required=True, help="e.g. 90 for sm_90 (H100, H200)")
    parser.add_argument("source")
    parser.add_argument("destination")
    args = parser.parse_args()
    original = open(args.source, "rb").read()
    data = bytearray(original)
    found = sections(data)
    if ".nv_fatbin" not in found:
        raise SystemExit(f"gpu_cut_nccl.py: {args.source} has no .nv_fatbin section")
    report, kept_entries = cut(data, found, args.arch)
    if not report[".nv_fatbin"][0]:
        raise SystemExit(f"gpu_cut_nccl.py: {args.source} has no code for sm_{args.arch}")
    # The check: outside the sections nothing changed, and every rewritten container holds
    # exactly the kept entries.
    outside = sorted(found[name] for name in report)
    position = 0
    for offset, size in outside:
        if original[position:offset] != data[position:offset]:
            raise SystemExit("gpu_cut_nccl.py: bytes outside the fat binaries changed")
        position = offset + size
    if len(original) != len(data) or original[position:] != data[position:]:
        raise SystemExit("gpu_cut_nccl.py: bytes outside the fat binaries changed")
    for name in report:
        for position, _, listed in containers(data, *found[name]):
            if position in kept_entries and \
                    [bytes(data[o:o + n]) for o, _, _, n in listed] != kept_entries[position]:
                raise SystemExit(f"gpu_cut_nccl.py: the container at {position:#x} lost an entry")
    with open(args.destination, "wb") as out:
        out.write(data)
    mib = 1 << 20
    print(f"gpu_cut_nccl.py: sm_{args.arch} kept of {len(original) / mib:.1f} MiB: " +
          "; ".join(f"{name} {kept / mib:.1f} MiB kept, {cleared / mib:.1f} MiB cleared"
                    for name, (kept, cleared) in report.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
