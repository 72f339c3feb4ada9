#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Copies what scripts/new_operator.sh reads and writes from the sources SOURCE into TREE, runs
# it there for NAME in GROUP, and checks its output: every place written, a second run refused
# without a change, and the documents still agreeing with the code (tests/docs/check_names.py,
# which now finds the new operator's catalogue row and Python names).
#
#   generate.sh SOURCE TREE NAME GROUP
set -euo pipefail
source_dir=$1 tree=$2 name=$3 group=$4
rm -rf "$tree"
mkdir -p "$tree"
for part in cmake docs include operators python scripts tests/docs tests/operators tests/support; do
  mkdir -p "$tree/$(dirname "$part")"
  cp -R "$source_dir/$part" "$tree/$part"
done
bash "$tree/scripts/new_operator.sh" "$name" "$group"
snake=$(sed -E 's/([a-z])([A-Z])/\1_\2/g' <<<"$name" | tr '[:upper:]' '[:lower:]')
for file in "include/distlops/operators/$group/$snake.hpp" "operators/$group/$snake.cpp" \
            "operators/$group/${snake}_kernels.hpp" "operators/host/${snake}_kernels.cpp" \
            "operators/cuda/${snake}_kernels.cu" "tests/operators/$group/test_$snake.cpp"; do
  [[ -s $tree/$file ]] || { echo "generate.sh: $file was not written" >&2; exit 1; }
done
grep -q "\"$name\"" "$tree/python/src/$group.cpp" || { echo "generate.sh: no binding" >&2; exit 1; }
grep -q "\`MPI$name\`" "$tree/docs/operators.md" || { echo "generate.sh: no catalogue row" >&2; exit 1; }
before=$(cd "$tree" && find . -type f -exec md5sum {} + | sort | md5sum)
if bash "$tree/scripts/new_operator.sh" "$name" "$group" 2>/dev/null; then
  echo "generate.sh: a second run for $name did not refuse" >&2
  exit 1
fi
after=$(cd "$tree" && find . -type f -exec md5sum {} + | sort | md5sum)
[[ $before == "$after" ]] || { echo "generate.sh: the refused run changed files" >&2; exit 1; }
python3 "$tree/tests/docs/check_names.py" "$tree"
