# lab run --slurm on a real one-node Slurm that this test starts on
# localhost (munged, slurmctld, slurmd from Debian's munge and slurm-wlm,
# their config and state in the scratch folder, the node as slurmd -C finds
# this machine) and stops on exit; the programs missing is a skip, a Slurm
# that does not come up a failure. An A/A experiment (stock against
# comment-only, the same code under another hash, as in verdict.sh; one short
# trial a group) is cut into 2 array tasks; shard 2's folder is broken before
# its task starts, so the task fails and lab results must name it with its
# job id and log; once mended, lab run --resume submits shard 2 alone; the
# merged run then holds every trial of each shard once with the shard's own
# metrics, and the comparison the merge job wrote is lab compare's of the two
# shard folders pooled without the merge.
# Then the same experiment until decided (at most 4 trials a variant): round
# by round, a decision job after each; it cannot decide at 4 a side and must
# stop at max_trials, its looks lab compare's on the merged run. Last, a
# sequential run whose one metric can only be equivalent: decided at the
# first look (round 3), it stops there and the merge follows.
. "$(dirname "$0")/lib.sh"

# The daemons are in /usr/sbin, which a non-login shell's PATH may lack
PATH="$PATH:/usr/sbin:/sbin"
export PATH
for p in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
	command -v "$p" > /dev/null ||
		skip "no $p here (scripts/install-deps test installs munge and slurm-wlm)"
done

SL="$SCRATCH/slurm"
mkdir -p "$SL/state" "$SL/spool" "$SL/munge"
export SLURM_CONF="$SL/slurm.conf"
# the lab's results root and store for this test alone
export OOMLAB_RESULTS="$SCRATCH/results"

# Stops what this test started, by the pids its daemons wrote: the jobs first
# (their slurmstepd and the lab under it), then slurmd, slurmctld, munged.
stop_slurm() {
	if [ -s "$SL/slurmctld.pid" ]; then
		scancel --me 2> /dev/null || true
		i=0
		while [ -n "$(squeue --noheader --me 2> /dev/null)" ] && [ $i -lt 30 ]; do
			sleep 1
			i=$((i + 1))
		done
	fi
	for d in slurmd slurmctld munge/munged; do
		[ -s "$SL/$d.pid" ] || continue
		pid=$(cat "$SL/$d.pid")
		kill "$pid" 2> /dev/null || continue
		i=0
		while kill -0 "$pid" 2> /dev/null && [ $i -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill -9 "$pid" 2> /dev/null || true
	done
	# a job step of this cluster that outlived its daemons (none should)
	for p in $(pgrep -x slurmstepd || true); do
		if tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -qx "SLURM_CONF=$SLURM_CONF"; then
			kill -9 "$p" 2> /dev/null || true
		fi
	done
}
trap 'stop_slurm; rm -rf "$SCRATCH"' EXIT

# start_failed WHAT: the programs are here, so a Slurm that does not come up
# is a failure (under CI a skip would hide it), with the daemons' logs
start_failed() {
	for f in munge/munged.log slurmctld.log slurmd.log; do
		[ -s "$SL/$f" ] && { echo "--- $SL/$f (last lines)"; tail -15 "$SL/$f"; } >&2
	done
	fail "$1"
}

# --- a one-node Slurm on localhost
head -c 1024 /dev/urandom > "$SL/munge/munge.key"
chmod 400 "$SL/munge/munge.key"
chmod 755 "$SCRATCH" "$SL" "$SL/munge"
munged --force --socket="$SL/munge/munge.sock" --key-file="$SL/munge/munge.key" \
	--pid-file="$SL/munge/munged.pid" --log-file="$SL/munge/munged.log" \
	--seed-file="$SL/munge/munged.seed" || start_failed "munged did not start"
# The node as slurmd sees this machine (CPUs, sockets, cores, threads,
# memory): a node configured with more than it finds is drained at
# registration ("Low CPUs"), so nothing is written by hand
hw=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p')
for k in CPUs= CoresPerSocket= ThreadsPerCore= RealMemory=; do
	case " $hw" in *" $k"[0-9]*) ;; *) start_failed "slurmd -C did not say $k: $(slurmd -C 2>&1)" ;; esac
done
# ports of their own, so that another Slurm on this machine is not disturbed
# (the next free pair from one that depends on this test's pid)
port=$((17000 + $$ % 2000 * 2))
while ss -Htan 2> /dev/null | awk '{ print $4 }' | grep -Eq ":($port|$((port + 1)))\$"; do
	port=$((port + 2))
	[ $port -lt 21000 ] || port=17000
done
cat > "$SLURM_CONF" <<EOF
ClusterName=oomlabtest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$SL/munge/munge.sock
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/slurmctld.log
SlurmdLogFile=$SL/slurmd.log
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MinJobAge=3600
NodeName=localhost $hw State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || start_failed "slurmctld did not start"
# -N: this node's name in slurm.conf, whatever the machine's hostname
slurmd -f "$SLURM_CONF" -N localhost || start_failed "slurmd did not start"
# Registration: slurmd registers at once and slurmctld answers within a few
# seconds (8 s here under load); 180 s bound a machine that is busy building
# kernels, and a daemon that died ends the wait at once
start=$(date +%s)
until sinfo --noheader --states=idle 2> /dev/null | grep -q localhost; do
	for d in slurmctld slurmd; do
		pid=$(cat "$SL/$d.pid" 2> /dev/null || true)
		[ -z "$pid" ] || kill -0 "$pid" 2> /dev/null || start_failed "$d died while the node registered"
	done
	node=$(scontrol show node localhost 2>&1 | grep -E 'State=|Reason=' | tr -s ' \n' ' ')
	# refused at registration (slurm.conf and the machine disagree): no wait helps
	case "$node" in *INVAL* | *DRAIN*) start_failed "slurmctld refused the node: $node" ;; esac
	[ $(( $(date +%s) - start )) -lt 180 ] || start_failed "the Slurm node was not idle after 180 s: $node"
	sleep 1
done
echo "ok - a one-node Slurm runs on localhost ($(sinfo --version), $(( $(date +%s) - start )) s to register, $hw)"

# check_log LOG "description" command...: check, with LOG printed first when
# the check fails (a job's log says why what it should have made is missing)
check_log() {
	_log=$1
	_desc=$2
	shift 2
	if "$@"; then
		echo "ok - $_desc"
	else
		echo "--- $_log" >&2
		cat "$_log" >&2 || true
		fail "$_desc"
	fi
}

# same_as_shards RUN: prints what the merged RUN holds otherwise than its
# shards' own trial.json files say (nothing when every trial of every shard
# is in RUN once, with the same outcome and metrics, and RUN has no other)
same_as_shards() {
	n=0
	for t in "$1.slurm"/shard-*/*/[0-9]*/trial.json; do
		[ -e "$t" ] || continue
		rel=$(basename "$(dirname "$(dirname "$t")")")/$(basename "$(dirname "$t")")
		n=$((n + 1))
		if [ ! -s "$1/$rel/trial.json" ]; then
			echo "$rel: not in the merged run"
		elif [ "$(jq -S -c '[.outcome.outcome, .metrics]' "$t")" != \
			"$(jq -S -c '[.outcome.outcome, .metrics]' "$1/$rel/trial.json")" ]; then
			echo "$rel: not the shard's outcome and metrics"
		fi
	done
	m=$(ls -d "$1"/*/[0-9]* 2> /dev/null | wc -l)
	[ "$m" -eq "$n" ] || echo "the merged run has $m trials, the shards $n"
	[ "$n" -gt 0 ] || echo "the shards have no trial"
}

# wait_jobs WHAT: until no job of this cluster is queued or running but those
# waiting on a failed one (at most 900 s: a job may wait on a kernel build);
# prints how long WHAT took
wait_jobs() {
	i=0
	waited_from=$(date +%s)
	while squeue --noheader --me --format='%i %T %r' | grep -qv DependencyNeverSatisfied; do
		[ $i -lt 900 ] || fail "the jobs did not end in 900 s: $(squeue --me)"
		sleep 2
		i=$((i + 2))
	done
	echo "$1: $(( $(date +%s) - waited_from )) s"
}

# wait_sequential RUN WHAT: wait_jobs for a sequential run, then its looks
# and lab results shown, and no job left
wait_sequential() {
	wait_jobs "$2"
	jq -c .sequential "$1.slurm/slurm.json"
	"$LAB" results "$1" 2>&1 | sed -n '1,12p'
	check "no job is left in the queue" [ -z "$(squeue --noheader --me)" ]
}

# --- bad combinations are refused before anything is submitted
export OOMLAB_VARIANT_PATH="$ROOT/tests/variants"
cat > "$SCRATCH/aa.conf" <<'EOF'
description = Slurm test: stock against comment-only (A/A: the same code), a short spawn workload
variants = stock comment-only
profile = tiny-256m
trials = 1
trial_timeout = 180
clock = realtime
metrics = trial_ok spawn.spawn_per_s
workload = spawn -n 50
EOF
set +e
"$LAB" run -x "$SCRATCH/aa.conf" --slurm --shard 1/2 -o "$SCRATCH/no" 2> "$SCRATCH/no.err"
s1=$?
"$LAB" run -x "$SCRATCH/aa.conf" --slurm-shards 2 -o "$SCRATCH/no" 2>> "$SCRATCH/no.err"
s2=$?
"$LAB" run -x "$SCRATCH/aa.conf" --slurm --slurm-shards 3 -o "$SCRATCH/no" 2>> "$SCRATCH/no.err"
s3=$?
set -e
cat "$SCRATCH/no.err"
check "--slurm with --shard is refused (exit 2)" [ "$s1" -eq 2 ]
check "--slurm-shards without --slurm is refused (exit 2)" [ "$s2" -eq 2 ]
check "more shards than trials are refused (exit 2)" [ "$s3" -eq 2 ]
check "one line each" [ "$(wc -l < "$SCRATCH/no.err")" -eq 3 ]
check "nothing was submitted" [ -z "$(squeue --noheader --me)" ]

# --- submitted with the partition down, so that shard 2 can be broken first
scontrol update PartitionName=debug State=DOWN
RUN="$SCRATCH/run"
"$LAB" run -x "$SCRATCH/aa.conf" --slurm --slurm-shards 2 -o "$RUN" > "$SCRATCH/submit.out" 2> "$SCRATCH/submit.err" ||
	fail "lab run --slurm: $(cat "$SCRATCH/submit.err")"
cat "$SCRATCH/submit.out" "$SCRATCH/submit.err"
check "the merged run is not there yet" [ ! -e "$RUN" ]
for f in build.sh shards.sh merge.sh slurm.json shard-1/run.json shard-2/run.json; do
	check "$RUN.slurm/$f was written" test -s "$RUN.slurm/$f"
done
check "three jobs were submitted: build, shards, merge" \
	[ "$(jq '.submissions[0] | [.build, .shards, .merge] | map(select(. != null)) | length' "$RUN.slurm/slurm.json")" -eq 3 ]
check_text "a realtime run is told about node types" "$(cat "$SCRATCH/submit.err")" "one node type"
# the two shards are the design: 2 groups x 1 trial, every trial in one shard
both=$(jq -s -c '[.[].order[] | "\(.label)/\(.index)"] | sort' "$RUN.slurm/shard-1/run.json" "$RUN.slurm/shard-2/run.json")
check "the shards hold every trial of the design once ($both)" \
	[ "$both" = '["comment-only/0","stock/0"]' ]
check "both shards have the run's clock" \
	[ "$(jq -s -r 'map(.clock.name) | unique | join(",")' "$RUN.slurm"/shard-*/run.json)" = realtime ]
cp "$RUN.slurm/shard-2/run.json" "$SCRATCH/shard2.json"
echo '{"broken":' > "$RUN.slurm/shard-2/run.json"
scontrol update PartitionName=debug State=UP
wait_jobs "first submission"

ARRAY=$(jq -r '.submissions[0].shards' "$RUN.slurm/slurm.json")
"$LAB" results "$RUN" > "$SCRATCH/progress.out" 2> "$SCRATCH/progress.err" || fail "lab results on the Slurm run"
cat "$SCRATCH/progress.out" "$SCRATCH/progress.err"
progress=$(cat "$SCRATCH/progress.out" "$SCRATCH/progress.err")
check_text "shard 1 ran its trial" "$progress" "shard 1/2 *${ARRAY}_1 *COMPLETED.*: 1/1 trials finished"
check_text "shard 2's task is named failed with its job id" "$progress" \
	"failed: shard 2/2: Slurm job ${ARRAY}_2, FAILED (exit 2)"
check_text "and its log" "$progress" "log $RUN.slurm/logs/shards-${ARRAY}_2.log"
check "that log says what was wrong" grep -q "shard-2: run.json:[0-9]*: " "$RUN.slurm/logs/shards-${ARRAY}_2.log"
check_text "the merge waits on it for ever" "$progress" "merge .*PENDING (DependencyNeverSatisfied)"
check_text "the trials finished are counted" "$progress" "trials: 1 of 2 finished"
check_text "the CPU the shards ran on is named" "$progress" "ran on one CPU model"
stat -c %Y "$RUN.slurm"/shard-1/*/*/trial.json > "$SCRATCH/shard1.mtimes"

# --- mended and resumed: shard 2 alone is submitted again
cp "$SCRATCH/shard2.json" "$RUN.slurm/shard-2/run.json"
"$LAB" run --resume "$RUN" > "$SCRATCH/resume.out" 2> "$SCRATCH/resume.err" ||
	fail "lab run --resume on the Slurm run: $(cat "$SCRATCH/resume.err")"
cat "$SCRATCH/resume.err"
check_text "the merge that could never start was cancelled" "$(cat "$SCRATCH/resume.err")" "cancelled job"
check "the resubmitted array has shard 2 alone" \
	[ "$(jq -c '.submissions[1].tasks' "$RUN.slurm/slurm.json")" = "[2]" ]
wait_jobs "second submission"
check "no job is left in the queue" [ -z "$(squeue --noheader --me)" ]

# --- the merged run against the design
MERGE=$(jq -r '.submissions[1].merge' "$RUN.slurm/slurm.json")
check_log "$RUN.slurm/logs/merge-$MERGE.log" "the merge job merged the run" test -s "$RUN/run.json"
# the merge against what it did not make: the shards' own trials, and lab
# compare pooling the two shard folders itself (no merged folder between)
diffs=$(same_as_shards "$RUN")
check "the merged run has every trial of each shard once, with the shard's metrics${diffs:+ ($diffs)}" \
	[ -z "$diffs" ]
"$LAB" compare "$RUN.slurm/shard-1" "$RUN.slurm/shard-2" > "$SCRATCH/shards.txt" 2> /dev/null ||
	fail "lab compare on the two shards"
# the same table under a first line that counts the runs ("2 trials in 1 run")
check "the merge job's comparison is of 2 trials in 1 run" \
	grep -q ", 2 trials in 1 run\$" "$RUN/comparison.txt"
tail -n +2 "$RUN/comparison.txt" > "$SCRATCH/merged-table.txt"
tail -n +2 "$SCRATCH/shards.txt" > "$SCRATCH/shards-table.txt"
check "and its table is lab compare's of the two shards' trials, pooled without the merge" \
	diff -u "$SCRATCH/merged-table.txt" "$SCRATCH/shards-table.txt"
check "shard 1's trials were not run again" \
	[ "$(stat -c %Y "$RUN.slurm"/shard-1/*/*/trial.json)" = "$(cat "$SCRATCH/shard1.mtimes")" ]
trials=$(for t in "$RUN"/*/[0-9]*; do echo "$(basename "$(dirname "$t")")/$(basename "$t")"; done | sort | tr '\n' ' ')
check "every trial of the design is in the merged run once ($trials)" \
	[ "$trials" = "comment-only/000 stock/000 " ]
check "the merged order has each trial once" \
	[ "$(jq '[.order[] | "\(.label)/\(.index)"] | unique | length' "$RUN/run.json")" -eq 2 ]
for t in "$RUN"/*/[0-9]*/trial.json; do
	check "$t is ok" [ "$(jq -r .outcome.outcome "$t")" = ok ]
done
check "the merged run keeps its clock" [ "$(jq -r .clock.name "$RUN/run.json")" = realtime ]
check "the merge job wrote the report" test -s "$RUN/report.html"
"$LAB" compare "$RUN" --format json > "$SCRATCH/compare.json" 2> /dev/null
check "the comparison has one trial a side" \
	[ "$(jq '[.rows[] | select(.metric == "trial_ok")][0] | [.baseline_stats.n, .variant_stats.n] == [1, 1]' "$SCRATCH/compare.json")" = true ]
"$LAB" results "$RUN" > "$SCRATCH/done.out" 2>&1 || fail "lab results on the merged Slurm run"
check_text "lab results counts every trial" "$(cat "$SCRATCH/done.out")" "trials: 2 of 2 finished"
check_text "and shows the merged run" "$(cat "$SCRATCH/done.out")" "2/2 trials ok"

# --- a sequential run goes round by round: the first jobs run to the first
# look, a decision job after each round judges the merged shards and submits
# the next round or the merge
SEQ="$SCRATCH/seq"
"$LAB" run -x "$SCRATCH/aa.conf" --until-decided --max-trials 4 --slurm --slurm-shards 2 -o "$SEQ" \
	> "$SCRATCH/seq.out" 2> "$SCRATCH/seq.err" || fail "lab run --slurm --until-decided: $(cat "$SCRATCH/seq.err")"
cat "$SCRATCH/seq.err"
check "the first jobs run to the first look (round 3)" \
	[ "$(jq '.submissions[0].rounds' "$SEQ.slurm/slurm.json")" -eq 3 ]
check "a decision job follows them" [ "$(jq -r '.submissions[0].decide' "$SEQ.slurm/slurm.json")" != null ]
wait_sequential "$SEQ" "sequential run"
check_log "$SEQ.slurm/logs/merge-$(jq -r '.submissions[-1].merge' "$SEQ.slurm/slurm.json").log" \
	"the merge job merged the sequential run" test -s "$SEQ/run.json"
last=$(jq '.sequential.looks[-1].round' "$SEQ.slurm/slurm.json")
then=$(jq -r '.sequential.looks[-1].then' "$SEQ.slurm/slurm.json")
check "a look after every round from the third to the last ($last)" \
	[ "$(jq -c '[.sequential.looks[].round]' "$SEQ.slurm/slurm.json")" = "$(seq 3 "$last" | jq -s -c .)" ]
# 4 a side cannot decide a row (the lab warns so at submission): a run
# that stopped "decided" would have claimed what its data cannot give
check "the run, which cannot decide at 4 a side, stopped at max_trials after round 4 ($then)" \
	[ "$then" = "stop: max_trials" -a "$last" -eq 4 ]
want=$(for g in comment-only stock; do for i in $(seq 0 $((last - 1))); do printf '%s/%03d ' $g $i; done; done)
got=$(for t in "$SEQ"/*/[0-9]*; do echo "$(basename "$(dirname "$t")")/$(basename "$t")"; done | sort | tr '\n' ' ')
check "the merged run has every trial of rounds 1..$last once, none after ($got)" [ "$got" = "$want" ]
"$LAB" compare "$SEQ" --format json > "$SCRATCH/seq.json" 2> /dev/null || fail "lab compare on the sequential run"
rows=$(jq '.rows | length' "$SCRATCH/seq.json")
decided=$(jq '[.rows[] | select(.verdict == "better" or .verdict == "worse" or .verdict == "differs" or .verdict == "equivalent")] | length' "$SCRATCH/seq.json")
check "the last look's rows are lab compare's ($rows)" [ "$rows" -eq "$(jq '.sequential.looks[-1].rows' "$SEQ.slurm/slurm.json")" ]
check "and so are its decided rows, none ($decided)" [ "$decided" -eq 0 -a "$(jq '.sequential.looks[-1].decided' "$SEQ.slurm/slurm.json")" -eq 0 ]

# --- a sequential run decided at its first look: its one headline metric is a
# figure a program of the test's prints, 100000 ns plus 0 to 9 ns, so that
# the two groups can only be equivalent within 2%. The decision job after
# round 3 stops the run; no round 4 is submitted; the merge follows that look.
# It cannot fail for want of data: the figures span at most 0.009% (on the
# logs at most 9.0e-5, so a group's sd at most 5.2e-5 and the standard error
# at most 4.2e-5), so even at a one-sided level of 1e-4, stricter than any
# look's, the difference's interval at 3 a side (Student's t with at least 2
# df: 70.7) lies within +-0.31%, far inside the 2%. What can fail it is a
# trial that does not end ok, as anywhere else in this test.
mkdir -p "$SCRATCH/tight"
cat > "$SCRATCH/tight/tight" <<'EOF'
#!/bin/sh
r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')
echo "{\"type\":\"metric\",\"name\":\"figure_ns\",\"value\":$((100000 + r % 10)),\"unit\":\"ns\"}"
EOF
chmod 755 "$SCRATCH/tight/tight"
cat > "$SCRATCH/tight.conf" <<'EOF'
description = Slurm test: a sequential A/A run decided at its first look (tight figures, equivalent)
variants = stock comment-only
profile = tiny-256m
trials = 1
trial_timeout = 180
clock = realtime
files = tight
workload = tight
metrics = tight.figure_ns
equivalence = 2%
EOF
DEC="$SCRATCH/decided"
"$LAB" run -x "$SCRATCH/tight.conf" --until-decided --max-trials 4 --slurm --slurm-shards 2 -o "$DEC" \
	> "$SCRATCH/dec.out" 2> "$SCRATCH/dec.err" || fail "lab run --slurm --until-decided (tight): $(cat "$SCRATCH/dec.err")"
cat "$SCRATCH/dec.err"
wait_sequential "$DEC" "sequential run (tight figures)"
looks=$(jq -c '[.sequential.looks[] | [.round, .decided, .rows, .then]]' "$DEC.slurm/slurm.json")
check "one look, after round 3, decided its row and stopped the run ($looks)" \
	[ "$looks" = '[[3,1,1,"stop: decided"]]' ]
check "no round after it was submitted" \
	[ "$(jq -c '[.submissions[] | .rounds]' "$DEC.slurm/slurm.json")" = '[3,3]' ]
got=$(for t in "$DEC.slurm"/shard-*/*/[0-9]*; do echo "$(basename "$(dirname "$t")")/$(basename "$t")"; done | sort | tr '\n' ' ')
check "the shards ran rounds 1..3 alone ($got)" \
	[ "$got" = "comment-only/000 comment-only/001 comment-only/002 stock/000 stock/001 stock/002 " ]
DECIDE=$(jq -r '.submissions[0].decide' "$DEC.slurm/slurm.json")
MERGE=$(jq -r '.submissions[1].merge' "$DEC.slurm/slurm.json")
check "the look's decision job submitted the merge, after round 3 and nothing else" \
	[ "$DECIDE" != null -a "$MERGE" != null -a "$(jq -c '.submissions[1] | [.build, .shards, .tasks, .rounds]' "$DEC.slurm/slurm.json")" = '[null,null,[],3]' ]
check_log "$DEC.slurm/logs/merge-$MERGE.log" "and it merged the run" test -s "$DEC/run.json"
newest=$(ls -t "$DEC.slurm"/shard-*/*/[0-9]*/trial.json | head -1)
check "and ended after the last trial of round 3 ($newest)" [ "$DEC.slurm/status/$MERGE" -nt "$newest" ]
check "both ended well" \
	[ "$(cat "$DEC.slurm/status/$DECIDE" "$DEC.slurm/status/$MERGE" | grep -c '^exit=0$')" -eq 2 ]
diffs=$(same_as_shards "$DEC")
check "the merged run has every trial of each shard once${diffs:+ ($diffs)}" [ -z "$diffs" ]
"$LAB" compare "$DEC" --format json > "$SCRATCH/dec.json" 2> /dev/null || fail "lab compare on the decided run"
echo "figures: $(cat "$DEC"/*/[0-9]*/trial.json | jq -r '.metrics[] | select(.name == "tight.figure_ns") | .value' | tr '\n' ' ')"
row=$(jq -c '.rows[] | select(.metric == "tight.figure_ns") | [.verdict, .baseline_stats.n, .variant_stats.n, .eq_lo, .eq_hi, .margin]' "$SCRATCH/dec.json")
check "lab compare of the merged run calls the row equivalent, 3 a side, as the look did ($row)" \
	[ "$(jq '[.rows[] | select(.metric == "tight.figure_ns" and .verdict == "equivalent" and .baseline_stats.n == 3 and .variant_stats.n == 3)] | length' "$SCRATCH/dec.json")" -eq 1 ]
