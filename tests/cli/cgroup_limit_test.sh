#!/usr/bin/env bash
# corank inside a control group with a memory limit far below the machine's
# (a container, a systemd service with MemoryMax=, a batch job): its default
# -S is half the limit, so that a file larger than the limit sorts in runs,
# where a plan for half the machine's memory is killed by the kernel's
# out-of-memory killer (exit 137, no message). And under an affinity mask of
# one core it sorts on one thread, as GNU nproc counts under the same mask.
#   cgroup_limit_test.sh CORANK
# Needs root and a writable cgroup v1 memory hierarchy or cgroup v2 with the
# memory controller; exits 77 (skipped) without them, and under
# AddressSanitizer.
set -euo pipefail
corank=$1
work=$(mktemp -d)
group=
cleanup() {
  if [[ -n $group && -d $group ]]; then rmdir "$group" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# One core: the threads GNU nproc counts under the same mask.
if command -v taskset > /dev/null && taskset -c 0 true 2> /dev/null; then
  printf 'b\na\n' > "$work/two"
  taskset -c 0 "$corank" --stats="$work/one.json" -o "$work/two.out" "$work/two"
  want=$(taskset -c 0 nproc)
  got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["threads"])' "$work/one.json")
  [[ $got == "$want" ]] || fail "under taskset -c 0: $got threads, nproc says $want"
  echo "affinity: $got thread(s), as nproc"
fi

# Under AddressSanitizer the program holds its shadow memory and quarantine
# besides -S: no measure of what -S bounds (its runtime linked in, as
# tools/sanitize.sh builds, or shared).
if grep -qa AddressSanitizer "$corank" || ldd "$corank" 2> /dev/null | grep -q libasan; then
  echo "an AddressSanitizer build: the memory limit's part skipped"
  exit 77
fi

# A group of our own below the one we are in, with a limit of 128 MiB.
limit=$((128 << 20))
# mount FSTYPE [OPTION]: the first such mount point (mountinfo's fields after
# the optional ones, which end at "-": type, source, super options).
mount_of() {
  awk -v t="$1" -v o="${2:-}" '{
    for (i = 7; i <= NF && $i != "-"; ++i) {}
    if ($(i + 1) == t && (o == "" || $(i + 3) ~ "(^|,)" o "(,|$)")) { print $5; exit }
  }' /proc/self/mountinfo
}
v1=$(mount_of cgroup memory)
v2=$(mount_of cgroup2)
if [[ -n $v1 ]]; then
  own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
  [[ -d $v1$own ]] || own=
  group=$v1$own/corank-test-$$
  limit_file=memory.limit_in_bytes
elif [[ -n $v2 ]] && grep -qw memory "$v2/cgroup.controllers" 2> /dev/null; then
  # A v2 group that holds processes cannot have children with controllers:
  # the new group is made beside ours, under our parent, which delegates.
  own=$(awk -F: '$1 == "0" { print $3; exit }' /proc/self/cgroup)
  parent=$(dirname "$v2$own")
  grep -qw memory "$parent/cgroup.subtree_control" 2> /dev/null || echo +memory > "$parent/cgroup.subtree_control" 2> /dev/null || true
  group=$parent/corank-test-$$
  limit_file=memory.max
fi
if [[ -z $group ]] || ! mkdir "$group" 2> /dev/null || ! echo "$limit" > "$group/$limit_file" 2> /dev/null; then
  echo "no control group with a memory limit can be made here: skipped"
  exit 77
fi
[[ -n $v1 ]] && { echo 0 > "$group/memory.swappiness" 2> /dev/null || true; }

# About 230 MB of lines: twice the limit, more than a sort in memory holds.
seq 1 25000000 | shuf --random-source=<(yes) > "$work/in"
LC_ALL=C sort -o "$work/gnu" "$work/in"
rc=0
bash -c 'echo $$ > "$1/cgroup.procs" && exec "$2" --stats="$3/stats.json" -T "$3" -o "$3/out" "$3/in"' \
  _ "$group" "$corank" "$work" || rc=$?
[[ $rc == 0 ]] || fail "corank in a group limited to $limit bytes exited $rc"
cmp -s "$work/out" "$work/gnu" || fail "output differs from GNU sort's"
budget=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["memory_budget"])' "$work/stats.json")
[[ $budget == $((limit / 2)) ]] || fail "default -S $budget, want half the limit $((limit / 2))"
leftover=$(find "$work" -mindepth 1 -maxdepth 1 ! -name in ! -name gnu ! -name out ! -name stats.json ! -name two ! -name two.out ! -name one.json)
[[ -z $leftover ]] || fail "temporary files left: $leftover"
echo "in a group limited to $limit bytes: -S $budget, output equal to GNU sort's"
