# The guest's low-memory killer (killer = lmkd) under pressure this test
# makes: on phone-512m-lmkd, three holders of 40 MiB at oom_score_adj 100
# (visible), 500 (service) and 900 (cached), then a presser at 0
# (foreground) that keeps rewriting 500 MiB of incompressible data, more
# than the workload cgroup (384M) and zram together hold. Checks that
# lmkd's first kill is the cached holder, that its kernel log line says
# what trial.json says, that the trace counts its SIGKILLs as its log
# does, that each kill was reaped, and that a PSI trigger fired within its
# window; and that a bad lmkd value is one line naming file:line, exit 254
# (lab boot's bad input),
# before anything boots.
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
	'mem-hold hold-100 100 40 & mem-hold hold-500 500 40 & mem-hold hold-900 900 40 &
	 sleep 5; mem-hold press-0 0 500 press; echo presser ended; wait' > "$SCRATCH/boot.out" 2>&1
status=$?
set -e
cat "$SCRATCH/boot.out"
check "the boot ended (status $status: the command's)" [ "$status" -lt 124 ]
J="$T/trial.json"
check "trial.json was written" test -s "$J"
check "the agent started the killer" grep -q '"type":"killer".*"name":"lmkd"' "$T/ctl.jsonl"

metric() {
	jq -r --arg n "$1" '[.metrics[] | select(.name == $n) | .value][0] // "absent"' "$J"
}
kills=$(metric lmkd_kills)
trace=$(metric lmkd_kills_trace)
echo "lmkd_kills $kills lmkd_kills_trace $trace oom_kills $(metric oom_kills)" \
	"lmkd_reap_ms $(metric lmkd_reap_ms) lmkd_reap_max_ms $(metric lmkd_reap_max_ms)" \
	"events some $(metric lmkd_psi_events.kind=some) full $(metric lmkd_psi_events.kind=full)" \
	"kmsg_missed_records $(metric kmsg_missed_records)"
jq -c '.lmkd_kills[]' "$J"
jq -c '.lmkd_events[]' "$J" | head -5
check "lmkd killed under the pressure" [ "$kills" != absent -a "$kills" != 0 ]
check "its first kill is the cached holder" \
	jq -e '.lmkd_kills[0] | .comm == "hold-900" and .oom_score_adj == 900 and .tier == "cached"' "$J"
check "lmkd_kills.tier=cached counts it" [ "$(metric lmkd_kills.tier=cached)" -ge 1 ]
check "no line of the killer's was dropped by /dev/kmsg's ratelimit" \
	sh -c "! grep -q 'oomlab-lmkd: .* suppressed' '$T/kmsg.log'"
check "the trace counts as many SIGKILLs from the killer as its log has kills" [ "$trace" = "$kills" ]
check "every kill was reaped" jq -e '[.lmkd_kills[] | select(.reaped != true)] | length == 0' "$J"
by_tier=$(jq '[.metrics[] | select(.name | startswith("oom_kills.tier=")) | .value] | add // -1' "$J")
check "the kernel's kills by tier add up to its kill reports ($by_tier, $(metric oom_kills_kmsg))" \
	[ "$by_tier" = "$(metric oom_kills_kmsg)" ]

# the first kill's kernel log line, as written, against what the host parsed
line=$(grep -m1 ';lmkd: Kill ' "$T/kmsg.log" | sed 's/^[^;]*;//')
echo "kmsg: $line"
want=$(jq -r '.lmkd_kills[0] | "lmkd: Kill '"'"'\(.comm)'"'"' (\(.pid)), oom_score_adj \(.oom_score_adj) (\(.tier)) to free \(.rss_kb)kB rss, \(.swap_kb)kB swap; reason: \(.reason); psi some "' "$J")
# and its time on the trace's clock: within 50 ms before the trace's SIGKILL to it
sig_ns=$(awk -v pid="$(jq -r '.lmkd_kills[0].pid' "$J")" '/oomlab-lmkd .*signal_generate: sig=9 / && $0 ~ " pid=" pid " " {
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); split($i, p, "."); print p[1] p[2]; exit } }' "$T/perf.script")
echo "trace SIGKILL at $sig_ns ns, the line's t_mono_ns $(jq -r '.lmkd_kills[0].t_mono_ns' "$J")"
check "the line's t_mono_ns is the trace's SIGKILL's time, within 50 ms before it" \
	jq -e --argjson s "${sig_ns:-0}" '.lmkd_kills[0].t_mono_ns <= $s and $s - .lmkd_kills[0].t_mono_ns < 50000000' "$J"
check_text "the log line is what trial.json says (pid, comm, adj, tier, rss, swap, reason)" "$line" "^$want"
# reclaim may have swapped part of it out by then: resident and swapped,
# the 40 MiB it filled and its program's and libc's pages (under 4 MiB)
check "and its rss and swap are the 40 MiB the holder filled" \
	jq -e '.lmkd_kills[0] | .rss_kb > 0 and .rss_kb + .swap_kb >= 40960 and .rss_kb + .swap_kb < 45056' "$J"

# a PSI trigger fired within its window
check "a PSI event woke the killer" jq -e '.lmkd_events | length >= 1' "$J"
check "the first event's stall over its window reached its threshold" \
	jq -e '.lmkd_events[0] | .stall_ms >= .threshold_ms' "$J"
check "and it came within one window of the stall reaching the threshold" \
	jq -e '.lmkd_events[0] | .after_crossing_ms != null and .after_crossing_ms >= 0 and .after_crossing_ms <= .window_ms' "$J"
