#!/bin/sh
# SPDX-License-Identifier: MIT
# a one-node Slurm cluster on this machine (munge, slurmctld and slurmd started here, as root),
# then the batch script of docs/mpi.md run through it twice: ranks started by `srun --mpi=pmix`
# and by `mpirun` inside the allocation; each run's result digests must equal the experiments' references
# (`touche check`). A manual check (CI has no Slurm): needs `apt-get install slurm-wlm munge`.
# usage: sh tools/slurm_check.sh [OUTDIR] [EXPERIMENT...]   (defaults: /tmp/touche-slurm, e5 e6)
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
out=${1:-/tmp/touche-slurm}
[ $# -eq 0 ] || shift
[ $# -gt 0 ] || set -- e5 e6
for p in slurmctld slurmd sbatch munged; do
    command -v $p >/dev/null 2>&1 || { echo "slurm_check: no $p (apt-get install slurm-wlm munge)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "slurm_check: starts the Slurm and munge daemons: run as root" >&2; exit 2; }
[ -x build/touche ] || { echo "slurm_check: no build/touche (ninja -C build)" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/spool/ctld" "$out/spool/d" /run/munge
node=$(hostname -s)
cpus=$(nproc)

# the cluster: this machine as its one node, everything under OUTDIR but munge's key
export SLURM_CONF="$out/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=touche
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$out/spool/ctld
SlurmdSpoolDir=$out/spool/d
SlurmctldPidFile=$out/slurmctld.pid
SlurmdPidFile=$out/slurmd.pid
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldLogFile=$out/slurmctld.log
SlurmdLogFile=$out/slurmd.log
NodeName=$node CPUs=$cpus State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
# munge authenticates the daemons to each other: its key comes with the package
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    chown munge:munge /run/munge 2>/dev/null || true
    su -s /bin/sh munge -c /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force
fi
slurmctld
slurmd
trap 'kill $(cat "$out/slurmd.pid" "$out/slurmctld.pid" 2>/dev/null) 2>/dev/null || true' EXIT
# wait for the node to come up
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    [ $i -lt 30 ] || { echo "slurm_check: the node did not come up ($out/slurmd.log)" >&2; exit 1; }
    sleep 1
done

# the batch script of docs/mpi.md, one rank per core, one thread each, with each launcher
fail=0
for launch in "srun --mpi=pmix" "mpirun"; do
    tag=$(echo "$launch" | cut -d' ' -f1)
    cat > "$out/job-$tag.sh" <<EOF
#!/bin/sh
#SBATCH --job-name=touche-check
#SBATCH --nodes=1
#SBATCH --ntasks=$cpus
#SBATCH --cpus-per-task=1
#SBATCH --output=$out/job-$tag.log
export OMP_NUM_THREADS=\$SLURM_CPUS_PER_TASK TOUCHE_NO_PROGRESS=1 TOUCHE_SOURCE_DIR=$root
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$launch $root/build/touche run $* --tier quick --threads \$SLURM_CPUS_PER_TASK --out $out/out-$tag
EOF
    sbatch --wait "$out/job-$tag.sh" >/dev/null || true
    grep -h "split over\|done in" "$out/job-$tag.log" | sed "s/^/$tag: /"
    if ./build/touche check --out "$out/out-$tag" > "$out/check-$tag.log" 2>&1; then
        echo "$tag: $(grep 'result digests' "$out/check-$tag.log")"
    else
        echo "$tag: FAILED (job log $out/job-$tag.log, check $out/check-$tag.log)"
        fail=1
    fi
done
exit $fail
