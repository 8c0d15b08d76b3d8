# What the kernel did, from its own instrumentation: an oom-hog trial's kill
# agrees across memory.events, /proc/vmstat, the kernel log and the trace; on
# a fragmented phone, the workload window's reclaim and compaction stalls
# counted by vmstat lie within the bounds the trace's own calls and attempts
# set them (the kernel's counting, the window's edges, the events lost); the
# reaper wakes about 2 s after mark_victim on stock and at once on
# oom-reaper-nodelay (in guest time: clock icount); a trial that panics
# keeps its trace metrics and is marked partial.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock oom-reaper-nodelay || fail "building the kernels"

value() {
	# value TRIAL.JSON METRIC
	jq -r --arg n "$2" '[.metrics[] | select(.name == $n) | .value][0] // "none"' "$1"
}

"$LAB" --quiet boot stock --perf -o "$SCRATCH/memcg" -- 'oom-hog --mode memcg --hogs 1 --kills 1' \
	> /dev/null || fail "the oom-hog trial"
t="$SCRATCH/memcg/trial.json"
for src in memory_events vmstat kmsg trace; do
	v=$(value "$t" oom_kills_$src)
	echo "oom kills by $src: $v"
	check "$src saw the OOM kill" [ "$v" != none ] && check "$src counts at least one" [ "${v%.*}" -ge 1 ]
done
check "the four sources agree" [ "$(value "$t" oom_kills_memory_events)" = "$(value "$t" oom_kills_trace)" \
	-a "$(value "$t" oom_kills_vmstat)" = "$(value "$t" oom_kills_kmsg)" \
	-a "$(value "$t" oom_kills_vmstat)" = "$(value "$t" oom_kills_trace)" ]
check "the kill was a memcg kill" [ "$(value "$t" oom_kills_memcg)" = 1 ]
check "the victim is recorded with its rss" [ "$(jq '.victims[0].anon_rss_kb > 0' "$t")" = true ]
check "memcg reclaim stalls were paired" [ "$(value "$t" memcg_reclaim_stall_count)" != none ]
check "lost events are counted" [ "$(jq '.lost_events' "$t")" != null ]

# The stall window: one window, two sources. binder-mmap on a fragmented
# phone-512m stalls in direct compaction (the page array is order 3). Now
# and then a boot finds its order-3 blocks without one stall (0 once here,
# against 14-211 in eight others), which leaves nothing to count: up to
# ten boots, until one has stalled. 1 miss in 9 boots is all that was seen,
# so the rate of a miss is only known to be under 0.48 (the one-sided 97.5%
# Clopper-Pearson bound for 1 of 9); at that rate ten boots all miss 6.8e-4
# of the time, four (as before) 0.054. Boots after the first cost only
# when one missed. (600 opens stall every time, but take far longer; the
# direct-reclaim counts part there too, 2013 against 1902 with no event
# lost: the kernel's retries, below.) A metric absent ends the loop, and
# the checks below fail on it.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
	rm -rf "$SCRATCH/window"
	"$LAB" --quiet boot stock --perf --prepare fragment -o "$SCRATCH/window" -- 'binder-mmap --opens 150' \
		> /dev/null || fail "the fragmented binder-mmap trial"
	t="$SCRATCH/window/trial.json"
	[ "$(value "$t" workload_compaction_stalls_vmstat)" != 0 ] && break
	echo "boot $attempt of the stall window saw no compaction stall; booting again"
done
lost=$(jq '.lost_events' "$t")
window=$(value "$t" workload_window_s)
echo "workload window ${window} s, perf lost $lost events"
check "the trial has a workload window" [ "$window" != none ]
check "perf's lost events are a count ($lost)" [ "$lost" -ge 0 ]
# What each source counts, and so how far apart they may be (6.12):
# - vmstat's allocstall_* counts each pass of do_try_to_free_pages()
#   outside a cgroup; a direct reclaim call (one
#   mm_vmscan_direct_reclaim_begin, one _end) that reclaims nothing in a
#   pass retries it, at most three times (memcg_full_walk,
#   skipped_deactivate, memcg_low_skipped: mm/vmscan.c). So a call is 1 to
#   4 counts, and at least 2 when it returned 0 (the memcg_full_walk retry
#   comes first). This is why vmstat ran above the trace with no event
#   lost (2045 against 1618 once, 21% apart): retries, not lost events.
# - vmstat's compact_stall counts a direct compaction attempt
#   (mm_compaction_try_to_compact_pages) once, after it returns, unless it
#   was skipped; a deferral, a suitable zone or compact_zone() running
#   (mm_compaction_begin) means it was not. The attempt has returned by the
#   thread's next allocation step (its next attempt, a direct reclaim, a
#   high-order page allocation or its exit).
# - The agent reads /proc/vmstat at each edge between read_begin_mono_ns
#   (A) and read_mono_ns (B) (ctl.jsonl); the trace's counts run from one
#   B to the other.
# So, from the trace alone: vmstat counts at least the calls and attempts
# that began after the start's B and were done before the end's A (1 each;
# a reclaim that returned 0, 2), and at most those in progress at any time
# from the start's A to the end's B (4 a reclaim call, 1 an attempt), plus
# what the events perf lost could hide (4 and 1 each). The trace's own
# compaction count lies within the same bounds, and its reclaim count is
# the calls that began between the two B. These bounds follow from the
# kernel's code and the agent's time stamps, not from how busy the guest
# was: false-failure rate 0 (the one way round it: an interrupt's own
# high-order allocation inside an attempt that straddles an edge, which
# would end the attempt early in the trace's reading).
edges=$(jq -r 'select(.type == "window") | "\(.edge) \(.read_begin_mono_ns) \(.read_mono_ns)"' "$SCRATCH/window/ctl.jsonl" |
	tr '\n' ' ')
echo "window edges (edge, read begun, read done): $edges"
set -- $edges
check "ctl.jsonl has both edges, each with its read's two times" \
	[ "$#" -eq 6 -a "$1" = start -a "$4" = end -a "$2" != null -a "$3" != null -a "$5" != null -a "$6" != null ]
cat > "$SCRATCH/bounds.awk" <<'AWK'
function ns(tok, p) { sub(/:$/, "", tok); split(tok, p, "."); return p[1] * 1000000000 + p[2] }
# a direct reclaim call from B to E (1e30: no end seen) that reclaimed R (-1: unknown)
function reclaim(b, e, r) {
	if (b < Be && e > As) dr_up += 4
	if (b > Bs && e < Ae) dr_lo += (r == 0 ? 2 : 1)
}
# a direct compaction attempt from B to the thread's next step N, with compact_zone() run or not
function attempt(b, n, ran) {
	if (b < Be && n > As) c_up++
	if (b > Bs && n < Ae && ran) c_lo++
}
{
	at = 0
	for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { at = i; break }
	if (!at) next
	t = ns($at); split($(at - 2), pt, "/"); tid = pt[2]; ev = $(at + 1)
	if (ev == "vmscan:mm_vmscan_direct_reclaim_begin:") {
		if (t >= Bs && t <= Be) dr_tr++
		if (tid in rb) reclaim(rb[tid], 1e30, -1)
		rb[tid] = t
	} else if (ev == "vmscan:mm_vmscan_direct_reclaim_end:") {
		r = -1
		for (i = at + 2; i <= NF; i++) if ($i ~ /^nr_reclaimed=/) r = substr($i, 14) + 0
		if (tid in rb) { reclaim(rb[tid], t, r); delete rb[tid] }
		else if (t > As) dr_up += 4
	}
	if (ev == "compaction:mm_compaction_try_to_compact_pages:" || ev == "vmscan:mm_vmscan_direct_reclaim_begin:" ||
	    ev == "kmem:mm_page_alloc:" || ev == "sched:sched_process_exit:") {
		if (tid in cb) { attempt(cb[tid], t, ran[tid]); delete cb[tid] }
		if (ev == "compaction:mm_compaction_try_to_compact_pages:") { cb[tid] = t; ran[tid] = 0 }
	} else if ((tid in cb) && (ev == "compaction:mm_compaction_begin:" || ev == "compaction:mm_compaction_deferred:" ||
				  (ev == "compaction:mm_compaction_suitable:" && $0 !~ / ret=(skipped|not_suitable_zone)/)))
		ran[tid] = 1
}
END {
	for (tid in rb) reclaim(rb[tid], 1e30, -1)
	for (tid in cb) attempt(cb[tid], 1e30, ran[tid])
	dr_up += 4 * lost; c_up += lost; c_lo -= lost
	printf "%d %d %d %d %d\n", dr_tr, dr_lo, dr_up, (c_lo > 0 ? c_lo : 0), c_up
}
AWK
set -- $(awk -v As="$2" -v Bs="$3" -v Ae="$5" -v Be="$6" -v lost="$lost" -f "$SCRATCH/bounds.awk" "$SCRATCH/window/perf.script")
own_tr=$1 dr_lo=$2 dr_up=$3 c_lo=$4 c_up=$5
for kind in direct_reclaim compaction; do
	vm=$(value "$t" workload_${kind}_stalls_vmstat)
	tr=$(value "$t" workload_${kind}_stalls_trace)
	echo "$kind stalls in the window: vmstat $vm, trace $tr"
	check "both sources counted $kind stalls" [ "$vm" != none -a "$tr" != none ]
done
vm=$(value "$t" workload_direct_reclaim_stalls_vmstat)
tr=$(value "$t" workload_direct_reclaim_stalls_trace)
echo "direct reclaim: the trace's calls in the window $own_tr; vmstat's count may be $dr_lo to $dr_up"
check "the trace's direct-reclaim count is the calls that began in the window ($tr, $own_tr)" [ "$tr" -eq "$own_tr" ]
check "vmstat's direct-reclaim count is within what the trace's calls allow ($dr_lo <= $vm <= $dr_up)" \
	[ "$dr_lo" -le "$vm" -a "$vm" -le "$dr_up" ]
vm=$(value "$t" workload_compaction_stalls_vmstat)
tr=$(value "$t" workload_compaction_stalls_trace)
echo "compaction: vmstat's and the trace's counts may be $c_lo to $c_up"
check "vmstat's compaction count is within what the trace's attempts allow ($c_lo <= $vm <= $c_up)" \
	[ "$c_lo" -le "$vm" -a "$vm" -le "$c_up" ]
check "and so is the trace's ($c_lo <= $tr <= $c_up)" [ "$c_lo" -le "$tr" -a "$tr" -le "$c_up" ]
check "the window saw compaction stalls to count" [ "$(value "$t" workload_compaction_stalls_vmstat)" -gt 0 ]

# The reaper's delay is a guest timer (2 s). On the realtime clock a guest
# second follows the host's, and on a loaded host the wake came 4254 ms
# after mark_victim once (against 2010-2022 otherwise): a bound on it there
# would depend on the host's load. Under icount guest time counts
# instructions, so the timer's 2 s is 2 s of the guest's own work: 2003-2029
# ms in six trials (docs/CLOCKS.md) and 2010.9 here, 2.1 ms without the
# delay; the bounds below (1900-3000 ms, under 500 ms) sit over 100 ms from
# every figure seen, where the spread is about 10 ms: false-failure rate
# well under 1 in 1000. The script took 2m22s so, 2m16s on realtime (a
# lone icount reaper trial here: 78-86 s, while other tests ran).
for variant in stock oom-reaper-nodelay; do
	"$LAB" --quiet boot $variant --perf --clock icount -o "$SCRATCH/reaper-$variant" -- \
		'oom-hog --mode reaper --scope memcg --disk $OOMLAB_SLOW_DISK' > /dev/null ||
		fail "the reaper trial on $variant"
done
stock=$(value "$SCRATCH/reaper-stock/trial.json" reaper_wake_delay_ms)
nodelay=$(value "$SCRATCH/reaper-oom-reaper-nodelay/trial.json" reaper_wake_delay_ms)
echo "mark_victim to wake_reaper: stock $stock ms, oom-reaper-nodelay $nodelay ms"
stuck=$(value "$SCRATCH/reaper-stock/trial.json" oom-hog.oomhog_kill_to_exit_ns)
echo "the victim on stock exited $stuck ns after the kill"
# Without this the timer finds the victim gone and never wakes the reaper.
check "the victim stayed stuck past the reaper's delay" awk "BEGIN { exit !($stuck > 2500000000) }"
check "on stock the reaper wakes about 2 s after mark_victim" awk "BEGIN { exit !($stock >= 1900 && $stock <= 3000) }"
check "on oom-reaper-nodelay it wakes at once" awk "BEGIN { exit !($nodelay < 500) }"
check "the stuck victim was reaped on stock" [ "$(value "$SCRATCH/reaper-stock/trial.json" reaper_reaped)" = 1 ]

set +e
"$LAB" --quiet boot stock --perf -o "$SCRATCH/panic" -- \
	'oom-hog --mode memcg --hogs 1 --kills 1 > /dev/null; echo c > /proc/sysrq-trigger' > /dev/null 2>&1
status=$?
set -e
t="$SCRATCH/panic/trial.json"
check "the trial panicked" [ "$status" -eq 123 ]
check "it is marked partial" [ "$(jq '.partial' "$t")" = true ]
check "the trace before the panic still gave its metrics" [ "$(value "$t" oom_kills_trace)" = 1 ]
