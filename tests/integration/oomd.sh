# The second userspace killer row, killer = oomd (common/proto/killer-kinds.h;
# systemd-oomd's memory-pressure rule, workloads/oomd/, docs/FIDELITY-OOMD.md),
# booted: a bad killer name and another kind's key are one line naming
# file:line, exit 254, before anything boots; then, on phone-512m with
# killer = oomd, limit 20 % and duration 5 s, the command splits the workload
# cgroup into main (itself), bystander (a holder of 8 MiB, sleeping) and
# victim (memory.max 48M, a presser rewriting 96 MiB of incompressible data:
# it thrashes through zram at its limit, so the workload cgroup's PSI full
# stays high). Checks: the agent started oomd; oomd killed the victim cgroup
# (its kill line names .../victim, the pressure it saw above the limit for at
# least the duration) and the presser died of SIGKILL before its alarm; it
# killed neither main nor bystander, and the bystander lived; oomd_kills is
# the number of kill lines and oomd_kills_trace the SIGKILLs of oomlab-oomd
# (one process killed); the kernel's OOM killer killed nothing; the trial
# has no lmkd metric.
#
# False-failure rate. The one outcome the test does not control is whether
# the pressure stays over the limit for 5 s within the presser's 90 s: it
# needs the workload cgroup's PSI full avg10 above 20 % for five polls in a
# row, with reclaim. The presser is the cgroup's only running task and
# spends most of its time in memcg reclaim at its limit. Measured on this
# machine (2 shared cores, TCG), 10 runs of this script, 10 passed: at the
# kill avg10 was 29.9-38.3 % and the kill came 10.0-12.3 s after the press
# began (of the 90 s it has). avg10 is a 10 s average: reaching about 34 %
# about 10 s in means a stall share of about 50-55 % (s * (1 - e^-1)); a run
# fails only if that share stays under 20 %, less than 40 % of what every
# run showed, for some 80 s on end. Not a computed bound: 10 runs alone
# cannot show 1 in 1000; the margin is what the figure rests on. The rest
# is deterministic given the kill: the victim is the only candidate with
# reclaim (main's and bystander's pgscan stay 0), a second kill waits 15 s
# (systemd's post-kill delay) and the command ends within a second of the
# first; oomd_kills_trace needs perf to keep the one signal sample (not
# counted here: it held in all 10 runs).
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building stock"

# --- bad input: nothing boots
mkdir -p "$SCRATCH/root"
cp -r "$ROOT/kernels" "$ROOT/configs" "$SCRATCH/root/"
printf 'description = bad\nmemory = 512M\nkiller = omd\n' > "$SCRATCH/root/configs/profiles/bad-killer.conf"
printf 'description = bad\nmemory = 512M\nkiller = lmkd\noomd.memory_pressure_limit_percent = 30\n' \
	> "$SCRATCH/root/configs/profiles/bad-key.conf"
for p in bad-killer:3 bad-key:4; do
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
check_text "bad-killer: the nearest kind is offered" \
	"$(OOMLAB_ROOT="$SCRATCH/root" "$LAB" boot stock -p bad-killer -o "$SCRATCH/never" -- true 2>&1 || true)" \
	"did you mean 'oomd'?"

# --- the test's programs: a holder and a presser, and the guest script
mkdir -p "$SCRATCH/files"
cat > "$SCRATCH/press.c" <<'C'
/* press hold|press MIB SECS: fills MIB MiB with incompressible bytes, then
 * sleeps (hold) or rewrites a word of every page (press) until its alarm. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	int press = !strcmp(argv[1], "press");
	size_t n = strtoul(argv[2], NULL, 10) << 20;
	alarm((unsigned)atoi(argv[3]));
	uint64_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 4;
	uint64_t x = 88172645463325252ULL ^ (uint64_t)getpid();
	for (size_t i = 0; i < n / 8; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		p[i] = x;
	}
	printf("%s filled %s MiB\n", argv[1], argv[2]);
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
cc -O2 -Wall -Wextra -Werror -o "$SCRATCH/files/press" "$SCRATCH/press.c" || fail "cc press"
cat > "$SCRATCH/files/oomd-guest" <<'SH'
cg=/sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)
echo "workload cgroup: $cg"
mkdir "$cg/main" "$cg/victim" "$cg/bystander" || exit 90
# every process of the workload cgroup into main (the agent's sh -c too):
# a cgroup with processes cannot give its children the memory controller
for p in $(cat "$cg/cgroup.procs"); do echo $p > "$cg/main/cgroup.procs" 2> /dev/null; done
echo $$ > "$cg/main/cgroup.procs" || exit 91
echo +memory > "$cg/cgroup.subtree_control" || exit 92
echo 48M > "$cg/victim/memory.max" || exit 93
sh -c "echo \$\$ > $cg/bystander/cgroup.procs && exec press hold 8 150" & calm=$!
sleep 2
echo "oomlab-test: press" > /dev/kmsg
start=$(cut -d' ' -f1 /proc/uptime)
sh -c "echo \$\$ > $cg/victim/cgroup.procs && exec press press 96 90"
echo "presser ended: $?"
end=$(cut -d' ' -f1 /proc/uptime)
echo "pressed from $start to $end s of uptime"
if kill -0 $calm; then echo "bystander alive"; else echo "bystander gone"; fi
kill $calm
wait
exit 0
SH

printf 'description = oomd test\nmemory = 512M\ncpus = 2\nzram_size = 256M\nzram_algorithm = lz4\n' > "$SCRATCH/oomd-test.conf"
printf 'cgroup.memory.max = 384M\nkiller = oomd\n' >> "$SCRATCH/oomd-test.conf"
printf 'oomd.memory_pressure_limit_percent = 20\noomd.memory_pressure_duration_ms = 5000\n' >> "$SCRATCH/oomd-test.conf"

T="$SCRATCH/t"
set +e
"$LAB" boot stock -p "$SCRATCH/oomd-test.conf" --perf --files "$SCRATCH/files" -o "$T" -- \
	'sh /oomlab/files/oomd-guest' > "$SCRATCH/boot.out" 2>&1
status=$?
set -e
cat "$SCRATCH/boot.out"
check "the boot ended (status $status: the command's)" [ "$status" -eq 0 ]
J="$T/trial.json"
check "trial.json was written" test -s "$J"
check "the agent started oomd" grep -q '"type":"killer".*"name":"oomd"' "$T/ctl.jsonl"
sed 's/^[^;]*;//' "$T/kmsg.log" > "$SCRATCH/kmsg.txt"
grep '^oomd: ' "$SCRATCH/kmsg.txt" > "$SCRATCH/oomd-lines" || true
cat "$SCRATCH/oomd-lines"
n_lines=$(grep -c '^oomd: Killed ' "$SCRATCH/oomd-lines" || true)
check "oomd killed ($n_lines kill lines)" [ "$n_lines" -ge 1 ]
first=$(grep -m1 '^oomd: Killed ' "$SCRATCH/oomd-lines")
check_text "its first kill is of the victim cgroup, one process" "$first" \
	'^oomd: Killed /sys/fs/cgroup/workload/victim (1 processes): '
check "no kill of main or bystander" sh -c "! grep -E 'Killed [^ ]*/(main|bystander) ' '$SCRATCH/oomd-lines'"
set -- $(printf '%s\n' "$first" | sed -n 's/.*memory pressure \([0-9.]*\)% > \([0-9]*\)% for \([0-9]*\)ms in \([^,]*\),.*/\1 \2 \3 \4/p')
check "the kill line says the pressure, the limit, the time over it and the monitored cgroup" [ $# -eq 4 ]
echo "at the kill: PSI full avg10 $1 % (limit $2 %), over it for $3 ms, in $4"
check "the pressure was above the limit of 20 % ($1 %)" awk -v a="$1" 'BEGIN { exit !(a > 20) }'
check "the limit is the profile's" [ "$2" -eq 20 ]
check "over it for at least the profile's 5000 ms ($3 ms)" [ "$3" -ge 5000 ]
check "the monitored cgroup is the workload cgroup" [ "$4" = /sys/fs/cgroup/workload ]
check "the presser died of SIGKILL (137), not at its alarm" grep -qx 'presser ended: 137' "$SCRATCH/boot.out"
check "the bystander lived" grep -qx 'bystander alive' "$SCRATCH/boot.out"
kills=$(metric_of "$J" oomd_kills)
trace=$(metric_of "$J" oomd_kills_trace)
oom=$(metric_of "$J" oom_kills)
echo "oomd_kills $kills oomd_kills_trace $trace oom_kills $oom"
check "oomd_kills is the number of kill lines ($kills, $n_lines)" [ "$kills" -eq "$n_lines" ]
procs=$(sed -n 's/^oomd: Killed [^ ]* (\([0-9]*\) processes).*/\1/p' "$SCRATCH/oomd-lines" | awk '{ s += $1 } END { print s + 0 }')
check "oomd_kills_trace is the processes the lines say were killed ($trace, $procs)" [ "$trace" -eq "$procs" ]
check "the kernel's OOM killer killed nothing ($oom)" [ "$oom" -eq 0 ]
check "no lmkd metric in an oomd trial" [ "$(jq '[.metrics[] | select(.name | startswith("lmkd_"))] | length' "$J")" -eq 0 ]
