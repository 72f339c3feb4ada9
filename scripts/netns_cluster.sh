#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Runs an MPI program across several hosts made on this machine: one network namespace per
# host, each with its own address, host name and launcher daemon, joined by a bridge, so that
# the ranks of different hosts talk over TCP as on a cluster (docs/clusters.md).
#
#   scripts/netns_cluster.sh [--hosts N] [--ranks-per-host R] [--mpiexec PATH] [--quiet]
#                            -- PROGRAM [ARGUMENTS...]
#
# Hosts node1 .. nodeN get 10.213.0.1 .. 10.213.0.N (/24) on eth0, a veth pair whose other end
# sits on a bridge in a namespace of its own; nothing is changed in the machine's own network
# namespace, and every namespace is removed at exit. The launcher runs on node1; it starts
# its daemons on the other hosts through a generated ssh replacement that enters the host's
# namespace (`ip netns exec`) and a UTS namespace of its own (`unshare --uts`, the host name):
#   Open MPI: mpirun --hostfile ... --mca plm_rsh_agent <agent>, TCP between hosts
#             (btl tcp,vader,self; btl_tcp_if_include and oob_tcp_if_include on the subnet);
#   MPICH:    mpiexec.hydra -launcher ssh -launcher-exec <agent> -hosts ... -iface eth0.
# The flavour is read from `PATH --version` (default: mpiexec). At exit the script prints the
# bytes each host sent on its eth0.
#
# Exit status: the program's; 77 (with the reason on stderr) where namespaces cannot be made
# here: not root, no `ip` or `unshare`, no CAP_NET_ADMIN / CAP_SYS_ADMIN, no veth or bridge
# support in the kernel. scripts/setup.sh installs iproute2 (ip) and util-linux (unshare).
set -uo pipefail

hosts=4
ranks_per_host=1
mpiexec=mpiexec
quiet=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts="$2"; shift 2 ;;
    --ranks-per-host) ranks_per_host="$2"; shift 2 ;;
    --mpiexec) mpiexec="$2"; shift 2 ;;
    --quiet) quiet=1; shift ;;
    --) shift; break ;;
    *) echo "netns_cluster: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ $# -eq 0 ]; then
  echo "netns_cluster: no program given (... -- PROGRAM [ARGUMENTS...])" >&2
  exit 2
fi
if ! [[ "$hosts" =~ ^[1-9][0-9]*$ && "$hosts" -le 250 && "$ranks_per_host" =~ ^[1-9][0-9]*$ ]]; then
  echo "netns_cluster: --hosts must be 1 to 250 and --ranks-per-host positive" >&2
  exit 2
fi

skip() {
  echo "netns_cluster: SKIPPED: $*" >&2
  exit 77
}
say() {
  [ "$quiet" = 1 ] || echo "netns_cluster: $*" >&2
}

[ "$(id -u)" -eq 0 ] || skip "not root (network namespaces need CAP_NET_ADMIN and CAP_SYS_ADMIN)"
command -v ip >/dev/null 2>&1 || skip "no ip command (iproute2; scripts/setup.sh installs it)"
command -v unshare >/dev/null 2>&1 || skip "no unshare command (util-linux)"
command -v "$mpiexec" >/dev/null 2>&1 || skip "no MPI launcher $mpiexec"
version="$("$mpiexec" --version 2>&1)"
if [[ "$version" == *"Open MPI"* || "$version" == *"OpenRTE"* ]]; then
  flavour=openmpi
elif [[ "$version" == *"HYDRA"* || "$version" == *"hydra"* ]]; then
  flavour=mpich
else
  skip "$mpiexec is neither Open MPI's mpirun nor MPICH's hydra"
fi

prefix="dlnc$$"
work="$(mktemp -d "${TMPDIR:-/tmp}/netns_cluster.XXXXXX")"
namespaces=()
cleanup() {
  local ns
  for ns in "${namespaces[@]}"; do
    # Anything the run left behind in the namespace (a daemon of a failed launch) goes first.
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
    ip netns del "$ns" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The bridge's namespace first: a failure here is the machine's verdict on namespaces.
switch="$prefix-sw"
if ! error="$(ip netns add "$switch" 2>&1)"; then
  skip "cannot make a network namespace: $error"
fi
namespaces+=("$switch")
error="$(ip -n "$switch" link add br0 type bridge 2>&1 && ip -n "$switch" link set br0 up 2>&1)" ||
  skip "cannot make a bridge in a namespace: $error"
subnet=10.213.0
for ((h = 1; h <= hosts; ++h)); do
  ns="$prefix-h$h"
  error="$(ip netns add "$ns" 2>&1)" || skip "cannot make a network namespace: $error"
  namespaces+=("$ns")
  error="$(ip link add eth0 netns "$ns" type veth peer name port$h netns "$switch" 2>&1)" ||
    skip "cannot make a veth pair between namespaces: $error"
  ip -n "$switch" link set "port$h" master br0 up &&
    ip -n "$ns" addr add "$subnet.$h/24" dev eth0 &&
    ip -n "$ns" link set eth0 up &&
    ip -n "$ns" link set lo up || {
    echo "netns_cluster: could not configure host $h" >&2
    exit 1
  }
done

# The ssh replacement: [ssh options] HOST COMMAND..., COMMAND run by a shell as ssh does.
agent="$work/agent"
cat >"$agent" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift ;; *) break ;; esac; done
host=\$1
shift
n=\${host##*.}
exec ip netns exec $prefix-h\$n unshare --uts sh -c "hostname node\$n && \$*"
EOF
chmod +x "$agent"

ranks=$((hosts * ranks_per_host))
launch=()
case "$flavour" in
  openmpi)
    hostfile="$work/hostfile"
    for ((h = 1; h <= hosts; ++h)); do
      echo "$subnet.$h slots=$ranks_per_host" >>"$hostfile"
    done
    launch=("$mpiexec" --hostfile "$hostfile" -np "$ranks" --bind-to none
      --mca plm_rsh_agent "$agent" --mca pml ob1 --mca btl tcp,vader,self
      --mca btl_vader_single_copy_mechanism none
      --mca btl_tcp_if_include "$subnet.0/24" --mca oob_tcp_if_include "$subnet.0/24")
    [ "$(id -u)" -ne 0 ] || launch+=(--allow-run-as-root)
    ;;
  mpich)
    list=""
    for ((h = 1; h <= hosts; ++h)); do
      list="$list${list:+,}$subnet.$h:$ranks_per_host"
    done
    launch=("$mpiexec" -launcher ssh -launcher-exec "$agent" -hosts "$list" -iface eth0
      -n "$ranks")
    ;;
esac

sent_bytes() {
  ip -n "$prefix-h$1" -s link show eth0 | awk 'f { print $1; exit } /TX:/ { f = 1 }'
}
declare -a before
for ((h = 1; h <= hosts; ++h)); do
  before[h]=$(sent_bytes "$h")
done
say "$hosts hosts ($subnet.1-$hosts, $ranks_per_host rank(s) each), $flavour: ${launch[*]} $*"
start=$(date +%s.%N)
ip netns exec "$prefix-h1" unshare --uts sh -c 'hostname node1 && exec "$@"' launcher \
  "${launch[@]}" "$@"
status=$?
seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
report=""
for ((h = 1; h <= hosts; ++h)); do
  report="$report node$h $(($(sent_bytes "$h") - before[h]))"
done
say "exit status $status after $seconds s; bytes sent on eth0:$report"
exit "$status"
