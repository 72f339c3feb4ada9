# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
"""The three statements of the examples' exit statuses agree: the table that every --help prints
(examples/support/exit_statuses.txt), the C++ constants (exit_status.hpp) and the Python ones
(exit_statuses.py), name for name and number for number.

    python3 check_exit_statuses.py EXAMPLES_SUPPORT_DIR
"""
import pathlib
import re
import sys


def main():
    support = pathlib.Path(sys.argv[1])
    table = (support / "exit_statuses.txt").read_text()
    in_table = [int(number) for number in re.findall(r"^ {1,3}(\d+)  \S", table, re.MULTILINE)]
    header = (support / "exit_status.hpp").read_text()
    in_cpp = {name: int(value) for name, value in
              re.findall(r"inline constexpr int (\w+) = (\d+);", header)}
    sys.path.insert(0, str(support))
    import exit_statuses
    in_python = {name.lower(): getattr(exit_statuses, name) for name in dir(exit_statuses)
                 if name.isupper() and isinstance(getattr(exit_statuses, name), int)}
    problems = []
    if not in_table:
        problems.append("no status found in exit_statuses.txt")
    if sorted(in_cpp.values()) != in_table:
        problems.append(f"exit_status.hpp has {sorted(in_cpp.values())}, the table {in_table}")
    if in_python != in_cpp:
        problems.append(f"exit_statuses.py has {in_python}, exit_status.hpp {in_cpp}")
    for problem in problems:
        print(f"check_exit_statuses: {problem}", file=sys.stderr)
    if not problems:
        print(f"check_exit_statuses: {len(in_table)} statuses agree: {in_cpp}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
