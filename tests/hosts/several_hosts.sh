#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# The several-host test (ctest hosts.netns.np4): several_hosts (CG, CGLS on a stacked operator,
# a redistribution, a checkpoint) on 4 ranks of one host over shared memory, then on 4 hosts
# over TCP (scripts/netns_cluster.sh: one network namespace and launcher daemon per host), then
# resumed on the 4 hosts from the checkpoint the one-host run wrote. Every result must be the
# same, bit for bit, and the resumed CGLS that of the uninterrupted run.
#
#   several_hosts.sh CLUSTER_SCRIPT MPIEXEC WORK_DIRECTORY -- ONE_HOST_COMMAND... PROGRAM
#
# Exit status 77 (ctest: Skipped) with the reason where namespaces cannot be made here.
set -uo pipefail

cluster="$1" mpiexec="$2" work="$3"
shift 3
[ "${1:-}" = "--" ] && shift
program="${*: -1}"
rm -rf "$work"
mkdir -p "$work"

fail() {
  echo "several_hosts: FAILED: $*" >&2
  exit 1
}
timed() {
  local name="$1" start status
  shift
  start=$(date +%s.%N)
  "$@"
  status=$?
  echo "several_hosts: $name: exit status $status in" \
    "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s" >&2
  return "$status"
}

timed "one host, shared memory" "$@" --digest "$work/one-host.txt" \
  --checkpoint "$work/one-host-checkpoint" || fail "the one-host run"
timed "4 hosts, TCP" bash "$cluster" --hosts 4 --mpiexec "$mpiexec" -- "$program" \
  --digest "$work/four-hosts.txt" --checkpoint "$work/four-hosts-checkpoint"
status=$?
[ "$status" -eq 77 ] && exit 77
[ "$status" -eq 0 ] || fail "the 4-host run"
timed "4 hosts, TCP, resumed from the one-host checkpoint" bash "$cluster" --hosts 4 \
  --mpiexec "$mpiexec" -- "$program" --digest "$work/resumed.txt" \
  --resume "$work/one-host-checkpoint" || fail "the resumed 4-host run"

hosts_line=$(head -n 1 "$work/four-hosts.txt")
[[ "$hosts_line" == "hosts 4: node1 node2 node3 node4" ]] ||
  fail "the ranks did not run on 4 hosts: $hosts_line"
# Everything but the hosts line, bit for bit.
diff <(tail -n +2 "$work/one-host.txt") <(tail -n +2 "$work/four-hosts.txt") >&2 ||
  fail "4 hosts over TCP differ from one host"
stacked=$(grep '^cgls-stacked ' "$work/one-host.txt")
resumed=$(grep '^cgls-resumed ' "$work/resumed.txt")
[ -n "$stacked" ] && [ "${resumed/cgls-resumed/cgls-stacked}" = "$stacked" ] ||
  fail "the resumed CGLS ($resumed) is not the uninterrupted one ($stacked)"
diff <(grep -v '^hosts \|^cgls-resumed ' "$work/resumed.txt") \
  <(grep -v '^hosts \|^cgls-checkpointed ' "$work/one-host.txt") >&2 ||
  fail "the resumed 4-host run's other results differ from one host"
echo "several_hosts: 4 hosts over TCP give the one-host results bit for bit:"
cat "$work/four-hosts.txt"
echo "resumed on 4 hosts: $resumed"
