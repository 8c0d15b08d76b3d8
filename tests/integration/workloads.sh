# Each workload briefly in a real phone-512m guest, checking that its
# figures are there and plausible: sendVec's 15 sizes, throughput's ordered
# percentiles, binder-objects' expected active counts, binder-mmap failing
# or stalling on a fragmented binder-kcalloc (its fragmenter held to the end;
# one killed mid-workload makes the trial off-target), oom-hog's memcg kills in
# memory.events, and the reaper's wake/start/finish sequence in the trace.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock binder-kcalloc || fail "building the kernels"

# metric OUTLOG NAME [LABEL-FILTER]: the values of a workload metric, one per line
metric() {
	jq -R -r "fromjson? | select(.type == \"metric\" and .name == \"$2\") ${3:-} | .value" "$1"
}

boot() {
	# boot NAME VARIANT ARGS... : a trial folder $SCRATCH/NAME
	name=$1
	shift
	"$LAB" --quiet boot "$@" > /dev/null 2> "$SCRATCH/$name.err" || {
		cat "$SCRATCH/$name.err" >&2
		fail "$name: lab boot failed"
	}
}

# --- binder-sendvec: 15 sizes from 4 to 65536, positive times
boot sendvec stock -o "$SCRATCH/sendvec" -- 'binder-sendvec --time-per-size 0.2'
out="$SCRATCH/sendvec/out.log"
sizes=$(jq -R -r 'fromjson? | select(.name == "sendvec_ns_per_rt") | .labels.size' "$out" | sort -n | tr '\n' ' ')
echo "sendvec sizes: $sizes"
check "sendVec covers 15 sizes" [ "$(echo $sizes | wc -w)" -eq 15 ]
check "from 4 to 65536 bytes" [ "$(echo $sizes | cut -d' ' -f1)" = 4 -a "$(echo $sizes | cut -d' ' -f15)" = 65536 ]
check "every round trip took a positive time" \
	[ "$(metric "$out" sendvec_ns_per_rt | awk '$1 <= 0' | wc -l)" -eq 0 ]

# --- binder-throughput: the percentiles in order
boot throughput stock -o "$SCRATCH/throughput" -- 'binder-throughput -w 4 -i 300'
out="$SCRATCH/throughput/out.log"
p50=$(metric "$out" throughput_latency_p50_ns); p90=$(metric "$out" throughput_latency_p90_ns)
p95=$(metric "$out" throughput_latency_p95_ns); p99=$(metric "$out" throughput_latency_p99_ns)
ips=$(metric "$out" throughput_iterations_per_s)
echo "throughput: $ips it/s, p50 $p50 p90 $p90 p95 $p95 p99 $p99 ns"
check "iterations per second are positive" awk "BEGIN { exit !($ips > 0) }"
check "p50 <= p90 <= p95 <= p99, all positive" \
	awk "BEGIN { exit !($p50 > 0 && $p50 <= $p90 && $p90 <= $p95 && $p95 <= $p99) }"
# a guest whose TSC calibration failed times in jiffies: a p50 of 0, a p90 of 4 ms
clocksource=$(jq -r .outcome.guest_clocksource "$SCRATCH/throughput/trial.json")
check "the guest timed with its TSC ($clocksource)" expr "$clocksource" : 'tsc' > /dev/null

# --- binder-objects: the counts it expects at hold are the kernel's
boot objects stock -o "$SCRATCH/objects" -- 'binder-objects'
out="$SCRATCH/objects/out.log"
for type in node ref death; do
	active=$(metric "$out" binder_active "| select(.labels.type == \"$type\" and .labels.when == \"hold\")" | head -1)
	expected=$(metric "$out" binder_expected_active "| select(.labels.type == \"$type\")" | head -1)
	echo "binder-objects $type at hold: active $active, expected $expected"
	check "binder stats show the expected active ${type}s" [ -n "$active" -a "$active" = "$expected" ]
done
check "slab efficiency is reported" [ -n "$(metric "$out" slab_efficiency | head -1)" ]

# --- binder-mmap on a fragmented binder-kcalloc: order-3 page arrays fail or stall
boot mmap binder-kcalloc -o "$SCRATCH/mmap" --prepare fragment -- 'binder-mmap --opens 300'
out="$SCRATCH/mmap/out.log"
check "fragment reached its target before the workload" grep -q '"name":"ready"' "$out"
bad=0
for m in mmap_enomem mmap_errors mmap_stalls mmap_openers_killed; do
	v=$(metric "$out" $m | head -1)
	echo "binder-mmap on binder-kcalloc: $m = $v"
	bad=$((bad + ${v%.*}))
done
check "binder-kcalloc under fragmentation had a failure, a stall or a killed opener" [ "$bad" -ge 1 ]
check "the fragmenter held to the end: prepare_held 1" \
	[ "$(jq '.metrics[] | select(.name == "prepare_held") | .value' "$SCRATCH/mmap/trial.json")" = 1 ]

# --- a prepare step that ends while the workload runs: the trial is off-target
boot lost stock -o "$SCRATCH/lost" --prepare 'fragment --max-pin 16M --no-pipes' -- \
	'kill -9 $(pidof fragment); sleep 1'
lost="$SCRATCH/lost/trial.json"
check "a fragmenter killed mid-workload makes the trial off-target" [ "$(jq -r .outcome.outcome "$lost")" = off-target ]
check_text "naming the signal, or that it was still exiting" "$(jq -r .outcome.detail "$lost")" \
	"the prepare step ended during the workload (\\(signal 9\\|still exiting\\)"
check "and prepare_held 0" [ "$(jq '.metrics[] | select(.name == "prepare_held") | .value' "$lost")" = 0 ]

# --- oom-hog in the memcg: oom_kill in memory.events
boot memcg stock -o "$SCRATCH/memcg" -- 'oom-hog --mode memcg --hogs 1 --kills 1'
kills=$(awk '$1 == "oom_kill" { print $2 }' "$SCRATCH/memcg/files/after/cgroup-memory.events")
echo "memory.events oom_kill after oom-hog: $kills"
check "oom-hog made at least one memcg OOM kill" [ "${kills:-0}" -ge 1 ]

# --- the reaper: a victim stuck on the slow disk; wake_reaper, start and finish in order
boot reaper stock -o "$SCRATCH/reaper" -e oom:mark_victim -e oom:wake_reaper \
	-e oom:start_task_reaping -e oom:finish_task_reaping -- 'oom-hog --mode reaper --scope memcg --disk $OOMLAB_SLOW_DISK'
script="$SCRATCH/reaper/perf.script"
check "the trace was decoded" test -s "$script"
seq=$(grep -oE 'oom:(mark_victim|wake_reaper|start_task_reaping|finish_task_reaping)' "$script" |
	uniq | head -4 | tr '\n' ' ')
echo "reaper sequence: $seq"
check "mark_victim, wake_reaper, start_task_reaping, finish_task_reaping in that order" \
	[ "$seq" = "oom:mark_victim oom:wake_reaper oom:start_task_reaping oom:finish_task_reaping " ]
