# The guest's low-memory killer (killer = lmkd) under pressure this test
# makes, on phone-512m-lmkd. First a prelude for the kernel's OOM killer:
# with the workload cgroup's swap off and its limit at 64M, two processes
# the test set to oom_score_adj 200 and 100 fill 96 MiB each, one after the
# other, and the kernel's memcg OOM killer takes each. Then, with the limit
# at 144M and swap back on, three holders of 24 MiB at oom_score_adj 100
# (visible), 500 (service) and 900 (cached), and a presser at 0
# (foreground) that keeps rewriting 160 MiB of incompressible data. Checks
# that lmkd's first kill is the cached holder, that its kernel log line says
# what trial.json says, that the trace counts its SIGKILLs as its log does,
# that each kill was reaped, that a PSI trigger fired within its window;
# that every kill, lmkd's and the kernel's, is of the tier of the adj the
# test gave its victim, and the by-tier counts say so; and that a bad lmkd
# value is one line naming file:line, exit 254 (lab boot's bad input),
# before anything boots.
#
# Why the kernel cannot kill before lmkd in the pressure phase: the
# workload's anonymous memory there is 3 x 24 + 160 = 232 MiB. A swap slot
# holds one of those pages, so the cgroup never needs more than 232 MiB of
# swap, which zram's 256M has: its reclaim can always swap, and a memcg
# OOM cannot come. RAM: the cgroup's resident pages (at most its 144M) and
# zram's copies (at most 232 MiB of incompressible pages, a page each plus
# zsmalloc's few bytes) are at most 376 MiB, under the 416 MiB the guest
# has available at the start (MemAvailable, printed first; 426388 kB
# here), so the page allocator cannot run dry and no global OOM comes
# either. The presser alone (160 MiB) exceeds the 144M limit, so it
# thrashes through zram, which is the stall lmkd acts on;
# under any of its reasons the cached holder is the first it may kill
# (lmkd-victim.c: the highest adj first). (Not yet run against the killer
# that decides as lmkd does, lmkd-policy.c: a stall alone no longer kills,
# and a memcg limit moves neither the zone watermarks nor pgscan_*, so
# whether it kills here depends on swap running low by lmkd's measure.) So "its first kill is the cached
# holder" does not race the kernel: its false-failure rate from that race
# is 0. The prelude's victims are at adj 100 and 200, which lmkd kills only
# on a full stall of 700 ms in a second (NOT_RESPONDING); a memcg OOM with
# swap off comes within a few reclaim passes (in the runs here the prelude
# raised no PSI event at all: the first came in the pressure phase).
#
# "Within its window", checkable: the killer samples PSI's stall totals
# every 100 ms and logs each event with the stall it saw over the window
# before the event and how long after that stall first reached the
# threshold the event came (common/kernel-text/lmkd-lines.h). The test
# holds the first event to both: the stall it saw reached the threshold,
# and the event came no later than one window after the crossing.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building stock"

# --- bad input: nothing boots
mkdir -p "$SCRATCH/root"
cp -r "$ROOT/kernels" "$ROOT/configs" "$SCRATCH/root/"
printf 'description = bad\nmemory = 512M\nkiller = lmkd\nlmkd.psi_window_ms = 20000\n' \
	> "$SCRATCH/root/configs/profiles/bad-lmkd.conf"
printf 'description = bad\nmemory = 512M\nkiller = lmkd2\n' > "$SCRATCH/root/configs/profiles/bad-killer.conf"
for p in bad-lmkd:4 bad-killer:3; do
	set +e
	msg=$(OOMLAB_ROOT="$SCRATCH/root" "$LAB" boot stock -p "${p%:*}" -o "$SCRATCH/never" -- true 2>&1)
	status=$?
	set -e
	echo "$msg"
	check "${p%:*}: exit status 254 (lab boot's bad input)" [ "$status" -eq 254 ]
	check_text "${p%:*}: the error names file and line" "$msg" "${p%:*}.conf:${p#*:}: "
	check "${p%:*}: one line" [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ]
	check "${p%:*}: nothing booted" [ ! -e "$SCRATCH/never" ]
done

# --- the memory holders: NAME ADJ MIB [press]
mkdir -p "$SCRATCH/files"
cat > "$SCRATCH/mem-hold.c" <<'C'
/* Names itself NAME, sets its oom_score_adj to ADJ, fills MIB MiB with
 * incompressible bytes, says so, then holds them (or, with "press", keeps
 * rewriting them) until its alarm: 40 s holding, 25 s pressing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	int press = argc > 4;
	prctl(PR_SET_NAME, argv[1]);
	FILE *f = fopen("/proc/self/oom_score_adj", "w");
	if (!f || fprintf(f, "%s\n", argv[2]) < 0 || fclose(f))
		return 3;
	alarm(press ? 25 : 40);
	size_t n = strtoul(argv[3], NULL, 10) << 20;
	uint64_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 4;
	uint64_t x = 88172645463325252ull ^ (uint64_t)getpid();
	for (size_t i = 0; i < n / 8; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		p[i] = x;
	}
	printf("%s filled %s MiB\n", argv[1], argv[3]);
	fflush(stdout);
	for (;;) {
		if (!press) {
			pause();
			continue;
		}
		for (size_t i = 0; i < n / 8; i += 512) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			p[i] = x;
		}
	}
}
C
cc -O2 -o "$SCRATCH/files/mem-hold" "$SCRATCH/mem-hold.c" || fail "cc mem-hold"

T="$SCRATCH/t"
set +e
"$LAB" boot stock -p phone-512m-lmkd --perf --files "$SCRATCH/files" -o "$T" -- \
	'grep -E "^(MemTotal|MemAvailable):" /proc/meminfo
	 cg=/sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)
	 swap=$(cat $cg/memory.swap.max)
	 echo 0 > $cg/memory.swap.max && echo 64M > $cg/memory.max || exit 90
	 mem-hold oom-200 200 96; echo "oom-200 ended: $?"
	 mem-hold oom-100 100 96; echo "oom-100 ended: $?"
	 echo 144M > $cg/memory.max && echo $swap > $cg/memory.swap.max || exit 91
	 mem-hold hold-100 100 24 & mem-hold hold-500 500 24 & mem-hold hold-900 900 24 &
	 sleep 5; mem-hold press-0 0 160 press; echo presser ended; wait' > "$SCRATCH/boot.out" 2>&1
status=$?
set -e
cat "$SCRATCH/boot.out"
check "the boot ended (status $status: the command's)" [ "$status" -lt 124 ]
check "the command could set the workload cgroup's limits (status 90, 91: it could not)" \
	[ "$status" -ne 90 -a "$status" -ne 91 ]
J="$T/trial.json"
check "trial.json was written" test -s "$J"
check "the agent started the killer" grep -q '"type":"killer".*"name":"lmkd"' "$T/ctl.jsonl"

# metric NAME: its value, or "absent", for the line printed below only; a
# metric a check is about is read with metric_of (lib.sh), which fails if absent
metric() {
	jq -r --arg n "$1" '[.metrics[] | select(.name == $n) | .value][0] // "absent"' "$J"
}
kills=$(metric_of "$J" lmkd_kills)
trace=$(metric_of "$J" lmkd_kills_trace)
echo "lmkd_kills $kills lmkd_kills_trace $trace oom_kills $(metric oom_kills)" \
	"lmkd_reap_ms $(metric lmkd_reap_ms) lmkd_reap_max_ms $(metric lmkd_reap_max_ms)" \
	"events some $(metric lmkd_psi_events.kind=some) full $(metric lmkd_psi_events.kind=full)" \
	"kmsg_missed_records $(metric kmsg_missed_records)"
jq -c '.lmkd_kills[]' "$J"
jq -c '.lmkd_events[]' "$J" | head -5
check "lmkd killed under the pressure ($kills)" [ "$kills" -gt 0 ]
check "its first kill is the cached holder" \
	jq -e '.lmkd_kills[0] | .comm == "hold-900" and .oom_score_adj == 900 and .tier == "cached"' "$J"
check "no line of the killer's was dropped by /dev/kmsg's ratelimit" \
	sh -c "! grep -q 'oomlab-lmkd: .* suppressed' '$T/kmsg.log'"
check "the trace counts as many SIGKILLs from the killer as its log has kills" [ "$trace" -eq "$kills" ]
check "every kill was reaped" jq -e '[.lmkd_kills[] | select(.reaped != true)] | length == 0' "$J"

# --- every kill's tier, against the adj the test gave its victim. The
# expected tier is written here from what the test set (the name says the
# adj; the tiers are Android's ProcessList values, as app-tiers.h's comment
# gives them), not computed by the code that made the counts.
# adj_of NAME: the oom_score_adj the test gave the process it named so
adj_of() {
	case $1 in
	press-0) echo 0 ;;
	oom-100 | hold-100) echo 100 ;;
	oom-200) echo 200 ;;
	hold-500) echo 500 ;;
	hold-900) echo 900 ;;
	*) echo unknown ;;
	esac
}
# tier_of ADJ: its tier
tier_of() {
	case $1 in
	0) echo foreground ;;
	100) echo visible ;;
	200) echo perceptible ;;
	500) echo service ;;
	900) echo cached ;;
	*) echo unknown ;;
	esac
}
TIERS="foreground visible perceptible service cached"
# lmkd's kills: each line's adj and tier
jq -r '.lmkd_kills[] | "\(.comm) \(.oom_score_adj) \(.tier)"' "$J" > "$SCRATCH/lmkd-kills"
while read -r comm adj tier; do
	want_adj=$(adj_of "$comm")
	want_tier=$(tier_of "$want_adj")
	check "lmkd's kill of $comm: the adj the test gave it ($adj, set $want_adj), tier $want_tier ($tier)" \
		[ "$adj" = "$want_adj" -a "$tier" = "$want_tier" ]
done < "$SCRATCH/lmkd-kills"
# the kernel's kills, from its own report lines in kmsg.log (not trial.json)
sed -n 's/.*[Oo]ut of memory: Killed process [0-9]* (\(.*\)) .* oom_score_adj:\(-*[0-9]*\).*/\1 \2/p' "$T/kmsg.log" \
	> "$SCRATCH/kernel-kills"
echo "the kernel's kills: $(tr '\n' ',' < "$SCRATCH/kernel-kills")"
check "the kernel killed the prelude's oom-200" grep -qx 'oom-200 200' "$SCRATCH/kernel-kills"
check "and its oom-100" grep -qx 'oom-100 100' "$SCRATCH/kernel-kills"
reports=$(metric_of "$J" oom_kills_kmsg)
check "the kernel's kill reports in kmsg.log are oom_kills_kmsg ($reports)" \
	[ "$(wc -l < "$SCRATCH/kernel-kills")" -eq "$reports" ]
# by tier: each victim's tier from the adj the test gave it, counted here
for who in lmkd kernel; do
	metric_name=oom_kills
	[ $who = lmkd ] && metric_name=lmkd_kills
	while read -r comm rest; do tier_of "$(adj_of "$comm")"; done < "$SCRATCH/$who-kills" > "$SCRATCH/$who-tiers"
	for t in $TIERS; do
		want=$(grep -cx "$t" "$SCRATCH/$who-tiers" || true)
		got=$(metric_of "$J" "$metric_name.tier=$t")
		check "$metric_name.tier=$t is the $who's kills of processes the test set to that tier ($got, want $want)" \
			[ "$got" -eq "$want" ]
	done
done

# the first kill's kernel log line, as written, against what the host parsed
line=$(grep -m1 ';lmkd: Kill ' "$T/kmsg.log" | sed 's/^[^;]*;//')
echo "kmsg: $line"
want=$(jq -r '.lmkd_kills[0] | "lmkd: Kill '"'"'\(.comm)'"'"' (\(.pid)), oom_score_adj \(.oom_score_adj) (\(.tier)) to free \(.rss_kb)kB rss, \(.swap_kb)kB swap; reason: \(.reason); psi some "' "$J")
# and each kill's time on the trace's clock, by order, not by a window: the
# killer reads CLOCK_MONOTONIC (t_mono_ns), sends the SIGKILL (whose
# signal_generate the trace stamps on the same clock) and reads the clock
# again as the send returns (t_sent_ns; lmkd-kill.c). So the trace's
# SIGKILL lies between the two, however long a preempted vCPU stretched the
# time between them: false-failure rate 0. A clock other than the trace's,
# off by more than the send took (under a millisecond here), fails it; so
# does the kill before's SIGKILL coming after this kill's first reading
# (the killer kills one at a time).
jq -r '.lmkd_kills[] | "\(.pid) \(.t_mono_ns) \(.t_sent_ns)"' "$J" > "$SCRATCH/kill-times"
while read -r pid t_mono t_sent; do
	sig_ns=$(awk -v pid="$pid" '/oomlab-lmkd .*signal_generate: sig=9 / && $0 ~ " pid=" pid " " {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); split($i, p, "."); print p[1] p[2]; exit } }' \
		"$T/perf.script")
	echo "kill of $pid: t_mono_ns $t_mono, the trace's SIGKILL ${sig_ns:-none}, t_sent_ns $t_sent"
	check "the trace has the killer's SIGKILL to $pid" [ -n "$sig_ns" ]
	check "the line says when the send returned" [ "$t_sent" != null ]
	check "the trace's SIGKILL lies between the line's two readings of CLOCK_MONOTONIC" \
		[ "$t_mono" -le "$sig_ns" -a "$sig_ns" -le "$t_sent" ]
	check "after the kill before's SIGKILL (${prev_sig:-none})" [ "$t_mono" -gt "${prev_sig:-0}" ]
	prev_sig=$sig_ns
done < "$SCRATCH/kill-times"
check_text "the log line is what trial.json says (pid, comm, adj, tier, rss, swap, reason)" "$line" "^$want"
# reclaim may have swapped part of it out by then: resident and swapped,
# the 24 MiB it filled and its program's and libc's pages (under 4 MiB)
check "and its rss and swap are the 24 MiB the holder filled" \
	jq -e '.lmkd_kills[0] | .rss_kb > 0 and .rss_kb + .swap_kb >= 24576 and .rss_kb + .swap_kb < 28672' "$J"

# a PSI trigger fired within its window
check "a PSI event woke the killer" jq -e '.lmkd_events | length >= 1' "$J"
check "the first event's stall over its window reached its threshold" \
	jq -e '.lmkd_events[0] | .stall_ms >= .threshold_ms' "$J"
check "and it came within one window of the stall reaching the threshold" \
	jq -e '.lmkd_events[0] | .after_crossing_ms != null and .after_crossing_ms >= 0 and .after_crossing_ms <= .window_ms' "$J"
