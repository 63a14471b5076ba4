#!/usr/bin/env bash
# Open MPI for a machine that has none and no network (a lent GPU machine):
# downloads Debian's Open MPI runtime here, unpacks it into DIR without
# installing it, drops what a one-node run over shared memory does not use,
# and writes DIR/env.sh, which points OPAL_PREFIX, PATH and LD_LIBRARY_PATH at
# it. Copy DIR to the other machine, then:
#   . DIR/env.sh && MPIRUN_ARGS="--bind-to none" tools/mpi-bench.sh BIN_DIR ...
#   tools/openmpi-carry.sh DIR
# DIR ends up at about 12 MiB. The binaries run on glibc 2.36 and later
# (Debian 12, Ubuntu 24.04).
set -euo pipefail
dir=${1:?usage: openmpi-carry.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
(cd "$debs" && apt-get download openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 libevent-2.1-7 \
  libevent-core-2.1-7 libevent-pthreads-2.1-7 libnuma1 libltdl7 libmunge2 libxnvctrl0 libucx0 >/dev/null)
for d in "$debs"/*.deb; do dpkg -x "$d" "$dir"; done
lib=$dir/usr/lib/x86_64-linux-gnu
comp=$lib/openmpi/lib/openmpi3
# Network transports (UCX, libfabric, verbs, PSM) and OpenSHMEM: their
# components would fail to load without their libraries, which stay behind.
rm -rf "$dir/usr/share/doc" "$dir/usr/share/man" "$lib"/libmpi_java* "$lib"/libmpi_mpifh* "$lib"/libmpi_usempi* \
  "$lib"/libmpi_cxx* "$lib"/liboshmem* "$lib"/libuc[pst]* "$lib/ucx" "$lib"/libmca_common_ofi* \
  "$lib"/libmca_common_ucx* "$lib"/libmca_common_verbs* "$comp"/*ucx* "$comp"/*ofi* "$comp"/*psm* "$comp"/*openib* \
  "$comp"/*usnic* "$comp"/*verbs* "$comp"/mca_spml_* "$comp"/mca_sshmem_* "$comp"/mca_scoll_* "$comp"/mca_atomic_* \
  "$comp"/mca_memheap_*
ln -sf mpirun.openmpi "$dir/usr/bin/mpirun"
cat > "$dir/env.sh" <<'ENV'
# Sourced: Open MPI from this folder (tools/openmpi-carry.sh).
_ompi=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$_ompi/usr
export PMIX_INSTALL_PREFIX=$_ompi/usr/lib/x86_64-linux-gnu/pmix2
export PMIX_MCA_mca_base_component_path=$_ompi/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
export PMIX_MCA_pcompress_base_silence_warning=1
export PATH=$_ompi/usr/bin:$PATH
export LD_LIBRARY_PATH=$_ompi/usr/lib/x86_64-linux-gnu:$_ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:$_ompi/usr/lib/x86_64-linux-gnu/pmix2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# One node, shared memory: the transports above were left out.
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
unset _ompi
ENV
du -sh "$dir"
