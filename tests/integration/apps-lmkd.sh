# The apps workload as ActivityManager keeps its apps, under the guest's
# lmkd on phone-512m-lmkd (issue 33 part 3): ten apps, app 0 the launcher,
# each in a memcg of its own with no memory.max, the workload cgroup with
# no limit either, so the pressure is the whole machine's; pages 67 %
# random (ChromeOS's memory.Stress), switches 1 s apart.
# Checks:
# - every cold start ran in its own memcg, /workload/app-NN (the kernel's
#   /proc/PID/cgroup as the workload read it), and the workload's folder
#   gave its processes to apps-system (cgroup v2's rule for a parent);
# - the states ActivityManager gives: the launcher at 600, a previous app
#   at 700, cached apps at 900 + 10 x slot, never 999 with ten apps;
# - "The previous app outlives the cached apps": at each of lmkd's kills
#   (trial.json's lmkd_kills, on the guest's CLOCK_MONOTONIC, the clock of
#   the workload's events), the tier the model gave every app then (from
#   out.log's app-state events) says: a previous app is killed only when no
#   app that had been cached for 200 ms or more was alive; and lmkd took a
#   cached app while a previous app was alive at least once (so the rule
#   was put to the test);
# - deaths by tier for the new tiers (home, previous, service-b) and
#   first_kill_ms are in trial.json; first_kill_ms is no later than the
#   events say (the phase's start to the first death reaped).
#
# Why "no cached app alive" holds with no false failure from timing: lmkd
# reads every candidate's current oom_score_adj from /proc when it picks a
# victim (lmkd.c kill_one()) and takes the highest first, so a cached app
# (900-990) goes before a previous one (700) whatever its reason's floor.
# Only an app whose adj changed between that read and the kill's clock
# reading (t_mono_ns, read just before the SIGKILL; well under a
# millisecond, one failed kill attempt at most) could be seen otherwise;
# the workload stamps its app-state events after it wrote the adj, so the
# 200 ms this check allows covers that with a wide margin. The kernel's own
# OOM killer could take a previous app first only with more than 20 % of
# RAM plus swap between their footprints (its badness adds adj x total /
# 1000), which ten apps of 44 MiB cannot have. False-failure rate: 0 from
# these bounds.
# "lmkd took a cached app while a previous app was alive" needs lmkd to
# kill: ten apps of 44 MiB, 67 % random (so zram stores about two thirds
# of each swapped page), and 2 MiB of file pages each, 460 MiB on a guest
# of about 480 MiB, 40 switches a second apart. In 4 runs of this version
# lmkd killed 3-8 apps and took a cached app beside a live previous one
# 2-6 times (an earlier 30-switch version: 4 kills, 2 such). That event is
# the test's power, not the rule: a run without it leaves the rule untested,
# not broken. So a run without one is run again, with the next seed, at most
# 4 runs (about 70 s each); every run's other checks must pass, and the test
# fails only when none of the 4 put the rule to the test. False-failure rate:
# taking such events as Poisson with the fewest seen in a run (2) as the
# mean, a run goes without one with p = e^-2 = 0.135, and 4 runs in a row
# with 0.135^4 = 3.3e-4, under 1 in 1000.
# Seen failing: with the model giving the previous app adj 995 (its tier
# still "previous"), lmkd killed it first three times with 3-6 cached apps
# alive ("bad 3", and "good 0"), and the states check "a previous app at
# 700" failed before either.
. "$(dirname "$0")/lib.sh"

"$LAB" kernel build stock || fail "building the kernel"

# attempt N: run N (seed 6 + N) and its checks; leaves J, out, kills, good
attempt() {
	mkdir -p "$SCRATCH/exp"
	cat > "$SCRATCH/exp/apps-lmkd.conf" <<EOF
description = apps as ActivityManager keeps them, under lmkd, per-app memcgs, no hard limit
variants = stock
profile = phone-512m-lmkd
trials = 1
jobs = 1
clock = realtime
trial_timeout = 400
workload = apps --anon 44M --file 2M --switches 40 --interval 1s --random 67 --seed $((6 + $1))
metrics = apps.deaths lmkd_kills
EOF
	RUN="$SCRATCH/run-$1"
	"$LAB" run -x "$SCRATCH/exp/apps-lmkd.conf" -o "$RUN" > "$SCRATCH/run.out" 2> "$SCRATCH/run.err" || {
		cat "$SCRATCH/run.err" >&2
		fail "lab run"
	}
	t=$(ls -d "$RUN"/stock/*/ | head -1)
	t=${t%/}
	J="$t/trial.json"
	out="$t/out.log"
	ev() {
		jq -R -c "fromjson? | select(.workload == \"apps\" and .name == \"$1\")" "$out"
	}

	# --- a memcg per app
	ev app-memcg
	check "the workload made its ten groups under the workload cgroup, its own processes moved aside" \
		jq -R -s -e '[split("\n")[] | fromjson? | select(.workload == "apps" and .name == "app-memcg")] |
			length == 1 and (.[0] | .dir == "/sys/fs/cgroup/workload" and .groups == 10 and .moved >= 1)' "$out"
	ev app-launch | jq -r 'select(.kind == "cold" and .ok) | "\(.app) \(.memcg)"' > "$SCRATCH/memcgs"
	echo "cold starts and their memcgs: $(tr '\n' ',' < "$SCRATCH/memcgs")"
	check "cold starts were made ($(wc -l < "$SCRATCH/memcgs"))" [ "$(wc -l < "$SCRATCH/memcgs")" -ge 10 ]
	while read -r app cg; do
		want=$(printf '/workload/app-%02d' "$app")
		check "app $app ran in its own memcg ($cg)" [ "$cg" = "$want" ]
	done < "$SCRATCH/memcgs"

	# --- the states ActivityManager gives
	ev app-state | jq -r '"\(.tier) \(.adj)"' | sort -u > "$SCRATCH/states"
	echo "tiers and adj seen: $(tr '\n' ',' < "$SCRATCH/states")"
	check "the launcher at 600" grep -qx 'home 600' "$SCRATCH/states"
	check "a previous app at 700" grep -qx 'previous 700' "$SCRATCH/states"
	check "no state off its adj, no cached app at 999 with ten apps" \
		sh -c "! grep -v -x -E 'foreground 0|visible 100|perceptible 200|service 500|home 600|previous 700|service-b 800|cached 9[0-9]0' '$SCRATCH/states'"

	# --- the previous app outlives the cached apps
	kills=$(metric_of "$J" lmkd_kills)
	cached_deaths=$(metric_of "$J" apps.deaths.tier=cached)
	echo "lmkd kills $kills, deaths: cached $cached_deaths previous $(metric_of "$J" apps.deaths.tier=previous)" \
		"home $(metric_of "$J" apps.deaths.tier=home) service-b $(metric_of "$J" apps.deaths.tier=service-b)"
	# one time-ordered list: the model's states and the apps' births from
	# out.log, lmkd's kills of apps from trial.json, other deaths (reaped) from out.log
	{
		ev app-state | jq -r '"\(.t_mono_ns) state \(.app) \(.tier)"'
		ev app-launch | jq -r 'select(.kind == "cold" and .ok) | "\(.t_mono_ns) birth \(.app) -"'
		jq -r '.lmkd_kills[] | select(.comm | test("^app-[0-9]+$")) | "\(.t_mono_ns) kill \(.comm | ltrimstr("app-") | tonumber) \(.pid)"' "$J"
		jq -r '[.lmkd_kills[].pid] | map(tostring) | join(" ")' "$J" > "$SCRATCH/lmkd-pids"
		ev app-death | jq -r --arg p " $(cat "$SCRATCH/lmkd-pids") " \
			'.pid as $x | select(($p | contains(" \($x) ")) | not) | "\(.t_mono_ns) death \(.app) \(.pid)"'
	} | sort -n -k1,1 > "$SCRATCH/timeline"
	awk -v grace=200000000 '
		$2 == "state" { tier[$3] = $4; since[$3] = $1; next }
		$2 == "birth" { alive[$3] = 1; next }
		$2 == "death" { alive[$3] = 0; next }
		$2 == "kill" {
			v = $3; cached = 0; previous = 0
			for (a in alive)
				if (alive[a] && a != v) {
					if (tier[a] == "cached" && $1 - since[a] >= grace) cached++
					if (tier[a] == "previous") previous++
				}
			if (tier[v] == "previous") { print "previous-kill app " v " cached-alive " cached; if (cached) bad++ }
			if (tier[v] == "cached" && previous) good++
			alive[v] = 0
		}
		END { print "bad " bad + 0; print "good " good + 0 }' "$SCRATCH/timeline" > "$SCRATCH/verdict"
	cat "$SCRATCH/verdict"
	bad=$(sed -n 's/^bad //p' "$SCRATCH/verdict")
	good=$(sed -n 's/^good //p' "$SCRATCH/verdict")
	check "the previous app outlived the cached apps: no previous app killed while a cached one lived ($bad)" \
		[ "$bad" -eq 0 ]

}

n=1
while :; do
	attempt "$n"
	[ "$good" -lt 1 ] && [ "$n" -lt 4 ] || break
	echo "run $n: lmkd took no cached app beside a live previous one ($kills kills): the rule was not put to the test, running again"
	n=$((n + 1))
done
check "lmkd killed apps ($kills, run $n)" [ "${kills%.*}" -ge 1 ]
check "the timeline has lmkd's kills of apps" grep -q ' kill ' "$SCRATCH/timeline"
check "lmkd took a cached app while a previous app was alive ($good times, run $n of at most 4)" \
	[ "$good" -ge 1 ]

# --- first_kill_ms: the phase's start to the first app death, no later than the events say
first=$(metric_of "$J" apps.first_kill_ms)
phase=$(jq -R -r 'fromjson? | select(.workload == "apps" and .name == "phase-begin" and .phase == "switch") | .t_mono_ns' "$out")
death=$(ev app-death | jq -r --argjson p "$phase" 'select(.signal == 9 and .t_mono_ns > $p) | .t_mono_ns' | head -1)
echo "first_kill_ms $first; the events: switch phase at $phase, first death reaped at $death"
check "first_kill_ms is above 0 and no later than the first death's event ($first ms)" \
	awk -v f="$first" -v p="$phase" -v d="$death" 'BEGIN { exit !(f > 0 && d != "" && f <= (d - p) / 1e6 + 0.001) }'
