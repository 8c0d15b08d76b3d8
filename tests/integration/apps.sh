# The apps workload on the stock kernel: apps that come and go on a small
# machine, killed by the kernel's OOM killer when their working sets do not
# fit the workload cgroup. Two trials with the same seed on tiny-256m (its
# workload cgroup: 160 MiB, no swap), where 6 apps of 28 MiB anonymous and
# 4 MiB of file pages each overfill the cgroup (168 MiB of anonymous memory
# alone; with 24 MiB each no app was killed): the OOM killer takes the
# cached apps (adj 900+), and bringing one back is a cold start. Seed 9:
# its 14 switches bring every app but the launcher back to the front (seed
# 7's, since the launcher and the home visits came in, never app 1, the
# oldest cached app and so the first victim: no cold start came back).
# Checks: the workload's metrics are in trial.json; every cold start it
# counted is a task_rename to app-NN in the trace (apps_cold_starts_trace);
# deaths were counted; the switch sequence is the same in both trials; the
# report draws the apps' timeline and the Perfetto export has a lane per
# app. And a working set larger than the profile's memory is refused with
# the experiment's file:line before any boot.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building the kernel"

mkdir -p "$SCRATCH/exp"
cat > "$SCRATCH/exp/apps.conf" <<'EOF'
description = apps that come and go, killed by the kernel's OOM killer
variants = stock
profile = tiny-256m
trials = 2
jobs = 1
clock = realtime
trial_timeout = 240
workload = apps --apps 6 --anon 28M --file 4M --switches 14 --interval 200ms --seed 9
metrics = apps.cold_starts apps.deaths
EOF
RUN="$SCRATCH/run"
"$LAB" run -x "$SCRATCH/exp/apps.conf" -o "$RUN" > "$SCRATCH/run.out" 2> "$SCRATCH/run.err" || {
	cat "$SCRATCH/run.err" >&2
	fail "lab run"
}

sequences=""
for t in "$RUN"/stock/*/; do
	t=${t%/}
	out="$t/out.log"
	for m in apps.switches apps.cold_starts apps.warm_starts apps.deaths apps.cold_launch_p50_ms \
		apps.alive_mean apps.binder_mmap_failures apps_cold_starts_trace; do
		v=$(metric_of "$t/trial.json" $m)
		echo "ok - $(basename "$t"): $m is in trial.json ($v)"
	done
	# the cold starts as the workload's events tell them: every cold launch that forked
	cold_events=$(jq -R -r 'fromjson? | select(.workload == "apps" and .name == "app-launch" and .kind == "cold" and .pid > 0) | .app' "$out" | wc -l)
	cold=$(metric_of "$t/trial.json" apps.cold_starts)
	trace=$(metric_of "$t/trial.json" apps_cold_starts_trace)
	lost=$(jq -r .lost_events "$t/trial.json")
	echo "$(basename "$t"): cold starts $cold (events $cold_events), trace $trace, perf lost $lost"
	check "the cold-start events are the count the workload reported" [ "$cold_events" = "${cold%.*}" ]
	# Each cold start forks an app that names itself app-NN first thing
	# (apps.c: app_main), at the system server's oom_score_adj of -1000,
	# which no OOM kill can take before it renames itself; nothing else
	# takes that name. So the trace has exactly one rename a cold start,
	# less only those perf lost (every lost event is counted in
	# lost_events), and never more: with no event lost the two are equal,
	# otherwise cold - lost <= trace <= cold. The bound follows from the
	# workload's code; its false-failure rate is 0, where the old "no event
	# lost in the whole trial" failed whenever perf dropped any event.
	check "lost_events is a count ($lost)" [ "$lost" -ge 0 ]
	check "the trace saw each cold start as a rename to app-NN, short only by the events perf lost ($trace of $cold, lost $lost)" \
		[ "${trace%.*}" -le "${cold%.*}" -a "${trace%.*}" -ge $(( ${cold%.*} - lost )) ]
	deaths=$(metric_of "$t/trial.json" apps.deaths)
	kills=$(metric_of "$t/trial.json" oom_kills)
	cached=$(metric_of "$t/trial.json" apps.deaths.tier=cached)
	echo "$(basename "$t"): deaths $deaths (cached $cached), OOM kills $kills"
	check "apps died, and were counted" [ "${deaths%.*}" -ge 1 ]
	check "the kernel's OOM kills took them" [ "${kills%.*}" -ge 1 ]
	check "a death in out.log names its signal and tier" \
		[ "$(jq -R -r 'fromjson? | select(.name == "app-death" and .signal == 9) | .tier' "$out" | head -1)" != "" ]
	check "more cold starts than apps: killed ones came back cold" [ "${cold%.*}" -gt 6 ]
	seq=$(jq -R -r 'fromjson? | select(.workload == "apps" and .name == "app-switch") | "\(.step) \(.app) \(.tier) \(.prev_visible)"' "$out" | tr '\n' ';')
	check "the sequence has the 6 openings and the 14 switches" [ "$(echo "$seq" | tr ';' '\n' | grep -c .)" -eq 20 ]
	sequences="$sequences$seq
"
done
check "two trials ran" [ "$(printf '%s' "$sequences" | grep -c .)" -eq 2 ]
check "the same seed gave the same switches in both trials" \
	[ "$(printf '%s' "$sequences" | sort -u | grep -c .)" -eq 1 ]

"$LAB" report "$RUN" -o "$SCRATCH/report.html" > /dev/null 2>&1 || fail "lab report"
check "the report draws the apps' timeline" grep -q 'Apps over trial' "$SCRATCH/report.html"
"$LAB" export "$RUN" --format perfetto -o "$SCRATCH/traces" > /dev/null 2>&1 || fail "lab export"
trace_json=$(ls "$SCRATCH"/traces/stock/*.trace.json | head -1)
# the apps' lanes, in their own process (the export's first synthetic pid + 3), not the apps' threads
apps_pid=10000003
lanes=$(jq --argjson p $apps_pid '[.traceEvents[] | select(.pid == $p and .ph == "M" and .name == "thread_name")] | length' "$trace_json")
check "the Perfetto export has a lane per app ($lanes)" [ "$lanes" -eq 6 ]
check "with cold starts on them" \
	[ "$(jq --argjson p $apps_pid '[.traceEvents[] | select(.pid == $p and .ph == "X" and .name == "cold start")] | length' "$trace_json")" -gt 6 ]

# a working set larger than the machine: one line naming the file:line, exit 2, no boot
cat > "$SCRATCH/exp/too-big.conf" <<'EOF'
description = more app memory than the machine has
variants = stock
profile = phone-512m
trials = 1
workload = apps --apps 10 --anon 64M
EOF
set +e
"$LAB" run -x "$SCRATCH/exp/too-big.conf" -o "$SCRATCH/too-big" > "$SCRATCH/big.out" 2> "$SCRATCH/big.err"
rc=$?
set -e
cat "$SCRATCH/big.err"
check "a working set above the profile's memory: exit 2" [ "$rc" -eq 2 ]
check_text "naming the experiment's file:line" "$(cat "$SCRATCH/big.err")" 'too-big.conf:5'
check_text "and the sizes" "$(cat "$SCRATCH/big.err")" '720 MiB is more than the guest.s memory (512 MiB)'
check "in one line" [ "$(wc -l < "$SCRATCH/big.err")" -eq 1 ]
check "before any boot: no trial folder" [ ! -d "$SCRATCH/too-big/stock" ]
