# Sourced by the corank-mpi test scripts after `set -euo pipefail`, with
# BUILD_DIR in $1 and the script's name for its scratch directory in
# $test_name: sets corank and mpi (the binaries), work (a scratch directory,
# removed at exit, the current directory), fail(), failures and finish(),
# and what Open MPI needs here: root in a container, no network, shared
# memory and loopback only.
build=$(cd "$1" && pwd)
corank=$build/src/corank
mpi=$build/src/mpi/corank-mpi
# Under tools/sanitize.sh: AddressSanitizer checks every access, but leak
# checking is off for the ranks. Open MPI's allocations that outlive
# MPI_Finalize are not corank's leaks, and its libraries have no frame
# pointers, so telling them apart by suppressions takes the slow unwinder on
# every malloc: with it, four ranks on two cores ran past ten minutes. The
# library code the ranks run is leak-checked by the single-process tests.
if [ -n "${ASAN_OPTIONS:-}" ]; then
  export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
  export OMPI_MCA_mca_base_component_disable_dlclose=1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/corank-$test_name.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# The script's end: exit 1 after any failure, else MESSAGE.
finish() {
  if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
  fi
  echo "$1"
}
